# hoflow test suite: the kernel benchmark (build/bench/ipdg_bench). exec()'d by tests/run.py into its
# globals (test, run, check, Failure, ROOT). The host kernels' rows must carry a CPU roofline (the
# triad bandwidth and the FP64 peak measured by the benchmark) and only finite, sane numbers, with
# the bounds that do not apply to a CPU left empty, never a placeholder.
IPDG_BENCH = os.path.join(ROOT, "build", "bench", "ipdg_bench")
BENCH_CSV_HEADER = ["device", "shape", "N", "kernel", "elements", "elements_per_block", "elements_per_thread", "seconds", "gflops",
                    "gbytes_per_s", "copy_bound_gflops", "shared_bound_gflops", "peak_gflops", "percent_roofline"]
# fields a host kernel's row leaves empty: the CUDA launch shape and the GPU's shared-memory bound
BENCH_CPU_EMPTY = {"elements_per_block", "elements_per_thread", "shared_bound_gflops"}


def bench_cpu(tmp, extra):
    csv_path = os.path.join(tmp, "bench.csv")
    _, out = run([IPDG_BENCH, "-bench_orders", "3", "-dm_plex_box_faces", "6,6", "-bench_reps", "20", "-bench_csv", csv_path] + extra)
    check(not re.search(r"\b(inf|nan)\b", out, re.I), "non-finite number in the benchmark's output:\n" + out)
    with open(csv_path) as fh:
        rows = list(csv.reader(fh))
    check(rows and rows[0] == BENCH_CSV_HEADER, "CSV header %s, expected %s" % (rows[0] if rows else None, BENCH_CSV_HEADER))
    return out, [dict(zip(rows[0], r)) for r in rows[1:]]


def finite(text, what, lo, hi):
    try:
        v = float(text)
    except ValueError:
        raise Failure("%s: %r is not a number" % (what, text))
    check(math.isfinite(v) and lo <= v <= hi, "%s = %r outside [%g, %g]" % (what, text, lo, hi))
    return v


