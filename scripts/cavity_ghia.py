#!/usr/bin/env python3
"""Centreline velocities of a lid-driven cavity run against Ghia, Ghia & Shin (1982).

Reads the last field output of a `-problem flow` cavity run (HDF5 written with -output_interval), takes
u on the vertical centreline x = 0.5 and v on the horizontal centreline y = 0.5 (the output points on
the line; DG values of both sides averaged), interpolates them linearly to Ghia's points and prints the
largest differences; with --plot, draws both profiles with Ghia's points (needs matplotlib).

  python3 scripts/cavity_ghia.py output/cavity --re 100
  python3 scripts/cavity_ghia.py output/cavity_re1000 --re 1000 --plot docs/images/cavity_re1000.png

Reference: U. Ghia, K. N. Ghia, C. T. Shin, High-Re solutions for incompressible flow using the
Navier-Stokes equations and a multigrid method, J. Comput. Phys. 48 (1982) 387-411, Tables I and II.
"""
import argparse
import os
import sys

GHIA_Y = (0.9766, 0.9688, 0.9609, 0.9531, 0.8516, 0.7344, 0.6172, 0.5, 0.4531, 0.2813, 0.1719, 0.1016, 0.0703, 0.0625, 0.0547)
GHIA_X = (0.9688, 0.9609, 0.9531, 0.9453, 0.9063, 0.8594, 0.8047, 0.5, 0.2344, 0.2266, 0.1563, 0.0938, 0.0781, 0.0703, 0.0625)
GHIA_U = {100: (0.84123, 0.78871, 0.73722, 0.68717, 0.23151, 0.00332, -0.13641, -0.20581, -0.21090, -0.15662, -0.10150, -0.06434, -0.04775, -0.04192, -0.03717),
          1000: (0.65928, 0.57492, 0.51117, 0.46604, 0.33304, 0.18719, 0.05702, -0.06080, -0.10648, -0.27805, -0.38289, -0.29730, -0.22220, -0.20196, -0.18109)}
GHIA_V = {100: (-0.05906, -0.07391, -0.08864, -0.10313, -0.16914, -0.22445, -0.24533, 0.05454, 0.17527, 0.17507, 0.16077, 0.12317, 0.10890, 0.10091, 0.09233),
          1000: (-0.21388, -0.27669, -0.33714, -0.39188, -0.51550, -0.42665, -0.31966, 0.02526, 0.32235, 0.33075, 0.37095, 0.32627, 0.30353, 0.29012, 0.27485)}


def centreline(folder, prefix, fixed, along, field):
    """(positions, values) of field on the line x_fixed = 0.5 from the last output in folder, sorted."""
    import h5py
    import numpy
    out = sorted(f for f in os.listdir(folder) if f.startswith(prefix + "_") and f.endswith(".h5") and "_mesh_" not in f)
    mesh = [f for f in os.listdir(folder) if f.startswith(prefix + "_mesh_")]
    if not out or not mesh:
        raise RuntimeError("no field output (%s_*.h5 and %s_mesh_*) in %s: %s" % (prefix, prefix, folder, sorted(os.listdir(folder))))
    with h5py.File(os.path.join(folder, mesh[0]), "r") as h:
        X = numpy.array(h["geometry"])
    with h5py.File(os.path.join(folder, out[-1]), "r") as h:
        val = numpy.array(h[field])
    sel = numpy.abs(X[:, fixed] - 0.5) < 1e-9
    s, inv = numpy.unique(numpy.round(X[sel, along], 12), return_inverse=True)
    if len(s) <= 20:
        raise RuntimeError("only %d output points on the line x_%d = 0.5 in %s" % (len(s), fixed, folder))
    return s, numpy.bincount(inv, val[sel]) / numpy.bincount(inv)


def compare(folder, re, prefix="flow"):
    """Largest |u - u_Ghia| and |v - v_Ghia| at Ghia's points, and the profiles."""
    import numpy
    yu, u = centreline(folder, prefix, 0, 1, "u")
    xv, v = centreline(folder, prefix, 1, 0, "v")
    eu = max(abs(numpy.interp(y, yu, u) - r) for y, r in zip(GHIA_Y, GHIA_U[re]))
    ev = max(abs(numpy.interp(x, xv, v) - r) for x, r in zip(GHIA_X, GHIA_V[re]))
    return eu, ev, (yu, u, xv, v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help="the run's -output_dir")
    ap.add_argument("--re", type=int, choices=sorted(GHIA_U), required=True)
    ap.add_argument("--prefix", default="flow", help="field file prefix (the problem's name)")
    ap.add_argument("--plot", help="PNG of both profiles with Ghia's points")
    a = ap.parse_args()
    try:
        eu, ev, (yu, u, xv, v) = compare(a.folder, a.re, a.prefix)
    except (RuntimeError, OSError) as e:
        sys.exit("cavity_ghia: %s" % e)
    print("cavity_ghia: Re = %d, max |u - u_Ghia| = %.4f, max |v - v_Ghia| = %.4f" % (a.re, eu, ev))
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.5))
        ax1.plot(u, yu, "-", label="hoflow")
        ax1.plot(GHIA_U[a.re], GHIA_Y, "o", mfc="none", label="Ghia et al. 1982")
        ax1.set_xlabel("u(0.5, y)")
        ax1.set_ylabel("y")
        ax2.plot(xv, v, "-", label="hoflow")
        ax2.plot(GHIA_X, GHIA_V[a.re], "o", mfc="none", label="Ghia et al. 1982")
        ax2.set_xlabel("x")
        ax2.set_ylabel("v(x, 0.5)")
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3)
            ax.legend()
        fig.suptitle("Lid-driven cavity, Re = %d: max |u - Ghia| %.4f, max |v - Ghia| %.4f" % (a.re, eu, ev))
        fig.tight_layout()
        fig.savefig(a.plot, dpi=110)


if __name__ == "__main__":
    main()
