# The spectral-element Stokes system on the GPU (issue 18): the divergence, gradient and consistent pressure mass
# as CUDA kernels (cuda/sem_stokes.cu) against their host twins (src/kernels/sem_stokes.c), on the CPU through the
# emulation of tests/emu and on a GPU through tests/unit/test_sem_stokes.c; whole steady and DIRK Stokes solves with
# -dm_vec_type cuda against the same solves on the host, and no copy to the host inside any MatMult (-log_view).
# Loaded by tests/run.py after suite_sem.py, whose helpers (TEST_SEM_STOKES, GPU_SEM_MESHES, sem_box) it uses.


@test("sem/cuda-emulated/stokes")
def _():
    """cuda/sem_stokes.cu itself on the CPU (tests/emu: launches rewritten, a CUDA thread an OS thread, __syncthreads
    a barrier, atomicAdd under a lock) against the host kernels on random data: shared and repeated velocity and
    pressure dofs, a Dirichlet mask, random 1D matrices and factors (per point, or affine per element), quadrilaterals
    and hexahedra N = 2..8, Taylor-Hood and qn_qn2: the divergence, the gradient and the consistent pressure mass (a
    swapped array in one pass gave 1.2)."""
    import shutil
    if not shutil.which("g++"):
        raise Skip("no g++ for the CPU emulation of the CUDA source")
    _, out = run([os.path.join(ROOT, "tests", "emu", "run.sh"), "sem_stokes"])
    m = re.search(r"sem_stokes_emu: (\d+) cases, worst (\S+)", out)
    check(m, "no result line:\n" + out[-1000:])
    cases, rel = int(m.group(1)), float(m.group(2))
    check(cases == 56, "%d cases, expected 56" % cases)
    check(rel <= 1e-14, "emulated CUDA Stokes kernels differ from the host kernels: relative %g\n%s" % (rel, out[-3000:]))
    return "worst relative %.1e over %d cases" % (rel, cases)


def gpu_sem_stokes_test(mesh_args, order, pair, factors, ranks=1):
    """B and B^T (every boundary velocity dof left out, and none), the consistent Taylor-Hood pressure mass and the
    unsteady Stokes block operator [A + M, B0^T; B0, 0] (solver/blockmat.c: its own MatMult, and PETSc's MatNest one)
    on CUDA vectors on the GPU against the host, one
    random vector each, to 1e-14 relative (max norm); the pressure factors the device used (affine: 1 + dim^2 numbers
    an element)."""
    def f():
        gpu_or_skip()
        cmd = [TEST_SEM_STOKES, "-order", str(order), "-stokes_pair", pair, "-dm_vec_type", "cuda"] + mesh_args
        if ranks > 1:
            cmd = MPIEXEC + [str(ranks)] + cmd + ["-gpu_shared"]
        _, out = run(cmd)
        m = re.search(r"sem_stokes_device: divergence (\S+) gradient (\S+) divergence_free (\S+) gradient_free (\S+) pressure_mass (\S+) block (\S+) block_nest (\S+) pair (\w+) factors (\w+)", out)
        check(m, "no result line:\n" + out[-1500:])
        values = [float(m.group(k)) for k in range(1, 8)]
        check(m.group(9) == factors, "pressure factors on the device: %s, expected %s" % (m.group(9), factors))
        check(max(values) <= 1e-14, "CUDA Stokes coupling differs from the host: %s" % m.group(0))
        return "B %.1e B^T %.1e B0 %.1e B0^T %.1e M_c %.1e block %.1e block_nest %.1e (%s factors)" % (*values, factors)
    return f


for _mesh, (_args, _factors) in GPU_SEM_MESHES.items():
    for _order in range(2, 9):
        test("gpu/sem-stokes/%s/taylor-hood/N%d" % (_mesh, _order), gpu=True)(gpu_sem_stokes_test(_args, _order, "taylor_hood", _factors))
    for _order in (2, 4, 8):
        test("gpu/sem-stokes/%s/qn_qn2/N%d" % (_mesh, _order), gpu=True)(gpu_sem_stokes_test(_args, _order, "qn_qn2", _factors))
test("gpu/sem-stokes/hexahedron/affine/taylor-hood/N4/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/affine"][0], 4, "taylor_hood", "affine", ranks=2))
test("gpu/sem-stokes/hexahedron/non-affine/taylor-hood/N3/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/non-affine"][0], 3, "taylor_hood", "stored", ranks=2))
test("gpu/sem-stokes/hexahedron/non-affine/qn_qn2/N4/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/non-affine"][0], 4, "qn_qn2", "stored", ranks=2))


# Whole solves. The same algorithm on both backends: the velocity block by 10 CG iterations with the matrix-free
# Jacobi (on the device: SEMDiagonalCUDA), the DIRK pressure Poisson and the deflation solve by Jacobi, since
# BoomerAMG differs between host and device (hypre's device setup: PMIS, other smoothers; and this PETSc's hypre
# on the GPU machine takes device matrices only). To 1e-12, so that round-off is all that separates the two.
STOKES_SAME_SOLVER = ["-fieldsplit_u_pc_type", "jacobi", "-fieldsplit_u_ksp_max_it", "10", "-stokes_pressure_poisson_pc_type", "jacobi",
                      "-stokes_deflation_pc_type", "jacobi", "-ksp_rtol", "1e-12"]
