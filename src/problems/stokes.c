/* Steady Stokes, -nu Laplace u + grad p = f, div u = 0, with a manufactured smooth solution (physics
 * stokes, physics/stokes.c; -disc sem only). The velocity is a curl, hence exactly divergence-free:
 *   2D  u = (d psi/dy, -d psi/dx),  psi = sin(a x + 0.4) cos(b y + 0.2)
 *   3D  u = curl (phi, 0, psi) = (d psi/dy, d phi/dz - d psi/dx, -d phi/dy),
 *       psi = sin(a x + 0.4) cos(b y + 0.2) cos(c z + 0.3),  phi = cos(a' x + 0.1) sin(b' y + 0.5) sin(c' z + 0.7)
 * with a = 1.3 pi, b = 0.9 pi, c = 0.7 pi, a' = 0.6 pi, b' = 1.1 pi, c' = 0.8 pi (no symmetry, so the
 * Dirichlet data on every side are non-trivial), and the pressure
 *   p = sin(1.7 pi x) cos(pi y) [cos(0.6 pi z)],
 * of mean zero on the unit square and cube (its factor cos(pi y) integrates to zero on [0, 1]); the
 * physics compares pressures with their means removed, so other domains work as well. Since each of
 * psi and phi is an eigenfunction of the Laplacian (-Laplace psi = K psi, K = a^2 + b^2 [+ c^2]),
 * -Laplace u = curl(K_phi phi, 0, K_psi psi), and f = nu (-Laplace u) + grad p.
 * Defaults: the unit square, 4 x 4 quadrilaterals (a 3D box, -dm_plex_dim 3, gives hexahedra), velocity
 * Dirichlet data on every side, viscosity -stokes_viscosity (1), the pressure times
 * -stokes_pressure_scale (1; 0 gives p = 0, where the Q_{N-2} pressure is exact and the velocity alone
 * is measured). The exact solution has dim + 1
 * components (u, p); the forcing has dim.
 *
 * Unsteady Stokes (-problem stokes_unsteady, physics stokes_dirk, physics/stokes_dirk.c), u_t - nu Laplace u
 * + grad p = f: the same fields with time factors, u(x, t) = sin(2 t + 0.5) u(x), p(x, t) = cos(1.5 t + 0.2)
 * p(x), so f = s_u' u + s_u (-nu Laplace u) + s_p grad p, and the Dirichlet data change in time; exact_dt
 * gives (s_u' u, s_p' p). Defaults: 4 x 4 quadrilaterals, -ts_dt 0.1, -ts_max_time 1. -stokes_periodic makes
 * every wave number 2 pi (psi = sin(2 pi x + 0.4) cos(2 pi y + 0.2), p = sin(2 pi x) cos(2 pi y) ...): a
 * solution periodic on the unit box, for -dm_plex_box_bd periodic,periodic -bc_dirichlet none, where no
 * boundary data reduce the DIRK schemes' order. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

/* wave numbers / pi: psi (a, b, c), phi (a', b', c'), the pressure (x, y, z); periodic: all 2 (-stokes_periodic) */
enum { SA,
       SB,
       SC,
       TA,
       TB,
       TC,
       PX,
       PY,
       PZ };
static const PetscReal StokesWaves[9] = {1.3, 0.9, 0.7, 0.6, 1.1, 0.8, 1.7, 1.0, 0.6}, StokesWavesPeriodic[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};

typedef struct {
  Problem  *problem;
  PetscReal pressure_scale; /* p is this times the pressure above (0: p = 0, f = -nu Laplace u) */
  PetscBool unsteady;       /* the time factors below; steady: 1 */
  PetscReal k[9];           /* wave numbers (StokesWaves times pi) */
} StokesContext;

/* the time factors of the velocity and the pressure and their derivatives */
static void StokesTimeFactors(const StokesContext *ctx, PetscReal t, PetscReal s[2], PetscReal ds[2])
{
  if (!ctx->unsteady) {
    s[0] = s[1] = 1;
    ds[0] = ds[1] = 0;
    return;
  }
  s[0]  = PetscSinReal(2 * t + 0.5);
  ds[0] = 2 * PetscCosReal(2 * t + 0.5);
  s[1]  = PetscCosReal(1.5 * t + 0.2);
  ds[1] = -1.5 * PetscSinReal(1.5 * t + 0.2);
}

