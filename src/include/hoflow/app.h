/* hoflow application object: options, problem, mesh, discretization, operator and solver. */
#pragma once

#include <petscksp.h>
#include <hoflow/problem.h>
#include <hoflow/op.h>
#include <hoflow/log.h>

typedef struct {
  MPI_Comm       comm;
  char           problem_name[64], disc_name[64];
  PetscInt       order;
  Problem        problem;
  Mesh          *mesh;
  DGDisc        *disc;
  Mat            A;
  KSP            ksp;
  Vec            u, b;
  MatNullSpace   nullspace; /* constants, for pure Neumann Poisson; NULL otherwise */
  PetscReal      l2_error;
  PetscInt       iterations;
  PetscLogDouble setup_time, solve_time; /* seconds: preconditioning matrix, PCSetUp and KSPSetUp; KSPSolve */
  PetscLogDouble pc_memory[2];           /* bytes the preconditioner holds (its matrix and PCSetUp), host and device, summed over ranks */
} App;

typedef PetscErrorCode (*DiscretizationCreateFunction)(App *app);
PETSC_EXTERN PetscFunctionList DiscretizationList;

PETSC_EXTERN PetscErrorCode AppCreate(MPI_Comm comm, App **app);
PETSC_EXTERN PetscErrorCode AppSolve(App *app);
PETSC_EXTERN PetscErrorCode AppReport(App *app);
PETSC_EXTERN PetscErrorCode AppDestroy(App **app);
