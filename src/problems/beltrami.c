/* Beltrami flow (Ethier & Steinman 1994): an exact solution of the 3D incompressible Navier–Stokes
 * equations whose velocity is parallel to its vorticity, so the advection balances the pressure
 * gradient and the velocity decays by viscosity. With a = pi/4, d = pi/2,
 *   u = -a [e^{ax} sin(ay + dz) + e^{az} cos(ax + dy)] e^{-nu d^2 t},
 *   v = -a [e^{ay} sin(az + dx) + e^{ax} cos(ay + dz)] e^{-nu d^2 t},
 *   w = -a [e^{az} sin(ax + dy) + e^{ay} cos(az + dx)] e^{-nu d^2 t},
 *   p = -a^2/2 [e^{2ax} + e^{2ay} + e^{2az} + 2 sin(ax + dy) cos(az + dx) e^{a(y+z)}
 *              + 2 sin(ay + dz) cos(ax + dy) e^{a(z+x)} + 2 sin(az + dx) cos(ay + dz) e^{a(x+y)}] e^{-2 nu d^2 t}
 * (v and w are u, and the pressure's terms each other, under the cyclic permutation x -> y -> z).
 * On the unit cube (a DMPlex box, or examples/meshes/cube_tet.msh, cube_hex.msh) with the exact
 * velocity on every face (-bc_dirichlet, the default) the pressure is fixed up to a constant, and its
 * error is measured with the mean removed. nu = 1 (-ins_nu); T = 0.1. Monitors: the L2 errors of
 * the velocity and the pressure, the kinetic energy; derived fields: the vorticity's magnitude and
 * components. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

#define BELTRAMI_A (0.25 * PETSC_PI)
#define BELTRAMI_D (0.5 * PETSC_PI)

/* The first velocity component's spatial part at (x, y, z) and its gradient g (may be NULL); the
 * others are this one at the cyclically permuted point. */
static PetscReal BeltramiU(PetscReal x, PetscReal y, PetscReal z, PetscReal g[3])
{
  const PetscReal a = BELTRAMI_A, d = BELTRAMI_D, ex = PetscExpReal(a * x), ez = PetscExpReal(a * z);
  const PetscReal s1 = PetscSinReal(a * y + d * z), c1 = PetscCosReal(a * y + d * z), s2 = PetscSinReal(a * x + d * y), c2 = PetscCosReal(a * x + d * y);
  if (g) {
    g[0] = -a * (a * ex * s1 - a * ez * s2);
    g[1] = -a * (a * ex * c1 - d * ez * s2);
    g[2] = -a * (d * ex * c1 + a * ez * c2);
  }
  return -a * (ex * s1 + ez * c2);
}

/* Component c (0, 1, 2) of the spatial velocity at x and its gradient g (may be NULL). */
static PetscReal BeltramiVelocity(PetscInt c, const PetscReal x[], PetscReal g[3])
{
  const PetscInt i = c, j = (c + 1) % 3, k = (c + 2) % 3; /* u(x, y, z), v = u(y, z, x), w = u(z, x, y) */
  PetscReal      gp[3], value = BeltramiU(x[i], x[j], x[k], g ? gp : NULL);
  if (g) {
    g[i] = gp[0];
    g[j] = gp[1];
    g[k] = gp[2];
  }
  return value;
}

static PetscReal BeltramiPressure(const PetscReal x[])
{
  const PetscReal a = BELTRAMI_A, d = BELTRAMI_D;
  PetscReal       s = 0;
  for (PetscInt c = 0; c < 3; c++) {
    const PetscReal X = x[c], Y = x[(c + 1) % 3], Z = x[(c + 2) % 3];
    s += PetscExpReal(2 * a * X) + 2 * PetscSinReal(a * X + d * Y) * PetscCosReal(a * Z + d * X) * PetscExpReal(a * (Y + Z));
  }
  return -0.5 * a * a * s;
}

static PetscReal BeltramiTimeFactor(PetscReal t, PetscInt field, void *ctx)
{
  const Problem  *problem = (const Problem *)ctx;
  const PetscReal d       = BELTRAMI_D;
  return PetscExpReal(-(field ? 2.0 : 1.0) * d * d * problem->nu * t);
}

static PetscErrorCode BeltramiState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal uvwp[], PetscReal grad[], void *ctx)
{
  const PetscReal fu = BeltramiTimeFactor(t, 0, ctx), fp = BeltramiTimeFactor(t, 1, ctx);

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 3; c++) uvwp[c] = BeltramiVelocity(c, x, NULL) * fu;
  uvwp[3] = BeltramiPressure(x) * fp;
  if (grad)
    for (PetscInt c = 0; c < nv * dim; c++) grad[c] = 0; /* not needed by the flow solver */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The boundary data's spatial part: velocity, its normal derivative, pressure. */
static PetscErrorCode BeltramiBoundary(const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 3; c++) {
    PetscReal g[3];
    values[c]     = BeltramiVelocity(c, x, g);
    values[3 + c] = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
  }
  values[6] = BeltramiPressure(x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Beltrami(Problem *problem)
{
  PetscFunctionBeginUser;
  problem->nu = 1.0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Beltrami flow", NULL);
  PetscCall(PetscOptionsReal("-ins_nu", "Kinematic viscosity nu", NULL, problem->nu, &problem->nu, NULL));
  PetscOptionsEnd();
  PetscCheck(problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ins_nu %g must be positive", (double)problem->nu);
  PetscCall(PetscStrncpy(problem->physics, "ins", sizeof(problem->physics)));
  problem->dim              = 3;
  problem->ctx              = problem;
  problem->exact            = BeltramiState;
  problem->ins_boundary     = BeltramiBoundary;
  problem->ins_time_factor  = BeltramiTimeFactor;
  problem->velocity_scale   = 4.0; /* max |u| on the unit cube at t = 0 is about 3.4 */
  problem->default_dt       = 1e-3;
  problem->default_max_time = 0.1;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_dim 3 -dm_plex_box_faces 2,2,2", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,front,back,bottom,top"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "none"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_velocity,L2_error_pressure,kinetic_energy", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "vorticity,vorticity_x,vorticity_y,vorticity_z", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same flow for the velocity-correction scheme of continuous spectral elements (physics sem_ns,
 * -disc sem, hexahedra): the exact velocity on every face, no derived fields (sem_ns writes none). */
PetscErrorCode ProblemCreate_BeltramiSEM(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(ProblemCreate_Beltrami(problem));
  PetscCall(PetscStrncpy(problem->physics, "sem_ns", sizeof(problem->physics)));
  problem->derived[0] = 0;
  problem->nbc        = 0;
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,front,back,bottom,top"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
