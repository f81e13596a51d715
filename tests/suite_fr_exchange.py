# hoflow test suite: the halo exchange strategies of flux reconstruction (-fr_exchange none|overlap|split,
# disc/fr_exchange.c; seed 003 §VII), what the exchange sends (-fr_halo traces|elements, disc/fr_trace.c), Navier-Stokes
# on several ranks (the gradient traces) and the partition-independent face frames (MeshFaceOrientation) they rest on.
# Shares run.py's helpers and those of suite_fr.py (fr_monitor_rows, fr_gpu_run_test) and suite_fr_dense.py
# (frd_periodic_mesh, FRD_VORTEX_3D, FRD_RUN).

FRX_STRATEGIES = ("none", "overlap", "split")
FRX_CASES = {  # (options, monitor columns): tensor FR on periodic hexahedra, dense FR on the periodic tet/prism/hex mesh
    "hexahedron": (["-problem", "isentropic_vortex", "-order", "2", "-ts_max_steps", "5", "-euler_flux", "hllc", "-dm_plex_dim", "3",
                    "-dm_plex_box_faces", "6,6,3", "-dm_plex_box_bd", "periodic,periodic,periodic"], ["L2_error_density", "mass", "energy"]),
    "mixed": (None, ["L2_error_density", "mass", "energy"]),
    # Navier-Stokes (the corrected gradients: a second exchange, of the gradient traces): the tiny Taylor-Green vortex on
    # periodic hexahedra (tensor FR) and Couette flow on the tet/prism/hex column of suite_fr_ns.py (dense FR)
    "navier-stokes-hexahedron": (["-options_file", "options/taylor_green_fr.yaml", "-dm_plex_box_faces", "4,4,4", "-order", "2", "-ts_max_steps", "5",
                                  "-monitor_interval", "1000"], ["kinetic_energy", "enstrophy_dissipation"]),  # (not -dE/dt: the difference of two
    # energies equal to 1e-16 cancels 5 digits, 1e-11 between partitions)
    "navier-stokes-mixed": (None, ["L2_error_density", "mass", "energy"]),
}


def frx_args(shape):
    args, columns = FRX_CASES[shape]
    if args is None and shape == "mixed":
        args = FRD_VORTEX_3D + FRD_RUN + ["-order", "2", "-ts_max_steps", "5", "-euler_flux", "hllc"] + frd_periodic_mesh("mixed", 4)
    elif args is None:
        args = FR_COUETTE + ["-order", "2", "-ts_max_steps", "5", "-dm_plex_filename", fr_ns_box("mixed", 4)]
    return args, columns


def frx_agree(shape, ranks_list, strategies, extra=()):
    """Every (ranks, strategy) run ends where the one-rank run with -fr_exchange none ends: the same steps and the final
    monitors (17 digits) equal to 1e-13 relative (the strategies only reorder whole elements' work; partitions change
    the reductions' order). Returns the worst relative difference."""
    args, columns = frx_args(shape)
    args = args + list(extra)
    s0, r0 = fr_monitor_rows(args + ["-fr_exchange", "none"])
    worst = 0.0
    for ranks in ranks_list:
        for x in strategies:
            if ranks == 1 and x == "none":
                continue
            s, r = fr_monitor_rows(args + ["-fr_exchange", x], ranks)
            check(s["steps"] == s0["steps"], "%s, %d ranks, -fr_exchange %s: %s steps, one rank: %s" % (shape, ranks, x, s["steps"], s0["steps"]))
            for k in ["time"] + columns:
                a, b = float(r0[k]), float(r[k])
                rel = abs(a - b) / max(abs(a), 1e-300)
                check(rel <= 1e-13, "%s, %d ranks, -fr_exchange %s: %s %.17g, one rank with none %.17g (relative %g)" % (shape, ranks, x, k, b, a, rel))
                worst = max(worst, rel)
    return worst


for _shape in FRX_CASES:
    test("fr/exchange/strategies-agree/%s" % _shape)(
        (lambda sh: lambda: "-fr_halo traces, 1, 2, 3 ranks x none, overlap, split: worst relative %.1e against one rank" % frx_agree(sh, (1, 2, 3), FRX_STRATEGIES))(_shape))
for _shape in ("hexahedron", "mixed"):
    test("fr/exchange/halo-elements-agree/%s" % _shape)(
        (lambda sh: lambda: "-fr_halo elements, 2 ranks x none, overlap, split: worst relative %.1e against one rank" % frx_agree(sh, (2,), FRX_STRATEGIES, ["-fr_halo", "elements"]))(_shape))


