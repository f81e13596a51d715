// CUDA twin of the continuous spectral-element operator (src/kernels/sem.c, hoflow/kernels/sem.h),
// laid out as the SIPDG hexahedral line kernels (cuda/ipdg_tensor.cu, HexApplyKernel): one thread per
// line of N1 GLL points along the last reference direction (t on hexahedra, s on quadrilaterals), the
// line's values of u and of the result in registers, several elements a block. The element is swept
// one plane (the N1^(dim-1) points of one index along the line) at a time:
//
//   1. the plane of u goes to shared memory; each thread forms the reference derivatives at its point:
//      in the plane's directions from shared memory (its 1D matrix row in registers), along the line
//      from its registers (the matrix row of the plane, a shared-memory broadcast);
//   2. t_a = sum_b G_ab (D_b u) at the point: the line's flux is taken back along the line at once
//      (D^T into the line's registers), the plane's fluxes go to shared memory;
//   3. the plane's transposed derivatives D_a^T t_a of the plane's fluxes, into the thread's register.
//
// Two barriers a plane; shared memory holds the 1D matrices and dim planes an element (odd pitches, so
// the threads of a warp that read different rows, or planes of different elements, hit different
// banks). The result is added to the local array atomically (nodes on vertices, edges and faces are
// shared by elements); a colouring of the elements (no atomics, one launch per colour) was not written
// (no GPU to measure it against the atomics when this was written).
//
// Geometric factors: where every element of the rank is affine (d.affine), G_ab = (w J) s_ab and
// wJ = w J are formed at the node from the element's npair + 1 numbers and the GLL weights, with the
// host setup's products in the host setup's order (so they are the stored ones to the bit); else G and
// wJ are read per node. Components: the ncomp interlaced components of a vector field in one launch
// (the gather indices, factors and matrix rows loaded once). Instances per (shape, N) of
// hoflow/kernels/shapes.h, chosen from a table. No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/shapes.h>

