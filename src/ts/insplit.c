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
#define INS_DMAX 3 /* velocity components */

typedef struct {
  TSInsplitOps ops;
  PetscBool    ops_set;
  PetscInt     dim; /* velocity components: the solution is the VecNest (u_0, ..., u_{dim-1}, p) */
  PetscInt     order, pressure_order, subcycles;
  PetscInt     history_given; /* past levels supplied before the first step (TSInsplitSetHistory) */
  PetscReal    divergence_factor;
  /* history: Uh[k][c] = velocity component c at t^{n-1-k}; NUh its advection term; Ph[k] = pressure at t^{n-1-k} */
  Vec Uh[INS_SMAX][INS_DMAX], NUh[INS_SMAX][INS_DMAX], Ph[INS_SMAX];
  /* work */
  Vec           un[INS_DMAX], nun[INS_DMAX], uhat[INS_DMAX], g[INS_DMAX], fu[INS_DMAX], ubar[INS_DMAX];
  Vec           pn, w, b, div, phi, pstar;
  TS            sub;  /* subcycling integrator over the VecNest of the dim advected components */
  Vec           subx; /* its state */
  PetscReal     sub_weights[INS_SMAX], sub_times[INS_SMAX];
  PetscInt      sub_npoints;
  PetscReal     dt;         /* the constant step */
  PetscReal     history_dt; /* the step of a restored history (0: none) */
  PetscInt      vel_its, pres_its;
  char          failure[512];
  const char   *history_names[2 * INS_DMAX * INS_SMAX + INS_SMAX + 1];
  Vec           history_vecs[2 * INS_DMAX * INS_SMAX + INS_SMAX + 1];
  PetscLogStage stage_advection, stage_velocity, stage_pressure, stage_update;
} TS_Insplit;

PetscReal HoflowTSNextTime(PetscReal t, PetscReal dt)
{
  const PetscReal k = PetscFloorReal((t + dt) / dt + 0.5);
  return PetscAbsReal(t + dt - k * dt) < 1e-8 * dt ? k * dt : t + dt;
}

void HoflowBDFEXTCoefficients(PetscInt S, PetscReal *gamma, PetscReal beta[], PetscReal alpha[])
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

/* The velocity at past level i (0: U^n, i > 0: the history U^{n-i}), component c. */
static Vec InsplitPast(TS_Insplit *ins, PetscInt i, PetscInt c)
{
  return i ? ins->Uh[i - 1][c] : ins->un[c];
}

