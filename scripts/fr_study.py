#!/usr/bin/env python3
"""Convergence study of flux reconstruction (-disc fr) on periodic tetrahedra, prisms and mixed meshes: linear
advection of u0 = sin 2 pi x sin 2 pi y sin 2 pi z (velocity of the advection problem, periodic unit cube) to a
short final time, SSP-RK 10-stage 4th order at CFL 0.5, on the structured periodic meshes of
scripts/periodic_mesh.py with n1 < n2 < ... cubes per direction (h = 1/n; rate = log(e1/e2) / log(n2/n1)). Prints a table, writes a
CSV (shape, N, n, cells, DOFs, steps, L2 error, rate, wall seconds) row by row, so an interrupted study keeps its
rows.

  python3 scripts/fr_study.py --shapes prism,tet,mixed --orders 1-5 --out bench/results/cpu_DATE_fr_study
  python3 scripts/fr_study.py --shapes prism --orders 3 --levels 3:4,8,16 -- -fr_c 1e-3

--case couette: compressible Navier-Stokes instead (physics navier_stokes, the corrected-gradient viscous terms):
Couette flow between isothermal no-slip plates y = 0 and y = 2 (problem couette, Re 2, wall temperatures 0.6 and 1.0
T_inf for a density profile that the higher orders do not resolve to round-off, explicit SSP-RK3 to t = 1, the
error against the exact steady state: starting from it, the error converges like the steady scheme's), on the
non-periodic boxes of scripts/periodic_mesh.py --box 1,n,1 --upper 1,2,1 (mixed: --box 2,n,2 --upper 2,2,2) with the x and z sides free-stream faces
carrying the exact state; h = 2/n. --levels defaults to COUETTE_LEVELS below.

  python3 scripts/fr_study.py --case couette --shapes hex,prism,tet,mixed --orders 1-4 --out bench/results/cpu_DATE_fr_ns_study

--levels N:n1,n2,... sets the meshes of order N (default: DEFAULT_LEVELS below, chosen so the finest run takes
a few minutes on one core of a 2-core laptop-class CPU). The mixed mesh needs an even n: give it
--levels 4:4,6,8 --levels 5:6,8 (as bench/results/cpu_2026-11-26_fr_study_mixed_N*.csv). Arguments after `--` go
to hoflow unchanged.
"""
import argparse
import csv
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOFLOW = os.path.join(ROOT, "hoflow")
DEFAULT_LEVELS = {1: (6, 12, 24), 2: (4, 8, 16), 3: (4, 8, 12), 4: (3, 6, 9), 5: (3, 5, 7)}
COUETTE_LEVELS = {1: (8, 16, 32), 2: (4, 8, 16), 3: (2, 4, 8), 4: (2, 4, 8)}
COUETTE = ["-problem", "couette", "-couette_reynolds", "2", "-couette_wall_temperatures", "0.6,1.0", "-bc_no_slip_isothermal", "front,back", "-bc_freestream", "left,right,bottom,top"]


def parse_range(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", default="prism,tet,mixed")
    p.add_argument("--orders", default="1-5")
    p.add_argument("--levels", action="append", default=[], help="N:n1,n2,... cubes per direction for order N")
    p.add_argument("--case", choices=("advection", "couette"), default="advection")
    p.add_argument("--tmax", type=float, default=None, help="final time (default: advection 0.05, couette 1)")
    p.add_argument("--out", default=None, help="CSV path without extension")
    p.add_argument("extra", nargs="*")
    a = p.parse_args()
    couette = a.case == "couette"
    tmax = a.tmax if a.tmax is not None else (1.0 if couette else 0.05)
    levels = dict(COUETTE_LEVELS if couette else DEFAULT_LEVELS)
    for spec in a.levels:
        order, ns = spec.split(":")
        levels[int(order)] = tuple(int(x) for x in ns.split(","))
    shapes = a.shapes.split(",")
    orders = parse_range(a.orders)
    writer = None
    if a.out:
        fh = open(a.out + ".csv", "w", newline="")
        fh.write("# hoflow fr_study: %s; host %s (%s), %s; command: %s\n" % (time.strftime("%Y-%m-%d %H:%M"), platform.node(), platform.processor() or platform.machine(), os.cpu_count(), " ".join(sys.argv)))
        writer = csv.writer(fh)
        writer.writerow(["shape", "N", "n", "cells", "dofs", "steps", "L2_density" if a.case == "couette" else "L2_u", "rate", "wall_s"])
        fh.flush()
    print("%-6s %2s %4s %8s %9s %6s %12s %6s %8s" % ("shape", "N", "n", "cells", "DOFs", "steps", "L2 error", "rate", "wall s"))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            for order in orders:
                prev = None, None
                for n in levels[order]:
                    msh = os.path.join(tmp, "%s_%d.msh" % (shape, n))
                    if not os.path.exists(msh):
                        m = 2 if shape == "mixed" else 1
                        where = ["--box", "%d,%d,%d" % (m, n, m), "--upper", "%d,2,%d" % (m, m)] if couette else ["--n", str(n)]
                        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "periodic_mesh.py"), "--shape", shape, "-o", msh] + where, check=True, stdout=subprocess.DEVNULL)
                    case = COUETTE if couette else ["-problem", "advection", "-ts_ssp_type", "rk104", "-cfl", "0.5"]
                    cmd = [HOFLOW, "-disc", "fr", "-monitor_file", "none", "-progress_interval", "-1", "-order", str(order), "-ts_max_time", repr(tmax), "-dm_plex_filename", msh] + case + a.extra
                    t0 = time.time()
                    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
                    wall = time.time() - t0
                    s = dict(re.findall(r"(\w+) (\S+)", out.strip().splitlines()[-1].split("hoflow:", 1)[1]))
                    err = float(s["L2_density" if couette else "L2_u"])
                    rate = math.log(prev[0] / err) / math.log(n / prev[1]) if prev[0] else float("nan")  # h = 1/n
                    prev = err, n
                    print("%-6s %2d %4d %8s %9s %6s %12.4e %6.2f %8.1f" % (shape, order, n, s["cells"], s["dofs"], s["steps"], err, rate, wall), flush=True)
                    if writer:
                        writer.writerow([shape, order, n, s["cells"], s["dofs"], s["steps"], "%.6e" % err, "%.3f" % rate, "%.1f" % wall])
                        fh.flush()


if __name__ == "__main__":
    main()
