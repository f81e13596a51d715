/* Host sum-factorized SIPDG kernels on quadrilaterals and hexahedra (hoflow/kernels/ipdg_tensor.h):
 * every routine is written once for dim = 2, 3 and instantiated for each (shape, N) of
 * hoflow/kernels/shapes.h, so that N1, dim and each pass's direction are compile-time constants; a
 * pass walks contiguous lines of the element's N1^dim array (the first direction fastest), its inner
 * loop over a contiguous run, which the compiler unrolls and vectorizes. The CUDA twins are in
 * cuda/ipdg_tensor.cu. */
#include <hoflow/kernels/dg.h>
#include <hoflow/kernels/ipdg_curved_element.h>
#include <hoflow/kernels/ipdg_tensor.h>
#include <hoflow/kernels/shapes.h>
#include <hoflow/kernels/tensor.h>
#include <hoflow/pointwise/elliptic.h>

/* out += A along dir for an array that vanishes off the element's boundary nodes (the lifted face
 * terms): the same sums as Pass(..., acc = 1) in the same order, with the terms of interior entries
 * (exact zeros) left out. */
TENSOR_INLINE void PassBoundary(const int N1, const int dim, const int dir, const double *restrict A, const double *restrict AT, const double *restrict in, double *restrict out)
{
  const int s     = dir == 0 ? 1 : dir == 1 ? N1
                                            : N1 * N1,
            outer = dim - 1 - dir == 0 ? 1 : dim - 1 - dir == 1 ? N1
                                                                : N1 * N1,
            N     = N1 - 1;
  if (s == 1) { /* lines along the first direction: interior lines have only their two ends */
    for (int o = 0; o < outer; o++) {
      double *restrict op       = out + o * N1;
      const double *restrict ip = in + o * N1;
      const int j = o % N1, k = o / N1, inner = j > 0 && j < N && (dim == 2 || (k > 0 && k < N));
      double    t[HOFLOW_NMAX + 1]; /* fixed size: a variable-length array costs stack work per line */
      for (int i = 0; i < N1; i++) t[i] = op[i];
      for (int m = 0; m < N1; m++) {
        if (inner && m > 0 && m < N) continue;
        const double a = ip[m];
        for (int i = 0; i < N1; i++) t[i] += AT[m * N1 + i] * a;
      }
      for (int i = 0; i < N1; i++) op[i] = t[i];
    }
    return;
  }
  for (int o = 0; o < outer; o++) {
    const int oin = dim == 3 && dir == 1 && o > 0 && o < N; /* 3D, along s: the t index o is interior */
    for (int i = 0; i < N1; i++) {
      double *restrict t = out + (o * N1 + i) * s; /* in place */
      for (int m = 0; m < N1; m++) {
        const double  a  = A[i * N1 + m];
        const double *ip = in + (o * N1 + m) * s;
        if (m == 0 || m == N || (dim == 2 ? 0 : dir == 1 ? !oin
                                                         : 0))
          for (int c = 0; c < s; c++) t[c] += a * ip[c];
        else if (dir == 1 || dim == 2) { /* c = i0 (and t interior): only c = 0, N */
          t[0] += a * ip[0];
          t[N] += a * ip[N];
        } else { /* 3D along t: c = i0 + N1 i1 on the ring of the (i0, i1) square */
          for (int c = 0; c < N1; c++) t[c] += a * ip[c];
          for (int r = 1; r < N; r++) {
            t[r * N1] += a * ip[r * N1];
            t[r * N1 + N] += a * ip[r * N1 + N];
          }
          for (int c = N * N1; c < s; c++) t[c] += a * ip[c];
        }
      }
    }
  }
}

/* out = A along dir for a first operand and += B along dir for a second (two fields, one sweep). */
TENSOR_INLINE void Pass2(const int N1, const int dim, const int dir, const double *restrict A, const double *restrict AT, const double *restrict inA, const double *restrict B, const double *restrict BT, const double *restrict inB, double *restrict out)
{
  Pass(N1, dim, dir, A, AT, inA, out, 0);
  Pass(N1, dim, dir, B, BT, inB, out, 1);
}

/* ------------------------------------------------------------------ affine blocks */

