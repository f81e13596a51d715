# hoflow test suite: incompressible Navier-Stokes in 3D (-ts_type insplit on tetrahedra and
# hexahedra). exec()'d by tests/run.py into its globals (test, run, check, summary, Failure, Skip,
# ROOT, HOFLOW, MPIEXEC, error_test, gpu_or_skip, TEST_GPU, h5py_or_skip). The Beltrami
# (Ethier-Steinman) flow's spatial rates at N = 2, 3 on two meshes each (N = 4, 5: the committed
# study bench/results/*_ins3d_beltrami.md, scripts/ins3d_study.py), subcycling, restart, output,
# 2 ranks, the errors of unsupported input; on a GPU, the CUDA kernels against their host twins
# and a host/device run.
BELTRAMI = [HOFLOW, "-problem", "beltrami", "-progress_interval", "-1", "-monitor_file", "none"]
# BDF3/EXT3 with second-order pressure extrapolation and the exact past levels: the temporal error
# (about 3e-9 at dt = 1e-3 over 5 steps) is far below the spatial errors below
BELTRAMI_TIME = ["-ts_dt", "1e-3", "-ts_max_time", "0.005", "-ins_order", "3", "-ins_pressure_order", "2", "-ins_exact_history"]


def ins3d_summary(out):
    s = summary(out)
    for k in ("L2_u", "L2_v", "L2_w", "L2_p", "time"):
        if k in s:
            s[k] = float(s[k])
    return s


def ins3d_mesh(shape, level):
    """Hexahedra: boxes of (2 * 2^level)^3 cubes; tetrahedra: the structured 48-tetrahedron cube refined level times."""
    if shape == "hexahedron":
        n = 2 * 2 ** level
        return ["-dm_plex_dim", "3", "-dm_plex_box_faces", "%d,%d,%d" % (n, n, n)]
    return ["-dm_plex_filename", "examples/meshes/cube_tet_structured.msh", "-dm_refine", str(level)]


# order: levels per shape (the coarsest tetrahedral meshes are pre-asymptotic: N = 2 from 48 to 384
# tetrahedra gives 2.41, N = 3 3.14; one level further 3.07 and 3.96)
INS3D_SPACE = {
    2: {"hexahedron": (0, 1), "tetrahedron": (1, 2)},
    3: {"hexahedron": (0, 1), "tetrahedron": (1, 2)},
}


def ins3d_space_test(shape, order, extra=()):
    def f():
        eu, ep = [], []
        for lev in INS3D_SPACE[order][shape]:
            s = ins3d_summary(run(BELTRAMI + ["-order", str(order)] + ins3d_mesh(shape, lev) + BELTRAMI_TIME + list(extra))[1])
            check(s["shape"] == shape, "ran on %s" % s["shape"])
            eu.append(float(s["L2"]))
            ep.append(s["L2_p"])
        ru, rp = math.log2(eu[0] / eu[1]), math.log2(ep[0] / ep[1])
        check(ru >= order + 0.5, "%s N=%d: velocity rate %.2f below N + 0.5 (errors %s)" % (shape, order, ru, eu))
        check(rp >= order - 0.5, "%s N=%d: pressure rate %.2f below N - 0.5 (errors %s)" % (shape, order, rp, ep))
        return "velocity %s rate %.2f, pressure %s rate %.2f" % (" ".join("%.2e" % e for e in eu), ru, " ".join("%.2e" % e for e in ep), rp)
    return f


for _shape in ("hexahedron", "tetrahedron"):
    for _order in (2, 3):
        test("ins3d/beltrami/space/%s/N%d" % (_shape, _order))(ins3d_space_test(_shape, _order))
# an outflow face (the top: exact pressure and du/dn; the pressure is no longer up to a constant)
test("ins3d/beltrami/space-outflow/hexahedron/N3")(ins3d_space_test("hexahedron", 3, ["-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"]))


@test("ins3d/beltrami/components-symmetric")
def _():
    # the Beltrami flow is symmetric under the cyclic permutation x -> y -> z of the cube, and so is a
    # box of cubes: the three velocity components' errors agree to the solver tolerance
    s = ins3d_summary(run(BELTRAMI + ["-order", "3"] + ins3d_mesh("hexahedron", 0) + BELTRAMI_TIME)[1])
    e = (s["L2_u"], s["L2_v"], s["L2_w"])
    check(max(e) - min(e) <= 1e-6 * max(e), "component errors differ: %s" % (e,))
    return "L2_u %.9e L2_v %.9e L2_w %.9e" % e


