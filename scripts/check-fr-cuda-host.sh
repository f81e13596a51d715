#!/bin/sh
# The CUDA kernels of flux reconstruction (cuda/fr.cu) checked on a machine without a GPU: their bodies (between the
# "host-checked kernels" markers) are compiled as host C++ with scripts/fr_cuda_host.cpp, run one thread a block, and
# compared with the host twins on quadrilaterals and hexahedra (periodic, Sod's boundaries, non-affine cells, linear
# advection, 2 and 3 ranks), elements a block 1, 3 and the default, the face kernel also on -fr_exchange's subsets
# (interior elements, then those with a halo neighbour): every difference must be exactly 0. Needs `make` first.
# What it cannot check (races, launch limits, warp reductions) the GPU tests do (tests/run.py --gpu -k gpu/fr).
set -e
cd "$(dirname "$0")/.."
out=build/fr-cuda-host
mkdir -p $out
awk '/^\/\/ ---- begin host-checked kernels/{p=1} /^\/\/ ---- end host-checked kernels/{p=0} p' cuda/fr.cu > $out/fr_kernels.inc
[ -s $out/fr_kernels.inc ] || { echo "check-fr-cuda-host: no host-checked kernels in cuda/fr.cu"; exit 1; }
flags=$(printf 'include makefile\nprint-flags:\n\t@echo $(PETSC_CC_INCLUDES) $(if $(MUPARSER_DIR),-isystem $(MUPARSER_DIR)/include,)\nprint-libs:\n\t@echo $(HOFLOW_LIBS)\n' | make -s --no-print-directory -f - print-flags)
libs=$(printf 'include makefile\nprint-flags:\n\t@echo $(PETSC_CC_INCLUDES)\nprint-libs:\n\t@echo $(HOFLOW_LIBS)\n' | make -s --no-print-directory -f - print-libs)
mpicxx -std=c++17 -O1 -w -Isrc/include -Icuda -I$out $flags scripts/fr_cuda_host.cpp -o $out/fr_cuda_host build/libhoflow.a $libs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
check() { # ranks, options...
  n=$1
  shift
  if [ "$n" = 1 ]; then r=$($out/fr_cuda_host "$@" 2>&1) || status=1; else r=$(mpiexec --oversubscribe -n "$n" $out/fr_cuda_host "$@" 2>&1) || status=1; fi
  echo "$r" | grep -q "^fr_cuda_host:" || { echo "$r" | tail -5; status=1; }
  echo "$* ($n rank(s)): $(echo "$r" | grep -c '^fr_cuda_host:.*0.000e+00 compiled sizes 0.000e+00') of $(echo "$r" | grep -c '^fr_cuda_host:') exact"
}
Q="-problem isentropic_vortex -disc fr -dm_plex_box_faces 5,4 -dm_plex_box_bd periodic,periodic"
H="-problem isentropic_vortex -disc fr -dm_plex_dim 3 -dm_plex_box_faces 3,3,4 -dm_plex_box_bd periodic,periodic,periodic"
for n in 1 2 3 5 8; do check 1 $Q -order $n; done
for n in 1 2 3 5 8; do check 1 $H -order $n; done
check 1 -problem sod -disc fr -order 2 -dm_plex_box_faces 8,3
check 1 -problem isentropic_vortex -disc fr -order 3 -dm_plex_filename examples/meshes/periodic_distorted.msh
check 1 -problem freestream -disc fr -order 2 -dm_plex_filename examples/meshes/cube_hex_distorted.msh -bc_farfield left,right,front,back,bottom,top
check 1 -problem advection -disc fr -order 3 -dm_plex_dim 3 -dm_plex_box_faces 3,3,3 -dm_plex_box_bd periodic,periodic,periodic
check 2 $H -order 2
check 3 $H -order 3
check 2 $H -order 2 -fr_halo elements # the halo elements' values (the face kernel interpolates the ghosts' traces)
check 3 $H -order 3 -fr_halo elements
[ $status = 0 ] && echo "check-fr-cuda-host: the CUDA kernels' bodies equal the host twins exactly" || echo "check-fr-cuda-host: FAILED"
exit $status
