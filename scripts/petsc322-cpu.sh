#!/bin/sh
# hoflow against the GPU machine's PETSc version (3.22.5) on a CPU machine: downloads Debian's source
# tarball, builds PETSc without CUDA into $PREFIX (default /opt/petsc-3.22-cpu; about 8 minutes on 2
# cores), builds hoflow in a scratch worktree against it and runs the tests whose names contain $K
# (default "parallel"), the CPU paths that the GPU machine's PETSc runs. With HYPRE=1 it first builds
# the GPU machine's hypre version (2.32.0, Debian's source; Debian 12's hypre is older than PETSc 3.22
# needs) without CUDA into $PREFIX too (default prefix then /opt/petsc-3.22-cpu-hypre).
# Usage: [HYPRE=1] scripts/petsc322-cpu.sh [K]
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
K=${1:-parallel}
HYPRE=${HYPRE:-0}
if [ "$HYPRE" = 1 ]; then PREFIX=${PREFIX:-/opt/petsc-3.22-cpu-hypre}; W=${WORK:-/tmp/petsc322-cpu-hypre}
else PREFIX=${PREFIX:-/opt/petsc-3.22-cpu}; W=${WORK:-/tmp/petsc322-cpu}; fi
HYPRE_OPT=""
if [ ! -f "$PREFIX/lib/petsc/conf/variables" ]; then
  mkdir -p "$W" && cd "$W"
  if [ "$HYPRE" = 1 ]; then
    [ -f hypre_2.32.0.orig.tar.gz ] || curl -sfO http://deb.debian.org/debian/pool/main/h/hypre/hypre_2.32.0.orig.tar.gz
    rm -rf hypre-2.32.0 && tar xzf hypre_2.32.0.orig.tar.gz && cd hypre-2.32.0/src
    ./configure --prefix="$PREFIX" --enable-shared --disable-fortran CC=mpicc CXX=mpicxx > configure.out 2>&1 \
      || { tail -30 configure.out; exit 1; }
    make -j"$(nproc)" > make.out 2>&1 && make install > install.out 2>&1 || { grep -E " error" make.out | head; exit 1; }
    cd "$W"
    HYPRE_OPT="--with-hypre-dir=$PREFIX"
  fi
  [ -f petsc_3.22.5+dfsg1.orig.tar.xz ] || curl -sfO http://deb.debian.org/debian/pool/main/p/petsc/petsc_3.22.5+dfsg1.orig.tar.xz
  rm -rf petsc-3.22.5 && tar xJf petsc_3.22.5+dfsg1.orig.tar.xz && cd petsc-3.22.5
  python3 ./configure --prefix="$PREFIX" PETSC_ARCH=arch-cpu --with-cc=mpicc --with-cxx=mpicxx --with-fc=0 \
    --with-debugging=0 COPTFLAGS=-O2 CXXOPTFLAGS=-O2 --with-x=0 --with-shared-libraries=1 $HYPRE_OPT \
    --with-hdf5-include=/usr/include/hdf5/openmpi --with-hdf5-lib="-L/usr/lib/x86_64-linux-gnu/hdf5/openmpi -lhdf5" > configure.out 2>&1 \
    || { tail -30 configure.log; exit 1; }
  make PETSC_ARCH=arch-cpu -j"$(nproc)" > make.out 2>&1 || { grep -E " error" make.out | head; exit 1; }
  make PETSC_ARCH=arch-cpu install > install.out 2>&1
  cd "$ROOT"
fi
tree=$W/hoflow
rm -rf "$tree" && git worktree prune && git worktree add -q --detach "$tree" HEAD
[ -d .deps ] && cp -r .deps "$tree/"
cp examples/meshes/*.msh "$tree/examples/meshes/" 2>/dev/null || true
make -C "$tree" -j"$(nproc)" PETSC_DIR="$PREFIX" PETSC_ARCH= all > "$W/hoflow-build.log" 2>&1 || { tail -20 "$W/hoflow-build.log"; exit 1; }
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
cd "$tree" && $PY tests/run.py -j "$(nproc)" -k "$K"
