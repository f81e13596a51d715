/* Element routines of the SIPDG operator on curved elements (IPDGCurvedKernelData,
 * hoflow/kernels/ipdg_curved.h), shared by the host kernels and their CUDA twins: one definition of the
 * weak form for both backends and every shape, with the same sums in the same order. Intermediate
 * values go to a scratch array w with stride ws (1 on the host; on the device the elements of a launch
 * interleave, so that the threads of a warp, one element each, touch consecutive addresses). */
#pragma once

#include <hoflow/kernels/ipdg_curved.h>

/* Index of the pair (a, b) in the upper triangle of a symmetric dim x dim matrix stored row by row. */
HOFLOW_HD int IPDGCurvedPair(int a, int b, int dim)
{
  const int lo = a < b ? a : b, hi = a < b ? b : a;
  return lo * dim - lo * (lo - 1) / 2 + (hi - lo);
}

/* The nodal gradient at node i: grad_x u = sum_d (dr_d/dx)(x_i) (D_d u)_i, Gi the node's metric terms. */
HOFLOW_HD void IPDGCurvedGradientNode(const IPDGCurvedKernelData *d, const int Np, const int dim, int i, const double *HOFLOW_RESTRICT Gi, const double *HOFLOW_RESTRICT u, double g[3])
{
  double ur[3] = {0, 0, 0};
  for (int j = 0; j < Np; j++)
    for (int a = 0; a < dim; a++) ur[a] += d->D[a][i * Np + j] * u[j];
  for (int x = 0; x < dim; x++) {
    double s = 0;
    for (int a = 0; a < dim; a++) s += Gi[x * dim + a] * ur[a];
    g[x] = s;
  }
}

/* The parts of IPDGCurvedApplyElement: the volume terms (which set Au), the face terms (added to Au;
 * the terms with the test functions' gradients gathered in the scratch R), and D^T R added to Au. The
 * sum-factorized kernels (hoflow/kernels/ipdg_tensor.h) run the face terms alone, leaving R in the
 * scratch (at w + (dim+1) Nq ws, R_d at stride ws from d Np ws), and do the volume and D^T R themselves. */
enum {
  IPDG_CURVED_VOLUME = 1,
  IPDG_CURVED_FACES  = 2,
  IPDG_CURVED_LIFT   = 4,
  IPDG_CURVED_ALL    = 7
};

/* Au on owned element e of the block (the weak form of hoflow/kernels/ipdg_curved.h); w: scratch of
 * IPDGCurvedWorkSize doubles at stride ws; parts: IPDG_CURVED_* bits. */
