/* Pointwise physics of the compressible Euler equations in `dim` dimensions (1, 2 or 3), written once
 * for host and CUDA kernels (seed 002 eqs. 20, 21):
 *
 *   u = (rho, rho v_1..rho v_dim, E),  nv = dim + 2 conserved variables,
 *   F_j(u) = (rho v_j, rho v_i v_j + p delta_ij, v_j (E + p)),   p = (gamma - 1) (E - rho |v|^2 / 2),
 *
 * primitive variables w = (rho, v_1..v_dim, p), the sound speed c = sqrt(gamma p / rho), Mach |v|/c, the
 * entropy function s = p / rho^gamma; numerical fluxes n.F*(u-, u+) by type (local Lax–Friedrichs, Roe
 * with Harten's entropy fix, HLLC with Einfeldt's wave speeds); exterior states u+ at boundary faces by
 * boundary type with their data. The temperature is T = p / rho (gas constant 1), so total temperature
 * and pressure are T0 = T (1 + (gamma-1)/2 M^2), p0 = p (T0/T)^(gamma/(gamma-1)).
 *
 * Every routine takes the dimension at run time: no 2D shortcuts. The numerical fluxes are consistent
 * (F*(u, u, n) = n.F(u)) and conservative (F*(u-, u+, n) = -F*(u+, u-, -n)); tests/unit/test_euler.c
 * checks both, and the boundary states. */
#pragma once

#include <math.h>
#include <hoflow/kernels/common.h>

#define EULER_NV_MAX 5 /* dim + 2 in 3D */

/* numerical flux types (-euler_flux) */
enum {
  EULER_FLUX_RUSANOV = 0,
  EULER_FLUX_ROE     = 1,
  EULER_FLUX_HLLC    = 2,
  /* not an Euler flux: the conservation law is linear advection of one scalar (physics advection), upwind
   * (hoflow/pointwise/advection.h, whose ConsLawPoint* functions the conservation-law kernels call) */
  EULER_FLUX_ADVECTION = 3
};

/* Boundary types of the Euler physics (face types, after HOFLOW_FACE_*), and the data each reads from
 * its row of EULER_BC_DATA doubles (set from options by physics/euler.c):
 *   slip wall           none (the normal velocity is mirrored)
 *   supersonic inflow   the conserved state u_in [nv]
 *   supersonic outflow  none (the interior state)
 *   far field           the conserved free-stream state [nv] (characteristic: Riemann invariants)
 *   subsonic inflow     total pressure p0, total temperature T0, flow direction [dim] (unit; 0: -n)
 *   pressure outflow    the static pressure p_out
 *   no-slip isothermal  (Navier–Stokes) the wall temperature T_w, the wall velocity [dim]
 *   no-slip adiabatic   (Navier–Stokes) data[0] unused, the wall velocity [dim]
 * The inviscid flux at a no-slip wall sees the state mirrored about the wall's velocity (uP: the same
 * density and pressure, velocity 2 V_w - v); the viscous flux the wall state (hoflow/pointwise/navier_stokes.h). */
enum {
  EULER_BC_SLIP_WALL          = 3,
  EULER_BC_SUPERSONIC_INFLOW  = 4,
  EULER_BC_SUPERSONIC_OUTFLOW = 5,
  EULER_BC_FARFIELD           = 6,
  EULER_BC_SUBSONIC_INFLOW    = 7,
  EULER_BC_PRESSURE_OUTFLOW   = 8,
  EULER_BC_NOSLIP_ISOTHERMAL  = 9,
  EULER_BC_NOSLIP_ADIABATIC   = 10,
  EULER_BC_FREESTREAM         = 11,
  EULER_BC_END                = 12
};
#define EULER_BC_DATA 8 /* doubles of data per boundary type */
#define EULER_BC_TYPES (EULER_BC_END - EULER_BC_SLIP_WALL)

HOFLOW_HD double EulerKinetic(int dim, const double u[])
{
  double m2 = 0;
  for (int d = 0; d < dim; d++) m2 += u[1 + d] * u[1 + d];
  return 0.5 * m2 / u[0];
}

