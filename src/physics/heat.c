/* The heat equation u_t - nu Laplace u = f by SIPDG in space and any implicit PETSc TS in time.
 * With M the DG mass matrix, S the SIPDG operator (-Laplace, homogeneous data) and r(t) the
 * forcing and the boundary data at time t,
 *   F(t, u, u_t) = M u_t + nu S u - r(t),   r(t) = (l_i, f(t)) - nu S_bc(g(t)),
 *   dF/du + shift dF/du_t = shift M + nu S = nu (S + (shift/nu) M),
 * the last being the screened-Poisson SIPDG operator with lambda = shift/nu, scaled: a symmetric
 * positive definite system for KSP CG, its preconditioner chosen with PETSc options. The problem
 * is linear (TS_LINEAR: one Krylov solve per stage). The boundary data are recomputed at every
 * stage time. */
#include <hoflow/compat.h>
#include <hoflow/unsteady.h>

typedef struct {
  App      *app;
  PetscReal nu, shift;
  Mat       J;     /* nu (S + (shift/nu) M) as a shell over ... */
  Mat       inner; /* ... the SIPDG operator with lambda = shift/nu, rebuilt when the shift changes */
  Mat       M;
  Vec       r, work;
} Heat;

static PetscErrorCode HeatDestroy(void **ptr)
{
  Heat *heat = (Heat *)*ptr;

  PetscFunctionBeginUser;
  if (!heat) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&heat->J));
  PetscCall(MatDestroy(&heat->inner));
  PetscCall(MatDestroy(&heat->M));
  PetscCall(VecDestroy(&heat->r));
  PetscCall(VecDestroy(&heat->work));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r(t) = (l_i, f(t)) - nu S_bc(g(t)): forcing and boundary data at time t. */
static PetscErrorCode HeatRightHandSide(Heat *heat, PetscReal t, Vec r)
{
  App       *app = heat->app;
  PetscReal *bc_data;

  PetscFunctionBeginUser;
  app->problem.time = t;
  PetscCall(VecZeroEntries(r));
  PetscCall(DGDiscBoundaryData(app->disc, NULL, app->problem.exact, app->problem.ctx, &bc_data));
  PetscCall(IPDGOperatorAddBoundaryData(app->A, bc_data, r));
  PetscCall(PetscFree(bc_data));
  PetscCall(VecScale(r, heat->nu));
  PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.forcing, app->problem.ctx, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatIFunction(TS ts, PetscReal t, Vec u, Vec u_t, Vec F, void *ctx)
{
  Heat *heat = (Heat *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(heat->M, u_t, F));
  PetscCall(MatMult(heat->app->A, u, heat->work));
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
    PetscCall(IPDGOperatorCreate(heat->app->disc, shift / heat->nu, &heat->inner));
    heat->shift = shift;
    /* a new operator: the preconditioner is rebuilt */
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode UnsteadyPhysicsCreate_Heat(Unsteady *unsteady)
{
  App     *app = unsteady->app;
  Heat    *heat;
  PetscInt n, N;
  VecType  vtype;
  Mat      Minv;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&heat));
  heat->app   = app;
  heat->nu    = app->problem.nu;
  heat->shift = -1;
  PetscCall(DGMassOperatorCreate(app->disc, PETSC_FALSE, &heat->M));
  PetscCall(VecDuplicate(app->u, &heat->r));
  PetscCall(VecDuplicate(app->u, &heat->work));
  PetscCall(VecGetLocalSize(app->u, &n));
  PetscCall(VecGetSize(app->u, &N));
  PetscCall(VecGetType(app->u, &vtype));
  PetscCall(MatCreateShell(unsteady->comm, n, n, N, N, heat, &heat->J));
  PetscCall(MatShellSetOperation(heat->J, MATOP_MULT, (void (*)(void))MatMult_HeatJacobian));
  PetscCall(MatShellSetOperation(heat->J, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_HeatJacobian));
  PetscCall(MatShellSetVecType(heat->J, vtype));
  PetscCall(PetscObjectSetName((PetscObject)heat->J, "heat Jacobian nu S + shift M"));
  PetscCall(MatSetOption(heat->J, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(heat->J, MAT_SPD, PETSC_TRUE));
  unsteady->physics         = heat;
  unsteady->physics_destroy = HeatDestroy;

  PetscCall(TSSetProblemType(unsteady->ts, TS_LINEAR));
  PetscCall(TSSetIFunction(unsteady->ts, NULL, HeatIFunction, heat));
  PetscCall(TSSetIJacobian(unsteady->ts, heat->J, heat->J, HeatIJacobian, heat));

  /* initial condition: the L2 projection of the exact solution at t = 0 */
  app->problem.time = 0;
  PetscCall(VecZeroEntries(heat->r));
  PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.exact, app->problem.ctx, heat->r));
  PetscCall(DGMassOperatorCreate(app->disc, PETSC_TRUE, &Minv));
  PetscCall(MatMult(Minv, heat->r, app->u));
  PetscCall(MatDestroy(&Minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}
