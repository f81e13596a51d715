#!/bin/bash
# GPU session stages (run on the GPU machine after `source .gpu/env.sh`), results under $OUT:
#   build     make CUDA=1
#   tests     make test-gpu, compute-sanitizer on the kernel tests
#   copies    -log_view of a CG/Jacobi and a pMG-AMG Poisson solve (host-device copies)
#   pmg       pMG-AMG Poisson at N = 6 on ~19 M DOFs: throughput, fine levels vs coarse solve
#   study     scripts/solver_study.py on the GPU
#   ins       Taylor vortex and square cylinder: per-step breakdown for N = 1..6, Ns = 0, 4, 8, 16,
#             GPU vs one CPU core
#   cpu-vs-gpu, cpu-vs-gpu-long   square cylinder N = 5 on the GPU and one CPU core (breakdown
#             settings; the long run's settings and options/gpu.yaml, from rest and continuing a
#             checkpoint)
#   cylinder  options/square_cylinder.yaml on the GPU (continues .gpurun/ when it holds a checkpoint)
#   roofline-ins, logview-ins   roofline of the flow kernels; -log_view of the cylinder's step
# Usage: bench/gpu-session.sh STAGE...
set -uo pipefail
OUT=${OUT:-output/gpu}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
log() { echo "== $(date -u +%H:%M:%S) $*"; }
SQ=examples/meshes/square.msh

