/* Modal DG kernels of the viscous terms of the compressible Navier–Stokes equations: the second scheme
 * of Bassi and Rebay (BR2, seed 004 §2.2) on the modal elements of hoflow/kernels/mdg.h, any shape and
 * dimension. With grad_h u the element's gradient projected on its modes (exact on affine elements),
 * and the lifting of a face's jump onto an element,
 *
 *   r_f = M^{-1} sum_q w sJ phi ([u] n)_q,   [u] = (u+ - u-) / 2 inside, u_b - u- on the boundary,
 *
 * the volume term takes the lifted gradient Q = grad_h u + sum_f r_f and the face term the average of
 * the two sides' F_v(u, grad_h u + eta r_f) (the boundary: F_v(u_b, grad_h u- + eta r_f), without the
 * heat flux at adiabatic walls; u_b from NSViscousBoundaryState). The two sides' liftings of a face
 * project the same integrand on their own modes and inverse mass, so a face needs the neighbour's
 * inverse mass (imass, every local element) and projected gradient (grad, owned and halo elements),
 * nothing exchanged beyond the state. Kernels, in the order of a right-hand side:
 *
 *   MDGGradientElement         grad_h u of an owned or halo element (after the halo exchange)
 *   MDGLiftedGradientElement   Q of an owned element
 *   MDGViscousVolumeElement    rhs -= sum_q w J grad(phi) . F_v(u, Q)
 *   MDGViscousFaceElement      rhs += sum_faces sum_q w sJ phi F_v* . n
 *
 * before the lift (M^{-1}) of the Euler right-hand side. Host twins only so far (src/kernels/mdg.c);
 * a viscous run on CUDA vectors is refused. */
#pragma once

#include <hoflow/kernels/mdg.h>

#define MDG_VISCOUS_NFQ_MAX 256 /* face points of one face */

/* r[ncomp*Np] = M_l^{-1} r for local element l of any block */
HOFLOW_HD void MDGApplyInverseMass(const MDGKernelData *d, int l, int Np, int ncomp, double *r)
{
  const double *Mi = d->imass + d->imass_info[2 * l];
  if (!d->imass_info[2 * l + 1]) {
    for (int i = 0; i < ncomp * Np; i++) r[i] *= Mi[0];
    return;
  }
  for (int c = 0; c < ncomp; c++) {
    double t[MDG_NP_MAX];
    for (int i = 0; i < Np; i++) t[i] = r[c * Np + i];
    for (int i = 0; i < Np; i++) {
      double s = 0;
      for (int j = 0; j < Np; j++) s += Mi[i * Np + j] * t[j];
      r[c * Np + i] = s;
    }
  }
}

/* the dof offset and local element number of block element k (owned k < K, halo K <= k < K + Kh) */
HOFLOW_HD int MDGElementOffset(const MDGKernelData *d, int k, int *l)
{
  const int s = d->nv * d->Np;
  *l          = k < d->K ? d->e0 + k : d->halo_e0 + (k - d->K);
  return k < d->K ? d->dof0 + k * s : d->halo_dof0 + (k - d->K) * s;
}

/* grad + dim*(offset of k): the projection of grad u_h on the element's modes, g[(j*nv + c)*Np + m] */
HOFLOW_HD void MDGGradientElement(const MDGKernelData *d, int k, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT grad)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  int           l;
  const int     off = MDGElementOffset(d, k, &l);
  const double *c   = u + off;
  double       *g   = grad + (size_t)dim * off;
  for (int i = 0; i < dim * nv * Np; i++) g[i] = 0;
  for (int q = 0; q < Nq; q++) {
    const double *vg = d->vgeo + ((size_t)k * Nq + q) * gs;
    double        ur[3][EULER_NV_MAX];
    for (int rd = 0; rd < dim; rd++) MDGEvaluate(nv, Np, d->dPq + ((size_t)rd * Nq + q) * Np, c, ur[rd]);
    for (int j = 0; j < dim; j++)
      for (int v = 0; v < nv; v++) {
        double gx = 0;
        for (int rd = 0; rd < dim; rd++) gx += vg[j * dim + rd] * ur[rd][v];
        gx *= vg[dim * dim];
        for (int m = 0; m < Np; m++) g[(j * nv + v) * Np + m] += d->Pq[q * Np + m] * gx;
      }
  }
  MDGApplyInverseMass(d, l, Np, dim * nv, g);
}

