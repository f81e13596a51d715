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

static PetscErrorCode HeatExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const PetscReal decay = PetscExpReal(-t);

  PetscFunctionBeginUser;
  u[0] = decay * PetscSinReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
  if (grad) {
    grad[0] = decay * ka * PetscCosReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
    grad[1] = -decay * kb * PetscSinReal(ka * x[0] + pa) * PetscSinReal(kb * x[1] + pb);
    if (dim == 3) grad[2] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HeatForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  const Problem *problem = (const Problem *)ctx;
  PetscReal      u;

  PetscFunctionBeginUser;
  PetscCall(HeatExact(dim, t, x, 1, &u, NULL, ctx));
  f[0] = (problem->nu * (ka * ka + kb * kb) - 1.0) * u;
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
  problem->exact   = HeatExact;
  problem->forcing = HeatForcing;
  problem->ctx     = problem;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,front,back,bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "top"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error,L2_norm", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "exact,error", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
