/* The operator plumbing of hoflow/opshell.h: backend choice, device setup, arrays, halo exchange,
 * log events, kernel checks and the MatShell, written once for every operator. */
#include <hoflow/compat.h>
#include <hoflow/opshell.h>
#include <hoflow/kernels/device.h>

PetscErrorCode OpShellInit(OpShell *op, const char name[], DM dm, PetscErrorCode (*device_setup)(void *), void *ctx)
{
  PetscFunctionBeginUser;
  op->name         = name;
  op->dm           = dm;
  op->device_setup = device_setup;
  op->ctx          = ctx;
  op->overlap      = PETSC_TRUE;
  for (PetscInt k = 0; k < OPSHELL_NLOCAL; k++) op->halo_done[k] = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-halo_overlap", &op->overlap, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellDestroy(OpShell *op)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < OPSHELL_NLOCAL; k++) {
    PetscCall(VecDestroy(&op->local[k]));
    PetscCall(VecDestroy(&op->local_device[k]));
  }
  PetscCall(OpShellBatchDestroy(op));
  PetscCall(HoflowDeviceArraysFree(&op->device));
  op->device_ready = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellBegin(OpShell *op, Vec x, PetscBool *on_device)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowVecIsCUDA(x, &op->on_device));
  if (op->on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    if (!op->device_ready && op->device_setup) PetscCall(op->device_setup(op->ctx));
    op->device_ready = PETSC_TRUE;
    PetscCall(HoflowGetCUDAStream(&op->stream));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: CUDA vectors need a hoflow built with CUDA (make CUDA=1)", op->name);
#endif
  }
  if (on_device) *on_device = op->on_device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OpShellCheckMemType(OpShell *op, PetscMemType mtype)
{
  PetscFunctionBeginUser;
  PetscCheck((PetscMemTypeDevice(mtype) ? PETSC_TRUE : PETSC_FALSE) == op->on_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: all vectors of a call must live on the same backend (host or CUDA)", op->name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellGetArrayRead(OpShell *op, Vec v, const PetscScalar **a)
{
  PetscMemType mtype;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayReadAndMemType(v, a, &mtype));
  PetscCall(OpShellCheckMemType(op, mtype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellRestoreArrayRead(OpShell *op, Vec v, const PetscScalar **a)
{
  PetscFunctionBeginUser;
  PetscCall(VecRestoreArrayReadAndMemType(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellGetArrayWrite(OpShell *op, Vec v, PetscScalar **a)
{
  PetscMemType mtype;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWriteAndMemType(v, a, &mtype));
  PetscCall(OpShellCheckMemType(op, mtype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellRestoreArrayWrite(OpShell *op, Vec v, PetscScalar **a)
{
  PetscFunctionBeginUser;
  PetscCall(VecRestoreArrayWriteAndMemType(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellGetArray(OpShell *op, Vec v, PetscScalar **a)
{
  PetscMemType mtype;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayAndMemType(v, a, &mtype));
  PetscCall(OpShellCheckMemType(op, mtype));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellRestoreArray(OpShell *op, Vec v, PetscScalar **a)
{
  PetscFunctionBeginUser;
  PetscCall(VecRestoreArrayAndMemType(v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellGetLocal(OpShell *op, PetscInt k, Vec *local)
{
  Vec *slot;

  PetscFunctionBeginUser;
  PetscCheck(k >= 0 && k < OPSHELL_NLOCAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Local vector slot %" PetscInt_FMT " out of range", k);
  PetscCheck(op->dm, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s has no DM for a halo exchange", op->name);
  slot = op->on_device ? &op->local_device[k] : &op->local[k];
  if (!*slot) {
    if (op->on_device) {
#if defined(HOFLOW_HAVE_CUDA)
      PetscInt n;
      Vec      host;
      PetscCall(DMGetLocalVector(op->dm, &host));
      PetscCall(VecGetSize(host, &n));
      PetscCall(DMRestoreLocalVector(op->dm, &host));
      PetscCall(VecCreate(PETSC_COMM_SELF, slot));
      PetscCall(VecSetSizes(*slot, n, PETSC_DECIDE));
      PetscCall(VecSetType(*slot, VECSEQCUDA));
#endif
    } else {
      PetscCall(DMCreateLocalVector(op->dm, slot));
      PetscCall(VecSetType(*slot, VECSEQ)); /* a host vector even when the DM makes CUDA vectors */
    }
  }
  *local = *slot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellCreateLocal(OpShell *op, PetscInt n)
{
  const PetscBool on_device = op->on_device;
  Vec             local;

  PetscFunctionBeginUser;
  op->on_device = PETSC_FALSE;
  for (PetscInt k = 0; k < n; k++) PetscCall(OpShellGetLocal(op, k, &local));
  op->on_device = on_device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloBegin(OpShell *op, PetscInt k, Vec g)
{
  Vec         local;
  PetscMPIInt size;
  PetscInt    ng, nl;
  PetscBool   g_cuda;

  PetscFunctionBeginUser;
  PetscCall(OpShellGetLocal(op, k, &local));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)op->dm), &size));
  PetscCall(VecGetLocalSize(g, &ng));
  PetscCall(VecGetLocalSize(local, &nl));
  PetscCall(HoflowVecIsCUDA(g, &g_cuda));
  if (size == 1 && ng == nl && g_cuda == op->on_device) {
    /* One rank and no constrained dofs: the local vector is the global one (the same section offsets), so
     * a copy where the vectors lie, without the section star forest that DMGlobalToLocal builds on first
     * use (SFSetGraph and SFSetUp over every mesh point: 0.8 s for the three DMs of pMG at 19.3 M DOFs on
     * the GPU host, 2026-11-25) */
    const PetscScalar *ga;
    PetscScalar       *la;
    PetscCall(OpShellGetArrayRead(op, g, &ga));
    PetscCall(OpShellGetArrayWrite(op, local, &la));
    if (op->on_device)
      PetscCall(HoflowDeviceCopyOnDeviceChecked(la, ga, sizeof(PetscScalar) * (size_t)nl, op->stream));
    else
      PetscCall(PetscArraycpy(la, ga, nl));
    PetscCall(OpShellRestoreArrayWrite(op, local, &la));
    PetscCall(OpShellRestoreArrayRead(op, g, &ga));
    op->halo_done[k] = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGlobalToLocalBegin(op->dm, g, INSERT_VALUES, local));
  op->halo_done[k] = (PetscBool)!op->overlap;
  if (!op->overlap) PetscCall(DMGlobalToLocalEnd(op->dm, g, INSERT_VALUES, local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloEnd(OpShell *op, PetscInt k, Vec g, const PetscScalar **local_array)
{
  Vec local;

  PetscFunctionBeginUser;
  PetscCall(OpShellGetLocal(op, k, &local));
  if (!op->halo_done[k]) PetscCall(DMGlobalToLocalEnd(op->dm, g, INSERT_VALUES, local));
  op->halo_done[k] = PETSC_FALSE;
  PetscCall(OpShellGetArrayRead(op, local, local_array));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloRestore(OpShell *op, PetscInt k, const PetscScalar **local_array)
{
  Vec local;

  PetscFunctionBeginUser;
  PetscCall(OpShellGetLocal(op, k, &local));
  PetscCall(OpShellRestoreArrayRead(op, local, local_array));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellEventBegin(OpShell *op, PetscLogEvent event)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(event, 0, 0, 0, 0));
  if (op->on_device) PetscCall(PetscLogGpuTimeBegin());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellEventEnd(OpShell *op, PetscLogEvent event, PetscLogDouble flops)
{
  PetscFunctionBeginUser;
  if (op->on_device) {
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
  } else
    PetscCall(PetscLogFlops(flops));
  PetscCall(PetscLogEventEnd(event, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellCheckKernel(OpShell *op, int err, const char kernel[])
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: the CUDA %s kernel failed: %s", op->name, kernel, HoflowDeviceErrorString(err));
#else
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: the %s kernel failed (%d)", op->name, kernel, err);
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellCreateMat(OpShell *op, PetscInt n, void *ctx, void (*mult)(void), void (*destroy)(void), Mat *A)
{
  VecType vtype;

  PetscFunctionBeginUser;
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)op->dm), n, n, PETSC_DETERMINE, PETSC_DETERMINE, ctx, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, mult));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, destroy));
  PetscCall(DMGetVecType(op->dm, &vtype));
  PetscCall(MatShellSetVecType(*A, vtype));
  PetscCall(PetscObjectSetName((PetscObject)*A, op->name));
  PetscFunctionReturn(PETSC_SUCCESS);
}
