/* The heat equation u_t - nu Laplace u = f by the run's discretization in space and any implicit
 * PETSc TS in time. With M the mass matrix, S the elliptic operator (-Laplace, homogeneous data) and
 * r(t) the forcing and the boundary data at time t,
 *   F(t, u, u_t) = M u_t + nu S u - r(t),   r(t) = (l_i, f(t)) - nu S_bc(g(t)),
 *   dF/du + shift dF/du_t = shift M + nu S = nu (S + (shift/nu) M),
 * the last being the screened-Poisson operator with lambda = shift/nu, scaled: a symmetric
 * positive definite system for KSP CG, its preconditioner chosen with PETSc options. The problem
 * is linear (TS_LINEAR: one Krylov solve per stage). The boundary data are recomputed at every
 * stage time. Monitors: L2_error, L2_norm; derived fields: exact (nodal values), error. */
#include <hoflow/compat.h>
#include <hoflow/unsteady.h>

typedef struct {
  App      *app;
  PetscReal nu, shift;
  Mat       S;     /* -Laplace with the boundary types of the mesh */
  Mat       J;     /* nu (S + (shift/nu) M) as a shell over ... */
  Mat       inner; /* ... the elliptic operator with lambda = shift/nu, rebuilt when the shift changes */
  Mat       M;
  Vec       r, work;
} Heat;

static PetscErrorCode HeatDestroy(void **ptr)
{
  Heat *heat = (Heat *)*ptr;

  PetscFunctionBeginUser;
  if (!heat) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&heat->S));
  PetscCall(MatDestroy(&heat->J));
  PetscCall(MatDestroy(&heat->inner));
  PetscCall(MatDestroy(&heat->M));
  PetscCall(VecDestroy(&heat->r));
  PetscCall(VecDestroy(&heat->work));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exact solution at time t as a PointFunction context. */
static ProblemPoint HeatExactAt(Heat *heat, PetscReal t)
{
  ProblemPoint pp = {&heat->app->problem, heat->app->problem.exact, heat->app->mesh->dim, 1, 0, t};
  return pp;
}

