/* The vector work of one Chebyshev/Jacobi smoother iteration (solver/chebyjacobi.c), fused into one
 * kernel: host twin in src/kernels/chebyshev.c, CUDA twin in cuda/chebyshev.cu. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Entry-wise over n entries (Saad, Iterative Methods, Alg. 12.1, with w = A x or A d computed before):
 *   mode 0 (first, zero guess)     r = b,      d = c dinv r,          x = d
 *   mode 1 (first, nonzero guess)  r = b - w,  d = c dinv r,          x = x + d
 *   mode 2 (further iterations)    r = r - w,  d = a d + c dinv r,    x = x + d
 * (b is read in modes 0 and 1, w in modes 1 and 2; the others may be NULL). */
void ChebyshevUpdateHost(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x);
int  ChebyshevUpdateCUDA(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x, void *stream);
/* The right-hand side of the lambda_max estimate (solver/chebyjacobi.c): b[i] for the global index
 * start + i (EigestRHSEntry), written where b lies, so that a CUDA vector is not filled on the host and
 * uploaded (a host array of the level's size and its copy, at every level of pMG's set-up). */
void EigestRHSHost(int n, int start, double *b);
int  EigestRHSCUDA(int n, int start, double *b, void *stream);

#ifdef __cplusplus
}
#endif

/* Entry i of ChebyshevUpdateHost/CUDA. */
HOFLOW_HD void ChebyshevUpdateEntry(int i, int mode, double a, double c, const double *HOFLOW_RESTRICT b, const double *HOFLOW_RESTRICT w, const double *HOFLOW_RESTRICT dinv, double *HOFLOW_RESTRICT r, double *HOFLOW_RESTRICT d, double *HOFLOW_RESTRICT x)
{
  const double ri = (mode == 2 ? r[i] : b[i]) - (mode == 0 ? 0.0 : w[i]);
  const double di = (mode == 2 ? a * d[i] : 0.0) + c * dinv[i] * ri;
  r[i]            = ri;
  d[i]            = di;
  x[i]            = (mode == 0 ? 0.0 : x[i]) + di;
}

/* A hash of the global index g in [-1, 1] (steps of 1e-6): the same on any number of ranks and on either
 * backend; the product and the sum rounded separately on the device too (no fused multiply-add), so the
 * CUDA vector holds the host's bits. */
HOFLOW_HD double EigestRHSEntry(int g)
{
  unsigned int h = (unsigned int)(g + 1);
  h              = ((h >> 16) ^ h) * 0x45d9f3bu;
  h              = ((h >> 16) ^ h) * 0x45d9f3bu;
  h              = (h >> 16) ^ h;
#if defined(__CUDA_ARCH__)
  return __dadd_rn(__dmul_rn((double)(h % 2000001u), 1e-6), -1.0);
#else
  return (double)(h % 2000001u) * 1e-6 - 1.0;
#endif
}
