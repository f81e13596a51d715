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
 * nothing exchanged beyond the state. Kernels, in the order of a right-hand side, each over the
 * smallest unit that needs no more than a few doubles of its own (host loops and CUDA threads alike):
 *
 *   MDGGradientElement          grad_h u of an owned or halo element (after the halo exchange)
 *   MDGViscousFaceStatePoint    per face point of an owned element: u-, the other side's state, the
 *                               heat flag (fstate) and the lifting integrand w sJ [u] n (fjw)
 *   MDGFaceLiftingComponent     per face, side and component: the face's lifting r_f on the element
 *                               and on its neighbour, at the face's points (flift)
 *   MDGLiftedGradientComponent  Q of an owned element, one component (all its faces' liftings summed
 *                               before one inverse mass)
 *   MDGViscousVolumePoint       w J G^T F_v(u, Q) at a volume point (rhs -= sum_q grad(phi) . it)
 *   MDGViscousFacePoint         w sJ F_v* . n at a face point (rhs += sum_q phi it)
 *
 * before the lift (M^{-1}) of the Euler right-hand side. Host twins in src/kernels/mdg.c, CUDA in
 * cuda/mdg.cu (the gradient, volume and face terms by groups of elements per thread block, points then
 * modes, like the Euler kernels; the rest one thread per unit above). */
#pragma once

#include <hoflow/kernels/mdg.h>

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

/* gx[j*nv + c] = w J (d u_c / d x_j) at volume point q of block element k with modes c */
HOFLOW_HD void MDGGradientPoint(const MDGKernelData *d, int k, int q, const double *HOFLOW_RESTRICT c, double *HOFLOW_RESTRICT gx)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  const double *vg = d->vgeo + ((size_t)k * Nq + q) * gs;
  double        ur[3][EULER_NV_MAX];
  for (int rd = 0; rd < dim; rd++) MDGEvaluate(nv, Np, d->dPq + ((size_t)rd * Nq + q) * Np, c, ur[rd]);
  for (int j = 0; j < dim; j++)
    for (int v = 0; v < nv; v++) {
      double s = 0;
      for (int rd = 0; rd < dim; rd++) s += vg[j * dim + rd] * ur[rd][v];
      gx[j * nv + v] = s * vg[dim * dim];
    }
}

/* grad + dim*(offset of k): the projection of grad u_h on the element's modes, g[(j*nv + c)*Np + m] */
HOFLOW_HD void MDGGradientElement(const MDGKernelData *d, int k, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT grad)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq;
  int           l;
  const int     off = MDGElementOffset(d, k, &l);
  const double *c   = u + off;
  double       *g   = grad + (size_t)dim * off;
  for (int i = 0; i < dim * nv * Np; i++) g[i] = 0;
  for (int q = 0; q < Nq; q++) {
    double gx[3 * EULER_NV_MAX];
    MDGGradientPoint(d, k, q, c, gx);
    for (int i = 0; i < dim * nv; i++)
      for (int m = 0; m < Np; m++) g[i * Np + m] += d->Pq[q * Np + m] * gx[i];
  }
  MDGApplyInverseMass(d, l, Np, dim * nv, g);
}

/* Face point qq of owned element e: fstate (2 nv + 1 doubles: u-, the other side's state, heat flag)
 * and fjw (dim nv: w sJ [u]_c n_j at j*nv + c) */
HOFLOW_HD void MDGViscousFaceStatePoint(const MDGKernelData *d, int e, int qq, const double *HOFLOW_RESTRICT u)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np;
  int           q;
  const int     f  = MDGFaceOfPoint(d, qq, &q);
  const int    *fi = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
  const double *c = u + d->dof0 + (size_t)e * nv * Np, *fg = d->fgeo + ((size_t)e * d->nfq + qq) * (dim + 1);
  double       *st = d->fstate + ((size_t)e * d->nfq + qq) * (2 * nv + 1), *jw = d->fjw + ((size_t)e * d->nfq + qq) * dim * nv;
  double       *um = st, *uo = st + nv;
  MDGEvaluate(nv, Np, d->Pf + fi[0] + q * Np, c, um);
  if (fi[1] >= 0) {
    MDGEvaluate(nv, fi[4], d->Pf + fi[2] + q * fi[4], u + fi[1], uo);
    st[2 * nv] = 1;
  } else {
    const double *data = d->bc_point + (size_t)(fi[2] + q) * EULER_BC_DATA;
    double        uP[EULER_NV_MAX];
    EulerBoundaryState(fi[3], dim, d->gamma, data, um, fg, uP);
    st[2 * nv] = NSViscousBoundaryState(fi[3], dim, d->gamma, data, um, uP, uo);
  }
  for (int v = 0; v < nv; v++) {
    const double jump = (fi[1] >= 0 ? 0.5 : 1.0) * (uo[v] - um[v]) * fg[dim];
    for (int j = 0; j < dim; j++) jw[j * nv + v] = jump * fg[j];
  }
}

