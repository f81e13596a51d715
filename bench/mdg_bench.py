#!/usr/bin/env python3
"""Right-hand-side benchmark of the modal DG Euler and Navier-Stokes solvers (seed 002 Fig. 12, seed 004
Table 7).

Runs hoflow's isentropic vortex (or, --problem couette, the Navier-Stokes Couette flow of seed 004 on
--faces X,Y quadrilaterals, e.g. the seed's 768,256) for a few steps with -log_view and -mdg_view_cost
and reports, for the volume, face and lift kernels: seconds per call, GFLOP/s, GB/s (the least memory
traffic of MDGViewCost), the arithmetic intensity and the percent of the roofline min(peak, bandwidth x
intensity), the BR2 viscous terms' time (MDGViscous), and the whole right-hand side in seconds per DOF
per stage (DOF = modes x variables, all elements).

  bench/mdg_bench.py --label gpu --bandwidth 2980 --peak 33500 -- -dm_vec_type cuda
  bench/mdg_bench.py --label cpu16 --mpi 16 -- ...
  bench/mdg_bench.py --label cpu1 --taskset 3 -- ...

Meshes (--mesh): quad (periodic --faces x --faces quadrilaterals) or tri (the periodic Gmsh square,
--refine uniform refinements: 66 x 4^r triangles). Rows are appended to --csv.
"""
import argparse
import os
import re
import subprocess
import sys
import time

EVENTS = ("MDGVolume", "MDGFace", "MDGLift")
VISCOUS = "MDGViscous"


