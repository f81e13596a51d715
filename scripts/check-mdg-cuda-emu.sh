#!/bin/sh
# The CUDA kernels of the modal DG Euler right-hand side (cuda/mdg.cu: volume, face, lift and their launchers) run on a
# machine without a GPU: the source with its launches rewritten to EmuLaunch (tests/emu/cuda_runtime.h: every thread
# of a block an OS thread, __syncthreads a barrier) compiled with tests/emu/mdg_emu.cpp and hoflow, against the host on
# 1, 2 and 3 ranks: the volume and face kernels on the interior elements and then on those with a halo neighbour (the split of a
# right-hand side on several ranks) and on all at once, with the halo elements' trace slots (-mdg_halo traces) and with
# the halo modes (-mdg_halo elements); quadrilaterals and triangles, periodic and with walls, curved. Every difference
# must be exactly 0. Needs `make` first. The GPU tests (tests/run.py --gpu -k gpu/mdg) check the device itself.
set -e
cd "$(dirname "$0")/.."
out=build/emu
mkdir -p $out
sed -E 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/EmuLaunch(\3, \1, \4);/' cuda/mdg.cu > $out/mdg.cu.emu
grep -q "EmuLaunch" $out/mdg.cu.emu || { echo "check-mdg-cuda-emu: no launches rewritten in cuda/mdg.cu"; exit 1; }
flags=$(printf 'include makefile\nprint-flags:\n\t@echo $(PETSC_CC_INCLUDES) $(if $(MUPARSER_DIR),-isystem $(MUPARSER_DIR)/include,)\n' | make -s --no-print-directory -f - print-flags)
libs=$(printf 'include makefile\nprint-libs:\n\t@echo $(HOFLOW_LIBS)\n' | make -s --no-print-directory -f - print-libs)
mpicxx -std=c++20 -O1 -pthread -w -Itests/emu -Icuda -Isrc/include -I$out $flags tests/emu/mdg_emu.cpp -o $out/mdg_emu build/libhoflow.a $libs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
check() { # ranks, options...
  n=$1
  shift
  if [ "$n" = 1 ]; then r=$($out/mdg_emu "$@" 2>&1) || status=1; else r=$(mpiexec --oversubscribe -n "$n" $out/mdg_emu "$@" 2>&1) || status=1; fi
  echo "$r" | grep -q "^mdg_emu:" || { echo "$r" | tail -5; status=1; }
  echo "$* ($n rank(s)): $(echo "$r" | grep -c '^mdg_emu:.*volume 0.000e+00 trace 0.000e+00 volume_ranges 0.000e+00 trace_ranges 0.000e+00 rhs_face_ranges 0.000e+00 rhs_all_faces 0.000e+00') of $(echo "$r" | grep -c '^mdg_emu:') exact"
}
QUAD="-problem isentropic_vortex -disc mdg -dm_plex_box_faces 8,8 -dm_plex_box_bd periodic,periodic"
TRI="-problem isentropic_vortex -disc mdg -dm_plex_filename examples/meshes/periodic_square.msh"
WALLS="-problem supersonic_vortex -disc mdg"
for halo in traces elements; do
  check 1 $QUAD -order 3 -test_flux hllc -mdg_halo $halo
  check 2 $QUAD -order 3 -test_flux hllc -mdg_halo $halo
  check 3 $TRI -order 2 -test_flux roe -mdg_halo $halo
  check 2 $WALLS -order 2 -test_flux rusanov -mdg_halo $halo
done
[ $status = 0 ] && echo "check-mdg-cuda-emu: the CUDA kernels equal the host exactly" || echo "check-mdg-cuda-emu: FAILED"
exit $status