TENSOR_INLINE void TensorGradientElement(const int N1, const int dim, const double *restrict D1, const double *restrict D1T, const double *restrict g, const double *restrict u, double *const grad[3])
{
  const int Np = dim == 2 ? N1 * N1 : N1 * N1 * N1;
  double    ur[3][Np];
  for (int a = 0; a < dim; a++) Pass(N1, dim, a, D1, D1T, u, ur[a], 0);
  for (int x = 0; x < dim; x++) {
    double *restrict gx = grad[x];
    for (int i = 0; i < Np; i++) {
      double s = 0;
      for (int a = 0; a < dim; a++) s += g[x * dim + a] * ur[a][i];
      gx[i] = s;
    }
  }
}

/* Au of owned element e (hoflow/kernels/ipdg_tensor.h, affine):
 *   sum_a D_a^T (J M q_a + E h_a) + lambda J M u - E [sJ ({n.grad u} + tau [[u]])]. */
TENSOR_INLINE void TensorApplyElement(const IPDGKernelData *d, const int N1, const int dim, const int Nfn, const int Nfaces, int e, const double *restrict u, const double *const grad[3], const double *restrict bc_data, double *restrict Au)
{
  const int     Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, Nfp = Nfn / Nfaces, gsize = HOFLOW_GEO_SIZE(dim), ssize = HOFLOW_SGEO_SIZE(dim), base = d->node0 + e * Np;
  const double *g = d->geo + e * gsize, J = g[HOFLOW_GEO_J(dim)], *M1 = d->M1, *A1 = d->A1, *A1T = d->A1T;
  const int    *vP = d->vmapP + e * Nfn;
  double        q[3][Np], X[Np], Y[Np], Z[Np], F[3][Np], P[2][Nfp], Pm[2][Nfp], Pt[Nfp];

  /* q_a = J sum_x (dr_a/dx) grad_x u, and lambda J u in X */
  for (int a = 0; a < dim; a++) {
    double c[3];
    for (int x = 0; x < dim; x++) c[x] = J * g[x * dim + a];
    for (int i = 0; i < Np; i++) {
      double s = 0;
      for (int x = 0; x < dim; x++) s += c[x] * grad[x][base + i];
      q[a][i] = s;
    }
  }
  /* volume: sum_a D_a^T M q_a + lambda J M u with D_0^T M = M1 (x) [M1 (x)] A1 etc., A1 = D1^T M1 */
  if (d->lambda != 0) {
    for (int i = 0; i < Np; i++) Y[i] = d->lambda * J * u[base + i];
    Pass2(N1, dim, 0, A1, A1T, q[0], M1, M1, Y, X);
  } else
    Pass(N1, dim, 0, A1, A1T, q[0], X, 0);
  Pass(N1, dim, 0, M1, M1, q[1], Y, 0);
  if (dim == 2)
    Pass2(N1, dim, 1, M1, M1, X, A1, A1T, Y, Au);
  else {
    Pass(N1, dim, 0, M1, M1, q[2], Z, 0);
    Pass2(N1, dim, 1, M1, M1, X, A1, A1T, Y, q[0]); /* P */
    Pass(N1, dim, 1, M1, M1, Z, q[1], 0);           /* Q */
    Pass2(N1, dim, 2, M1, M1, q[0], A1, A1T, q[1], Au);
  }
  /* faces: at each face node s = -sJ ({n.grad u} + tau [[u]]) and [[u]], mass-weighted on the face grid;
   * h_a = c_a [[u]] with c_a = sJ/2 sum_x (dr_a/dx) n_x constant on the (flat) face */
  for (int a = 0; a < dim; a++)
    for (int i = 0; i < Np; i++) F[a][i] = 0;
  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * ssize, sJ = sg[HOFLOW_SGEO_SJ_OVER_J(dim)] * J, tau = sg[HOFLOW_SGEO_TAU(dim)];
    const int     type = d->face_type[e * Nfaces + f], interior = type == HOFLOW_FACE_INTERIOR, off = f * Nfp;
    double        gnr[3];
    for (int a = 0; a < dim; a++) {
      double s = 0;
      for (int x = 0; x < dim; x++) s += g[x * dim + a] * sg[x];
      gnr[a] = 0.5 * sJ * s;
    }
    for (int b = 0; b < Nfp; b++) {
      const int n = off + b, idM = base + d->face_nodes[n], p = d->face_pos[n];
      double    gnM = 0, gnP = 0, ju, jg;
      for (int x = 0; x < dim; x++) gnM += sg[x] * grad[x][idM];
      if (interior)
        for (int x = 0; x < dim; x++) gnP += sg[x] * grad[x][vP[n]];
      EllipticFaceJumps(type, u[idM], gnM, interior ? u[vP[n]] : 0.0, gnP, bc_data ? bc_data[e * Nfn + n] : 0.0, &ju, &jg);
      P[0][p] = -sJ * (gnM + 0.5 * jg + tau * ju);
      P[1][p] = ju;
    }
    for (int c = 0; c < 2; c++) { /* face mass M1 (x) M1 on the face grid */
      if (dim == 2)
        Pass(N1, 1, 0, M1, M1, P[c], Pm[c], 0);
      else {
        Pass(N1, 2, 0, M1, M1, P[c], Pt, 0);
        Pass(N1, 2, 1, M1, M1, Pt, Pm[c], 0);
      }
    }
    for (int b = 0; b < Nfp; b++) {
      const int n = off + b, m = d->face_nodes[n], p = d->face_pos[n];
      Au[m] += Pm[0][p];
      for (int a = 0; a < dim; a++) F[a][m] += gnr[a] * Pm[1][p];
    }
  }
  for (int a = 0; a < dim; a++) PassBoundary(N1, dim, a, d->D1T, d->D1, F[a], Au);
}

