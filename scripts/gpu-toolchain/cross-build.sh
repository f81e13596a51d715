#!/bin/bash
# Build hoflow's CUDA binaries (make CUDA=1 all) on a Debian/Ubuntu machine WITHOUT a GPU, against the
# GPU machine's PETSc (../shared/gpu or .gpu: PETSc 3.22.5 + hypre built with CUDA on Ubuntu 24.04),
# so that the GPU machine only runs them. Needs nvcc (CUDA 13) and the serial HDF5 development files
# (libhdf5-dev) here. That PETSc was built against a newer glibc/libstdc++ and Open MPI 4.1.6, so:
# its headers are told this machine's Open MPI version (as scripts/check-gpu-c.sh does), and the link
# leaves its libraries' own undefined symbols to the GPU machine's loader (--allow-shlib-undefined).
# Usage: [PACK=FILE.tar.xz] scripts/gpu-toolchain/cross-build.sh DIR [make args]   -- DIR: a separate checkout (a git
# worktree) whose build/ and hoflow become the CUDA build; carry them to the GPU machine. The executables find
# muparser at DIR/.deps/muparser/lib: on the GPU machine put the checkout's .deps/muparser/lib on LD_LIBRARY_PATH.
set -euo pipefail
[ -f /usr/lib/x86_64-linux-gnu/hdf5/serial/libhdf5.so ] || { echo "cross-build: needs the serial HDF5 development files here (apt-get install libhdf5-dev)"; exit 1; }
command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "cross-build: needs nvcc (CUDA 13) here"; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(cd "${1:?a separate checkout to build in}" && pwd); shift
src=$root/.gpu; ls "$src"/petsc-cuda.tar.xz.part* > /dev/null 2>&1 || src=$root/../shared/gpu
# the GPU machine's PETSc lives at /opt/petsc-cuda (absolute paths in its petscvariables)
[ -f /opt/petsc-cuda/include/petscconf.h ] || (source "$src/env.sh")
shim=$dir/build/petsc-shim
sh "$root/scripts/gpu-toolchain/mpi-version-shim.sh" /opt/petsc-cuda/include "$shim"
[ -d "$dir/.deps/muparser" ] || cp -r "$root/.deps" "$dir/"
cd "$dir"
make CUDA=1 PETSC_DIR=/opt/petsc-cuda PATH="$PATH:/usr/local/cuda/bin" \
  PETSC_CC_INCLUDES="-isystem $shim -isystem /opt/petsc-cuda/include -isystem /usr/include/hdf5/serial -isystem /usr/local/cuda/include" \
  PCC_LINKER="mpicc -Wl,--allow-shlib-undefined" OPT_FLAGS="-O3 -march=x86-64-v2 -Wl,--allow-shlib-undefined" "$@"
# PACK=FILE.tar.xz: the executables PACK_BINS (default: hoflow, build/tests/*, build/bench/*) without their
# debug sections, packed to carry (unpack in the checkout on the GPU machine: tar xJf FILE.tar.xz). Each CUDA
# executable holds every kernel (40 MB, 13 MB packed alone); packed together in one xz stream whose dictionary
# spans them all, the 21 take about 20 MB (4 minutes, about 9 GB of memory with the default PACK_DICT).
if [ -n "${PACK:-}" ]; then
  stage=$(mktemp -d)
  mkdir -p "$stage/build/tests" "$stage/build/bench"
  for f in ${PACK_BINS:-hoflow build/tests/* build/bench/*}; do
    [ -f "$f" ] && [ -x "$f" ] && strip --strip-debug -o "$stage/$f" "$f"
  done
  # one stream with a dictionary larger than all of them: the executables share most of their bytes (the kernels)
  tar -C "$stage" -cf - hoflow build | xz -T1 --lzma2=preset=9,dict=${PACK_DICT:-768MiB} > "$PACK"
  rm -rf "$stage"
  ls -la "$PACK"
fi
