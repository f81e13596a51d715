#!/usr/bin/env python3
"""Check a Gmsh MSH 4.1 mesh of cubic quadrilaterals (Q3, 16 nodes, gmsh -order 3) of the NACA0012 airfoil,
as examples/meshes/naca0012.geo makes it:

  python3 scripts/naca0012_mesh_check.py examples/meshes/naca0012.msh [--plot mesh.png]

It prints how far the nodes of the "wall" group lie from y = ±0.6 (0.2969 sqrt(x) - 0.1260 x - 0.3516 x^2
+ 0.2843 x^3 - 0.1036 x^4), the smallest scaled Jacobian min|J| / max|J| of a cell (the Q3 map's Jacobian
at 7 x 7 points per cell), the cells whose Jacobian changes sign (hoflow refuses those) and the cells of
negative orientation, and with --plot draws the mesh (whole, near the airfoil, at the leading edge)."""
import argparse

import numpy as np

R3 = np.array([-1, -1 / 3, 1 / 3, 1])
# Gmsh's 16-node quadrilateral: corners, two nodes per edge (0-1, 1-2, 2-3, 3-0), four inside
IJ = [(0, 0), (3, 0), (3, 3), (0, 3), (1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1), (1, 1), (2, 1), (2, 2), (1, 2)]


def lagrange(xi):
    """The four cubic Lagrange polynomials on equispaced nodes of [-1, 1] and their derivatives at xi."""
    val, der = np.ones(4), np.zeros(4)
    for a in range(4):
        for b in range(4):
            if b != a:
                val[a] *= (xi - R3[b]) / (R3[a] - R3[b])
        for c in range(4):
            if c != a:
                t = 1 / (R3[a] - R3[c])
                for b in range(4):
                    if b not in (a, c):
                        t *= (xi - R3[b]) / (R3[a] - R3[b])
                der[a] += t
    return val, der


def read_msh41(path):
    """Nodes {tag: (x, y)}, the physical names of curves {entity: [names]}, and the elements
    {(dim, entity, type): [[node tags]]} of an ASCII MSH 4.1 file."""
    lines = open(path).read().split("\n")
    nodes, elems, names, ent_phys = {}, {}, {}, {}
    i = 0
    while i < len(lines):
        tag = lines[i].strip()
        if tag == "$PhysicalNames":
            for k in range(int(lines[i + 1])):
                a = lines[i + 2 + k].split()
                names[(int(a[0]), int(a[1]))] = a[2].strip('"')
            i += 2
        elif tag == "$Entities":
            counts = list(map(int, lines[i + 1].split()))
            j = i + 2 + counts[0]
            for dim in (1, 2):
                for k in range(counts[dim]):
                    a = lines[j + k].split()
                    ent_phys[(dim, int(a[0]))] = [int(x) for x in a[8:8 + int(a[7])]]
                j += counts[dim]
            i = j
        elif tag == "$Nodes":
            j = i + 2
            for _ in range(int(lines[i + 1].split()[0])):
                n = int(lines[j].split()[3])
                for k in range(n):
                    nodes[int(lines[j + 1 + k])] = tuple(map(float, lines[j + 1 + n + k].split()[:2]))
                j += 1 + 2 * n
            i = j
        elif tag == "$Elements":
            j = i + 2
            for _ in range(int(lines[i + 1].split()[0])):
                dim, ent, etype, n = map(int, lines[j].split())
                elems.setdefault((dim, ent, etype), []).extend([list(map(int, lines[j + 1 + k].split()))[1:] for k in range(n)])
                j += 1 + n
            i = j
        else:
            i += 1
    groups = {ent: [names.get((d, p), "") for p in phys] for (d, ent), phys in ent_phys.items() if d == 1}
    return nodes, groups, elems


def naca(x):
    return 0.6 * (0.2969 * np.sqrt(x) - 0.1260 * x - 0.3516 * x**2 + 0.2843 * x**3 - 0.1036 * x**4)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("msh")
    ap.add_argument("--plot")
    a = ap.parse_args()
    nodes, groups, elems = read_msh41(a.msh)
    wall = {t for (d, ent, _), es in elems.items() if d == 1 and "wall" in groups.get(ent, []) for e in es for t in e}
    dev = max(abs(abs(nodes[t][1]) - naca(max(nodes[t][0], 0.0))) for t in wall)
    cells = [e for (d, _, etype), es in elems.items() if d == 2 for e in es]
    types = {etype for (d, _, etype) in elems if d == 2}
    if types != {36}:
        raise SystemExit("cell types %s: this check reads 16-node quadrilaterals (gmsh -order 3, type 36) only" % types)
    tab = [lagrange(p) for p in np.linspace(-1, 1, 7)]
    worst, tangled, negative = (1.0, None), 0, 0
    for e in cells:
        X = np.array([nodes[t] for t in e])
        J = []
        for la, da in tab:
            for lb, db in tab:
                dxi = sum(da[i] * lb[j] * X[k] for k, (i, j) in enumerate(IJ))
                deta = sum(la[i] * db[j] * X[k] for k, (i, j) in enumerate(IJ))
                J.append(dxi[0] * deta[1] - dxi[1] * deta[0])
        J = np.array(J)
        tangled += J.min() * J.max() <= 0
        negative += J.max() < 0
        q = np.abs(J).min() / np.abs(J).max()
        if q < worst[0]:
            worst = (q, X[:4].mean(axis=0))
    print("%d cells; wall nodes %d, max |y - y_naca(x)| %.2e; smallest scaled Jacobian %.3f (cell near (%.3g, %.3g)); Jacobian changing sign in %d cells; negatively oriented cells %d" % (len(cells), len(wall), dev, worst[0], worst[1][0], worst[1][1], tangled, negative))
    if a.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axs = plt.subplots(1, 3, figsize=(18, 6))
        t = np.linspace(-1, 1, 9)
        curve = np.array([lagrange(s)[0] for s in t])
        for ax, (x0, x1, y0, y1) in zip(axs, [(-22, 22, -22, 22), (-0.1, 1.3, -0.5, 0.5), (-0.02, 0.06, -0.04, 0.04)]):
            for e in cells:
                X = np.array([nodes[t] for t in e])
                c = X[:4].mean(axis=0)
                if not (x0 - 5 < c[0] < x1 + 5 and y0 - 5 < c[1] < y1 + 5):
                    continue
                for edge in ([0, 4, 5, 1], [1, 6, 7, 2], [2, 8, 9, 3], [3, 10, 11, 0]):
                    C = curve @ X[edge]
                    ax.plot(C[:, 0], C[:, 1], "k-", lw=0.3)
            ax.set_xlim(x0, x1)
            ax.set_ylim(y0, y1)
            ax.set_aspect("equal")
        fig.savefig(a.plot, dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