def parse(text):
    events, cost, dofs, cells = {}, {}, None, None
    for line in text.splitlines():
        w = line.split()
        if w and (w[0] in EVENTS or w[0] == VISCOUS) and len(w) > 5:
            try:
                events[w[0]] = dict(count=int(w[1]), time=float(w[3]), flops=float(w[5]))
            except ValueError:
                sys.exit("mdg_bench: cannot read the -log_view line: " + line)
        m = re.match(r"mdg cost: block \d+ (.*)", line)
        if m:
            f = m.group(1).split()
            kv = {f[i]: f[i + 1] for i in range(0, 14, 2)}
            rest = f[14:]  # flops volume a face b lift c bytes volume d face e lift g
            for i, key in ((2, "Volume"), (4, "Face"), (6, "Lift")):
                cost.setdefault("flops" + key, 0.0)
                cost["flops" + key] += float(rest[i])
            for i, key in ((9, "Volume"), (11, "Face"), (13, "Lift")):
                cost.setdefault("bytes" + key, 0.0)
                cost["bytes" + key] += float(rest[i])
            cost["shape"] = kv["shape"]
        m = re.match(r"hoflow: .* cells (\d+) dofs (\d+)", line)
        if m:
            cells, dofs = int(m.group(1)), int(m.group(2))
    return events, cost, cells, dofs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", required=True, help="machine/backend label written to the CSV (gpu, cpu1, cpu16)")
    ap.add_argument("--mesh", choices=("quad", "tri"), default="quad")
    ap.add_argument("--problem", choices=("isentropic_vortex", "couette"), default="isentropic_vortex")
    ap.add_argument("--faces", default="1024", help="quad: elements per direction (N or X,Y)")
    ap.add_argument("--refine", type=int, default=7, help="tri: uniform refinements of the periodic square")
    ap.add_argument("--order", type=int, default=3)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--mpi", type=int, default=0, help="ranks (mpiexec); 0: no mpiexec")
    ap.add_argument("--taskset", default=None, help="pin the one process to this core list")
    ap.add_argument("--bandwidth", type=float, default=0.0, help="memory bandwidth of the roofline, GB/s (0: no roofline)")
    ap.add_argument("--peak", type=float, default=0.0, help="FP64 peak of the roofline, GFLOP/s")
    ap.add_argument("--csv", default="output/mdg_bench.csv")
    ap.add_argument("--hoflow", default="./hoflow")
    ap.add_argument("extra", nargs="*", help="more hoflow options (after --)")
    a = ap.parse_args()

    cmd = [a.hoflow, "-problem", a.problem, "-disc", "mdg", "-order", str(a.order), "-ts_type", "ssp",
           "-ts_ssp_type", "rk104", "-cfl", "0.5", "-ts_max_steps", str(a.steps), "-log_view", "-mdg_view_cost"]
    faces = a.faces if "," in a.faces else f"{a.faces},{a.faces}"
    if a.problem == "couette":  # periodic in x between the plates (tests/suite_navier_stokes.py NS_BOX)
        cmd += ["-dm_plex_simplex", "0", "-dm_plex_box_faces", faces, "-dm_plex_box_upper", "4,2", "-dm_plex_box_bd", "periodic,none"]
    elif a.mesh == "quad":
        cmd += ["-dm_plex_simplex", "0", "-dm_plex_box_faces", faces, "-dm_plex_box_bd", "periodic,periodic"]
    else:
        cmd += ["-dm_plex_filename", "examples/meshes/periodic_square.msh", "-dm_refine", str(a.refine)]
    cmd += a.extra
    if "cuda" in " ".join(a.extra):
        cmd += ["-log_view_gpu_time"]  # PETSc >= 3.19: event times of asynchronous kernels (else n/a)
    if a.mpi:
        env_root = ["env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"]
        cmd = env_root + ["mpiexec", "-n", str(a.mpi), "--bind-to", "core", "--oversubscribe"] + cmd
    elif a.taskset:
        cmd = ["taskset", "-c", a.taskset] + cmd
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        sys.exit(f"mdg_bench: hoflow failed ({p.returncode}): {' '.join(cmd)}")
    events, cost, cells, dofs = parse(p.stdout)
    if not all(e in events for e in EVENTS) or dofs is None:
        sys.exit("mdg_bench: no MDG events or summary line in hoflow's output (-log_view)")
    count = events["MDGLift"]["count"]  # right-hand sides (MDGVolume and MDGFace are two calls each on several ranks)
    visc = events[VISCOUS]["time"] / count if VISCOUS in events else 0.0
    rhs = sum(events[e]["time"] for e in EVENTS) / count + visc
    rows = []
    print(f"{a.label}: {a.problem} {cost.get('shape')} N={a.order} cells {cells} dofs {dofs} wall {wall:.1f} s, "
          f"{count} right-hand sides, {rhs:.4e} s each (viscous terms {visc:.4e} s), {rhs / dofs:.3e} s per DOF per stage")
    print(f"{'kernel':8s} {'s/call':>10s} {'GFLOP/s':>9s} {'GB/s':>8s} {'flop/B':>7s} {'roof':>9s} {'%roof':>6s}")
    for e in EVENTS:
        key = e[3:]
        t = events[e]["time"] / count  # a right-hand side's (MDGFace: two calls, the interior and the halo elements)
        fl, by = cost.get("flops" + key, 0.0), cost.get("bytes" + key, 0.0)
        if a.mpi:  # rank 0 prints its blocks only: scale by its share is unknown, so report time only
            fl = by = 0.0
        gf, gb = fl / t * 1e-9, by / t * 1e-9
        ai = fl / by if by else 0.0
        roof = min(a.peak, a.bandwidth * ai) if a.bandwidth and a.peak and ai else 0.0
        pct = 100 * gf / roof if roof else 0.0
        print(f"{key:8s} {t:10.3e} {gf:9.1f} {gb:8.1f} {ai:7.2f} {roof:9.1f} {pct:6.1f}")
        rows.append([a.label, a.problem, cost.get("shape", ""), a.order, cells, dofs, key, f"{t:.6e}", f"{gf:.6g}", f"{gb:.6g}",
                     f"{ai:.3f}", f"{roof:.1f}", f"{pct:.2f}", f"{rhs / dofs:.4e}"])
    new = not os.path.exists(a.csv)
    os.makedirs(os.path.dirname(a.csv) or ".", exist_ok=True)
    with open(a.csv, "a") as f:
        if new:
            f.write("label,problem,shape,N,cells,dofs,kernel,seconds_per_call,gflops,gbs,flop_per_byte,roofline_gflops,percent_roofline,rhs_seconds_per_dof_stage\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")
        if visc:
            f.write(",".join(str(x) for x in [a.label, a.problem, cost.get("shape", ""), a.order, cells, dofs, "Viscous", f"{visc:.6e}", "", "", "", "", "", f"{rhs / dofs:.4e}"]) + "\n")


if __name__ == "__main__":
    main()
