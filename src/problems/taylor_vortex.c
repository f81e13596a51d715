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
#include <hoflow/unsteady.h>

typedef struct {
  Problem *problem;
  INSOps   ops; /* for the vorticity, created on first use */
} TaylorVortex;

static PetscErrorCode TaylorVortexState(const PetscReal x[], PetscReal t, PetscReal uvp[3], void *ctx)
{
  const TaylorVortex *tv = (const TaylorVortex *)ctx;
  const PetscReal     nu = tv->problem->nu, k = 2 * PETSC_PI, decay = PetscExpReal(-k * k * nu * t);

  PetscFunctionBeginUser;
  uvp[0] = -PetscSinReal(k * x[1]) * decay;
  uvp[1] = PetscSinReal(k * x[0]) * decay;
  uvp[2] = -PetscCosReal(k * x[0]) * PetscCosReal(k * x[1]) * decay * decay;
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
  const TaylorVortex *tv = (const TaylorVortex *)ctx;
  const PetscReal     k  = 2 * PETSC_PI;
  return PetscExpReal(-(field ? 2.0 : 1.0) * k * k * tv->problem->nu * t);
}

static PetscErrorCode MonitorVelocityError(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  PetscReal e[2];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 2; c++) {
    INSComponent comp = {((TaylorVortex *)ctx)->problem, c, time};
    PetscCall(DGDiscL2Error(disc, fields[c], INSComponentFunction, &comp, &e[c]));
  }
  *value = PetscSqrtReal(e[0] * e[0] + e[1] * e[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MonitorPressureError(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  INSComponent comp = {((TaylorVortex *)ctx)->problem, 2, time};

  PetscFunctionBeginUser;
  PetscCall(DGDiscL2Error(disc, fields[2], INSComponentFunction, &comp, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (1/2) int |u|^2 = (1/2) (u^T M u + v^T M v) */
static PetscErrorCode MonitorKineticEnergy(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  Mat       M;
  Vec       w;
  PetscReal a, b;

  PetscFunctionBeginUser;
  PetscCall(DGMassOperatorCreate(disc, PETSC_FALSE, &M));
  PetscCall(VecDuplicate(fields[0], &w));
  PetscCall(MatMult(M, fields[0], w));
  PetscCall(VecDot(w, fields[0], &a));
  PetscCall(MatMult(M, fields[1], w));
  PetscCall(VecDot(w, fields[1], &b));
  *value = 0.5 * (a + b);
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DerivedVorticity(DGDisc *disc, const Vec fields[], PetscReal time, Vec omega, void *ctx)
{
  TaylorVortex *tv = (TaylorVortex *)ctx;

  PetscFunctionBeginUser;
  if (!tv->ops) PetscCall(INSOpsCreate(disc, NULL, &tv->ops));
  PetscCall(INSOpsVorticity(tv->ops, fields[0], fields[1], omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TaylorVortexDestroy(void *ctx)
{
  TaylorVortex *tv = (TaylorVortex *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSOpsDestroy(&tv->ops));
  PetscCall(PetscFree(tv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_TaylorVortex(Problem *problem)
{
  TaylorVortex *tv;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&tv));
  tv->problem = problem;
  problem->nu = 0.01;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Taylor vortex", NULL);
  PetscCall(PetscOptionsReal("-ins_nu", "Kinematic viscosity nu", NULL, problem->nu, &problem->nu, NULL));
  PetscOptionsEnd();
  PetscCheck(problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ins_nu %g must be positive", (double)problem->nu);
  PetscCall(PetscStrncpy(problem->physics, "ins", sizeof(problem->physics)));
  problem->ctx              = tv;
  problem->ctx_destroy      = TaylorVortexDestroy;
  problem->ins_state        = TaylorVortexState;
  problem->ins_exact        = PETSC_TRUE;
  problem->ins_boundary     = TaylorVortexBoundary;
  problem->ins_time_factor  = TaylorVortexTimeFactor;
  problem->velocity_scale   = 1.0;
  problem->default_dt       = 1e-2;
  problem->default_max_time = 3.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/taylor_vortex.msh", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->dirichlet, "bottom,top,left", sizeof(problem->dirichlet)));
  PetscCall(PetscStrncpy(problem->neumann, "right", sizeof(problem->neumann)));
  problem->nmonitors = 3;
  PetscCall(PetscStrncpy(problem->monitors[0].name, "L2_error_velocity", sizeof(problem->monitors[0].name)));
  problem->monitors[0].evaluate = MonitorVelocityError;
  PetscCall(PetscStrncpy(problem->monitors[1].name, "L2_error_pressure", sizeof(problem->monitors[1].name)));
  problem->monitors[1].evaluate = MonitorPressureError;
  PetscCall(PetscStrncpy(problem->monitors[2].name, "kinetic_energy", sizeof(problem->monitors[2].name)));
  problem->monitors[2].evaluate = MonitorKineticEnergy;
  problem->nderived             = 1;
  PetscCall(PetscStrncpy(problem->derived[0].name, "vorticity", sizeof(problem->derived[0].name)));
  problem->derived[0].evaluate = DerivedVorticity;
  PetscFunctionReturn(PETSC_SUCCESS);
}
