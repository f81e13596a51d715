# hoflow test suite: restarts of -disc fr at another order (-restart_project; order sequencing as for the sphere:
# converge N = 1, continue at N = 3), on tetrahedra and prisms (dense FR), hexahedra (tensor FR) and meshes that mix
# shapes (each element projected with its own shape). exec()'d by tests/run.py into its globals. About 25 s.
FRR_VORTEX = ["-disc", "fr", "-problem", "isentropic_vortex", "-vortex_radius", "0.15", "-vortex_strength", "1", "-bc_farfield", "left,right,front,back,bottom,top",
              "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-progress_interval", "-1", "-monitor_file", "none"]
FRR_FREESTREAM = ["-disc", "fr", "-problem", "freestream", "-freestream_angle", "17", "-dm_plex_filename", "examples/meshes/cube_mixed.msh", "-bc_farfield", "left,right,front,back,bottom,top",
                  "-ts_type", "rk", "-ts_rk_type", "lserk4", "-cfl", "0.5", "-progress_interval", "-1"]
FRR_SPHERE = ["-options_file", "options/sphere_re118.yaml", "-dm_plex_filename", "examples/meshes/sphere_re118_coarse.msh", "-monitor_interval", "1", "-progress_interval", "-1"]
FRR_ANNOUNCE = r"^restart: \S+ has order %d on %d elements; its 1 vectors \(state and history\) projected onto order %d on %d elements \(-restart_project\)$"


def _frr_run(args, ranks=1, ok=True):
    return run(([*MPIEXEC, str(ranks)] if ranks > 1 else []) + [HOFLOW] + args, expect_ok=ok)


def _frr_monomials(shape, n, p):
    """the source space in physical coordinates p [m, 3] (centred and scaled): P_n on tetrahedra, P_n(x, y) x P_n(z) on
    the prisms extruded along z, Q_n on the axis-aligned hexahedra"""
    import itertools
    import numpy as np
    ok = {"tetrahedron": lambda a, b, c: a + b + c <= n, "prism": lambda a, b, c: a + b <= n and c <= n, "hexahedron": lambda a, b, c: max(a, b, c) <= n}[shape]
    return np.stack([p[:, 0] ** a * p[:, 1] ** b * p[:, 2] ** c for a, b, c in itertools.product(range(n + 1), repeat=3) if ok(a, b, c)], axis=1)


def fr_restart_polynomial(shape, mesh, src_order, order):
    """An isentropic vortex at N = src_order for 2 steps, checkpointed, restarted at N = order >= src_order with 0 more
    steps: on every element the restarted density at the new solution points is the checkpoint's polynomial (a fit of
    the source space through the element's source points, from the field output), to round-off."""
    def f():
        h5py = h5py_or_skip()
        import numpy as np
        with tempfile.TemporaryDirectory() as tmp:
            args = FRR_VORTEX + ["-dm_plex_filename", "examples/meshes/%s.msh" % mesh] + (["-dm_coord_space", "0"] if shape == "prism" else [])
            s0 = summary(_frr_run(args + ["-order", str(src_order), "-ts_max_steps", "2", "-checkpoint_interval", "2", "-output_interval", "2", "-output_dir", tmp + "/a"])[1])
            _, out = _frr_run(args + ["-order", str(order), "-ts_max_steps", "2", "-output_interval", "1", "-output_dir", tmp + "/b", "-restart", tmp + "/a/checkpoint.h5", "-restart_project"])
            s1, K = summary(out), s0["cells"]
            check(re.search(FRR_ANNOUNCE % (src_order, K, order, K), out, re.M), "no announcement of the projection:\n" + out[-800:])
            read = lambda d, step: (h5py.File("%s/%s/isentropic_vortex_mesh_%06d.h5" % (tmp, d, step))["geometry"][()], h5py.File("%s/%s/isentropic_vortex_000002.h5" % (tmp, d))["density"][()])
            xa, ua = read("a", 0)
            xb, ub = read("b", 2)
        check(int(s1["start"]) == 2 and int(s1["steps"]) == 2 and s1["order"] == order and len(ua) % K == 0 and len(ub) % K == 0, "restart ran %s; %d and %d points on %d elements" % (s1, len(ua), len(ub), K))
        xa, ua, xb, ub = xa.reshape(K, -1, 3), ua.reshape(K, -1), xb.reshape(K, -1, 3), ub.reshape(K, -1)
        err = 0.0
        for e in range(K):
            c, h = xa[e].mean(axis=0), np.ptp(xa[e], axis=0).max()
            A = _frr_monomials(shape, src_order, (xa[e] - c) / h)
            check(A.shape[0] == A.shape[1], "%s N = %d: %d points, %d monomials" % (shape, src_order, A.shape[0], A.shape[1]))
            coef = np.linalg.solve(A, ua[e])
            err = max(err, np.abs(_frr_monomials(shape, src_order, (xb[e] - c) / h) @ coef - ub[e]).max())
        check(err <= 1e-12 * np.abs(ua).max(), "restarted N = %d density differs from the N = %d checkpoint's polynomials by %g" % (order, src_order, err))
        return "%s N = %d -> %d on %d elements: the checkpoint's polynomials to %.1e (L2 density %.3e -> %.3e)" % (shape, src_order, order, K, err, s0["L2"], s1["L2"])
    return f


