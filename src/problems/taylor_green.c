/* The two-dimensional Taylor–Green vortex: the exact solution of the incompressible Navier–Stokes
 * equations with period 1 in x and y,
 *   u = sin(2 pi x) cos(2 pi y) F,   v = -cos(2 pi x) sin(2 pi y) F,   p = (cos(4 pi x) + cos(4 pi y)) F^2 / 4,
 *   F = e^{-8 pi^2 nu t},
 * (the convection balances the pressure gradient, the viscosity decays the velocity), nu = 0.01
 * (-taylor_green_nu), to T = 0.5 on the doubly periodic unit box of 4 x 4 quadrilaterals by default; on a
 * box with walls (-dm_plex_box_bd none,none -bc_dirichlet left,right,bottom,top) the exact velocity is
 * the Dirichlet data, time-dependent, which the rotational pressure boundary condition of the
 * velocity-correction scheme (physics sem_ns) meets. For temporal convergence studies: the L2 errors at
 * T (-sem_ns_exact_history starts from the exact past levels). Monitors: the L2 errors of the velocity and
 * the pressure, the kinetic energy, the L2 norm of div u. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static PetscErrorCode TaylorGreenState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx)
{
  const Problem  *problem = (const Problem *)ctx;
  const PetscReal k = 2 * PETSC_PI, F = PetscExpReal(-2 * k * k * problem->nu * t);
  const PetscReal sx = PetscSinReal(k * x[0]), cx = PetscCosReal(k * x[0]), sy = PetscSinReal(k * x[1]), cy = PetscCosReal(k * x[1]);

  PetscFunctionBeginUser;
  PetscCheck(dim == 2 && nv >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The Taylor–Green vortex here is two-dimensional: (u, v[, p])");
  values[0] = sx * cy * F;
  values[1] = -cx * sy * F;
  if (nv > 2) values[2] = 0.25 * (PetscCosReal(2 * k * x[0]) + PetscCosReal(2 * k * x[1])) * F * F;
  if (grad) {
    grad[0] = k * cx * cy * F, grad[1] = -k * sx * sy * F;
    grad[2] = k * sx * sy * F, grad[3] = -k * cx * cy * F;
    if (nv > 2) grad[4] = -0.5 * k * PetscSinReal(2 * k * x[0]) * F * F, grad[5] = -0.5 * k * PetscSinReal(2 * k * x[1]) * F * F;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_TaylorGreen(Problem *problem)
{
  PetscFunctionBeginUser;
  problem->nu = 0.01;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Taylor–Green vortex (2D)", NULL);
  PetscCall(PetscOptionsReal("-taylor_green_nu", "Kinematic viscosity nu", NULL, problem->nu, &problem->nu, NULL));
  PetscOptionsEnd();
  PetscCheck(problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-taylor_green_nu %g must be positive", (double)problem->nu);
  PetscCall(PetscStrncpy(problem->physics, "sem_ns", sizeof(problem->physics)));
  problem->dim              = 2;
  problem->ctx              = problem;
  problem->exact            = TaylorGreenState;
  problem->velocity_scale   = 1.0;
  problem->default_dt       = 0.01;
  problem->default_max_time = 0.5;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 4,4 -dm_plex_box_bd periodic,periodic", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "none"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_velocity,L2_error_pressure,kinetic_energy,divergence", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