/* The states on face f of owned element e at its nfq points: uM, the other side's uO (the neighbour's,
 * or the viscous boundary state), the lifting integrand jw[q][(j*nv + c)] = w sJ [u]_c n_j, and heat[q]
 * (0 at adiabatic walls). Returns the number of points. */
HOFLOW_HD int MDGViscousFaceStates(const MDGKernelData *d, int e, int f, const double *HOFLOW_RESTRICT u, double *uM, double *uO, double *jw, int *heat)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np;
  const int    *fi  = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
  const int     nfq = d->fq_offset[f + 1] - d->fq_offset[f];
  const double *c = u + d->dof0 + (size_t)e * nv * Np, *Pm = d->Pf + fi[0], *Pp = d->Pf + fi[2];
  for (int q = 0; q < nfq; q++) {
    const double *fg = d->fgeo + ((size_t)e * d->nfq + d->fq_offset[f] + q) * (dim + 1);
    double       *um = uM + q * nv, *uo = uO + q * nv;
    MDGEvaluate(nv, Np, Pm + q * Np, c, um);
    if (fi[1] >= 0) {
      MDGEvaluate(nv, fi[4], Pp + q * fi[4], u + fi[1], uo);
      heat[q] = 1;
    } else {
      const double *data = d->bc_point + (size_t)(fi[2] + q) * EULER_BC_DATA;
      double        uP[EULER_NV_MAX];
      EulerBoundaryState(fi[3], dim, d->gamma, data, um, fg, uP);
      heat[q] = NSViscousBoundaryState(fi[3], dim, d->gamma, data, um, uP, uo);
    }
    for (int v = 0; v < nv; v++) {
      const double jump = (fi[1] >= 0 ? 0.5 : 1.0) * (uo[v] - um[v]) * fg[dim];
      for (int j = 0; j < dim; j++) jw[q * dim * nv + j * nv + v] = jump * fg[j];
    }
  }
  return nfq;
}

/* r[(j*nv + c)*np + m] = M_l^{-1} sum_q P[q*np + m] jw[q][j*nv + c]: a face's lifting on one side */
HOFLOW_HD void MDGLiftJump(const MDGKernelData *d, int l, int np, int nfq, const double *P, const double *jw, double *r)
{
  const int nc = d->dim * d->nv;
  for (int i = 0; i < nc * np; i++) r[i] = 0;
  for (int q = 0; q < nfq; q++)
    for (int i = 0; i < nc; i++)
      for (int m = 0; m < np; m++) r[i * np + m] += P[q * np + m] * jw[q * nc + i];
  MDGApplyInverseMass(d, l, np, nc, r);
}

/* Q + dim*(offset of owned e) = grad_h u + the liftings of all its faces */
HOFLOW_HD void MDGLiftedGradientElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Q)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, n = dim * nv * Np;
  int       l;
  const int off = MDGElementOffset(d, e, &l);
  double   *Qe  = Q + (size_t)dim * off;
  for (int i = 0; i < n; i++) Qe[i] = d->grad[(size_t)dim * off + i];
  for (int f = 0; f < d->Nfaces; f++) {
    double    uM[MDG_VISCOUS_NFQ_MAX * EULER_NV_MAX], uO[MDG_VISCOUS_NFQ_MAX * EULER_NV_MAX], jw[MDG_VISCOUS_NFQ_MAX * 3 * EULER_NV_MAX], r[3 * EULER_NV_MAX * MDG_NP_MAX];
    int       heat[MDG_VISCOUS_NFQ_MAX];
    const int nfq = MDGViscousFaceStates(d, e, f, u, uM, uO, jw, heat);
    MDGLiftJump(d, l, Np, nfq, d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO], jw, r);
    for (int i = 0; i < n; i++) Qe[i] += r[i];
  }
}

/* g[j*nv + c] = the modal field G (layout (j*nv + c)*np + m) at the point with mode values P */
HOFLOW_HD void MDGEvaluateGradient(int dim, int nv, int np, const double *P, const double *G, double g[])
{
  for (int i = 0; i < dim * nv; i++) {
    double s = 0;
    for (int m = 0; m < np; m++) s += P[m] * G[i * np + m];
    g[i] = s;
  }
}

