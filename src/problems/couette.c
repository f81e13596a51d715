/* Compressible Couette flow (seed 004 §3.1.1), a case of the Navier–Stokes physics (-disc mdg): the
 * plates y = 0 (at rest, temperature T_0) and y = H (moving at U, temperature T_1), periodic in x on
 * [0, 2H] x [0, H], H = 2, constant viscosity. The exact steady state
 *
 *   u = U y/H, v = 0, p = p_inf,
 *   T = T_0 + (T_1 - T_0) y/H + Pr U^2 / (2 c_p) (y/H) (1 - y/H),   rho = p / T,
 *
 * in units where the free stream has rho_inf = 1, p_inf = 1/gamma (T_inf = 1/gamma, c_inf = 1): the
 * wall temperatures T_0 = 0.8 T_inf and T_1 = 0.85 T_inf (-couette_wall_temperatures 0.8,0.85: a larger ratio
 * makes the density profile less smooth, for convergence studies of the higher orders), U = Ma c_inf with Ma = 0.1 (-couette_mach) and
 * mu = rho_inf U H / Re with Re = 100 (-couette_reynolds), Pr 0.72 (-ns_prandtl). The walls are
 * no_slip_isothermal, their temperature and velocity read from the exact state. -couette_adiabatic_top: the
 * top plate adiabatic instead (no_slip_adiabatic), T = T_0 + Pr U^2 / (2 c_p) (y/H) (2 - y/H) (dT/dy = 0 there). Default mesh: the
 * quadrilateral box 8 x 4, periodic in x (-dm_plex_simplex 1 for triangles). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  PetscReal gamma, mach, reynolds, prandtl, H, T01[2];
  PetscBool adiabatic_top;
} Couette;

static PetscErrorCode CouetteState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const Couette  *c    = (const Couette *)ctx;
  const PetscReal g    = c->gamma, Tinf = 1 / g, U = c->mach, cp = g / (g - 1), eta = x[1] / c->H;
  const PetscReal T    = c->adiabatic_top ? Tinf * c->T01[0] + c->prandtl * U * U / (2 * cp) * eta * (2 - eta) : Tinf * (c->T01[0] + (c->T01[1] - c->T01[0]) * eta) + c->prandtl * U * U / (2 * cp) * eta * (1 - eta);
  const PetscReal p    = 1 / g, rho = p / T, vel = U * eta;

  PetscFunctionBeginUser;
  u[0] = rho;
  u[1] = rho * vel;
  for (PetscInt d = 1; d < dim; d++) u[1 + d] = 0;
  u[dim + 1] = p / (g - 1) + 0.5 * rho * vel * vel;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Couette(Problem *problem)
{
  Couette *c;
  PetscInt  nT = 2;
  PetscBool set_T;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->gamma    = 1.4;
  c->mach     = 0.1;
  c->reynolds = 100;
  c->prandtl  = 0.72;
  c->H        = 2;
  c->T01[0]   = 0.8;
  c->T01[1]   = 0.85;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Couette flow", NULL);
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, c->gamma, &c->gamma, NULL));
  PetscCall(PetscOptionsReal("-couette_mach", "Mach number of the moving plate (free-stream speed of sound)", NULL, c->mach, &c->mach, NULL));
  PetscCall(PetscOptionsReal("-couette_reynolds", "Reynolds number rho_inf U H / mu", NULL, c->reynolds, &c->reynolds, NULL));
  PetscCall(PetscOptionsReal("-ns_prandtl", "Prandtl number", NULL, c->prandtl, &c->prandtl, NULL));
  PetscCall(PetscOptionsRealArray("-couette_wall_temperatures", "The plates' temperatures T_0,T_1 in units of the free stream's T_inf", NULL, c->T01, &nT, &set_T));
  PetscCall(PetscOptionsBool("-couette_adiabatic_top", "The top plate adiabatic (boundary group top: no_slip_adiabatic) instead of isothermal", NULL, c->adiabatic_top, &c->adiabatic_top, NULL));
  PetscOptionsEnd();
  PetscCheck(!set_T || (nT == 2 && c->T01[0] > 0 && c->T01[1] > 0), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-couette_wall_temperatures needs two positive values T_0,T_1 (units of T_inf)");
  PetscCheck(c->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)c->gamma);
  PetscCheck(c->reynolds > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-couette_reynolds %g must be positive", (double)c->reynolds);
  PetscCheck(c->mach > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-couette_mach %g must be positive", (double)c->mach);
  PetscCheck(c->prandtl > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ns_prandtl %g must be positive", (double)c->prandtl);
  PetscCall(PetscStrncpy(problem->physics, "navier_stokes", sizeof(problem->physics)));
  problem->gamma            = c->gamma;
  problem->mu               = c->mach * c->H / c->reynolds; /* rho_inf U H / Re with rho_inf = 1, U = Ma */
  problem->prandtl          = c->prandtl;
  problem->exact            = CouetteState;
  problem->default_max_time = 1.0;
  problem->ctx              = c;
  problem->ctx_destroy      = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_simplex 0 -dm_plex_box_faces 8,4 -dm_plex_box_upper 4,2 -dm_plex_box_bd periodic,none", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "no_slip_isothermal", c->adiabatic_top ? "bottom" : "bottom,top"));
  if (c->adiabatic_top) PetscCall(ProblemSetBoundaryGroups(problem, "no_slip_adiabatic", "top"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_density,residual,mass,energy", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "density,pressure,mach", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
