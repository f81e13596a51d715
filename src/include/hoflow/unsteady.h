/* hoflow's time-dependent driver: a PETSc TS over the App's discretization, with field output,
 * checkpoint/restart, CSV monitors and a progress line (hoflow/io.h). Problems name their
 * physics (Problem.physics); a physics is registered by name in UnsteadyPhysicsList and sets up
 * the TS residual, Jacobian and initial condition. */
#pragma once

#include <petscts.h>
#include <hoflow/app.h>
#include <hoflow/io.h>

typedef struct Unsteady Unsteady;

struct Unsteady {
  App     *app; /* problem, mesh, discretization, stiffness operator (app->A), state (app->u) */
  MPI_Comm comm;
  TS       ts;
  void    *physics; /* the physics' context, destroyed by physics_destroy */
  PetscErrorCode (*physics_destroy)(void **physics);
  /* output, checkpoints, monitors (options under "Output, checkpoints and monitors") */
  char        output_dir[PETSC_MAX_PATH_LEN], checkpoint_file[PETSC_MAX_PATH_LEN], restart_file[PETSC_MAX_PATH_LEN], monitor_file[PETSC_MAX_PATH_LEN];
  PetscInt    output_interval, checkpoint_interval, checkpoint_kill_step;
  PetscReal   progress_interval;
  OutputMesh *output_mesh;
  FieldWriter writer;
  Checkpoint  checkpoint;
  MonitorCSV  csv;
  Progress    progress;
  Vec         derived[4];
  /* run record */
  PetscInt  start_step, last_monitored_step, iterations, iterations_last, ksp_its_seen;
  PetscReal l2_error;
};

typedef PetscErrorCode (*UnsteadyPhysicsCreateFunction)(Unsteady *unsteady);
PETSC_EXTERN PetscFunctionList UnsteadyPhysicsList;
/* u_t - nu Laplace u = f by SIPDG, implicit (physics/heat.c). */
PETSC_EXTERN PetscErrorCode UnsteadyPhysicsCreate_Heat(Unsteady *unsteady);

PETSC_EXTERN PetscErrorCode UnsteadyCreate(App *app, Unsteady **unsteady);
PETSC_EXTERN PetscErrorCode UnsteadySolve(Unsteady *unsteady);
PETSC_EXTERN PetscErrorCode UnsteadyReport(Unsteady *unsteady);
PETSC_EXTERN PetscErrorCode UnsteadyDestroy(Unsteady **unsteady);
