/* Element-level routines (SIPDG, face jumps, mass, cubature) shared by the host kernels and the CUDA
 * kernels (cuda/ipdg.cu): one definition of eq. (28) for both backends. PETSc-free. */
#pragma once

#include <hoflow/kernels.h>

#if defined(__CUDACC__)
#  define HOFLOW_HD static __host__ __device__ __forceinline__
#  define HOFLOW_RESTRICT __restrict__
#else
#  define HOFLOW_HD static inline __attribute__((always_inline))
#  define HOFLOW_RESTRICT restrict
#endif
#define HOFLOW_NP_MAX ((HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1))
#define HOFLOW_NFACE_NODE_MAX (4 * (HOFLOW_NMAX + 1))

/* Jumps [[u]] = u+ - u- and n.[[grad u]] at a face node. Interior faces take the neighbour's
 * traces (uP, gnP); boundary faces the mirror states of seed 000 §2.1: Dirichlet u+ = 2g - u-,
 * grad u+ = grad u-; Neumann u+ = u-, n.grad u+ = 2h - n.grad u- (bcv holds g or h). */
HOFLOW_HD void FaceJumps(int type, double uM, double gnM, double uP, double gnP, double bcv, double *ju, double *jg)
{
  if (type == HOFLOW_FACE_INTERIOR) {
    *ju = uP - uM;
    *jg = gnP - gnM;
  } else if (type == HOFLOW_FACE_DIRICHLET) {
    *ju = 2.0 * (bcv - uM);
    *jg = 0.0;
  } else {
    *ju = 0.0;
    *jg = 2.0 * (bcv - gnM);
  }
}

/* Algorithm 1: u_r = Dr u, u_s = Ds u, then grad u = (rx u_r + sx u_s, ry u_r + sy u_s). */
HOFLOW_HD void GradientElement(const int Np, const double *HOFLOW_RESTRICT Dr, const double *HOFLOW_RESTRICT Ds, const double *HOFLOW_RESTRICT g, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT gx, double *HOFLOW_RESTRICT gy)
{
  const double rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY];
  for (int i = 0; i < Np; i++) {
    double ur = 0, us = 0;
    for (int j = 0; j < Np; j++) {
      ur += Dr[i * Np + j] * u[j];
      us += Ds[i * Np + j] * u[j];
    }
    gx[i] = rx * ur + sx * us;
    gy[i] = ry * ur + sy * us;
  }
}

/* Eq. (28) on owned element e:
 *   Au = J M ( -div[grad u + Lvec] - sum_f (sJ/J) LIFT_f [ n.[[grad u]]/2 + tau [[u]] - n.Lvec^- ] + lambda u ),
 *   Lvec = (1/2) sum_f n_f (sJ/J)_f LIFT_f [[u]]_f,   [[w]] = w^+ - w^-.
 * Boundary faces use mirror states: Dirichlet u+ = 2g - u-, grad u+ = grad u-; Neumann u+ = u-,
 * n.grad u+ = 2h - n.grad u-. `base` is the offset of the element's nodes in u, gx, gy;
 * with `isolated` the exterior of interior faces is zero (diagonal blocks). */
HOFLOW_HD void ApplyElement(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, int base, int isolated, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT gx, const double *HOFLOW_RESTRICT gy, const double *HOFLOW_RESTRICT bc_data, double *HOFLOW_RESTRICT Au)
{
  const int     NfNfp = Nfaces * Nfp;
  const double *g     = d->geo + d->elem_cell[e] * HOFLOW_GEO_SIZE;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY], J = g[HOFLOW_GEO_J];
  const int    *vP   = d->vmapP + e * NfNfp;
  const double *LIFT = d->LIFT;
  double        du[HOFLOW_NFACE_NODE_MAX], dgn[HOFLOW_NFACE_NODE_MAX], wx[HOFLOW_NFACE_NODE_MAX], wy[HOFLOW_NFACE_NODE_MAX];
  double        Lx[HOFLOW_NP_MAX], Ly[HOFLOW_NP_MAX], qr[HOFLOW_NP_MAX], qs[HOFLOW_NP_MAX], r[HOFLOW_NP_MAX];

  /* jumps of u and of the normal derivative at every face node */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
    const int     type = d->face_type[e * Nfaces + f];
    for (int i = 0; i < Nfp; i++) {
      const int    n = f * Nfp + i, idM = base + d->face_nodes[n];
      const double uM = u[idM], gnM = nx * gx[idM] + ny * gy[idM];
      const double bcv      = bc_data ? bc_data[e * NfNfp + n] : 0.0;
      const int    interior = type == HOFLOW_FACE_INTERIOR && !isolated;
      double       ju, jg;
      FaceJumps(type, uM, gnM, interior ? u[vP[n]] : 0.0, interior ? nx * gx[vP[n]] + ny * gy[vP[n]] : 0.0, bcv, &ju, &jg);
      du[n]  = ju;
      dgn[n] = jg;
      wx[n]  = 0.5 * nx * sj * ju;
      wy[n]  = 0.5 * ny * sj * ju;
    }
  }
  /* Lvec: lifted jumps */
  for (int i = 0; i < Np; i++) {
    double lx = 0, ly = 0;
    for (int n = 0; n < NfNfp; n++) {
      lx += LIFT[i * NfNfp + n] * wx[n];
      ly += LIFT[i * NfNfp + n] * wy[n];
    }
    Lx[i] = lx;
    Ly[i] = ly;
  }
  /* volume: -div(grad u + Lvec) = -(Dr (rx qx + ry qy) + Ds (sx qx + sy qy)) */
  for (int j = 0; j < Np; j++) {
    const double qx = gx[base + j] + Lx[j], qy = gy[base + j] + Ly[j];
    qr[j] = rx * qx + ry * qy;
    qs[j] = sx * qx + sy * qy;
  }
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += d->Dr[i * Np + j] * qr[j] + d->Ds[i * Np + j] * qs[j];
    r[i] = -a + d->lambda * u[base + i];
  }
  /* surface: s = (sJ/J) (n.[[grad u]]/2 + tau [[u]] - n.Lvec^-), lifted and subtracted */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J], tau = sg[HOFLOW_SGEO_TAU];
    for (int i = 0; i < Nfp; i++) {
      const int n = f * Nfp + i, m = d->face_nodes[n];
      wx[n] = sj * (0.5 * dgn[n] + tau * du[n] - (nx * Lx[m] + ny * Ly[m]));
    }
  }
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int n = 0; n < NfNfp; n++) a += LIFT[i * NfNfp + n] * wx[n];
    r[i] -= a;
  }
  /* multiply by the element mass matrix J M */
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += d->M[i * Np + j] * r[j];
    Au[i] = J * a;
  }
}

