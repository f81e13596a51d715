/* p-multigrid transfer between two DG discretizations of the same mesh: prolongation from order
 * Nc to order Nf interpolates each element's polynomial at the fine nodes (exact, since degree Nc
 * lies in the degree-Nf space); restriction is its transpose (MatMultTranspose). Matrix-free:
 * one small dense block per element, host kernel or CUDA twin by vector type. One shape per mesh. */
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/kernels/dg.h>
#include <hoflow/log.h>

typedef struct {
  OpShell       op;
  PetscInt      K, Npc, Npf;
  PetscReal    *interp, *interpT; /* [Npf*Npc] interpolation and [Npc*Npf] its transpose */
  const double *d_interp, *d_interpT;
} TransferContext;

static PetscErrorCode TransferDeviceSetUp(void *ptr)
{
  TransferContext *ctx = (TransferContext *)ptr;

  PetscFunctionBeginUser;
  PetscCall(HoflowDeviceArraysUpload(&ctx->op.device, ctx->interp, sizeof(double) * ctx->Npf * ctx->Npc, (const void **)&ctx->d_interp));
  PetscCall(HoflowDeviceArraysUpload(&ctx->op.device, ctx->interpT, sizeof(double) * ctx->Npf * ctx->Npc, (const void **)&ctx->d_interpT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TransferApply(Mat P, Vec x, Vec y, PetscBool transpose)
{
  TransferContext   *ctx;
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscBool          on_device;
  PetscInt           m, n;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(P, &ctx));
  m = transpose ? ctx->Npc : ctx->Npf;
  n = transpose ? ctx->Npf : ctx->Npc;
  PetscCall(OpShellBegin(&ctx->op, x, &on_device));
  PetscCall(OpShellEventBegin(&ctx->op, HOFLOW_DGTransfer));
  PetscCall(OpShellGetArrayRead(&ctx->op, x, &xa));
  PetscCall(OpShellGetArrayWrite(&ctx->op, y, &ya));
  if (!on_device)
    DGBlockApplyHost((int)ctx->K, (int)m, (int)n, transpose ? ctx->interpT : ctx->interp, xa, ya);
  else
    PetscCall(OpShellCheckKernel(&ctx->op, HOFLOW_CUDA(DGBlockApplyCUDA((int)ctx->K, (int)m, (int)n, transpose ? ctx->d_interpT : ctx->d_interp, xa, ya, ctx->op.stream)), "transfer"));
  PetscCall(OpShellRestoreArrayWrite(&ctx->op, y, &ya));
  PetscCall(OpShellRestoreArrayRead(&ctx->op, x, &xa));
  PetscCall(OpShellEventEnd(&ctx->op, HOFLOW_DGTransfer, 2.0 * ctx->K * m * n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_Transfer(Mat P, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(TransferApply(P, x, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_Transfer(Mat P, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(TransferApply(P, x, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_Transfer(Mat P)
{
  TransferContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(P, &ctx));
  PetscCall(OpShellDestroy(&ctx->op));
  PetscCall(PetscFree2(ctx->interp, ctx->interpT));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGTransferCreate(DGDisc *coarse, DGDisc *fine, Mat *P)
{
  TransferContext *ctx;
  RefElement      *rc, *rf;
  VecType          vtype;

  PetscFunctionBeginUser;
  PetscCheck(coarse->mesh == fine->mesh, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "DG transfer needs two discretizations of the same mesh");
  PetscCheck(coarse->N <= fine->N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "DG transfer from order %" PetscInt_FMT " to the lower order %" PetscInt_FMT, coarse->N, fine->N);
  PetscCall(DGDiscGetUniformRef(coarse, "p-multigrid", &rc));
  PetscCall(DGDiscGetUniformRef(fine, "p-multigrid", &rf));
  PetscCall(PetscNew(&ctx));
  PetscCall(OpShellInit(&ctx->op, "DG order transfer", fine->dm, TransferDeviceSetUp, ctx));
  ctx->K   = fine->mesh->K;
  ctx->Npc = rc->Np;
  ctx->Npf = rf->Np;
  PetscCall(PetscMalloc2(ctx->Npf * ctx->Npc, &ctx->interp, ctx->Npf * ctx->Npc, &ctx->interpT));
  PetscCall(RefElementInterpolationMatrix(rc, rf->Np, rf->xi, ctx->interp));
  for (PetscInt i = 0; i < ctx->Npf; i++)
    for (PetscInt j = 0; j < ctx->Npc; j++) ctx->interpT[j * ctx->Npf + i] = ctx->interp[i * ctx->Npc + j];
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine->dm), fine->nodes, coarse->nodes, PETSC_DETERMINE, PETSC_DETERMINE, ctx, P));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT, (void (*)(void))MatMult_Transfer));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_Transfer));
  PetscCall(MatShellSetOperation(*P, MATOP_DESTROY, (void (*)(void))MatDestroy_Transfer));
  PetscCall(DMGetVecType(fine->dm, &vtype));
  PetscCall(MatShellSetVecType(*P, vtype));
  PetscCall(PetscObjectSetName((PetscObject)*P, "DG order transfer"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
