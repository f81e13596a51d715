// CUDA twins of the flux-reconstruction kernels (src/kernels/fr.c, hoflow/kernels/fr.h) on quadrilaterals and
// hexahedra. Every thread runs the host's point routines (one solution point or one face point of one element), so
// the arithmetic and its order are the host's (up to the contraction of a*b + c into one fused multiply-add):
//
//   volume kernel  E elements a thread block: their values to shared memory (coalesced); one thread a solution point
//                  forms the transformed flux Fh into shared memory (step 1); after a barrier one thread a point sums
//                  the flux divergence along its lines (step 2, sum factorization: dim n1 terms a point, written once
//                  to rhs, coalesced) and one thread a face point interpolates the trace u-, Fh^D (step 3)
//   face kernel    E elements a thread block: one thread a face point forms the jump Fh^I - Fh^D into shared memory
//                  from the traces (the owned neighbour's trace, a halo neighbour's line in the local array, or the
//                  boundary state; step 4); after a barrier one thread a solution point adds the corrections of its
//                  2 dim line ends and scales by -1/J (step 5)
//   wave speed     one warp an element (a max over its points: exact, so equal to the host's)
//
// The kernels are compiled per dimension and order (N = 1..8 of the Euler equations: the loops' bounds, strides and
// divisions are constants after inlining, FRSizes) with a run-time fallback (higher orders, linear advection). E, the elements a thread block, defaults to about 256
// solution points a block (FRCUDAElementsPerBlock; -fr_elements_per_block overrides it), fewer if the shared memory
// of a group passes 96 KiB (two blocks an SM). tests/unit/test_fr_kernels.c compares each with its host twin.
#include <cuda_runtime.h>
#include <hoflow/kernels/fr.h>
#include "element_groups.h"
#include "fr_sizes.h"

#define FR_THREADS 256

// ---- begin host-checked kernels (scripts/check-fr-cuda-host.sh compiles what follows, to the end marker, as host C++)
// The kernel data is a __grid_constant__ parameter: the point routines read it through a pointer without a copy
// of the struct to each thread's local memory.
template <int DIM, int N1>
__global__ void __launch_bounds__(FR_THREADS) FRVolumeKernel(const __grid_constant__ FRKernelData d, int E, const double *__restrict__ u, double *__restrict__ rhs, double *__restrict__ tr)
{
  extern __shared__ double sm[];
  const FRSizes            z  = FRSizesFor<DIM, N1>(&d);
  const int                Np = z.Np, s = z.nv * Np, Nfq = z.Nfaces * z.nfp, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *us = sm, *Fs = sm + (size_t)E * s; // [E][nv Np] the values, [E][dim nv Np] the transformed fluxes
  const double            *ug = u + (size_t)e0 * s;
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) us[it] = ug[it];
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRPointFlux(&d, z, e0 + el, i, us + (size_t)el * s, Fs + (size_t)el * z.dim * s);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRPointDivergence(&d, z, i, Fs + (size_t)el * z.dim * s, rhs + (size_t)(e0 + el) * s);
  }
  for (int it = threadIdx.x; it < Eb * Nfq; it += blockDim.x) {
    const int el = it / Nfq, p = it % Nfq;
    FRTracePoint(&d, z, p, us + (size_t)el * s, Fs + (size_t)el * z.dim * s, tr + (size_t)(e0 + el) * 2 * z.nv * Nfq);
  }
}

template <int DIM, int N1>
__global__ void __launch_bounds__(FR_THREADS) FRFaceKernel(const __grid_constant__ FRKernelData d, int E, const double *__restrict__ ul, const double *__restrict__ tr, double *__restrict__ rhs)
{
  extern __shared__ double jump[]; // [E][nv Nfq]
  const FRSizes            z  = FRSizesFor<DIM, N1>(&d);
  const int                Np = z.Np, s = z.nv * Np, Nfq = z.Nfaces * z.nfp, g0 = blockIdx.x * E, Eb = min(E, FRFaceCount(&d) - g0);
  for (int it = threadIdx.x; it < Eb * Nfq; it += blockDim.x) {
    const int el = it / Nfq, p = it % Nfq;
    FRFacePointJump(&d, z, FRFaceElement(&d, g0 + el), p, ul, tr, jump + (size_t)el * z.nv * Nfq);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np, e = FRFaceElement(&d, g0 + el);
    FRPointCorrect(&d, z, e, i, jump + (size_t)el * z.nv * Nfq, rhs + (size_t)e * s);
  }
}