/* Diagonal of the element block of owned element e, diag[Np], from the reference tables (kernels.h):
 *   J [ (rx^2+ry^2) Srr + 2 (rx sx + ry sy) Srs + (sx^2+sy^2) Sss + lambda M_ii ]
 *   + sum over the element's non-Neumann faces and their nodes m:
 *     sJ ( -2 c n.grad_m(l_m) weighted by the face mass row + c' tau Mface_aa ),
 * c = 1/2, c' = 1 on interior faces (average and jump) and c = 1, c' = 2 on Dirichlet faces (mirror state). */
HOFLOW_HD void DiagonalElement(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, double *HOFLOW_RESTRICT diag)
{
  const double *g = d->geo + d->elem_cell[e] * HOFLOW_GEO_SIZE, *T = d->diag_tables;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY], J = g[HOFLOW_GEO_J];
  const double  crr = rx * rx + ry * ry, crs = 2.0 * (rx * sx + ry * sy), css = sx * sx + sy * sy;
  const double *FDr = T + 4 * Np, *FDs = FDr + Nfaces * Nfp, *Mfd = FDs + Nfaces * Nfp;
  for (int i = 0; i < Np; i++) diag[i] = J * (crr * T[i] + crs * T[Np + i] + css * T[2 * Np + i] + d->lambda * T[3 * Np + i]);
  for (int f = 0; f < Nfaces; f++) {
    const double *sg   = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const int     type = d->face_type[e * Nfaces + f];
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sJ = sg[HOFLOW_SGEO_SJ_OVER_J] * J, tau = sg[HOFLOW_SGEO_TAU];
    const double  c = type == HOFLOW_FACE_DIRICHLET ? 1.0 : 0.5, cp = 2.0 * c;
    if (type == HOFLOW_FACE_NEUMANN) continue;
    for (int a = 0; a < Nfp; a++) {
      const int    n  = f * Nfp + a;
      const double gn = nx * (rx * FDr[n] + sx * FDs[n]) + ny * (ry * FDr[n] + sy * FDs[n]);
      diag[d->face_nodes[n]] += sJ * (-2.0 * c * gn + cp * tau * Mfd[a]);
    }
  }
}

/* ---- element-wise DG kernels (mass, inverse mass, cubature integrals), see DGKernelData ---- */

/* out = J M u (inverse: out = M^{-1} u / J) on one element. */
HOFLOW_HD void MassElement(const DGKernelData *d, const int Np, int e, int inverse, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT out)
{
  const double  J = d->geo[d->elem_cell[e] * HOFLOW_GEO_SIZE + HOFLOW_GEO_J];
  const double *A = inverse ? d->Minv : d->M, s = inverse ? 1.0 / J : J;
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += A[i * Np + j] * u[j];
    out[i] = s * a;
  }
}

/* b_i += J sum_q w_q l_i(x_q) f_q: the right-hand side (l_i, f) by cubature. */
HOFLOW_HD void WeightedIntegralElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT fq, double *HOFLOW_RESTRICT b)
{
  const double J = d->geo[d->elem_cell[e] * HOFLOW_GEO_SIZE + HOFLOW_GEO_J];
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int q = 0; q < Nq; q++) a += d->wq[q] * d->Iq[q * Np + i] * fq[q];
    b[i] += J * a;
  }
}

/* J sum_q w_q (u(x_q) - exact_q)^2: the element's squared L2 error by cubature. */
HOFLOW_HD double ErrorElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT exact_q)
{
  const double J = d->geo[d->elem_cell[e] * HOFLOW_GEO_SIZE + HOFLOW_GEO_J];
  double       s = 0;
  for (int q = 0; q < Nq; q++) {
    double uq = 0;
    for (int i = 0; i < Np; i++) uq += d->Iq[q * Np + i] * u[i];
    s += d->wq[q] * (uq - exact_q[q]) * (uq - exact_q[q]);
  }
  return J * s;
}

/* Entry i of ChebyshevUpdateHost/CUDA (hoflow/kernels.h). */
HOFLOW_HD void ChebyshevUpdateEntry(int i, int mode, double a, double c, const double *HOFLOW_RESTRICT b, const double *HOFLOW_RESTRICT w, const double *HOFLOW_RESTRICT dinv, double *HOFLOW_RESTRICT r, double *HOFLOW_RESTRICT d, double *HOFLOW_RESTRICT x)
{
  const double ri = (mode == 2 ? r[i] : b[i]) - (mode == 0 ? 0.0 : w[i]);
  const double di = (mode == 2 ? a * d[i] : 0.0) + c * dinv[i] * ri;
  r[i]            = ri;
  d[i]            = di;
  x[i]            = (mode == 0 ? 0.0 : x[i]) + di;
}
