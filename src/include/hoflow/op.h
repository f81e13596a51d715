/* hoflow operators: PETSc MatShells whose MatMult runs a host kernel (src/op) or its CUDA twin. */
#pragma once

#include <hoflow/disc.h>

/* The DG mass matrix (block diagonal, J M per element) or its inverse as a MatShell. */
PETSC_EXTERN PetscErrorCode DGMassOperatorCreate(DGDisc *disc, PetscBool inverse, Mat *M);
/* The SIPDG operator A = -Laplace + lambda of seed 000, eqs. (23), (28), homogeneous boundary conditions. */
PETSC_EXTERN PetscErrorCode IPDGOperatorCreate(DGDisc *disc, PetscReal lambda, Mat *A);
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
