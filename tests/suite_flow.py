# hoflow test suite: the generic incompressible case -problem flow (src/problems/flow.c), driven by
# options only: boundary types per group, data as expressions, monitors of any group and point.
# exec()'d by tests/run.py into its globals (test, run, check, summary, Failure, Skip, ROOT, HOFLOW,
# error_test). About a minute on two cores, most of it the cavity.
import csv
import tempfile

FLOW_BOX = [HOFLOW, "-problem", "flow", "-progress_interval", "-1", "-dm_plex_simplex", "0"]


def flow_monitors(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    check(rows, "no rows in %s" % path)
    return rows


def flow_finite(rows, names):
    for name in names:
        check(name in rows[-1], "monitor %s not in monitors.csv (columns %s)" % (name, list(rows[-1])))
        for r in rows:
            check(math.isfinite(float(r[name])), "monitor %s is %s at step %s" % (name, r[name], r["step"]))


# Poiseuille flow in the channel [0, 2] x [0, 1]: inflow u = 4 Um y (1 - y) on the left (ramped up
# over t in [0, 0.5]: time-dependent boundary data, re-evaluated each time), walls bottom and top,
# outflow p = 0 on the right, a perturbed initial state. The steady solution is exactly that profile
# with dp/dx = -8 nu Um, in the polynomial space from N = 2: the probes' pressure difference
# p(0.5, 0.5) - p(1.5, 0.5) = 8 nu Um and the viscous force of the fluid on each wall
# nu |du/dy| L = 4 nu Um * 2 (x); the pressure force on the walls has no x part.
POISEUILLE = FLOW_BOX + ["-dm_plex_box_faces", "4,2", "-dm_plex_box_lower", "0,0", "-dm_plex_box_upper", "2,1", "-order", "3",
                         "-nu", "0.5", "-const", "Um=1", "-bc_left_type", "inflow", "-bc_left_u", "4*Um*y*(1-y)*min(1,t/0.5)",
                         "-bc_bottom_type", "wall", "-bc_top_type", "wall", "-bc_right_type", "outflow",
                         "-ic_perturbation", "0.01", "-ts_dt", "0.02", "-ts_max_time", "3",
                         "-probe_points", "0.5,0.5;1.5,0.5", "-monitor_force_groups", "bottom,top"]


@test("flow/poiseuille/time-dependent-inflow-probes-forces")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        run(POISEUILLE + ["-output_dir", tmp])
        rows = flow_monitors(os.path.join(tmp, "monitors.csv"))
    names = ["pressure_probe_1", "pressure_probe_2", "pressure_difference"] + ["%s:%s" % (q, g) for g in ("bottom", "top") for q in
                                                                                ("drag_coefficient", "lift_coefficient", "force_x", "force_y", "force_pressure_x", "force_viscous_x", "force_pressure_y", "force_viscous_y")]
    flow_finite(rows, names)
    last = {k: float(v) for k, v in rows[-1].items()}
    dp, fb, ft = last["pressure_difference"], last["force_viscous_x:bottom"], last["force_viscous_x:top"]
    check(abs(dp - 4.0) <= 2e-3 * 4, "p(0.5,0.5) - p(1.5,0.5) = %.6f, expected 8 nu Um = 4" % dp)
    check(abs(fb - 4.0) <= 2e-3 * 4 and abs(ft - 4.0) <= 2e-3 * 4, "viscous wall forces %.6f %.6f, expected 4" % (fb, ft))
    check(abs(last["force_pressure_x:bottom"]) <= 1e-10, "pressure force in x on a flat wall: %g" % last["force_pressure_x:bottom"])
    check(abs(last["drag_coefficient:bottom"] - 2 * last["force_x:bottom"]) <= 1e-12, "drag coefficient 2 F_x / (U^2 L) with U = L = 1")
    return "dp %.6f (exact 4), wall shear forces %.6f %.6f (exact 4)" % (dp, fb, ft)


@test("flow/poiseuille/body-force")
def _():
    """The same channel driven by the inflow and a body force 8 nu Um in x that balances the viscous
    term: the steady pressure is then constant (zero at the outflow)."""
    with tempfile.TemporaryDirectory() as tmp:
        run(POISEUILLE + ["-output_dir", tmp, "-body_force_x", "8*0.5*Um"])
        rows = flow_monitors(os.path.join(tmp, "monitors.csv"))
    dp = float(rows[-1]["pressure_difference"])
    p1 = float(rows[-1]["pressure_probe_1"])
    check(abs(dp) <= 1e-2 and abs(p1) <= 1e-2, "body force 8 nu Um: pressure difference %.2e, p(0.5,0.5) %.2e, expected 0" % (dp, p1))
    return "dp %.2e p(0.5,0.5) %.2e (exact 0)" % (dp, p1)


# Ghia, Ghia & Shin (1982) centreline data and the centreline extraction: scripts/cavity_ghia.py.
def cavity_ghia():
    import importlib.util
    spec = importlib.util.spec_from_file_location("cavity_ghia", os.path.join(ROOT, "scripts", "cavity_ghia.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@test("flow/cavity/re100-ghia")
def _():
    """examples/cavity/cavity.yaml (Re = 100, 8 x 8 quadrilaterals, N = 5, dt = 0.05, 4 subcycles) run
    to t = 10 (the profiles then differ from t = 20 by < 1e-3): the centreline velocities at Ghia's
    points (linear interpolation between output points 1/40 apart) within 0.02 of Ghia's values."""
    try:
        import h5py  # noqa: F401
        import numpy
    except ImportError:
        raise Skip("needs h5py and numpy")
    with tempfile.TemporaryDirectory() as tmp:
        run([HOFLOW, "-options_file", "examples/cavity/cavity.yaml", "-ts_max_time", "10", "-output_dir", tmp, "-progress_interval", "-1"])
        eu, ev, _ = cavity_ghia().compare(tmp, 100)
        rows = flow_monitors(os.path.join(tmp, "monitors.csv"))
    flow_finite(rows, ["kinetic_energy", "pressure_probe_1", "drag_coefficient:lid", "force_viscous_x:lid"])
    check(eu <= 0.02 and ev <= 0.02, "centreline differences from Ghia et al.: u %.4f, v %.4f (tolerance 0.02)" % (eu, ev))
    return "max |u - Ghia| %.4f, max |v - Ghia| %.4f (tolerance 0.02)" % (eu, ev)


# Bad input: each error names the option (and the position, the point, or both group lists)
FLOW_CAVITY_BOX = FLOW_BOX + ["-dm_plex_box_faces", "4,4", "-order", "2", "-nu", "0.01", "-ts_max_steps", "2", "-bc_left_type", "wall", "-bc_right_type", "wall", "-bc_top_type", "wall"]
test("flow/errors/group-without-type")(error_test(FLOW_CAVITY_BOX[1:], r"-problem flow: boundary group\(s\) bottom of the mesh have no type: give -bc_<group>_type wall\|inflow\|outflow for each. The mesh's boundary groups: left,right,bottom,top; the groups with a type: left,right,top"))
test("flow/errors/type-for-missing-group")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-bc_lid_type", "inflow"], r"-problem flow: -bc_<group>_type names group\(s\) lid that the mesh lacks. The mesh's boundary groups: left,right,bottom,top; the groups with a type: .*lid"))
test("flow/errors/slip-not-yet")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "slip"], r"-bc_bottom_type slip: slip/symmetry boundaries are not available yet"))
test("flow/errors/unknown-type")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "lid"], r"-bc_bottom_type 'lid': the boundary types are wall, inflow and outflow"))
test("flow/errors/unknown-variable")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-bc_top_u", "Um*q", "-const", "Um=1"], r"-bc_top_u: cannot evaluate the expression \"Um\*q\": .*position 3"))
test("flow/errors/syntax")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-ic_u", "3*(x+"], r"-ic_u: cannot evaluate the expression \"3\*\(x\+\"[^\n]*position"))
test("flow/errors/not-finite-at-a-node")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-bc_top_u", "1/(x-0.5)"], r"-bc_top_u: the expression \"1/\(x-0.5\)\" is not finite \(inf\.?\) at x = \(0.5, 1.?, 0.?\), t = 0"))
test("flow/errors/pressure-on-a-wall")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-bc_top_p", "1"], r"-bc_top_p: the pressure is given on outflow groups only; group top is of type wall"))
test("flow/errors/no-viscosity")(error_test([a for a in FLOW_CAVITY_BOX[1:] if a not in ("-nu", "0.01")] + ["-bc_bottom_type", "wall"], r"-problem flow needs the kinematic viscosity -nu > 0"))
test("flow/errors/probe-outside")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-probe_points", "0.5,0.5;2,2"], r"-probe_points: point 2 \(2,2\) is in no element of mesh"))
test("flow/errors/force-group-missing")(error_test(FLOW_CAVITY_BOX[1:] + ["-bc_bottom_type", "wall", "-monitor_force_groups", "cylinder"], r"Boundary group 'cylinder' \(from -monitor_force_groups\) is not in mesh .*; its named groups are: .*top"))