/* r -= sum_q w J grad(phi) . F_v(u, Q) for owned element e (r its rows of the right-hand side) */
HOFLOW_HD void MDGViscousVolumeElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT r)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  int           l;
  const int     off = MDGElementOffset(d, e, &l);
  const double *c = u + off, *Qe = d->Q + (size_t)dim * off;
  for (int q = 0; q < Nq; q++) {
    const double *vg = d->vgeo + ((size_t)e * Nq + q) * gs;
    double        uq[EULER_NV_MAX], gq[3 * EULER_NV_MAX], F[3 * EULER_NV_MAX];
    MDGEvaluate(nv, Np, d->Pq + q * Np, c, uq);
    MDGEvaluateGradient(dim, nv, Np, d->Pq + q * Np, Qe, gq);
    NSViscousFlux(dim, d->gamma, &d->vis, uq, gq, 1, F);
    for (int rd = 0; rd < dim; rd++) {
      const double *dP = d->dPq + ((size_t)rd * Nq + q) * Np;
      for (int v = 0; v < nv; v++) {
        double s = 0;
        for (int j = 0; j < dim; j++) s += vg[j * dim + rd] * F[j * nv + v];
        s *= vg[dim * dim];
        for (int m = 0; m < Np; m++) r[v * Np + m] -= dP[m] * s;
      }
    }
  }
}

/* r += sum_faces sum_q w sJ phi F_v* . n for owned element e */
HOFLOW_HD void MDGViscousFaceElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT r)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, nc = dim * nv;
  int       l;
  const int off = MDGElementOffset(d, e, &l);
  for (int f = 0; f < d->Nfaces; f++) {
    const int    *fi = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
    const double *Pm = d->Pf + fi[0], *Pp = d->Pf + fi[2];
    double        uM[MDG_VISCOUS_NFQ_MAX * EULER_NV_MAX], uO[MDG_VISCOUS_NFQ_MAX * EULER_NV_MAX], jw[MDG_VISCOUS_NFQ_MAX * 3 * EULER_NV_MAX];
    double        rM[3 * EULER_NV_MAX * MDG_NP_MAX], rP[3 * EULER_NV_MAX * MDG_NP_MAX];
    int           heat[MDG_VISCOUS_NFQ_MAX];
    const int     nfq = MDGViscousFaceStates(d, e, f, u, uM, uO, jw, heat);
    MDGLiftJump(d, l, Np, nfq, Pm, jw, rM);
    if (fi[1] >= 0) MDGLiftJump(d, fi[5], fi[4], nfq, Pp, jw, rP);
    for (int q = 0; q < nfq; q++) {
      const double *fg = d->fgeo + ((size_t)e * d->nfq + d->fq_offset[f] + q) * (dim + 1);
      double        gM[3 * EULER_NV_MAX], gL[3 * EULER_NV_MAX], F[3 * EULER_NV_MAX], Fn[EULER_NV_MAX];
      MDGEvaluateGradient(dim, nv, Np, Pm + q * Np, d->grad + (size_t)dim * off, gM);
      MDGEvaluateGradient(dim, nv, Np, Pm + q * Np, rM, gL);
      for (int i = 0; i < nc; i++) gM[i] += d->eta * gL[i];
      if (fi[1] >= 0) { /* the average of the two sides' fluxes */
        double gP[3 * EULER_NV_MAX], FP[3 * EULER_NV_MAX];
        MDGEvaluateGradient(dim, nv, fi[4], Pp + q * fi[4], d->grad + (size_t)dim * fi[1], gP);
        MDGEvaluateGradient(dim, nv, fi[4], Pp + q * fi[4], rP, gL);
        for (int i = 0; i < nc; i++) gP[i] += d->eta * gL[i];
        NSViscousFlux(dim, d->gamma, &d->vis, uM + q * nv, gM, 1, F);
        NSViscousFlux(dim, d->gamma, &d->vis, uO + q * nv, gP, 1, FP);
        for (int i = 0; i < nc; i++) F[i] = 0.5 * (F[i] + FP[i]);
      } else
        NSViscousFlux(dim, d->gamma, &d->vis, uO + q * nv, gM, heat[q], F);
      for (int v = 0; v < nv; v++) {
        double s = 0;
        for (int j = 0; j < dim; j++) s += F[j * nv + v] * fg[j];
        Fn[v] = s * fg[dim];
      }
      for (int v = 0; v < nv; v++)
        for (int m = 0; m < Np; m++) r[v * Np + m] += Pm[q * Np + m] * Fn[v];
    }
  }
}
