# hoflow test suite: modal DG on several ranks by face traces (-mdg_halo traces|elements, op/mdg.c, issue 19): the
# owners' states at the partition faces' points sent into the halo elements' trace slots (disc/fr_trace.c's star
# forest), the face step split into the interior elements and those with a halo neighbour. Shares run.py's helpers and
# suite_euler.py's (EULER, TEST_MDG, vortex_mesh).
import struct

MDGH_CASES = {  # periodic and with walls, quadrilaterals and triangles; the limiter (the element exchange of its means)
    "quadrilateral-periodic": ["-problem", "isentropic_vortex", "-order", "3"] + vortex_mesh("quadrilateral", 1),
    "triangle-periodic": ["-problem", "isentropic_vortex", "-order", "2"] + vortex_mesh("triangle", 1),
    "quadrilateral-walls-limited": ["-problem", "sod", "-order", "2", "-euler_limiter", "barth_jespersen"],
    "triangle-walls-curved": ["-problem", "supersonic_vortex", "-order", "2"],
}


def mdgh_run(args, ranks=1):
    """The run's summary, its last monitor row (17 digits) and its final state's values, sorted (the global order of a
    state on several ranks follows the partition, which changes between runs: compared as a multiset)."""
    with tempfile.TemporaryDirectory() as tmp:
        csv_path, sol = os.path.join(tmp, "m.csv"), os.path.join(tmp, "u.bin")
        out = run((MPIEXEC + [str(ranks)] if ranks > 1 else []) + EULER[:-2] + args + ["-ts_max_steps", "5", "-monitor_file", csv_path, "-monitor_interval", "1000",
                                                                                      "-progress_interval", "-1", "-mdg_view_halo", "-solution_view", "binary:" + sol])[1]
        with open(csv_path) as fh:
            rows = list(csv.DictReader(fh))
        data = open(sol, "rb").read()
    n = struct.unpack(">i", data[4:8])[0]  # PETSc binary: class id, length, the values
    return out, rows[-1], sorted(struct.unpack(">%dd" % n, data[8:8 + 8 * n]))


def mdgh_agree(name):
    args = MDGH_CASES[name]
    _, r1, u1 = mdgh_run(args)
    worst = 0.0
    for ranks in (2, 3):
        for halo in ("traces", "elements"):
            out, r, u = mdgh_run(args + ["-mdg_halo", halo], ranks)
            said = set(re.findall(r"mdg halo: rank \d+, -mdg_halo (\w+), receives (\d+) bytes", out))
            check(len(re.findall(r"mdg halo: rank", out)) == ranks and all(h == halo and int(b) > 0 for h, b in said),
                  "%s, %d ranks, -mdg_halo %s: the -mdg_view_halo lines say %s" % (name, ranks, halo, said))
            check(len(u) == len(u1) and u == u1, "%s, %d ranks, -mdg_halo %s: the final state differs from one rank's (%d values, %d differ)"
                  % (name, ranks, halo, len(u1), sum(a != b for a, b in zip(u, u1)) if len(u) == len(u1) else -1))
            for k in ("step", "time", "L2_error_density", "mass"):
                a, b = float(r1[k]), float(r[k])
                rel = abs(a - b) / max(abs(a), 1e-300)
                check(rel <= 1e-13, "%s, %d ranks, -mdg_halo %s: %s %.17g, one rank %.17g (relative %g)" % (name, ranks, halo, k, b, a, rel))
                worst = max(worst, rel)
    return "2 and 3 ranks x traces, elements: the final state (%d values) the same bits as one rank's; monitors within %.1e" % (len(u1), worst)


for _name in MDGH_CASES:
    test("mdg/halo/agree/%s" % _name)((lambda n: lambda: mdgh_agree(n))(_name))


@test("mdg/halo/trace-bytes")
def _():
    """What a right-hand side receives on 2 ranks (-mdg_view_halo), 16 x 16 periodic quadrilaterals: with traces the
    states at the N+1 Gauss points of each shared face, 1/(N+1) of the halo elements' (N+1)^2 modes (one shared face a
    halo element here), at N = 1 and 3; with -mdg_halo elements the modes themselves."""
    res = []
    for N in (1, 3):
        got = {}
        for halo in ("traces", "elements"):
            out = run(MPIEXEC + ["2"] + EULER + ["-problem", "isentropic_vortex", "-order", str(N), "-ts_max_steps", "1", "-mdg_view_halo", "-mdg_halo", halo] + vortex_mesh("quadrilateral", 1))[1]
            lines = re.findall(r"mdg halo: rank (\d), -mdg_halo (\w+), receives (\d+) bytes a right-hand side; the halo elements' values are (\d+) bytes \((\d+) halo elements\)", out)
            check(len(lines) == 2 and all(l[1] == halo for l in lines), "%s: -mdg_view_halo lines:\n%s" % (halo, out[-1500:]))
            got[halo] = (sum(int(l[2]) for l in lines), sum(int(l[3]) for l in lines), sum(int(l[4]) for l in lines))
        tr, el = got["traces"], got["elements"]
        check(el[0] == el[1] == tr[1] and el[1] == tr[2] * 4 * (N + 1) ** 2 * 8, "N = %d: elements %s, traces %s" % (N, el, tr))
        check(tr[0] * (N + 1) == el[0], "N = %d: traces receive %d bytes, the halo elements' values are %d: not 1/(N+1)" % (N, tr[0], el[0]))
        res.append("N = %d: %d against %d bytes (%.3f)" % (N, tr[0], el[0], tr[0] / el[0]))
    return "; ".join(res)


