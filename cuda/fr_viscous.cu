// CUDA twins of the viscous terms of flux reconstruction (the corrected gradient, seed 003 §II): tensor FR
// (hoflow/kernels/fr.h's FRViscous*, host loops src/kernels/fr.c) and dense FR (hoflow/kernels/fr_dense_viscous.h,
// host loops src/kernels/fr_dense_viscous.c). Every thread runs the host's point routines (one solution point or one
// flux point of one element), so the arithmetic and its order are the host's (up to the contraction of a*b + c into
// one fused multiply-add):
//
//   viscous kernel  E elements a thread block, after the volume kernel (the traces u-, Fh^D of every owned element)
//                   and the halo exchange: their values to shared memory; one thread a flux point forms u_I - u-
//                   (V1, into the data's ujump: the neighbours' traces, a halo neighbour's values, the boundary
//                   state); after a barrier one thread a solution point forms the corrected gradient (V2, into the
//                   data's grad) and the transformed viscous flux Fh_v (into shared memory); after a barrier one
//                   thread a solution point subtracts the divergence of Fh_v from rhs and one thread a flux point
//                   subtracts Fh_v^D from the trace's Fh^D (V3) and (dense FR) interpolates the element's corrected
//                   gradients to the point, its gradient trace (the block's threads wrote them to global memory
//                   before the barrier), which the face kernel reads for both sides of a face. The host runs V1 of
//                   every element before V2 of any: the fused kernel needs no such order, since V2 reads the
//                   element's own jumps only and V3 changes the trace rows Fh^D, not the rows u- that a neighbour's
//                   V1 reads.
//   gradient traces on several ranks (-fr_halo traces): one thread a face point of an owned element on a partition
//                   face, the corrected gradients interpolated there (tensor FR; dense FR copies its gradient trace),
//                   sent by the second exchange; after the viscous kernel of every group
//   face kernel     tensor FR: cuda/fr.cu's (FRFacePointJump adds the viscous common flux when ldg.on, reading both
//                   sides' gradients: after every group's viscous kernel); dense FR: the twin of cuda/fr_dense.cu's
//                   face kernel with FRDenseViscousFacePointJump (both sides' gradients from the gradient traces).
//
// Compiled per shape and order as the inviscid kernels (cuda/fr_sizes.h: tensor N = 1..8, dense N = 1..5 of the
// Navier–Stokes state), with the run-time sizes otherwise. tests/unit/test_fr_viscous_kernels.c compares each with its
// host twin on a GPU, scripts/check-fr-viscous-cuda-emu.sh on the CPU (tests/emu).
#include <cuda_runtime.h>
#include <hoflow/kernels/fr.h>
#include <hoflow/kernels/fr_dense_viscous.h>
#include "element_groups.h"
#include "fr_sizes.h"

#ifndef FRV_THREADS
#  define FRV_THREADS 256 // threads a block (the CPU emulation takes fewer: scripts/check-fr-viscous-cuda-emu.sh)
#endif

// ---- begin emulated kernels (scripts/check-fr-viscous-cuda-emu.sh runs this file on the CPU)
template <int DIM, int N1>
__global__ void __launch_bounds__(FRV_THREADS) FRViscousKernel(const __grid_constant__ FRKernelData d, int E, const double *__restrict__ u, const double *__restrict__ ul, double *__restrict__ tr, double *__restrict__ rhs)
{
  extern __shared__ double frv_shared[];
  const FRSizes            z  = FRSizesFor<DIM, N1>(&d);
  const int                Np = z.Np, s = z.nv * Np, fs = z.dim * s, Nfq = z.Nfaces * z.nfp, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *us = frv_shared, *Fs = frv_shared + (size_t)E * s; // [E][nv Np] the values, [E][dim nv Np] the viscous fluxes
  const double            *ug = u + (size_t)e0 * s;
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) us[it] = ug[it];
  for (int it = threadIdx.x; it < Eb * Nfq; it += blockDim.x) FRViscousFacePointState(&d, z, e0 + it / Nfq, it % Nfq, ul, tr);
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRViscousPointGradient(&d, z, e0 + el, i, us + (size_t)el * s);
    FRViscousPointFlux(&d, z, e0 + el, i, us + (size_t)el * s, Fs + (size_t)el * fs); // the point's own gradient: no barrier
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np;
    FRViscousPointDivergence(&d, z, it % Np, Fs + (size_t)el * fs, rhs + (size_t)(e0 + el) * s);
  }
  for (int it = threadIdx.x; it < Eb * Nfq; it += blockDim.x) {
    const int el = it / Nfq;
    FRViscousTracePoint(&d, z, it % Nfq, Fs + (size_t)el * fs, tr + (size_t)(e0 + el) * 2 * z.nv * Nfq);
  }
}

