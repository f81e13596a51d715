# Incompressible Navier–Stokes on continuous spectral elements by velocity correction (issue 18, seed 001
# §4.2: -ts_type velcorr, src/ts/velcorr.c; physics sem_ns, src/physics/sem_ns.c; kernels
# src/kernels/sem_flow.c): Kovasznay flow at Re = 40 marched to its steady state (exponential convergence
# in N on the seed's coarse mesh), the Taylor–Green vortex in time (rate k of BDF-k/EXT-k, k = 1, 2, 3, with
# time-dependent Dirichlet walls, and the standard form's first order that the rotational form cures), the
# Beltrami flow on hexahedra, the over-integrated convection, and bad input. Loaded by tests/run.py.

SEM_NS_QUIET = ["-progress_interval", "-1", "-monitor_file", "none"]
# walls that cut the vortex where its normal velocity and normal viscous term do not vanish
SEM_NS_TG_WALLS = ["-problem", "taylor_green", "-dm_plex_box_bd", "none,none", "-bc_dirichlet", "left,right,bottom,top",
                   "-dm_plex_box_lower", "0.15,0.3", "-dm_plex_box_upper", "1.15,1.3", "-sem_ns_exact_history", "-ts_max_time", "0.5"]


def sem_ns_run(args):
    s = summary(run([HOFLOW] + SEM_NS_QUIET + args)[1])
    check(s["disc"] == "sem" and s["ts"] == "velcorr", "not a -disc sem velcorr run: %s" % s)
    return s


def sem_ns_temporal(args, dts):
    errs = [sem_ns_run(args + ["-ts_dt", str(dt)])["L2"] for dt in dts]
    rates = [math.log(errs[i] / errs[i + 1]) / math.log(dts[i] / dts[i + 1]) for i in range(len(errs) - 1)]
    return errs, rates


TEST_SEM_FLOW = os.path.join(ROOT, "build", "tests", "test_sem_flow")


def sem_flow_unit_test(args, ranks=1):
    def f():
        _, out = run(([*MPIEXEC, str(ranks)] if ranks > 1 else []) + [TEST_SEM_FLOW] + args)
        m = re.search(r"^sem_flow: .*$", out, re.M)
        check(m, "no result line:\n" + out[-1500:])
        vals = dict(zip(m.group(0).split()[1::2], m.group(0).split()[2::2]))
        bad = {k: v for k, v in vals.items() if k not in ("dim", "order") and float(v) > 1e-12}
        check(not bad, "flow kernels off polynomial fields Q_N holds: %s" % bad)
        return m.group(0)[10:]
    return f


# The kernels on polynomial fields (tests/unit/test_sem_flow.c): collocated and over-integrated convection,
# the curl curl term, the weak gradient, the divergence, all to round-off on affine boxes (N >= 4).
test("sem_ns/unit/quadrilateral-N4")(sem_flow_unit_test(["-order", "4", "-dm_plex_box_faces", "3,2", "-dm_plex_box_lower", "0.1,0.2", "-dm_plex_box_upper", "1.3,1.1"]))
test("sem_ns/unit/quadrilateral-N7-2-ranks")(sem_flow_unit_test(["-order", "7", "-dm_plex_box_faces", "3,3", "-dm_plex_box_lower", "0.1,0.2", "-dm_plex_box_upper", "1.3,1.1"], ranks=2))
test("sem_ns/unit/hexahedron-N4")(sem_flow_unit_test(["-order", "4", "-dm_plex_dim", "3", "-dm_plex_box_faces", "2,2,2", "-dm_plex_box_lower", "0.1,0.2,-0.3", "-dm_plex_box_upper", "1.3,1.1,0.5"]))


