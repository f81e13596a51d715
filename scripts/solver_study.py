#!/usr/bin/env python3
"""hoflow elliptic solver study (seed 000 Fig. 3a-c): CG iterations, solve time and preconditioner
memory per element for every solver stack, polynomial order and mesh, for the Poisson problem and
the screened Poisson problem of the velocity step (lambda = 1/(nu dt) for a range of dt).

Examples (from the repository root, after `make`):
  python3 scripts/solver_study.py                                  # the whole study on this machine
  python3 scripts/solver_study.py --orders 2-6 --stacks pmg_amg,amg --meshes tri0,tri1
  python3 scripts/solver_study.py --cuda --jobs 4 --out output/solver_study_gpu   # on a GPU build

Stacks are the options files options/<stack>.yaml (jacobi, inverse_mass, pmg_amg, pmg_gamg, amg,
lor_amg). Meshes: triK = examples/meshes/square.msh refined K times (unstructured triangles, each
level halves h; tri1..tri3 have 168, 672 and 2688 triangles), quadM = an M x M box of
quadrilaterals (quad = 8 x 8); 3D: tetK = examples/meshes/cube_tet_coarse.msh refined K times
(101, 808, 6464 tetrahedra), tetuK = examples/meshes/cube_tet.msh refined K times (390, 3120, ...),
tetg0..3 = the Gmsh meshes of h = 0.5, 0.25, 0.125, 0.0625 (cube_tet_coarse, cube_tet,
cube_tet_fine, cube_tet_finer: 101, 390, 2762, 19519 tetrahedra of the same quality; DMPlex
refinement of tetrahedra makes worse-shaped ones), hexM = an M x M x M box of hexahedra, prismK = examples/meshes/cube_prism.msh refined K times.
--refine R refines every mesh R more times (bigger problems on a GPU). --orders-for MESH:RANGE
(repeatable) runs other orders on one mesh, e.g. --orders-for tet2:2-4 for the expensive finest
level. Every solve runs to -ksp_rtol 1e-8 from zero.

The 3D pMG-AMG/LOR-AMG study (issue 12's acceptance: <= 30 iterations, within 25 % across three
refinements, N = 2..8, hexahedra and tetrahedra; LOR-AMG N-independent on hexahedra):
  nice python3 scripts/solver_study.py --stacks pmg_amg,lor_amg --no-screened --orders 2-8 \
      --meshes tetg0,tetg1,tetg2,tetg3,tet0,tet1,tet2,hex2,hex4,hex8 --orders-for tetg3:2-4 \
      --orders-for tet2:2-4 --orders-for hex8:2-4 \
      --out bench/results/solver_study_3d_cpu_DATE --title "CPU, DATE"
Output: <out>.csv (one row per solve), <out>.md (tables) and <out>_{iterations,time,memory}.png.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACKS = ["jacobi", "inverse_mass", "pmg_amg", "pmg_gamg", "amg", "lor_amg"]
FIELDS = ["stack", "problem", "lambda", "dt", "mesh", "shape", "cells", "order", "dofs", "iterations", "reason",
          "setup_s", "solve_s", "pc_bytes_per_cell", "pc_device_bytes_per_cell", "L2"]


def parse_range(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def mesh_options(name, refine):
    m = re.fullmatch(r"tri(\d+)", name)
    if m:
        return "triangle", ["-dm_plex_filename", "examples/meshes/square.msh", "-dm_refine", str(int(m.group(1)) + refine)]
    m = re.fullmatch(r"quad(\d*)", name)
    if m:
        n = int(m.group(1) or 8) * 2 ** refine
        return "quadrilateral", ["-dm_plex_box_faces", "%d,%d" % (n, n)]
    m = re.fullmatch(r"tetg([0123])", name)
    if m:
        f = ["cube_tet_coarse", "cube_tet", "cube_tet_fine", "cube_tet_finer"][int(m.group(1))]
        return "tetrahedron", ["-dm_plex_filename", "examples/meshes/%s.msh" % f, "-dm_refine", str(refine)]
    m = re.fullmatch(r"(tet|tetu|prism)(\d+)", name)
    if m:
        f = {"tet": "cube_tet_coarse", "tetu": "cube_tet", "prism": "cube_prism"}[m.group(1)]
        return {"prism": "prism"}.get(m.group(1), "tetrahedron"), ["-dm_plex_filename", "examples/meshes/%s.msh" % f, "-dm_refine", str(int(m.group(2)) + refine)]
    m = re.fullmatch(r"hex(\d+)", name)
    if m:
        n = int(m.group(1)) * 2 ** refine
        return "hexahedron", ["-dm_plex_dim", "3", "-dm_plex_simplex", "0", "-dm_plex_box_faces", "%d,%d,%d" % (n, n, n)]
    sys.exit("solver_study: unknown mesh '%s' (expected triK, quad, quadM, tetK, tetuK, tetg0..3, hexM or prismK)" % name)


def solve(case, args):
    stack, problem, lam, dt, mesh, order = case
    shape, mopts = mesh_options(mesh, args.refine)
    cmd = [os.path.join(ROOT, "hoflow"), "-order", str(order), "-options_file", "options/%s.yaml" % stack,
           "-ksp_rtol", "1e-8", "-ksp_max_it", str(args.max_it)] + mopts
    cmd += ["-problem", "helmholtz", "-helmholtz_lambda", repr(lam)] if problem == "screened" else ["-problem", "poisson"]
    if args.cuda:
        cmd += ["-dm_vec_type", "cuda"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    row = {"stack": stack, "problem": problem, "lambda": lam, "dt": dt, "mesh": mesh, "shape": shape, "order": order}
    m = re.search(r"^hoflow: (.*)$", p.stdout, re.M)
    if m:
        toks = m.group(1).split()
        row.update({k: v for k, v in zip(toks[0::2], toks[1::2]) if k in FIELDS and k not in row})
    else:  # a solve that did not converge within max_it: recorded, not fatal
        r = re.search(r"KSP reason (\w+) after (\d+) iterations", p.stdout + p.stderr)
        if not r:
            sys.exit("hoflow failed: %s\n%s" % (" ".join(cmd), (p.stdout + p.stderr)[-2000:]))
        row.update({"reason": r.group(1), "iterations": r.group(2)})
    return row


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots (apt-get install python3-matplotlib)")
        return
    problems = sorted({(r["problem"], float(r["lambda"])) for r in rows})
    for key, label, log in (("iterations", "CG iterations to 1e-8", False), ("solve_s", "solve time [s]", True),
                            ("pc_bytes_per_cell", "preconditioner memory per element [bytes]", True)):
        fig, axes = plt.subplots(1, len(problems), figsize=(4.2 * len(problems), 3.8), squeeze=False)
        for ax, (prob, lam) in zip(axes[0], problems):
            sel = [r for r in rows if r["problem"] == prob and float(r["lambda"]) == lam and r.get(key) not in (None, "")]
            meshes = sorted({r["mesh"] for r in rows})
            for si, stack in enumerate(STACKS):  # colour by stack, line style by mesh, the same in every panel
                for mi, mesh in enumerate(meshes):
                    pts = sorted((int(r["order"]), float(r[key])) for r in sel if r["stack"] == stack and r["mesh"] == mesh and str(r.get("reason", "")).startswith("CONVERGED"))
                    if pts:
                        ax.plot(*zip(*pts), color="C%d" % si, linestyle=["-", "--", ":", "-."][mi % 4], marker="osd^v"[mi % 5], ms=3, label="%s %s" % (stack, mesh))
            ax.set_title("Poisson" if prob == "poisson" else "screened, lambda = %g" % lam, fontsize=9)
            ax.set_xlabel("N")
            if log:
                ax.set_yscale("log")
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel(label)
        handles, labels = max((ax.get_legend_handles_labels() for ax in axes[0]), key=lambda hl: len(hl[1]))
        fig.legend(handles, labels, fontsize=6, loc="center right")
        fig.subplots_adjust(right=0.8)
        fig.tight_layout(rect=(0, 0, 0.82, 1))
        name = "%s_%s.png" % (out, {"iterations": "iterations", "solve_s": "time", "pc_bytes_per_cell": "memory"}[key])
        fig.savefig(name, dpi=120)
        print("wrote", name)


def acceptance(rows):
    """Per stack, mesh family (the mesh name without its level) and N: the Poisson iterations over
    the levels run, their maximum, and the spread (max/min - 1) over the three finest levels run,
    against issue 12's <= 30 and <= 25 % across three refinements."""
    fam = lambda m: re.sub(r"\d+$", "", m)
    sel = [r for r in rows if r["problem"] == "poisson"]
    keys = sorted({(r["stack"], fam(r["mesh"])) for r in sel})
    lines = ["### Poisson iterations across refinements (levels coarse to fine; pMG-AMG: max <= 30, spread <= 25 % over the three finest levels run)", "",
             "| stack | meshes | N | iterations | max | spread (3 finest) | ok |", "|---|---|---|---|---|---|---|"]
    for stack, f in keys:
        for n in sorted({int(r["order"]) for r in sel if r["stack"] == stack and fam(r["mesh"]) == f}):
            cells = sorted(((int(r.get("cells") or 0), r) for r in sel if r["stack"] == stack and fam(r["mesh"]) == f and int(r["order"]) == n), key=lambda t: t[0])
            its = [int(r["iterations"]) if str(r.get("reason", "")).startswith("CONVERGED") else None for _, r in cells]
            if any(i is None for i in its):
                lines.append("| %s | %s | %d | %s | | | no |" % (stack, f, n, "/".join(str(i) for i in its)))
                continue
            last3 = its[-3:]  # three refinements: the three finest levels run
            spread = max(last3) / min(last3) - 1
            ok = max(its) <= 30 and (len(its) < 2 or spread <= 0.25)
            ok = ("yes" if ok else "no") if stack.startswith("pmg") else "-"  # the bounds are pMG-AMG's criterion
            lines.append("| %s | %s | %d | %s | %d | %.0f %% | %s |" % (stack, f, n, "/".join(map(str, its)), max(its), 100 * spread, ok))
    return lines + [""]