/* The lifting of face f of owned element e on side 0 (the element's modes) or 1 (the neighbour's;
 * interior faces only), component i (= j*nv + c), at the face's points: r = M^{-1} sum_q phi w sJ [u]_c n_j
 * evaluated at every point q of the face, into flift[((e nfq + qq) 2 + side) nc + i] */
HOFLOW_HD void MDGFaceLiftingComponent(const MDGKernelData *d, int e, int f, int side, int i)
{
  const int     nc = d->dim * d->nv, nfq = d->fq_offset[f + 1] - d->fq_offset[f];
  const int    *fi = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
  const int     np = side ? fi[4] : d->Np;
  const double *P  = d->Pf + (side ? fi[2] : fi[0]);
  const double *jw = d->fjw + ((size_t)e * d->nfq + d->fq_offset[f]) * nc + i;
  double        r[MDG_NP_MAX];
  for (int m = 0; m < np; m++) {
    double s = 0;
    for (int q = 0; q < nfq; q++) s += P[q * np + m] * jw[q * nc];
    r[m] = s;
  }
  MDGApplyInverseMass(d, side ? fi[5] : d->e0 + e, np, 1, r);
  for (int q = 0; q < nfq; q++) {
    double s = 0;
    for (int m = 0; m < np; m++) s += P[q * np + m] * r[m];
    d->flift[(((size_t)e * d->nfq + d->fq_offset[f] + q) * 2 + side) * nc + i] = s;
  }
}

/* Q + dim*(offset of owned e), component i (= j*nv + c): grad_h u + the liftings of all its faces,
 * M^{-1} sum_f sum_q phi w sJ [u]_c n_j (one inverse mass for the sum) */
HOFLOW_HD void MDGLiftedGradientComponent(const MDGKernelData *d, int e, int i)
{
  const int    nc = d->dim * d->nv, Np = d->Np;
  const size_t off = (size_t)d->dim * (d->dof0 + (size_t)e * d->nv * Np) + (size_t)i * Np;
  double       t[MDG_NP_MAX];
  for (int m = 0; m < Np; m++) t[m] = 0;
  for (int f = 0; f < d->Nfaces; f++) {
    const double *P  = d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO];
    const double *jw = d->fjw + ((size_t)e * d->nfq + d->fq_offset[f]) * nc + i;
    for (int q = 0; q < d->fq_offset[f + 1] - d->fq_offset[f]; q++)
      for (int m = 0; m < Np; m++) t[m] += P[q * Np + m] * jw[q * nc];
  }
  MDGApplyInverseMass(d, d->e0 + e, Np, 1, t);
  for (int m = 0; m < Np; m++) d->Q[off + m] = d->grad[off + m] + t[m];
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

/* Fr[rd*nv + c] = w J sum_j (dr_rd/dx_j) F_v(u, Q)_jc at volume point q of owned element e */
HOFLOW_HD void MDGViscousVolumePoint(const MDGKernelData *d, int e, int q, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Fr)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  const size_t  off = d->dof0 + (size_t)e * nv * Np;
  const double *vg  = d->vgeo + ((size_t)e * Nq + q) * gs;
  double        uq[EULER_NV_MAX], gq[3 * EULER_NV_MAX], F[3 * EULER_NV_MAX];
  MDGEvaluate(nv, Np, d->Pq + q * Np, u + off, uq);
  MDGEvaluateGradient(dim, nv, Np, d->Pq + q * Np, d->Q + dim * off, gq);
  NSViscousFlux(dim, d->gamma, &d->vis, uq, gq, 1, F);
  for (int rd = 0; rd < dim; rd++)
    for (int v = 0; v < nv; v++) {
      double s = 0;
      for (int j = 0; j < dim; j++) s += vg[j * dim + rd] * F[j * nv + v];
      Fr[rd * nv + v] = s * vg[dim * dim];
    }
}

