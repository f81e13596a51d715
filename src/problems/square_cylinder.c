/* Flow past a square cylinder at Re = U D / nu = 100 (seed 000 §4.2): the domain
 * [-16, 25] x [-22, 22] around a cylinder of edge D = 1 (examples/meshes/square_cylinder.geo,
 * 2363 triangles refined near the cylinder and in its wake), the free stream (U, 0) = (1, 0) on the
 * inflow group (left, top and bottom sides, also the velocity of any backflow at the outflow), no
 * slip on the cylinder, zero pressure and du/dn = 0 on the outflow (right side); the fluid starts at
 * rest and the inflow speed ramps up over -cylinder_ramp (default 1). -ins_reynolds sets Re (nu = 1/Re).
 *
 * Monitors, every step: the drag and lift coefficients C_D = 2 F_x / (U^2 D), C_L = 2 F_y / (U^2 D)
 * of the force F of the fluid on the cylinder. At the end the summary line reports, over the lift
 * record after -cylinder_transient (default: the first half of the run), the Strouhal number
 * St = f D / U from the mean period between upward zero crossings of C_L - mean(C_L), the mean
 * drag and the lift amplitude. Derived field: the vorticity. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  Problem   *problem;
  INSOps     ops;   /* geometry for forces and vorticity, created on first use */
  PetscBool *faces; /* the cylinder's faces */
  PetscReal  transient, ramp;
  PetscInt   n, cap; /* lift record */
  PetscReal *t, *cl, *cd;
} SquareCylinder;

