#!/usr/bin/env python3
"""Compare hoflow's 3D Taylor–Green vortex (-problem taylor_green_3d, monitors.csv) with the 512^3 spectral DNS
(bench/reference/spectral_Re1600_512.gdiag): the peak of the dissipation rate in value and time, for -dE/dt (central
differences of hoflow's energy column) and for the enstrophy form 2 nu eps (hoflow's enstrophy_dissipation column),
each against the reference's -dE/dt peak; the peaks are refined by a parabola through the largest sample and its
neighbours. Prints one line per measure and a final line 'tgv_compare: ...'; writes a plot with --plot (matplotlib).

    scripts/tgv_compare.py output/taylor_green_3d/monitors.csv [--reference FILE] [--plot tgv.png] [--tolerance 0.02]
    scripts/tgv_compare.py output/taylor_green_compressible/monitors.csv --energy-column kinetic_energy (-disc fr)

Exit status 1 when a peak's value or time differs from the reference's by more than the tolerance (relative)."""
import argparse
import csv
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_reference(path):
    t, e, d = [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            v = [float(x) for x in line.split()]
            t.append(v[0]), e.append(v[1]), d.append(v[2])
    return t, e, d


def read_hoflow(path, energy_column="energy"):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    t = [float(r["time"]) for r in rows]
    col = lambda name: [float(r[name]) for r in rows] if name in rows[0] else None
    return t, col(energy_column), col("enstrophy_dissipation")


def central_differences(t, e):
    """-dE/dt at the interior samples (non-uniform central differences)."""
    tt, dd = [], []
    for k in range(1, len(t) - 1):
        if t[k + 1] > t[k - 1]:
            tt.append(t[k])
            dd.append(-(e[k + 1] - e[k - 1]) / (t[k + 1] - t[k - 1]))
    return tt, dd


def peak(t, v):
    """The largest value and its time, refined by the parabola through the sample and its two neighbours."""
    k = max(range(len(v)), key=lambda i: v[i] if not math.isnan(v[i]) else -1e300)
    if 0 < k < len(v) - 1:
        (t0, t1, t2), (v0, v1, v2) = t[k - 1:k + 2], v[k - 1:k + 2]
        den = (t0 - t1) * (t0 - t2) * (t1 - t2)
        a = (t2 * (v1 - v0) + t1 * (v0 - v2) + t0 * (v2 - v1)) / den
        b = (t2 * t2 * (v0 - v1) + t1 * t1 * (v2 - v0) + t0 * t0 * (v1 - v2)) / den
        if a < 0:
            tp = -b / (2 * a)
            if t0 <= tp <= t2:
                return a * tp * tp + b * tp + (v1 - a * t1 * t1 - b * t1), tp
    return v[k], t[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("monitors", help="hoflow's monitors.csv of -problem taylor_green_3d")
    ap.add_argument("--reference", default=os.path.join(ROOT, "bench", "reference", "spectral_Re1600_512.gdiag"))
    ap.add_argument("--plot", help="write the energy and dissipation curves against the reference to this file")
    ap.add_argument("--tolerance", type=float, default=0.02, help="relative tolerance of the peak's value and time (default 0.02)")
    ap.add_argument("--label", default="hoflow")
    ap.add_argument("--energy-column", default="energy", help="the monitor of the mean kinetic energy (default energy, -problem taylor_green_3d; the compressible taylor_green_compressible: kinetic_energy)")
    a = ap.parse_args()

    rt, re, rd = read_reference(a.reference)
    ht, he, hz = read_hoflow(a.monitors, a.energy_column)
    if he is None:
        sys.exit("tgv_compare: %s has no energy column (run -problem taylor_green_3d)" % a.monitors)
    dt_, dd_ = central_differences(ht, he)
    rv, rtp = peak(rt, rd)
    print("reference (512^3 spectral): peak -dE/dt %.6e at t = %.4f (E(0) %.6f, t = %g..%g)" % (rv, rtp, re[0], rt[0], rt[-1]))
    ok, parts = True, []
    measures = [("-dE/dt", dt_, dd_)] + ([("2nu*eps", ht, hz)] if hz is not None else [])
    for name, t, v in measures:
        if len(v) < 3 or max(t) < rtp:
            print("%s: the run ends at t = %g, before the reference's peak at %.2f: no comparison" % (name, max(t) if t else 0, rtp))
            ok = False
            continue
        pv, ptp = peak(t, v)
        ev, et = (pv - rv) / rv, (ptp - rtp) / rtp
        good = abs(ev) <= a.tolerance and abs(et) <= a.tolerance
        ok = ok and good
        print("%s: peak %.6e at t = %.4f: value error %+.2f %%, time error %+.2f %% (%s the %.0f %% tolerance)" % (name, pv, ptp, 100 * ev, 100 * et, "within" if good else "OUTSIDE", 100 * a.tolerance))
        key = "dissipation" if name == "-dE/dt" else "enstrophy_dissipation"
        parts.append("%s_value_error %.4e %s_time_error %.4e" % (key, ev, key, et))
    print("tgv_compare: %s within %s" % (" ".join(parts), "yes" if ok else "no"))
    if a.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("tgv_compare: no matplotlib, no plot")
        else:
            fig, ax = plt.subplots(1, 2, figsize=(11, 4))
            ax[0].plot(rt, re, "k-", label="spectral 512^3")
            ax[0].plot(ht, he, "r--", label=a.label)
            ax[0].set(xlabel="t", ylabel="E", title="kinetic energy")
            ax[1].plot(rt, rd, "k-", label="spectral 512^3, -dE/dt")
            ax[1].plot(dt_, dd_, "r--", label=a.label + ", -dE/dt")
            if hz is not None:
                ax[1].plot(ht, hz, "b:", label=a.label + ", 2 nu eps")
            ax[1].set(xlabel="t", ylabel="dissipation rate", title="dissipation")
            for x in ax:
                x.legend()
                x.grid(alpha=0.3)
            fig.tight_layout()
            fig.savefig(a.plot, dpi=120)
            print("tgv_compare: plot %s" % a.plot)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