/* The subcycling right-hand side: d c~/dt = -N~(U_bar(t); c~). */
static PetscErrorCode InsplitSubRHS(TS sub, PetscReal t, Vec X, Vec F, void *ctx)
{
  TS_Insplit *ins = (TS_Insplit *)ctx;
  Vec         cx[INS_DMAX], fx[INS_DMAX];
  PetscReal   w[INS_SMAX];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < ins->dim; c++) {
    PetscCall(VecNestGetSubVec(X, c, &cx[c]));
    PetscCall(VecNestGetSubVec(F, c, &fx[c]));
  }
  LagrangeWeights(ins->sub_npoints, ins->sub_times, t, w);
  if (ins->ops.advection_extrapolated) { /* the operators form U_bar, halo included, from the past velocities' halos */
    Vec hist[INS_SMAX * INS_DMAX];
    for (PetscInt j = 0; j < ins->sub_npoints; j++)
      for (PetscInt c = 0; c < ins->dim; c++) hist[j * ins->dim + c] = InsplitPast(ins, j, c);
    PetscCall(ins->ops.advection_extrapolated(ins->ops.ctx, t, ins->sub_npoints, hist, w, cx, fx));
  } else {
    for (PetscInt c = 0; c < ins->dim; c++) {
      Vec us[INS_SMAX];
      for (PetscInt j = 0; j < ins->sub_npoints; j++) us[j] = InsplitPast(ins, j, c);
      PetscCall(VecZeroEntries(ins->ubar[c]));
      PetscCall(VecMAXPY(ins->ubar[c], ins->sub_npoints, w, us));
    }
    PetscCall(ins->ops.advection(ins->ops.ctx, t, ins->ubar, cx, 1.0, fx));
  }
  for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecScale(fx[c], -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* U~_i(t^{n+1}) into out[dim]: advect u0[dim] from t0 to t1 in nsteps subcycles. */
static PetscErrorCode InsplitSubcycle(TS ts, const Vec u0[], PetscReal t0, PetscReal t1, PetscInt nsteps, const Vec out[])
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;
  Vec         x[INS_DMAX];
  PetscInt    its;

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < ins->dim; c++) {
    PetscCall(VecNestGetSubVec(ins->subx, c, &x[c]));
    PetscCall(VecCopy(u0[c], x[c]));
  }
  PetscCall(TSSetTime(ins->sub, t0));
  PetscCall(TSSetStepNumber(ins->sub, 0));
  PetscCall(TSSetTimeStep(ins->sub, (t1 - t0) / nsteps));
  PetscCall(TSSetMaxSteps(ins->sub, nsteps));
  PetscCall(TSSetMaxTime(ins->sub, t1 + 0.5 * (t1 - t0) / nsteps));
  PetscCall(TSSolve(ins->sub, ins->subx));
  PetscCall(TSGetStepNumber(ins->sub, &its));
  PetscCheck(its == nsteps, PetscObjectComm((PetscObject)ts), PETSC_ERR_PLIB, "Subcycling took %" PetscInt_FMT " steps instead of %" PetscInt_FMT, its, nsteps);
  for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecCopy(x[c], out[c]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSInsplitGetHistory_Insplit(TS ts, PetscInt *n, const char ***names, Vec **vecs)
{
  TS_Insplit              *ins                        = (TS_Insplit *)ts->data;
  static const char *const labels[2 * INS_DMAX + 1][INS_SMAX] = {
      {"ins_u_1", "ins_u_2", "ins_u_3"},
      {"ins_v_1", "ins_v_2", "ins_v_3"},
      {"ins_w_1", "ins_w_2", "ins_w_3"},
      {"ins_nu_1", "ins_nu_2", "ins_nu_3"},
      {"ins_nv_1", "ins_nv_2", "ins_nv_3"},
      {"ins_nw_1", "ins_nw_2", "ins_nw_3"},
      {"ins_p_1", "ins_p_2", "ins_p_3"}};
  PetscInt k = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < ins->order - 1; i++) { /* in 2D: u, v, nu, nv per level */
    for (PetscInt c = 0; c < ins->dim; c++) ins->history_names[k] = labels[c][i], ins->history_vecs[k++] = ins->Uh[i][c];
    for (PetscInt c = 0; c < ins->dim; c++) ins->history_names[k] = labels[INS_DMAX + c][i], ins->history_vecs[k++] = ins->NUh[i][c];
  }
  for (PetscInt i = 0; i < ins->pressure_order - 1; i++) ins->history_names[k] = labels[2 * INS_DMAX][i], ins->history_vecs[k++] = ins->Ph[i];
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
    for (PetscInt c = 0; c < INS_DMAX; c++) {
      PetscCall(VecDestroy(&ins->Uh[i][c]));
      PetscCall(VecDestroy(&ins->NUh[i][c]));
    }
    PetscCall(VecDestroy(&ins->Ph[i]));
  }
  for (PetscInt c = 0; c < INS_DMAX; c++) {
    Vec *work[] = {&ins->un[c], &ins->nun[c], &ins->uhat[c], &ins->g[c], &ins->fu[c], &ins->ubar[c]};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDestroy(work[k]));
  }
  {
    Vec *work[] = {&ins->pn, &ins->w, &ins->b, &ins->div, &ins->phi, &ins->pstar, &ins->subx};
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
  PetscCheck(nsub == 3 || nsub == 4, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "-ts_type insplit needs the solution as a VecNest (u, v, p) or (u, v, w, p), not %" PetscInt_FMT " blocks", nsub);
  PetscCall(TSReset_Insplit(ts));
  ins->dim = nsub - 1;
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, ins->dim, &p));
  for (PetscInt i = 0; i < ins->order - 1; i++)
    for (PetscInt c = 0; c < ins->dim; c++) {
      PetscCall(VecDuplicate(u, &ins->Uh[i][c]));
      PetscCall(VecDuplicate(u, &ins->NUh[i][c]));
    }
  for (PetscInt i = 0; i < ins->pressure_order - 1; i++) PetscCall(VecDuplicate(p, &ins->Ph[i]));
  for (PetscInt c = 0; c < ins->dim; c++) {
    Vec *work[] = {&ins->un[c], &ins->nun[c], &ins->uhat[c], &ins->g[c], &ins->fu[c], &ins->ubar[c]};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDuplicate(u, work[k]));
  }
  PetscCall(VecDuplicate(u, &ins->w));
  PetscCall(VecDuplicate(u, &ins->b));
  PetscCall(VecDuplicate(p, &ins->pn));
  PetscCall(VecDuplicate(p, &ins->div));
  PetscCall(VecDuplicate(p, &ins->phi));
  PetscCall(VecDuplicate(p, &ins->pstar));
  PetscCall(VecZeroEntries(ins->phi));
  if (ins->subcycles) {
    Vec         sub[INS_DMAX];
    const char *prefix;
    char        subprefix[256];
    for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecDuplicate(u, &sub[c]));
    PetscCall(VecCreateNest(PetscObjectComm((PetscObject)ts), ins->dim, NULL, sub, &ins->subx));
    for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecDestroy(&sub[c]));
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

