/* Host reference kernels of the SIPDG screened-Poisson operator A = -Laplace + lambda
 * (seed 000, eqs. 23 and 28; Algorithms 1 and 2). Plain C, no PETSc calls: the CUDA twins in
 * cuda/ipdg.cu take the same IPDGKernelData and must agree with these to round-off.
 *
 * Each kernel is written once as an always-inline function of (Np, Nfp, Nfaces) and
 * instantiated for every order and element shape, so loop bounds are compile-time constants
 * (the specialization seed 000 §5.2 found essential); a switch picks the instance. */
#include <hoflow/kernels.h>
#include <hoflow/ref.h>
#include <string.h>

#define HOFLOW_INLINE static inline __attribute__((always_inline))
#define NP_MAX ((HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1))
#define NFACE_NODE_MAX (4 * (HOFLOW_NMAX + 1))

/* Algorithm 1: u_r = Dr u, u_s = Ds u, then grad u = (rx u_r + sx u_s, ry u_r + sy u_s). */
HOFLOW_INLINE void GradientElement(const int Np, const double *restrict Dr, const double *restrict Ds, const double *restrict g, const double *restrict u, double *restrict gx, double *restrict gy)
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

HOFLOW_INLINE void GradientAll(const IPDGKernelData *d, const int Np, const double *restrict u, double *restrict gx, double *restrict gy)
{
  for (int c = 0; c < d->Klocal; c++) GradientElement(Np, d->Dr, d->Ds, d->geo + c * HOFLOW_GEO_SIZE, u + c * Np, gx + c * Np, gy + c * Np);
}

/* Eq. (28) on owned element e:
 *   Au = J M ( -div[grad u + Lvec] - sum_f (sJ/J) LIFT_f [ n.[[grad u]]/2 + tau [[u]] - n.Lvec^- ] + lambda u ),
 *   Lvec = (1/2) sum_f n_f (sJ/J)_f LIFT_f [[u]]_f,   [[w]] = w^+ - w^-.
 * Boundary faces use mirror states: Dirichlet u+ = 2g - u-, grad u+ = grad u-; Neumann u+ = u-,
 * n.grad u+ = 2h - n.grad u-. `base` is the offset of the element's nodes in u, gx, gy;
 * with `isolated` the exterior of interior faces is zero (diagonal blocks). */