@test("sem_ns/kovasznay/exponential-N4-N8")
def _():
    """Kovasznay flow, Re = 40, 3 x 4 quadrilaterals of the seed's rectangle, marched from the exact
    interpolant to t = 1 (dt = 0.01, BDF2/EXT2): the velocity error falls log-linearly in N."""
    orders, errs, perrs = (4, 6, 8), [], []
    for N in orders:
        s = sem_ns_run(["-problem", "kovasznay", "-order", str(N), "-ts_dt", "0.01", "-ts_max_time", "1"])
        errs.append(s["L2"])
        perrs.append(float(s["L2_p"]))
    decay = [math.log(errs[i] / errs[i + 1]) / (orders[i + 1] - orders[i]) for i in range(len(errs) - 1)]
    check(all(d >= 1.8 for d in decay), "Kovasznay: velocity errors %s fall by %s per order (ln), expected >= 1.8" % (errs, ["%.2f" % d for d in decay]))
    check(max(decay) / min(decay) < 1.6, "Kovasznay: the decay %s is not log-linear in N" % (["%.2f" % d for d in decay]))
    check(errs[-1] < 2e-6 and perrs[-1] < 1e-6, "Kovasznay N = 8: velocity %.3e, pressure %.3e (expected < 2e-6, < 1e-6)" % (errs[-1], perrs[-1]))
    return "N4/6/8 velocity %s, pressure %s, ln decay per order %s" % (" ".join("%.2e" % e for e in errs), " ".join("%.2e" % e for e in perrs), " ".join("%.2f" % d for d in decay))


def sem_ns_rate_test(k, dts, extra, order=10):
    def f():
        errs, rates = sem_ns_temporal(SEM_NS_TG_WALLS + ["-order", str(order), "-velcorr_order", str(k)] + extra, dts)
        check(min(rates) >= k - 0.2, "Taylor–Green with walls, BDF%d/EXT%d: rates %s below %.1f (errors %s)" % (k, k, ["%.2f" % r for r in rates], k - 0.2, errs))
        return fmt(errs, rates)
    return f


test("sem_ns/taylor-green/walls/k1")(sem_ns_rate_test(1, (0.04, 0.02, 0.01), []))
test("sem_ns/taylor-green/walls/k2")(sem_ns_rate_test(2, (0.02, 0.01, 0.005), []))
test("sem_ns/taylor-green/walls/k3")(sem_ns_rate_test(3, (0.02, 0.01, 0.005), []))


@test("sem_ns/taylor-green/periodic/k3")
def _():
    errs, rates = sem_ns_temporal(["-problem", "taylor_green", "-order", "10", "-velcorr_order", "3", "-sem_ns_exact_history", "-ts_max_time", "0.5"], (0.02, 0.01, 0.005))
    check(min(rates) >= 2.8, "Taylor–Green, periodic, BDF3/EXT3: rates %s below 2.8 (errors %s)" % (["%.2f" % r for r in rates], errs))
    return fmt(errs, rates)


@test("sem_ns/taylor-green/standard-form-first-order")
def _():
    """Without the rotational term -nu curl curl u* in the pressure equation (the seed's eq. 43 before
    eq. 44) the splitting error on the walls caps the velocity at first order and the divergence stays
    O(dt) there; the rotational form (the default) gives 1e-5 -> 6.6e-7 at rate 2 on the same runs."""
    errs, rates = sem_ns_temporal(SEM_NS_TG_WALLS + ["-order", "10", "-velcorr_order", "2", "-sem_ns_rotational", "false"], (0.02, 0.01))
    check(rates[0] < 1.3 and errs[-1] > 100 * 6.6e-7, "standard form, BDF2: rate %.2f (expected about 1), errors %s" % (rates[0], errs))
    return fmt(errs, rates)


@test("sem_ns/beltrami/hexahedra-N3-N5")
def _():
    """The Beltrami flow on 2^3 hexahedra, BDF3/EXT3 from the exact past levels, dt = 1e-3 to t = 0.02:
    spectral in N in 3D (the 3D curl curl, the face terms of hexahedra)."""
    errs = [sem_ns_run(["-problem", "beltrami_sem", "-order", str(N), "-ts_dt", "1e-3", "-ts_max_time", "0.02", "-velcorr_order", "3", "-sem_ns_exact_history"])["L2"] for N in (3, 4, 5)]
    decay = [math.log(errs[i] / errs[i + 1]) for i in range(2)]
    check(min(decay) >= 2.5, "Beltrami, hexahedra: errors %s fall by %s per order (ln), expected >= 2.5" % (errs, ["%.2f" % d for d in decay]))
    return "N3/4/5 %s" % " ".join("%.2e" % e for e in errs)


