# The CUDA-aware Open MPI of build-ompi-cuda.sh on the GPU machine. Source it AFTER ../shared/gpu/env.sh
# (or .gpu/env.sh): it unpacks ompi-cuda.tar.xz (from $HOFLOW_TOOLCHAIN, else .toolchain/, .gpu/ or
# ../shared/gpu/ beside the checkout) into /opt/ompi-cuda once, puts its mpiexec and libmpi.so.40 first (the PETSc and hypre
# of ../shared/gpu load it in place of the machine's Open MPI 4.1.6, same ABI), and turns PETSc's
# GPU-aware path on (-use_gpu_aware_mpi 1: halo buffers go from device to device).
_root=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../..
for _tc in "${HOFLOW_TOOLCHAIN:-}" "$_root/.toolchain" "$_root/.gpu" "$_root/../shared/gpu"; do
  [ -n "$_tc" ] && [ -f "$_tc/ompi-cuda.tar.xz" ] && break
done
if [ ! -x /opt/ompi-cuda/bin/mpiexec ]; then
  [ -f "$_tc/ompi-cuda.tar.xz" ] || { echo "gpu-toolchain: no ompi-cuda.tar.xz in \$HOFLOW_TOOLCHAIN, .toolchain, .gpu or ../shared/gpu (build it with scripts/gpu-toolchain/build-ompi-cuda.sh)"; return 1; }
  tar -C /opt -xJf "$_tc/ompi-cuda.tar.xz" || return 1
fi
export PATH=/opt/ompi-cuda/bin:$PATH
export LD_LIBRARY_PATH=/opt/ompi-cuda/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=/opt/ompi-cuda
PETSC_OPTIONS=${PETSC_OPTIONS:-}
export PETSC_OPTIONS="${PETSC_OPTIONS//-use_gpu_aware_mpi 0/} -use_gpu_aware_mpi 1"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset _tc _root
