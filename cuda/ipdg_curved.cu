// CUDA twins of the host kernels of the SIPDG operator on curved elements (src/kernels/ipdg_curved.c):
// the same element routines (hoflow/kernels/ipdg_curved_element.h), so host and device do the same
// sums in the same order. The gradient runs one thread per node; the apply and the diagonal one thread
// per element, whose intermediate values go to the kernel data's scratch array with the elements of a
// launch interleaved (consecutive threads touch consecutive addresses). Curved elements are the few
// next to a curved boundary, so these kernels favour being exact twins over the shared-memory tuning
// of the affine ones (cuda/ipdg.cu). Instances per (shape, N) of hoflow/kernels/shapes.h, chosen from a
// table keyed by (shape, N). No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/ipdg_curved_element.h>
#include <hoflow/kernels/shapes.h>

template <int NP, int DIM>
__global__ void CurvedGradientKernel(const IPDGCurvedKernelData d, int halo, int e0, int e1, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy, double *__restrict__ gz)
{
  const long    idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int     e = e0 + (int)(idx / NP), i = (int)(idx % NP);
  const double *Gn = halo ? d.halo_Gn : d.Gn;
  const int     n0 = halo ? d.halo_node0 : d.node0;
  double        v[3];

  if (e >= e1) return;
  IPDGCurvedGradientNode(&d, NP, DIM, i, Gn + ((size_t)e * NP + i) * DIM * DIM, u + n0 + e * NP, v);
  gx[n0 + e * NP + i] = v[0];
  gy[n0 + e * NP + i] = v[1];
  if (DIM == 3) gz[n0 + e * NP + i] = v[2];
}

template <int NP, int DIM>
__global__ void CurvedApplyKernel(const IPDGCurvedKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  const int           k       = blockIdx.x * blockDim.x + threadIdx.x;
  const double *const grad[3] = {gx, gy, gz};

  if (e0 + k >= e1) return;
  IPDGCurvedApplyElement(&d, NP, DIM, e0 + k, u, grad, bc, Au, d.work + k, e1 - e0, IPDG_CURVED_ALL);
}

template <int NP, int DIM>
__global__ void CurvedDiagonalKernel(const IPDGCurvedKernelData d, double *__restrict__ diag)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) IPDGCurvedDiagonalElement(&d, NP, DIM, e, diag + d.node0 + e * NP);
}

template <int NP, int DIM>
static int LaunchCurvedGradient(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  const long n = (long)(e1 - e0) * NP;
  if (n > 0) CurvedGradientKernel<NP, DIM><<<(unsigned)((n + 127) / 128), 128, 0, (cudaStream_t)d->stream>>>(*d, halo, e0, e1, u, gx, gy, gz);
  return (int)cudaGetLastError();
}

template <int NP, int DIM>
static int LaunchCurvedApply(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  if (e1 > e0) CurvedApplyKernel<NP, DIM><<<(e1 - e0 + 63) / 64, 64, 0, (cudaStream_t)d->stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  return (int)cudaGetLastError();
}

template <int NP, int DIM>
static int LaunchCurvedDiagonal(const IPDGCurvedKernelData *d, double *diag)
{
  if (d->K) CurvedDiagonalKernel<NP, DIM><<<(d->K + 63) / 64, 64, 0, (cudaStream_t)d->stream>>>(*d, diag);
  return (int)cudaGetLastError();
}

typedef int (*CurvedGradientLaunch)(const IPDGCurvedKernelData *, int, int, int, const double *, double *, double *, double *);
typedef int (*CurvedApplyLaunch)(const IPDGCurvedKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);
typedef int (*CurvedDiagonalLaunch)(const IPDGCurvedKernelData *, double *);
#define CURVED_ENTRY(SHAPE, NN, DIM, NP, NF, NFN)      \
  gradient[SHAPE][NN] = LaunchCurvedGradient<NP, DIM>; \
  apply[SHAPE][NN]    = LaunchCurvedApply<NP, DIM>;    \
  diagonal[SHAPE][NN] = LaunchCurvedDiagonal<NP, DIM>;
struct CurvedTables {
  CurvedGradientLaunch gradient[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  CurvedApplyLaunch    apply[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  CurvedDiagonalLaunch diagonal[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  CurvedTables()
      : gradient(), apply(), diagonal()
  {
    HOFLOW_ORDERS_ALL(CURVED_ENTRY)
  }
};
static const CurvedTables tables;

static bool Valid(const IPDGCurvedKernelData *d)
{
  return d->shape >= 0 && d->shape < REF_NUM_SHAPES && d->N >= 1 && d->N <= HOFLOW_NMAX && tables.apply[d->shape][d->N];
}

extern "C" int IPDGCurvedGradientCUDA(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  return Valid(d) ? tables.gradient[d->shape][d->N](d, halo, e0, e1, u, gx, gy, gz) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGCurvedApplyCUDA(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  return Valid(d) ? tables.apply[d->shape][d->N](d, e0, e1, u, gx, gy, gz, bc_data, Au) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGCurvedDiagonalCUDA(const IPDGCurvedKernelData *d, double *diag)
{
  return Valid(d) ? tables.diagonal[d->shape][d->N](d, diag) : (int)cudaErrorInvalidValue;
}