@test("sem_ns/kovasznay/dealias")
def _():
    """The over-integrated convection (3/2 rule) against the collocated one: the same steady error at
    N = 8 within 5 % (the flow is resolved; aliasing matters for under-resolved flows)."""
    args = ["-problem", "kovasznay", "-order", "8", "-ts_dt", "0.01", "-ts_max_time", "1"]
    e0, e1 = sem_ns_run(args)["L2"], sem_ns_run(args + ["-sem_ns_dealias"])["L2"]
    check(abs(e1 - e0) < 0.05 * e0, "Kovasznay N = 8: collocated %.4e, over-integrated %.4e" % (e0, e1))
    return "collocated %.4e, over-integrated %.4e" % (e0, e1)


@test("sem_ns/kovasznay/two-ranks")
def _():
    args = SEM_NS_QUIET + ["-problem", "kovasznay", "-order", "4", "-ts_dt", "0.01", "-ts_max_time", "0.2"]
    s1 = summary(run([HOFLOW] + args)[1])
    s2 = summary(run([*MPIEXEC, "2", HOFLOW] + args)[1])
    check(abs(s1["L2"] - s2["L2"]) < 1e-8 * s1["L2"] and abs(float(s1["L2_p"]) - float(s2["L2_p"])) < 1e-7 * float(s1["L2_p"]), "1 rank %s / %s, 2 ranks %s / %s" % (s1["L2"], s1["L2_p"], s2["L2"], s2["L2_p"]))
    return "L2 %.6e both" % s1["L2"]


SEM_NS_KOV = ["-problem", "kovasznay", "-ts_max_steps", "2"]
test("sem_ns/errors/order-1")(error_test(SEM_NS_KOV + ["-order", "1"], r"-order 1: the velocity-correction scheme on -disc sem needs N >= 2"))
test("sem_ns/errors/disc")(error_test(SEM_NS_KOV + ["-disc", "ipdg"], r"Problem kovasznay \(physics sem_ns\) runs on -disc sem only, not -disc ipdg"))
test("sem_ns/errors/ts-type")(error_test(SEM_NS_KOV + ["-ts_type", "bdf"], r"-ts_type bdf: problem kovasznay \(physics sem_ns\) runs with -ts_type velcorr only"))
test("sem_ns/errors/velcorr-order")(error_test(SEM_NS_KOV + ["-velcorr_order", "4"], r"-velcorr_order 4 must be 1, 2 or 3"))
test("sem_ns/errors/diverged")(error_test(SEM_NS_KOV + ["-order", "8", "-ts_dt", "0.2", "-ts_max_steps", "40"], r"diverged: max \|u\| = .* use a smaller -ts_dt"))


# Output and restarts (tests/suite_sem.py's helpers): velocity correction keeps u and N(u) of past levels
# (velcorr_u_1, velcorr_n_1 at BDF2), checkpointed element by element with the state (velocity, p), so a
# restart continues exactly; the output writes velocity_x, velocity_y (, velocity_z) and p at the GLL nodes. Across
# ranks the restart reads the same values, but the 10 steps after it solve on another partition (BoomerAMG's
# hierarchy, the pressure's rtol 1e-10): 7.8e-11 relative after 10 steps, hence 1e-9 there; the pressure's projection
# basis (velcorr_pressure_projection_*: normalized corrections, some at the tolerance's level) is compared on the same
# ranks only (6e-4 apart across partitions, with the fields still within 1e-9).
SEM_NS_KOVASZNAY = ["-problem", "kovasznay", "-order", "4", "-ts_dt", "0.01"] + SEM_NS_QUIET
test("sem/restart/velcorr/kovasznay-bitwise")(lambda: sem_restart_compare(SEM_NS_KOVASZNAY, 20))
test("sem/restart/velcorr/kovasznay-1-to-2-ranks")(lambda: sem_restart_compare(SEM_NS_KOVASZNAY, 20, ranks=(1, 2), tol=1e-9, solver_state=("velcorr_pressure_projection",)))
test("sem/restart/velcorr/beltrami-hexahedra-bdf3")(lambda: sem_restart_compare(["-problem", "beltrami_sem", "-order", "3", "-ts_dt", "1e-3", "-velcorr_order", "3"] + SEM_NS_QUIET, 8))


