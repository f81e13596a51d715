/* Compressible-flow cases of the Euler physics (physics/euler.c, -disc mdg), gamma from -euler_gamma:
 *
 *   isentropic_vortex  the isentropic vortex convected by the free stream (1, 1) on the periodic unit
 *                      square: rho = (1 - (gamma-1) beta^2/(8 gamma pi^2) e^{1-r^2})^{1/(gamma-1)}, p = rho^gamma,
 *                      v = (1, 1) + beta/(2 pi) e^{(1-r^2)/2} (-y', x'), r = |x'|, x' = (x - x_c(t))/R, R = 1/15
 *                      (-vortex_radius), beta = 5 (-vortex_strength); exact: the initial state convected
 *                      (nearest periodic image). Default mesh: the periodic Gmsh square.
 *   supersonic_vortex  the steady supersonic vortex in the quarter annulus 1 <= r <= 1.384 (seed 002 §5.1):
 *                      rho = (1 + (gamma-1)/2 M_i^2 (1 - 1/r^2))^{1/(gamma-1)}, |v| = M_i / r (counterclockwise),
 *                      p = rho^gamma / gamma, M_i = 2.25; inflow (exact) on the bottom cut, outflow on the
 *                      left cut, slip walls on the circles (curved by -curve_inner/-curve_outer circle).
 *   sod                Sod's shock tube along x on [0, 1] (x 0.1 in y): (1, 0, 1) left of 0.5, (0.125, 0, 0.1)
 *                      right; exact: the Riemann solution (pressure of the star region by Newton's method).
 *   double_mach        the double Mach reflection (seed 002 §5.2): a Mach 10 shock at 60 degrees to the wall that
 *                      starts at x = 1/6, on [0, 4] x [0, 1] to t = 0.2; post-shock (8, 8.25 cos 30, -8.25 sin 30,
 *                      116.5), pre-shock (1.4, 0, 0, 1); the top boundary follows the exact shock position.
 *   freestream         a uniform state (-freestream_mach, -freestream_angle degrees, rho 1, p 1/gamma) on any
 *                      mesh with far-field boundaries: it must stay uniform to round-off (also on curved
 *                      and non-affine elements). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  PetscReal gamma;
  PetscReal radius, strength;  /* isentropic vortex */
  PetscReal mach, angle;       /* free stream */
  PetscReal pstar, ustar;      /* Sod: the star region */
  PetscReal left[3], right[3]; /* a general Riemann problem's initial states (rho, u, p) */
} EulerCase;

static PetscErrorCode EulerCaseCreate(Problem *problem, EulerCase **ec)
{
  PetscFunctionBeginUser;
  PetscCall(PetscNew(ec));
  (*ec)->gamma = 1.4;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Compressible flow", NULL);
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, (*ec)->gamma, &(*ec)->gamma, NULL));
  PetscOptionsEnd();
  PetscCheck((*ec)->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)(*ec)->gamma);
  PetscCall(PetscStrncpy(problem->physics, "euler", sizeof(problem->physics)));
  problem->gamma       = (*ec)->gamma;
  problem->ctx         = *ec;
  problem->ctx_destroy = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->monitors, "mass,energy", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "density,pressure,mach", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Conservative(PetscInt dim, PetscReal gamma, PetscReal rho, const PetscReal v[], PetscReal p, PetscReal u[])
{
  PetscReal v2 = 0;
  u[0]         = rho;
  for (PetscInt d = 0; d < dim; d++) {
    u[1 + d] = rho * v[d];
    v2 += v[d] * v[d];
  }
  u[dim + 1] = p / (gamma - 1) + 0.5 * rho * v2;
}

