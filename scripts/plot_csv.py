#!/usr/bin/env python3
"""Plot columns of a CSV file (hoflow's monitors, a convergence table, ...) against one column.

    python3 scripts/plot_csv.py output/heat/monitors.csv                      # every column against time
    python3 scripts/plot_csv.py output/heat/monitors.csv -y L2_error --logy -o err.png

The first line must be a header naming the columns. Without -y, every column except the x column,
`step`, `time` and `dt` is drawn, one panel each. Writes a PNG (default: the CSV's name with .png)
and prints `plot_csv: wrote FILE rows N columns ...`.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="CSV file with a header line")
    ap.add_argument("-x", default="time", help="column on the horizontal axis (default: time, else the first)")
    ap.add_argument("-y", action="append", help="column to plot (repeatable; default: all others)")
    ap.add_argument("--logy", action="store_true", help="logarithmic vertical axes")
    ap.add_argument("-o", "--out", help="PNG to write (default: CSV name with .png)")
    ap.add_argument("--title", help="figure title (default: the CSV's name)")
    opts = ap.parse_args()

    with open(opts.csv, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        print("plot_csv: %s is empty" % opts.csv, file=sys.stderr)
        return 2
    header, data = rows[0], [r for r in rows[1:] if r]
    columns = {name: [] for name in header}
    for r in data:
        for name, value in zip(header, r):
            try:
                columns[name].append(float(value))
            except ValueError:
                columns[name].append(float("nan"))
    x = opts.x if opts.x in columns else header[0]
    ys = opts.y or [c for c in header if c not in (x, "step", "time", "dt")]
    missing = [c for c in ys if c not in columns]
    if missing:
        print("plot_csv: no column %s in %s (columns: %s)" % (", ".join(missing), opts.csv, ", ".join(header)), file=sys.stderr)
        return 2
    if not ys:
        print("plot_csv: nothing to plot in %s" % opts.csv, file=sys.stderr)
        return 2

    fig, axes = plt.subplots(len(ys), 1, figsize=(7, 2.2 + 2.0 * len(ys)), sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], ys):
        ax.plot(columns[x], columns[name], marker="." if len(data) <= 60 else None, lw=1.2)
        ax.set_ylabel(name)
        if opts.logy:
            ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
    axes[-1, 0].set_xlabel(x)
    fig.suptitle(opts.title or os.path.basename(opts.csv))
    fig.tight_layout()
    out = opts.out or os.path.splitext(opts.csv)[0] + ".png"
    fig.savefig(out, dpi=110)
    print("plot_csv: wrote %s rows %d columns %s" % (out, len(data), ",".join(ys)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
