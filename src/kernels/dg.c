/* Host reference kernels of the element-wise DG operations (mass, inverse mass, cubature
 * integrals, errors, element-wise dense blocks); the CUDA twins in cuda/dg.cu run the same element
 * routines (hoflow/kernels/dg.h) one element per thread. */
#include <hoflow/kernels/dg.h>

void DGMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu)
{
  for (int e = 0; e < d->K; e++) DGMassElement(d, d->Np, e, inverse, u + d->node0 + e * d->Np, Mu + d->node0 + e * d->Np);
}

void DGWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b)
{
  for (int e = 0; e < d->K; e++) DGWeightedIntegralElement(d, d->Np, d->Nq, e, fq + e * d->Nq, b + d->node0 + e * d->Np);
}

void DGErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2)
{
  for (int e = 0; e < d->K; e++) err2[e] = DGErrorElement(d, d->Np, d->Nq, e, u + d->node0 + e * d->Np, exact_q + e * d->Nq);
}

void DGClosedFormAtCubatureHost(const DGKernelData *d, int nv, int vstride, const double *Aq, const double *vertices, const HoflowClosedForm *cf, double *fq)
{
  for (int e = 0; e < d->K; e++) DGClosedFormAtCubatureElement(d, d->Nq, nv, Aq, vertices + (size_t)e * vstride, cf, fq + (size_t)e * d->Nq);
}

void DGCurvedMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu)
{
  double w[d->Nq];
  for (int e = 0; e < d->K; e++) DGCurvedMassElement(d, d->Np, d->Nq, e, inverse, u + d->node0 + e * d->Np, Mu + d->node0 + e * d->Np, w, 1);
}

void DGCurvedWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b)
{
  for (int e = 0; e < d->K; e++) DGCurvedWeightedIntegralElement(d, d->Np, d->Nq, e, fq + e * d->Nq, b + d->node0 + e * d->Np);
}

void DGCurvedErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2)
{
  for (int e = 0; e < d->K; e++) err2[e] = DGCurvedErrorElement(d, d->Np, d->Nq, e, u + d->node0 + e * d->Np, exact_q + e * d->Nq);
}

void DGBlockApplyHost(int K, int m, int n, const double *A, const double *in, double *out)
{
  for (int e = 0; e < K; e++)
    for (int i = 0; i < m; i++) {
      double a = 0;
      for (int j = 0; j < n; j++) a += A[i * n + j] * in[e * n + j];
      out[e * m + i] = a;
    }
}
