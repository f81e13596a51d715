#!/usr/bin/env python3
"""Runtime breakdown of the incompressible-flow time step (seed 000 Fig. 6) and the speedup from
subcycling (Fig. 5c), from -log_view stages of the square cylinder at Re = 100.

For each order N and number of subcycles Ns, runs `--steps` steps with dt = max(1, Ns) dt0(N),
dt0(N) = --cfl * h_min / N^2 the step without subcycling (h_min the shortest edge near the
cylinder, 0.1), and reports the time per step split into advection (with subcycling), velocity
solves, pressure solve and update (the stages INS advection, velocity, pressure, update), the
Krylov iterations per step, and the speedup Ns t_step(0) / t_step(Ns): the wall time to advance
the flow a given time with subcycling, against without. Preconditioner setup has its own stage
(INS setup), reported apart and not part of the step. With --restart FILE the steps continue a
checkpoint (developed flow) instead of starting from rest. Options after `--` go to hoflow
(e.g. `-- -dm_vec_type cuda`).

  python3 bench/ins_breakdown.py --orders 1-6 --subcycles 0,4,8,16 --steps 30 --csv out.csv -- -dm_vec_type cuda
  python3 bench/ins_breakdown.py --orders 5 --subcycles 8 --dt 0.02 --restart output/square_cylinder/checkpoint.h5 \
      --steps 30 -- -options_file options/square_cylinder.yaml -dm_vec_type cuda
"""
import argparse
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["INS advection", "INS velocity", "INS pressure", "INS update"]


def parse_range(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def stage_times(out):
    """Seconds per stage (Summary of Stages)."""
    times = {}
    for m in re.finditer(r"^\s*\d+:\s+([A-Za-z ]+?):\s+([0-9.e+-]+)\s", out, re.M):
        times[m.group(1).strip()] = float(m.group(2))
    return times


def summary(out):
    m = re.search(r"^hoflow: (.*)$", out, re.M)
    if not m:
        return None
    toks = m.group(1).split()
    return dict(zip(toks[0::2], toks[1::2]))


def run_case(args, order, ns, extra):
    dt0 = args.cfl * 0.1 / order**2
    dt = args.dt if args.dt else dt0 * max(1, ns)
    base = [os.path.join(ROOT, "hoflow"), "-problem", "square_cylinder", "-order", str(order), "-ts_dt", repr(dt), "-ins_subcycles", str(ns),
            "-monitor_file", "none", "-progress_interval", "-1", "-output_interval", "0", "-checkpoint_interval", "0"]
    start = 0
    if args.restart:  # the checkpoint's step: a run of no steps prints it
        base += ["-restart", args.restart]
        p = subprocess.run(base + ["-ts_max_steps", "0"] + extra, cwd=ROOT, capture_output=True, text=True)
        s = summary(p.stdout)
        if p.returncode or not s:
            return {"order": order, "subcycles": ns, "dt": dt, "status": "failed: " + (re.findall(r"PETSC ERROR: (.*)", p.stdout + p.stderr) or ["?", "?"])[1][:120]}
        start = int(s["start"])
    p = subprocess.run(base + ["-ts_max_steps", str(start + args.steps), "-log_view"] + extra, cwd=ROOT, capture_output=True, text=True)
    out = p.stdout + p.stderr
    s = summary(p.stdout)
    if p.returncode or not s:
        return {"order": order, "subcycles": ns, "dt": dt, "status": "failed: " + (re.findall(r"PETSC ERROR: (.*)", out) or ["?", "?"])[1][:120]}
    steps = int(s["steps"]) - int(s["start"])
    times = stage_times(out)
    row = {"order": order, "subcycles": ns, "dt": dt, "status": "ok", "dofs": int(s["dofs"]), "start": int(s["start"]), "steps": steps,
           "iterations_per_step": int(s["iterations"]) / steps}
    total = 0.0
    for st in STAGES:
        row[st.split()[1] + "_s"] = times.get(st, 0.0) / steps
        total += times.get(st, 0.0) / steps
    row["step_s"] = total
    row["setup_s"] = times.get("INS setup", 0.0)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", default="1-6")
    ap.add_argument("--subcycles", default="0,4,8,16")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--cfl", type=float, default=0.25, help="dt0 = cfl * h_min / N^2")
    ap.add_argument("--dt", type=float, default=0.0, help="one dt for every case instead of max(1, Ns) dt0(N)")
    ap.add_argument("--restart", default="", help="continue this checkpoint (hoflow -restart) for --steps steps")
    ap.add_argument("--csv", default="output/ins_breakdown.csv")
    ap.add_argument("extra", nargs="*", help="options for hoflow (after --)")
    args = ap.parse_args()
    rows = []
    print("%2s %3s %9s %8s %10s %10s %10s %10s %10s %8s %9s %8s" % ("N", "Ns", "dt", "its", "advect s", "velocity", "pressure", "update", "step s", "speedup", "setup s", "status"))
    for order in parse_range(args.orders):
        base = None
        for ns in [int(x) for x in args.subcycles.split(",")]:
            r = run_case(args, order, ns, args.extra)
            if r["status"] == "ok":
                if ns == 0:
                    base = r["step_s"]
                r["speedup"] = max(1, ns) * base / r["step_s"] if base else float("nan")
                print("%2d %3d %9.2e %8.1f %10.3e %10.3e %10.3e %10.3e %10.3e %8.2f %9.3e %8s" % (order, ns, r["dt"], r["iterations_per_step"], r["advection_s"], r["velocity_s"], r["pressure_s"], r["update_s"], r["step_s"], r["speedup"], r["setup_s"], "ok"), flush=True)
            else:
                print("%2d %3d %9.2e %s" % (order, ns, r["dt"], r["status"]), flush=True)
            rows.append(r)
    keys = ["order", "subcycles", "dt", "status", "dofs", "start", "steps", "iterations_per_step", "advection_s", "velocity_s", "pressure_s", "update_s", "step_s", "setup_s", "speedup"]
    with open(os.path.join(ROOT, args.csv) if not os.path.isabs(args.csv) else args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in keys})
    print("wrote", args.csv)


if __name__ == "__main__":
    sys.exit(main())
