/* The steady Stokes physics, -nu Laplace u + grad p = f, div u = 0, with Dirichlet velocity data (the
 * problem's exact solution) on every boundary face, for continuous spectral elements only (-disc sem):
 * Q_N velocity (the run's Disc, dim interlaced components) and the pressure of -stokes_pair
 * (hoflow/sem.h, SEMPressure): continuous Q_{N-1} on its GLL nodes (Taylor-Hood, the default and the
 * seed's pair) or discontinuous Q_{N-2} on the Gauss points (the P_N - P_{N-2} pair). The momentum
 * equation is divided by nu and the pressure unknown is pi = -p / nu, so the system is symmetric with
 * the Laplacian's own scale:
 *
 *   [ A   B^T ] [ u  ]   [ f / nu - A_ID g_D ]
 *   [ B   0   ] [ pi ] = [ -B_D g_D          ]
 *
 * A the vector Laplacian (identity rows and columns on the Dirichlet dofs, whose right-hand side is
 * g_D), B the divergence with the Dirichlet velocity dofs left out (op/sem_stokes.c). The pressure is
 * fixed up to a constant: the constant pressure is attached as the null space of the system (the
 * right-hand side projected) where it is one to round-off (Taylor-Hood: affine, bilinear and trilinear
 * cells; qn_qn2: affine cells, bilinear for N >= 3, trilinear for N >= 4), and the reported pressure
 * error removes both means. Elsewhere the Schur preconditioner takes S's own value on the constant
 * pressure (StokesSchurApply).
 *
 * Solver (seed 001 §5.4): FGMRES with PCFIELDSPLIT on the MatNest's two index sets, Schur type with
 * the upper factorization [A B^T; 0 S]^-1: the velocity block by 3 CG iterations on the
 * matrix-free A preconditioned by BoomerAMG on its LOR matrix (block size dim), the Schur complement
 * S = -B A^-1 B^T by -M_p (in the unscaled unknowns -M_p / nu): for Taylor-Hood the consistent pressure
 * mass inverted by 3 CG iterations preconditioned by the lumped GLL mass (-stokes_schur_consistent_mass;
 * the lumped mass alone took 48-76 FGMRES iterations on hexahedra), for qn_qn2 the Gauss-point mass
 * (diagonal and consistent). The same system with A + lambda M in the velocity block is a DIRK stage of unsteady
 * Stokes (physics/stokes_dirk.c; hoflow/stokes.h). Options of the sub-solvers: -fieldsplit_u_ and
 * -fieldsplit_p_ (options/stokes_sem.yaml; defaults set here where the user gives none). */
#include <hoflow/device.h>
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/solver.h>
#include <hoflow/stokes.h>

