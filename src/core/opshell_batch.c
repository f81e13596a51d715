/* The batched halo exchange of hoflow/opshell.h (OpShellHaloBeginMany/EndMany): n DG vectors of one DM
 * in one message per neighbour. On a GPU every exchange costs a pack kernel, a stream synchronization
 * and an MPI round (tens to hundreds of microseconds) whatever its size; an operator with several inputs
 * (the advection's 2 dim velocity fields, the divergence's dim) paid that n times per call.
 *
 * Set up once from the DM's section star forest (owned nodes -> every local node): its leaves on other
 * ranks are the ghost nodes; the owned nodes that some neighbour reads (found by a reduction over those
 * leaves) are numbered compactly, and a second star forest maps them to the ghost nodes, contiguous on
 * both sides. A call gathers the n vectors' sent nodes interleaved (node by node, HaloGather*), sends
 * them with a unit of n scalars, copies the owned part of each local vector while they are in flight
 * (owned nodes come first in a local vector, in the global order: hoflow/mesh.h) and scatters the
 * received values into the ghost nodes (HaloScatter*). Only copies: the local vectors hold the same bits
 * as n DMGlobalToLocal calls would give. On one rank there is no batch: each vector takes the one-rank
 * copy of OpShellHaloBegin. */
#include <hoflow/compat.h>
#include <hoflow/opshell.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/halo.h>
#include <petscsf.h>

struct _n_OpShellBatch {
  PetscSF      sf; /* compact sent owned nodes (roots) -> ghost nodes (contiguous leaves) */
  PetscInt     nowned, nsend, nghost;
  int         *send_index, *ghost_index; /* local node numbers of the sent owned nodes and of the ghosts */
  double      *send, *recv;              /* host buffers, HALO_NMAX values a node */
  const int   *send_index_device, *ghost_index_device;
  double      *send_device, *recv_device;
  MPI_Datatype unit[HALO_NMAX + 1]; /* n scalars (n >= 2) */
  HaloIPC      ipc;                 /* the device exchange through CUDA IPC (hoflow/halo_ipc.h; NULL: PetscSF) */
  PetscBool    ipc_ready;           /* whether HaloIPCCreate ran (at the first device exchange) */
  PetscBool    ipc_round;           /* the exchange in flight took it */
  PetscInt     n;                   /* vectors of the exchange in flight (0: none) */
  PetscBool    done;                /* the exchange in flight already ended (-halo_overlap 0) */
};

