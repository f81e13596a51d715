/* hoflow's time-dependent driver: a PETSc TS over the App's discretization, with field output,
 * checkpoint/restart, CSV monitors and a progress line (hoflow/io.h). Problems name their
 * physics (Problem.physics); a physics is registered by name in UnsteadyPhysicsList and sets up
 * the TS residual, Jacobian and initial condition. */
#pragma once

#include <petscts.h>
#include <hoflow/app.h>
#include <hoflow/io.h>

typedef struct Unsteady Unsteady;

#define HOFLOW_MAX_FIELDS 4

struct Unsteady {
  App     *app; /* problem, mesh, discretization, stiffness operator (app->A) */
  MPI_Comm comm;
  TS       ts;
  /* the state: the TS solution and its DG fields (one field: the state is app->u; several: a
   * VecNest of DG global vectors, set by the physics) */
  Vec         state;
  PetscInt    nfields;
  const char *field_names[HOFLOW_MAX_FIELDS];
  Vec         fields[HOFLOW_MAX_FIELDS];
  void       *physics; /* the physics' context, destroyed by physics_destroy */
  PetscErrorCode (*physics_destroy)(void **physics);
  /* optional: errors of the final state against the exact solution, as "key value" pairs for the
   * summary line, the first (velocity or u) also in un->l2_error */
  PetscErrorCode (*physics_errors)(Unsteady *un, char summary[], size_t len);
  const char *required_ts_type; /* set by a physics that runs with one integrator only */
  /* optional: called after the TS options and any restart are applied */
  PetscErrorCode (*physics_setup)(Unsteady *un);
  /* optional: why a rejected step was rejected */
  PetscErrorCode (*physics_failure)(Unsteady *un, const char **message);
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
  char      errors[256]; /* extra summary pairs from physics_errors */
};

typedef PetscErrorCode (*UnsteadyPhysicsCreateFunction)(Unsteady *unsteady);
PETSC_EXTERN PetscFunctionList UnsteadyPhysicsList;
/* u_t - nu Laplace u = f by SIPDG, implicit (physics/heat.c). */
PETSC_EXTERN PetscErrorCode UnsteadyPhysicsCreate_Heat(Unsteady *unsteady);
/* Incompressible Navier–Stokes by nodal DG with -ts_type insplit (physics/ins.c). */
PETSC_EXTERN PetscErrorCode UnsteadyPhysicsCreate_INS(Unsteady *unsteady);
/* Component comp (0: u, 1: v, 2: p) of an incompressible-flow problem's state (Problem.ins_state) at
 * time `time`, as a PointFunction whose ctx is an INSComponent: for projections and errors. */
typedef struct {
  Problem  *problem;
  PetscInt  comp;
  PetscReal time;
} INSComponent;
PETSC_EXTERN PetscErrorCode INSComponentFunction(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx);

PETSC_EXTERN PetscErrorCode UnsteadyCreate(App *app, Unsteady **unsteady);
PETSC_EXTERN PetscErrorCode UnsteadySolve(Unsteady *unsteady);
PETSC_EXTERN PetscErrorCode UnsteadyReport(Unsteady *unsteady);
PETSC_EXTERN PetscErrorCode UnsteadyDestroy(Unsteady **unsteady);
