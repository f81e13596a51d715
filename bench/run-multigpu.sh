#!/bin/bash
# Multi-GPU runs of one GPU host (one rank per GPU): the BoomerAMG crash at 4.8 M DOFs on 2 GPUs, the
# CUDA-aware halo path, strong and weak scaling of the N = 6 pMG-AMG Poisson solve, the overlap of the
# halo exchange (-halo_overlap 0/1), and the incompressible flow step. Results to $OUT.
# Usage (GPU machine, after `source .gpu/env.sh`): bench/run-multigpu.sh [diag|hang|crash|halo|levels|levels77|weakdiag|weakvar|ipccheck|coarse|hypreaware|gather|cg1|wholerun|aware|strong|weak|ins|scale|fr|tests|cpu]...
# Add -dm_refine_distributed to the runs with EXTRA="-dm_refine_distributed".
# 2026-11-25 (nvidia-h100-x2): every 2-rank run of crash/aware/strong printed nothing in 75 s (1 rank
# ran); diag first separates the machine's MPI, the GPU start and the mesh from the solvers.
set -uo pipefail
OUT=${OUT:-output/multigpu}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/summary.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
date -u
# HOFLOW_PREBUILT=1: the binaries are already built (e.g. by scripts/gpu-toolchain/cross-build.sh and carried)
build() { [ -n "${HOFLOW_PREBUILT:-}" ] || make CUDA=1 -j32 "$@"; }
build hoflow > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
P6="-problem poisson -order 6 -dm_plex_filename examples/meshes/square.msh -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda ${EXTRA:-}"
COARSE=-pmg_mg_coarse_pc_mg_galerkin_mat_product_algorithm
T=${T:-90}
# run NAME NRANKS ARGS...: the summary line, wall time, errors and the -log_view lines that matter
run() {
  local name=$1 n=$2; shift 2
  local t0=$(date +%s%N)
  # stdbuf: a rank's stdout is a pipe (block-buffered), so a run killed by timeout would lose what it printed
  if [ "$n" = 1 ]; then timeout $T stdbuf -oL ./hoflow "$@" > "$OUT/$name.log" 2>&1
  elif [ -n "${GPUBIND:-}" ]; then   # one visible GPU per rank, as a cluster's launcher would set it
    timeout $T mpiexec ${MPIBIND:---bind-to none} -n $n bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec stdbuf -oL ./hoflow "$@"' hoflow "$@" > "$OUT/$name.log" 2>&1
  else timeout $T mpiexec ${MPIBIND:---bind-to none} -n $n stdbuf -oL ./hoflow "$@" > "$OUT/$name.log" 2>&1; fi
  local rc=$? t1=$(date +%s%N)
  printf '%-28s ranks %s rc %3d wall %6d ms\n' "$name" "$n" $rc $(( (t1 - t0) / 1000000 ))
  grep -E "^hoflow:" "$OUT/$name.log" | sed 's/ pc_bytes.*//' | cut -c1-260
  grep -m3 -E "PETSC ERROR: [A-Z].*|CUDA ERROR|cudaError|hypre_assert|not GPU-aware" "$OUT/$name.log" | cut -c1-200
  grep -E "^(MatMult|KSPSolve|PCSetUp|PMGSetUp|IPDGAssemble|CG1Assemble|MatSetPreallCOO|MatConvert|MeshSetup|DMPlexDistribute|DMPlexDistOvrlp|DMRefine|DGProject|DGL2Error|SFBcastBegin|SFPack) " "$OUT/$name.log" | cut -c1-80,150-230
}
# budget LOG EVENTS: the named -log_view events' times (first stage's row), largest first
budget() {
  grep -E "^($2) " "$1" | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+$/ && $(i+1) ~ /^[0-9]+\.[0-9]+$/) break
    name = $1; for (j = 2; j < i; j++) name = name " " $j
    if (!(name in seen)) { seen[name] = 1; printf "%10.3f s  %s\n", $(i+2), name } }' | sort -rn
}
# per_it LOG [LABEL]: iterations, solve time and time an iteration of a run's summary line
per_it() { awk -v label="${2:-}" '$1 == "hoflow:" { for (i = 1; i < NF; i++) { if ($i == "iterations") n = $(i+1); if ($i == "solve_s") t = $(i+1) } } END { if (n > 0) printf "%s%s: %d iterations, solve %.4f s, %.3f ms an iteration\n", FILENAME, label, n, t, 1000 * t / n }' "$OUT/$1.log"; }
for part in ${*:-crash aware strong weak ins tests}; do
  case $part in
  diag)   # 2 ranks: mpiexec alone, host vectors, then GPUs at 0.3 M DOFs (ran on 2 H200s, 2026-11-22)
    timeout 20 mpiexec --bind-to none -n 2 hostname; echo "mpiexec -n 2 hostname: rc $?"
    T=40 run cpu-2ranks 2 -problem poisson -order 2 -dm_plex_filename examples/meshes/square.msh -dm_refine 2
    T=40 run r4-2gpu 2 $P6 -dm_refine 4
    T=40 run r4-2gpu-gamg-coarse 2 $P6 -dm_refine 4 -pmg_mg_coarse_pc_type gamg   # without hypre
    T=40 run r4-2gpu-jacobi 2 ${P6/-options_file options\/pmg_amg.yaml/} -dm_refine 4 -ksp_rtol 1e-3 -ksp_max_it 5000  # no multigrid at all (Jacobi CG)
    T=40 run r4-2gpu-refine-distributed 2 $P6 -dm_refine 4 -dm_refine_distributed
    T=40 run r4-2gpu-log-trace 2 $P6 -dm_refine 4 -log_trace; tail -5 "$OUT/r4-2gpu-log-trace.log" | cut -c1-150
    T=40 GPUBIND=1 run r4-2gpu-visible-devices 2 $P6 -dm_refine 4
    T=40 OMPI_MCA_btl=self,tcp run r4-2gpu-btl-tcp 2 $P6 -dm_refine 4 ;;
  hang)   # where a hung 2-rank run waits: stacks of both ranks (gdb, else cuda-gdb), then variants of the coarse solve
    dbg=$(command -v gdb || command -v cuda-gdb)
    echo "debugger: $dbg"
    ( timeout 100 mpiexec --bind-to none -n 2 stdbuf -oL ./hoflow $P6 -dm_refine 4 > "$OUT/hang.log" 2>&1 & )
    sleep 30
    for p in $(pgrep -x hoflow); do
      echo "== rank pid $p"
      timeout 90 "$dbg" -p "$p" -batch -ex "thread apply all bt 40" 2>&1 | grep -E "^#|^Thread" | cut -c1-220 | head -120
    done > "$OUT/hang-bt.txt" 2>&1
    pkill -9 -x hoflow; pkill -9 mpiexec; sleep 1
    grep -E "^#[0-9]+ .* in (hypre|MPI|PMPI|ompi|PC|KSP|Mat|HYPRE)" "$OUT/hang-bt.txt" | sed 's/ (.*//' | sort | uniq -c | sort -rn | head -30
    T=30 run r4-1gpu 1 $P6 -dm_refine 4
    T=30 run r4-2gpu-pmis 2 $P6 -dm_refine 4 -pmg_mg_coarse_pc_hypre_boomeramg_coarsen_type PMIS
    T=30 run r4-2gpu-pmis-interp6 2 $P6 -dm_refine 4 -pmg_mg_coarse_pc_hypre_boomeramg_coarsen_type PMIS -pmg_mg_coarse_pc_hypre_boomeramg_interp_type ext+i-cc
    T=30 run r2-2gpu-order1-hypre 2 -problem poisson -order 1 -dm_plex_filename examples/meshes/square.msh -dm_refine 2 -ksp_type cg -pc_type hypre -pmat assembled -dm_vec_type cuda
    T=30 run r2-2gpu-order1-hypre-pmis 2 -problem poisson -order 1 -dm_plex_filename examples/meshes/square.msh -dm_refine 2 -ksp_type cg -pc_type hypre -pmat assembled -dm_vec_type cuda -pc_hypre_boomeramg_coarsen_type PMIS -pc_hypre_boomeramg_interp_type ext+i -pc_hypre_boomeramg_P_max 4 ;;
  crash)  # machine's Open MPI (not CUDA-aware): BoomerAMG's SpGEMM by cuSPARSE (PETSc's default) and by hypre
    run r6-2gpu-cusparse 2 $P6 -dm_refine 6 $COARSE cusparse
    run r6-2gpu-hyprespgemm 2 $P6 -dm_refine 6 $COARSE hypre ;;
  aware)  # the CUDA-aware Open MPI: no host staging of halos (-log_view copies of MatMult)
    ( source scripts/gpu-toolchain/env.sh && ompi_info --parsable --all | grep -m1 mpi_built_with_cuda_support &&
      run r6-2gpu-aware 2 $P6 -dm_refine 6 -log_view ) ;;
  strong) # 19.3 M DOFs on 1 and 2 GPUs (CUDA-aware MPI), with and without overlap
    ( source scripts/gpu-toolchain/env.sh
      run r7-1gpu 1 $P6 -dm_refine 7 -log_view -log_view_gpu_time
      run r7-2gpu 2 $P6 -dm_refine 7 -log_view
      run r7-2gpu-no-overlap 2 $P6 -dm_refine 7 -halo_overlap 0 -log_view ) ;;
  halo)   # the SIPDG product's halo exchange on 1, 2, 4 GPUs (bench/halo_bench.c): microseconds a call of the exchange
          # alone (device idle before each), the product back to back and its kernels, per rank and the maximum, N = 6
          # at 19.3 M DOFs (HALO_REFINE, 7) with -halo_local needed (the default: halo values and the owned values read
          # after the exchange), through CUDA IPC (-halo_transport auto: the default on one host) and PetscSF
          # (-halo_transport mpi), with the second phase on the side stream (-halo_split, the default) and without, and
          # without overlap; then the Poisson solve (19 iterations) with each transport.
          # (-halo_local full, the whole vector: 2026-11-27, h200x4_2026-11-27_scaling.md)
    ( source scripts/gpu-toolchain/env.sh
      build build/bench/halo_bench > "$OUT/build-halo.log" 2>&1 || tail -20 "$OUT/build-halo.log"
      ng=$(nvidia-smi -L | wc -l); list=1; n=2; while [ $n -le "$ng" ]; do list="$list $n"; n=$((n * 2)); done
      H="-dm_plex_filename examples/meshes/square.msh -dm_refine ${HALO_REFINE:-7} -dm_refine_distributed -bench_order 6 -bench_reps 200 -dm_vec_type cuda"
      for n in $list; do
        for v in "needed -halo_transport ipc" "needed -halo_transport ipc -halo_split 0" "needed -halo_transport mpi" "needed -halo_overlap 0 -halo_transport ipc"; do
          echo "halo_bench $n GPU(s), -halo_local $v:"
          timeout 120 mpiexec --bind-to none -n $n ./build/bench/halo_bench $H -halo_local $v 2>&1 | grep -E "^(rank|halo_bench|.*ERROR)" | cut -c1-200
          [ $n = 1 ] && break
        done
      done
      for n in $list; do
        for v in ipc mpi; do T=120 run r${HALO_REFINE:-7}-${n}gpu-$v $n $P6 -dm_refine ${HALO_REFINE:-7} -dm_refine_distributed -halo_transport $v -log_view; done
      done ) ;;
  levels) # where the 2-GPU solve time goes (multigrid levels, coarse BoomerAMG), and coarse-solve variants
    ( source scripts/gpu-toolchain/env.sh
      L="-log_view -log_view_gpu_time -pmg_pc_mg_log"
      run r7-1gpu-levels 1 $P6 -dm_refine 7 $L
      run r7-2gpu-levels 2 $P6 -dm_refine 7 $L
      TEL="-pmg_mg_coarse_pc_type telescope -pmg_mg_coarse_pc_telescope_reduction_factor 2 -pmg_mg_coarse_telescope_pc_type hypre -pmg_mg_coarse_telescope_pc_hypre_boomeramg_coarsen_type PMIS -pmg_mg_coarse_telescope_pc_hypre_boomeramg_interp_type ext+i -pmg_mg_coarse_telescope_pc_hypre_boomeramg_P_max 4"
      run r7-2gpu-telescope 2 $P6 -dm_refine 7 $L $TEL
      run r7-1gpu-aggnl1 1 $P6 -dm_refine 7 -pmg_mg_coarse_pc_hypre_boomeramg_agg_nl 1
      run r7-2gpu-aggnl1 2 $P6 -dm_refine 7 -pmg_mg_coarse_pc_hypre_boomeramg_agg_nl 1
      for f in r7-1gpu-levels r7-2gpu-levels r7-2gpu-telescope; do echo "$f:"; grep -E "^(MGSmooth Level|MGResid Level|MGInterp Level|PCApply|KSPSolve|VecTDot|VecNorm) " "$OUT/$f.log" | cut -c1-40; done ) ;;
  levels77) # issue 19: where the 77 M DOF solve's time goes on 1 and 4 GPUs (multigrid levels with GPU timers: they
          # synchronize at every event, so the level shares, not the totals), then the gathered coarse solve's BoomerAMG
          # with aggressive coarsening on its first level (agg_nl 1) against the default, without timers
    ( source scripts/gpu-toolchain/env.sh
      # LV_REFINE (8: 77 M DOFs; 7: 19.3 M), LV_GPUS (default: 1 and all), LV_AGG=0 leaves out the agg_nl 1 runs
      ng=$(nvidia-smi -L | wc -l); r=${LV_REFINE:-8}
      for n in ${LV_GPUS:-1 $ng}; do
        T=200 run p$r-${n}gpu-levels $n $P6 -dm_refine $r -dm_refine_distributed -log_view -log_view_gpu_time -pmg_pc_mg_log
        budget "$OUT/p$r-${n}gpu-levels.log" "MGSmooth Level [0-9]|MGResid Level [0-9]|MGInterp Level [0-9]|GatherAllgather|PCApply|KSPSolve|VecTDot|VecNorm|MatMult|MatMultAdd|MatMultTranspose"
        [ "${LV_AGG:-1}" = 0 ] || T=200 run p$r-${n}gpu-aggnl1 $n $P6 -dm_refine $r -dm_refine_distributed -log_view -pmg_mg_coarse_gather_pc_hypre_boomeramg_agg_nl 1 -pmg_mg_coarse_pc_hypre_boomeramg_agg_nl 1
      done ) ;;
  coarse) # the coarse solve on 2 GPUs: BoomerAMG variants (coarsest-level solver, level count) and GAMG
    ( source scripts/gpu-toolchain/env.sh
      C=-pmg_mg_coarse_
      L="-log_view -log_view_gpu_time -pmg_pc_mg_log"
      run r6-1gpu 1 $P6 -dm_refine 6
      run r6-2gpu-refine-distributed 2 $P6 -dm_refine 6 -dm_refine_distributed
      run r6-2gpu-stats 2 $P6 -dm_refine 6 ${C}pc_hypre_boomeramg_print_statistics 1
      grep -E "^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9]+ " "$OUT/r6-2gpu-stats.log" | head -20
      grep -iE "relax|coarsest|cycle type|num levels|Number of levels" "$OUT/r6-2gpu-stats.log" | head -12
      run r7-2gpu-relaxcoarse 2 $P6 -dm_refine 7 $L ${C}pc_hypre_boomeramg_relax_type_coarse l1scaled-Jacobi
      run r7-2gpu-maxlevels6 2 $P6 -dm_refine 7 $L ${C}pc_hypre_boomeramg_max_levels 6
      run r7-1gpu-gamg 1 $P6 -dm_refine 7 $L ${C}pc_type gamg
      run r7-2gpu-gamg 2 $P6 -dm_refine 7 $L ${C}pc_type gamg
      for f in r7-2gpu-relaxcoarse r7-2gpu-maxlevels6 r7-1gpu-gamg r7-2gpu-gamg; do echo "$f:"; grep -E "^(MGSmooth Level 0|PCApply|KSPSolve) " "$OUT/$f.log" | cut -c1-40; done ) ;;
  hypreaware) # hypre told to pass device buffers to MPI (HoflowHypreSetDeviceMPI, with the CUDA-aware Open MPI)
    ( source scripts/gpu-toolchain/env.sh
      L="-log_view -log_view_gpu_time -pmg_pc_mg_log"
      run r7-1gpu-ha 1 $P6 -dm_refine 7 $L
      run r7-2gpu-ha 2 $P6 -dm_refine 7 $L
      for f in r7-1gpu-ha r7-2gpu-ha; do echo "$f:"; grep -E "^(MGSmooth Level|PCApply|KSPSolve) " "$OUT/$f.log" | cut -c1-40; done ) ;;
  gather) # issue 13: the coarse BoomerAMG gathered onto every GPU (-pmg_mg_coarse_pc_type gather, solver/pc_gather.c)
          # against the distributed one: 19.3 M DOFs on 1 and 2 GPUs, and the weak pair 452^2 / 639^2 quadrilaterals.
          # GatherAllgather: the allgather of the coarse vector (CpuToGpu/GpuToCpu 0 with device buffers);
          # -ksp_view says whether the allgather got device or host buffers (PETSc's -use_gpu_aware_mpi).
    ( source scripts/gpu-toolchain/env.sh
      L="-log_view -log_view_gpu_time -pmg_pc_mg_log"
      G="-pmg_mg_coarse_pc_type gather"
      W="-problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda"
      run r7-1gpu-levels 1 $P6 -dm_refine 7 $L
      run r7-2gpu-levels 2 $P6 -dm_refine 7 $L -pmg_mg_coarse_pc_type hypre   # the distributed BoomerAMG (gather is the default on several GPUs)
      run r7-1gpu-gather 1 $P6 -dm_refine 7 $L $G
      run r7-2gpu-gather 2 $P6 -dm_refine 7 $L $G -ksp_view
      grep -m1 "gathered coarse solve" "$OUT/r7-2gpu-gather.log" | sed 's/^ *//'
      run weak-1gpu-gather 1 $W -dm_plex_box_faces 452,452 $L $G
      run weak-2gpu 2 $W -dm_plex_box_faces 639,639 $L -pmg_mg_coarse_pc_type hypre
      run weak-2gpu-gather 2 $W -dm_plex_box_faces 639,639 $L $G
      for f in r7-1gpu-levels r7-2gpu-levels r7-1gpu-gather r7-2gpu-gather weak-1gpu-gather weak-2gpu weak-2gpu-gather; do
        echo "$f:"; grep -E "^(MGSmooth Level 0|GatherAllgather|PCApply|KSPSolve) " "$OUT/$f.log" | cut -c1-40,150-230
      done ) ;;
  cg1)    # issue 13: the continuous order-1 coarse space (-pc_pmg_coarse_space cg1, the default; op/cg1.c) against the
          # order-1 SIPDG matrix (dg1): 19.3 M DOFs on 1 and 2 GPUs (the gathered coarse solve on 2) and the weak pair
          # 452^2 / 639^2 quadrilaterals. Per run: PCSetUp, the coarse matrix (IPDGAssemble or CG1Assemble),
          # BoomerAMG's setup (MGSetup Level 0), its V-cycles (MGSmooth Level 0), the order-1 DG smoothing of cg1
          # (MGSmooth Level 1), KSPSolve.
    ( source scripts/gpu-toolchain/env.sh
      L="-log_view -log_view_gpu_time -pmg_pc_mg_log"
      W="-problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda"
      for cs in dg1 cg1; do
        run r7-1gpu-$cs 1 $P6 -dm_refine 7 $L -pc_pmg_coarse_space $cs
        run r7-2gpu-$cs 2 $P6 -dm_refine 7 $L -pc_pmg_coarse_space $cs
        run weak-1gpu-$cs 1 $W -dm_plex_box_faces 452,452 $L -pc_pmg_coarse_space $cs
        run weak-2gpu-$cs 2 $W -dm_plex_box_faces 639,639 $L -pc_pmg_coarse_space $cs
      done
      for f in r7-1gpu-dg1 r7-1gpu-cg1 r7-2gpu-dg1 r7-2gpu-cg1 weak-1gpu-dg1 weak-1gpu-cg1 weak-2gpu-dg1 weak-2gpu-cg1; do
        echo "$f:"; grep -E "^(PCSetUp|IPDGAssemble|CG1Assemble|MGSetup Level 0|MGSmooth Level 0|MGSmooth Level 1|KSPSolve) " "$OUT/$f.log" | cut -c1-40,150-230
      done ) ;;
  wholerun) # issue 13, one GPU: N = 6 Poisson at 19.3 M DOFs, preconditioner setup <= 2 s and the whole run (process
          # start to end, mesh to answer) <= 6 s. Twice (the first run also pays for cold caches of the file system
          # and the GPU driver), then once with the point functions on the host (-problem_closed_form 0, the
          # right-hand side and L2 error of before), then with -log_view_gpu_time (the events' times; without it
          # PETSc 3.22 prints n/a for events with device work). Per run: wall (process start to end), hoflow's
          # setup_s/solve_s, and the -log_view events of the whole budget (seconds), largest first.
    ( source scripts/gpu-toolchain/env.sh
      EV="DeviceInit|MeshSetup|MeshRead|DMRefine|MeshDistribute|MeshGeometry|MeshFaces|DGSetup|DGLayout|DGTraceMaps|EllipticOperator|EllipticRHS|DGProject|PCSetUp|PMGLevels|EigEstimate|CG1Assemble|IPDGDiagonal|MGSetup Level [0-9]|KSPSetUp|KSPSolve|DGL2Error|Output|SFSetGraph|SFSetUp"
      # -pmg_pc_mg_log: PCMG's set-up per level inside PCSetUp (Level 0: BoomerAMG on the CG1 matrix; the others:
      # the smoothers' KSPSetUp, their work vectors and diagonal)
      for r in r7-wholerun-1 r7-wholerun-2 r7-wholerun-pointfunctions r7-wholerun-budget r7-wholerun-petscrefine; do
        x=""; [ $r = r7-wholerun-pointfunctions ] && x="-problem_closed_form 0"
        [ $r = r7-wholerun-petscrefine ] && x="-mesh_refine_native false" # PETSc's DMRefine, for the comparison (mesh/refine.c)
        [ $r = r7-wholerun-budget ] && x="-log_view_gpu_time" # event times of device work (its synchronizations lengthen the run)
        T=240 run $r 1 $P6 -dm_refine 7 -log_view -pmg_pc_mg_log $x > "$OUT/$r.summary" 2>&1
        head -1 "$OUT/$r.summary"
        grep -E "^hoflow:" "$OUT/$r.log" | grep -oE "(L2|iterations|setup_s|solve_s) [^ ]+" | tr '\n' ' '; echo
        grep -E "^Time \(sec\):" "$OUT/$r.log" | awk '{print "  PETSc total (PetscInitialize to PetscFinalize) " $3 " s"}'
        budget "$OUT/$r.log" "$EV"
      done ) ;;
  weakdiag) # issue 19: where weak scaling (about 10 M DOFs a GPU) loses time on all the GPUs of the host, without GPU
          # timers: one GPU alone; one independent one-GPU run on every GPU at once (what the host's shared parts cost:
          # no communication); all GPUs; all GPUs with ranks bound to the NUMA domains (WEAKDIAG_BIND); all GPUs with
          # the halo through PetscSF; the coarse solve left out (-pmg_mg_coarse_pc_type none: more iterations, the time
          # an iteration without the coarse level) on one and all GPUs; the multigrid levels with GPU timers (shares).
          # On 4 H200s (2026-11-27) the NUMA binding did not start (the host has one NUMA domain) and the runs without
          # the coarse solve stopped unconverged after 400 iterations (no time an iteration from them)
    ( source scripts/gpu-toolchain/env.sh
      ng=$(nvidia-smi -L | wc -l)
      nvidia-smi topo -m | head -$((ng + 2))
      W="-problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda ${EXTRA:-}"
      f1=452; fn=$(python3 -c "import math; print(round(452 * math.sqrt($ng)))")
      run wd-1gpu 1 $W -dm_plex_box_faces $f1,$f1; per_it wd-1gpu
      t0=$(date +%s%N)
      for g in $(seq 0 $((ng - 1))); do CUDA_VISIBLE_DEVICES=$g timeout 120 ./hoflow $W -dm_plex_box_faces $f1,$f1 > "$OUT/wd-concurrent-$g.log" 2>&1 & done; wait
      echo "$ng concurrent one-GPU runs: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
      for g in $(seq 0 $((ng - 1))); do per_it wd-concurrent-$g; done
      run wd-${ng}gpu $ng $W -dm_plex_box_faces $fn,$fn; per_it wd-${ng}gpu
      run wd-${ng}gpu-again $ng $W -dm_plex_box_faces $fn,$fn; per_it wd-${ng}gpu-again
      MPIBIND="${WEAKDIAG_BIND:---map-by ppr:$((ng / 2)):numa --bind-to numa}" run wd-${ng}gpu-bind $ng $W -dm_plex_box_faces $fn,$fn; per_it wd-${ng}gpu-bind
      run wd-${ng}gpu-mpi $ng $W -dm_plex_box_faces $fn,$fn -halo_transport mpi; per_it wd-${ng}gpu-mpi
      run wd-1gpu-nocoarse 1 $W -dm_plex_box_faces $f1,$f1 -pmg_mg_coarse_pc_type none -ksp_max_it 400; per_it wd-1gpu-nocoarse
      run wd-${ng}gpu-nocoarse $ng $W -dm_plex_box_faces $fn,$fn -pmg_mg_coarse_pc_type none -ksp_max_it 400; per_it wd-${ng}gpu-nocoarse
      for n in 1 $ng; do
        fx=$f1; [ $n = 1 ] || fx=$fn
        run wd-${n}gpu-levels $n $W -dm_plex_box_faces $fx,$fx -log_view -log_view_gpu_time -pmg_pc_mg_log
        budget "$OUT/wd-${n}gpu-levels.log" "MGSmooth Level [0-9]|MGResid Level [0-9]|MGInterp Level [0-9]|GatherAllgather|PCApply|KSPSolve|VecTDot|VecNorm|MatMult"
      done ) ;;
  ipccheck) # the CUDA IPC transport against PetscSF on 2 and 4 GPUs (the test gpu/halo-ipc/poisson-pmg-2-and-4-gpus's runs),
          # with the gathered CG1 transfer (auto) and with the AIJ injection: iterations and L2 must agree per transfer
    ( source scripts/gpu-toolchain/env.sh
      A="-dm_vec_type cuda -order 4 -options_file options/pmg_amg.yaml -ksp_rtol 1e-12 -dm_plex_filename examples/meshes/square.msh -dm_refine 3"
      ng=$(nvidia-smi -L | wc -l)
      for n in 2 $ng; do for t in auto aij; do for tr in ipc mpi; do for x in "" "-halo_split 0"; do
        timeout 60 mpiexec --bind-to none -n $n ./hoflow $A -halo_transport $tr -pc_pmg_cg1_transfer $t $x > "$OUT/ipccheck.log" 2>&1
        echo "$n GPUs, transfer $t, halo $tr ${x:-(split)}: rc $? $(grep -oE "iterations [0-9]+|L2 [^ ]+" "$OUT/ipccheck.log" | tr '\n' ' ') $(grep -m1 -oE "PETSC ERROR: [A-Z].*" "$OUT/ipccheck.log" | cut -c1-200)"
      done; done; done; done ) ;;
  weakvar) # issue 19: weak scaling (about 10 M DOFs a GPU) of solver variants: WEAKVAR_GPUS (default: 1 and all), each
          # variant of WEAKVAR (options; variants separated by ';', "-" for none) on every GPU count, without GPU timers
    ( source scripts/gpu-toolchain/env.sh
      ng=$(nvidia-smi -L | wc -l)
      W="-problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda ${EXTRA:-}"
      IFS=';' read -ra variants <<< "${WEAKVAR:--}"
      i=0
      for v in "${variants[@]}"; do
        [ "$v" = "-" ] && v=""
        for n in ${WEAKVAR_GPUS:-1 $ng}; do
          f=$(python3 -c "import math; print(round(452 * math.sqrt($n)))")
          run wv$i-${n}gpu $n $W -dm_plex_box_faces $f,$f $v
          per_it wv$i-${n}gpu " [$v]"
        done
        i=$((i + 1))
      done ) ;;
  weak)   # about 10 M DOFs per GPU on quadrilaterals (no mesh generator needed): 452^2 and 639^2 cells at N = 6
    ( source scripts/gpu-toolchain/env.sh
      W="-problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml -dm_vec_type cuda"
      run weak-1gpu 1 $W -dm_plex_box_faces 452,452
      run weak-2gpu 2 $W -dm_plex_box_faces 639,639 ) ;;
  ins)    # the incompressible step at 14.5 M DOFs (Taylor vortex, N = 6, 172 032 triangles), 10 steps
    ( source scripts/gpu-toolchain/env.sh
      I="-options_file options/taylor_vortex.yaml -options_file options/gpu.yaml -dm_refine 6 -ts_max_steps 10 -output_interval 0 -checkpoint_interval 0 -log_view"
      run ins-1gpu 1 $I -output_dir /tmp/ins1
      run ins-2gpu 2 $I -output_dir /tmp/ins2
      for f in ins-1gpu ins-2gpu; do echo "$f stages:"; grep -E "^ *[0-9]+: +INS " "$OUT/$f.log" | cut -c1-60; done ) ;;
  tests)
    ( build all > "$OUT/build-all.log" 2>&1 || tail -20 "$OUT/build-all.log"
      source scripts/gpu-toolchain/env.sh && python3 tests/run.py --gpu -k gpus > "$OUT/test-2gpu.log" 2>&1; grep -E "^(ok|FAIL|skip)" "$OUT/test-2gpu.log" | cut -c1-200; tail -2 "$OUT/test-2gpu.log" ) ;;
  scale)  # issue 19: strong scaling on 1, 2, 4 (, 8) GPUs of this host and weak scaling at about 10 M DOFs per GPU
          # (GPU counts from nvidia-smi; SCALE_PARTS picks poisson poisson19 ins euler ns fr frns weak, and inssub: ins with subcycles). SCALE_PACK=1 packs the logs
          # into $OUT/scale-logs.tgz: the device tool brings back at most 8 files, and on 4 GPUs all five parts write
          # 15 logs, 17 files with build.log and summary.txt (2026-11-26, nvidia-h200-x4: summary.txt and 8 logs stayed behind)
    ( source scripts/gpu-toolchain/env.sh
      ng=$(nvidia-smi -L | wc -l); list=1; n=2; while [ $n -le "$ng" ]; do list="$list $n"; n=$((n * 2)); done
      echo "GPUs: $ng, runs on: $list"
      # SCALE_LOG (default -log_view -log_view_gpu_time: event times of device work, with a synchronization at every event)
      # and SCALE_MGLOG (default -pmg_pc_mg_log: the multigrid levels' events) set the logging; SCALE_LOG=-log_view
      # SCALE_MGLOG= times the runs without the synchronizations (solve_s, loop_s and TSStep stay measured); SCALE_FRNS_N
      # the Taylor-Green mesh (40: 20.5 M DOF-variables; 56: 56.2 M)
      L=${SCALE_LOG--log_view -log_view_gpu_time}; LMG=${SCALE_MGLOG--pmg_pc_mg_log}; tn=${SCALE_FRNS_N:-40}
      for what in ${SCALE_PARTS:-poisson ins euler ns fr frns weak}; do
        for n in $list; do
          case $what in
          poisson) T=300 run poisson77-${n}gpu $n $P6 -dm_refine 8 -dm_refine_distributed $L $LMG ;;  # 77 M DOFs
          poisson19) T=120 run poisson19-${n}gpu $n $P6 -dm_refine 7 -dm_refine_distributed $L $LMG ;;  # 19.3 M DOFs (issue 13's 2-GPU criterion)
          ins) T=300 run ins19-${n}gpu $n -options_file options/taylor_vortex.yaml -options_file options/gpu.yaml -order 7 -dm_refine 6 \
                 -vel_pc_type pmg -ts_max_steps 10 -output_interval 0 -checkpoint_interval 0 -monitor_interval 100000 -output_dir /tmp/ins$n $L ${EXTRA:-} ;;  # 18.6 M DOFs
          inssub) T=300 run inssub19-${n}gpu $n -options_file options/taylor_vortex.yaml -options_file options/gpu.yaml -order 7 -dm_refine 6 \
                 -vel_pc_type pmg -ins_subcycles 2 -ts_max_steps 10 -output_interval 0 -checkpoint_interval 0 -monitor_interval 100000 -output_dir /tmp/ins$n $L ;;  # the same with 2 LSERK4 subcycles a step (31 advections); DIVERGES at step 0
               # on 1, 2, 4 H200s (2026-11-27): 2 subcycles are too few at N = 7, h = 0.0049, dt = 0.005 (advective CFL of a step ~50)
          euler) T=200 run euler67-${n}gpu $n -problem isentropic_vortex -disc mdg -order 3 -dm_plex_simplex 0 -dm_plex_box_faces 1024,1024 \
                   -dm_plex_box_bd periodic,periodic -ts_type ssp -ts_ssp_type rk104 -cfl 0.5 -ts_max_steps 20 -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda $L \
                   -mdg_halo ${SCALE_MDG_HALO:-traces} -mdg_view_halo ;;  # 67 M DOFs; SCALE_MDG_HALO=elements: the exchange of before
          ns) T=200 run ns13-${n}gpu $n -problem couette -disc mdg -order 3 -dm_plex_simplex 0 -dm_plex_box_faces 768,256 -dm_plex_box_upper 4,2 \
                -dm_plex_box_bd periodic,none -ts_type ssp -ts_ssp_type rk104 -cfl 0.5 -ts_max_steps 20 -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda $L ;;  # 12.6 M DOFs
          fr) T=200 run fr56-${n}gpu $n -problem isentropic_vortex -disc fr -order 3 -euler_flux roe -ts_type rk -ts_rk_type lserk4 -cfl 0.5 \
                -ts_max_time 100 -ts_max_steps 200 -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda -log_view \
                -dm_plex_dim 3 -dm_plex_box_faces 56,56,56 -dm_plex_box_bd periodic,periodic,periodic ;;  # 56.2 M DOF-variables (11.2 M points)
          frns) T=200 run frns$tn-${n}gpu $n -options_file options/taylor_green_fr.yaml -dm_plex_box_faces $tn,$tn,$tn -ts_max_steps 100 \
                  -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda -log_view ;;  # 40^3: 20.5 M DOF-variables, the viscous terms
          weak) f=$(python3 -c "import math; print(round(452 * math.sqrt($n)))")
                T=200 run weak-${n}gpu $n -problem poisson -order 6 -dm_plex_simplex 0 -ksp_rtol 1e-8 -options_file options/pmg_amg.yaml \
                  -dm_vec_type cuda -dm_plex_box_faces $f,$f $L $LMG ${EXTRA:-} ;;
          esac
          nm=$(ls "$OUT" | grep -E "^${what}[0-9]*-${n}gpu\.log$" | head -1)
          [ -n "$nm" ] && case $what in ins*) grep -E "^ *[0-9]+: +INS " "$OUT/$nm" | cut -c1-60 ;; esac
          [ -n "$nm" ] && grep -E "^(TSStep|KSPSolve|PCSetUp|PCApply|MGSmooth Level 0|INS[A-Za-z]*) " "$OUT/$nm" | cut -c1-40 | head -8
          # the explicit solvers' time loop (TSSolve ended after the device queue; -log_view without GPU timers on FR). The
          # explicit cases run with -monitor_file none: the CSV monitors of step 0 and the last step (host L2 error from a
          # host copy, integrals, a residual) fall inside loop_s, 4.0 of modal DG Euler's 5.64 s on one H200 (2026-11-26i)
          [ -n "$nm" ] && grep -m1 -E "^hoflow:" "$OUT/$nm" | grep -oE "(steps|loop_s) [^ ]+" | tr '\n' ' ' && echo
        done
      done
      if [ -n "${SCALE_PACK:-}" ]; then
        logs=$(cd "$OUT" && ls *.log)
        tar czf "$OUT/scale-logs.tgz" -C "$OUT" $logs && (cd "$OUT" && rm -f $logs) && echo "logs packed: $OUT/scale-logs.tgz"
      fi ) ;;
  fr)     # issue 17: flux reconstruction on 2 GPUs: the halo exchange strategies (-fr_exchange none|overlap|split,
          # disc/fr_exchange.c) with the trace exchange (-fr_halo traces, the default: the partition faces' flux-point
          # values, disc/fr_trace.c) and, for comparison, the element exchange (-fr_halo elements, overlap); the Euler
          # isentropic vortex, LSERK4, N = 3, on periodic hexahedra (tensor FR, 40^3: 20.5 M DOF-variables) and periodic
          # prisms (dense FR, scripts/periodic_mesh.py n = 30: 54 000 prisms, 10.8 M), 1 GPU (none: one rank has no
          # exchange; FR_1GPU="none overlap split" runs all three) and 2 GPUs in two bindings (FR_BINDS): "bind", one
          # visible GPU a rank (GPUBIND: CUDA IPC between the GPUs is then out of Open MPI's reach, the transfers may be
          # staged through the host) and "visible", both GPUs visible to both ranks, each taking the GPU of its local rank
          # (hoflow's -device_select_cuda default, src/core/device.c: smcuda's CUDA IPC possible); then Navier-Stokes:
          # the Taylor-Green vortex (options/taylor_green_fr.yaml at 40^3, N = 3: the viscous terms, two exchanges a
          # right-hand side, FR_TGV_STEPS (50) steps) on 1 and 2 GPUs. Time per RK stage (TSStep / 5 stages, max over
          # ranks, -log_view without GPU timers on 2 ranks: no synchronizations) and the strong-scaling efficiency
          # t1 / (2 t2); -fr_view's bytes a right-hand side. FR_STEPS (200), FR_TGV_STEPS (100), FR_HEX_N (40), FR_PRISM_N (30), FR_SHAPES
          # ("hex prism tgv").
    ( source scripts/gpu-toolchain/env.sh
      FRV="-problem isentropic_vortex -disc fr -order 3 -euler_flux roe -ts_type rk -ts_rk_type lserk4 -cfl 0.5 -ts_max_time 100
           -ts_max_steps ${FR_STEPS:-200} -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda -log_view -fr_view"
      TGV="-options_file options/taylor_green_fr.yaml -dm_plex_box_faces ${FR_HEX_N:-40},${FR_HEX_N:-40},${FR_HEX_N:-40} -ts_max_steps ${FR_TGV_STEPS:-100}
           -monitor_interval 100000 -progress_interval -1 -monitor_file none -dm_vec_type cuda -log_view -fr_view"
      hn=${FR_HEX_N:-40}; pn=${FR_PRISM_N:-30}
      mesh=output/bench-meshes/periodic_prism_$pn.msh
      # the time loop (TSSolve, ended after the device queue: src/physics/unsteady.c) / (steps x 5 stages)
      # (-log_view prints n/a for events with device flops unless -log_view_gpu_time: the summary line's loop_s is the same wall)
      stage() { awk '$1 == "hoflow:" { for (i = 1; i < NF; i++) { if ($i == "steps") n = $(i+1); if ($i == "loop_s") t = $(i+1) } } END { if (n > 0 && t > 0) printf "%.4e", t / (n * 5) }' "$OUT/$1.log"; }
      eff() { # NAME T1 LOG2
        local t2=$(stage $3); t2=${t2:-0}
        awk -v n="$1" -v a="$2" -v b="$t2" 'BEGIN { printf "%-44s %s s per RK stage, strong-scaling efficiency %s\n", n, b, (b > 0 ? sprintf("%.1f %%", 100 * a / (2 * b)) : "n/a") }'
      }
      for shape in ${FR_SHAPES:-hex prism tgv}; do
        if [ $shape = hex ]; then A="$FRV -dm_plex_dim 3 -dm_plex_box_faces $hn,$hn,$hn -dm_plex_box_bd periodic,periodic,periodic"
        elif [ $shape = prism ]; then
          [ -f $mesh ] || { mkdir -p output/bench-meshes && python3 scripts/periodic_mesh.py --shape prism --n $pn -o $mesh; }
          A="$FRV -dm_plex_filename $mesh -vortex_radius 0.15 -vortex_strength 1"
        else A="$TGV"; fi
        # the stage from TimeLoop, not TSStep: on one rank nothing in TSStep waits for the GPU (2026-11-26: 35 ms for 200
        # steps of 1.5 ms stages; the CFL step's VecMax between steps absorbs the wait), on two the exchange does
        xs="none overlap split"; [ $shape = tgv ] && xs="overlap" # Navier-Stokes: the same order of steps in every strategy
        for x in ${FR_1GPU:-none}; do T=150 run fr-$shape-1gpu-$x 1 $A -fr_exchange $x; done
        for b in ${FR_BINDS:-bind visible}; do
          for x in $xs; do
            if [ $b = bind ]; then T=150 GPUBIND=1 run fr-$shape-2gpu-$b-$x 2 $A -fr_exchange $x; else T=150 run fr-$shape-2gpu-$b-$x 2 $A -fr_exchange $x; fi
          done
        done
        [ $shape != tgv ] && T=150 GPUBIND=1 run fr-$shape-2gpu-bind-overlap-elements 2 $A -fr_exchange overlap -fr_halo elements
        fr1=${FR_1GPU:-none}; t1=$(stage fr-$shape-1gpu-${fr1%% *}); t1=${t1:-0}
        dofs=$(grep -m1 -oE " dofs [0-9]+" "$OUT/fr-$shape-1gpu-${fr1%% *}.log" | awk '{print $2}')
        echo "fr $shape N = 3, ${dofs:-?} DOF-variables: 1 GPU ${t1} s per RK stage"
        grep -hE "^fr halo: rank 0" "$OUT/fr-$shape-2gpu-bind-overlap.log" "$OUT/fr-$shape-2gpu-bind-overlap-elements.log" 2>/dev/null | sort -u
        for b in ${FR_BINDS:-bind visible}; do
          for x in $xs; do eff "fr $shape 2 GPUs $b -fr_exchange $x" "$t1" fr-$shape-2gpu-$b-$x; done
        done
        [ $shape != tgv ] && eff "fr $shape 2 GPUs bind overlap -fr_halo elements" "$t1" fr-$shape-2gpu-bind-overlap-elements
        grep -hE "^(SFBcastBegin|SFBcastEnd|SFPack|SFUnpack|FRFace|FRVolume|FRViscous) " "$OUT/fr-$shape-2gpu-bind-overlap.log" | cut -c1-80
      done ) ;;
  cpu)    # the same 19.3 M DOF solve on 16 CPU cores (GAMG coarse: this hypre takes device vectors only)
    run r7-cpu16 16 ${P6/-dm_vec_type cuda/} -dm_refine 7 -options_file options/pmg_gamg.yaml -log_view ;;
  esac
done
date -u