/* psi and phi (phi = 0 in 2D) and their gradients */
static void StokesPotentials(const PetscReal k[], PetscInt dim, const PetscReal x[], PetscReal dpsi[3], PetscReal dphi[3])
{
  const PetscReal sa = k[SA], sb = k[SB], sc = k[SC], ta = k[TA], tb = k[TB], tc = k[TC];
  const PetscReal z  = dim == 3 ? x[2] : 0.0;
  const PetscReal s1 = PetscSinReal(sa * x[0] + 0.4), c1 = PetscCosReal(sa * x[0] + 0.4), s2 = PetscSinReal(sb * x[1] + 0.2), c2 = PetscCosReal(sb * x[1] + 0.2);
  const PetscReal s3 = dim == 3 ? PetscSinReal(sc * z + 0.3) : 0.0, c3 = dim == 3 ? PetscCosReal(sc * z + 0.3) : 1.0;

  dpsi[0] = sa * c1 * c2 * c3;
  dpsi[1] = -sb * s1 * s2 * c3;
  dpsi[2] = -sc * s1 * c2 * s3;
  if (dim == 3) {
    const PetscReal u1 = PetscSinReal(ta * x[0] + 0.1), v1 = PetscCosReal(ta * x[0] + 0.1), u2 = PetscSinReal(tb * x[1] + 0.5), v2 = PetscCosReal(tb * x[1] + 0.5);
    const PetscReal u3 = PetscSinReal(tc * z + 0.7), v3 = PetscCosReal(tc * z + 0.7);
    dphi[0] = -ta * u1 * u2 * u3;
    dphi[1] = tb * v1 * v2 * u3;
    dphi[2] = tc * v1 * u2 * v3;
  } else
    dphi[0] = dphi[1] = dphi[2] = 0;
}

/* curl(kphi phi, 0, kpsi psi) from the gradients */
static void StokesCurl(PetscInt dim, const PetscReal dpsi[], const PetscReal dphi[], PetscReal kpsi, PetscReal kphi, PetscReal u[])
{
  u[0] = kpsi * dpsi[1];
  u[1] = kphi * dphi[2] - kpsi * dpsi[0];
  if (dim == 3) u[2] = -kphi * dphi[1];
}

static void StokesPressure(const PetscReal k[], PetscInt dim, PetscReal scale, const PetscReal x[], PetscReal *p, PetscReal grad[])
{
  const PetscReal pk = k[PX], py = k[PY], pz = k[PZ];
  const PetscReal sx = PetscSinReal(pk * x[0]), cx = PetscCosReal(pk * x[0]), sy = PetscSinReal(py * x[1]), cy = PetscCosReal(py * x[1]);
  const PetscReal sz = dim == 3 ? PetscSinReal(pz * x[2]) : 0.0, cz = dim == 3 ? PetscCosReal(pz * x[2]) : 1.0;

  *p      = scale * sx * cy * cz;
  grad[0] = scale * pk * cx * cy * cz;
  grad[1] = -scale * py * sx * sy * cz;
  grad[2] = -scale * pz * sx * cy * sz;
}

