# hoflow test suite: output, checkpoint/restart, monitors, progress and the heat problem that
# exercises them. exec()'d by tests/run.py into its globals (test, run, check, summary, Failure,
# Skip, ROOT, HOFLOW, MPIEXEC). Small meshes and few steps: about a minute on two cores.
import csv as _csv
import glob as _glob
import shutil as _shutil

TEST_IO = os.path.join(ROOT, "build", "tests", "test_io")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
HEAT = [HOFLOW, "-problem", "heat", "-progress_interval", "-1"]


def h5py_or_skip():
    try:
        import h5py  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        raise Skip("python3-h5py is not installed (sh scripts/install-deps.sh)")
    import h5py
    return h5py


def heat_summary(out):
    s = summary(out)
    for k in ("start", "steps"):
        s[k] = int(s[k])
    for k in ("time", "dt"):
        s[k] = float(s[k])
    return s


def read_state(path):
    """State u of a checkpoint, rows (elements) sorted by their keys (centroid, all three coordinates: in
    3D elements above each other share x and y): partition-free. Where a partition lists an element's
    vertices in another order its nodes come in another order too: compare rows with sorted_rows."""
    h5py = h5py_or_skip()
    import numpy as np
    with h5py.File(path, "r") as f:
        keys, u = f["blocks/keys"][()], f["vectors/u"][()]
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    order = np.lexsort((keys[:, 2], keys[:, 1], keys[:, 0]))
    return u[order], attrs


# ---------------------------------------------------------------- the heat problem (TS)
@test("heat/time-convergence/beuler-1-cn-2")
def _():
    # order 5 makes the spatial error negligible: the error at t = 1 is the time stepping's
    rates = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ts, dts in (("beuler", (0.1, 0.05, 0.025)), ("cn", (0.2, 0.1, 0.05))):
            errs = []
            for dt in dts:
                s = heat_summary(run(HEAT + ["-order", "5", "-ts_type", ts, "-ts_dt", str(dt), "-ksp_rtol", "1e-12", "-output_dir", tmp])[1])
                check(s["steps"] == round(1 / dt) and abs(s["time"] - 1) < 1e-12, "%s dt %g: %d steps to t = %g, expected %d to 1" % (ts, dt, s["steps"], s["time"], round(1 / dt)))
                errs.append(s["L2"])
            rates[ts] = [math.log(errs[i] / errs[i + 1], 2) for i in range(2)]
            rates[ts + "_err"] = errs
    check(0.9 <= rates["beuler"][-1] <= 1.1, "backward Euler rate %.2f, expected 1 (errors %s)" % (rates["beuler"][-1], rates["beuler_err"]))
    check(1.9 <= rates["cn"][-1] <= 2.1, "Crank-Nicolson rate %.2f, expected 2 (errors %s)" % (rates["cn"][-1], rates["cn_err"]))
    return "beuler rates %.2f %.2f, cn rates %.2f %.2f" % (*rates["beuler"], *rates["cn"])


@test("heat/ts-options/max-time-monitor-quad")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        _, out = run(HEAT + ["-order", "3", "-dm_plex_box_faces", "4,4", "-bc_dirichlet", "left,right,top,bottom", "-bc_neumann", "none",
                             "-ts_type", "cn", "-ts_dt", "0.1", "-ts_max_time", "0.35", "-ts_monitor", "-output_dir", tmp])
    s = heat_summary(out)
    monitored = re.findall(r"^(\d+) TS dt (\S+) time (\S+)$", out, re.M)
    # MATCHSTEP: three steps of 0.1 and a last one of 0.05 end at 0.35
    check(s["steps"] == 4 and abs(s["time"] - 0.35) < 1e-12 and s["shape"] == "quadrilateral", "expected 4 steps to t = 0.35 on quadrilaterals: %s" % s)
    check(len(monitored) == 5 and monitored[-1][0] == "4" and abs(float(monitored[-1][2]) - 0.35) < 1e-12, "-ts_monitor printed %s" % monitored)
    check(s["L2"] < 1e-3, "L2 error %g at t = 0.35" % s["L2"])
    return "steps %d time %g L2 %.3e" % (s["steps"], s["time"], s["L2"])


