/* The operator plumbing of hoflow/opshell.h: backend choice, device setup, arrays, halo exchange,
 * log events, kernel checks and the MatShell, written once for every operator. */
#include <hoflow/compat.h>
#include <petscsf.h>
#include <petscsection.h>
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
  op->split        = PETSC_TRUE;
  for (PetscInt k = 0; k < OPSHELL_NLOCAL; k++) op->halo_done[k] = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-halo_overlap", &op->overlap, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-halo_split", &op->split, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellDestroy(OpShell *op)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < OPSHELL_NLOCAL; k++) {
    PetscCall(VecDestroy(&op->local[k]));
    PetscCall(VecDestroy(&op->local_device[k]));
  }
  PetscCall(PetscSFDestroy(&op->halo_sf));
  PetscCall(HaloIPCDestroy(&op->halo_ipc));
  op->halo_ipc_ready = PETSC_FALSE;
  op->halo_sf_empty  = PETSC_FALSE;
  PetscCall(OpShellBatchDestroy(op));
#if defined(HOFLOW_HAVE_CUDA)
  if (op->side) {
    int err = HoflowDeviceStreamDestroy(op->side);
    for (PetscInt k = 0; k < 3; k++) err = err ? err : HoflowDeviceEventDestroy(op->side_event[k]);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: destroying its side stream failed: %s", op->name, HoflowDeviceErrorString(err));
    op->side = NULL;
  }
#endif
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
    op->stream_main = op->stream;
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
      PetscInt     n;
      PetscSection section;
      PetscCall(DMGetLocalSection(op->dm, &section));
      if (section)
        PetscCall(PetscSectionGetStorageSize(section, &n)); /* the local size, without a vector in the DM's pool */
      else {
        Vec pooled;
        PetscCall(DMGetLocalVector(op->dm, &pooled));
        PetscCall(VecGetSize(pooled, &n));
        PetscCall(DMRestoreLocalVector(op->dm, &pooled));
      }
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
  PetscBool       cuda;
  Vec             local;

  PetscFunctionBeginUser;
  /* on the DM's backend: a CUDA DM's operators run on the device, and the host local vectors (filled with
   * zeros at creation: a first touch of the DM's local size in host memory) would wait unused */
  PetscCall(HoflowDMIsCUDA(op->dm, &cuda));
  op->on_device = cuda;
  for (PetscInt k = 0; k < n; k++) PetscCall(OpShellGetLocal(op, k, &local));
  op->on_device = on_device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The end of an exchange of OpShellSetHaloReads' star forest: the arrays of the exchange restored. */
