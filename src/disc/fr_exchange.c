/* The halo exchange strategies of flux reconstruction (-fr_exchange, hoflow/fr.h; seed 003 §VI-VII after Jacobsen
 * et al.): the order of one right-hand side's volume and face steps around the halo exchange, written once for
 * tensor FR (disc/fr.c) and dense FR (disc/fr_dense.c), which give the steps (FRExchangeOps).
 *
 * -fr_halo traces (the default; disc/fr_trace.c): what the face step of an element with a halo neighbour needs is the
 * neighbour's trace on the shared face, which its owner's volume step writes; so the volume step of every owned
 * element comes first, then the traces go out (a PetscSF from the owners' traces into the halo elements' slots of the
 * same array), and the interior elements' face steps (MeshBlock: [start, interior_end) have no halo neighbour) run
 * while they are in flight; the halo elements' face steps wait for them. Navier–Stokes adds V1..V3 and the gradient
 * traces of the partition faces after the traces' exchange and a second exchange, of the gradient traces, before the
 * face step.
 *
 * -fr_halo elements: the halo elements' values (the local vector) exchanged beside the volume step; the face step
 * interpolates a halo neighbour's trace itself (Euler and advection on several ranks).
 *
 * Each element's arithmetic is the same whatever the order and the halo: the strategies give the same bits.
 *
 * split on the device (traces): the interior elements' face kernels run on a second stream (made at the first call),
 * so that PETSc's stream is free for the exchange (its pack and unpack kernels, with GPU-aware MPI the device buffers
 * themselves) and the halo elements' face kernel starts when the traces are there, not behind the interior work:
 *
 *   PETSc's stream:  volume --- record volume_done --- pack | MPI | unpack --- halo faces --- wait interior_done
 *   second stream:   wait volume_done --- interior faces (record interior_done)
 *
 * (elements: the volume kernels on the second stream too, beside the pack of the halo values.) overlap on the device
 * queues everything on PETSc's stream: the kernels run while the host waits for MPI, but the unpack and the halo faces
 * queue behind the interior work. */
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/log.h>
#include <petscsf.h>
#include <hoflow/kernels/device.h>

const char *const FRExchangeTypes[] = {"none", "overlap", "split", "FRExchangeType", "FR_EXCHANGE_", NULL};

void FRExchangeFaceRange(const MeshBlock *mb, FRFaceSet set, int *subset, int *begin, int *end)
{
  *subset = set != FR_FACES_ALL;
  *begin  = set == FR_FACES_HALO ? (int)(mb->interior_end - mb->start) : 0;
  *end    = set == FR_FACES_INTERIOR ? (int)(mb->interior_end - mb->start) : (int)(mb->end - mb->start);
}

/* the second stream and its events (split on the device), made once */
static PetscErrorCode FRExchangeDeviceSetUp(FRExchange *x, OpShell *shell)
{
  PetscFunctionBeginUser;
  if (x->stream) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceStreamCreate(&x->stream)), "stream creation (-fr_exchange split)"));
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventCreate(&x->start)), "event creation (-fr_exchange split)"));
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventCreate(&x->volume_done)), "event creation (-fr_exchange split)"));
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventCreate(&x->interior_done)), "event creation (-fr_exchange split)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* record `event` on stream `from`, make stream `to` wait for it */
static PetscErrorCode FRExchangeJoin(OpShell *shell, void *event, void *from, void *to)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventRecord(event, from)), "event record (-fr_exchange split)"));
  PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceStreamWaitEvent(to, event)), "stream wait (-fr_exchange split)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -fr_halo elements: the halo elements' values (OpShell slot 0) exchanged beside the volume step; Euler and advection
 * (FRViscousSetUp refuses the viscous terms on several ranks with it, and on one rank there is no halo) */
