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

PetscErrorCode AppCreate(MPI_Comm comm, App **app_out)
{
  App *app;
  PetscErrorCode (*create_problem)(Problem *) = NULL;
  PetscErrorCode (*create_disc)(App *)        = NULL;
  char     dirichlet[256], neumann[256], *dnames[16], *nnames[16];
  PetscInt nd, nn;

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

  PetscCall(KSPCreate(comm, &app->ksp));
  PetscCall(KSPSetOperators(app->ksp, app->A, app->A));
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
  PetscCall(DGDiscBoundaryData(app->disc, app->problem.exact, app->problem.ctx, &bc_data));
  PetscCall(IPDGOperatorAddBoundaryData(app->A, bc_data, app->b));
  PetscCall(PetscFree(bc_data));
  PetscCall(VecZeroEntries(app->u));
  /* b was assembled on the host: a norm moves it to the device now (with -dm_vec_type cuda), so
   * KSPSolve itself copies nothing between host and device */
  PetscCall(VecNorm(app->b, NORM_2, &rnorm));
  PetscCall(KSPSetUp(app->ksp)); /* preconditioner setup (and its one-time host-to-device copies) outside KSPSolve */
  PetscCall(KSPSolve(app->ksp, app->b, app->u));
  PetscCall(KSPGetConvergedReason(app->ksp, &reason));
  PetscCall(KSPGetIterationNumber(app->ksp, &app->iterations));
  PetscCall(KSPGetResidualNorm(app->ksp, &rnorm));
  PetscCheck(reason > 0, app->comm, PETSC_ERR_NOT_CONVERGED, "The linear solve did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -ksp_max_it, loosen -ksp_rtol, or choose a stronger preconditioner (-pc_type)", KSPConvergedReasons[reason], app->iterations, (double)rnorm);
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
  PetscCall(PetscPrintf(app->comm, "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e iterations %" PetscInt_FMT " reason %s\n", app->problem_name, app->disc_name, RefShapes[app->mesh->shape], app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)app->l2_error, app->iterations, KSPConvergedReasons[reason]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppDestroy(App **app)
{
  PetscFunctionBeginUser;
  if (!*app) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&(*app)->u));
  PetscCall(VecDestroy(&(*app)->b));
  PetscCall(KSPDestroy(&(*app)->ksp));
  PetscCall(MatDestroy(&(*app)->A));
  PetscCall(DGDiscDestroy(&(*app)->disc));
  PetscCall(MeshDestroy(&(*app)->mesh));
  PetscCall(PetscFree(*app));
  PetscFunctionReturn(PETSC_SUCCESS);
}
