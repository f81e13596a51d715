/* The peer-to-peer halo transport between the GPUs of one host: a star forest's broadcast (roots to leaves,
 * MPI_REPLACE, unit scalars an entry) done by kernels that write into the neighbours' GPU memory through CUDA
 * IPC and order the rounds by flags in device memory (kernels/halo.h), instead of PetscSF's pack, stream
 * synchronization, MPI messages and unpack. A round costs two kernel launches and no host synchronization, so
 * the interior work queued between Begin and End overlaps it on the GPU.
 *
 * -halo_transport auto|ipc|mpi (default auto): auto takes it where every rank of the communicator is on one host
 * with a GPU of its own and the IPC mappings open, and keeps PetscSF otherwise; ipc is an error where it cannot;
 * mpi is PetscSF always. One round of an object may be in flight at a time (HaloIPCBusy). */
#pragma once

#include <petscsf.h>

typedef struct _n_HaloIPC *HaloIPC;

/* Collective on the star forest's communicator: *ipc is NULL where the transport is not taken (one rank, a host
 * build, -halo_transport mpi, ranks on several hosts or sharing a GPU, a mapping that would not open). Entries
 * carry at most unit_max scalars. name names the exchange in messages. */
PETSC_EXTERN PetscErrorCode HaloIPCCreate(PetscSF sf, PetscInt unit_max, const char name[], HaloIPC *ipc);
/* Collective: waits for the device, then unmaps and frees once every rank has. */
PETSC_EXTERN PetscErrorCode HaloIPCDestroy(HaloIPC *ipc);
/* A round on the device arrays root and leaf (unit scalars an entry), queued on stream: Begin sends the roots
 * and copies this rank's own leaves, End waits for the neighbours' values and writes the other leaves. */
PETSC_EXTERN PetscErrorCode HaloIPCBegin(HaloIPC ipc, PetscInt unit, const PetscScalar *root, PetscScalar *leaf, void *stream);
PETSC_EXTERN PetscErrorCode HaloIPCEnd(HaloIPC ipc, PetscInt unit, PetscScalar *leaf, void *stream);
/* PETSC_TRUE while a round is in flight (Begin without End): a second round must take another path. */
PETSC_EXTERN PetscErrorCode HaloIPCBusy(HaloIPC ipc, PetscBool *busy);
