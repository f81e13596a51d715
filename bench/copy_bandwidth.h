/* The benchmarks' bandwidth roofline: the measured copy bandwidth (bench/ipdg_bench.c, bench/sem_bench.c). */
#pragma once

#include <petscdm.h>
#include <hoflow/kernels/device.h>

/* Device-to-device (or host) copy bandwidth, bytes read plus written per second, on vectors of the DM's type. */
static PetscErrorCode MeasureCopyBandwidth(DM dm, PetscInt mib, PetscReal *bandwidth)
{
  Vec            a, b;
  const PetscInt n = mib * (1024 * 1024 / (PetscInt)sizeof(PetscScalar)), reps = 20;
  PetscLogDouble t0, t1;
  VecType        vtype;

  PetscFunctionBeginUser;
  PetscCall(DMGetVecType(dm, &vtype));
  PetscCall(VecCreate(PETSC_COMM_SELF, &a));
  PetscCall(VecSetSizes(a, n, n));
  PetscCall(VecSetType(a, vtype));
  PetscCall(VecDuplicate(a, &b));
  PetscCall(VecSet(a, 1.0));
  PetscCall(VecCopy(a, b));
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
#endif
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(VecCopy(k % 2 ? b : a, k % 2 ? a : b));
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
#endif
  PetscCall(PetscTime(&t1));
  *bandwidth = 2.0 * n * sizeof(PetscScalar) * reps / (t1 - t0);
  PetscCall(VecDestroy(&a));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}