static PetscErrorCode InsplitFail(TS ts, const Vec u[], Vec p, const char *why)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(ins->failure, why, sizeof(ins->failure)));
  /* the solution keeps the last good state */
  for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecCopy(ins->un[c], u[c]));
  PetscCall(VecCopy(ins->pn, p));
  ts->reason = TS_DIVERGED_STEP_REJECTED;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSStep_Insplit(TS ts)
{
  TS_Insplit     *ins = (TS_Insplit *)ts->data;
  TSInsplitOps   *o   = &ins->ops;
  const PetscInt  dim = ins->dim;
  const PetscReal dt = ins->dt, nu = o->nu, tn = ts->ptime;
  const PetscReal tn1 = HoflowTSNextTime(tn, dt);
  PetscInt        hist, S, q, its;
  PetscReal       gamma, beta[3], alpha[3], lambda;
  Vec             u[INS_DMAX], p;

  PetscFunctionBeginUser;
  if (ins->dt == 0) { /* the first step of this run */
    ins->dt = ins->history_dt > 0 ? ins->history_dt : ts->time_step;
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
  for (PetscInt c = 0; c < dim; c++) PetscCall(VecNestGetSubVec(ts->vec_sol, c, &u[c]));
  PetscCall(VecNestGetSubVec(ts->vec_sol, dim, &p));
  /* history available: past states stored, from this run or a restart (ts->steps counts both) */
  hist = PetscMin(ts->steps + ins->history_given, ins->order - 1);
  S    = hist + 1;
  q    = PetscMin(ins->pressure_order, ts->steps + ins->history_given + 1);
  HoflowBDFEXTCoefficients(S, &gamma, beta, alpha);
  for (PetscInt c = 0; c < dim; c++) PetscCall(VecCopy(u[c], ins->un[c]));
  PetscCall(VecCopy(p, ins->pn));

  /* (17a) advection */
  PetscCall(PetscLogStagePush(ins->stage_advection));
  if (!ins->subcycles) {
    PetscReal ab[INS_SMAX];
    PetscCall(o->advection(o->ctx, tn, ins->un, ins->un, 2.0, ins->nun));
    for (PetscInt i = 0; i < S; i++) ab[i] = -dt * alpha[i];
    for (PetscInt c = 0; c < dim; c++) {
      Vec us[INS_SMAX], nus[INS_SMAX];
      for (PetscInt i = 0; i < S; i++) us[i] = InsplitPast(ins, i, c), nus[i] = i ? ins->NUh[i - 1][c] : ins->nun[c];
      PetscCall(VecZeroEntries(ins->uhat[c]));
      PetscCall(VecMAXPY(ins->uhat[c], S, beta, us));
      PetscCall(VecMAXPY(ins->uhat[c], S, ab, nus));
    }
  } else {
    /* the advection term of U^n is kept in the history too (one evaluation per step), so a run may
     * restart with or without subcycles from either kind of checkpoint */
    if (ins->order > 1) PetscCall(o->advection(o->ctx, tn, ins->un, ins->un, 2.0, ins->nun));
    ins->sub_npoints = S; /* U_bar through U^n, ..., U^{n-S+1} */
    for (PetscInt j = 0; j < S; j++) ins->sub_times[j] = tn - j * dt;
    for (PetscInt c = 0; c < dim; c++) PetscCall(VecZeroEntries(ins->uhat[c]));
    for (PetscInt i = 0; i < S; i++) {
      Vec u0[INS_DMAX];
      for (PetscInt c = 0; c < dim; c++) u0[c] = InsplitPast(ins, i, c);
      PetscCall(InsplitSubcycle(ts, u0, tn - i * dt, tn1, (i + 1) * ins->subcycles, ins->g));
      for (PetscInt c = 0; c < dim; c++) PetscCall(VecAXPY(ins->uhat[c], beta[i], ins->g[c]));
    }
  }
  if (o->forcing) {
    PetscCall(o->forcing(o->ctx, tn1, ins->fu));
    for (PetscInt c = 0; c < dim; c++) PetscCall(VecAXPY(ins->uhat[c], dt, ins->fu[c]));
  }
  PetscCall(PetscLogStagePop());

  /* (17b) velocity: (-L + lambda) U^^ = M (U^/(nu dt) - G P* / nu) + boundary terms */
  PetscCall(PetscLogStagePush(ins->stage_velocity));
  PetscCall(VecZeroEntries(ins->pstar));
  if (q >= 1) PetscCall(VecAXPY(ins->pstar, q == 1 ? 1.0 : 2.0, ins->pn));
  if (q >= 2) PetscCall(VecAXPY(ins->pstar, -1.0, ins->Ph[0]));
  lambda = gamma / (nu * dt);
  if (q >= 1) PetscCall(o->gradient(o->ctx, tn1, ins->pstar, NULL, ins->g));
  ins->vel_its = 0;
  for (PetscInt c = 0; c < dim; c++) {
    PetscCall(VecCopy(ins->uhat[c], ins->w));
    PetscCall(VecScale(ins->w, 1.0 / (nu * dt)));
    if (q >= 1) PetscCall(VecAXPY(ins->w, -1.0 / nu, ins->g[c]));
    PetscCall(o->mass(o->ctx, ins->w, ins->b));
    PetscCall(VecCopy(ins->un[c], u[c])); /* initial guess */
    PetscCall(o->velocity_solve(o->ctx, tn1, lambda, c, ins->b, u[c], &its));
    ins->vel_its += its;
  }
  PetscCall(PetscLogStagePop());

  /* (17c) pressure increment: -L phi = -(gamma/dt) M D U^^ + boundary terms */
  PetscCall(PetscLogStagePush(ins->stage_pressure));
  PetscCall(o->divergence(o->ctx, tn1, u, ins->div));
  PetscCall(o->mass(o->ctx, ins->div, ins->b));
  PetscCall(VecScale(ins->b, -gamma / dt));
  PetscCall(o->pressure_solve(o->ctx, tn1, ins->pstar, ins->b, ins->phi, &its));
  ins->pres_its = its;
  PetscCall(PetscLogStagePop());

  /* (17d) projection and pressure update */
  PetscCall(PetscLogStagePush(ins->stage_update));
  PetscCall(o->gradient(o->ctx, tn1, ins->phi, ins->pstar, ins->g));
  for (PetscInt c = 0; c < dim; c++) PetscCall(VecAXPY(u[c], -dt / gamma, ins->g[c]));
  PetscCall(VecWAXPY(p, 1.0, ins->pstar, ins->phi));
  ts->ksp_its += ins->vel_its + ins->pres_its;
  {
    PetscReal umax[INS_DMAX], pmax, vmax = 0;
    PetscBool bad;
    /* the dim + 1 norms in one reduction (PETSc's split reductions) */
    for (PetscInt c = 0; c < dim; c++) PetscCall(VecNormBegin(u[c], NORM_INFINITY, &umax[c]));
    PetscCall(VecNormBegin(p, NORM_INFINITY, &pmax));
    for (PetscInt c = 0; c < dim; c++) {
      PetscCall(VecNormEnd(u[c], NORM_INFINITY, &umax[c]));
      vmax = PetscMax(vmax, umax[c]);
    }
    PetscCall(VecNormEnd(p, NORM_INFINITY, &pmax));
    bad = (PetscBool)(PetscIsInfOrNanReal(pmax) || vmax > ins->divergence_factor * o->velocity_scale);
    for (PetscInt c = 0; c < dim; c++) bad = (PetscBool)(bad || PetscIsInfOrNanReal(umax[c]));
    if (bad) {
      static const char *const comp[INS_DMAX] = {"u", "v", "w"};
      char                     why[512], norms[128] = "";
      for (PetscInt c = 0; c < dim; c++) {
        char one[48];
        PetscCall(PetscSNPrintf(one, sizeof(one), "%s|%s| = %g", c ? ", " : "", comp[c], (double)umax[c]));
        PetscCall(PetscStrlcat(norms, one, sizeof(norms)));
      }
      PetscCall(PetscSNPrintf(why, sizeof(why), "step %" PetscInt_FMT " (t = %g to %g) diverged: max %s, |p| = %g exceed %g times the reference speed %g. The time step dt = %g is beyond the advective stability limit%s: use subcycles (-ins_subcycles %" PetscInt_FMT ") or a smaller -ts_dt", ts->steps, (double)tn, (double)tn1, norms, (double)pmax, (double)ins->divergence_factor, (double)o->velocity_scale, (double)dt, ins->subcycles ? " of the subcycles" : "", ins->subcycles ? 2 * ins->subcycles : 4));
      PetscCall(InsplitFail(ts, u, p, why));
      PetscCall(PetscLogStagePop());
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* accepted: shift the history */
  if (ins->order > 1) {
    for (PetscInt c = 0; c < dim; c++) {
      Vec tu = ins->Uh[ins->order - 2][c], tnu = ins->NUh[ins->order - 2][c];
      for (PetscInt i = ins->order - 2; i > 0; i--) ins->Uh[i][c] = ins->Uh[i - 1][c], ins->NUh[i][c] = ins->NUh[i - 1][c];
      ins->Uh[0][c] = tu, ins->NUh[0][c] = tnu;
      PetscCall(VecCopy(ins->un[c], ins->Uh[0][c]));
      PetscCall(VecCopy(ins->nun[c], ins->NUh[0][c]));
    }
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

static PetscErrorCode TSInsplitSetHistoryStep_Insplit(TS ts, PetscReal dt)
{
  PetscFunctionBeginUser;
  ((TS_Insplit *)ts->data)->history_dt = dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSDestroy_Insplit(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSReset_Insplit(ts));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_SET_HISTORY_STEP, NULL));
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
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_SET_HISTORY_STEP, TSInsplitSetHistoryStep_Insplit));
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

PetscErrorCode TSInsplitSetHistory(TS ts, PetscErrorCode (*fill)(void *ctx, PetscReal t, const Vec u[], Vec p), void *ctx)
{
  TS_Insplit *ins = (TS_Insplit *)ts->data;

  PetscFunctionBeginUser;
  PetscCall(TSSetUp(ts));
  for (PetscInt k = 0; k < PetscMax(ins->order - 1, ins->pressure_order - 1); k++) {
    const PetscReal t = ts->ptime - (k + 1) * ts->time_step;
    Vec             u[INS_DMAX];
    for (PetscInt c = 0; c < ins->dim; c++) u[c] = k < ins->order - 1 ? ins->Uh[k][c] : ins->un[c];
    PetscCall(fill(ctx, t, u, k < ins->pressure_order - 1 ? ins->Ph[k] : ins->pn));
    if (k < ins->order - 1) PetscCall(ins->ops.advection(ins->ops.ctx, t, u, u, 2.0, ins->NUh[k]));
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
  PetscCall(TSRegister(TSVELCORR, TSCreate_VelCorr));
  PetscCall(RegisterLSERK4());
  PetscFunctionReturn(PETSC_SUCCESS);
}
