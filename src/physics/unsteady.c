/* The time-dependent driver: a PETSc TS (any -ts_type, -ts_dt, -ts_max_time, -ts_max_steps,
 * -ts_monitor) over the App's mesh and discretization, the physics registered by name, and after
 * every step the io layer: CSV monitors, field output (-output_interval), checkpoints
 * (-checkpoint_interval) and a progress line (-progress_interval). -restart FILE continues a
 * checkpointed run exactly. */
#include <hoflow/compat.h>
#include <hoflow/unsteady.h>

PetscFunctionList UnsteadyPhysicsList = NULL;

static PetscErrorCode UnsteadyPhysicsRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (UnsteadyPhysicsList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListAdd(&UnsteadyPhysicsList, "heat", UnsteadyPhysicsCreate_Heat));
  PetscCall(PetscFunctionListAdd(&UnsteadyPhysicsList, "ins", UnsteadyPhysicsCreate_INS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Built-in PETSc integrators whose state between steps is the solution alone (with t and dt),
 * so a checkpoint of the solution continues them exactly. */
static const char *const OneStepTSTypes[] = {TSEULER, TSBEULER, TSCN, TSTHETA, TSRK, TSSSP};

/* Refuse checkpoints and restarts an integrator cannot continue exactly; collect the history
 * vectors of integrators that expose it (HOFLOW_TS_GET_HISTORY). */
static PetscErrorCode UnsteadyCheckpointSetUp(Unsteady *un)
{
  App                       *app = un->app;
  TSType                     type;
  PetscBool                  one_step = PETSC_FALSE;
  PetscReal                 *keys;
  const char                *option      = un->restart_file[0] ? "-restart" : "-checkpoint_interval";
  HoflowTSGetHistoryFunction get_history = NULL;
  const PetscInt             K = app->mesh->K, Np = app->disc->Np, nv = app->mesh->Nverts;
  char                       order[16];

  PetscFunctionBeginUser;
  PetscCall(TSGetType(un->ts, &type));
  for (size_t k = 0; k < sizeof(OneStepTSTypes) / sizeof(OneStepTSTypes[0]); k++) one_step = one_step || !strcmp(type, OneStepTSTypes[k]);
  PetscCall(PetscObjectQueryFunction((PetscObject)un->ts, HOFLOW_TS_GET_HISTORY, &get_history));
  PetscCheck(strcmp(type, TSBDF) || get_history, un->comm, PETSC_ERR_SUP, "%s: TS type bdf keeps its multistep history (the previous solutions) private, so hoflow cannot checkpoint it and a restart would not continue exactly. Use a one-step integrator (-ts_type beuler, cn, theta, rk) or a hoflow integrator that exposes its history", option);
  PetscCheck(one_step || get_history, un->comm, PETSC_ERR_SUP, "%s: TS type %s may keep state between steps that hoflow cannot see, so a restart would not continue exactly. Checkpoints work with -ts_type euler, beuler, cn, theta, rk, ssp and hoflow integrators that expose their history", option, type);

  /* element keys: centroid and first node, to match elements across partitions */
  PetscCall(PetscMalloc1(K * HOFLOW_CHECKPOINT_KEY, &keys));
  for (PetscInt e = 0; e < K; e++) {
    const PetscInt   cell = app->mesh->elem_cell[e];
    const PetscReal *v    = app->mesh->vertices + cell * nv * 2;
    PetscReal        cx = 0, cy = 0;
    for (PetscInt j = 0; j < nv; j++) {
      cx += v[2 * j];
      cy += v[2 * j + 1];
    }
    keys[e * HOFLOW_CHECKPOINT_KEY + 0] = cx / nv;
    keys[e * HOFLOW_CHECKPOINT_KEY + 1] = cy / nv;
    keys[e * HOFLOW_CHECKPOINT_KEY + 2] = app->disc->x[cell * Np];
    keys[e * HOFLOW_CHECKPOINT_KEY + 3] = app->disc->y[cell * Np];
  }
  PetscCall(CheckpointCreate(un->comm, K, Np, keys, &un->checkpoint));
  PetscCall(PetscFree(keys));
  PetscCall(PetscSNPrintf(order, sizeof(order), "%" PetscInt_FMT, app->order));
  PetscCall(CheckpointAddIdentity(un->checkpoint, "problem", app->problem_name, "-problem"));
  PetscCall(CheckpointAddIdentity(un->checkpoint, "disc", app->disc_name, "-disc"));
  PetscCall(CheckpointAddIdentity(un->checkpoint, "shape", RefShapes[app->mesh->shape], "-dm_plex_filename or -dm_plex_box_faces"));
  PetscCall(CheckpointAddIdentity(un->checkpoint, "order", order, "-order"));
  for (PetscInt k = 0; k < un->nfields; k++) PetscCall(CheckpointAddVector(un->checkpoint, un->field_names[k], un->fields[k]));
  if (get_history) {
    PetscInt     n;
    const char **names;
    Vec         *vecs;
    PetscCall(TSSetUp(un->ts));
    PetscCall(get_history(un->ts, &n, &names, &vecs));
    for (PetscInt k = 0; k < n; k++) PetscCall(CheckpointAddVector(un->checkpoint, names[k], vecs[k]));
  }
  PetscCall(CheckpointSetKillDuringWrite(un->checkpoint, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The state's fields and the problem's derived fields to the HDF5/XDMF series. */
static PetscErrorCode UnsteadyWriteFields(Unsteady *un, PetscInt step, PetscReal time)
{
  Problem    *problem = &un->app->problem;
  const char *names[HOFLOW_MAX_FIELDS + 4];
  Vec         fields[HOFLOW_MAX_FIELDS + 4];
  PetscInt    n = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < un->nfields; k++, n++) {
    names[n]  = un->field_names[k];
    fields[n] = un->fields[k];
  }
  for (PetscInt k = 0; k < problem->nderived; k++, n++) {
    PetscCall(problem->derived[k].evaluate(un->app->disc, un->fields, time, un->derived[k], problem->ctx));
    names[n]  = problem->derived[k].name;
    fields[n] = un->derived[k];
  }
  PetscCall(FieldWriterWrite(un->writer, step, time, n, names, fields));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After every step (and before the first): monitors, output, checkpoint, progress. */
static PetscErrorCode UnsteadyMonitor(TS ts, PetscInt step, PetscReal time, Vec u, void *ctx)
{
  Unsteady         *un      = (Unsteady *)ctx;
  Problem          *problem = &un->app->problem;
  PetscReal         dt, values[9];
  PetscInt          its;
  TSConvergedReason reason;
  PetscBool         final;

  PetscFunctionBeginUser;
  if (step == un->last_monitored_step) PetscFunctionReturn(PETSC_SUCCESS);
  un->last_monitored_step = step;
  PetscCall(TSGetTimeStep(ts, &dt));
  PetscCall(TSGetConvergedReason(ts, &reason));
  final = reason != TS_CONVERGED_ITERATING ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(TSGetKSPIterations(ts, &its));
  un->iterations_last = its - un->ksp_its_seen;
  un->iterations += un->iterations_last;
  un->ksp_its_seen = its;

  if (un->csv && !(step == un->start_step && un->restart_file[0])) { /* a restart keeps the checkpointed run's row */
    for (PetscInt k = 0; k < problem->nmonitors; k++) PetscCall(problem->monitors[k].evaluate(un->app->disc, un->fields, time, &values[k], problem->ctx));
    values[problem->nmonitors] = (PetscReal)un->iterations_last;
    PetscCall(MonitorCSVWriteRow(un->csv, step, time, dt, values));
  }
  if (un->writer && (step % un->output_interval == 0 || final)) PetscCall(UnsteadyWriteFields(un, step, time));
  if (un->checkpoint_interval > 0 && step % un->checkpoint_interval == 0 && step != un->start_step) {
    PetscCall(CheckpointSetKillDuringWrite(un->checkpoint, step == un->checkpoint_kill_step ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(CheckpointWrite(un->checkpoint, un->checkpoint_file, step, time, dt));
  }
  if (un->progress) PetscCall(ProgressUpdate(un->progress, step, time, dt, un->iterations_last, final));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnsteadyCreate(App *app, Unsteady **un_out)
{
  Unsteady *un;
  PetscErrorCode (*create_physics)(Unsteady *) = NULL;
  SNES      snes;
  KSP       ksp;
  PC        pc;
  PetscBool set;
  PetscInt  max_steps;
  PetscReal max_time;

  PetscFunctionBeginUser;
  PetscCall(UnsteadyPhysicsRegisterAll());
  PetscCall(PetscNew(&un));
  un->app                  = app;
  un->comm                 = app->comm;
  un->last_monitored_step  = -1;
  un->checkpoint_kill_step = -1;
  un->progress_interval    = 10;
  PetscCall(PetscFunctionListFind(UnsteadyPhysicsList, app->problem.physics, &create_physics));
  PetscCheck(create_physics, un->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Problem %s names physics '%s', which is not registered", app->problem_name, app->problem.physics);

  PetscCall(TSCreate(un->comm, &un->ts));
  PetscCall(TSSetType(un->ts, TSBEULER));
  PetscCall(TSSetTimeStep(un->ts, 0.05));
  PetscCall(TSSetMaxTime(un->ts, 1.0));
  PetscCall(TSSetExactFinalTime(un->ts, TS_EXACTFINALTIME_MATCHSTEP));
  un->state          = app->u;
  un->nfields        = 1;
  un->field_names[0] = "u";
  un->fields[0]      = app->u;
  PetscCall(create_physics(un));
  PetscCall(TSSetSolution(un->ts, un->state));
  if (un->nfields == 1) { /* implicit PETSc integrators on one field: CG inside each stage */
    PetscCall(TSGetSNES(un->ts, &snes));
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  }
  PetscCall(TSSetFromOptions(un->ts));
  if (un->required_ts_type) {
    TSType type;
    PetscCall(TSGetType(un->ts, &type));
    PetscCheck(!strcmp(type, un->required_ts_type), un->comm, PETSC_ERR_ARG_WRONG, "-ts_type %s: problem %s (physics %s) runs with -ts_type %s only", type, app->problem_name, app->problem.physics, un->required_ts_type);
  }

  PetscCall(PetscSNPrintf(un->output_dir, sizeof(un->output_dir), "output/%s", app->problem_name));
  PetscOptionsBegin(un->comm, NULL, "Output, checkpoints and monitors", NULL);
  PetscCall(PetscOptionsString("-output_dir", "Directory for fields, checkpoints and monitors", NULL, un->output_dir, un->output_dir, sizeof(un->output_dir), NULL));
  PetscCall(PetscOptionsInt("-output_interval", "Write the fields (HDF5 + XDMF) every this many steps and at the end (0: never)", NULL, un->output_interval, &un->output_interval, NULL));
  PetscCall(PetscOptionsInt("-checkpoint_interval", "Write a checkpoint every this many steps (0: never)", NULL, un->checkpoint_interval, &un->checkpoint_interval, NULL));
  PetscCall(PetscSNPrintf(un->checkpoint_file, sizeof(un->checkpoint_file), "%s/checkpoint.h5", un->output_dir));
  PetscCall(PetscOptionsString("-checkpoint_file", "Checkpoint file (default <output_dir>/checkpoint.h5)", NULL, un->checkpoint_file, un->checkpoint_file, sizeof(un->checkpoint_file), NULL));
  PetscCall(PetscOptionsString("-restart", "Continue the run saved in this checkpoint file", NULL, un->restart_file, un->restart_file, sizeof(un->restart_file), NULL));
  PetscCall(PetscSNPrintf(un->monitor_file, sizeof(un->monitor_file), "%s/monitors.csv", un->output_dir));
  PetscCall(PetscOptionsString("-monitor_file", "CSV file of the problem's monitors, one row per step (none: no file)", NULL, un->monitor_file, un->monitor_file, sizeof(un->monitor_file), NULL));
  PetscCall(PetscOptionsReal("-progress_interval", "Seconds between progress lines (0: every step, negative: never)", NULL, un->progress_interval, &un->progress_interval, NULL));
  PetscCall(PetscOptionsInt("-checkpoint_test_kill_step", "Testing: kill the run while it writes the checkpoint of this step", NULL, un->checkpoint_kill_step, &un->checkpoint_kill_step, &set));
  PetscOptionsEnd();
  PetscCheck(un->output_interval >= 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-output_interval %" PetscInt_FMT " must be >= 0", un->output_interval);
  PetscCheck(un->checkpoint_interval >= 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-checkpoint_interval %" PetscInt_FMT " must be >= 0", un->checkpoint_interval);
  PetscCall(IOMakeDirectory(un->comm, un->output_dir));

  if (un->checkpoint_interval > 0 || un->restart_file[0]) PetscCall(UnsteadyCheckpointSetUp(un));
  if (un->restart_file[0]) {
    PetscInt  step;
    PetscReal time, dt;
    PetscBool dt_given;
    PetscCall(CheckpointRead(un->checkpoint, un->restart_file, &step, &time, &dt));
    PetscCall(TSSetTime(un->ts, time));
    PetscCall(TSSetStepNumber(un->ts, step));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_dt", &dt_given));
    if (!dt_given) PetscCall(TSSetTimeStep(un->ts, dt)); /* -ts_dt on a restart changes the step (multistep integrators restart their history) */
    un->start_step = step;
  }
  if (un->physics_setup) PetscCall(un->physics_setup(un));
  if (un->output_interval > 0) {
    PetscCall(OutputMeshCreateDG(app->disc, &un->output_mesh));
    PetscCall(FieldWriterCreate(un->output_mesh, un->output_dir, app->problem_name, &un->writer));
    if (un->restart_file[0]) PetscCall(FieldWriterRestart(un->writer, un->start_step));
    for (PetscInt k = 0; k < app->problem.nderived; k++) PetscCall(VecDuplicate(un->fields[0], &un->derived[k]));
  }
  if (strcmp(un->monitor_file, "none")) {
    const char *columns[9];
    for (PetscInt k = 0; k < app->problem.nmonitors; k++) columns[k] = app->problem.monitors[k].name;
    columns[app->problem.nmonitors] = "ksp_iterations";
    PetscCall(MonitorCSVCreate(un->comm, un->monitor_file, app->problem.nmonitors + 1, columns, un->restart_file[0] ? un->start_step : -1, &un->csv));
  }
  PetscCall(TSGetMaxSteps(un->ts, &max_steps));
  PetscCall(TSGetMaxTime(un->ts, &max_time));
  {
    PetscReal t0;
    PetscCall(TSGetTime(un->ts, &t0));
    PetscCall(ProgressCreate(un->comm, un->progress_interval, un->start_step, t0, max_steps, max_time, &un->progress));
  }
  PetscCall(TSMonitorSet(un->ts, UnsteadyMonitor, un, NULL));
  *un_out = un;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnsteadySolve(Unsteady *un)
{
  PetscReal         time;
  PetscInt          step;
  TSConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(TSSetErrorIfStepFails(un->ts, PETSC_FALSE));
  PetscCall(TSSolve(un->ts, un->state));
  PetscCall(TSGetTime(un->ts, &time));
  PetscCall(TSGetStepNumber(un->ts, &step));
  PetscCall(TSGetConvergedReason(un->ts, &reason));
  if (reason < 0) {
    /* the solution holds the last good state: keep it on disk, then stop */
    const char *why                            = NULL;
    char        saved[PETSC_MAX_PATH_LEN + 64] = "";
    if (un->physics_failure) PetscCall(un->physics_failure(un, &why));
    if (un->writer) PetscCall(UnsteadyWriteFields(un, step, time));
    if (un->checkpoint) {
      PetscReal dt;
      PetscCall(TSGetTimeStep(un->ts, &dt));
      PetscCall(CheckpointWrite(un->checkpoint, un->checkpoint_file, step, time, dt));
      PetscCall(PetscSNPrintf(saved, sizeof(saved), " The last good state (step %" PetscInt_FMT ", t = %g) is in %s.", step, (double)time, un->checkpoint_file));
    } else if (un->writer)
      PetscCall(PetscSNPrintf(saved, sizeof(saved), " The last good state (step %" PetscInt_FMT ", t = %g) is in %s.", step, (double)time, un->output_dir));
    SETERRQ(un->comm, PETSC_ERR_NOT_CONVERGED, "Time stepping stopped (%s): %s.%s", TSConvergedReasons[reason], why && why[0] ? why : "the integrator rejected the step", saved);
  }
  /* the final state, if TSSolve did not monitor it */
  PetscCall(UnsteadyMonitor(un->ts, step, time, un->state, un));
  un->app->problem.time = time;
  if (un->physics_errors)
    PetscCall(un->physics_errors(un, un->errors, sizeof(un->errors)));
  else
    PetscCall(DGDiscL2Error(un->app->disc, un->app->u, un->app->problem.exact, un->app->problem.ctx, &un->l2_error));
  PetscCall(VecViewFromOptions(un->state, NULL, "-solution_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One machine-readable summary line, with the elliptic App's keys and the time stepping's. */
PetscErrorCode UnsteadyReport(Unsteady *un)
{
  App      *app = un->app;
  PetscInt  ndofs, step;
  PetscReal time, dt;
  TSType    type;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(un->state, &ndofs));
  PetscCall(TSGetStepNumber(un->ts, &step));
  PetscCall(TSGetTime(un->ts, &time));
  PetscCall(TSGetTimeStep(un->ts, &dt));
  PetscCall(TSGetType(un->ts, &type));
  PetscCall(PetscPrintf(un->comm, "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e ts %s start %" PetscInt_FMT " steps %" PetscInt_FMT " time %.6e dt %.6e L2 %.6e iterations %" PetscInt_FMT "%s%s\n", app->problem_name, app->disc_name, RefShapes[app->mesh->shape], app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, type, un->start_step, step, (double)time, (double)dt, (double)un->l2_error, un->iterations, un->errors[0] ? " " : "", un->errors));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnsteadyDestroy(Unsteady **un)
{
  PetscFunctionBeginUser;
  if (!*un) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TSDestroy(&(*un)->ts));
  if ((*un)->state != (*un)->app->u) PetscCall(VecDestroy(&(*un)->state));
  if ((*un)->physics_destroy) PetscCall((*un)->physics_destroy(&(*un)->physics));
  for (PetscInt k = 0; k < 4; k++) PetscCall(VecDestroy(&(*un)->derived[k]));
  PetscCall(FieldWriterDestroy(&(*un)->writer));
  PetscCall(OutputMeshDestroy(&(*un)->output_mesh));
  PetscCall(CheckpointDestroy(&(*un)->checkpoint));
  PetscCall(MonitorCSVDestroy(&(*un)->csv));
  PetscCall(ProgressDestroy(&(*un)->progress));
  PetscCall(PetscFree(*un));
  PetscFunctionReturn(PETSC_SUCCESS);
}