test("fr/restart-project/polynomial/tetrahedron-N1-to-N3")(fr_restart_polynomial("tetrahedron", "cube_tet", 1, 3))
test("fr/restart-project/polynomial/tetrahedron-N2-to-N4")(fr_restart_polynomial("tetrahedron", "cube_tet", 2, 4))
test("fr/restart-project/polynomial/prism-N1-to-N3")(fr_restart_polynomial("prism", "cube_prism", 1, 3))
test("fr/restart-project/polynomial/hexahedron-N1-to-N3")(fr_restart_polynomial("hexahedron", "cube_hex", 1, 3))
test("fr/restart-project/polynomial/hexahedron-N2-to-N3")(fr_restart_polynomial("hexahedron", "cube_hex", 2, 3))


def _frr_sequence(tmp, base, n0, steps0, n1, steps1):
    """N = n0 for steps0 steps, checkpointed in tmp/a; continued at N = n1 to step steps1 with -restart_project on 1 and 2
    ranks (tmp/b1, tmp/b2), each announcing the projection: the first run's summary and [(ranks, summary)]"""
    s0 = summary(_frr_run(base + ["-order", str(n0), "-ts_max_steps", str(steps0), "-checkpoint_interval", str(steps0), "-output_dir", tmp + "/a"])[1])
    runs = []
    for ranks in (1, 2):
        _, out = _frr_run(base + ["-order", str(n1), "-ts_max_steps", str(steps1), "-output_dir", "%s/b%d" % (tmp, ranks), "-restart", tmp + "/a/checkpoint.h5", "-restart_project"], ranks)
        check(re.search(FRR_ANNOUNCE % (n0, s0["cells"], n1, s0["cells"]), out, re.M), "%d ranks: no announcement:\n%s" % (ranks, out[-800:]))
        runs.append((ranks, summary(out)))
    return s0, runs


@test("fr/restart-project/mixed/freestream-N1-to-N3-1-and-2-ranks")
def _():
    # the tetrahedron/prism/hexahedron cube: the free stream at N = 1 (2 steps), continued at N = 3 on 1 and 2 ranks for
    # 2 steps: still the free stream to round-off, the same on both
    with tempfile.TemporaryDirectory() as tmp:
        s0, runs = _frr_sequence(tmp, FRR_FREESTREAM, 1, 2, 3, 4)
    for ranks, s in runs:
        check(s["shape"] == "tetrahedron+prism+hexahedron" and int(s["start"]) == 2 and int(s["steps"]) == 4 and s["L2"] <= 1e-14, "%d ranks: %s" % (ranks, s))
    check(s0["L2"] <= 1e-14, "the N = 1 free stream: L2 density error %g" % s0["L2"])
    return "L2 density error of the free stream: N = 1 %.1e; N = 3 after the projection and 2 steps %.1e (1 rank), %.1e (2 ranks)" % (s0["L2"], runs[0][1]["L2"], runs[1][1]["L2"])


def _frr_drag(path):
    import csv
    with open(path) as f:
        return {int(r["step"]): float(r["drag"]) for r in csv.DictReader(f)}


