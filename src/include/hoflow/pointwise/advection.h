/* Linear advection of one scalar with a constant velocity a (physics advection, physics/euler.c):
 *
 *   u_t + div(a u) = 0,   F_j(u) = a_j u,   the upwind numerical flux F*(u-, u+, n) = a.n (a.n > 0 ? u- : u+),
 *
 * and the conservation-law kernels' pointwise dispatch (-disc mdg and -disc fr): the flux type EULER_FLUX_ADVECTION
 * selects advection with velocity a, any other the Euler equations (hoflow/pointwise/euler.h) with gamma. The
 * equation is the kernels' data (flux, gamma, velocity), so one kernel serves both laws. */
#pragma once

#include <hoflow/pointwise/euler.h>

HOFLOW_HD void AdvectionFlux(int dim, const double a[], const double u[], double f[])
{
  for (int j = 0; j < dim; j++) f[j] = a[j] * u[0];
}

HOFLOW_HD void AdvectionFluxUpwind(int dim, const double a[], const double uM[], const double uP[], const double n[], double f[])
{
  double an = 0;
  for (int j = 0; j < dim; j++) an += a[j] * n[j];
  f[0] = an * (an > 0 ? uM[0] : uP[0]);
}

/* F_j(u) for every direction, f[j*nv + k] */
HOFLOW_HD void ConsLawPointFlux(int flux, int dim, double gamma, const double a[], const double u[], double f[])
{
  if (flux == EULER_FLUX_ADVECTION)
    AdvectionFlux(dim, a, u, f);
  else
    EulerFlux(dim, gamma, u, f);
}

/* The fluxes in the reference directions at a point, Fr[rd*nv + k] = J sum_j (dr_rd/dx_j) F_j,k(u): g the point's
 * metric, dr_rd/dx_j at g[j*dim + rd], then J at g[dim*dim] (the volume terms of -disc mdg and -disc fr) */
HOFLOW_HD void ConsLawPointReferenceFlux(int flux, int dim, int nv, double gamma, const double a[], const double g[], const double u[], double Fr[])
{
  double F[3 * EULER_NV_MAX];
  ConsLawPointFlux(flux, dim, gamma, a, u, F);
  for (int rd = 0; rd < dim; rd++)
    for (int k = 0; k < nv; k++) {
      double s = 0;
      for (int j = 0; j < dim; j++) s += g[j * dim + rd] * F[j * nv + k];
      Fr[rd * nv + k] = g[dim * dim] * s;
    }
}

/* n.F*(u-, u+, n), n the unit normal out of u-'s element */
HOFLOW_HD void ConsLawPointNumericalFlux(int flux, int dim, double gamma, const double a[], const double uM[], const double uP[], const double n[], double f[])
{
  if (flux == EULER_FLUX_ADVECTION)
    AdvectionFluxUpwind(dim, a, uM, uP, n, f);
  else
    EulerNumericalFlux(flux, dim, gamma, uM, uP, n, f);
}

/* the largest wave speed (|a|; Euler: |v| + c), or -1 for a non-physical state (Euler: rho or p <= 0 or not finite;
 * advection: u not finite) */
HOFLOW_HD double ConsLawPointWaveSpeed(int flux, int dim, double gamma, const double a[], const double u[])
{
  if (flux == EULER_FLUX_ADVECTION) {
    double s = 0;
    if (!(fabs(u[0]) < 1e300)) return -1;
    for (int j = 0; j < dim; j++) s += a[j] * a[j];
    return sqrt(s);
  } else {
    const double p = EulerPressure(dim, gamma, u);
    if (!(u[0] > 0) || !(p > 0) || !(p < 1e300)) return -1;
    return EulerWaveSpeed(dim, gamma, u, 0);
  }
}
