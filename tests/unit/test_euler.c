/* Unit tests of the Euler pointwise layer (hoflow/pointwise/euler.h) in 1, 2 and 3 dimensions:
 * primitive/conservative round trips, consistency F*(u, u, n) = n.F(u) and conservation
 * F*(a, b, n) = -F*(b, a, -n) of every numerical flux on random states and normals, the Roe flux's
 * exact upwinding of a single contact and of supersonic states, the boundary states (slip wall: zero
 * mass flux and the wall pressure as the only momentum flux; far field of the free stream: the free
 * stream; pressure outflow: the given pressure; subsonic inflow: the given total pressure and
 * temperature). Prints one line per check with the largest relative deviation. */
static const char help[] = "Unit tests of the Euler pointwise functions.\n";

#include <petscsys.h>
#include <hoflow/pointwise/euler.h>

static double Rand(unsigned *s)
{
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffffff) / (double)0x1000000;
}

static void RandomState(int dim, double gamma, unsigned *s, double u[])
{
  double w[EULER_NV_MAX];
  w[0] = 0.2 + 2 * Rand(s);
  for (int d = 0; d < dim; d++) w[1 + d] = 3 * (Rand(s) - 0.5);
  w[dim + 1] = 0.2 + 2 * Rand(s);
  EulerPrimitiveToConservative(dim, gamma, w, u);
}

static void RandomNormal(int dim, unsigned *s, double n[])
{
  double len = 0;
  for (int d = 0; d < dim; d++) {
    n[d] = Rand(s) - 0.5;
    len += n[d] * n[d];
  }
  for (int d = 0; d < dim; d++) n[d] /= sqrt(len);
}

static double RelDiff(int nv, const double a[], const double b[])
{
  double m = 0, s = 1e-300;
  for (int k = 0; k < nv; k++) {
    m = fmax(m, fabs(a[k] - b[k]));
    s = fmax(s, fabs(b[k]));
  }
  return m / fmax(s, 1.0);
}

