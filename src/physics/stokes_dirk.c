/* Unsteady Stokes, u_t - nu Laplace u + grad p = f, div u = 0, with velocity Dirichlet data g(t) on every
 * boundary face, by stiffly accurate singly diagonally implicit Runge-Kutta schemes (seed 001 §4.1) on the
 * spectral-element saddle-point system of physics/stokes.c (hoflow/stokes.h; -disc sem, -stokes_pair).
 *
 * The semi-discrete system M u' + nu A u - B^T p = M f, B u = 0 is a DAE of index 2 with the pressure as
 * its algebraic variable. The reformulation for DAEs (Hairer and Wanner, Solving ODEs II §VI.1; seed eqs.
 * 32-36): stage i solves for the stage velocity Y_i and pressure P_i,
 *
 *   M (Y_i - Z_i) / (dt a_ii) + nu A Y_i - B^T P_i = M f(t_n + c_i dt),  B Y_i = 0,
 *   Z_i = u_n + dt sum_{j<i} a_ij k_j,  k_i = (Y_i - Z_i) / (dt a_ii),
 *
 * and, the scheme being stiffly accurate (b_j = a_sj, c_s = 1), u_{n+1} = Y_s, p_{n+1} = P_s: the pressure
 * is never integrated, only solved for. Divided by nu with pi = -p / nu, each stage is the symmetric
 * saddle-point system of hoflow/stokes.h with lambda = 1 / (nu dt a_ii), the same for every stage of a
 * singly implicit scheme: one set of operators, LOR matrices and BoomerAMG setups for the whole run. The
 * Schur complement -B (A + lambda M)^-1 B^T is preconditioned by -(M_p^-1 + lambda L_p^-1) (seed eq. 58).
 *
 * The Dirichlet dofs (-stokes_dirk_dirichlet):
 *  - derivative (the default where the problem gives exact_dt): they are differential variables with
 *    u_D' = g'(t), integrated by the same scheme: Y_D = Z_D + dt a_ii g'(t_i). Then the full discrete
 *    divergence of every stage stays zero (B k_i = 0), so the stage pressure is the same function of the
 *    stage velocity as the exact pressure of the exact velocity, and the pressure keeps the scheme's order.
 *  - value: Y_D = g(t_i), the data imposed at each stage. The constraint B0 Y_I = -B_D g(t_i) then makes
 *    B0 k_i a Runge-Kutta difference quotient of the data, accurate to the stage order (1 for these
 *    schemes), and the pressure converges at first order only (the index-2 order reduction).
 *
 * Why not PETSc's integrators (the step is a TS type of its own below, so the run has the time-dependent
 * driver's output and restarts): PETSc 3.18 has no TSDIRK; TSARKIMEX in fully implicit mode takes registered tableaus
 * and treats rows without a time derivative as algebraic, which is the reformulation above, but the stage
 * solve it hands to SNES has the Jacobian shift * dF/dU' + dF/dU with the Dirichlet rows either algebraic
 * (the value variant: order 1 in the pressure) or shift * I on differential rows coupled to the interior by
 * A_ID, which is not the symmetric operator with identity Dirichlet rows and columns that the block
 * preconditioner (CG on the velocity block) needs; the stage values of the Dirichlet dofs must be known
 * before the solve to lift them. A stepper of forty lines does that directly.
 *
 * Tableaus (-stokes_dirk_type), all L-stable and stiffly accurate, singly diagonal:
 *   beuler  backward Euler, order 1;
 *   sdirk2  R. Alexander, Diagonally implicit Runge-Kutta methods for stiff O.D.E.'s, SIAM J. Numer. Anal.
 *           14 (1977) 1006-1021, the 2-stage order-2 scheme, gamma = 1 - 1/sqrt(2);
 *   sdirk3  the same paper's 3-stage order-3 scheme, gamma the root near 0.4359 of
 *           x^3 - 3 x^2 + 3 x / 2 - 1/6, c = (gamma, (1 + gamma)/2, 1). */
#include <petsc/private/tsimpl.h>
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/stokes.h>
#include <hoflow/ts.h>
#include <hoflow/unsteady.h>

typedef struct {
  char      name[16];
  PetscInt  order, s;
  PetscReal A[9], c[3];
} StokesDIRKTableau;

static const char *const StokesDIRKTypes = "beuler, sdirk2, sdirk3";

