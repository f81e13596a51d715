# Compressible Navier-Stokes (physics navier_stokes, -disc mdg, BR2 viscous terms): exec()'d by
# tests/run.py into its globals (test, run, check, summary, ROOT, HOFLOW, ...).
NS_BOX = ["-dm_plex_simplex", "0", "-dm_plex_box_upper", "4,2", "-dm_plex_box_bd", "periodic,none"]


def couette_l2(order, mesh, extra=(), ranks=1, implicit=False):
    """The steady Couette state's density L2 error: explicitly at Re = 2 (steady to 4 digits by t = 5), or
    implicitly at the seed's Re = 100 (options/couette_steady.yaml, LU on one rank)."""
    if implicit:
        args = [HOFLOW, "-options_file", "options/couette_steady.yaml", "-order", str(order)] + (["-pc_type", "lu"] if ranks == 1 else []) + mesh + list(extra)
    else:
        args = [HOFLOW, "-problem", "couette", "-disc", "mdg", "-couette_reynolds", "2", "-order", str(order), "-ts_max_time", "5"] + mesh + list(extra)
    out = run((MPIEXEC + [str(ranks)] if ranks > 1 else []) + args, timeout=600)[1]
    return float(summary(out)["L2_density"])


def couette_rates(meshes, orders, margin=0.6, implicit=False):
    err, rates = {}, {}
    for N in orders:
        err[N] = [couette_l2(N, m, implicit=implicit) for m in meshes[N]]
        rates[N] = [math.log(err[N][i] / err[N][i + 1]) / math.log(2) for i in range(len(err[N]) - 1)]
        check(all(r >= N + margin for r in rates[N]), "N = %d: density L2 %s, rates %s (need >= %.1f)" % (N, err[N], rates[N], N + margin))
    return "; ".join("N=%d %s rates %s" % (N, " ".join("%.2e" % e for e in err[N]), " ".join("%.2f" % r for r in rates[N])) for N in orders)