#define DEFINE_TENSOR(SHAPE, NN, DIM, NP, NF, NFN)                                                                                                                                     \
  static void TensorGradient_##SHAPE##_##NN(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)                                    \
  {                                                                                                                                                                                    \
    const double *geo = halo ? d->halo_geo : d->geo;                                                                                                                                   \
    const int     n0  = halo ? d->halo_node0 : d->node0;                                                                                                                               \
    for (int e = e0; e < e1; e++) {                                                                                                                                                    \
      double *const g[3] = {gx + n0 + e * (NP), gy + n0 + e * (NP), (DIM) == 3 ? gz + n0 + e * (NP) : NULL};                                                                           \
      TensorGradientElement((NN) + 1, DIM, d->D1, d->D1T, geo + e * HOFLOW_GEO_SIZE(DIM), u + n0 + e * (NP), g);                                                                       \
    }                                                                                                                                                                                  \
  }                                                                                                                                                                                    \
  static void TensorApply_##SHAPE##_##NN(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au) \
  {                                                                                                                                                                                    \
    const double *const g[3] = {gx, gy, gz};                                                                                                                                           \
    for (int e = e0; e < e1; e++) TensorApplyElement(d, (NN) + 1, DIM, NFN, NF, e, u, g, bc, Au + d->node0 + e * (NP));                                                                \
  }

/* ------------------------------------------------------------------ curved blocks */

/* The volume terms of curved element e into Au (set): with the tensor Gauss rule,
 *   Au = sum_a G_a^T t_a + B^T t_lambda,  t_a = sum_b (w J G G^T)_ab (G_b u),  t_lambda = lambda w J (B u),
 * G_0 = B1 (x) [B1 (x)] G1 etc., B = B1 (x) B1 [(x) B1]. */
