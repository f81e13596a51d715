# hoflow test suite: compressible Navier-Stokes with flux reconstruction (-disc fr, the corrected-gradient viscous
# terms of seed 003 §II, hoflow/pointwise/ldg.h). exec()'d by tests/run.py into its globals. Not compared with -disc
# mdg: its BR2 is another viscous scheme (the errors are close, not equal). Couette flow (problem couette, Re 2,
# explicit SSP-RK3 from the exact steady state: the error converges like the steady scheme's) on the non-periodic
# boxes of scripts/periodic_mesh.py --box (x and z sides free-stream faces with the exact state, isothermal plates
# y = 0 and y = 2, wall temperatures 0.6 and 1.0 T_inf); the full study (N = 1..4, three levels) is
# scripts/fr_study.py --case couette, bench/results/cpu_2026-11-26_fr_ns_study_*.csv.
FR_NS_MESHES = os.path.join(ROOT, "output", "test-meshes")
FR_COUETTE = ["-problem", "couette", "-disc", "fr", "-couette_reynolds", "2", "-couette_wall_temperatures", "0.6,1.0", "-ts_max_time", "1",
              "-bc_no_slip_isothermal", "front,back", "-bc_freestream", "left,right,bottom,top", "-monitor_file", "none", "-progress_interval", "-1"]


def fr_ns_box(shape, n):
    os.makedirs(FR_NS_MESHES, exist_ok=True)
    m = 2 if shape == "mixed" else 1
    path = os.path.join(FR_NS_MESHES, "couette_%s_%d.msh" % (shape, n))
    if not os.path.exists(path):
        run([sys.executable, os.path.join(ROOT, "scripts", "periodic_mesh.py"), "--shape", shape, "--box", "%d,%d,%d" % (m, n, m), "--upper", "%d,2,%d" % (m, m), "-o", path])
    return path


def fr_ns_rates(shape, levels):
    """levels {N: (n1, n2, ...)}: density L2 errors, every rate >= N + 0.7 (h = 2/n)"""
    def f():
        out = []
        for N, ns in sorted(levels.items()):
            err = [float(summary(run([HOFLOW] + FR_COUETTE + ["-order", str(N), "-dm_plex_filename", fr_ns_box(shape, n)], timeout=600)[1])["L2_density"]) for n in ns]
            rates = [math.log(err[i] / err[i + 1]) / math.log(ns[i + 1] / ns[i]) for i in range(len(ns) - 1)]
            check(all(r >= N + 0.7 for r in rates), "%s N = %d: density L2 %s on n = %s, rates %s (need >= %.1f)" % (shape, N, err, ns, rates, N + 0.7))
            out.append("N=%d %s rates %s" % (N, " ".join("%.3e" % e for e in err), " ".join("%.2f" % r for r in rates)))
        return "; ".join(out)
    return f


# the last two levels of the study (2026-11-26, this VM): hex 2.13, 2.81, 3.73, 4.86; prism N = 3 3.80; tet N = 2 2.75 (n = 4, 8), mixed N = 2 (n = 4, 8)
test("fr/navier-stokes/couette/hexahedron-rates")(fr_ns_rates("hex", {1: (16, 32), 2: (8, 16), 3: (4, 8), 4: (4, 8)}))
test("fr/navier-stokes/couette/prism-rates")(fr_ns_rates("prism", {3: (2, 4)}))
test("fr/navier-stokes/couette/tetrahedron-rates")(fr_ns_rates("tet", {2: (4, 8)}))
test("fr/navier-stokes/couette/mixed-rates")(fr_ns_rates("mixed", {2: (4, 8)}))