/* ---- isentropic vortex ---- */
static PetscErrorCode IsentropicVortexState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec = (const EulerCase *)ctx;
  const PetscReal  g = ec->gamma, R = ec->radius, beta = ec->strength;
  PetscReal        xr[3] = {0, 0, 0}, r2 = 0, v[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < PetscMin(dim, 2); d++) {
    PetscReal dx = x[d] - t - 0.5;  /* centre (0.5, 0.5) + (1, 1) t */
    dx -= PetscFloorReal(dx + 0.5); /* the nearest periodic image */
    xr[d] = dx / R;
    r2 += xr[d] * xr[d];
  }
  {
    const PetscReal e = PetscExpReal(0.5 * (1 - r2)), dT = -(g - 1) * beta * beta / (8 * g * PETSC_PI * PETSC_PI) * e * e;
    const PetscReal rho = PetscPowReal(1 + dT, 1 / (g - 1)), p = PetscPowReal(rho, g);
    v[0] = 1 - beta / (2 * PETSC_PI) * e * xr[1];
    v[1] = 1 + beta / (2 * PETSC_PI) * e * xr[0];
    Conservative(dim, g, rho, v, p, u);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_IsentropicVortex(Problem *problem)
{
  EulerCase *ec;

  PetscFunctionBeginUser;
  PetscCall(EulerCaseCreate(problem, &ec));
  ec->radius   = 1.0 / 15;
  ec->strength = 5;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Isentropic vortex", NULL);
  PetscCall(PetscOptionsReal("-vortex_radius", "Vortex radius R (the unit square is periodic: keep R <= 1/15 for a smooth state)", NULL, ec->radius, &ec->radius, NULL));
  PetscCall(PetscOptionsReal("-vortex_strength", "Vortex strength beta", NULL, ec->strength, &ec->strength, NULL));
  PetscOptionsEnd();
  problem->exact            = IsentropicVortexState;
  problem->default_max_time = 1.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/periodic_square.msh", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_density,mass,energy", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- supersonic vortex ---- */
static PetscErrorCode SupersonicVortexState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec = (const EulerCase *)ctx;
  const PetscReal  g = ec->gamma, Mi = 2.25, r = PetscSqrtReal(x[0] * x[0] + x[1] * x[1]);
  const PetscReal  rho = PetscPowReal(1 + 0.5 * (g - 1) * Mi * Mi * (1 - 1 / (r * r)), 1 / (g - 1)), p = PetscPowReal(rho, g) / g, speed = Mi / r;
  PetscReal        v[3] = {-speed * x[1] / r, speed * x[0] / r, 0};

  PetscFunctionBeginUser;
  Conservative(dim, g, rho, v, p, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_SupersonicVortex(Problem *problem)
{
  EulerCase *ec;

  PetscFunctionBeginUser;
  PetscCall(EulerCaseCreate(problem, &ec));
  problem->exact            = SupersonicVortexState;
  problem->default_max_time = 2.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/supersonic_vortex.msh -curve_inner circle -curve_inner_radius 1 -curve_outer circle -curve_outer_radius 1.384", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "slip_wall", "inner,outer"));
  PetscCall(ProblemSetBoundaryGroups(problem, "supersonic_inflow", "bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "supersonic_outflow", "left"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_density,mass", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- Sod ---- */
/* the pressure function of one side of the Riemann problem (Toro ch. 4) and its derivative */
static void SodSide(PetscReal g, PetscReal p, PetscReal rhoK, PetscReal pK, PetscReal *f, PetscReal *df)
{
  const PetscReal cK = PetscSqrtReal(g * pK / rhoK);
  if (p > pK) {
    const PetscReal A = 2 / ((g + 1) * rhoK), B = (g - 1) / (g + 1) * pK, s = PetscSqrtReal(A / (p + B));
    *f  = (p - pK) * s;
    *df = s * (1 - 0.5 * (p - pK) / (p + B));
  } else {
    *f  = 2 * cK / (g - 1) * (PetscPowReal(p / pK, (g - 1) / (2 * g)) - 1);
    *df = 1 / (rhoK * cK) * PetscPowReal(p / pK, -(g + 1) / (2 * g));
  }
}

static PetscErrorCode SodState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec = (const EulerCase *)ctx;
  const PetscReal  g = ec->gamma, rL = 1, pL = 1, rR = 0.125, pR = 0.1, cL = PetscSqrtReal(g * pL / rL), cR = PetscSqrtReal(g * pR / rR);
  const PetscReal  ps = ec->pstar, us = ec->ustar, xi = t > 0 ? (x[0] - 0.5) / t : (x[0] < 0.5 ? -1e300 : 1e300);
  PetscReal        rho, vel, p, v[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  if (xi < us) { /* left of the contact: rarefaction (pstar < pL) */
    const PetscReal csL = cL * PetscPowReal(ps / pL, (g - 1) / (2 * g));
    if (xi < -cL)
      rho = rL, vel = 0, p = pL;
    else if (xi > us - csL)
      rho = rL * PetscPowReal(ps / pL, 1 / g), vel = us, p = ps;
    else {
      const PetscReal c = 2 / (g + 1) * (cL - 0.5 * (g - 1) * xi);
      vel               = 2 / (g + 1) * (cL + xi);
      rho               = rL * PetscPowReal(c / cL, 2 / (g - 1));
      p                 = pL * PetscPowReal(c / cL, 2 * g / (g - 1));
    }
  } else { /* right of the contact: shock (pstar > pR) */
    const PetscReal S = cR * PetscSqrtReal((g + 1) / (2 * g) * ps / pR + (g - 1) / (2 * g));
    if (xi > S)
      rho = rR, vel = 0, p = pR;
    else
      rho = rR * (ps / pR + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ps / pR + 1), vel = us, p = ps;
  }
  v[0] = vel;
  Conservative(dim, g, rho, v, p, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a Riemann problem's initial state from -riemann_left/-riemann_right */
static PetscErrorCode RiemannInitial(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec   = (const EulerCase *)ctx;
  const PetscReal *w    = x[0] < 0.5 ? ec->left : ec->right;
  PetscReal        v[3] = {w[1], 0, 0};

  PetscFunctionBeginUser;
  Conservative(dim, ec->gamma, w[0], v, w[2], u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Sod(Problem *problem)
{
  EulerCase *ec;
  PetscReal  p = 0.3;

  PetscFunctionBeginUser;
  PetscCall(EulerCaseCreate(problem, &ec));
  PetscCall(ProblemSetBoundaryGroups(problem, "slip_wall", "bottom,top"));
  PetscCall(ProblemSetBoundaryGroups(problem, "supersonic_outflow", "left,right"));
  for (PetscInt it = 0; it < 50; it++) { /* f_L(p) + f_R(p) = 0 (zero velocities) */
    PetscReal fL, dL, fR, dR;
    SodSide(ec->gamma, p, 1, 1, &fL, &dL);
    SodSide(ec->gamma, p, 0.125, 0.1, &fR, &dR);
    p -= (fL + fR) / (dL + dR);
  }
  {
    PetscReal fL, dL, fR, dR;
    SodSide(ec->gamma, p, 1, 1, &fL, &dL);
    SodSide(ec->gamma, p, 0.125, 0.1, &fR, &dR);
    ec->pstar = p;
    ec->ustar = 0.5 * (fR - fL);
  }
  problem->exact            = SodState;
  problem->default_max_time = 0.2;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 64,2 -dm_plex_box_upper 1,0.0625", sizeof(problem->mesh_options)));
  { /* another Riemann problem (no exact solution then), e.g. Toro's 123 problem: 1,-2,0.4 and 1,2,0.4 */
    PetscInt  nl = 3, nr = 3;
    PetscBool sl = PETSC_FALSE, sr = PETSC_FALSE;
    ec->left[0] = 1, ec->left[1] = 0, ec->left[2] = 1, ec->right[0] = 0.125, ec->right[1] = 0, ec->right[2] = 0.1;
    PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Shock tube", NULL);
    PetscCall(PetscOptionsRealArray("-riemann_left", "Left state rho,u,p (default Sod's 1,0,1)", NULL, ec->left, &nl, &sl));
    PetscCall(PetscOptionsRealArray("-riemann_right", "Right state rho,u,p (default Sod's 0.125,0,0.1)", NULL, ec->right, &nr, &sr));
    PetscOptionsEnd();
    PetscCheck((!sl || nl == 3) && (!sr || nr == 3), PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-riemann_left and -riemann_right take three values rho,u,p");
    PetscCheck(ec->left[0] > 0 && ec->left[2] > 0 && ec->right[0] > 0 && ec->right[2] > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-riemann_left/-riemann_right: densities and pressures must be positive (got %g, %g and %g, %g)", (double)ec->left[0], (double)ec->left[2], (double)ec->right[0], (double)ec->right[2]);
    if (sl || sr) { /* the exact solution above is Sod's only */
      problem->exact   = NULL;
      problem->initial = RiemannInitial;
      PetscCall(PetscStrncpy(problem->monitors, "mass,limited_cells", sizeof(problem->monitors)));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }

  PetscCall(PetscStrncpy(problem->monitors, "L2_error_density,mass,limited_cells", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- free stream ---- */
static PetscErrorCode FreeStreamState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec = (const EulerCase *)ctx;
  const PetscReal  c = 1, a = ec->angle * PETSC_PI / 180;
  PetscReal        v[3] = {ec->mach * c * PetscCosReal(a), ec->mach * c * PetscSinReal(a), 0};

  PetscFunctionBeginUser;
  Conservative(dim, ec->gamma, 1.0, v, 1.0 / ec->gamma, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_FreeStream(Problem *problem)
{
  EulerCase *ec;

  PetscFunctionBeginUser;
  PetscCall(EulerCaseCreate(problem, &ec));
  ec->mach  = 0.5;
  ec->angle = 30;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Free stream", NULL);
  PetscCall(PetscOptionsReal("-freestream_mach", "Mach number of the uniform state", NULL, ec->mach, &ec->mach, NULL));
  PetscCall(PetscOptionsReal("-freestream_angle", "Flow angle in degrees", NULL, ec->angle, &ec->angle, NULL));
  PetscOptionsEnd();
  problem->exact            = FreeStreamState;
  problem->default_max_time = 0.2;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/annulus.msh -curve_inner circle -curve_inner_radius 1 -curve_outer circle -curve_outer_radius 2", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "farfield", "inner,outer,left,bottom"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_density,mass", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- double Mach reflection ---- */
static PetscErrorCode DoubleMachState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const EulerCase *ec    = (const EulerCase *)ctx;
  const PetscReal  shock = 1.0 / 6 + (x[1] + 20 * t) / PetscSqrtReal(3.0);
  PetscReal        v[3]  = {0, 0, 0};

  PetscFunctionBeginUser;
  if (x[0] < shock) {
    v[0] = 8.25 * PetscCosReal(PETSC_PI / 6);
    v[1] = -8.25 * PetscSinReal(PETSC_PI / 6);
    Conservative(dim, ec->gamma, 8.0, v, 116.5, u);
  } else
    Conservative(dim, ec->gamma, 1.4, v, 1.0, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_DoubleMach(Problem *problem)
{
  EulerCase *ec;

  PetscFunctionBeginUser;
  PetscCall(EulerCaseCreate(problem, &ec));
  problem->initial                 = DoubleMachState;
  problem->boundary                = DoubleMachState;
  problem->boundary_time_dependent = PETSC_TRUE;
  problem->default_max_time        = 0.2;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/double_mach.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "slip_wall", "wall"));
  PetscCall(ProblemSetBoundaryGroups(problem, "supersonic_inflow", "left,top,inflow_bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "supersonic_outflow", "right"));
  PetscCall(PetscStrncpy(problem->monitors, "mass,limited_cells", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
