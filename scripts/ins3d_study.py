#!/usr/bin/env python3
"""hoflow 3D incompressible flow: spatial convergence on the Beltrami (Ethier-Steinman) flow.

Runs -problem beltrami (exact velocity on every face of the unit cube, pressure up to a constant)
on hexahedra (DMPlex boxes of n^3 cubes, n = base 2^L) and tetrahedra
(examples/meshes/cube_tet_structured.msh refined uniformly, -dm_refine L: 48 8^L tetrahedra)
for each order N, with BDF3/EXT3 (-ins_order 3), second-order pressure extrapolation
(-ins_pressure_order 2) and the past levels from the exact solution (-ins_exact_history), to a short
final time T with a step small enough that the temporal error (third order, about 2.5e-8 at
dt = 1e-3 and T = 0.02, measured with N = 7 on 8 hexahedra; so about 1e-10 at dt = 2.5e-4, T = 0.005
and 6e-12 at dt = 1.25e-4, T = 0.0025) stays well below the spatial one: N = 2, 3 run 20 steps of
1e-3, N = 4 20 steps of 2.5e-4, N = 5 20 steps of 1.25e-4. Rates are against the
mesh size, which halves with each level.

Examples (from the repository root, after `make`):
  python3 scripts/ins3d_study.py                          # N = 2..5, hexahedra and tetrahedra (CPU)
  python3 scripts/ins3d_study.py --orders 4,5 --shapes hexahedron
  python3 scripts/ins3d_study.py --out bench/results/h100_DATE_ins3d_beltrami -- -dm_vec_type cuda
  python3 scripts/ins3d_study.py --orders 5 --shapes tetrahedron --levels 2-3 --dt 6.25e-5 --T 0.00125 --rtol 1e-13 -- -dm_vec_type cuda
Arguments after `--` go to hoflow unchanged. Output: <out>.csv and <out>.md (table and machine).
"""
import argparse
import datetime
import math
import os
import platform
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOFLOW = os.environ.get("HOFLOW_BIN", os.path.join(ROOT, "hoflow"))  # HOFLOW_BIN: another build

# order: (levels, dt, T); levels per shape: hexahedron n = 2 * 2^L, tetrahedron -dm_refine L
PLAN = {
    2: ({"hexahedron": [0, 1, 2], "tetrahedron": [0, 1, 2]}, 1e-3, 0.02),
    3: ({"hexahedron": [0, 1, 2], "tetrahedron": [0, 1, 2]}, 1e-3, 0.02),
    4: ({"hexahedron": [0, 1, 2], "tetrahedron": [0, 1, 2]}, 2.5e-4, 0.005),
    5: ({"hexahedron": [0, 1], "tetrahedron": [0, 1, 2]}, 6.25e-5, 0.00125),
}

def mesh_args(shape, level):
    if shape == "hexahedron":
        n = 2 * 2 ** level
        return ["-dm_plex_dim", "3", "-dm_plex_box_faces", "%d,%d,%d" % (n, n, n)]
    return ["-dm_plex_filename", "examples/meshes/cube_tet_structured.msh", "-dm_refine", str(level)]