@test("sem/output/velcorr")
def _():
    """Kovasznay (12 quadrilaterals, N = 4) and Beltrami (8 hexahedra, N = 3) with -output_interval: the velocity
    one dataset a component, the pressure at the same nodes."""
    out = []
    for args, series, cells, dim, order, fields in ((SEM_NS_KOVASZNAY, "kovasznay", 12, 2, 4, ["velocity_x", "velocity_y", "p"]),
                                                    (["-problem", "beltrami_sem", "-order", "3", "-ts_dt", "1e-3"] + SEM_NS_QUIET, "beltrami_sem", 8, 3, 3, ["velocity_x", "velocity_y", "velocity_z", "p"])):
        with tempfile.TemporaryDirectory() as tmp:
            run([HOFLOW] + args + ["-ts_max_steps", "4", "-output_interval", "2", "-output_dir", tmp])
            out.append(sem_h5_counts(tmp, series, cells, dim, order, fields))
    return "; ".join(out)


@test("sem/restart/velcorr/another-dt")
def _():
    """A restart with another -ts_dt starts the multistep history again (the integrator is told the step of the
    restored levels, HOFLOW_TS_SET_HISTORY_STEP) instead of combining levels of the old spacing with the new
    step's BDF3/EXT3 coefficients: the periodic Taylor–Green vortex (N = 8), 10 steps of 0.02 (exact start) then
    20 of 0.01 to t = 0.4. Its error is the lower-order start-up's, like a fresh start at 0.01 (20 steps without
    the exact past levels: 2.4e-5); combining the old levels gave 2.0e-3."""
    base = ["-problem", "taylor_green", "-order", "8", "-velcorr_order", "3"] + SEM_NS_QUIET
    with tempfile.TemporaryDirectory() as tmp:
        e_start = float(summary(run([HOFLOW] + base + ["-ts_dt", "0.01", "-ts_max_time", "0.2", "-output_dir", tmp + "/fresh"])[1])["L2"])
        run([HOFLOW] + base + ["-sem_ns_exact_history", "-ts_dt", "0.02", "-ts_max_steps", "10", "-checkpoint_interval", "10", "-output_dir", tmp + "/part"])
        s = summary(run([HOFLOW] + base + ["-ts_dt", "0.01", "-ts_max_time", "0.4", "-output_dir", tmp + "/part", "-restart", tmp + "/part/checkpoint.h5"])[1])
        e_re = float(s["L2"])
        check(int(s["steps"]) == 30, "restart ran to step %s, expected 10 + 20" % s["steps"])
        check(e_re <= 2 * e_start, "restart with -ts_dt 0.01: L2 %.3e, a fresh start at 0.01 %.3e (history of the old step used?)" % (e_re, e_start))
        return "L2 %.3e restarted at dt 0.01 after 10 steps of 0.02; a fresh start-up at 0.01: %.3e" % (e_re, e_start)


@test("sem_ns/cuda-emulated")
def _():
    """cuda/sem_flow.cu itself, run on the CPU (tests/emu: launches rewritten, each CUDA thread an OS thread, the
    dynamic shared memory a static array) against the host kernels of src/kernels/sem_flow.c on random data
    (shared and repeated dofs, random matrices and geometry), quadrilaterals and hexahedra N = 2..8: the collocated
    and over-integrated convection, the pressure and velocity right-hand sides, the divergence, the enstrophy."""
    import shutil
    if not shutil.which("g++"):
        raise Skip("no g++ for the CPU emulation of the CUDA source")
    _, out = run([os.path.join(ROOT, "tests", "emu", "run.sh"), "sem_flow"])
    m = re.search(r"sem_flow_emu: worst (\S+)", out)
    check(m, "no result line:\n" + out[-1000:])
    rel = float(m.group(1))
    check(rel <= 1e-14, "emulated CUDA flow kernels differ from the host kernels: relative %g\n%s" % (rel, out[-3000:]))
    return "worst relative %.1e over 14 cases x 6 kernels" % rel


