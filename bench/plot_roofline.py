#!/usr/bin/env python3
"""Plot achieved GFLOP/s of the SIPDG (and incompressible-flow) kernels against the empirical roofline (seed 000 Figs. 7-8).

usage: python3 bench/plot_roofline.py RESULTS.csv [...] -o OUT.png
Each CSV is written by build/bench/ipdg_bench -bench_csv; one panel per (shape, kernel).
"""
import argparse
import csv

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

ap = argparse.ArgumentParser()
ap.add_argument("csv", nargs="+")
ap.add_argument("-o", "--output", default="roofline.png")
args = ap.parse_args()
rows = [r for f in args.csv for r in csv.DictReader(open(f))]


def bound(r, key):
    """A bound in GFLOP/s, or None where it does not apply (an empty field: the shared-memory bound of
    host kernels, the FP64 peak of GPU rows; a column older CSVs lack)."""
    v = (r.get(key) or "").strip()
    return float(v) if v else None


def roofline(r):
    return min(b for b in (bound(r, "copy_bound_gflops"), bound(r, "shared_bound_gflops"), bound(r, "peak_gflops")) if b is not None)


panels = sorted({(r["shape"], r["kernel"]) for r in rows}, key=lambda k: (k[0], k[1] != "gradient"))
fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False)
for ax, (shape, kernel) in zip(axes[0], panels):
    rs = sorted((r for r in rows if r["shape"] == shape and r["kernel"] == kernel), key=lambda r: int(r["N"]))
    N = [int(r["N"]) for r in rs]
    roof = [roofline(r) for r in rs]
    ax.plot(N, roof, "k-", label="empirical roofline")
    ax.plot(N, [bound(r, "copy_bound_gflops") for r in rs], "k:", lw=0.8, label="bandwidth bound")
    if all(bound(r, "peak_gflops") is not None for r in rs):
        ax.plot(N, [bound(r, "peak_gflops") for r in rs], "k--", lw=0.8, label="FP64 peak")
    ax.plot(N, [float(r["gflops"]) for r in rs], "o-", label="achieved")
    for n, r in zip(N, rs):
        ax.annotate("%.0f%%" % float(r["percent_roofline"]), (n, float(r["gflops"])), fontsize=6, xytext=(0, -10), textcoords="offset points", ha="center")
    ax.set_title("%s, %s (%s)" % (kernel, shape, rs[0]["device"].replace("NVIDIA ", "")), fontsize=9)
    ax.set_xlabel("N")
    ax.set_ylabel("GFLOP/s (FP64)")
    ax.set_ylim(0, 1.15 * max(max(roof), max(float(r["gflops"]) for r in rs)))
    ax.grid(lw=0.3)
    ax.legend(fontsize=7, loc="upper left")
fig.tight_layout()
fig.savefig(args.output, dpi=110)
print("wrote", args.output)