def run(args):
    t0 = time.time()
    p = subprocess.run([HOFLOW] + args, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        sys.exit("hoflow failed:\n" + " ".join(args) + "\n" + (p.stdout + p.stderr)[-3000:])
    line = [l for l in p.stdout.splitlines() if l.startswith("hoflow: ")][-1]
    s = dict(re.findall(r"(\w+) (\S+)", line[len("hoflow: "):]))
    s["wall"] = time.time() - t0
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--orders", default="2,3,4,5")
    ap.add_argument("--shapes", default="hexahedron,tetrahedron")
    ap.add_argument("--out", default=os.path.join("bench", "results", "cpu_%s_ins3d_beltrami" % datetime.date.today().isoformat()))
    ap.add_argument("--levels", help="levels A-B for every order and shape, instead of the plan's")
    ap.add_argument("--dt", type=float, help="time step for every order, instead of the plan's")
    ap.add_argument("--T", type=float, help="final time for every order, instead of the plan's")
    ap.add_argument("--rtol", type=float, help="relative tolerance of the velocity and pressure solves (-vel_ksp_rtol, -pres_ksp_rtol; hoflow's default 1e-10 "
                    "floors the velocity error near 5e-10 on fine tetrahedral levels at N = 5)")
    ap.add_argument("extra", nargs="*", help="options passed to hoflow (after --)")
    a = ap.parse_args()
    rows = []
    rtol = ["-vel_ksp_rtol", repr(a.rtol), "-pres_ksp_rtol", repr(a.rtol)] if a.rtol else []
    for shape in a.shapes.split(","):
        for N in [int(x) for x in a.orders.split(",")]:
            if N not in PLAN:
                sys.exit("ins3d_study.py: --orders: no plan for N = %d (have %s)" % (N, ",".join(str(k) for k in PLAN)))
            levels, dt, T = PLAN[N]
            dt, T = a.dt or dt, a.T or T
            lv = levels[shape]
            if a.levels:
                lo, _, hi = a.levels.partition("-")
                lv = list(range(int(lo), int(hi or lo) + 1))
            prev = None
            for L in lv:
                args = ["-problem", "beltrami", "-order", str(N), "-ts_dt", repr(dt), "-ts_max_time", repr(T), "-ins_order", "3",
                        "-ins_pressure_order", "2", "-ins_exact_history", "-progress_interval", "-1", "-monitor_file", "none"] + mesh_args(shape, L) + rtol + a.extra
                s = run(args)
                eu, ep = float(s["L2"]), float(s["L2_p"])
                ru = math.log2(prev[0] / eu) if prev else float("nan")
                rp = math.log2(prev[1] / ep) if prev else float("nan")
                prev = (eu, ep)
                row = dict(shape=shape, N=N, level=L, cells=int(s["cells"]), dofs=int(s["dofs"]), dt=dt, T=T, L2_velocity=eu, rate_velocity=ru, L2_pressure=ep, rate_pressure=rp,
                           iterations=int(s["iterations"]), wall_s=s["wall"])
                rows.append(row)
                print("%-11s N=%d L=%d cells %6d dofs %8d  L2_u %.3e rate %5.2f  L2_p %.3e rate %5.2f  its %6d  %.1fs" % (shape, N, L, row["cells"], row["dofs"], eu, ru, ep, rp, row["iterations"], row["wall_s"]), flush=True)
    keys = list(rows[0].keys())
    with open(a.out + ".csv", "w") as f:
        f.write(",".join(keys) + "\n")
        for r in rows:
            f.write(",".join(str(r[k]) for k in keys) + "\n")
    with open(a.out + ".md", "w") as f:
        f.write("# Beltrami flow, 3D incompressible splitting: spatial convergence\n\n")
        f.write("Date %s UTC, machine %s (%s, %d cores), hoflow %s.\n\n" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), platform.node(), cpu_model(), os.cpu_count(),
                                                                       subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()))
        f.write("Command: `python3 scripts/ins3d_study.py --orders %s --shapes %s%s%s`; on a GPU: "
                "`python3 scripts/ins3d_study.py --out bench/results/h100_DATE_ins3d_beltrami -- -dm_vec_type cuda`\n\n" % (a.orders, a.shapes, "".join(" --%s %s" % (k, v) for k, v in (("levels", a.levels), ("dt", a.dt), ("T", a.T), ("rtol", a.rtol)) if v),
                                                                                                                           (" -- " + " ".join(a.extra)) if a.extra else ""))
        f.write("Each run: `hoflow -problem beltrami -order N -ts_dt DT -ts_max_time T -ins_order 3 -ins_pressure_order 2 -ins_exact_history` on the mesh of the level "
                "(hexahedra: `-dm_plex_dim 3 -dm_plex_box_faces n,n,n`, n = 2^(L+1); tetrahedra: `-dm_plex_filename examples/meshes/cube_tet_structured.msh -dm_refine L`). "
                "Velocity: L2 norm of the error of (u, v, w); pressure: mean removed. Rates against the previous level (h halves).\n\n")
        f.write("| shape | N | level | cells | DOFs | dt | T | L2 velocity | rate | L2 pressure | rate | CG its | wall s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %d | %d | %d | %d | %g | %g | %.3e | %.2f | %.3e | %.2f | %d | %.1f |\n" % (r["shape"], r["N"], r["level"], r["cells"], r["dofs"], r["dt"], r["T"], r["L2_velocity"], r["rate_velocity"], r["L2_pressure"], r["rate_pressure"], r["iterations"], r["wall_s"]))
    print("wrote %s.csv, %s.md" % (a.out, a.out))


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


if __name__ == "__main__":
    main()
