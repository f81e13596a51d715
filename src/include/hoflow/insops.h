/* The operators of incompressible flow on nodal DG (op/ins.c, seed 000 §2.1, §5.3; kernels in
 * hoflow/kernels/ins.h): advection with cubature and the local Lax–Friedrichs flux, the gradient G
 * and divergence D with central fluxes, and the face data of the velocity and pressure solves, on
 * a 2D mesh of one element shape. Inputs are global DG vectors (the halo exchange overlaps the
 * interior elements' work); each call runs the host kernels or their CUDA twins by vector type. */
#pragma once

#include <hoflow/dg.h>

typedef struct _n_INSOps *INSOps;
/* Spatial boundary data at a boundary point x with outward normal n: values = (u_D, v_D) on
 * Dirichlet faces, (du/dn, dv/dn) and p_D on outflow faces, where (u_D, v_D) is also the velocity of
 * backflow (flow entering through an outflow face; e.g. the free stream). The time dependence is
 * a factor the caller applies. */
typedef PetscErrorCode (*INSBoundaryFunction)(const PetscReal x[], const PetscReal n[], PetscReal values[5], void *ctx);
/* face_type: the velocity's boundary conditions [nslots] (NULL: the mesh's). */
PETSC_EXTERN PetscErrorCode INSOpsCreate(DGDisc *dg, const PetscInt face_type[], INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsDestroy(INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsGetFaceTypes(INSOps ops, const PetscInt **face_type);
PETSC_EXTERN PetscErrorCode INSOpsSetBoundaryData(INSOps ops, INSBoundaryFunction bc, void *ctx);
/* out = N~(a; c) (hoflow/kernels/ins.h INSAdvectionHost): advection of (cu, cv) by (au, av), global vectors. */
PETSC_EXTERN PetscErrorCode INSOpsAdvection(INSOps ops, Vec au, Vec av, Vec cu, Vec cv, PetscReal lambda_scale, PetscReal bc_scale, Vec out_u, Vec out_v);
/* (gx, gy) = G p with the outflow data p* = bc_scale p_D + trace_scale trace(ptrace) (ptrace may be NULL). */
PETSC_EXTERN PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, Vec gx, Vec gy);
/* div = D (u, v) with Dirichlet data bc_scale g. */
PETSC_EXTERN PetscErrorCode INSOpsDivergence(INSOps ops, Vec u, Vec v, PetscReal bc_scale, Vec div);
/* A sequential vector of face-node values [elem_fnode[K]] on the discretization's backend. */
PETSC_EXTERN PetscErrorCode INSOpsCreateFaceVector(INSOps ops, Vec *face);
/* face = alpha bcn[component] + beta trace(x) on boundary faces of type `type` (-1: all), else 0. */
PETSC_EXTERN PetscErrorCode INSOpsFaceData(INSOps ops, PetscInt type, PetscInt component, PetscReal alpha, PetscReal beta, Vec x, Vec face);
/* Host evaluations for output and monitors: the vorticity dv/dx - du/dy (element-local derivatives)
 * and the force of the fluid on the boundary faces in mask[nslots] (MeshGetGroupFaces),
 * F = int (p n - nu (grad u + grad u^T) n) ds with n the fluid's outward normal, summed over ranks. */
PETSC_EXTERN PetscErrorCode INSOpsVorticity(INSOps ops, Vec u, Vec v, Vec omega);
PETSC_EXTERN PetscErrorCode INSOpsBoundaryForce(INSOps ops, PetscReal nu, Vec u, Vec v, Vec p, const PetscBool mask[], PetscReal force[2]);
/* Seconds per run of the advection N(u) (a = c = (u, v)), gradient G u and divergence D (u, v)
 * kernels, averaged over reps, on the backend u lives on, without the halo exchange. For benchmarks. */
PETSC_EXTERN PetscErrorCode INSOpsTimeKernels(INSOps ops, Vec u, Vec v, PetscInt reps, PetscReal seconds[3]);