HOFLOW_INLINE void ApplyElement(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, int base, int isolated, const double *restrict u, const double *restrict gx, const double *restrict gy, const double *restrict bc_data, double *restrict Au)
{
  const int     NfNfp = Nfaces * Nfp;
  const double *g     = d->geo + d->elem_cell[e] * HOFLOW_GEO_SIZE;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY], J = g[HOFLOW_GEO_J];
  const int    *vP   = d->vmapP + e * NfNfp;
  const double *LIFT = d->LIFT;
  double        du[NFACE_NODE_MAX], dgn[NFACE_NODE_MAX], wx[NFACE_NODE_MAX], wy[NFACE_NODE_MAX];
  double        Lx[NP_MAX], Ly[NP_MAX], qr[NP_MAX], qs[NP_MAX], r[NP_MAX];

  /* jumps of u and of the normal derivative at every face node */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
    const int     type = d->face_type[e * Nfaces + f];
    for (int i = 0; i < Nfp; i++) {
      const int    n = f * Nfp + i, idM = base + d->face_nodes[n];
      const double uM = u[idM], gnM = nx * gx[idM] + ny * gy[idM];
      const double bcv = bc_data ? bc_data[e * NfNfp + n] : 0.0;
      double       ju, jg;
      if (type == HOFLOW_FACE_INTERIOR) {
        const double uP  = isolated ? 0.0 : u[vP[n]];
        const double gnP = isolated ? 0.0 : nx * gx[vP[n]] + ny * gy[vP[n]];
        ju               = uP - uM;
        jg               = gnP - gnM;
      } else if (type == HOFLOW_FACE_DIRICHLET) {
        ju = 2.0 * (bcv - uM);
        jg = 0.0;
      } else {
        ju = 0.0;
        jg = 2.0 * (bcv - gnM);
      }
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

HOFLOW_INLINE void ApplyAll(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au)
{
  for (int e = 0; e < d->K; e++) ApplyElement(d, Np, Nfp, Nfaces, e, d->elem_cell[e] * Np, 0, u, gx, gy, bc_data, Au + e * Np);
}

HOFLOW_INLINE void BlockElement(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, double *block)
{
  double u[NP_MAX], gx[NP_MAX], gy[NP_MAX], col[NP_MAX];
  for (int j = 0; j < Np; j++) {
    for (int i = 0; i < Np; i++) u[i] = (i == j);
    GradientElement(Np, d->Dr, d->Ds, d->geo + d->elem_cell[e] * HOFLOW_GEO_SIZE, u, gx, gy);
    ApplyElement(d, Np, Nfp, Nfaces, e, 0, 1, u, gx, gy, NULL, col);
    for (int i = 0; i < Np; i++) block[i * Np + j] = col[i];
  }
}

/* Instantiate for triangles (Nfaces 3, Np (N+1)(N+2)/2) and quadrilaterals (Nfaces 4, Np (N+1)^2). */
#define HOFLOW_DISPATCH(d, CALL)                                                                                                     \
  do {                                                                                                                               \
    switch ((d)->Nfaces * 100 + (d)->N) {                                                                                            \
      HOFLOW_CASE(CALL, 1)                                                                                                           \
      HOFLOW_CASE(CALL, 2) HOFLOW_CASE(CALL, 3) HOFLOW_CASE(CALL, 4) HOFLOW_CASE(CALL, 5)                                            \
          HOFLOW_CASE(CALL, 6) HOFLOW_CASE(CALL, 7) HOFLOW_CASE(CALL, 8) HOFLOW_CASE(CALL, 9) HOFLOW_CASE(CALL, 10) default : break; \
    }                                                                                                                                \
  } while (0)
#define HOFLOW_CASE(CALL, NN)                       \
  case 300 + NN:                                    \
    CALL(((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3); \
    break;                                          \
  case 400 + NN:                                    \
    CALL(((NN) + 1) * ((NN) + 1), (NN) + 1, 4);     \
    break;

void IPDGGradientHost(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
#define CALL_GRADIENT(NP, NFP, NF) GradientAll(d, NP, u, gx, gy)
  HOFLOW_DISPATCH(d, CALL_GRADIENT);
#undef CALL_GRADIENT
}

void IPDGApplyHost(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au)
{
#define CALL_APPLY(NP, NFP, NF) ApplyAll(d, NP, NFP, NF, u, gx, gy, bc_data, Au)
  HOFLOW_DISPATCH(d, CALL_APPLY);
#undef CALL_APPLY
}

void IPDGElementBlockHost(const IPDGKernelData *d, int e, double *block)
{
#define CALL_BLOCK(NP, NFP, NF) BlockElement(d, NP, NFP, NF, e, block)
  HOFLOW_DISPATCH(d, CALL_BLOCK);
#undef CALL_BLOCK
}

double IPDGGradientFlopsPerElement(int Np)
{
  return 4.0 * Np * Np + 6.0 * Np;
}

double IPDGApplyFlopsPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  return 6.0 * Np * Np + 6.0 * Np * nf + 20.0 * nf + 10.0 * Np;
}

double IPDGGradientBytesPerElement(int Np)
{
  return 8.0 * (3.0 * Np + HOFLOW_GEO_SIZE - 1);
}

double IPDGApplyBytesPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* u, gx, gy on the element and across its faces, Au; geometry, trace indices, face data */
  return 8.0 * (4.0 * Np + 3.0 * nf + HOFLOW_SGEO_SIZE * Nfaces + HOFLOW_GEO_SIZE) + 4.0 * (nf + Nfaces + 1);
}
