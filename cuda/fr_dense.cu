// CUDA twins of the flux-reconstruction kernels with dense operator matrices (src/kernels/fr_dense.c,
// hoflow/kernels/fr_dense.h): triangles, tetrahedra, prisms, and the quadrilaterals and hexahedra of mixed meshes, one
// launch per mesh block (one shape). Every thread runs the host's point routines (one solution point or one flux
// point of one element), so the arithmetic and its order are the host's (up to the contraction of a*b + c into one
// fused multiply-add):
//
//   volume kernel  E elements a thread block: their values to shared memory (coalesced); one thread a solution point
//                  forms the transformed flux Fh into shared memory (step 1); after a barrier one thread a solution
//                  point forms the dense divergence sum_d D_d Fh_d (step 2, written once to rhs, coalesced over the
//                  points) and one thread a flux point interpolates the trace u-, Fh^D . nr (step 3) into the trace
//                  array of every owned element
//   face kernel    E elements a thread block: one thread a flux point forms the jump J |G nr| F* - Fh^D . nr into shared
//                  memory (step 4: u+ from an owned neighbour's trace, a halo neighbour's values interpolated from the
//                  local array, or the boundary state); after a barrier one thread a solution point adds the dense
//                  corrections C_f (jumps) and scales by -1/J (step 5)
//   wave speed     one warp an element (a max over its points: exact, so equal to the host's)
//
// The operator matrices (D, the face interpolations L, the corrections C) are read from global memory through the
// read-only cache: the E elements of a block read the same rows, so after the first element they come from L1. The
// kernels are compiled per shape and order for the Euler equations at N = 1..5 (FRD_DISPATCH: Np, the faces and nv
// are constants, so the dense loops have constant trip counts), with a run-time fallback (other orders, linear
// advection). E defaults to about 256 solution points a block (FRDenseCUDAElementsPerBlock; -fr_elements_per_block
// overrides it), fewer while a group's shared memory passes 96 KiB. tests/unit/test_fr_dense_kernels.c compares each
// with its host twin on a GPU, scripts/check-fr-dense-cuda-emu.sh on the CPU (tests/emu).
#include <cuda_runtime.h>
#include <hoflow/kernels/fr_dense.h>
#include "element_groups.h"
#include "fr_sizes.h"

#ifndef FRD_THREADS
#  define FRD_THREADS 256 // threads a block (the CPU emulation takes fewer: scripts/check-fr-dense-cuda-emu.sh)
#endif
#define FRD_POINTS 256 // solution points a block by default

// ---- begin emulated kernels (scripts/check-fr-dense-cuda-emu.sh runs what follows, to the end marker, on the CPU)
// The kernel data is a __grid_constant__ parameter: the point routines read it through a pointer, without a copy of
// the struct in each thread's local memory.
template <int DIM, int NP, int NF>
__global__ void __launch_bounds__(FRD_THREADS, 2) FRDenseVolumeKernel(const __grid_constant__ FRDenseKernelData d, int E, const double *__restrict__ u, double *__restrict__ rhs)
{
  extern __shared__ double frd_shared[];
  const FRDenseSizes       z  = FRDenseSizesFor<DIM, NP, NF>(&d);
  const int                Np = z.Np, s = z.nv * Np, fs = z.dim * s, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *us = frd_shared, *Fs = frd_shared + (size_t)E * s; // [E][nv Np] the values, [E][dim nv Np] the transformed fluxes
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) us[it] = u[d.dof[d.e0 + e0 + it / s] + it % s];
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRDensePointFlux(&d, z, e0 + el, i, us + (size_t)el * s, Fs + (size_t)el * fs);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRDensePointDivergence(&d, z, i, Fs + (size_t)el * fs, rhs + d.dof[d.e0 + e0 + el]);
  }
  for (int it = threadIdx.x; it < Eb * z.nfpt; it += blockDim.x) {
    const int el = it / z.nfpt, p = it % z.nfpt;
    FRDenseTracePoint(&d, z, e0 + el, p, us + (size_t)el * s, Fs + (size_t)el * fs, FRDenseTrace(&d, e0 + el));
  }
}

