#!/usr/bin/env python3
"""hoflow convergence study: run a sequence of meshes and orders, print a table, write CSV and PNG.

Examples (from the repository root, after `make`):
  python3 scripts/convergence.py --shape triangle --orders 1-8 --levels 0-3
  python3 scripts/convergence.py --shape quadrilateral --orders 1-6 --levels 0-3 --base 2 \
      --problem helmholtz -- -helmholtz_lambda 50
  python3 scripts/convergence.py --mpi 2 --orders 3 --levels 0-4

  python3 scripts/convergence.py --shape tetrahedron --orders 1-6 --levels 0-2 -- -dm_vec_type cuda

Triangle meshes are examples/meshes/square.msh refined uniformly (-dm_refine L); quadrilateral
and hexahedron meshes are boxes of (base * 2^L)^dim cells; tetrahedron, prism and mixed
(tetrahedra, prisms, hexahedra) meshes are examples/meshes/cube_<shape>.msh refined uniformly.
`--meshes a.msh,b.msh,...` runs a sequence of meshes of the same domain instead (remeshed levels, e.g.
curved meshes that PETSc cannot refine); --shape then names their element shape (for the dimension).
  python3 scripts/convergence.py --shape tetrahedron --orders 1-6 --problem annulus \
      --meshes output/test-meshes/shell_setnumber_octant_1_clscale_1p4.msh,...  -- -curve_inner sphere ...
Arguments after `--` go to hoflow unchanged.
The table lists h (longest edge), N, DOFs, L2 error, the observed rate against the previous
level, and CG iterations. Rates use the mean cell size (volume / cells)^(1/dim), which halves
with each uniform refinement (the longest edge of refined tetrahedra does not, at first).
Output: <out>.csv and <out>.png (log-log error vs h, one line per N).
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_range(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


GMSH_3D = {"tetrahedron": "cube_tet", "prism": "cube_prism", "mixed": "cube_mixed"}
DIM = {"triangle": 2, "quadrilateral": 2, "tetrahedron": 3, "prism": 3, "hexahedron": 3, "mixed": 3}


def run_case(args, shape, order, level, extra):
    cmd = []
    if args.mpi > 1:
        cmd = ["mpiexec", "--oversubscribe", "-n", str(args.mpi)]
    cmd += [os.path.join(ROOT, "hoflow"), "-problem", args.problem, "-order", str(order), "-ksp_rtol", str(args.rtol)]
    if args.meshes:
        cmd += ["-dm_plex_filename", args.meshes.split(",")[level]]
    elif shape == "triangle":
        cmd += ["-dm_plex_filename", args.mesh, "-dm_refine", str(level)]
    elif shape in GMSH_3D:
        cmd += ["-dm_plex_filename", "examples/meshes/%s.msh" % GMSH_3D[shape], "-dm_refine", str(level)]
    else:
        n = args.base * 2 ** level
        dim = 3 if shape == "hexahedron" else 2
        cmd += ["-dm_plex_dim", str(dim), "-dm_plex_box_faces", ",".join([str(n)] * dim)]
    cmd += extra
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("hoflow failed: %s\n%s" % (" ".join(cmd), (p.stdout + p.stderr)[-2000:]))
    m = re.search(r"^hoflow: (.*)$", p.stdout, re.M)
    toks = m.group(1).split()
    return dict(zip(toks[0::2], toks[1::2]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", default="poisson")
    ap.add_argument("--shape", choices=sorted(DIM), default="triangle")
    ap.add_argument("--orders", default="1-6", help="e.g. 1-8 or 2,4,6")
    ap.add_argument("--levels", default="0-3", help="refinement levels, e.g. 0-3")
    ap.add_argument("--base", type=int, default=2, help="quadrilateral box cells per side at level 0")
    ap.add_argument("--mesh", default="examples/meshes/square.msh", help="triangle base mesh")
    ap.add_argument("--rtol", type=float, default=1e-13)
    ap.add_argument("--mpi", type=int, default=1, help="MPI ranks")
    ap.add_argument("--out", default=None, help="output prefix (default output/convergence_<problem>_<shape>)")
    ap.add_argument("--meshes", default=None, help="comma-separated mesh files, one per level (remeshed levels)")
    args, extra = ap.parse_known_args()
    if args.meshes and args.levels == "0-3":
        args.levels = "0-%d" % (len(args.meshes.split(",")) - 1)
    if extra and extra[0] == "--":
        extra = extra[1:]
    out = args.out or os.path.join(ROOT, "output", "convergence_%s_%s" % (args.problem, args.shape))
    os.makedirs(os.path.dirname(out), exist_ok=True)

    rows = []
    print("%-6s %3s %9s %12s %7s %6s" % ("h", "N", "DOFs", "L2 error", "rate", "iters"))
    for order in parse_range(args.orders):
        prev = None
        for level in parse_range(args.levels):
            s = run_case(args, args.shape, order, level, extra)
            h, err = float(s["h"]), float(s["L2"])
            hmean = int(s["cells"]) ** (-1.0 / DIM[args.shape])  # domain of unit measure
            rate = math.log(prev[1] / err) / math.log(prev[0] / hmean) if prev else float("nan")
            prev = (hmean, err)
            row = dict(shape=args.shape, problem=args.problem, N=order, level=level, h=h, dofs=int(s["dofs"]), cells=int(s["cells"]), L2=err, rate=rate, iterations=int(s["iterations"]))
            rows.append(row)
            print("%-6.4f %3d %9d %12.4e %7s %6d" % (h, order, row["dofs"], err, "-" if math.isnan(rate) else "%.2f" % rate, row["iterations"]), flush=True)
        print()

    with open(out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: wrote %s.csv only" % out)
        return
    fig, ax = plt.subplots(figsize=(6, 5))
    for order in sorted(set(r["N"] for r in rows)):
        rs = [r for r in rows if r["N"] == order]
        ax.loglog([r["h"] for r in rs], [r["L2"] for r in rs], "o-", label="N = %d" % order)
        # reference slope N+1 through the last point
        h0, e0 = rs[-1]["h"], rs[-1]["L2"]
        ax.loglog([h0, 2 * h0], [e0, e0 * 2 ** (order + 1)], "k:", lw=0.8)
    ax.set_xlabel("h (longest edge)")
    ax.set_ylabel("L2 error")
    ax.set_title("hoflow %s, %s meshes (dotted: slope N+1)" % (args.problem, args.shape))
    ax.legend(fontsize=8)
    ax.grid(True, which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(out + ".png", dpi=120)
    print("wrote %s.csv and %s.png" % (out, out))


if __name__ == "__main__":
    main()