TENSOR_INLINE void CurvedTensorVolume(const IPDGCurvedKernelData *d, const int N1, const int dim, int e, const double *restrict u, double *restrict Au)
{
  const int     Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, npair = dim * (dim + 1) / 2;
  const double *vq = d->vq + (size_t)e * Np * (npair + 1), *B1 = d->B1, *G1 = d->G1, *B1T = d->B1T, *G1T = d->G1T;
  double        uq[Np], ua[3][Np], s1[Np], s2[Np], s3[Np];

  if (dim == 2) {
    Pass(N1, 2, 0, B1, B1T, u, s1, 0); /* B_r u */
    Pass(N1, 2, 0, G1, G1T, u, s2, 0); /* G_r u */
    Pass(N1, 2, 1, B1, B1T, s1, uq, 0);
    Pass(N1, 2, 1, G1, G1T, s1, ua[1], 0);
    Pass(N1, 2, 1, B1, B1T, s2, ua[0], 0);
  } else {
    Pass(N1, 3, 0, B1, B1T, u, s1, 0);
    Pass(N1, 3, 0, G1, G1T, u, s2, 0);
    Pass(N1, 3, 1, B1, B1T, s1, s3, 0); /* B B u */
    Pass(N1, 3, 1, G1, G1T, s1, uq, 0); /* G_s B_r u (temporarily) */
    Pass(N1, 3, 2, B1, B1T, uq, ua[1], 0);
    Pass(N1, 3, 1, B1, B1T, s2, s1, 0); /* B_s G_r u */
    Pass(N1, 3, 2, B1, B1T, s1, ua[0], 0);
    Pass(N1, 3, 2, G1, G1T, s3, ua[2], 0);
    Pass(N1, 3, 2, B1, B1T, s3, uq, 0);
  }
  for (int q = 0; q < Np; q++) { /* the fluxes at the points, in place */
    const double *K = vq + q * (npair + 1);
    double        r[3];
    for (int a = 0; a < dim; a++) r[a] = ua[a][q];
    for (int a = 0; a < dim; a++) {
      double s = 0;
      for (int b = 0; b < dim; b++) s += K[IPDGCurvedPair(a, b, dim)] * r[b];
      ua[a][q] = s;
    }
    uq[q] = d->lambda * K[npair] * uq[q];
  }
  if (dim == 2) {
    Pass2(N1, 2, 1, B1T, B1, uq, G1T, G1, ua[1], s1); /* B_s^T t_l + G_s^T t_1 */
    Pass(N1, 2, 1, B1T, B1, ua[0], s2, 0);            /* B_s^T t_0 */
    Pass2(N1, 2, 0, B1T, B1, s1, G1T, G1, s2, Au);
  } else {
    Pass2(N1, 3, 2, B1T, B1, uq, G1T, G1, ua[2], s1); /* t-direction: B^T (t_l) + G^T (t_2) */
    Pass(N1, 3, 2, B1T, B1, ua[1], s2, 0);
    Pass(N1, 3, 2, B1T, B1, ua[0], s3, 0);
    Pass2(N1, 3, 1, B1T, B1, s1, G1T, G1, s2, uq); /* s-direction: the t_l, t_2 and t_1 group */
    Pass(N1, 3, 1, B1T, B1, s3, s1, 0);            /* the t_0 group */
    Pass2(N1, 3, 0, B1T, B1, uq, G1T, G1, s1, Au);
  }
}

#define DEFINE_CURVED_TENSOR(SHAPE, NN, DIM, NP, NF, NFN)                                                                                                              \
  static void CurvedTensorGradient_##SHAPE##_##NN(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)        \
  {                                                                                                                                                                    \
    const double *Gn = halo ? d->halo_Gn : d->Gn;                                                                                                                      \
    const int     n0 = halo ? d->halo_node0 : d->node0;                                                                                                                \
    for (int e = e0; e < e1; e++) {                                                                                                                                    \
      const double *Ge   = Gn + (size_t)e * (NP) * (DIM) * (DIM);                                                                                                      \
      double *const g[3] = {gx + n0 + e * (NP), gy + n0 + e * (NP), (DIM) == 3 ? gz + n0 + e * (NP) : NULL};                                                           \
      double        ur[DIM][NP];                                                                                                                                       \
      for (int a = 0; a < (DIM); a++) Pass((NN) + 1, DIM, a, d->D1, d->D1T, u + n0 + e * (NP), ur[a], 0);                                                              \
      for (int i = 0; i < (NP); i++)                                                                                                                                   \
        for (int x = 0; x < (DIM); x++) {                                                                                                                              \
          double s = 0;                                                                                                                                                \
          for (int a = 0; a < (DIM); a++) s += Ge[i * (DIM) * (DIM) + x * (DIM) + a] * ur[a][i];                                                                       \
          g[x][i] = s;                                                                                                                                                 \
        }                                                                                                                                                              \
    }                                                                                                                                                                  \
  }                                                                                                                                                                    \
  static void CurvedTensorApply_##SHAPE##_##NN(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *const g[3], const double *bc, double *Au) \
  {                                                                                                                                                                    \
    double w[IPDGCurvedWorkSize(d)];                                                                                                                                   \
    for (int e = e0; e < e1; e++) {                                                                                                                                    \
      double *const R = w + (size_t)((DIM) + 1) * d->Nq;                                                                                                               \
      CurvedTensorVolume(d, (NN) + 1, DIM, e, u + d->node0 + e * (NP), Au + d->node0 + e * (NP));                                                                      \
      IPDGCurvedApplyElement(d, NP, DIM, e, u, g, bc, Au, w, 1, IPDG_CURVED_FACES);                                                                                    \
      for (int a = 0; a < (DIM); a++) Pass((NN) + 1, DIM, a, d->D1T, d->D1, R + a * (NP), Au + d->node0 + e * (NP), 1);                                                \
    }                                                                                                                                                                  \
  }