@test("navier-stokes/couette/quadrilateral-rates")
def _():
    """Couette flow (seed 004 §3.1.1: Ma 0.1, Re 100, moving isothermal plates, the temperature profile
    of viscous heating) on structured quadrilaterals 4x2 to 16x8, periodic in x, steady by pseudo-transient
    continuation: density L2 rates >= N + 0.6 (seed Table 3: 2.07-3.73; 2026-11-25: N = 1 2.22 2.14,
    N = 2 2.87 2.96, N = 3 3.95)."""
    box = lambda nx: NS_BOX + ["-dm_plex_box_faces", "%d,%d" % (nx, nx // 2)]
    return couette_rates({1: [box(4), box(8), box(16)], 2: [box(4), box(8), box(16)], 3: [box(4), box(8)]}, (1, 2, 3), implicit=True)


@test("navier-stokes/couette/triangle-rates")
def _():
    """The same on unstructured triangles (examples/meshes/couette.geo, periodic Gmsh mesh, 38 to 608
    cells): rates >= N + 0.6 (2026-11-25: N = 1 1.92 1.98, N = 2 3.04 3.02; 2026-11-26: N = 3 3.95)."""
    tri = lambda r: ["-dm_plex_filename", "examples/meshes/couette.msh", "-dm_refine", str(r)]
    return couette_rates({1: [tri(0), tri(1), tri(2)], 2: [tri(0), tri(1), tri(2)], 3: [tri(0), tri(1)]}, (1, 2, 3), implicit=True)


@test("navier-stokes/couette/explicit-quadrilateral-rates")
def _():
    """The explicit path (SSP-RK3 with the diffusive CFL limit) to the steady state at Re = 2 (steady by
    t = 5): rates >= N + 0.6 on quadrilaterals (2026-11-25: N = 1 1.78 1.96, N = 2 2.78)."""
    box = lambda nx: NS_BOX + ["-dm_plex_box_faces", "%d,%d" % (nx, nx // 2)]
    return couette_rates({1: [box(4), box(8), box(16)], 2: [box(8), box(16)]}, (1, 2))


@test("navier-stokes/couette/2-ranks")
def _():
    """2 ranks give the 1-rank error (the liftings of faces on the partition use the halo's inverse mass)."""
    mesh = NS_BOX + ["-dm_plex_box_faces", "8,4"]
    e1, e2 = couette_l2(2, mesh), couette_l2(2, mesh, ranks=2)
    check(abs(e1 - e2) <= 1e-9 * e1, "1 rank %.10e, 2 ranks %.10e" % (e1, e2))
    return "L2_density %.6e on 1 and 2 ranks" % e1


@test("navier-stokes/errors")
def _():
    """Bad input names the option: a non-positive Reynolds number, viscosity or Prandtl number, an
    isothermal wall without a temperature, the viscous terms on CUDA vectors of a CPU build."""
    base = [HOFLOW, "-problem", "couette", "-disc", "mdg", "-order", "1", "-ts_max_steps", "1"]
    cases = [
        (["-couette_reynolds", "0"], r"-couette_reynolds 0\.? must be positive"),
        (["-ns_viscosity", "-1"], r"Navier-Stokes needs a positive viscosity: -ns_viscosity -1"),
        (["-ns_prandtl", "0"], r"-ns_prandtl 0\.? must be positive"),
        (["-ns_br2_eta", "0"], r"-ns_br2_eta 0\.? must be positive"),
    ]
    for extra, pattern in cases:
        code, out = run(base + extra, expect_ok=False)
        check(code != 0 and re.search(pattern, out), "%s: expected /%s/:\n%s" % (" ".join(extra), pattern, out[-1500:]))
    # an isothermal wall of a problem without an exact state, and no temperature given
    code, out = run([HOFLOW, "-problem", "cylinder", "-disc", "mdg", "-order", "0", "-ts_max_steps", "1", "-bc_no_slip_isothermal", "wall", "-bc_no_slip_adiabatic", "none"], expect_ok=False)
    check(code != 0 and "Boundary type no_slip_isothermal needs the wall's temperature: give -bc_wall_temperature" in out, "isothermal wall without temperature:\n" + out[-1500:])
    code, out = run([HOFLOW, "-problem", "cylinder", "-disc", "mdg", "-order", "0", "-cylinder_reynolds", "-5"], expect_ok=False)
    check(code != 0 and re.search(r"-cylinder_reynolds -5\.? must be positive", out), "negative Reynolds number:\n" + out[-1500:])
    # a wall group left without a (thermal) condition, a mixed mesh with a hanging node
    code, out = run([HOFLOW, "-problem", "couette", "-disc", "mdg", "-order", "1", "-ts_max_steps", "1", "-bc_no_slip_isothermal", "none"], expect_ok=False)
    check(code != 0 and re.search(r"the boundary face at \(.*\) belongs to none of the groups in .*-bc_no_slip_isothermal \(none\) or -bc_no_slip_adiabatic \(none\); every boundary face needs a condition", out), "wall without a condition:\n" + out[-1500:])
    code, out = run([HOFLOW, "-problem", "couette", "-disc", "mdg", "-order", "1", "-ts_max_steps", "1", "-dm_plex_filename", "tests/meshes/hanging_mixed.msh"], expect_ok=False)
    check(code != 0 and re.search(r"hanging_mixed\.msh is not conforming: face \d+ of the triangle .* lies on face \d+ of the quadrilateral .* \(no hanging nodes", out), "hanging node:\n" + out[-1500:])
    # adiabatic walls run
    code, out = run([HOFLOW, "-problem", "couette", "-disc", "mdg", "-order", "1", "-ts_max_steps", "1", "-bc_no_slip_isothermal", "none", "-bc_no_slip_adiabatic", "bottom,top", "-ts_max_time", "0.01"], expect_ok=True)
    check("L2_density" in out, "adiabatic walls run:\n" + out[-800:])
    return "Re, viscosity, Prandtl, BR2 penalty, isothermal wall without temperature, wall without a condition, hanging node of a mixed mesh refused with the option or file named; adiabatic walls run"


@test("navier-stokes/couette/mixed-rates")
def _():
    """One residual over quadrilaterals and triangles (examples/meshes/couette_mixed.geo: 10 quadrilaterals
    below y = 1, 22 triangles above, periodic in x; refined once): rates >= N + 0.6 (2026-11-25: 1.86, 2.77)."""
    mixed = lambda r: ["-dm_plex_filename", "examples/meshes/couette_mixed.msh", "-dm_refine", str(r)]
    return couette_rates({1: [mixed(0), mixed(1)], 2: [mixed(0), mixed(1)]}, (1, 2))


@test("navier-stokes/couette/implicit-steady")
def _():
    """The seed's Re = 100 steady state by pseudo-transient continuation (options/couette_steady.yaml:
    Newton-Krylov, Jacobian by colored finite differences): the residual falls 9 orders in <= 10 pseudo
    steps, on 1 and 2 ranks alike (1e-4), to the state explicit SSP-RK3 approaches (density L2
    3.876689e-7 at t = 1000 after 43 376 steps, 2026-11-25; stored here, within 1e-4)."""
    out = {}
    for n in (1, 2):
        o = run((MPIEXEC + ["2"] if n == 2 else []) + [HOFLOW, "-options_file", "options/couette_steady.yaml"], timeout=300)[1]
        s = summary(o)
        out[n] = (int(s["steps"]), float(s["L2_density"]))
        check(out[n][0] <= 10, "%d rank(s): %d pseudo steps" % (n, out[n][0]))
    check(abs(out[1][1] - out[2][1]) <= 1e-4 * out[1][1], "1 rank %.8e, 2 ranks %.8e" % (out[1][1], out[2][1]))
    check(abs(out[1][1] - 3.876689e-7) <= 1e-4 * 3.876689e-7, "implicit steady L2 %.6e, explicit t = 1000: 3.876689e-7" % out[1][1])
    return "steps %d / %d, density L2 %.6e / %.6e (explicit t = 1000: 3.876689e-7)" % (out[1][0], out[2][0], out[1][1], out[2][1])


@test("navier-stokes/cylinder-re40/N1-steady")
def _():
    """Flow past the cylinder at Ma 0.2, Re 40 (seed 004 §3.1.2) on the mixed mesh (quadrilateral ring,
    triangles outside, curved wall), N = 1, steady by pseudo-transient continuation (options/cylinder_re40.yaml,
    far field corrected by the body's source and Oseen wake, -bc_farfield_correction oseen): <= 12 pseudo
    steps; C_D within 3 % of the seed's 1.553 and within 0.3 % of the run recorded on 2026-11-26 (1.54513 =
    1.05900 pressure + 0.48613 viscous; the plain far field gave 1.5843); lift ~0 (symmetric flow); the
    separation length (scripts/separation_length.py) within 5 % of the seed's BR2-P1 2.09 d (2.136); the
    wall file (-ns_surface_file): stagnation Cp at the front, one sign change of the wall shear on the
    upper side (separation) 45-60 degrees from the rear (53)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = run([HOFLOW, "-options_file", "options/cylinder_re40.yaml", "-order", "1", "-output_dir", tmp, "-output_interval", "1000", "-ns_surface_file", os.path.join(tmp, "surface.csv")], timeout=600)[1]
        rows = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
        sep = run([PYTHON, "scripts/separation_length.py", tmp])[1]
        wall = [(math.degrees(math.atan2(float(r["y"]), -float(r["x"]))), float(r["Cp"]), float(r["Cf"])) for r in csv.DictReader(open(os.path.join(tmp, "surface.csv")))]
    upper = sorted(w for w in wall if w[0] > 0)
    flips = [0.5 * (a[0] + b[0]) for a, b in zip(upper, upper[1:]) if (a[2] > 0) != (b[2] > 0)]
    front = max(wall, key=lambda w: w[1])
    check(abs(front[0]) < 5 and 1.0 < front[1] < 1.4, "largest Cp %.3f at %.1f degrees from the front" % (front[1], front[0]))
    check(len(flips) == 1 and 120 < flips[0] < 135, "the wall shear changes sign (separation) at %s degrees from the front" % flips)
    sd = float(re.search(r"separation_length (\S+)", sep).group(1))
    s, last = summary(out), rows[-1]
    cd, cdp, cdv, cl = (float(last[k]) for k in ("drag", "drag_pressure", "drag_viscous", "lift"))
    check(int(s["steps"]) <= 12, "pseudo steps %s" % s["steps"])
    drop = float(rows[0]["residual"]) / float(rows[-1]["residual"])
    check(drop >= 1e8, "steady residual fell by %.1e only (monitors.csv residual: %s ... %s)" % (drop, rows[0]["residual"], rows[-1]["residual"]))
    check(abs(cd - 1.553) <= 0.03 * 1.553 and abs(cd - 1.54513) <= 3e-3 * 1.54513 and abs(cdp + cdv - cd) <= 1e-12 * cd and abs(cl) < 1e-2, "C_D %.5f (p %.5f, v %.5f), C_L %.2e" % (cd, cdp, cdv, cl))
    check(abs(sd - 2.09) <= 0.05 * 2.09, "separation length %.3f d (seed BR2-P1 2.09)" % sd)
    return "%s pseudo steps, residual fell %.1e: C_D %.4f (pressure %.4f, viscous %.4f), C_L %.1e, separation length %.3f d, separation at %.1f degrees from the rear, stagnation Cp %.3f" % (s["steps"], drop, cd, cdp, cdv, cl, sd, 180 - flips[0], front[1])


@test("navier-stokes/cylinder-re40/N1-wide-box")
def _():
    """The cylinder in a box twice as large (options/cylinder_re40_wide.yaml: [-30, 60] x [-30, 30], free-stream
    far field, LU, the wall curved): the steady residual falls >= 1e10 in <= 10 pseudo steps, C_D within 1 %
    of the seed's 1.553 (2026-11-26: 1.5465; the seed's box gives 1.5843) and the separation length within
    5 % of 2.19 d (2.190; seed BR2-P1 2.09 in its box)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = run([HOFLOW, "-options_file", "options/cylinder_re40_wide.yaml", "-order", "1", "-output_dir", tmp, "-output_interval", "1000"], timeout=600)[1]
        rows = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
        sep = run([PYTHON, "scripts/separation_length.py", tmp])[1]
    s, last = summary(out), rows[-1]
    cd = float(last["drag"])
    drop = float(rows[0]["residual"]) / float(rows[-1]["residual"])
    sd = float(re.search(r"separation_length (\S+)", sep).group(1))
    check(int(s["steps"]) <= 10 and drop >= 1e10, "%s pseudo steps, residual fell %.1e" % (s["steps"], drop))
    check(abs(cd - 1.553) <= 0.01 * 1.553, "C_D %.5f" % cd)
    check(abs(sd - 2.19) <= 0.05 * 2.19, "separation length %.3f d" % sd)
    return "%s pseudo steps, residual fell %.1e, C_D %.4f, separation length %.3f d" % (s["steps"], drop, cd, sd)


@test("navier-stokes/cylinder-re40/N1-farfield-correction")
def _():
    """The far field of a body (-bc_farfield_correction oseen: free stream + the source of the drag + the Oseen
    wake, physics/euler.c) in the seed's box at N = 1: with the strength fixed at the drag the lagged run
    converges to (-bc_farfield_correction_cd 1.54513, 2026-11-26), the same drag to 2e-4: the lagged
    correction's steady state is its own fixed point; C_D within 0.3 % of 1.54513 (the uncorrected far
    field: 1.5843, the box twice as large 1.5465). Refused without a body (no no-slip wall), without a far
    field, and for inviscid runs, with the option named."""
    cd_lagged = 1.54513
    with tempfile.TemporaryDirectory() as tmp:
        out = run([HOFLOW, "-options_file", "options/cylinder_re40.yaml", "-order", "1", "-bc_farfield_correction", "oseen", "-bc_farfield_correction_cd", repr(cd_lagged), "-output_dir", tmp], timeout=600)[1]
        rows = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
    s, cd = summary(out), float(rows[-1]["drag"])
    drop = float(rows[0]["residual"]) / float(rows[-1]["residual"])
    check("far field: oseen correction about (" in out and "fixed coefficients" in out, "no far-field correction line:\n" + out[-1500:])
    check(int(s["steps"]) <= 12 and drop >= 1e8, "%s pseudo steps, residual fell %.1e" % (s["steps"], drop))
    check(abs(cd - cd_lagged) <= 2e-4 * cd_lagged, "C_D %.6f with the source fixed at C_D %.5f (the lagged run's)" % (cd, cd_lagged))
    base = [HOFLOW, "-disc", "mdg", "-order", "0", "-ts_max_steps", "1", "-bc_farfield_correction", "source"]
    cases = [
        (["-problem", "cylinder", "-bc_no_slip_adiabatic", "none", "-bc_slip_wall", "wall"], r"-bc_farfield_correction source needs a body: the mesh has no no_slip_isothermal or no_slip_adiabatic wall"),
        (["-problem", "couette"], r"-bc_farfield_correction source: no boundary of type farfield or freestream"),
        (["-problem", "freestream"], r"-bc_farfield_correction source needs the wall forces of a body: physics navier_stokes .*inviscid"),
    ]
    for extra, pattern in cases:
        code, o = run(base + extra, expect_ok=False)
        check(code != 0 and re.search(pattern, o), "%s: expected /%s/:\n%s" % (" ".join(extra), pattern, o[-1500:]))
    return "%s pseudo steps, residual fell %.1e, C_D %.5f with the source fixed at %.5f; no body, no far field, inviscid refused" % (s["steps"], drop, cd, cd_lagged)


@test("navier-stokes/cylinder-re40/2-ranks")
def _():
    """The cylinder on 2 ranks (options/cylinder_re40.yaml, N = 1, two pseudo steps, LU, the far-field correction at a
    fixed strength from the start: the walls' centroid and the corrected rows on both ranks): the same residual and drag as
    on 1 rank to 1e-6 (the Newton steps end at GMRES rtol 1e-3: 2026-11-26, 4e-8 apart; the converged drag agrees to
    2e-9). One rank holds no quadrilateral of the ring (its curved block is empty there): hoflow
    crashed in MeshCurveFinish before 2026-11-26, whose geometry element was made only where such a cell was."""
    res = {}
    for n in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            run((MPIEXEC + ["2"] if n == 2 else []) + [HOFLOW, "-options_file", "options/cylinder_re40.yaml", "-order", "1", "-ts_max_steps", "2", "-bc_farfield_correction_cd", "1.54513", "-pc_type", "lu", "-pc_factor_mat_solver_type", "mumps", "-output_dir", tmp], timeout=300)
            last = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))[-1]
            res[n] = (float(last["residual"]), float(last["drag"]))
    check(all(abs(res[1][i] - res[2][i]) <= 1e-6 * abs(res[1][i]) for i in (0, 1)), "1 rank residual %.10e drag %.10e, 2 ranks %.10e %.10e" % (res[1] + res[2]))
    return "residual %.6e, drag %.6f on 1 and 2 ranks" % res[1]


@test("navier-stokes/cylinder-re40/explicit-local-time-steps")
def _():
    """Explicit SSP-RK3 towards the cylinder's steady state (N = 1, CFL 0.5): local time steps
    (-euler_local_time_step) lower the residual after 400 steps below 0.7 of the global step's
    (2026-11-26: 6.13 against 10.67, from 342); -euler_steady_rtol stops a run at the residual's fall."""
    base = [HOFLOW, "-problem", "cylinder", "-disc", "mdg", "-order", "1", "-cfl", "0.5", "-monitors", "residual"]
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lts in ("0", "1"):
            run(base + ["-euler_local_time_step", lts, "-ts_max_steps", "400", "-monitor_interval", "400", "-output_dir", tmp])
            res[lts] = float(list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))[-1]["residual"])
        out = run(base + ["-euler_local_time_step", "-euler_steady_rtol", "0.1", "-ts_max_steps", "2000", "-output_dir", tmp])[1]
    check(res["1"] < 0.7 * res["0"], "residual after 400 steps: local %g, global %g" % (res["1"], res["0"]))
    m = re.search(r"steady: residual (\S+) fell by (\S+) \(-euler_steady_rtol 0.1\) at step (\d+)", out)
    check(m and float(m.group(2)) >= 10 and int(summary(out)["steps"]) == int(m.group(3)) < 2000, "steady stop:\n" + out[-800:])
    return "residual after 400 steps: local steps %.3g, global %.3g; -euler_steady_rtol 0.1 stopped at step %s" % (res["1"], res["0"], m.group(3))