namespace {

// Elements a block for nt threads an element: the fewest that give at least 64 threads (the SM runs at
// most 32 blocks) with at least 90 % of the lanes of their warps busy (49 threads an element, N = 6
// hexahedra, leave 30 of 128 lanes idle with 2 elements a block, 13 of 160 with 3); else the best
// filled of at most 256 threads.
constexpr int SEMElementsPerBlock(int nt)
{
  int    best = 1;
  double fill = 0;
  for (int e = 1; e == 1 || e * nt <= 256; e++) {
    const int    t = e * nt;
    const double f = (double)t / ((t + 31) / 32 * 32);
    if (t >= 64 && f >= 0.9) return e;
    if (f > fill + 1e-12) {
      fill = f;
      best = e;
    }
  }
  return best;
}

template <int DIM, int N1>
struct SEMLine {
  static constexpr int NT    = DIM == 2 ? N1 : N1 * N1; // lines (threads) an element
  static constexpr int NP    = NT * N1;
  static constexpr int NPAIR = DIM * (DIM + 1) / 2;
  static constexpr int E     = SEMElementsPerBlock(NT);
  static constexpr int LD    = N1 % 2 ? N1 : N1 + 1;                     // 1D matrix row pitch, and a plane's row pitch (3D)
  static constexpr int PL    = DIM == 2 ? N1 : N1 * LD;                  // one plane
  static constexpr int SLOT  = (DIM * PL) % 2 ? DIM * PL : DIM * PL + 1; // an element's planes: u and the dim - 1 in-plane fluxes
  // resident blocks an SM asked of the compiler: a cap of 128 registers a thread (at least 16 warps an SM
  // where the block fills its warps). Uncapped, ptxas takes 124-140 at N1 = 7, 8 (hexahedra); capped at
  // 128 nothing spills up to N1 = 8 (16 bytes at N1 = 9), at 96-104 N1 = 7, 8 spill 40-152 bytes.
  // Larger elements (N1 >= 10) are left uncapped (128 spilled 32-192 bytes). Not measured on a GPU.
  static constexpr int THREADS    = E * NT;
  static constexpr int WARPED     = (THREADS + 31) / 32 * 32;
  static constexpr int MIN_BLOCKS = N1 <= 9 && 65536 / (128 * WARPED) > 1 ? 65536 / (128 * WARPED) : 1;
};

template <int DIM, int N1, bool AFFINE>
__global__ void __launch_bounds__(SEMLine<DIM, N1>::THREADS, SEMLine<DIM, N1>::MIN_BLOCKS) SEMLineApplyKernel(const SEMKernelData d, int ncomp, const double *__restrict__ u, double *__restrict__ Au)
{
  using L              = SEMLine<DIM, N1>;
  constexpr int     NT = L::NT, NP = L::NP, NPAIR = L::NPAIR, LD = L::LD;
  __shared__ double sD[N1 * LD], sDT[N1 * LD], sw[N1], splane[L::E * L::SLOT];
  const int         p = threadIdx.x, slot = threadIdx.y, t = p + NT * slot;
  const size_t      e    = (size_t)blockIdx.x * L::E + slot;
  const bool        live = e < (size_t)d.K;
  const int         i = p % N1, j = DIM == 3 ? p / N1 : 0, own = i + LD * j; // the thread's place in a plane
  double           *su = splane + slot * L::SLOT, *st0 = su + L::PL, *st1 = st0 + L::PL;
  const int        *gather = d.gather + (live ? e : 0) * NP + p;
  double            J = 0, s[NPAIR], Dr[N1], Ds[N1], wp = 0;

  for (int k = t; k < N1 * N1; k += L::THREADS) {
    sD[(k / N1) * LD + k % N1]  = d.D1[k];
    sDT[(k / N1) * LD + k % N1] = d.D1T[k];
  }
  if (AFFINE) {
    const double *a = d.affine + (live ? e : 0) * (NPAIR + 1);
    for (int k = t; k < N1; k += L::THREADS) sw[k] = d.w1[k];
    J = a[0];
#pragma unroll
    for (int q = 0; q < NPAIR; q++) s[q] = a[1 + q];
  }
  __syncthreads();
#pragma unroll
  for (int m = 0; m < N1; m++) {
    Dr[m] = sD[i * LD + m];
    Ds[m] = DIM == 3 ? sD[j * LD + m] : 0.0;
  }
  if (AFFINE) wp = DIM == 3 ? sw[i] * sw[j] : sw[i]; // w = (w1[i0] w1[i1]) w1[i2] as the host's setup

  for (int c = 0; c < ncomp; c++) {
    double ul[N1], out[N1];
#pragma unroll
    for (int k = 0; k < N1; k++) {
      ul[k]  = 0;
      out[k] = 0;
      if (live) {
        const int g = gather[NT * k];
        ul[k]       = d.dirichlet && d.dirichlet[g] ? 0.0 : u[g + c];
      }
    }
#pragma unroll
    for (int k = 0; k < N1; k++) { // plane k: the points with index k along the line
      su[own] = ul[k];
      __syncthreads();
      if (live) {
        double r[DIM], tf[DIM], g[NPAIR], Dk[N1], wJ = 0;
#pragma unroll
        for (int m = 0; m < N1; m++) Dk[m] = sD[k * LD + m]; // the plane's row: the same for every thread
#pragma unroll
        for (int a = 0; a < DIM; a++) r[a] = 0;
#pragma unroll
        for (int m = 0; m < N1; m++) r[0] += Dr[m] * su[LD * j + m];
        if (DIM == 3)
#pragma unroll
          for (int m = 0; m < N1; m++) r[1] += Ds[m] * su[LD * m + i];
#pragma unroll
        for (int m = 0; m < N1; m++) r[DIM - 1] += Dk[m] * ul[m];
        if (AFFINE) {
          const double w = wp * sw[k];
          wJ             = w * J;
#pragma unroll
          for (int q = 0; q < NPAIR; q++) g[q] = wJ * s[q];
        } else {
          const size_t  node = e * NP + p + NT * k;
          const double *G    = d.G + node * NPAIR;
#pragma unroll
          for (int q = 0; q < NPAIR; q++) g[q] = G[q];
          if (d.lambda != 0) wJ = d.wJ[node];
        }
#pragma unroll
        for (int a = 0; a < DIM; a++) {
          double v = 0;
#pragma unroll
          for (int b = 0; b < DIM; b++) v += g[SEMPair(a, b, DIM)] * r[b];
          tf[a] = v;
        }
        st0[own] = tf[0];
        if (DIM == 3) st1[own] = tf[1];
        if (d.lambda != 0) out[k] += d.lambda * wJ * ul[k];
#pragma unroll
        for (int m = 0; m < N1; m++) out[m] += Dk[m] * tf[DIM - 1]; // D^T along the line
      }
      __syncthreads();
      if (live) { // D^T in the plane's directions
        double o = 0;
#pragma unroll
        for (int m = 0; m < N1; m++) o += sDT[i * LD + m] * st0[LD * j + m];
        if (DIM == 3)
#pragma unroll
          for (int m = 0; m < N1; m++) o += sDT[j * LD + m] * st1[LD * m + i];
        out[k] += o;
      }
    }
    if (live)
#pragma unroll
      for (int k = 0; k < N1; k++) atomicAdd(Au + gather[NT * k] + c, out[k]);
  }
}

__global__ void SEMCopyRowsKernel(int n, const int *rows, const double *x, double *y)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) y[rows[k]] = x != nullptr ? x[rows[k]] : 1.0;
}

