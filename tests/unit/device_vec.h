/* The unit tests' device copies (test_gpu.c, test_mdg.c, test_fr_kernels.c): a CUDA vector with x's layout and
 * values. Include inside `#if defined(HOFLOW_HAVE_CUDA)`. */
#pragma once

#include <petscvec.h>

static PetscErrorCode DuplicateOnDevice(Vec x, Vec *xd)
{
  PetscInt n, N;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)x), xd));
  PetscCall(VecSetSizes(*xd, n, N));
  PetscCall(VecSetType(*xd, VECCUDA));
  PetscCall(VecCopy(x, *xd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
