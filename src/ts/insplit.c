/* -ts_type insplit: BDF/EXT algebraic splitting of the incompressible Navier–Stokes equations
 * (seed 000 §2.2, eqs. 16-17), with optional semi-Lagrangian subcycling of the advection
 * (§2.3, eqs. 18-21). One step from t^n to t^{n+1} = t^n + dt, order S (-ins_order 1, 2, 3):
 *
 *   (17a) U^ = sum_i beta_i U^{n-i} - dt sum_i alpha_i N(U^{n-i})        [no subcycling]
 *         U^ = sum_i beta_i U~_i(t^{n+1})                                 [-ins_subcycles Ns > 0]
 *         (+ dt f(t^{n+1}))
 *   (17b) (-L + gamma/(nu dt)) U^^ = U^/(nu dt) - G P* / nu               velocity solves
 *   (17c) -L phi = -(gamma/dt) D U^^                                      pressure increment
 *   (17d) U^{n+1} = U^^ - (dt/gamma) G phi,   P^{n+1} = P* + phi
 *
 * with BDF coefficients gamma, beta and extrapolation alpha of order S (lower orders while the
 * history fills), and P* the pressure extrapolated to order -ins_pressure_order q (q = 1: P^n,
 * the seed's first-order increment; q = 2: 2 P^n - P^{n-1}; q = 0: none). U~_i solves the
 * advection subproblem dU~/dt = -N~(U_bar(t); U~) from U~(t^{n-i}) = U^{n-i} to t^{n+1} with
 * (i+1) Ns steps of an explicit Runge–Kutta scheme (a PETSc TS with prefix ins_sub_, by default
 * TSRK lserk4), the advecting velocity U_bar(t) the polynomial through U^n, ..., U^{n-S+1}.
 *
 * Every operator comes from the physics (TSInsplitOps). The history (past velocities and their
 * advection terms, the previous pressure) is exposed to checkpoints through
 * HOFLOW_TS_GET_HISTORY, so a restart continues exactly. A step whose velocity is not finite or
 * exceeds -ins_divergence_factor times the reference speed is rejected: the solution keeps the
 * last good state and TSSolve stops with TS_DIVERGED_STEP_REJECTED (TSInsplitGetFailure says why). */
#include <petsc/private/tsimpl.h>
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/ts.h>

#define INS_SMAX 3

typedef struct {
  TSInsplitOps ops;
  PetscBool    ops_set;
  PetscInt     order, pressure_order, subcycles;
  PetscInt     history_given; /* past levels supplied before the first step (TSInsplitSetHistory) */
  PetscReal    divergence_factor;
  /* history: Uh[k], Vh[k] = velocity at t^{n-1-k}; Nh = its advection term; Ph[k] = pressure at t^{n-1-k} */
  Vec Uh[INS_SMAX], Vh[INS_SMAX], NUh[INS_SMAX], NVh[INS_SMAX], Ph[INS_SMAX];
  /* work */
  Vec           un, vn, pn, nun, nvn, uhat, vhat, gx, gy, w, b, div, phi, pstar, fu, fv, ubar, vbar;
  TS            sub;  /* subcycling integrator over the VecNest (u~, v~) */
  Vec           subx; /* its state */
  PetscReal     sub_weights[INS_SMAX], sub_times[INS_SMAX];
  PetscInt      sub_npoints;
  PetscReal     dt; /* the constant step */
  PetscInt      vel_its, pres_its;
  char          failure[512];
  const char   *history_names[5 * INS_SMAX + 1];
  Vec           history_vecs[5 * INS_SMAX + 1];
  PetscLogStage stage_advection, stage_velocity, stage_pressure, stage_update;
} TS_Insplit;

/* t + dt, snapped to the multiple k dt it is within round-off of: times on the grid do not drift
 * over many steps, and a restarted run (whose time comes from the checkpoint) repeats them bit for bit. */