// G_ab (pair) and wJ at node q of element e: formed from the element's factors (affine) or read.
__device__ __forceinline__ double SEMFactor(const SEMKernelData &d, size_t e, int q, int pair, double *wJ)
{
  const int npair = d.dim * (d.dim + 1) / 2;
  if (d.affine) {
    const int     ix[3] = {q % d.N1, (q / d.N1) % d.N1, q / (d.N1 * d.N1)};
    const double *a     = d.affine + e * (npair + 1);
    double        w     = 1;
    for (int x = 0; x < d.dim; x++) w *= d.w1[ix[x]];
    if (wJ) *wJ = w * a[0];
    return pair < 0 ? 0.0 : w * a[0] * a[1 + pair];
  }
  if (wJ) *wJ = d.wJ[e * d.Np + q];
  return pair < 0 ? 0.0 : d.G[(e * d.Np + q) * npair + pair];
}

// The diagonal of SEMDiagonalHost, a thread per element node (setup work: runtime sizes), added to the
// ncomp components atomically.
__global__ void SEMDiagonalKernel(const SEMKernelData d, int ncomp, double *__restrict__ diag)
{
  const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (size_t)d.K * d.Np) return;
  const size_t e = k / d.Np;
  const int    i = (int)(k % d.Np), N1 = d.N1, dim = d.dim;
  const int    idx[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)}, stride[3] = {1, N1, N1 * N1};
  double       wJ, s;
  SEMFactor(d, e, i, -1, &wJ);
  s = d.lambda * wJ;
  for (int a = 0; a < dim; a++) {
    const int base = i - idx[a] * stride[a];
    for (int m = 0; m < N1; m++) {
      const double D = d.D1[m * N1 + idx[a]];
      s += D * D * SEMFactor(d, e, base + m * stride[a], SEMPair(a, a, dim), nullptr);
    }
    for (int b = 0; b < dim; b++)
      if (b != a) s += d.D1[idx[a] * N1 + idx[a]] * d.D1[idx[b] * N1 + idx[b]] * SEMFactor(d, e, i, SEMPair(a, b, dim), nullptr);
  }
  for (int c = 0; c < ncomp; c++) atomicAdd(diag + d.gather[k] + c, s);
}

typedef int (*SEMLaunch)(const SEMKernelData *, int, const double *, double *, cudaStream_t);

template <int DIM, int N1>
int LaunchSEMApply(const SEMKernelData *d, int ncomp, const double *u, double *Au, cudaStream_t stream)
{
  using L = SEMLine<DIM, N1>;
  const dim3     block(L::NT, L::E);
  const unsigned grid = (unsigned)((d->K + L::E - 1) / L::E);
  if (d->affine)
    SEMLineApplyKernel<DIM, N1, true><<<grid, block, 0, stream>>>(*d, ncomp, u, Au);
  else
    SEMLineApplyKernel<DIM, N1, false><<<grid, block, 0, stream>>>(*d, ncomp, u, Au);
  return (int)cudaGetLastError();
}

#define SEM_ENTRY(SHAPE, NN, DIM, NP, NF, NFN) apply[DIM][NN] = LaunchSEMApply<DIM, (NN) + 1>;
struct SEMTables {
  SEMLaunch apply[4][HOFLOW_NMAX + 1];
  SEMTables()
      : apply()
  {
    HOFLOW_ORDERS_QUADRILATERAL(SEM_ENTRY)
    HOFLOW_ORDERS_HEXAHEDRON(SEM_ENTRY)
  }
};
const SEMTables tables;

} // namespace

extern "C" int SEMApplyCUDA(const SEMKernelData *d, int ncomp, const double *u, double *Au, void *stream)
{
  if (!SEMCUDASupported(d->dim, d->N) || !tables.apply[d->dim][d->N] || ncomp < 1) return (int)cudaErrorInvalidConfiguration;
  if (!d->K) return 0;
  return tables.apply[d->dim][d->N](d, ncomp, u, Au, (cudaStream_t)stream);
}

extern "C" int SEMDiagonalCUDA(const SEMKernelData *d, int ncomp, double *diag, void *stream)
{
  const size_t n = (size_t)d->K * d->Np;
  if (ncomp < 1) return (int)cudaErrorInvalidConfiguration;
  if (n) SEMDiagonalKernel<<<(unsigned)((n + 127) / 128), 128, 0, (cudaStream_t)stream>>>(*d, ncomp, diag);
  return (int)cudaGetLastError();
}

extern "C" int SEMCopyRowsCUDA(int n, const int *rows, const double *x, double *y, void *stream)
{
  if (n) SEMCopyRowsKernel<<<(n + 127) / 128, 128, 0, (cudaStream_t)stream>>>(n, rows, x, y);
  return (int)cudaGetLastError();
}
