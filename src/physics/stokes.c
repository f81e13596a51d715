/* The steady Stokes physics, -nu Laplace u + grad p = f, div u = 0, with Dirichlet velocity data (the
 * problem's exact solution) on every boundary face, for continuous spectral elements only (-disc sem):
 * Q_N velocity (the run's Disc, dim interlaced components) and discontinuous Q_{N-2} pressure on the
 * Gauss points (SEMPressure), the P_N - P_{N-2} pair. The momentum equation is divided by nu and the
 * pressure unknown is pi = -p / nu, so the system is symmetric with the Laplacian's own scale:
 *
 *   [ A   B^T ] [ u  ]   [ f / nu - A_ID g_D ]
 *   [ B   0   ] [ pi ] = [ -B_D g_D          ]
 *
 * A the vector Laplacian (identity rows and columns on the Dirichlet dofs, whose right-hand side is
 * g_D), B the divergence with the Dirichlet velocity dofs left out (op/sem_stokes.c). The pressure is
 * fixed up to a constant: the constant pressure is attached as the null space of the system (the
 * right-hand side projected) where it is one to round-off (affine cells; bilinear for N >= 3,
 * trilinear for N >= 4), and the reported pressure error removes both means. Elsewhere the Schur
 * preconditioner takes S's own value on the constant pressure (StokesSchurApply).
 *
 * Solver (seed 001 §5.4): FGMRES with PCFIELDSPLIT on the MatNest's two index sets, Schur type with
 * the upper factorization [A B^T; 0 S]^-1: the velocity block by 2 CG iterations on the
 * matrix-free A preconditioned by BoomerAMG on its LOR matrix (block size dim), the Schur complement
 * S = -B A^-1 B^T by the user matrix -M_p (the diagonal pressure mass w_q J_q at the Gauss points; in
 * the unscaled unknowns -M_p / nu). Options of the sub-solvers: -fieldsplit_u_ and -fieldsplit_p_
 * (options/stokes_sem.yaml; defaults set here where the user gives none). */
#include <hoflow/device.h>
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/physics.h>
#include <hoflow/sem.h>
#include <hoflow/solver.h>

typedef struct {
  App         *app;
  SEMDisc     *u;
  SEMPressure *p;
  PetscReal    nu;
  Mat          A, Plor, B0, Bfull, BT, Sp, K, P;
  IS           is[2];
  Vec          x, b;
  KSP          ksp;
  MatNullSpace nullspace;
  PetscReal    err_u, err_p, div_norm;
  PetscReal    null_residual; /* |B0^T 1| / |B^T 1|: how far the constant pressure is from the null space */
  /* the Schur preconditioner's constant mode where the constant is no null vector (StokesSchurApply) */
  PetscBool      deflate;
  Vec            mass_p, inv_sp; /* M_p 1 (w_q J_q) and the diagonal of -M_p^-1 */
  PetscReal      volume, s_c;    /* 1^T M_p 1 and 1^T S 1 = -(B0^T 1)^T A^-1 (B0^T 1) */
  PetscInt       iterations;
  PetscLogDouble setup_time, solve_time;
} Stokes;