# ---------------------------------------------------------------- GPU: whole velocity-correction runs on device vectors
# The same run with host and CUDA vectors; both solve with CG + Jacobi on the LOR matrix to tight tolerances (the
# GPU machine's hypre is a device build: its host runs would need GAMG, another preconditioner), so the two differ
# only by round-off amplified through the solves. Compared: the last row of monitors.csv (17 digits): quantities of
# the solution's size (energies, 2 nu eps) to 1e-10 relative, errors and the divergence to 1e-10 absolute (the
# fields are of size 1: an error of 1e-5 then agrees to 1e-5 of itself, which is all CG's tolerances allow).
SEM_NS_GPU_SOLVE = ["-pres_pc_type", "jacobi", "-vel_pc_type", "jacobi", "-pres_ksp_rtol", "1e-13", "-vel_ksp_rtol", "1e-14"]


def gpu_sem_ns_test(args, columns, tol=1e-10):
    def f():
        gpu_or_skip()
        rows = []
        for backend in ([], ["-dm_vec_type", "cuda"]):
            with tempfile.TemporaryDirectory() as tmp:
                sem_ns_run(args + SEM_NS_GPU_SOLVE + backend + ["-output_dir", tmp, "-monitor_file", os.path.join(tmp, "monitors.csv")])
                rows.append(list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))[-1])
        out = []
        for c in columns:
            h, d = float(rows[0][c]), float(rows[1][c])
            absolute = c.startswith("L2_error") or c == "divergence"
            diff = abs(d - h) / (1.0 if absolute else abs(h))
            check(diff <= tol, "%s at t = %s: host %.16e, CUDA %.16e (%s difference %.1e > %.0e)" % (c, rows[0]["time"], h, d, "absolute" if absolute else "relative", diff, tol))
            out.append("%s %.6e (%.1e)" % (c, h, diff))
        return ", ".join(out)
    return f


test("gpu/sem_ns/beltrami-hexahedra-N4", gpu=True)(gpu_sem_ns_test(["-problem", "beltrami_sem", "-order", "4", "-ts_dt", "1e-3", "-ts_max_time", "0.01", "-velcorr_order", "3", "-sem_ns_exact_history"], ["L2_error_velocity", "L2_error_pressure", "kinetic_energy"]))
test("gpu/sem_ns/kovasznay-N6", gpu=True)(gpu_sem_ns_test(["-problem", "kovasznay", "-order", "6", "-ts_dt", "0.01", "-ts_max_time", "0.1"], ["L2_error_velocity", "L2_error_pressure", "divergence"]))
test("gpu/sem_ns/kovasznay-N6-dealias", gpu=True)(gpu_sem_ns_test(["-problem", "kovasznay", "-order", "6", "-ts_dt", "0.01", "-ts_max_time", "0.1", "-sem_ns_dealias"], ["L2_error_velocity", "L2_error_pressure", "divergence"]))
# the periodic box of -problem taylor_green_3d with 3^3 cells (mesh options replace the problem's whole default)
TGV3_MESH = ["-dm_plex_dim", "3", "-dm_plex_simplex", "0", "-dm_plex_box_faces", "3,3,3", "-dm_plex_box_lower", "0,0,0",
             "-dm_plex_box_upper", ",".join(["6.283185307179586"] * 3), "-dm_plex_box_bd", "periodic,periodic,periodic"]
test("gpu/sem_ns/taylor-green-3d-N5", gpu=True)(gpu_sem_ns_test(["-problem", "taylor_green_3d", "-order", "5"] + TGV3_MESH + ["-ts_dt", "0.01", "-ts_max_time", "0.2", "-velcorr_order", "3"], ["energy", "enstrophy_dissipation", "divergence"]))


