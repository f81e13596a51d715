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
  PetscCall(PetscFinalize());
  return 0;
}
