# Curved (isoparametric) and non-affine elements: convergence on curved domains with curved elements
# (projection onto circles and spheres, Gmsh high-order meshes) and the drop with straight-sided ones,
# non-affine quadrilaterals and hexahedra, exactness (linear solutions, constant states), the operator
# against its assembly, parallel runs, output on the curved geometry, bad input, and (--gpu) the CUDA
# twins of the curved kernels. Loaded by tests/run.py, whose helpers it uses.
#
# Meshes are made here with gmsh from examples/meshes/annulus.geo and shell.geo (the .msh files are not
# in git); PETSc cannot refine curved meshes, so the levels of a study are remeshed (-clscale, or the
# structured quadrilateral annulus with -setnumber structured n).
import shutil
import threading

# Meshes made by gmsh once and kept (output/ is not tracked): a machine without gmsh (the GPU
# machine) uses the ones carried there from a machine that ran these tests.
_CURVED_DIR = os.path.join(ROOT, "output", "test-meshes")
os.makedirs(_CURVED_DIR, exist_ok=True)
_CURVED_LOCK = threading.Lock()
_CURVED_MADE = {}
CIRCLES = ["-curve_inner", "circle", "-curve_inner_radius", "1", "-curve_outer", "circle", "-curve_outer_radius", "2"]
SPHERES = ["-curve_inner", "sphere", "-curve_inner_radius", "1", "-curve_outer", "sphere", "-curve_outer_radius", "2"]
OCTANT_BC = ["-bc_dirichlet", "inner,outer,left,front,bottom", "-bc_neumann", "none"]


def gmsh_mesh(geo, flags):
    """examples/meshes/<geo>.geo meshed by gmsh with `flags` (a tuple), once per run; its path."""
    name = "%s_%s.msh" % (geo, "_".join(f.lstrip("-").replace(".", "p") for f in flags))
    path = os.path.join(_CURVED_DIR, name)
    with _CURVED_LOCK:
        if path not in _CURVED_MADE:
            if shutil.which("gmsh") is None:
                if os.path.exists(path):
                    return path
                raise Skip("needs gmsh to make %s (or the file made on a machine with gmsh)" % os.path.relpath(path, ROOT))
            dim = "-3" if geo in ("shell", "quarter_cylinder") else "-2"
            run(["gmsh", dim] + list(flags) + ["-format", "msh41", "-v", "0", "examples/meshes/%s.geo" % geo, "-o", path])
            _CURVED_MADE[path] = True
    return path


def annulus(shape, level, order=None):
    """Quarter annulus: unstructured triangles (clscale 1, 1/2, 1/4, ...) or structured quadrilaterals
    (4, 8, 16, ... a side), straight-sided or of Gmsh order 2/3."""
    flags = ("-order", str(order)) if order else ()
    if shape == "triangle":
        return gmsh_mesh("annulus", flags + ("-clscale", str(0.5 ** level)))
    return gmsh_mesh("annulus", flags + ("-setnumber", "structured", str(4 * 2 ** level)))


def octant(level, order=None):
    """Octant of the spherical shell, tetrahedra, clscale 1.4, 1, 0.7."""
    flags = ("-order", str(order)) if order else ()
    return gmsh_mesh("shell", flags + ("-setnumber", "octant", "1", "-clscale", ("1.4", "1", "0.7")[level]))


