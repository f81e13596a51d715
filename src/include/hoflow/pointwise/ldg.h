/* The interface treatment of the viscous terms of the compressible Navier–Stokes equations in corrected-gradient
 * schemes (flux reconstruction, -disc fr; seed 003 §II), at one point, for host and CUDA kernels: an LDG-type
 * family (Cockburn & Shu 1998; in FR: Castonguay, Williams, Vincent & Jameson 2013, Comput Methods Appl Mech Eng
 * 267:400-417, "energy stable flux reconstruction schemes for advection-diffusion problems") with beta = 0 the
 * central (BR1-type) choice. At a face point with the element's state u- and the other side's u+ (n out of u-'s
 * element, s = +-1 the side of the face, below):
 *
 *   common solution   u_I = (u- + u+)/2 - beta s (u- - u+)                      (the corrected gradient's jump u_I - u-)
 *   common flux       F_v^I.n = (F_v(u-, q-) + F_v(u+, q+))/2 . n + beta s (F_v(u-, q-) - F_v(u+, q+)) . n
 *                               - tau mu / h (u- - u+)
 *
 * with q the corrected gradients at the point, F_v the viscous flux of hoflow/pointwise/navier_stokes.h (the one
 * -disc mdg's BR2 uses), mu at the mean temperature and h = min(|E-|, |E+|) / |F| (the two elements' volumes over
 * the face's area: the same number from both sides). beta = 1/2 takes u_I from u+ and the flux from u- (LDG's
 * alternating choice); the penalty tau > 0 is what makes the central choice stable and optimally convergent.
 * On the boundary u_I = u_b (NSViscousBoundaryState: the wall's velocity, the wall's or the interior temperature)
 * and F_v^I.n = F_v(u_b, q-).n (no heat flux at adiabatic walls) - tau mu / h (u- - u_b), the penalty on the momentum
 * and (isothermal walls) the energy, not on the density: that would be a flux of mass through the wall (u_b's density
 * is the wall temperature's). At adiabatic walls the energy's penalty is the work of the momentum's, v_b . (its
 * penalty): the energy flux through the wall is then the wall's velocity times the traction, with no heat (a
 * penalty on the energy's jump there was a heat flux of O(h^N) that made the error converge at second order only).
 *
 * The side s = sign(n . w) for a fixed w = (1, 1/pi, 1/pi^2): the face seen from its other element has -n, so
 * both elements compute the same u_I and opposite fluxes (conservation) without a face orientation table. */
#pragma once

#include <hoflow/pointwise/navier_stokes.h>

typedef struct {
  int         on;       /* viscous terms (physics navier_stokes) */
  NSViscosity vis;      /* the viscosity law */
  double      beta;     /* the LDG switch, 0 (central) .. 1/2 */
  double      tau;      /* the penalty's factor */
  double      dt_scale; /* the explicit step's diffusive part: dt_scale D / h^2 in the element speed (2N + 1) */
} NSLDG;

/* s = +-1: the side of a face seen with outward unit normal n */
HOFLOW_HD double NSLDGSide(int dim, const double n[])
{
  const double w[3] = {1.0, 0.31830988618379067, 0.10132118364233778};
  double       s    = 0;
  for (int j = 0; j < dim; j++) s += w[j] * n[j];
  return s >= 0 ? 1.0 : -1.0;
}

/* u_I at an interior face point */
HOFLOW_HD void NSLDGCommonState(int nv, const NSLDG *ldg, double s, const double uM[], const double uP[], double uI[])
{
  for (int k = 0; k < nv; k++) uI[k] = 0.5 * (uM[k] + uP[k]) - ldg->beta * s * (uM[k] - uP[k]);
}

/* gu[j*nv + k] = du_k/dx_j = sum_d (dr_d/dx_j) qr[d*nv + k] from the reference gradient qr; g the point's metric
 * (dr_d/dx_j at g[j*dim + d]) */
HOFLOW_HD void NSLDGPhysicalGradient(int dim, int nv, const double g[], const double qr[], double gu[])
{
  for (int j = 0; j < dim; j++)
    for (int k = 0; k < nv; k++) {
      double v = 0;
      for (int d = 0; d < dim; d++) v += g[j * dim + d] * qr[d * nv + k];
      gu[j * nv + k] = v;
    }
}

/* The viscous fluxes in the reference directions at a point, Fr[rd*nv + k] = J sum_j (dr_rd/dx_j) F_v,j,k(u, gu)
 * (as ConsLawPointReferenceFlux for the inviscid flux) */
HOFLOW_HD void NSLDGReferenceFlux(int dim, int nv, double gamma, const NSLDG *ldg, const double g[], const double u[], const double gu[], double Fr[])
{
  double F[3 * EULER_NV_MAX];
  NSViscousFlux(dim, gamma, &ldg->vis, u, gu, 1, F);
  for (int rd = 0; rd < dim; rd++)
    for (int k = 0; k < nv; k++) {
      double v = 0;
      for (int j = 0; j < dim; j++) v += g[j * dim + rd] * F[j * nv + k];
      Fr[rd * nv + k] = g[dim * dim] * v;
    }
}

/* F_v^I.n at a face point (the header): uP and gP the other side's state and corrected gradient inside; on the
 * boundary (boundary != 0) uP is u_b, gP is not read, heat = 0 drops the heat flux (adiabatic walls); scale = 1/h */
HOFLOW_HD void NSLDGCommonFlux(int dim, int nv, double gamma, const NSLDG *ldg, const double n[], double scale, int boundary, int heat, const double uM[], const double gM[], const double uP[], const double gP[], double Fn[])
{
  double       FM[3 * EULER_NV_MAX], FP[3 * EULER_NV_MAX];
  const double s = NSLDGSide(dim, n), T = 0.5 * (NSTemperature(dim, gamma, uM) + NSTemperature(dim, gamma, uP));
  const double pen = ldg->tau * NSMu(&ldg->vis, T) * scale;
  if (boundary) {
    NSViscousFlux(dim, gamma, &ldg->vis, uP, gM, heat, FM);
    for (int k = 0; k < nv; k++) {
      double v = 0;
      for (int j = 0; j < dim; j++) v += FM[j * nv + k] * n[j];
      Fn[k] = v - (k == 0 || (k == nv - 1 && !heat) ? 0.0 : pen * (uM[k] - uP[k]));
    }
    if (!heat)
      for (int d = 0; d < dim; d++) Fn[nv - 1] -= pen * uP[1 + d] / uP[0] * (uM[1 + d] - uP[1 + d]);
    return;
  }
  NSViscousFlux(dim, gamma, &ldg->vis, uM, gM, 1, FM);
  NSViscousFlux(dim, gamma, &ldg->vis, uP, gP, 1, FP);
  for (int k = 0; k < nv; k++) {
    double a = 0, b = 0;
    for (int j = 0; j < dim; j++) {
      a += (FM[j * nv + k] + FP[j * nv + k]) * n[j];
      b += (FM[j * nv + k] - FP[j * nv + k]) * n[j];
    }
    Fn[k] = 0.5 * a + ldg->beta * s * b - pen * (uM[k] - uP[k]);
  }
}