HOFLOW_HD double EulerPressure(int dim, double gamma, const double u[])
{
  return (gamma - 1) * (u[dim + 1] - EulerKinetic(dim, u));
}

HOFLOW_HD double EulerSoundSpeed(int dim, double gamma, const double u[])
{
  return sqrt(gamma * EulerPressure(dim, gamma, u) / u[0]);
}

HOFLOW_HD double EulerMach(int dim, double gamma, const double u[])
{
  return sqrt(2 * EulerKinetic(dim, u) / u[0]) / EulerSoundSpeed(dim, gamma, u);
}

/* the entropy function p / rho^gamma (constant along particle paths of smooth flow) */
HOFLOW_HD double EulerEntropy(int dim, double gamma, const double u[])
{
  return EulerPressure(dim, gamma, u) / pow(u[0], gamma);
}

/* w = (rho, v, p) -> u */
HOFLOW_HD void EulerPrimitiveToConservative(int dim, double gamma, const double w[], double u[])
{
  double v2 = 0;
  u[0]      = w[0];
  for (int d = 0; d < dim; d++) {
    u[1 + d] = w[0] * w[1 + d];
    v2 += w[1 + d] * w[1 + d];
  }
  u[dim + 1] = w[dim + 1] / (gamma - 1) + 0.5 * w[0] * v2;
}

HOFLOW_HD void EulerConservativeToPrimitive(int dim, double gamma, const double u[], double w[])
{
  const double p = EulerPressure(dim, gamma, u);
  w[0]           = u[0];
  for (int d = 0; d < dim; d++) w[1 + d] = u[1 + d] / u[0];
  w[dim + 1] = p;
}

/* The physical flux in direction n (any vector, not necessarily unit): fn = sum_j n_j F_j(u). */
HOFLOW_HD void EulerNormalFlux(int dim, double gamma, const double u[], const double n[], double fn[])
{
  const double p  = EulerPressure(dim, gamma, u);
  double       un = 0;
  for (int d = 0; d < dim; d++) un += n[d] * u[1 + d];
  un /= u[0];
  fn[0] = u[0] * un;
  for (int d = 0; d < dim; d++) fn[1 + d] = u[1 + d] * un + p * n[d];
  fn[dim + 1] = (u[dim + 1] + p) * un;
}

/* The physical flux F_j(u) for every direction: f[j*nv + k]. */
HOFLOW_HD void EulerFlux(int dim, double gamma, const double u[], double f[])
{
  const int nv = dim + 2;
  for (int j = 0; j < dim; j++) {
    double e[3] = {0, 0, 0};
    e[j]        = 1;
    EulerNormalFlux(dim, gamma, u, e, f + j * nv);
  }
}

/* The largest wave speed |v.n| + c in the unit direction n, or |v| + c when n is NULL. */
HOFLOW_HD double EulerWaveSpeed(int dim, double gamma, const double u[], const double n[])
{
  double s = 0;
  if (n) {
    for (int d = 0; d < dim; d++) s += n[d] * u[1 + d];
    s = fabs(s / u[0]);
  } else
    s = sqrt(2 * EulerKinetic(dim, u) / u[0]);
  return s + EulerSoundSpeed(dim, gamma, u);
}

/* Local Lax–Friedrichs (Rusanov): {{n.F}} + lambda/2 (u- - u+), lambda the larger wave speed of the two. */
HOFLOW_HD void EulerFluxRusanov(int dim, double gamma, const double uM[], const double uP[], const double n[], double f[])
{
  const int    nv     = dim + 2;
  const double lambda = fmax(EulerWaveSpeed(dim, gamma, uM, n), EulerWaveSpeed(dim, gamma, uP, n));
  double       fP[EULER_NV_MAX];
  EulerNormalFlux(dim, gamma, uM, n, f);
  EulerNormalFlux(dim, gamma, uP, n, fP);
  for (int k = 0; k < nv; k++) f[k] = 0.5 * (f[k] + fP[k]) + 0.5 * lambda * (uM[k] - uP[k]);
}

