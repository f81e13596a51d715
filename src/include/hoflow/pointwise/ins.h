/* Pointwise physics of incompressible flow (seed 000 eqs. 8, 9, 21, 34): the advective flux of
 * ncomp components c carried by the velocity a in `dim` dimensions, its local Lax–Friedrichs
 * numerical flux and the exterior states by boundary type. Shared by every discretization's host
 * and CUDA kernels. */
#pragma once

#include <math.h>
#include <hoflow/kernels/common.h>

/* The exterior state at a boundary face point with outward normal n: the velocity data bc on
 * Dirichlet faces (walls, inflow); on outflow (Neumann) faces the interior state where the flow
 * leaves (n.a^- >= 0) and the data where it enters (backflow: with the interior state there the
 * flux would carry the interior's own value in, and the transport gains energy, which makes the
 * subcycled advection unstable). The advected components are the velocity's (c = a) there. */
HOFLOW_HD void INSAdvectionExterior(int dim, int ncomp, int type, const double n[], const double bc[], const double aM[], const double cM[], double aP[], double cP[])
{
  double un = 0;
  for (int x = 0; x < dim; x++) un += n[x] * aM[x];
  if (type == HOFLOW_FACE_DIRICHLET || (type == HOFLOW_FACE_NEUMANN && un < 0)) {
    for (int x = 0; x < dim; x++) aP[x] = bc[x];
    for (int k = 0; k < ncomp; k++) cP[k] = bc[k];
  } else if (type == HOFLOW_FACE_NEUMANN) {
    for (int x = 0; x < dim; x++) aP[x] = aM[x];
    for (int k = 0; k < ncomp; k++) cP[k] = cM[k];
  }
}

/* Local Lax–Friedrichs flux n.F*_k = {{(n.a) c_k}} + Lambda/2 (c_k^- - c_k^+), Lambda =
 * lambda_scale max(|n.a^-|, |n.a^+|) (lambda_scale 2 for N(u), the largest eigenvalue of the flux
 * Jacobian of u (x) u being 2 n.u; 1 for the transport N~(a; c)). */
HOFLOW_HD void INSAdvectionFlux(int dim, int ncomp, const double n[], double lambda_scale, const double aM[], const double cM[], const double aP[], const double cP[], double f[])
{
  double unM = 0, unP = 0;
  for (int x = 0; x < dim; x++) {
    unM += n[x] * aM[x];
    unP += n[x] * aP[x];
  }
  {
    const double L = lambda_scale * fmax(fabs(unM), fabs(unP));
    for (int k = 0; k < ncomp; k++) f[k] = 0.5 * (unM * cM[k] + unP * cP[k]) + 0.5 * L * (cM[k] - cP[k]);
  }
}
