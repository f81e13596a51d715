# hoflow test suite: pMG-AMG's CG1 <-> DG1 transfer through the gathered coarse vector (issue 19;
# op/cg1_transfer.c, -pc_pmg_cg1_transfer auto|gathered|aij). exec()'d by tests/run.py into its globals
# (test, run, check, summary, error_test, MPIEXEC, HOFLOW, SQUARE).
#
# On the CPU the gather PC is asked for (-pmg_mg_coarse_pc_type gather; the default on several GPUs). The
# gathered transfer is the same operator as the AIJ injection up to the order of the sums, so on the same
# partition (-petscpartitioner_type simple: ParMETIS's partitions differ from run to run) the two solves
# take the same iterations and their residual histories agree to rounding. Observed (2026-11-27, this
# 2-core VM, rtol 1e-12): triangles N = 4 (square.msh, -dm_refine 2) 20/20 iterations on 2 and 3 ranks,
# quadrilaterals N = 4 (8 x 8 box) 18/18, residual norms equal to all 13 printed digits, L2 equal.

CG1T_MESHES = {
    "triangle": ["-order", "4", "-dm_plex_filename", SQUARE, "-dm_refine", "2"],
    "quadrilateral": ["-order", "4", "-dm_plex_box_faces", "8,8"],
}


def cg1t_norms(out):
    return [float(v) for v in re.findall(r"^\s*\d+ KSP Residual norm (\S+)", out, re.M)]


def cg1_transfer_test(shape):
    def f():
        rows = []
        for ranks in (2, 3):
            base = MPIEXEC + [str(ranks), HOFLOW, "-options_file", "options/pmg_amg.yaml", "-ksp_rtol", "1e-12", "-pmg_mg_coarse_pc_type", "gather",
                              "-petscpartitioner_type", "simple", "-ksp_monitor", "-ksp_view"] + CG1T_MESHES[shape]
            res = {}
            for t in ("aij", "gathered"):
                out = run(base + ["-pc_pmg_cg1_transfer", t])[1]
                s = summary(out)
                check(s["reason"].startswith("CONVERGED"), "%s %s %d ranks: %s" % (shape, t, ranks, s))
                res[t] = (s, cg1t_norms(out), out)
            (sa, na, oa), (sg, ng, og) = res["aij"], res["gathered"]
            check("CG1 <-> DG1 transfer: aij" in oa, "%d ranks: -ksp_view does not name the aij transfer:\n%s" % (ranks, oa[-3000:]))
            m = re.search(r"CG1 <-> DG1 transfer: gathered .*restrictions (\d+) gathered, (\d+) by the AIJ P; interpolations (\d+) gathered, (\d+) by the AIJ P", og)
            check(m, "%d ranks: -ksp_view does not name the gathered transfer:\n%s" % (ranks, og[-3000:]))
            counts = [int(v) for v in m.groups()]
            check(counts[0] == sg["iterations"] + 1 and counts[2] == counts[0] and counts[1] == 0 and counts[3] == 0, "%d ranks: the gathered paths did not run every time: %s" % (ranks, counts))
            m = re.search(r"applications (\d+), of which (\d+) with the input gathered by pMG's CG1 transfer", og)
            check(m and m.group(1) == m.group(2), "%d ranks: the gather PC allgathered after the transfer had: %s" % (ranks, m.group(0) if m else og[-2000:]))
            check(sg["iterations"] == sa["iterations"], "%d ranks: iterations gathered %d, aij %d" % (ranks, sg["iterations"], sa["iterations"]))
            # L2 as printed (7 digits); the residual histories to 1e-10 while above 1e-8 of the first (below, the
            # rounding of the two sums' orders is amplified relative to the norm)
            check(abs(sg["L2"] - sa["L2"]) <= 1e-6 * sa["L2"], "%d ranks: L2 gathered %.6e, aij %.6e" % (ranks, sg["L2"], sa["L2"]))
            check(len(na) == len(ng) and na, "%d ranks: residual histories of %d and %d norms" % (ranks, len(na), len(ng)))
            worst = max(abs(a - g) / a for a, g in zip(na, ng) if a >= 1e-8 * na[0])
            check(worst <= 1e-10, "%d ranks: residual norms differ by %.1e relative" % (ranks, worst))
            rows.append("%d ranks: %d/%d iterations (gathered/aij), L2 %.6e/%.6e, residual norms within %.0e" % (ranks, sg["iterations"], sa["iterations"], sg["L2"], sa["L2"], worst))
        return "; ".join(rows)
    return f


