/* -ts_type velcorr: the velocity-correction projection of seed 001 §4.2 (Karniadakis, Israeli & Orszag
 * 1991, the "stiffly stable" scheme; Guermond & Shen 2003: its rotational form), BDF-k for the linear
 * terms and extrapolation EXT-k for the explicit ones, k = 1, 2, 3 (-velcorr_order; lower orders while
 * the history fills, unless the past levels are given: TSVelCorrSetHistory). One step from t^n to
 * t^{n+1}, with gamma, beta_i, alpha_i of HoflowBDFEXTCoefficients (shared with -ts_type insplit):
 *
 *   (42) F     = sum_i beta_i u^{n-i} / dt + sum_i alpha_i N(u^{n-i}) + f(t^{n+1})   N(u) = -(u.grad) u
 *        u*    = sum_i alpha_i u^{n-i}                                             the extrapolated velocity
 *   (46) (grad p, grad q) = (F - nu curl curl u*, grad q) - (gamma/dt) <n.u_D(t^{n+1}), q>
 *   (49) gamma/dt u^{n+1} - nu Laplace u^{n+1} = F - grad p^{n+1},  u^{n+1} = u_D(t^{n+1}) on Dirichlet faces
 *
 * (46) is the weak form of Laplace p = div F with the rotational Neumann condition (47)
 * dp/dn = n.(F - nu curl curl u* - gamma u_D / dt): the viscous term -nu curl curl u of nu Laplace u =
 * nu (grad div u - curl curl u) with div u = 0, so that the splitting error does not pollute the
 * boundary (the seed's eq. 44). Without an outflow the pressure is fixed up to a constant (48).
 *
 * The spatial operators are the physics' (TSVelCorrOps, physics/sem_ns.c); this file only composes
 * them. Past velocities and their convection terms are the history (HOFLOW_TS_GET_HISTORY for
 * checkpoints); the pressure is not extrapolated (the scheme is not incremental), it serves only as the
 * initial guess of the next pressure solve. A step whose velocity is not finite or exceeds
 * -velcorr_divergence_factor times the reference speed is rejected (TS_DIVERGED_STEP_REJECTED) and the
 * solution keeps the last good state.
 *
 * Both solves start from the projection of their right-hand side onto the last solutions (Fischer 1998; a
 * KSPGuess of type projection, solver/projection.c, on the physics' KSPs): -velcorr_pressure_projection L and
 * -velcorr_velocity_projection L keep L A-orthonormal vectors (0: none, the last step's solution is the
 * initial guess). The bases are part of the history, so a restart continues exactly. */
#include <petsc/private/tsimpl.h>
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/solver.h>
#include <hoflow/ts.h>

#define VC_SMAX 3
#define VC_PROJECTION_MAX 32 /* vectors of a projection basis */

typedef struct {
  TSVelCorrOps ops;
  PetscBool    ops_set;
  PetscInt     order, history_given;
  PetscReal    divergence_factor, dt, history_dt; /* history_dt: the step of a restored history (0: none) */
  /* Uh[k] = u^{n-1-k}, NUh[k] = N(u^{n-1-k}) */
  Vec      Uh[VC_SMAX], NUh[VC_SMAX];
  Vec      un, nun, F, ustar, f, pn;
  PetscInt pres_its, vel_its;
  char     failure[512];
  /* the projections of the pressure [0] and velocity [1] solves: basis size, the KSPGuess, its vectors */
  PetscInt      projection_size[2], projection_nvecs[2];
  KSPGuess      projection[2];
  Vec          *projection_vecs[2];
  char          projection_names[2][VC_PROJECTION_MAX][48];
  const char   *history_names[2 * VC_SMAX + 2 * VC_PROJECTION_MAX];
  Vec           history_vecs[2 * VC_SMAX + 2 * VC_PROJECTION_MAX];
  PetscLogStage stage_explicit, stage_pressure, stage_velocity;
} TS_VelCorr;

