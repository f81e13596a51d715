# hoflow test suite: the whole run's set-up pieces cut for issue 13 (one GPU, 19.3 M DOFs: whole run
# <= 6 s). The closed forms of the manufactured problems (hoflow/pointwise/closed_form.h), which the
# DG kernels evaluate at the cubature points themselves (host twin here, CUDA with --gpu), give the
# right-hand side and the L2 error of the per-point functions (-problem_closed_form 0); the boundary
# data on the device give the host's solution. exec()'d by tests/run.py into its globals.

SETUP_CASES = {
    # name: arguments (L2 far above round-off, so the comparison means something)
    "triangle": ["-problem", "poisson", "-order", "3", "-dm_plex_filename", SQUARE, "-dm_refine", "1"],
    "quadrilateral": ["-problem", "helmholtz", "-order", "4", "-dm_plex_box_faces", "5,4"],
    "mixed-3d": ["-problem", "poisson", "-order", "2", "-dm_plex_filename", "examples/meshes/cube_mixed.msh"] + SIDES3D,
    "hexahedron": ["-problem", "helmholtz", "-order", "3", "-dm_plex_dim", "3", "-dm_plex_simplex", "0", "-dm_plex_box_faces", "3,3,2"] + SIDES3D,
}
SETUP_SOLVE = ["-ksp_type", "cg", "-pc_type", "jacobi", "-ksp_rtol", "1e-12", "-ksp_max_it", "20000"]


def closed_form_test(args, extra=()):
    def f():
        s = {}
        for cf in ("1", "0"):
            s[cf] = summary(run([HOFLOW] + args + SETUP_SOLVE + list(extra) + ["-problem_closed_form", cf])[1])
        check(abs(s["1"]["L2"] - s["0"]["L2"]) <= 1e-10 * s["0"]["L2"] and s["1"]["iterations"] == s["0"]["iterations"],
              "closed form %s / point functions %s" % (s["1"], s["0"]))
        return "L2 %.10e / %.10e, iterations %d / %d" % (s["1"]["L2"], s["0"]["L2"], s["1"]["iterations"], s["0"]["iterations"])
    return f


for _name, _args in SETUP_CASES.items():
    test("setup/closed-form/%s" % _name)(closed_form_test(_args))


@test("setup/log_view-budget")
def _():
    """One -log_view shows the whole run's pieces (issue 13): the mesh's, the layout's, the solve's."""
    _, out = run([HOFLOW, "-problem", "poisson", "-order", "3", "-dm_plex_filename", SQUARE, "-dm_refine", "1", "-options_file", "options/pmg_amg.yaml", "-log_view"])
    times = {}
    for ev in ("MeshSetup", "MeshRead", "MeshDistribute", "MeshGeometry", "MeshFaces", "DGSetup", "DGLayout", "DGTraceMaps", "EllipticOperator", "EllipticRHS", "PCSetUp", "PMGLevels", "EigEstimate", "KSPSolve", "DGL2Error", "Output"):
        m = re.search(r"^%s\s+(\d+)\s+[\d.]+\s+([-+0-9.e]+)" % ev, out, re.M)
        check(m and int(m.group(1)) >= 1, "event %s missing from -log_view" % ev)
        times[ev] = float(m.group(2))
    parts = sum(times[e] for e in ("MeshRead", "MeshDistribute", "MeshGeometry", "MeshFaces"))
    check(parts <= times["MeshSetup"] * 1.001 + 1e-4, "the mesh's pieces %g s exceed MeshSetup %g s" % (parts, times["MeshSetup"]))
    return " ".join("%s %.3g" % kv for kv in times.items())


# ---------------------------------------------------------------- GPU (make test-gpu)
def closed_form_gpu_test(args):
    """The device path (the closed form at the cubature points by the CUDA twin of the host kernel, the
    boundary data by the device SIPDG kernels) against the host run: the same L2 and iterations."""
    def f():
        gpu_or_skip()
        s = {}
        for name, extra in (("host", []), ("device", ["-dm_vec_type", "cuda"]), ("device-point-functions", ["-dm_vec_type", "cuda", "-problem_closed_form", "0"])):
            s[name] = summary(run([HOFLOW] + args + SETUP_SOLVE + extra)[1])
        for name in ("device", "device-point-functions"):
            check(abs(s[name]["L2"] - s["host"]["L2"]) <= 1e-9 * s["host"]["L2"] and abs(s[name]["iterations"] - s["host"]["iterations"]) <= 2,
                  "%s %s / host %s" % (name, s[name], s["host"]))
        return " ".join("%s L2 %.10e it %d;" % (k, v["L2"], v["iterations"]) for k, v in s.items())
    return f


for _name, _args in SETUP_CASES.items():
    test("gpu/setup/closed-form/%s" % _name, gpu=True)(closed_form_gpu_test(_args))
