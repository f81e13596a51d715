#!/usr/bin/env python3
"""Largest stable time step of the incompressible-flow splitting with and without subcycling
(seed 000 Fig. 2c): for each number of subcycles Ns, bisect dt between a stable and an unstable
value, a run counting as stable when it reaches --time without the divergence check stopping it
and with a velocity error below --max-error (a run that stays bounded but wrong is not stable).

  python3 scripts/ins_stability.py --order 6 --subcycles 0,4,8,16 --csv output/ins_stability.csv

Extra hoflow options after `--` (default problem: the Taylor vortex, whose error is known).
"""
import argparse
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stable(args, ns, dt, extra):
    cmd = [os.path.join(ROOT, "hoflow"), "-problem", "taylor_vortex", "-order", str(args.order), "-ts_dt", repr(dt), "-ts_max_time", str(args.time),
           "-ins_subcycles", str(ns), "-monitor_file", "none", "-progress_interval", "-1"] + extra
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    m = re.search(r"^hoflow: .* L2 (\S+)", p.stdout, re.M)
    if p.returncode or not m:
        if "diverged" not in p.stdout + p.stderr:
            sys.exit("hoflow failed for another reason: %s\n%s" % (" ".join(cmd), (p.stdout + p.stderr)[-1500:]))
        return False, float("inf")
    err = float(m.group(1))
    return err < args.max_error, err


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--order", type=int, default=6)
    ap.add_argument("--subcycles", default="0,4,8,16")
    ap.add_argument("--time", type=float, default=1.0, help="final time of each run")
    ap.add_argument("--max-error", type=float, default=0.1, help="velocity L2 error above which a run counts as unstable")
    ap.add_argument("--start", type=float, default=0.004, help="a stable dt without subcycling")
    ap.add_argument("--bisections", type=int, default=6)
    ap.add_argument("--csv", default="output/ins_stability.csv")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    rows = []
    print("%4s %12s %12s %12s" % ("Ns", "stable dt", "unstable dt", "L2 at stable"))
    for ns in [int(x) for x in args.subcycles.split(",")]:
        lo, err_lo = args.start * max(1, ns) / 2, None
        ok, err = stable(args, ns, lo, args.extra)
        while not ok:  # find a stable start
            lo /= 2
            ok, err = stable(args, ns, lo, args.extra)
        err_lo = err
        hi = lo * 2
        while True:  # double until unstable
            ok, err = stable(args, ns, hi, args.extra)
            if not ok:
                break
            lo, err_lo, hi = hi, err, hi * 2
        for _ in range(args.bisections):
            mid = (lo * hi) ** 0.5
            ok, err = stable(args, ns, mid, args.extra)
            if ok:
                lo, err_lo = mid, err
            else:
                hi = mid
        rows.append({"subcycles": ns, "stable_dt": lo, "unstable_dt": hi, "L2_at_stable_dt": err_lo})
        print("%4d %12.4e %12.4e %12.3e" % (ns, lo, hi, err_lo), flush=True)
    base = rows[0]["stable_dt"] if rows and rows[0]["subcycles"] == 0 else None
    if base:
        for r in rows:
            print("Ns=%d: largest stable dt %.4g = %.1f x that without subcycling" % (r["subcycles"], r["stable_dt"], r["stable_dt"] / base))
    path = args.csv if os.path.isabs(args.csv) else os.path.join(ROOT, args.csv)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["subcycles", "stable_dt", "unstable_dt", "L2_at_stable_dt"])
        w.writeheader()
        w.writerows(rows)
    print("wrote", args.csv)


if __name__ == "__main__":
    main()
