#!/bin/bash
# One GPU session's worth of work: build with CUDA, run the GPU tests, tune the kernels' launch
# shapes, run the roofline benchmark on triangles and quadrilaterals (>= 200 000 elements), time
# CG iterations against one CPU core, and keep a -log_view of a GPU solve. Results go to $OUT
# (default output/gpu), at most 8 files. Usage: bench/run-gpu.sh [quick]
set -uo pipefail
OUT=${OUT:-output/gpu}
mkdir -p "$OUT"
exec > >(tee "$OUT/summary.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv
date -u
make CUDA=1 -j16 > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
rm -f "$OUT/build.log"
make test-gpu > "$OUT/test-gpu.log" 2>&1
tail -4 "$OUT/test-gpu.log"
[ "${1:-}" = quick ] && exit 0
TRI="-dm_plex_filename examples/meshes/square_bench.msh -dm_refine 6"
QUAD="-dm_plex_box_faces 448,448"
for shape in tri quad; do
  mesh=$TRI; [ $shape = quad ] && mesh=$QUAD
  if [ "${SWEEP:-1}" = 1 ]; then
    ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_epb_sweep -bench_reps 20 -bench_csv "$OUT/sweep_$shape.csv" > /dev/null 2>&1
    echo "fastest launch shape (shape kernel N rows P seconds):"
    awk -F, 'NR>1 {k=$2" "$4" "$3; if (!(k in best) || $8<best[k]) {best[k]=$8; cfg[k]=$6" "$7}} END {for (k in best) print "best", k, cfg[k], best[k]}' "$OUT/sweep_$shape.csv" | sort -k3,3 -k4n
  fi
  ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_reps 50 -bench_cg_order 5 -bench_csv "$OUT/roofline_$shape.csv" > "$OUT/r.txt" 2>&1
  grep -E "^(device|cells|copy|shared|shape|triangle|quadri|throughput|cg:)" "$OUT/r.txt"
done
./build/bench/ipdg_bench $TRI -bench_orders 4,5,6,8 -bench_reps 3 -bench_cg_order 5 -bench_cg_its 10 -bench_csv "$OUT/cpu_tri.csv" > "$OUT/r.txt" 2>&1
grep -E "^(device|triangle|throughput|cg:)" "$OUT/r.txt"
rm -f "$OUT/r.txt"
./hoflow -dm_vec_type cuda -problem poisson -order 5 -dm_plex_filename examples/meshes/square.msh -dm_refine 4 -log_view > "$OUT/logview.txt" 2>&1
grep -E "^hoflow:|^(MatMult|KSPSolve|IPDG|VecTDot|VecAXPY|PCApply) " "$OUT/logview.txt"
