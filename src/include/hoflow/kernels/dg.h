/* Element-wise DG kernels on one block of elements of one shape: mass and inverse mass, cubature
 * integrals against the basis (right-hand sides), squared L2 errors, and element-wise dense blocks
 * (p-multigrid transfers). Host kernels in src/kernels/dg.c, CUDA twins in cuda/dg.cu, both over
 * the element routines below. */
#pragma once

#include <hoflow/kernels/common.h>
#include <hoflow/pointwise/closed_form.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, Np, Nq, K; /* nodes and cubature points per element, the block's owned elements */
  int           node0;          /* node index of the block's first element in the arrays */
  const double *geo;            /* [K*HOFLOW_GEO_SIZE(dim)], J used */
  const double *M, *Minv;       /* [Np*Np] reference mass matrix and inverse */
  const double *Iq, *wq;        /* [Nq*Np] interpolation to cubature points, [Nq] weights */
  /* curved blocks (hoflow/mesh.h), whose Jacobian varies inside the element: */
  const double *wJq;   /* [K*Nq] cubature weight times J at every cubature point */
  const double *Minve; /* [K*Np*Np] inverse element mass matrices (built at the first inverse-mass operator) */
  double       *work;  /* CUDA: [K*Nq] scratch */
  /* sum-factorized mass (quadrilaterals and hexahedra, hoflow/kernels/ipdg_tensor.h): N1 = N + 1 points a
   * direction, 0 on other shapes; [N1*N1] row-major 1D factors: the exact mass M1 and its inverse M1inv,
   * and (curved blocks, whose cubature is then the tensor Gauss rule) B1[q*N1+k] = l_k(g_q) and B1T */
  int           N1;
  const double *M1, *M1inv, *B1, *B1T;
  void         *stream; /* CUDA stream; NULL: default */
} DGKernelData;

/* Arrays u, Mu, b: owned arrays (element e at node0 + e Np); fq, exact_q: block-relative [K*Nq]; err2: [K]. */
void DGMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu);
void DGWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b); /* b += (l_i, f) */
void DGErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2);
int  DGMassCUDA(const DGKernelData *d, int inverse, const double *u, double *Mu);
int  DGWeightedIntegralCUDA(const DGKernelData *d, const double *fq, double *b);
int  DGErrorCUDA(const DGKernelData *d, const double *u, const double *exact_q, double *err2);
/* fq[e*Nq + q] = cf at the cubature points of the block's affine elements, x_q = sum_v Aq[q*nv + v] X_v
 * from the vertices X (element e's at vertices + e*vstride, vertex v at v*dim), with Aq the affine map of
 * hoflow/geom.h at the cubature points (DGDiscAffineCubatureWeights); the input of the integral and error
 * kernels above, made where the vector lies. */
void DGClosedFormAtCubatureHost(const DGKernelData *d, int nv, int vstride, const double *Aq, const double *vertices, const HoflowClosedForm *cf, double *fq);
int  DGClosedFormAtCubatureCUDA(const DGKernelData *d, int nv, int vstride, const double *Aq, const double *vertices, const HoflowClosedForm *cf, double *fq);

/* The same on a block of curved elements: mass Iq^T diag(w J) Iq and its inverse (Minve), integrals
 * and errors with w J at every cubature point. */
void DGCurvedMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu);
void DGCurvedWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b);
void DGCurvedErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2);
int  DGCurvedMassCUDA(const DGKernelData *d, int inverse, const double *u, double *Mu);
int  DGCurvedWeightedIntegralCUDA(const DGKernelData *d, const double *fq, double *b);
int  DGCurvedErrorCUDA(const DGKernelData *d, const double *u, const double *exact_q, double *err2);

/* Element-wise dense blocks: out[e*m + i] = sum_j A[i*n + j] in[e*n + j] for the K elements
 * (p-multigrid prolongation A = interpolation, restriction A = its transpose). */
void DGBlockApplyHost(int K, int m, int n, const double *A, const double *in, double *out);
int  DGBlockApplyCUDA(int K, int m, int n, const double *A, const double *in, double *out, void *stream);

#ifdef __cplusplus
}
#endif

/* out = J M u (inverse: out = M^{-1} u / J) on element e. */
HOFLOW_HD void DGMassElement(const DGKernelData *d, const int Np, int e, int inverse, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT out)
{
  const double  J = d->geo[e * HOFLOW_GEO_SIZE(d->dim) + HOFLOW_GEO_J(d->dim)];
  const double *A = inverse ? d->Minv : d->M, s = inverse ? 1.0 / J : J;
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += A[i * Np + j] * u[j];
    out[i] = s * a;
  }
}

