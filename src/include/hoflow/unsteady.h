/* hoflow's time-dependent driver: a PETSc TS over the run's discretization, with field output,
 * checkpoint/restart, CSV monitors and a progress line (hoflow/io.h). A time-dependent physics
 * (physics/heat.c, physics/ins.c) runs through UnsteadyRun with a create function that sets up the
 * TS residual and the state, and the callbacks below: the monitors and derived fields it provides
 * by name (a problem asks for them in Problem.monitors / Problem.derived), its errors and its
 * failure messages. */
#pragma once

#include <petscts.h>
#include <hoflow/io.h>
#include <hoflow/physics.h>

typedef struct Unsteady Unsteady;

#define HOFLOW_MAX_FIELDS 4
#define HOFLOW_MAX_MONITORS 32
#define HOFLOW_MAX_DERIVED 8

struct Unsteady {
  App     *app;
  MPI_Comm comm;
  TS       ts;
  /* the state: the TS solution and its fields (one field: the state itself; several: a VecNest of
   * global vectors, set by the physics) */
  Vec         state;
  PetscInt    nfields;
  const char *field_names[HOFLOW_MAX_FIELDS];
  Vec         fields[HOFLOW_MAX_FIELDS];
  void       *physics; /* the physics' context, destroyed by physics_destroy */
  PetscErrorCode (*physics_destroy)(void **physics);
  /* the monitors and derived fields the physics provides (comma-separated names) and their values */
  const char *monitor_names, *derived_names;
  PetscErrorCode (*physics_monitor)(Unsteady *un, const char name[], PetscReal time, PetscReal *value);
  PetscErrorCode (*physics_derived)(Unsteady *un, const char name[], PetscReal time, Vec field);
  /* optional: the discretization whose points the output is written at, when the state's own values are no
   * point values (modal coefficients); then only the derived fields, vectors of its DM, are written */
  Disc output_disc;
  /* optional: errors of the final state against the exact solution, as "key value" pairs for the
   * summary line, the first (velocity or u) also in un->l2_error */
  PetscErrorCode (*physics_errors)(Unsteady *un, char summary[], size_t len);
  const char *required_ts_type; /* set by a physics that runs with one integrator only */
  PetscBool   own_solver;       /* the physics set up the implicit steps' SNES/KSP itself (else: CG + Jacobi for one field) */
  /* optional: called after the TS options and any restart are applied */
  PetscErrorCode (*physics_setup)(Unsteady *un);
  /* optional: why a rejected step was rejected */
  PetscErrorCode (*physics_failure)(Unsteady *un, const char **message);
  /* output, checkpoints, monitors (options under "Output, checkpoints and monitors") */
  char        output_dir[PETSC_MAX_PATH_LEN], checkpoint_file[PETSC_MAX_PATH_LEN], restart_file[PETSC_MAX_PATH_LEN], monitor_file[PETSC_MAX_PATH_LEN];
  PetscInt    monitor_interval; /* monitors every this many steps and at the end (-monitor_interval) */
  PetscInt    output_interval, checkpoint_interval, checkpoint_kill_step;
  PetscBool   restart_project; /* -restart_project: a restart may change the order and refine the mesh */
  PetscReal   progress_interval;
  OutputMesh *output_mesh;
  FieldWriter writer;
  Checkpoint  checkpoint;
  MonitorCSV  csv;
  Progress    progress;
  PetscInt    nmonitors, nderived;
  char       *monitors[HOFLOW_MAX_MONITORS], *derived_fields[HOFLOW_MAX_DERIVED]; /* the problem's, checked against the physics' */
  char        monitor_list[1024], derived_list[128];
  Vec         derived[HOFLOW_MAX_DERIVED];
  PetscInt    nrec, caprec; /* the monitors' records: times and values, for the problem's summary */
  PetscReal  *rec_t, *rec_v[HOFLOW_MAX_MONITORS];
  /* run record */
  PetscInt  start_step, last_monitored_step, iterations, iterations_last, ksp_its_seen;
  PetscReal l2_error;
  PetscLogDouble loop_time; /* wall seconds of TSSolve, the device queue finished (summary line loop_s) */
  char      errors[256]; /* extra summary pairs from physics_errors and the problem's summary */
};

/* Run a time-dependent physics: the driver's TS, then create(un) (the physics sets the TS residual,
 * the state and its callbacks), output, checkpoints and monitors, TSSolve and the summary line. */
PETSC_EXTERN PetscErrorCode UnsteadyRun(App *app, PetscErrorCode (*create)(Unsteady *un));