// ---- end host-checked kernels

// One warp an element: the largest speed / h over its points, -1 if a point is not physical (FRWaveSpeedElement).
// Every lane reaches the shuffles (no early return), as the emulation's warp functions need (tests/emu).
__global__ void FRWaveSpeedKernel(const __grid_constant__ FRKernelData d, const double *__restrict__ u, const double *__restrict__ h, double *__restrict__ speed)
{
  const int lane = threadIdx.x % 32, e = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32);
  double    s   = 0;
  int       bad = 0;
  if (e < d.K)
    for (int i = lane; i < d.Np; i += 32) {
      const double c = FRPointSpeedOverH(&d, e, i, u, h[e]); // Navier–Stokes: with the diffusive part
      if (c < 0)
        bad = 1;
      else
        s = fmax(s, c);
    }
  for (int o = 16; o > 0; o /= 2) s = fmax(s, __shfl_xor_sync(0xffffffffu, s, o));
  bad = __any_sync(0xffffffffu, bad);
  if (lane == 0 && e < d.K) speed[e] = bad ? -1.0 : s;
}

extern "C" int FRCUDAElementsPerBlock(int dim, int n1)
{
  const int Np = dim == 2 ? n1 * n1 : n1 * n1 * n1;
  return Np >= FR_THREADS ? 1 : FR_THREADS / Np;
}

// The elements of a group and its shared memory (cuda/element_groups.h)
static int FRGroup(const FRKernelData *d, const void *kernel, int E, size_t per_element, int *Eg, size_t *shared)
{
  return HoflowElementGroup(kernel, d->K, E, FRCUDAElementsPerBlock(d->dim, d->n1), per_element, Eg, shared);
}

template <int DIM, int N1>
static int FRVolumeLaunch(const FRKernelData *d, int E, const double *u, double *rhs, double *tr)
{
  size_t    shared;
  const int err = FRGroup(d, (const void *)FRVolumeKernel<DIM, N1>, E, (size_t)(1 + d->dim) * d->nv * d->Np, &E, &shared);
  if (err) return err;
  FRVolumeKernel<DIM, N1><<<(d->K + E - 1) / E, FR_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, u, rhs, tr);
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
static int FRFaceLaunch(const FRKernelData *d, int E, const double *ul, const double *tr, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRFaceKernel<DIM, N1>, FRFaceCount(d), E, FRCUDAElementsPerBlock(d->dim, d->n1), (size_t)d->nv * d->Nfaces * d->nfp, &E, &shared);
  if (err) return err;
  FRFaceKernel<DIM, N1><<<(FRFaceCount(d) + E - 1) / E, FR_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, ul, tr, rhs);
  return (int)cudaGetLastError();
}

extern "C" int FRVolumeCUDA(const FRKernelData *d, int E, const double *u, double *rhs, double *tr)
{
  if (d->K <= 0) return 0;
  FR_DISPATCH(FRVolumeLaunch, d, E, u, rhs, tr)
}

extern "C" int FRFaceCUDA(const FRKernelData *d, int E, const double *ul, const double *tr, double *rhs)
{
  if (FRFaceCount(d) <= 0) return 0;
  FR_DISPATCH(FRFaceLaunch, d, E, ul, tr, rhs)
}

extern "C" int FRWaveSpeedCUDA(const FRKernelData *d, const double *u, const double *h, double *speed)
{
  const int warps = 128 / 32;
  if (d->K <= 0) return 0;
  FRWaveSpeedKernel<<<(d->K + warps - 1) / warps, 128, 0, (cudaStream_t)d->stream>>>(*d, u, h, speed);
  return (int)cudaGetLastError();
}