static PetscErrorCode FRExchangeRHSElements(FRExchange *x, OpShell *shell, Vec u, const PetscScalar ua[], PetscScalar fa[], const FRExchangeOps *ops, void *ctx)
{
  const PetscScalar *ul;
  FRExchangeType     type  = x->type;
  const PetscBool    split = (PetscBool)(type == FR_EXCHANGE_SPLIT && shell->on_device && !ops->viscous);
  void              *main = shell->stream, *side = split ? x->stream : shell->stream;

  PetscFunctionBeginUser;
  if (split) PetscCall(FRExchangeJoin(shell, x->start, main, side)); /* u and f as PETSc's stream left them */
  if (type == FR_EXCHANGE_NONE) {                                    /* the exchange first, whole */
    PetscCall(OpShellHaloBegin(shell, 0, u));
    PetscCall(OpShellHaloEnd(shell, 0, u, &ul));
  } else if (!split)
    PetscCall(OpShellHaloBegin(shell, 0, u));
  PetscCall(OpShellEventBegin(shell, HOFLOW_FRVolume));
  PetscCall(ops->volume(ctx, side, ua, fa));
  PetscCall(OpShellEventEnd(shell, HOFLOW_FRVolume, ops->volume_flops));
  if (split) {
    PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventRecord(x->volume_done, side)), "event record (-fr_exchange split)"));
    PetscCall(OpShellHaloBegin(shell, 0, u)); /* its pack on PETSc's stream, beside the volume kernels */
  }
  if (type == FR_EXCHANGE_NONE || ops->viscous) {
    if (type != FR_EXCHANGE_NONE) PetscCall(OpShellHaloEnd(shell, 0, u, &ul));
    if (ops->viscous) {
      PetscCall(OpShellEventBegin(shell, HOFLOW_FRViscous));
      PetscCall(ops->viscous(ctx, main, ua, ul, fa));
      PetscCall(OpShellEventEnd(shell, HOFLOW_FRViscous, 0));
    }
    PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace));
    PetscCall(ops->faces(ctx, main, FR_FACES_ALL, ul, fa));
    PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, ops->face_flops));
  } else {
    PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace)); /* while the neighbours' values are in flight */
    PetscCall(ops->faces(ctx, side, FR_FACES_INTERIOR, NULL, fa));
    PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, 0));
    if (split) PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventRecord(x->interior_done, side)), "event record (-fr_exchange split)"));
    PetscCall(OpShellHaloEnd(shell, 0, u, &ul));
    if (split) PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceStreamWaitEvent(main, x->volume_done)), "stream wait (-fr_exchange split)"));
    PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace));
    PetscCall(ops->faces(ctx, main, FR_FACES_HALO, ul, fa));
    PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, ops->face_flops));
    if (split) PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceStreamWaitEvent(main, x->interior_done)), "stream wait (-fr_exchange split)")); /* f whole on PETSc's stream */
  }
  PetscCall(OpShellHaloRestore(shell, 0, &ul));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a trace exchange on the call's trace array (roots: the owned traces, leaves: the ghosts' slots of the same array) */