@test("mdg/halo/navier-stokes")
def _():
    """BR2 Navier-Stokes reads the halo elements' modes: on 2 ranks the default -mdg_halo becomes elements (the run
    agrees with one rank: navier-stokes/couette/2-ranks), and -mdg_halo traces given is refused with a message naming
    the option."""
    ns = ["-problem", "couette", "-couette_reynolds", "2", "-order", "2", "-ts_max_steps", "2", "-dm_plex_box_faces", "8,4"] + NS_BOX
    out = run(MPIEXEC + ["2"] + EULER + ns + ["-mdg_view_halo"])[1]
    check(len(re.findall(r"mdg halo: rank \d, -mdg_halo elements, receives", out)) == 2, "default -mdg_halo with the viscous terms:\n" + out[-1500:])
    code, out = run(MPIEXEC + ["2"] + EULER + ns + ["-mdg_halo", "traces"], expect_ok=False)
    check(code != 0 and "-mdg_halo traces with physics navier_stokes on several ranks: the BR2 viscous terms read the modes of the" in out, "explicit traces:\n" + out[-1500:])
    return "default: elements; -mdg_halo traces refused"


def mdgh_gpu_run(name, halo):
    """The whole run on CUDA vectors on 2 ranks sharing one GPU (the trace exchange of device arrays, the face kernels
    on the interior and halo element ranges) ends where the host run on one rank ends: the same steps, the final
    monitors (17 digits) equal to 1e-10 relative; and test_mdg's kernels on 2 ranks equal their host twins."""
    def f():
        gpu_or_skip()
        args = MDGH_CASES[name]
        _, rh, _ = mdgh_run(args)
        _, rd, _ = mdgh_run(args + ["-mdg_halo", halo, "-dm_vec_type", "cuda", "-gpu_shared"], 2)
        worst = 0.0
        for k in ("step", "time", "L2_error_density", "mass"):
            a, b = float(rh[k]), float(rd[k])
            rel = abs(a - b) / max(abs(a), 1e-300)
            check(rel <= 1e-10, "%s: host one rank %.17g, device two ranks %.17g (relative %g)" % (k, a, b, rel))
            worst = max(worst, rel)
        _, out = run(MPIEXEC + ["2", TEST_MDG, "-disc", "mdg", "-gpu_shared", "-mdg_halo", halo] + args)
        m = re.search(r"^gpu rhs (\S+)", out, re.M)
        check(m and float(m.group(1)) <= 1e-14, "CUDA rhs on 2 ranks differs from its host twin:\n" + out[-1500:])
        return "monitors within %.1e of the host on one rank; rhs %s" % (worst, m.group(1))
    return f


for _name in ("quadrilateral-periodic", "triangle-periodic", "quadrilateral-walls-limited"):
    for _halo in ("traces", "elements"):
        test("gpu/mdg/halo/%s/%s-2-ranks" % (_name, _halo), gpu=True)(mdgh_gpu_run(_name, _halo))


@test("mdg/cuda/emulated")
def _():
    """cuda/mdg.cu's volume, face and lift kernels (launchers included) run on the CPU by tests/emu's stand-in runtime
    (scripts/check-mdg-cuda-emu.sh) equal the host exactly on 1, 2 and 3 ranks, -mdg_halo traces and elements: the volume
    kernel's rhs and traces, and the right-hand side from the face kernel on the interior elements and then on those
    with a halo neighbour, and on all at once (quadrilaterals and triangles, periodic, walls on the curved annulus). A
    face kernel that ignores its range's first element fails it (checked by hand)."""
    code, out = run(["sh", "scripts/check-mdg-cuda-emu.sh"], expect_ok=False)
    check(code == 0 and "check-mdg-cuda-emu: the CUDA kernels equal the host exactly" in out, "the emulated CUDA kernels differ from the host:\n" + out[-2500:])
    cases = re.findall(r"\((\d) rank\(s\)\): (\d+) of (\d+) exact", out)
    check(len(cases) == 8 and all(a == b == r and int(b) > 0 for r, a, b in cases), "unexpected case lines:\n" + out[-2500:])
    return "%d cases, %d rank runs exact" % (len(cases), sum(int(b) for _, _, b in cases))
