/* Flow past a square cylinder at Re = U D / nu = 100 (seed 000 §4.2): the domain
 * [-16, 25] x [-22, 22] around a cylinder of edge D = 1 (examples/meshes/square_cylinder.geo,
 * 2363 triangles refined near the cylinder and in its wake), the free stream (U, 0) = (1, 0) on the
 * inflow group (left, top and bottom sides, also the velocity of any backflow at the outflow), no
 * slip on the cylinder, zero pressure and du/dn = 0 on the outflow (right side); the fluid starts at
 * rest and the inflow speed ramps up over -cylinder_ramp (default 1). -ins_reynolds sets Re (nu = 1/Re).
 *
 * Monitors, every step: the drag and lift coefficients C_D = 2 F_x / (U^2 D), C_L = 2 F_y / (U^2 D)
 * of the force F of the fluid on the cylinder (the physics' force monitors on the group
 * "cylinder"). At the end the summary line reports, over the lift record after -cylinder_transient
 * (default: the first half of the run), the Strouhal number St = f D / U from the mean period
 * between upward zero crossings of C_L - mean(C_L), the mean drag and the lift amplitude. Derived
 * field: the vorticity. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  Problem  *problem;
  PetscReal transient, ramp;
} SquareCylinder;

static PetscErrorCode SquareCylinderState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal uvp[], PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < nv; c++) uvp[c] = 0; /* at rest */
  if (grad)
    for (PetscInt c = 0; c < nv * dim; c++) grad[c] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free stream on the inflow (and for backflow at the outflow), zero on the cylinder (|x|, |y| <= 1/2),
 * du/dn = 0 and p = 0 on the outflow. */
static PetscErrorCode SquareCylinderBoundary(const PetscReal x[], const PetscReal n[], PetscReal values[5], void *ctx)
{
  const PetscBool on_cylinder = PetscAbsReal(x[0]) < 0.5 + 1e-8 && PetscAbsReal(x[1]) < 0.5 + 1e-8 ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBeginUser;
  values[0] = on_cylinder ? 0.0 : 1.0;
  values[1] = values[2] = values[3] = values[4] = 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The inflow speed grows smoothly from 0 to U over the ramp time: an impulsive start sends a pressure
 * spike (C_D ~ 2000 in the first step) that the splitting does not survive at useful steps. */
static PetscReal SquareCylinderTimeFactor(PetscReal t, PetscInt field, void *ctx)
{
  const SquareCylinder *sc = (const SquareCylinder *)ctx;
  if (field || t >= sc->ramp) return 1.0;
  return PetscSqr(PetscSinReal(0.5 * PETSC_PI * t / sc->ramp));
}

/* Strouhal number, mean drag and lift amplitude over the record after the transient. */
static PetscErrorCode SquareCylinderSummary(void *ctx, PetscInt n, const PetscReal t[], PetscInt nmon, const char *const names[], PetscReal *const values[], char summary[], size_t len)
{
  SquareCylinder  *sc = (SquareCylinder *)ctx;
  const PetscReal *cd = NULL, *cl = NULL;
  PetscInt         i0 = 0, ncross = 0;
  PetscReal        t0, mean_cl = 0, mean_cd = 0, amp = 0, first = 0, last = 0;

  PetscFunctionBeginUser;
  summary[0] = 0;
  for (PetscInt m = 0; m < nmon; m++) {
    if (!strcmp(names[m], "drag_coefficient")) cd = values[m];
    if (!strcmp(names[m], "lift_coefficient")) cl = values[m];
  }
  if (n < 4 || !cd || !cl) PetscFunctionReturn(PETSC_SUCCESS);
  t0 = sc->transient >= 0 ? sc->transient : 0.5 * (t[0] + t[n - 1]);
  while (i0 < n - 1 && t[i0] < t0) i0++;
  for (PetscInt i = i0; i < n; i++) {
    mean_cl += cl[i] / (n - i0);
    mean_cd += cd[i] / (n - i0);
  }
  for (PetscInt i = i0; i < n; i++) amp = PetscMax(amp, PetscAbsReal(cl[i] - mean_cl));
  for (PetscInt i = i0 + 1; i < n; i++) {
    const PetscReal a = cl[i - 1] - mean_cl, b = cl[i] - mean_cl;
    if (a < 0 && b >= 0) { /* upward crossing, interpolated in time */
      const PetscReal tc = t[i - 1] + (t[i] - t[i - 1]) * (-a) / (b - a);
      if (!ncross) first = tc;
      last = tc;
      ncross++;
    }
  }
  PetscCall(PetscSNPrintf(summary, len, "Strouhal %.5f CD_mean %.5f CL_amplitude %.5f shedding_periods %" PetscInt_FMT " record_from %.3f", ncross > 1 ? (double)((ncross - 1) / (last - first)) : 0.0, (double)mean_cd, (double)amp, PetscMax(ncross - 1, 0), (double)t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_SquareCylinder(Problem *problem)
{
  SquareCylinder *sc;
  PetscReal       Re = 100;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&sc));
  sc->problem   = problem;
  sc->transient = -1;
  sc->ramp      = 1.0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Square cylinder", NULL);
  PetscCall(PetscOptionsReal("-ins_reynolds", "Reynolds number U D / nu", NULL, Re, &Re, NULL));
  PetscCall(PetscOptionsReal("-cylinder_ramp", "Time over which the inflow speed grows from 0 to 1 (sin^2 ramp; 0: impulsive start)", NULL, sc->ramp, &sc->ramp, NULL));
  PetscCall(PetscOptionsReal("-cylinder_transient", "Time after which the lift record enters the Strouhal number (negative: half the run)", NULL, sc->transient, &sc->transient, NULL));
  PetscOptionsEnd();
  PetscCheck(Re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ins_reynolds %g must be positive", (double)Re);
  problem->nu = 1.0 / Re;
  PetscCall(PetscStrncpy(problem->physics, "ins", sizeof(problem->physics)));
  problem->dim = 2;
  problem->ctx              = sc;
  problem->ctx_destroy      = ProblemFreeContext;
  problem->initial          = SquareCylinderState;
  problem->ins_boundary     = SquareCylinderBoundary;
  problem->ins_time_factor  = SquareCylinderTimeFactor;
  problem->summary          = SquareCylinderSummary;
  problem->velocity_scale   = 1.0;
  problem->length_scale     = 1.0;
  problem->default_dt       = 0.01;
  problem->default_max_time = 200;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square_cylinder.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "inflow,cylinder"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "outflow"));
  PetscCall(PetscStrncpy(problem->monitors, "drag_coefficient,lift_coefficient", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "vorticity", sizeof(problem->derived)));
  PetscCall(PetscStrncpy(problem->force_group, "cylinder", sizeof(problem->force_group)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