@test("fr/navier-stokes/couette/adiabatic-wall")
def _():
    """2D Couette with the top plate adiabatic (-couette_adiabatic_top: T = T_0 + Pr U^2/(2 c_p) eta (2 - eta)), Ma 0.5,
    quadrilaterals periodic in x, N = 2 to t = 5: the last rate >= 2.7 (2026-11-26: 2.783722e-05, 5.434444e-06,
    8.087600e-07: 2.36, 2.75; the first version penalized the energy's jump at the adiabatic wall, a heat flux of
    O(h^N): rate 2.0 and an error growing in time)."""
    err = []
    for n in (4, 8, 16):
        s = summary(run([HOFLOW, "-problem", "couette", "-disc", "fr", "-order", "2", "-couette_reynolds", "2", "-couette_mach", "0.5", "-couette_adiabatic_top", "-ts_max_time", "5",
                         "-dm_plex_simplex", "0", "-dm_plex_box_upper", "4,2", "-dm_plex_box_bd", "periodic,none", "-dm_plex_box_faces", "%d,%d" % (n, n // 2), "-monitor_file", "none"])[1])
        err.append(float(s["L2_density"]))
    rates = [math.log(err[i] / err[i + 1]) / math.log(2) for i in range(2)]
    check(rates[-1] >= 2.7 and err[-1] < 1.5e-6, "density L2 %s, rates %s (need the last >= 2.7)" % (err, rates))
    return "density L2 %s, rates %.2f %.2f" % (" ".join("%.3e" % e for e in err), rates[0], rates[1])


test("fr/navier-stokes/errors/two-ranks-halo-elements")(error_test(["-problem", "couette", "-disc", "fr", "-order", "1", "-dm_plex_box_faces", "8,4", "-dm_plex_box_upper", "4,2", "-dm_plex_box_bd", "periodic,none", "-ts_max_steps", "1", "-fr_halo", "elements"],
                                                                  r"-disc fr with physics navier_stokes on several ranks needs -fr_halo traces", mpi=2))
test("fr/navier-stokes/errors/beta")(error_test(["-problem", "couette", "-disc", "fr", "-order", "1", "-fr_viscous_beta", "0.7", "-ts_max_steps", "1"], r"-fr_viscous_beta 0\.7: give a value in \[-0\.5, 0\.5\]"))


# ---- the viscous terms on the GPU (cuda/fr_viscous.cu; the face kernel of cuda/fr.cu, the element speeds)
@test("fr/navier-stokes/cuda/emulated")
def _():
    """The CUDA kernels of the viscous terms (cuda/fr_viscous.cu: V1..V3 fused for tensor and dense FR, dense FR's
    viscous face kernel; cuda/fr.cu's face kernel with the viscous common flux; the element speeds with the diffusive
    part), run on the CPU by tests/emu's stand-in runtime (scripts/check-fr-viscous-cuda-emu.sh: 32 threads a block
    for the new kernels, barriers, elements a block 1, 3 and the default), equal their host twins exactly on Couette
    flow (isothermal walls, free-stream faces; an adiabatic wall in 2D): hexahedra N = 1..5, 8 and 9 (the run-time
    sizes), quadrilaterals, triangles, the triangle/quadrilateral mesh, tetrahedra, prisms and the mixed mesh N = 1..5
    (some), tetrahedra N = 6; several ranks (-fr_halo traces: the halo elements' traces and gradient traces, the
    gradient traces' kernels): hexahedra N = 3 on 2 ranks, the mixed mesh N = 2 on 3. A kernel that skips half the
    points of the dense gradient traces fails it (checked by hand: gradient inf)."""
    code, out = run(["sh", "scripts/check-fr-viscous-cuda-emu.sh"], expect_ok=False, timeout=900)
    check(code == 0 and "check-fr-viscous-cuda-emu: the viscous CUDA kernels equal the host twins exactly" in out, "the emulated viscous CUDA kernels differ from the host twins:\n" + out[-2500:])
    cases = re.findall(r"(\d+) of (\d+) exact", out)
    check(len(cases) == 30 and all(a == b and int(b) > 0 for a, b in cases), "unexpected case lines:\n" + out[-2500:])
    return "%d cases, %d kernel sets exact" % (len(cases), sum(int(b) for _, b in cases))


TEST_FR_VISCOUS_KERNELS = os.path.join(ROOT, "build", "tests", "test_fr_viscous_kernels")
FR_NS_KERNEL_3D = ["-problem", "couette", "-couette_reynolds", "2", "-couette_wall_temperatures", "0.6,1.0", "-bc_no_slip_isothermal", "front,back", "-bc_freestream", "left,right,bottom,top"]
FR_NS_KERNEL_2D = ["-problem", "couette", "-couette_reynolds", "2", "-couette_mach", "0.5", "-couette_adiabatic_top", "-dm_plex_box_upper", "4,2", "-dm_plex_box_bd", "periodic,none", "-dm_plex_box_faces", "4,2"]


def fr_ns_kernel_cases(shape):
    """(label, flux, args) of the viscous kernel tests of a shape: Couette flow on the box meshes of fr_ns_box (n = 2,
    written when the test runs), in 2D the periodic box with an adiabatic top plate"""
    if shape == "quadrilateral":
        return [("adiabatic", "hllc", FR_NS_KERNEL_2D + ["-dm_plex_simplex", "0"])]
    if shape == "triangle":  # (PETSc's box has no periodic simplices: the committed triangle mesh, periodic in x; with quadrilaterals)
        return [("adiabatic", "roe", ["-problem", "couette", "-couette_reynolds", "2", "-couette_mach", "0.5", "-couette_adiabatic_top", "-dm_plex_filename", "examples/meshes/couette.msh"]),
                ("triangle-quadrilateral", "hllc", ["-problem", "couette", "-couette_reynolds", "2", "-dm_plex_filename", "examples/meshes/couette_mixed.msh"])]
    mesh = {"hexahedron": "hex", "tetrahedron": "tet", "prism": "prism", "mixed": "mixed"}[shape]
    return [("isothermal", "roe", FR_NS_KERNEL_3D + ["-dm_plex_filename", fr_ns_box(mesh, 2)]),
            ("isothermal-ldg", "rusanov", FR_NS_KERNEL_3D + ["-dm_plex_filename", fr_ns_box(mesh, 2), "-fr_viscous_beta", "0.5"])]


def fr_ns_gpu_kernel_test(shape, order):
    """The viscous kernels on the GPU (V1..V3 fused: u_I - u-, the corrected gradients, the viscous volume part and
    traces; the face kernel with the viscous common flux; the element speeds with the diffusive part) equal their host
    twins to 1e-13 relative on the same input (elements a block 1, 3 and the default), and so does the whole right-hand
    side on CUDA vectors (ConsLawRHS), central and one-sided (LDG) interface treatment."""
    def f():
        gpu_or_skip()
        worst = {}
        for label, flux, args in fr_ns_kernel_cases(shape):
            _, out = run([TEST_FR_VISCOUS_KERNELS, "-disc", "fr", "-order", str(order), "-test_flux", flux] + args)
            m = re.search(r"^gpu state (\S+) gradient (\S+) volume (\S+) trace (\S+) face (\S+) wave_speed (\S+) rhs (\S+)", out, re.M)
            check(m, "no result line:\n" + out[-1500:])
            for k, v in zip(("state", "gradient", "volume", "trace", "face", "wave_speed", "rhs"), (float(v) for v in m.groups())):
                check(v <= 1e-13, "%s N = %d %s: CUDA %s differs from its host twin by %g (relative)" % (shape, order, label, k, v))
                worst[k] = max(worst.get(k, 0.0), v)
        return ", ".join("%s %.1e" % kv for kv in worst.items())
    return f


for _shape in ("quadrilateral", "hexahedron", "triangle", "tetrahedron", "prism", "mixed"):
    for _order in range(1, 6):
        test("gpu/fr/viscous/kernels/%s/N%d" % (_shape, _order), gpu=True)(fr_ns_gpu_kernel_test(_shape, _order))


def fr_ns_gpu_run(shape, order, extra=()):
    """A whole Couette run on CUDA vectors (SSP-RK3, the CFL step with the diffusive part) against the host run: the
    same steps, the final monitors to 1e-10 relative (fr_gpu_run_test of suite_fr.py) on the box mesh of fr_ns_box"""
    def f():
        gpu_or_skip()
        args = FR_NS_KERNEL_3D + ["-order", str(order), "-ts_max_time", "0.2", "-dm_plex_filename", fr_ns_box(shape, 4)] + list(extra)
        return fr_gpu_run_test(args, ["L2_error_density", "mass", "energy"])()
    return f


test("gpu/fr/viscous/run/couette-hexahedron-N3", gpu=True)(fr_ns_gpu_run("hex", 3))
test("gpu/fr/viscous/run/couette-hexahedron-N2-lserk4", gpu=True)(fr_ns_gpu_run("hex", 2, ["-ts_type", "rk", "-ts_rk_type", "lserk4"]))
test("gpu/fr/viscous/run/couette-tetrahedron-N2", gpu=True)(fr_ns_gpu_run("tet", 2))
test("gpu/fr/viscous/run/couette-prism-N3", gpu=True)(fr_ns_gpu_run("prism", 3))
test("gpu/fr/viscous/run/couette-mixed-N2", gpu=True)(fr_ns_gpu_run("mixed", 2))


FR_TGV = [HOFLOW, "-options_file", "options/taylor_green_fr.yaml", "-dm_plex_box_faces", "4,4,4", "-order", "2", "-ts_max_time", "1", "-monitor_interval", "1", "-progress_interval", "-1"]


@test("fr/navier-stokes/taylor-green/tiny")
def _():
    """The compressible Taylor-Green vortex (Re 1600, Ma 0.1, options/taylor_green_fr.yaml) at a tiny size (4^3 hexahedra,
    N = 2, LSERK4 at CFL 0.5) to t = 1: the mean kinetic energy starts at 1/8 (the isothermal start), decays
    monotonically, and ends within 1 % of the 512^3 spectral DNS's E(1) = 0.124515 (bench/reference; 2026-11-26:
    0.123740, -0.62 %, the 12 points a period dissipate more); -dE/dt (the monitor dissipation) positive, and equal
    to the energy's differences; the enstrophy form 2 nu eps from the corrected gradients at t = 0 within 0.5 % of the
    exact 2 nu 3/8 (2026-11-26: -0.12 %) and at t = 1 within 10 % of the DNS's (+3.2 %)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = run(FR_TGV + ["-output_dir", tmp])[1]
        with open(os.path.join(tmp, "monitors.csv")) as fh:
            rows = list(csv.DictReader(fh))
    t = [float(r["time"]) for r in rows]
    e = [float(r["kinetic_energy"]) for r in rows]
    d = [float(r["dissipation"]) for r in rows[1:]]
    check(abs(e[0] - 0.125) < 1e-12, "E(0) = %.15g, expected 0.125" % e[0])
    check(all(e[k + 1] < e[k] for k in range(len(e) - 1)), "the kinetic energy does not decay monotonically")
    check(abs(t[-1] - 1) < 1e-12 and abs(e[-1] / 0.124515267367 - 1) < 1e-2, "E(%g) = %.6e, the reference 0.124515 (need within 1 %%)" % (t[-1], e[-1]))
    check(all(v > 0 for v in d) and abs(d[-1] - (e[-2] - e[-1]) / (t[-1] - t[-2])) < 1e-12, "-dE/dt %s" % d[-3:])
    z = [float(r["enstrophy_dissipation"]) for r in rows]
    check(abs(z[0] / (2 * 0.375 / 1600) - 1) < 5e-3, "2 nu eps(0) = %.6e, exact 2 nu 3/8 = 4.6875e-4 (need within 0.5 %%)" % z[0])
    check(abs(z[-1] / 5.18819e-4 - 1) < 0.1, "2 nu eps(1) = %.6e, the DNS's 5.188e-4 (need within 10 %%)" % z[-1])
    return "%d steps, E(1) %.6e (%.2f %% from the DNS), -dE/dt(1) %.3e, 2 nu eps(0) %.5e (%.2f %%), 2 nu eps(1) %.4e (DNS 5.188e-4)" % (
        len(rows) - 1, e[-1], 100 * (e[-1] / 0.124515267367 - 1), d[-1], z[0], 100 * (z[0] / (2 * 0.375 / 1600) - 1), z[-1])


test("gpu/fr/viscous/run/taylor-green-N2", gpu=True)(lambda: fr_gpu_run_test(
    ["-problem", "taylor_green_compressible", "-order", "2", "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-ts_max_time", "0.5", "-dm_plex_dim", "3", "-dm_plex_simplex", "0",
     "-dm_plex_box_faces", "6,6,6", "-dm_plex_box_upper", "6.283185307179586,6.283185307179586,6.283185307179586", "-dm_plex_box_bd", "periodic,periodic,periodic"], ["kinetic_energy", "dissipation", "enstrophy_dissipation"])())


# several ranks (-fr_halo traces: the traces and the gradient traces of the partition faces exchanged on the device): the
# device on 2 ranks sharing one GPU against the host on one (the strategies on 2 ranks: gpu/fr/exchange/navier-stokes-*)
test("gpu/fr/viscous/run/taylor-green-N2-2-ranks", gpu=True)(lambda: fr_gpu_run_test(
    ["-problem", "taylor_green_compressible", "-order", "2", "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-ts_max_time", "0.5", "-dm_plex_dim", "3", "-dm_plex_simplex", "0",
     "-dm_plex_box_faces", "6,6,6", "-dm_plex_box_upper", "6.283185307179586,6.283185307179586,6.283185307179586", "-dm_plex_box_bd", "periodic,periodic,periodic"], ["kinetic_energy", "enstrophy_dissipation"], ranks=2)())
