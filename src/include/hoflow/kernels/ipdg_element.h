/* Element routines of the SIPDG operator (IPDGKernelData, hoflow/kernels/ipdg.h), shared by the host
 * kernels and the CUDA kernels (cuda/ipdg.cu): one definition of eq. (28) for both backends and every
 * shape and dimension. PETSc-free. Sums run in a fixed order so that 2D results do not depend on how
 * the dimension loop is written. */
#pragma once

#include <hoflow/kernels/ipdg.h>
#include <hoflow/pointwise/elliptic.h>

/* Algorithm 1: u_d = D_d u, then grad_j u = sum_d (dr_d/dx_j) u_d. g: the element's factors. */
HOFLOW_HD void IPDGGradientElement(const IPDGKernelData *d, const int Np, const int dim, const double *HOFLOW_RESTRICT g, const double *HOFLOW_RESTRICT u, double *const grad[3])
{
  for (int i = 0; i < Np; i++) {
    double ur[3] = {0, 0, 0};
    for (int j = 0; j < Np; j++)
      for (int a = 0; a < dim; a++) ur[a] += d->D[a][i * Np + j] * u[j];
    for (int x = 0; x < dim; x++) {
      double s = 0;
      for (int a = 0; a < dim; a++) s += g[x * dim + a] * ur[a];
      grad[x][i] = s;
    }
  }
}

#if !defined(__CUDACC__)
/* Eq. (28) on owned element e of the block (block-relative), its nodes at `base` of the local arrays:
 *   Au = J M ( -div[grad u + Lvec] - sum_f (sJ/J) LIFT_f [ n.[[grad u]]/2 + tau [[u]] - n.Lvec^- ] + lambda u ),
 *   Lvec = (1/2) sum_f n_f (sJ/J)_f LIFT_f [[u]]_f,   [[w]] = w^+ - w^-.
 * Boundary faces use mirror states (EllipticFaceJumps); with `isolated` the exterior of interior
 * faces is zero (diagonal blocks). Host only: the CUDA kernel (cuda/ipdg.cu) stages the same steps
 * in shared memory. */
static inline __attribute__((always_inline)) void IPDGApplyElement(const IPDGKernelData *d, const int Np, const int Nfn, const int Nfaces, const int dim, int e, int base, int isolated, const double *HOFLOW_RESTRICT u, const double *const grad[3], const double *HOFLOW_RESTRICT bc_data, double *HOFLOW_RESTRICT Au)
{
  const int     gsize = HOFLOW_GEO_SIZE(dim), ssize = HOFLOW_SGEO_SIZE(dim);
  const double *g = d->geo + e * gsize, J = g[HOFLOW_GEO_J(dim)];
  const int    *vP   = d->vmapP + e * Nfn;
  const double *LIFT = d->LIFT;
  double        du[Nfn], dgn[Nfn], w[dim][Nfn]; /* sized by the instantiation's constants */
  double        L[dim][Np], q[dim][Np], r[Np];

  /* jumps of u and of the normal derivative at every face node */
  for (int n = 0; n < Nfn; n++) {
    const int     f  = d->node_face[n];
    const double *sg = d->sgeo + (e * Nfaces + f) * ssize, sj = sg[HOFLOW_SGEO_SJ_OVER_J(dim)];
    const int     type = d->face_type[e * Nfaces + f], idM = base + d->face_nodes[n];
    const int     interior = type == HOFLOW_FACE_INTERIOR && !isolated;
    double        gnM = 0, gnP = 0, ju, jg;
    for (int x = 0; x < dim; x++) gnM += sg[x] * grad[x][idM];
    if (interior)
      for (int x = 0; x < dim; x++) gnP += sg[x] * grad[x][vP[n]];
    EllipticFaceJumps(type, u[idM], gnM, interior ? u[vP[n]] : 0.0, gnP, bc_data ? bc_data[e * Nfn + n] : 0.0, &ju, &jg);
    du[n]  = ju;
    dgn[n] = jg;
    for (int x = 0; x < dim; x++) w[x][n] = 0.5 * sg[x] * sj * ju;
  }
  /* Lvec: lifted jumps */
  for (int i = 0; i < Np; i++)
    for (int x = 0; x < dim; x++) {
      double l = 0;
      for (int n = 0; n < Nfn; n++) l += LIFT[i * Nfn + n] * w[x][n];
      L[x][i] = l;
    }
  /* volume: -div(grad u + Lvec) = -sum_a D_a (sum_x (dr_a/dx) q_x) */
  for (int j = 0; j < Np; j++)
    for (int a = 0; a < dim; a++) {
      double s = 0;
      for (int x = 0; x < dim; x++) s += g[x * dim + a] * (grad[x][base + j] + L[x][j]);
      q[a][j] = s;
    }
  for (int i = 0; i < Np; i++) {
    double s = 0;
    for (int j = 0; j < Np; j++) {
      double t = 0;
      for (int a = 0; a < dim; a++) t += d->D[a][i * Np + j] * q[a][j];
      s += t;
    }
    r[i] = -s + d->lambda * u[base + i];
  }
  /* surface: s = (sJ/J) (n.[[grad u]]/2 + tau [[u]] - n.Lvec^-), lifted and subtracted */
  for (int n = 0; n < Nfn; n++) {
    const int     f = d->node_face[n], m = d->face_nodes[n];
    const double *sg = d->sgeo + (e * Nfaces + f) * ssize;
    double        nL = 0;
    for (int x = 0; x < dim; x++) nL += sg[x] * L[x][m];
    w[0][n] = sg[HOFLOW_SGEO_SJ_OVER_J(dim)] * (0.5 * dgn[n] + sg[HOFLOW_SGEO_TAU(dim)] * du[n] - nL);
  }
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int n = 0; n < Nfn; n++) a += LIFT[i * Nfn + n] * w[0][n];
    r[i] -= a;
  }
  /* multiply by the element mass matrix J M */
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += d->M[i * Np + j] * r[j];
    Au[i] = J * a;
  }
}
#endif

