# hoflow test suite: the compressible Euler equations (hoflow/pointwise/euler.h, -disc mdg, physics
# euler). exec()'d by tests/run.py into its globals (test, run, check, summary, Failure, Skip, ROOT).
TEST_EULER = os.path.join(ROOT, "build", "tests", "test_euler")


@test("euler/pointwise")
def _():
    """Fluxes consistent and conservative to round-off in 1D-3D, upwind when supersonic, boundary states."""
    _, out = run([TEST_EULER])
    worst = 0.0
    for dim in (1, 2, 3):
        m = re.search(r"^dim %d primitive_roundtrip (\S+)$" % dim, out, re.M)
        check(m and float(m.group(1)) < 1e-14, "dim %d: primitive round trip\n%s" % (dim, out))
        for flux in ("rusanov", "roe", "hllc"):
            m = re.search(r"^dim %d flux %s consistency (\S+) conservation (\S+)$" % (dim, flux), out, re.M)
            check(m, "no line for dim %d flux %s:\n%s" % (dim, flux, out))
            c, s = float(m.group(1)), float(m.group(2))
            check(c < 1e-14 and s < 1e-14, "dim %d flux %s: consistency %g, conservation %g (expected < 1e-14)" % (dim, flux, c, s))
            worst = max(worst, c, s)
        m = re.search(r"^dim %d supersonic_upwind (\S+)$" % dim, out, re.M)
        check(m and float(m.group(1)) < 1e-14, "dim %d: Roe/HLLC not upwind for supersonic states\n%s" % (dim, out))
        m = re.search(r"^dim %d bc slip_wall (\S+) farfield_freestream (\S+) pressure_outflow (\S+) subsonic_inflow (\S+)$" % dim, out, re.M)
        check(m, "no boundary line for dim %d:\n%s" % (dim, out))
        vals = [float(v) for v in m.groups()]
        check(all(v < 1e-13 for v in vals), "dim %d boundary states (wall, far field, outflow, inflow): %s" % (dim, vals))
    return "3 fluxes x 3 dims consistent/conservative to %.1e; wall, far field, outflow, inflow states" % worst