/* Roe-averaged state between uL and uR: velocity v[dim], enthalpy H, sound speed c, normal velocity vn. */
HOFLOW_HD void EulerRoeAverage(int dim, double gamma, const double uL[], const double uR[], const double n[], double v[], double *H, double *c, double *vn)
{
  const double sL = sqrt(uL[0]), sR = sqrt(uR[0]), pL = EulerPressure(dim, gamma, uL), pR = EulerPressure(dim, gamma, uR);
  double       v2 = 0;
  *vn             = 0;
  for (int d = 0; d < dim; d++) {
    v[d] = (uL[1 + d] / sL + uR[1 + d] / sR) / (sL + sR);
    v2 += v[d] * v[d];
    *vn += v[d] * n[d];
  }
  *H = ((uL[dim + 1] + pL) / sL + (uR[dim + 1] + pR) / sR) / (sL + sR);
  *c = sqrt(fmax((gamma - 1) * (*H - 0.5 * v2), 1e-300));
}

/* Harten's entropy fix of an eigenvalue's modulus: smooth below delta. */
HOFLOW_HD double EulerHartenFix(double lambda, double delta)
{
  const double a = fabs(lambda);
  return a >= delta ? a : 0.5 * (a * a + delta * delta) / delta;
}

/* Roe: {{n.F}} - 1/2 |A_roe| (u+ - u-), the acoustic eigenvalues with Harten's fix (delta = 0.1 c~).
 * |A| du by wave strengths of the normal Riemann problem in dim dimensions (shear waves together). */
HOFLOW_HD void EulerFluxRoe(int dim, double gamma, const double uM[], const double uP[], const double n[], double f[])
{
  const int nv = dim + 2;
  double    v[3], H, c, vn, fP[EULER_NV_MAX], wM[EULER_NV_MAX], wP[EULER_NV_MAX];
  EulerRoeAverage(dim, gamma, uM, uP, n, v, &H, &c, &vn);
  EulerConservativeToPrimitive(dim, gamma, uM, wM);
  EulerConservativeToPrimitive(dim, gamma, uP, wP);
  {
    const double rho = sqrt(uM[0] * uP[0]), drho = wP[0] - wM[0], dp = wP[dim + 1] - wM[dim + 1];
    double       dvn = 0, dvt[3], v2 = 0, vdvt = 0;
    for (int d = 0; d < dim; d++) dvn += n[d] * (wP[1 + d] - wM[1 + d]);
    for (int d = 0; d < dim; d++) {
      dvt[d] = (wP[1 + d] - wM[1 + d]) - dvn * n[d];
      v2 += v[d] * v[d];
      vdvt += v[d] * dvt[d];
    }
    {
      const double delta = 0.1 * c;
      const double l1 = EulerHartenFix(vn - c, delta), l2 = fabs(vn), l3 = EulerHartenFix(vn + c, delta);
      const double a1 = (dp - rho * c * dvn) / (2 * c * c), a2 = drho - dp / (c * c), a3 = (dp + rho * c * dvn) / (2 * c * c);
      double       Ad[EULER_NV_MAX];
      Ad[0] = l1 * a1 + l2 * a2 + l3 * a3;
      for (int d = 0; d < dim; d++) Ad[1 + d] = l1 * a1 * (v[d] - c * n[d]) + l2 * (a2 * v[d] + rho * dvt[d]) + l3 * a3 * (v[d] + c * n[d]);
      Ad[dim + 1] = l1 * a1 * (H - vn * c) + l2 * (a2 * 0.5 * v2 + rho * vdvt) + l3 * a3 * (H + vn * c);
      EulerNormalFlux(dim, gamma, uM, n, f);
      EulerNormalFlux(dim, gamma, uP, n, fP);
      for (int k = 0; k < nv; k++) f[k] = 0.5 * (f[k] + fP[k]) - 0.5 * Ad[k];
    }
  }
}