@test("flow/channel-cylinder/monitors-written")
def _():
    """examples/channel_cylinder (DFG 2D-1) for 3 steps at N = 2: the cylinder's force monitors and
    the two pressure probes are written every step and finite (the steady benchmark values need the
    full run of the README)."""
    with tempfile.TemporaryDirectory() as tmp:
        run([HOFLOW, "-options_file", "examples/channel_cylinder/channel_cylinder.yaml", "-order", "2", "-ts_max_steps", "3", "-output_dir", tmp, "-output_interval", "0", "-progress_interval", "-1"])
        rows = flow_monitors(os.path.join(tmp, "monitors.csv"))
    names = ["drag_coefficient:cylinder", "lift_coefficient:cylinder", "force_pressure_x:cylinder", "force_viscous_x:cylinder", "pressure_probe_1", "pressure_probe_2", "pressure_difference"]
    flow_finite(rows, names)
    check(len(rows) == 4, "%d rows, expected 4 (steps 0..3)" % len(rows))
    return "%d rows; at t = %s: Cd %s, dp %s" % (len(rows), rows[-1]["time"], rows[-1]["drag_coefficient:cylinder"], rows[-1]["pressure_difference"])


# ---------------------------------------------------------------- GPU (make test-gpu)
@test("gpu/flow/time-dependent-boundary-host-vs-device", gpu=True)
def _():
    """The Poiseuille case (time-dependent inflow re-evaluated at every new time) on the GPU: the
    monitors match the host run, and inside the step's stages every host-to-device copy is smaller
    than one volume vector (only the boundary faces' packed data cross, -log_view)."""
    gpu_or_skip()
    res = {}
    for backend, extra in (("host", []), ("device", ["-dm_vec_type", "cuda", "-log_view"])):
        with tempfile.TemporaryDirectory() as tmp:
            _, out = run(POISEUILLE + ["-ts_max_time", "0.4", "-vel_ksp_rtol", "1e-12", "-pres_ksp_rtol", "1e-12", "-output_dir", tmp] + extra)
            res[backend] = (flow_monitors(os.path.join(tmp, "monitors.csv"))[-1], out)
    for k in ("pressure_difference", "force_viscous_x:bottom", "kinetic_energy"):
        h, d = float(res["host"][0][k]), float(res["device"][0][k])
        check(abs(h - d) <= 1e-7 * max(abs(h), 1e-12), "%s: host %.12e, device %.12e" % (k, h, d))
    volume_mb = 8 * 16 * 8 / 1e6  # one field: 8 quadrilaterals x 16 nodes (N = 3) x 8 bytes
    big = []
    out = res["device"][1]
    for name, body in re.findall(r"^--- Event Stage \d+: (INS (?:advection|velocity|pressure|update))\s*$(.*?)(?=^--- Event Stage|\Z)", out, re.M | re.S):
        for line in body.splitlines():
            t = line.split()
            if len(t) < 20 or not re.match(r"^[A-Za-z]\w*\s+\d+\s", line):
                continue
            c2g, c2g_mb = float(t[-5]), float(t[-4])
            if c2g > 0 and c2g_mb / c2g >= volume_mb:
                big.append("%s %s: %d copies, %g MB" % (name, t[0], c2g, c2g_mb))
    check(not big, "host-to-device copies of a volume vector's size inside a step: " + "; ".join(big))
    return "pressure difference host %s device %s" % (res["host"][0]["pressure_difference"], res["device"][0]["pressure_difference"])


