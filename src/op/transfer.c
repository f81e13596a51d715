/* p-multigrid transfer between two DG discretizations of the same mesh: prolongation from order
 * Nc to order Nf interpolates each element's polynomial at the fine nodes (exact, since degree Nc
 * lies in the degree-Nf space); restriction is its transpose (MatMultTranspose). Matrix-free:
 * one small dense block per element, host kernel or CUDA twin by vector type. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/op.h>

typedef struct {
  PetscInt   K, Npc, Npf;
  PetscReal *interp, *interpT;     /* [Npf*Npc] interpolation and [Npc*Npf] its transpose */
  void      *d_interp, *d_interpT; /* device copies, uploaded on first device use */
} TransferContext;

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
  PetscCall(PetscLogEventBegin(HOFLOW_DGTransfer, 0, 0, 0, 0));
  PetscCall(HoflowVecIsCUDA(x, &on_device));
  if (!on_device) {
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
    DGBlockApplyHost((int)ctx->K, (int)m, (int)n, transpose ? ctx->interpT : ctx->interp, xa, ya);
    PetscCall(VecRestoreArrayWrite(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(PetscLogFlops(2.0 * ctx->K * m * n));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    PetscMemType mx, my;
    void        *stream;
    int          err;
    if (!ctx->d_interp) {
      PetscCall(HoflowDeviceUploadChecked(ctx->interp, sizeof(double) * ctx->Npf * ctx->Npc, &ctx->d_interp));
      PetscCall(HoflowDeviceUploadChecked(ctx->interpT, sizeof(double) * ctx->Npf * ctx->Npc, &ctx->d_interpT));
    }
    PetscCall(HoflowGetCUDAStream(&stream));
    PetscCall(VecGetArrayReadAndMemType(x, &xa, &mx));
    PetscCall(VecGetArrayWriteAndMemType(y, &ya, &my));
    PetscCheck(PetscMemTypeDevice(mx) && PetscMemTypeDevice(my), PETSC_COMM_SELF, PETSC_ERR_PLIB, "DG transfer on the device needs device arrays");
    PetscCall(PetscLogGpuTimeBegin());
    err = DGBlockApplyCUDA((int)ctx->K, (int)m, (int)n, (const double *)(transpose ? ctx->d_interpT : ctx->d_interp), xa, ya, stream);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA transfer kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
    PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
    PetscCall(PetscLogGpuFlops(2.0 * ctx->K * m * n));
#endif
  }
  PetscCall(PetscLogEventEnd(HOFLOW_DGTransfer, 0, 0, 0, 0));
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
  PetscCall(PetscFree2(ctx->interp, ctx->interpT));
  if (ctx->d_interp) PetscCall(HoflowDeviceFreeChecked(ctx->d_interp));
  if (ctx->d_interpT) PetscCall(HoflowDeviceFreeChecked(ctx->d_interpT));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGTransferCreate(DGDisc *coarse, DGDisc *fine, Mat *P)
{
  TransferContext *ctx;
  VecType          vtype;

  PetscFunctionBeginUser;
  PetscCheck(coarse->mesh == fine->mesh, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "DG transfer needs two discretizations of the same mesh");
  PetscCheck(coarse->N <= fine->N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "DG transfer from order %" PetscInt_FMT " to the lower order %" PetscInt_FMT, coarse->N, fine->N);
  PetscCall(PetscNew(&ctx));
  ctx->K   = fine->mesh->K;
  ctx->Npc = coarse->Np;
  ctx->Npf = fine->Np;
  PetscCall(PetscMalloc2(ctx->Npf * ctx->Npc, &ctx->interp, ctx->Npf * ctx->Npc, &ctx->interpT));
  PetscCall(RefElementInterpolationMatrix(coarse->ref, fine->Np, fine->ref->xi, ctx->interp));
  for (PetscInt i = 0; i < ctx->Npf; i++)
    for (PetscInt j = 0; j < ctx->Npc; j++) ctx->interpT[j * ctx->Npf + i] = ctx->interp[i * ctx->Npc + j];
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)fine->dm), fine->mesh->K * fine->Np, coarse->mesh->K * coarse->Np, PETSC_DETERMINE, PETSC_DETERMINE, ctx, P));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT, (void (*)(void))MatMult_Transfer));
  PetscCall(MatShellSetOperation(*P, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_Transfer));
  PetscCall(MatShellSetOperation(*P, MATOP_DESTROY, (void (*)(void))MatDestroy_Transfer));
  PetscCall(DMGetVecType(fine->dm, &vtype));
  PetscCall(MatShellSetVecType(*P, vtype));
  PetscCall(PetscObjectSetName((PetscObject)*P, "DG order transfer"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
