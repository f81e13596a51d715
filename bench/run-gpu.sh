#!/bin/bash
# One GPU session's worth of work: build with CUDA, run the GPU tests, the roofline benchmark on
# triangles and quadrilaterals (>= 200 000 elements), CG timings against one CPU core, and a
# -log_view of a GPU solve. Results go to $OUT (default output/gpu). Usage: bench/run-gpu.sh [quick]
set -uo pipefail
OUT=${OUT:-output/gpu}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
make CUDA=1 -j16 > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
make test-gpu 2>&1 | tee "$OUT/test-gpu.log" | tail -8
[ "${1:-}" = quick ] && exit 0
TRI="-dm_plex_filename examples/meshes/square_bench.msh -dm_refine 6"
QUAD="-dm_plex_box_faces 448,448"
for shape in tri quad; do
  mesh=$TRI; [ $shape = quad ] && mesh=$QUAD
  ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_epb_sweep -bench_reps 20 -bench_csv "$OUT/sweep_$shape.csv" > "$OUT/sweep_$shape.log" 2>&1
  ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_reps 50 -bench_cg_order 5 -bench_csv "$OUT/roofline_$shape.csv" > "$OUT/roofline_$shape.txt" 2>&1
  grep -E "^(device|cells|copy|shared|triangle|quadri|throughput|cg:)" "$OUT/roofline_$shape.txt"
done
./build/bench/ipdg_bench $TRI -bench_orders 4,5,6,8 -bench_reps 3 -bench_cg_order 5 -bench_cg_its 10 -bench_csv "$OUT/cpu_tri.csv" > "$OUT/cpu_tri.txt" 2>&1
grep -E "^(triangle|throughput|cg:)" "$OUT/cpu_tri.txt"
./hoflow -dm_vec_type cuda -problem poisson -order 5 -dm_plex_filename examples/meshes/square.msh -dm_refine 4 -log_view > "$OUT/logview.txt" 2>&1
# the tuning sweep: fastest elements-per-block per kernel and order
cat "$OUT"/sweep_*.csv | awk -F, 'NR>1 && $1!="device" {k=$2" "$4" "$3; if (!(k in best) || $7<best[k]) {best[k]=$7; epb[k]=$6}} END {for (k in best) print "best", k, epb[k], best[k]}' | sort -k2,2 -k3,3 -k4n > "$OUT/sweep_best.txt"
rm -f "$OUT"/sweep_*.log
grep -E "^hoflow:|^(MatMult|KSPSolve|IPDG|VecTDot|VecAXPY|PCApply) " "$OUT/logview.txt"
