#!/usr/bin/env python3
"""Plot GPU scaling from a CSV of case,gpus,dofs,seconds,iterations (bench/run-multigpu.sh scale).

Left: strong scaling, seconds (per step or per solve) against GPUs, one curve per case with its ideal
line T1/n. Right: weak scaling (the case named "weak"), with the ideal flat line.

    /usr/bin/python3 bench/plot_scaling.py bench/results/h200x4_2026-11-26_scaling.csv [out.png] [title]
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    "poisson77": "Poisson N=6 pMG-AMG, 77 M DOFs (solve)",
    "poisson19": "Poisson N=6 pMG-AMG, 19.3 M DOFs (solve)",
    "ins19": "incompressible step N=7, 18.6 M DOFs (per step)",
    "euler67": "Euler modal DG N=3, 67 M DOFs (per step)",
    "ns13": "Navier-Stokes BR2 N=3, 12.6 M DOFs (per step)",
    "fr56": "Euler FR N=3, 56^3 hexes, 56 M DOF-var. (per step)",
    "frns56": "Navier-Stokes FR N=3 (Taylor-Green), 56^3 hexes (per step)",
    "weak": "Poisson N=6, ~10 M DOFs per GPU (solve)",
}


def main():
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else path.rsplit(".", 1)[0] + ".png"
    title = sys.argv[3] if len(sys.argv) > 3 else ""
    data = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            data[row["case"]].append((int(row["gpus"]), float(row["seconds"])))
    strong = [c for c in data if c != "weak"]
    fig, axes = plt.subplots(1, 2 if "weak" in data else 1, figsize=(12, 5), squeeze=False)
    ax = axes[0][0]
    for i, case in enumerate(strong):
        pts = sorted(data[case])
        n = [p[0] for p in pts]
        t = [p[1] for p in pts]
        color = f"C{i}"
        ax.plot(n, t, "o-", color=color, label=LABELS.get(case, case))
        ax.plot(n, [t[0] * n[0] / k for k in n], "--", color=color, alpha=0.5, lw=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("GPUs")
    ax.set_ylabel("seconds per step / per solve")
    ax.set_title("strong scaling (dashed: ideal T1/n)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    if "weak" in data:
        ax = axes[0][1]
        pts = sorted(data["weak"])
        n = [p[0] for p in pts]
        t = [p[1] for p in pts]
        ax.plot(n, t, "o-", color="C4", label=LABELS["weak"])
        ax.plot(n, [t[0]] * len(n), "--", color="C4", alpha=0.5, lw=1, label="ideal (flat)")
        for k, s in pts:
            ax.annotate(f"{100 * t[0] / s:.0f} %", (k, s), textcoords="offset points", xytext=(4, 6), fontsize=8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("GPUs")
        ax.set_ylabel("solve seconds")
        ax.set_title("weak scaling (labels: T1/Tn)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    for a in axes[0]:
        a.set_xticks([1, 2, 4, 8][: max(len(v) for v in data.values())])
        a.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