@test("flow/square-cylinder-preset/equals-problem")
def _():
    """options/square_cylinder_flow.yaml (-problem flow, boundary data and monitors from options) against
    -problem square_cylinder (C): 10 steps at N = 2 give the same drag and lift coefficients at every
    step to 1e-9 relative to the largest, so the preset sheds at the problem's Strouhal number."""
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("square_cylinder", "square_cylinder_flow"):
            csvf = os.path.join(tmp, name + ".csv")
            run([HOFLOW, "-options_file", "options/%s.yaml" % name, "-order", "2", "-ts_max_steps", "10", "-output_interval", "0",
                 "-checkpoint_interval", "0", "-progress_interval", "-1", "-monitor_file", csvf, "-output_dir", tmp])
            res[name] = flow_monitors(csvf)
    a, b = res["square_cylinder"], res["square_cylinder_flow"]
    check(len(a) == len(b) == 11, "rows: %d and %d (expected 11)" % (len(a), len(b)))
    worst = 0.0
    for col_a, col_b in (("drag_coefficient", "drag_coefficient:cylinder"), ("lift_coefficient", "lift_coefficient:cylinder")):
        va, vb = [float(r[col_a]) for r in a], [float(r[col_b]) for r in b]
        scale = max(abs(v) for v in va)
        diff = max(abs(x - y) for x, y in zip(va, vb)) / scale
        check(diff <= 1e-9, "%s: problem %s, preset %s (relative difference %.1e)" % (col_a, va[-3:], vb[-3:], diff))
        worst = max(worst, diff)
    return "drag %.6f lift %.3e after 10 steps, largest relative difference %.1e" % (float(a[-1]["drag_coefficient"]), float(a[-1]["lift_coefficient"]), worst)
