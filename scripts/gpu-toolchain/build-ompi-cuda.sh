#!/bin/sh
# A CUDA-aware Open MPI for the GPU machine: Debian's Open MPI 4.1.4 source (openmpi_4.1.4.orig.tar.xz
# from deb.debian.org/debian/pool/main/o/openmpi/) configured --with-cuda, with its bundled hwloc,
# libevent and PMIx so the result needs nothing beyond glibc (it is built on Debian 12, glibc 2.36, and
# runs on Ubuntu 24.04). Intra-node device buffers go through the smcuda BTL (CUDA IPC); the library
# is libmpi.so.40 like the GPU machine's Open MPI 4.1.6, so the PETSc and hypre of ../shared/gpu load
# it unchanged through LD_LIBRARY_PATH (scripts/gpu-toolchain/env.sh).
# CUDA is only needed at build time for cuda.h: Open MPI opens libcuda.so.1 at run time.
# Usage: build-ompi-cuda.sh SRC_TARBALL OUT_DIR     (PREFIX=/opt/ompi-cuda JOBS=N)
set -eu
SRC=$(readlink -f "${1:?openmpi_4.1.4.orig.tar.xz}")
OUTD=$(mkdir -p "${2:?output dir}" && readlink -f "$2")
PREFIX=${PREFIX:-/opt/ompi-cuda}
CUDA=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-$(nproc)}
W=${WORK:-/tmp/ompi-cuda-build}
rm -rf "$W" "$PREFIX"; mkdir -p "$W"; cd "$W"
tar xJf "$SRC"
cd openmpi-4.1.4
./configure --prefix="$PREFIX" --with-cuda="$CUDA" \
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal \
  --disable-mpi-fortran --disable-oshmem --disable-mpi-java \
  --without-ucx --without-verbs --without-ofi --without-psm --without-psm2 --without-libfabric \
  --without-slurm --without-tm --without-lsf --without-sge --without-alps \
  CFLAGS=-O2 > "$W/configure.log" 2>&1 || { tail -40 "$W/configure.log"; exit 1; }
grep -E "^checking if --with-cuda is set|CUDA support" "$W/configure.log" | tail -3
make -j"$JOBS" > "$W/make.log" 2>&1 || { grep -E "error" "$W/make.log" | head -30; exit 1; }
make install > "$W/install.log" 2>&1
find "$PREFIX/lib" -name "*.so*" -type f -exec strip --strip-unneeded {} + 2>/dev/null || true
rm -rf "$PREFIX/share/man" "$PREFIX/share/doc"
"$PREFIX/bin/ompi_info" --parsable --all 2>/dev/null | grep -E "mpi_built_with_cuda_support:value" || true
tar -C "$(dirname "$PREFIX")" -cJf "$OUTD/ompi-cuda.tar.xz" "$(basename "$PREFIX")"
ls -la "$OUTD"
