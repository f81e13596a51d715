#!/usr/bin/env python3
"""hoflow test suite: unit tests, operator tests, convergence rates, parallel runs, bad input.

Every test asserts numbers (rates, error norms, iteration counts, residuals) or an exact error
message. Run from the repository root after `make`: `python3 tests/run.py [-k PATTERN] [-j JOBS]`.
`--gpu` runs the GPU tests instead (they report SKIPPED on machines without a CUDA build and GPU).
The last line is `N passed, N failed[, N skipped]`; the exit code is non-zero on any failure.
"""
import argparse
import concurrent.futures
import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOFLOW = os.path.join(ROOT, "hoflow")
TEST_OPERATOR = os.path.join(ROOT, "build", "tests", "test_operator")
TEST_REF = os.path.join(ROOT, "build", "tests", "test_ref")
SQUARE = "examples/meshes/square.msh"
MPIEXEC = ["mpiexec", "--oversubscribe", "-n"]
os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
os.environ.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def run(cmd, expect_ok=True, timeout=600):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    out = p.stdout + p.stderr
    if expect_ok and p.returncode != 0:
        raise Failure("command failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), out[-3000:]))
    return p.returncode, out


def summary(out):
    """Parse hoflow's summary line into a dict."""
    m = re.search(r"^hoflow: (.*)$", out, re.M)
    if not m:
        raise Failure("no summary line in output:\n" + out[-2000:])
    toks = m.group(1).split()
    d = dict(zip(toks[0::2], toks[1::2]))
    for k in ("order", "cells", "dofs", "iterations"):
        d[k] = int(d[k])
    for k in ("h", "L2"):
        d[k] = float(d[k])
    return d


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# ---------------------------------------------------------------- mesh options per shape
def mesh_args(shape, level, base=None):
    if shape == "triangle":
        return ["-dm_plex_filename", SQUARE, "-dm_refine", str(level)]
    n = (base or 2) * 2 ** level
    return ["-dm_plex_box_faces", "%d,%d" % (n, n)]


# ---------------------------------------------------------------- tests
TESTS = []
EXCLUSIVE = set()  # tests run alone, after the others: they need the machine's GPUs to themselves


def test(name, gpu=False, exclusive=False):
    def deco(f):
        TESTS.append((name, f, gpu))
        if exclusive:
            EXCLUSIVE.add(name)
        return f
    return deco


@test("unit/ref")
def _():
    code, out = run([TEST_REF], expect_ok=False)
    bad = [l for l in out.splitlines() if l.startswith("not ok")]
    check(code == 0 and not bad, "reference-element checks failed:\n" + "\n".join(bad[:20]) + out[-500:])
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    check(m and int(m.group(1)) > 100 and m.group(2) == "0", "unexpected unit summary: " + out[-300:])
    return "%s checks" % m.group(1)


def operator_test(shape, order, extra):
    def f():
        args = [TEST_OPERATOR, "-order", str(order)] + extra
        args += mesh_args(shape, 0, base=3) if shape == "quadrilateral" else ["-dm_plex_filename", SQUARE]
        _, out = run(args)
        nums = dict(re.findall(r"(\w+) ([-+0-9.e]+)", " ".join(l for l in out.splitlines() if l.startswith(("operator:", "mass:")))))
        nums = {k: float(v) for k, v in nums.items()}
        check(nums["shell_vs_assembled"] < 1e-12, "MatShell differs from the assembled SIPDG matrix: %g" % nums["shell_vs_assembled"])
        check(nums["symmetry_shell"] < 1e-12, "MatShell not symmetric: %g" % nums["symmetry_shell"])
        check(nums["symmetry_assembled"] < 1e-12, "assembled matrix not symmetric: %g" % nums["symmetry_assembled"])
        check(nums["diagonal"] < 1e-12, "MatGetDiagonal differs from the assembled diagonal: %g" % nums["diagonal"])
        check(nums["min_eigenvalue"] > 1e-8 * nums["max_eigenvalue"], "not positive definite: min eigenvalue %g" % nums["min_eigenvalue"])
        check(nums["inverse_roundtrip"] < 1e-12, "inverse mass does not invert the mass matrix: %g" % nums["inverse_roundtrip"])
        check(nums["xMx_vs_cubature"] < 1e-12, "mass matrix disagrees with the cubature L2 norm: %g" % nums["xMx_vs_cubature"])
        return "diff %.1e sym %.1e diag %.1e eig [%.2e, %.2e]" % (nums["shell_vs_assembled"], nums["symmetry_shell"], nums["diagonal"], nums["min_eigenvalue"], nums["max_eigenvalue"])
    return f


for shape in ("triangle", "quadrilateral"):
    for order in (1, 2, 3, 5, 8):
        test("operator/%s/N%d/poisson-mixed" % (shape, order))(operator_test(shape, order, ["-problem", "poisson"]))
    test("operator/%s/N4/helmholtz-dirichlet" % shape)(operator_test(shape, 4, ["-problem", "helmholtz", "-bc_dirichlet", "left,right,top,bottom", "-bc_neumann", "none"]))
    test("operator/%s/N3/poisson-neumann3" % shape)(operator_test(shape, 3, ["-problem", "poisson", "-bc_dirichlet", "left", "-bc_neumann", "right,top,bottom"]))


# Convergence: three meshes, each halving h; the rate between the two finest must reach N + 0.7.
# Base meshes are coarser at higher order so the finest error stays above round-off:
# triangles refine a Gmsh mesh uniformly, quadrilateral boxes have base * 2^level cells a side.
CONVERGENCE = {
    "triangle": {1: SQUARE, 2: SQUARE, 3: SQUARE, 4: SQUARE, 5: "examples/meshes/square_coarse.msh", 6: "examples/meshes/square_coarse.msh"},
    "quadrilateral": {1: 4, 2: 4, 3: 4, 4: 2, 5: 2, 6: 2},
}


def convergence_test(shape, order, problem, bcs):
    def f():
        errs, hs = [], []
        base = CONVERGENCE[shape][order]
        for lev in range(3):
            args = [HOFLOW, "-problem", problem, "-order", str(order), "-ksp_rtol", "1e-13"] + bcs
            if shape == "triangle":
                args += ["-dm_plex_filename", base, "-dm_refine", str(lev)]
            else:
                args += mesh_args(shape, lev, base=base)
            _, out = run(args)
            s = summary(out)
            errs.append(s["L2"])
            hs.append(s["h"])
        rates = [math.log(errs[i] / errs[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(2)]
        check(rates[-1] >= order + 0.7, "order %d %s: observed rates %s below N + 0.7 (errors %s)" % (order, shape, ["%.2f" % r for r in rates], errs))
        return "errors %s rates %s" % (" ".join("%.2e" % e for e in errs), " ".join("%.2f" % r for r in rates))
    return f


for shape in ("triangle", "quadrilateral"):
    for order in range(1, 7):
        test("convergence/%s/N%d/poisson-mixed" % (shape, order))(convergence_test(shape, order, "poisson", []))
    for order in (2, 5):
        test("convergence/%s/N%d/helmholtz-dirichlet" % (shape, order))(convergence_test(shape, order, "helmholtz", ["-bc_dirichlet", "left,right,top,bottom", "-bc_neumann", "none"]))


@test("solver/inverse-mass/mass-dominated")
def _():
    # lambda = 1e6 (1/(nu dt) with nu = 0.01, dt = 1e-4): M^{-1} is nearly A^{-1}/lambda
    args = [HOFLOW, "-problem", "helmholtz", "-helmholtz_lambda", "1e6", "-order", "5", "-dm_refine", "1"]
    sm = summary(run(args + ["-pc_type", "inverse_mass", "-ksp_rtol", "1e-8"])[1])
    sj = summary(run(args + ["-ksp_rtol", "1e-8"])[1])
    check(sm["iterations"] <= 12, "inverse mass took %d CG iterations (bound 12)" % sm["iterations"])
    # the same solution: compare with the algebraic error well below the discretization error
    tm = summary(run(args + ["-pc_type", "inverse_mass", "-ksp_rtol", "1e-13"])[1])
    tj = summary(run(args + ["-ksp_rtol", "1e-13"])[1])
    check(abs(tm["L2"] - tj["L2"]) <= 1e-6 * tj["L2"], "inverse mass and Jacobi solutions differ: %g vs %g" % (tm["L2"], tj["L2"]))
    return "iterations to 1e-8: inverse mass %d, Jacobi %d" % (sm["iterations"], sj["iterations"])


@test("parallel/2-ranks-equal-1-rank")
def _():
    args = ["-problem", "poisson", "-order", "4", "-dm_plex_filename", SQUARE, "-dm_refine", "1", "-ksp_rtol", "1e-12"]
    s1 = summary(run([HOFLOW] + args)[1])
    s2 = summary(run(MPIEXEC + ["2", HOFLOW] + args)[1])
    check(abs(s1["L2"] - s2["L2"]) <= 1e-6 * s1["L2"], "L2 differs: 1 rank %g, 2 ranks %g" % (s1["L2"], s2["L2"]))
    check(abs(s1["iterations"] - s2["iterations"]) <= 2, "iterations differ: %d vs %d" % (s1["iterations"], s2["iterations"]))
    check(s1["dofs"] == s2["dofs"], "dof counts differ")
    return "L2 %.6e / %.6e, iterations %d / %d" % (s1["L2"], s2["L2"], s1["iterations"], s2["iterations"])


@test("parallel/refine-distributed")
def _():
    """-dm_refine_distributed: 2 and 3 ranks distribute the coarse mesh and refine in parallel; the
    discretization is the serial one (same DOFs, the same L2 error of a converged solve), on
    triangles (Gmsh), quadrilaterals and hexahedra (boxes) and a prism/tetrahedron/hexahedron mesh."""
    out = []
    for label, order, mesh in (("triangles", 4, ["-dm_plex_filename", SQUARE, "-dm_refine", "3"]),
                               ("quads", 3, ["-dm_plex_simplex", "0", "-dm_plex_box_faces", "3,3", "-dm_refine", "3"]),
                               ("hexes", 2, ["-dm_plex_dim", "3", "-dm_plex_simplex", "0", "-dm_plex_box_faces", "2,2,2", "-dm_refine", "2"]),
                               ("mixed 3D", 2, ["-dm_plex_filename", "examples/meshes/cube_mixed.msh", "-dm_refine", "1"])):
        solver = [] if label == "mixed 3D" else ["-options_file", "options/pmg_amg.yaml"]  # pMG: one shape per mesh
        args = ["-problem", "poisson", "-order", str(order), "-ksp_rtol", "1e-12"] + solver + mesh
        s1 = summary(run([HOFLOW] + args)[1])
        for n in (2, 3):
            sn = summary(run(MPIEXEC + [str(n), HOFLOW] + args + ["-dm_refine_distributed"])[1])
            check(s1["dofs"] == sn["dofs"] and abs(s1["L2"] - sn["L2"]) <= 1e-5 * s1["L2"], "%s, %d ranks: 1 rank %s, %d ranks %s" % (label, n, s1, n, sn))
        out.append("%s %d DOFs L2 %.6e" % (label, s1["dofs"], s1["L2"]))
    return "; ".join(out) + " on 1, 2 and 3 ranks"


@test("parallel/halo-overlap-off")
def _():
    """-halo_overlap 0 (the exchange completes before any element work: the measurement baseline of
    the overlap) gives the overlapped run's solve on 2 ranks, Poisson and 5 incompressible steps, to
    the run-to-run spread of 2 ranks."""
    args = ["-problem", "poisson", "-order", "3", "-dm_plex_filename", SQUARE, "-dm_refine", "2", "-options_file", "options/pmg_amg.yaml"]
    on = summary(run(MPIEXEC + ["2", HOFLOW] + args)[1])
    off = summary(run(MPIEXEC + ["2", HOFLOW] + args + ["-halo_overlap", "0"])[1])
    # (2-rank runs differ from run to run in the last digits: BoomerAMG's parallel setup)
    check(abs(on["L2"] - off["L2"]) <= 1e-5 * on["L2"] and abs(on["iterations"] - off["iterations"]) <= 1, "Poisson: overlap %s, none %s" % (on, off))
    with tempfile.TemporaryDirectory() as tmp:
        tv = ["-options_file", "options/taylor_vortex.yaml", "-ts_max_steps", "5", "-output_interval", "0", "-checkpoint_interval", "0", "-output_dir", tmp]
        ion = summary(run(MPIEXEC + ["2", HOFLOW] + tv)[1])
        ioff = summary(run(MPIEXEC + ["2", HOFLOW] + tv + ["-halo_overlap", "0"])[1])
    check(abs(ion["L2"] - ioff["L2"]) <= 1e-5 * ion["L2"] and abs(ion["iterations"] - ioff["iterations"]) <= 2, "Taylor vortex: overlap %s, none %s" % (ion, ioff))
    return "Poisson L2 %.6e it %d; Taylor vortex L2 %.6e it %d; the same (to 1e-5) with -halo_overlap 0" % (on["L2"], on["iterations"], ion["L2"], ion["iterations"])


@test("parallel/operator-3-ranks")
def _():
    _, out = run(MPIEXEC + ["3", TEST_OPERATOR, "-order", "3", "-dm_plex_filename", SQUARE, "-dm_refine", "1"])
    m = re.search(r"shell_vs_assembled (\S+) symmetry_shell (\S+)", out)
    check(m and float(m.group(1)) < 1e-12 and float(m.group(2)) < 1e-12, "distributed operator mismatch: " + out[-500:])
    return "diff %s sym %s" % (m.group(1), m.group(2))


@test("mesh/3d-default-groups")
def _():
    # the problem's default groups are written for any dimension (front and back exist only in 3D):
    # a 3D box and a 3D Gmsh cube run without -bc options, Neumann on top and Dirichlet elsewhere
    out = {}
    for name, args in (("box", ["-dm_plex_dim", "3", "-dm_plex_box_faces", "2,2,2"]), ("gmsh", ["-dm_plex_filename", "examples/meshes/cube_hex.msh"])):
        s = summary(run([HOFLOW, "-order", "2"] + args)[1])
        e = summary(run([HOFLOW, "-order", "2", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"] + args)[1])
        check(s["L2"] == e["L2"] and s["L2"] < 1e-2, "%s: defaults L2 %g, explicit groups L2 %g" % (name, s["L2"], e["L2"]))
        out[name] = s["L2"]
    return "L2 box %.3e, cube_hex %.3e, equal to naming the groups" % (out["box"], out["gmsh"])


@test("mesh/gmsh-2.2-format")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        msh = os.path.join(tmp, "square22.msh")
        run(["gmsh", "-2", "-format", "msh22", "-v", "0", "examples/meshes/square.geo", "-o", msh])
        s22 = summary(run([HOFLOW, "-order", "3", "-dm_plex_filename", msh])[1])
    s41 = summary(run([HOFLOW, "-order", "3", "-dm_plex_filename", SQUARE])[1])
    check(abs(s22["L2"] - s41["L2"]) <= 1e-10 * s41["L2"] and s22["cells"] == s41["cells"], "MSH 2.2 and 4.1 meshes differ: %s vs %s" % (s22, s41))
    return "cells %d L2 %.6e" % (s22["cells"], s22["L2"])


@test("profile/log_view-events")
def _():
    _, out = run([HOFLOW, "-problem", "poisson", "-order", "6", "-dm_plex_filename", SQUARE, "-dm_refine", "1", "-log_view"])
    rates = {}
    for ev in ("IPDGGradient", "IPDGApply", "MatMult"):
        m = re.search(r"^%s\s+(\d+)\s.*\s(\d+)\s*$" % ev, out, re.M)
        check(m, "event %s missing from -log_view" % ev)
        rates[ev] = int(m.group(2))
        check(rates[ev] > 0, "event %s has zero flop rate" % ev)
    return " ".join("%s %d MFlop/s" % kv for kv in rates.items())


def error_test(args, pattern, mpi=None):
    def f():
        cmd = ([*MPIEXEC, str(mpi)] if mpi else []) + [HOFLOW] + args
        code, out = run(cmd, expect_ok=False)
        check(code != 0, "expected a non-zero exit for %s" % " ".join(args))
        check(re.search(pattern, out), "expected message /%s/ in:\n%s" % (pattern, out[-1500:]))
        check("Segmentation" not in out and "signal" not in out.lower(), "crashed instead of a clean error:\n" + out[-800:])
        return re.search(pattern, out).group(0)[:100]
    return f


test("errors/unknown-problem")(error_test(["-problem", "nosuch"], r"Unknown -problem 'nosuch'; known: .*poisson.*helmholtz"))
@test("errors/cuda-vectors-without-cuda-build")
def _():
    _, out = run([TEST_GPU, "-order", "1", "-dm_plex_box_faces", "2,2"])
    if "SKIPPED" not in out:
        raise Skip("hoflow is built with CUDA")
    return error_test(["-options_file", "options/gpu.yaml"], r"-dm_vec_type cuda: this hoflow was built without CUDA; build it with 'make CUDA=1'")()


test("errors/order-zero")(error_test(["-order", "0"], r"-order 0 is out of range: hoflow supports polynomial orders 1\.\.10"))
test("errors/order-eleven")(error_test(["-order", "11"], r"-order 11 is out of range"))
test("errors/missing-mesh")(error_test(["-dm_plex_filename", "no/such/mesh.msh"], r"Mesh file 'no/such/mesh.msh' \(from -dm_plex_filename\) does not exist"))
test("errors/nonconforming-mesh")(error_test(["-dm_plex_filename", "tests/meshes/nonconforming.msh", "-bc_dirichlet", "wall", "-bc_neumann", "none"], r"nonconforming\.msh is not conforming: face \d+ of the tetrahedron with centroid \(.*\) \(cell \d+\) lies on face \d+ of the tetrahedron .* without being that face"))
test("errors/inverted-element")(error_test(["-dm_plex_filename", "tests/meshes/inverted.msh", "-bc_dirichlet", "wall", "-bc_neumann", "none"], r"cell \d+ with vertices .* is inverted or degenerate"))
test("errors/missing-boundary-group")(error_test(["-bc_dirichlet", "left,right,inlet"], r"Boundary group 'inlet' \(from -bc_dirichlet\) is not in mesh examples/meshes/square.msh; its named groups are: .*bottom"))
test("errors/uncovered-boundary")(error_test(["-bc_dirichlet", "left,right", "-bc_neumann", "top"], r"belongs to none of the groups in -bc_dirichlet \(left,right\)"))
test("errors/3d-simplex-box-without-tetgen")(error_test(["-dm_plex_dim", "3", "-dm_plex_simplex", "1", "-dm_plex_box_faces", "2,2,2"], r"-dm_plex_dim 3 -dm_plex_simplex 1: this PETSc has no tetrahedral mesh generator \(configure it with --download-ctetgen\); read a Gmsh tetrahedral mesh instead"))
test("errors/3d-elements-per-thread")(error_test(["-dm_plex_dim", "3", "-dm_plex_box_faces", "2,2,2", "-order", "4", "-ipdg_cuda_elements_per_thread", "4,4"], r"-ipdg_cuda_elements_per_thread 4: 3D elements run 1 or 2 elements per CUDA thread, 4 for elements of up to 56 nodes, 8 up to 20 \(this mesh has 125"))
test("errors/nonconverging-solve")(error_test(["-order", "5", "-ksp_max_it", "5"], r"did not converge: KSP reason DIVERGED_ITS after 5 iterations"))



# ---------------------------------------------------------------- layering (docs/architecture.md)
LAYERS = ["core", "ref", "mesh", "kernels", "disc", "op", "solver", "ts", "io", "problems", "physics"]
# the layer of each public header; PETSc-free leaf headers of constants and types belong to none
HEADER_LAYER = {"log.h": "core", "halo_ipc.h": "core", "expr.h": "core", "device.h": "core", "opshell.h": "core", "registry.h": "core", "ref.h": "ref",
                "mesh.h": "mesh", "disc.h": "disc", "dg.h": "disc", "mdg.h": "disc", "sem.h": "disc", "fr.h": "disc", "conslaw.h": "disc", "insops.h": "op", "sem_flow.h": "op", "solver.h": "solver",
                "ts.h": "ts", "io.h": "io", "problem.h": "problems", "physics.h": "physics", "unsteady.h": "physics", "stokes.h": "physics"}
# (kernels/device.h and kernels/halo.h: the CUDA helpers and the halo pack/unpack that core's plumbing calls,
# PETSc-free, with no hoflow include of their own)
LEAF_HEADERS = {"compat.h", "shape.h", "geom.h", "kernels/common.h", "kernels/device.h", "kernels/halo.h", "kernels/gather.h", "kernels/shapes.h"}


def header_layer(h):
    if h in LEAF_HEADERS:
        return None
    if h.startswith("kernels/") or h.startswith("pointwise/"):
        return "kernels"
    check(h in HEADER_LAYER, "header hoflow/%s has no layer: add it to HEADER_LAYER in tests/run.py" % h)
    return HEADER_LAYER[h]


@test("layering/no-merge-conflict-markers")
def _():
    """No tracked file keeps a merge conflict marker (a line starting with <<<<<<< or >>>>>>>)."""
    out = subprocess.run(["git", "grep", "-nE", "^(<{7}|>{7}) "], cwd=ROOT, capture_output=True, text=True)
    if out.returncode == 128:
        raise Skip("not a git checkout")
    check(out.stdout == "", "conflict markers left in:\n" + out.stdout[:2000])
    return "none"


@test("layering/includes")
def _():
    """Every source file includes headers of its own layer or below; every header likewise."""
    bad, n = [], 0
    inc = re.compile(r'#include <hoflow/([a-z_/]+\.h)>')
    for layer in LAYERS:
        d = os.path.join(ROOT, "src", layer)
        for f in sorted(os.listdir(d)):
            if not f.endswith(".c"):
                continue
            n += 1
            for h in inc.findall(open(os.path.join(d, f)).read()):
                hl = header_layer(h)
                if hl and LAYERS.index(hl) > LAYERS.index(layer):
                    bad.append("src/%s/%s includes hoflow/%s (layer %s)" % (layer, f, h, hl))
    hdir = os.path.join(ROOT, "src", "include", "hoflow")
    for dirpath, _, files in os.walk(hdir):
        for f in files:
            h = os.path.relpath(os.path.join(dirpath, f), hdir)
            hl = header_layer(h)
            for g in inc.findall(open(os.path.join(dirpath, f)).read()):
                gl = header_layer(g)
                if hl and gl and LAYERS.index(gl) > LAYERS.index(hl):
                    bad.append("hoflow/%s (layer %s) includes hoflow/%s (layer %s)" % (h, hl, g, gl))
    check(not bad, "upward includes:\n" + "\n".join(bad))
    return "%d sources in %d layers, no upward include" % (n, len(LAYERS))


# ---------------------------------------------------------------- GPU tests (make test-gpu)
TEST_GPU = os.path.join(ROOT, "build", "tests", "test_gpu")


_GPU_STATE = []


def gpu_or_skip():
    """Skip unless there is an NVIDIA GPU and hoflow is built with CUDA (probed once)."""
    if not _GPU_STATE:
        if not any(os.path.exists(p) for p in ("/dev/nvidia0", "/dev/nvidiactl", "/proc/driver/nvidia")):
            _GPU_STATE.append("no NVIDIA GPU on this machine")
        else:
            _, out = run([TEST_GPU, "-order", "1", "-dm_plex_box_faces", "2,2"])
            _GPU_STATE.append("hoflow built without CUDA=1" if "SKIPPED" in out else "")
    if _GPU_STATE[0]:
        raise Skip(_GPU_STATE[0])


SIDES3D = ["-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"]


def gpu_mesh(shape):
    return {"triangle": ["-dm_plex_filename", SQUARE, "-dm_refine", "1"],
            "quadrilateral": ["-dm_plex_box_faces", "7,5"],
            "tetrahedron": ["-dm_plex_filename", "examples/meshes/cube_tet.msh"] + SIDES3D,
            "prism": ["-dm_plex_filename", "examples/meshes/cube_prism.msh"] + SIDES3D,
            "hexahedron": ["-dm_plex_dim", "3", "-dm_plex_box_faces", "4,3,3"] + SIDES3D}[shape]


def gpu_apply_test(shape, order, launch=()):
    def f():
        gpu_or_skip()
        _, out = run([TEST_GPU, "-order", str(order)] + gpu_mesh(shape) + list(launch))
        m = re.search(r"apply_relative_difference (\S+) repeat_difference (\S+)", out)
        check(m, "no result line:\n" + out[-1000:])
        rel, rep = float(m.group(1)), float(m.group(2))
        tol = 1e-12 if shape in ("triangle", "quadrilateral") else 1e-14
        check(rel <= tol, "CUDA apply differs from the host kernel: relative %g" % rel)
        check(rep == 0.0, "two CUDA applications differ (race?): %g" % rep)
        others = dict(re.findall(r"(\w+) (\S+)", re.search(r"gpu: diagonal .*", out).group(0)))
        check(set(others) == {"diagonal", "mass", "inverse_mass", "rhs", "error", "mass_repeat"}, "unexpected result line: %s" % others)
        for k, v in others.items():
            limit = 0.0 if k == "mass_repeat" else tol
            check(float(v) <= limit, "CUDA %s differs from the host kernel: %s" % (k, v))
        transfer = dict(re.findall(r"(\w+) (\S+)", re.search(r"gpu-transfer: .*", out).group(0)))
        check(set(transfer) == {"prolong", "restrict", "transfer_repeat"}, "unexpected transfer line: %s" % transfer)
        for k, v in transfer.items():
            check(float(v) <= (0.0 if k == "transfer_repeat" else tol), "CUDA %s differs from the host kernel: %s" % (k, v))
        others.update({k: v for k, v in transfer.items() if k != "transfer_repeat"})
        m = re.search(r"gpu-ins: .*", out)
        check(m, "no incompressible-flow result line:\n" + out[-1000:])
        if shape == "prism":  # the incompressible-flow operators run on triangles, quadrilaterals, tetrahedra, hexahedra
            check("skipped" in m.group(0), "prism run printed incompressible-flow results: " + m.group(0))
            m = None
        ins = dict(re.findall(r"(\w+) (\S+)", m.group(0))) if m else {}
        check(not m or set(ins) == {"advection", "subcycle", "gradient", "gradient_increment", "divergence", "facedata", "newdata", "ins_repeat"}, "unexpected incompressible-flow line: %s" % ins)
        for k, v in ins.items():
            if k == "ins_repeat":
                check(float(v) == 0.0, "two CUDA runs of the incompressible-flow operators differ (race?): %s" % v)
            else:
                check(float(v) <= (1e-12 if shape in ("triangle", "quadrilateral") else 1e-14), "CUDA incompressible-flow %s differs from the host kernel: %s" % (k, v))
        others.update({"ins_" + k: v for k, v in ins.items() if k != "ins_repeat"})
        m = re.search(r"gpu-chebyshev: zero_guess (\S+) nonzero_guess (\S+) eigest_rhs (\S+)", out)
        check(m, "no Chebyshev smoother result line:\n" + out[-1000:])
        for k, v in (("chebyshev_zero_guess", m.group(1)), ("chebyshev_nonzero_guess", m.group(2))):
            check(float(v) <= tol, "CUDA %s differs from the host kernel: %s" % (k, v))
            others[k] = v
        check(float(m.group(3)) == 0.0, "the eigenvalue estimate's right-hand side written on the device differs from the host's: %s" % m.group(3))
        m = re.search(r"gpu-gather: sum (\S+) add (\S+)", out)
        check(m, "no gathered-transfer kernel result line:\n" + out[-1000:])
        check(float(m.group(1)) == 0.0 and float(m.group(2)) == 0.0, "the gathered CG1 transfer's CUDA kernels differ from the host's (sums in the same order: expected 0): sum %s add %s" % (m.group(1), m.group(2)))
        others["gather_kernels"] = m.group(1)
        return "apply %.1e " % rel + " ".join("%s %.1e" % (k, float(v)) for k, v in others.items() if k != "mass_repeat")
    return f


for shape in ("triangle", "quadrilateral"):
    for order in range(1, 11):
        test("gpu/apply/%s/N%d" % (shape, order), gpu=True)(gpu_apply_test(shape, order))
for shape in ("tetrahedron", "prism", "hexahedron"):
    for order in range(1, 9):
        test("gpu/apply/%s/N%d" % (shape, order), gpu=True)(gpu_apply_test(shape, order))
    # every launch variant (elements per thread 1, 2, 4; partial blocks) against the host
    for order in (2, 7):
        for p in (1, 2, 4, 8) if order == 2 and shape != "hexahedron" else (1, 2, 4) if order == 2 else (1, 2):  # 3D: P = 4 up to 56 nodes, 8 up to 20 (errors/3d-elements-per-thread)
            launch = ["-ipdg_cuda_elements_per_thread", "%d,%d" % (p, p), "-ipdg_cuda_elements_per_block", "3,5"]
            test("gpu/apply-launch/%s/N%d/P%d" % (shape, order, p), gpu=True)(gpu_apply_test(shape, order, launch))
    # the apply on FP64 tensor cores (-ipdg_cuda_apply_units tensor_cores), every order
    for order in range(1, 9):
        test("gpu/apply-tc/%s/N%d" % (shape, order), gpu=True)(gpu_apply_test(shape, order, ["-ipdg_cuda_apply_units", "tensor_cores", "-ipdg_kernel", "dense"]))
    for order in (2, 4):  # 16 and 32 elements a block (-ipdg_cuda_elements_per_block's apply entry), partial blocks included
        for e in (16, 32):
            test("gpu/apply-tc/%s/N%d/E%d" % (shape, order, e), gpu=True)(gpu_apply_test(shape, order, ["-ipdg_cuda_apply_units", "tensor_cores", "-ipdg_kernel", "dense", "-ipdg_cuda_elements_per_block", "0,%d" % e]))


def gpu_solve_test(shape, order, extra=()):
    def f():
        gpu_or_skip()
        args = ["-problem", "poisson", "-order", str(order), "-ksp_rtol", "1e-13"] + gpu_mesh(shape) + list(extra)
        sh = summary(run([HOFLOW] + args)[1])
        sd = summary(run([HOFLOW, "-dm_vec_type", "cuda"] + args)[1])
        check(abs(sh["iterations"] - sd["iterations"]) <= 2, "iterations differ: host %d, CUDA %d" % (sh["iterations"], sd["iterations"]))
        check(abs(sh["L2"] - sd["L2"]) <= 1e-6 * sh["L2"], "L2 differs: host %g, CUDA %g" % (sh["L2"], sd["L2"]))
        return "iterations %d / %d, L2 %.6e / %.6e" % (sh["iterations"], sd["iterations"], sh["L2"], sd["L2"])
    return f


for shape in ("triangle", "quadrilateral"):
    test("gpu/solve/%s/N5" % shape, gpu=True)(gpu_solve_test(shape, 5))


@test("gpu/solve/2-ranks", gpu=True)
def _():
    gpu_or_skip()
    args = ["-dm_vec_type", "cuda", "-problem", "poisson", "-order", "4", "-dm_plex_filename", SQUARE, "-dm_refine", "2", "-ksp_rtol", "1e-13"]
    s1 = summary(run([HOFLOW] + args)[1])
    s2 = summary(run(MPIEXEC + ["2", HOFLOW] + args + ["-gpu_shared"])[1])  # both ranks on one GPU
    check(abs(s1["iterations"] - s2["iterations"]) <= 2 and abs(s1["L2"] - s2["L2"]) <= 1e-6 * s1["L2"], "1 vs 2 ranks differ: %s / %s" % (s1, s2))
    return "iterations %d / %d, L2 %.6e / %.6e" % (s1["iterations"], s2["iterations"], s1["L2"], s2["L2"])


def two_gpus_or_skip():
    gpu_or_skip()
    gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ")
    if gpus < 2:
        raise Skip("needs two GPUs (this machine has %d)" % gpus)


def run_two_gpus(args, timeout=600):
    """hoflow on two ranks, one GPU each."""
    per_rank = ["bash", "-c", 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"', HOFLOW]
    return run(MPIEXEC + ["2"] + per_rank + args, timeout=timeout)[1]


@test("gpu/solve/2-gpus", gpu=True)
def _():
    two_gpus_or_skip()
    args = ["-dm_vec_type", "cuda", "-problem", "poisson", "-order", "4", "-dm_plex_filename", SQUARE, "-dm_refine", "2", "-ksp_rtol", "1e-13"]
    s1 = summary(run([HOFLOW] + args)[1])
    s2 = summary(run_two_gpus(args))
    check(abs(s1["iterations"] - s2["iterations"]) <= 2 and abs(s1["L2"] - s2["L2"]) <= 1e-6 * s1["L2"], "1 GPU vs 2 GPUs differ: %s / %s" % (s1, s2))
    # without CUDA_VISIBLE_DEVICES per rank: hoflow gives each rank of the host its own GPU
    s3 = summary(run(MPIEXEC + ["2", HOFLOW] + args)[1])
    check(s3["iterations"] == s2["iterations"] and abs(s3["L2"] - s2["L2"]) <= 1e-12 * s2["L2"], "ranks choosing their GPU differ from CUDA_VISIBLE_DEVICES per rank: %s / %s" % (s3, s2))
    return "iterations %d / %d, L2 %.6e / %.6e; same without CUDA_VISIBLE_DEVICES" % (s1["iterations"], s2["iterations"], s1["L2"], s2["L2"])


@test("gpu/errors/more-ranks-than-gpus", gpu=True)
def _():
    gpu_or_skip()
    gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ")
    n = gpus + 1
    args = ["-dm_vec_type", "cuda", "-problem", "poisson", "-order", "2", "-dm_plex_filename", SQUARE]
    code, out = run(MPIEXEC + [str(n), HOFLOW] + args, expect_ok=False, timeout=120)
    check(code != 0 and re.search(r"%d ranks on \S+ share GPUs: host ranks \d+ and \d+ both use the GPU at PCI \S+\. Run one rank per GPU" % n, out), "%d ranks on %d GPU(s): expected a clear error:\n%s" % (n, gpus, out[-1500:]))
    s = summary(run(MPIEXEC + [str(n), HOFLOW] + args + ["-gpu_shared"], timeout=120)[1])
    check(s["L2"] < 1e-2, "-gpu_shared run: %s" % s)
    return "%d ranks on %d GPU(s) refused; with -gpu_shared L2 %.3e" % (n, gpus, s["L2"])


@test("gpu/log_view-no-copies", gpu=True)
def _():
    gpu_or_skip()
    _, out = run([HOFLOW, "-dm_vec_type", "cuda", "-problem", "poisson", "-order", "5", "-dm_plex_filename", SQUARE, "-dm_refine", "2", "-log_view"])
    counts = {}
    for ev in ("MatMult", "KSPSolve", "IPDGApply", "IPDGGradient"):
        m = re.search(r"^%s\s.*$" % ev, out, re.M)
        check(m, "event %s missing" % ev)
        f = m.group(0).split()
        counts[ev] = (float(f[-5]), float(f[-3]), float(f[-1]))
    for ev in ("MatMult", "IPDGApply", "IPDGGradient"):
        check(counts[ev][0] == 0 and counts[ev][1] == 0, "%s copies between host and device: CpuToGpu %g, GpuToCpu %g" % (ev, counts[ev][0], counts[ev][1]))
    # PETSc's PCJacobi inverts the diagonal on the host in PCSetUp; its first PCApply moves that one
    # vector to the device. Nothing else crosses inside KSPSolve.
    check(counts["KSPSolve"][0] <= 1, "KSPSolve copies host to device %g times" % counts["KSPSolve"][0])
    return " ".join("%s CpuToGpu %d GpuToCpu %d GPU%%F %d" % (k, v[0], v[1], v[2]) for k, v in counts.items())


# More suites, one file per capability (tests/suite_*.py), sharing this file's helpers.
_defined = {}
for _path in sorted(__import__("glob").glob(os.path.join(ROOT, "tests", "suite_*.py"))):
    _before = {k: id(v) for k, v in globals().items()}
    exec(compile(open(_path).read(), _path, "exec"), globals())
    for _k, _v in list(globals().items()):  # suites share one namespace: a second definition would replace the first
        if _k != "_" and not _k.startswith("_") and _k in _before and _before[_k] != id(_v) and _k in _defined:
            sys.exit("tests: %s defines %s, already defined by %s" % (_path, _k, _defined[_k]))
        if _k not in _before or _before[_k] != id(_v):
            _defined.setdefault(_k, _path)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    ap.add_argument("-j", type=int, default=2, help="parallel jobs")
    ap.add_argument("--gpu", action="store_true", help="run the GPU tests")
    opts = ap.parse_args()
    tests = [t for t in TESTS if opts.k in t[0] and t[2] == opts.gpu]
    for exe in (HOFLOW, TEST_OPERATOR, TEST_REF, TEST_GPU):
        if not os.path.exists(exe):
            print("missing %s: run `make` first" % exe)
            return 2
    results = {"passed": 0, "failed": 0, "skipped": 0}
    t0 = time.time()

    def one(t):
        name, f, _ = t
        s = time.time()
        try:
            msg = f()
            return name, "passed", msg, time.time() - s
        except Skip as e:
            return name, "skipped", str(e), time.time() - s
        except (Failure, subprocess.TimeoutExpired) as e:
            return name, "failed", str(e), time.time() - s
        except Exception as e:  # a bug in the test itself is a failure of that test, not of the run
            return name, "failed", "%s: %s" % (type(e).__name__, e), time.time() - s

    def report(name, status, msg, dt):
        results[status] += 1
        tag = {"passed": "ok", "failed": "FAIL", "skipped": "SKIPPED"}[status]
        print("%-7s %-50s %6.1fs  %s" % (tag, name, dt, (msg or "") if status != "failed" else ""), flush=True)
        if status == "failed":
            print("        " + msg.replace("\n", "\n        "), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.j) as ex:
        for r in ex.map(one, [t for t in tests if t[0] not in EXCLUSIVE]):
            report(*r)
    for t in tests:
        if t[0] in EXCLUSIVE:
            report(*one(t))
    print("total time %.0fs" % (time.time() - t0))
    line = "%d passed, %d failed" % (results["passed"], results["failed"])
    if results["skipped"]:
        line += ", %d skipped" % results["skipped"]
    print(line)
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
