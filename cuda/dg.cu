// CUDA twins of the element-wise DG kernels (src/kernels/dg.c): the same element routines
// (hoflow/kernels/dg.h), one element per thread. These run once per solve (right-hand side, error)
// or inside the inverse-mass preconditioner; they are not tuned like the SIPDG kernels.
#include <cuda_runtime.h>
#include <hoflow/kernels/dg.h>

__global__ void MassKernel(const DGKernelData d, int inverse, const double *u, double *Mu)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DGMassElement(&d, d.Np, e, inverse, u + d.node0 + e * d.Np, Mu + d.node0 + e * d.Np);
}

__global__ void WeightedIntegralKernel(const DGKernelData d, const double *fq, double *b)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DGWeightedIntegralElement(&d, d.Np, d.Nq, e, fq + e * d.Nq, b + d.node0 + e * d.Np);
}

__global__ void ErrorKernel(const DGKernelData d, const double *u, const double *exact_q, double *err2)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) err2[e] = DGErrorElement(&d, d.Np, d.Nq, e, u + d.node0 + e * d.Np, exact_q + e * d.Nq);
}

__global__ void ClosedFormAtCubatureKernel(const DGKernelData d, int nv, int vstride, const double *Aq, const double *vertices, const HoflowClosedForm cf, double *fq)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DGClosedFormAtCubatureElement(&d, d.Nq, nv, Aq, vertices + (size_t)e * vstride, &cf, fq + (size_t)e * d.Nq);
}

__global__ void CurvedMassKernel(const DGKernelData d, int inverse, const double *u, double *Mu)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DGCurvedMassElement(&d, d.Np, d.Nq, e, inverse, u + d.node0 + e * d.Np, Mu + d.node0 + e * d.Np, d.work + e, d.K);
}

__global__ void CurvedWeightedIntegralKernel(const DGKernelData d, const double *fq, double *b)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DGCurvedWeightedIntegralElement(&d, d.Np, d.Nq, e, fq + e * d.Nq, b + d.node0 + e * d.Np);
}

__global__ void CurvedErrorKernel(const DGKernelData d, const double *u, const double *exact_q, double *err2)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) err2[e] = DGCurvedErrorElement(&d, d.Np, d.Nq, e, u + d.node0 + e * d.Np, exact_q + e * d.Nq);
}

static int Blocks(int n)
{
  return (n + 127) / 128;
}

extern "C" int DGMassCUDA(const DGKernelData *d, int inverse, const double *u, double *Mu)
{
  if (d->K) MassKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, inverse, u, Mu);
  return (int)cudaGetLastError();
}

extern "C" int DGWeightedIntegralCUDA(const DGKernelData *d, const double *fq, double *b)
{
  if (d->K) WeightedIntegralKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, fq, b);
  return (int)cudaGetLastError();
}

extern "C" int DGErrorCUDA(const DGKernelData *d, const double *u, const double *exact_q, double *err2)
{
  if (d->K) ErrorKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, exact_q, err2);
  return (int)cudaGetLastError();
}

extern "C" int DGClosedFormAtCubatureCUDA(const DGKernelData *d, int nv, int vstride, const double *Aq, const double *vertices, const HoflowClosedForm *cf, double *fq)
{
  if (d->K) ClosedFormAtCubatureKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, nv, vstride, Aq, vertices, *cf, fq);
  return (int)cudaGetLastError();
}

// Curved blocks: the mass through the cubature (scratch: the elements of the block interleaved), its
// inverse from the stored element inverses, integrals and errors with w J at every cubature point.
extern "C" int DGCurvedMassCUDA(const DGKernelData *d, int inverse, const double *u, double *Mu)
{
  if (d->K) CurvedMassKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, inverse, u, Mu);
  return (int)cudaGetLastError();
}

extern "C" int DGCurvedWeightedIntegralCUDA(const DGKernelData *d, const double *fq, double *b)
{
  if (d->K) CurvedWeightedIntegralKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, fq, b);
  return (int)cudaGetLastError();
}

extern "C" int DGCurvedErrorCUDA(const DGKernelData *d, const double *u, const double *exact_q, double *err2)
{
  if (d->K) CurvedErrorKernel<<<Blocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, exact_q, err2);
  return (int)cudaGetLastError();
}

// One thread per (element, output node); consecutive threads write consecutive entries.
__global__ void BlockApplyKernel(int K, int m, int n, const double *__restrict__ A, const double *__restrict__ in, double *__restrict__ out)
{
  const long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long)K * m) return;
  const int     e = (int)(idx / m), i = (int)(idx % m);
  const double *x = in + (long)e * n, *a = A + i * n;
  double        s = 0;
  for (int j = 0; j < n; j++) s += __ldg(a + j) * x[j];
  out[idx] = s;
}

extern "C" int DGBlockApplyCUDA(int K, int m, int n, const double *A, const double *in, double *out, void *stream)
{
  const long total = (long)K * m;
  if (total) BlockApplyKernel<<<(unsigned)((total + 255) / 256), 256, 0, (cudaStream_t)stream>>>(K, m, n, A, in, out);
  return (int)cudaGetLastError();
}
