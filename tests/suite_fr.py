# hoflow test suite: flux reconstruction (-disc fr, hoflow/fr.h) for the Euler equations on quadrilaterals and
# hexahedra. exec()'d by tests/run.py into its globals (test, run, check, summary, Failure, Skip, ROOT).
TEST_FR = os.path.join(ROOT, "build", "tests", "test_fr")
FR = [HOFLOW, "-disc", "fr", "-monitor_file", "none"]


@test("fr/vcjh-correction-functions")
def _():
    """The 1D VCJH correction functions for N = 1..6 and c_DG, c_SD, c_HU, c_+: g_L(-1) = 1, g_L(1) = 0 (g_R
    mirrored) and the VCJH condition int g l' = c l^(N) g^(N+1) for l = P_0..P_N, to round-off; eta_N of
    c_SD and c_HU equal to N/(N+1) and (N+1)/N."""
    _, out = run([TEST_FR])
    lines = re.findall(r"^N \d+ correction (\w+) c \S+ ends (\S+) vcjh (\S+)$", out, re.M)
    check(len(lines) == 23, "expected 23 (N, correction) lines (6 x dg, sd, hu; plus from N = 2):\n" + out)
    m = re.search(r"^worst ends (\S+) vcjh (\S+) eta (\S+)$", out, re.M)
    check(m, "no summary line:\n" + out)
    ends, vcjh, eta = (float(v) for v in m.groups())
    check(ends < 1e-13 and vcjh < 1e-13 and eta < 1e-14, "end values off by %g, VCJH condition by %g, eta_N by %g (expected round-off)\n%s" % (ends, vcjh, eta, out))
    return "ends %.1e, VCJH condition %.1e, eta %.1e (N = 1..6, dg/sd/hu/plus)" % (ends, vcjh, eta)


def fr_run(args, expect_ok=True):
    code, out = run(FR + args, expect_ok=expect_ok)
    if not expect_ok:
        return code, out
    s = summary(out)
    for k in ("L2_density", "conservation", "time"):
        s[k] = float(s[k])
    return s