/* ------------------------------------------------------------------ mass and inverse mass */

/* J (M1 (x) M1 [(x) M1]) u, or (M1^-1 (x) ...) u / J. */
TENSOR_INLINE void TensorMassElement(const DGKernelData *d, const int N1, const int dim, int e, int inverse, const double *restrict u, double *restrict out)
{
  const int     Np = dim == 2 ? N1 * N1 : N1 * N1 * N1;
  const double  J = d->geo[e * HOFLOW_GEO_SIZE(dim) + HOFLOW_GEO_J(dim)], s = inverse ? 1.0 / J : J;
  const double *A = inverse ? d->M1inv : d->M1; /* symmetric: its own transpose */
  double        t1[Np], t2[Np];
  Pass(N1, dim, 0, A, A, u, t1, 0);
  if (dim == 2)
    Pass(N1, dim, 1, A, A, t1, t2, 0);
  else {
    Pass(N1, dim, 1, A, A, t1, t2, 0);
    Pass(N1, dim, 2, A, A, t2, t1, 0);
  }
  for (int i = 0; i < Np; i++) out[i] = s * (dim == 2 ? t2[i] : t1[i]);
}

/* B^T diag(w J) B u with the tensor Gauss rule (curved blocks). */
TENSOR_INLINE void CurvedTensorMassElement(const DGKernelData *d, const int N1, const int dim, int e, const double *restrict u, double *restrict out)
{
  const int     Np = dim == 2 ? N1 * N1 : N1 * N1 * N1;
  const double *wJ = d->wJq + (size_t)e * Np, *B1 = d->B1, *B1T = d->B1T;
  double        t1[Np], t2[Np];
  Pass(N1, dim, 0, B1, B1T, u, t1, 0);
  Pass(N1, dim, 1, B1, B1T, t1, t2, 0);
  if (dim == 3) Pass(N1, dim, 2, B1, B1T, t2, t1, 0);
  {
    double *restrict uq = dim == 2 ? t2 : t1;
    for (int q = 0; q < Np; q++) uq[q] *= wJ[q];
  }
  if (dim == 2) {
    Pass(N1, dim, 1, B1T, B1, t2, t1, 0);
    Pass(N1, dim, 0, B1T, B1, t1, out, 0);
  } else {
    Pass(N1, dim, 2, B1T, B1, t1, t2, 0);
    Pass(N1, dim, 1, B1T, B1, t2, t1, 0);
    Pass(N1, dim, 0, B1T, B1, t1, out, 0);
  }
}

#define DEFINE_TENSOR_MASS(SHAPE, NN, DIM, NP, NF, NFN)                                                                                \
  static void TensorMass_##SHAPE##_##NN(const DGKernelData *d, int inverse, const double *u, double *Mu)                               \
  {                                                                                                                                    \
    for (int e = 0; e < d->K; e++) TensorMassElement(d, (NN) + 1, DIM, e, inverse, u + d->node0 + e * (NP), Mu + d->node0 + e * (NP)); \
  }                                                                                                                                    \
  static void CurvedTensorMass_##SHAPE##_##NN(const DGKernelData *d, int inverse, const double *u, double *Mu)                         \
  {                                                                                                                                    \
    for (int e = 0; e < d->K; e++) CurvedTensorMassElement(d, (NN) + 1, DIM, e, u + d->node0 + e * (NP), Mu + d->node0 + e * (NP));    \
  }

HOFLOW_ORDERS_QUADRILATERAL(DEFINE_TENSOR_MASS)
HOFLOW_ORDERS_HEXAHEDRON(DEFINE_TENSOR_MASS)
HOFLOW_ORDERS_QUADRILATERAL(DEFINE_TENSOR)
HOFLOW_ORDERS_HEXAHEDRON(DEFINE_TENSOR)
HOFLOW_ORDERS_QUADRILATERAL(DEFINE_CURVED_TENSOR)
HOFLOW_ORDERS_HEXAHEDRON(DEFINE_CURVED_TENSOR)

typedef void (*GradientFn)(const IPDGKernelData *, int, int, int, const double *, double *, double *, double *);
typedef void (*ApplyFn)(const IPDGKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);
typedef void (*CurvedGradientFn)(const IPDGCurvedKernelData *, int, int, int, const double *, double *, double *, double *);
typedef void (*CurvedApplyFn)(const IPDGCurvedKernelData *, int, int, const double *, const double *const[3], const double *, double *);
typedef void (*MassFn)(const DGKernelData *, int, const double *, double *);

