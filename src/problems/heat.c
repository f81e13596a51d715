/* Manufactured heat problem u_t - nu Laplace u = f on the unit square with the decaying exact
 * solution
 *   u(x, y, t) = exp(-t) sin(a x + p) cos(b y + q),   f = (nu (a^2 + b^2) - 1) u,
 * the spatial shape of the elliptic problems (no symmetry, so Dirichlet and Neumann sides both
 * carry data, and that data changes in time). Default boundary conditions: Neumann on top,
 * Dirichlet elsewhere; -heat_nu sets the diffusivity (default 0.1). Monitors: the L2 error and
 * the L2 norm of u; derived output fields: the exact solution and the nodal error. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static const PetscReal ka = 1.3 * PETSC_PI, kb = 0.9 * PETSC_PI, pa = 0.4, pb = 0.2;

static PetscErrorCode HeatExact(const PetscReal x[], PetscReal *u, PetscReal grad[], void *ctx)
{
  const Problem  *problem = (const Problem *)ctx;
  const PetscReal decay   = PetscExpReal(-problem->time);

  PetscFunctionBeginUser;
  *u = decay * PetscSinReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
  if (grad) {
    grad[0] = decay * ka * PetscCosReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
    grad[1] = -decay * kb * PetscSinReal(ka * x[0] + pa) * PetscSinReal(kb * x[1] + pb);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatForcing(const PetscReal x[], PetscReal *f, PetscReal grad[], void *ctx)
{
  const Problem *problem = (const Problem *)ctx;
  PetscReal      u;

  PetscFunctionBeginUser;
  PetscCall(HeatExact(x, &u, NULL, ctx));
  *f = (problem->nu * (ka * ka + kb * kb) - 1.0) * u;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Zero(const PetscReal x[], PetscReal *u, PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  *u = 0;
  if (grad) grad[0] = grad[1] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatMonitorL2Error(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  Problem *problem = (Problem *)ctx;

  PetscFunctionBeginUser;
  problem->time = time;
  PetscCall(DGDiscL2Error(disc, fields[0], HeatExact, problem, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatMonitorL2Norm(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(DGDiscL2Error(disc, fields[0], Zero, NULL, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exact solution at the nodes of the owned elements. */
static PetscErrorCode HeatNodalExact(DGDisc *disc, PetscReal time, Problem *problem, Vec field)
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  problem->time = time;
  PetscCall(VecGetArrayWrite(field, &a));
  for (PetscInt e = 0; e < disc->mesh->K; e++) {
    const PetscInt cell = disc->mesh->elem_cell[e];
    for (PetscInt i = 0; i < disc->Np; i++) {
      const PetscReal x[2] = {disc->x[cell * disc->Np + i], disc->y[cell * disc->Np + i]};
      PetscCall(HeatExact(x, &a[e * disc->Np + i], NULL, problem));
    }
  }
  PetscCall(VecRestoreArrayWrite(field, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatFieldExact(DGDisc *disc, const Vec fields[], PetscReal time, Vec field, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(HeatNodalExact(disc, time, (Problem *)ctx, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatFieldError(DGDisc *disc, const Vec fields[], PetscReal time, Vec field, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(HeatNodalExact(disc, time, (Problem *)ctx, field));
  PetscCall(VecAYPX(field, -1.0, fields[0])); /* u - exact */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Heat(Problem *problem)
{
  PetscFunctionBeginUser;
  problem->nu = 0.1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Heat problem", NULL);
  PetscCall(PetscOptionsReal("-heat_nu", "Diffusivity nu of u_t - nu Laplace u = f", NULL, problem->nu, &problem->nu, NULL));
  PetscOptionsEnd();
  PetscCheck(problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-heat_nu %g must be positive", (double)problem->nu);
  PetscCall(PetscStrncpy(problem->physics, "heat", sizeof(problem->physics)));
  problem->lambda  = 0.0; /* the spatial operator is -Laplace; the driver scales it by nu */
  problem->exact   = HeatExact;
  problem->forcing = HeatForcing;
  problem->ctx     = problem;
  problem->time    = 0.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square.msh", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->dirichlet, "left,right,bottom", sizeof(problem->dirichlet)));
  PetscCall(PetscStrncpy(problem->neumann, "top", sizeof(problem->neumann)));
  problem->nmonitors = 2;
  PetscCall(PetscStrncpy(problem->monitors[0].name, "L2_error", sizeof(problem->monitors[0].name)));
  problem->monitors[0].evaluate = HeatMonitorL2Error;
  PetscCall(PetscStrncpy(problem->monitors[1].name, "L2_norm", sizeof(problem->monitors[1].name)));
  problem->monitors[1].evaluate = HeatMonitorL2Norm;
  problem->nderived             = 2;
  PetscCall(PetscStrncpy(problem->derived[0].name, "exact", sizeof(problem->derived[0].name)));
  problem->derived[0].evaluate = HeatFieldExact;
  PetscCall(PetscStrncpy(problem->derived[1].name, "error", sizeof(problem->derived[1].name)));
  problem->derived[1].evaluate = HeatFieldError;
  PetscFunctionReturn(PETSC_SUCCESS);
}
