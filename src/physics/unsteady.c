/* The time-dependent driver: a PETSc TS (any -ts_type, -ts_dt, -ts_max_time, -ts_max_steps,
 * -ts_monitor) over the run's mesh and discretization for a time-dependent physics, and after
 * every step the io layer: CSV monitors, field output (-output_interval), checkpoints
 * (-checkpoint_interval) and a progress line (-progress_interval). -restart FILE continues a
 * checkpointed run exactly; with -restart_project at another -order or on its mesh refined. */
#include <hoflow/compat.h>
#include <petscdevice.h>
#include <hoflow/log.h>
#include <hoflow/unsteady.h>

/* Built-in PETSc integrators whose state between steps is the solution alone (with t and dt),
 * so a checkpoint of the solution continues them exactly. */
static const char *const OneStepTSTypes[] = {TSEULER, TSBEULER, TSCN, TSTHETA, TSRK, TSSSP};

/* Refuse checkpoints and restarts an integrator cannot continue exactly; collect the history
 * vectors of integrators that expose it (HOFLOW_TS_GET_HISTORY). With -restart_project a restart may
 * read a checkpoint of another order or of the mesh this one refines: the state and the history are
 * projected alike (the history's past levels keep the splitting at its full order, see README). */
static PetscErrorCode UnsteadyCheckpointSetUp(Unsteady *un)
{
  App                       *app = un->app;
  TSType                     type;
  PetscBool                  one_step    = PETSC_FALSE, pseudo;
  const char                *option      = un->restart_file[0] ? "-restart" : "-checkpoint_interval";
  HoflowTSGetHistoryFunction get_history = NULL;

  PetscFunctionBeginUser;
  PetscCall(TSGetType(un->ts, &type));
  for (size_t k = 0; k < sizeof(OneStepTSTypes) / sizeof(OneStepTSTypes[0]); k++) one_step = one_step || !strcmp(type, OneStepTSTypes[k]);
  PetscCall(PetscObjectQueryFunction((PetscObject)un->ts, HOFLOW_TS_GET_HISTORY, &get_history));
  PetscCheck(strcmp(type, TSBDF) || get_history, un->comm, PETSC_ERR_SUP, "%s: TS type bdf keeps its multistep history (the previous solutions) private, so hoflow cannot checkpoint it and a restart would not continue exactly. Use a one-step integrator (-ts_type beuler, cn, theta, rk) or a hoflow integrator that exposes its history", option);
  /* pseudo-transient continuation keeps its residual history (the step growth) private: a restart
   * continues from the state, time, step and dt and starts that history again, which reaches the same
   * steady state by another path (and lets a steady run go on at a higher order, -restart_project) */
  pseudo = (PetscBool)!strcmp(type, TSPSEUDO);
  PetscCheck(one_step || pseudo || get_history, un->comm, PETSC_ERR_SUP, "%s: TS type %s may keep state between steps that hoflow cannot see, so a restart would not continue exactly. Checkpoints work with -ts_type euler, beuler, cn, theta, rk, ssp, pseudo (steady states) and hoflow integrators that expose their history", option, type);
  if (pseudo && un->restart_file[0]) {
    PetscBool from_initial = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-ts_pseudo_increment_dt_from_initial_dt", &from_initial, NULL));
    /* PETSc 3.18's pseudo records its initial step only at step 0: a restart would scale the step from 0 */
    PetscCheck(!from_initial, un->comm, PETSC_ERR_ARG_INCOMP, "-restart with -ts_type pseudo: -ts_pseudo_increment_dt_from_initial_dt scales the step from the first step's, which PETSc records at step 0 only (a restart would take steps of 0); give -ts_pseudo_increment_dt_from_initial_dt false (the step then grows with the residual's fall from step to step)");
    PetscCall(PetscPrintf(un->comm, "restart: -ts_type pseudo starts its step growth again from the checkpoint's state (the same steady state, not the same path)\n"));
  }

  PetscCall(CheckpointCreateDisc(app->disc, option, &un->checkpoint));
  PetscCall(CheckpointAddIdentity(un->checkpoint, "problem", app->problem_name, "-problem"));
  PetscCall(CheckpointSetDiscProjection(un->checkpoint, app->disc, "-restart_project", un->restart_project));
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
  const char *names[HOFLOW_MAX_FIELDS + HOFLOW_MAX_DERIVED];
  Vec         fields[HOFLOW_MAX_FIELDS + HOFLOW_MAX_DERIVED];
  PetscInt    n = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < un->nfields && !un->output_disc; k++, n++) {
    names[n]  = un->field_names[k];
    fields[n] = un->fields[k];
  }
  for (PetscInt k = 0; k < un->nderived; k++, n++) {
    PetscCall(un->physics_derived(un, un->derived_fields[k], time, un->derived[k]));
    names[n]  = un->derived_fields[k];
    fields[n] = un->derived[k];
  }
  PetscCall(FieldWriterWrite(un->writer, step, time, n, names, fields));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keep the monitors' values for the problem's summary. */
