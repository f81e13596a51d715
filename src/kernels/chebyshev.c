/* Host twin of the Chebyshev/Jacobi smoother's fused vector update (hoflow/kernels/chebyshev.h);
 * the CUDA twin is cuda/chebyshev.cu. */
#include <hoflow/kernels/chebyshev.h>

void ChebyshevUpdateHost(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x)
{
  for (int i = 0; i < n; i++) ChebyshevUpdateEntry(i, mode, a, c, b, w, dinv, r, d, x);
}

void EigestRHSHost(int n, int start, double *b)
{
  for (int i = 0; i < n; i++) b[i] = EigestRHSEntry(start + i);
}