/* b_i += J sum_q w_q l_i(x_q) f_q: the right-hand side (l_i, f) by cubature. */
HOFLOW_HD void DGWeightedIntegralElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT fq, double *HOFLOW_RESTRICT b)
{
  const double J = d->geo[e * HOFLOW_GEO_SIZE(d->dim) + HOFLOW_GEO_J(d->dim)];
  for (int i = 0; i < Np; i++) {
    double a = 0;
    for (int q = 0; q < Nq; q++) a += d->wq[q] * d->Iq[q * Np + i] * fq[q];
    b[i] += J * a;
  }
}

/* The closed form at the cubature points of affine element e (DGClosedFormAtCubatureHost). */
HOFLOW_HD void DGClosedFormAtCubatureElement(const DGKernelData *d, const int Nq, int nv, const double *HOFLOW_RESTRICT Aq, const double *HOFLOW_RESTRICT X, const HoflowClosedForm *cf, double *HOFLOW_RESTRICT fq)
{
  const int dim = d->dim;
  for (int q = 0; q < Nq; q++) {
    double x[3] = {0, 0, 0};
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < dim; i++) x[i] += Aq[q * nv + v] * X[v * dim + i];
    fq[q] = HoflowClosedFormValue(cf, x);
  }
}

/* J sum_q w_q (u(x_q) - exact_q)^2: the element's squared L2 error by cubature. */
HOFLOW_HD double DGErrorElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT exact_q)
{
  const double J = d->geo[e * HOFLOW_GEO_SIZE(d->dim) + HOFLOW_GEO_J(d->dim)];
  double       s = 0;
  for (int q = 0; q < Nq; q++) {
    double uq = 0;
    for (int i = 0; i < Np; i++) uq += d->Iq[q * Np + i] * u[i];
    s += d->wq[q] * (uq - exact_q[q]) * (uq - exact_q[q]);
  }
  return J * s;
}

/* Curved element e: out = Iq^T diag(w J) Iq u (w: scratch of Nq at stride ws), or out = Minve_e u. */
HOFLOW_HD void DGCurvedMassElement(const DGKernelData *d, const int Np, const int Nq, int e, int inverse, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT out, double *HOFLOW_RESTRICT w, const int ws)
{
  if (inverse) {
    const double *A = d->Minve + (size_t)e * Np * Np;
    for (int i = 0; i < Np; i++) {
      double a = 0;
      for (int j = 0; j < Np; j++) a += A[i * Np + j] * u[j];
      out[i] = a;
    }
    return;
  }
  for (int q = 0; q < Nq; q++) {
    double a = 0;
    for (int j = 0; j < Np; j++) a += d->Iq[q * Np + j] * u[j];
    w[(size_t)q * ws] = d->wJq[(size_t)e * Nq + q] * a;
  }
  for (int i = 0; i < Np; i++) out[i] = 0;
  for (int q = 0; q < Nq; q++) {
    const double wq = w[(size_t)q * ws];
    for (int i = 0; i < Np; i++) out[i] += d->Iq[q * Np + i] * wq;
  }
}

/* b_i += sum_q w_q J_q l_i(x_q) f_q on curved element e. */
HOFLOW_HD void DGCurvedWeightedIntegralElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT fq, double *HOFLOW_RESTRICT b)
{
  const double *wJ = d->wJq + (size_t)e * Nq;
  for (int q = 0; q < Nq; q++) {
    const double c = wJ[q] * fq[q];
    for (int i = 0; i < Np; i++) b[i] += d->Iq[q * Np + i] * c;
  }
}

/* sum_q w_q J_q (u(x_q) - exact_q)^2 on curved element e. */
HOFLOW_HD double DGCurvedErrorElement(const DGKernelData *d, const int Np, const int Nq, int e, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT exact_q)
{
  const double *wJ = d->wJq + (size_t)e * Nq;
  double        s  = 0;
  for (int q = 0; q < Nq; q++) {
    double uq = 0;
    for (int i = 0; i < Np; i++) uq += d->Iq[q * Np + i] * u[i];
    s += wJ[q] * (uq - exact_q[q]) * (uq - exact_q[q]);
  }
  return s;
}