# ---------------------------------------------------------------- field output
IO_MESHES = {"quadrilateral": ["-dm_plex_box_faces", "3,2"], "triangle": ["-dm_plex_filename", SQUARE]}
IO_MESHES.update({s: ["-dm_plex_filename", "examples/meshes/cube_%s.msh" % m] for s, m in (("tetrahedron", "tet"), ("prism", "prism"), ("hexahedron", "hex"), ("mixed", "mixed"))})
IO_NP = {"triangle": lambda n: (n + 1) * (n + 2) // 2, "quadrilateral": lambda n: (n + 1) ** 2, "tetrahedron": lambda n: (n + 1) * (n + 2) * (n + 3) // 6,
         "prism": lambda n: (n + 1) ** 2 * (n + 2) // 2, "hexahedron": lambda n: (n + 1) ** 3}
XDMF_NVERTS = {4: 3, 5: 4, 6: 4, 8: 6, 9: 8}  # XDMF mixed-topology type number -> vertices


def io_unit(shape, order, ranks=1, extra=()):
    """A polynomial written through the field output and read back by test_io and by h5py: values at every
    sub-cell vertex, N^dim positively oriented sub-cells per element tiling the unit square or cube (mixed
    meshes in XDMF's mixed layout), and a bitwise checkpoint round trip (one element shape)."""
    def f():
        dim = 2 if shape in ("triangle", "quadrilateral") else 3
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ([*MPIEXEC, str(ranks)] if ranks > 1 else []) + [TEST_IO, "-order", str(order), "-test_dir", tmp] + IO_MESHES[shape] + list(extra)
            _, out = run(cmd)
            m = re.search(r"io: (.*)", out)
            check(m, "no result line:\n" + out[-1000:])
            toks = m.group(1).split()
            d = {k: float(v) for k, v in zip(toks[0::2], toks[1::2])}
            K, N = d["elements"], order
            check(d["cells"] == K * N ** dim, "expected %d sub-cells, read %d" % (K * N ** dim, d["cells"]))
            check(shape == "mixed" or d["points"] == K * IO_NP[shape](N), "expected %d points, read %d" % (K * IO_NP.get(shape, lambda n: 0)(N), d["points"]))
            check(d["value_error"] <= 1e-11, "values at sub-cell vertices differ from the polynomial by %g" % d["value_error"])
            check(d["geometry_error"] == 0, "geometry read back differs by %g" % d["geometry_error"])
            check(abs(d["area"] - 1) <= 1e-12 and d["min_area"] > 0, "sub-cells: total measure %.15f (expected 1), smallest %g (expected > 0)" % (d["area"], d["min_area"]))
            check(d["checkpoint_difference"] == (-1 if shape == "mixed" else 0), "checkpoint round trip differs by %g" % d["checkpoint_difference"])
            # an independent reader: h5py and numpy evaluate the polynomial at the points
            h5py = h5py_or_skip()
            import numpy as np
            with h5py.File(os.path.join(tmp, "poly_mesh_000000.h5")) as fm, h5py.File(os.path.join(tmp, "poly_000000.h5")) as ff:
                xyz, cells, p = fm["geometry"][()], fm["topology"][()], ff["p"][()]
            x, y = xyz[:, 0], xyz[:, 1]
            z = xyz[:, 2] if dim == 3 else 0 * x
            exact = (0.5 + 0.7 * x - 0.4 * y + 0.3 * z) ** N + 0.3 * y ** N - 0.2 * x + 0.1 * z ** N
            if cells.ndim == 1:  # mixed: type number, then the points, cell after cell
                idx, k, types = [], 0, {}
                while k < len(cells):
                    nv = XDMF_NVERTS[int(cells[k])]
                    types[int(cells[k])] = types.get(int(cells[k]), 0) + 1
                    idx.extend(cells[k + 1:k + 1 + nv])
                    k += nv + 1
                check(set(types) == {6, 8, 9}, "mixed topology holds XDMF types %s, expected tetrahedra, wedges and hexahedra (6, 8, 9)" % types)
                cells = np.array(idx)
            err = np.abs(p[cells] - exact[cells]).max()
            check(err <= 1e-11, "h5py: values at sub-cell vertices differ from the polynomial by %g" % err)
            return "points %d sub-cells %d value error %.1e (h5py %.1e) measure %.15f" % (d["points"], d["cells"], d["value_error"], err, d["area"])
    return f


test("io/fields/polynomial/triangle/N5")(io_unit("triangle", 5))
test("io/fields/polynomial/quadrilateral/N3")(io_unit("quadrilateral", 3))
test("io/fields/polynomial/triangle/N4/2-ranks-collective")(io_unit("triangle", 4, 2))
test("io/fields/polynomial/triangle/N4/2-ranks-gathered")(io_unit("triangle", 4, 2, ["-io_hdf5_collective", "0"]))
for _shape, _order in (("tetrahedron", 3), ("prism", 2), ("hexahedron", 3), ("mixed", 2)):
    test("io/fields/polynomial/%s/N%d" % (_shape, _order))(io_unit(_shape, _order))
test("io/fields/polynomial/mixed/N3/2-ranks-collective")(io_unit("mixed", 3, 2))
test("io/fields/polynomial/hexahedron/N2/2-ranks-gathered")(io_unit("hexahedron", 2, 2, ["-io_hdf5_collective", "0"]))


@test("io/fields/collective-equals-gathered")
def _():
    # one file set from 2 ranks: MPI-IO and rank-ordered gathering write the same numbers
    h5py = h5py_or_skip()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("1", "0"):
            run(MPIEXEC + ["2"] + HEAT + ["-order", "3", "-ts_max_steps", "2", "-output_interval", "2", "-io_hdf5_collective", mode, "-output_dir", os.path.join(tmp, mode)])
        files = sorted(os.path.basename(p) for p in _glob.glob(os.path.join(tmp, "1", "*.h5")))
        check(files == ["heat_000000.h5", "heat_000002.h5", "heat_mesh_000000.h5"], "output files %s" % files)
        for name in files:
            with h5py.File(os.path.join(tmp, "1", name)) as a, h5py.File(os.path.join(tmp, "0", name)) as b:
                check(sorted(a.keys()) == sorted(b.keys()), "%s: datasets %s vs %s" % (name, list(a.keys()), list(b.keys())))
                for k in a.keys():
                    check(np.array_equal(a[k][()], b[k][()]), "%s:/%s differs between collective and gathered writes" % (name, k))
    return "%d files, every dataset bitwise equal" % len(files)


def pvbatch_or_skip():
    if not _shutil.which("pvbatch"):
        raise Skip("ParaView's pvbatch is not installed (apt-get install paraview)")
    if not _shutil.which("xvfb-run") and not os.environ.get("DISPLAY"):
        raise Skip("pvbatch needs a display: install xvfb (xvfb-run)")
    return ["xvfb-run", "-a"] if _shutil.which("xvfb-run") else []


PVBATCH_LOCK = __import__("threading").Lock()


def run_pvbatch(xvfb, args):
    """pvbatch under Xvfb. xvfb-run -a can race with another xvfb-run started at the same moment
    (both take one display; ParaView then aborts creating its window): start the search for a
    free display at a random number and try again on that failure."""
    import random
    with PVBATCH_LOCK:  # two at once fail more often; the suite runs them one at a time
        for attempt in range(3):
            cmd = (xvfb + ["-n", str(random.randint(100, 30000))] if xvfb else []) + ["pvbatch"] + args
            code, out = run(cmd, expect_ok=False, timeout=300)
            if code == 0 or "CreateAWindow" not in out:
                break
    if code != 0:
        raise Failure("command failed (exit %d, %d attempts): %s\n%s" % (code, attempt + 1, " ".join(cmd), out[-3000:]))
    return attempt + 1, out


def paraview_test(ranks, order, mesh):
    def f():
        pv = pvbatch_or_skip()
        h5py = h5py_or_skip()
        import numpy as np
        with tempfile.TemporaryDirectory() as tmp:
            mpi = [*MPIEXEC, str(ranks)] if ranks > 1 else []
            s = heat_summary(run(mpi + HEAT + ["-order", str(order), "-ts_dt", "0.1", "-ts_max_steps", "10", "-output_interval", "5", "-output_dir", tmp] + mesh)[1])
            xmf = os.path.join(tmp, "heat.xmf")
            png = os.path.join(tmp, "u.png")
            attempts, out = run_pvbatch(pv, [os.path.join(ROOT, "scripts", "render_field.py"), xmf, "--field", "u", "--all", "--out", png])
            steps = re.findall(r"pvread: step (\d+) time (\S+) cells (\d+) points (\d+) u (\S+) (\S+)", out)
            check(re.search(r"pvread: timesteps 3\b", out) and len(steps) == 3, "ParaView read %s time steps:\n%s" % (len(steps), out[-1500:]))
            dim = 2 if s["shape"] in ("triangle", "quadrilateral") else 3
            with h5py.File(os.path.join(tmp, "heat_mesh_000000.h5")) as f:
                npts = f["geometry"].shape[0]
            # N^dim sub-cells and Np points per element (mixed meshes: the points the mesh file holds)
            cells, points = s["cells"] * order ** dim, s["cells"] * IO_NP[s["shape"]](order) if s["shape"] in IO_NP else npts
            for k, (step, t, nc, npt, lo, hi) in enumerate(steps):
                check(abs(float(t) - 0.5 * k) < 1e-12, "time step %s at t = %s, expected %g" % (step, t, 0.5 * k))
                check(int(nc) == cells and int(npt) == points, "ParaView: %s cells %s points, expected %d and %d" % (nc, npt, cells, points))
                with h5py.File(os.path.join(tmp, "heat_%06d.h5" % (5 * k))) as f:
                    u = f["u"][()]
                    err = f["error"][()]
                check(abs(float(lo) - u.min()) <= 1e-12 and abs(float(hi) - u.max()) <= 1e-12, "ParaView range of u [%s, %s], HDF5 [%.17g, %.17g]" % (lo, hi, u.min(), u.max()))
                # u = exp(-t) sin(..) cos(..) lies within +-exp(-t), nodal error small
                check(u.max() <= math.exp(-float(t)) + 1e-2 and np.abs(err).max() < 2e-2, "step %s: max u %g, max nodal error %g" % (step, u.max(), np.abs(err).max()))
            check(os.path.getsize(png) > 10000 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "no PNG rendered")
        return "3 time steps, %d %s sub-cells %d points each, u range at t=1 [%.4f, %.4f]%s" % (cells, s["shape"], points, float(steps[-1][4]), float(steps[-1][5]), " (pvbatch started on attempt %d)" % attempts if attempts > 1 else "")
    return f


test("io/paraview/series/triangle-N4-2-ranks")(paraview_test(2, 4, []))
test("io/paraview/series/quadrilateral-N3")(paraview_test(1, 3, ["-dm_plex_box_faces", "4,4"]))
test("io/paraview/series/hexahedron-N2-2-ranks")(paraview_test(2, 2, ["-dm_plex_filename", "examples/meshes/cube_hex.msh"]))
test("io/paraview/series/mixed-N3")(paraview_test(1, 3, ["-dm_plex_filename", "examples/meshes/cube_mixed.msh"]))


@test("io/restart/external-kill-while-checkpointing")
def _():
    # a checkpoint every step on a larger case, the run killed from outside at an arbitrary
    # moment: whatever it was doing, checkpoint.h5 is a complete checkpoint that restarts
    import signal
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = os.path.join(tmp, "checkpoint.h5")
        args = HEAT + ["-order", "6", "-dm_refine", "1", "-ksp_rtol", "1e-6", "-ts_dt", "1e-3", "-ts_max_steps", "100000",
                       "-checkpoint_interval", "1", "-monitor_file", "none", "-output_dir", tmp]
        p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t0 = time.time()
        while not os.path.exists(ckpt) and time.time() - t0 < 60 and p.poll() is None:
            time.sleep(0.05)
        time.sleep(1.0 + (time.time() * 1000) % 500 / 1000.0)  # somewhere in a later step or write
        p.send_signal(signal.SIGKILL)
        p.wait()
        _, a = read_state(ckpt)
        step = int(a["step"])
        check(step >= 1, "checkpoint step %d" % step)
        s = heat_summary(run(args[:-2] + [os.path.join(tmp, "again"), "-ts_max_steps", str(step + 2), "-checkpoint_interval", "0", "-restart", ckpt])[1])
        check(s["start"] == step and s["steps"] == step + 2 and abs(s["time"] - 1e-3 * (step + 2)) < 1e-12, "restart from step %d: %s" % (step, s))
    return "killed after %d checkpoints; checkpoint.h5 complete (step %d), restart ran to step %d" % (step, step, s["steps"])


# ---------------------------------------------------------------- checkpoint / restart
RESTART = HEAT + ["-order", "3", "-ts_type", "cn", "-ts_dt", "0.05"]


def restart_test(ranks_first, ranks_second, extra=(), mesh=()):
    def f():
        import numpy as np
        mpi = lambda n: ([*MPIEXEC, str(n)] if n > 1 else [])
        with tempfile.TemporaryDirectory() as tmp:
            ref, part = os.path.join(tmp, "ref"), os.path.join(tmp, "part")
            s20 = heat_summary(run(mpi(ranks_first) + RESTART + list(mesh) + ["-ts_max_steps", "20", "-checkpoint_interval", "10", "-output_dir", ref])[1])
            s10 = heat_summary(run(mpi(ranks_first) + RESTART + list(mesh) + ["-ts_max_steps", "10", "-checkpoint_interval", "10", "-output_dir", part])[1])
            u10, a10 = read_state(os.path.join(part, "checkpoint.h5"))
            check(a10["step"] == 10 and abs(a10["time"] - 0.5) < 1e-12 and a10["ranks"] == ranks_first and a10["hoflow_version"] and "-ts_type cn" in a10["options"],
                  "checkpoint attributes: %s" % {k: a10[k] for k in ("step", "time", "dt", "ranks", "hoflow_version")})
            sr = heat_summary(run(mpi(ranks_second) + RESTART + list(mesh) + ["-ts_max_steps", "20", "-checkpoint_interval", "10", "-output_dir", part, "-restart", os.path.join(part, "checkpoint.h5")] + list(extra))[1])
            check(s10["steps"] == 10 and sr["start"] == 10 and sr["steps"] == 20 and sr["time"] == s20["time"], "restart ran steps %d..%d to t = %g" % (sr["start"], sr["steps"], sr["time"]))
            ua, _ = read_state(os.path.join(ref, "checkpoint.h5"))
            ub, ab = read_state(os.path.join(part, "checkpoint.h5"))
            check(ab["step"] == 20 and ab["ranks"] == ranks_second, "final checkpoint: step %s ranks %s" % (ab["step"], ab["ranks"]))
            diff = np.abs(ua - ub).max()
            with open(os.path.join(ref, "monitors.csv")) as fa, open(os.path.join(part, "monitors.csv")) as fb:
                rows_a, rows_b = list(_csv.reader(fa)), list(_csv.reader(fb))
            if ranks_first == ranks_second:
                check(np.array_equal(ua, ub), "restarted state differs from the uninterrupted run: max %g (expected bitwise equal)" % diff)
                check(sr["L2"] == s20["L2"], "L2 %g vs %g" % (sr["L2"], s20["L2"]))
                # the monitors file continues: the same 21 rows (times, errors, iteration counts)
                check(rows_a == rows_b and len(rows_a) == 22, "monitor CSV of the restarted run differs (%d vs %d rows)" % (len(rows_a), len(rows_b)))
                return "bitwise equal after 10 + 10 steps on %d rank(s); monitors.csv identical (%d rows)" % (ranks_first, len(rows_a) - 1)
            if diff > 1e-12 * np.abs(ua).max():  # the same values, another node order within some elements?
                diff = np.abs(np.sort(ua, axis=1) - np.sort(ub, axis=1)).max()
            check(diff <= 1e-12 * np.abs(ua).max(), "restart on %d ranks differs by %g (max |u| %g)" % (ranks_second, diff, np.abs(ua).max()))
            check(len(rows_b) == 22 and [r[0] for r in rows_b[1:]] == [str(k) for k in range(21)], "monitor CSV steps: %s" % [r[0] for r in rows_b[1:]])
            return "%d -> %d ranks: max difference %.1e (max |u| %.3f)" % (ranks_first, ranks_second, diff, np.abs(ua).max())
    return f


test("io/restart/bitwise/1-rank")(restart_test(1, 1))
# 3D: elements above each other share their centroid's x and y (checkpoint blocks are matched by all three)
test("io/restart/bitwise/hexahedron-2-ranks")(restart_test(2, 2, mesh=["-dm_plex_filename", "examples/meshes/cube_hex.msh", "-order", "2"]))
test("io/restart/hexahedron-1-to-2-ranks")(restart_test(1, 2, mesh=["-dm_plex_dim", "3", "-dm_plex_box_faces", "3,3,3", "-order", "2"]))
test("io/restart/hexahedron-gmsh-1-to-2-ranks")(restart_test(1, 2, mesh=["-dm_plex_filename", "examples/meshes/cube_hex.msh", "-order", "2"]))
test("io/restart/tetrahedron-2-to-1-rank")(restart_test(2, 1, mesh=["-dm_plex_filename", "examples/meshes/cube_tet.msh", "-order", "2"]))
test("io/restart/bitwise/2-ranks")(restart_test(2, 2))
test("io/restart/1-to-2-ranks")(restart_test(1, 2))
test("io/restart/2-to-1-rank")(restart_test(2, 1))
test("io/restart/1-to-2-ranks-gathered")(restart_test(1, 2, ["-io_hdf5_collective", "0"]))


@test("io/restart/killed-during-checkpoint")
def _():
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        ref, kill = os.path.join(tmp, "ref"), os.path.join(tmp, "kill")
        run(RESTART + ["-ts_max_steps", "20", "-checkpoint_interval", "20", "-output_dir", ref])
        # checkpoints at 5 and 10; the run dies (SIGKILL) while writing the one of step 10
        code, out = run(RESTART + ["-ts_max_steps", "20", "-checkpoint_interval", "5", "-output_interval", "5", "-checkpoint_test_kill_step", "10", "-output_dir", kill], expect_ok=False)
        check(code in (-9, 137), "expected the run to be killed (exit -9), got %d:\n%s" % (code, out[-800:]))
        check(not re.search(r"^hoflow: ", out, re.M), "the killed run finished")
        ckpt = os.path.join(kill, "checkpoint.h5")
        check(os.path.exists(ckpt + ".tmp"), "no partial checkpoint.h5.tmp left by the kill")
        _, a = read_state(ckpt)
        check(a["step"] == 5, "checkpoint.h5 holds step %s, expected the previous checkpoint (5)" % a["step"])
        # the partial file is refused with a clear message; the previous checkpoint continues exactly
        code, out = run(RESTART + ["-ts_max_steps", "20", "-output_dir", kill, "-restart", ckpt + ".tmp"], expect_ok=False)
        check(code != 0 and "is not a readable HDF5 file: it is truncated, corrupt or of another format" in out, "partial checkpoint not refused cleanly:\n" + out[-1200:])
        s = heat_summary(run(RESTART + ["-ts_max_steps", "20", "-checkpoint_interval", "20", "-output_interval", "5", "-output_dir", kill, "-restart", ckpt])[1])
        check(s["start"] == 5 and s["steps"] == 20, "restart from step %d to %d" % (s["start"], s["steps"]))
        ua, _ = read_state(os.path.join(ref, "checkpoint.h5"))
        ub, _ = read_state(ckpt)
        check(np.array_equal(ua, ub), "state after the restart differs from the uninterrupted run by %g" % np.abs(ua - ub).max())
        # the output series continues: steps 0..20 every 5, those from 5 on with this run's mesh
        index = [l.split() for l in open(os.path.join(kill, "heat.index"))]
        check([r[0] for r in index] == ["0", "5", "10", "15", "20"] and [r[2] for r in index] == ["0", "5", "5", "5", "5"], "series index after restart: %s" % index)
    return "previous checkpoint (step 5) intact, partial file refused, restart bitwise equal at step 20"


def restart_error_test(first, second, pattern, edit=None):
    def f():
        with tempfile.TemporaryDirectory() as tmp:
            ckpt = os.path.join(tmp, "checkpoint.h5")
            run(HEAT + ["-ts_max_steps", "2", "-checkpoint_interval", "2", "-output_dir", tmp] + first)
            if edit:
                edit(ckpt)
            code, out = run(HEAT + ["-ts_max_steps", "4", "-output_dir", tmp, "-restart", ckpt] + second, expect_ok=False)
        msg = pattern.replace("CKPT", ckpt)
        check(code != 0, "expected a non-zero exit")
        check(re.search(msg, out), "expected message /%s/ in:\n%s" % (msg, out[-1500:]))
        check("Segmentation" not in out and "signal" not in out.lower(), "crashed instead of a clean error:\n" + out[-800:])
        return re.search(msg, out).group(0)[:110]
    return f


def truncate(path):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def set_attribute(name, value):
    def edit(path):
        h5py = h5py_or_skip()
        with h5py.File(path, "r+") as f:
            f.attrs[name] = value
    return edit


test("io/errors/restart-missing")(error_test(["-problem", "heat", "-restart", "no/such/checkpoint.h5"], r"File 'no/such/checkpoint\.h5' \(from -restart\) does not exist or is not readable"))
test("io/errors/restart-truncated")(restart_error_test([], [], r"File 'CKPT' \(from -restart\) is not a readable HDF5 file: it is truncated, corrupt or of another format", truncate))
test("io/errors/restart-not-a-checkpoint")(restart_error_test(["-output_interval", "1"], [], r"is an HDF5 file but not a hoflow checkpoint", lambda p: _shutil.copy(os.path.join(os.path.dirname(p), "heat_000002.h5"), p)))
test("io/errors/restart-other-order")(restart_error_test(["-order", "3"], ["-order", "4"], r"Restart file 'CKPT' was written for order 3, but this run has order 4 \(-order\); add -restart_project to project the checkpoint onto this order"))
test("io/errors/restart-other-problem")(restart_error_test([], [], r"was written for problem heat_gaussian, but this run has problem heat \(-problem\)", set_attribute("identity_problem", "heat_gaussian")))
test("io/errors/restart-other-shape")(restart_error_test([], ["-dm_plex_box_faces", "6,7"], r"was written for shape triangle, but this run has shape quadrilateral"))
test("io/errors/restart-other-mesh-size")(restart_error_test([], ["-dm_refine", "1"], r"is from a different mesh: it has 42 elements, this run's mesh has 168 .*; if this mesh is the checkpoint's refined, add -restart_project to project the checkpoint onto it"))
test("io/errors/restart-other-mesh-same-size")(restart_error_test(["-dm_plex_box_faces", "6,7"], ["-dm_plex_box_faces", "7,6"], r"is from a different mesh .*: this run's element with centroid \(\S+, \S+\) is not in it"))
test("io/errors/restart-project-other-mesh")(restart_error_test(["-dm_plex_box_faces", "6,7"], ["-dm_plex_box_faces", "7,6", "-restart_project"], r"Restart file 'CKPT' is from another mesh: this run's element with centroid \(\S+, \S+\) does not lie inside one of its elements; -restart_project maps a checkpoint onto the mesh it was written on, or that mesh refined \(-dm_refine\)"))
test("io/errors/restart-project-coarser-mesh")(restart_error_test(["-dm_refine", "1"], ["-restart_project"], r"Restart file 'CKPT' is from another mesh: this run's element with centroid .* does not lie inside one of its elements; .*not onto another or a coarser mesh"))
test("io/errors/restart-project-without-restart")(error_test(["-problem", "heat", "-restart_project"], r"-restart_project applies to a restart: give the checkpoint with -restart FILE"))


def to_format_2(path):
    """What hoflow 0.2.0 wrote before element vertices: format_version 2, no blocks/vertices."""
    h5py = h5py_or_skip()
    with h5py.File(path, "r+") as f:
        f.attrs["format_version"] = 2
        del f["blocks/vertices"]


test("io/errors/restart-project-format-2-refined")(restart_error_test([], ["-dm_refine", "1", "-restart_project"], r"Restart file 'CKPT' \(checkpoint format 2\) does not record its elements' vertices, so -restart_project cannot map it onto another mesh \(it has 42 elements, this run's mesh 168\)", to_format_2))


@test("io/restart/format-2-still-read")
def _():
    # a checkpoint of the previous format (no element vertices) restarts exactly, and at another order
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        ref, part = os.path.join(tmp, "ref"), os.path.join(tmp, "part")
        run(RESTART + ["-ts_max_steps", "20", "-checkpoint_interval", "20", "-output_dir", ref])
        run(RESTART + ["-ts_max_steps", "10", "-checkpoint_interval", "10", "-output_dir", part])
        ckpt = os.path.join(part, "checkpoint.h5")
        to_format_2(ckpt)
        _, a = read_state(ckpt)
        check(a["format_version"] == 2, "format_version %s" % a["format_version"])
        sp = heat_summary(run(RESTART + ["-order", "4", "-ts_max_steps", "20", "-output_dir", os.path.join(tmp, "p4"), "-restart", ckpt, "-restart_project"])[1])
        run(RESTART + ["-ts_max_steps", "20", "-checkpoint_interval", "20", "-output_dir", part, "-restart", ckpt])
        ua, _ = read_state(os.path.join(ref, "checkpoint.h5"))
        ub, b = read_state(ckpt)
        check(b["format_version"] == 3 and np.array_equal(ua, ub), "format-2 restart: format %s, differs by %g" % (b["format_version"], np.abs(ua - ub).max()))
        check(sp["order"] == 4 and sp["start"] == 10 and sp["steps"] == 20, "format-2 restart at order 4: %s" % sp)
    return "format 2 restarts bitwise at order 3 (rewritten as format 3) and projects onto order 4 (L2 %.3e)" % sp["L2"]


# ---------------------------------------------------------------- restart at another order / on a refined mesh
TEST_PROJECT = os.path.join(ROOT, "build", "tests", "test_project")
CUBE = ["-bc_dirichlet", "left,right,front,back,bottom,top", "-bc_neumann", "none"]


def project_unit(src_order, order, refine=0, ranks=1, mesh=()):
    def f():
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ([*MPIEXEC, str(ranks)] if ranks > 1 else []) + [TEST_PROJECT, "-test_source_order", str(src_order), "-order", str(order), "-dm_refine", str(refine), "-test_dir", tmp] + list(mesh)
            _, out = run(cmd)
        m = re.search(r"^project: (.*)$", out, re.M)
        check(m, "no result line:\n" + out[-1000:])
        toks = m.group(1).split()
        d = dict(zip(toks[0::2], toks[1::2]))
        err, vmax = float(d["max_error"]), float(d["max_value"])
        check(re.search(r"^restart: .* has order %d on %s elements; its 2 vectors .* projected onto order %d on %s elements%s \(-restart_project\)$" % (src_order, d["source_elements"], order, d["elements"], " \\(the checkpoint's mesh refined\\)" if refine else ""), out, re.M), "announcement missing:\n" + out[-800:])
        # exact: nodal values of the polynomial (order >= source order) or its L2 projection (one order
        # less), to round-off that grows with the Vandermonde and mass-matrix solves (order^2; hexahedra
        # N = 4: 6e-12 of values up to 8)
        check(err <= 1e-12 * max(1.0, vmax) * order ** 2, "projected values differ from the %s by %g (max value %g)" % ("polynomial" if order >= src_order else "L2 projection", err, vmax))
        return "%s N=%d on %s -> N=%d on %s elements: max error %.1e" % (d["shape"], src_order, d["source_elements"], order, d["elements"], err)
    return f


test("io/restart-project/unit/triangle-N3-to-N6")(project_unit(3, 6))
test("io/restart-project/unit/triangle-N4-to-N3-L2")(project_unit(4, 3))
test("io/restart-project/unit/triangle-refined")(project_unit(3, 3, 1))
test("io/restart-project/unit/triangle-N2-to-N5-refined-twice-2-ranks")(project_unit(2, 5, 2, 2))
test("io/restart-project/unit/quadrilateral-N3-to-N2-refined")(project_unit(3, 2, 1, mesh=["-dm_plex_box_faces", "3,2"]))
test("io/restart-project/unit/tetrahedron-N2-to-N3-refined")(project_unit(2, 3, 1, mesh=["-dm_plex_filename", "examples/meshes/cube_tet.msh"] + CUBE))
test("io/restart-project/unit/hexahedron-N3-to-N4-refined")(project_unit(3, 4, 1, mesh=["-dm_plex_filename", "examples/meshes/cube_hex.msh"] + CUBE))


def check_series(xmf):
    """Every DataItem of an XDMF series has the shape of the HDF5 dataset it names; returns (step, cells, points) per grid."""
    h5py = h5py_or_skip()
    text, grids = open(xmf).read(), []
    for step, body in re.findall(r'<Grid Name="step (\d+)" GridType="Uniform">(.*?)</Grid>', text, re.S):
        for dims, ref in re.findall(r'<DataItem Dimensions="([\d ]+)"[^>]*>([^<]+)</DataItem>', body):
            fname, dset = ref.split(":")
            with h5py.File(os.path.join(os.path.dirname(xmf), fname), "r") as f:
                shape = f[dset].shape
            check(tuple(int(x) for x in dims.split()) == tuple(shape), "%s step %s: %s declared %s, the file holds %s" % (os.path.basename(xmf), step, ref, dims, shape))
        cells, points = re.search(r'NumberOfElements="(\d+)"', body).group(1), re.search(r'Dimensions="(\d+) \d"[^>]*>[^<]*geometry', body).group(1)
        grids.append((int(step), int(cells), int(points)))
    return grids


def element_points(h5py, mesh_file, field_file, Np):
    """Points [K, Np, 2] and values [K, Np] of a field output, element by element (one rank: element order)."""
    with h5py.File(mesh_file, "r") as fm, h5py.File(field_file, "r") as ff:
        xy, u = fm["geometry"][()], ff["u"][()]
    return xy.reshape(-1, Np, 2), u.reshape(-1, Np)


@test("io/restart/project/heat-order-2-to-5")
def _():
    # the heat problem (one field) from N = 2 at t = 0.05 to N = 5. (1) The restarted state is the
    # checkpoint's polynomial: an independent fit of each N = 2 element's quadratic through its 6
    # written nodes, evaluated at the N = 5 nodes the restart wrote, agrees to round-off. (2) Backward
    # Euler damps the small scales of the N = 2 error left in the state, so at t = 0.5 the error is
    # the fresh N = 5 run's (both mostly the time stepping's, dt = 5e-3), 7x below the N = 2 run's.
    h5py = h5py_or_skip()
    import numpy as np
    base = HEAT + ["-ts_type", "beuler", "-ts_dt", "5e-3", "-monitor_file", "none"]
    with tempfile.TemporaryDirectory() as tmp:
        d = lambda n: os.path.join(tmp, n)
        s2 = heat_summary(run(base + ["-order", "2", "-ts_max_steps", "100", "-output_dir", d("n2")])[1])
        s5 = heat_summary(run(base + ["-order", "5", "-ts_max_steps", "100", "-output_dir", d("n5")])[1])
        run(base + ["-order", "2", "-ts_max_steps", "10", "-checkpoint_interval", "10", "-output_interval", "10", "-output_dir", d("a")])
        _, out = run(base + ["-order", "5", "-ts_max_steps", "100", "-output_interval", "10", "-output_dir", d("b"), "-restart", d("a/checkpoint.h5"), "-restart_project"])
        sr = heat_summary(out)
        check(re.search(r"^restart: \S+ has order 2 on 42 elements; its 1 vectors \(state and history\) projected onto order 5 on 42 elements \(-restart_project\)$", out, re.M), "no announcement of the projection:\n" + out[-600:])
        xo, uo = element_points(h5py, d("a/heat_mesh_000000.h5"), d("a/heat_000010.h5"), 6)
        xn, un = element_points(h5py, d("b/heat_mesh_000010.h5"), d("b/heat_000010.h5"), 21)
    check(len(xo) == len(xn) == 42 and np.abs(xo[:, 0] - xn[:, 0]).max() < 1e-12, "elements of the two outputs do not correspond (first nodes)")
    err = 0.0
    for e in range(42):
        c, h = xo[e].mean(axis=0), np.ptp(xo[e], axis=0).max()
        mono = lambda p: np.stack([np.ones(len(p)), p[:, 0], p[:, 1], p[:, 0] ** 2, p[:, 0] * p[:, 1], p[:, 1] ** 2], axis=1)
        coef = np.linalg.solve(mono((xo[e] - c) / h), uo[e])
        err = max(err, np.abs(mono((xn[e] - c) / h) @ coef - un[e]).max())
    check(err < 1e-12, "the restarted N = 5 state differs from the N = 2 checkpoint's polynomials by %g" % err)
    check(sr["start"] == 10 and sr["steps"] == 100 and sr["order"] == 5, "restart ran %s" % sr)
    check(sr["L2"] <= 1.25 * s5["L2"] and sr["L2"] <= 0.25 * s2["L2"], "L2 at t = 0.5: restarted %.3e, fresh N = 5 %.3e, N = 2 %.3e" % (sr["L2"], s5["L2"], s2["L2"]))
    return "restart = checkpoint polynomial to %.1e; L2 at t = 0.5: restarted %.3e, fresh N = 5 %.3e (ratio %.2f), N = 2 %.3e" % (err, sr["L2"], s5["L2"], sr["L2"] / s5["L2"], s2["L2"])


@test("io/restart/project/heat-refined-mesh")
def _():
    # N = 2 on square.msh at t = 0.05, continued on the mesh refined once (each new triangle inside
    # one old one, found by its centroid; 2 ranks): at t = 0.5 the error is that of a fresh run on the
    # refined mesh (backward Euler damps the small scales of the coarse error), 6x below the coarse run's
    base = HEAT + ["-order", "2", "-ts_type", "beuler", "-ts_dt", "5e-3", "-monitor_file", "none"]
    with tempfile.TemporaryDirectory() as tmp:
        d = lambda n: os.path.join(tmp, n)
        sc = heat_summary(run(base + ["-ts_max_steps", "100", "-output_dir", d("coarse")])[1])
        sf = heat_summary(run(base + ["-dm_refine", "1", "-ts_max_steps", "100", "-output_dir", d("fine")])[1])
        run(base + ["-ts_max_steps", "10", "-checkpoint_interval", "10", "-output_interval", "5", "-output_dir", d("a")])
        _, out = run(MPIEXEC + ["2"] + base + ["-dm_refine", "1", "-ts_max_steps", "100", "-output_interval", "10", "-output_dir", d("a"), "-restart", d("a/checkpoint.h5"), "-restart_project"])
        grids = check_series(os.path.join(d("a"), "heat.xmf"))
    # the output series continues on the refined mesh: steps 0, 5 on the coarse mesh's file (N^2 = 4
    # sub-cells per element), 10, 20, ..., 100 on the new one's
    check([g[:2] for g in grids] == [(0, 42 * 4), (5, 42 * 4)] + [(k, 168 * 4) for k in range(10, 101, 10)], "series (step, cells): %s" % grids)
    sr = heat_summary(out)
    check(re.search(r"^restart: \S+ has order 2 on 42 elements; its 1 vectors .* projected onto order 2 on 168 elements \(the checkpoint's mesh refined\)", out, re.M), "no announcement:\n" + out[-600:])
    check(sr["cells"] == 168 and sr["start"] == 10 and sr["steps"] == 100, "restart ran %s" % sr)
    check(sr["L2"] <= 1.25 * sf["L2"] and sr["L2"] <= 0.3 * sc["L2"], "L2 at t = 0.5: restarted on the refined mesh %.3e, fresh refined %.3e, coarse %.3e" % (sr["L2"], sf["L2"], sc["L2"]))
    return "L2 at t = 0.5 (2 ranks): restarted on the refined mesh %.3e, fresh refined %.3e (ratio %.2f), coarse %.3e" % (sr["L2"], sf["L2"], sr["L2"] / sf["L2"], sc["L2"])


test("io/errors/restart-foreign-history")(restart_error_test([], [], r"holds vector bdf_history \(of a time integrator's history\) that this run does not use", set_attribute("vectors", "u,bdf_history")))
test("io/errors/checkpoint-bdf")(error_test(["-problem", "heat", "-ts_type", "bdf", "-checkpoint_interval", "5"], r"-checkpoint_interval: TS type bdf keeps its multistep history \(the previous solutions\) private, so hoflow cannot checkpoint it"))
test("io/errors/restart-bdf")(error_test(["-problem", "heat", "-ts_type", "bdf", "-restart", "x.h5"], r"-restart: TS type bdf keeps its multistep history"))
test("io/errors/restart-steady-problem")(error_test(["-problem", "poisson", "-restart", "x.h5"], r"-restart: problem poisson is steady \(one elliptic solve\); only time-dependent problems \(heat, taylor_vortex, square_cylinder\) checkpoint and restart"))


# ---------------------------------------------------------------- monitors and progress
@test("io/monitors/csv-and-plot")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        s = heat_summary(run(MPIEXEC + ["2"] + HEAT + ["-order", "3", "-ts_dt", "0.1", "-ts_max_steps", "6", "-output_dir", tmp])[1])
        path = os.path.join(tmp, "monitors.csv")
        rows = list(_csv.reader(open(path)))
        check(rows[0] == ["step", "time", "dt", "L2_error", "L2_norm", "ksp_iterations"], "header %s" % rows[0])
        check(len(rows) == 8 and [int(r[0]) for r in rows[1:]] == list(range(7)), "expected steps 0..6 once each (rank 0 only), got %s" % [r[0] for r in rows[1:]])
        check(all(abs(float(r[1]) - 0.1 * int(r[0])) < 1e-12 for r in rows[1:]), "times %s" % [r[1] for r in rows[1:]])
        check(abs(float(rows[-1][3]) - s["L2"]) <= 1e-6 * s["L2"], "last L2_error %s, summary %g" % (rows[-1][3], s["L2"]))
        its = [int(float(r[5])) for r in rows[1:]]
        check(its[0] == 0 and all(i > 0 for i in its[1:]) and sum(its) == s["iterations"], "ksp_iterations %s sum %d, summary %d" % (its, sum(its), s["iterations"]))
        png = os.path.join(tmp, "monitors.png")
        _, out = run([PYTHON, "scripts/plot_csv.py", path, "--logy", "-o", png])
        check("plot_csv: wrote %s rows 7 columns L2_error,L2_norm,ksp_iterations" % png in out and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "plot_csv: " + out[-500:])
        code, out = run([PYTHON, "scripts/plot_csv.py", path, "-y", "kinetic_energy"], expect_ok=False)
        check(code == 2 and "no column kinetic_energy" in out, "bad column not reported: " + out[-300:])
    return "7 rows, L2 at t=0.6 %.3e, %d KSP iterations, PNG written" % (s["L2"], s["iterations"])


@test("io/progress/rank-0-every-step")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        _, out = run(MPIEXEC + ["2", HOFLOW, "-problem", "heat", "-order", "2", "-ts_dt", "0.25", "-progress_interval", "0", "-output_dir", tmp, "-monitor_file", "none"])
        lines = re.findall(r"^progress: step (\d+) time (\S+) dt (\S+) wall (\S+) remaining (\S+) ksp_iterations (\d+)$", out, re.M)
        check([int(l[0]) for l in lines] == [0, 1, 2, 3, 4], "progress lines for steps %s (expected 0..4 once: rank 0 only)" % [l[0] for l in lines])
        check(lines[-1][4] == "0.0s" and float(lines[-1][1]) == 1.0 and all(int(l[5]) > 0 for l in lines[1:]), "last progress line %s" % (lines[-1],))
        check(not os.path.exists(os.path.join(tmp, "monitors.csv")), "-monitor_file none still wrote monitors.csv")
        # the default interval (10 s) reports only the final state of a short run
        _, out = run(HEAT[:3] + ["-order", "2", "-ts_dt", "0.25", "-output_dir", tmp])
        n = len(re.findall(r"^progress: ", out, re.M))
        check(n == 1, "%d progress lines with the default interval, expected 1 (the end)" % n)
    return "%d lines, last: step %s time %s remaining %s" % (len(lines), lines[-1][0], lines[-1][1], lines[-1][4])


@test("io/fields/steady-poisson-solution")
def _():
    # a steady solve writes its solution once; nodal values against the exact solution
    h5py = h5py_or_skip()
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        s = summary(run([HOFLOW, "-problem", "poisson", "-order", "4", "-ksp_rtol", "1e-12", "-output_interval", "1", "-output_dir", tmp])[1])
        with h5py.File(os.path.join(tmp, "poisson_mesh_000000.h5")) as fm, h5py.File(os.path.join(tmp, "poisson_000000.h5")) as ff:
            xy, cells, u = fm["geometry"][()], fm["topology"][()], ff["u"][()]
        xmf = open(os.path.join(tmp, "poisson.xmf")).read()
    exact = np.sin(1.3 * np.pi * xy[:, 0] + 0.4) * np.cos(0.9 * np.pi * xy[:, 1] + 0.2)
    err = np.abs(u - exact).max()
    check(len(u) == s["dofs"] and cells.shape == (s["cells"] * 16, 3), "%d values, topology %s for %d dofs, %d cells" % (len(u), cells.shape, s["dofs"], s["cells"]))
    check(err < 1e-4 and xmf.count("<Grid Name=\"step") == 1, "max nodal error %g (L2 %g); %d grids in the series" % (err, s["L2"], xmf.count("<Grid Name=\"step")))
    return "max nodal error %.2e (L2 %.2e), %d sub-cells" % (err, s["L2"], len(cells))
