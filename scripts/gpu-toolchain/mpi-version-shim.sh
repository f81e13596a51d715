#!/bin/sh
# petscpkg_version.h of the GPU toolchain's PETSc (headers in INCLUDE) with this machine's Open MPI version, written
# into OUTDIR: put OUTDIR first on the include path so that those headers accept this machine's mpi.h (the same
# libmpi.so.40 ABI). Used by scripts/check-gpu-c.sh and scripts/gpu-toolchain/cross-build.sh.
# Usage: mpi-version-shim.sh INCLUDE OUTDIR
set -e
inc=${1:?the GPU PETSc include folder}
out=${2:?output folder}
mkdir -p "$out"
v=$(ompi_info --parsable | sed -n 's/^ompi:version:full://p')
sed -e "s/^#define \(PETSC_PKG_OPENMPI_VERSION_MAJOR\) .*/#define \1 $(echo "$v" | cut -d. -f1)/" \
    -e "s/^#define \(PETSC_PKG_OPENMPI_VERSION_MINOR\) .*/#define \1 $(echo "$v" | cut -d. -f2)/" \
    -e "s/^#define \(PETSC_PKG_OPENMPI_VERSION_SUBMINOR\) .*/#define \1 $(echo "$v" | cut -d. -f3)/" \
    "$inc/petscpkg_version.h" > "$out/petscpkg_version.h"