/* the problem's exact velocity (values 0..dim-1) and pressure (value dim) as SEMVectorFunctions */
static PetscErrorCode StokesExactVelocity(const PetscReal x[], PetscReal v[], void *ctx)
{
  const App *app = (const App *)ctx;
  PetscReal  w[4];

  PetscFunctionBeginUser;
  PetscCall(app->problem.exact(app->mesh->dim, 0.0, x, app->mesh->dim + 1, w, NULL, app->problem.ctx));
  for (PetscInt d = 0; d < app->mesh->dim; d++) v[d] = w[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesExactPressure(const PetscReal x[], PetscReal v[], void *ctx)
{
  const App *app = (const App *)ctx;
  PetscReal  w[4];

  PetscFunctionBeginUser;
  PetscCall(app->problem.exact(app->mesh->dim, 0.0, x, app->mesh->dim + 1, w, NULL, app->problem.ctx));
  v[0] = w[app->mesh->dim];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesForcing(const PetscReal x[], PetscReal v[], void *ctx)
{
  const App *app = (const App *)ctx;

  PetscFunctionBeginUser;
  PetscCall(app->problem.forcing(app->mesh->dim, 0.0, x, app->mesh->dim, v, NULL, app->problem.ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An option of the sub-solvers, set only where the user gave none. */
static PetscErrorCode StokesDefaultOption(const char prefix[], const char name[], const char value[])
{
  char      option[PETSC_MAX_OPTION_NAME];
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(option, sizeof(option), "-%s%s", prefix ? prefix : "", name));
  PetscCall(PetscOptionsHasName(NULL, NULL, option, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, option, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operators: A (vector Laplacian) and its LOR matrix, B with and without the Dirichlet velocity
 * dofs, the pressure mass, the MatNest of the system and of the preconditioner. */
static PetscErrorCode StokesCreateOperators(Stokes *st)
{
  App         *app  = st->app;
  const Mesh  *mesh = app->mesh;
  MPI_Comm     comm = app->comm;
  Vec          mp, pl;
  PetscScalar *pa;
  PetscInt     np;
  Mat          blocks[4], pblocks[4];

  PetscFunctionBeginUser;
  PetscCall(DiscCreateElliptic(app->disc, 0.0, NULL, &st->A));
  PetscCall(SEMOperatorAssembleLOR(st->A, &st->Plor));
  PetscCall(SEMPressureCreate(st->u, &st->p));
  PetscCall(SEMDivergenceCreate(st->p, mesh->face_type, &st->B0));
  PetscCall(SEMDivergenceCreate(st->p, NULL, &st->Bfull));
  PetscCall(MatCreateTranspose(st->B0, &st->BT));
  /* -M_p: w_q J_q at the Gauss points of the owned elements */
  PetscCall(DMCreateGlobalVector(st->p->dm, &mp));
  PetscCall(DMGetLocalVector(st->p->dm, &pl));
  PetscCall(VecZeroEntries(pl));
  PetscCall(VecGetArray(pl, &pa));
  for (PetscInt e = 0; e < st->u->K; e++)
    for (PetscInt q = 0; q < st->p->Npp; q++) pa[st->p->offset[e] + q] = -st->p->wJ[e * st->p->Npp + q];
  PetscCall(VecRestoreArray(pl, &pa));
  PetscCall(DMLocalToGlobal(st->p->dm, pl, INSERT_VALUES, mp));
  PetscCall(DMRestoreLocalVector(st->p->dm, &pl));
  PetscCall(VecGetLocalSize(mp, &np));
  PetscCall(MatCreateAIJ(comm, np, np, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, &st->Sp));
  PetscCall(MatDiagonalSet(st->Sp, mp, INSERT_VALUES));
  PetscCall(PetscObjectSetName((PetscObject)st->Sp, "SEM pressure mass (Schur complement approximation)"));
  PetscCall(VecDuplicate(mp, &st->mass_p));
  PetscCall(VecDuplicate(mp, &st->inv_sp));
  PetscCall(VecCopy(mp, st->inv_sp));
  PetscCall(VecReciprocal(st->inv_sp));
  PetscCall(VecCopy(mp, st->mass_p));
  PetscCall(VecScale(st->mass_p, -1.0));
  PetscCall(VecSum(st->mass_p, &st->volume));
  PetscCall(VecDestroy(&mp));
  blocks[0] = st->A, blocks[1] = st->BT, blocks[2] = st->B0, blocks[3] = NULL;
  PetscCall(MatCreateNest(comm, 2, NULL, 2, NULL, blocks, &st->K));
  PetscCall(MatNestSetVecType(st->K, VECSTANDARD));
  PetscCall(MatNestGetISs(st->K, st->is, NULL));
  PetscCall(PetscObjectReference((PetscObject)st->is[0]));
  PetscCall(PetscObjectReference((PetscObject)st->is[1]));
  pblocks[0] = st->Plor, pblocks[1] = NULL, pblocks[2] = NULL, pblocks[3] = st->Sp;
  PetscCall(MatCreateNest(comm, 2, st->is, 2, st->is, pblocks, &st->P));
  PetscCall(MatNestSetVecType(st->P, VECSTANDARD));
  PetscCall(PetscObjectSetName((PetscObject)st->K, "SEM Stokes"));
  {
    /* the constant pressure: (0, 1) / |1|; how far from null: |B0^T 1| / |B^T 1| (round-off where the
     * Gauss rule integrates J div of the velocity basis: affine cells for N >= 2, bilinear for N >= 3,
     * trilinear for N >= 4) */
    Vec       n, np1, g0, g;
    PetscReal norm, n0, n1;
    PetscBool attach = PETSC_TRUE, set, deflate = PETSC_TRUE, deflate_set;
    PetscOptionsBegin(comm, NULL, "Steady Stokes", NULL);
    PetscCall(PetscOptionsBool("-stokes_pressure_null_space", "Attach the constant pressure as the system's null space and project it out of the right-hand side (default: where it is one to round-off)", NULL, attach, &attach, &set));
    PetscCall(PetscOptionsBool("-stokes_schur_deflation", "Where the constant pressure is no null vector, give the Schur preconditioner S's own value on it (default: there)", NULL, deflate, &deflate, &deflate_set));
    PetscOptionsEnd();
    PetscCall(MatCreateVecs(st->K, &n, NULL));
    PetscCall(VecZeroEntries(n));
    PetscCall(VecGetSubVector(n, st->is[1], &np1));
    PetscCall(VecSet(np1, 1.0));
    PetscCall(MatCreateVecs(st->B0, &g0, NULL));
    PetscCall(VecDuplicate(g0, &g));
    PetscCall(MatMultTranspose(st->B0, np1, g0));
    PetscCall(MatMultTranspose(st->Bfull, np1, g));
    PetscCall(VecNorm(g0, NORM_2, &n0));
    PetscCall(VecNorm(g, NORM_2, &n1));
    st->null_residual = n1 > 0 ? n0 / n1 : 0;
    if (!set) attach = (PetscBool)(st->null_residual < 1e-10);
    st->deflate = (PetscBool)(!attach && st->null_residual > 0 && (deflate_set ? deflate : PETSC_TRUE));
    if (st->deflate) {
      /* s_c = 1^T S 1 = -g0^T A^-1 g0, g0 = B0^T 1: one velocity solve (CG, BoomerAMG on the LOR matrix) */
      KSP       kA;
      PC        pcA;
      Vec       w;
      PetscReal gw;
      PetscCall(VecDuplicate(g0, &w));
      PetscCall(KSPCreate(comm, &kA));
      PetscCall(KSPSetOptionsPrefix(kA, "stokes_deflation_"));
      PetscCall(KSPSetOperators(kA, st->A, st->Plor));
      PetscCall(KSPSetType(kA, KSPCG));
      PetscCall(KSPGetPC(kA, &pcA));
      PetscCall(PCSetType(pcA, PCHYPRE));
      PetscCall(KSPSetTolerances(kA, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 500));
      PetscCall(KSPSetFromOptions(kA));
      PetscCall(KSPSolve(kA, g0, w));
      PetscCall(VecDot(g0, w, &gw));
      st->s_c = -gw;
      PetscCall(KSPDestroy(&kA));
      PetscCall(VecDestroy(&w));
    }
    PetscCall(VecDestroy(&g0));
    PetscCall(VecDestroy(&g));
    PetscCall(VecRestoreSubVector(n, st->is[1], &np1));
    PetscCall(VecNormalize(n, &norm));
    /* Where it is not a null vector (deformed cells of low order), projecting it out of the right-hand
     * side would change the continuity equation by a constant that no velocity satisfies: on
     * cube_hex_distorted.msh at N = 3 (|B0^T 1| / |B^T 1| = 1.3e-2) that made the errors 10 times
     * larger and cost their rate. The system is then nonsingular (the constant pressure weakly
     * determined), and the reported pressure error removes the means anyway. */
    if (attach) {
      PetscCall(MatNullSpaceCreate(comm, PETSC_FALSE, 1, &n, &st->nullspace));
      PetscCall(MatSetNullSpace(st->K, st->nullspace));
    }
    PetscCall(VecDestroy(&n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = (f / nu - A_ID g_D, g_D on the Dirichlet rows; -B_D g_D) */
static PetscErrorCode StokesRightHandSide(Stokes *st)
{
  App               *app = st->app;
  SEMDisc           *u   = st->u;
  Vec                g, gD, t, bu, bp;
  Mat                Afree;
  PetscInt          *free_faces, nrows, *rows, rstart;
  char              *mask;
  const PetscScalar *ga;
  PetscScalar       *gda, *ba;

  PetscFunctionBeginUser;
  PetscCall(DMCreateGlobalVector(u->dm, &g));
  PetscCall(VecDuplicate(g, &gD));
  PetscCall(VecDuplicate(g, &t));
  /* g_D: the exact velocity's interpolant on the Dirichlet dofs, zero elsewhere */
  PetscCall(SEMDiscInterpolate(u, StokesExactVelocity, app, g));
  PetscCall(SEMDiscDirichletDofs(u, app->mesh->face_type, &mask, &nrows, &rows));
  PetscCall(VecZeroEntries(gD));
  PetscCall(VecGetOwnershipRange(g, &rstart, NULL));
  PetscCall(VecGetArrayRead(g, &ga));
  PetscCall(VecGetArray(gD, &gda));
  for (PetscInt k = 0; k < nrows; k++) gda[rows[k] - rstart] = ga[rows[k] - rstart];
  PetscCall(VecRestoreArray(gD, &gda));
  PetscCall(VecRestoreArrayRead(g, &ga));
  /* the momentum: M f / nu (the collocated GLL rule), minus A g_D with no Dirichlet rows, then g_D */
  PetscCall(VecGetSubVector(st->b, st->is[0], &bu));
  PetscCall(SEMDiscInterpolate(u, StokesForcing, app, t));
  PetscCall(VecPointwiseMult(bu, u->mass, t));
  PetscCall(VecScale(bu, 1.0 / st->nu));
  PetscCall(PetscCalloc1(PetscMax(app->mesh->nslots, 1), &free_faces)); /* HOFLOW_FACE_INTERIOR: no Dirichlet dof */
  PetscCall(SEMOperatorCreate(u, 0.0, free_faces, &Afree));
  PetscCall(MatMult(Afree, gD, t));
  PetscCall(VecAXPY(bu, -1.0, t));
  PetscCall(VecGetArray(bu, &ba));
  PetscCall(VecGetArrayRead(gD, &ga));
  for (PetscInt k = 0; k < nrows; k++) ba[rows[k] - rstart] = ga[rows[k] - rstart];
  PetscCall(VecRestoreArrayRead(gD, &ga));
  PetscCall(VecRestoreArray(bu, &ba));
  PetscCall(VecRestoreSubVector(st->b, st->is[0], &bu));
  /* the continuity: -B_D g_D */
  PetscCall(VecGetSubVector(st->b, st->is[1], &bp));
  PetscCall(MatMult(st->Bfull, gD, bp));
  PetscCall(VecScale(bp, -1.0));
  PetscCall(VecRestoreSubVector(st->b, st->is[1], &bp));
  if (st->nullspace) PetscCall(MatNullSpaceRemove(st->nullspace, st->b)); /* consistent with the constant pressure */
  PetscCall(MatDestroy(&Afree));
  PetscCall(PetscFree(free_faces));
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree(rows));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&gD));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Schur complement's preconditioner where the constant pressure is no null vector of the system
 * (curved and deformed cells of low order): S then has one small eigenvalue, near the constant, that
 * -M_p misses (FGMRES spent many iterations on it: 229 to 1e-12 on the curved annulus, N = 4). With
 * r = r0 + a M_p 1, 1^T r0 = 0: y = -M_p^-1 r0 + a (1^T M_p 1 / s_c) 1, s_c = 1^T S 1, exact on S 1 when
 * S 1 is parallel to M_p 1, and -M_p^-1 on the rest. */
static PetscErrorCode StokesSchurApply(PC pc, Vec r, Vec y)
{
  Stokes   *st;
  PetscReal sum, a;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &st));
  PetscCall(VecSum(r, &sum));
  a = sum / st->volume;
  PetscCall(VecWAXPY(y, -a, st->mass_p, r));
  PetscCall(VecPointwiseMult(y, y, st->inv_sp));
  PetscCall(VecShift(y, a * st->volume / st->s_c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FGMRES + PCFIELDSPLIT (Schur, upper, user Schur preconditioner -M_p), the sub-solvers' defaults. */
static PetscErrorCode StokesCreateSolver(Stokes *st)
{
  App        *app = st->app;
  PC          pc;
  const char *prefix;
  char        uprefix[256], pprefix[256];

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(app->comm, &st->ksp));
  PetscCall(KSPSetType(st->ksp, KSPFGMRES));
  PetscCall(KSPGMRESSetRestart(st->ksp, 200));
  PetscCall(KSPSetTolerances(st->ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetOperators(st->ksp, st->K, st->P));
  PetscCall(KSPGetPC(st->ksp, &pc));
  PetscCall(PCSetType(pc, PCFIELDSPLIT));
  PetscCall(PCFieldSplitSetIS(pc, "u", st->is[0]));
  PetscCall(PCFieldSplitSetIS(pc, "p", st->is[1]));
  PetscCall(PCFieldSplitSetType(pc, PC_COMPOSITE_SCHUR));
  PetscCall(PCFieldSplitSetSchurFactType(pc, PC_FIELDSPLIT_SCHUR_FACT_UPPER));
  PetscCall(PCFieldSplitSetSchurPre(pc, PC_FIELDSPLIT_SCHUR_PRE_USER, st->Sp));
  /* the velocity block's KSP works on the matrix-free A (Amat), BoomerAMG on the LOR matrix (Pmat);
   * B and B^T of the factorization are the operator's. PCFieldSplitSetDiagUseAmat() would not last:
   * PETSc 3.18's PCSetFromOptions_FieldSplit resets both flags to the PC's useAmat before reading
   * -pc_fieldsplit_[off_]diag_use_amat, so the PC's flag is the default that options can change. */
  PetscCall(PCSetUseAmat(pc, PETSC_TRUE));
  PetscCall(KSPGetOptionsPrefix(st->ksp, &prefix));
  PetscCall(PetscSNPrintf(uprefix, sizeof(uprefix), "%sfieldsplit_u_", prefix ? prefix : ""));
  PetscCall(PetscSNPrintf(pprefix, sizeof(pprefix), "%sfieldsplit_p_", prefix ? prefix : ""));
  PetscCall(StokesDefaultOption(uprefix, "ksp_type", "cg"));
  PetscCall(StokesDefaultOption(uprefix, "ksp_max_it", "2"));
  PetscCall(StokesDefaultOption(uprefix, "ksp_norm_type", "none"));
  PetscCall(StokesDefaultOption(uprefix, "pc_type", "hypre"));
  PetscCall(StokesDefaultOption(pprefix, "ksp_type", "preonly"));
  PetscCall(StokesDefaultOption(pprefix, "pc_type", "jacobi"));
  {
    /* hoflow's BoomerAMG defaults (solver/hypre.c) under the velocity block's prefix: they go into
     * the options database, read by the sub-PC when PCSetUp creates it; a PC of that prefix stands
     * in for it here */
    PC        stand_in;
    PetscBool boomer;
    PetscCall(PCCreate(app->comm, &stand_in));
    PetscCall(PCSetOptionsPrefix(stand_in, uprefix));
    PetscCall(HoflowHypreSetDefaults(stand_in, 0.0, PETSC_FALSE, &boomer));
    PetscCall(PCDestroy(&stand_in));
  }
  PetscCall(KSPSetFromOptions(st->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesSolve(Stokes *st)
{
  App               *app = st->app;
  KSPConvergedReason reason;
  PetscReal          rnorm;
  PetscLogDouble     t0, t1, t2;
  Vec                u, pi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(st->K, &st->x, &st->b));
  PetscCall(StokesRightHandSide(st));
  PetscCall(VecZeroEntries(st->x));
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(st->ksp));
  {
    /* the blocks' solvers too (BoomerAMG's setup on the LOR matrix), which PETSc would set up
     * inside the first KSPSolve */
    PC        pc;
    KSP      *sub;
    PetscInt  nsub;
    PetscBool fieldsplit;
    PetscCall(KSPGetPC(st->ksp, &pc));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCFIELDSPLIT, &fieldsplit));
    if (fieldsplit) {
      PetscCall(PCFieldSplitGetSubKSP(pc, &nsub, &sub));
      if (st->deflate && nsub == 2) { /* the Schur block's Jacobi on -M_p becomes StokesSchurApply */
        PC        ps;
        PetscBool jacobi;
        PetscCall(KSPGetPC(sub[1], &ps));
        PetscCall(PetscObjectTypeCompare((PetscObject)ps, PCJACOBI, &jacobi));
        if (jacobi) {
          PetscCall(PCSetType(ps, PCSHELL));
          PetscCall(PCShellSetContext(ps, st));
          PetscCall(PCShellSetApply(ps, StokesSchurApply));
          PetscCall(PCShellSetName(ps, "-M_p^-1 with S's value on the constant pressure"));
        }
      }
      for (PetscInt k = 0; k < nsub; k++) PetscCall(KSPSetUp(sub[k]));
      PetscCall(PetscFree(sub));
    }
  }
  PetscCall(PetscTime(&t1));
  st->setup_time += t1 - t0; /* with the operators' and the LOR matrix's */
  PetscCall(KSPSolve(st->ksp, st->b, st->x));
  PetscCall(PetscTime(&t2));
  st->solve_time = t2 - t1;
  PetscCall(KSPGetConvergedReason(st->ksp, &reason));
  PetscCall(KSPGetIterationNumber(st->ksp, &st->iterations));
  PetscCall(KSPGetResidualNorm(st->ksp, &rnorm));
  PetscCheck(reason > 0, app->comm, PETSC_ERR_NOT_CONVERGED, "The Stokes solve did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -ksp_max_it, loosen -ksp_rtol, or give the velocity block more CG iterations (-fieldsplit_u_ksp_max_it)", KSPConvergedReasons[reason], st->iterations, (double)rnorm);
  /* errors: the velocity, and the pressure p = -nu pi, both means removed */
  PetscCall(VecGetSubVector(st->x, st->is[0], &u));
  PetscCall(SEMDiscL2ErrorVector(st->u, u, StokesExactVelocity, app, &st->err_u));
  {
    Vec bu; /* the discrete divergence of the solution, B u (all velocity dofs) */
    PetscCall(MatCreateVecs(st->Bfull, NULL, &bu));
    PetscCall(MatMult(st->Bfull, u, bu));
    PetscCall(VecNorm(bu, NORM_2, &st->div_norm));
    PetscCall(VecDestroy(&bu));
  }
  PetscCall(VecRestoreSubVector(st->x, st->is[0], &u));
  PetscCall(VecGetSubVector(st->x, st->is[1], &pi));
  PetscCall(VecScale(pi, -st->nu));
  PetscCall(SEMPressureL2Error(st->p, pi, StokesExactPressure, app, PETSC_TRUE, &st->err_p));
  PetscCall(VecScale(pi, -1.0 / st->nu));
  PetscCall(VecRestoreSubVector(st->x, st->is[1], &pi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One machine-readable summary line (tests/run.py): L2 is the velocity's error, L2_p the pressure's. */
static PetscErrorCode StokesReport(Stokes *st)
{
  App               *app = st->app;
  KSPConvergedReason reason;
  PetscInt           ndofs, nu_dofs, np_dofs;
  char               shapes[128] = "";

  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(st->ksp, &reason));
  PetscCall(VecGetSize(st->x, &ndofs));
  PetscCall(ISGetSize(st->is[0], &nu_dofs));
  PetscCall(ISGetSize(st->is[1], &np_dofs));
  PetscCall(MeshGetShapeNames(app->mesh, shapes, sizeof(shapes)));
  PetscCall(PetscPrintf(app->comm,
                        "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e iterations %" PetscInt_FMT " reason %s setup_s %.4e solve_s %.4e L2_p %.6e velocity_dofs %" PetscInt_FMT " pressure_dofs %" PetscInt_FMT " div %.3e pressure_null %.1e viscosity %g\n",
                        app->problem_name, app->disc_name, shapes, app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)st->err_u, st->iterations, KSPConvergedReasons[reason], (double)st->setup_time, (double)st->solve_time, (double)st->err_p, nu_dofs, np_dofs, (double)st->div_norm, (double)st->null_residual, (double)st->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesRun(App *app)
{
  Stokes st = {0};

  PetscFunctionBeginUser;
  st.app = app;
  st.nu  = app->problem.nu > 0 ? app->problem.nu : 1.0;
  PetscCall(DiscGetSEM(app->disc, "The steady Stokes physics (Q_N / Q_{N-2} spectral elements)", &st.u));
  { /* the divergence and the block system work on host arrays: a device vector would be copied at every apply */
    PetscBool cuda;
    PetscCall(HoflowDMIsCUDA(st.u->dm, &cuda));
    PetscCheck(!cuda, app->comm, PETSC_ERR_SUP, "-problem %s: the Stokes solver runs on the host only (its divergence operator has no CUDA kernel yet); drop -dm_vec_type cuda", app->problem_name);
  }
  PetscCheck(app->problem.exact && app->problem.forcing, app->comm, PETSC_ERR_ARG_WRONG, "Problem %s: the Stokes physics needs the exact solution (u, p) for its boundary data and a forcing", app->problem_name);
  {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(StokesCreateOperators(&st));
    PetscCall(StokesCreateSolver(&st));
    PetscCall(PetscTime(&t1));
    st.setup_time = t1 - t0;
  }
  PetscCall(StokesSolve(&st));
  PetscCall(StokesReport(&st));
  PetscCall(KSPDestroy(&st.ksp));
  PetscCall(VecDestroy(&st.x));
  PetscCall(VecDestroy(&st.b));
  PetscCall(MatNullSpaceDestroy(&st.nullspace));
  PetscCall(ISDestroy(&st.is[0]));
  PetscCall(ISDestroy(&st.is[1]));
  PetscCall(MatDestroy(&st.K));
  PetscCall(MatDestroy(&st.P));
  PetscCall(MatDestroy(&st.Sp));
  PetscCall(VecDestroy(&st.mass_p));
  PetscCall(VecDestroy(&st.inv_sp));
  PetscCall(MatDestroy(&st.BT));
  PetscCall(MatDestroy(&st.B0));
  PetscCall(MatDestroy(&st.Bfull));
  PetscCall(MatDestroy(&st.Plor));
  PetscCall(MatDestroy(&st.A));
  PetscCall(SEMPressureDestroy(&st.p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt StokesComponents(PetscInt dim)
{
  return dim; /* the velocity; the pressure has its own space */
}

/* Stokes boundary types: the velocity (Dirichlet data from the exact solution). */
PetscErrorCode PhysicsInfo_Stokes(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc            = 1;
  info->bc[0]          = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "velocity Dirichlet data"};
  info->run            = StokesRun;
  info->num_components = StokesComponents;
  info->disc           = "sem";
  PetscFunctionReturn(PETSC_SUCCESS);
}