@test("fr/restart-project/mixed/sphere-coarse-N1-to-N2-1-to-2-ranks")
def _():
    # the sphere case's workflow on the coarse prism/tetrahedron mesh: N = 1 for 5 steps, checkpointed, continued at N = 2
    # (wall and far field curved as options/sphere_re118.yaml has them) for 3 steps on 1 and on 2 ranks: the drag finite
    # and the same on both (reductions in another order: 1e-12)
    import math
    drag = []
    with tempfile.TemporaryDirectory() as tmp:
        s0, runs = _frr_sequence(tmp, FRR_SPHERE, 1, 5, 2, 8)
        for ranks, s in runs:
            d = _frr_drag("%s/b%d/monitors.csv" % (tmp, ranks))
            check(int(s["start"]) == 5 and int(s["steps"]) == 8 and sorted(d) == [6, 7, 8] and all(math.isfinite(v) and 0 < v < 100 for v in d.values()), "%d ranks: %s, drag %s" % (ranks, s, d))
            drag.append(d[8])
        d0 = _frr_drag(tmp + "/a/monitors.csv")
    check(abs(drag[0] - drag[1]) <= 1e-12 * abs(drag[0]), "drag at step 8: 1 rank %r, 2 ranks %r" % tuple(drag))
    return "%s, %d elements: C_D %.4f at step 5 (N = 1), %.6f at step 8 (N = 2; 1 rank), %.6f (2 ranks)" % (s0["shape"], s0["cells"], d0[5], drag[0], drag[1])


def _frr_error(second, pattern):
    def f():
        with tempfile.TemporaryDirectory() as tmp:
            _frr_run(FRR_FREESTREAM + ["-order", "1", "-ts_max_steps", "2", "-checkpoint_interval", "2", "-output_dir", tmp + "/a"])
            code, out = _frr_run(FRR_FREESTREAM + ["-ts_max_steps", "4", "-output_dir", tmp + "/b", "-restart", tmp + "/a/checkpoint.h5"] + second, ok=False)
        check(code != 0 and re.search(pattern, out), "expected /%s/ in:\n%s" % (pattern, out[-1500:]))
        return re.search(pattern, out).group(0)[:120]
    return f


test("fr/restart-project/errors/mixed-other-order-without-flag")(_frr_error(["-order", "3"], r"was written for order 1, but this run has order 3 \(-order\); add -restart_project to project the checkpoint onto this order"))
test("fr/restart-project/errors/mixed-refined")(_frr_error(["-order", "3", "-dm_refine", "1", "-restart_project"],
                                                          r"has 344 elements, this run's mesh 2752: -restart_project maps a checkpoint onto the mesh it refines only on a mesh of one element shape; this mesh mixes shapes"))


def fr_restart_refined_freestream(mesh):
    """on one shape the checkpoint's mesh refined (-dm_refine 1: each element inside one of the file's, mapped through
    the affine maps): the free stream at N = 2, continued at N = 3 on the refined mesh, stays the free stream"""
    def f():
        args = FRR_FREESTREAM[:FRR_FREESTREAM.index("-dm_plex_filename")] + FRR_FREESTREAM[FRR_FREESTREAM.index("-dm_plex_filename") + 2:] + ["-dm_plex_filename", "examples/meshes/%s.msh" % mesh]
        with tempfile.TemporaryDirectory() as tmp:
            s0 = summary(_frr_run(args + ["-order", "2", "-ts_max_steps", "2", "-checkpoint_interval", "2", "-output_dir", tmp + "/a"])[1])
            _, out = _frr_run(args + ["-order", "3", "-dm_refine", "1", "-ts_max_steps", "4", "-output_dir", tmp + "/b", "-restart", tmp + "/a/checkpoint.h5", "-restart_project"])
        s = summary(out)
        check(re.search(r"^restart: \S+ has order 2 on %d elements; its 1 vectors .* projected onto order 3 on %d elements \(the checkpoint's mesh refined\) \(-restart_project\)$" % (s0["cells"], 8 * s0["cells"]), out, re.M), "no announcement:\n" + out[-800:])
        check(s0["L2"] <= 1e-14 and s["L2"] <= 1e-14 and int(s["steps"]) == 4, "free stream: N = 2 %g, refined N = 3 %g (%s)" % (s0["L2"], s["L2"], s))
        return "%s N = 2 on %d elements -> N = 3 on %d: L2 density error %.1e -> %.1e" % (s["shape"], s0["cells"], s["cells"], s0["L2"], s["L2"])
    return f


test("fr/restart-project/refined/tetrahedron-freestream")(fr_restart_refined_freestream("cube_tet"))
test("fr/restart-project/refined/hexahedron-freestream")(fr_restart_refined_freestream("cube_hex"))