def study(meshes, args, dim=2):
    """Errors and rates (h = cells^(-1/dim): the levels are remeshed, not refined) over the meshes."""
    errs, hs = [], []
    for m in meshes:
        s = summary(run([HOFLOW] + args + m)[1])
        errs.append(s["L2"])
        hs.append(s["cells"] ** (-1.0 / dim))
    rates = [math.log(errs[i] / errs[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(len(errs) - 1)]
    return errs, rates


def fmt(errs, rates):
    return "errors %s rates %s" % (" ".join("%.2e" % e for e in errs), " ".join("%.2f" % r for r in rates))


def curved_rate_test(meshes_of, order, extra, dim=2, solver=()):
    """Curved elements on a curved domain: the finest rate reaches N + 0.7."""
    def f():
        errs, rates = study(meshes_of(), ["-problem", "annulus", "-order", str(order), "-ksp_rtol", "1e-13"] + list(solver) + extra, dim)
        check(rates[-1] >= order + 0.7, "order %d: rates %s below N + 0.7 (errors %s)" % (order, ["%.2f" % r for r in rates], errs))
        return fmt(errs, rates)
    return f


def straight_drop_test(meshes_of, curved_of, order, curve, dim=2, solver=()):
    """The same domain with straight-sided elements: the geometric error caps the rate near 2, well
    below N + 0.7, and the curved elements' error on the finest mesh is far smaller."""
    def f():
        args = ["-problem", "annulus", "-order", str(order), "-ksp_rtol", "1e-13"] + list(solver)
        errs, rates = study(meshes_of(), args, dim)
        cerr = summary(run([HOFLOW] + args + curved_of() + curve)[1])["L2"]
        check(rates[-1] <= 2.5, "order %d straight-sided: rates %s, expected the geometric cap near 2 (well below N + 0.7)" % (order, ["%.2f" % r for r in rates]))
        check(cerr * 10 < errs[-1], "order %d: curved elements' error %.2e is not far below the straight-sided %.2e" % (order, cerr, errs[-1]))
        return fmt(errs, rates) + "; curved %.2e" % cerr
    return f


# 2D annulus, N = 1..6: projection onto the circles, and Gmsh order-2/3 meshes (isoparametric up to their order)
for order in range(1, 7):
    test("curved/annulus/triangle/projection/N%d" % order)(curved_rate_test(lambda: [[*["-dm_plex_filename", annulus("triangle", l)], *CIRCLES] for l in range(3)], order, []))
    test("curved/annulus/quadrilateral/projection/N%d" % order)(curved_rate_test(lambda order=order: [[*["-dm_plex_filename", annulus("quadrilateral", l + (order <= 2))], *CIRCLES] for l in range(3)], order, []))
for shape in ("triangle", "quadrilateral"):
    for gorder, orders in ((2, (1, 2)), (3, (1, 2, 3))):
        for order in orders:
            test("curved/annulus/%s/gmsh-order%d/N%d" % (shape, gorder, order))(curved_rate_test(lambda shape=shape, gorder=gorder, order=order: [["-dm_plex_filename", annulus(shape, l + (shape == "quadrilateral" and order <= 2), gorder)] for l in range(3)], order, []))
    for order in (2, 3, 4):
        test("curved/annulus/%s/straight-sided-drop/N%d" % (shape, order))(straight_drop_test(lambda shape=shape: [["-dm_plex_filename", annulus(shape, l)] for l in range(3)], lambda shape=shape: ["-dm_plex_filename", annulus(shape, 2)], order, CIRCLES))

# Neumann data on a curved boundary (normals at the face nodes of curved faces): the manufactured solution
@test("curved/annulus/triangle/projection/neumann-outer/N3")
def _():
    errs, rates = study([["-dm_plex_filename", annulus("triangle", l)] + CIRCLES for l in range(3)], ["-problem", "poisson", "-order", "3", "-ksp_rtol", "1e-13", "-bc_dirichlet", "inner,left", "-bc_neumann", "outer,bottom"])
    check(rates[-1] >= 3.7, "rates %s below N + 0.7 (errors %s)" % (["%.2f" % r for r in rates], errs))
    return fmt(errs, rates)


# 3D: the octant of the spherical shell, tetrahedra
PMG = ["-options_file", "options/pmg_amg.yaml"]
for order in (2, 3):
    test("curved/shell-octant/tetrahedron/projection/N%d" % order)(curved_rate_test(lambda: [["-dm_plex_filename", octant(l)] + SPHERES for l in range(3)], order, OCTANT_BC, 3, PMG))
test("curved/shell-octant/tetrahedron/straight-sided-drop/N3")(straight_drop_test(lambda: [["-dm_plex_filename", octant(l)] + OCTANT_BC for l in range(3)], lambda: ["-dm_plex_filename", octant(2)] + OCTANT_BC, 3, SPHERES, 3, PMG))
test("curved/shell-octant/tetrahedron/gmsh-order2/N2")(curved_rate_test(lambda: [["-dm_plex_filename", octant(l, 2)] for l in range(3)], 2, OCTANT_BC, 3, PMG))


# 3D: the hollow quarter cylinder, hexahedra curved by the projection onto the two cylinders (the
# manufactured solution, whose data follow the mesh: the design rate of curved hexahedra)
CYLINDERS = ["-curve_inner", "cylinder", "-curve_inner_radius", "1", "-curve_outer", "cylinder", "-curve_outer_radius", "2"]
CYLINDER_BC = ["-bc_dirichlet", "inner,outer,left,front", "-bc_neumann", "top,bottom"]


@test("curved/quarter-cylinder/hexahedron/projection/N2")
def _():
    meshes = [["-dm_plex_filename", gmsh_mesh("quarter_cylinder", ("-setnumber", "n", str(n)))] + CYLINDERS for n in (4, 8)]
    errs, rates = study(meshes, ["-problem", "poisson", "-order", "2", "-ksp_rtol", "1e-12"] + CYLINDER_BC + PMG, 3)
    check(rates[-1] >= 2.7, "rates %s below N + 0.7 (errors %s)" % (["%.2f" % r for r in rates], errs))
    return fmt(errs, rates)


# Non-affine quadrilaterals and hexahedra (straight-sided, refused before curved elements): the design rate
def nonaffine_test(mesh, bcs, order, levels, dim):
    def f():
        errs, rates = [], []
        args = ["-problem", "poisson", "-order", str(order), "-ksp_rtol", "1e-13", "-dm_plex_filename", mesh] + bcs + (PMG if dim == 3 else [])
        errs, rates = study([["-dm_refine", str(l)] for l in levels], args, dim)
        check(rates[-1] >= order + 0.7, "order %d: rates %s below N + 0.7 (errors %s)" % (order, ["%.2f" % r for r in rates], errs))
        return fmt(errs, rates)
    return f


for order in range(1, 5):
    test("curved/non-affine/trapezoid/N%d" % order)(nonaffine_test("tests/meshes/trapezoid.msh", ["-bc_dirichlet", "wall", "-bc_neumann", "none"], order, (2, 3, 4), 2))
for order, levels in ((1, (0, 1, 2)), (2, (0, 1)), (3, (0, 1))):
    test("curved/non-affine/cube-hex-distorted/N%d" % order)(nonaffine_test("examples/meshes/cube_hex_distorted.msh", ["-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"], order, levels, 3))


# Exactness: a linear solution is reproduced to round-off on curved elements of geometry order <= N
# (Dirichlet data on the curved boundaries, Neumann on the straight ones)
def linear_test(order, mesh_args, bcs):
    def f():
        s = summary(run([HOFLOW, "-problem", "linear", "-order", str(order), "-ksp_rtol", "1e-14"] + mesh_args() + bcs)[1])
        check(s["L2"] < 1e-11, "linear solution not reproduced: L2 %.3e" % s["L2"])
        return "L2 %.2e" % s["L2"]
    return f


ANNULUS_MIXED = ["-bc_dirichlet", "inner,outer", "-bc_neumann", "left,bottom"]
test("curved/exact/linear/annulus-triangle-projection-order2/N2")(linear_test(2, lambda: ["-dm_plex_filename", annulus("triangle", 0)] + CIRCLES + ["-curve_order", "2"], ANNULUS_MIXED))
test("curved/exact/linear/annulus-quadrilateral-projection-order3/N3")(linear_test(3, lambda: ["-dm_plex_filename", annulus("quadrilateral", 1)] + CIRCLES + ["-curve_order", "3"], ANNULUS_MIXED))
test("curved/exact/linear/annulus-triangle-gmsh-order2/N2")(linear_test(2, lambda: ["-dm_plex_filename", annulus("triangle", 0, 2)], ANNULUS_MIXED))
test("curved/exact/linear/annulus-quadrilateral-gmsh-order3/N4")(linear_test(4, lambda: ["-dm_plex_filename", annulus("quadrilateral", 0, 3)], ANNULUS_MIXED))
test("curved/exact/linear/trapezoid/N1")(linear_test(1, lambda: ["-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "1"], ["-bc_dirichlet", "wall", "-bc_neumann", "none"]))
test("curved/exact/linear/cube-hex-distorted/N2")(linear_test(2, lambda: ["-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh"], ["-bc_dirichlet", "left,right,front,back", "-bc_neumann", "bottom,top"]))
test("curved/exact/linear/shell-octant-projection-order2/N2")(linear_test(2, lambda: ["-dm_plex_filename", octant(0)] + SPHERES + ["-curve_order", "2"], ["-bc_dirichlet", "inner,outer", "-bc_neumann", "left,front,bottom"]))
test("curved/exact/linear/quarter-cylinder-projection-order2/N2")(linear_test(2, lambda: ["-dm_plex_filename", "examples/meshes/quarter_cylinder.msh"] + CYLINDERS + ["-curve_order", "2"], ["-bc_dirichlet", "inner,outer", "-bc_neumann", "left,front,bottom,top"]))
test("curved/exact/linear/quarter-cylinder-prisms-projection-order2/N2")(linear_test(2, lambda: ["-dm_plex_filename", gmsh_mesh("quarter_cylinder", ("-setnumber", "prisms", "1", "-setnumber", "n", "2")), "-dm_coord_space", "0"] + CYLINDERS + ["-curve_order", "2"], ["-bc_dirichlet", "inner,outer", "-bc_neumann", "left,front,bottom,top"]))
test("curved/exact/linear/shell-octant-gmsh-order2/N3")(linear_test(3, lambda: ["-dm_plex_filename", octant(0, 2)], ["-bc_dirichlet", "inner,outer", "-bc_neumann", "left,front,bottom"]))


# The operator on curved meshes: shell equals the independent assembly, both symmetric, the diagonal,
# positive definite, mass and inverse mass; pure Neumann: A 1 = 0 (constant states)
def curved_operator_test(order, mesh_args, bcs, neumann=False, ranks=None):
    def f():
        cmd = ([*MPIEXEC, str(ranks)] if ranks else []) + [TEST_OPERATOR, "-problem", "poisson", "-order", str(order), "-test_operator_max_eigen_size", "3000"] + mesh_args() + bcs
        _, out = run(cmd)
        nums = {k: float(v) for k, v in re.findall(r"(\w+) ([-+0-9.e]+)", " ".join(l for l in out.splitlines() if l.startswith(("operator:", "mass:"))))}
        for k in ("shell_vs_assembled", "symmetry_shell", "symmetry_assembled", "diagonal", "inverse_roundtrip", "xMx_vs_cubature"):
            check(nums[k] < 1e-12, "%s = %g" % (k, nums[k]))
        if neumann:
            check(nums["constant_residual"] < 1e-12, "A 1 = %g on a pure-Neumann curved mesh" % nums["constant_residual"])
        elif "min_eigenvalue" in nums:
            check(nums["min_eigenvalue"] > 1e-8 * nums["max_eigenvalue"], "not positive definite: min eigenvalue %g" % nums["min_eigenvalue"])
        return "diff %.1e sym %.1e diag %.1e A1 %.1e%s" % (nums["shell_vs_assembled"], nums["symmetry_shell"], nums["diagonal"], nums["constant_residual"], " eig [%.2e, %.2e]" % (nums["min_eigenvalue"], nums["max_eigenvalue"]) if "min_eigenvalue" in nums else "")
    return f


NEUMANN_ANNULUS = ["-bc_dirichlet", "none", "-bc_neumann", "inner,outer,left,bottom"]
for order in (1, 3, 5):
    test("curved/operator/annulus-triangle-projection/N%d" % order)(curved_operator_test(order, lambda: ["-dm_plex_filename", annulus("triangle", 0)] + CIRCLES, ANNULUS_MIXED))
    test("curved/operator/annulus-quadrilateral-gmsh-order3/N%d" % order)(curved_operator_test(order, lambda: ["-dm_plex_filename", annulus("quadrilateral", 0, 3)], ANNULUS_MIXED))
test("curved/operator/annulus-triangle-gmsh-order2/N4/pure-neumann")(curved_operator_test(4, lambda: ["-dm_plex_filename", annulus("triangle", 0, 2)], NEUMANN_ANNULUS, neumann=True))
test("curved/operator/annulus-quadrilateral-projection/N3/pure-neumann")(curved_operator_test(3, lambda: ["-dm_plex_filename", annulus("quadrilateral", 0)] + CIRCLES, NEUMANN_ANNULUS, neumann=True))
test("curved/operator/trapezoid/N3")(curved_operator_test(3, lambda: ["-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "2"], ["-bc_dirichlet", "wall", "-bc_neumann", "none"]))
test("curved/operator/cube-hex-distorted/N1/pure-neumann")(curved_operator_test(1, lambda: ["-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh"], ["-bc_dirichlet", "none", "-bc_neumann", "left,right,front,back,bottom,top"], neumann=True))
test("curved/operator/quarter-cylinder-projection/N2")(curved_operator_test(2, lambda: ["-dm_plex_filename", "examples/meshes/quarter_cylinder.msh"] + CYLINDERS, ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,front,bottom,top"]))
test("curved/operator/quarter-cylinder-prisms-projection/N2")(curved_operator_test(2, lambda: ["-dm_plex_filename", gmsh_mesh("quarter_cylinder", ("-setnumber", "prisms", "1", "-setnumber", "n", "2")), "-dm_coord_space", "0"] + CYLINDERS, ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,front,bottom,top"]))
test("curved/operator/shell-octant-projection/N2")(curved_operator_test(2, lambda: ["-dm_plex_filename", octant(0)] + SPHERES, ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,front,bottom"]))
test("curved/operator/shell-octant-gmsh-order2/N1/pure-neumann")(curved_operator_test(1, lambda: ["-dm_plex_filename", octant(0, 2)], ["-bc_dirichlet", "none", "-bc_neumann", "inner,outer,left,front,bottom"], neumann=True))
test("curved/operator/annulus-triangle-projection/N3/3-ranks")(curved_operator_test(3, lambda: ["-dm_plex_filename", annulus("triangle", 0)] + CIRCLES, ANNULUS_MIXED, ranks=3))
test("curved/operator/shell-octant-projection/N1/2-ranks")(curved_operator_test(1, lambda: ["-dm_plex_filename", octant(0)] + SPHERES, ["-bc_dirichlet", "inner,left", "-bc_neumann", "outer,front,bottom"], ranks=2))


@test("curved/parallel/3-ranks-equal-1-rank")
def _():
    args = ["-problem", "annulus", "-order", "4", "-ksp_rtol", "1e-12", "-dm_plex_filename", annulus("triangle", 1)] + CIRCLES
    s1 = summary(run([HOFLOW] + args)[1])
    s3 = summary(run(MPIEXEC + ["3", HOFLOW] + args)[1])
    check(abs(s1["L2"] - s3["L2"]) <= 1e-8 * s1["L2"], "L2 differs: 1 rank %g, 3 ranks %g" % (s1["L2"], s3["L2"]))
    return "L2 %.6e / %.6e" % (s1["L2"], s3["L2"])


@test("curved/solvers/pmg-lor-inverse-mass")
def _():
    """Every preconditioner works on curved elements (p-multigrid levels evaluate the same geometry)."""
    args = ["-problem", "annulus", "-order", "4", "-ksp_rtol", "1e-10", "-dm_plex_filename", annulus("triangle", 1)] + CIRCLES
    res = {}
    for stack in ("pmg_amg", "lor_amg", "amg", "inverse_mass"):
        res[stack] = summary(run([HOFLOW] + args + ["-options_file", "options/%s.yaml" % stack])[1])
    l2 = res["pmg_amg"]["L2"]
    for k, s in res.items():
        check(abs(s["L2"] - l2) <= 1e-4 * l2, "%s: L2 %g differs from pMG-AMG's %g" % (k, s["L2"], l2))
    check(res["pmg_amg"]["iterations"] <= 25, "pMG-AMG took %d iterations" % res["pmg_amg"]["iterations"])
    return " ".join("%s %d" % (k, s["iterations"]) for k, s in res.items())


@test("curved/output/nodes-on-the-circles")
def _():
    """The output points of curved elements follow the geometry: 1 <= r <= 2 up to the geometric error
    O(h^(Ng+1)), where the straight chords of the inner circle cut far below r = 1."""
    try:
        import h5py
        import numpy
    except ImportError:
        raise Skip("needs h5py")
    rmin = {}
    for kind, extra in (("curved", CIRCLES), ("straight", [])):
        with tempfile.TemporaryDirectory() as tmp:
            run([HOFLOW, "-problem", "annulus", "-order", "3", "-output_interval", "1", "-output_dir", tmp, "-dm_plex_filename", annulus("triangle", 0)] + extra)
            mesh = [f for f in os.listdir(tmp) if "_mesh_" in f and f.endswith(".h5")]
            check(mesh, "no mesh file written in %s" % os.listdir(tmp))
            with h5py.File(os.path.join(tmp, mesh[0]), "r") as h:
                pts = numpy.array(h["geometry"])
            r = numpy.sqrt((pts[:, :2] ** 2).sum(axis=1))
            rmin[kind] = (r.min(), r.max(), len(r))
    check(rmin["curved"][0] >= 1 - 1e-5 and rmin["curved"][1] <= 2 + 1e-5, "curved elements' points at r in [%.10f, %.10f]" % rmin["curved"][:2])
    check(rmin["straight"][0] < 1 - 1e-3, "straight-sided points reach only r = %.6f" % rmin["straight"][0])
    return "%d points, r in [%.9f, %.9f] (straight-sided from %.4f)" % (rmin["curved"][2], rmin["curved"][0], rmin["curved"][1], rmin["straight"][0])


# Bad input: each a clear error naming the cell, the group or the option
test("curved/errors/tangled-element")(error_test(["-order", "2", "-dm_plex_filename", "tests/meshes/tangled_p2.msh", "-bc_dirichlet", "wall", "-bc_neumann", "none"], r"curved triangle cell 0 near \(.*\) is tangled or inverted: its Jacobian is -\S+ at reference point"))
test("curved/errors/projection-radius-does-not-fit")(error_test(["-problem", "annulus", "-curve_inner_radius", "1.1"], r"-curve_inner: vertex \(\S+, \S+\) of group 'inner' in mesh examples/meshes/annulus.msh is 0.1 away from the circle \(center \(0., 0.\), radius 1.1\)"))
test("curved/errors/projection-center-does-not-fit")(error_test(["-problem", "annulus", "-curve_outer_center", "0.2,0"], r"-curve_outer: vertex .* of group 'outer' .* away from the circle \(center \(0.2, 0.\), radius 2.?\)"))
test("curved/errors/projection-unknown-group")(error_test(["-problem", "annulus", "-curve_hole", "circle", "-curve_hole_radius", "1"], r"-curve_hole: mesh examples/meshes/annulus.msh has no boundary group 'hole'; its named groups are: .*inner"))
test("curved/errors/projection-unknown-shape")(error_test(["-problem", "annulus", "-curve_inner", "ellipse"], r"-curve_inner ellipse: unknown shape; give circle \(2D\), cylinder or sphere \(3D\), or none"))
test("curved/errors/projection-shape-of-other-dimension")(error_test(["-problem", "annulus", "-curve_inner", "sphere"], r"-curve_inner sphere: a 2D mesh needs circle"))
test("curved/errors/projection-without-radius")(error_test(["-dm_plex_filename", "examples/meshes/annulus.msh", "-curve_inner", "circle", "-bc_dirichlet", "inner,outer,left,bottom", "-bc_neumann", "none"], r"-curve_inner circle needs a positive radius \(-curve_inner_radius R\)"))
test("curved/errors/projection-option-without-shape")(error_test(["-dm_plex_filename", "examples/meshes/annulus.msh", "-curve_inner_radius", "1", "-bc_dirichlet", "inner,outer,left,bottom", "-bc_neumann", "none"], r"-curve_inner_radius is given without -curve_inner: name the group's shape"))
test("curved/errors/curve-order-without-projection")(error_test(["-curve_order", "3"], r"-curve_order 3 is given without a projection"))
test("curved/errors/curved-flow")(error_test(["-problem", "taylor_vortex", "-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "1", "-bc_dirichlet", "wall", "-bc_neumann", "none", "-ts_max_steps", "1"], r"Mesh tests/meshes/trapezoid.msh has curved or non-affine elements .*; hoflow's incompressible flow operators need affine elements"))


@test("curved/errors/projection-on-high-order-mesh")
def _():
    return error_test(["-problem", "annulus", "-dm_plex_filename", annulus("triangle", 0, 2)] + CIRCLES, r"-curve_inner: mesh .* is already curved \(a high-order mesh\); projections apply to straight-sided meshes")()


@test("curved/errors/high-order-mesh-refined")
def _():
    return error_test(["-problem", "annulus", "-order", "2", "-dm_refine", "1", "-dm_plex_filename", annulus("triangle", 0, 2)], r"Mesh \S+annulus\S+ is a high-order \(curved\) mesh: PETSc cannot refine curved meshes with -dm_refine \(1\); remesh with gmsh -clscale instead, or refine a straight-sided mesh and curve its boundary with -curve_<group>")()


@test("curved/errors/high-order-mixed-cells")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        msh = os.path.join(tmp, "mixed_p2.msh")
        run(["gmsh", "-3", "-order", "2", "-format", "msh41", "-v", "0", "examples/meshes/cube_mixed.geo", "-o", msh])
        return error_test(["-dm_plex_filename", msh, "-dm_plex_gmsh_hybrid", "0", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"], r"is a high-order \(curved\) mesh of tetrahedron and hexahedron and prism cells: PETSc 3.18 reads curved triangles, quadrilaterals, tetrahedra and hexahedra of one type only")()


@test("curved/errors/high-order-prisms")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        msh = os.path.join(tmp, "prism_p2.msh")
        run(["gmsh", "-3", "-order", "2", "-format", "msh41", "-v", "0", "examples/meshes/cube_prism.geo", "-o", msh])
        return error_test(["-dm_plex_filename", msh, "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"], r"is a high-order \(curved\) mesh of prism cells: PETSc 3.18 reads curved triangles, quadrilaterals, tetrahedra and hexahedra")()


# GPU: every curved kernel against its host twin (all-curved meshes: <= 1e-14), and a mixed mesh (its
# affine elements run the affine kernels, compared to 1e-12 elsewhere). 3D meshes with affine elements
# wait for the affine 3D CUDA kernels; the distorted hexahedra are all curved.
def gpu_curved_test(order, mesh_args, limit):
    def f():
        gpu_or_skip()
        _, out = run([TEST_GPU, "-problem", "poisson", "-order", str(order)] + mesh_args())
        m = re.search(r"apply_relative_difference (\S+) repeat_difference (\S+)", out)
        check(m, "no result line:\n" + out[-1000:])
        vals = {"apply": float(m.group(1))}
        check(float(m.group(2)) == 0.0, "two CUDA applications differ (race?): %s" % m.group(2))
        vals.update({k: float(v) for k, v in re.findall(r"(\w+) (\S+)", re.search(r"gpu: diagonal .*", out).group(0)) if k != "mass_repeat"})
        for k, v in vals.items():
            check(v <= limit, "CUDA %s differs from the host kernel: %g (limit %g)" % (k, v, limit))
        return " ".join("%s %.1e" % kv for kv in vals.items())
    return f


for order in (1, 2, 4, 6):
    test("gpu/curved/trapezoid/N%d" % order, gpu=True)(gpu_curved_test(order, lambda: ["-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "3", "-bc_dirichlet", "wall", "-bc_neumann", "none"], 1e-14))
    test("gpu/curved/annulus-mixed/N%d" % order, gpu=True)(gpu_curved_test(order, lambda: ["-dm_plex_filename", annulus("triangle", 1)] + CIRCLES + ANNULUS_MIXED, 1e-12))
for order in (1, 3):
    test("gpu/curved/cube-hex-distorted/N%d" % order, gpu=True)(gpu_curved_test(order, lambda: ["-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"], 1e-14))
