// CUDA twin of the continuous spectral-element operator (src/kernels/sem.c, hoflow/kernels/sem.h):
// one thread block per element, one thread per GLL node; the element's values, the 1D derivative
// matrix and the fluxes t_a in shared memory; each thread differentiates along every direction at its
// node, applies G, and after a barrier takes the transposed derivatives of the fluxes; the result is
// added atomically to the local array (nodes on vertices, edges and faces are shared by elements).
#include <cuda_runtime.h>
#include <hoflow/kernels/sem.h>

template <int N1, int DIM>
__global__ void __launch_bounds__(DIM == 2 ? N1 * N1 : N1 * N1 * N1) SEMApplyKernel(const SEMKernelData d, const double *__restrict__ u, double *__restrict__ Au)
{
  constexpr int    Np = DIM == 2 ? N1 * N1 : N1 * N1 * N1, npair = DIM * (DIM + 1) / 2;
  __shared__ double su[Np], st[DIM][Np], sD[N1 * N1];
  const int         e = blockIdx.x, i = threadIdx.x;
  const int         ix[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)}, stride[3] = {1, N1, N1 * N1};
  const int         g = d.gather[(size_t)e * Np + i];
  const double      ui = d.dirichlet && d.dirichlet[g] ? 0.0 : u[g];
  double            r[DIM], out;

  for (int k = i; k < N1 * N1; k += Np) sD[k] = d.D1[k];
  su[i] = ui;
  __syncthreads();
  for (int a = 0; a < DIM; a++) { /* (D_a u)_i */
    const int base = i - ix[a] * stride[a];
    double    s    = 0;
#pragma unroll
    for (int k = 0; k < N1; k++) s += sD[ix[a] * N1 + k] * su[base + k * stride[a]];
    r[a] = s;
  }
  {
    const double *G = d.G + ((size_t)e * Np + i) * npair;
    for (int a = 0; a < DIM; a++) {
      double s = 0;
      for (int b = 0; b < DIM; b++) s += G[SEMPair(a, b, DIM)] * r[b];
      st[a][i] = s;
    }
  }
  __syncthreads();
  out = d.lambda * d.wJ[(size_t)e * Np + i] * ui;
  for (int a = 0; a < DIM; a++) { /* (D_a^T t_a)_i */
    const int base = i - ix[a] * stride[a];
#pragma unroll
    for (int k = 0; k < N1; k++) out += sD[k * N1 + ix[a]] * st[a][base + k * stride[a]];
  }
  atomicAdd(Au + g, out);
}

__global__ void SEMCopyRowsKernel(int n, const int *rows, const double *x, double *y)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) y[rows[k]] = x[rows[k]];
}

#define SEM_LAUNCH(N1, DIM) SEMApplyKernel<N1, DIM><<<d->K, (DIM) == 2 ? (N1) * (N1) : (N1) * (N1) * (N1), 0, s>>>(*d, u, Au)

extern "C" int SEMApplyCUDA(const SEMKernelData *d, const double *u, double *Au, void *stream)
{
  cudaStream_t s = (cudaStream_t)stream;
  if (!d->K) return 0;
  if (!SEMCUDASupported(d->dim, d->N)) return (int)cudaErrorInvalidConfiguration;
  if (d->dim == 2) {
    switch (d->N) {
    case 1: SEM_LAUNCH(2, 2); break;
    case 2: SEM_LAUNCH(3, 2); break;
    case 3: SEM_LAUNCH(4, 2); break;
    case 4: SEM_LAUNCH(5, 2); break;
    case 5: SEM_LAUNCH(6, 2); break;
    case 6: SEM_LAUNCH(7, 2); break;
    case 7: SEM_LAUNCH(8, 2); break;
    case 8: SEM_LAUNCH(9, 2); break;
    case 9: SEM_LAUNCH(10, 2); break;
    case 10: SEM_LAUNCH(11, 2); break;
    }
  } else {
    switch (d->N) {
    case 1: SEM_LAUNCH(2, 3); break;
    case 2: SEM_LAUNCH(3, 3); break;
    case 3: SEM_LAUNCH(4, 3); break;
    case 4: SEM_LAUNCH(5, 3); break;
    case 5: SEM_LAUNCH(6, 3); break;
    case 6: SEM_LAUNCH(7, 3); break;
    case 7: SEM_LAUNCH(8, 3); break;
    case 8: SEM_LAUNCH(9, 3); break;
    case 9: SEM_LAUNCH(10, 3); break;
    }
  }
  return (int)cudaGetLastError();
}

extern "C" int SEMCopyRowsCUDA(int n, const int *rows, const double *x, double *y, void *stream)
{
  if (n) SEMCopyRowsKernel<<<(n + 127) / 128, 128, 0, (cudaStream_t)stream>>>(n, rows, x, y);
  return (int)cudaGetLastError();
}
