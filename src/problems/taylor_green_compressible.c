/* The compressible Taylor–Green vortex at Re = 1600, Ma = 0.1 (case C3.5 of the International Workshop on High-Order CFD
 * Methods; DeBonis, AIAA 2013-0382): the triply periodic box [0, 2 pi L]^3 (L = 1, V0 = 1, rho0 = 1) from
 *
 *   u = V0 sin(x/L) cos(y/L) cos(z/L),   v = -V0 cos(x/L) sin(y/L) cos(z/L),   w = 0,
 *   p = p0 + rho0 V0^2 / 16 (cos(2x/L) + cos(2y/L)) (cos(2z/L) + 2),
 *
 * p0 = rho0 V0^2 / (gamma Ma^2) (so that c0 = V0 / Ma), and rho = p / (R T0) with R T0 = p0 / rho0 (the workshop's
 * isothermal start; -taylor_green_density constant: rho = rho0), mu = rho0 V0 L / Re (-taylor_green_reynolds),
 * Pr = 0.71, gamma = 1.4, constant viscosity, to t = 20 L / V0 (the dissipation peaks near t = 9). Physics navier_stokes
 * (-disc fr on hexahedra: options/taylor_green_fr.yaml). Monitors: the mean kinetic energy E = (1/(rho0 |Omega|)) int
 * rho |v|^2 / 2, its decay -dE/dt between monitor evaluations and the enstrophy form 2 mu eps, eps = (1/|Omega|)
 * int rho |omega|^2 / 2 from the corrected gradients (device reductions, disc/fr_kinetic.c); the summary gives the
 * peaks of -dE/dt by central differences of E and of 2 mu eps (ProblemTaylorGreenSummary), and scripts/tgv_compare.py
 * --energy-column kinetic_energy compares it with the incompressible 512^3 spectral DNS of bench/reference/ (at Ma = 0.1
 * the compressibility changes the peak by well under 1 %, DeBonis 2013). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  PetscReal gamma, mach;
  PetscBool constant_density;
} TaylorGreenCompressible;

static PetscErrorCode TaylorGreenCompressibleState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const TaylorGreenCompressible *c  = (const TaylorGreenCompressible *)ctx;
  const PetscReal                p0 = 1.0 / (c->gamma * c->mach * c->mach);
  const PetscReal                vx = PetscSinReal(x[0]) * PetscCosReal(x[1]) * PetscCosReal(x[2]), vy = -PetscCosReal(x[0]) * PetscSinReal(x[1]) * PetscCosReal(x[2]);
  const PetscReal                p = p0 + (PetscCosReal(2 * x[0]) + PetscCosReal(2 * x[1])) * (PetscCosReal(2 * x[2]) + 2) / 16, rho = c->constant_density ? 1.0 : p / p0;

  PetscFunctionBeginUser;
  PetscCheck(dim == 3 && nv == 5, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "-problem taylor_green_compressible is three-dimensional (5 conservative components), not %" PetscInt_FMT "D with %" PetscInt_FMT, dim, nv);
  PetscCheck(!grad, PETSC_COMM_SELF, PETSC_ERR_SUP, "-problem taylor_green_compressible: the initial state has no gradient here");
  u[0] = rho;
  u[1] = rho * vx;
  u[2] = rho * vy;
  u[3] = 0;
  u[4] = p / (c->gamma - 1) + 0.5 * rho * (vx * vx + vy * vy);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_TaylorGreenCompressible(Problem *problem)
{
  TaylorGreenCompressible *c;
  PetscReal                Re = 1600, Pr = 0.71;
  PetscInt                 density     = 0;
  const char *const        densities[] = {"isothermal", "constant"};

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->gamma = 1.4;
  c->mach  = 0.1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Compressible Taylor–Green vortex (3D)", NULL);
  PetscCall(PetscOptionsReal("-taylor_green_reynolds", "Reynolds number rho0 V0 L / mu (V0 = L = rho0 = 1)", NULL, Re, &Re, NULL));
  PetscCall(PetscOptionsReal("-taylor_green_mach", "Mach number V0 / c0", NULL, c->mach, &c->mach, NULL));
  PetscCall(PetscOptionsReal("-ns_prandtl", "Prandtl number", NULL, Pr, &Pr, NULL));
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, c->gamma, &c->gamma, NULL));
  PetscCall(PetscOptionsEList("-taylor_green_density", "The initial density: isothermal (rho = p / (R T0), the workshop's C3.5) or constant (rho0)", NULL, densities, 2, densities[density], &density, NULL));
  PetscOptionsEnd();
  PetscCheck(Re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-taylor_green_reynolds %g must be positive", (double)Re);
  PetscCheck(c->mach > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-taylor_green_mach %g must be positive", (double)c->mach);
  PetscCheck(Pr > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ns_prandtl %g must be positive", (double)Pr);
  PetscCheck(c->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)c->gamma);
  c->constant_density = density == 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscStrncpy(problem->physics, "navier_stokes", sizeof(problem->physics)));
  problem->gamma            = c->gamma;
  problem->mu               = 1.0 / Re;
  problem->prandtl          = Pr;
  problem->dim              = 3;
  problem->initial          = TaylorGreenCompressibleState;
  problem->summary          = ProblemTaylorGreenSummary;
  problem->velocity_scale   = 1.0;
  problem->length_scale     = 1.0;
  problem->default_max_time = 20;
  problem->ctx              = c;
  problem->ctx_destroy      = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 4,4,4 -dm_plex_box_lower 0,0,0 -dm_plex_box_upper 6.283185307179586,6.283185307179586,6.283185307179586 -dm_plex_box_bd periodic,periodic,periodic", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->monitors, "kinetic_energy,dissipation,enstrophy_dissipation", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
