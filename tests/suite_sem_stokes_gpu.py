# The spectral-element Stokes system on the GPU (issue 18): the divergence, gradient and consistent pressure mass
# as CUDA kernels (cuda/sem_stokes.cu) against their host twins (src/kernels/sem_stokes.c), on the CPU through the
# emulation of tests/emu and on a GPU through tests/unit/test_sem_stokes.c.
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
    unsteady Stokes block operator [A + M, B0^T; B0, 0] (a MatNest of CUDA vectors) on the GPU against the host, one
    random vector each, to 1e-14 relative (max norm); the pressure factors the device used (affine: 1 + dim^2 numbers
    an element)."""
    def f():
        gpu_or_skip()
        cmd = [TEST_SEM_STOKES, "-order", str(order), "-stokes_pair", pair, "-dm_vec_type", "cuda"] + mesh_args
        if ranks > 1:
            cmd = MPIEXEC + [str(ranks)] + cmd + ["-gpu_shared"]
        _, out = run(cmd)
        m = re.search(r"sem_stokes_device: divergence (\S+) gradient (\S+) divergence_free (\S+) gradient_free (\S+) pressure_mass (\S+) block (\S+) pair (\w+) factors (\w+)", out)
        check(m, "no result line:\n" + out[-1500:])
        values = [float(m.group(k)) for k in range(1, 7)]
        check(m.group(8) == factors, "pressure factors on the device: %s, expected %s" % (m.group(8), factors))
        check(max(values) <= 1e-14, "CUDA Stokes coupling differs from the host: %s" % m.group(0))
        return "B %.1e B^T %.1e B0 %.1e B0^T %.1e M_c %.1e block %.1e (%s factors)" % (*values, factors)
    return f


for _mesh, (_args, _factors) in GPU_SEM_MESHES.items():
    for _order in range(2, 9):
        test("gpu/sem-stokes/%s/taylor-hood/N%d" % (_mesh, _order), gpu=True)(gpu_sem_stokes_test(_args, _order, "taylor_hood", _factors))
    for _order in (2, 4, 8):
        test("gpu/sem-stokes/%s/qn_qn2/N%d" % (_mesh, _order), gpu=True)(gpu_sem_stokes_test(_args, _order, "qn_qn2", _factors))
test("gpu/sem-stokes/hexahedron/affine/taylor-hood/N4/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/affine"][0], 4, "taylor_hood", "affine", ranks=2))
test("gpu/sem-stokes/hexahedron/non-affine/taylor-hood/N3/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/non-affine"][0], 3, "taylor_hood", "stored", ranks=2))
test("gpu/sem-stokes/hexahedron/non-affine/qn_qn2/N4/2-ranks", gpu=True)(gpu_sem_stokes_test(GPU_SEM_MESHES["hexahedron/non-affine"][0], 4, "qn_qn2", "stored", ranks=2))


# Whole Stokes solves with -dm_vec_type cuda against the host's (the gpu/stokes-solve/* tests of commit 67763f4) are
# not here while the Stokes solve refuses device vectors (its device path gave wrong answers on the H100, 2026-11-26:
# docs/design-notes.md; gpu/errors/stokes-cuda checks the refusal); restore them from that commit with the mend.
