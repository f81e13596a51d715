# hoflow test suite: checkpoints and restarts on meshes that mix element shapes (each element a block of its
# own width in the file, blocks/widths): 10 + 10 steps against 20 (the sphere 5 + 5) on 1 and 2 ranks, 1 -> 2 and 2 -> 1, on the
# coarse sphere mesh (prisms and tetrahedra, -disc fr) and a periodic mixed cube (hexahedra, prisms, tetrahedra;
# -disc fr and mdg). exec()'d by tests/run.py into its globals. About 40 s on two cores.
import csv as _csv

SPHERE = ["-options_file", "options/sphere_re118.yaml", "-order", "1", "-dm_plex_filename", os.path.join(ROOT, "examples", "meshes", "sphere_re118_coarse.msh"),
          "-curve_wall", "none", "-curve_farfield", "none", "-monitor_interval", "1", "-progress_interval", "-1"]
# reductions over 2 ranks (the residual norm, the mass) differ from run to run in the last bit; the state does not
REDUCED = ("residual", "mass", "energy", "L2_error_density")


def _mixed_periodic_mesh():
    path = os.path.join(ROOT, "output", "test-meshes", "periodic_mixed_4.msh")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        run([sys.executable, os.path.join(ROOT, "scripts", "periodic_mesh.py"), "--shape", "mixed", "--n", "4", "-o", path])
    return ["-dm_plex_filename", path]


def _state_by_key(path):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        keys = f["blocks/keys"][()]
        order = np.lexsort(keys.T[::-1])
        return {k: f["vectors"][k][()][order] for k in f["vectors"].keys()}, f["blocks/widths"][()][order]


def _monitor_rows(path):
    with open(path) as f:
        return {int(r["step"]): r for r in _csv.DictReader(f)}


def _hoflow(ranks, args):
    return run((MPIEXEC + [str(ranks)] if ranks > 1 else []) + [HOFLOW] + args)[1]


def mixed_restart_bitwise(args, steps=10):
    """Uninterrupted 2*steps on 1 and 2 ranks against `steps` on w ranks continued on r ranks, (w, r) = (1, 1),
    (2, 2), (1, 2), (2, 1): the final checkpoints' vectors (rows sorted by key) and the monitor rows after the
    restart identical (on 2 ranks the reductions REDUCED to 1e-14 relative)."""
    h5py_or_skip()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        ref, part = {}, {}
        for n in (1, 2):
            d = os.path.join(tmp, "ref%d" % n)
            _hoflow(n, args + ["-ts_max_steps", str(2 * steps), "-checkpoint_interval", str(2 * steps), "-output_dir", d])
            ref[n] = (_state_by_key(os.path.join(d, "checkpoint.h5")), _monitor_rows(os.path.join(d, "monitors.csv")))
            part[n] = os.path.join(tmp, "part%d" % n)
            _hoflow(n, args + ["-ts_max_steps", str(steps), "-checkpoint_interval", str(steps), "-output_dir", part[n]])
        worst = 0.0
        for w, r in ((1, 1), (2, 2), (1, 2), (2, 1)):
            d = os.path.join(tmp, "r%d%d" % (w, r))
            out = _hoflow(r, args + ["-ts_max_steps", str(2 * steps), "-checkpoint_interval", str(2 * steps), "-output_dir", d, "-restart", os.path.join(part[w], "checkpoint.h5")])
            s = summary(out)
            check(int(s["start"]) == steps and int(s["steps"]) == 2 * steps, "%d -> %d ranks: ran %s" % (w, r, s))
            (ua, wa), ma = ref[r]
            ub, wb = _state_by_key(os.path.join(d, "checkpoint.h5"))
            check(sorted(ua) == sorted(ub) and np.array_equal(wa, wb), "%d -> %d ranks: vectors %s / %s" % (w, r, sorted(ua), sorted(ub)))
            for k in ua:
                check(np.array_equal(ua[k], ub[k]), "%d -> %d ranks: vector %s differs by %g" % (w, r, k, np.abs(ua[k] - ub[k]).max()))
            mb = _monitor_rows(os.path.join(d, "monitors.csv"))
            check(sorted(mb) == list(range(steps + 1, 2 * steps + 1)), "%d -> %d ranks: monitor steps %s" % (w, r, sorted(mb)))
            for step, row in mb.items():
                for col, v in row.items():
                    a, b = float(ma[step][col]), float(v)
                    if r > 1 and col in REDUCED:
                        worst = max(worst, abs(a - b) / max(abs(a), 1e-300))
                        check(abs(a - b) <= 1e-14 * abs(a), "%d -> %d ranks: step %d %s %r, uninterrupted %r" % (w, r, step, col, v, ma[step][col]))
                    else:
                        check(v == ma[step][col], "%d -> %d ranks: step %d %s %r, uninterrupted %r" % (w, r, step, col, v, ma[step][col]))
        widths = sorted(set(int(x) for x in wa))
    return "%s on %d elements (widths %s): %d + %d steps = %d on 1->1, 2->2, 1->2, 2->1 ranks, vectors bitwise, monitors identical (2 ranks: %s within %.1e)" % (
        s["shape"], s["cells"], widths, steps, steps, 2 * steps, "/".join(REDUCED), worst)


@test("io/restart/mixed/sphere-coarse-fr")
def _():
    return mixed_restart_bitwise(SPHERE, steps=5)


@test("io/restart/mixed/periodic-fr")
def _():
    return mixed_restart_bitwise(["-disc", "fr", "-problem", "isentropic_vortex", "-vortex_radius", "0.15", "-vortex_strength", "1", "-order", "2",
                                  "-monitor_interval", "1", "-progress_interval", "-1"] + _mixed_periodic_mesh())


@test("io/restart/mixed/periodic-mdg")
def _():
    return mixed_restart_bitwise(["-disc", "mdg", "-problem", "isentropic_vortex", "-vortex_radius", "0.15", "-vortex_strength", "1", "-order", "2",
                                  "-monitor_interval", "1", "-progress_interval", "-1"] + _mixed_periodic_mesh())


@test("io/restart/mixed/other-order-projected")
def _():
    # order sequencing on a mesh of several shapes (-restart_project, tests/suite_fr_restart.py for the numbers): order 2
    # continued at order 3 on the periodic mixed mesh, each element projected with its own shape
    with tempfile.TemporaryDirectory() as tmp:
        args = ["-disc", "fr", "-problem", "isentropic_vortex", "-vortex_radius", "0.15", "-vortex_strength", "1", "-progress_interval", "-1"] + _mixed_periodic_mesh()
        s0 = summary(_hoflow(1, args + ["-order", "2", "-ts_max_steps", "2", "-checkpoint_interval", "2", "-output_dir", tmp]))
        out = _hoflow(1, args + ["-order", "3", "-ts_max_steps", "4", "-output_dir", tmp + "/b", "-restart", tmp + "/checkpoint.h5", "-restart_project"])
        s = summary(out)
        check(re.search(r"^restart: \S+ has order 2 on %d elements; its 1 vectors .* projected onto order 3 on %d elements \(-restart_project\)$" % (s0["cells"], s0["cells"]), out, re.M), "no announcement:\n" + out[-1500:])
        check(int(s["start"]) == 2 and int(s["steps"]) == 4 and s["L2"] < 2 * s0["L2"], "order 3 after the projection: %s (order 2: L2 %g)" % (s, s0["L2"]))
    return "order 2 -> 3 on the periodic mixed mesh (%d elements): L2 density error %.3e at step 2, %.3e at step 4" % (s0["cells"], s0["L2"], s["L2"])