PetscErrorCode OpShellHaloSetUpBatch(OpShell *op)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)op->dm);
  PetscMPIInt  size;
  PetscSF      ghost_sf;
  PetscInt     nroots, nghost, nsend = 0, *ghost_local;
  PetscSFNode *ghost_remote;
  PetscInt    *one, *needed, *number, *ghost_number;
  OpShellBatch b;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (op->batch || size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  /* the section star forest's halo leaves (OpShellHaloLeaves builds and sets up the star forest that DMGlobalToLocal
   * uses here, at operator creation, rather than at the first exchange, inside a time step: 0.16 s of the 2-GPU
   * Taylor vortex's advection stage at 18.6 M DOFs, 2026-11-26i) */
  PetscCall(OpShellHaloLeaves(op, &nroots, &nghost, &ghost_local, &ghost_remote));
  PetscCall(PetscNew(&b));
  b->nowned = nroots;
  PetscCall(PetscMalloc1(PetscMax(nghost, 1), &b->ghost_index));
  for (PetscInt j = 0; j < nghost; j++) b->ghost_index[j] = (int)ghost_local[j];
  PetscCall(PetscFree(ghost_local));
  PetscCall(PetscSFCreate(comm, &ghost_sf));
  PetscCall(PetscSFSetGraph(ghost_sf, nroots, nghost, NULL, PETSC_COPY_VALUES, ghost_remote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(ghost_sf));
  PetscCall(PetscMalloc4(nghost, &one, nroots, &needed, nroots, &number, nghost, &ghost_number));
  for (PetscInt j = 0; j < nghost; j++) one[j] = 1;
  PetscCall(PetscArrayzero(needed, nroots));
  PetscCall(PetscSFReduceBegin(ghost_sf, MPIU_INT, one, needed, MPI_SUM));
  PetscCall(PetscSFReduceEnd(ghost_sf, MPIU_INT, one, needed, MPI_SUM));
  for (PetscInt r = 0; r < nroots; r++) number[r] = needed[r] ? nsend++ : -1;
  PetscCall(PetscMalloc1(PetscMax(nsend, 1), &b->send_index));
  for (PetscInt r = 0; r < nroots; r++)
    if (number[r] >= 0) b->send_index[number[r]] = (int)r;
  /* each ghost learns its owner's compact number: the batch's star forest */
  PetscCall(PetscSFBcastBegin(ghost_sf, MPIU_INT, number, ghost_number, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(ghost_sf, MPIU_INT, number, ghost_number, MPI_REPLACE));
  for (PetscInt j = 0; j < nghost; j++) ghost_remote[j].index = ghost_number[j];
  PetscCall(PetscSFCreate(comm, &b->sf));
  PetscCall(PetscSFSetGraph(b->sf, nsend, nghost, NULL, PETSC_COPY_VALUES, ghost_remote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(b->sf));
  PetscCall(PetscSFDestroy(&ghost_sf));
  PetscCall(PetscFree4(one, needed, number, ghost_number));
  PetscCall(PetscFree(ghost_remote));
  b->nsend  = nsend;
  b->nghost = nghost;
  PetscCall(PetscMalloc2(PetscMax(nsend, 1) * HALO_NMAX, &b->send, PetscMax(nghost, 1) * HALO_NMAX, &b->recv));
  for (PetscInt n = 2; n <= HALO_NMAX; n++) {
    PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)n, MPIU_SCALAR, &b->unit[n]));
    PetscCallMPI(MPI_Type_commit(&b->unit[n]));
  }
  op->batch = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellBatchDestroy(OpShell *op)
{
  OpShellBatch b = op->batch;

  PetscFunctionBeginUser;
  if (!b) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HaloIPCDestroy(&b->ipc));
  PetscCall(PetscSFDestroy(&b->sf));
  PetscCall(PetscFree(b->send_index));
  PetscCall(PetscFree(b->ghost_index));
  PetscCall(PetscFree2(b->send, b->recv));
  for (PetscInt n = 2; n <= HALO_NMAX; n++) PetscCallMPI(MPI_Type_free(&b->unit[n]));
  PetscCall(PetscFree(op->batch)); /* the device arrays are the OpShell's (freed with op->device) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device copies of the index lists and the buffers, at the first device exchange */
static PetscErrorCode OpShellBatchDeviceSetUp(OpShell *op)
{
  OpShellBatch b = op->batch;

  PetscFunctionBeginUser;
  if (b->send_device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HoflowDeviceArraysUpload(&op->device, b->send_index, sizeof(int) * PetscMax(b->nsend, 1), (const void **)&b->send_index_device));
  PetscCall(HoflowDeviceArraysUpload(&op->device, b->ghost_index, sizeof(int) * PetscMax(b->nghost, 1), (const void **)&b->ghost_index_device));
  PetscCall(HoflowDeviceArraysUpload(&op->device, NULL, sizeof(double) * PetscMax(b->nsend, 1) * HALO_NMAX, (const void **)&b->send_device));
  PetscCall(HoflowDeviceArraysUpload(&op->device, NULL, sizeof(double) * PetscMax(b->nghost, 1) * HALO_NMAX, (const void **)&b->recv_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the received values into the ghost nodes of the n local vectors */
static PetscErrorCode OpShellBatchFinish(OpShell *op, PetscInt n, const PetscInt slot[])
{
  OpShellBatch b    = op->batch;
  double      *send = op->on_device ? b->send_device : b->send, *recv = op->on_device ? b->recv_device : b->recv;
  HaloArrays   a;
  Vec          local[HALO_NMAX];

  PetscFunctionBeginUser;
  if (b->ipc_round)
    PetscCall(HaloIPCEnd(b->ipc, n, recv, op->stream));
  else
    PetscCall(PetscSFBcastEnd(b->sf, b->unit[n], send, recv, MPI_REPLACE));
  b->ipc_round = PETSC_FALSE;
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(OpShellGetLocal(op, slot ? slot[k] : k, &local[k]));
    PetscCall(OpShellGetArrayWrite(op, local[k], &a.out[k]));
  }
  if (op->on_device)
    PetscCall(OpShellCheckKernel(op, HOFLOW_CUDA(HaloScatterCUDA((int)n, (int)b->nghost, b->ghost_index_device, recv, a, op->stream)), "halo unpack"));
  else
    HaloScatterHost((int)n, (int)b->nghost, b->ghost_index, recv, a);
  for (PetscInt k = n - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayWrite(op, local[k], &a.out[k]));
  b->done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloBeginMany(OpShell *op, PetscInt n, const PetscInt slot[], const Vec g[])
{
  OpShellBatch b = op->batch;
  PetscMemType mtype;
  double      *send, *recv;
  HaloArrays   a;

  PetscFunctionBeginUser;
  if (!b || n < 2) { /* one rank (the copy of OpShellHaloBegin), or one vector */
    for (PetscInt k = 0; k < n; k++) PetscCall(OpShellHaloBegin(op, slot ? slot[k] : k, g[k]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(n <= HALO_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: a batched halo exchange of %" PetscInt_FMT " vectors; at most %d", op->name, n, HALO_NMAX);
  PetscCheck(!b->n, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: a batched halo exchange begun while another is in flight", op->name);
  if (op->on_device) PetscCall(OpShellBatchDeviceSetUp(op));
  mtype = op->on_device ? PETSC_MEMTYPE_DEVICE : PETSC_MEMTYPE_HOST;
  send  = op->on_device ? b->send_device : b->send;
  recv  = op->on_device ? b->recv_device : b->recv;
  for (PetscInt k = 0; k < n; k++) PetscCall(OpShellGetArrayRead(op, g[k], &a.in[k]));
  if (op->on_device)
    PetscCall(OpShellCheckKernel(op, HOFLOW_CUDA(HaloGatherCUDA((int)n, (int)b->nsend, b->send_index_device, a, send, op->stream)), "halo pack"));
  else
    HaloGatherHost((int)n, (int)b->nsend, b->send_index, a, send);
  if (op->on_device && !b->ipc_ready) { /* collective: the first device exchange is every rank's */
    PetscCall(HaloIPCCreate(b->sf, HALO_NMAX, op->name, &b->ipc));
    b->ipc_ready = PETSC_TRUE;
  }
  b->ipc_round = (PetscBool)(op->on_device && b->ipc);
  if (b->ipc_round)
    PetscCall(HaloIPCBegin(b->ipc, n, send, recv, op->stream));
  else
    PetscCall(PetscSFBcastWithMemTypeBegin(b->sf, b->unit[n], mtype, send, mtype, recv, MPI_REPLACE));
  /* the owned part of each local vector while the ghosts' values are in flight */
  for (PetscInt k = 0; k < n; k++) {
    Vec          local;
    PetscScalar *la;
    PetscCall(OpShellGetLocal(op, slot ? slot[k] : k, &local));
    PetscCall(OpShellGetArrayWrite(op, local, &la));
    if (op->on_device)
      PetscCall(HoflowDeviceCopyOnDeviceChecked(la, a.in[k], sizeof(PetscScalar) * (size_t)b->nowned, op->stream));
    else
      PetscCall(PetscArraycpy(la, a.in[k], b->nowned));
    PetscCall(OpShellRestoreArrayWrite(op, local, &la));
  }
  for (PetscInt k = n - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayRead(op, g[k], &a.in[k]));
  b->n    = n;
  b->done = PETSC_FALSE;
  if (!op->overlap) PetscCall(OpShellBatchFinish(op, n, slot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OpShellHaloEndMany(OpShell *op, PetscInt n, const PetscInt slot[], const Vec g[], const PetscScalar *local_array[])
{
  OpShellBatch b = op->batch;

  PetscFunctionBeginUser;
  if (!b || n < 2) {
    for (PetscInt k = 0; k < n; k++) PetscCall(OpShellHaloEnd(op, slot ? slot[k] : k, g[k], &local_array[k]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(b->n == n, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: the batched halo exchange of %" PetscInt_FMT " vectors ended as one of %" PetscInt_FMT, op->name, b->n, n);
  if (!b->done) PetscCall(OpShellBatchFinish(op, n, slot));
  b->n = 0;
  for (PetscInt k = 0; k < n; k++) {
    Vec local;
    PetscCall(OpShellGetLocal(op, slot ? slot[k] : k, &local));
    PetscCall(OpShellGetArrayRead(op, local, &local_array[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