template <int DIM, int NP, int NF>
__global__ void __launch_bounds__(FRV_THREADS, 2) FRDenseViscousKernel(const __grid_constant__ FRDenseKernelData d, int E, const double *__restrict__ u, const double *__restrict__ ul, double *__restrict__ rhs)
{
  extern __shared__ double frv_shared[];
  const FRDenseSizes       z  = FRDenseSizesFor<DIM, NP, NF>(&d);
  const int                Np = z.Np, s = z.nv * Np, fs = z.dim * s, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *us = frv_shared, *Fs = frv_shared + (size_t)E * s; // [E][nv Np] the values, [E][dim nv Np] the viscous fluxes
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) us[it] = u[d.dof[d.e0 + e0 + it / s] + it % s];
  for (int it = threadIdx.x; it < Eb * z.nfpt; it += blockDim.x) FRDenseViscousFacePointState(&d, z, e0 + it / z.nfpt, it % z.nfpt, ul);
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRDenseViscousPointGradient(&d, z, e0 + el, i, us + (size_t)el * s);
    FRDenseViscousPointFlux(&d, z, e0 + el, i, us + (size_t)el * s, Fs + (size_t)el * fs); // the point's own gradient: no barrier
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np;
    FRDenseViscousPointDivergence(&d, z, it % Np, Fs + (size_t)el * fs, rhs + d.dof[d.e0 + e0 + el]);
  }
  for (int it = threadIdx.x; it < Eb * z.nfpt; it += blockDim.x) { // the gradients of the block's elements are written (the barrier)
    const int el = it / z.nfpt;
    FRDenseViscousPointGradientTrace(&d, z, e0 + el, it % z.nfpt);
    FRDenseViscousTracePoint(&d, z, e0 + el, it % z.nfpt, Fs + (size_t)el * fs);
  }
}

template <int DIM, int NP, int NF>
__global__ void __launch_bounds__(FRV_THREADS, 2) FRDenseViscousFaceKernel(const __grid_constant__ FRDenseKernelData d, int E, const double *__restrict__ ul, double *__restrict__ rhs)
{
  extern __shared__ double frv_shared[]; // [E][nv nfpt] the jumps
  const FRDenseSizes       z  = FRDenseSizesFor<DIM, NP, NF>(&d);
  const int                Np = z.Np, js = z.nv * z.nfpt, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  for (int it = threadIdx.x; it < Eb * z.nfpt; it += blockDim.x) {
    const int el = it / z.nfpt, p = it % z.nfpt;
    FRDenseViscousFacePointJump(&d, z, e0 + el, p, ul, frv_shared + (size_t)el * js);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) {
    const int el = it / Np, i = it % Np;
    FRDensePointCorrect(&d, z, e0 + el, i, frv_shared + (size_t)el * js, rhs + d.dof[d.e0 + e0 + el]);
  }
}

// several ranks (-fr_halo traces): the gradient traces of the owned elements on partition faces, one thread a face point
// of an owned element (those without a gradient trace return at once), after the viscous kernel of every group
__global__ void __launch_bounds__(FRV_THREADS) FRViscousGradientTraceKernel(const __grid_constant__ FRKernelData d)
{
  const FRSizes z   = FRSizesOf(&d);
  const int     Nfq = z.Nfaces * z.nfp;
  const long    it  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (it >= (long)d.K * Nfq || d.gtrace_elem[it / Nfq] < 0) return;
  FRViscousGradientTracePoint(&d, z, (int)(it / Nfq), (int)(it % Nfq));
}

