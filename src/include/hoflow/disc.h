/* hoflow nodal discontinuous Galerkin discretization: Np nodes per cell, node-major within a
 * cell, described to PETSc by a PetscSection on a clone of the mesh DM, so DMCreateGlobalVector,
 * DMGlobalToLocal (halo exchange) and VecView work unchanged. */
#pragma once

#include <hoflow/mesh.h>
#include <hoflow/kernels.h>

typedef struct {
  Mesh        *mesh;
  RefElement  *ref;
  DM           dm; /* clone of mesh->dm carrying the DG section */
  PetscInt     N, Np;
  PetscReal   *x, *y; /* [Klocal*Np] physical node coordinates */
  PetscInt    *vmapP; /* [K*Nfaces*Nfp] local node index of the exterior trace (self on the boundary) */
  PetscReal   *sgeo;  /* [K*Nfaces*HOFLOW_SGEO_SIZE] nx ny sJ/J tau */
  PetscReal    penalty_scale;
  DGKernelData kd;        /* element-wise kernels (mass, cubature) on the host ... */
  DGKernelData kd_device; /* ... and on the device, uploaded on first use (CUDA builds) */
  PetscBool    device_ready;
  void        *device_arrays[6];
} DGDisc;

/* A pointwise function of position: value and (when grad is not NULL) gradient. */
typedef PetscErrorCode (*PointFunction)(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx);

PETSC_EXTERN PetscErrorCode DGDiscCreate(Mesh *mesh, PetscInt N, DGDisc **disc);
PETSC_EXTERN PetscErrorCode DGDiscDestroy(DGDisc **disc);
/* b_{e,i} += (l_i, f)_E by the element cubature (exact to degree 2N+1). */
PETSC_EXTERN PetscErrorCode DGDiscAddWeightedIntegral(DGDisc *disc, PointFunction f, void *ctx, Vec b);
/* ||u - exact||_L2 by the element cubature. */
PETSC_EXTERN PetscErrorCode DGDiscL2Error(DGDisc *disc, Vec u, PointFunction exact, void *ctx, PetscReal *error);
/* Upload the element-wise kernel data to the device (once); error without CUDA. */
PETSC_EXTERN PetscErrorCode DGDiscDeviceSetUp(DGDisc *disc);
/* Boundary data at face nodes [K*Nfaces*Nfp]: exact value on Dirichlet faces, n.grad exact on
 * Neumann faces; face_type: [K*Nfaces] HOFLOW_FACE_* (NULL: the mesh's). */
PETSC_EXTERN PetscErrorCode DGDiscBoundaryData(DGDisc *disc, const PetscInt face_type[], PointFunction exact, void *ctx, PetscReal **bc_data);