#define TENSOR_ENTRIES(SHAPE, NN, ...) \
  [SHAPE][NN] = {TensorGradient_##SHAPE##_##NN, TensorApply_##SHAPE##_##NN, CurvedTensorGradient_##SHAPE##_##NN, CurvedTensorApply_##SHAPE##_##NN, TensorMass_##SHAPE##_##NN, CurvedTensorMass_##SHAPE##_##NN},
static const struct {
  GradientFn       gradient;
  ApplyFn          apply;
  CurvedGradientFn curved_gradient;
  CurvedApplyFn    curved_apply;
  MassFn           mass, curved_mass;
} tensor_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_QUADRILATERAL(TENSOR_ENTRIES) HOFLOW_ORDERS_HEXAHEDRON(TENSOR_ENTRIES)};

int IPDGTensorHostSupported(RefShape shape, int N)
{
  return shape >= 0 && shape < REF_NUM_SHAPES && N >= 1 && N <= HOFLOW_NMAX && tensor_table[shape][N].apply != NULL;
}

void IPDGTensorGradientHost(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  tensor_table[d->shape][d->N].gradient(d, halo, e0, e1, u, gx, gy, gz);
}

void IPDGTensorApplyHost(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  tensor_table[d->shape][d->N].apply(d, e0, e1, u, gx, gy, gz, bc_data, Au);
}

void IPDGCurvedTensorGradientHost(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  tensor_table[d->shape][d->N].curved_gradient(d, halo, e0, e1, u, gx, gy, gz);
}

void IPDGCurvedTensorApplyHost(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  const double *const g[3] = {gx, gy, gz};
  tensor_table[d->shape][d->N].curved_apply(d, e0, e1, u, g, bc_data, Au);
}

void DGTensorMassHost(const DGKernelData *d, RefShape shape, int inverse, const double *u, double *Mu)
{
  tensor_table[shape][d->N1 - 1].mass(d, inverse, u, Mu);
}

void DGCurvedTensorMassHost(const DGKernelData *d, RefShape shape, const double *u, double *Mu)
{
  tensor_table[shape][d->N1 - 1].curved_mass(d, 0, u, Mu);
}

double IPDGTensorGradientFlopsPerElement(int dim, int N)
{
  const double N1 = N + 1, Np = dim == 2 ? N1 * N1 : N1 * N1 * N1;
  return dim * 2.0 * N1 * Np + dim * (2.0 * dim - 1.0) * Np;
}

double IPDGTensorApplyFlopsPerElement(int dim, int N)
{
  const double N1 = N + 1, Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, passes = dim == 2 ? 5 : 9, Nfaces = 2 * dim, Nfp = Np / N1;
  /* volume passes and the D^T of the face terms, q_a; per face: jumps, the face mass on two fields */
  return (passes + dim) * 2.0 * N1 * Np + 2.0 * dim * dim * Np + Nfaces * (Nfp * (12.0 + 6.0 * dim) + 2.0 * (dim - 1) * 2.0 * N1 * Nfp);
}

int IPDGTensorCUDASupported(RefShape shape, int N)
{
  /* cuda/ipdg_tensor.cu instantiates the orders of the dense CUDA kernels: a thread per node of a
   * hexahedron up to N = 9 (1000 threads a block), quadrilaterals up to HOFLOW_NMAX */
  return (shape == REF_QUADRILATERAL && N >= 1 && N <= HOFLOW_NMAX) || (shape == REF_HEXAHEDRON && N >= 1 && N <= 9);
}

int IPDGTensorCUDAPreferred(int dim, int N)
{
  /* -ipdg_kernel auto on CUDA, from bench/results/h100_2026-11-25_roofline_tensor_*.csv (gradient + apply,
   * 64 000 hexahedra, 200 704 quadrilaterals): hexahedra N = 2..8 2.3-36x faster by sum factorization,
   * N = 1 slower; quadrilaterals faster from N = 4 (N = 3: 19.6 against 20.1 GDOF/s dense) */
  return dim == 3 ? IPDGTensorCUDASupported(REF_HEXAHEDRON, N) && N >= 2 : N >= 4 && IPDGTensorCUDASupported(REF_QUADRILATERAL, N);
}
