/* The plumbing every hoflow operator shares, in one place (core/opshell.c): the backend chosen by the
 * vector type (host kernels for host vectors, CUDA kernels for CUDA vectors, so -dm_vec_type cuda
 * moves a whole solve to the GPU), device copies of the kernel data uploaded at the first device
 * call, log events with flops on the right counter and GPU timers, kernel error checks, and the
 * halo exchange of a DG vector split so that work runs while the neighbours' data are in flight:
 *
 *   OpShellBegin(op, x, &on_device)              backend of this call (device setup on first use)
 *   OpShellHaloBegin(op, k, x)                   start x -> local slot k
 *   ... interior work on the owned array of x ...
 *   OpShellHaloEnd(op, k, x, &xlocal)            finish, local array of slot k
 *   ... work that needs the halo ...
 *   OpShellHaloRestore(op, k, &xlocal)
 *
 * Owned elements are stored first in a local vector, in the global vector's order (hoflow/mesh.h),
 * so interior work reads the global array with local node indices. An operator context starts with
 * an OpShell (or holds one) and calls OpShellDestroy in its destroy. */
#pragma once

#include <petscmat.h>
#include <petscdm.h>
#include <hoflow/device.h>
#include <hoflow/halo_ipc.h>

#define OPSHELL_NLOCAL 18 /* e.g. the incompressible operators: 6 inputs, 9 past velocities, 3 advecting components */

typedef struct _n_OpShellBatch *OpShellBatch; /* the batched halo exchange (core/opshell_batch.c) */

/* A call of a CUDA kernel launcher (or device helper) on an operator's device path: compiled only in
 * CUDA builds; elsewhere the path is unreachable (OpShellBegin refuses CUDA vectors) and yields -1. */
#if defined(HOFLOW_HAVE_CUDA)
#  define HOFLOW_CUDA(call) (call)
#else
#  define HOFLOW_CUDA(call) (-1)
#endif

typedef struct {
  const char        *name; /* what the operator is, for messages */
  DM                 dm;   /* the DM of the vectors (halo exchange and vector type); not owned */
  PetscBool          on_device;
  PetscBool          device_ready;
  HoflowDeviceArrays device; /* device copies of the kernel data, uploaded by device_setup */
  PetscErrorCode (*device_setup)(void *ctx);
  void     *ctx; /* passed to device_setup */
  Vec       local[OPSHELL_NLOCAL], local_device[OPSHELL_NLOCAL];
  void     *stream;                    /* the CUDA stream the call's kernels go to (PETSc's, or the side stream) */
  void     *stream_main;               /* PETSc's stream of the call */
  void     *side, *side_event[3];      /* the side stream (high priority) and its events, made at first use */
  PetscBool overlap;                   /* -halo_overlap: interior work while the halo is in flight */
  PetscBool split;                     /* -halo_split: the exchange and the work after it on the side stream */
  PetscBool halo_done[OPSHELL_NLOCAL]; /* the exchange of a slot already ended in OpShellHaloBegin */
  /* OpShellSetHaloReads: the star forest of what the operator reads from a local vector after the exchange
   * (NULL: the whole local vector, DMGlobalToLocal), whether it moves nothing anywhere, and the arrays of an
   * exchange in flight */
  PetscSF            halo_sf;
  PetscBool          halo_sf_empty;
  const PetscScalar *halo_root[OPSHELL_NLOCAL];
  PetscScalar       *halo_leaf[OPSHELL_NLOCAL];
  /* the filtered exchange on the device through CUDA IPC (hoflow/halo_ipc.h; NULL: PetscSF), set up at the first
   * device exchange; which slots' rounds in flight took it */
  HaloIPC   halo_ipc;
  PetscBool halo_ipc_ready, halo_ipc_slot[OPSHELL_NLOCAL];
  OpShellBatch       batch;                /* several ranks: the batched exchange (OpShellHaloSetUpBatch) */
} OpShell;

/* Name, DM and the routine that uploads the operator's kernel data at the first device call (may be NULL). */
PETSC_EXTERN PetscErrorCode OpShellInit(OpShell *op, const char name[], DM dm, PetscErrorCode (*device_setup)(void *), void *ctx);
PETSC_EXTERN PetscErrorCode OpShellDestroy(OpShell *op);
/* The backend of a call with input x; on the device, the kernel data are uploaded once and op->stream set. */
PETSC_EXTERN PetscErrorCode OpShellBegin(OpShell *op, Vec x, PetscBool *on_device);
/* Read/write arrays of global vectors on the call's backend (an error naming the operator otherwise). */
PETSC_EXTERN PetscErrorCode OpShellGetArrayRead(OpShell *op, Vec v, const PetscScalar **a);
PETSC_EXTERN PetscErrorCode OpShellRestoreArrayRead(OpShell *op, Vec v, const PetscScalar **a);
PETSC_EXTERN PetscErrorCode OpShellGetArrayWrite(OpShell *op, Vec v, PetscScalar **a);
PETSC_EXTERN PetscErrorCode OpShellRestoreArrayWrite(OpShell *op, Vec v, PetscScalar **a);
PETSC_EXTERN PetscErrorCode OpShellGetArray(OpShell *op, Vec v, PetscScalar **a);
PETSC_EXTERN PetscErrorCode OpShellRestoreArray(OpShell *op, Vec v, PetscScalar **a);
/* The halo exchange of global vector g into local slot k (0..OPSHELL_NLOCAL-1) of the call's backend.
 * Operators compute what needs only owned data (interior elements) between Begin and End. With
 * -halo_overlap 0 (run-wide; default 1) Begin completes the exchange itself, so the same operators
 * run without overlap: the measurement of what the overlap gains. */