/* HLLC (Toro) with Einfeldt's signal speeds S- = min(vn- - c-, vn~ - c~), S+ = max(vn+ + c+, vn~ + c~). */
HOFLOW_HD void EulerFluxHLLC(int dim, double gamma, const double uM[], const double uP[], const double n[], double f[])
{
  const int    nv = dim + 2;
  double       v[3], H, c, vn, vnM = 0, vnP = 0;
  const double pM = EulerPressure(dim, gamma, uM), pP = EulerPressure(dim, gamma, uP);
  const double cM = sqrt(gamma * pM / uM[0]), cP = sqrt(gamma * pP / uP[0]);
  EulerRoeAverage(dim, gamma, uM, uP, n, v, &H, &c, &vn);
  for (int d = 0; d < dim; d++) {
    vnM += n[d] * uM[1 + d];
    vnP += n[d] * uP[1 + d];
  }
  vnM /= uM[0];
  vnP /= uP[0];
  {
    const double SL = fmin(vnM - cM, vn - c), SR = fmax(vnP + cP, vn + c);
    const double Sstar = (pP - pM + uM[0] * vnM * (SL - vnM) - uP[0] * vnP * (SR - vnP)) / (uM[0] * (SL - vnM) - uP[0] * (SR - vnP));
    if (SL >= 0)
      EulerNormalFlux(dim, gamma, uM, n, f);
    else if (SR <= 0)
      EulerNormalFlux(dim, gamma, uP, n, f);
    else {
      const int     left = Sstar >= 0;
      const double *u = left ? uM : uP, p = left ? pM : pP, S = left ? SL : SR, un = left ? vnM : vnP;
      const double  factor = u[0] * (S - un) / (S - Sstar);
      double        us[EULER_NV_MAX];
      us[0] = factor;
      for (int d = 0; d < dim; d++) us[1 + d] = factor * (u[1 + d] / u[0] + (Sstar - un) * n[d]);
      us[dim + 1] = factor * (u[dim + 1] / u[0] + (Sstar - un) * (Sstar + p / (u[0] * (S - un))));
      EulerNormalFlux(dim, gamma, u, n, f);
      for (int k = 0; k < nv; k++) f[k] += S * (us[k] - u[k]);
    }
  }
}

HOFLOW_HD void EulerNumericalFlux(int type, int dim, double gamma, const double uM[], const double uP[], const double n[], double f[])
{
  if (type == EULER_FLUX_ROE)
    EulerFluxRoe(dim, gamma, uM, uP, n, f);
  else if (type == EULER_FLUX_HLLC)
    EulerFluxHLLC(dim, gamma, uM, uP, n, f);
  else
    EulerFluxRusanov(dim, gamma, uM, uP, n, f);
}

/* The exterior state uP at a boundary point with unit outward normal n, interior state uM, of boundary
 * type `type` (EULER_BC_*) with its data (EULER_BC_DATA doubles, see above). */