@test("ins3d/beltrami/subcycling")
def _():
    # BDF2 with 4 LSERK4 subcycles per step against no subcycling, N = 3 hexahedra, dt = 5e-3 to t = 0.05:
    # both second order in time, the subcycled error within a factor 2 of the other
    base = BELTRAMI + ["-order", "3", "-ts_dt", "5e-3", "-ts_max_time", "0.05", "-ins_order", "2"] + ins3d_mesh("hexahedron", 0)
    s0 = ins3d_summary(run(base)[1])
    s4 = ins3d_summary(run(base + ["-ins_subcycles", "4"])[1])
    check(float(s4["L2"]) <= 2 * float(s0["L2"]) and float(s0["L2"]) < 1e-3, "Ns=4 %s vs Ns=0 %s" % (s4["L2"], s0["L2"]))
    return "velocity L2 at t = 0.05: Ns=0 %s, Ns=4 %s" % (s0["L2"], s4["L2"])


@test("ins3d/beltrami/tetrahedron-unstructured")
def _():
    # the unstructured Gmsh cube (390 tetrahedra) with outflow on the top face (pressure and
    # du/dn given there: the pressure is no longer fixed up to a constant)
    s = ins3d_summary(run(BELTRAMI + ["-order", "2", "-dm_plex_filename", "examples/meshes/cube_tet.msh", "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"] + BELTRAMI_TIME)[1])
    check(float(s["L2"]) < 2e-3 and s["L2_p"] < 0.1, "velocity %s pressure %s" % (s["L2"], s["L2_p"]))
    return "velocity L2 %s, pressure %.3e" % (s["L2"], s["L2_p"])


@test("ins3d/restart/bitwise")
def _():
    h5py = h5py_or_skip()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        base = BELTRAMI + ["-order", "2", "-ts_dt", "2e-3", "-ins_order", "3", "-ins_pressure_order", "2", "-ins_subcycles", "2"] + ins3d_mesh("hexahedron", 0)
        run(base + ["-ts_max_steps", "8", "-output_dir", tmp + "/a", "-checkpoint_interval", "8"])
        run(base + ["-ts_max_steps", "4", "-output_dir", tmp + "/b", "-checkpoint_interval", "4"])
        run(base + ["-ts_max_steps", "8", "-output_dir", tmp + "/b", "-checkpoint_interval", "8", "-restart", tmp + "/b/checkpoint.h5"])
        diffs = []
        with h5py.File(tmp + "/a/checkpoint.h5", "r") as fa, h5py.File(tmp + "/b/checkpoint.h5", "r") as fb:
            names = sorted(fa["vectors"].keys())
            check(names == sorted(fb["vectors"].keys()), "checkpoints hold different vectors")
            for want in ("u", "v", "w", "p", "ins_w_1", "ins_nw_2", "ins_p_1"):
                check(want in names, "checkpoint lacks %s: %s" % (want, names))
            for n in names:
                diffs.append(float(np.abs(fa["vectors"][n][()] - fb["vectors"][n][()]).max()))
        check(max(diffs) == 0.0, "restart not bitwise: max differences %s over %s" % (diffs, names))
        return "8 steps = 4 + 4 bitwise: %s" % ", ".join(names)


@test("ins3d/output/fields-and-monitors")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        run(BELTRAMI[:3] + ["-order", "2", "-ts_dt", "1e-3", "-ts_max_steps", "2", "-output_dir", tmp, "-output_interval", "2", "-progress_interval", "-1"] + ins3d_mesh("hexahedron", 0))
        xmf = open(os.path.join(tmp, "beltrami.xmf")).read()
        for name in ("u", "v", "w", "p", "vorticity", "vorticity_x", "vorticity_y", "vorticity_z"):
            check('Name="%s"' % name in xmf, "field %s missing from the XDMF series" % name)
        rows = list(_csv.reader(open(os.path.join(tmp, "monitors.csv"))))
        check(rows[0][:6] == ["step", "time", "dt", "L2_error_velocity", "L2_error_pressure", "kinetic_energy"] and len(rows) == 4, "monitors.csv: %s" % rows[:2])
        ke0, ke2 = float(rows[1][5]), float(rows[3][5])
        check(3.0 < ke0 < 3.5 and ke2 < ke0, "kinetic energy %g -> %g" % (ke0, ke2))
        return "u v w p and the vorticity in %d time steps; kinetic energy %.6f -> %.6f" % (xmf.count("<Time "), ke0, ke2)


