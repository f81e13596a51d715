/* The elliptic application: -Laplace u + lambda u = f discretized by SIPDG and solved with KSP.
 * It composes the problem (exact data), the mesh, the DG discretization and the MatShell operator
 * into a linear system; PETSc's KSP/PC options choose the solver (default CG + Jacobi). */
#include <hoflow/app.h>
#include <hoflow/compat.h>
#include <hoflow/solver.h>

PetscFunctionList DiscretizationList = NULL;

static PetscErrorCode DiscretizationCreate_IPDG(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(DGDiscCreate(app->mesh, app->order, &app->disc));
  PetscCall(IPDGOperatorCreate(app->disc, app->problem.lambda, &app->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DiscretizationRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DiscretizationList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListAdd(&DiscretizationList, "ipdg", DiscretizationCreate_IPDG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Error for a name missing from a registry, listing the registered names. */
static PetscErrorCode RegistryFind(MPI_Comm comm, PetscFunctionList list, const char option[], const char name[], void (**fn)(void))
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListFind(list, name, fn));
  if (!*fn) {
    const char **names;
    int          n;
    char         known[512] = "";
    PetscCall(PetscFunctionListGet(list, &names, &n));
    for (int k = 0; k < n; k++) {
      if (k) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
      PetscCall(PetscStrlcat(known, names[k], sizeof(known)));
    }
    PetscCall(PetscFree(names));
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown %s '%s'; known: %s", option, name, known);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Split a comma-separated list in place; "none" and "" are empty. */
static PetscErrorCode SplitNames(char list[], PetscInt max, PetscInt *n, char *names[])
{
  char *tok;

  PetscFunctionBeginUser;
  *n = 0;
  if (!strcmp(list, "none")) PetscFunctionReturn(PETSC_SUCCESS);
  for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    PetscCheck(*n < max, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many boundary groups (at most %" PetscInt_FMT ")", max);
    names[(*n)++] = tok;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pure Neumann Poisson (no Dirichlet face, lambda = 0): A has the constants as null space. Attach
 * it so CG works in the complement, and the preconditioning matrices inherit it. */
static PetscErrorCode AppSetNullSpace(App *app)
{
  PetscInt local = 0, dirichlet;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < app->mesh->K * app->mesh->Nverts; k++) local += app->mesh->face_type[k] == HOFLOW_FACE_DIRICHLET;
  PetscCall(MPIU_Allreduce(&local, &dirichlet, 1, MPIU_INT, MPI_SUM, app->comm));
  if (dirichlet || app->problem.lambda > 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatNullSpaceCreate(app->comm, PETSC_TRUE, 0, NULL, &app->nullspace));
  PetscCall(MatSetNullSpace(app->A, app->nullspace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With a null space the solution is fixed up to a constant: shift u to the exact solution's mean. */
static PetscErrorCode AppMatchMean(App *app)
{
  Mat       M;
  Vec       one, Mone, w;
  PetscReal area, int_u, int_exact;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(app->u, &one));
  PetscCall(VecDuplicate(app->u, &Mone));
  PetscCall(VecDuplicate(app->u, &w));
  PetscCall(VecSet(one, 1.0));
  PetscCall(DGMassOperatorCreate(app->disc, PETSC_FALSE, &M));
  PetscCall(MatMult(M, one, Mone));
  PetscCall(VecSum(Mone, &area));
  PetscCall(VecDot(Mone, app->u, &int_u));
  PetscCall(VecZeroEntries(w));
  PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.exact, app->problem.ctx, w)); /* sum_i (l_i, u) = (1, u) */
  PetscCall(VecSum(w, &int_exact));
  PetscCall(VecShift(app->u, (int_exact - int_u) / area));
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&Mone));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppCreate(MPI_Comm comm, App **app_out)
{
  App *app;
  PetscErrorCode (*create_problem)(Problem *) = NULL;
  PetscErrorCode (*create_disc)(App *)        = NULL;
  char     dirichlet[256], neumann[256], *dnames[16], *nnames[16];
  PetscInt nd, nn, pmg_degree;

  PetscFunctionBeginUser;
  PetscCall(HoflowLogRegister());
  PetscCall(ProblemRegisterAll());
  PetscCall(DiscretizationRegisterAll());
  PetscCall(HoflowSolverRegisterAll());
  PetscCall(PetscNew(&app));
  app->comm  = comm;
  app->order = 4;
  PetscCall(PetscStrncpy(app->problem_name, "poisson", sizeof(app->problem_name)));
  PetscCall(PetscStrncpy(app->disc_name, "ipdg", sizeof(app->disc_name)));
  PetscOptionsBegin(comm, NULL, "hoflow: high-order matrix-free flow solver", NULL);
  PetscCall(PetscOptionsFList("-problem", "Problem to solve", NULL, ProblemList, app->problem_name, app->problem_name, sizeof(app->problem_name), NULL));
  PetscCall(PetscOptionsFList("-disc", "Spatial discretization", NULL, DiscretizationList, app->disc_name, app->disc_name, sizeof(app->disc_name), NULL));
  PetscCall(PetscOptionsInt("-order", "Polynomial order N of the discretization (1..10)", NULL, app->order, &app->order, NULL));
  /* A run-wide setting (options/gpu.yaml sets it for every case): read here for every problem, so it
   * is listed by -help and checked, and it has no effect where no solve uses -pc_type pmg */
  PetscCall(PCPMGGetDefaultChebyshevDegree(NULL, &pmg_degree));
  PetscCall(PetscOptionsInt("-pc_pmg_chebyshev_degree_default", "Chebyshev smoothing degree of every -pc_type pmg of the run (elliptic, velocity, pressure); -[prefix]pc_pmg_chebyshev_degree overrides it per solve", NULL, pmg_degree, &pmg_degree, NULL));
  PetscOptionsEnd();
  PetscCheck(app->order >= 1 && app->order <= HOFLOW_NMAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT " is out of range: hoflow supports polynomial orders 1..%d", app->order, HOFLOW_NMAX);
  PetscCall(RegistryFind(comm, ProblemList, "-problem", app->problem_name, (void (**)(void)) & create_problem));
  PetscCall(RegistryFind(comm, DiscretizationList, "-disc", app->disc_name, (void (**)(void)) & create_disc));
  PetscCall(PetscStrncpy(app->problem.name, app->problem_name, sizeof(app->problem.name)));
  PetscCall(create_problem(&app->problem));

  PetscCall(PetscStrncpy(dirichlet, app->problem.dirichlet, sizeof(dirichlet)));
  PetscCall(PetscStrncpy(neumann, app->problem.neumann, sizeof(neumann)));
  PetscOptionsBegin(comm, NULL, "Boundary conditions", NULL);
  PetscCall(PetscOptionsString("-bc_dirichlet", "Comma-separated boundary groups with Dirichlet data (none: no group)", NULL, dirichlet, dirichlet, sizeof(dirichlet), NULL));
  PetscCall(PetscOptionsString("-bc_neumann", "Comma-separated boundary groups with Neumann data (none: no group)", NULL, neumann, neumann, sizeof(neumann), NULL));
  PetscOptionsEnd();
  PetscCall(SplitNames(dirichlet, 16, &nd, dnames));
  PetscCall(SplitNames(neumann, 16, &nn, nnames));

  PetscCall(MeshCreate(comm, app->problem.mesh_options, &app->mesh));
  PetscCall(MeshSetBoundaryConditions(app->mesh, nd, dnames, nn, nnames));
  PetscCall(create_disc(app));

  PetscCall(AppSetNullSpace(app));
  PetscCall(KSPCreate(comm, &app->ksp));
  PetscCall(KSPSetType(app->ksp, KSPCG));
  {
    PC pc;
    PetscCall(KSPGetPC(app->ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(KSPSetTolerances(app->ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(app->ksp));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &app->u));
  PetscCall(PetscObjectSetName((PetscObject)app->u, "u"));
  PetscCall(VecDuplicate(app->u, &app->b));
  *app_out = app;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppSolve(App *app)
{
  PetscReal         *bc_data;
  KSPConvergedReason reason;
  PetscReal          rnorm;

  PetscFunctionBeginUser;
  /* b = (l_i, f) + boundary data; u0 = 0 */
  PetscCall(VecZeroEntries(app->b));
  PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.forcing, app->problem.ctx, app->b));
  PetscCall(DGDiscBoundaryData(app->disc, NULL, app->problem.exact, app->problem.ctx, &bc_data));
  PetscCall(IPDGOperatorAddBoundaryData(app->A, bc_data, app->b));
  PetscCall(PetscFree(bc_data));
  PetscCall(VecZeroEntries(app->u));
  if (app->nullspace) PetscCall(MatNullSpaceRemove(app->nullspace, app->b)); /* make A u = b consistent */
  /* b was assembled on the host: a norm moves it to the device now (with -dm_vec_type cuda), so
   * KSPSolve itself copies nothing between host and device */
  PetscCall(VecNorm(app->b, NORM_2, &rnorm));
  {
    /* The preconditioner's cost: its matrix (assembled for -pmat assembled|lor) and PCSetUp, timed
     * and measured alone (the Krylov method's work vectors are not the preconditioner's); then
     * the KSP setup, so KSPSolve itself copies nothing between host and device. */
    PetscLogDouble t0, t1, t2, mem0[2], mem[2];
    PC             pc;
    PetscCall(PetscTime(&t0));
    PetscCall(HoflowMemoryInUse(&mem0[0], &mem0[1]));
    PetscCall(HoflowKSPSetOperators(app->ksp, app->A));
    PetscCall(KSPGetPC(app->ksp, &pc));
    PetscCall(PCSetUp(pc));
    PetscCall(HoflowMemoryInUse(&mem[0], &mem[1]));
    for (PetscInt k = 0; k < 2; k++) mem[k] -= mem0[k];
    PetscCall(MPIU_Allreduce(mem, app->pc_memory, 2, MPI_DOUBLE, MPI_SUM, app->comm));
    PetscCall(KSPSetUp(app->ksp));
    PetscCall(PetscTime(&t1));
    app->setup_time = t1 - t0;
    PetscCall(KSPSolve(app->ksp, app->b, app->u));
    PetscCall(PetscTime(&t2));
    app->solve_time = t2 - t1;
  }
  PetscCall(KSPGetConvergedReason(app->ksp, &reason));
  PetscCall(KSPGetIterationNumber(app->ksp, &app->iterations));
  PetscCall(KSPGetResidualNorm(app->ksp, &rnorm));
  PetscCheck(reason > 0, app->comm, PETSC_ERR_NOT_CONVERGED, "The linear solve did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -ksp_max_it, loosen -ksp_rtol, or choose a stronger preconditioner (-pc_type)", KSPConvergedReasons[reason], app->iterations, (double)rnorm);
  if (app->nullspace) PetscCall(AppMatchMean(app));
  PetscCall(DGDiscL2Error(app->disc, app->u, app->problem.exact, app->problem.ctx, &app->l2_error));
  PetscCall(VecViewFromOptions(app->u, NULL, "-solution_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One machine-readable summary line (parsed by tests/run.py and scripts/convergence.py). */
PetscErrorCode AppReport(App *app)
{
  KSPConvergedReason reason;
  PetscInt           ndofs;

  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(app->ksp, &reason));
  PetscCall(VecGetSize(app->u, &ndofs));
  PetscCall(PetscPrintf(app->comm, "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e iterations %" PetscInt_FMT " reason %s setup_s %.4e solve_s %.4e pc_bytes_per_cell %.0f pc_device_bytes_per_cell %.0f\n", app->problem_name, app->disc_name, RefShapes[app->mesh->shape], app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)app->l2_error, app->iterations, KSPConvergedReasons[reason], (double)app->setup_time, (double)app->solve_time, (double)(app->pc_memory[0] / app->mesh->Kglobal), (double)(app->pc_memory[1] / app->mesh->Kglobal)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppDestroy(App **app)
{
  PetscFunctionBeginUser;
  if (!*app) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&(*app)->u));
  PetscCall(VecDestroy(&(*app)->b));
  PetscCall(KSPDestroy(&(*app)->ksp));
  PetscCall(MatNullSpaceDestroy(&(*app)->nullspace));
  PetscCall(MatDestroy(&(*app)->A));
  if ((*app)->problem.ctx_destroy) PetscCall((*app)->problem.ctx_destroy((*app)->problem.ctx));
  PetscCall(DGDiscDestroy(&(*app)->disc));
  PetscCall(MeshDestroy(&(*app)->mesh));
  PetscCall(PetscFree(*app));
  PetscFunctionReturn(PETSC_SUCCESS);
}
