/* The unit tests' device helpers: DuplicateOnDevice (test_gpu.c, test_mdg.c, test_fr_kernels.c,
 * test_fr_dense_kernels.c), a CUDA vector with x's layout and values; RelativeArrays and RelativeVecs (the FR kernel
 * tests), the largest relative difference of two arrays or vectors; DeviceVersusHost (test_sem.c, test_sem_stokes.c),
 * an operator applied on the device and on the host. All but DeviceVersusHost belong inside
 * `#if defined(HOFLOW_HAVE_CUDA)`; DeviceVersusHost compiles in every build. */
#pragma once

#include <petscvec.h>

static PETSC_UNUSED PetscErrorCode DuplicateOnDevice(Vec x, Vec *xd)
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

/* max |b - a| / max(max |a|, scale) over n values (a NaN in b: infinity), the maximum over all ranks */
static PETSC_UNUSED PetscErrorCode RelativeArrays(PetscInt n, const PetscReal a[], const PetscReal b[], PetscReal scale, PetscReal *rel)
{
  PetscReal m[2] = {0, 0};

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) {
    m[0] = PetscMax(m[0], PetscAbsReal(a[i]));
    m[1] = PetscIsNanReal(b[i]) ? PETSC_INFINITY : PetscMax(m[1], PetscAbsReal(b[i] - a[i]));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, m, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  *rel = m[1] / PetscMax(PetscMax(m[0], scale), PETSC_SMALL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the same for two vectors (b on the device: copied to a host vector of a's type first) */
static PETSC_UNUSED PetscErrorCode RelativeVecs(Vec a, Vec b, PetscReal scale, PetscReal *rel)
{
  const PetscScalar *aa, *ba;
  Vec                bh;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &bh));
  PetscCall(VecCopy(b, bh));
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetArrayRead(a, &aa));
  PetscCall(VecGetArrayRead(bh, &ba));
  PetscCall(RelativeArrays(n, aa, ba, scale, rel));
  PetscCall(VecRestoreArrayRead(bh, &ba));
  PetscCall(VecRestoreArrayRead(a, &aa));
  PetscCall(VecDestroy(&bh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |A x - H x| / max |H x| (transposes with transpose) for a random x: A applied to a vector of its own type
 * (MatCreateVecs: CUDA vectors where the operator's DM makes them, so the CUDA kernels) and H (A itself, or a twin
 * built alike: a MatShell's MatMultAdd caches a work vector of the first call's type) to a host copy of it (the
 * host kernels). */
static PETSC_UNUSED PetscErrorCode DeviceVersusHost(Mat A, Mat H, PetscBool transpose, PetscReal *rel)
{
  Vec                xd, yd, xh, yh;
  PetscRandom        rnd;
  PetscInt           n, m;
  const PetscScalar *a, *b;
  PetscScalar       *c;
  PetscReal          diff = 0, scale = 0;

  PetscFunctionBeginUser;
  if (transpose) PetscCall(MatCreateVecs(A, &yd, &xd));
  else PetscCall(MatCreateVecs(A, &xd, &yd));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &rnd));
  PetscCall(VecSetRandom(xd, rnd));
  PetscCall(VecGetLocalSize(xd, &n));
  PetscCall(VecGetLocalSize(yd, &m));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), n, PETSC_DETERMINE, &xh));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), m, PETSC_DETERMINE, &yh));
  PetscCall(VecGetArrayRead(xd, &a));
  PetscCall(VecGetArrayWrite(xh, &c));
  PetscCall(PetscArraycpy(c, a, n));
  PetscCall(VecRestoreArrayWrite(xh, &c));
  PetscCall(VecRestoreArrayRead(xd, &a));
  if (transpose) {
    PetscCall(MatMultTranspose(A, xd, yd));
    PetscCall(MatMultTranspose(H, xh, yh));
  } else {
    PetscCall(MatMult(A, xd, yd));
    PetscCall(MatMult(H, xh, yh));
  }
  PetscCall(VecGetArrayRead(yd, &a));
  PetscCall(VecGetArrayRead(yh, &b));
  for (PetscInt k = 0; k < m; k++) {
    diff  = PetscMax(diff, PetscAbsScalar(a[k] - b[k]));
    scale = PetscMax(scale, PetscAbsScalar(b[k]));
  }
  PetscCall(VecRestoreArrayRead(yh, &b));
  PetscCall(VecRestoreArrayRead(yd, &a));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &diff, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)A)));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &scale, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)A)));
  *rel = diff / scale;
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(VecDestroy(&xh));
  PetscCall(VecDestroy(&yh));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}
