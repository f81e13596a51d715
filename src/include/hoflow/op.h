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
/* The same operator assembled independently from the SIPDG bilinear form into an AIJ matrix. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAssemble(Mat A, Mat *assembled);