__global__ void __launch_bounds__(FRV_THREADS) FRDenseViscousGradientTraceKernel(const __grid_constant__ FRDenseKernelData d)
{
  const FRDenseSizes z  = FRDenseSizesOf(&d);
  const long         it = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (it >= (long)d.K * z.nfpt || d.gtrace_elem[d.e0 + it / z.nfpt] < 0) return;
  FRDenseViscousGradientTracePoint(&d, z, (int)(it / z.nfpt), (int)(it % z.nfpt));
}
// ---- end emulated kernels

template <int DIM, int N1>
static int FRViscousLaunch(const FRKernelData *d, int E, const double *u, const double *ul, double *tr, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRViscousKernel<DIM, N1>, d->K, E, FRCUDAElementsPerBlock(d->dim, d->n1), (size_t)(1 + d->dim) * d->nv * d->Np, &E, &shared);
  if (err) return err;
  FRViscousKernel<DIM, N1><<<(d->K + E - 1) / E, FRV_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, u, ul, tr, rhs);
  return (int)cudaGetLastError();
}

template <int DIM, int NP, int NF>
static int FRDenseViscousLaunch(const FRDenseKernelData *d, int E, const double *u, const double *ul, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRDenseViscousKernel<DIM, NP, NF>, d->K, E, FRDenseCUDAElementsPerBlock(d->Np), (size_t)(1 + d->dim) * d->nv * d->Np, &E, &shared);
  if (err) return err;
  FRDenseViscousKernel<DIM, NP, NF><<<(d->K + E - 1) / E, FRV_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, u, ul, rhs);
  return (int)cudaGetLastError();
}

template <int DIM, int NP, int NF>
static int FRDenseViscousFaceLaunch(const FRDenseKernelData *d, int E, const double *ul, double *rhs)
{
  size_t    shared;
  const int err = HoflowElementGroup((const void *)FRDenseViscousFaceKernel<DIM, NP, NF>, d->K, E, FRDenseCUDAElementsPerBlock(d->Np), (size_t)d->nv * d->nfpt, &E, &shared);
  if (err) return err;
  FRDenseViscousFaceKernel<DIM, NP, NF><<<(d->K + E - 1) / E, FRV_THREADS, shared, (cudaStream_t)d->stream>>>(*d, E, ul, rhs);
  return (int)cudaGetLastError();
}

extern "C" int FRViscousCUDA(const FRKernelData *d, int E, const double *u, const double *ul, double *tr, double *rhs)
{
  if (d->K <= 0) return 0;
  FR_DISPATCH(FRViscousLaunch, d, E, u, ul, tr, rhs)
}

extern "C" int FRDenseViscousCUDA(const FRDenseKernelData *d, int E, const double *u, const double *ul, double *rhs)
{
  if (d->K <= 0) return 0;
  FRD_DISPATCH(FRDenseViscousLaunch, d, E, u, ul, rhs)
}

extern "C" int FRDenseViscousFaceCUDA(const FRDenseKernelData *d, int E, const double *ul, double *rhs)
{
  if (d->K <= 0) return 0;
  FRD_DISPATCH(FRDenseViscousFaceLaunch, d, E, ul, rhs)
}

extern "C" int FRViscousGradientTraceCUDA(const FRKernelData *d)
{
  const long n = (long)d->K * d->Nfaces * d->nfp;
  if (n <= 0) return 0;
  FRViscousGradientTraceKernel<<<(unsigned)((n + FRV_THREADS - 1) / FRV_THREADS), FRV_THREADS, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}

extern "C" int FRDenseViscousGradientTraceCUDA(const FRDenseKernelData *d)
{
  const long n = (long)d->K * d->nfpt;
  if (n <= 0) return 0;
  FRDenseViscousGradientTraceKernel<<<(unsigned)((n + FRV_THREADS - 1) / FRV_THREADS), FRV_THREADS, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}