static PetscReal InsplitNextTime(PetscReal t, PetscReal dt)
{
  const PetscReal k = PetscFloorReal((t + dt) / dt + 0.5);
  return PetscAbsReal(t + dt - k * dt) < 1e-8 * dt ? k * dt : t + dt;
}

/* BDF (gamma, beta) and extrapolation (alpha) coefficients of order S. */
static void InsplitCoefficients(PetscInt S, PetscReal *gamma, PetscReal beta[], PetscReal alpha[])
{
  static const PetscReal g[4]    = {0, 1.0, 1.5, 11.0 / 6.0};
  static const PetscReal b[4][3] = {{0, 0, 0}, {1, 0, 0}, {2, -0.5, 0}, {3, -1.5, 1.0 / 3.0}};
  static const PetscReal a[4][3] = {{0, 0, 0}, {1, 0, 0}, {2, -1, 0}, {3, -3, 1}};
  *gamma                         = g[S];
  for (PetscInt i = 0; i < 3; i++) {
    beta[i]  = b[S][i];
    alpha[i] = a[S][i];
  }
}

/* Weights of the Lagrange polynomial through the points t_j (j < n) evaluated at t. */
static void LagrangeWeights(PetscInt n, const PetscReal tj[], PetscReal t, PetscReal w[])
{
  for (PetscInt j = 0; j < n; j++) {
    w[j] = 1;
    for (PetscInt k = 0; k < n; k++)
      if (k != j) w[j] *= (t - tj[k]) / (tj[j] - tj[k]);
  }
}