static PetscErrorCode OpShellHaloSFEnd(OpShell *op, PetscInt k, Vec g, Vec local)
{
  PetscFunctionBeginUser;
  if (op->halo_ipc_slot[k])
    PetscCall(HaloIPCEnd(op->halo_ipc, 1, op->halo_leaf[k], op->stream));
  else
    PetscCall(PetscSFBcastEnd(op->halo_sf, MPIU_SCALAR, op->halo_root[k], op->halo_leaf[k], MPI_REPLACE));
  op->halo_ipc_slot[k] = PETSC_FALSE;
  PetscCall(OpShellRestoreArrayWrite(op, local, &op->halo_leaf[k]));
  PetscCall(OpShellRestoreArrayRead(op, g, &op->halo_root[k]));
  op->halo_done[k] = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloLeaves(OpShell *op, PetscInt *nowned, PetscInt *nghost, PetscInt **ghost_local, PetscSFNode **ghost_remote)
{
  PetscMPIInt        rank;
  PetscSF            ssf;
  PetscInt           nroots, nleaves, nself = 0;
  const PetscInt    *ilocal;
  const PetscSFNode *iremote;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)op->dm), &rank));
  PetscCall(DMGetSectionSF(op->dm, &ssf));
  PetscCall(PetscSFSetUp(ssf));
  PetscCall(PetscSFGetGraph(ssf, &nroots, &nleaves, &ilocal, &iremote));
  *nghost = 0;
  for (PetscInt i = 0; i < nleaves; i++) {
    const PetscInt l = ilocal ? ilocal[i] : i;
    if (iremote[i].rank == rank) {
      PetscCheck(l == iremote[i].index && l < nroots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: local value %" PetscInt_FMT " is owned value %" PetscInt_FMT "; the halo exchange needs the owned values first in a local vector, in the global order", op->name, l, iremote[i].index);
      nself++;
    } else {
      PetscCheck(l >= nroots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: local value %" PetscInt_FMT " comes from another rank but lies among the %" PetscInt_FMT " owned values", op->name, l, nroots);
      (*nghost)++;
    }
  }
  PetscCheck(nself == nroots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " owned values in the local vector; the halo exchange needs all of them", op->name, nself, nroots);
  PetscCall(PetscMalloc1(PetscMax(*nghost, 1), ghost_local));
  PetscCall(PetscMalloc1(PetscMax(*nghost, 1), ghost_remote));
  *nghost = 0;
  for (PetscInt i = 0; i < nleaves; i++)
    if (iremote[i].rank != rank) {
      (*ghost_local)[*nghost]    = ilocal ? ilocal[i] : i;
      (*ghost_remote)[(*nghost)++] = iremote[i];
    }
  *nowned = nroots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellSetHaloReads(OpShell *op, PetscInt n, const PetscInt start[], const PetscInt len[])
{
  const char *const modes[] = {"needed", "full"};
  PetscInt          mode = 0, nown, nlocal, nghost, nkeep = 0, *ghost_local, *keep_local;
  PetscSection      gsection, lsection;
  PetscSFNode      *ghost_remote, *keep_remote;
  PetscBool        *read;
  PetscMPIInt       size, rank;
  MPI_Comm          comm;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-halo_local", modes, 2, &mode, NULL));
  PetscCall(PetscSFDestroy(&op->halo_sf));
  PetscCall(HaloIPCDestroy(&op->halo_ipc));
  op->halo_ipc_ready = PETSC_FALSE;
  op->halo_sf_empty  = PETSC_FALSE;
  if (mode == 1) PetscFunctionReturn(PETSC_SUCCESS);
  comm = PetscObjectComm((PetscObject)op->dm);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1) {
    /* one rank: with no halo and nothing read after the exchange there is nothing to move (and no section star
     * forest to build: 0.8 s for the DMs of pMG at 19.3 M DOFs); otherwise the one-rank copy of the whole vector */
    PetscCall(DMGetGlobalSection(op->dm, &gsection));
    PetscCall(DMGetLocalSection(op->dm, &lsection));
    PetscCall(PetscSectionGetConstrainedStorageSize(gsection, &nown));
    PetscCall(PetscSectionGetStorageSize(lsection, &nlocal));
    op->halo_sf_empty = (PetscBool)(nlocal == nown && n == 0);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the halo values from their owners; the owned values read, from this rank's own global array, where owned
   * value l of the local vector is value l (OpShellHaloLeaves checks it) */
  PetscCall(OpShellHaloLeaves(op, &nown, &nghost, &ghost_local, &ghost_remote));
  PetscCall(PetscCalloc1(nown, &read));
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(start[i] >= 0 && len[i] >= 0 && start[i] + len[i] <= nown, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: local range [%" PetscInt_FMT ", %" PetscInt_FMT ") read after the exchange is not owned (owned values 0..%" PetscInt_FMT ")", op->name, start[i], start[i] + len[i], nown);
    for (PetscInt j = start[i]; j < start[i] + len[i]; j++) read[j] = PETSC_TRUE;
  }
  for (PetscInt l = 0; l < nown; l++) nkeep += read[l] ? 1 : 0;
  PetscCall(PetscMalloc1(nkeep + nghost, &keep_local));
  PetscCall(PetscMalloc1(nkeep + nghost, &keep_remote));
  nkeep = 0;
  for (PetscInt l = 0; l < nown; l++) {
    if (!read[l]) continue;
    keep_local[nkeep]        = l;
    keep_remote[nkeep].rank  = rank;
    keep_remote[nkeep].index = l;
    nkeep++;
  }
  PetscCall(PetscArraycpy(keep_local + nkeep, ghost_local, nghost));
  PetscCall(PetscArraycpy(keep_remote + nkeep, ghost_remote, nghost));
  PetscCall(PetscFree(read));
  PetscCall(PetscFree(ghost_local));
  PetscCall(PetscFree(ghost_remote));
  PetscCall(PetscSFCreate(comm, &op->halo_sf));
  PetscCall(PetscSFSetGraph(op->halo_sf, nown, nkeep + nghost, keep_local, PETSC_OWN_POINTER, keep_remote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(op->halo_sf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloBegin(OpShell *op, PetscInt k, Vec g)
{
  Vec         local;
  PetscMPIInt size;
  PetscInt    ng, nl;
  PetscBool   g_cuda, busy = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(OpShellGetLocal(op, k, &local));
  if (op->halo_sf_empty) { /* nothing to move (OpShellSetHaloReads) */
    op->halo_done[k] = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (op->halo_sf) { /* the halo values and the owned values read after the exchange, not the whole vector */
    PetscCall(OpShellGetArrayRead(op, g, &op->halo_root[k]));
    PetscCall(OpShellGetArrayWrite(op, local, &op->halo_leaf[k]));
    if (op->on_device && !op->halo_ipc_ready) { /* collective: the first device exchange is every rank's */
      PetscCall(HaloIPCCreate(op->halo_sf, 1, op->name, &op->halo_ipc));
      op->halo_ipc_ready = PETSC_TRUE;
    }
    op->halo_ipc_slot[k] = PETSC_FALSE;
    if (op->on_device && op->halo_ipc) PetscCall(HaloIPCBusy(op->halo_ipc, &busy));
    if (op->on_device && op->halo_ipc && !busy) {
      PetscCall(HaloIPCBegin(op->halo_ipc, 1, op->halo_root[k], op->halo_leaf[k], op->stream));
      op->halo_ipc_slot[k] = PETSC_TRUE;
    } else
      PetscCall(PetscSFBcastBegin(op->halo_sf, MPIU_SCALAR, op->halo_root[k], op->halo_leaf[k], MPI_REPLACE));
    op->halo_done[k] = PETSC_FALSE;
    if (!op->overlap) PetscCall(OpShellHaloSFEnd(op, k, g, local));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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
  if (!op->halo_done[k]) {
    if (op->halo_sf)
      PetscCall(OpShellHaloSFEnd(op, k, g, local));
    else
      PetscCall(DMGlobalToLocalEnd(op->dm, g, INSERT_VALUES, local));
  }
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

PetscErrorCode OpShellSplitAvailable(OpShell *op, PetscBool *split)
{
  PetscFunctionBeginUser;
  *split = (PetscBool)(op->on_device && op->overlap && op->split && op->halo_ipc);
#if defined(HOFLOW_HAVE_CUDA)
  if (*split && !op->side) {
    int err = HoflowDeviceStreamCreateHigh(&op->side);
    for (PetscInt k = 0; k < 3; k++) err = err ? err : HoflowDeviceEventCreate(&op->side_event[k]);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: its side stream (-halo_split) could not be made: %s", op->name, HoflowDeviceErrorString(err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellStreamOrder(OpShell *op, PetscInt k, PetscBool from_side)
{
  PetscFunctionBeginUser;
  PetscCheck(op->side && k >= 0 && k < 3, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: no side stream event %" PetscInt_FMT, op->name, k);
#if defined(HOFLOW_HAVE_CUDA)
  {
    void *from = from_side ? op->side : op->stream_main, *to = from_side ? op->stream_main : op->side;
    int   err  = HoflowDeviceEventRecord(op->side_event[k], from);
    err        = err ? err : HoflowDeviceStreamWaitEvent(to, op->side_event[k]);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: ordering its two streams failed: %s", op->name, HoflowDeviceErrorString(err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellStreamUse(OpShell *op, PetscBool side)
{
  PetscFunctionBeginUser;
  PetscCheck(!side || op->side, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: no side stream", op->name);
  op->stream = side ? op->side : op->stream_main;
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
