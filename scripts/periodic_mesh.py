#!/usr/bin/env python3
"""Structured periodic meshes of the unit cube [0,1]^3 (triply periodic), written as Gmsh MSH 4.1 with a
$Periodic section that PETSc's Gmsh reader turns into a 3-torus (every face has two cells, cells on the far
side get localized coordinates), for flux reconstruction and DG tests on prisms and mixed meshes.

Why a script: Gmsh meshes a periodic slave surface by copying its master's mesh only for unstructured
surfaces; transfinite or extruded surfaces (the only way Gmsh makes prisms) are meshed independently and
matched afterwards by a closest-node search that needs Gmsh's ANN library, which the Debian Gmsh 4.8 here
lacks: the $Periodic node lists come out empty and PETSc sees boundary faces. PETSc 3.18's box mesh refuses
periodic prisms ("Periodicity not yet supported"). Writing the file directly is exact and the same for every
PETSc.

  python3 scripts/periodic_mesh.py --shape prism --n 4 -o examples/meshes/periodic_prism.msh
  python3 scripts/periodic_mesh.py --shape mixed --n 4 -o /tmp/periodic_mixed.msh

The cube is cut into n^3 cubes (n >= 3, even for --shape mixed):
  hex    one hexahedron each;
  prism  two triangular prisms each, the triangles on z = const cut by the diagonal (x, y) = (0, 0)-(1, 1);
  tet    six tetrahedra each (Kuhn / Freudenthal: the paths from the low to the high corner), every face of a
         cube cut by the diagonal from its low to its high corner, so neighbouring cubes match;
  mixed  the four (x, z) quarters of the cube, every quarter spanning y in [0, 1]:
             z ^  x-prisms | tetrahedra            x-prisms: triangles on x = const (diagonal (y,z) = low-high)
               |  ---------+-----------            z-prisms: triangles on z = const (diagonal (x,y) = low-high)
               |  hexahedra| z-prisms
               +-----------------> x
         so hexahedra meet prisms only through quadrilaterals and tetrahedra meet prisms only through
         triangles with the same diagonal, across the interior and the periodic faces (no pyramids).
One physical volume "domain" (tag 1); no boundary groups (the mesh has no boundary).

--box NX,NY,NZ [--upper X,Y,Z]: instead a box [0,X]x[0,Y]x[0,Z] of NX x NY x NZ cubes (any counts >= 1; even NX and NZ
for mixed), NOT periodic, its boundary faces in the groups left/right (x), front/back (y), bottom/top (z) as the 3D Gmsh
meshes of examples/meshes name them (flux reconstruction's Navier-Stokes tests: Couette flow between y = 0 and y = 2):

  python3 scripts/periodic_mesh.py --shape tet --box 1,4,1 --upper 1,2,1 -o /tmp/couette_tet.msh
"""
import argparse
import sys

GMSH_TYPE = {"tet": 4, "hex": 5, "prism": 6}


def cube_corner(i, j, k, n):
    """node number (1-based) of grid point (i, j, k), 0 <= i, j, k <= n"""
    return 1 + i + (n + 1) * (j + (n + 1) * k)


def det3(a, b, c):
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])


def sub(a, b):
    return [a[d] - b[d] for d in range(3)]


def cells_of_cube(kind, i, j, k, n, xyz, corner=cube_corner):
    """the cells (type, nodes in Gmsh order, positively oriented) filling cube (i, j, k)"""
    v = {}
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                v[a, b, c] = corner(i + a, j + b, k + c, n)
    out = []
    if kind == "hex":
        out.append(("hex", [v[0, 0, 0], v[1, 0, 0], v[1, 1, 0], v[0, 1, 0], v[0, 0, 1], v[1, 0, 1], v[1, 1, 1], v[0, 1, 1]]))
    elif kind == "zprism":  # triangles in (x, y), cut (0,0)-(1,1), extruded along z
        for tri in (((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 1), (0, 1))):
            out.append(("prism", [v[a, b, 0] for a, b in tri] + [v[a, b, 1] for a, b in tri]))
    elif kind == "xprism":  # triangles in (y, z), cut (0,0)-(1,1), extruded along x
        for tri in (((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 1), (0, 1))):
            out.append(("prism", [v[0, b, c] for b, c in tri] + [v[1, b, c] for b, c in tri]))
    elif kind == "tet":  # Kuhn: one tetrahedron per permutation of the axes
        for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
            p = [0, 0, 0]
            nodes = [v[tuple(p)]]
            for axis in perm:
                p[axis] = 1
                nodes.append(v[tuple(p)])
            out.append(("tet", nodes))
    else:
        raise ValueError(kind)
    fixed = []
    for typ, nodes in out:  # orient: Gmsh wants det[v1-v0, v2-v0, v3-v0] > 0 (tets), bottom counterclockwise seen from the top (prisms, hexes)
        x = [xyz[m - 1] for m in nodes]
        if typ == "tet":
            if det3(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0])) < 0:
                nodes = [nodes[1], nodes[0], nodes[2], nodes[3]]
        elif typ == "prism":
            if det3(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0])) < 0:
                nodes = [nodes[0], nodes[2], nodes[1], nodes[3], nodes[5], nodes[4]]
        else:
            if det3(sub(x[1], x[0]), sub(x[3], x[0]), sub(x[4], x[0])) < 0:
                nodes = [nodes[0], nodes[3], nodes[2], nodes[1], nodes[4], nodes[7], nodes[6], nodes[5]]
        fixed.append((typ, nodes))
    return fixed