/* the problem's exact velocity (values 0..dim-1) and pressure (value dim) and its forcing at time t */
PetscErrorCode StokesExactVelocity(const PetscReal x[], PetscReal v[], void *ctx)
{
  const StokesPoint *sp  = (const StokesPoint *)ctx;
  const App         *app = sp->app;
  PetscReal          w[4];

  PetscFunctionBeginUser;
  PetscCall(app->problem.exact(app->mesh->dim, sp->t, x, app->mesh->dim + 1, w, NULL, app->problem.ctx));
  for (PetscInt d = 0; d < app->mesh->dim; d++) v[d] = w[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesExactPressure(const PetscReal x[], PetscReal v[], void *ctx)
{
  const StokesPoint *sp  = (const StokesPoint *)ctx;
  const App         *app = sp->app;
  PetscReal          w[4];

  PetscFunctionBeginUser;
  PetscCall(app->problem.exact(app->mesh->dim, sp->t, x, app->mesh->dim + 1, w, NULL, app->problem.ctx));
  v[0] = w[app->mesh->dim];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesForcing(const PetscReal x[], PetscReal v[], void *ctx)
{
  const StokesPoint *sp  = (const StokesPoint *)ctx;
  const App         *app = sp->app;

  PetscFunctionBeginUser;
  PetscCall(app->problem.forcing(app->mesh->dim, sp->t, x, app->mesh->dim, v, NULL, app->problem.ctx));
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

/* A diagonal matrix of d (the pressure masses: Jacobi's and CG's preconditioning matrices), AIJCUSPARSE where the
 * run's vectors are CUDA vectors so that Jacobi applies it on the device. */
static PetscErrorCode StokesDiagonalMatrix(StokesSystem *st, Vec d, Mat *M)
{
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(d, &n));
  PetscCall(MatCreate(st->app->comm, M));
  PetscCall(MatSetSizes(*M, n, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*M, st->cuda ? MATAIJCUSPARSE : MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*M, 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*M, 1, NULL, 0, NULL));
  PetscCall(MatDiagonalSet(*M, d, INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operators: A + lambda M (vector Laplacian) and its LOR matrix, A without Dirichlet rows (the
 * lifting), B with and without the Dirichlet velocity dofs, the pressure mass, the MatNest of the system
 * and of the preconditioner, the constant pressure as null space or deflated mode; for lambda > 0 the
 * pressure Laplacian of the Schur preconditioner. */
static PetscErrorCode StokesCreateOperators(StokesSystem *st)
{
  App        *app  = st->app;
  const Mesh *mesh = app->mesh;
  MPI_Comm    comm = app->comm;
  Vec         mp;
  PetscInt   *free_faces;
  Mat         blocks[4], pblocks[4];
  VecType     vtype;

  PetscFunctionBeginUser;
  PetscCall(DMGetVecType(st->u->dm, &vtype)); /* the MatNests' vectors: CUDA ones with -dm_vec_type cuda */
  PetscCall(SEMStokesPairFromOptions(comm, &st->pair));
  PetscCall(SEMOperatorCreate(st->u, st->lambda, mesh->face_type, &st->A));
  PetscCall(SEMOperatorAssembleLOR(st->A, &st->Plor));
  PetscCall(PetscCalloc1(PetscMax(mesh->nslots, 1), &free_faces)); /* HOFLOW_FACE_INTERIOR: no Dirichlet dof */
  PetscCall(SEMOperatorCreate(st->u, 0.0, free_faces, &st->Afree));
  PetscCall(SEMDiscDirichletDofs(st->u, mesh->face_type, &st->dirichlet_mask, &st->ndirichlet, &st->dirichlet_rows));
  PetscCall(SEMPressureCreate(st->u, st->pair, &st->p));
  PetscCall(SEMDivergenceCreate(st->p, mesh->face_type, &st->B0));
  PetscCall(SEMDivergenceCreate(st->p, NULL, &st->Bfull));
  PetscCall(MatCreateTranspose(st->B0, &st->BT));
  /* -M_p, the diagonal pressure mass */
  PetscCall(DMCreateGlobalVector(st->p->dm, &mp));
  PetscCall(SEMPressureMass(st->p, mp));
  PetscCall(VecScale(mp, -1.0));
  PetscCall(StokesDiagonalMatrix(st, mp, &st->Sp));
  PetscCall(PetscObjectSetName((PetscObject)st->Sp, "SEM pressure mass (Schur complement approximation)"));
  PetscCall(VecDuplicate(mp, &st->mass_p));
  PetscCall(VecDuplicate(mp, &st->inv_sp));
  PetscCall(VecDuplicate(mp, &st->pwork));
  PetscCall(VecCopy(mp, st->inv_sp));
  PetscCall(VecReciprocal(st->inv_sp));
  PetscCall(VecCopy(mp, st->mass_p));
  PetscCall(VecScale(st->mass_p, -1.0));
  PetscCall(VecSum(st->mass_p, &st->volume));
  PetscCall(VecDestroy(&mp));
  blocks[0] = st->A, blocks[1] = st->BT, blocks[2] = st->B0, blocks[3] = NULL;
  {
    PetscBool fused = PETSC_TRUE;
    PetscOptionsBegin(comm, NULL, "Stokes", NULL);
    PetscCall(PetscOptionsBool("-stokes_fused_mult", "The system's MatMult applies its blocks to the velocity and pressure parts of the vectors in place (solver/blockmat.c); false: PETSc's MatNest MatMult (subvectors per call)", NULL, fused, &fused, NULL));
    PetscOptionsEnd();
    PetscCall(HoflowBlockMatCreate(comm, blocks, vtype, fused, &st->K));
  }
  PetscCall(MatNestGetISs(st->K, st->is, NULL));
  PetscCall(PetscObjectReference((PetscObject)st->is[0]));
  PetscCall(PetscObjectReference((PetscObject)st->is[1]));
  pblocks[0] = st->Plor, pblocks[1] = NULL, pblocks[2] = NULL, pblocks[3] = st->Sp;
  PetscCall(MatCreateNest(comm, 2, st->is, 2, st->is, pblocks, &st->P));
  PetscCall(MatNestSetVecType(st->P, vtype));
  PetscCall(PetscObjectSetName((PetscObject)st->K, "SEM Stokes"));
  if (st->lambda > 0) {
    /* L_p: the Laplacian of the continuous pressure space with natural (Neumann) boundaries, as B M^-1 B^T
     * is where the velocity has Dirichlet data; a tiny mass shift keeps BoomerAMG off the constant */
    PetscCheck(st->p->continuous, comm, PETSC_ERR_SUP, "-stokes_pair %s: the Schur preconditioner of a DIRK stage needs the pressure Laplacian of a continuous pressure space (seed 001 §5.4); use -stokes_pair taylor_hood", SEMStokesPairNames[st->pair]);
    PetscCall(SEMOperatorCreate(st->p->continuous, 1e-8, free_faces, &st->Lp));
    PetscCall(SEMOperatorAssembleLOR(st->Lp, &st->Lp_lor));
    PetscCall(PCCreate(comm, &st->poisson));
    PetscCall(PCSetOptionsPrefix(st->poisson, "stokes_pressure_poisson_"));
    PetscCall(PCSetOperators(st->poisson, st->Lp_lor, st->Lp_lor));
    PetscCall(HoflowAMGSetDefault(st->poisson, 0.0, st->cuda));
    PetscCall(PCSetFromOptions(st->poisson));
    PetscCall(PCSetUp(st->poisson));
  }
  PetscCall(PetscFree(free_faces));
  {
    /* M_p^-1 of the Schur preconditioner (seed 001 §5.1, §5.4). The lumped GLL mass of Q_{N-1} is only
     * spectrally equivalent to the consistent one, within a factor 2 + 1/(N - 1) per direction, so the
     * constant compounds in 3D: FGMRES took 48-76 iterations on hexahedra (N = 2..5, 2^3..8^3, to 1e-10)
     * with it, and 30-46 with 3 CG iterations on the consistent mass (the lumped mass their Jacobi
     * preconditioner). For qn_qn2 the Gauss-point mass is the consistent one already. */
    PetscBool consistent = PETSC_TRUE;
    PetscOptionsBegin(comm, NULL, "Stokes", NULL);
    PetscCall(PetscOptionsBool("-stokes_schur_consistent_mass", "Taylor-Hood: the Schur preconditioner's pressure mass is the consistent one, inverted by CG iterations (options prefix stokes_schur_mass_, 3 by default) preconditioned by the lumped one; false: the lumped GLL mass alone", NULL, consistent, &consistent, NULL));
    PetscOptionsEnd();
    st->consistent_mass = (PetscBool)(consistent && st->p->continuous);
    if (st->consistent_mass) {
      PC pcm;
      PetscCall(SEMPressureMassCreate(st->p, &st->Mc));
      PetscCall(StokesDiagonalMatrix(st, st->mass_p, &st->Ml));
      PetscCall(KSPCreate(comm, &st->mass_ksp));
      PetscCall(KSPSetOptionsPrefix(st->mass_ksp, "stokes_schur_mass_"));
      PetscCall(KSPSetOperators(st->mass_ksp, st->Mc, st->Ml));
      PetscCall(KSPSetType(st->mass_ksp, KSPCG));
      PetscCall(KSPSetNormType(st->mass_ksp, KSP_NORM_NONE));
      PetscCall(KSPSetTolerances(st->mass_ksp, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, 3));
      PetscCall(KSPGetPC(st->mass_ksp, &pcm));
      PetscCall(PCSetType(pcm, PCJACOBI));
      PetscCall(KSPSetFromOptions(st->mass_ksp));
      PetscCall(KSPSetUp(st->mass_ksp));
      PetscCall(VecDuplicate(st->mass_p, &st->mwork));
    }
  }
  {
    /* the constant pressure: (0, 1) / |1|; how far from null: |B0^T 1| / |B^T 1| */
    Vec       n, np1, g0, g;
    PetscReal norm, n0, n1;
    PetscBool attach = PETSC_TRUE, set, deflate = PETSC_TRUE, deflate_set;
    PetscOptionsBegin(comm, NULL, "Stokes", NULL);
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
    { /* no boundary flux at all (a periodic box): B^T 1 is round-off, the constant exactly null */
      PetscInt npg;
      PetscCall(VecGetSize(np1, &npg));
      st->null_residual = n1 > 1e-12 * PetscSqrtReal((PetscReal)npg) ? n0 / n1 : 0;
    }
    if (!set) attach = (PetscBool)(st->null_residual < 1e-10);
    st->deflate = (PetscBool)(!attach && st->null_residual > 0 && (deflate_set ? deflate : PETSC_TRUE));
    if (st->deflate) {
      /* s_c = 1^T S 1 = -g0^T (A + lambda M)^-1 g0, g0 = B0^T 1: one velocity solve (CG, BoomerAMG on the LOR matrix) */
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
    st->shell = (PetscBool)(st->deflate || st->lambda > 0 || st->consistent_mass);
    PetscCall(VecDestroy(&g0));
    PetscCall(VecDestroy(&g));
    PetscCall(VecRestoreSubVector(n, st->is[1], &np1));
    PetscCall(VecNormalize(n, &norm));
    /* Where it is not a null vector (deformed cells of low order), projecting it out of the right-hand
     * side would change the continuity equation by a constant that no velocity satisfies: on
     * cube_hex_distorted.msh at N = 3 with qn_qn2 (|B0^T 1| / |B^T 1| = 1.3e-2) that made the errors 10
     * times larger and cost their rate. The system is then nonsingular (the constant pressure weakly
     * determined), and the reported pressure error removes the means anyway. */
    if (attach) {
      PetscCall(MatNullSpaceCreate(comm, PETSC_FALSE, 1, &n, &st->nullspace));
      PetscCall(MatSetNullSpace(st->K, st->nullspace));
    }
    PetscCall(VecDestroy(&n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesSystemRightHandSide(StokesSystem *st, Vec r_u, Vec g, Vec b)
{
  Vec                gD, t, bu, bp;
  PetscInt           rstart;
  const PetscScalar *ga;
  PetscScalar       *gda, *ba;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(r_u, &gD));
  PetscCall(VecDuplicate(r_u, &t));
  /* g_D: g on the Dirichlet dofs, zero elsewhere */
  PetscCall(VecZeroEntries(gD));
  PetscCall(VecGetOwnershipRange(g, &rstart, NULL));
  PetscCall(VecGetArrayRead(g, &ga));
  PetscCall(VecGetArray(gD, &gda));
  for (PetscInt k = 0; k < st->ndirichlet; k++) gda[st->dirichlet_rows[k] - rstart] = ga[st->dirichlet_rows[k] - rstart];
  PetscCall(VecRestoreArray(gD, &gda));
  PetscCall(VecRestoreArrayRead(g, &ga));
  /* the momentum: r_u minus A g_D with no Dirichlet rows (M is diagonal: no lifting), then g_D */
  PetscCall(VecGetSubVector(b, st->is[0], &bu));
  PetscCall(MatMult(st->Afree, gD, t));
  PetscCall(VecWAXPY(bu, -1.0, t, r_u));
  PetscCall(VecGetArray(bu, &ba));
  PetscCall(VecGetArrayRead(gD, &ga));
  for (PetscInt k = 0; k < st->ndirichlet; k++) ba[st->dirichlet_rows[k] - rstart] = ga[st->dirichlet_rows[k] - rstart];
  PetscCall(VecRestoreArrayRead(gD, &ga));
  PetscCall(VecRestoreArray(bu, &ba));
  PetscCall(VecRestoreSubVector(b, st->is[0], &bu));
  /* the continuity: -B_D g_D */
  PetscCall(VecGetSubVector(b, st->is[1], &bp));
  PetscCall(MatMult(st->Bfull, gD, bp));
  PetscCall(VecScale(bp, -1.0));
  PetscCall(VecRestoreSubVector(b, st->is[1], &bp));
  if (st->nullspace) PetscCall(MatNullSpaceRemove(st->nullspace, b)); /* consistent with the constant pressure */
  PetscCall(VecDestroy(&gD));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Schur complement's preconditioner where -M_p alone is not enough:
 * - where the constant pressure is no null vector of the system (curved and deformed cells of low order),
 *   S has one small eigenvalue, near the constant, that -M_p misses (FGMRES spent many iterations on it:
 *   229 to 1e-12 on the curved annulus, N = 4). With r = r0 + a M_p 1, 1^T r0 = 0: y = -M_p^-1 r0 +
 *   a (1^T M_p 1 / s_c) 1, s_c = 1^T S 1, exact on S 1 when S 1 is parallel to M_p 1, and -M_p^-1 on the rest.
 * - in a DIRK stage (lambda > 0), S = -B0 (A + lambda M)^-1 B0^T ~ -(M_p^-1 + lambda L_p^-1)^-1 (seed 001
 *   eq. 58, the Cahouet-Chabard combination): y -= lambda L_p^-1 r0, L_p^-1 one BoomerAMG V-cycle on the
 *   LOR matrix of the pressure Laplacian, on the mean-free part r0 and made mean-free (the constant is
 *   the mass term's). */
static PetscErrorCode StokesSchurApply(PC pc, Vec r, Vec y)
{
  StokesSystem *st;
  PetscReal     sum, a;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &st));
  PetscCall(VecSum(r, &sum));
  a = sum / st->volume;
  PetscCall(VecWAXPY(y, -a, st->mass_p, r)); /* r0 */
  if (st->lambda > 0) {
    PetscReal mean;
    PetscCall(PCApply(st->poisson, y, st->pwork));
    PetscCall(VecDot(st->pwork, st->mass_p, &mean));
    PetscCall(VecShift(st->pwork, -mean / st->volume));
  }
  if (st->consistent_mass) {
    PetscCall(KSPSolve(st->mass_ksp, y, st->mwork));
    PetscCall(VecAXPBY(y, -1.0, 0.0, st->mwork));
  } else
    PetscCall(HoflowVecPointwiseMult(y, y, st->inv_sp));
  if (st->lambda > 0) PetscCall(VecAXPY(y, -st->lambda, st->pwork));
  PetscCall(VecShift(y, st->deflate ? a * st->volume / st->s_c : -a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FGMRES + PCFIELDSPLIT (Schur, upper, user Schur preconditioner -M_p), the sub-solvers' defaults. */
static PetscErrorCode StokesCreateSolver(StokesSystem *st)
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
  PetscCall(StokesDefaultOption(uprefix, "ksp_max_it", "3"));
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
    PetscCall(HoflowHypreSetDefaults(stand_in, 0.0, st->cuda, &boomer));
    PetscCall(PCDestroy(&stand_in));
  }
  PetscCall(KSPSetFromOptions(st->ksp));
  PetscCall(KSPSetUp(st->ksp));
  {
    /* the blocks' solvers too (BoomerAMG's setup on the LOR matrix), which PETSc would set up
     * inside the first KSPSolve */
    KSP      *sub;
    PetscInt  nsub;
    PetscBool fieldsplit;
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCFIELDSPLIT, &fieldsplit));
    if (fieldsplit) {
      PetscCall(PCFieldSplitGetSubKSP(pc, &nsub, &sub));
      if (st->shell && nsub == 2) { /* the Schur block's Jacobi on -M_p becomes StokesSchurApply */
        PC        ps;
        PetscBool jacobi;
        PetscCall(KSPGetPC(sub[1], &ps));
        PetscCall(PetscObjectTypeCompare((PetscObject)ps, PCJACOBI, &jacobi));
        if (jacobi) {
          PetscCall(PCSetType(ps, PCSHELL));
          PetscCall(PCShellSetContext(ps, st));
          PetscCall(PCShellSetApply(ps, StokesSchurApply));
          PetscCall(PCShellSetName(ps, st->lambda > 0 ? "-(M_p^-1 + lambda L_p^-1) (pressure mass and LOR-AMG pressure Poisson)" : "-M_p^-1 with S's value on the constant pressure"));
        }
      }
      for (PetscInt k = 0; k < nsub; k++) PetscCall(KSPSetUp(sub[k]));
      PetscCall(PetscFree(sub));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesSystemCreate(App *app, PetscReal nu, PetscReal lambda, StokesSystem *st)
{
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->app    = app;
  st->nu     = nu;
  st->lambda = lambda;
  PetscCall(DiscGetSEM(app->disc, "The Stokes physics (spectral elements)", &st->u));
  PetscCall(HoflowDMIsCUDA(st->u->dm, &st->cuda)); /* -dm_vec_type cuda: every operator on the device (op/sem.c, op/sem_stokes.c) */
  PetscCheck(app->problem.exact && app->problem.forcing, app->comm, PETSC_ERR_ARG_WRONG, "Problem %s: the Stokes physics needs the exact solution (u, p) for its boundary data and a forcing", app->problem_name);
  PetscCall(PetscTime(&t0));
  PetscCall(StokesCreateOperators(st));
  PetscCall(StokesCreateSolver(st));
  PetscCall(PetscTime(&t1));
  st->setup_time = t1 - t0; /* with the operators', the LOR matrices' and BoomerAMG's */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesSystemSolve(StokesSystem *st, Vec b, Vec x)
{
  KSPConvergedReason reason;
  PetscReal          rnorm;
  PetscInt           its;
  PetscLogDouble     t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(st->ksp, b, x));
  PetscCall(PetscTime(&t1));
  st->solve_time += t1 - t0;
  PetscCall(KSPGetConvergedReason(st->ksp, &reason));
  PetscCall(KSPGetIterationNumber(st->ksp, &its));
  PetscCall(KSPGetResidualNorm(st->ksp, &rnorm));
  PetscCheck(reason > 0, st->app->comm, PETSC_ERR_NOT_CONVERGED, "The Stokes solve did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -ksp_max_it, loosen -ksp_rtol, or give the velocity block more CG iterations (-fieldsplit_u_ksp_max_it)", KSPConvergedReasons[reason], its, (double)rnorm);
  st->iterations += its;
  st->solves++;
  st->max_iterations = PetscMax(st->max_iterations, its);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesSystemErrors(StokesSystem *st, Vec x, PetscReal t, PetscReal *err_u, PetscReal *err_p, PetscReal *div)
{
  StokesPoint sp = {st->app, t};
  Vec         u, pi, bu;

  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(x, st->is[0], &u));
  PetscCall(SEMDiscL2ErrorVector(st->u, u, StokesExactVelocity, &sp, err_u));
  PetscCall(MatCreateVecs(st->Bfull, NULL, &bu)); /* the discrete divergence of the solution, B u (all velocity dofs) */
  PetscCall(MatMult(st->Bfull, u, bu));
  PetscCall(VecNorm(bu, NORM_2, div));
  PetscCall(VecDestroy(&bu));
  PetscCall(VecRestoreSubVector(x, st->is[0], &u));
  /* the pressure p = -nu pi, both means removed */
  PetscCall(VecGetSubVector(x, st->is[1], &pi));
  PetscCall(VecScale(pi, -st->nu));
  PetscCall(SEMPressureL2Error(st->p, pi, StokesExactPressure, &sp, PETSC_TRUE, err_p));
  PetscCall(VecScale(pi, -1.0 / st->nu));
  PetscCall(VecRestoreSubVector(x, st->is[1], &pi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode StokesSystemDestroy(StokesSystem *st)
{
  PetscFunctionBeginUser;
  PetscCall(KSPDestroy(&st->ksp));
  PetscCall(MatNullSpaceDestroy(&st->nullspace));
  PetscCall(ISDestroy(&st->is[0]));
  PetscCall(ISDestroy(&st->is[1]));
  PetscCall(MatDestroy(&st->K));
  PetscCall(MatDestroy(&st->P));
  PetscCall(MatDestroy(&st->Sp));
  PetscCall(VecDestroy(&st->mass_p));
  PetscCall(VecDestroy(&st->inv_sp));
  PetscCall(VecDestroy(&st->pwork));
  PetscCall(MatDestroy(&st->BT));
  PetscCall(MatDestroy(&st->B0));
  PetscCall(MatDestroy(&st->Bfull));
  PetscCall(MatDestroy(&st->Plor));
  PetscCall(MatDestroy(&st->A));
  PetscCall(MatDestroy(&st->Afree));
  PetscCall(MatDestroy(&st->Lp));
  PetscCall(MatDestroy(&st->Lp_lor));
  PetscCall(PCDestroy(&st->poisson));
  PetscCall(KSPDestroy(&st->mass_ksp));
  PetscCall(MatDestroy(&st->Mc));
  PetscCall(MatDestroy(&st->Ml));
  PetscCall(VecDestroy(&st->mwork));
  PetscCall(PetscFree(st->dirichlet_mask));
  PetscCall(PetscFree(st->dirichlet_rows));
  PetscCall(SEMPressureDestroy(&st->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The steady solve: r_u = M f / nu (the collocated GLL rule), g the exact velocity's interpolant; one
 * summary line (tests/run.py): L2 is the velocity's error, L2_p the pressure's. */
static PetscErrorCode StokesRun(App *app)
{
  StokesSystem       st;
  StokesPoint        sp = {app, 0.0};
  PetscReal          nu = app->problem.nu > 0 ? app->problem.nu : 1.0, err_u, err_p, div;
  Vec                x, b, g, r_u;
  KSPConvergedReason reason;
  PetscInt           ndofs, nu_dofs, np_dofs;
  char               shapes[128] = "";

  PetscFunctionBeginUser;
  PetscCall(StokesSystemCreate(app, nu, 0.0, &st));
  PetscCall(MatCreateVecs(st.K, &x, &b));
  PetscCall(DMCreateGlobalVector(st.u->dm, &g));
  PetscCall(VecDuplicate(g, &r_u));
  PetscCall(SEMDiscInterpolate(st.u, StokesExactVelocity, &sp, g));
  PetscCall(SEMDiscInterpolate(st.u, StokesForcing, &sp, r_u));
  PetscCall(HoflowVecPointwiseMult(r_u, st.u->mass, r_u));
  PetscCall(VecScale(r_u, 1.0 / nu));
  PetscCall(StokesSystemRightHandSide(&st, r_u, g, b));
  PetscCall(VecZeroEntries(x));
  PetscCall(StokesSystemSolve(&st, b, x));
  PetscCall(StokesSystemErrors(&st, x, 0.0, &err_u, &err_p, &div));
  PetscCall(KSPGetConvergedReason(st.ksp, &reason));
  PetscCall(VecGetSize(x, &ndofs));
  PetscCall(ISGetSize(st.is[0], &nu_dofs));
  PetscCall(ISGetSize(st.is[1], &np_dofs));
  PetscCall(MeshGetShapeNames(app->mesh, shapes, sizeof(shapes)));
  PetscCall(PetscPrintf(app->comm,
                        "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e iterations %" PetscInt_FMT " reason %s setup_s %.4e solve_s %.4e L2_p %.6e velocity_dofs %" PetscInt_FMT " pressure_dofs %" PetscInt_FMT " div %.3e pressure_null %.1e viscosity %g pair %s\n",
                        app->problem_name, app->disc_name, shapes, app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)err_u, st.iterations, KSPConvergedReasons[reason], (double)st.setup_time, (double)st.solve_time, (double)err_p, nu_dofs, np_dofs, (double)div, (double)st.null_residual, (double)nu, SEMStokesPairNames[st.pair]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&r_u));
  PetscCall(StokesSystemDestroy(&st));
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
