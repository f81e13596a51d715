#!/bin/sh
# Compile-check hoflow's C sources as the GPU build sees them (-DHOFLOW_HAVE_CUDA, PETSc 3.22 with
# CUDA) on a machine without that PETSc: unpacks the headers of the GPU toolchain tarball
# (.gpu/petsc-cuda.tar.xz.part*, or ../shared/gpu's) once under build/petsc-gpu-headers and
# tells them this machine's Open MPI version. Syntax and warnings only; nothing is linked.
set -e
cd "$(dirname "$0")/.."
inc=build/petsc-gpu-headers
if [ ! -f "$inc/petsc-cuda/include/petscconf.h" ]; then
  src=.gpu
  ls $src/petsc-cuda.tar.xz.part* >/dev/null 2>&1 || src=../shared/gpu
  ls $src/petsc-cuda.tar.xz.part* >/dev/null 2>&1 || { echo "check-gpu-c: no .gpu/ or ../shared/gpu/ petsc-cuda.tar.xz.part*: skipped"; exit 0; }
  mkdir -p "$inc"
  cat $src/petsc-cuda.tar.xz.part* | tar -C "$inc" -xJf - --wildcards 'petsc-cuda/include/*'
fi
sh scripts/gpu-toolchain/mpi-version-shim.sh "$inc/petsc-cuda/include" "$inc/shim"
status=0
for f in src/*.c src/*/*.c tests/unit/*.c bench/*.c; do
  mpicc -std=c99 -fsyntax-only -Wall -Wextra -Wno-unused-parameter -Werror -DHOFLOW_HAVE_CUDA -Isrc/include \
    -isystem "$inc/shim" -isystem "$inc/petsc-cuda/include" -isystem /usr/local/cuda/include -isystem /usr/include/hdf5/openmpi "$f" || status=1
done
[ $status = 0 ] && echo "check-gpu-c: all C sources compile for the GPU build"
exit $status