/* r(t) = (l_i, f(t)) - nu S_bc(g(t)): forcing and boundary data at time t. */
static PetscErrorCode HeatRightHandSide(Heat *heat, PetscReal t, Vec r)
{
  App         *app    = heat->app;
  ProblemPoint exact  = HeatExactAt(heat, t);
  ProblemPoint source = {&app->problem, app->problem.forcing, app->mesh->dim, 1, 0, t};

  PetscFunctionBeginUser;
  /* the forcing first: the boundary data of a discretization with strong Dirichlet rows overwrite those
   * rows (r_D = nu g), the others add to it */
  PetscCall(VecZeroEntries(r));
  PetscCall(DiscIntegrate(app->disc, ProblemPointFunction, &source, r));
  PetscCall(VecScale(r, 1.0 / heat->nu));
  PetscCall(DiscEllipticBoundaryData(app->disc, heat->S, ProblemPointFunction, &exact, r));
  PetscCall(VecScale(r, heat->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatIFunction(TS ts, PetscReal t, Vec u, Vec u_t, Vec F, void *ctx)
{
  Heat *heat = (Heat *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(heat->M, u_t, F));
  PetscCall(MatMult(heat->S, u, heat->work));
  PetscCall(VecAXPY(F, heat->nu, heat->work));
  PetscCall(HeatRightHandSide(heat, t, heat->r));
  PetscCall(VecAXPY(F, -1.0, heat->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_HeatJacobian(Mat J, Vec x, Vec y)
{
  Heat *heat;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &heat));
  PetscCall(MatMult(heat->inner, x, y));
  PetscCall(VecScale(y, heat->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_HeatJacobian(Mat J, Vec d)
{
  Heat *heat;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &heat));
  PetscCall(MatGetDiagonal(heat->inner, d));
  PetscCall(VecScale(d, heat->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatIJacobian(TS ts, PetscReal t, Vec u, Vec u_t, PetscReal shift, Mat J, Mat P, void *ctx)
{
  Heat *heat = (Heat *)ctx;

  PetscFunctionBeginUser;
  if (shift != heat->shift || !heat->inner) {
    PetscCall(MatDestroy(&heat->inner));
    PetscCall(DiscCreateElliptic(heat->app->disc, shift / heat->nu, NULL, &heat->inner));
    heat->shift = shift;
    /* a new operator: the preconditioner is rebuilt */
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatMonitor(Unsteady *un, const char name[], PetscReal time, PetscReal *value)
{
  Heat        *heat  = (Heat *)un->physics;
  ProblemPoint exact = HeatExactAt(heat, time);

  PetscFunctionBeginUser;
  if (!strcmp(name, "L2_error"))
    PetscCall(DiscL2Error(un->app->disc, un->state, ProblemPointFunction, &exact, value));
  else
    PetscCall(DiscL2Error(un->app->disc, un->state, ZeroPointFunction, NULL, value)); /* L2_norm */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* exact: the exact solution at the discretization's points (nodal values); error: u - exact there. */
static PetscErrorCode HeatDerived(Unsteady *un, const char name[], PetscReal time, Vec field)
{
  Heat            *heat  = (Heat *)un->physics;
  ProblemPoint     exact = HeatExactAt(heat, time);
  const PetscReal *x;
  PetscInt         n;
  PetscScalar     *a;
  PetscBool        continuous;
  Vec              values = field; /* the values at the points: the field itself, or (continuous) set from them */

  PetscFunctionBeginUser;
  PetscCall(DiscGetPoints(un->app->disc, &n, &x, NULL));
  PetscCall(DiscHasPointValues(un->app->disc, &continuous));
  if (continuous) PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &values));
  PetscCall(VecGetArrayWrite(values, &a));
  for (PetscInt i = 0; i < n; i++) PetscCall(ProblemPointFunction(x + i * exact.dim, &a[i], NULL, &exact));
  PetscCall(VecRestoreArrayWrite(values, &a));
  if (continuous) {
    PetscCall(DiscPointValues(un->app->disc, field, values, SCATTER_REVERSE));
    PetscCall(VecDestroy(&values));
  }
  if (!strcmp(name, "error")) PetscCall(VecAYPX(field, -1.0, un->state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatErrors(Unsteady *un, char summary[], size_t len)
{
  PetscReal time;

  PetscFunctionBeginUser;
  summary[0] = 0;
  PetscCall(TSGetTime(un->ts, &time));
  PetscCall(HeatMonitor(un, "L2_error", time, &un->l2_error));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatCreate(Unsteady *un)
{
  App     *app = un->app;
  Heat    *heat;
  PetscInt n, N;
  VecType  vtype;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&heat));
  heat->app   = app;
  heat->nu    = app->problem.nu;
  heat->shift = -1;
  PetscCall(DMCreateGlobalVector(app->disc->dm, &un->state));
  PetscCall(PetscObjectSetName((PetscObject)un->state, "u"));
  un->nfields        = 1;
  un->field_names[0] = "u";
  un->fields[0]      = un->state;
  PetscCall(DiscCreateElliptic(app->disc, 0.0, NULL, &heat->S));
  PetscCall(DiscCreateMassElliptic(app->disc, NULL, &heat->M)); /* zero rows where S fixes the dofs (continuous elements) */
  PetscCall(VecDuplicate(un->state, &heat->r));
  PetscCall(VecDuplicate(un->state, &heat->work));
  PetscCall(VecGetLocalSize(un->state, &n));
  PetscCall(VecGetSize(un->state, &N));
  PetscCall(VecGetType(un->state, &vtype));
  PetscCall(MatCreateShell(un->comm, n, n, N, N, heat, &heat->J));
  PetscCall(MatShellSetOperation(heat->J, MATOP_MULT, (void (*)(void))MatMult_HeatJacobian));
  PetscCall(MatShellSetOperation(heat->J, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_HeatJacobian));
  PetscCall(MatShellSetVecType(heat->J, vtype));
  PetscCall(PetscObjectSetName((PetscObject)heat->J, "heat Jacobian nu S + shift M"));
  PetscCall(MatSetOption(heat->J, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(heat->J, MAT_SPD, PETSC_TRUE));
  un->physics         = heat;
  un->physics_destroy = HeatDestroy;
  un->monitor_names   = "L2_error,L2_norm";
  un->derived_names   = "exact,error";
  un->physics_monitor = HeatMonitor;
  un->physics_derived = HeatDerived;
  un->physics_errors  = HeatErrors;

  PetscCall(TSSetProblemType(un->ts, TS_LINEAR));
  PetscCall(TSSetIFunction(un->ts, NULL, HeatIFunction, heat));
  PetscCall(TSSetIJacobian(un->ts, heat->J, heat->J, HeatIJacobian, heat));

  /* initial condition: the L2 projection of the exact solution at t = 0 */
  {
    ProblemPoint initial = {&app->problem, app->problem.initial ? app->problem.initial : app->problem.exact, app->mesh->dim, 1, 0, 0.0};
    PetscCall(DiscProject(app->disc, ProblemPointFunction, &initial, un->state));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, HeatCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PhysicsInfo_Heat(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc   = 2;
  info->bc[0] = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "Dirichlet data"};
  info->bc[1] = (MeshBoundaryType){"neumann", HOFLOW_FACE_NEUMANN, NULL, "Neumann data"};
  info->run   = HeatRun;
  PetscFunctionReturn(PETSC_SUCCESS);
}