int main(int argc, char **argv)
{
  const double gamma    = 1.4;
  const char  *names[3] = {"rusanov", "roe", "hllc"};
  unsigned     seed     = 12345u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  for (int dim = 1; dim <= 3; dim++) {
    const int nv    = dim + 2;
    double    round = 0, cons[3] = {0, 0, 0}, sym[3] = {0, 0, 0};
    for (int trial = 0; trial < 1000; trial++) {
      double u[EULER_NV_MAX], v[EULER_NV_MAX], w[EULER_NV_MAX], u2[EULER_NV_MAX], n[3], mn[3], fn[EULER_NV_MAX];
      RandomState(dim, gamma, &seed, u);
      RandomState(dim, gamma, &seed, v);
      RandomNormal(dim, &seed, n);
      for (int d = 0; d < dim; d++) mn[d] = -n[d];
      EulerConservativeToPrimitive(dim, gamma, u, w);
      EulerPrimitiveToConservative(dim, gamma, w, u2);
      round = fmax(round, RelDiff(nv, u2, u));
      EulerNormalFlux(dim, gamma, u, n, fn);
      for (int t = 0; t < 3; t++) {
        double f[EULER_NV_MAX], g[EULER_NV_MAX];
        EulerNumericalFlux(t, dim, gamma, u, u, n, f);
        cons[t] = fmax(cons[t], RelDiff(nv, f, fn));
        EulerNumericalFlux(t, dim, gamma, u, v, n, f);
        EulerNumericalFlux(t, dim, gamma, v, u, mn, g);
        for (int k = 0; k < nv; k++) g[k] = -g[k];
        sym[t] = fmax(sym[t], RelDiff(nv, f, g));
      }
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d primitive_roundtrip %.3e\n", dim, round));
    for (int t = 0; t < 3; t++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d flux %s consistency %.3e conservation %.3e\n", dim, names[t], cons[t], sym[t]));

    /* supersonic states: every flux is the upwind physical flux */
    {
      double up = 0;
      for (int trial = 0; trial < 200; trial++) {
        double w[EULER_NV_MAX], a[EULER_NV_MAX], b[EULER_NV_MAX], n[3], fa[EULER_NV_MAX], f[EULER_NV_MAX];
        RandomNormal(dim, &seed, n);
        w[0] = 1 + Rand(&seed);
        for (int d = 0; d < dim; d++) w[1 + d] = 4 * n[d];
        w[dim + 1] = 0.5 + 0.3 * Rand(&seed);
        EulerPrimitiveToConservative(dim, gamma, w, a);
        w[0] *= 1.1;
        w[dim + 1] *= 0.9;
        EulerPrimitiveToConservative(dim, gamma, w, b);
        EulerNormalFlux(dim, gamma, a, n, fa);
        for (int t = 1; t < 3; t++) {
          EulerNumericalFlux(t, dim, gamma, a, b, n, f);
          up = fmax(up, RelDiff(nv, f, fa));
        }
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d supersonic_upwind %.3e\n", dim, up));
    }

    /* boundary states */
    {
      double wall = 0, far = 0, pout = 0, pin = 0;
      for (int trial = 0; trial < 200; trial++) {
        double u[EULER_NV_MAX], uP[EULER_NV_MAX], n[3], data[EULER_BC_DATA] = {0}, f[EULER_NV_MAX];
        RandomState(dim, gamma, &seed, u);
        RandomNormal(dim, &seed, n);
        /* slip wall: with Rusanov, Roe or HLLC the mass and energy fluxes vanish and the momentum flux is p* n */
        EulerBoundaryState(EULER_BC_SLIP_WALL, dim, gamma, data, u, n, uP);
        for (int t = 0; t < 3; t++) {
          EulerNumericalFlux(t, dim, gamma, u, uP, n, f);
          wall = fmax(wall, fmax(fabs(f[0]), fabs(f[dim + 1])) / fmax(1.0, fabs(u[dim + 1])));
          for (int d = 0; d < dim; d++)
            for (int e = 0; e < dim; e++) wall = fmax(wall, fabs(f[1 + d] * n[e] - f[1 + e] * n[d]) / fmax(1.0, fabs(f[1 + d]))); /* parallel to n */
        }
        /* far field of the free stream is the free stream */
        for (int k = 0; k < nv; k++) data[k] = u[k];
        EulerBoundaryState(EULER_BC_FARFIELD, dim, gamma, data, u, n, uP);
        far = fmax(far, RelDiff(nv, uP, u));
        /* pressure outflow: the given pressure where the flow is subsonic */
        data[0] = 0.7;
        EulerBoundaryState(EULER_BC_PRESSURE_OUTFLOW, dim, gamma, data, u, n, uP);
        {
          double un = 0;
          for (int d = 0; d < dim; d++) un += n[d] * u[1 + d] / u[0];
          if (fabs(un) < EulerSoundSpeed(dim, gamma, u)) pout = fmax(pout, fabs(EulerPressure(dim, gamma, uP) - 0.7));
        }
        /* subsonic inflow: total pressure and temperature of the exterior state */
        data[0] = EulerPressure(dim, gamma, u) * 1.5;
        data[1] = 2.0;
        for (int d = 0; d < dim; d++) data[2 + d] = 0;
        EulerBoundaryState(EULER_BC_SUBSONIC_INFLOW, dim, gamma, data, u, n, uP);
        {
          const double p = EulerPressure(dim, gamma, uP), T = p / uP[0], M = EulerMach(dim, gamma, uP);
          const double T0 = T * (1 + 0.5 * (gamma - 1) * M * M), p0 = p * pow(T0 / T, gamma / (gamma - 1));
          double       vn = 0;
          for (int d = 0; d < dim; d++) vn += n[d] * uP[1 + d];
          pin = fmax(pin, fmax(fabs(T0 - 2.0) / 2.0, fabs(p0 - data[0]) / data[0]));
          pin = fmax(pin, vn > 0 ? 1.0 : 0.0); /* entering */
        }
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d bc slip_wall %.3e farfield_freestream %.3e pressure_outflow %.3e subsonic_inflow %.3e\n", dim, wall, far, pout, pin));
    }
  }
  for (int dim = 2; dim <= 3; dim++) { /* the far field of a body (EulerFarfieldDisturbed): the source's mass flux rho Q
                                        * through a circle (sphere) of radius 60, the vortex's circulation Gamma on the
                                        * circle, the Oseen wake's volume flux -Q through the plane xi = 50 */
    const double M = 0.3, ang = 0.5, rho = 1.2, p = 1 / gamma, c = sqrt(gamma * p / rho), U = M * c, D = 0.05, Lift = 0.03, nu = 0.002, R = 60;
    const double Q = D / (rho * U), Gamma = -Lift / (rho * U), e[3] = {cos(ang), dim == 2 ? sin(ang) : 0.3 * sin(ang), dim == 2 ? 0 : sin(ang)};
    double wI[EULER_NV_MAX], ub[EULER_NV_MAX], mass = 0, circ = 0, wake = 0, en = 0;
    const int    n = 400;
    for (int d = 0; d < 3; d++) en += e[d] * e[d];
    wI[0] = rho;
    for (int d = 0; d < dim; d++) wI[1 + d] = U * e[d] / sqrt(en);
    wI[dim + 1] = p;
    EulerPrimitiveToConservative(dim, gamma, wI, ub);
    if (dim == 2) {
      for (int i = 0; i < 50 * n; i++) {
        const double t = 2 * EULER_PI * (i + 0.5) / (50 * n), x[2] = {R * cos(t), R * sin(t)}, ds = 2 * EULER_PI * R / (50 * n);
        double       u[EULER_NV_MAX], us[EULER_NV_MAX];
        EulerFarfieldDisturbed(2, gamma, ub, x, D, Lift, nu, 0, u);
        EulerFarfieldDisturbed(2, gamma, ub, x, D, 0, nu, 0, us);
        circ += (-sin(t) * u[1] + cos(t) * u[2]) / u[0] * ds;
        mass += (cos(t) * us[1] + sin(t) * us[2]) * ds;
      }
    } else
      for (int i = 0; i < n; i++)
        for (int j = 0; j < 2 * n; j++) { /* midpoints in cos(theta) and phi: equal areas */
          const double mu = -1 + 2 * (i + 0.5) / n, s = sqrt(1 - mu * mu), ph = EULER_PI * (j + 0.5) / n, nx[3] = {s * cos(ph), s * sin(ph), mu};
          const double x[3] = {R * nx[0], R * nx[1], R * nx[2]}, dA = R * R * (2.0 / n) * (EULER_PI / n);
          double       us[EULER_NV_MAX];
          EulerFarfieldDisturbed(3, gamma, ub, x, D, 0, nu, 0, us);
          for (int d = 0; d < 3; d++) mass += nx[d] * us[1 + d] * dA;
        }
    {                                /* the wake: the velocity along e with the wake minus without, across the plane xi = 50 */
      const double X = 50, h = 0.01; /* the wake: exp(-eta^2 / (4 nu X / U)) < 1e-18 at eta = 8 */
      double       ep[3] = {-e[1] / sqrt(en), e[0] / sqrt(en), 0}, eq[3] = {0, 0, 0};
      if (dim == 3) { /* a second direction normal to e */
        const double a[3] = {e[0] / sqrt(en), e[1] / sqrt(en), e[2] / sqrt(en)};
        double       l;
        ep[0] = -a[2], ep[1] = 0, ep[2] = a[0];
        l = sqrt(ep[0] * ep[0] + ep[2] * ep[2]);
        ep[0] /= l, ep[2] /= l;
        eq[0] = a[1] * ep[2] - a[2] * ep[1], eq[1] = a[2] * ep[0] - a[0] * ep[2], eq[2] = a[0] * ep[1] - a[1] * ep[0];
      }
      for (int i = -800; i < 800; i++)
        for (int j = (dim == 3 ? -800 : 0); j < (dim == 3 ? 800 : 1); j++) {
          const double a = (i + 0.5) * h, b = dim == 3 ? (j + 0.5) * h : 0;
          double       x[3], uw[EULER_NV_MAX], up[EULER_NV_MAX], dv = 0;
          for (int d = 0; d < 3; d++) x[d] = X * e[d] / sqrt(en) + a * ep[d] + b * eq[d];
          EulerFarfieldDisturbed(dim, gamma, ub, x, D, 0, nu, 1, uw);
          EulerFarfieldDisturbed(dim, gamma, ub, x, D, 0, nu, 0, up);
          for (int d = 0; d < dim; d++) dv += (uw[1 + d] / uw[0] - up[1 + d] / up[0]) * e[d] / sqrt(en);
          wake += dv * h * (dim == 3 ? h : 1);
        }
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "dim %d farfield_source_mass %.3e vortex_circulation %.3e oseen_wake_flux %.3e\n", dim, fabs(mass / (rho * Q) - 1), dim == 2 ? fabs(circ / Gamma - 1) : 0.0, fabs(-wake / Q - 1)));
  }
  PetscCall(PetscFinalize());
  return 0;
}
