# hoflow test suite: the sphere at Re 118, Ma 0.2 with flux reconstruction (issue 17, seed 003 §VIII.A) and the wall
# data of -disc fr (disc/fr_wall.c). exec()'d by tests/run.py into its globals.
SPHERE_COARSE = ["-problem", "sphere", "-disc", "fr", "-order", "1", "-dm_plex_filename", "examples/meshes/sphere_re118_coarse.msh", "-curve_wall", "sphere", "-curve_wall_radius", "0.5",
                 "-curve_farfield", "sphere", "-curve_farfield_radius", "20", "-euler_local_time_step", "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-progress_interval", "-1"]


def couette_wall_shear(disc, refine):
    """The largest relative error of the wall shear |tau_x| against the exact mu U / H = 0.125 (couette.msh, N = 2, Ma
    0.5, Re 2: mu = 0.5, U / H = 0.25) of the exact state (no step), from -ns_surface_file"""
    with tempfile.TemporaryDirectory() as tmp:
        surf = os.path.join(tmp, "surface.csv")
        run([HOFLOW, "-problem", "couette", "-disc", disc, "-order", "2", "-couette_reynolds", "2", "-couette_mach", "0.5", "-dm_plex_filename", "examples/meshes/couette.msh", "-dm_refine", str(refine),
             "-ts_max_steps", "0", "-ns_surface_file", surf, "-monitor_file", "none", "-output_dir", tmp])
        with open(surf) as f:
            rows = list(csv.DictReader(f))
    return max(abs(abs(float(r["tau_x"])) / 0.125 - 1) for r in rows), len(rows)


@test("fr/navier-stokes/wall-samples/couette")
def _():
    """Dense FR's wall samples (disc/fr_wall.c) on the exact Couette state, triangles, N = 2: the wall shear against mu U / H
    (2026-11-26: FR 8.65e-4, 2.26e-4 on couette.msh refined 0, 1: rate 1.94; modal DG's BR2 3.88e-3, 1.01e-3)"""
    fr0, n0 = couette_wall_shear("fr", 0)
    fr1, n1 = couette_wall_shear("fr", 1)
    mdg0, _ = couette_wall_shear("mdg", 0)
    rate = math.log(fr0 / fr1) / math.log(2)
    check(n0 == 30 and n1 == 60, "wall points %d, %d (expected 30, 60: 5 + 10 faces a wall, 3 points a face)" % (n0, n1))
    check(fr0 < 1.2e-3 and fr1 < 3e-4 and rate > 1.8 and fr0 < mdg0, "FR wall shear errors %.3e, %.3e (rate %.2f), modal DG %.3e" % (fr0, fr1, rate, mdg0))
    return "FR %.3e, %.3e (rate %.2f); mdg %.3e" % (fr0, fr1, rate, mdg0)


@test("sphere/coarse-N1-20-steps")
def _():
    """-problem sphere on the coarse mesh, N = 1, 20 local LSERK4 steps from the free stream (an impulsive start: the
    numbers are the transient's, a regression band, not the steady drag; 2026-11-26: C_D 15.403 = 13.962 pressure +
    1.441 viscous, lift -0.068, residual 1231 -> 153). Checks the curved prism/tetrahedron mesh runs with -disc fr, the
    wall samples' forces and the local steps."""
    with tempfile.TemporaryDirectory() as tmp:
        run([HOFLOW] + SPHERE_COARSE + ["-ts_max_steps", "20", "-monitor_interval", "10", "-output_dir", tmp], timeout=300)
        with open(os.path.join(tmp, "monitors.csv")) as f:
            rows = list(csv.DictReader(f))
    last = rows[-1]
    cd, cdp, cdv, cl = float(last["drag"]), float(last["drag_pressure"]), float(last["drag_viscous"]), float(last["lift"])
    r0, r = float(rows[0]["residual"]), float(last["residual"])
    check(len(rows) == 3 and abs(cd - 15.403) < 0.05 and abs(cdp + cdv - cd) < 1e-9 and abs(cl) < 0.1 and r < 0.2 * r0, "C_D %.4f (%.4f + %.4f), lift %.3f, residual %.1f -> %.1f" % (cd, cdp, cdv, cl, r0, r))
    return "C_D %.4f (pressure %.4f, viscous %.4f), lift %.3f, residual %.1f -> %.1f" % (cd, cdp, cdv, cl, r0, r)


test("sphere/errors/missing-mesh")(error_test(["-problem", "sphere", "-dm_plex_filename", "examples/meshes/no_such_sphere.msh"], r"Mesh file 'examples/meshes/no_such_sphere\.msh' \(from -dm_plex_filename\) does not exist"))
test("sphere/errors/reynolds")(error_test(["-problem", "sphere", "-sphere_reynolds", "-1"], r"-sphere_reynolds -1\.? must be positive"))
