/* hoflow preconditioners, registered with PETSc so -pc_type selects them like built-in ones. */
#pragma once

#include <petscksp.h>

/* -pc_type inverse_mass: the element-wise inverse DG mass matrix (seed 000 §3). */
PETSC_EXTERN PetscErrorCode PCCreate_InverseMass(PC pc);
/* -pc_type pmg: p-multigrid on matrix-free SIPDG levels with an AMG coarse solve (pMG-AMG). */
PETSC_EXTERN PetscErrorCode PCCreate_PMG(PC pc);
typedef enum {
  HOFLOW_PMAT_SHELL,
  HOFLOW_PMAT_ASSEMBLED,
  HOFLOW_PMAT_LOR
} HoflowPmatType;
PETSC_EXTERN const char *const HoflowPmatTypes[];
/* KSPSetOperators(ksp, A, P) for a SIPDG operator A, with P chosen by -[prefix]pmat shell|assembled|lor
 * (solver/pmat.c). Attach A's null space before calling: assembled matrices inherit it. */
PETSC_EXTERN PetscErrorCode HoflowKSPSetOperators(KSP ksp, Mat A);
/* Register hoflow's PC types (idempotent). */
PETSC_EXTERN PetscErrorCode HoflowSolverRegisterAll(void);
