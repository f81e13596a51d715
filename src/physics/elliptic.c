/* The steady elliptic physics: -Laplace u + lambda u = f with the problem's data, discretized by the
 * run's Disc (its elliptic operator, right-hand side and boundary data) and solved with KSP; PETSc's
 * KSP/PC options choose the solver (default CG + Jacobi). Boundary types: -bc_dirichlet (value) and
 * -bc_neumann (normal derivative), both from the exact solution (or the problem's boundary data). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/io.h>
#include <hoflow/log.h>
#include <hoflow/physics.h>
#include <hoflow/solver.h>

typedef struct {
  App           *app;
  Mat            A;
  KSP            ksp;
  Vec            u, b;
  MatNullSpace   nullspace; /* constants, for pure Neumann Poisson; NULL otherwise */
  PetscReal      l2_error;
  PetscInt       iterations;
  PetscLogDouble setup_time, solve_time; /* seconds: preconditioning matrix, PCSetUp and KSPSetUp; KSPSolve */
  PetscLogDouble pc_memory[2];           /* bytes the preconditioner holds (its matrix and PCSetUp), host and device, summed over ranks */
} Elliptic;

/* Pure Neumann Poisson (no Dirichlet face, lambda = 0): A has the constants as null space. Attach
 * it so CG works in the complement, and the preconditioning matrices inherit it. */