def table(rows, out, header):
    lines = [header, ""]
    for (prob, lam) in sorted({(r["problem"], float(r["lambda"])) for r in rows}):
        sel = [r for r in rows if r["problem"] == prob and float(r["lambda"]) == lam]
        orders = sorted({int(r["order"]) for r in sel})
        lines += ["### %s" % ("Poisson" if prob == "poisson" else "screened Poisson, lambda = %g (dt = %s)" % (lam, sel[0]["dt"])), "",
                  "iterations / solve seconds / preconditioner bytes per element, by N:", "",
                  "| stack | mesh | cells | " + " | ".join("N=%d" % n for n in orders) + " |",
                  "|---|---|---|" + "---|" * len(orders)]
        for stack in STACKS:
            for mesh in sorted({r["mesh"] for r in sel}):
                cells = {int(r["order"]): r for r in sel if r["stack"] == stack and r["mesh"] == mesh}
                if not cells:
                    continue
                ent = []
                for n in orders:
                    r = cells.get(n)
                    if not r:
                        ent.append("")
                    elif not str(r.get("reason", "")).startswith("CONVERGED"):
                        ent.append("%s (%s)" % (r["iterations"], r.get("reason", "")))
                    else:
                        ent.append("%s / %.3g / %.0f" % (r["iterations"], float(r["solve_s"]), float(r["pc_bytes_per_cell"]) + float(r.get("pc_device_bytes_per_cell", 0) or 0)))
                lines.append("| %s | %s | %s | %s |" % (stack, mesh, next(iter(cells.values())).get("cells", ""), " | ".join(ent)))
        lines.append("")
    lines += acceptance(rows)
    with open(out + ".md", "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    print("wrote", out + ".md")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stacks", default="inverse_mass,pmg_amg,amg,lor_amg", help="comma-separated: " + ", ".join(STACKS))
    ap.add_argument("--orders", default="1-8")
    ap.add_argument("--meshes", default="tri1,tri2,tri3,quad16")
    ap.add_argument("--refine", type=int, default=0, help="extra uniform refinements of every mesh")
    ap.add_argument("--nu", type=float, default=0.01, help="viscosity in lambda = 1/(nu dt)")
    ap.add_argument("--dts", default="1e-1,1e-2,1e-3", help="time steps of the screened problems ('' for none)")
    ap.add_argument("--no-screened", action="store_true", help="Poisson only (same as --dts '')")
    ap.add_argument("--orders-for", action="append", default=[], metavar="MESH:RANGE", help="orders on one mesh instead of --orders (repeatable)")
    ap.add_argument("--no-poisson", action="store_true", help="screened problems only")
    ap.add_argument("--max-it", type=int, default=2000)
    ap.add_argument("--cuda", action="store_true", help="-dm_vec_type cuda (a CUDA build)")
    ap.add_argument("--jobs", type=int, default=1, help="solves run at once (times are then less reliable)")
    ap.add_argument("--out", default="output/solver_study")
    ap.add_argument("--title", default="", help="first line of the tables (machine, date)")
    ap.add_argument("--merge", default="", help="a previous CSV: its rows that this run does not redo are kept")
    ap.add_argument("--report-only", action="store_true", help="solve nothing: tables and plots of the --merge CSV")
    args = ap.parse_args()
    stacks = [s for s in args.stacks.split(",") if s]
    bad = [s for s in stacks if s not in STACKS or not os.path.exists(os.path.join(ROOT, "options", s + ".yaml"))]
    if bad:
        sys.exit("solver_study: unknown stack %s; known stacks: %s" % (", ".join(repr(b) for b in bad), ", ".join(STACKS)))
    meshes = args.meshes.split(",")
    for m in meshes:
        mesh_options(m, 0)
    problems = [] if args.no_poisson else [("poisson", 0.0, "")]
    problems += [("screened", 1.0 / (args.nu * float(dt)), dt) for dt in args.dts.split(",") if dt and not args.no_screened]
    orders_for = {}
    for item in args.orders_for:
        name, _, rng = item.partition(":")
        if name not in meshes or not rng:
            sys.exit("solver_study: --orders-for %s: expected MESH:RANGE with MESH one of --meshes (%s)" % (item, ",".join(meshes)))
        orders_for[name] = parse_range(rng)
    cases = []
    for prob, lam, dt in problems:
        for stack in stacks:
            if stack == "inverse_mass" and prob == "poisson":
                continue  # M^{-1} is no preconditioner for the Laplacian
            for mesh in meshes:
                for order in orders_for.get(mesh, parse_range(args.orders)):
                    cases.append((stack, prob, lam, dt, mesh, order))
    if args.report_only:
        if not args.merge:
            sys.exit("solver_study: --report-only needs --merge CSV")
        cases = []
    os.makedirs(os.path.dirname(os.path.join(ROOT, args.out)) or ".", exist_ok=True)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for row in ex.map(lambda c: solve(c, args), cases):
            rows.append(row)
            print("%-12s %-8s lambda %-8g %-6s N=%d: %s iterations %s, solve %s s, %s B/element" % (
                row["stack"], row["problem"], row["lambda"], row["mesh"], row["order"], row.get("iterations"),
                row.get("reason", ""), row.get("solve_s", "-"), row.get("pc_bytes_per_cell", "-")), flush=True)
    out = os.path.join(ROOT, args.out)
    if args.merge:
        key = lambda r: (r["stack"], r["problem"], float(r["lambda"]), r["mesh"], int(r["order"]))
        done = {key(r) for r in rows}
        with open(args.merge, newline="") as f:
            rows = [r for r in csv.DictReader(f) if key(r) not in done] + rows
    with open(out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
    print("wrote", out + ".csv")
    table(rows, out, "# hoflow solver study" + (": " + args.title if args.title else ""))
    plot(rows, out)


if __name__ == "__main__":
    main()