static PetscErrorCode FRExchangeTraceBegin(PetscSF sf, PetscScalar *trace)
{
  PetscFunctionBeginUser;
  if (sf) PetscCall(PetscSFBcastBegin(sf, MPIU_SCALAR, trace, trace, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRExchangeTraceEnd(PetscSF sf, PetscScalar *trace)
{
  PetscFunctionBeginUser;
  if (sf) PetscCall(PetscSFBcastEnd(sf, MPIU_SCALAR, trace, trace, MPI_REPLACE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -fr_halo traces: the volume step writes the traces the exchange sends, so it comes first (seed 003 listings 4, 5):
 *   none     volume; exchange; faces of all
 *   overlap  volume; exchange begun; faces of the interior elements; exchange ended; faces of the halo elements
 *   split    volume (PETSc's stream); the interior faces on the second stream, beside the exchange (pack, MPI, unpack)
 *            and the halo elements' faces on PETSc's stream
 * Navier–Stokes (ops->viscous): volume; traces exchanged; V1..V3 and the gradient traces; gradients exchanged; faces of
 * all (every strategy: the face step of any element reads the gradients of its neighbours, formed after the first
 * exchange). On one rank the star forests are NULL: no exchange, no copy of u. */
static PetscErrorCode FRExchangeRHSTraces(FRExchange *x, OpShell *shell, const PetscScalar ua[], PetscScalar fa[], const FRExchangeOps *ops, void *ctx)
{
  FRExchangeType  type  = x->type;
  const PetscBool split = (PetscBool)(type == FR_EXCHANGE_SPLIT && shell->on_device && !ops->viscous && x->trace_sf);
  void           *main = shell->stream, *side = split ? x->stream : shell->stream;

  PetscFunctionBeginUser;
  PetscCall(OpShellEventBegin(shell, HOFLOW_FRVolume));
  PetscCall(ops->volume(ctx, main, ua, fa));
  PetscCall(OpShellEventEnd(shell, HOFLOW_FRVolume, ops->volume_flops));
  if (type == FR_EXCHANGE_NONE || ops->viscous || !x->trace_sf) {
    PetscCall(FRExchangeTraceBegin(x->trace_sf, ops->trace));
    PetscCall(FRExchangeTraceEnd(x->trace_sf, ops->trace));
    if (ops->viscous) {
      PetscCall(OpShellEventBegin(shell, HOFLOW_FRViscous));
      PetscCall(ops->viscous(ctx, main, ua, NULL, fa));
      PetscCall(OpShellEventEnd(shell, HOFLOW_FRViscous, 0));
      PetscCall(FRExchangeTraceBegin(x->grad_sf, ops->grad_trace));
      PetscCall(FRExchangeTraceEnd(x->grad_sf, ops->grad_trace));
    }
    PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace));
    PetscCall(ops->faces(ctx, main, FR_FACES_ALL, NULL, fa));
    PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, ops->face_flops));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (split)
    PetscCall(FRExchangeJoin(shell, x->volume_done, main, side)); /* the traces written */
  else
    PetscCall(FRExchangeTraceBegin(x->trace_sf, ops->trace));
  PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace)); /* while the traces are in flight */
  PetscCall(ops->faces(ctx, side, FR_FACES_INTERIOR, NULL, fa));
  PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, 0));
  if (split) {
    PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceEventRecord(x->interior_done, side)), "event record (-fr_exchange split)"));
    PetscCall(FRExchangeTraceBegin(x->trace_sf, ops->trace)); /* pack on PETSc's stream, beside the interior faces */
  }
  PetscCall(FRExchangeTraceEnd(x->trace_sf, ops->trace));
  PetscCall(OpShellEventBegin(shell, HOFLOW_FRFace));
  PetscCall(ops->faces(ctx, main, FR_FACES_HALO, NULL, fa));
  PetscCall(OpShellEventEnd(shell, HOFLOW_FRFace, ops->face_flops));
  if (split) PetscCall(OpShellCheckKernel(shell, HOFLOW_CUDA(HoflowDeviceStreamWaitEvent(main, x->interior_done)), "stream wait (-fr_exchange split)")); /* f whole on PETSc's stream */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRExchangeRHS(FRExchange *x, OpShell *shell, Vec u, Vec f, const FRExchangeOps *ops, void *ctx)
{
  const PetscScalar *ua;
  PetscScalar       *fa;

  PetscFunctionBeginUser;
  if (x->type == FR_EXCHANGE_SPLIT && shell->on_device && !ops->viscous) PetscCall(FRExchangeDeviceSetUp(x, shell));
  PetscCall(OpShellGetArrayRead(shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(shell, f, &fa));
  if (x->halo == FR_HALO_ELEMENTS)
    PetscCall(FRExchangeRHSElements(x, shell, u, ua, fa, ops, ctx));
  else
    PetscCall(FRExchangeRHSTraces(x, shell, ua, fa, ops, ctx));
  PetscCall(OpShellRestoreArrayWrite(shell, f, &fa));
  PetscCall(OpShellRestoreArrayRead(shell, u, &ua));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRExchangeDestroy(FRExchange *x)
{
  void *events[3] = {x->start, x->volume_done, x->interior_done};
  int   err       = 0;

  PetscFunctionBeginUser;
  (void)events; /* (a build without CUDA never makes the stream) */
  PetscCall(PetscSFDestroy(&x->trace_sf));
  PetscCall(PetscSFDestroy(&x->grad_sf));
  if (!x->stream) PetscFunctionReturn(PETSC_SUCCESS);
  for (int k = 0; k < 3; k++) err = err ? err : HOFLOW_CUDA(HoflowDeviceEventDestroy(events[k]));
  err = err ? err : HOFLOW_CUDA(HoflowDeviceStreamDestroy(x->stream));
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "-fr_exchange split: destroying its CUDA stream and events failed (%d)", err);
  x->stream = x->start = x->volume_done = x->interior_done = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