/* Diagonal of the element block of owned element e, diag[Np], from the reference tables:
 *   J [ sum_{a<=b} c_ab (D_a^T M D_b)_ii + lambda M_ii ],  c_aa = |grad r_a|^2, c_ab = 2 grad r_a . grad r_b,
 *   + sum over the element's non-Neumann faces and their nodes m:
 *     sJ ( -2 c n.grad_m(l_m) weighted by the face mass row + c' tau Mface_aa ),
 * c = 1/2, c' = 1 on interior faces (average and jump) and c = 1, c' = 2 on Dirichlet faces (mirror state). */
HOFLOW_HD void IPDGDiagonalElement(const IPDGKernelData *d, const int Np, const int Nfn, const int Nfaces, const int dim, int e, double *HOFLOW_RESTRICT diag)
{
  const int     gsize = HOFLOW_GEO_SIZE(dim), ssize = HOFLOW_SGEO_SIZE(dim), npair = dim * (dim + 1) / 2;
  const double *g = d->geo + e * gsize, *T = d->diag_tables, J = g[HOFLOW_GEO_J(dim)];
  const double *FD = T + (npair + 1) * Np, *Mfd = FD + dim * Nfn;
  double        c[6];
  int           k = 0;

  for (int a = 0; a < dim; a++)
    for (int b = a; b < dim; b++, k++) {
      double s = 0;
      for (int x = 0; x < dim; x++) s += g[x * dim + a] * g[x * dim + b];
      c[k] = a == b ? s : 2.0 * s;
    }
  for (int i = 0; i < Np; i++) {
    double s = 0;
    for (k = 0; k < npair; k++) s += c[k] * T[k * Np + i];
    diag[i] = J * (s + d->lambda * T[npair * Np + i]);
  }
  for (int n = 0; n < Nfn; n++) {
    const int     f = d->node_face[n], type = d->face_type[e * Nfaces + f];
    const double *sg = d->sgeo + (e * Nfaces + f) * ssize;
    const double  sJ = sg[HOFLOW_SGEO_SJ_OVER_J(dim)] * J, tau = sg[HOFLOW_SGEO_TAU(dim)];
    const double  cf = type == HOFLOW_FACE_DIRICHLET ? 1.0 : 0.5, cp = 2.0 * cf;
    double        gn = 0;
    if (type == HOFLOW_FACE_NEUMANN) continue;
    for (int x = 0; x < dim; x++) {
      double s = 0;
      for (int a = 0; a < dim; a++) s += g[x * dim + a] * FD[a * Nfn + n];
      gn += sg[x] * s;
    }
    diag[d->face_nodes[n]] += sJ * (-2.0 * cf * gn + cp * tau * Mfd[n]);
  }
}
