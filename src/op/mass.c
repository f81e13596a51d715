/* The DG mass matrix and its inverse as MatShells: block diagonal, J M on each element (exact for
 * affine elements; on curved elements Iq^T diag(w J) Iq by cubature, their inverses stored per element),
 * inverted element by element. The inverse is the inverse-mass preconditioner
 * of seed 000 §3 for mass-dominated screened Poisson systems. Host kernels in src/kernels/dg.c, CUDA
 * twins in cuda/dg.cu, on the discretization's element-wise kernel data (DGDisc.shell). */
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/kernels/ipdg_tensor.h>
#include <hoflow/log.h>

typedef struct {
  DGDisc   *dg;
  PetscBool inverse;
  PetscBool tensor[2]; /* sum factorization on quadrilaterals and hexahedra, [host, CUDA] (-ipdg_kernel) */
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
    DGBlock  *blk    = &ctx->dg->blocks[b];
    const int tensor = blk->kd.N1 > 0 && ctx->tensor[on_device ? 1 : 0] && !(blk->curved && ctx->inverse); /* curved inverse: dense */
    const int N1 = blk->kd.N1, nd = blk->kd.dim;
    if (tensor) {
      if (!on_device) {
        if (blk->curved)
          DGCurvedTensorMassHost(&blk->kd, blk->ref->shape, xa, ya);
        else
          DGTensorMassHost(&blk->kd, blk->ref->shape, ctx->inverse, xa, ya);
      } else {
        blk->kd_device.stream = op->stream;
        PetscCall(OpShellCheckKernel(op, HOFLOW_CUDA(blk->curved ? DGCurvedTensorMassCUDA(&blk->kd_device, blk->ref->shape, xa, ya) : DGTensorMassCUDA(&blk->kd_device, blk->ref->shape, ctx->inverse, xa, ya)), "mass"));
      }
      flops += 2.0 * blk->kd.K * blk->kd.Np * N1 * nd * (blk->curved ? 2 : 1);
      continue;
    }
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
  {
    PetscInt    kernel    = 2;
    const char *kernels[] = {"dense", "tensor", "auto"};
    PetscOptionsBegin(PetscObjectComm((PetscObject)dg->dm), NULL, "DG mass", NULL);
    PetscCall(PetscOptionsEList("-ipdg_kernel", "Mass and inverse mass on quadrilaterals and hexahedra (as the SIPDG operator's): dense, tensor, or auto (as the SIPDG operator's)", NULL, kernels, 3, kernels[kernel], &kernel, NULL));
    PetscOptionsEnd();
    ctx->tensor[0] = (PetscBool)(kernel != 0);
    ctx->tensor[1] = (PetscBool)(kernel == 1 || (kernel == 2 && IPDGTensorCUDAPreferred((int)dg->dim, (int)dg->N)));
  }
  PetscCall(OpShellCreateMat(&dg->shell, dg->nodes, ctx, (void (*)(void))MatMult_DGMass, (void (*)(void))MatDestroy_DGMass, M));
  PetscCall(MatSetOption(*M, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, inverse ? "DG inverse mass" : "DG mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
