// CUDA twins of the batched halo exchange's pack and unpack (src/kernels/halo.c, hoflow/kernels/halo.h):
// one thread per (node, array) pair, consecutive threads on consecutive buffer entries. No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/halo.h>

__global__ static void HaloGatherKernel(int n, int m, const int *__restrict__ index, HaloArrays a, double *__restrict__ buffer)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long)n * m) return;
  const int j = (int)(t / n), k = (int)(t % n);
  buffer[t] = a.in[k][index[j]];
}

__global__ static void HaloScatterKernel(int n, int m, const int *__restrict__ index, const double *__restrict__ buffer, HaloArrays a)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long)n * m) return;
  const int j = (int)(t / n), k = (int)(t % n);
  a.out[k][index[j]] = buffer[t];
}

extern "C" int HaloGatherCUDA(int n, int m, const int *index, HaloArrays a, double *buffer, void *stream)
{
  const long total = (long)n * m;
  if (total) HaloGatherKernel<<<(unsigned)((total + 255) / 256), 256, 0, (cudaStream_t)stream>>>(n, m, index, a, buffer);
  return (int)cudaGetLastError();
}

extern "C" int HaloScatterCUDA(int n, int m, const int *index, const double *buffer, HaloArrays a, void *stream)
{
  const long total = (long)n * m;
  if (total) HaloScatterKernel<<<(unsigned)((total + 255) / 256), 256, 0, (cudaStream_t)stream>>>(n, m, index, buffer, a);
  return (int)cudaGetLastError();
}

