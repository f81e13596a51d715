#!/bin/bash
# Tune the SIPDG kernels' launch shapes (sweep of thread rows x elements per thread, every order,
# both shapes) and profile chosen kernels with Nsight Compute (hardware counters, clocks left
# alone). Results go to $OUT. Usage: [SWEEP=0] bench/profile-gpu.sh "ORDER SHAPE ..."   (e.g. "8 tri 5 quad")
set -uo pipefail
OUT=${OUT:-output/gpu}
mkdir -p "$OUT"
exec > >(tee "$OUT/profile.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
make CUDA=1 -j16 > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
rm -f "$OUT/build.log"
TRI="-dm_plex_filename examples/meshes/square_bench.msh -dm_refine 6"
QUAD="-dm_plex_box_faces 448,448"
for shape in tri quad; do
  [ "${SWEEP:-1}" = 1 ] || break
  mesh=$TRI; [ $shape = quad ] && mesh=$QUAD
  ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_epb_sweep -bench_reps 20 -bench_csv "$OUT/sweep_$shape.csv" > "$OUT/s.txt" 2>&1 || tail -20 "$OUT/s.txt"
done
rm -f "$OUT/s.txt"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
set -- ${1:-}
while [ $# -ge 2 ]; do
  N=$1; shape=$2; shift 2
  mesh=$TRI; [ $shape = quad ] && mesh=$QUAD
  for kernel in GradientKernel ApplyKernel; do
    echo "=== ncu: $kernel N=$N $shape"
    $NCU --clock-control none --kernel-name regex:$kernel --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
      ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_orders $N -bench_reps 3 2>&1 | \
      grep -E "Duration|Throughput|Memory \[%\]|DRAM|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Shared Memory Config|Block Limit|Mem Pipes|Dynamic Shared|Threads  " | head -40
  done
done