@test("ins3d/parallel/2-ranks")
def _():
    args = BELTRAMI + ["-order", "2", "-ts_dt", "1e-3", "-ts_max_steps", "4", "-ins_subcycles", "1"] + ins3d_mesh("hexahedron", 1)
    s1 = ins3d_summary(run(args)[1])
    s2 = ins3d_summary(run(MPIEXEC + ["2"] + args)[1])
    check(abs(float(s1["L2"]) - float(s2["L2"])) <= 1e-7 * float(s1["L2"]) and abs(s1["L2_p"] - s2["L2_p"]) <= 1e-6 * s1["L2_p"], "1 vs 2 ranks: %s / %s" % (s1, s2))
    return "L2 %s / %s, L2_p %.9e / %.9e" % (s1["L2"], s2["L2"], s1["L2_p"], s2["L2_p"])


test("errors/ins3d-prisms")(error_test(["-problem", "beltrami", "-dm_plex_filename", "examples/meshes/cube_prism.msh", "-ts_max_steps", "1"], r"Mesh \S+ has prisms; hoflow's incompressible flow operators run on triangles, quadrilaterals, tetrahedra and hexahedra"))
test("errors/ins3d-order")(error_test(["-problem", "beltrami", "-order", "9", "-dm_plex_filename", "examples/meshes/cube_tet_structured.msh", "-ts_max_steps", "1"], r"-order 9: hoflow's incompressible flow operators on tetrahedron run N = 1\.\.8"))
test("errors/ins3d-beltrami-on-2d-mesh")(error_test(["-problem", "beltrami", "-dm_plex_box_faces", "2,2", "-ts_max_steps", "1"], r"Problem beltrami is 3D but mesh \S+ is 2-dimensional: give a 3D mesh \(a box: -dm_plex_dim 3\)"))
test("errors/ins3d-taylor-vortex-on-3d-mesh")(error_test(["-problem", "taylor_vortex", "-dm_plex_filename", "examples/meshes/cube_hex.msh", "-ts_max_steps", "1"], r"Problem taylor_vortex is 2D but mesh \S+ is 3-dimensional: give a 2D mesh"))


# ---------------------------------------------------------------- GPU (make test-gpu)
def gpu_ins3d_kernel_test(shape, order):
    """The incompressible-flow CUDA kernels (advection, subcycling advection, gradient, increment
    gradient, divergence, face data) against their host twins on a 3D mesh with Dirichlet and outflow faces."""
    def f():
        gpu_or_skip()
        mesh = {"tetrahedron": ["-dm_plex_filename", "examples/meshes/cube_tet.msh"], "hexahedron": ["-dm_plex_dim", "3", "-dm_plex_box_faces", "4,3,3"]}[shape]
        _, out = run([TEST_GPU, "-order", str(order), "-bc_dirichlet", "left,right,front,back,bottom", "-bc_neumann", "top"] + mesh)
        m = re.search(r"gpu-ins: .*", out)
        check(m and "skipped" not in m.group(0), "no incompressible-flow result line:\n" + out[-1000:])
        ins = dict(re.findall(r"(\w+) (\S+)", m.group(0)))
        check(set(ins) == {"advection", "subcycle", "gradient", "gradient_increment", "divergence", "facedata", "newdata", "ins_repeat"}, "unexpected line: %s" % ins)
        for k, v in ins.items():
            check(float(v) <= (0.0 if k == "ins_repeat" else 1e-14), "CUDA %s differs from the host kernel: %s" % (k, v))
        return " ".join("%s %.1e" % (k, float(v)) for k, v in ins.items())
    return f


for _shape in ("tetrahedron", "hexahedron"):
    for _order in range(1, 9):
        test("gpu/ins3d/kernels/%s/N%d" % (_shape, _order), gpu=True)(gpu_ins3d_kernel_test(_shape, _order))


def gpu_ins3d_run_test(shape):
    def f():
        gpu_or_skip()
        args = BELTRAMI + ["-order", "4", "-ts_dt", "1e-3", "-ts_max_steps", "10", "-ins_subcycles", "2", "-vel_ksp_rtol", "1e-12", "-pres_ksp_rtol", "1e-12"] + ins3d_mesh(shape, 1)
        sh = ins3d_summary(run(args)[1])
        sd = ins3d_summary(run(args + ["-dm_vec_type", "cuda"])[1])
        check(abs(float(sh["L2"]) - float(sd["L2"])) <= 1e-6 * float(sh["L2"]) and abs(sh["L2_p"] - sd["L2_p"]) <= 1e-6 * sh["L2_p"], "host %s vs device %s" % (sh, sd))
        return "L2 %s / %s, L2_p %.9e / %.9e" % (sh["L2"], sd["L2"], sh["L2_p"], sd["L2_p"])
    return f


for _shape in ("tetrahedron", "hexahedron"):
    test("gpu/ins3d/beltrami-host-vs-device/%s" % _shape, gpu=True)(gpu_ins3d_run_test(_shape))