/* The subcycling right-hand side: d(u~, v~)/dt = -N~(U_bar(t); u~, v~). */
static PetscErrorCode InsplitSubRHS(TS sub, PetscReal t, Vec X, Vec F, void *ctx)
{
  TS_Insplit *ins = (TS_Insplit *)ctx;
  Vec         cu, cv, fu, fv;
  PetscReal   w[INS_SMAX];
  Vec         us[INS_SMAX], vs[INS_SMAX];

  PetscFunctionBeginUser;
  PetscCall(VecNestGetSubVec(X, 0, &cu));
  PetscCall(VecNestGetSubVec(X, 1, &cv));
  PetscCall(VecNestGetSubVec(F, 0, &fu));
  PetscCall(VecNestGetSubVec(F, 1, &fv));
  LagrangeWeights(ins->sub_npoints, ins->sub_times, t, w);
  us[0] = ins->un;
  vs[0] = ins->vn;
  for (PetscInt j = 1; j < ins->sub_npoints; j++) {
    us[j] = ins->Uh[j - 1];
    vs[j] = ins->Vh[j - 1];
  }
  PetscCall(VecZeroEntries(ins->ubar));
  PetscCall(VecZeroEntries(ins->vbar));
  PetscCall(VecMAXPY(ins->ubar, ins->sub_npoints, w, us));
  PetscCall(VecMAXPY(ins->vbar, ins->sub_npoints, w, vs));
  PetscCall(ins->ops.advection(ins->ops.ctx, t, ins->ubar, ins->vbar, cu, cv, 1.0, fu, fv));
  PetscCall(VecScale(fu, -1.0));
  PetscCall(VecScale(fv, -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* U~_i(t^{n+1}) into (cu, cv): advect (u0, v0) from t0 to t1 in nsteps subcycles. */
static PetscErrorCode InsplitSubcycle(TS ts, Vec u0, Vec v0, PetscReal t0, PetscReal t1, PetscInt nsteps, Vec cu, Vec cv)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;
  Vec         xu, xv;
  PetscInt    its;

  PetscFunctionBeginUser;
  PetscCall(VecNestGetSubVec(ins->subx, 0, &xu));
  PetscCall(VecNestGetSubVec(ins->subx, 1, &xv));
  PetscCall(VecCopy(u0, xu));
  PetscCall(VecCopy(v0, xv));
  PetscCall(TSSetTime(ins->sub, t0));
  PetscCall(TSSetStepNumber(ins->sub, 0));
  PetscCall(TSSetTimeStep(ins->sub, (t1 - t0) / nsteps));
  PetscCall(TSSetMaxSteps(ins->sub, nsteps));
  PetscCall(TSSetMaxTime(ins->sub, t1 + 0.5 * (t1 - t0) / nsteps));
  PetscCall(TSSolve(ins->sub, ins->subx));
  PetscCall(TSGetStepNumber(ins->sub, &its));
  PetscCheck(its == nsteps, PetscObjectComm((PetscObject)ts), PETSC_ERR_PLIB, "Subcycling took %" PetscInt_FMT " steps instead of %" PetscInt_FMT, its, nsteps);
  PetscCall(VecCopy(xu, cu));
  PetscCall(VecCopy(xv, cv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSInsplitGetHistory_Insplit(TS ts, PetscInt *n, const char ***names, Vec **vecs)
{
  TS_Insplit              *ins                 = (TS_Insplit *)ts->data;
  static const char *const labels[5][INS_SMAX] = {
      {"ins_u_1", "ins_u_2", "ins_u_3"},
      {"ins_v_1", "ins_v_2", "ins_v_3"},
      {"ins_nu_1", "ins_nu_2", "ins_nu_3"},
      {"ins_nv_1", "ins_nv_2", "ins_nv_3"},
      {"ins_p_1", "ins_p_2", "ins_p_3"}};
  PetscInt k = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < ins->order - 1; i++) {
    ins->history_names[k] = labels[0][i], ins->history_vecs[k++] = ins->Uh[i];
    ins->history_names[k] = labels[1][i], ins->history_vecs[k++] = ins->Vh[i];
    ins->history_names[k] = labels[2][i], ins->history_vecs[k++] = ins->NUh[i];
    ins->history_names[k] = labels[3][i], ins->history_vecs[k++] = ins->NVh[i];
  }
  for (PetscInt i = 0; i < ins->pressure_order - 1; i++) ins->history_names[k] = labels[4][i], ins->history_vecs[k++] = ins->Ph[i];
  ins->history_names[k] = "ins_phi", ins->history_vecs[k++] = ins->phi; /* the pressure solve's initial guess: a restart repeats the run bit for bit */
  *n     = k;
  *names = ins->history_names;
  *vecs  = ins->history_vecs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSReset_Insplit(TS ts)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < INS_SMAX; i++) {
    PetscCall(VecDestroy(&ins->Uh[i]));
    PetscCall(VecDestroy(&ins->Vh[i]));
    PetscCall(VecDestroy(&ins->NUh[i]));
    PetscCall(VecDestroy(&ins->NVh[i]));
    PetscCall(VecDestroy(&ins->Ph[i]));
  }
  {
    Vec *work[] = {&ins->un, &ins->vn, &ins->pn, &ins->nun, &ins->nvn, &ins->uhat, &ins->vhat, &ins->gx, &ins->gy, &ins->w, &ins->b, &ins->div, &ins->phi, &ins->pstar, &ins->fu, &ins->fv, &ins->ubar, &ins->vbar, &ins->subx};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDestroy(work[k]));
  }
  PetscCall(TSDestroy(&ins->sub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSSetUp_Insplit(TS ts)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;
  Vec         u, p;
  PetscInt    nsub;

  PetscFunctionBeginUser;
  PetscCheck(ins->ops_set, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "-ts_type insplit needs the incompressible flow operators (TSInsplitSetOps); it runs the problems with physics 'ins' (e.g. -problem taylor_vortex)");
  PetscCall(VecNestGetSize(ts->vec_sol, &nsub));
  PetscCheck(nsub == 3, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "-ts_type insplit needs the solution as a VecNest (u, v, p), not %" PetscInt_FMT " blocks", nsub);
  PetscCall(TSReset_Insplit(ts));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 2, &p));
  for (PetscInt i = 0; i < ins->order - 1; i++) {
    PetscCall(VecDuplicate(u, &ins->Uh[i]));
    PetscCall(VecDuplicate(u, &ins->Vh[i]));
    PetscCall(VecDuplicate(u, &ins->NUh[i]));
    PetscCall(VecDuplicate(u, &ins->NVh[i]));
  }
  for (PetscInt i = 0; i < ins->pressure_order - 1; i++) PetscCall(VecDuplicate(p, &ins->Ph[i]));
  {
    Vec *work[] = {&ins->un, &ins->vn, &ins->nun, &ins->nvn, &ins->uhat, &ins->vhat, &ins->gx, &ins->gy, &ins->w, &ins->b, &ins->fu, &ins->fv, &ins->ubar, &ins->vbar};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDuplicate(u, work[k]));
    PetscCall(VecDuplicate(p, &ins->pn));
    PetscCall(VecDuplicate(p, &ins->div));
    PetscCall(VecDuplicate(p, &ins->phi));
    PetscCall(VecDuplicate(p, &ins->pstar));
    PetscCall(VecZeroEntries(ins->phi));
  }
  if (ins->subcycles) {
    Vec         sub[2];
    const char *prefix;
    char        subprefix[256];
    PetscCall(VecDuplicate(u, &sub[0]));
    PetscCall(VecDuplicate(u, &sub[1]));
    PetscCall(VecCreateNest(PetscObjectComm((PetscObject)ts), 2, NULL, sub, &ins->subx));
    PetscCall(VecDestroy(&sub[0]));
    PetscCall(VecDestroy(&sub[1]));
    PetscCall(TSCreate(PetscObjectComm((PetscObject)ts), &ins->sub));
    PetscCall(TSGetOptionsPrefix(ts, &prefix));
    PetscCall(PetscSNPrintf(subprefix, sizeof(subprefix), "%sins_sub_", prefix ? prefix : ""));
    PetscCall(TSSetOptionsPrefix(ins->sub, subprefix));
    PetscCall(TSSetType(ins->sub, TSRK));
    PetscCall(TSRKSetType(ins->sub, TSRKLSERK4));
    PetscCall(TSSetProblemType(ins->sub, TS_LINEAR));
    PetscCall(TSSetRHSFunction(ins->sub, NULL, InsplitSubRHS, ins));
    PetscCall(TSSetExactFinalTime(ins->sub, TS_EXACTFINALTIME_STEPOVER));
    PetscCall(TSSetFromOptions(ins->sub));
    PetscCall(TSSetSolution(ins->sub, ins->subx));
    PetscCall(TSSetUp(ins->sub));
  }
  ins->dt = 0; /* the step size, time and step number are taken at the first step (after a restart set them) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InsplitFail(TS ts, Vec u, Vec v, Vec p, const char *why)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(ins->failure, why, sizeof(ins->failure)));
  /* the solution keeps the last good state */
  PetscCall(VecCopy(ins->un, u));
  PetscCall(VecCopy(ins->vn, v));
  PetscCall(VecCopy(ins->pn, p));
  ts->reason = TS_DIVERGED_STEP_REJECTED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSStep_Insplit(TS ts)
{
  TS_Insplit     *ins = (TS_Insplit *)ts->data;
  TSInsplitOps   *o   = &ins->ops;
  const PetscReal dt = ins->dt, nu = o->nu, tn = ts->ptime;
  const PetscReal tn1 = InsplitNextTime(tn, dt);
  PetscInt        hist, S, q, its;
  PetscReal       gamma, beta[3], alpha[3], lambda;
  Vec             u, v, p;

  PetscFunctionBeginUser;
  if (ins->dt == 0) { /* the first step of this run */
    ins->dt = ts->time_step;
    PetscCall(TSStep_Insplit(ts));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (PetscAbsReal(ts->time_step - ins->dt) > 1e-12 * ins->dt) {
    /* a new step size (e.g. a restart with another -ts_dt): the history was taken at the old one, so
     * start again from this state with the lower-order start-up */
    PetscCall(PetscInfo(ts, "insplit: step size %g -> %g, history restarted\n", (double)ins->dt, (double)ts->time_step));
    ins->dt            = ts->time_step;
    ins->history_given = -ts->steps;
    PetscCall(TSStep_Insplit(ts));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ins->failure[0] = 0;
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 1, &v));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 2, &p));
  /* history available: past states stored, from this run or a restart (ts->steps counts both) */
  hist = PetscMin(ts->steps + ins->history_given, ins->order - 1);
  S    = hist + 1;
  q    = PetscMin(ins->pressure_order, ts->steps + ins->history_given + 1);
  InsplitCoefficients(S, &gamma, beta, alpha);
  PetscCall(VecCopy(u, ins->un));
  PetscCall(VecCopy(v, ins->vn));
  PetscCall(VecCopy(p, ins->pn));

  /* (17a) advection */
  PetscCall(PetscLogStagePush(ins->stage_advection));
  if (!ins->subcycles) {
    Vec       us[INS_SMAX], vs[INS_SMAX], nus[INS_SMAX], nvs[INS_SMAX];
    PetscReal ab[INS_SMAX];
    PetscCall(o->advection(o->ctx, tn, ins->un, ins->vn, ins->un, ins->vn, 2.0, ins->nun, ins->nvn));
    us[0] = ins->un, vs[0] = ins->vn, nus[0] = ins->nun, nvs[0] = ins->nvn;
    for (PetscInt i = 1; i < S; i++) us[i] = ins->Uh[i - 1], vs[i] = ins->Vh[i - 1], nus[i] = ins->NUh[i - 1], nvs[i] = ins->NVh[i - 1];
    PetscCall(VecZeroEntries(ins->uhat));
    PetscCall(VecZeroEntries(ins->vhat));
    PetscCall(VecMAXPY(ins->uhat, S, beta, us));
    PetscCall(VecMAXPY(ins->vhat, S, beta, vs));
    for (PetscInt i = 0; i < S; i++) ab[i] = -dt * alpha[i];
    PetscCall(VecMAXPY(ins->uhat, S, ab, nus));
    PetscCall(VecMAXPY(ins->vhat, S, ab, nvs));
  } else {
    /* the advection term of U^n is kept in the history too (one evaluation per step), so a run may
     * restart with or without subcycles from either kind of checkpoint */
    if (ins->order > 1) PetscCall(o->advection(o->ctx, tn, ins->un, ins->vn, ins->un, ins->vn, 2.0, ins->nun, ins->nvn));
    ins->sub_npoints = S; /* U_bar through U^n, ..., U^{n-S+1} */
    for (PetscInt j = 0; j < S; j++) ins->sub_times[j] = tn - j * dt;
    PetscCall(VecZeroEntries(ins->uhat));
    PetscCall(VecZeroEntries(ins->vhat));
    for (PetscInt i = 0; i < S; i++) {
      PetscCall(InsplitSubcycle(ts, i ? ins->Uh[i - 1] : ins->un, i ? ins->Vh[i - 1] : ins->vn, tn - i * dt, tn1, (i + 1) * ins->subcycles, ins->gx, ins->gy));
      PetscCall(VecAXPY(ins->uhat, beta[i], ins->gx));
      PetscCall(VecAXPY(ins->vhat, beta[i], ins->gy));
    }
  }
  if (o->forcing) {
    PetscCall(o->forcing(o->ctx, tn1, ins->fu, ins->fv));
    PetscCall(VecAXPY(ins->uhat, dt, ins->fu));
    PetscCall(VecAXPY(ins->vhat, dt, ins->fv));
  }
  PetscCall(PetscLogStagePop());

  /* (17b) velocity: (-L + lambda) U^^ = M (U^/(nu dt) - G P* / nu) + boundary terms */
  PetscCall(PetscLogStagePush(ins->stage_velocity));
  PetscCall(VecZeroEntries(ins->pstar));
  if (q >= 1) PetscCall(VecAXPY(ins->pstar, q == 1 ? 1.0 : 2.0, ins->pn));
  if (q >= 2) PetscCall(VecAXPY(ins->pstar, -1.0, ins->Ph[0]));
  lambda = gamma / (nu * dt);
  if (q >= 1) PetscCall(o->gradient(o->ctx, tn1, ins->pstar, NULL, ins->gx, ins->gy));
  ins->vel_its = 0;
  for (PetscInt c = 0; c < 2; c++) {
    Vec hat = c ? ins->vhat : ins->uhat, x = c ? v : u;
    PetscCall(VecCopy(hat, ins->w));
    PetscCall(VecScale(ins->w, 1.0 / (nu * dt)));
    if (q >= 1) PetscCall(VecAXPY(ins->w, -1.0 / nu, c ? ins->gy : ins->gx));
    PetscCall(o->mass(o->ctx, ins->w, ins->b));
    PetscCall(VecCopy(c ? ins->vn : ins->un, x)); /* initial guess */
    PetscCall(o->velocity_solve(o->ctx, tn1, lambda, c, ins->b, x, &its));
    ins->vel_its += its;
  }
  PetscCall(PetscLogStagePop());

  /* (17c) pressure increment: -L phi = -(gamma/dt) M D U^^ + boundary terms */
  PetscCall(PetscLogStagePush(ins->stage_pressure));
  PetscCall(o->divergence(o->ctx, tn1, u, v, ins->div));
  PetscCall(o->mass(o->ctx, ins->div, ins->b));
  PetscCall(VecScale(ins->b, -gamma / dt));
  PetscCall(o->pressure_solve(o->ctx, tn1, ins->pstar, ins->b, ins->phi, &its));
  ins->pres_its = its;
  PetscCall(PetscLogStagePop());

  /* (17d) projection and pressure update */
  PetscCall(PetscLogStagePush(ins->stage_update));
  PetscCall(o->gradient(o->ctx, tn1, ins->phi, ins->pstar, ins->gx, ins->gy));
  PetscCall(VecAXPY(u, -dt / gamma, ins->gx));
  PetscCall(VecAXPY(v, -dt / gamma, ins->gy));
  PetscCall(VecWAXPY(p, 1.0, ins->pstar, ins->phi));
  ts->ksp_its += ins->vel_its + ins->pres_its;
  {
    PetscReal umax, vmax, pmax;
    PetscCall(VecNorm(u, NORM_INFINITY, &umax));
    PetscCall(VecNorm(v, NORM_INFINITY, &vmax));
    PetscCall(VecNorm(p, NORM_INFINITY, &pmax));
    if (PetscIsInfOrNanReal(umax) || PetscIsInfOrNanReal(vmax) || PetscIsInfOrNanReal(pmax) || PetscMax(umax, vmax) > ins->divergence_factor * o->velocity_scale) {
      char why[512];
      PetscCall(PetscSNPrintf(why, sizeof(why), "step %" PetscInt_FMT " (t = %g to %g) diverged: max |u| = %g, |v| = %g, |p| = %g exceed %g times the reference speed %g. The time step dt = %g is beyond the advective stability limit%s: use subcycles (-ins_subcycles %" PetscInt_FMT ") or a smaller -ts_dt", ts->steps, (double)tn, (double)tn1, (double)umax, (double)vmax, (double)pmax, (double)ins->divergence_factor, (double)o->velocity_scale, (double)dt, ins->subcycles ? " of the subcycles" : "", ins->subcycles ? 2 * ins->subcycles : 4));
      PetscCall(InsplitFail(ts, u, v, p, why));
      PetscCall(PetscLogStagePop());
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* accepted: shift the history */
  if (ins->order > 1) {
    Vec tu = ins->Uh[ins->order - 2], tv = ins->Vh[ins->order - 2], tnu = ins->NUh[ins->order - 2], tnv = ins->NVh[ins->order - 2];
    for (PetscInt i = ins->order - 2; i > 0; i--) {
      ins->Uh[i] = ins->Uh[i - 1], ins->Vh[i] = ins->Vh[i - 1];
      ins->NUh[i] = ins->NUh[i - 1], ins->NVh[i] = ins->NVh[i - 1];
    }
    ins->Uh[0] = tu, ins->Vh[0] = tv, ins->NUh[0] = tnu, ins->NVh[0] = tnv;
    PetscCall(VecCopy(ins->un, ins->Uh[0]));
    PetscCall(VecCopy(ins->vn, ins->Vh[0]));
    PetscCall(VecCopy(ins->nun, ins->NUh[0]));
    PetscCall(VecCopy(ins->nvn, ins->NVh[0]));
  }
  if (ins->pressure_order > 1) {
    Vec tp = ins->Ph[ins->pressure_order - 2];
    for (PetscInt i = ins->pressure_order - 2; i > 0; i--) ins->Ph[i] = ins->Ph[i - 1];
    ins->Ph[0] = tp;
    PetscCall(VecCopy(ins->pn, ins->Ph[0]));
  }
  PetscCall(PetscLogStagePop());
  ts->ptime = tn1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSSetFromOptions_Insplit(TS ts, PetscOptionItems *PetscOptionsObject)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, "Incompressible flow splitting (insplit)");
  PetscCall(PetscOptionsInt("-ins_order", "Order S of the BDF/EXT splitting (1, 2, 3)", NULL, ins->order, &ins->order, NULL));
  PetscCall(PetscOptionsInt("-ins_pressure_order", "Order of the pressure extrapolation P* (0: none, 1: P^n, 2: 2P^n - P^{n-1})", NULL, ins->pressure_order, &ins->pressure_order, NULL));
  PetscCall(PetscOptionsInt("-ins_subcycles", "Advection subcycles Ns per step (semi-Lagrangian/OIFS; 0: none)", NULL, ins->subcycles, &ins->subcycles, NULL));
  PetscCall(PetscOptionsReal("-ins_divergence_factor", "Reject a step whose |u| exceeds this multiple of the reference speed", NULL, ins->divergence_factor, &ins->divergence_factor, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(ins->order >= 1 && ins->order <= INS_SMAX, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ins_order %" PetscInt_FMT " must be 1, 2 or 3", ins->order);
  PetscCheck(ins->pressure_order >= 0 && ins->pressure_order <= 2, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ins_pressure_order %" PetscInt_FMT " must be 0, 1 or 2", ins->pressure_order);
  PetscCheck(ins->subcycles >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ins_subcycles %" PetscInt_FMT " must be >= 0", ins->subcycles);
  PetscCheck(ins->divergence_factor > 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ins_divergence_factor %g must be > 1", (double)ins->divergence_factor);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSView_Insplit(TS ts, PetscViewer viewer)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;
  PetscBool   ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  BDF%" PetscInt_FMT "/EXT%" PetscInt_FMT " algebraic splitting, pressure extrapolation order %" PetscInt_FMT ", %" PetscInt_FMT " advection subcycles\n", ins->order, ins->order, ins->pressure_order, ins->subcycles));
  if (ins->sub) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(TSView(ins->sub, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSDestroy_Insplit(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSReset_Insplit(ts));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, NULL));
  PetscCall(PetscFree(ts->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSCreate_Insplit(TS ts)
{
  TS_Insplit *ins;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ins));
  ins->order              = 2;
  ins->pressure_order     = 1;
  ins->divergence_factor  = 5;
  ts->data                = ins;
  ts->ops->setup          = TSSetUp_Insplit;
  ts->ops->step           = TSStep_Insplit;
  ts->ops->reset          = TSReset_Insplit;
  ts->ops->destroy        = TSDestroy_Insplit;
  ts->ops->setfromoptions = TSSetFromOptions_Insplit;
  ts->ops->view           = TSView_Insplit;
  ts->default_adapt_type  = TSADAPTNONE;
  PetscCall(HoflowLogStageGet("INS advection", &ins->stage_advection));
  PetscCall(HoflowLogStageGet("INS velocity", &ins->stage_velocity));
  PetscCall(HoflowLogStageGet("INS pressure", &ins->stage_pressure));
  PetscCall(HoflowLogStageGet("INS update", &ins->stage_update));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, TSInsplitGetHistory_Insplit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSInsplitSetOps(TS ts, const TSInsplitOps *ops)
{
  TS_Insplit *ins;
  PetscBool   match;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSINSPLIT, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "TSInsplitSetOps needs -ts_type insplit");
  ins          = (TS_Insplit *)ts->data;
  ins->ops     = *ops;
  ins->ops_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSInsplitSetHistory(TS ts, PetscErrorCode (*fill)(void *ctx, PetscReal t, Vec u, Vec v, Vec p), void *ctx)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  PetscCall(TSSetUp(ts));
  for (PetscInt k = 0; k < PetscMax(ins->order - 1, ins->pressure_order - 1); k++) {
    const PetscReal t = ts->ptime - (k + 1) * ts->time_step;
    Vec             u = k < ins->order - 1 ? ins->Uh[k] : ins->un, v = k < ins->order - 1 ? ins->Vh[k] : ins->vn;
    PetscCall(fill(ctx, t, u, v, k < ins->pressure_order - 1 ? ins->Ph[k] : ins->pn));
    if (k < ins->order - 1) PetscCall(ins->ops.advection(ins->ops.ctx, t, u, v, u, v, 2.0, ins->NUh[k], ins->NVh[k]));
  }
  ins->history_given = PetscMax(ins->order - 1, ins->pressure_order - 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSInsplitGetFailure(TS ts, const char **message)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  *message = ins->failure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LSERK4 (Carpenter & Kennedy 1994, 5 stages, order 4) in 2N-storage form
 *   du_i = A_i du_{i-1} + dt f(t + c_i dt, u_{i-1}),   u_i = u_{i-1} + B_i du_i,
 * written as the Butcher tableau a_sj = sum_{l=j}^{s-1} B_l prod_{m=j+1}^{l} A_m (b likewise to l = 5). */
static PetscErrorCode RegisterLSERK4(void)
{
  static const PetscReal A[5]  = {0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0, -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0};
  static const PetscReal B[5]  = {1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0, 1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0, 2277821191437.0 / 14882151754819.0};
  static const PetscReal C[5]  = {0.0, 1432997174477.0 / 9575080441755.0, 2526269341429.0 / 6820363962896.0, 2006345519317.0 / 3224310063776.0, 2802321613138.0 / 2924317926251.0};
  PetscReal              a[25] = {0}, b[5];

  PetscFunctionBeginUser;
  for (PetscInt s = 0; s <= 5; s++)
    for (PetscInt j = 0; j < s; j++) {
      PetscReal sum = 0;
      for (PetscInt l = j; l < s; l++) {
        PetscReal prod = B[l];
        for (PetscInt m = j + 1; m <= l; m++) prod *= A[m];
        sum += prod;
      }
      if (s < 5)
        a[s * 5 + j] = sum;
      else
        b[j] = sum;
    }
  PetscCall(TSRKRegister(TSRKLSERK4, 4, 5, a, b, C, NULL, 0, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowTSRegisterAll(void)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(TSRegister(TSINSPLIT, TSCreate_Insplit));
  PetscCall(RegisterLSERK4());
  PetscFunctionReturn(PETSC_SUCCESS);
}
