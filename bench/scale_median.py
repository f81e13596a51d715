#!/usr/bin/env python3
"""Median over repeated `bench/run-multigpu.sh scale` runs (one output folder each): per case and GPU count the
solve time (solve_s of the Poisson runs) or the time a step (the incompressible runs: the stages advection,
velocity, pressure and update of -log_view over the steps), every repetition's value, and the efficiencies of the
medians (strong: t1 / (n tn); weak, the weak-* and weakvar wv* runs: t1 / tn).
Usage: bench/scale_median.py DIR [DIR ...]"""
import os
import re
import statistics
import sys


def value(path):
    text = open(path, errors="replace").read()
    if os.path.basename(path).startswith("ins"):
        stages = re.findall(r"^\s*[2-5]:\s+INS \w+:\s+(\S+)", text, re.M)
        steps = re.search(r"\bsteps (\d+)", text)
        return sum(float(s) for s in stages) / int(steps.group(1)) if stages and steps else None
    m = re.search(r"solve_s (\S+)", text)
    return float(m.group(1)) if m else None


def main():
    runs = {}
    for d in sys.argv[1:]:
        for f in sorted(os.listdir(d)):
            m = re.match(r"^(\w+?)-(\d+)gpu\.log$", f)
            if m:
                v = value(os.path.join(d, f))
                if v is not None:
                    runs.setdefault(m.group(1), {}).setdefault(int(m.group(2)), []).append(v)
    for case in sorted(runs):
        med = {n: statistics.median(vs) for n, vs in runs[case].items()}
        t1 = med.get(1)
        for n in sorted(med):
            eff = ""
            if t1 and n > 1:
                eff = "%.1f %%" % (100 * t1 / (med[n] if case.startswith(("weak", "wv")) else n * med[n]))
            print("%-10s %d GPU%s  median %.4f s  (%s)  %s" % (case, n, "s" if n > 1 else " ", med[n], ", ".join("%.4f" % v for v in runs[case][n]), eff))


if __name__ == "__main__":
    main()
