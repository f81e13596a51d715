#!/bin/sh
# The CUDA kernels of dense flux reconstruction (cuda/fr_dense.cu: volume, face, wave speed, their launchers and the
# per-shape-and-order dispatch) run on a machine without a GPU: the source with its launches rewritten to EmuLaunch
# (tests/emu/cuda_runtime.h: every thread of a block an OS thread, __syncthreads a barrier, the warp shuffles over it)
# compiled with tests/emu/fr_dense_emu.cpp and hoflow, against the host twins on triangles, tetrahedra, prisms, a
# mixed tet/prism/hex and a triangle/quadrilateral mesh (interior, periodic, far-field and wall faces, 2 ranks: halo
# neighbours; the emulation runs 32 threads a block), elements a block 1, 3
# and the default, the face kernel also on -fr_exchange's subsets (interior elements, then those with a halo neighbour):
# every difference must be exactly 0. Needs `make` first. What it cannot check (the device's
# shared-memory and register limits, FMA contraction, timing-dependent races) the GPU tests do
# (tests/run.py --gpu -k gpu/fr/dense).
set -e
cd "$(dirname "$0")/.."
out=build/emu
export OMP_NUM_THREADS=1
mkdir -p $out output/test-meshes
sed -E 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/EmuLaunch(\3, \1, \4);/' cuda/fr_dense.cu > $out/fr_dense.cu.emu
grep -q "EmuLaunch" $out/fr_dense.cu.emu || { echo "check-fr-dense-cuda-emu: no launches rewritten in cuda/fr_dense.cu"; exit 1; }
flags=$(printf 'include makefile\nprint-flags:\n\t@echo $(PETSC_CC_INCLUDES) $(if $(MUPARSER_DIR),-isystem $(MUPARSER_DIR)/include,)\n' | make -s --no-print-directory -f - print-flags)
libs=$(printf 'include makefile\nprint-libs:\n\t@echo $(HOFLOW_LIBS)\n' | make -s --no-print-directory -f - print-libs)
mpicxx -std=c++20 -O1 -pthread -w -DFRD_THREADS=32 -Itests/emu -Icuda -Isrc/include -I$out $flags tests/emu/fr_dense_emu.cpp -o $out/fr_dense_emu build/libhoflow.a $libs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for s in tet prism mixed; do
  [ -f output/test-meshes/periodic_${s}_4.msh ] || python3 scripts/periodic_mesh.py --shape $s --n 4 -o output/test-meshes/periodic_${s}_4.msh > /dev/null
done
status=0
check() { # ranks, options...
  n=$1
  shift
  if [ "$n" = 1 ]; then r=$($out/fr_dense_emu "$@" 2>&1) || status=1; else r=$(mpiexec --oversubscribe -n "$n" $out/fr_dense_emu "$@" 2>&1) || status=1; fi
  echo "$r" | grep -q "^fr_dense_emu:" || { echo "$r" | tail -5; status=1; }
  echo "$* ($n rank(s)): $(echo "$r" | grep -c '^fr_dense_emu:.*volume 0.000e+00 trace 0.000e+00 face 0.000e+00 wave_speed 0.000e+00 face_subsets 0.000e+00') of $(echo "$r" | grep -c '^fr_dense_emu:') exact"
}
TRI="-problem isentropic_vortex -vortex_radius 0.15 -disc fr -dm_plex_filename examples/meshes/periodic_square.msh"
V3="-problem isentropic_vortex -vortex_radius 0.15 -vortex_strength 1 -disc fr"
FAR="-problem freestream -disc fr -bc_farfield left,right,front,back,bottom,top -freestream_angle 17"
for n in 1 2 3 5 6; do check 1 $TRI -order $n -test_flux hllc; done                          # N = 6: the run-time sizes
for n in 1 3 5; do check 1 $V3 -order $n -dm_plex_filename output/test-meshes/periodic_tet_4.msh -test_flux hllc; done
for n in 2 4; do check 1 $V3 -order $n -dm_plex_filename output/test-meshes/periodic_prism_4.msh -test_flux roe; done
for n in 1 3 5; do check 1 $FAR -order $n -dm_plex_filename examples/meshes/cube_mixed.msh -test_flux roe; done
check 1 $FAR -order 3 -dm_plex_filename examples/meshes/cube_tet.msh -test_flux rusanov
check 1 $FAR -order 2 -dm_plex_filename examples/meshes/cube_prism.msh -test_flux hllc
check 1 $V3 -order 2 -dm_plex_filename output/test-meshes/periodic_mixed_4.msh -test_flux hllc
check 1 -problem advection -disc fr -order 3 -dm_plex_filename output/test-meshes/periodic_tet_4.msh            # nv = 1: run-time sizes
for n in 1 3; do check 1 -problem freestream -disc fr -order $n -dm_plex_filename examples/meshes/couette_mixed.msh -bc_slip_wall bottom -bc_farfield top -freestream_angle 17 -test_flux roe; done
check 2 $TRI -order 3 -test_flux roe
check 2 $FAR -order 2 -dm_plex_filename examples/meshes/cube_mixed.msh
check 3 $V3 -order 2 -dm_plex_filename output/test-meshes/periodic_mixed_4.msh -test_flux hllc
check 2 $TRI -order 3 -test_flux roe -fr_halo elements # the halo elements' values (the face kernel interpolates the ghosts' traces)
check 3 $V3 -order 2 -dm_plex_filename output/test-meshes/periodic_mixed_4.msh -test_flux hllc -fr_halo elements
[ $status = 0 ] && echo "check-fr-dense-cuda-emu: the CUDA kernels equal the host twins exactly" || echo "check-fr-dense-cuda-emu: FAILED"
exit $status
