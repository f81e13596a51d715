#!/usr/bin/env python3
"""Strouhal number, mean drag and lift amplitude from a square-cylinder monitors.csv (the whole run,
across restarts), over the times >= --from:

    python3 scripts/strouhal.py output/square_cylinder/monitors.csv --from 100
    python3 scripts/strouhal.py output/flow/monitors.csv --lift lift_coefficient:cylinder --drag drag_coefficient:cylinder

Any monitored signal may stand for the lift (--lift COLUMN, e.g. pressure_probe_1); --drag names the
averaged column (none: no drag), --length and --velocity the scales of St = f L / U.

St = f D / U with D = U = 1 by default and f the mean frequency of the upward zero crossings of C_L - mean(C_L)
(interpolated between steps); prints one line `strouhal: St ... CD_mean ... CL_amplitude ... CL_rms ...`.
"""
import argparse
import csv
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--from", dest="t0", type=float, default=0.0, help="first time of the record used")
    ap.add_argument("--lift", default="lift_coefficient", help="the oscillating column whose frequency is measured")
    ap.add_argument("--drag", default="drag_coefficient", help="the column averaged as CD_mean (none: no drag)")
    ap.add_argument("--length", type=float, default=1.0, help="reference length of St = f L / U")
    ap.add_argument("--velocity", type=float, default=1.0, help="reference velocity of St = f L / U")
    opts = ap.parse_args()
    rows = list(csv.DictReader(open(opts.csv)))
    t = [float(r["time"]) for r in rows if float(r["time"]) >= opts.t0]
    for col in (opts.lift, opts.drag):
        if col != "none" and rows and col not in rows[0]:
            sys.exit("strouhal: no column %s in %s; its columns: %s" % (col, opts.csv, ", ".join(rows[0])))
    cd = [float(r[opts.drag]) if opts.drag != "none" else 0.0 for r in rows if float(r["time"]) >= opts.t0]
    cl = [float(r[opts.lift]) for r in rows if float(r["time"]) >= opts.t0]
    if len(t) < 4:
        sys.exit("strouhal: fewer than 4 rows after t = %g" % opts.t0)
    mean = sum(cl) / len(cl)
    crossings = []
    for i in range(1, len(t)):
        a, b = cl[i - 1] - mean, cl[i] - mean
        if a < 0 <= b:
            crossings.append(t[i - 1] + (t[i] - t[i - 1]) * (-a) / (b - a))
    if len(crossings) < 2:
        sys.exit("strouhal: no shedding period in the record after t = %g" % opts.t0)
    st = (len(crossings) - 1) / (crossings[-1] - crossings[0]) * opts.length / opts.velocity
    rms = (sum((c - mean) ** 2 for c in cl) / len(cl)) ** 0.5
    print("strouhal: St %.5f periods %d CD_mean %.5f CL_amplitude %.5f CL_rms %.5f from t = %g to %g" % (st, len(crossings) - 1, sum(cd) / len(cd), max(abs(c - mean) for c in cl), rms, t[0], t[-1]))


if __name__ == "__main__":
    main()