def build(shape, n, box=None, upper=(1.0, 1.0, 1.0)):
    nx, ny, nz = box if box else (n, n, n)
    xyz = [[upper[0] * i / nx, upper[1] * j / ny, upper[2] * k / nz] for k in range(nz + 1) for j in range(ny + 1) for i in range(nx + 1)]
    corner = (lambda i, j, k, n: 1 + i + (nx + 1) * (j + (ny + 1) * k)) if box else cube_corner
    cells = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                if shape == "hex":
                    kind = "hex"
                elif shape == "prism":
                    kind = "zprism"
                elif shape == "tet":
                    kind = "tet"
                else:
                    bx, bz = 2 * i >= nx, 2 * k >= nz
                    kind = {(False, False): "hex", (True, False): "zprism", (False, True): "xprism", (True, True): "tet"}[bx, bz]
                cells.extend(cells_of_cube(kind, i, j, k, n, xyz, corner))
    if box:
        return xyz, cells, boundary_faces(cells, xyz, upper)
    # every grid point with an index n is the image of the point with that index 0 (one hop, no chains)
    pairs = []
    for k in range(n + 1):
        for j in range(n + 1):
            for i in range(n + 1):
                if n in (i, j, k):
                    pairs.append((cube_corner(i, j, k, n), cube_corner(i % n, j % n, k % n, n)))
    return xyz, cells, pairs


# the faces of a cell in Gmsh node order (tets, prisms, hexes)
CELL_FACES = {
    "tet": ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)),
    "prism": ((0, 1, 2), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)),
    "hex": ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)),
}
SIDES = ("left", "right", "front", "back", "bottom", "top")


def boundary_faces(cells, xyz, upper):
    """{side: [face node lists]}: the faces of one cell only, by the box side their centroid lies on"""
    count, first = {}, {}
    for typ, nodes in cells:
        for face in CELL_FACES[typ]:
            fn = [nodes[m] for m in face]
            key = tuple(sorted(fn))
            count[key] = count.get(key, 0) + 1
            first.setdefault(key, fn)
    out = {s: [] for s in SIDES}
    for key, c in count.items():
        if c != 1:
            continue
        fn = first[key]
        mid = [sum(xyz[m - 1][d] for m in fn) / len(fn) for d in range(3)]
        for d in range(3):
            if abs(mid[d]) < 1e-12:
                out[SIDES[2 * d]].append(fn)
                break
            if abs(mid[d] - upper[d]) < 1e-12:
                out[SIDES[2 * d + 1]].append(fn)
                break
        else:
            raise ValueError("boundary face inside the box")
    return out