@test("sem_ns/taylor-green-3d/dissipation")
def _():
    """The 3D Taylor–Green vortex at Re = 1600 on 4^3 hexahedra, N = 6, BDF2 dt 0.025 to t = 0.5: the energy starts at
    1/8, the enstrophy form 2 nu eps starts at 3/(8 nu^-1) = 4.6875e-4 and at t = 0.5 equals the spectral reference's
    -dE/dt (4.8025e-4) within 0.1 %, and -dE/dt (backward differences) equals 2 nu eps within 0.5 %."""
    with tempfile.TemporaryDirectory() as tmp:
        s = summary(run([HOFLOW, "-problem", "taylor_green_3d", "-order", "6", "-ts_dt", "0.025", "-ts_max_time", "0.5", "-velcorr_order", "2", "-progress_interval", "-1", "-output_dir", tmp])[1])
        import csv
        rows = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
    e0, z0 = float(rows[0]["energy"]), float(rows[0]["enstrophy_dissipation"])
    z, d = float(rows[-1]["enstrophy_dissipation"]), float(rows[-1]["dissipation"])
    check(abs(e0 - 0.125) < 1e-12 and abs(z0 - 0.375 / 800) < 1e-3 * z0, "t = 0: energy %.12f (1/8), 2 nu eps %.6e (4.6875e-4)" % (e0, z0))
    check(abs(z - 4.8024611e-4) < 1e-3 * z, "t = 0.5: 2 nu eps %.6e, reference -dE/dt 4.8025e-4" % z)
    check(abs(d - z) < 5e-3 * z, "t = 0.5: -dE/dt %.6e against 2 nu eps %.6e" % (d, z))
    return "E(0) %.6f, 2 nu eps %.4e -> %.4e (reference 4.8025e-4), -dE/dt %.4e, div %s" % (e0, z0, z, d, s["div"])


# The projection onto previous solutions (-velcorr_pressure_projection L, solver/projection.c) and restarts, on the
# periodic box of the 3D Taylor-Green vortex with 3^3 cells (TGV3_MESH), N = 5, BDF3, dt 0.05.
TGV3_SMALL = ["-problem", "taylor_green_3d", "-order", "5"] + TGV3_MESH + ["-ts_dt", "0.05", "-velcorr_order", "3", "-progress_interval", "-1"]


def tgv3_rows(args, tmp):
    s = summary(run([HOFLOW] + TGV3_SMALL + args + ["-output_dir", tmp])[1])
    return s, list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))


@test("sem_ns/taylor-green-3d/projection")
def _():
    """The pressure solve started from the projection of its right-hand side onto 16 A-orthonormal vectors of the last
    solutions (the default) against the last solution alone (-velcorr_pressure_projection 0): the same energies and
    dissipation to the solvers' tolerance (rtol 1e-10), and fewer pressure iterations from step 4 on (measured 18.0 ->
    10.6 a step, the restart after 16 steps included)."""
    rows, its = {}, {}
    for L in (0, 16):
        with tempfile.TemporaryDirectory() as tmp:
            _, log = run([HOFLOW] + TGV3_SMALL + ["-ts_max_steps", "24", "-velcorr_pressure_projection", str(L), "-pres_ksp_converged_reason", "-output_dir", tmp])
            rows[L] = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
        its[L] = [int(m) for m in re.findall(r"Linear pres_ solve converged due to \S+ iterations (\d+)", log)][3:]
    worst = max(abs(float(a[c]) - float(b[c])) / abs(float(a[c])) for a, b in zip(rows[0], rows[16]) for c in ("energy", "enstrophy_dissipation"))
    mean = {L: sum(v) / len(v) for L, v in its.items()}
    check(len(its[16]) == 21 and worst <= 1e-9, "projection changed the energies by %.2e relative (solver tolerance 1e-10)" % worst)
    check(mean[16] <= 0.65 * mean[0], "pressure iterations a step from step 4: %.1f with the projection, %.1f without (expected <= 65 %%)" % (mean[16], mean[0]))
    return "pressure iterations a step %.1f -> %.1f (%s); energies agree to %.1e" % (mean[0], mean[16], " ".join(map(str, its[16])), worst)


