/* hoflow registries are PETSc function lists (problems, physics, discretizations); this is the lookup
 * they share (core/registry.c). */
#pragma once

#include <petscsys.h>

/* The function registered as `name`; an error naming the option and listing the registered names otherwise. */
PETSC_EXTERN PetscErrorCode HoflowRegistryFind(MPI_Comm comm, PetscFunctionList list, const char option[], const char name[], void (**fn)(void));
