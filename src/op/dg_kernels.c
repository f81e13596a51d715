/* Host reference kernels of the element-wise DG operations (mass, inverse mass, cubature
 * integrals, errors); the CUDA twins in cuda/dg.cu run the same element routines
 * (hoflow/kernels/element.h) one element per thread. */
#include <hoflow/kernels.h>
#include <hoflow/kernels/element.h>

void DGMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu)
{
  for (int e = 0; e < d->K; e++) MassElement(d, d->Np, e, inverse, u + e * d->Np, Mu + e * d->Np);
}

void DGWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b)
{
  for (int e = 0; e < d->K; e++) WeightedIntegralElement(d, d->Np, d->Nq, e, fq + e * d->Nq, b + e * d->Np);
}

void DGErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2)
{
  for (int e = 0; e < d->K; e++) err2[e] = ErrorElement(d, d->Np, d->Nq, e, u + e * d->Np, exact_q + e * d->Nq);
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

void ChebyshevUpdateHost(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x)
{
  for (int i = 0; i < n; i++) ChebyshevUpdateEntry(i, mode, a, c, b, w, dinv, r, d, x);
}