@test("sem_ns/taylor-green-3d/restart")
def _():
    """A run checkpointed after 8 of 16 steps and restarted (into the same directory) writes the same monitors.csv as
    the uninterrupted run, row for row to the last digit (the projection bases are in the checkpoint; -dE/dt differences
    successive evaluations, so the restart evaluates the monitors at its first step) and the same summary (the peaks
    over the whole run: the kept rows are part of its record)."""
    import csv
    with tempfile.TemporaryDirectory() as tmp:
        args = ["-ts_max_steps", "16", "-monitor_interval", "2", "-checkpoint_interval", "8"]
        s_ref, rows_ref = tgv3_rows(args, os.path.join(tmp, "ref"))
        run([HOFLOW] + TGV3_SMALL + ["-ts_max_steps", "8", "-monitor_interval", "2", "-checkpoint_interval", "8", "-output_dir", os.path.join(tmp, "part")])
        s_re, rows_re = tgv3_rows(args + ["-restart", os.path.join(tmp, "part", "checkpoint.h5")], os.path.join(tmp, "part"))
    check([r["step"] for r in rows_re] == [r["step"] for r in rows_ref], "restarted monitors.csv has steps %s, expected %s" % ([r["step"] for r in rows_re], [r["step"] for r in rows_ref]))
    diff = [(r["step"], c) for a, r in zip(rows_re, rows_ref) for c in r if a[c] != r[c]]
    check(not diff, "restarted monitors differ from the uninterrupted run at (step, column) %s" % diff[:6])
    for key in ("peak_enstrophy_dissipation", "peak_dissipation"):
        check(s_re[key] == s_ref[key], "%s %s restarted, %s uninterrupted" % (key, s_re[key], s_ref[key]))
    return "%d rows equal, -dE/dt at step 10: %s; peak 2 nu eps %s" % (len(rows_ref), rows_ref[5]["dissipation"], s_ref["peak_enstrophy_dissipation"])


# ---------------------------------------------------------------- GPU: each flow kernel against its host twin
def gpu_sem_flow_test(mesh_args, order, ranks=1):
    """tests/unit/test_sem_flow.c with -dm_vec_type cuda: each operation of hoflow/sem_flow.h on random device
    vectors (the CUDA kernels of cuda/sem_flow.cu) against host copies (the host kernels), to 1e-14 relative."""
    def f():
        gpu_or_skip()
        cmd = [TEST_SEM_FLOW, "-order", str(order), "-dm_vec_type", "cuda"] + mesh_args
        if ranks > 1:
            cmd = [*MPIEXEC, str(ranks)] + cmd + ["-gpu_shared"]
        _, out = run(cmd)
        m = re.search(r"^sem_flow_device: .*$", out, re.M)
        check(m, "no result line:\n" + out[-1500:])
        vals = dict(zip(m.group(0).split()[1::2], (float(v) for v in m.group(0).split()[2::2])))
        bad = {k: v for k, v in vals.items() if v > 1e-14}
        check(not bad, "CUDA flow kernels differ from the host kernels: %s" % bad)
        return m.group(0)[17:]
    return f


GPU_SEM_FLOW_MESHES = {
    "quadrilateral/affine": ["-dm_plex_box_faces", "4,3", "-dm_plex_box_lower", "0.1,0.2", "-dm_plex_box_upper", "1.3,1.1"],
    "hexahedron/affine": ["-dm_plex_dim", "3", "-dm_plex_box_faces", "3,2,2", "-dm_plex_box_lower", "0.1,0.2,-0.3", "-dm_plex_box_upper", "1.3,1.1,0.5"],
    "quadrilateral/non-affine": ["-dm_plex_filename", "tests/meshes/trapezoid.msh", "-dm_refine", "1", "-bc_dirichlet", "wall", "-bc_neumann", "none"],
    "hexahedron/non-affine": ["-dm_plex_filename", "examples/meshes/cube_hex_distorted.msh"],
}
for _mesh, _args in GPU_SEM_FLOW_MESHES.items():
    for _order in range(2, 9):
        test("gpu/sem_flow/%s/N%d" % (_mesh, _order), gpu=True)(gpu_sem_flow_test(_args, _order))
test("gpu/sem_flow/hexahedron/non-affine/N4/2-ranks", gpu=True)(gpu_sem_flow_test(GPU_SEM_FLOW_MESHES["hexahedron/non-affine"], 4, ranks=2))