for stage in "$@"; do
  case $stage in
  build)
    log build
    nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
    touch examples/meshes/*.msh # carried from the CPU machine (no gmsh here)
    make CUDA=1 -j16 > "$OUT/build.log" 2>&1 || { tail -60 "$OUT/build.log"; exit 1; }
    rm -f "$OUT/build.log"
    ;;
  tests)
    log tests
    make test-gpu > "$OUT/test-gpu.log" 2>&1
    grep -E "FAIL|passed" "$OUT/test-gpu.log" | head -30
    for N in 2 10; do
      compute-sanitizer --tool memcheck --error-exitcode 9 ./build/tests/test_gpu -order $N -dm_plex_filename $SQ > "$OUT/r.txt" 2>&1
      echo "memcheck N=$N exit $? $(grep -c 'ERROR SUMMARY: 0' "$OUT/r.txt") clean summaries"
      compute-sanitizer --tool racecheck --error-exitcode 9 ./build/tests/test_gpu -order $N -dm_plex_filename $SQ > "$OUT/r.txt" 2>&1
      echo "racecheck N=$N exit $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/r.txt" | head -2 | tr '\n' ' ')"
    done
    rm -f "$OUT/r.txt"
    ;;
  copies)
    log copies
    ./hoflow -dm_vec_type cuda -problem poisson -order 5 -dm_plex_filename $SQ -dm_refine 4 -log_view > "$OUT/logview_cg.txt" 2>&1
    grep -E "^hoflow:|^(MatMult|KSPSolve|IPDGApply|IPDGGradient|IPDGDiagonal|PCApply|PCSetUp) " "$OUT/logview_cg.txt"
    ;;
  pmg)
    log "pmg N=6 on square.msh refined 7 times"
    ./hoflow -dm_vec_type cuda -order 6 -dm_plex_filename $SQ -dm_refine 7 -options_file options/pmg_amg.yaml -ksp_rtol 1e-8 \
      -pmg_pc_mg_log -log_view -log_view_gpu_time > "$OUT/logview_pmg.txt" 2>&1
    grep -E "^hoflow:|^(KSPSolve|PCApply|MatMult|IPDGApply|DGTransfer|MGSmooth Level|MGInterp Level|MGResid Level|PCSetUp) " "$OUT/logview_pmg.txt"
    ./hoflow -dm_vec_type cuda -order 6 -dm_plex_filename $SQ -dm_refine 7 -options_file options/pmg_gamg.yaml -ksp_rtol 1e-8 \
      -pmg_pc_mg_log -log_view > "$OUT/logview_pmg_gamg.txt" 2>&1
    grep -E "^hoflow:|^(KSPSolve|PCApply|MGSmooth Level 0) " "$OUT/logview_pmg_gamg.txt"
    ;;
  study)
    log study
    /usr/bin/env python3 scripts/solver_study.py --cuda --jobs 4 --dts 1e-1,1e-3 --out "$OUT/solver_study_gpu" \
      --title "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%Y-%m-%d), 4 solves at a time" > "$OUT/study.log" 2>&1
    tail -3 "$OUT/study.log"
    ;;
  ins)
    log "ins: Taylor vortex on the GPU"
    ./hoflow -dm_vec_type cuda -problem taylor_vortex -order 6 -ts_dt 5e-3 -ts_max_time 0.5 -progress_interval -1 -monitor_file none | grep hoflow:
    log "ins: square cylinder per-step breakdown"
    python3 bench/ins_breakdown.py --orders 1-6 --subcycles 0,4,8,16 --steps 30 --csv "$OUT/ins_breakdown_gpu.csv" -- -dm_vec_type cuda > "$OUT/ins_breakdown.txt" 2>&1
    cat "$OUT/ins_breakdown.txt"
    log "ins: one CPU core of the same build, N = 5"
    python3 bench/ins_breakdown.py --orders 5 --subcycles 0,8 --steps 4 --csv "$OUT/ins_breakdown_cpu.csv" | tee -a "$OUT/ins_breakdown.txt"
    ;;
  cpu-vs-gpu)
    log "square cylinder N = 5: GPU and one CPU core of the same build (pressure coarse solve GAMG on both)"
    python3 bench/ins_breakdown.py --orders 5 --subcycles 0,8 --steps 6 --csv "$OUT/ins_cpu.csv" -- -pres_pmg_mg_coarse_pc_type gamg | tee "$OUT/ins_cpu_vs_gpu.txt"
    python3 bench/ins_breakdown.py --orders 5 --subcycles 0,8 --steps 30 --csv "$OUT/ins_gpu_gamg.csv" -- -dm_vec_type cuda -pres_pmg_mg_coarse_pc_type gamg | tee -a "$OUT/ins_cpu_vs_gpu.txt"
    ;;
  cpu-vs-gpu-long)
    # the long run's settings (options/square_cylinder.yaml: dt = 0.02, Ns = 8, pMG degree 2) and the
    # GPU's (plus options/gpu.yaml: degree 4), each on the GPU and on one CPU core; GPU cases twice
    # (run-to-run spread). From rest (the first steps at start-up orders) and, with a checkpoint of
    # the developed flow (CHECKPOINT, default .gpurun/checkpoint.h5, e.g. from the stage cylinder),
    # continuing it.
    log "square cylinder N = 5, long run's settings and options/gpu.yaml: GPU and one CPU core"
    L="--orders 5 --subcycles 8 --dt 0.02"
    O="-options_file options/square_cylinder.yaml"
    G="-options_file options/gpu.yaml"
    D="-vel_pc_pmg_chebyshev_degree 4 -pres_pc_pmg_chebyshev_degree 4"
    cmp() { # label, ins_breakdown arguments
      tag=$1; shift
      for k in 1 2; do python3 bench/ins_breakdown.py $L "$@" --steps 40 --csv "$OUT/${tag}_gpu_d2_$k.csv" -- $O -dm_vec_type cuda | tail -2 | head -1 | sed "s/^/$tag gpu d2   /"; done
      for k in 1 2; do python3 bench/ins_breakdown.py $L "$@" --steps 40 --csv "$OUT/${tag}_gpu_d4_$k.csv" -- $O $G | tail -2 | head -1 | sed "s/^/$tag gpu d4   /"; done
      python3 bench/ins_breakdown.py $L "$@" --steps 6 --csv "$OUT/${tag}_cpu_d2.csv" -- $O | tail -2 | head -1 | sed "s/^/$tag cpu d2   /"
      python3 bench/ins_breakdown.py $L "$@" --steps 6 --csv "$OUT/${tag}_cpu_d4.csv" -- $O $D | tail -2 | head -1 | sed "s/^/$tag cpu d4   /"
    }
    echo "case      backend  N  Ns        dt      its   advect s   velocity   pressure     update     step s  speedup   setup s   status"
    cmp rest
    ckpt=${CHECKPOINT:-.gpurun/checkpoint.h5}
    [ -f "$ckpt" ] && cmp developed --restart "$ckpt"
    ;;
  cylinder)
    # options/square_cylinder.yaml on the GPU for CYL_SECONDS, continuing from .gpurun/ (the last call's
    # output, carried back) when it holds a checkpoint; everything packed into one tar file
    log "square cylinder N = 5 to t = 200"
    mkdir -p "$OUT/cyl"
    restart=""
    if [ -f .gpurun/checkpoint.h5 ]; then cp .gpurun/* "$OUT/cyl/"; restart="-restart $OUT/cyl/checkpoint.h5"; fi
    timeout "${CYL_SECONDS:-420}" ./hoflow -options_file options/square_cylinder.yaml -dm_vec_type cuda -output_dir "$OUT/cyl" \
      -checkpoint_interval 500 -progress_interval 60 $restart > "$OUT/cyl/run.log" 2>&1
    echo "exit $?"; tail -3 "$OUT/cyl/run.log"; tail -1 "$OUT/cyl/monitors.csv"
    tar -C "$OUT" -cf "$OUT/cyl.tar" cyl && rm -rf "$OUT/cyl"
    ;;
  roofline-ins)
    log "roofline: SIPDG and incompressible-flow kernels, triangles (270 336 elements)"
    ./build/bench/ipdg_bench -dm_vec_type cuda -dm_plex_filename examples/meshes/square_bench.msh -dm_refine 6 -bench_orders 1,2,3,4,5,6,7,8 \
      -bench_reps 30 -bench_csv "$OUT/roofline_ins_tri.csv" > "$OUT/roofline_ins.txt" 2>&1
    grep -E "^(device|cells|copy|shared|shape|triangle|ins|throughput)" "$OUT/roofline_ins.txt" | head -60
    ;;
  logview-ins)
    log "-log_view of the square cylinder step on the GPU (N = 5, Ns = 8, 60 steps)"
    ./hoflow -options_file options/square_cylinder.yaml -options_file options/gpu.yaml -ts_max_steps 60 -output_interval 0 -checkpoint_interval 0 \
      -monitor_file none -progress_interval -1 -output_dir "$OUT/lv" -log_view > "$OUT/logview_ins.txt" 2>&1
    grep -E "^hoflow:|^ +[0-9]+: +(Main Stage|INS)" "$OUT/logview_ins.txt"
    ;;
  *) echo "unknown stage $stage"; exit 2 ;;
  esac
done
log done
