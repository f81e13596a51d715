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
 * Why not PETSc's TS: PETSc 3.18 has no TSDIRK; TSARKIMEX in fully implicit mode takes registered tableaus
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
#include <hoflow/compat.h>
#include <hoflow/stokes.h>

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

static PetscErrorCode StokesDIRKRun(App *app)
{
  StokesDIRKTableau tab;
  StokesSystem      st;
  PetscReal         nu = app->problem.nu > 0 ? app->problem.nu : 1.0, dt = app->problem.default_dt, T = app->problem.default_max_time, a, t = 0, err_u, err_p, div;
  PetscInt          nsteps, ndofs;
  char              type[16] = "sdirk3", dirichlet[16] = "derivative", shapes[128] = "";
  PetscBool         derivative;
  Vec               x, b, un, Z, g, r_u, k[3], xu;
  PetscLogDouble    t0, t1;
  MPI_Comm          comm = app->comm;

  PetscFunctionBeginUser;
  if (!app->problem.exact_dt) PetscCall(PetscStrncpy(dirichlet, "value", sizeof(dirichlet)));
  PetscOptionsBegin(comm, NULL, "Unsteady Stokes by DIRK", NULL);
  PetscCall(PetscOptionsString("-stokes_dirk_type", "DIRK scheme: beuler, sdirk2 or sdirk3 (Alexander 1977; L-stable, stiffly accurate)", NULL, type, type, sizeof(type), NULL));
  PetscCall(PetscOptionsString("-stokes_dirk_dirichlet", "Dirichlet dofs: derivative (integrate g'(t) with the scheme) or value (g(t_i) at each stage)", NULL, dirichlet, dirichlet, sizeof(dirichlet), NULL));
  PetscCall(PetscOptionsReal("-ts_dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-ts_max_time", "Final time", NULL, T, &T, NULL));
  PetscOptionsEnd();
  PetscCall(StokesDIRKTableauGet(comm, type, &tab));
  PetscCheck(!strcmp(dirichlet, "derivative") || !strcmp(dirichlet, "value"), comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-stokes_dirk_dirichlet %s: use derivative or value", dirichlet);
  derivative = (PetscBool)!strcmp(dirichlet, "derivative");
  PetscCheck(!derivative || app->problem.exact_dt, comm, PETSC_ERR_ARG_WRONG, "-stokes_dirk_dirichlet derivative: problem %s gives no time derivative of its data (exact_dt); use -stokes_dirk_dirichlet value", app->problem_name);
  PetscCheck(dt > 0 && T > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ts_dt %g and -ts_max_time %g must be positive", (double)dt, (double)T);
  nsteps = (PetscInt)(T / dt + 0.5);
  PetscCheck(nsteps >= 1 && PetscAbsReal(nsteps * dt - T) <= 1e-10 * T, comm, PETSC_ERR_ARG_OUTOFRANGE, "-ts_max_time %g is not a whole number of steps -ts_dt %g (the fixed-step DIRK run ends on it)", (double)T, (double)dt);
  a = tab.A[0];
  PetscCall(StokesSystemCreate(app, nu, 1.0 / (nu * dt * a), &st));
  PetscCall(MatCreateVecs(st.K, &x, &b));
  PetscCall(DMCreateGlobalVector(st.u->dm, &un));
  PetscCall(VecDuplicate(un, &Z));
  PetscCall(VecDuplicate(un, &g));
  PetscCall(VecDuplicate(un, &r_u));
  for (PetscInt i = 0; i < tab.s; i++) PetscCall(VecDuplicate(un, &k[i]));
  {
    StokesPoint sp = {app, 0.0};
    PetscCall(SEMDiscInterpolate(st.u, StokesExactVelocity, &sp, un));
  }
  PetscCall(VecZeroEntries(x));
  PetscCall(PetscTime(&t0));
  for (PetscInt n = 0; n < nsteps; n++, t = n * dt) {
    for (PetscInt i = 0; i < tab.s; i++) {
      StokesPoint sp = {app, t + tab.c[i] * dt};
      PetscCall(VecCopy(un, Z));
      for (PetscInt j = 0; j < i; j++) PetscCall(VecAXPY(Z, dt * tab.A[i * tab.s + j], k[j]));
      if (derivative) { /* g = Z + dt a_ii g'(t_i): only its Dirichlet entries are read */
        PetscCall(SEMDiscInterpolate(st.u, StokesExactVelocityRate, &sp, g));
        PetscCall(VecAYPX(g, dt * a, Z));
      } else
        PetscCall(SEMDiscInterpolate(st.u, StokesExactVelocity, &sp, g));
      /* r_u = M f(t_i) / nu + lambda M Z */
      PetscCall(SEMDiscInterpolate(st.u, StokesForcing, &sp, r_u));
      PetscCall(VecScale(r_u, 1.0 / nu));
      PetscCall(VecAXPY(r_u, st.lambda, Z));
      PetscCall(VecPointwiseMult(r_u, st.u->mass, r_u));
      PetscCall(StokesSystemRightHandSide(&st, r_u, g, b));
      PetscCall(StokesSystemSolve(&st, b, x)); /* from the last stage's solution */
      PetscCall(VecGetSubVector(x, st.is[0], &xu));
      PetscCall(VecWAXPY(k[i], -1.0, Z, xu));
      PetscCall(VecScale(k[i], 1.0 / (dt * a)));
      if (i == tab.s - 1) PetscCall(VecCopy(xu, un)); /* stiffly accurate: u_{n+1} = Y_s */
      PetscCall(VecRestoreSubVector(x, st.is[0], &xu));
    }
  }
  PetscCall(PetscTime(&t1));
  t = nsteps * dt;
  PetscCall(StokesSystemErrors(&st, x, t, &err_u, &err_p, &div));
  PetscCall(VecGetSize(x, &ndofs));
  PetscCall(MeshGetShapeNames(app->mesh, shapes, sizeof(shapes)));
  PetscCall(PetscPrintf(comm,
                        "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e L2_p %.6e time %.6e steps %" PetscInt_FMT " dt %.6e dirk %s dirk_order %" PetscInt_FMT " dirichlet %s iterations %" PetscInt_FMT " max_iterations %" PetscInt_FMT " solves %" PetscInt_FMT " div %.3e pressure_null %.1e pair %s setup_s %.4e solve_s %.4e\n",
                        app->problem_name, app->disc_name, shapes, app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)err_u, (double)err_p, (double)t, nsteps, (double)dt, tab.name, tab.order, dirichlet, st.iterations, st.max_iterations, st.solves, (double)div, (double)st.null_residual, SEMStokesPairNames[st.pair], (double)st.setup_time, (double)(t1 - t0)));
  for (PetscInt i = 0; i < tab.s; i++) PetscCall(VecDestroy(&k[i]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&un));
  PetscCall(VecDestroy(&Z));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&r_u));
  PetscCall(StokesSystemDestroy(&st));
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
