// CUDA twins of the gathered CG1 transfer's index kernels (src/kernels/gather.c, hoflow/kernels/gather.h):
// one thread per output entry, each sum in its index list's order (the host's), so the bits match.
#include <cuda_runtime.h>
#include <hoflow/kernels/gather.h>

__global__ static void GatherSumKernel(int n, const int *__restrict__ ptr, const int *__restrict__ idx, const double *__restrict__ src, double *__restrict__ dst)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = 0;
  for (int j = ptr[i]; j < ptr[i + 1]; j++) s += src[idx[j]];
  dst[i] = s;
}

// no __restrict__ on y and w: w may be y
__global__ static void GatherAddKernel(int n, const int *__restrict__ map, const double *__restrict__ src, const double *y, double *w)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = (y ? y[i] : 0.0) + src[map[i]];
}

extern "C" int GatherSumCUDA(int n, const int *ptr, const int *idx, const double *src, double *dst, void *stream)
{
  if (n > 0) GatherSumKernel<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, ptr, idx, src, dst);
  return (int)cudaGetLastError();
}

extern "C" int GatherAddCUDA(int n, const int *map, const double *src, const double *y, double *w, void *stream)
{
  if (n > 0) GatherAddKernel<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(n, map, src, y, w);
  return (int)cudaGetLastError();
}