def write_box_msh(path, xyz, cells, faces, upper):
    """MSH 4.1 with one surface entity (and physical group, tags 2..7) per box side, one volume (tag 1)"""
    bytype = {}
    for typ, nodes in cells:
        bytype.setdefault(typ, []).append(nodes)
    sides = [s for s in SIDES if faces[s]]
    with open(path, "w") as f:
        f.write("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
        f.write("$PhysicalNames\n%d\n" % (len(sides) + 1))
        for t, s in enumerate(sides):
            f.write('2 %d "%s"\n' % (t + 2, s))
        f.write('3 1 "domain"\n$EndPhysicalNames\n')
        f.write("$Entities\n0 0 %d 1\n" % len(sides))
        for t, s in enumerate(sides):
            f.write("%d 0 0 0 %g %g %g 1 %d 0\n" % (t + 1, upper[0], upper[1], upper[2], t + 2))
        f.write("1 0 0 0 %g %g %g 1 1 %d %s\n" % (upper[0], upper[1], upper[2], len(sides), " ".join(str(t + 1) for t in range(len(sides)))))
        f.write("$EndEntities\n")
        f.write("$Nodes\n1 %d 1 %d\n3 1 0 %d\n" % (len(xyz), len(xyz), len(xyz)))
        for m in range(len(xyz)):
            f.write("%d\n" % (m + 1))
        for x in xyz:
            f.write("%.17g %.17g %.17g\n" % tuple(x))
        f.write("$EndNodes\n")
        blocks = []
        for t, s in enumerate(sides):
            for nn, gtype in ((3, 2), (4, 3)):
                fl = [fn for fn in faces[s] if len(fn) == nn]
                if fl:
                    blocks.append((2, t + 1, gtype, fl))
        for typ in ("hex", "prism", "tet"):
            if typ in bytype:
                blocks.append((3, 1, GMSH_TYPE[typ], bytype[typ]))
        total = sum(len(b[3]) for b in blocks)
        f.write("$Elements\n%d %d 1 %d\n" % (len(blocks), total, total))
        tag = 1
        for dim, ent, gtype, lst in blocks:
            f.write("%d %d %d %d\n" % (dim, ent, gtype, len(lst)))
            for nodes in lst:
                f.write("%d %s\n" % (tag, " ".join(str(m) for m in nodes)))
                tag += 1
        f.write("$EndElements\n")


def write_msh(path, xyz, cells, pairs):
    bytype = {}
    for typ, nodes in cells:
        bytype.setdefault(typ, []).append(nodes)
    with open(path, "w") as f:
        f.write("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
        f.write('$PhysicalNames\n1\n3 1 "domain"\n$EndPhysicalNames\n')
        f.write("$Entities\n0 0 0 1\n1 0 0 0 1 1 1 1 1 0\n$EndEntities\n")
        f.write("$Nodes\n1 %d 1 %d\n3 1 0 %d\n" % (len(xyz), len(xyz), len(xyz)))
        for m in range(len(xyz)):
            f.write("%d\n" % (m + 1))
        for x in xyz:
            f.write("%.17g %.17g %.17g\n" % tuple(x))
        f.write("$EndNodes\n")
        f.write("$Elements\n%d %d 1 %d\n" % (len(bytype), len(cells), len(cells)))
        tag = 1
        for typ in ("hex", "prism", "tet"):
            if typ not in bytype:
                continue
            f.write("3 1 %d %d\n" % (GMSH_TYPE[typ], len(bytype[typ])))
            for nodes in bytype[typ]:
                f.write("%d %s\n" % (tag, " ".join(str(m) for m in nodes)))
                tag += 1
        f.write("$EndElements\n")
        # one link listing every slave node (PETSc reads only the node pairs; the translation is not used)
        f.write("$Periodic\n1\n3 1 1\n0\n%d\n" % len(pairs))
        for s, m in pairs:
            f.write("%d %d\n" % (s, m))
        f.write("$EndPeriodic\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shape", choices=("prism", "tet", "hex", "mixed"), required=True)
    p.add_argument("--n", type=int, help="cubes per direction (>= 3; even for mixed)")
    p.add_argument("--box", help="NX,NY,NZ: a non-periodic box of that many cubes with named boundary groups")
    p.add_argument("--upper", default="1,1,1", help="X,Y,Z: the box's upper corner (with --box)")
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    if a.box:
        box = tuple(int(x) for x in a.box.split(","))
        upper = tuple(float(x) for x in a.upper.split(","))
        if len(box) != 3 or min(box) < 1 or (a.shape == "mixed" and (box[0] % 2 or box[2] % 2)):
            sys.exit("--box %s: give three counts >= 1 (NX and NZ even for --shape mixed)" % a.box)
        xyz, cells, faces = build(a.shape, 0, box, upper)
        write_box_msh(a.output, xyz, cells, faces, upper)
        print("%s: %d cells, %d boundary faces" % (a.output, len(cells), sum(len(v) for v in faces.values())))
        return
    if a.n is None:
        sys.exit("give --n (periodic cube) or --box")
    if a.n < 3 or (a.shape == "mixed" and a.n % 2):
        sys.exit("--n %d: give n >= 3 cubes per direction (PETSc localizes periodic coordinates only with 3 or more cells across), even for --shape mixed" % a.n)
    xyz, cells, pairs = build(a.shape, a.n)
    write_msh(a.output, xyz, cells, pairs)
    counts = {}
    for typ, _ in cells:
        counts[typ] = counts.get(typ, 0) + 1
    print("%s: %s" % (a.output, ", ".join("%d %s" % (c, t) for t, c in sorted(counts.items()))))


if __name__ == "__main__":
    main()
