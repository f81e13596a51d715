#!/usr/bin/env python3
"""Plot bench/ins_breakdown.py's CSV: per order N, one bar per Ns (0, 4, 8, 16) split into advection,
velocity, pressure and the rest, as fractions of the step (seed 000 Fig. 6a) and as seconds per step,
and the speedup from subcycling against N (Fig. 5c).

  python3 bench/plot_ins_breakdown.py results/h100_2026-11-22_ins_breakdown.csv -o breakdown.png
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PARTS = [("advection_s", "advection (subcycling)"), ("velocity_s", "velocity solves"), ("pressure_s", "pressure solve"), ("update_s", "update")]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", default="ins_breakdown.png")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    rows = [r for r in csv.DictReader(open(args.csv)) if r["status"] == "ok"]
    orders = sorted({int(r["order"]) for r in rows})
    subs = sorted({int(r["subcycles"]) for r in rows})
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    width = 0.8 / len(subs)
    for ax, relative in ((axes[0], True), (axes[1], False)):
        for j, ns in enumerate(subs):
            bottom = [0.0] * len(orders)
            for k, (key, label) in enumerate(PARTS):
                vals = []
                for i, n in enumerate(orders):
                    r = next((r for r in rows if int(r["order"]) == n and int(r["subcycles"]) == ns), None)
                    v = float(r[key]) if r else 0.0
                    vals.append(v / float(r["step_s"]) if (r and relative) else v)
                xs = [i + (j - (len(subs) - 1) / 2) * width for i in range(len(orders))]
                ax.bar(xs, vals, width * 0.95, bottom=bottom, color="C%d" % k, label=label if j == 0 else None, edgecolor="k", linewidth=0.3)
                bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(orders)))
        ax.set_xticklabels(["N=%d" % n for n in orders])
        ax.set_xlabel("bars left to right: Ns = " + ", ".join(str(s) for s in subs))
        ax.set_ylabel("fraction of the step" if relative else "seconds per step")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower left")
    axes[0].set_title("share of each part of the step", fontsize=10)
    axes[1].set_title("time per step", fontsize=10)
    for ns in subs:
        if ns == 0:
            continue
        pts = [(int(r["order"]), float(r["speedup"])) for r in rows if int(r["subcycles"]) == ns]
        axes[2].plot(*zip(*sorted(pts)), marker="o", label="Ns = %d (dt x %d)" % (ns, ns))
    axes[2].set_xlabel("N")
    axes[2].set_ylabel("speedup: time to advance a fixed interval, vs Ns = 0")
    axes[2].set_title("speedup from subcycling", fontsize=10)
    axes[2].grid(alpha=0.3)
    axes[2].legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