# The BR2 kernels on the GPU (tests/unit/test_mdg.c: every CUDA kernel of the right-hand side against its
# host twin on a perturbed state): quadrilaterals, triangles, the mixed Couette mesh, and the cylinder's
# mixed mesh with its curved wall (curved inverse masses, no-slip and far-field boundaries).
NS_GPU_BOX = NS_BOX + ["-dm_plex_box_faces", "8,4"]
for _order in (1, 4):
    test("gpu/mdg/navier-stokes/couette-quadrilateral/N%d" % _order, gpu=True)(mdg_gpu_test("couette", _order, NS_GPU_BOX))
test("gpu/mdg/navier-stokes/couette-triangle/N3", gpu=True)(mdg_gpu_test("couette", 3, ["-dm_plex_filename", "examples/meshes/couette.msh"]))
test("gpu/mdg/navier-stokes/couette-mixed/N2", gpu=True)(mdg_gpu_test("couette", 2, ["-dm_plex_filename", "examples/meshes/couette_mixed.msh"]))
test("gpu/mdg/navier-stokes/cylinder-curved-mixed/N2", gpu=True)(mdg_gpu_test("cylinder", 2, []))


@test("gpu/navier-stokes/couette/explicit-rates", gpu=True)
def _():
    """The explicit path on CUDA vectors (options/gpu.yaml): Couette at Re = 2 to t = 5 on quadrilaterals,
    density rates >= N + 0.6, and the GPU's errors equal the host's (1e-8 relative)."""
    gpu_or_skip()
    box = lambda nx: NS_BOX + ["-dm_plex_box_faces", "%d,%d" % (nx, nx // 2), "-options_file", "options/gpu.yaml"]
    res = couette_rates({1: [box(4), box(8), box(16)], 2: [box(8), box(16)]}, (1, 2))
    host, dev = couette_l2(2, NS_BOX + ["-dm_plex_box_faces", "8,4"]), couette_l2(2, box(8))
    check(abs(host - dev) <= 1e-8 * host, "N = 2, 8x4: host %.10e, GPU %.10e" % (host, dev))
    return res + "; host = GPU (%.6e)" % dev


@test("gpu/navier-stokes/couette/implicit-rates", gpu=True)
def _():
    """The seed's Re = 100 by the implicit path on CUDA vectors (options/couette_steady.yaml + options/gpu.yaml:
    the residuals on the GPU, the colored Jacobian and LU on the host): density rates >= N + 0.6 on
    quadrilaterals and triangles (N = 1..3), the errors those of the host runs to 1e-6 (H100, 2026-11-26:
    equal to all printed digits)."""
    gpu_or_skip()
    gpu = ["-options_file", "options/gpu.yaml"]
    box = lambda nx: NS_BOX + ["-dm_plex_box_faces", "%d,%d" % (nx, nx // 2)] + gpu
    tri = lambda r: ["-dm_plex_filename", "examples/meshes/couette.msh", "-dm_refine", str(r)] + gpu
    res = couette_rates({1: [box(4), box(8), box(16)], 2: [box(4), box(8), box(16)], 3: [box(4), box(8)]}, (1, 2, 3), implicit=True)
    res += "; triangles " + couette_rates({1: [tri(0), tri(1), tri(2)], 2: [tri(0), tri(1), tri(2)], 3: [tri(0), tri(1)]}, (1, 2, 3), implicit=True)
    host, dev = couette_l2(3, NS_BOX + ["-dm_plex_box_faces", "4,2"], implicit=True), couette_l2(3, box(4), implicit=True)
    check(abs(host - dev) <= 1e-6 * host, "N = 3, 4x2: host %.10e, GPU %.10e" % (host, dev))
    return res + "; host = GPU (N = 3, 4x2: %.6e)" % dev


NACA_COARSE = ("-order", "3", "-setnumber", "n", "86", "-setnumber", "m", "16", "-setnumber", "h1", "0.005")
NACA_CDP, NACA_CDV = 0.020589, 0.032088  # N = 1 on NACA_COARSE, 2026-11-25


@test("navier-stokes/naca0012/N1-steady")
def _():
    """Laminar flow past the NACA0012 airfoil at Ma 0.5, alpha 0, Re_c 5000 (seed 004 §3.1.3), N = 1,
    steady by pseudo-transient continuation (options/naca0012.yaml: Sutherland's law, LU), on a coarse
    variant of the seed's C-mesh (examples/meshes/naca0012.geo with n = 86, m = 16, h1 = 0.005: 86 x 16
    Q3 cells): the residual falls by >= 1e9 in <= 25 pseudo steps (2026-11-25: 4.3e11 in 20, 25 s);
    C_D's pressure and viscous parts within 1 % of this mesh's values of 2026-11-25 (0.020589 + 0.032088;
    on the seed's 170 x 30 mesh N = 1 gives 0.02171 + 0.03263, N = 3 0.02271 + 0.03290, seed Table 5 P3
    0.02273 + 0.03323); C_L ~ 0 (the flow is symmetric)."""
    mesh = gmsh_mesh("naca0012", NACA_COARSE)
    with tempfile.TemporaryDirectory() as tmp:
        out = run([HOFLOW, "-options_file", "options/naca0012.yaml", "-dm_plex_filename", mesh, "-output_dir", tmp], timeout=600)[1]
        rows = list(csv.DictReader(open(os.path.join(tmp, "monitors.csv"))))
    s, last = summary(out), rows[-1]
    cd, cdp, cdv, cl = (float(last[k]) for k in ("drag", "drag_pressure", "drag_viscous", "lift"))
    drop = float(rows[0]["residual"]) / float(last["residual"])
    check(int(s["steps"]) <= 25, "pseudo steps %s" % s["steps"])
    check(drop >= 1e9, "steady residual fell by %.1e only (monitors.csv residual: %s ... %s)" % (drop, rows[0]["residual"], last["residual"]))
    check(abs(cdp - NACA_CDP) <= 0.01 * NACA_CDP and abs(cdv - NACA_CDV) <= 0.01 * NACA_CDV and abs(cdp + cdv - cd) <= 1e-12 * cd, "C_D %.5f = %.5f pressure + %.5f viscous (2026-11-25: %.5f + %.5f)" % (cd, cdp, cdv, NACA_CDP, NACA_CDV))
    check(abs(cl) < 1e-6, "C_L %.2e (symmetric flow: 0)" % cl)
    return "%s pseudo steps, residual fell %.1e: C_D %.5f (pressure %.5f, viscous %.5f), C_L %.1e" % (s["steps"], drop, cd, cdp, cdv, cl)


@test("navier-stokes/naca0012/errors")
def _():
    """Bad input names the option: a negative Reynolds number, a supersonic Mach number, an angle of attack
    beyond 90 degrees."""
    base = [HOFLOW, "-problem", "naca0012", "-disc", "mdg", "-order", "0", "-ts_max_steps", "1"]
    cases = [
        (["-naca_reynolds", "-1"], r"-naca_reynolds -1\.? must be positive"),
        (["-naca_mach", "1.2"], r"-naca_mach 1\.2 must be in \(0, 1\)"),
        (["-naca_alpha", "95"], r"-naca_alpha 95\.? must be in \(-90, 90\) degrees"),
    ]
    for extra, pattern in cases:
        code, out = run(base + extra, expect_ok=False)
        check(code != 0 and re.search(pattern, out), "%s: expected /%s/:\n%s" % (" ".join(extra), pattern, out[-1500:]))
    return "-naca_reynolds, -naca_mach, -naca_alpha refused with the option named"


@test("navier-stokes/restart-order")
def _():
    """A steady run by pseudo-transient continuation checkpoints, and a restart at another order projects
    its modal coefficients (-restart_project): the Couette state of 3 pseudo steps at N = 1, restarted at
    N = 2 and 3 without a step, is the same polynomial (its density L2 error by the same cubature,
    -mdg_quadrature_degree 9, equal to 1e-10); pseudo's -ts_pseudo_increment_dt_from_initial_dt, whose first
    step PETSc records at step 0 only, is refused on a restart naming the option."""
    base = [HOFLOW, "-options_file", "options/couette_steady.yaml", "-pc_type", "lu", "-mdg_quadrature_degree", "9"]
    with tempfile.TemporaryDirectory() as tmp:
        ck = os.path.join(tmp, "checkpoint.h5")
        run(base + ["-order", "1", "-output_dir", tmp, "-checkpoint_interval", "3", "-ts_max_steps", "3"])
        l2 = {}
        for n in (1, 2, 3):
            out = run(base + ["-order", str(n), "-output_dir", os.path.join(tmp, "n%d" % n), "-restart", ck, "-restart_project", "-ts_max_steps", "3", "-ts_pseudo_increment_dt_from_initial_dt", "false"])[1]
            check(n == 1 or "projected onto order %d" % n in out, "no projection reported:\n" + out[-800:])
            l2[n] = float(summary(out)["L2_density"])
        check(all(abs(l2[n] - l2[1]) <= 1e-10 * l2[1] for n in (2, 3)), "density L2 of the N = 1 state %r, projected onto N = 2, 3: %r, %r" % (l2[1], l2[2], l2[3]))
        code, out = run(base + ["-order", "2", "-output_dir", os.path.join(tmp, "bad"), "-restart", ck, "-restart_project", "-ts_pseudo_increment_dt_from_initial_dt"], expect_ok=False)
        check(code != 0 and "give -ts_pseudo_increment_dt_from_initial_dt false" in out, "restart with the step scaled from step 0:\n" + out[-1500:])
    return "N = 1 state projected onto N = 2, 3: density L2 %.6e, %.6e, %.6e; the step from step 0 refused on a restart" % (l2[1], l2[2], l2[3])
