# Sum-factorized (tensor-product) SIPDG kernels on quadrilaterals and hexahedra (-ipdg_kernel tensor,
# src/kernels/ipdg_tensor.c, cuda/ipdg_tensor.cu): the same operator as the dense kernels to round-off
# (both integrate exactly on affine elements with the exact mass; curved and non-affine elements use the
# same tensor Gauss rule of N+1 points a direction), on affine, non-affine (straight-sided, distorted)
# and curved meshes, N = 1..8; Poisson rates with the tensor kernels; bad input; and (--gpu) the CUDA
# twins against the host kernels. Loaded by tests/run.py, whose helpers it uses (and suite_curved's
# gmsh_mesh / CYLINDERS for the curved meshes).

TENSOR_MESHES = {
    "quadrilateral/affine": lambda: ["-dm_plex_box_faces", "3,2", "-problem", "poisson"],
    "quadrilateral/non-affine": lambda: ["-dm_plex_filename", "tests/meshes/trapezoid.msh", "-bc_dirichlet", "wall", "-bc_neumann", "none"],
    "quadrilateral/curved": lambda: ["-dm_plex_filename", annulus("quadrilateral", 0)] + CIRCLES + ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,bottom"],
    "hexahedron/affine": lambda: ["-dm_plex_dim", "3", "-dm_plex_box_faces", "2,2,1", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"],
    "hexahedron/non-affine": lambda: ["-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"],
    "hexahedron/curved": lambda: ["-dm_plex_filename", gmsh_mesh("quarter_cylinder", ("-setnumber", "n", "2"))] + CYLINDERS + ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,front,bottom,top"],
}


def tensor_apply_test(mesh, order):
    """||A_tensor x - A_dense x|| / ||A_dense x|| <= 1e-12 for a random x (helmholtz: lambda > 0 too), and
    the same for the mass and inverse mass (curved blocks: the inverse stays dense on both)."""
    def f():
        args = [TEST_OPERATOR, "-order", str(order), "-test_operator_kernels"] + TENSOR_MESHES[mesh]()
        if "-problem" not in args:
            args += ["-problem", "helmholtz"]
        if not mesh.endswith("affine") or mesh.endswith("non-affine"):
            args += ["-test_operator_kernels_inverse", "0"]  # curved blocks: the inverse mass is dense on both
        _, out = run(args)
        m = re.search(r"kernels: tensor_vs_dense (\S+) mass (\S+) inverse_mass (\S+)", out)
        check(m, "no result line:\n" + out[-1000:])
        rel = [float(v) for v in m.groups()]
        for name, v in zip(("SIPDG applications", "mass operators", "inverse mass operators"), rel):
            check(v <= 1e-12, "tensor and dense %s differ: relative %g" % (name, v))
        return "relative: apply %.1e mass %.1e inverse mass %.1e" % tuple(rel)
    return f


for _mesh in TENSOR_MESHES:
    for _order in range(1, 9):
        test("tensor/apply/%s/N%d" % (_mesh, _order))(tensor_apply_test(_mesh, _order))


# Poisson rates with the tensor kernels: quadrilateral boxes base * 2^level a side (levels 0..2),
# hexahedral boxes (levels 0..2, coarser at higher order so the finest error stays above round-off).
TENSOR_RATE_BASE = {"quadrilateral": {1: 4, 2: 4, 3: 4, 4: 2}, "hexahedron": {1: 2, 2: 2, 3: 2, 4: 1}}


def tensor_rate_test(shape, order):
    def f():
        errs, hs = [], []
        for lev in range(3):
            n = TENSOR_RATE_BASE[shape][order] * 2 ** lev
            args = [HOFLOW, "-problem", "poisson", "-order", str(order), "-ksp_rtol", "1e-12", "-ipdg_kernel", "tensor"]
            if shape == "quadrilateral":
                args += ["-dm_plex_box_faces", "%d,%d" % (n, n)]
            else:
                args += ["-dm_plex_dim", "3", "-dm_plex_box_faces", "%d,%d,%d" % (n, n, n)] + PMG
            s = summary(run(args)[1])
            errs.append(s["L2"])
            hs.append(s["h"])
        rates = [math.log(errs[i] / errs[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(2)]
        check(rates[-1] >= order + 0.7, "order %d %s, -ipdg_kernel tensor: rates %s below N + 0.7 (errors %s)" % (order, shape, ["%.2f" % r for r in rates], errs))
        return "errors %s rates %s" % (" ".join("%.2e" % e for e in errs), " ".join("%.2f" % r for r in rates))
    return f


for _shape in ("quadrilateral", "hexahedron"):
    for _order in range(1, 5):
        test("tensor/convergence/%s/N%d" % (_shape, _order))(tensor_rate_test(_shape, _order))


@test("tensor/convergence/non-affine-hexahedron/N2")
def _():
    errs, rates = study([["-dm_refine", str(l)] for l in (0, 1)], ["-problem", "poisson", "-order", "2", "-ksp_rtol", "1e-13", "-ipdg_kernel", "tensor", "-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"] + PMG, 3)
    check(rates[-1] >= 2.7, "rates %s below N + 0.7 (errors %s)" % (["%.2f" % r for r in rates], errs))
    return fmt(errs, rates)


test("tensor/errors/unknown-kernel")(error_test(["-ipdg_kernel", "sparse"], r"Unknown option sparse for -ipdg_kernel. Available options: dense tensor auto"))


# ---------------------------------------------------------------- GPU: the CUDA twins
def gpu_tensor_test(mesh_args, order):
    def f():
        gpu_or_skip()
        _, out = run([TEST_GPU, "-order", str(order), "-ipdg_kernel", "tensor"] + mesh_args())
        m = re.search(r"apply_relative_difference (\S+) repeat_difference (\S+)", out)
        check(m, "no result line:\n" + out[-1000:])
        rel, rep = float(m.group(1)), float(m.group(2))
        check(rel <= 1e-14, "CUDA tensor apply differs from the host tensor kernel: relative %g" % rel)
        check(rep == 0.0, "two CUDA applications differ (race?): %g" % rep)
        return "relative %.1e" % rel
    return f


GPU_TENSOR_MESHES = {
    "quadrilateral/affine": lambda: gpu_mesh("quadrilateral") + ["-problem", "poisson"],
    "hexahedron/affine": lambda: gpu_mesh("hexahedron") + ["-problem", "poisson"],
    "quadrilateral/non-affine": lambda: ["-problem", "poisson", "-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "2", "-bc_dirichlet", "wall", "-bc_neumann", "none"],
    "hexahedron/non-affine": lambda: ["-problem", "poisson", "-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"],
}
for _mesh, _args in GPU_TENSOR_MESHES.items():
    for _order in range(1, 9):
        test("gpu/tensor/%s/N%d" % (_mesh, _order), gpu=True)(gpu_tensor_test(_args, _order))