static PetscErrorCode UnsteadyRecord(Unsteady *un, PetscReal time, const PetscReal values[])
{
  PetscFunctionBeginUser;
  if (un->nrec == un->caprec) {
    un->caprec = PetscMax(1024, 2 * un->caprec);
    PetscCall(PetscRealloc(sizeof(PetscReal) * un->caprec, &un->rec_t));
    for (PetscInt m = 0; m < un->nmonitors; m++) PetscCall(PetscRealloc(sizeof(PetscReal) * un->caprec, &un->rec_v[m]));
  }
  un->rec_t[un->nrec] = time;
  for (PetscInt m = 0; m < un->nmonitors; m++) un->rec_v[m][un->nrec] = values[m];
  un->nrec++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After every step (and before the first): monitors, output, checkpoint, progress. */
static PetscErrorCode UnsteadyMonitorWork(TS ts, PetscInt step, PetscReal time, Vec u, void *ctx)
{
  Unsteady         *un = (Unsteady *)ctx;
  PetscReal         dt, values[HOFLOW_MAX_MONITORS + 1];
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

  if (un->csv && step == un->start_step && un->restart_file[0]) {
    /* a restart keeps the checkpointed run's row, but evaluates the monitors there: those that difference
     * successive evaluations (-dE/dt) then continue as the uninterrupted run (on a step of -monitor_interval) */
    for (PetscInt k = 0; k < un->nmonitors; k++) PetscCall(un->physics_monitor(un, un->monitors[k], time, &values[k]));
  } else if (un->csv && (step % un->monitor_interval == 0 || final)) {
    for (PetscInt k = 0; k < un->nmonitors; k++) PetscCall(un->physics_monitor(un, un->monitors[k], time, &values[k]));
    values[un->nmonitors] = (PetscReal)un->iterations_last;
    PetscCall(MonitorCSVWriteRow(un->csv, step, time, dt, values));
    PetscCall(UnsteadyRecord(un, time, values));
  }
  if (un->writer && (step % un->output_interval == 0 || final)) PetscCall(UnsteadyWriteFields(un, step, time));
  if (un->checkpoint_interval > 0 && step % un->checkpoint_interval == 0 && step != un->start_step) {
    PetscCall(CheckpointSetKillDuringWrite(un->checkpoint, step == un->checkpoint_kill_step ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(CheckpointWrite(un->checkpoint, un->checkpoint_file, step, time, dt));
  }
  if (un->progress) PetscCall(ProgressUpdate(un->progress, step, time, dt, un->iterations_last, final));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UnsteadyMonitor(TS ts, PetscInt step, PetscReal time, Vec u, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_StepMonitor, ts, 0, 0, 0));
  PetscCall(UnsteadyMonitorWork(ts, step, time, u, ctx));
  PetscCall(PetscLogEventEnd(HOFLOW_StepMonitor, ts, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether `name` is one of the comma-separated names of `list`. */
static PetscBool NameInList(const char list[], const char name[])
{
  const size_t len = strlen(name);
  for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == 0)) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Split a comma-separated list in place into at most max names, each checked against the physics'. */
static PetscErrorCode UnsteadyNames(Unsteady *un, const char what[], char list[], const char available[], PetscInt max, PetscInt *n, char *names[])
{
  char *p = list;

  PetscFunctionBeginUser;
  *n = 0;
  while (p && *p) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    PetscCheck(*n < max, un->comm, PETSC_ERR_ARG_SIZ, "Problem %s asks for more than %" PetscInt_FMT " %ss", un->app->problem_name, max, what);
    PetscCheck(available && NameInList(available, p), un->comm, PETSC_ERR_ARG_WRONG, "Problem %s asks for the %s '%s', which physics %s does not provide; it provides: %s", un->app->problem_name, what, p, un->app->problem.physics, available && available[0] ? available : "(none)");
    names[(*n)++] = p;
    p             = comma ? comma + 1 : NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UnsteadyCreate(App *app, PetscErrorCode (*create_physics)(Unsteady *), Unsteady **un_out)
{
  Unsteady *un;
  SNES      snes;
  KSP       ksp;
  PC        pc;
  PetscBool set;
  PetscInt  max_steps;
  PetscReal max_time;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&un));
  un->app                  = app;
  un->comm                 = app->comm;
  un->last_monitored_step  = -1;
  un->checkpoint_kill_step = -1;
  un->progress_interval    = 10;
  un->monitor_interval     = 1;

  PetscCall(TSCreate(un->comm, &un->ts));
  PetscCall(TSSetType(un->ts, TSBEULER));
  PetscCall(TSSetTimeStep(un->ts, 0.05));
  PetscCall(TSSetMaxTime(un->ts, 1.0));
  PetscCall(TSSetExactFinalTime(un->ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(create_physics(un));
  PetscCall(PetscStrncpy(un->monitor_list, app->problem.monitors, sizeof(un->monitor_list)));
  PetscCall(PetscStrncpy(un->derived_list, app->problem.derived, sizeof(un->derived_list)));
  PetscCall(UnsteadyNames(un, "monitor", un->monitor_list, un->monitor_names, HOFLOW_MAX_MONITORS, &un->nmonitors, un->monitors));
  PetscCall(UnsteadyNames(un, "derived field", un->derived_list, un->derived_names, HOFLOW_MAX_DERIVED, &un->nderived, un->derived_fields));
  PetscCall(TSSetSolution(un->ts, un->state));
  if (un->nfields == 1 && !un->own_solver) { /* implicit PETSc integrators on one field: CG inside each stage */
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
  PetscCall(PetscOptionsBool("-restart_project", "Let -restart read a checkpoint of another -order and/or of the mesh this run refines (-dm_refine), projecting its fields and history", NULL, un->restart_project, &un->restart_project, NULL));
  PetscCall(PetscSNPrintf(un->monitor_file, sizeof(un->monitor_file), "%s/monitors.csv", un->output_dir));
  PetscCall(PetscOptionsString("-monitor_file", "CSV file of the problem's monitors, one row per step (none: no file)", NULL, un->monitor_file, un->monitor_file, sizeof(un->monitor_file), NULL));
  PetscCall(PetscOptionsInt("-monitor_interval", "Evaluate the monitors every this many steps and at the end (on a GPU each evaluation may copy the state to the host)", NULL, un->monitor_interval, &un->monitor_interval, NULL));
  PetscCall(PetscOptionsReal("-progress_interval", "Seconds between progress lines (0: every step, negative: never)", NULL, un->progress_interval, &un->progress_interval, NULL));
  PetscCall(PetscOptionsInt("-checkpoint_test_kill_step", "Testing: kill the run while it writes the checkpoint of this step", NULL, un->checkpoint_kill_step, &un->checkpoint_kill_step, &set));
  PetscOptionsEnd();
  PetscCheck(un->monitor_interval >= 1, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-monitor_interval %" PetscInt_FMT " must be >= 1", un->monitor_interval);
  PetscCheck(un->output_interval >= 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-output_interval %" PetscInt_FMT " must be >= 0", un->output_interval);
  PetscCheck(!un->restart_project || un->restart_file[0], un->comm, PETSC_ERR_ARG_WRONG, "-restart_project applies to a restart: give the checkpoint with -restart FILE");
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
    if (!dt_given) PetscCall(TSSetTimeStep(un->ts, dt)); /* -ts_dt on a restart changes the step: */
    {                                                    /* multistep integrators restart their history */
      HoflowTSSetHistoryStepFunction set_history_step = NULL;
      PetscCall(PetscObjectQueryFunction((PetscObject)un->ts, HOFLOW_TS_SET_HISTORY_STEP, &set_history_step));
      if (set_history_step) PetscCall(set_history_step(un->ts, dt));
    }
    un->start_step = step;
  }
  if (un->physics_setup) PetscCall(un->physics_setup(un));
  if (un->output_interval > 0) {
    PetscCall(OutputMeshCreate(un->output_disc ? un->output_disc : app->disc, &un->output_mesh));
    PetscCall(FieldWriterCreate(un->output_mesh, un->output_dir, app->problem_name, &un->writer));
    if (un->restart_file[0]) PetscCall(FieldWriterRestart(un->writer, un->start_step));
    for (PetscInt k = 0; k < un->nderived; k++) {
      if (un->output_disc) PetscCall(DMCreateGlobalVector(un->output_disc->dm, &un->derived[k]));
      else PetscCall(VecDuplicate(un->fields[0], &un->derived[k]));
    }
  }
  if (strcmp(un->monitor_file, "none")) {
    const char *columns[HOFLOW_MAX_MONITORS + 1];
    for (PetscInt k = 0; k < un->nmonitors; k++) columns[k] = un->monitors[k];
    columns[un->nmonitors] = "ksp_iterations";
    PetscCall(MonitorCSVCreate(un->comm, un->monitor_file, un->nmonitors + 1, columns, un->restart_file[0] ? un->start_step : -1, &un->csv));
    { /* the kept rows belong to the run's record too (the problem's summary: peaks over the whole run) */
      PetscInt         n;
      const PetscReal *t, *v;
      PetscCall(MonitorCSVGetKeptRows(un->csv, &n, &t, &v));
      for (PetscInt r = 0; r < n; r++) PetscCall(UnsteadyRecord(un, t[r], v + r * (un->nmonitors + 1)));
    }
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

static PetscErrorCode UnsteadySolve(Unsteady *un)
{
  PetscReal         time;
  PetscInt          step;
  TSConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(TSSetErrorIfStepFails(un->ts, PETSC_FALSE));
  /* TimeLoop: the whole TSSolve, the device's queue finished at its end. TSStep alone does not wait for the device on
   * one rank (the CFL step's reduction between steps does), so benchmarks of stages take TimeLoop / steps. */
  PetscLogDouble t0, t1;
  PetscCall(PetscLogEventBegin(HOFLOW_TimeLoop, un->ts, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(un->ts, un->state));
#if defined(PETSC_HAVE_DEVICE)
  {
    PetscDeviceContext dctx;
    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextSynchronize(dctx));
  }
#endif
  PetscCall(PetscTime(&t1));
  un->loop_time = t1 - t0;
  PetscCall(PetscLogEventEnd(HOFLOW_TimeLoop, un->ts, 0, 0, 0));
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
  if (un->physics_errors) PetscCall(un->physics_errors(un, un->errors, sizeof(un->errors)));
  if (un->app->problem.summary) {
    char summary[256];
    PetscCall(un->app->problem.summary(un->app->problem.ctx, un->nrec, un->rec_t, un->nmonitors, (const char *const *)un->monitors, un->rec_v, summary, sizeof(summary)));
    if (summary[0]) {
      if (un->errors[0]) PetscCall(PetscStrlcat(un->errors, " ", sizeof(un->errors)));
      PetscCall(PetscStrlcat(un->errors, summary, sizeof(un->errors)));
    }
  }
  PetscCall(VecViewFromOptions(un->state, NULL, "-solution_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One machine-readable summary line, with the elliptic solve's keys and the time stepping's. */
static PetscErrorCode UnsteadyReport(Unsteady *un)
{
  App      *app = un->app;
  PetscInt  ndofs, step;
  PetscReal time, dt;
  TSType    type;
  char      shapes[128];

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(un->state, &ndofs));
  PetscCall(TSGetStepNumber(un->ts, &step));
  PetscCall(TSGetTime(un->ts, &time));
  PetscCall(TSGetTimeStep(un->ts, &dt));
  PetscCall(TSGetType(un->ts, &type));
  PetscCall(MeshGetShapeNames(app->mesh, shapes, sizeof(shapes)));
  PetscCall(PetscPrintf(un->comm, "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e ts %s start %" PetscInt_FMT " steps %" PetscInt_FMT " time %.6e dt %.6e L2 %.6e iterations %" PetscInt_FMT "%s%s loop_s %.4e\n", app->problem_name, app->disc_name, shapes, app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, type, un->start_step, step, (double)time, (double)dt, (double)un->l2_error, un->iterations, un->errors[0] ? " " : "", un->errors, (double)un->loop_time));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UnsteadyDestroy(Unsteady **un)
{
  PetscFunctionBeginUser;
  if (!*un) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TSDestroy(&(*un)->ts));
  PetscCall(VecDestroy(&(*un)->state));
  if ((*un)->physics_destroy) PetscCall((*un)->physics_destroy(&(*un)->physics));
  for (PetscInt k = 0; k < HOFLOW_MAX_DERIVED; k++) PetscCall(VecDestroy(&(*un)->derived[k]));
  PetscCall(PetscFree((*un)->rec_t));
  for (PetscInt m = 0; m < HOFLOW_MAX_MONITORS; m++) PetscCall(PetscFree((*un)->rec_v[m]));
  PetscCall(FieldWriterDestroy(&(*un)->writer));
  PetscCall(OutputMeshDestroy(&(*un)->output_mesh));
  PetscCall(CheckpointDestroy(&(*un)->checkpoint));
  PetscCall(MonitorCSVDestroy(&(*un)->csv));
  PetscCall(ProgressDestroy(&(*un)->progress));
  PetscCall(PetscFree(*un));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnsteadyRun(App *app, PetscErrorCode (*create)(Unsteady *un))
{
  Unsteady *un = NULL;

  PetscFunctionBeginUser;
  PetscCall(UnsteadyCreate(app, create, &un));
  PetscCall(UnsteadySolve(un));
  PetscCall(UnsteadyReport(un));
  PetscCall(UnsteadyDestroy(&un));
  PetscFunctionReturn(PETSC_SUCCESS);
}