@test("bench/cpu-roofline")
def _():
    with tempfile.TemporaryDirectory() as tmp:
        out, rows = bench_cpu(tmp, [])
        m = re.search(r"^memory bandwidth Bg: (\S+) GB/s \(triad", out, re.M)
        check(m, "no triad bandwidth line:\n" + out[-1500:])
        bw = finite(m.group(1), "triad bandwidth (GB/s)", 0.5, 5000)
        m = re.search(r"^FP64 peak: (\S+) GFLOP/s \(measured", out, re.M)
        check(m, "no measured FP64 peak line:\n" + out[-1500:])
        peak = finite(m.group(1), "FP64 peak (GFLOP/s)", 0.1, 20000)
        kernels = {"gradient", "apply", "tensor-gradient", "tensor-apply", "ins-advection", "ins-gradient", "ins-divergence"}  # quadrilaterals: dense and sum-factorized rows
        check({r["kernel"] for r in rows} == kernels and len(rows) == len(kernels), "CSV rows: %s" % [r["kernel"] for r in rows])
        for r in rows:
            name = "%s N=%s" % (r["kernel"], r["N"])
            check(r["device"].startswith("CPU"), "%s: device %r" % (name, r["device"]))
            for k in BENCH_CPU_EMPTY:
                check(r[k] == "", "%s: %s should be empty on the CPU, is %r" % (name, k, r[k]))
            finite(r["seconds"], name + " seconds", 1e-9, 10)
            # sanity only: the peak is measured while other work may share the cores
            gflops = finite(r["gflops"], name + " GFLOP/s", 1e-3, 1e6)
            finite(r["gbytes_per_s"], name + " GB/s", 1e-3, 1e5)
            mem = finite(r["copy_bound_gflops"], name + " bandwidth bound", 1e-3, 1e6)
            check(abs(finite(r["peak_gflops"], name + " peak", 0.1, 20000) - peak) <= 0.051, "%s: peak column %s, header (to 0.1) %g" % (name, r["peak_gflops"], peak))
            pct = finite(r["percent_roofline"], name + " % roofline", 0.01, 1e5)
            check(abs(pct - 100 * gflops / min(mem, peak)) <= 0.01 * pct + 0.05, "%s: %% roofline %g is not 100 GFLOP/s / min(bounds) = %g" % (name, pct, 100 * gflops / min(mem, peak)))
        # the table: a '-' for the launch shape and the shared-memory bound, numbers elsewhere
        table = [l.split() for l in out.splitlines() if l.split()[2:3] and l.split()[2] in kernels]
        check(len(table) == len(kernels), "table rows: %s" % table)
        for t in table:
            check(t[3] == "-" and t[4] == "-" and t[9] == "-", "table row %s: launch shape and smem-bnd should be '-'" % " ".join(t))
            for i in (5, 6, 7, 8, 10):
                finite(t[i], "table %s column %d" % (t[2], i), 1e-9, 1e6)
            finite(t[11].rstrip("%"), "table %s roof" % t[2], 0.01, 1e5)
        # a stated peak replaces the measurement
        out2, rows2 = bench_cpu(tmp, ["-bench_cpu_peak_gflops", "1234", "-bench_stream_mib", "16"])
        check(re.search(r"^FP64 peak: 1234\.0 GFLOP/s \(-bench_cpu_peak_gflops\)", out2, re.M), "stated peak not reported:\n" + out2[-800:])
        check(all(r["peak_gflops"] == "1234.000" for r in rows2), "stated peak not in the CSV: %s" % [r["peak_gflops"] for r in rows2])
    code, err = run([IPDG_BENCH, "-bench_orders", "1", "-dm_plex_box_faces", "2,2", "-bench_cpu_peak_gflops", "-1"], expect_ok=False)
    check(code != 0 and re.search(r"-bench_cpu_peak_gflops -1\.? must be > 0", err), "a negative peak should be refused:\n" + err[-800:])
    return "triad %.1f GB/s, FP64 peak %.1f GFLOP/s; N=3: %s" % (bw, peak, ", ".join("%s %s GFLOP/s %s%%" % (r["kernel"], r["gflops"], r["percent_roofline"]) for r in rows))


@test("bench/mdg-rhs")
def _():
    """bench/mdg_bench.py on 16 x 16 periodic quadrilaterals (N = 3, one step): the volume, face and lift
    rows with finite times, flops over bytes equal to -mdg_view_cost's intensity, a roofline percentage when
    a bandwidth and a peak are given, and the seconds per DOF per stage of the whole right-hand side."""
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = os.path.join(tmp, "mdg.csv")
        _, out = run([sys.executable, os.path.join(ROOT, "bench", "mdg_bench.py"), "--label", "cpu1", "--faces", "16", "--steps", "1",
                      "--bandwidth", "20", "--peak", "12", "--csv", csv_path, "--hoflow", HOFLOW])
        with open(csv_path) as fh:
            rows = list(csv.DictReader(fh))
    check([r["kernel"] for r in rows] == ["Volume", "Face", "Lift"], "kernels %s\n%s" % ([r["kernel"] for r in rows], out))
    for r in rows:
        t = finite(r["seconds_per_call"], r["kernel"] + " seconds", 1e-9, 10)
        ai = finite(r["flop_per_byte"], r["kernel"] + " flop/byte", 0.01, 100)
        finite(r["percent_roofline"], r["kernel"] + " % roofline", 1e-3, 1e4)
        check(abs(float(r["gflops"]) / float(r["gbs"]) - ai) <= 0.01 * ai, "%s: GFLOP/s over GB/s %s/%s is not the intensity %s" % (r["kernel"], r["gflops"], r["gbs"], ai))
    per_dof = finite(rows[0]["rhs_seconds_per_dof_stage"], "seconds per DOF per stage", 1e-12, 1e-4)
    check(int(rows[0]["dofs"]) == 16 * 16 * 16 * 4, "dofs %s, expected %d" % (rows[0]["dofs"], 16 * 16 * 16 * 4))
    return "volume %.2e s, %.3e s per DOF per stage" % (float(rows[0]["seconds_per_call"]), per_dof)


