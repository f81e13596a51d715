#!/usr/bin/env python3
"""Flux-reconstruction benchmark (issue 17, seed 003 §VI): time per Runge-Kutta stage per DOF-variable of -disc fr
(the Euler equations, isentropic vortex on periodic meshes) for orders N, on the GPU (-dm_vec_type cuda) or the CPU.
Shapes: quadrilateral and hexahedron (tensor FR, PETSc's periodic boxes), triangle (examples/meshes/periodic_square.msh
refined), tetrahedron, prism and mixed (tet/prism/hex: dense FR on the periodic unit cube of scripts/periodic_mesh.py,
written once into --mesh-dir; the 3D vortex with radius 0.15 and strength 1, so that the coarse meshes of the CPU runs
stay physical).

For every (shape, N) hoflow runs --steps steps of the low-storage RK of seed 003 (LSERK4: -ts_type rk -ts_rk_type
lserk4, 5 stages, CFL step) with -log_view and reports
  rhs     the right-hand side (log events FRVolume + FRFace, per call): seconds, and seconds per DOF-variable
  stage   the whole step (TSStep: right-hand sides, the RK vector updates, the wave speeds of the CFL step) per stage,
          seconds per DOF-variable
(DOF-variables: solution points x variables, hoflow's `dofs`). Rows are appended to --csv; --md writes a markdown
table of every row of the CSV with the speedup of label `gpu` over label `cpu1` per (shape, N).

  bench/fr_bench.py --label gpu --orders 1,2,3,4,5 --size 8e6 -- -dm_vec_type cuda
  bench/fr_bench.py --label cpu1 --orders 1,2,3,4,5 --size 2e5 --steps 2 --taskset 3
  bench/fr_bench.py --label gpu --shapes triangle,tetrahedron,prism --size 8e6 -- -dm_vec_type cuda
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import time

FIELDS = ["label", "shape", "N", "cells", "dofs", "elements_per_block", "steps", "rhs_calls", "volume_s", "face_s", "rhs_s", "rhs_s_per_dof", "stage_s_per_dof", "rhs_gflops"]


def parse(text):
    events, dofs, cells = {}, None, None
    for line in text.splitlines():
        w = line.split()
        if w and w[0] in ("FRVolume", "FRFace", "TSStep") and len(w) > 5:
            try:
                events[w[0]] = dict(count=int(w[1]), time=float("nan") if w[3] == "n/a" else float(w[3]), flops=float(w[5]))  # n/a: GPU events without -log_view_gpu_time
            except ValueError:
                sys.exit("fr_bench: cannot read the -log_view line: " + line)
        m = re.match(r"hoflow: .* cells (\d+) dofs (\d+)", line)
        if m:
            cells, dofs = int(m.group(1)), int(m.group(2))
    return events, cells, dofs


PERIODIC_SQUARE_CELLS = 66  # triangles of examples/meshes/periodic_square.msh (-dm_refine r: 4^r times as many)


def solution_points(shape, order):
    n1 = order + 1
    return {"triangle": n1 * (n1 + 1) // 2, "quadrilateral": n1 ** 2, "tetrahedron": n1 * (n1 + 1) * (n1 + 2) // 6, "prism": n1 * n1 * (n1 + 1) // 2,
            "hexahedron": n1 ** 3}[shape]


def mesh_args(shape, order, size, mesh_dir="output/bench-meshes"):
    """A periodic mesh of about `size` DOF-variables (hexahedra: at least 3 cells a side, PETSc 3.18's periodic boxes;
    tetrahedra, prisms and mixed: n^3 cubes of scripts/periodic_mesh.py, n >= 3, even for mixed)."""
    if shape == "quadrilateral":
        n = max(4, round(math.sqrt(size / (4 * (order + 1) ** 2))))
        return ["-dm_plex_box_faces", "%d,%d" % (n, n), "-dm_plex_box_bd", "periodic,periodic"]
    if shape == "hexahedron":
        n = max(3, round((size / (5 * (order + 1) ** 3)) ** (1 / 3)))
        return ["-dm_plex_dim", "3", "-dm_plex_box_faces", "%d,%d,%d" % (n, n, n), "-dm_plex_box_bd", "periodic,periodic,periodic"]
    if shape == "triangle":
        r = max(0, round(math.log(size / (PERIODIC_SQUARE_CELLS * 4 * solution_points(shape, order)), 4)))
        return ["-dm_plex_filename", "examples/meshes/periodic_square.msh", "-dm_refine", str(r)]
    per_cube = {"tetrahedron": 6 * solution_points("tetrahedron", order), "prism": 2 * solution_points("prism", order),  # DOFs of one of the n^3 cubes
                "mixed": (solution_points("hexahedron", order) + 4 * solution_points("prism", order) + 6 * solution_points("tetrahedron", order)) / 4}[shape]
    n = max(3, round((size / (5 * per_cube)) ** (1 / 3)))
    if shape == "mixed":
        n = max(4, n + n % 2)
    kind = {"tetrahedron": "tet", "prism": "prism", "mixed": "mixed"}[shape]
    path = os.path.join(mesh_dir, "periodic_%s_%d.msh" % (kind, n))
    if not os.path.exists(path):
        os.makedirs(mesh_dir, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "periodic_mesh.py"), "--shape", kind, "--n", str(n), "-o", path],
                       check=True, capture_output=True)
    return ["-dm_plex_filename", path, "-vortex_radius", "0.15", "-vortex_strength", "1"]


def run_case(a, shape, order):
    cmd = [a.hoflow, "-problem", "isentropic_vortex", "-disc", "fr", "-order", str(order), "-euler_flux", a.flux, "-ts_type", "rk", "-ts_rk_type", "lserk4",
           "-cfl", "0.5", "-ts_max_steps", str(a.steps), "-ts_max_time", "100", "-monitor_interval", "100000", "-progress_interval", "-1", "-monitor_file", "none",
           "-log_view"] + mesh_args(shape, order, a.size, a.mesh_dir)
    if a.elements_per_block:
        cmd += ["-fr_elements_per_block", str(a.elements_per_block)]
    cmd += a.extra
    if "cuda" in " ".join(a.extra) and not a.no_gpu_time:
        cmd += ["-log_view_gpu_time"]  # PETSc >= 3.19: event times of asynchronous kernels (each event then waits for the GPU)
    if a.taskset:
        cmd = ["taskset", "-c", a.taskset] + cmd
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        sys.exit("fr_bench: hoflow failed (%d): %s" % (p.returncode, " ".join(cmd)))
    events, cells, dofs = parse(p.stdout)
    if not all(e in events for e in ("FRVolume", "FRFace", "TSStep")) or dofs is None:
        sys.exit("fr_bench: no FR/TSStep events or summary line in hoflow's output (-log_view)")
    calls = events["FRVolume"]["count"]
    vol, face = events["FRVolume"]["time"] / calls, events["FRFace"]["time"] / calls
    rhs = vol + face
    steps = events["TSStep"]["count"]
    stage = events["TSStep"]["time"] / (steps * 5)  # LSERK4: 5 stages
    gflops = (events["FRVolume"]["flops"] + events["FRFace"]["flops"]) / calls / rhs * 1e-9 if rhs > 0 else 0.0
    row = dict(label=a.label, shape=shape, N=order, cells=cells, dofs=dofs, elements_per_block=a.elements_per_block or "auto", steps=steps, rhs_calls=calls,
               volume_s="%.6e" % vol, face_s="%.6e" % face, rhs_s="%.6e" % rhs, rhs_s_per_dof="%.4e" % (rhs / dofs), stage_s_per_dof="%.4e" % (stage / dofs),
               rhs_gflops="%.4g" % gflops)
    print("%s: %s N=%d cells %d dofs %d E %s wall %.1f s: rhs %.3e s (volume %.3e, face %.3e) = %.3e s per DOF-variable; stage %.3e s per DOF-variable; %.1f GFLOP/s"
          % (a.label, shape, order, cells, dofs, row["elements_per_block"], wall, rhs, vol, face, rhs / dofs, stage / dofs, gflops), flush=True)
    return row


def write_markdown(csv_path, md_path):
    with open(csv_path) as fh:
        rows = list(csv.DictReader(fh))
    best = {}  # (label, shape, N) -> the fastest row (a sweep of elements a block writes several)
    for r in rows:
        k = (r["label"], r["shape"], int(r["N"]))
        if k not in best or float(r["stage_s_per_dof"]) < float(best[k]["stage_s_per_dof"]):
            best[k] = r
    lines = ["| label | shape | N | cells | DOF-variables | elements a block | rhs s | rhs s/DOF-var | stage s/DOF-var | rhs GFLOP/s | stage speedup gpu/cpu1 |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k in sorted(best):
        r = best[k]
        cpu = best.get(("cpu1", k[1], k[2]))
        speedup = "%.0f" % (float(cpu["stage_s_per_dof"]) / float(r["stage_s_per_dof"])) if cpu and k[0].startswith("gpu") else ""
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (r["label"], r["shape"], r["N"], r["cells"], r["dofs"], r["elements_per_block"], r["rhs_s"],
                                                                             r["rhs_s_per_dof"], r["stage_s_per_dof"], r["rhs_gflops"], speedup))
    with open(md_path, "w") as fh:
        fh.write("Flux reconstruction (-disc fr, Euler, isentropic vortex on periodic meshes, LSERK4), time per RK stage per DOF-variable\n"
                 "(bench/fr_bench.py; the fastest row of each label, shape and N)\n\n" + "\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", required=True, help="machine/backend label written to the CSV (gpu, cpu1)")
    ap.add_argument("--shapes", default="quadrilateral,hexahedron", help="comma-separated: quadrilateral, hexahedron, triangle, tetrahedron, prism, mixed")
    ap.add_argument("--mesh-dir", default="output/bench-meshes", help="where the periodic tetrahedral, prism and mixed meshes are written (once)")
    ap.add_argument("--orders", default="1,2,3,4,5")
    ap.add_argument("--size", type=float, default=8e6, help="DOF-variables of each mesh (about)")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--flux", default="roe")
    ap.add_argument("--elements-per-block", type=int, default=0, help="-fr_elements_per_block (0: the default by order)")
    ap.add_argument("--taskset", default=None, help="pin the one process to this core list")
    ap.add_argument("--csv", default="output/fr_bench.csv")
    ap.add_argument("--md", default=None, help="write the markdown table of the whole CSV here")
    ap.add_argument("--hoflow", default="./hoflow")
    ap.add_argument("--no-gpu-time", action="store_true", help="GPU runs without -log_view_gpu_time: the stage time without the events' "
                    "synchronizations (the rhs columns are then launch times, not kernel times)")
    ap.add_argument("extra", nargs="*", help="more hoflow options (after --)")
    a = ap.parse_args()
    new = not os.path.exists(a.csv)
    os.makedirs(os.path.dirname(os.path.abspath(a.csv)), exist_ok=True)
    with open(a.csv, "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        if new:
            w.writeheader()
        for shape in a.shapes.split(","):
            for order in (int(n) for n in a.orders.split(",")):
                w.writerow(run_case(a, shape, order))
                fh.flush()
    if a.md:
        write_markdown(a.csv, a.md)


if __name__ == "__main__":
    main()
