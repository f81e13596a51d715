#!/bin/sh
# The CUDA kernels of the viscous terms of flux reconstruction (cuda/fr_viscous.cu, with cuda/fr.cu's face kernel and
# the element speeds of cuda/fr.cu and cuda/fr_dense.cu) run on a machine without a GPU: the sources with their
# launches rewritten to EmuLaunch (tests/emu/cuda_runtime.h: every thread of a block an OS thread, __syncthreads a
# barrier) compiled with tests/emu/fr_viscous_emu.cpp and hoflow, against the host twins on Couette flow (problem
# couette: isothermal no-slip walls and free-stream faces) on hexahedra (N = 1..5, 8; the compiled sizes and N = 9's
# run-time ones), quadrilaterals, triangles (N = 1, 3, 5), the triangle/quadrilateral mesh, tetrahedra, prisms and the mixed tet/prism/hex mesh (N = 1..5; N = 6 the run-time
# sizes), elements a block 1, 3 and the default: every difference must be exactly 0. Needs `make` first. What it
# cannot check (shared-memory and register limits, FMA contraction, races on a real device) the GPU tests do
# (tests/run.py --gpu -k gpu/fr/viscous).
set -e
cd "$(dirname "$0")/.."
out=build/emu
export OMP_NUM_THREADS=1
mkdir -p $out output/test-meshes
for k in fr fr_dense fr_viscous; do
  sed -E 's/([A-Za-z_][A-Za-z_0-9]*(<[^<>]*>)?)<<<(.*)>>>\((.*)\);/EmuLaunch(\3, \1, \4);/' cuda/$k.cu > $out/$k.cu.emu
  grep -q "EmuLaunch" $out/$k.cu.emu || { echo "check-fr-viscous-cuda-emu: no launches rewritten in cuda/$k.cu"; exit 1; }
done
flags=$(printf 'include makefile\nprint-flags:\n\t@echo $(PETSC_CC_INCLUDES) $(if $(MUPARSER_DIR),-isystem $(MUPARSER_DIR)/include,)\n' | make -s --no-print-directory -f - print-flags)
libs=$(printf 'include makefile\nprint-libs:\n\t@echo $(HOFLOW_LIBS)\n' | make -s --no-print-directory -f - print-libs)
mpicxx -std=c++20 -O1 -pthread -w -DFRD_THREADS=32 -DFRV_THREADS=32 -Itests/emu -Icuda -Isrc/include -I$out $flags tests/emu/fr_viscous_emu.cpp -o $out/fr_viscous_emu build/libhoflow.a $libs
for s in hex tet prism mixed; do
  m=1
  [ $s = mixed ] && m=2
  [ -f output/test-meshes/couette_${s}_2.msh ] || python3 scripts/periodic_mesh.py --shape $s --box $m,2,$m --upper $m,2,$m -o output/test-meshes/couette_${s}_2.msh > /dev/null
done
status=0
check() { # options... (RANKS=n: on n ranks, -fr_halo traces: the halo elements' traces and gradient traces)
  if [ "${RANKS:-1}" = 1 ]; then r=$($out/fr_viscous_emu "$@" 2>&1) || status=1; else r=$(mpiexec --oversubscribe -n $RANKS $out/fr_viscous_emu "$@" 2>&1) || status=1; fi
  echo "$r" | grep -q "^fr_viscous_emu:" || { echo "$r" | tail -5; status=1; }
  echo "$*: $(echo "$r" | grep -c '^fr_viscous_emu:.*state 0.000e+00 gradient 0.000e+00 volume 0.000e+00 trace 0.000e+00 face 0.000e+00 wave_speed 0.000e+00') of $(echo "$r" | grep -c '^fr_viscous_emu:') exact"
}
C="-problem couette -disc fr -couette_reynolds 2 -couette_wall_temperatures 0.6,1.0 -bc_no_slip_isothermal front,back -bc_freestream left,right,bottom,top"
M=output/test-meshes/couette
for n in 1 2 3 4 5 8; do check $C -order $n -dm_plex_filename ${M}_hex_2.msh; done
check $C -order 9 -dm_plex_filename ${M}_hex_2.msh -fr_viscous_beta 0.5 # the run-time sizes, one-sided LDG
check -problem couette -disc fr -couette_reynolds 2 -couette_mach 0.5 -couette_adiabatic_top -order 3 -dm_plex_simplex 0 -dm_plex_box_upper 4,2 -dm_plex_box_bd periodic,none -dm_plex_box_faces 4,2
for n in 1 3 5; do check -problem couette -disc fr -couette_reynolds 2 -couette_mach 0.5 -couette_adiabatic_top -order $n -dm_plex_filename examples/meshes/couette.msh; done # triangles
check -problem couette -disc fr -couette_reynolds 2 -order 2 -dm_plex_filename examples/meshes/couette_mixed.msh -fr_viscous_beta -0.5 # triangles and quadrilaterals
for s in tet prism mixed; do
  for n in 1 2 3 4 5; do check $C -order $n -dm_plex_filename ${M}_${s}_2.msh; done
done
check $C -order 6 -dm_plex_filename ${M}_tet_2.msh -fr_viscous_beta 0.5 # the run-time sizes
[ -f ${M}_hex_8.msh ] || python3 scripts/periodic_mesh.py --shape hex --box 1,8,1 --upper 1,2,1 -o ${M}_hex_8.msh > /dev/null
[ -f ${M}_mixed_4.msh ] || python3 scripts/periodic_mesh.py --shape mixed --box 2,4,2 --upper 2,2,2 -o ${M}_mixed_4.msh > /dev/null
RANKS=2 check $C -order 3 -dm_plex_filename ${M}_hex_8.msh # several ranks (-fr_halo traces): hexahedra, the mixed mesh
RANKS=3 check $C -order 2 -dm_plex_filename ${M}_mixed_4.msh
[ $status = 0 ] && echo "check-fr-viscous-cuda-emu: the viscous CUDA kernels equal the host twins exactly" || echo "check-fr-viscous-cuda-emu: FAILED"
exit $status
