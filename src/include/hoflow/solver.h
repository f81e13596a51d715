/* hoflow preconditioners, registered with PETSc so -pc_type selects them like built-in ones. */
#pragma once

#include <petscpc.h>

/* -pc_type inverse_mass: the element-wise inverse DG mass matrix (seed 000 §3). */
PETSC_EXTERN PetscErrorCode PCCreate_InverseMass(PC pc);
/* Register hoflow's PC types (idempotent). */
PETSC_EXTERN PetscErrorCode HoflowSolverRegisterAll(void);