for _shape in CG1T_MESHES:
    test("solver/pmg-amg/cg1-transfer/gathered-vs-aij/%s/2-3-ranks" % _shape)(cg1_transfer_test(_shape))


@test("solver/pmg-amg/cg1-transfer/null-space")
def _():
    """A coarse matrix with the constant null space (periodic Poisson): auto takes the gathered transfer, the gather
    PC removing the constant from its full vectors in place of KSPSolve's projections (which would copy the
    right-hand side and defeat the handshake); the same residual history as the AIJ P."""
    base = MPIEXEC + ["2", HOFLOW, "-options_file", "options/pmg_amg.yaml", "-problem", "poisson_periodic", "-order", "3", "-dm_plex_box_faces", "6,6", "-dm_plex_box_bd", "periodic,periodic",
                      "-pmg_mg_coarse_pc_type", "gather", "-petscpartitioner_type", "simple", "-ksp_rtol", "1e-10", "-ksp_view", "-ksp_monitor"]
    out_a = run(base + ["-pc_pmg_cg1_transfer", "aij"])[1]
    out_g = run(base)[1]
    sa, sg = summary(out_a), summary(out_g)
    check("CG1 <-> DG1 transfer: gathered" in out_g and "the constant (the coarse matrix's null space) removed" in out_g, "auto did not take the gathered transfer with the constant removed:\n" + out_g[-2000:])
    m = re.search(r"applications (\d+), of which (\d+) with the input gathered", out_g)
    check(m and m.group(1) == m.group(2), "the gather PC allgathered after the transfer had: %s" % (m.group(0) if m else out_g[-2000:]))
    na, ng = cg1t_norms(out_a), cg1t_norms(out_g)
    check(sg["iterations"] == sa["iterations"] and len(na) == len(ng) and na, "iterations gathered %d, aij %d" % (sg["iterations"], sa["iterations"]))
    worst = max(abs(a - g) / a for a, g in zip(na, ng) if a >= 1e-8 * na[0])
    check(worst <= 1e-10 and abs(sg["L2"] - sa["L2"]) <= 1e-6 * sa["L2"], "residual norms within %.1e, L2 %.6e / %.6e" % (worst, sg["L2"], sa["L2"]))
    return "%d/%d iterations (gathered/aij), residual norms within %.0e, L2 %.6e" % (sg["iterations"], sa["iterations"], worst, sg["L2"])


test("errors/cg1-transfer-gathered-needs-gather")(error_test(["-options_file", "options/pmg_amg.yaml", "-order", "2", "-pc_pmg_cg1_transfer", "gathered"],
                                                             r"-pc_pmg_cg1_transfer gathered needs the continuous coarse space \(-pc_pmg_coarse_space cg1, here cg1\) solved by -pmg_mg_coarse_pc_type gather \(here the AMG default\) on more than one rank \(here 2\)", mpi=2))
test("errors/cg1-transfer-gathered-one-rank")(error_test(["-options_file", "options/pmg_amg.yaml", "-order", "2", "-pmg_mg_coarse_pc_type", "gather", "-pc_pmg_cg1_transfer", "gathered"],
                                                         r"-pc_pmg_cg1_transfer gathered needs .* on more than one rank \(here 1\)"))
test("errors/cg1-transfer-unknown")(error_test(["-options_file", "options/pmg_amg.yaml", "-pc_pmg_cg1_transfer", "scatter"], r"Unknown option scatter for -pc_pmg_cg1_transfer"))
