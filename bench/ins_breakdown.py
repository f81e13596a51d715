#!/usr/bin/env python3
"""Runtime breakdown of the incompressible-flow time step (seed 000 Fig. 6) and the speedup from
subcycling (Fig. 5c), from -log_view stages of the square cylinder at Re = 100.

For each order N and number of subcycles Ns, runs `--steps` steps with dt = max(1, Ns) dt0(N),
dt0(N) = --cfl * h_min / N^2 the step without subcycling (h_min the shortest edge near the
cylinder, 0.1), and reports the time per step split into advection (with subcycling), velocity
solves, pressure solve and the rest (update and anything outside the four stages, minus the
one-time preconditioner setup), the Krylov iterations per step, and the speedup
Ns t_step(0) / t_step(Ns): the wall time to advance the flow a given time with subcycling, against
without. Options after `--` go to hoflow (e.g. `-- -dm_vec_type cuda`).

  python3 bench/ins_breakdown.py --orders 1-6 --subcycles 0,4,8,16 --steps 30 --csv out.csv -- -dm_vec_type cuda
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
    """Seconds per stage (Summary of Stages) and PCSetUp seconds inside each stage."""
    times = {}
    for m in re.finditer(r"^\s*\d+:\s+([A-Za-z ]+?):\s+([0-9.e+-]+)\s", out, re.M):
        times[m.group(1).strip()] = float(m.group(2))
    setup = {}
    for m in re.finditer(r"^--- Event Stage \d+: (.+?)\s*$(.*?)(?=^--- Event Stage|^-{20,}\s*$\s*^Object Type|\Z)", out, re.M | re.S):
        rows = re.findall(r"^PCSetUp\s+\d+\s+[0-9.]+\s+([0-9.e+-]+)", m.group(2), re.M)
        setup[m.group(1).strip()] = sum(float(r) for r in rows)
    return times, setup


def run_case(args, order, ns, extra):
    dt0 = args.cfl * 0.1 / order**2
    dt = args.dt if args.dt else dt0 * max(1, ns)
    cmd = [os.path.join(ROOT, "hoflow"), "-problem", "square_cylinder", "-order", str(order), "-ts_dt", repr(dt), "-ts_max_steps", str(args.steps),
           "-ins_subcycles", str(ns), "-monitor_file", "none", "-progress_interval", "-1", "-log_view"] + extra
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    out = p.stdout + p.stderr
    m = re.search(r"^hoflow: (.*)$", p.stdout, re.M)
    if p.returncode or not m:
        return {"order": order, "subcycles": ns, "dt": dt, "status": "failed: " + (re.findall(r"PETSC ERROR: (.*)", out) or ["?"])[1][:120]}
    toks = m.group(1).split()
    s = dict(zip(toks[0::2], toks[1::2]))
    steps = int(s["steps"])
    times, setup = stage_times(out)
    row = {"order": order, "subcycles": ns, "dt": dt, "status": "ok", "dofs": int(s["dofs"]), "steps": steps,
           "iterations_per_step": int(s["iterations"]) / steps}
    total = 0.0
    for st in STAGES:
        t = times.get(st, 0.0) - setup.get(st, 0.0)
        row[st.split()[1] + "_s"] = t / steps
        total += t / steps
    row["step_s"] = total
    row["pc_setup_s"] = sum(setup.values())
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", default="1-6")
    ap.add_argument("--subcycles", default="0,4,8,16")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--cfl", type=float, default=0.25, help="dt0 = cfl * h_min / N^2")
    ap.add_argument("--dt", type=float, default=0.0, help="one dt for every case instead of max(1, Ns) dt0(N)")
    ap.add_argument("--csv", default="output/ins_breakdown.csv")
    ap.add_argument("extra", nargs="*", help="options for hoflow (after --)")
    args = ap.parse_args()
    rows = []
    print("%2s %3s %9s %8s %10s %10s %10s %10s %10s %8s %8s" % ("N", "Ns", "dt", "its", "advect s", "velocity", "pressure", "update", "step s", "speedup", "status"))
    for order in parse_range(args.orders):
        base = None
        for ns in [int(x) for x in args.subcycles.split(",")]:
            r = run_case(args, order, ns, args.extra)
            if r["status"] == "ok":
                if ns == 0:
                    base = r["step_s"]
                r["speedup"] = max(1, ns) * base / r["step_s"] if base else float("nan")
                print("%2d %3d %9.2e %8.1f %10.3e %10.3e %10.3e %10.3e %10.3e %8.2f %8s" % (order, ns, r["dt"], r["iterations_per_step"], r["advection_s"], r["velocity_s"], r["pressure_s"], r["update_s"], r["step_s"], r["speedup"], "ok"), flush=True)
            else:
                print("%2d %3d %9.2e %s" % (order, ns, r["dt"], r["status"]), flush=True)
            rows.append(r)
    keys = ["order", "subcycles", "dt", "status", "dofs", "steps", "iterations_per_step", "advection_s", "velocity_s", "pressure_s", "update_s", "step_s", "pc_setup_s", "speedup"]
    with open(os.path.join(ROOT, args.csv) if not os.path.isabs(args.csv) else args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in keys})
    print("wrote", args.csv)


if __name__ == "__main__":
    sys.exit(main())