SEM_BENCH = os.path.join(ROOT, "build", "bench", "sem_bench")


@test("bench/sem")
def _():
    """bench/sem_bench.c on the host (N = 3, 4^3 hexahedra): one line and one CSV row per operator, finite
    rates, and the roofline's bytes per DOF equal to the model with stored factors (the host kernel reads
    G, wJ per node): 24 + (4 + 56) nodes / dofs + 1 / ncomp (the mass: 24); the Taylor-Hood coupling (velocity
    dofs nu, pressure dofs np, Gauss points 4^3 an element): divergence 8 nu + 24 np, gradient 8 np + 24 nu, both
    + 4 (64 + 27) K + nu + 80 K 64, per velocity dof; the Stokes block operator the sum of the three kernels', with
    hoflow's block MatMult (stokes) and PETSc's MatNest one (stokes_nest)."""
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = os.path.join(tmp, "sem.csv")
        _, out = run([SEM_BENCH, "-order", "3", "-dm_plex_dim", "3", "-dm_plex_simplex", "0", "-dm_plex_box_faces", "4,4,4", "-bench_reps", "3", "-bench_copy_mib", "16", "-bench_csv", csv_path])
        lines = re.findall(r"^sem_bench: hexahedron N 3 elements 64 dofs (\d+) factors (\w+) op (\w+) +reps 3 seconds (\S+) GDOF/s (\S+) bytes/dof (\S+) roofline (\S+)", out, re.M)
        ops = ["laplace", "helmholtz", "mass", "inverse_mass", "vector_laplace", "divergence", "gradient", "stokes", "stokes_nest"]
        check([l[2] for l in lines] == ops, "operators %s:\n%s" % ([l[2] for l in lines], out[-1500:]))
        K, nodes, nu, np_ = 64, 64 * 4 ** 3, 3 * 13 ** 3, 9 ** 3
        coupling = 4 * (64 + 27) * K + nu + 80 * K * 64
        bytes_of = {"divergence": 8 * nu + 24 * np_ + coupling, "gradient": 8 * np_ + 24 * nu + coupling}
        bytes_of["stokes"] = 24 * nu + (4 + 56) * nodes + nu / 3 + bytes_of["divergence"] + bytes_of["gradient"]
        bytes_of["stokes_nest"] = bytes_of["stokes"]
        for dofs, factors, op, seconds, gdofs, bpd, roof in lines:
            check(factors == "stored", "%s: factors %s on the host" % (op, factors))
            for v, what in ((seconds, "seconds"), (gdofs, "GDOF/s"), (roof, "roofline")):
                finite(v, "%s %s" % (op, what), 1e-12, 1e6)
            n, ncomp = int(dofs), 3 if op in ("vector_laplace", "divergence", "gradient", "stokes", "stokes_nest") else 1  # n counts every component
            if op in bytes_of:
                block = op.startswith("stokes")
                check(n == (nu + np_ if block else nu), "%s: %d dofs, expected %d" % (op, n, nu + np_ if block else nu))
                expected = bytes_of[op] / n
            else:
                expected = 24.0 if "mass" in op else 24 + (4 + 56) * nodes / n + 1.0 / ncomp
            check(abs(float(bpd) - expected) < 0.05, "%s: %s bytes/dof, expected %.2f" % (op, bpd, expected))
        with open(csv_path) as fh:
            rows = list(csv.reader(fh))
        check(len(rows) == 10 and rows[0][:3] == ["device", "shape", "N"], "CSV rows %d (expected a header and 9)" % len(rows))
    return "9 operators, laplace %s, stokes %s GDOF/s on one core" % (lines[0][4], lines[-2][4])
