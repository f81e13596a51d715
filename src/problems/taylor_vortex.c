/* Taylor vortex (seed 000 §4.1, eq. 22): the exact solution of the incompressible Navier–Stokes
 * equations
 *   u = -sin(2 pi y) e^{-4 pi^2 nu t},   v = sin(2 pi x) e^{-4 pi^2 nu t},
 *   p = -cos(2 pi x) cos(2 pi y) e^{-8 pi^2 nu t}
 * (the advection balances the pressure gradient, the velocity decays by viscosity) on
 * [-0.5, 0.5]^2 with nu = 0.01 (-ins_nu) to T = 3, inflow (exact velocity) on the bottom, top and
 * left sides and outflow (exact pressure and normal derivative of the velocity) on the right.
 * Monitors: the L2 errors of the velocity and the pressure, the kinetic energy; derived field: the
 * vorticity. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static PetscErrorCode TaylorVortexState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal uvp[], PetscReal grad[], void *ctx)
{
  const Problem  *problem = (const Problem *)ctx;
  const PetscReal nu = problem->nu, k = 2 * PETSC_PI, decay = PetscExpReal(-k * k * nu * t);

  PetscFunctionBeginUser;
  uvp[0] = -PetscSinReal(k * x[1]) * decay;
  uvp[1] = PetscSinReal(k * x[0]) * decay;
  uvp[2] = -PetscCosReal(k * x[0]) * PetscCosReal(k * x[1]) * decay * decay;
  if (grad)
    for (PetscInt c = 0; c < 3 * dim; c++) grad[c] = 0; /* not needed by the flow solver */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The boundary data's spatial part: velocity, its normal derivative, pressure. */
static PetscErrorCode TaylorVortexBoundary(const PetscReal x[], const PetscReal n[], PetscReal values[5], void *ctx)
{
  const PetscReal k = 2 * PETSC_PI;

  PetscFunctionBeginUser;
  values[0] = -PetscSinReal(k * x[1]);
  values[1] = PetscSinReal(k * x[0]);
  values[2] = -k * PetscCosReal(k * x[1]) * n[1]; /* grad u = (0, -k cos(k y)) */
  values[3] = k * PetscCosReal(k * x[0]) * n[0];  /* grad v = (k cos(k x), 0) */
  values[4] = -PetscCosReal(k * x[0]) * PetscCosReal(k * x[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal TaylorVortexTimeFactor(PetscReal t, PetscInt field, void *ctx)
{
  const Problem  *problem = (const Problem *)ctx;
  const PetscReal k       = 2 * PETSC_PI;
  return PetscExpReal(-(field ? 2.0 : 1.0) * k * k * problem->nu * t);
}

PetscErrorCode ProblemCreate_TaylorVortex(Problem *problem)
{
  PetscFunctionBeginUser;
  problem->nu = 0.01;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Taylor vortex", NULL);
  PetscCall(PetscOptionsReal("-ins_nu", "Kinematic viscosity nu", NULL, problem->nu, &problem->nu, NULL));
  PetscOptionsEnd();
  PetscCheck(problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ins_nu %g must be positive", (double)problem->nu);
  PetscCall(PetscStrncpy(problem->physics, "ins", sizeof(problem->physics)));
  problem->dim = 2;
  problem->ctx              = problem;
  problem->exact            = TaylorVortexState;
  problem->ins_boundary     = TaylorVortexBoundary;
  problem->ins_time_factor  = TaylorVortexTimeFactor;
  problem->velocity_scale   = 1.0;
  problem->default_dt       = 1e-2;
  problem->default_max_time = 3.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/taylor_vortex.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "bottom,top,left"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "right"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_velocity,L2_error_pressure,kinetic_energy", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "vorticity", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
