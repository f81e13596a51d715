#!/usr/bin/env python3
"""Fill the node correspondences of periodic curves and surfaces in a Gmsh MSH 4.1 file.

Gmsh built without ANN (as here) writes the $Periodic links of entities meshed by extrusion with no node pairs
("Gmsh must be compiled with ANN support for finding closest nodes"), and PETSc then sees no periodicity on them.
This script pairs every node classified on a periodic (slave) entity with the node of the master entity at the
position the link's affine map sends it from (translations only), and writes the file back.

    scripts/periodic_surface_nodes.py mesh.msh   (examples/meshes/periodic_prism.geo)
"""
import sys


def main(path):
    lines = open(path).read().split("\n")
    i = lines.index("$Nodes")
    nblocks = int(lines[i + 1].split()[0])
    k = i + 2
    entity_nodes, coords = {}, {}
    for _ in range(nblocks):
        dim, tag, _param, n = (int(v) for v in lines[k].split())
        tags = [int(lines[k + 1 + j]) for j in range(n)]
        for j, t in enumerate(tags):
            coords[t] = tuple(float(v) for v in lines[k + 1 + n + j].split()[:3])
        entity_nodes[(dim, tag)] = tags
        k += 1 + 2 * n
    i = lines.index("$Periodic")
    nlinks = int(lines[i + 1])
    out = lines[:i + 2]
    k = i + 2
    for _ in range(nlinks):
        dim, slave, master = (int(v) for v in lines[k].split())
        affine = lines[k + 1]
        npairs = int(lines[k + 2])
        pairs = lines[k + 3:k + 3 + npairs]
        k += 3 + npairs
        if dim >= 1 and npairs == 0:
            if not affine.startswith("16 "):
                sys.exit("periodic link of entity (%d, %d) has no affine map" % (dim, slave))
            a = [float(v) for v in affine.split()[1:]]
            shift = (a[3], a[7], a[11])
            key = {}
            for t in entity_nodes.get((dim, master), []):
                key[tuple(round(c, 9) for c in coords[t])] = t
            pairs = []
            for t in entity_nodes.get((dim, slave), []):
                x = tuple(round(coords[t][d] - shift[d], 9) for d in range(3))
                if x not in key:
                    sys.exit("node %d of entity (%d, %d) has no partner on entity %d" % (t, dim, slave, master))
                pairs.append("%d %d" % (t, key[x]))
        out += ["%d %d %d" % (dim, slave, master), affine, str(len(pairs))] + pairs
    out += lines[k:]
    open(path, "w").write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