HOFLOW_HD void IPDGCurvedApplyElement(const IPDGCurvedKernelData *d, const int Np, const int dim, int e, const double *HOFLOW_RESTRICT u, const double *const grad[3], const double *HOFLOW_RESTRICT bc, double *HOFLOW_RESTRICT Au, double *HOFLOW_RESTRICT w, const int ws, const int parts)
{
  const int     Nq = d->Nq, npair = dim * (dim + 1) / 2, base = d->node0 + e * Np, Nfaces = d->Nfaces, NfpMax = d->NfpMax, NfqMax = d->NfqMax;
  const double *vq = d->vq + (size_t)e * Nq * (npair + 1), *Gn = d->Gn + (size_t)e * Np * dim * dim;
  double       *T = w, *R = w + (size_t)(dim + 1) * Nq * ws, *Fa = R + (size_t)dim * Np * ws, *Fg = Fa + (size_t)(1 + dim) * NfpMax * ws;

  /* volume: t_a = sum_b (w J G G^T)_ab (D_b u)(x_q), and lambda w J u(x_q); then the transposes */
  if (parts & IPDG_CURVED_VOLUME) {
    for (int q = 0; q < Nq; q++) {
      const double *K     = vq + q * (npair + 1);
      double        ur[3] = {0, 0, 0}, uq = 0;
      for (int j = 0; j < Np; j++) {
        const double uj = u[base + j];
        for (int a = 0; a < dim; a++) ur[a] += d->Dq[a][q * Np + j] * uj;
        uq += d->Iq[q * Np + j] * uj;
      }
      for (int a = 0; a < dim; a++) {
        double s = 0;
        for (int b = 0; b < dim; b++) s += K[IPDGCurvedPair(a, b, dim)] * ur[b];
        T[(size_t)(a * Nq + q) * ws] = s;
      }
      T[(size_t)(dim * Nq + q) * ws] = d->lambda * K[npair] * uq;
    }
    for (int i = 0; i < Np; i++) Au[base + i] = 0;
    for (int q = 0; q < Nq; q++) { /* row by row of the tables: contiguous in i */
      const double tl = T[(size_t)(dim * Nq + q) * ws];
      double       ta[3];
      for (int a = 0; a < dim; a++) ta[a] = T[(size_t)(a * Nq + q) * ws];
      for (int i = 0; i < Np; i++) {
        double t = d->Iq[q * Np + i] * tl;
        for (int a = 0; a < dim; a++) t += d->Dq[a][q * Np + i] * ta[a];
        Au[base + i] += t;
      }
    }
  }
  /* faces: l_i (-{n.grad u} + tau [u]) directly; -1/2 (n.grad l_i)[u] gathered in R (reference
   * directions at the nodes), applied with D^T at the end */
  if (!(parts & IPDG_CURVED_FACES)) return;
  for (int k = 0; k < dim * Np; k++) R[(size_t)k * ws] = 0;
  for (int f = 0; f < Nfaces; f++) {
    const int     type = d->face_type[e * Nfaces + f], off = d->face_offset[f], Nfp = d->face_offset[f + 1] - off, Nfq = d->Nfq[f];
    const double *If  = d->If + d->if_offset[f][d->fperm[e * Nfaces + f]];
    const double *fq  = d->fq + ((size_t)e * d->fq_offset[Nfaces] + d->fq_offset[f]) * (dim + 1);
    const double  tau = d->sgeo[(e * Nfaces + f) * HOFLOW_SGEO_SIZE(dim) + HOFLOW_SGEO_TAU(dim)];
    if (type == HOFLOW_FACE_NEUMANN && !bc) continue;
    /* at the face nodes: [u] (Neumann: the data h) and the average gradient */
    for (int a = 0; a < Nfp; a++) {
      const int n = off + a, idM = base + d->face_nodes[n];
      if (type == HOFLOW_FACE_INTERIOR) {
        const int idP      = d->vmapP[e * d->Nfn + n];
        Fa[(size_t)a * ws] = u[idM] - u[idP];
        for (int x = 0; x < dim; x++) Fa[(size_t)((1 + x) * NfpMax + a) * ws] = 0.5 * (grad[x][idM] + grad[x][idP]);
      } else if (type == HOFLOW_FACE_DIRICHLET) {
        Fa[(size_t)a * ws] = 2.0 * (u[idM] - (bc ? bc[e * d->Nfn + n] : 0.0));
        for (int x = 0; x < dim; x++) Fa[(size_t)((1 + x) * NfpMax + a) * ws] = grad[x][idM];
      } else
        Fa[(size_t)a * ws] = bc[e * d->Nfn + n];
    }
    /* at the face points: s = w sJ (-{n.grad u} + tau [u]), v = -1/2 w sJ [u] */
    for (int g = 0; g < Nfq; g++) {
      const double *nq = fq + g * (dim + 1), wsJ = nq[dim];
      double        J = 0, F = 0, A[3] = {0, 0, 0};
      if (type == HOFLOW_FACE_NEUMANN) {
        for (int a = 0; a < Nfp; a++) F += If[g * Nfp + a] * Fa[(size_t)a * ws];
        Fg[(size_t)g * ws]            = -wsJ * F;
        Fg[(size_t)(NfqMax + g) * ws] = 0.0;
        continue;
      }
      for (int a = 0; a < Nfp; a++) {
        const double Iv = If[g * Nfp + a];
        J += Iv * Fa[(size_t)a * ws];
        for (int x = 0; x < dim; x++) A[x] += Iv * Fa[(size_t)((1 + x) * NfpMax + a) * ws];
      }
      for (int x = 0; x < dim; x++) F += nq[x] * A[x];
      Fg[(size_t)g * ws]            = wsJ * (-F + tau * J);
      Fg[(size_t)(NfqMax + g) * ws] = -0.5 * wsJ * J;
    }
    /* back to the face nodes */
    for (int a = 0; a < Nfp; a++) {
      const int     m  = d->face_nodes[off + a];
      const double *Gm = Gn + m * dim * dim;
      double        S = 0, Wv[3] = {0, 0, 0};
      for (int g = 0; g < Nfq; g++) {
        const double Iv = If[g * Nfp + a], v = Iv * Fg[(size_t)(NfqMax + g) * ws];
        S += Iv * Fg[(size_t)g * ws];
        for (int x = 0; x < dim; x++) Wv[x] += v * fq[g * (dim + 1) + x];
      }
      Au[base + m] += S;
      for (int dd = 0; dd < dim; dd++) {
        double r = 0;
        for (int x = 0; x < dim; x++) r += Gm[x * dim + dd] * Wv[x];
        R[(size_t)(dd * Np + m) * ws] += r;
      }
    }
  }
  if (!(parts & IPDG_CURVED_LIFT)) return;
  for (int m = 0; m < Np; m++) { /* D^T R, row by row; R vanishes off the face nodes */
    double r[3], any = 0;
    for (int dd = 0; dd < dim; dd++) {
      r[dd] = R[(size_t)(dd * Np + m) * ws];
      any += r[dd] * r[dd];
    }
    if (any == 0) continue;
    for (int i = 0; i < Np; i++) {
      double t = 0;
      for (int dd = 0; dd < dim; dd++) t += d->D[dd][m * Np + i] * r[dd];
      Au[base + i] += t;
    }
  }
}

