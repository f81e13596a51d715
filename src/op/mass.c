/* The DG mass matrix and its inverse as MatShells: block diagonal, J M on each element (exact for
 * affine elements; on curved elements Iq^T diag(w J) Iq by cubature, their inverses stored per element),
 * inverted element by element. The inverse is the inverse-mass preconditioner
 * of seed 000 §3 for mass-dominated screened Poisson systems. Host kernels in src/kernels/dg.c, CUDA
 * twins in cuda/dg.cu, on the discretization's element-wise kernel data (DGDisc.shell). */
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/log.h>

typedef struct {
  DGDisc   *dg;
  PetscBool inverse;
} MassContext;

static PetscErrorCode MatMult_DGMass(Mat A, Vec x, Vec y)
{
  MassContext       *ctx;
  OpShell           *op;
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscBool          on_device;
  PetscLogDouble     flops = 0;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  op = &ctx->dg->shell;
  PetscCall(OpShellBegin(op, x, &on_device));
  PetscCall(OpShellEventBegin(op, HOFLOW_DGMass));
  PetscCall(OpShellGetArrayRead(op, x, &xa));
  PetscCall(OpShellGetArrayWrite(op, y, &ya));
  for (PetscInt b = 0; b < ctx->dg->nblocks; b++) {
    DGBlock *blk = &ctx->dg->blocks[b];
    if (!on_device) {
      if (blk->curved)
        DGCurvedMassHost(&blk->kd, ctx->inverse, xa, ya);
      else
        DGMassHost(&blk->kd, ctx->inverse, xa, ya);
    } else {
      blk->kd_device.stream = op->stream;
      if (blk->curved && ctx->inverse && !blk->kd_device.Minve) /* built after the device setup */
        PetscCall(HoflowDeviceArraysUpload(&op->device, blk->kd.Minve, sizeof(double) * blk->kd.K * blk->kd.Np * blk->kd.Np, (const void **)&blk->kd_device.Minve));
      PetscCall(OpShellCheckKernel(op, HOFLOW_CUDA(blk->curved ? DGCurvedMassCUDA(&blk->kd_device, ctx->inverse, xa, ya) : DGMassCUDA(&blk->kd_device, ctx->inverse, xa, ya)), "mass"));
    }
    flops += blk->curved && !ctx->inverse ? 4.0 * blk->kd.K * blk->kd.Nq * blk->kd.Np : 2.0 * blk->kd.K * blk->kd.Np * blk->kd.Np;
  }
  PetscCall(OpShellRestoreArrayWrite(op, y, &ya));
  PetscCall(OpShellRestoreArrayRead(op, x, &xa));
  PetscCall(OpShellEventEnd(op, HOFLOW_DGMass, flops));
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

PetscErrorCode DGMassOperatorCreate(DGDisc *dg, PetscBool inverse, Mat *M)
{
  MassContext *ctx;

  PetscFunctionBeginUser;
  if (inverse) PetscCall(DGDiscCurvedInverseMass(dg)); /* curved elements: their own mass matrices, inverted once */
  PetscCall(PetscNew(&ctx));
  ctx->dg      = dg;
  ctx->inverse = inverse;
  PetscCall(OpShellCreateMat(&dg->shell, dg->nodes, ctx, (void (*)(void))MatMult_DGMass, (void (*)(void))MatDestroy_DGMass, M));
  PetscCall(MatSetOption(*M, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, inverse ? "DG inverse mass" : "DG mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