static PetscErrorCode StokesExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx)
{
  PetscReal dpsi[3], dphi[3], gp[3];

  PetscFunctionBeginUser;
  PetscCheck(nv == dim + 1, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The Stokes solution has %" PetscInt_FMT " components (u, p), not %" PetscInt_FMT, dim + 1, nv);
  PetscCheck(!grad, PETSC_COMM_SELF, PETSC_ERR_SUP, "The Stokes problem gives no gradients of its solution");
  StokesPotentials(((const StokesContext *)ctx)->k, dim, x, dpsi, dphi);
  StokesCurl(dim, dpsi, dphi, 1.0, 1.0, values);
  StokesPressure(((const StokesContext *)ctx)->k, dim, ((const StokesContext *)ctx)->pressure_scale, x, &values[dim], gp);
  {
    PetscReal s[2], ds[2];
    StokesTimeFactors((const StokesContext *)ctx, t, s, ds);
    for (PetscInt d = 0; d < dim; d++) values[d] *= s[0];
    values[dim] *= s[1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* d/dt of the exact solution (unsteady) */
static PetscErrorCode StokesExactTimeDerivative(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx)
{
  PetscReal dpsi[3], dphi[3], gp[3], s[2], ds[2];

  PetscFunctionBeginUser;
  PetscCheck(nv == dim + 1 && !grad, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The Stokes solution's time derivative has %" PetscInt_FMT " components (u_t, p_t) and no gradients", dim + 1);
  StokesPotentials(((const StokesContext *)ctx)->k, dim, x, dpsi, dphi);
  StokesCurl(dim, dpsi, dphi, 1.0, 1.0, values);
  StokesPressure(((const StokesContext *)ctx)->k, dim, ((const StokesContext *)ctx)->pressure_scale, x, &values[dim], gp);
  StokesTimeFactors((const StokesContext *)ctx, t, s, ds);
  for (PetscInt d = 0; d < dim; d++) values[d] *= ds[0];
  values[dim] *= ds[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  const StokesContext *sctx = (const StokesContext *)ctx;
  const PetscReal     *k = sctx->k, kpsi = k[SA] * k[SA] + k[SB] * k[SB] + (dim == 3 ? k[SC] * k[SC] : 0.0), kphi = k[TA] * k[TA] + k[TB] * k[TB] + k[TC] * k[TC];
  PetscReal            dpsi[3], dphi[3], p, gp[3], u[3], s[2], ds[2];

  PetscFunctionBeginUser;
  PetscCheck(nv == dim, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The Stokes forcing has %" PetscInt_FMT " components, not %" PetscInt_FMT, dim, nv);
  StokesPotentials(((const StokesContext *)ctx)->k, dim, x, dpsi, dphi);
  StokesCurl(dim, dpsi, dphi, kpsi, kphi, f);
  StokesCurl(dim, dpsi, dphi, 1.0, 1.0, u);
  StokesPressure(sctx->k, dim, sctx->pressure_scale, x, &p, gp);
  StokesTimeFactors(sctx, t, s, ds);
  for (PetscInt d = 0; d < dim; d++) f[d] = ds[0] * u[d] + s[0] * sctx->problem->nu * f[d] + s[1] * gp[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesCreate(Problem *problem, PetscBool unsteady)
{
  PetscReal      nu = 1.0, scale = 1.0;
  PetscBool      periodic = PETSC_FALSE;
  StokesContext *ctx;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Steady Stokes problem", NULL);
  PetscCall(PetscOptionsReal("-stokes_viscosity", "Viscosity nu of -nu Laplace u + grad p = f", NULL, nu, &nu, NULL));
  PetscCall(PetscOptionsReal("-stokes_pressure_scale", "Factor of the manufactured pressure (0: p = 0, a velocity-only check)", NULL, scale, &scale, NULL));
  PetscCall(PetscOptionsBool("-stokes_periodic", "All wave numbers 2 pi: a solution periodic on the unit box (with -dm_plex_box_bd periodic,periodic[,periodic] -bc_dirichlet none)", NULL, periodic, &periodic, NULL));
  PetscOptionsEnd();
  PetscCheck(nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-stokes_viscosity %g must be positive", (double)nu);
  PetscCall(PetscStrncpy(problem->physics, unsteady ? "stokes_dirk" : "stokes", sizeof(problem->physics)));
  problem->nu      = nu;
  problem->exact   = StokesExact;
  problem->forcing = StokesForcing;
  PetscCall(PetscNew(&ctx));
  ctx->problem        = problem;
  ctx->pressure_scale = scale;
  ctx->unsteady       = unsteady;
  for (PetscInt i = 0; i < 9; i++) ctx->k[i] = (periodic ? StokesWavesPeriodic[i] : StokesWaves[i]) * PETSC_PI;
  if (unsteady) {
    problem->exact_dt         = StokesExactTimeDerivative;
    problem->forcing_time     = PETSC_TRUE;
    problem->default_dt       = 0.1;
    problem->default_max_time = 1.0;
  }
  problem->ctx         = ctx;
  problem->ctx_destroy = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 4,4", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,bottom,top,front,back"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Stokes(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(StokesCreate(problem, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_StokesUnsteady(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(StokesCreate(problem, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