template <int DIM, int NP, int NF>
__global__ void __launch_bounds__(FRD_THREADS, 2) FRDenseFaceKernel(const __grid_constant__ FRDenseKernelData d, int E, const double *__restrict__ ul, double *__restrict__ rhs)
{
  extern __shared__ double frd_shared[]; // [E][nv nfpt] the jumps
  const FRDenseSizes       z  = FRDenseSizesFor<DIM, NP, NF>(&d);
  const int                Np = z.Np, js = z.nv * z.nfpt, g0 = blockIdx.x * E, Eb = min(E, FRDenseFaceCount(&d) - g0);
  for (int it = threadIdx.x; it < Eb * z.nfpt; it += blockDim.x) {
    const int el = it / z.nfpt, p = it % z.nfpt;
    FRDenseFacePointJump(&d, z, FRDenseFaceElement(&d, g0 + el), p, ul, frd_shared + (size_t)el * js);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np, e = FRDenseFaceElement(&d, g0 + el);
    FRDensePointCorrect(&d, z, e, i, frd_shared + (size_t)el * js, rhs + d.dof[d.e0 + e]);
  }
}

// One warp an element: the largest speed / h over its points, -1 if a point is not physical (FRDenseWaveSpeedElement).
// Every lane reaches the shuffles (no early return), as the emulation's warp functions need.
__global__ void FRDenseWaveSpeedKernel(const __grid_constant__ FRDenseKernelData d, const double *__restrict__ u, const double *__restrict__ h, double *__restrict__ speed)
{
  const FRDenseSizes z    = FRDenseSizesOf(&d);
  const int          lane = threadIdx.x % 32, e = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32);
  double             s    = 0;
  int                bad  = 0;
  if (e < d.K)
    for (int i = lane; i < z.Np; i += 32) {
      const double c = FRDensePointSpeedOverH(&d, z, i, u + d.dof[d.e0 + e], h[d.e0 + e]); // Navier–Stokes: with the diffusive part
      if (c < 0)
        bad = 1;
      else
        s = fmax(s, c);
    }
  for (int o = 16; o > 0; o /= 2) s = fmax(s, __shfl_xor_sync(0xffffffffu, s, o));
  bad = __any_sync(0xffffffffu, bad);
  if (lane == 0 && e < d.K) speed[d.e0 + e] = bad ? -1.0 : s;
}
// ---- end emulated kernels

extern "C" int FRDenseCUDAElementsPerBlock(int Np)
{
  return Np >= FRD_POINTS ? 1 : FRD_POINTS / Np;
}

template <int DIM, int NP, int NF>
static int FRDenseVolumeLaunch(const FRDenseKernelData *d, int E, const double *u, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRDenseVolumeKernel<DIM, NP, NF>, d->K, E, FRDenseCUDAElementsPerBlock(d->Np), (size_t)(1 + d->dim) * d->nv * d->Np, &E, &shared);
  if (err) return err;
  FRDenseVolumeKernel<DIM, NP, NF><<<(d->K + E - 1) / E, FRD_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, u, rhs);
  return (int)cudaGetLastError();
}

template <int DIM, int NP, int NF>
static int FRDenseFaceLaunch(const FRDenseKernelData *d, int E, const double *ul, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRDenseFaceKernel<DIM, NP, NF>, FRDenseFaceCount(d), E, FRDenseCUDAElementsPerBlock(d->Np), (size_t)d->nv * d->nfpt, &E, &shared);
  if (err) return err;
  FRDenseFaceKernel<DIM, NP, NF><<<(FRDenseFaceCount(d) + E - 1) / E, FRD_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, ul, rhs);
  return (int)cudaGetLastError();
}

extern "C" int FRDenseVolumeCUDA(const FRDenseKernelData *d, int E, const double *u, double *rhs)
{
  if (d->K <= 0) return 0;
  FRD_DISPATCH(FRDenseVolumeLaunch, d, E, u, rhs)
}

extern "C" int FRDenseFaceCUDA(const FRDenseKernelData *d, int E, const double *ul, double *rhs)
{
  if (FRDenseFaceCount(d) <= 0) return 0;
  FRD_DISPATCH(FRDenseFaceLaunch, d, E, ul, rhs)
}

extern "C" int FRDenseWaveSpeedCUDA(const FRDenseKernelData *d, const double *u, const double *h, double *speed)
{
  const int warps = 128 / 32;
  if (d->K <= 0) return 0;
  FRDenseWaveSpeedKernel<<<(d->K + warps - 1) / warps, 128, 0, (cudaStream_t)d->stream>>>(*d, u, h, speed);
  return (int)cudaGetLastError();
}
