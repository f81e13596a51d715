/* hoflow operators: PETSc MatShells whose MatMult runs a host kernel (src/op) or its CUDA twin. */
#pragma once

#include <hoflow/disc.h>

/* The DG mass matrix (block diagonal, J M per element) or its inverse as a MatShell. */
PETSC_EXTERN PetscErrorCode DGMassOperatorCreate(DGDisc *disc, PetscBool inverse, Mat *M);
/* The SIPDG operator A = -Laplace + lambda of seed 000, eqs. (23), (28), homogeneous boundary conditions. */
PETSC_EXTERN PetscErrorCode IPDGOperatorCreate(DGDisc *disc, PetscReal lambda, Mat *A);
/* The same with the boundary conditions of each boundary face given per operator (face_type[K*Nfaces],
 * HOFLOW_FACE_*; NULL: the mesh's), e.g. the pressure of incompressible flow, Dirichlet where the
 * velocity is Neumann. The array is copied. */
PETSC_EXTERN PetscErrorCode IPDGOperatorCreateWithFaceTypes(DGDisc *disc, PetscReal lambda, const PetscInt face_type[], Mat *A);
/* The boundary conditions of a SIPDG operator: [K*Nfaces] HOFLOW_FACE_* (owned by the operator). */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetFaceTypes(Mat A, const PetscInt **face_type);
/* The discretization behind a SIPDG operator; error if A is not one (names what it is). */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetDisc(Mat A, DGDisc **disc);
/* b -= A_bc(0): the inhomogeneous boundary data bc_data (DGDiscBoundaryData) moved to the right-hand side. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAddBoundaryData(Mat A, const PetscReal bc_data[], Vec b);
/* Seconds per application of the gradient and apply kernels, averaged over reps, on the backend
 * x lives on (host kernels for host vectors, CUDA kernels for CUDA vectors). For benchmarks. */
PETSC_EXTERN PetscErrorCode IPDGOperatorTimeKernels(Mat A, Vec x, PetscInt reps, PetscReal *t_gradient, PetscReal *t_apply);
/* The screening constant lambda of a SIPDG operator. */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetLambda(Mat A, PetscReal *lambda);
/* The same operator assembled independently from the SIPDG bilinear form (MatSetValuesCOO) into
 * an AIJ matrix, AIJCUSPARSE when the discretization's vectors are CUDA vectors; options prefix
 * ipdg_assembled_. The operator's null space, if any, is attached to it. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAssemble(Mat A, Mat *assembled);
/* The low-order-refined operator of the same problem (op/lor.c), assembled like IPDGOperatorAssemble
 * (options prefix lor_assembled_): see there. */
PETSC_EXTERN PetscErrorCode LOROperatorAssemble(Mat A, Mat *assembled);
/* A sparse matrix from COO triplets (row, col global; repeated entries add) on the communicator
 * of dm, AIJ or AIJCUSPARSE by the DM's vector type, with options prefix `prefix`. */
PETSC_EXTERN PetscErrorCode HoflowMatCreateCOO(DM dm, const char prefix[], PetscInt n, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[], const PetscScalar v[], Mat *B);
/* p-multigrid transfer (op/transfer.c): prolongation from the order of `coarse` to the order of
 * `fine` on the same mesh by nodal interpolation; MatMultTranspose restricts. */
PETSC_EXTERN PetscErrorCode DGTransferCreate(DGDisc *coarse, DGDisc *fine, Mat *P);
/* b -= A_bc(bc) with face data in a vector (INSOpsCreateFaceVector: [K*Nfaces*Nfp], the operator's
 * Dirichlet values and Neumann data at face nodes) on the backend of b: the boundary data of a solve
 * moved to the right-hand side without leaving the device. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAddBoundaryDataVec(Mat A, Vec bc, Vec b);

/* ---- incompressible flow operators (op/ins.c, seed 000 §2.1, §5.3; kernels.h INSKernelData) ---- */
typedef struct _n_INSOps *INSOps;
/* Spatial boundary data at a boundary point x with outward normal n: values = (u_D, v_D) on
 * Dirichlet faces, (du/dn, dv/dn) and p_D on outflow faces, where (u_D, v_D) is also the velocity of
 * backflow (flow entering through an outflow face; e.g. the free stream). The time dependence is
 * a factor the caller applies. */
typedef PetscErrorCode (*INSBoundaryFunction)(const PetscReal x[], const PetscReal n[], PetscReal values[5], void *ctx);
/* face_type: the velocity's boundary conditions [K*Nfaces] (NULL: the mesh's). */
PETSC_EXTERN PetscErrorCode INSOpsCreate(DGDisc *disc, const PetscInt face_type[], INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsDestroy(INSOps *ops);
PETSC_EXTERN PetscErrorCode INSOpsGetFaceTypes(INSOps ops, const PetscInt **face_type);
PETSC_EXTERN PetscErrorCode INSOpsSetBoundaryData(INSOps ops, INSBoundaryFunction bc, void *ctx);
/* out = N~(a; c) (kernels.h INSAdvectionHost): advection of (cu, cv) by (au, av), global vectors. */
PETSC_EXTERN PetscErrorCode INSOpsAdvection(INSOps ops, Vec au, Vec av, Vec cu, Vec cv, PetscReal lambda_scale, PetscReal bc_scale, Vec out_u, Vec out_v);
/* (gx, gy) = G p with the outflow data p* = bc_scale p_D + trace_scale trace(ptrace) (ptrace may be NULL). */
PETSC_EXTERN PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, Vec gx, Vec gy);
/* div = D (u, v) with Dirichlet data bc_scale g. */
PETSC_EXTERN PetscErrorCode INSOpsDivergence(INSOps ops, Vec u, Vec v, PetscReal bc_scale, Vec div);
/* A sequential vector of face-node values [K*Nfaces*Nfp] on the discretization's backend. */
PETSC_EXTERN PetscErrorCode INSOpsCreateFaceVector(INSOps ops, Vec *face);
/* face = alpha bcn[component] + beta trace(x) on boundary faces of type `type` (-1: all), else 0. */
PETSC_EXTERN PetscErrorCode INSOpsFaceData(INSOps ops, PetscInt type, PetscInt component, PetscReal alpha, PetscReal beta, Vec x, Vec face);
/* Host evaluations for output and monitors: the vorticity dv/dx - du/dy (element-local derivatives)
 * and the force of the fluid on the boundary faces in mask[K*Nfaces] (MeshGetGroupFaces),
 * F = int (p n - nu (grad u + grad u^T) n) ds with n the fluid's outward normal, summed over ranks. */
PETSC_EXTERN PetscErrorCode INSOpsVorticity(INSOps ops, Vec u, Vec v, Vec omega);
PETSC_EXTERN PetscErrorCode INSOpsBoundaryForce(INSOps ops, PetscReal nu, Vec u, Vec v, Vec p, const PetscBool mask[], PetscReal force[2]);
/* Seconds per run of the advection N(u) (a = c = (u, v)), gradient G u and divergence D (u, v)
 * kernels, averaged over reps, on the backend u lives on (host kernels for host vectors, CUDA
 * kernels for CUDA vectors), without the halo exchange. For benchmarks. */
PETSC_EXTERN PetscErrorCode INSOpsTimeKernels(INSOps ops, Vec u, Vec v, PetscInt reps, PetscReal seconds[3]);