def frx_bytes(args, ranks, Np, nfp, nv):
    """-fr_view's bytes a right-hand side on every rank: the traces (a whole number of partition faces, nfp nv values each,
    at least one a halo element) against the halo elements' values (Np nv each); returns (traces, elements) summed"""
    out = run([*MPIEXEC, str(ranks)] + FR[:-2] + args + ["-fr_view", "-ts_max_steps", "1", "-monitor_file", "none", "-progress_interval", "-1"])[1]
    tr = {int(m.group(1)): (int(m.group(2)), int(m.group(3))) for m in re.finditer(r"fr halo: rank (\d+) receives (\d+) bytes of traces a right-hand side \((\d+) halo", out)}
    el = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"fr halo: rank (\d+), -fr_halo traces; the halo elements' values are (\d+) bytes", out)}
    check(len(tr) == ranks and len(el) == ranks, "expected one line of each kind a rank in:\n" + out[-1500:])
    for r, (b, ghosts) in tr.items():
        faces = b / (8 * nfp * nv)
        check(faces == int(faces) and faces >= ghosts, "rank %d: %d bytes of traces are not a whole number of faces >= its %d halo elements" % (r, b, ghosts))
        check(el[r] == 8 * Np * nv * ghosts, "rank %d: the halo elements' values %d bytes, expected %d" % (r, el[r], 8 * Np * nv * ghosts))
    return sum(b for b, g in tr.values()), sum(el.values())


@test("fr/exchange/trace-bytes")
def _():
    """What goes through MPI a right-hand side (-fr_view): on periodic hexahedra at N = 3 a partition face sends
    nfp nv = 16 x 5 values where the element exchange sent Np nv = 64 x 5 a halo element; 2 ranks, 8 x 8 x 4 elements
    (2026-11-26: 81 920 bytes against 327 680 over the two ranks, a quarter: every halo element shares one face)."""
    args = ["-problem", "isentropic_vortex", "-order", "3", "-dm_plex_dim", "3", "-dm_plex_box_faces", "8,8,4", "-dm_plex_box_bd", "periodic,periodic,periodic"]
    t, e = frx_bytes(args, 2, 64, 16, 5)
    check(t <= 0.3 * e, "traces %d bytes, the halo elements' values %d: expected at most 0.3 of them (a quarter, and halo elements with two partition faces)" % (t, e))
    return "2 ranks, N = 3 hexahedra: traces %d bytes a right-hand side against %d of halo elements' values (%.3f)" % (t, e, t / e)


@test("fr/exchange/partition-independent/modal-dg-tetrahedra")
def _():
    """The face frames are the same on every partition (MeshFaceOrientation ranks a face's vertices by coordinates): modal
    DG on periodic tetrahedra, whose collapsed Gauss face points depend on the frame, gives the one-rank answer on 2 and 3
    ranks to 1e-13 (with the global vertex numbers as keys: 2.5e-6 relative after three steps, 2026-11-26)."""
    args = ["-disc", "mdg", "-problem", "isentropic_vortex", "-vortex_radius", "0.15", "-vortex_strength", "1", "-order", "2", "-ts_max_steps", "3"] + frd_periodic_mesh("tet", 4)
    s0, r0 = fr_monitor_rows(args)
    worst = 0.0
    for ranks in (2, 3):
        s, r = fr_monitor_rows(args, ranks)
        a, b = float(r0["L2_error_density"]), float(r["L2_error_density"])
        worst = max(worst, abs(a - b) / a)
        check(abs(a - b) <= 1e-13 * a, "%d ranks: L2 %.17g, one rank %.17g" % (ranks, b, a))
    return "L2 of the density on 1, 2, 3 ranks: worst relative %.1e" % worst


test("fr/exchange/errors/unknown")(error_test(FR[1:] + ["-problem", "isentropic_vortex", "-order", "1", "-dm_plex_box_faces", "4,4", "-dm_plex_box_bd", "periodic,periodic", "-fr_exchange", "sideways"],
                                              r"Unknown option sideways for -fr_exchange\. Available options: none overlap split"))

# ---------------------------------------------------------------- GPU (--gpu): the strategies on device vectors, 2 ranks sharing one GPU
for _shape in FRX_CASES:
    for _x in FRX_STRATEGIES:
        test("gpu/fr/exchange/%s/%s-2-ranks" % (_shape, _x), gpu=True)(
            (lambda sh, x: lambda: fr_gpu_run_test(frx_args(sh)[0] + ["-fr_exchange", x], frx_args(sh)[1], ranks=2)())(_shape, _x))
for _shape in ("hexahedron", "mixed"):  # the element exchange kept beside the traces
    test("gpu/fr/exchange/%s/halo-elements-overlap-2-ranks" % _shape, gpu=True)(
        (lambda sh: lambda: fr_gpu_run_test(frx_args(sh)[0] + ["-fr_exchange", "overlap", "-fr_halo", "elements"], frx_args(sh)[1], ranks=2)())(_shape))