HOFLOW_HD void EulerBoundaryState(int type, int dim, double gamma, const double data[], const double uM[], const double n[], double uP[])
{
  const int nv = dim + 2;
  double    wM[EULER_NV_MAX], vnM = 0;
  EulerConservativeToPrimitive(dim, gamma, uM, wM);
  for (int d = 0; d < dim; d++) vnM += n[d] * wM[1 + d];
  switch (type) {
  case EULER_BC_SLIP_WALL: /* mirror: the same density, pressure and tangential velocity, the normal velocity reversed */
    uP[0] = uM[0];
    for (int d = 0; d < dim; d++) uP[1 + d] = uM[1 + d] - 2 * uM[0] * vnM * n[d];
    uP[dim + 1] = uM[dim + 1];
    break;
  case EULER_BC_SUPERSONIC_INFLOW:
  case EULER_BC_FREESTREAM: /* the given state outside; the numerical flux upwinds (smooth in u-, unlike the switch of the characteristic far field) */
    for (int k = 0; k < nv; k++) uP[k] = data[k];
    break;
  case EULER_BC_NOSLIP_ISOTHERMAL:
  case EULER_BC_NOSLIP_ADIABATIC: { /* the velocity mirrored about the wall's: the average is the wall's */
    double wb[EULER_NV_MAX];
    for (int k = 0; k < nv; k++) wb[k] = wM[k];
    for (int d = 0; d < dim; d++) wb[1 + d] = 2 * data[1 + d] - wM[1 + d];
    EulerPrimitiveToConservative(dim, gamma, wb, uP);
  } break;
  case EULER_BC_FARFIELD: { /* Riemann invariants R+- = vn +- 2c/(gamma-1) normal to the boundary */
    double       wI[EULER_NV_MAX], vnI = 0;
    const double cM = sqrt(gamma * wM[dim + 1] / wM[0]);
    EulerConservativeToPrimitive(dim, gamma, data, wI);
    for (int d = 0; d < dim; d++) vnI += n[d] * wI[1 + d];
    {
      const double cI = sqrt(gamma * wI[dim + 1] / wI[0]);
      if (vnM <= -cM) { /* supersonic inflow */
        for (int k = 0; k < nv; k++) uP[k] = data[k];
      } else if (vnM >= cM) { /* supersonic outflow */
        for (int k = 0; k < nv; k++) uP[k] = uM[k];
      } else {
        const double  Rp = vnM + 2 * cM / (gamma - 1), Rm = vnI - 2 * cI / (gamma - 1);
        const double  vnb = 0.5 * (Rp + Rm), cb = 0.25 * (gamma - 1) * (Rp - Rm);
        const double *w   = vnb < 0 ? wI : wM; /* entering: tangential velocity and entropy from outside */
        const double  vnw = vnb < 0 ? vnI : vnM, s = w[dim + 1] / pow(w[0], gamma);
        double        wb[EULER_NV_MAX];
        wb[0] = pow(cb * cb / (gamma * s), 1 / (gamma - 1));
        for (int d = 0; d < dim; d++) wb[1 + d] = w[1 + d] + (vnb - vnw) * n[d];
        wb[dim + 1] = wb[0] * cb * cb / gamma;
        EulerPrimitiveToConservative(dim, gamma, wb, uP);
      }
    }
  } break;
  case EULER_BC_SUBSONIC_INFLOW: { /* p0, T0 and the direction given; the static pressure from inside */
    const double p0 = data[0], T0 = data[1];
    const double pb = fmin(wM[dim + 1], p0);
    const double M2 = 2 / (gamma - 1) * (pow(p0 / pb, (gamma - 1) / gamma) - 1);
    const double Tb = T0 / (1 + 0.5 * (gamma - 1) * M2), speed = sqrt(M2 * gamma * Tb);
    double       dir2 = 0, wb[EULER_NV_MAX];
    for (int d = 0; d < dim; d++) dir2 += data[2 + d] * data[2 + d];
    wb[0] = pb / Tb;
    for (int d = 0; d < dim; d++) wb[1 + d] = speed * (dir2 > 0 ? data[2 + d] / sqrt(dir2) : -n[d]);
    wb[dim + 1] = pb;
    EulerPrimitiveToConservative(dim, gamma, wb, uP);
  } break;
  case EULER_BC_PRESSURE_OUTFLOW: { /* subsonic: the static pressure given, the rest from inside */
    const double cM = sqrt(gamma * wM[dim + 1] / wM[0]);
    if (vnM >= cM)
      for (int k = 0; k < nv; k++) uP[k] = uM[k];
    else {
      double wb[EULER_NV_MAX];
      for (int k = 0; k < nv; k++) wb[k] = wM[k];
      wb[dim + 1] = data[0];
      EulerPrimitiveToConservative(dim, gamma, wb, uP);
    }
  } break;
  default: /* supersonic outflow */
    for (int k = 0; k < nv; k++) uP[k] = uM[k];
  }
}

#define EULER_PI 3.14159265358979323846

