/* hoflow's side of the CUDA backend: which backend a vector selects, PETSc's current stream, checked
 * device uploads and a registry of an object's device arrays. Compiles in every build; without CUDA
 * the device calls error out. */
#pragma once

#include <petscvec.h>
#include <petscdm.h>

/* PETSC_TRUE when v is a CUDA vector: operators then run their CUDA kernels. */
PETSC_EXTERN PetscErrorCode HoflowVecIsCUDA(Vec v, PetscBool *is_cuda);
/* PETSC_TRUE when the DM creates CUDA vectors (-dm_vec_type cuda, seqcuda, mpicuda). */
PETSC_EXTERN PetscErrorCode HoflowDMIsCUDA(DM dm, PetscBool *is_cuda);
/* One GPU per rank, before any device work: when the run uses CUDA vectors (-dm_vec_type cuda...),
 * rank r of the ranks of one host takes visible device r mod count (unless -device_select_cuda is
 * given or PETSc has already chosen), and ranks of one host that land on the same physical GPU are an error naming them, unless
 * -gpu_shared allows it (slower: the ranks time-share the GPU). A rank that sees no GPU is an error. */
PETSC_EXTERN PetscErrorCode HoflowDeviceSelect(MPI_Comm comm);
/* w = x .* y, x ./ y and min(x, y) where w may be x or y. PETSc 3.22's CUDA VecPointwiseMult/Divide take write access to w
 * before read access to the inputs (the order C++ evaluates a call's arguments in): an aliased input whose current
 * values are on the host is then read from a stale device copy (the steady Stokes right-hand side M f came out zero
 * on the H100). These bring an aliased output's values to its backend first; without aliasing they are PETSc's. */
PETSC_EXTERN PetscErrorCode HoflowVecPointwiseMult(Vec w, Vec x, Vec y);
PETSC_EXTERN PetscErrorCode HoflowVecPointwiseDivide(Vec w, Vec x, Vec y);
PETSC_EXTERN PetscErrorCode HoflowVecPointwiseMin(Vec w, Vec x, Vec y);
/* The cudaStream_t of PETSc's current device context, so hoflow's kernels order with PETSc's. */
PETSC_EXTERN PetscErrorCode HoflowGetCUDAStream(void **stream);
/* Allocate device memory and copy `bytes` from host (host may be NULL: allocation only). */
PETSC_EXTERN PetscErrorCode HoflowDeviceUploadChecked(const void *host, size_t bytes, void **device);
PETSC_EXTERN PetscErrorCode HoflowDeviceFreeChecked(void *device);
/* Copy `bytes` from host into the existing device array, ordered on stream (a cudaStream_t). */
PETSC_EXTERN PetscErrorCode HoflowDeviceCopyToChecked(void *device, const void *host, size_t bytes, void *stream);
/* Copy `bytes` between two device arrays, asynchronous on stream (a cudaStream_t; NULL: PETSc's current one). */
PETSC_EXTERN PetscErrorCode HoflowDeviceCopyOnDeviceChecked(void *dst, const void *src, size_t bytes, void *stream);

/* Wait until every kernel and copy queued on the device (all streams, hypre's included) has ended, where this rank
 * uses a GPU (a no-op otherwise). */
PETSC_EXTERN PetscErrorCode HoflowDeviceSynchronizeChecked(void);

/* The device arrays of one object, freed together. */
typedef struct {
  void   **ptr;
  PetscInt n, size;
} HoflowDeviceArrays;
/* Upload `bytes` from host (NULL: allocate only) into a new device array of the registry. */
PETSC_EXTERN PetscErrorCode HoflowDeviceArraysUpload(HoflowDeviceArrays *arrays, const void *host, size_t bytes, const void **device);
/* The transpose of a row-major rows x cols matrix (column-major copy: coalesced reads across a warp) uploaded. */
PETSC_EXTERN PetscErrorCode HoflowDeviceArraysUploadTranspose(HoflowDeviceArrays *arrays, PetscInt rows, PetscInt cols, const PetscReal A[], const double **device);
PETSC_EXTERN PetscErrorCode HoflowDeviceArraysFree(HoflowDeviceArrays *arrays);