/* The diagonal of owned element e's block of A: diag[Np] of the element. Volume terms from the
 * cubature; on each non-Neumann face and face node a (node i), with Phi_g = n_g . (interpolated nodal
 * gradient of l_i) at face point g: sum_g w sJ I_ga ( -c Phi_g + c' tau I_ga ), c = 1, c' = 1 on interior
 * faces and c = 2, c' = 2 on Dirichlet faces (mirror state). */
HOFLOW_HD void IPDGCurvedDiagonalElement(const IPDGCurvedKernelData *d, const int Np, const int dim, int e, double *HOFLOW_RESTRICT diag)
{
  const int     Nq = d->Nq, npair = dim * (dim + 1) / 2, Nfaces = d->Nfaces;
  const double *vq = d->vq + (size_t)e * Nq * (npair + 1), *Gn = d->Gn + (size_t)e * Np * dim * dim;

  for (int i = 0; i < Np; i++) {
    double s = 0;
    for (int q = 0; q < Nq; q++) {
      const double *K = vq + q * (npair + 1), Iv = d->Iq[q * Np + i];
      double        t = d->lambda * K[npair] * Iv * Iv;
      for (int a = 0; a < dim; a++)
        for (int b = 0; b < dim; b++) t += d->Dq[a][q * Np + i] * K[IPDGCurvedPair(a, b, dim)] * d->Dq[b][q * Np + i];
      s += t;
    }
    diag[i] = s;
  }
  for (int f = 0; f < Nfaces; f++) {
    const int     type = d->face_type[e * Nfaces + f], off = d->face_offset[f], Nfp = d->face_offset[f + 1] - off, Nfq = d->Nfq[f];
    const double *If  = d->If + d->if_offset[f][d->fperm[e * Nfaces + f]];
    const double *fq  = d->fq + ((size_t)e * d->fq_offset[Nfaces] + d->fq_offset[f]) * (dim + 1);
    const double  tau = d->sgeo[(e * Nfaces + f) * HOFLOW_SGEO_SIZE(dim) + HOFLOW_SGEO_TAU(dim)];
    const double  c   = type == HOFLOW_FACE_DIRICHLET ? 2.0 : 1.0;
    if (type == HOFLOW_FACE_NEUMANN) continue;
    for (int a = 0; a < Nfp; a++) {
      const int i = d->face_nodes[off + a];
      double    s = 0;
      for (int g = 0; g < Nfq; g++) {
        const double *nq = fq + g * (dim + 1), Ia = If[g * Nfp + a];
        double        phi = 0;
        for (int b = 0; b < Nfp; b++) {
          const int     m  = d->face_nodes[off + b];
          const double *Gm = Gn + m * dim * dim;
          double        t  = 0;
          for (int x = 0; x < dim; x++)
            for (int dd = 0; dd < dim; dd++) t += nq[x] * Gm[x * dim + dd] * d->D[dd][m * Np + i];
          phi += If[g * Nfp + b] * t;
        }
        s += nq[dim] * Ia * (-c * phi + c * tau * Ia);
      }
      diag[i] += s;
    }
  }
}
