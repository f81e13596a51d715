/* The DG mass matrix and its inverse as MatShells: block diagonal, J M on each element (exact for
 * affine elements), inverted element by element. The inverse is the inverse-mass preconditioner
 * of seed 000 §3 for mass-dominated screened Poisson systems. Host kernels in dg_kernels.c, CUDA
 * twins in cuda/dg.cu; the vector type picks the backend. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/op.h>

typedef struct {
  DGDisc   *disc;
  PetscBool inverse;
} MassContext;

static PetscErrorCode MatMult_DGMass(Mat A, Vec x, Vec y)
{
  MassContext        *ctx;
  const PetscScalar  *xa;
  PetscScalar        *ya;
  PetscBool           on_device;
  const DGKernelData *kd;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  kd = &ctx->disc->kd;
  PetscCall(PetscLogEventBegin(HOFLOW_DGMass, 0, 0, 0, 0));
  PetscCall(HoflowVecIsCUDA(x, &on_device));
  if (!on_device) {
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
    DGMassHost(kd, ctx->inverse, xa, ya);
    PetscCall(VecRestoreArrayWrite(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(PetscLogFlops(2.0 * kd->K * kd->Np * kd->Np));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    PetscMemType mx, my;
    int          err;
    PetscCall(DGDiscDeviceSetUp(ctx->disc));
    PetscCall(HoflowGetCUDAStream(&ctx->disc->kd_device.stream));
    PetscCall(VecGetArrayReadAndMemType(x, &xa, &mx));
    PetscCall(VecGetArrayWriteAndMemType(y, &ya, &my));
    PetscCall(PetscLogGpuTimeBegin());
    err = DGMassCUDA(&ctx->disc->kd_device, ctx->inverse, xa, ya);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA mass kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
    PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
    PetscCall(PetscLogGpuFlops(2.0 * kd->K * kd->Np * kd->Np));
#endif
  }
  PetscCall(PetscLogEventEnd(HOFLOW_DGMass, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_DGMass(Mat A)
{
  MassContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGMassOperatorCreate(DGDisc *disc, PetscBool inverse, Mat *M)
{
  MassContext *ctx;
  VecType      vtype;
  PetscInt     n = disc->mesh->K * disc->Np;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ctx));
  ctx->disc    = disc;
  ctx->inverse = inverse;
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)disc->dm), n, n, PETSC_DETERMINE, PETSC_DETERMINE, ctx, M));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))MatMult_DGMass));
  PetscCall(MatShellSetOperation(*M, MATOP_DESTROY, (void (*)(void))MatDestroy_DGMass));
  PetscCall(DMGetVecType(disc->dm, &vtype));
  PetscCall(MatShellSetVecType(*M, vtype));
  PetscCall(MatSetOption(*M, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, inverse ? "DG inverse mass" : "DG mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
