# hoflow test suite: the peer-to-peer halo transport (hoflow/halo_ipc.h, -halo_transport auto|ipc|mpi). exec()'d by
# tests/run.py into its globals. GPU only: the transport moves device arrays between the GPUs of one host. It only
# copies, so a run through it must give the same bits as PetscSF's (the same iterations and printed errors).


def gpu_count():
    return subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.count("GPU ")


def halo_transport_pair(args, ranks, parse):
    """the run with -halo_transport ipc (an error where it cannot be taken) and with mpi, all GPUs visible"""
    ipc = parse(run(MPIEXEC + [str(ranks), HOFLOW] + args + ["-halo_transport", "ipc"])[1])
    mpi = parse(run(MPIEXEC + [str(ranks), HOFLOW] + args + ["-halo_transport", "mpi"])[1])
    return ipc, mpi


# Run alone (exclusive): on 4 H200s (2026-11-27) it passed twice by itself and failed twice while another test's
# job used the same GPUs (run.py -j 2): one forced-IPC run of the twelve stopped with "a neighbour's GPU memory
# could not be mapped" (the default, auto, falls back to PetscSF there). The likely cause, the exporter's memset and
# check word still in flight when a neighbour read them, is mended (HaloIPCAlloc waits for them); on 2 H200s it then
# passed twice beside another job. It stays alone until a 4-GPU run beside another job confirms it.
@test("gpu/halo-ipc/poisson-pmg-2-and-4-gpus", gpu=True, exclusive=True)
def _():
    """pMG-AMG on 2 (and 4, where there are 4 GPUs) ranks: the SIPDG exchanges of every level through CUDA IPC give
    the iterations and error of PetscSF's exchange, with the second phase on the side stream (the default), without
    it (-halo_split 0) and without overlap."""
    two_gpus_or_skip()
    args = ["-dm_vec_type", "cuda", "-order", "4", "-options_file", "options/pmg_amg.yaml", "-ksp_rtol", "1e-12", "-dm_plex_filename", SQUARE, "-dm_refine", "3"]
    done = []
    for ranks in [2] + ([4] if gpu_count() >= 4 else []):
        for extra in ([], ["-halo_overlap", "0"], ["-halo_split", "0"]):
            ipc, mpi = halo_transport_pair(args + extra, ranks, summary)
            check(ipc["iterations"] == mpi["iterations"] and ipc["L2"] == mpi["L2"], "%d GPUs%s: ipc %s / mpi %s" % (ranks, " ".join([""] + extra), ipc, mpi))
        done.append("%d GPUs: %d iterations, L2 %.9e" % (ranks, ipc["iterations"], ipc["L2"]))
    return "; ".join(done) + " (ipc = mpi, also without split and without overlap)"


@test("gpu/halo-ipc/ins-2-gpus", gpu=True)
def _():
    """The incompressible step on 2 GPUs: the batched exchanges (several vectors a message) and the solvers' SIPDG
    exchanges through CUDA IPC give PetscSF's velocity and pressure errors."""
    two_gpus_or_skip()
    args = TV[1:] + ["-dm_vec_type", "cuda", "-order", "4", "-dm_refine", "1", "-ts_dt", "5e-3", "-ts_max_steps", "10", "-ins_subcycles", "2", "-vel_ksp_rtol", "1e-12", "-pres_ksp_rtol", "1e-12"]
    ipc, mpi = halo_transport_pair(args, 2, ins_summary)
    check(ipc["L2"] == mpi["L2"] and ipc["L2_p"] == mpi["L2_p"], "ipc %s / mpi %s" % (ipc, mpi))
    return "L2 %.9e, L2_p %.9e on both" % (ipc["L2"], ipc["L2_p"])


@test("gpu/errors/halo-ipc-shared-gpu", gpu=True)
def _():
    """Two ranks on one GPU (-gpu_shared): -halo_transport ipc is refused naming the option and the reason; the
    default (auto) keeps PetscSF and runs."""
    gpu_or_skip()
    args = ["-dm_vec_type", "cuda", "-problem", "poisson", "-order", "3", "-dm_plex_filename", SQUARE, "-dm_refine", "1", "-gpu_shared"]
    one_gpu = ["bash", "-c", 'CUDA_VISIBLE_DEVICES=0 exec "$0" "$@"', HOFLOW]
    code, out = run(MPIEXEC + ["2"] + one_gpu + args + ["-halo_transport", "ipc"], expect_ok=False, timeout=120)
    check(code != 0 and re.search(r"-halo_transport ipc \([^)]*\): two ranks share a GPU", out), "expected a clear error:\n%s" % out[-1500:])
    s = summary(run(MPIEXEC + ["2"] + one_gpu + args, timeout=120)[1])
    check(s["L2"] < 1e-2, "the shared run with the default transport: %s" % s)
    return "refused: %s; auto: L2 %.3e" % (re.search(r"-halo_transport ipc \([^)]*\): two ranks share a GPU", out).group(0), s["L2"])


@test("gpu/halo-ipc/pmg-coarse-without-host-wait", gpu=True)
def _():
    """pMG-AMG's gathered CG1 transfer on 2 GPUs hands its sums to hypre without the host waiting where PETSc's stream
    is the legacy default stream (op/cg1_transfer.c: hypre's streams are blocking); forcing the wait
    (-pmg_mg_coarse_pc_gather_host_wait) must give the same residual history and error, bit for bit. Every
    restriction and interpolation goes through the gathered vectors (none by the AIJ P)."""
    two_gpus_or_skip()
    args = MPIEXEC + ["2", HOFLOW, "-dm_vec_type", "cuda", "-order", "4", "-options_file", "options/pmg_amg.yaml", "-ksp_rtol", "1e-12", "-dm_plex_filename", SQUARE,
                      "-dm_refine", "3", "-petscpartitioner_type", "simple", "-ksp_monitor", "-ksp_view"]
    res = {}
    for name, extra in (("default", []), ("wait", ["-pmg_mg_coarse_pc_gather_host_wait"])):
        out = run(args + extra)[1]
        m = re.search(r"CG1 <-> DG1 transfer: gathered .*restrictions (\d+) gathered, (\d+) by the AIJ P; interpolations (\d+) gathered, (\d+) by the AIJ P; host waits before the coarse solve (\d+)", out)
        check(m, "%s: -ksp_view does not show the gathered transfer:\n%s" % (name, out[-3000:]))
        c = [int(v) for v in m.groups()]
        # every restriction and interpolation through the gathered vectors (PETSc 3.22's KSPSolve_PREONLY flags the
        # coarse solution with VecFlag, one state increase after the gather PC's output: the output handshake allows it)
        check(c[1] == 0 and c[3] == 0 and c[2] == c[0] and c[0] > 0, "%s: not every transfer was gathered: %s" % (name, c))
        res[name] = (summary(out), re.findall(r"^\s*\d+ KSP Residual norm (\S+)", out, re.M), c[0], c[4])
    (sd, nd, rd, wd), (sw, nw, rw, ww) = res["default"], res["wait"]
    check(ww == rw and rw > 0, "with the option the host waited %d times for %d restrictions" % (ww, rw))
    check(nd == nw and sd["L2"] == sw["L2"] and sd["iterations"] == sw["iterations"], "without the wait %s (%s), with it %s (%s)" % (sd, nd[-3:], sw, nw[-3:]))
    return "%d iterations, L2 %.9e either way; host waits %d (default) and %d (forced) of %d restrictions" % (sd["iterations"], sd["L2"], wd, ww, rd)