/* r -= sum_q w J grad(phi) . F_v(u, Q) for owned element e (r its rows of the right-hand side) */
HOFLOW_HD void MDGViscousVolumeElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT r)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq;
  for (int q = 0; q < Nq; q++) {
    double Fr[3 * EULER_NV_MAX];
    MDGViscousVolumePoint(d, e, q, u, Fr);
    for (int rd = 0; rd < dim; rd++) {
      const double *dP = d->dPq + ((size_t)rd * Nq + q) * Np;
      for (int v = 0; v < nv; v++)
        for (int m = 0; m < Np; m++) r[v * Np + m] -= dP[m] * Fr[rd * nv + v];
    }
  }
}

/* F[j*nv + c] = the viscous flux F_v* at face point qq of owned element e: the average of the two
 * sides' F_v(u, grad_h u + eta r_f) inside, F_v(u_b, grad_h u- + eta r_f) (heat flag) on the boundary */
HOFLOW_HD void MDGViscousFaceFlux(const MDGKernelData *d, int e, int qq, double *HOFLOW_RESTRICT F)
{
  const int     dim = d->dim, nv = d->nv, Np = d->Np, nc = dim * nv;
  int           q;
  const int     f   = MDGFaceOfPoint(d, qq, &q);
  const int    *fi  = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
  const size_t  off = d->dof0 + (size_t)e * nv * Np;
  const double *st = d->fstate + ((size_t)e * d->nfq + qq) * (2 * nv + 1), *rf = d->flift + ((size_t)e * d->nfq + qq) * 2 * nc;
  const double *Pm = d->Pf + fi[0] + q * Np;
  double        gM[3 * EULER_NV_MAX];
  MDGEvaluateGradient(dim, nv, Np, Pm, d->grad + dim * off, gM);
  for (int i = 0; i < nc; i++) gM[i] += d->eta * rf[i];
  if (fi[1] >= 0) { /* the average of the two sides' fluxes */
    const double *Pp = d->Pf + fi[2] + q * fi[4];
    double        gP[3 * EULER_NV_MAX], FP[3 * EULER_NV_MAX];
    MDGEvaluateGradient(dim, nv, fi[4], Pp, d->grad + (size_t)dim * fi[1], gP);
    for (int i = 0; i < nc; i++) gP[i] += d->eta * rf[nc + i];
    NSViscousFlux(dim, d->gamma, &d->vis, st, gM, 1, F);
    NSViscousFlux(dim, d->gamma, &d->vis, st + nv, gP, 1, FP);
    for (int i = 0; i < nc; i++) F[i] = 0.5 * (F[i] + FP[i]);
  } else
    NSViscousFlux(dim, d->gamma, &d->vis, st + nv, gM, st[2 * nv] != 0, F);
}

/* Fn[c] = w sJ F_v* . n at face point qq of owned element e */
HOFLOW_HD void MDGViscousFacePoint(const MDGKernelData *d, int e, int qq, double *HOFLOW_RESTRICT Fn)
{
  const int     dim = d->dim, nv = d->nv;
  const double *fg = d->fgeo + ((size_t)e * d->nfq + qq) * (dim + 1);
  double        F[3 * EULER_NV_MAX];
  MDGViscousFaceFlux(d, e, qq, F);
  for (int v = 0; v < nv; v++) {
    double s = 0;
    for (int j = 0; j < dim; j++) s += F[j * nv + v] * fg[j];
    Fn[v] = s * fg[dim];
  }
}

/* r += sum_faces sum_q w sJ phi F_v* . n for owned element e */
HOFLOW_HD void MDGViscousFaceElement(const MDGKernelData *d, int e, double *HOFLOW_RESTRICT r)
{
  const int nv = d->nv, Np = d->Np;
  for (int qq = 0; qq < d->nfq; qq++) {
    int           q;
    const int     f  = MDGFaceOfPoint(d, qq, &q);
    const double *Pm = d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO] + q * Np;
    double        Fn[EULER_NV_MAX];
    MDGViscousFacePoint(d, e, qq, Fn);
    for (int v = 0; v < nv; v++)
      for (int m = 0; m < Np; m++) r[v * Np + m] += Pm[m] * Fn[v];
  }
}