static PetscErrorCode TSReset_VelCorr(TS ts)
{
  TS_VelCorr *vc = (TS_VelCorr *)ts->data;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < VC_SMAX; k++) {
    PetscCall(VecDestroy(&vc->Uh[k]));
    PetscCall(VecDestroy(&vc->NUh[k]));
  }
  {
    Vec *work[] = {&vc->un, &vc->nun, &vc->F, &vc->ustar, &vc->f, &vc->pn};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDestroy(work[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSSetUp_VelCorr(TS ts)
{
  TS_VelCorr *vc = (TS_VelCorr *)ts->data;
  Vec         u, p;
  PetscInt    nsub;

  PetscFunctionBeginUser;
  PetscCheck(vc->ops_set, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "-ts_type velcorr needs the velocity-correction operators (TSVelCorrSetOps); it runs the problems of physics 'sem_ns' (e.g. -problem kovasznay)");
  PetscCall(VecNestGetSize(ts->vec_sol, &nsub));
  PetscCheck(nsub == 2, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "-ts_type velcorr needs the solution as a VecNest (u, p), not %" PetscInt_FMT " blocks", nsub);
  PetscCall(TSReset_VelCorr(ts));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 1, &p));
  for (PetscInt k = 0; k < vc->order - 1; k++) {
    PetscCall(VecDuplicate(u, &vc->Uh[k]));
    PetscCall(VecDuplicate(u, &vc->NUh[k]));
  }
  {
    Vec *work[] = {&vc->un, &vc->nun, &vc->F, &vc->ustar, &vc->f};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) PetscCall(VecDuplicate(u, work[k]));
  }
  PetscCall(VecDuplicate(p, &vc->pn));
  vc->dt = 0; /* taken at the first step (after a restart set it) */
  for (PetscInt k = 0; k < 2; k++) {
    static const char *const what[2] = {"pressure", "velocity"};
    KSP                      ksp     = k ? vc->ops.velocity_ksp : vc->ops.pressure_ksp;
    if (!ksp || !vc->projection_size[k] || vc->projection[k]) continue;
    PetscCall(KSPGuessCreate(PetscObjectComm((PetscObject)ts), &vc->projection[k]));
    PetscCall(KSPGuessSetType(vc->projection[k], KSPGUESSPROJECTION));
    PetscCall(KSPGuessProjectionSetSize(vc->projection[k], vc->projection_size[k]));
    PetscCall(KSPSetGuess(ksp, vc->projection[k]));
    PetscCall(KSPGuessProjectionGetVecs(vc->projection[k], k ? u : p, &vc->projection_nvecs[k], &vc->projection_vecs[k]));
    for (PetscInt i = 0; i < vc->projection_nvecs[k]; i++) PetscCall(PetscSNPrintf(vc->projection_names[k][i], sizeof(vc->projection_names[k][i]), "velcorr_%s_projection_%" PetscInt_FMT, what[k], i));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSVelCorrGetHistory_VelCorr(TS ts, PetscInt *n, const char ***names, Vec **vecs)
{
  TS_VelCorr              *vc                     = (TS_VelCorr *)ts->data;
  static const char *const labels[2][VC_SMAX - 1] = {
      {"velcorr_u_1", "velcorr_u_2"},
      {"velcorr_n_1", "velcorr_n_2"}};
  PetscInt k = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < vc->order - 1; i++) {
    vc->history_names[k] = labels[0][i], vc->history_vecs[k++] = vc->Uh[i];
    vc->history_names[k] = labels[1][i], vc->history_vecs[k++] = vc->NUh[i];
  }
  for (PetscInt j = 0; j < 2; j++)
    for (PetscInt i = 0; i < vc->projection_nvecs[j]; i++) vc->history_names[k] = vc->projection_names[j][i], vc->history_vecs[k++] = vc->projection_vecs[j][i];
  *n     = k;
  *names = vc->history_names;
  *vecs  = vc->history_vecs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The velocity at past level i (0: u^n). */
static Vec VelCorrPast(TS_VelCorr *vc, PetscInt i)
{
  return i ? vc->Uh[i - 1] : vc->un;
}

static PetscErrorCode TSStep_VelCorr(TS ts)
{
  TS_VelCorr     *vc = (TS_VelCorr *)ts->data;
  TSVelCorrOps   *o  = &vc->ops;
  const PetscReal tn = ts->ptime;
  PetscReal       dt, tn1, gamma, beta[3], alpha[3], w[VC_SMAX];
  PetscInt        S;
  Vec             u, p, us[VC_SMAX], nus[VC_SMAX];

  PetscFunctionBeginUser;
  if (vc->dt == 0) vc->dt = vc->history_dt > 0 ? vc->history_dt : ts->time_step;
  if (PetscAbsReal(ts->time_step - vc->dt) > 1e-12 * vc->dt) { /* a new step size: start the history again */
    PetscCall(PetscInfo(ts, "velcorr: step size %g -> %g, history restarted\n", (double)vc->dt, (double)ts->time_step));
    vc->dt            = ts->time_step;
    vc->history_given = -ts->steps;
  }
  dt             = vc->dt;
  tn1            = HoflowTSNextTime(tn, dt);
  vc->failure[0] = 0;
  S              = PetscMin(ts->steps + vc->history_given, vc->order - 1) + 1;
  HoflowBDFEXTCoefficients(S, &gamma, beta, alpha);
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 1, &p));
  PetscCall(VecCopy(u, vc->un));
  PetscCall(VecCopy(p, vc->pn));

  /* (42) the explicit terms F and the extrapolated velocity u* */
  PetscCall(PetscLogStagePush(vc->stage_explicit));
  PetscCall(o->convection(o->ctx, tn, vc->un, vc->nun));
  for (PetscInt i = 0; i < S; i++) {
    us[i]  = VelCorrPast(vc, i);
    nus[i] = i ? vc->NUh[i - 1] : vc->nun;
    w[i]   = beta[i] / dt;
  }
  PetscCall(VecZeroEntries(vc->F));
  PetscCall(VecMAXPY(vc->F, S, w, us));
  PetscCall(VecMAXPY(vc->F, S, alpha, nus));
  if (o->forcing) {
    PetscCall(o->forcing(o->ctx, tn1, vc->f));
    PetscCall(VecAXPY(vc->F, 1.0, vc->f));
  }
  PetscCall(VecZeroEntries(vc->ustar));
  PetscCall(VecMAXPY(vc->ustar, S, alpha, us));
  PetscCall(PetscLogStagePop());

  /* (46) the pressure, (49) the velocity */
  PetscCall(PetscLogStagePush(vc->stage_pressure));
  PetscCall(o->pressure_solve(o->ctx, tn1, gamma / dt, vc->F, vc->ustar, p, &vc->pres_its));
  PetscCall(PetscLogStagePop());
  PetscCall(PetscLogStagePush(vc->stage_velocity));
  PetscCall(VecCopy(vc->ustar, u)); /* the initial guess: u* = u^{n+1} + O(dt^k), closer than u^n (a projection replaces it) */
  PetscCall(o->velocity_solve(o->ctx, tn1, gamma / (o->nu * dt), vc->F, p, u, &vc->vel_its));
  PetscCall(PetscLogStagePop());
  ts->ksp_its += vc->pres_its + vc->vel_its;
  {
    PetscReal umax;
    PetscCall(VecNorm(u, NORM_INFINITY, &umax));
    if (PetscIsInfOrNanReal(umax) || umax > vc->divergence_factor * o->velocity_scale) {
      PetscCall(PetscSNPrintf(vc->failure, sizeof(vc->failure), "step %" PetscInt_FMT " (t = %g to %g) diverged: max |u| = %g exceeds %g times the reference speed %g. The time step dt = %g is beyond the stability limit of the explicit convection (EXT%" PetscInt_FMT "): use a smaller -ts_dt", ts->steps, (double)tn, (double)tn1, (double)umax, (double)vc->divergence_factor, (double)o->velocity_scale, (double)dt, S));
      PetscCall(VecCopy(vc->un, u));
      PetscCall(VecCopy(vc->pn, p));
      ts->reason = TS_DIVERGED_STEP_REJECTED;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  /* accepted: shift the history */
  if (vc->order > 1) {
    Vec tu = vc->Uh[vc->order - 2], tnu = vc->NUh[vc->order - 2];
    for (PetscInt i = vc->order - 2; i > 0; i--) vc->Uh[i] = vc->Uh[i - 1], vc->NUh[i] = vc->NUh[i - 1];
    vc->Uh[0] = tu, vc->NUh[0] = tnu;
    PetscCall(VecCopy(vc->un, vc->Uh[0]));
    PetscCall(VecCopy(vc->nun, vc->NUh[0]));
  }
  ts->ptime = tn1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSSetFromOptions_VelCorr(TS ts, PetscOptionItems *PetscOptionsObject)
{
  TS_VelCorr *vc = (TS_VelCorr *)ts->data;

  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, "Velocity-correction projection (velcorr)");
  PetscCall(PetscOptionsInt("-velcorr_order", "Order k of BDF-k / EXT-k (1, 2, 3)", NULL, vc->order, &vc->order, NULL));
  PetscCall(PetscOptionsReal("-velcorr_divergence_factor", "Reject a step whose |u| exceeds this multiple of the reference speed", NULL, vc->divergence_factor, &vc->divergence_factor, NULL));
  PetscCall(PetscOptionsInt("-velcorr_pressure_projection", "Start the pressure solve from the projection onto this many A-orthonormal vectors of the last solutions (0: from the last solution)", NULL, vc->projection_size[0], &vc->projection_size[0], NULL));
  PetscCall(PetscOptionsInt("-velcorr_velocity_projection", "Start the velocity solve from the projection onto this many A-orthonormal vectors of the last solutions (0: from the last solution)", NULL, vc->projection_size[1], &vc->projection_size[1], NULL));
  PetscOptionsHeadEnd();
  PetscCheck(vc->projection_size[0] >= 0 && vc->projection_size[0] <= VC_PROJECTION_MAX, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-velcorr_pressure_projection %" PetscInt_FMT " must be 0 (none) to %d", vc->projection_size[0], VC_PROJECTION_MAX);
  PetscCheck(vc->projection_size[1] >= 0 && vc->projection_size[1] <= VC_PROJECTION_MAX, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-velcorr_velocity_projection %" PetscInt_FMT " must be 0 (none) to %d", vc->projection_size[1], VC_PROJECTION_MAX);
  PetscCheck(vc->order >= 1 && vc->order <= VC_SMAX, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-velcorr_order %" PetscInt_FMT " must be 1, 2 or 3", vc->order);
  PetscCheck(vc->divergence_factor > 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-velcorr_divergence_factor %g must be > 1", (double)vc->divergence_factor);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSView_VelCorr(TS ts, PetscViewer viewer)
{
  TS_VelCorr *vc = (TS_VelCorr *)ts->data;
  PetscBool   ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "  velocity correction (rotational form), BDF%" PetscInt_FMT "/EXT%" PetscInt_FMT ", projection onto %" PetscInt_FMT " pressure and %" PetscInt_FMT " velocity solutions\n", vc->order, vc->order, vc->projection_size[0], vc->projection_size[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A restart read the history back: its step, and the projection bases to count again. */
static PetscErrorCode TSVelCorrSetHistoryStep_VelCorr(TS ts, PetscReal dt)
{
  TS_VelCorr *vc = (TS_VelCorr *)ts->data;

  PetscFunctionBeginUser;
  vc->history_dt = dt;
  for (PetscInt k = 0; k < 2; k++)
    if (vc->projection[k]) PetscCall(KSPGuessProjectionRestore(vc->projection[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSDestroy_VelCorr(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSReset_VelCorr(ts));
  for (PetscInt k = 0; k < 2; k++) PetscCall(KSPGuessDestroy(&((TS_VelCorr *)ts->data)->projection[k]));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_SET_HISTORY_STEP, NULL));
  PetscCall(PetscFree(ts->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSCreate_VelCorr(TS ts)
{
  TS_VelCorr *vc = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&vc));
  vc->order               = 2;
  vc->divergence_factor   = 5;
  vc->projection_size[0]  = 16;
  vc->projection_size[1]  = 0;
  ts->data                = vc;
  ts->ops->setup          = TSSetUp_VelCorr;
  ts->ops->step           = TSStep_VelCorr;
  ts->ops->reset          = TSReset_VelCorr;
  ts->ops->destroy        = TSDestroy_VelCorr;
  ts->ops->setfromoptions = TSSetFromOptions_VelCorr;
  ts->ops->view           = TSView_VelCorr;
  ts->default_adapt_type  = TSADAPTNONE;
  PetscCall(HoflowLogStageGet("VC explicit", &vc->stage_explicit));
  PetscCall(HoflowLogStageGet("VC pressure", &vc->stage_pressure));
  PetscCall(HoflowLogStageGet("VC velocity", &vc->stage_velocity));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, TSVelCorrGetHistory_VelCorr));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_SET_HISTORY_STEP, TSVelCorrSetHistoryStep_VelCorr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The TS's data, or an error for another type. */
static PetscErrorCode TSVelCorrGet(TS ts, const char what[], TS_VelCorr **vc)
{
  PetscBool match;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSVELCORR, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "%s needs -ts_type velcorr", what);
  *vc = (TS_VelCorr *)ts->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSVelCorrSetOps(TS ts, const TSVelCorrOps *ops)
{
  TS_VelCorr *vc = NULL;

  PetscFunctionBeginUser;
  PetscCall(TSVelCorrGet(ts, "TSVelCorrSetOps", &vc));
  vc->ops     = *ops;
  vc->ops_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSVelCorrSetHistory(TS ts, PetscErrorCode (*fill)(void *ctx, PetscReal t, Vec u), void *ctx)
{
  TS_VelCorr *vc = NULL;

  PetscFunctionBeginUser;
  PetscCall(TSVelCorrGet(ts, "TSVelCorrSetHistory", &vc));
  PetscCall(TSSetUp(ts));
  for (PetscInt k = 0; k < vc->order - 1; k++) {
    const PetscReal t = ts->ptime - (k + 1) * ts->time_step;
    PetscCall(fill(ctx, t, vc->Uh[k]));
    PetscCall(vc->ops.convection(vc->ops.ctx, t, vc->Uh[k], vc->NUh[k]));
  }
  vc->history_given = vc->order - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSVelCorrGetFailure(TS ts, const char **message)
{
  TS_VelCorr *vc = NULL;

  PetscFunctionBeginUser;
  PetscCall(TSVelCorrGet(ts, "TSVelCorrGetFailure", &vc));
  *message = vc->failure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TSVelCorrGetIterations(TS ts, PetscInt *pressure, PetscInt *velocity)
{
  TS_VelCorr *vc = NULL;

  PetscFunctionBeginUser;
  PetscCall(TSVelCorrGet(ts, "TSVelCorrGetIterations", &vc));
  if (pressure) *pressure = vc->pres_its;
  if (velocity) *velocity = vc->vel_its;
  PetscFunctionReturn(PETSC_SUCCESS);
}
