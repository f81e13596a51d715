/* Pointwise viscous terms of the compressible Navier–Stokes equations in `dim` dimensions (1, 2 or 3),
 * for host and CUDA kernels, on top of the Euler layer (hoflow/pointwise/euler.h, seed 004 §1):
 *
 *   du/dt + div F(u) = div F_v(u, grad u),
 *   F_v,j = (0, tau_1j .. tau_dim,j, v_i tau_ij + kappa dT/dx_j),
 *   tau_ij = mu (dv_i/dx_j + dv_j/dx_i - 2/3 delta_ij div v),  kappa = mu c_p / Pr,
 *
 * with the gas constant 1 (T = p / rho, c_p = gamma / (gamma - 1)) and mu constant or by Sutherland's
 * law mu(T) = mu_0 (T / T_ref)^(3/2) (T_ref + S) / (T + S). The velocity and temperature gradients come
 * from the conserved variables and their gradient gu[j*nv + k] = du_k/dx_j. */
#pragma once

#include <hoflow/pointwise/euler.h>

typedef struct {
  double mu;     /* mu_0 */
  double cp_pr;  /* c_p / Pr: kappa = mu cp_pr */
  double suth_T; /* Sutherland's T_ref and S (S <= 0: constant mu) */
  double suth_S;
} NSViscosity;

HOFLOW_HD double NSTemperature(int dim, double gamma, const double u[])
{
  return EulerPressure(dim, gamma, u) / u[0];
}

HOFLOW_HD double NSMu(const NSViscosity *vis, double T)
{
  if (vis->suth_S <= 0) return vis->mu;
  return vis->mu * pow(T / vis->suth_T, 1.5) * (vis->suth_T + vis->suth_S) / (T + vis->suth_S);
}

/* F[j*nv + k]: the viscous flux in direction j; heat = 0 drops the heat flux (adiabatic walls) */
HOFLOW_HD void NSViscousFlux(int dim, double gamma, const NSViscosity *vis, const double u[], const double gu[], int heat, double F[])
{
  const int    nv = dim + 2;
  const double rho = u[0], e = u[dim + 1] / rho;
  double       v[3] = {0, 0, 0}, dv[3][3], dT[3], div = 0, v2 = 0;
  for (int i = 0; i < dim; i++) {
    v[i] = u[1 + i] / rho;
    v2 += v[i] * v[i];
  }
  {
    const double T = (gamma - 1) * (e - 0.5 * v2), mu = NSMu(vis, T), kappa = heat ? mu * vis->cp_pr : 0.0;
    for (int j = 0; j < dim; j++) {
      const double drho = gu[j * nv], de = (gu[j * nv + dim + 1] - e * drho) / rho;
      double       vdv = 0;
      for (int i = 0; i < dim; i++) {
        dv[j][i] = (gu[j * nv + 1 + i] - v[i] * drho) / rho; /* dv_i/dx_j */
        vdv += v[i] * dv[j][i];
      }
      dT[j] = (gamma - 1) * (de - vdv);
    }
    for (int i = 0; i < dim; i++) div += dv[i][i];
    for (int j = 0; j < dim; j++) {
      double work = 0;
      F[j * nv] = 0;
      for (int i = 0; i < dim; i++) {
        const double tau = mu * (dv[j][i] + dv[i][j] - (i == j ? 2.0 / 3.0 * div : 0.0));
        F[j * nv + 1 + i] = tau;
        work += v[i] * tau;
      }
      F[j * nv + dim + 1] = work + kappa * dT[j];
    }
  }
}

/* The state the viscous flux sees at a boundary point (type EULER_BC_*, data as for EulerBoundaryState):
 * at no-slip walls the wall's velocity with the interior pressure and the wall temperature
 * (isothermal) or the interior temperature (adiabatic); elsewhere the exterior state uP of the
 * inviscid flux. Returns 0 where the heat flux through the wall vanishes (adiabatic), else 1. */
HOFLOW_HD int NSViscousBoundaryState(int type, int dim, double gamma, const double data[], const double uM[], const double uP[], double uB[])
{
  const int nv = dim + 2;
  if (type == EULER_BC_NOSLIP_ISOTHERMAL || type == EULER_BC_NOSLIP_ADIABATIC) {
    const double p = EulerPressure(dim, gamma, uM), T = type == EULER_BC_NOSLIP_ISOTHERMAL ? data[0] : p / uM[0];
    double       w[EULER_NV_MAX];
    w[0] = p / T;
    for (int d = 0; d < dim; d++) w[1 + d] = data[1 + d];
    w[dim + 1] = p;
    EulerPrimitiveToConservative(dim, gamma, w, uB);
    return type == EULER_BC_NOSLIP_ISOTHERMAL;
  }
  for (int k = 0; k < nv; k++) uB[k] = uP[k];
  return 1;
}

/* The largest diffusivity max(4/3, gamma / Pr) mu / rho of a state, for the explicit step */
HOFLOW_HD double NSDiffusivity(int dim, double gamma, const NSViscosity *vis, const double u[])
{
  const double mu = NSMu(vis, NSTemperature(dim, gamma, u)), pr_inv = vis->cp_pr * (gamma - 1) / gamma;
  return fmax(4.0 / 3.0, gamma * pr_inv) * mu / u[0];
}
