/* hoflow preconditioners and smoothers, registered with PETSc so -pc_type and -ksp_type select them
 * like built-in ones. */
#pragma once

#include <petscksp.h>

/* -pc_type inverse_mass: the element-wise inverse DG mass matrix (seed 000 §3). */
PETSC_EXTERN PetscErrorCode PCCreate_InverseMass(PC pc);
/* -pc_type pmg: p-multigrid on matrix-free SIPDG levels with an AMG coarse solve (pMG-AMG). */
PETSC_EXTERN PetscErrorCode PCCreate_PMG(PC pc);
/* The Chebyshev degree every -pc_type pmg of a run starts from: -pc_pmg_chebyshev_degree_default
 * (unprefixed, one setting for the elliptic, velocity and pressure solves alike; 2 unless given),
 * read from `options` (NULL: the global database). A PC's own -[prefix]pc_pmg_chebyshev_degree
 * overrides it. */
PETSC_EXTERN PetscErrorCode PCPMGGetDefaultChebyshevDegree(PetscOptions options, PetscInt *degree);
/* -ksp_type chebyjacobi: Chebyshev/Jacobi with one fused vector kernel per iteration (the p-multigrid
 * smoother); bounds from KSPChebyshevSetEigenvalues or estimated. */
#define KSPCHEBYJACOBI "chebyjacobi"
PETSC_EXTERN PetscErrorCode KSPCreate_ChebyJacobi(KSP ksp);
/* lambda_max of D^{-1} A from `steps` CG/Jacobi iterations on a fixed pseudo-random right-hand side
 * (the same on any number of ranks and backend), with a KSP destroyed afterwards. */
PETSC_EXTERN PetscErrorCode HoflowEstimateMaxEigenvalue(Mat A, PetscInt steps, PetscReal *emax);
typedef enum {
  HOFLOW_PMAT_SHELL,
  HOFLOW_PMAT_ASSEMBLED,
  HOFLOW_PMAT_LOR
} HoflowPmatType;
PETSC_EXTERN const char *const HoflowPmatTypes[];
/* KSPSetOperators(ksp, A, P) for a SIPDG operator A, with P chosen by -[prefix]pmat shell|assembled|lor
 * (solver/pmat.c). Attach A's null space before calling: assembled matrices inherit it. */
PETSC_EXTERN PetscErrorCode HoflowKSPSetOperators(KSP ksp, Mat A);
/* Register hoflow's PC and KSP types (idempotent). */
PETSC_EXTERN PetscErrorCode HoflowSolverRegisterAll(void);