PETSC_EXTERN PetscErrorCode OpShellHaloBegin(OpShell *op, PetscInt k, Vec g);
PETSC_EXTERN PetscErrorCode OpShellHaloEnd(OpShell *op, PetscInt k, Vec g, const PetscScalar **local);
PETSC_EXTERN PetscErrorCode OpShellHaloRestore(OpShell *op, PetscInt k, const PetscScalar **local);
/* What the operator reads from a local vector after the exchange: every halo value and the owned values of the
 * n index ranges [start[i], start[i] + len[i]) of the local vector (the owned elements whose work follows the
 * exchange and their owned neighbours), so that the exchange moves only those instead of the whole vector (on
 * one rank, where the work after the exchange is empty: nothing). The other owned values of the local vector
 * are then undefined. -halo_local full keeps the whole-vector exchange (the measurement of what this saves). */
/* The halo values of op's DM: the section star forest's leaves on other ranks (local index ghost_local[i] from
 * ghost_remote[i], nghost of them; both allocated, for the caller to free), after checking the layout every filtered
 * exchange relies on: the local vector is the nowned owned values in the global order, then the halo values. */
PETSC_EXTERN PetscErrorCode OpShellHaloLeaves(OpShell *op, PetscInt *nowned, PetscInt *nghost, PetscInt **ghost_local, PetscSFNode **ghost_remote);
PETSC_EXTERN PetscErrorCode OpShellSetHaloReads(OpShell *op, PetscInt n, const PetscInt start[], const PetscInt len[]);
/* The halo exchange of n global vectors g[n] (n <= HALO_NMAX, 12) into local slots slot[n] (NULL: 0..n-1)
 * in one message per neighbour
 * (one pack, one star forest with a unit of n scalars, one unpack; core/opshell_batch.c), the same bits as
 * n OpShellHaloBegin/End pairs; each slot restored with OpShellHaloRestore. OpShellHaloSetUpBatch builds
 * its star forests (and the DM's section star forest) once, at operator creation; without it, or on one
 * rank, or for one vector, the calls are n single exchanges. */
PETSC_EXTERN PetscErrorCode OpShellHaloSetUpBatch(OpShell *op);
PETSC_EXTERN PetscErrorCode OpShellHaloBeginMany(OpShell *op, PetscInt n, const PetscInt slot[], const Vec g[]);
PETSC_EXTERN PetscErrorCode OpShellHaloEndMany(OpShell *op, PetscInt n, const PetscInt slot[], const Vec g[], const PetscScalar *local[]);
PETSC_EXTERN PetscErrorCode OpShellBatchDestroy(OpShell *op);
/* The side stream of a device call (-halo_split, default on): PETSC_TRUE when the call may queue the exchange and
 * the work after it on a second stream, beside the interior work on PETSc's: on the device, with overlap, and when
 * the exchange takes the CUDA IPC transport (its rounds are kernels, so they can go to any stream; PetscSF's pack
 * and unpack run on PETSc's stream). OpShellStreamOrder(op, k, from_side) records event k (0..2) on one stream
 * and makes the other wait for it; OpShellStreamUse(op, side) sends the next kernels to the side stream or back
 * to PETSc's. A call must end on PETSc's stream, after ordering it after the side stream's work. */
PETSC_EXTERN PetscErrorCode OpShellSplitAvailable(OpShell *op, PetscBool *split);
PETSC_EXTERN PetscErrorCode OpShellStreamOrder(OpShell *op, PetscInt k, PetscBool from_side);
PETSC_EXTERN PetscErrorCode OpShellStreamUse(OpShell *op, PetscBool side);
/* Create the local vectors of slots 0..n-1 on the DM's backend now (at operator creation, so that the first
 * call does not allocate them inside whatever solver setup runs it first; the other backend's on first use). */
PETSC_EXTERN PetscErrorCode OpShellCreateLocal(OpShell *op, PetscInt n);
/* The local vector of slot k on the call's backend (created on first use), e.g. to zero it. */
PETSC_EXTERN PetscErrorCode OpShellGetLocal(OpShell *op, PetscInt k, Vec *local);
/* A log event around kernels: GPU timer on the device; flops on the backend's counter at the end. */
PETSC_EXTERN PetscErrorCode OpShellEventBegin(OpShell *op, PetscLogEvent event);
PETSC_EXTERN PetscErrorCode OpShellEventEnd(OpShell *op, PetscLogEvent event, PetscLogDouble flops);
/* Error naming the operator and kernel when a kernel (host 0, CUDA cudaError_t) failed. */
PETSC_EXTERN PetscErrorCode OpShellCheckKernel(OpShell *op, int err, const char kernel[]);
/* A MatShell of n local rows and columns on the DM's communicator with ctx, MatMult and destroy, its
 * vector type following the DM's (so KSP work vectors live where the operator runs). */
PETSC_EXTERN PetscErrorCode OpShellCreateMat(OpShell *op, PetscInt n, void *ctx, void (*mult)(void), void (*destroy)(void), Mat *A);