static PetscErrorCode SquareCylinderState(const PetscReal x[], PetscReal t, PetscReal uvp[3], void *ctx)
{
  PetscFunctionBeginUser;
  uvp[0] = uvp[1] = uvp[2] = 0; /* at rest */
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

static PetscErrorCode SquareCylinderSetUp(SquareCylinder *sc, DGDisc *disc)
{
  PetscFunctionBeginUser;
  if (sc->ops) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(INSOpsCreate(disc, NULL, &sc->ops));
  PetscCall(MeshGetGroupFaces(disc->mesh, "the square_cylinder problem's force monitor", "cylinder", &sc->faces));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Force coefficients, recorded once per time (the drag monitor runs first). */
static PetscErrorCode SquareCylinderForces(SquareCylinder *sc, DGDisc *disc, const Vec fields[], PetscReal time, PetscReal c[2])
{
  PetscReal F[2];

  PetscFunctionBeginUser;
  PetscCall(SquareCylinderSetUp(sc, disc));
  PetscCall(INSOpsBoundaryForce(sc->ops, sc->problem->nu, fields[0], fields[1], fields[2], sc->faces, F));
  c[0] = 2 * F[0];
  c[1] = 2 * F[1];
  if (sc->n && time <= sc->t[sc->n - 1]) PetscFunctionReturn(PETSC_SUCCESS);
  if (sc->n == sc->cap) {
    PetscReal *t, *cl, *cd;
    sc->cap = PetscMax(1024, 2 * sc->cap);
    PetscCall(PetscMalloc3(sc->cap, &t, sc->cap, &cl, sc->cap, &cd));
    if (sc->n) {
      PetscCall(PetscArraycpy(t, sc->t, sc->n));
      PetscCall(PetscArraycpy(cl, sc->cl, sc->n));
      PetscCall(PetscArraycpy(cd, sc->cd, sc->n));
    }
    PetscCall(PetscFree3(sc->t, sc->cl, sc->cd));
    sc->t = t, sc->cl = cl, sc->cd = cd;
  }
  sc->t[sc->n]  = time;
  sc->cd[sc->n] = c[0];
  sc->cl[sc->n] = c[1];
  sc->n++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MonitorDrag(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  PetscReal c[2];

  PetscFunctionBeginUser;
  PetscCall(SquareCylinderForces((SquareCylinder *)ctx, disc, fields, time, c));
  *value = c[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MonitorLift(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx)
{
  PetscReal c[2];

  PetscFunctionBeginUser;
  PetscCall(SquareCylinderForces((SquareCylinder *)ctx, disc, fields, time, c));
  *value = c[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DerivedVorticity(DGDisc *disc, const Vec fields[], PetscReal time, Vec omega, void *ctx)
{
  SquareCylinder *sc = (SquareCylinder *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SquareCylinderSetUp(sc, disc));
  PetscCall(INSOpsVorticity(sc->ops, fields[0], fields[1], omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Strouhal number, mean drag and lift amplitude over the record after the transient. */
static PetscErrorCode SquareCylinderSummary(void *ctx, char summary[], size_t len)
{
  SquareCylinder *sc = (SquareCylinder *)ctx;
  PetscInt        i0 = 0, ncross = 0;
  PetscReal       t0, mean_cl = 0, mean_cd = 0, amp = 0, first = 0, last = 0;

  PetscFunctionBeginUser;
  summary[0] = 0;
  if (sc->n < 4) PetscFunctionReturn(PETSC_SUCCESS);
  t0 = sc->transient >= 0 ? sc->transient : 0.5 * (sc->t[0] + sc->t[sc->n - 1]);
  while (i0 < sc->n - 1 && sc->t[i0] < t0) i0++;
  for (PetscInt i = i0; i < sc->n; i++) {
    mean_cl += sc->cl[i] / (sc->n - i0);
    mean_cd += sc->cd[i] / (sc->n - i0);
  }
  for (PetscInt i = i0; i < sc->n; i++) amp = PetscMax(amp, PetscAbsReal(sc->cl[i] - mean_cl));
  for (PetscInt i = i0 + 1; i < sc->n; i++) {
    const PetscReal a = sc->cl[i - 1] - mean_cl, b = sc->cl[i] - mean_cl;
    if (a < 0 && b >= 0) { /* upward crossing, interpolated in time */
      const PetscReal tc = sc->t[i - 1] + (sc->t[i] - sc->t[i - 1]) * (-a) / (b - a);
      if (!ncross) first = tc;
      last = tc;
      ncross++;
    }
  }
  PetscCall(PetscSNPrintf(summary, len, "Strouhal %.5f CD_mean %.5f CL_amplitude %.5f shedding_periods %" PetscInt_FMT " record_from %.3f", ncross > 1 ? (double)((ncross - 1) / (last - first)) : 0.0, (double)mean_cd, (double)amp, PetscMax(ncross - 1, 0), (double)t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SquareCylinderDestroy(void *ctx)
{
  SquareCylinder *sc = (SquareCylinder *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSOpsDestroy(&sc->ops));
  PetscCall(PetscFree(sc->faces));
  PetscCall(PetscFree3(sc->t, sc->cl, sc->cd));
  PetscCall(PetscFree(sc));
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
  problem->ctx              = sc;
  problem->ctx_destroy      = SquareCylinderDestroy;
  problem->ins_state        = SquareCylinderState;
  problem->ins_exact        = PETSC_FALSE;
  problem->ins_boundary     = SquareCylinderBoundary;
  problem->ins_time_factor  = SquareCylinderTimeFactor;
  problem->ins_summary      = SquareCylinderSummary;
  problem->velocity_scale   = 1.0;
  problem->default_dt       = 0.01;
  problem->default_max_time = 200;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square_cylinder.msh", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->dirichlet, "inflow,cylinder", sizeof(problem->dirichlet)));
  PetscCall(PetscStrncpy(problem->neumann, "outflow", sizeof(problem->neumann)));
  problem->nmonitors = 2;
  PetscCall(PetscStrncpy(problem->monitors[0].name, "drag_coefficient", sizeof(problem->monitors[0].name)));
  problem->monitors[0].evaluate = MonitorDrag;
  PetscCall(PetscStrncpy(problem->monitors[1].name, "lift_coefficient", sizeof(problem->monitors[1].name)));
  problem->monitors[1].evaluate = MonitorLift;
  problem->nderived             = 1;
  PetscCall(PetscStrncpy(problem->derived[0].name, "vorticity", sizeof(problem->derived[0].name)));
  problem->derived[0].evaluate = DerivedVorticity;
  PetscFunctionReturn(PETSC_SUCCESS);
}
