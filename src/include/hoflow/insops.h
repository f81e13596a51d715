/* The operators of incompressible flow on nodal DG (op/ins.c, seed 000 §2.1, §5.3; kernels in
 * hoflow/kernels/ins.h): advection with cubature and the local Lax–Friedrichs flux, the gradient G
 * and divergence D with central fluxes, and the face data of the velocity and pressure solves, on
 * a 2D or 3D mesh of one element shape (triangles, quadrilaterals, tetrahedra or hexahedra). The
 * velocity is dim separate DG fields (u, v[, w]). Inputs are global DG vectors (the halo exchange overlaps the
 * interior elements' work); each call runs the host kernels or their CUDA twins by vector type. */
#pragma once

#include <hoflow/dg.h>

typedef struct _n_INSOps *INSOps;
/* Spatial boundary data at a boundary point x[dim] with outward normal n[dim], 2 dim + 1 values:
 * values[0..dim) the velocity u_D (Dirichlet faces), values[dim..2 dim) its normal derivative
 * du/dn and values[2 dim] the pressure p_D (outflow faces), where u_D is also the velocity of
 * backflow (flow entering through an outflow face; e.g. the free stream). In 2D that is
 * (u_D, v_D, du/dn, dv/dn, p_D). The time dependence is a factor the caller applies. */
typedef PetscErrorCode (*INSBoundaryFunction)(const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx);
/* The same with the mesh's face slot of the point (data that differ by boundary group). */
typedef PetscErrorCode (*INSBoundaryFaceFunction)(PetscInt slot, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx);
/* face_type: the velocity's boundary conditions [nslots] (NULL: the mesh's). */
PETSC_EXTERN PetscErrorCode INSOpsCreate(DGDisc *dg, const PetscInt face_type[], INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsDestroy(INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsGetFaceTypes(INSOps ops, const PetscInt **face_type);
PETSC_EXTERN PetscErrorCode INSOpsSetBoundaryData(INSOps ops, INSBoundaryFunction bc, void *ctx);
/* Evaluate the boundary data face by face on the boundary faces' nodes and cubature points (host);
 * may be called again (time-dependent data): after the first device use the face arrays are then
 * copied into the device's (face-trace arrays, never volume vectors). */
PETSC_EXTERN PetscErrorCode INSOpsSetBoundaryDataFaces(INSOps ops, INSBoundaryFaceFunction bc, void *ctx);
/* out[dim] = N~(a; c) (hoflow/kernels/ins.h INSAdvectionHost): advection of c[dim] by a[dim], global vectors. */
PETSC_EXTERN PetscErrorCode INSOpsAdvection(INSOps ops, const Vec a[], const Vec c[], PetscReal lambda_scale, PetscReal bc_scale, const Vec out[]);
/* out[dim] = N~(a; c) with the advecting velocity a = sum_j w[j] a_j of n past velocities hist[j dim + comp]
 * (the subcycles' extrapolation, seed 000 eq. 20): the past velocities' halos are exchanged only when they
 * changed since the last call (object state), together with c's, and a is formed on the local vectors, so
 * each call of a step but the first exchanges c alone, in one exchange. The same bits as forming a on the
 * global vectors and calling INSOpsAdvection with lambda_scale 1. */
PETSC_EXTERN PetscErrorCode INSOpsAdvectionExtrapolated(INSOps ops, PetscInt n, const Vec hist[], const PetscReal w[], const Vec c[], PetscReal bc_scale, const Vec out[]);
/* g[dim] = G p with the outflow data p* = bc_scale p_D + trace_scale trace(ptrace) (ptrace may be NULL). */
PETSC_EXTERN PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, const Vec g[]);
/* div = D u (u[dim]) with Dirichlet data bc_scale g. */
PETSC_EXTERN PetscErrorCode INSOpsDivergence(INSOps ops, const Vec u[], PetscReal bc_scale, Vec div);
/* A sequential vector of face-node values [elem_fnode[K]] on the discretization's backend. */
PETSC_EXTERN PetscErrorCode INSOpsCreateFaceVector(INSOps ops, Vec *face);
/* face = alpha bcn[component] + beta trace(x) on boundary faces of type `type` (-1: all), else 0;
 * components 0..dim-1 are the velocity's, dim the pressure. */
PETSC_EXTERN PetscErrorCode INSOpsFaceData(INSOps ops, PetscInt type, PetscInt component, PetscReal alpha, PetscReal beta, Vec x, Vec face);
/* Host evaluations for output and monitors: the vorticity curl u (element-local derivatives): in 2D
 * dv/dx - du/dy (component -1); in 3D its component 0, 1, 2 or its magnitude (-1); and the force
 * F[dim] of the fluid on the boundary faces in mask[nslots] (MeshGetGroupFaces),
 * F = int (p n - nu (grad u + grad u^T) n) ds with n the fluid's outward normal, summed over ranks. */
PETSC_EXTERN PetscErrorCode INSOpsVorticity(INSOps ops, const Vec u[], PetscInt component, Vec omega);
PETSC_EXTERN PetscErrorCode INSOpsBoundaryForce(INSOps ops, PetscReal nu, const Vec u[], Vec p, const PetscBool mask[], PetscReal force[]);
/* Seconds per run of the advection N(u) (a = c = u), gradient G u[0] and divergence D u kernels,
 * averaged over reps, on the backend u lives on, without the halo exchange. For benchmarks. */
PETSC_EXTERN PetscErrorCode INSOpsTimeKernels(INSOps ops, const Vec u[], PetscInt reps, PetscReal seconds[3]);