/* The far field of a body (-bc_farfield_correction): the free stream ub (conserved) plus the disturbance,
 * at r = x - x0 from the body's centre, of a body on which the fluid exerts the drag D and (2D) the lift L
 * (along the free stream's direction e and e turned by +90 degrees), in the linearized (Prandtl-Glauert,
 * beta = sqrt(1 - M^2)) potential flow (Thomas & Salas, AIAA J. 24(7), 1986, for the vortex; the source
 * of a viscous body: the volume flux Q = D / (rho U) that its wake's momentum deficit draws, Imai 1951):
 *   2D  phi = Q / (2 pi beta) ln R + Gamma / (2 pi) atan(beta eta / xi),  R^2 = xi^2 + beta^2 eta^2,
 *       Gamma = -L / (rho U) (counterclockwise), xi = r.e, eta = r.e_perp
 *   3D  phi = -Q / (4 pi R),  R^2 = xi^2 + beta^2 |r_perp|^2  (no lift term: trailing vortices are not modelled)
 * (in both the mass flux through any surface around the body is rho Q). With `wake` the Oseen wake
 * (kinematic viscosity nu of the free stream, k = nu / U) is added for xi > 0: the deficit
 *   u_d = Q / sqrt(4 pi k xi) exp(-|r_perp|^2 / (4 k xi)) (2D), Q / (4 pi k xi) exp(..) (3D),
 * which carries the volume flux -Q, with the transverse velocity -u_d r_perp / (2 xi) that continuity asks.
 * The pressure follows the potential velocity isentropically (total enthalpy and entropy of the free
 * stream: the wake carries no pressure change at this order), the temperature the total velocity at the
 * free stream's total enthalpy, the density p / T. That raised temperature makes the wake's mass deficit
 * rho Q (1 + (gamma - 1) M^2), not rho Q: an O(M^2) imbalance (1.6 % of the source at Ma 0.2) left as it
 * is, Q = D / (rho U) being the usual strength. Host only in practice (the physics sets the boundary rows). */
HOFLOW_HD void EulerFarfieldDisturbed(int dim, double g, const double ub[], const double r[], double D, double L, double nu, int wake, double u[])
{
  double w[EULER_NV_MAX], e[3] = {0, 0, 0}, U = 0, xi = 0, rp[3] = {0, 0, 0}, rp2 = 0, v[3] = {0, 0, 0}, v2 = 0, Q, beta, R2, Tinf, cp = g / (g - 1), T, p;

  EulerConservativeToPrimitive(dim, g, ub, w);
  for (int d = 0; d < dim; d++) U += w[1 + d] * w[1 + d];
  U = sqrt(U);
  for (int d = 0; d < dim; d++) e[d] = w[1 + d] / U;
  for (int d = 0; d < dim; d++) xi += r[d] * e[d];
  for (int d = 0; d < dim; d++) {
    rp[d] = r[d] - xi * e[d];
    rp2 += rp[d] * rp[d];
  }
  Tinf = w[dim + 1] / w[0];
  beta = sqrt(1 - U * U / (g * Tinf));
  Q    = D / (w[0] * U);
  R2   = xi * xi + beta * beta * rp2;
  if (dim == 2) {
    const double Gamma = -L / (w[0] * U), eta = r[1] * e[0] - r[0] * e[1];
    const double uxi = (Q * xi / beta - Gamma * beta * eta) / (2 * EULER_PI * R2), ueta = (Q * beta * eta + Gamma * beta * xi) / (2 * EULER_PI * R2);
    v[0] = (U + uxi) * e[0] - ueta * e[1];
    v[1] = (U + uxi) * e[1] + ueta * e[0];
  } else {
    const double a = Q / (4 * EULER_PI * R2 * sqrt(R2));
    for (int d = 0; d < dim; d++) v[d] = (U + a * xi) * e[d] + a * beta * beta * rp[d];
  }
  for (int d = 0; d < dim; d++) v2 += v[d] * v[d];
  p = w[dim + 1] * pow(1 + (U * U - v2) / (2 * cp * Tinf), cp); /* isentropic: (T / T_inf)^(gamma / (gamma - 1)) */
  if (wake && xi > 0) {
    const double k = nu / U, s = 4 * EULER_PI * k * xi, ud = Q / (dim == 2 ? sqrt(s) : s) * exp(-rp2 / (4 * k * xi));
    v2 = 0;
    for (int d = 0; d < dim; d++) {
      v[d] -= ud * (e[d] + rp[d] / (2 * xi));
      v2 += v[d] * v[d];
    }
  }
  T    = Tinf + (U * U - v2) / (2 * cp);
  w[0] = p / T;
  for (int d = 0; d < dim; d++) w[1 + d] = v[d];
  w[dim + 1] = p;
  EulerPrimitiveToConservative(dim, g, w, u);
}