def fr_vortex_rate_test(order, sizes, extra=()):
    """Isentropic vortex on periodic quadrilaterals to t = 0.05 (HLLC flux, SSP-RK 10-stage 4th order, CFL 0.5),
    as euler/vortex/*: density L2 errors on three meshes, the last rate >= N + 0.7; mass, momentum and energy
    conserved to round-off."""
    def f():
        errs, hs, drift = [], [], 0.0
        for n in sizes:
            s = fr_run(["-problem", "isentropic_vortex", "-order", str(order), "-ts_max_time", "0.05", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc",
                        "-dm_plex_box_faces", "%d,%d" % (n, n), "-dm_plex_box_bd", "periodic,periodic"] + list(extra))
            check(abs(s["time"] - 0.05) < 1e-12, "final time %g, expected 0.05" % s["time"])
            errs.append(s["L2_density"])
            hs.append(s["h"])
            drift = max(drift, s["conservation"])
        rates = [math.log(errs[i] / errs[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(len(errs) - 1)]
        check(rates[-1] >= order + 0.7, "N = %d: density L2 errors %s, rates %s; expected the last >= %.1f" % (order, errs, rates, order + 0.7))
        check(drift < 1e-12, "conservation drift %g on a periodic mesh (expected round-off)" % drift)
        return "errors %s rates %s conservation %.1e" % (" ".join("%.3e" % e for e in errs), " ".join("%.2f" % r for r in rates), drift)
    return f


for _order, _sizes in ((1, (16, 32, 64)), (2, (8, 16, 32)), (3, (8, 16, 32)), (4, (8, 16, 32))):
    test("fr/vortex/quadrilateral/N%d" % _order)(fr_vortex_rate_test(_order, _sizes))


@test("fr/vortex/quadrilateral/N3-corrections")
def _():
    """The VCJH corrections at N = 3 (the vortex on 16 and 32 quadrilaterals a side): every one converges at rate
    >= N (c > 0 approaches N + 1 slowly: at 32 -> 64 c_SD gives 3.73, c_HU 3.67, c_+ 3.57), conserves to
    round-off, and the error grows with c (c_DG < c_SD < c_HU < c_+), as Vincent, Castonguay & Jameson report."""
    res = []
    for corr in ("dg", "sd", "hu", "plus"):
        errs = []
        for n in (16, 32):
            s = fr_run(["-problem", "isentropic_vortex", "-order", "3", "-ts_max_time", "0.05", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc",
                        "-dm_plex_box_faces", "%d,%d" % (n, n), "-dm_plex_box_bd", "periodic,periodic", "-fr_correction", corr])
            check(s["conservation"] < 1e-12, "%s: conservation drift %g" % (corr, s["conservation"]))
            errs.append(s["L2_density"])
        rate = math.log(errs[0] / errs[1]) / math.log(2)
        check(rate >= 3.0, "-fr_correction %s: density L2 errors %s, rate %.2f (expected >= N = 3)" % (corr, errs, rate))
        res.append((corr, errs[1], rate))
    check(all(res[i][1] < res[i + 1][1] for i in range(3)), "errors at 32 x 32 not increasing with c: %s" % res)
    return ", ".join("%s %.3e (rate %.2f)" % r for r in res)


@test("fr/vortex/parallelogram/N3")
def _():
    """Sheared affine quadrilaterals (examples/meshes/periodic_parallelogram.geo: every cell the same
    parallelogram, so the metric has dr/dy != 0, periodic by (1,0) and (1,1)): the vortex at N = 3 on 8, 16, 32
    cells a side converges at >= N + 0.7, with errors within 20 % of modal DG's on the same meshes."""
    errs, hs, ref = [], [], []
    for level in (0, 1, 2):
        mesh = ["-problem", "isentropic_vortex", "-order", "3", "-ts_max_time", "0.05", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc",
                "-dm_plex_filename", "examples/meshes/periodic_parallelogram.msh", "-dm_refine", str(level)]
        s = fr_run(mesh)
        check(s["conservation"] < 1e-12, "conservation drift %g" % s["conservation"])
        errs.append(s["L2_density"])
        hs.append(s["h"])
        ref.append(euler_run(mesh)["L2_density"])  # modal DG (suite_euler.py's helper)
    rates = [math.log(errs[i] / errs[i + 1]) / math.log(hs[i] / hs[i + 1]) for i in range(2)]
    check(rates[-1] >= 3.7, "parallelograms: density L2 errors %s, rates %s; expected the last >= 3.7" % (errs, rates))
    check(errs[-1] < 1.2 * ref[-1], "parallelograms: FR error %g against modal DG's %g" % (errs[-1], ref[-1]))
    return "errors %s rates %s (modal DG %s)" % (" ".join("%.3e" % e for e in errs), " ".join("%.2f" % r for r in rates), " ".join("%.3e" % e for e in ref))


@test("fr/boundaries")
def _():
    """Boundary faces: a uniform state with characteristic far-field boundaries on every side stays uniform to
    round-off (N = 3, 4 x 4), and Sod's shock tube (the problem's boundary types, N = 2, 32 x 2 cells, t = 0.05, no
    limiter) has a density L1 error within 10 % of modal DG's."""
    s = fr_run(["-problem", "freestream", "-order", "3", "-dm_plex_box_faces", "4,4", "-bc_farfield", "left,right,top,bottom", "-ts_max_steps", "20"])
    check(s["L2_density"] < 1e-13, "free stream with far-field boundaries: density error %g after 20 steps" % s["L2_density"])
    sod = ["-problem", "sod", "-order", "2", "-dm_plex_box_faces", "32,2", "-ts_max_time", "0.05"]
    f, m = fr_run(sod), euler_run(sod)
    check(abs(float(f["L1_density"]) / float(m["L1_density"]) - 1) < 0.1, "Sod: L1 density FR %s, modal DG %s" % (f["L1_density"], m["L1_density"]))
    return "free stream %.1e; Sod L1 %s (modal DG %s)" % (s["L2_density"], f["L1_density"], m["L1_density"])


@test("fr/hexahedron/columnar-vortex")
def _():
    """The isentropic vortex is a column in 3D (no z dependence, v_z = 0): on periodic hexahedra 16 x 16 x 3 the
    FR solution stays independent of z and its density errors equal the 2D ones on 16 x 16 quadrilaterals (the
    same step) to the summary's 7 digits, which checks the hexahedra's face points, their neighbours' lines and
    the 3D metric."""
    common = ["-problem", "isentropic_vortex", "-order", "2", "-ts_max_steps", "10", "-cfl", "0", "-ts_dt", "2e-4", "-ts_ssp_type", "rk104", "-euler_flux", "hllc"]
    s2 = fr_run(common + ["-dm_plex_box_faces", "16,16", "-dm_plex_box_bd", "periodic,periodic"])
    s3 = fr_run(common + ["-dm_plex_dim", "3", "-dm_plex_box_faces", "16,16,3", "-dm_plex_box_bd", "periodic,periodic,periodic"])
    # the 3D box is the unit cube: its norms over a unit depth equal the 2D ones (to the summary's 7 digits)
    rel = 0.0
    for k in ("L2_density", "L1_density"):
        a, b = float(s3[k]), float(s2[k])
        rel = max(rel, abs(a - b) / b)
    check(rel < 2e-7, "density errors 3D %s / %s, 2D %s / %s (L2 / L1): relative difference %g (expected equal to the printed digits)" % (s3["L2_density"], s3["L1_density"], s2["L2_density"], s2["L1_density"], rel))
    check(s3["conservation"] < 1e-12, "3D conservation drift %g" % s3["conservation"])
    return "L2 3D %.6e 2D %.6e, L1 3D %s 2D %s (relative %.1e), conservation %.1e" % (s3["L2_density"], s2["L2_density"], s3["L1_density"], s2["L1_density"], rel, s3["conservation"])


@test("fr/mpi/3-ranks-and-implicit")
def _():
    """The same run on 1 and 3 ranks (halo elements through the state's halo exchange) gives the same error (to the
    summary's 7 digits);
    an implicit step (backward Euler, Newton with the colored finite-difference Jacobian of the conservation-law
    layer, LU) runs on -disc fr through the same interface."""
    args = ["-problem", "isentropic_vortex", "-order", "2", "-dm_plex_box_faces", "8,8", "-dm_plex_box_bd", "periodic,periodic", "-ts_max_steps", "6"]
    s1 = fr_run(args)
    _, out = run([*MPIEXEC, "3"] + FR + args)
    s3 = summary(out)
    check(float(s3["L2_density"]) == s1["L2_density"], "L2_density 1 rank %.6e, 3 ranks %s (expected equal to the printed digits)" % (s1["L2_density"], s3["L2_density"]))
    si = fr_run(["-problem", "isentropic_vortex", "-order", "2", "-dm_plex_box_faces", "8,8", "-dm_plex_box_bd", "periodic,periodic", "-ts_type", "beuler", "-cfl", "0", "-ts_dt", "1e-3",
                 "-ts_max_steps", "2", "-pc_type", "lu", "-snes_rtol", "1e-10"])
    check(abs(si["time"] - 2e-3) < 1e-14 and si["L2_density"] < 1e-2, "implicit steps: time %g, L2_density %g" % (si["time"], si["L2_density"]))
    return "L2_density %.6e on 1 and 3 ranks; 2 backward Euler steps: %.6e" % (s1["L2_density"], si["L2_density"])


test("fr/errors/limiter")(error_test(["-disc", "fr", "-problem", "isentropic_vortex", "-order", "2", "-dm_plex_box_faces", "4,4", "-dm_plex_box_bd", "periodic,periodic", "-euler_limiter", "barth_jespersen"],
                                     r"Discretization -disc fr does not provide limiters \(-euler_limiter, -euler_positivity\)"))
test("fr/errors/cplus-N1")(error_test(["-disc", "fr", "-problem", "isentropic_vortex", "-order", "1", "-dm_plex_box_faces", "4,4", "-dm_plex_box_bd", "periodic,periodic", "-fr_correction", "plus"],
                                      r"-fr_correction plus: c_\+ is tabulated for N = 2\.\.6 only"))
test("fr/errors/not-a-conservation-law")(error_test(["-disc", "fr", "-problem", "poisson", "-order", "2", "-dm_plex_box_faces", "2,2"], r"-disc fr discretizes the Euler equations"))


# ---- linear advection (physics advection, -problem advection): FR against modal DG, and VCJH energy stability
import csv
import tempfile

ADVECTION = ["-problem", "advection", "-monitor_file", "none", "-progress_interval", "-1"]
ADVECTION_MESH = {2: ["-dm_plex_box_faces", "6,6", "-dm_plex_box_bd", "periodic,periodic"],
                  3: ["-dm_plex_dim", "3", "-dm_plex_box_faces", "3,3,3", "-dm_plex_box_bd", "periodic,periodic,periodic"]}


def advection_run(disc, args):
    s = summary(run([HOFLOW, "-disc", disc] + ADVECTION + args)[1])
    for k in ("L2_u", "L1_u", "energy", "conservation", "time"):
        s[k] = float(s[k])
    return s


def fr_equivalence_test(dim):
    """FR with c_DG equals modal DG for linear advection (upwind flux, exact quadrature: modal DG's cubature of
    degree 2N+1 on tensor cells is the (N+1)^dim Gauss points, FR's solution points): the same mesh, order and
    time steps (classical RK4 at a fixed dt, 20 steps) give the same L2 and L1 errors and the same L2 energy to
    1e-12 of the solution's norm (the errors are 1e-2..1e-5 of it, so their own relative difference is that much
    larger: 9e-12 at N = 4), N = 1..4. The initial states agree too: modal DG's L2 projection by that cubature is the
    projection of the Gauss interpolant, which is FR's initial state."""
    def f():
        worst = 0.0
        for order in (1, 2, 3, 4):
            args = ["-order", str(order), "-cfl", "0", "-ts_type", "rk", "-ts_rk_type", "4", "-ts_dt", "2e-3", "-ts_max_steps", "20", "-ts_max_time", "1"] + ADVECTION_MESH[dim]
            a, b = advection_run("fr", args + ["-fr_correction", "dg"]), advection_run("mdg", args)
            check(abs(a["time"] - 0.04) < 1e-12 and abs(b["time"] - 0.04) < 1e-12, "final times %g, %g (expected 0.04)" % (a["time"], b["time"]))
            for k, scale in (("L2_u", math.sqrt(b["energy"])), ("L1_u", math.sqrt(b["energy"])), ("energy", b["energy"])):
                rel = abs(a[k] - b[k]) / scale  # |e_fr - e_dg| <= ||u_fr - u_dg||: round-off is relative to ||u||, not to the error
                check(rel < 1e-12, "N = %d: FR %s %.15e, modal DG %.15e (difference %.1e relative to the solution's norm; expected round-off)" % (order, k, a[k], b[k], rel))
                worst = max(worst, rel)
            check(a["conservation"] < 1e-13, "N = %d: FR conservation drift %g" % (order, a["conservation"]))
        return "L2/L1 errors and energy agree to %.1e (N = 1..4)" % worst
    return f


test("fr/advection/equivalence-dg/quadrilateral")(fr_equivalence_test(2))
test("fr/advection/equivalence-dg/hexahedron")(fr_equivalence_test(3))


@test("fr/advection/energy-stability")
def _():
    """VCJH energy stability (Vincent, Castonguay & Jameson 2011): linear advection with the upwind flux on 3 x 3
    periodic quadrilaterals (the wave sin 4 pi x sin 4 pi y: under-resolved, so the high modes carry weight),
    N = 2..4, c = 0, c_SD, c_HU, c_+ and c_+/2 (-fr_c): the energy in the c-norm (ConsLawEnergy: J u^T (W x W) u
    per element, W = M + c K the 1D norm, K_ij = l_i^(N) l_j^(N)) never grows over 200 classical RK4 steps at
    CFL 0.1, to round-off (1e-14 relative per step), and decays. The same runs' plain L2 energy (energy_l2) does
    grow in some step for c_HU and c_+, so the check sees the norm (and would fail in the wrong one)."""
    cplus = {2: 1.86e-1, 3: 3.6746e-03, 4: 4.7857e-05}
    res = []
    for order in (2, 3, 4):
        for corr in (["-fr_correction", "dg"], ["-fr_correction", "sd"], ["-fr_correction", "hu"], ["-fr_correction", "plus"], ["-fr_c", "%.6e" % (cplus[order] / 2)]):
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "m.csv")
                run([HOFLOW, "-disc", "fr", "-problem", "advection", "-advection_wavenumber", "2", "-progress_interval", "-1", "-monitor_file", path, "-order", str(order),
                     "-ts_type", "rk", "-ts_rk_type", "4", "-cfl", "0.1", "-ts_max_steps", "200", "-ts_max_time", "10", "-dm_plex_box_faces", "3,3", "-dm_plex_box_bd", "periodic,periodic"] + corr)
                with open(path) as fh:
                    rows = list(csv.DictReader(fh))
            E = [float(r["energy_norm"]) for r in rows]
            L2 = [float(r["energy_l2"]) for r in rows]
            name = "N = %d %s" % (order, " ".join(corr))
            check(len(E) >= 200, "%s: %d monitor rows" % (name, len(E)))
            growth = max((E[i + 1] - E[i]) / E[i] for i in range(len(E) - 1))
            growth_l2 = max((L2[i + 1] - L2[i]) / L2[i] for i in range(len(L2) - 1))
            check(growth < 1e-14, "%s: the VCJH energy grows by %.2e relative in a step" % (name, growth))
            check(E[-1] < E[0] * (1 - 1e-6), "%s: the energy does not decay (%.15e -> %.15e)" % (name, E[0], E[-1]))
            if corr[-1] in ("hu", "plus"):
                check(growth_l2 > 1e-7, "%s: the plain L2 energy never grows (largest relative change per step %.2e): the test does not see the norm" % (name, growth_l2))
            res.append("N%d %s %.1e (L2 %.1e)" % (order, corr[-1], growth, growth_l2))
    return "largest relative change per step: " + ", ".join(res)


test("fr/errors/advection-limiter")(error_test(["-disc", "fr", "-problem", "advection", "-order", "2", "-euler_limiter", "barth_jespersen"], r"Physics advection has no limiter"))


@test("fr/non-affine/periodic-distorted")
def _():
    """Non-affine (bilinear) quadrilaterals (examples/meshes/periodic_distorted.geo: four transfinite patches meeting
    at a moved centre, 8 x 8 cells, periodic), the metric at every solution and face point: a uniform state (Mach
    0.5 at 17 degrees) stays uniform to round-off for N = 1..4 over 20 steps; linear advection with c_DG equals
    modal DG to round-off (modal DG's cubature of degree 2N+1 is again the Gauss points, and integrates its mass
    matrix with the bilinear J exactly), N = 1..4; the isentropic vortex at N = 3 on 8 and 16 cells a side gives
    modal DG's density errors to the summary's 7 digits. The free stream also on examples/meshes/cube_hex_distorted.msh
    (64 trilinear hexahedra, far-field faces), N = 1..3."""
    mesh = ["-dm_plex_filename", "examples/meshes/periodic_distorted.msh"]
    worst_fs, worst_eq = 0.0, 0.0
    for order in (1, 2, 3, 4):
        s = fr_run(["-problem", "freestream", "-order", str(order), "-bc_farfield", "none", "-freestream_angle", "17", "-ts_max_steps", "20"] + mesh)
        worst_fs = max(worst_fs, s["L2_density"], float(s["L1_density"]))
        args = ["-order", str(order), "-cfl", "0", "-ts_type", "rk", "-ts_rk_type", "4", "-ts_dt", "2e-3", "-ts_max_steps", "20", "-ts_max_time", "1"] + mesh
        a, b = advection_run("fr", args), advection_run("mdg", args)
        for k, scale in (("L2_u", math.sqrt(b["energy"])), ("L1_u", math.sqrt(b["energy"])), ("energy", b["energy"])):
            worst_eq = max(worst_eq, abs(a[k] - b[k]) / scale)
    check(worst_fs < 1e-14, "free stream on bilinear quadrilaterals: density errors up to %g (expected round-off)" % worst_fs)
    for order in (1, 2, 3):  # distorted hexahedra (trilinear; far-field faces on every side)
        s = fr_run(["-problem", "freestream", "-order", str(order), "-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_farfield", "left,right,front,back,bottom,top",
                    "-freestream_angle", "17", "-ts_max_steps", "10"])
        check(s["L2_density"] < 1e-14, "free stream on distorted hexahedra, N = %d: density L2 error %g" % (order, s["L2_density"]))
        worst_fs = max(worst_fs, s["L2_density"])
    check(worst_eq < 1e-12, "advection on bilinear quadrilaterals: FR and modal DG differ by %g of the solution's norm" % worst_eq)
    errs = []
    for level in (0, 1):
        vortex = ["-problem", "isentropic_vortex", "-order", "3", "-ts_max_time", "0.05", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc", "-dm_refine", str(level)] + mesh
        e_fr, e_dg = fr_run(vortex)["L2_density"], euler_run(vortex)["L2_density"]
        check(abs(e_fr - e_dg) <= 1e-6 * e_dg, "vortex, refinement %d: FR %g, modal DG %g" % (level, e_fr, e_dg))
        errs.append(e_fr)
    check(math.log(errs[0] / errs[1]) / math.log(2) > 3.5, "vortex on bilinear quadrilaterals: errors %s" % errs)
    return "free stream %.1e, FR = modal DG to %.1e (advection), vortex %s (modal DG's)" % (worst_fs, worst_eq, " ".join("%.3e" % e for e in errs))


@test("fr/euler/equivalence-dg")
def _():
    """FR with c_DG is modal DG for the Euler equations too (HLLC, nonlinear flux), not only for linear advection:
    on tensor cells modal DG's default cubature (degree 2N+1) is the (N+1)^dim Gauss rule, FR's solution points, so
    its volume and face integrals are those of the Gauss interpolant of the (transformed) flux, exact mass matrix
    included (the bilinear J makes the integrand degree 2N+1) -- Huynh's FR with c_DG. The isentropic vortex,
    20 steps at CFL 0.5: the density L2 error and the total energy of every step (the monitors, 17 digits) agree to
    1e-12 absolute (density ~ 1), N = 1..4 on 8 x 8 rectangles and N = 3 on the distorted periodic mesh."""
    cases = [(n, ["-dm_plex_box_faces", "8,8", "-dm_plex_box_bd", "periodic,periodic"]) for n in (1, 2, 3, 4)]
    cases.append((3, ["-dm_plex_filename", "examples/meshes/periodic_distorted.msh"]))
    worst = 0.0
    for order, mesh in cases:
        rows = {}
        for disc in ("fr", "mdg"):
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "m.csv")
                run([HOFLOW, "-disc", disc, "-problem", "isentropic_vortex", "-order", str(order), "-euler_flux", "hllc", "-ts_max_steps", "20", "-progress_interval", "-1",
                     "-monitor_file", path] + mesh)
                with open(path) as fh:
                    rows[disc] = list(csv.DictReader(fh))
        check(len(rows["fr"]) == len(rows["mdg"]) >= 20, "N = %d: %d and %d monitor rows" % (order, len(rows["fr"]), len(rows["mdg"])))
        for a, b in zip(rows["fr"], rows["mdg"]):
            for k in ("time", "L2_error_density", "energy"):
                worst = max(worst, abs(float(a[k]) - float(b[k])))
    check(worst < 1e-12, "FR (c_DG) and modal DG differ by %g in the Euler monitors" % worst)
    return "monitors agree to %.1e (N = 1..4 rectangles, N = 3 bilinear)" % worst
ADV_BAD = ["-problem", "advection", "-disc", "fr", "-order", "2", "-dm_plex_box_faces", "4,4", "-dm_plex_box_bd", "periodic,periodic"]
test("fr/errors/advection-flux")(error_test(ADV_BAD + ["-euler_flux", "roe"], r"Physics advection has its own upwind flux: -euler_flux is for the Euler equations"))
test("fr/errors/advection-means-file")(error_test(ADV_BAD + ["-euler_means_file", "means.bin"], r"-euler_means_file writes density and pressure means of the Euler equations; physics advection has one component"))


# ---------------------------------------------------------------- CUDA (cuda/fr.cu; --gpu)
TEST_FR_KERNELS = os.path.join(ROOT, "build", "tests", "test_fr_kernels")
FR_KERNEL_CASES = {  # (label, flux, options): interior faces (periodic: the owned neighbours' traces), boundaries, non-affine cells
    "quadrilateral": [("periodic", "hllc", ["-problem", "isentropic_vortex", "-dm_plex_box_faces", "5,4", "-dm_plex_box_bd", "periodic,periodic"]),
                      ("sod-boundaries", "roe", ["-problem", "sod", "-dm_plex_box_faces", "8,3"]),
                      ("bilinear", "rusanov", ["-problem", "isentropic_vortex", "-dm_plex_filename", "examples/meshes/periodic_distorted.msh"])],
    "hexahedron": [("periodic", "hllc", ["-problem", "isentropic_vortex", "-dm_plex_dim", "3", "-dm_plex_box_faces", "3,3,4", "-dm_plex_box_bd", "periodic,periodic,periodic"]),
                   ("trilinear-farfield", "roe", ["-problem", "freestream", "-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh", "-bc_farfield", "left,right,front,back,bottom,top"])],
}


def fr_kernel_numbers(args, ranks=1):
    _, out = run((MPIEXEC + [str(ranks)] if ranks > 1 else []) + [TEST_FR_KERNELS, "-disc", "fr"] + args)
    m = re.search(r"^gpu volume (\S+) trace (\S+) face (\S+) wave_speed (\S+) rhs (\S+)", out, re.M)
    check(m, "no result line:\n" + out[-1500:])
    return dict(zip(("volume", "trace", "face", "wave_speed", "rhs"), (float(v) for v in m.groups())))


def fr_gpu_kernel_test(shape, order):
    """Every CUDA kernel of FR (volume: the flux divergence and the traces; face: the common flux and the corrections;
    the element speeds) equals its host twin to 1e-13 relative on the same input (elements a block 1, 3 and the
    default), and so does the whole right-hand side on CUDA vectors (ConsLawRHS): interior, boundary and non-affine
    cases, three numerical fluxes."""
    def f():
        gpu_or_skip()
        worst = {}
        for label, flux, args in FR_KERNEL_CASES[shape]:
            nums = fr_kernel_numbers(["-order", str(order), "-test_flux", flux] + args)
            for k, v in nums.items():
                check(v <= 1e-13, "%s N = %d %s: CUDA %s differs from its host twin by %g (relative)" % (shape, order, label, k, v))
                worst[k] = max(worst.get(k, 0.0), v)
        return ", ".join("%s %.1e" % kv for kv in worst.items())
    return f


for _shape in ("quadrilateral", "hexahedron"):
    for _order in range(1, 9):
        test("gpu/fr/kernels/%s/N%d" % (_shape, _order), gpu=True)(fr_gpu_kernel_test(_shape, _order))


@test("gpu/fr/kernels/run-time-sizes-and-halo", gpu=True)
def _():
    """The kernels' run-time-size instantiation (linear advection, nv = 1; order 9 on quadrilaterals, above the
    compiled orders) and the halo neighbours of a 2-rank run (their u+ interpolated from the local array) equal the
    host twins to 1e-13."""
    gpu_or_skip()
    cases = [(1, ["-problem", "advection", "-order", "3", "-dm_plex_dim", "3", "-dm_plex_box_faces", "3,3,3", "-dm_plex_box_bd", "periodic,periodic,periodic"]),
             (1, ["-problem", "isentropic_vortex", "-order", "9", "-dm_plex_box_faces", "4,3", "-dm_plex_box_bd", "periodic,periodic"]),
             (2, ["-problem", "isentropic_vortex", "-order", "3", "-dm_plex_dim", "3", "-dm_plex_box_faces", "3,3,4", "-dm_plex_box_bd", "periodic,periodic,periodic"]),
             (2, ["-problem", "sod", "-order", "2", "-dm_plex_box_faces", "8,3"])]
    worst = 0.0
    for ranks, args in cases:
        nums = fr_kernel_numbers(args, ranks)
        for k, v in nums.items():
            check(v <= 1e-13, "%s (%d ranks): CUDA %s differs from its host twin by %g" % (" ".join(args), ranks, k, v))
            worst = max(worst, v)
    return "worst %.1e (advection, N = 9, 2 ranks)" % worst


def fr_monitor_rows(args, ranks=1):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.csv")
        out = run((MPIEXEC + [str(ranks)] if ranks > 1 else []) + FR[:-2] + args + ["-monitor_file", path, "-monitor_interval", "1000", "-progress_interval", "-1"])[1]
        with open(path) as fh:
            rows = list(csv.DictReader(fh))
    return summary(out), rows[-1]


def fr_gpu_run_test(args, columns, ranks=1):
    """A whole run on CUDA vectors (-dm_vec_type cuda: the right-hand side, the wave speeds and the TS's vector
    operations on the device; ranks > 1: the halo exchange of device vectors, the ranks sharing one GPU) ends where
    the host run on one rank ends: the same steps, and the final monitors (17 digits) equal to 1e-10 relative."""
    def f():
        gpu_or_skip()
        sh, rh = fr_monitor_rows(args)
        sd, rd = fr_monitor_rows(args + ["-dm_vec_type", "cuda"] + (["-gpu_shared"] if ranks > 1 else []), ranks)
        check(sh["steps"] == sd["steps"], "steps: host %s, device %s" % (sh["steps"], sd["steps"]))
        worst = 0.0
        for k in ["time"] + columns:
            a, b = float(rh[k]), float(rd[k])
            rel = abs(a - b) / max(abs(a), 1e-300)
            check(rel <= 1e-10, "%s: host %.17g, device %.17g (relative %g)" % (k, a, b, rel))
            worst = max(worst, rel)
        return "%s steps, %s host %.10e device %.10e, worst relative %.1e" % (sh["steps"], columns[0], float(rh[columns[0]]), float(rd[columns[0]]), worst)
    return f


test("gpu/fr/run/vortex-quadrilateral-N3", gpu=True)(fr_gpu_run_test(
    ["-problem", "isentropic_vortex", "-order", "3", "-ts_max_time", "0.05", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc", "-dm_plex_box_faces", "16,16", "-dm_plex_box_bd", "periodic,periodic"],
    ["L2_error_density", "mass", "energy"]))
test("gpu/fr/run/vortex-hexahedron-N3-lserk4", gpu=True)(fr_gpu_run_test(
    ["-problem", "isentropic_vortex", "-order", "3", "-ts_max_time", "0.02", "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-euler_flux", "roe", "-dm_plex_dim", "3", "-dm_plex_box_faces", "8,8,3", "-dm_plex_box_bd", "periodic,periodic,periodic"],
    ["L2_error_density", "mass", "energy"]))
test("gpu/fr/run/sod-N2", gpu=True)(fr_gpu_run_test(
    ["-problem", "sod", "-order", "2", "-ts_max_time", "0.05", "-dm_plex_box_faces", "32,2"], ["L2_error_density", "mass"]))
test("gpu/fr/run/advection-hexahedron-N4", gpu=True)(fr_gpu_run_test(
    ["-problem", "advection", "-order", "4", "-ts_max_steps", "20", "-dm_plex_dim", "3", "-dm_plex_box_faces", "4,4,4", "-dm_plex_box_bd", "periodic,periodic,periodic"], ["L2_error", "energy_norm"]))  # (the mass is 0 to round-off: no relative test)
test("gpu/fr/run/vortex-hexahedron-N2-2-ranks", gpu=True)(fr_gpu_run_test(
    ["-problem", "isentropic_vortex", "-order", "2", "-ts_max_time", "0.02", "-ts_ssp_type", "rk104", "-cfl", "0.5", "-euler_flux", "hllc", "-dm_plex_dim", "3", "-dm_plex_box_faces", "8,8,3", "-dm_plex_box_bd", "periodic,periodic,periodic"],
    ["L2_error_density", "mass", "energy"], ranks=2))


@test("fr/vortex/quadrilateral/N2-lserk4")
def _():
    """The low-storage RK of seed 003 (LSERK4, -ts_type rk -ts_rk_type lserk4: Carpenter & Kennedy, 5 stages, order 4)
    drives -disc fr: the vortex at N = 2 on 16 and 32 periodic quadrilaterals a side to t = 0.05 converges at >= N + 0.7
    and conserves to round-off."""
    errs, hs = [], []
    for n in (16, 32):
        s = fr_run(["-problem", "isentropic_vortex", "-order", "2", "-ts_max_time", "0.05", "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-euler_flux", "hllc",
                    "-dm_plex_box_faces", "%d,%d" % (n, n), "-dm_plex_box_bd", "periodic,periodic"])
        check(abs(s["time"] - 0.05) < 1e-12, "final time %g, expected 0.05" % s["time"])
        check(s["conservation"] < 1e-12, "conservation drift %g" % s["conservation"])
        errs.append(s["L2_density"])
        hs.append(s["h"])
    rate = math.log(errs[0] / errs[1]) / math.log(hs[0] / hs[1])
    check(rate >= 2.7, "LSERK4, N = 2: density L2 errors %s, rate %.2f (expected >= 2.7)" % (errs, rate))
    return "errors %s rate %.2f" % (" ".join("%.3e" % e for e in errs), rate)
test("fr/errors/elements-per-block")(error_test(ADV_BAD + ["-fr_elements_per_block", "-2"], r"-fr_elements_per_block -2: give 0 \(by order\) or a positive number"))


@test("fr/cuda/kernel-bodies-on-host")
def _():
    """The bodies of the CUDA kernels of FR (cuda/fr.cu), compiled as host C++ and run one thread a block
    (scripts/check-fr-cuda-host.sh), equal the host twins exactly: quadrilaterals and hexahedra N = 1, 2, 3, 5, 8,
    Sod's boundaries, non-affine cells, advection (the run-time sizes), 2 and 3 ranks (halo neighbours: -fr_halo traces,
    the halo elements' trace slots filled as the exchange fills them, and -fr_halo elements); elements a block 1, 3 and
    the default. Checks the kernels' indexing where there is no GPU; races and launches are gpu/fr's."""
    code, out = run(["sh", "scripts/check-fr-cuda-host.sh"], expect_ok=False)
    check(code == 0 and "check-fr-cuda-host: the CUDA kernels' bodies equal the host twins exactly" in out, "the CUDA kernels' bodies differ from the host twins:\n" + out[-2500:])
    cases = re.findall(r"\((\d) rank\(s\)\): (\d+) of (\d+) exact", out)
    check(len(cases) == 18 and all(a == b for _, a, b in cases), "unexpected case lines:\n" + out[-2500:])
    return "%d cases, %d kernel pairs exact" % (len(cases), sum(int(b) for _, _, b in cases))
