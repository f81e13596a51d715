#!/bin/bash
# One GPU session for the 3D elements: build with CUDA, run the GPU tests, the SIPDG kernel
# roofline on hexahedra and tetrahedra (one element shape per mesh, N = 1..8), and the Poisson
# convergence studies of every 3D shape on the GPU (N = 1..6, three uniform refinements).
# Results go to $OUT (default output/gpu3d). Usage: bench/run-gpu-3d.sh [tests|bench|sweep|big|tensor|cpu1|ins3d|solvers|hex6|studies|curved|mdg|nsbench|svortex|dmr|sem|semstokes|ncu|tetN8|tensorhex|fr|tgv|frtgv|sphere]...
# (no argument: all four; SHAPES="..." limits the studies).
set -uo pipefail
OUT=${OUT:-output/gpu3d}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/summary.txt") 2>&1
export PATH=$PATH:/usr/local/cuda/bin
parts=${*:-tests bench studies curved}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
date -u
make CUDA=1 -j16 > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
rm -f "$OUT/build.log"
for part in $parts; do
  case $part in
  tests)
    python3 tests/run.py --gpu -j ${TESTS_J:-4} ${TESTS_K:+-k "$TESTS_K"} > "$OUT/test-gpu.log" 2>&1
    grep -E '^FAIL' -A12 "$OUT/test-gpu.log" | head -80
    tail -2 "$OUT/test-gpu.log" ;;
  bench)
    HEX="-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 40,40,40"   # 64 000 hexahedra
    TET="-dm_plex_filename examples/meshes/cube_tet.msh -dm_refine 3"     # Gmsh tetrahedra refined (PETSc has no TetGen)
    for shape in hex tet; do
      mesh=$HEX; [ $shape = tet ] && mesh=$TET
      ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_orders 1,2,3,4,5,6,7,8 -bench_reps 20 \
        -bench_ins false -bench_csv "$OUT/roofline_$shape.csv" > "$OUT/r.txt" 2>&1 || tail -20 "$OUT/r.txt"
      grep -E "^(device|cells|copy|shared|shape|hexa|tetra)" "$OUT/r.txt"
    done
    rm -f "$OUT/r.txt" ;;
  sweep)  # launch shapes (elements per block and per thread) of the tetrahedral kernels, for cuda/ipdg.cu's table (SWEEP_ORDERS=3,4,...)
    ./build/bench/ipdg_bench -dm_vec_type cuda -dm_plex_filename examples/meshes/cube_tet.msh -dm_refine 3 \
      -bench_orders ${SWEEP_ORDERS:-1,2,3,4,5,6,7,8} -bench_epb_sweep -bench_reps 20 -bench_ins false -bench_csv "$OUT/sweep_tet.csv" > /dev/null 2>&1
    echo "fastest launch shape (shape kernel N rows P seconds):"
    awk -F, 'NR>1 {k=$2" "$4" "$3; if (!(k in best) || $8<best[k]) {best[k]=$8; cfg[k]=$6" "$7}} END {for (k in best) print "best", k, cfg[k], best[k]}' "$OUT/sweep_tet.csv" | sort -k3,3 -k4n ;;
  big)  # issue 13's single-GPU case: N = 6, 19.3 M DOFs, pMG-AMG to 1e-8 (setup vs solve), and the same
        # solve on the machine's 16 CPU cores (GAMG coarse: this PETSc's hypre takes device vectors only)
    BIG="-problem poisson -order 6 -dm_plex_filename examples/meshes/square.msh -dm_refine 7 -ksp_rtol 1e-8"
    /usr/bin/time -f "wall %e s" ./hoflow -dm_vec_type cuda $BIG -options_file options/pmg_amg.yaml -log_view > "$OUT/logview_19M_gpu.txt" 2>&1
    grep -E "^hoflow:|^wall|^(MeshSetup|DGSetup|PMGSetUp|IPDGAssemble|CG1Assemble|MatSetPreallCOO|MatConvert|DMPlexTransform|DGProject|DGL2Error|KSPSolve) " "$OUT/logview_19M_gpu.txt" | cut -c1-100
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 /usr/bin/time -f "wall %e s" mpiexec -n 16 --bind-to core ./hoflow $BIG \
      -options_file options/pmg_gamg.yaml -log_view > "$OUT/logview_19M_cpu16.txt" 2>&1
    grep -E "^hoflow:|^wall|^(PMGSetUp|KSPSolve) " "$OUT/logview_19M_cpu16.txt" | cut -c1-100 ;;
  tensor)  # sum-factorized against dense SIPDG kernels: 64 000 hexahedra and 200 704 quadrilaterals, N = 1..8
    for mesh in "-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 40,40,40" "-dm_plex_box_faces 448,448"; do
      name=hex; case "$mesh" in *448*) name=quad ;; esac
      ./build/bench/ipdg_bench -dm_vec_type cuda $mesh -bench_orders 1,2,3,4,5,6,7,8 -bench_reps 20 -bench_ins false \
        -bench_kernels both -bench_csv "$OUT/roofline_tensor_$name.csv" > "$OUT/r.txt" 2>&1 || tail -20 "$OUT/r.txt"
      grep -E "^(cells|quadri|hexa|throughput)" "$OUT/r.txt"
    done
    rm -f "$OUT/r.txt" ;;
  cpu1)  # one core of the GPU machine's CPU (quiet, unlike a shared VM): dense vs sum-factorized host SIPDG kernels
    for mesh in "-dm_plex_simplex 0 -dm_plex_box_faces 64,64" "-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 12,12,12"; do
      name=quad; orders=1,2,3,4,5,6,7,8; case "$mesh" in *12,12,12*) name=hex; orders=2,4,6,7 ;; esac
      taskset -c 3 ./build/bench/ipdg_bench $mesh -bench_orders $orders -bench_reps 5 -bench_ins false \
        -bench_kernels both -bench_csv "$OUT/cpu1_tensor_$name.csv" > "$OUT/r.txt" 2>&1 || tail -20 "$OUT/r.txt"
      grep -E "^(device|cells|quadri|hexa|throughput)" "$OUT/r.txt"
    done
    rm -f "$OUT/r.txt" ;;
  ins3d)  # Beltrami flow, N = 2..5, hexahedra and tetrahedra
    # INS3D_ARGS: e.g. "--orders 5 --shapes tetrahedron --levels 1-3 --dt 6.25e-5 --T 0.00125"
    python3 scripts/ins3d_study.py ${INS3D_ARGS:-} --out "$OUT/ins3d_beltrami" -- -dm_vec_type cuda 2>&1 | tail -30 ;;
  solvers)  # pMG-AMG and LOR-AMG iterations, N = 2..8, three tetrahedral and hexahedral levels
    python3 scripts/solver_study.py --cuda --stacks pmg_amg,lor_amg --no-screened --orders 2-8 \
      --meshes tet0,tet1,tet2,hex2,hex4,hex8 --out "$OUT/solver_study_3d" --title "H100, $(date -u +%F)" 2>&1 | tail -40 ;;
  hex6)  # hexahedra N = 6 below the rtol 1e-12 floor of the studies
    python3 scripts/convergence.py --shape hexahedron --orders 6 --levels 1-3 --rtol 1e-14 --out "$OUT/convergence_hexahedron_N6" \
      -- -dm_vec_type cuda -options_file options/pmg_amg.yaml 2>&1 | tail -5 ;;
  studies)
    for shape in ${SHAPES:-hexahedron tetrahedron prism mixed}; do
      levels=0-2; [ $shape = hexahedron ] && levels=1-3
      solver="-options_file options/pmg_amg.yaml"   # p-multigrid needs one element shape:
      [ $shape = mixed ] && solver="-ksp_type cg -pc_type jacobi -ksp_max_it 20000"
      python3 scripts/convergence.py --shape $shape --orders 1-6 --levels $levels --rtol 1e-12 \
        --out "$OUT/convergence_$shape" -- -dm_vec_type cuda $solver 2>&1 | tail -40
    done ;;
  curved)  # the octant of the spherical shell (tetrahedra remeshed by tests/suite_curved.py's gmsh runs)
    m=output/test-meshes/shell_setnumber_octant_1_clscale_
    python3 scripts/convergence.py --shape tetrahedron --orders 1-6 --problem annulus --rtol 1e-12 \
      --meshes ${m}1p4.msh,${m}1.msh,${m}0p7.msh --out "$OUT/convergence_shell_octant" -- -dm_vec_type cuda \
      -options_file options/pmg_amg.yaml -bc_dirichlet inner,outer,left,front,bottom -bc_neumann none \
      -curve_inner sphere -curve_inner_radius 1 -curve_outer sphere -curve_outer_radius 2 2>&1 | tail -30 ;;
  mdg)  # modal DG Euler right-hand side at N = 3 on ~1 M elements (seed 002 Fig. 12): the GPU against its
        # roofline (measured copy bandwidth, FP64 peak 33.5 TFLOP/s of the H100 SXM without tensor cores),
        # all 16 cores and one core of the GPU machine
    bw=$(./build/bench/ipdg_bench -dm_vec_type cuda -dm_plex_box_faces 8,8 -bench_orders 1 -bench_reps 1 -bench_ins false 2>&1 | sed -n 's/^copy bandwidth Bg: \([0-9.]*\) GB.*/\1/p')
    echo "copy bandwidth $bw GB/s"
    for m in "--mesh quad --faces 1024" "--mesh tri --refine 7"; do
      [ "${MDG_TRI:-1}" = 0 ] && [ "${m#*tri}" != "$m" ] && continue
      python3 bench/mdg_bench.py --label gpu $m --steps 20 --bandwidth "${bw:-2980}" --peak 33500 --csv "$OUT/mdg_rhs.csv" -- -dm_vec_type cuda
    done
    for m in "--mesh quad --faces 1024"; do
      [ "${MDG_CPU:-1}" = 1 ] || break
      [ "${MDG_CPU16:-1}" = 1 ] && python3 bench/mdg_bench.py --label cpu16 $m --steps 1 --mpi 16 --csv "$OUT/mdg_rhs.csv"
      python3 bench/mdg_bench.py --label cpu1 $m --steps 1 --taskset 3 --csv "$OUT/mdg_rhs.csv"
    done ;;
  nsbench)  # Navier-Stokes (BR2) right-hand side on the seed 004 Table 7 mesh (Couette, 768 x 256 quadrilaterals),
            # N = ${NS_ORDERS:-1 2 3 4}: the GPU, all 16 cores and one core of the GPU machine, seconds per DOF per stage
    for n in ${NS_ORDERS:-1 2 3 4}; do
      python3 bench/mdg_bench.py --label gpu --problem couette --faces 768,256 --order $n --steps 20 --bandwidth "${bw:-2980}" --peak 33500 --csv "$OUT/ns_rhs.csv" -- -dm_vec_type cuda
      python3 bench/mdg_bench.py --label cpu16 --problem couette --faces 768,256 --order $n --steps 1 --mpi 16 --csv "$OUT/ns_rhs.csv"
      python3 bench/mdg_bench.py --label cpu1 --problem couette --faces 768,256 --order $n --steps 1 --taskset 3 --csv "$OUT/ns_rhs.csv"
    done ;;
  svortex)  # supersonic vortex (seed 002 Table 3): p = 1..4 on meshes A-D (examples/meshes/supersonic_vortex{,_b,_c,_d}.msh),
            # curved walls, explicit SSP-RK (5 stages, CFL SV_CFL) from the exact state to the steady state (residual fallen by SV_RTOL)
    CURV="-curve_inner circle -curve_inner_radius 1 -curve_outer circle -curve_outer_radius 1.384"
    for p in ${SV_ORDERS:-1 2 3 4}; do
      for m in "" _b _c _d; do
        t0=$SECONDS
        r=$(timeout ${SV_TIMEOUT:-120} ./hoflow -problem supersonic_vortex -disc mdg -order $p -dm_plex_filename examples/meshes/supersonic_vortex$m.msh $CURV \
          -dm_vec_type cuda -cfl ${SV_CFL:-2} -euler_steady_rtol ${SV_RTOL:-1e-9} -euler_steady_interval 50 -ts_max_time ${SV_TMAX:-1000} -monitor_interval 100000 2>&1 | grep -E "^(steady|hoflow):" | tr '\n' ' ')
        echo "svortex p=$p mesh=${m:-_a} $(echo "$r" | grep -o 'cells [0-9]*') $(echo "$r" | grep -o 'steps [0-9]*') $(echo "$r" | grep -o 'time [0-9.e+-]*' | head -1) $(echo "$r" | grep -o 'L2_density [0-9.e+-]*') $(echo "$r" | grep -o 'fell by [0-9.e+-]*') wall $((SECONDS - t0)) s"
      done
    done ;;
  sem)  # continuous spectral elements (-disc sem), bench/sem_bench.c: MatMult GDOF/s of the Laplacian, Helmholtz, vector
        # Laplacian (3 components, one launch) and the diagonal mass and inverse mass against a bandwidth roofline, hexahedra
        # N = ${SEM_ORDERS:-2..8}: affine boxes of about 10 M DOFs from N = 4 (fewer below: the box's setup on the host),
        # metric factors from 7 numbers an element; non-affine hexahedra (cube_hex_distorted.msh refined 3 or 4 times,
        # 2-17 M DOFs), factors stored per node; at N = 7 also the affine box with stored factors (-sem_affine_factors
        # false) and the MatMult of 40 CG + Jacobi iterations of hoflow from -log_view (the issue's number, everything
        # around the kernel included). Rows also in $OUT/sem_bench.csv.
    rm -f "$OUT/sem_bench.csv"
    SB="./build/bench/sem_bench -dm_vec_type cuda -bench_reps 20 -bench_csv $OUT/sem_bench.csv -bench_ops laplace,helmholtz,mass,inverse_mass,vector_laplace"
    for nf in 2:64:4 3:48:4 4:54:3 5:43:3 6:36:3 7:31:3 8:27:3; do
      n=${nf%%:*}; rest=${nf#*:}; f=${rest%%:*}; r=${rest#*:}
      case " ${SEM_ORDERS:-2 3 4 5 6 7 8} " in *" $n "*) ;; *) continue ;; esac
      BOX="-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces $f,$f,$f"
      timeout 200 $SB -order $n $BOX 2>&1 | grep -E "^(sem_bench|device|copy)|rror"
      timeout 200 $SB -order $n -dm_plex_filename examples/meshes/cube_hex_distorted.msh -dm_refine $r 2>&1 | grep -E "^sem_bench|rror"
      [ $n = 7 ] && timeout 200 $SB -order $n $BOX -sem_affine_factors false 2>&1 | grep -E "^sem_bench.*(laplace|helmholtz)|rror"
      if [ $n = 7 ]; then
        timeout 200 ./hoflow -disc sem -problem poisson -order $n $BOX -dm_vec_type cuda -ksp_type cg -pc_type jacobi -ksp_max_it 40 \
          -ksp_converged_maxits -ksp_norm_type unpreconditioned -log_view -log_view_gpu_time > "$OUT/sem_N$n.txt" 2>&1
        d=$(grep -o "dofs [0-9]*" "$OUT/sem_N$n.txt" | head -1 | cut -d' ' -f2)
        grep -E "^MatMult " "$OUT/sem_N$n.txt" | awk -v n=$n -v d=$d '{printf "sem hex N=%d dofs %d CG MatMult calls %d time %s s: %.2f GDOF/s\n", n, d, $2, $4, d * $2 / $4 * 1e-9}'
      fi
    done ;;
  semstokes)  # issue 18's SEM benchmark (bench/sem_bench.c): MatMult GDOF/s of the mass, Laplacian, vector Laplacian, the Taylor-Hood
              # divergence and gradient (cuda/sem_stokes.cu) and the unsteady Stokes block operator [A + M, B0^T; B0, 0] against the
              # bandwidth roofline, hexahedral boxes of about 2.1 M scalar DOFs (6.4 M velocity DOFs; 0.9 and 1.3 M at N = 2, 3) at N = ${SEMSTOKES_ORDERS:-2..8}, affine
              # factors; then the same operators on the machine's 16 CPU cores (mpiexec -n 16, host vectors) and the GPU/CPU ratio of the
              # Stokes operator (the issue: >= 10x at N = 8). Box sizes keep each order's host setup (three layouts: scalar, velocity,
              # pressure) to about 10 s. Rows in $OUT/sem_stokes_bench.csv, the ratios in $OUT/sem_stokes_ratio.txt.
    rm -f "$OUT/sem_stokes_bench.csv" "$OUT/sem_stokes_ratio.txt"
    OPS=mass,laplace,vector_laplace,divergence,gradient,stokes
    for nf in 2:48 3:36 4:32 5:26 6:21 7:18 8:16; do
      n=${nf%%:*}; f=${nf#*:}
      case " ${SEMSTOKES_ORDERS:-2 3 4 5 6 7 8} " in *" $n "*) ;; *) continue ;; esac
      BOX="-order $n -dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces $f,$f,$f -bench_ops $OPS -bench_csv $OUT/sem_stokes_bench.csv"
      timeout 240 ./build/bench/sem_bench -dm_vec_type cuda -bench_reps 20 $BOX > "$OUT/r_gpu.txt" 2>&1; grep -E "^(sem_bench|device|copy|setup)|rror" "$OUT/r_gpu.txt"
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 240 mpiexec -n 16 --bind-to core ./build/bench/sem_bench -bench_reps 5 -bench_copy_mib 64 $BOX > "$OUT/r_cpu.txt" 2>&1
      grep -E "^(sem_bench|device|copy)|rror" "$OUT/r_cpu.txt"
      for op in ${OPS//,/ }; do
        g=$(grep -E "^sem_bench: .* op $op " "$OUT/r_gpu.txt" | sed -n 's/.* seconds \([^ ]*\) .*/\1/p'); c=$(grep -E "^sem_bench: .* op $op " "$OUT/r_cpu.txt" | sed -n 's/.* seconds \([^ ]*\) .*/\1/p')
        [ -n "$g" ] && [ -n "$c" ] && awk -v n=$n -v op=$op -v g=$g -v c=$c 'BEGIN {printf "sem N=%d %-14s GPU %.4e s, 16 cores %.4e s: GPU/CPU %.1fx\n", n, op, g, c, c / g}' | tee -a "$OUT/sem_stokes_ratio.txt"
      done
    done
    rm -f "$OUT/r_gpu.txt" "$OUT/r_cpu.txt" ;;
  fr)  # flux reconstruction (issue 17): time per RK stage per DOF-variable of -disc fr (Euler, isentropic vortex, LSERK4) on
       # periodic meshes of ${FR_SHAPES:-quadrilateral,hexahedron,triangle,tetrahedron,prism} (tensor FR on quadrilaterals and
       # hexahedra, dense FR on the others; add mixed for the tet/prism/hex mesh; the periodic tetrahedral, prism and mixed
       # meshes are written once by scripts/periodic_mesh.py into output/bench-meshes; the host set-up of the largest, about
       # 4e5 tetrahedra at N = 1, takes tens of seconds: 4.8e4 took 5 s on the 2-core VM),
       # N = ${FR_ORDERS:-1,2,3,4,5}: the GPU (about ${FR_SIZE:-8e6} DOF-variables a mesh) and one
       # core of the GPU machine (2e5), the speedup in $OUT/fr_rhs.md; FR_SWEEP=1 also times 1..32 elements a thread block at
       # N = ${FR_SWEEP_ORDERS:-2,3,4} (label gpu-sweep; the markdown shows its fastest: the data for the default, FRCUDAElementsPerBlock).
       # The stage time is TSStep's over all steps, the first (the upload of FR's data to the device) included: 200 GPU steps
       # (FR_STEPS) make it small; with 20 (2026-11-26 10:36) it was 10x the right-hand side's time.
    python3 bench/fr_bench.py --label gpu --shapes ${FR_SHAPES:-quadrilateral,hexahedron,triangle,tetrahedron,prism} --orders ${FR_ORDERS:-1,2,3,4,5} --size ${FR_SIZE:-8e6} --steps ${FR_STEPS:-200} --csv "$OUT/fr_rhs.csv" -- -dm_vec_type cuda
    # the stage without -log_view_gpu_time (whose per-event synchronizations the stage time above includes)
    python3 bench/fr_bench.py --label gpu-nosync --no-gpu-time --shapes ${FR_SHAPES:-quadrilateral,hexahedron,triangle,tetrahedron,prism} --orders ${FR_ORDERS:-1,2,3,4,5} --size ${FR_SIZE:-8e6} --steps ${FR_STEPS:-200} --csv "$OUT/fr_rhs.csv" -- -dm_vec_type cuda
    if [ "${FR_SWEEP:-0}" = 1 ]; then
      for e in 1 2 4 8 16 32; do
        python3 bench/fr_bench.py --shapes ${FR_SHAPES:-quadrilateral,hexahedron,triangle,tetrahedron,prism} --orders ${FR_SWEEP_ORDERS:-2,3,4} --size ${FR_SIZE:-8e6} --steps 10 --elements-per-block $e --label gpu-sweep --csv "$OUT/fr_rhs.csv" -- -dm_vec_type cuda
      done
    fi
    [ "${FR_CPU:-1}" = 1 ] && python3 bench/fr_bench.py --label cpu1 --shapes ${FR_SHAPES:-quadrilateral,hexahedron,triangle,tetrahedron,prism} --orders ${FR_ORDERS:-1,2,3,4,5} --size 2e5 --steps 2 --taskset 3 --csv "$OUT/fr_rhs.csv"
    python3 -c "import sys; sys.path.insert(0, 'bench'); import fr_bench; fr_bench.write_markdown('$OUT/fr_rhs.csv', '$OUT/fr_rhs.md')"
    cat "$OUT/fr_rhs.md" ;;
  tensorhex)  # the sum-factorized hexahedral kernels only (64 000 hexahedra, N = ${TH_ORDERS:-2,3,4,5,6,7,8}), one line per order
    ./build/bench/ipdg_bench -dm_vec_type cuda -dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 40,40,40 -bench_orders ${TH_ORDERS:-2,3,4,5,6,7,8} \
      -bench_reps 20 -bench_ins false -bench_kernels tensor -bench_csv "$OUT/tensor_hex${TH_TAG:-}.csv" 2>&1 | grep -E "^(hexa|throughput)" ;;
  ncu)  # Nsight Compute on chosen kernels: NCU_CASES="shape:N:kernel-regex ..." (shape hex, tet, quad or semhex; tensor
        # kernels are timed with -bench_kernels tensor), hardware counters, clocks left alone; NCU_FULL=1 adds --set full
    NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
    for c in ${NCU_CASES:-hex:7:HexApplyKernel hex:7:HexGradientKernel tet:4:ApplyKernel}; do
      shape=${c%%:*}; rest=${c#*:}; n=${rest%%:*}; k=${rest#*:}
      bin=./build/bench/ipdg_bench; run="-bench_orders $n -bench_reps 3 -bench_ins false"
      case $shape in
      semhex) bin=./build/bench/sem_bench; mesh="-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 31,31,31"; run="-order $n -bench_reps 3" ;;  # kernel SEMLineApplyKernel
      hex) mesh="-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 40,40,40 -bench_kernels tensor" ;;
      quad) mesh="-dm_plex_box_faces 448,448 -bench_kernels tensor" ;;
      tet) mesh="-dm_plex_filename examples/meshes/cube_tet.msh -dm_refine 3" ;;
      esac
      echo "=== ncu: $k N=$n $shape"
      $NCU --clock-control none --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats --section ComputeWorkloadAnalysis --section WarpStateStats \
        $bin -dm_vec_type cuda $mesh $run > "$OUT/ncu_${shape}_N${n}_${k}.txt" 2>&1
      [ -n "${NCU_FULL:-}" ] && $NCU --clock-control none --kernel-name regex:"$k" --launch-skip 2 --launch-count 1 --set full \
        $bin -dm_vec_type cuda $mesh $run > "$OUT/ncu_full_${shape}_N${n}_${k}.txt" 2>&1
      grep -E "Duration|Throughput|Memory \[%\]|DRAM|L1/TEX Hit|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Mem Pipes|Dynamic Shared|Static Shared|Threads  |Issue Slots|Warp Cycles Per Issued|Stall|Executed Ipc|Pipe" "$OUT/ncu_${shape}_N${n}_${k}.txt" | head -50
    done ;;
  tetN8)  # pMG-AMG on the finest Gmsh tetrahedra (h = 1/16, 19 519 cells) at N = 8: the last point of issue 12's solver study
    python3 scripts/solver_study.py --cuda --stacks pmg_amg --no-screened --orders ${TETN8_ORDERS:-8} --meshes tetg3 \
      --out "$OUT/solver_study_tetg3_N8" --title "GPU, $(date -u +%F)" 2>&1 | tail -12 ;;
  dmr)  # double Mach reflection at N = 1 on 972 032 triangles (examples/meshes/double_mach.msh refined 4 times) to t = 0.2
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 2000 > "$OUT/dmr_gpu_memory.txt" &
    smi=$!
    /usr/bin/time -f "wall %e s, host memory %M KB" timeout ${DMR_TIMEOUT:-500} ./hoflow -options_file options/double_mach.yaml -dm_refine 4 \
      -dm_vec_type cuda -log_view -euler_means_file "$OUT/dmr_means.bin" -progress_interval 20 -monitor_interval 1000 ${DMR_EXTRA:-} > "$OUT/dmr.txt" 2>&1
    kill $smi
    grep -E "^progress|^hoflow|^wall|^(TSStep|MDGVolume|MDGFace|MDGLift|MDGLimit|MeshSetup|DGSetup) " "$OUT/dmr.txt" | cut -c1-160 | tail -25
    echo "peak GPU memory used: $(sort -n "$OUT/dmr_gpu_memory.txt" | tail -1) MiB" ;;
  tgv)  # the 3D Taylor-Green vortex at Re = 1600 (issue 18, seed 001 §7.5): options/taylor_green_3d.yaml (16^3 hexahedra,
        # N = 7, BDF3 dt 0.008) to t = ${TGV_T:-20} on one GPU, then the peak dissipation against the 512^3 spectral
        # reference (scripts/tgv_compare.py: value and time within 2 %). TGV_EXTRA: more options, e.g. the finer mesh
        # "-dm_plex_box_faces 24,24,24 -ts_dt 0.005" (its files then go to output/tgv24, TGV_DIR to change). -log_view's
        # GpuToCpu column shows what the steps copy to the host. The run stops after TGV_TIMEOUT seconds (default: what
        # is left of TGV_BUDGET = 585 s since this script started, less 20 s for the comparison, so that build and run
        # fit the 10 minutes of one command) with a checkpoint every TGV_CHECKPOINT (250) steps (0: none) in its
        # directory (kept on the machine between calls): TGV_RESTART=1 continues it from the last one, appending to its
        # monitors.csv; the log of each part is kept ($OUT/tgv*.txt).
    faces=$(echo "${TGV_EXTRA:-}" | sed -n 's/.*-dm_plex_box_faces \([0-9]*\),.*/\1/p'); faces=${faces:-16}
    dir=${TGV_DIR:-output/tgv$([ "$faces" = 16 ] || echo "$faces")}
    mkdir -p "$dir"
    restart=""; log="$OUT/tgv$([ "$faces" = 16 ] || echo "$faces").txt"
    if [ "${TGV_RESTART:-0}" = 1 ]; then restart="-restart $dir/checkpoint.h5"; log="${log%.txt}_restart$(date +%H%M%S).txt"; fi
    limit=${TGV_TIMEOUT:-$(( ${TGV_BUDGET:-585} - SECONDS - 20 ))}
    echo "tgv: ${faces}^3 hexahedra, output $dir, ${restart:-fresh start}, time limit ${limit} s"
    /usr/bin/time -f "wall %e s, host memory %M KB" timeout $limit ./hoflow -options_file options/taylor_green_3d.yaml \
      -dm_vec_type cuda -ts_max_time ${TGV_T:-20} -output_dir "$dir" -checkpoint_interval ${TGV_CHECKPOINT:-250} $restart -log_view ${TGV_EXTRA:-} > "$log" 2>&1
    rc=$?
    grep -E "^progress|^hoflow|^wall|^(TSStep|KSPSolve|PCApply|MatMult|SEMApply|SEMConvection|VecDot|VecNorm|VecMDot|VecMAXPY) |GpuToCpu|^ *[0-9]+: +VC" "$log" | cut -c1-280 | tail -34
    [ $rc = 124 ] && echo "tgv: stopped by the time limit (${limit} s) at $(tail -1 "$dir/monitors.csv" | cut -d, -f2 | cut -c1-6); continue with TGV_RESTART=1 and the same TGV_EXTRA (from the last checkpoint)"
    cp "$dir/monitors.csv" "$OUT/tgv$([ "$faces" = 16 ] || echo "$faces")_monitors.csv"
    python3 scripts/tgv_compare.py "$dir/monitors.csv" --plot "$OUT/tgv$([ "$faces" = 16 ] || echo "$faces").png" --label "hoflow N=7 ${faces}^3" ;;
  frtgv)  # the compressible Taylor-Green vortex at Re = 1600, Ma = 0.1 with flux reconstruction (issue 17):
          # options/taylor_green_fr.yaml (40^3 hexahedra, N = 3: 160^3 solution points, 20.5 M DOF-variables; LSERK4 at
          # CFL 0.5, dt about 5e-4, 39 300 steps) to t = ${FRTGV_T:-20} on one GPU: about 1090 s of stepping on an H100
          # (2026-11-26, h100_2026-11-26h_frtgv_40cubed_N3.md), so it takes three calls on one warm machine:
          # stops after FRTGV_TIMEOUT (540) seconds with a checkpoint every FRTGV_CHECKPOINT (2000) steps in output/frtgv;
          # FRTGV_RESTART=1 continues it (the monitors continue the same file). Then the peaks of -dE/dt against the
          # 512^3 spectral DNS (scripts/tgv_compare.py, the issue's 3 %). FRTGV_EXTRA: e.g. "-dm_plex_box_faces 32,32,32".
    mkdir -p output/frtgv
    restart=""; [ "${FRTGV_RESTART:-0}" = 1 ] && restart="-restart output/frtgv/checkpoint.h5"
    /usr/bin/time -f "wall %e s, host memory %M KB" timeout ${FRTGV_TIMEOUT:-540} ./hoflow -options_file options/taylor_green_fr.yaml \
      -dm_vec_type cuda -ts_max_time ${FRTGV_T:-20} -output_dir output/frtgv -checkpoint_interval ${FRTGV_CHECKPOINT:-2000} $restart -log_view ${FRTGV_EXTRA:-} > "$OUT/frtgv.txt" 2>&1
    grep -E "^progress|^hoflow|^wall|^(TSStep|FRVolume|FRFace|FRViscous|VecScatterBegin|VecDot|VecMax) |GpuToCpu" "$OUT/frtgv.txt" | cut -c1-280 | tail -30
    cp output/frtgv/monitors.csv "$OUT/frtgv_monitors.csv"
    python3 scripts/tgv_compare.py output/frtgv/monitors.csv --energy-column kinetic_energy --tolerance 0.03 --plot "$OUT/frtgv.png" --label "hoflow FR ${FRTGV_EXTRA:-options/taylor_green_fr.yaml}" ;;
  sphere)  # the sphere at Re 118, Ma 0.2 (issue 17, seed 003 §VIII.A) with flux reconstruction: options/sphere_re118.yaml
           # (the medium mesh, 4 040 prisms and 14 585 tetrahedra, N = 3: 453 300 solution points, 2.27 M DOF-variables,
           # curved at geometry order 2, free-stream exact; explicit LSERK4, local time steps, CFL 1.0, from the free
           # stream, local steps capped at 5x the smallest). Estimate (dense FR N = 3 about 3e-10 s per DOF-variable
           # and stage inviscid, viscous 2-4x): 1.4-2.7 ms a stage, 7-14 ms a step: 30 000-60 000 steps in 420 s; about 51 000 to steady (docs/design-notes.md). Stops after SPHERE_TIMEOUT (420) s with checkpoints
           # every SPHERE_CHECKPOINT (2000) steps in output/sphere; SPHERE_RESTART=1 continues (a second call of at most
           # 560 s: SPHERE_TIMEOUT=450); SPHERE_EXTRA e.g. "-cfl 0.5" (if CFL 1 is not
           # stable at N = 3), "-euler_local_time_step_ratio 2" (if the drag still swings) or "-order 2".
           # Then scripts/sphere_post.py: C_D (parts), theta_s, L/d against the references, the Mach PNG into $OUT.
    mkdir -p output/sphere
    restart=""; [ "${SPHERE_RESTART:-0}" = 1 ] && restart="-restart output/sphere/checkpoint.h5"
    /usr/bin/time -f "wall %e s, host memory %M KB" timeout ${SPHERE_TIMEOUT:-420} ./hoflow -options_file options/sphere_re118.yaml \
      -dm_vec_type cuda -output_dir output/sphere -checkpoint_interval ${SPHERE_CHECKPOINT:-2000} $restart -log_view ${SPHERE_EXTRA:-} > "$OUT/sphere.txt" 2>&1
    grep -E "^progress|^hoflow|^wall|^(TSStep|FRVolume|FRFace|FRViscous) |GpuToCpu" "$OUT/sphere.txt" | cut -c1-280 | tail -30
    cp output/sphere/monitors.csv "$OUT/sphere_monitors.csv"
    # the state of the last checkpoint (the run may have stopped at the timeout): its fields and surface in one step
    [ -f output/sphere/checkpoint.h5 ] && timeout 120 ./hoflow -options_file options/sphere_re118.yaml -dm_vec_type cuda -output_dir output/sphere_post \
      -restart output/sphere/checkpoint.h5 -ts_max_steps 1 -output_interval 1 -monitor_file none -ns_surface_file output/sphere_post/surface.csv ${SPHERE_EXTRA:-} > "$OUT/sphere_post.txt" 2>&1
    python3 scripts/sphere_post.py output/sphere_post --monitors output/sphere/monitors.csv --png "$OUT/sphere_mach.png" ;;
  esac
done
date -u