STOKES_GPU_CASES = {  # name: (arguments, iterations of the default solver (BoomerAMG on the device) at most)
    "steady/quadrilateral/N4": (["-problem", "stokes", "-order", "4", "-dm_plex_box_faces", "4,4"], 40),
    "steady/quadrilateral/N8": (["-problem", "stokes", "-order", "8", "-dm_plex_box_faces", "3,3"], 40),
    "steady/hexahedron/N3": (["-problem", "stokes", "-order", "3"] + sem_box(3, 3), 70),
    "steady/distorted-hexahedra/N4": (["-problem", "stokes", "-order", "4", "-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh"], 70),
    "steady/quadrilateral/qn_qn2/N4": (["-problem", "stokes", "-order", "4", "-dm_plex_box_faces", "4,4", "-stokes_pair", "qn_qn2"], 40),
    "dirk/quadrilateral/N4": (["-problem", "stokes_unsteady", "-order", "4", "-dm_plex_box_faces", "3,3", "-stokes_viscosity", "0.01", "-ts_dt", "0.1", "-ts_max_time", "0.3"], 40),
    # the host's default solver takes 215 iterations (the worst stage) to 1e-12 on this 2^3 mesh (2026-11-26)
    "dirk/hexahedron/N3": (["-problem", "stokes_unsteady", "-order", "3", "-stokes_viscosity", "0.01", "-stokes_dirk_type", "sdirk2", "-ts_dt", "0.1", "-ts_max_time", "0.2"] + sem_box(3, 2), 240),
}


def gpu_stokes_solve_test(args, max_default_iterations):
    """A whole Stokes solve (steady, or the DIRK stages of unsteady Stokes) with -dm_vec_type cuda gives the host's
    velocity and pressure errors to 1e-9 relative and its FGMRES iterations (to 1: round-off) with the same solver;
    the default solver (BoomerAMG on the device: PMIS, not the host's HMIS) the same errors to 1e-5 within its iteration bound; and -log_view
    counts no copy from the GPU to the host inside any MatMult or MatMultTranspose (the block operator, the velocity
    operator of the CG iterations, the consistent pressure mass, B and B^T)."""
    def f():
        gpu_or_skip()
        host = summary(run([HOFLOW] + args + STOKES_SAME_SOLVER)[1])
        dev = summary(run([HOFLOW] + args + STOKES_SAME_SOLVER + ["-dm_vec_type", "cuda"])[1])
        _, out = run([HOFLOW] + args + ["-ksp_rtol", "1e-12", "-dm_vec_type", "cuda", "-log_view"])
        default = summary(out)
        # relative differences below an absolute floor count as 0: 1e-13 for the same solver (N = 8 on 3^2 cells puts the
        # errors at round-off, 7.7e-10); 1e-8 for the default solver, another preconditioner stopping at another point of
        # the 1e-12 ball (there 7.7e-10 / 2.7e-08 differ by more than 1e-5 of themselves)
        rel = lambda a, b, floor=1e-13: 0.0 if abs(float(a) - float(b)) <= floor else abs(float(a) - float(b)) / abs(float(b))
        eu, ep = rel(dev["L2"], host["L2"]), rel(dev["L2_p"], host["L2_p"])
        check(eu <= 1e-9 and ep <= 1e-9, "device errors %s / %s, host %s / %s (relative %.1e, %.1e)" % (dev["L2"], dev["L2_p"], host["L2"], host["L2_p"], eu, ep))
        check(abs(dev["iterations"] - host["iterations"]) <= 1, "FGMRES iterations: device %d, host %d" % (dev["iterations"], host["iterations"]))
        du, dp = rel(default["L2"], host["L2"], 1e-8), rel(default["L2_p"], host["L2_p"], 1e-8)
        check(du <= 1e-5 and dp <= 1e-5, "default solver on the device: errors %s / %s against %s / %s" % (default["L2"], default["L2_p"], host["L2"], host["L2_p"]))
        its = int(default.get("max_iterations", default["iterations"]))
        check(its <= max_default_iterations, "default solver on the device: %d FGMRES iterations (a solve), more than %d" % (its, max_default_iterations))
        copies = log_events(out, ("MatMult", "MatMultTranspose"))  # suite_solvers.py
        check(all(v[1] == 0 for v in copies.values()), "copies from the GPU to the host inside the operators (CpuToGpu, GpuToCpu, GPU %%F): %s" % copies)
        return "L2 %.6e / %.6e (%.0e, %.0e), iterations %d / %d, default solver %d its a solve, (CpuToGpu, GpuToCpu, GPU %%F) %s" % (
            dev["L2"], float(dev["L2_p"]), eu, ep, dev["iterations"], host["iterations"], its, copies)
    return f


for _name, (_args, _its) in STOKES_GPU_CASES.items():
    test("gpu/stokes-solve/%s" % _name, gpu=True)(gpu_stokes_solve_test(_args, _its))
