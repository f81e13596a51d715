// CUDA twin of the Chebyshev/Jacobi smoother's fused vector update (src/kernels/chebyshev.c):
// the same entry routine (hoflow/kernels/chebyshev.h), one thread per entry.
#include <cuda_runtime.h>
#include <hoflow/kernels/chebyshev.h>

__global__ void ChebyshevUpdateKernel(int n, int mode, double a, double c, const double *__restrict__ b, const double *__restrict__ w, const double *__restrict__ dinv, double *__restrict__ r, double *__restrict__ d, double *__restrict__ x)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ChebyshevUpdateEntry(i, mode, a, c, b, w, dinv, r, d, x);
}

extern "C" int ChebyshevUpdateCUDA(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x, void *stream)
{
  if (n > 0) ChebyshevUpdateKernel<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, mode, a, c, b, w, dinv, r, d, x);
  return (int)cudaGetLastError();
}

__global__ void EigestRHSKernel(int n, int start, double *__restrict__ b)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = EigestRHSEntry(start + i);
}

extern "C" int EigestRHSCUDA(int n, int start, double *b, void *stream)
{
  if (n > 0) EigestRHSKernel<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, start, b);
  return (int)cudaGetLastError();
}