static PetscErrorCode StokesDIRKTableauGet(MPI_Comm comm, const char name[], StokesDIRKTableau *tab)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(tab, sizeof(*tab)));
  PetscCall(PetscStrncpy(tab->name, name, sizeof(tab->name)));
  if (!strcmp(name, "beuler")) {
    tab->order = 1, tab->s = 1;
    tab->A[0] = 1, tab->c[0] = 1;
  } else if (!strcmp(name, "sdirk2")) {
    const PetscReal g = 1 - 1 / PetscSqrtReal(2.0);
    tab->order = 2, tab->s = 2;
    tab->A[0] = g, tab->A[2] = 1 - g, tab->A[3] = g;
    tab->c[0] = g, tab->c[1] = 1;
  } else if (!strcmp(name, "sdirk3")) {
    PetscReal g = 0.4358665215, t2, b1, b2;
    for (PetscInt it = 0; it < 50; it++) g -= (((g - 3) * g + 1.5) * g - 1.0 / 6) / ((3 * g - 6) * g + 1.5); /* Newton on the cubic */
    t2         = (1 + g) / 2;
    b1         = -(6 * g * g - 16 * g + 1) / 4;
    b2         = (6 * g * g - 20 * g + 5) / 4;
    tab->order = 3, tab->s = 3;
    tab->A[0] = g;
    tab->A[3] = t2 - g, tab->A[4] = g;
    tab->A[6] = b1, tab->A[7] = b2, tab->A[8] = g;
    tab->c[0] = g, tab->c[1] = t2, tab->c[2] = 1;
  } else
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-stokes_dirk_type %s is not a DIRK scheme: use one of %s", name, StokesDIRKTypes);
  { /* consistent with this file's assumptions: rows sum to c, singly diagonal, stiffly accurate (c_s = 1) */
    for (PetscInt i = 0; i < tab->s; i++) {
      PetscReal sum = 0;
      for (PetscInt j = 0; j <= i; j++) sum += tab->A[i * tab->s + j];
      PetscCheck(PetscAbsReal(sum - tab->c[i]) < 1e-14 && tab->A[i * tab->s + i] == tab->A[0], comm, PETSC_ERR_PLIB, "DIRK tableau %s: row %" PetscInt_FMT " is inconsistent", name, i);
    }
    PetscCheck(tab->c[tab->s - 1] == 1, comm, PETSC_ERR_PLIB, "DIRK tableau %s is not stiffly accurate", name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the problem's exact velocity's time derivative at time t (a SEMVectorFunction, ctx a StokesPoint) */
static PetscErrorCode StokesExactVelocityRate(const PetscReal x[], PetscReal v[], void *ctx)
{
  const StokesPoint *sp  = (const StokesPoint *)ctx;
  const App         *app = sp->app;
  PetscReal          w[4];

  PetscFunctionBeginUser;
  PetscCall(app->problem.exact_dt(app->mesh->dim, sp->t, x, app->mesh->dim + 1, w, NULL, app->problem.ctx));
  for (PetscInt d = 0; d < app->mesh->dim; d++) v[d] = w[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The run goes through the time-dependent driver (physics/unsteady.c): its TS is of the type below, whose step
 * is the DIRK step of this file, so output (-output_interval), checkpoints (-checkpoint_interval), restarts
 * (-restart), monitors and progress are the driver's. The state is (velocity, p): the velocity on the run's
 * Q_N layout, p the pressure interpolated at the velocity's GLL nodes (a scalar Q_N field, for the output).
 * The step's own unknown pi = -p / nu on the Taylor-Hood Q_{N-1} layout is the next step's initial guess:
 * exposed as the integrator's history (HOFLOW_TS_GET_HISTORY), so a checkpoint holds it and a restart
 * continues bitwise. */
#define TSSTOKESDIRK "stokes_dirk"

typedef struct {
  App              *app;
  StokesDIRKTableau tab;
  char              dirichlet[16];
  PetscBool         derivative, created;
  PetscReal         nu, dt; /* the step the StokesSystem was built for (lambda = 1 / (nu dt a_ii)) */
  StokesSystem      st;
  Vec               x, b, Z, g, r_u, k[3];
  Disc              pi_disc;   /* the Taylor-Hood pressure layout (Q_{N-1}), of pi: the same numbering as st.p's */
  Vec               pi;        /* pi of the last stage: the history */
  Disc              out_disc;  /* scalar Q_N, the output pressure's layout */
  Vec               pe;        /* [K * Np] work: the pressure at every element's GLL nodes */
  PetscReal        *Ipq;       /* [N1 * N] the Q_{N-1} GLL basis at the Q_N GLL nodes */
  const char       *history_names[1];
  Vec               history_vecs[1];
} StokesDIRK;

/* The saddle-point system of a step dt (built again if a restart changes -ts_dt) and its vectors. */
static PetscErrorCode StokesDIRKSystem(StokesDIRK *sd, PetscReal dt)
{
  PetscFunctionBeginUser;
  if (sd->created && dt == sd->dt) PetscFunctionReturn(PETSC_SUCCESS);
  if (sd->created) {
    PetscCall(PetscInfo(NULL, "stokes_dirk: step %g -> %g, the system is built again\n", (double)sd->dt, (double)dt));
    PetscCall(VecDestroy(&sd->x));
    PetscCall(VecDestroy(&sd->b));
    PetscCall(StokesSystemDestroy(&sd->st));
  }
  PetscCall(StokesSystemCreate(sd->app, sd->nu, 1.0 / (sd->nu * dt * sd->tab.A[0]), &sd->st));
  PetscCall(MatCreateVecs(sd->st.K, &sd->x, &sd->b));
  sd->dt      = dt;
  sd->created = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p = -nu pi at the velocity's GLL nodes, element by element (Q_{N-1} in Q_N: exact), into the output field. */
static PetscErrorCode StokesDIRKOutputPressure(StokesDIRK *sd, Vec pout)
{
  SEMPressure       *p = sd->st.p;
  SEMDisc           *u = sd->st.u;
  Vec                pl;
  const PetscScalar *pa;
  PetscScalar       *ea;
  PetscReal         *pe, *work;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(p->Npe, &pe, 2 * u->Np, &work));
  PetscCall(DMGetLocalVector(p->dm, &pl));
  PetscCall(DMGlobalToLocal(p->dm, sd->pi, INSERT_VALUES, pl)); /* pi_disc's numbering is p->dm's */
  PetscCall(VecGetArrayRead(pl, &pa));
  PetscCall(VecGetArray(sd->pe, &ea));
  for (PetscInt e = 0; e < u->K; e++) {
    SEMPressureElementValues(p, pa, e, pe);
    SEMTensorInterpolate((int)u->dim, (int)p->Np1, (int)u->N1, sd->Ipq, pe, ea + e * u->Np, work);
    for (PetscInt i = 0; i < u->Np; i++) ea[e * u->Np + i] *= -sd->nu;
  }
  PetscCall(VecRestoreArray(sd->pe, &ea));
  PetscCall(VecRestoreArrayRead(pl, &pa));
  PetscCall(DMRestoreLocalVector(p->dm, &pl));
  PetscCall(DiscPointValues(sd->out_disc, pout, sd->pe, SCATTER_REVERSE));
  PetscCall(PetscFree2(pe, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One step t_n -> t_n + dt: the stages of the tableau, each the saddle-point system (see the top of the file),
 * from the last stage's solution (u_n, pi_n). */
/* The saddle-point vector x = (u, pi): the velocity state and the last stage's pressure unknown. */
static PetscErrorCode StokesDIRKStateToSystem(StokesDIRK *sd, Vec u)
{
  Vec xu, xp;

  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(sd->x, sd->st.is[0], &xu));
  PetscCall(VecCopy(u, xu));
  PetscCall(VecRestoreSubVector(sd->x, sd->st.is[0], &xu));
  PetscCall(VecGetSubVector(sd->x, sd->st.is[1], &xp));
  PetscCall(VecCopy(sd->pi, xp));
  PetscCall(VecRestoreSubVector(sd->x, sd->st.is[1], &xp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSStep_StokesDIRK(TS ts)
{
  StokesDIRK       *sd = (StokesDIRK *)ts->data;
  StokesDIRKTableau tab;
  const PetscReal   t = ts->ptime, dt = ts->time_step;
  PetscReal         a;
  PetscInt          its0;
  Vec               u, pout, xu, xp;
  App              *app;

  PetscFunctionBeginUser;
  PetscCall(StokesDIRKSystem(sd, dt));
  tab  = sd->tab;
  app  = sd->app;
  a    = tab.A[0];
  its0 = sd->st.iterations;
  PetscCall(VecNestGetSubVec(ts->vec_sol, 0, &u));
  PetscCall(VecNestGetSubVec(ts->vec_sol, 1, &pout));
  PetscCall(StokesDIRKStateToSystem(sd, u));
  for (PetscInt i = 0; i < tab.s; i++) {
    StokesPoint sp = {app, t + tab.c[i] * dt};
    PetscCall(VecCopy(u, sd->Z));
    for (PetscInt j = 0; j < i; j++) PetscCall(VecAXPY(sd->Z, dt * tab.A[i * tab.s + j], sd->k[j]));
    if (sd->derivative) { /* g = Z + dt a_ii g'(t_i): only its Dirichlet entries are read */
      PetscCall(SEMDiscInterpolate(sd->st.u, StokesExactVelocityRate, &sp, sd->g));
      PetscCall(VecAYPX(sd->g, dt * a, sd->Z));
    } else
      PetscCall(SEMDiscInterpolate(sd->st.u, StokesExactVelocity, &sp, sd->g));
    /* r_u = M f(t_i) / nu + lambda M Z */
    PetscCall(SEMDiscInterpolate(sd->st.u, StokesForcing, &sp, sd->r_u));
    PetscCall(VecScale(sd->r_u, 1.0 / sd->nu));
    PetscCall(VecAXPY(sd->r_u, sd->st.lambda, sd->Z));
    PetscCall(HoflowVecPointwiseMult(sd->r_u, sd->st.u->mass, sd->r_u));
    PetscCall(StokesSystemRightHandSide(&sd->st, sd->r_u, sd->g, sd->b));
    PetscCall(StokesSystemSolve(&sd->st, sd->b, sd->x)); /* from the last stage's solution */
    PetscCall(VecGetSubVector(sd->x, sd->st.is[0], &xu));
    PetscCall(VecWAXPY(sd->k[i], -1.0, sd->Z, xu));
    PetscCall(VecScale(sd->k[i], 1.0 / (dt * a)));
    PetscCall(VecRestoreSubVector(sd->x, sd->st.is[0], &xu));
  }
  /* stiffly accurate: u_{n+1} = Y_s, p_{n+1} = P_s */
  PetscCall(VecGetSubVector(sd->x, sd->st.is[0], &xu));
  PetscCall(VecCopy(xu, u));
  PetscCall(VecRestoreSubVector(sd->x, sd->st.is[0], &xu));
  PetscCall(VecGetSubVector(sd->x, sd->st.is[1], &xp));
  PetscCall(VecCopy(xp, sd->pi));
  PetscCall(VecRestoreSubVector(sd->x, sd->st.is[1], &xp));
  PetscCall(StokesDIRKOutputPressure(sd, pout));
  ts->ksp_its += sd->st.iterations - its0;
  ts->ptime = HoflowTSNextTime(t, dt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSStokesDIRKGetHistory(TS ts, PetscInt *n, const char ***names, Vec **vecs)
{
  StokesDIRK *sd = (StokesDIRK *)ts->data;

  PetscFunctionBeginUser;
  sd->history_names[0] = "stokes_dirk_pi";
  sd->history_vecs[0]  = sd->pi;
  *n                   = 1;
  *names               = sd->history_names;
  *vecs                = sd->history_vecs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSDestroy_StokesDIRK(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, NULL));
  ts->data = NULL; /* the physics' (StokesDIRKDestroy) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TSCreate_StokesDIRK(TS ts)
{
  PetscFunctionBeginUser;
  ts->ops->step          = TSStep_StokesDIRK;
  ts->ops->destroy       = TSDestroy_StokesDIRK;
  ts->default_adapt_type = TSADAPTNONE;
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, HOFLOW_TS_GET_HISTORY, TSStokesDIRKGetHistory));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the TS options and any restart: -ts_max_time a whole number of steps, the run stopping on it. */
static PetscErrorCode StokesDIRKSetUp(Unsteady *un)
{
  StokesDIRK *sd = (StokesDIRK *)un->physics;
  PetscReal   dt, T, t0;
  PetscInt    nsteps, max_steps, step0;

  PetscFunctionBeginUser;
  PetscCall(TSGetTimeStep(un->ts, &dt));
  PetscCall(TSGetMaxTime(un->ts, &T));
  PetscCall(TSGetTime(un->ts, &t0)); /* 0, or the restart's */
  PetscCall(TSGetStepNumber(un->ts, &step0));
  PetscCheck(dt > 0 && T > t0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ts_dt %g must be positive and -ts_max_time %g after the start t = %g", (double)dt, (double)T, (double)t0);
  nsteps = (PetscInt)((T - t0) / dt + 0.5);
  PetscCheck(nsteps >= 1 && PetscAbsReal(t0 + nsteps * dt - T) <= 1e-10 * T, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ts_max_time %g is not a whole number of steps -ts_dt %g from t = %g (the fixed-step DIRK run ends on it)", (double)T, (double)dt, (double)t0);
  PetscCall(TSGetMaxSteps(un->ts, &max_steps));
  PetscCall(TSSetMaxSteps(un->ts, PetscMin(max_steps, step0 + nsteps)));
  PetscCall(StokesDIRKSystem(sd, dt));
  if (!un->restart_file[0]) PetscCall(VecZeroEntries(sd->pi)); /* the first step's initial guess: u(0), pi = 0 */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesDIRKErrors(Unsteady *un, char summary[], size_t len)
{
  StokesDIRK *sd = (StokesDIRK *)un->physics;
  PetscReal   t, err_u, err_p, div;
  PetscInt    nu_dofs, np_dofs;

  PetscFunctionBeginUser;
  PetscCall(TSGetTime(un->ts, &t));
  { /* the state (u, pi), which a restart without a further step has not copied into x */
    Vec u;
    PetscCall(VecNestGetSubVec(un->state, 0, &u));
    PetscCall(StokesDIRKStateToSystem(sd, u));
  }
  PetscCall(StokesSystemErrors(&sd->st, sd->x, t, &err_u, &err_p, &div));
  PetscCall(ISGetSize(sd->st.is[0], &nu_dofs));
  PetscCall(ISGetSize(sd->st.is[1], &np_dofs));
  un->l2_error = err_u;
  PetscCall(PetscSNPrintf(summary, len, "L2_p %.6e dirk %s dirk_order %" PetscInt_FMT " dirichlet %s max_iterations %" PetscInt_FMT " solves %" PetscInt_FMT " div %.3e pressure_null %.1e pair %s velocity_dofs %" PetscInt_FMT " pressure_dofs %" PetscInt_FMT " setup_s %.4e solve_s %.4e", (double)err_p, sd->tab.name, sd->tab.order, sd->dirichlet, sd->st.max_iterations, sd->st.solves, (double)div, (double)sd->st.null_residual, SEMStokesPairNames[sd->st.pair], nu_dofs, np_dofs, (double)sd->st.setup_time, (double)sd->st.solve_time));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesDIRKDestroy(void **ctx)
{
  StokesDIRK *sd = (StokesDIRK *)*ctx;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&sd->k[i]));
  PetscCall(VecDestroy(&sd->Z));
  PetscCall(VecDestroy(&sd->g));
  PetscCall(VecDestroy(&sd->r_u));
  PetscCall(VecDestroy(&sd->x));
  PetscCall(VecDestroy(&sd->b));
  PetscCall(VecDestroy(&sd->pi));
  PetscCall(VecDestroy(&sd->pe));
  PetscCall(PetscFree(sd->Ipq));
  if (sd->created) PetscCall(StokesSystemDestroy(&sd->st));
  PetscCall(DiscDestroy(&sd->pi_disc));
  PetscCall(DiscDestroy(&sd->out_disc));
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesDIRKCreate(Unsteady *un)
{
  App        *app  = un->app;
  MPI_Comm    comm = un->comm;
  StokesDIRK *sd;
  char        type[16] = "sdirk3";
  SEMDisc    *u, *pspace;
  Vec         sub[2];
  PetscReal   dt = app->problem.default_dt;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&sd));
  sd->app             = app;
  sd->nu              = app->problem.nu > 0 ? app->problem.nu : 1.0;
  un->physics         = sd;
  un->physics_destroy = StokesDIRKDestroy;
  un->physics_errors  = StokesDIRKErrors;
  un->physics_setup   = StokesDIRKSetUp;
  un->own_solver      = PETSC_TRUE;
  PetscCall(PetscStrncpy(sd->dirichlet, app->problem.exact_dt ? "derivative" : "value", sizeof(sd->dirichlet)));
  PetscOptionsBegin(comm, NULL, "Unsteady Stokes by DIRK", NULL);
  PetscCall(PetscOptionsString("-stokes_dirk_type", "DIRK scheme: beuler, sdirk2 or sdirk3 (Alexander 1977; L-stable, stiffly accurate)", NULL, type, type, sizeof(type), NULL));
  PetscCall(PetscOptionsString("-stokes_dirk_dirichlet", "Dirichlet dofs: derivative (integrate g'(t) with the scheme) or value (g(t_i) at each stage)", NULL, sd->dirichlet, sd->dirichlet, sizeof(sd->dirichlet), NULL));
  PetscCall(PetscOptionsReal("-ts_dt", "Time step", NULL, dt, &dt, NULL));
  PetscOptionsEnd();
  PetscCall(StokesDIRKTableauGet(comm, type, &sd->tab));
  PetscCheck(!strcmp(sd->dirichlet, "derivative") || !strcmp(sd->dirichlet, "value"), comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-stokes_dirk_dirichlet %s: use derivative or value", sd->dirichlet);
  sd->derivative = (PetscBool)!strcmp(sd->dirichlet, "derivative");
  PetscCheck(!sd->derivative || app->problem.exact_dt, comm, PETSC_ERR_ARG_WRONG, "-stokes_dirk_dirichlet derivative: problem %s gives no time derivative of its data (exact_dt); use -stokes_dirk_dirichlet value", app->problem_name);
  PetscCheck(dt > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ts_dt %g must be positive", (double)dt);
  PetscCall(StokesDIRKSystem(sd, dt)); /* the operators and the pair's checks now; a restart of another step builds it again */

  /* the state (velocity, p at the velocity's nodes), the history pi, the work vectors */
  u = sd->st.u;
  PetscCall(DiscCreateComponents(app->mesh, "sem", app->order, 1, &sd->out_disc));
  PetscCall(DiscCreateComponents(app->mesh, "sem", sd->st.p->continuous->N, 1, &sd->pi_disc));
  PetscCall(DiscGetSEM(sd->pi_disc, "the Taylor-Hood pressure", &pspace));
  PetscCall(DMCreateGlobalVector(u->dm, &sub[0]));
  PetscCall(DMCreateGlobalVector(sd->out_disc->dm, &sub[1]));
  PetscCall(DMCreateGlobalVector(pspace->dm, &sd->pi));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, u->K * u->Np, &sd->pe));
  PetscCall(PetscMalloc1(u->N1 * sd->st.p->Np1, &sd->Ipq));
  LagrangeMatrix1D(sd->st.p->Np1, sd->st.p->xp, u->N1, u->ref->x1, sd->Ipq, NULL);
  PetscCall(VecDuplicate(sub[0], &sd->Z));
  PetscCall(VecDuplicate(sub[0], &sd->g));
  PetscCall(VecDuplicate(sub[0], &sd->r_u));
  for (PetscInt i = 0; i < sd->tab.s; i++) PetscCall(VecDuplicate(sub[0], &sd->k[i]));
  PetscCall(PetscObjectSetName((PetscObject)sub[0], "velocity"));
  PetscCall(PetscObjectSetName((PetscObject)sub[1], "p"));
  {
    StokesPoint sp = {app, 0.0};
    PetscCall(SEMDiscInterpolate(u, StokesExactVelocity, &sp, sub[0]));
  }
  PetscCall(VecZeroEntries(sd->pi));
  PetscCall(VecCreateNest(comm, 2, NULL, sub, &un->state));
  PetscCall(PetscObjectSetName((PetscObject)un->state, "velocity_p"));
  un->fields[0]      = sub[0];
  un->fields[1]      = sub[1];
  un->field_names[0] = "velocity";
  un->field_names[1] = "p";
  un->nfields        = 2;
  PetscCall(VecDestroy(&sub[0])); /* the VecNest holds them */
  PetscCall(VecDestroy(&sub[1]));

  /* the integrator */
  PetscCall(TSRegister(TSSTOKESDIRK, TSCreate_StokesDIRK));
  PetscCall(TSSetType(un->ts, TSSTOKESDIRK));
  un->ts->data         = sd;
  un->required_ts_type = TSSTOKESDIRK;
  PetscCall(TSSetExactFinalTime(un->ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetTimeStep(un->ts, app->problem.default_dt));
  if (app->problem.default_max_time > 0) PetscCall(TSSetMaxTime(un->ts, app->problem.default_max_time));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesDIRKRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, StokesDIRKCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt StokesDIRKComponents(PetscInt dim)
{
  return dim; /* the velocity; the pressure has its own space */
}

PetscErrorCode PhysicsInfo_StokesDIRK(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc            = 1;
  info->bc[0]          = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "velocity Dirichlet data"};
  info->run            = StokesDIRKRun;
  info->num_components = StokesDIRKComponents;
  info->disc           = "sem";
  PetscFunctionReturn(PETSC_SUCCESS);
}