static PetscErrorCode EllipticSetNullSpace(Elliptic *el)
{
  const Mesh *mesh  = el->app->mesh;
  PetscInt    local = 0, dirichlet;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < mesh->nslots; k++) local += mesh->face_type[k] == HOFLOW_FACE_DIRICHLET;
  PetscCall(MPIU_Allreduce(&local, &dirichlet, 1, MPIU_INT, MPI_SUM, el->app->comm));
  if (dirichlet || el->app->problem.lambda > 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatNullSpaceCreate(el->app->comm, PETSC_TRUE, 0, NULL, &el->nullspace));
  PetscCall(MatSetNullSpace(el->A, el->nullspace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With a null space the solution is fixed up to a constant: shift u to the exact solution's mean. */
static PetscErrorCode EllipticMatchMean(Elliptic *el, ProblemPoint *exact)
{
  Mat       M;
  Vec       one, Mone, w;
  PetscReal area, int_u, int_exact;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(el->u, &one));
  PetscCall(VecDuplicate(el->u, &Mone));
  PetscCall(VecDuplicate(el->u, &w));
  PetscCall(VecSet(one, 1.0));
  PetscCall(DiscCreateMass(el->app->disc, PETSC_FALSE, &M));
  PetscCall(MatMult(M, one, Mone));
  PetscCall(VecSum(Mone, &area));
  PetscCall(VecDot(Mone, el->u, &int_u));
  PetscCall(VecZeroEntries(w));
  PetscCall(DiscIntegrate(el->app->disc, ProblemPointFunction, exact, w)); /* sum_i (l_i, u) = (1, u) */
  PetscCall(VecSum(w, &int_exact));
  PetscCall(VecShift(el->u, (int_exact - int_u) / area));
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&Mone));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EllipticSolve(Elliptic *el)
{
  App               *app    = el->app;
  ProblemPoint       exact  = {&app->problem, app->problem.exact, app->mesh->dim, 1, 0, 0.0};
  ProblemPoint       source = {&app->problem, app->problem.forcing, app->mesh->dim, 1, 0, 0.0};
  ProblemPoint       data   = {&app->problem, app->problem.boundary ? app->problem.boundary : app->problem.exact, app->mesh->dim, 1, 0, 0.0};
  KSPConvergedReason reason;
  PetscReal          rnorm;

  PetscFunctionBeginUser;
  /* b = (l_i, f) + boundary data; u0 = 0 */
  PetscCall(PetscLogEventBegin(HOFLOW_EllipticRHS, 0, 0, 0, 0));
  PetscCall(VecZeroEntries(el->b));
  PetscCall(DiscIntegrate(app->disc, ProblemPointFunction, &source, el->b));
  PetscCall(DiscEllipticBoundaryData(app->disc, el->A, ProblemPointFunction, &data, el->b));
  PetscCall(VecZeroEntries(el->u));
  if (el->nullspace) PetscCall(MatNullSpaceRemove(el->nullspace, el->b)); /* make A u = b consistent */
  /* b was assembled on the host: a norm moves it to the device now (with -dm_vec_type cuda), so
   * KSPSolve itself copies nothing between host and device */
  PetscCall(VecNorm(el->b, NORM_2, &rnorm));
  PetscCall(PetscLogEventEnd(HOFLOW_EllipticRHS, 0, 0, 0, 0));
  {
    /* The preconditioner's cost: its matrix (assembled for -pmat assembled|lor) and PCSetUp, timed
     * and measured alone (the Krylov method's work vectors are not the preconditioner's); then
     * the KSP setup, so KSPSolve itself copies nothing between host and device. */
    PetscLogDouble t0, t1, t2, mem0[2], mem[2];
    PC             pc;
    PetscCall(PetscTime(&t0));
    PetscCall(HoflowMemoryInUse(&mem0[0], &mem0[1]));
    PetscCall(HoflowKSPSetOperators(el->ksp, el->A));
    PetscCall(KSPGetPC(el->ksp, &pc));
    PetscCall(PCSetUp(pc));
    PetscCall(HoflowMemoryInUse(&mem[0], &mem[1]));
    for (PetscInt k = 0; k < 2; k++) mem[k] -= mem0[k];
    PetscCall(MPIU_Allreduce(mem, el->pc_memory, 2, MPI_DOUBLE, MPI_SUM, app->comm));
    PetscCall(KSPSetUp(el->ksp));
    /* the set-up ends when its device work (queued asynchronously: the eigenvalue estimates, BoomerAMG's set-up) has
     * ended on every rank: otherwise the solve's time would hold the set-up's tail and, on several ranks, the wait
     * at the solve's first exchange for the rank whose set-up ends last (on 4 H200s, 2026-11-27: KSPSolve max/min
     * 1.2 over the ranks) */
    PetscCall(HoflowDeviceSynchronizeChecked());
    PetscCallMPI(MPI_Barrier(app->comm));
    PetscCall(PetscTime(&t1));
    el->setup_time = t1 - t0;
    PetscCall(KSPSolve(el->ksp, el->b, el->u));
    PetscCall(PetscTime(&t2));
    el->solve_time = t2 - t1;
  }
  PetscCall(KSPGetConvergedReason(el->ksp, &reason));
  PetscCall(KSPGetIterationNumber(el->ksp, &el->iterations));
  PetscCall(KSPGetResidualNorm(el->ksp, &rnorm));
  PetscCheck(reason > 0, app->comm, PETSC_ERR_NOT_CONVERGED, "The linear solve did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -ksp_max_it, loosen -ksp_rtol, or choose a stronger preconditioner (-pc_type)", KSPConvergedReasons[reason], el->iterations, (double)rnorm);
  if (el->nullspace) PetscCall(EllipticMatchMean(el, &exact));
  PetscCall(DiscL2Error(app->disc, el->u, ProblemPointFunction, &exact, &el->l2_error));
  PetscCall(VecViewFromOptions(el->u, NULL, "-solution_view"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solution as a one-entry series when asked (-output_interval > 0). */
static PetscErrorCode EllipticWriteFields(Elliptic *el)
{
  App        *app = el->app;
  char        dir[PETSC_MAX_PATH_LEN];
  PetscInt    interval = 0;
  OutputMesh *mesh;
  FieldWriter writer;
  const char *names[1] = {"u"};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "output/%s", app->problem_name));
  PetscOptionsBegin(app->comm, NULL, "Output", NULL);
  PetscCall(PetscOptionsString("-output_dir", "Directory for the solution fields", NULL, dir, dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsInt("-output_interval", "Write the solution (HDF5 + XDMF) when > 0", NULL, interval, &interval, NULL));
  PetscOptionsEnd();
  if (interval <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OutputMeshCreate(app->disc, &mesh));
  PetscCall(FieldWriterCreate(mesh, dir, app->problem_name, &writer));
  PetscCall(FieldWriterWrite(writer, 0, 0.0, 1, names, &el->u));
  PetscCall(FieldWriterDestroy(&writer));
  PetscCall(OutputMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One machine-readable summary line (parsed by tests/run.py and scripts/convergence.py). */
static PetscErrorCode EllipticReport(Elliptic *el)
{
  App               *app = el->app;
  KSPConvergedReason reason;
  PetscInt           ndofs, curved = 0;
  char               shapes[128] = "", extra[128] = "";

  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(el->ksp, &reason));
  PetscCall(VecGetSize(el->u, &ndofs));
  for (PetscInt b = 0; b < app->mesh->nblocks; b++) {
    const MeshBlock *mb = &app->mesh->blocks[b];
    if (mb->curved) curved += mb->end - mb->start;
  }
  PetscCall(MeshGetShapeNames(app->mesh, shapes, sizeof(shapes)));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &curved, 1, MPIU_INT, MPI_SUM, app->comm));
  if (curved) PetscCall(PetscSNPrintf(extra, sizeof(extra), " curved_cells %" PetscInt_FMT " geometry_order %" PetscInt_FMT, curved, app->mesh->geom_order));
  PetscCall(PetscPrintf(app->comm, "hoflow: problem %s disc %s shape %s order %" PetscInt_FMT " cells %" PetscInt_FMT " dofs %" PetscInt_FMT " h %.6e L2 %.6e iterations %" PetscInt_FMT " reason %s setup_s %.4e solve_s %.4e pc_bytes_per_cell %.0f pc_device_bytes_per_cell %.0f%s\n", app->problem_name, app->disc_name, shapes, app->order, app->mesh->Kglobal, ndofs, (double)app->mesh->hmax, (double)el->l2_error, el->iterations, KSPConvergedReasons[reason], (double)el->setup_time, (double)el->solve_time, (double)(el->pc_memory[0] / app->mesh->Kglobal), (double)(el->pc_memory[1] / app->mesh->Kglobal), extra));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EllipticRun(App *app)
{
  Elliptic          el                 = {0};
  const char *const unsteady_options[] = {"-restart", "-checkpoint_interval"};
  PC                pc;

  PetscFunctionBeginUser;
  for (size_t k = 0; k < sizeof(unsteady_options) / sizeof(unsteady_options[0]); k++) {
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, NULL, unsteady_options[k], &set));
    PetscCheck(!set, app->comm, PETSC_ERR_ARG_WRONG, "%s: problem %s is steady (one elliptic solve); only time-dependent problems (heat, taylor_vortex, square_cylinder) checkpoint and restart", unsteady_options[k], app->problem_name);
  }
  el.app = app;
  PetscCall(PetscLogEventBegin(HOFLOW_EllipticOperator, 0, 0, 0, 0));
  PetscCall(DiscCreateElliptic(app->disc, app->problem.lambda, NULL, &el.A));
  PetscCall(EllipticSetNullSpace(&el));
  PetscCall(PetscLogEventEnd(HOFLOW_EllipticOperator, 0, 0, 0, 0));
  PetscCall(KSPCreate(app->comm, &el.ksp));
  PetscCall(KSPSetType(el.ksp, KSPCG));
  PetscCall(KSPGetPC(el.ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(el.ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetFromOptions(el.ksp));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &el.u));
  PetscCall(PetscObjectSetName((PetscObject)el.u, "u"));
  PetscCall(VecDuplicate(el.u, &el.b));
  PetscCall(EllipticSolve(&el));
  PetscCall(PetscLogEventBegin(HOFLOW_Output, 0, 0, 0, 0));
  PetscCall(EllipticWriteFields(&el));
  PetscCall(PetscLogEventEnd(HOFLOW_Output, 0, 0, 0, 0));
  PetscCall(EllipticReport(&el));
  PetscCall(VecDestroy(&el.u));
  PetscCall(VecDestroy(&el.b));
  PetscCall(KSPDestroy(&el.ksp));
  PetscCall(MatNullSpaceDestroy(&el.nullspace));
  PetscCall(MatDestroy(&el.A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Elliptic boundary types: the value (Dirichlet) or the normal derivative (Neumann) of the exact solution. */
PetscErrorCode PhysicsInfo_Elliptic(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc   = 2;
  info->bc[0] = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "Dirichlet data"};
  info->bc[1] = (MeshBoundaryType){"neumann", HOFLOW_FACE_NEUMANN, NULL, "Neumann data"};
  info->run   = EllipticRun;
  PetscFunctionReturn(PETSC_SUCCESS);
}
