"""Writes the bad periodic meshes of tests/suite_periodic.py next to this file (MSH 2.2, triangles):
periodic_mismatch.msh, the unit square periodic in x whose right side has its middle node at y = 0.6
and the left side's at 0.5 (paired nodes that are not translates), and periodic_rotated.msh, a
straight-sided quarter annulus whose edge on the x axis is periodic with its edge on the y axis by a
rotation of 90 degrees (Gmsh allows any affine periodic map; hoflow supports translations only).
Run: python3 tests/meshes/periodic_bad.py"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, comment, nodes, lines, tris, names, periodic):
    path = os.path.join(HERE, path)
    # nodes: list of (x,y); lines: list of (phys, elem, a, b); tris: list of (a,b,c); periodic: (slave, master, pairs)
    with open(path, "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        f.write("$PhysicalNames\n%d\n" % len(names))
        for dim, tag, name in names: f.write('%d %d "%s"\n' % (dim, tag, name))
        f.write("$EndPhysicalNames\n$Nodes\n%d\n" % len(nodes))
        for i, (x, y) in enumerate(nodes): f.write("%d %.17g %.17g 0\n" % (i + 1, x, y))
        f.write("$EndNodes\n$Elements\n%d\n" % (len(lines) + len(tris)))
        k = 1
        for phys, ent, a, b in lines:
            f.write("%d 1 2 %d %d %d %d\n" % (k, phys, ent, a, b)); k += 1
        for a, b, c in tris:
            f.write("%d 2 2 %d 1 %d %d %d\n" % (k, names[-1][1], a, b, c)); k += 1
        f.write("$EndElements\n$Periodic\n1\n1 %d %d\n%d\n" % (periodic[0], periodic[1], len(periodic[2])))
        for s, m in periodic[2]: f.write("%d %d\n" % (s, m))
        f.write("$EndPeriodic\n")


def grid(nx, ny, pos):
    idx = lambda i, j: j * (nx + 1) + i + 1
    nodes = [pos(i, j) for j in range(ny + 1) for i in range(nx + 1)]
    tris = []
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)
            tris += [(a, b, c), (a, c, d)]
    return idx, nodes, tris

# unit square periodic in x, 3 x 2 cells; the right side's middle node is at y = 0.6, the left's at 0.5
nx, ny = 3, 2
def pos(i, j):
    x, y = i / nx, j / ny
    if i == nx and j == 1: y = 0.6
    return (x, y)
idx, nodes, tris = grid(nx, ny, pos)
lines = [(1, 1, idx(i, 0), idx(i + 1, 0)) for i in range(nx)] + [(2, 2, idx(nx, j), idx(nx, j + 1)) for j in range(ny)] \
      + [(3, 3, idx(i, ny), idx(i + 1, ny)) for i in range(nx)] + [(4, 4, idx(0, j), idx(0, j + 1)) for j in range(ny)]
names = [(1, 1, "bottom"), (1, 2, "right"), (1, 3, "top"), (1, 4, "left"), (2, 5, "domain")]
write("periodic_mismatch.msh", "", nodes, lines, tris, names, (2, 4, [(idx(nx, j), idx(0, j)) for j in range(ny + 1)]))

# quarter annulus 1 <= r <= 2 (straight-sided), its edge on the x axis periodic with its edge on the y axis by a
# rotation of 90 degrees about the origin: (r, 0) -> (0, r)
na, nr = 3, 2
def pos(i, j):
    t, r = (math.pi / 2) * i / na, 1 + j / nr
    if i == na: return (0.0, r)
    return (r * math.cos(t), r * math.sin(t))
idx, nodes, tris = grid(na, nr, pos)
lines = [(1, 1, idx(i, 0), idx(i + 1, 0)) for i in range(na)] + [(2, 2, idx(na, j), idx(na, j + 1)) for j in range(nr)] \
      + [(3, 3, idx(i, nr), idx(i + 1, nr)) for i in range(na)] + [(4, 4, idx(0, j), idx(0, j + 1)) for j in range(nr)]
names = [(1, 1, "inner"), (1, 2, "yaxis"), (1, 3, "outer"), (1, 4, "xaxis"), (2, 5, "domain")]
write("periodic_rotated.msh", "", nodes, lines, tris, names, (2, 4, [(idx(na, j), idx(0, j)) for j in range(nr + 1)]))
