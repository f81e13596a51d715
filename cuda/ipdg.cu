// CUDA twins of the SIPDG host kernels (src/op/ipdg_kernels.c): Algorithm 1 (local gradient)
// and Algorithm 2 / eq. (28) (apply) of seed 000, on the same IPDGKernelData with device pointers.
//
// Optimizations of seed 000 §5.2: the order is a template parameter (loop bounds are constants,
// loops unrolled); element data is staged in shared memory; inputs are const __restrict__ and
// read-only matrices go through the read-only cache (__ldg) from transposed copies, so the threads
// of a warp (one per node) read consecutive addresses; several elements share a thread block, as
// many as the table below says for each order (tuned on an H100, see bench/). No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels.h>
#include <hoflow/kernels/element.h>

// Launch shape per [kernel: 0 gradient, 1 apply][shape: 0 triangle, 1 quadrilateral][N]:
// {thread rows per block, elements per thread}. A thread row holds one thread per node (per face
// node where there are more) and works on P elements, so each matrix entry it fetches serves P
// elements (seed 000's kernel 4). 0 entries fall back to about 256 threads and P = 1.
// Tuned on an NVIDIA H100 80GB HBM3 with bench/run-gpu.sh (2026-11-22): see bench/README.md.
typedef struct {
  int rows, per_thread;
} LaunchShape;
static const LaunchShape tuned[2][2][HOFLOW_NMAX + 1] = {
    {{{0, 0}, {32, 1}, {16, 1}, {8, 2}, {2, 4}, {1, 8}, {1, 8}, {2, 8}, {1, 8}, {1, 8}, {4, 4}},
     {{0, 0}, {32, 1}, {32, 1}, {4, 2}, {1, 8}, {2, 8}, {1, 8}, {1, 8}, {1, 8}, {8, 8}, {1, 4}}},
    {{{0, 0}, {16, 1}, {8, 2}, {16, 1}, {2, 2}, {1, 4}, {1, 4}, {2, 4}, {2, 4}, {1, 4}, {16, 4}},
     {{0, 0}, {4, 2}, {4, 2}, {8, 2}, {1, 4}, {2, 4}, {1, 8}, {1, 4}, {1, 4}, {4, 4}, {2, 4}}},
};

static const size_t shared_limit = 48 * 1024; // static limit without cudaFuncSetAttribute

template <int NP, int P>
__global__ void GradientKernel(const IPDGKernelData d, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy)
{
  extern __shared__ double smem[];
  const int                i = threadIdx.x, c0 = (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double                  *su = smem + threadIdx.y * P * NP;

#pragma unroll
  for (int p = 0; p < P; p++)
    if (c0 + p < d.Klocal) su[p * NP + i] = u[(c0 + p) * NP + i];
  __syncthreads();
  if (c0 >= d.Klocal) return;
  double ur[P], us[P];
#pragma unroll
  for (int p = 0; p < P; p++) ur[p] = us[p] = 0;
#pragma unroll
  for (int j = 0; j < NP; j++) {
    const double dr = __ldg(d.DrT + j * NP + i), ds = __ldg(d.DsT + j * NP + i);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const double uj = su[p * NP + j];
      ur[p] += dr * uj;
      us[p] += ds * uj;
    }
  }
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int c = c0 + p;
    if (c < d.Klocal) {
      const double *g = d.geo + c * HOFLOW_GEO_SIZE;
      gx[c * NP + i]  = __ldg(g + HOFLOW_GEO_RX) * ur[p] + __ldg(g + HOFLOW_GEO_SX) * us[p];
      gy[c * NP + i]  = __ldg(g + HOFLOW_GEO_RY) * ur[p] + __ldg(g + HOFLOW_GEO_SY) * us[p];
    }
  }
}

// acc[p] += sum_n A[t][n] x_p[n] for the P elements of a thread, A given transposed (AT[n*NP+t]),
// x_p = x + p*stride in shared memory: each matrix entry is fetched once for all P elements.
template <int NP, int NCOLS, int P>
__device__ __forceinline__ void RowTimesBatch(const double *__restrict__ AT, int t, const double *x, int stride, double acc[P])
{
#pragma unroll
  for (int n = 0; n < NCOLS; n++) {
    const double a = __ldg(AT + n * NP + t);
#pragma unroll
    for (int p = 0; p < P; p++) acc[p] += a * x[p * stride + n];
  }
}

// Per element shared memory (doubles): du, dgn, w (x and y) on face nodes; Lx, Ly, qr, qs, r on nodes.
__host__ __device__ constexpr int ApplySharedPerElement(int NP, int NFN)
{
  return 4 * NFN + 5 * NP;
}

template <int NP, int NFP, int NF, int P>
__global__ void ApplyKernel(const IPDGKernelData d, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ bc, double *__restrict__ Au)
{
  constexpr int            NFN = NF * NFP, S = ApplySharedPerElement(NP, NFN);
  extern __shared__ double smem[];
  const int                t = threadIdx.x, e0 = (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double                  *sh = smem + threadIdx.y * P * S;
#define S_DU(p) (sh + (p)*S)
#define S_DGN(p) (sh + (p)*S + NFN)
#define S_WX(p) (sh + (p)*S + 2 * NFN)
#define S_WY(p) (sh + (p)*S + 3 * NFN)
#define S_LX(p) (sh + (p)*S + 4 * NFN)
#define S_LY(p) (sh + (p)*S + 4 * NFN + NP)
#define S_QR(p) (sh + (p)*S + 4 * NFN + 2 * NP)
#define S_QS(p) (sh + (p)*S + 4 * NFN + 3 * NP)
#define S_R(p) (sh + (p)*S + 4 * NFN + 4 * NP)

  // jumps of u and of the normal derivative at the face nodes (mirror states on the boundary)
  if (t < NFN) {
    const int f = t / NFP, fn = __ldg(d.face_nodes + t);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = e0 + p;
      if (e >= d.K) break;
      const int     base = d.elem_cell[e] * NP;
      const double *sg   = d.sgeo + (e * NF + f) * HOFLOW_SGEO_SIZE;
      const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
      const int     type = d.face_type[e * NF + f], idM = base + fn;
      const double  uM = u[idM], gnM = nx * gx[idM] + ny * gy[idM];
      const double  bcv = bc ? bc[e * NFN + t] : 0.0;
      const int     idP = type == HOFLOW_FACE_INTERIOR ? d.vmapP[e * NFN + t] : idM;
      double        ju, jg;
      FaceJumps(type, uM, gnM, u[idP], nx * gx[idP] + ny * gy[idP], bcv, &ju, &jg);
      S_DU(p)
      [t] = ju;
      S_DGN(p)
      [t] = jg;
      S_WX(p)
      [t] = 0.5 * nx * sj * ju;
      S_WY(p)
      [t] = 0.5 * ny * sj * ju;
    }
  }
  __syncthreads();
  // lifted jumps Lvec and the volume flux q = grad u + Lvec in reference directions
  if (t < NP) {
    double lx[P], ly[P];
#pragma unroll
    for (int p = 0; p < P; p++) lx[p] = ly[p] = 0;
#pragma unroll
    for (int n = 0; n < NFN; n++) {
      const double L = __ldg(d.LIFTT + n * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        lx[p] += L * S_WX(p)[n];
        ly[p] += L * S_WY(p)[n];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = e0 + p;
      if (e >= d.K) break;
      const int     base = d.elem_cell[e] * NP;
      const double *g    = d.geo + d.elem_cell[e] * HOFLOW_GEO_SIZE;
      const double  qx = gx[base + t] + lx[p], qy = gy[base + t] + ly[p];
      S_LX(p)
      [t] = lx[p];
      S_LY(p)
      [t] = ly[p];
      S_QR(p)
      [t] = __ldg(g + HOFLOW_GEO_RX) * qx + __ldg(g + HOFLOW_GEO_RY) * qy;
      S_QS(p)
      [t] = __ldg(g + HOFLOW_GEO_SX) * qx + __ldg(g + HOFLOW_GEO_SY) * qy;
    }
  }
  __syncthreads();
  // volume term -div q + lambda u; surface fluxes s (overwrite w_x)
  double r[P];
  if (t < NP) {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) {
      const double dr = __ldg(d.DrT + j * NP + t), ds = __ldg(d.DsT + j * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) a[p] += dr * S_QR(p)[j] + ds * S_QS(p)[j];
    }
#pragma unroll
    for (int p = 0; p < P; p++) r[p] = e0 + p < d.K ? -a[p] + d.lambda * u[d.elem_cell[e0 + p] * NP + t] : 0.0;
  }
  if (t < NFN) {
    const int f = t / NFP, m = __ldg(d.face_nodes + t);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = e0 + p;
      if (e >= d.K) break;
      const double *sg = d.sgeo + (e * NF + f) * HOFLOW_SGEO_SIZE;
      const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J], tau = sg[HOFLOW_SGEO_TAU];
      S_WX(p)
      [t] = sj * (0.5 * S_DGN(p)[t] + tau * S_DU(p)[t] - (nx * S_LX(p)[m] + ny * S_LY(p)[m]));
    }
  }
  __syncthreads();
  if (t < NP) {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
    RowTimesBatch<NP, NFN, P>(d.LIFTT, t, S_WX(0), S, a);
#pragma unroll
    for (int p = 0; p < P; p++) S_R(p)
    [t] = r[p] - a[p];
  }
  __syncthreads();
  // multiply by the element mass matrix J M
  if (t < NP) {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
    RowTimesBatch<NP, NP, P>(d.MT, t, S_R(0), S, a);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = e0 + p;
      if (e < d.K) Au[e * NP + t] = __ldg(d.geo + d.elem_cell[e] * HOFLOW_GEO_SIZE + HOFLOW_GEO_J) * a[p];
    }
  }
#undef S_DU
#undef S_DGN
#undef S_WX
#undef S_WY
#undef S_LX
#undef S_LY
#undef S_QR
#undef S_QS
#undef S_R
}

// Most threads a block of this kernel may have, given its registers.
template <typename Kernel>
static int MaxThreadsPerBlock(Kernel kernel)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, kernel) == cudaSuccess ? attr.maxThreadsPerBlock : 256;
}

static int ThreadsPerRow(int kernel, int Nfaces, int N)
{
  const int Np = Nfaces == 3 ? (N + 1) * (N + 2) / 2 : (N + 1) * (N + 1), nfn = Nfaces * (N + 1);
  return kernel == 0 ? Np : (Np > nfn ? Np : nfn);
}

extern "C" int IPDGElementsPerBlock(int kernel, int Nfaces, int N)
{
  const int rows = tuned[kernel][Nfaces == 3 ? 0 : 1][N].rows, threads = ThreadsPerRow(kernel, Nfaces, N);
  return rows ? rows : (256 / threads > 1 ? 256 / threads : 1);
}

extern "C" int IPDGElementsPerThread(int kernel, int Nfaces, int N)
{
  const int p = tuned[kernel][Nfaces == 3 ? 0 : 1][N].per_thread;
  return p ? p : 1;
}

template <int NP, int NFP, int NF, int P>
static int LaunchGradientP(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
  int              rows        = d->elements_per_block[0] ? d->elements_per_block[0] : IPDGElementsPerBlock(0, NF, NFP - 1);
  static const int max_threads = MaxThreadsPerBlock(GradientKernel<NP, P>); /* once per instantiation */
  while (rows > 1 && (rows * P * NP * sizeof(double) > shared_limit || rows * NP > max_threads)) rows--;
  const int grid = (d->Klocal + rows * P - 1) / (rows * P);
  if (grid) GradientKernel<NP, P><<<grid, dim3(NP, rows), rows * P * NP * sizeof(double), (cudaStream_t)d->stream>>>(*d, u, gx, gy);
  return (int)cudaGetLastError();
}

template <int NP, int NFP, int NF>
static int LaunchGradient(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
  switch (d->elements_per_thread[0] ? d->elements_per_thread[0] : IPDGElementsPerThread(0, NF, NFP - 1)) {
  case 1:
    return LaunchGradientP<NP, NFP, NF, 1>(d, u, gx, gy);
  case 2:
    return LaunchGradientP<NP, NFP, NF, 2>(d, u, gx, gy);
  case 4:
    return LaunchGradientP<NP, NFP, NF, 4>(d, u, gx, gy);
  case 8:
    return LaunchGradientP<NP, NFP, NF, 8>(d, u, gx, gy);
  default:
    return (int)cudaErrorInvalidValue;
  }
}

template <int NP, int NFP, int NF, int P>
static int LaunchApplyP(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc, double *Au)
{
  constexpr int    NFN = NF * NFP, threads = NP > NFN ? NP : NFN;
  constexpr size_t per_row     = P * ApplySharedPerElement(NP, NFN) * sizeof(double);
  int              rows        = d->elements_per_block[1] ? d->elements_per_block[1] : IPDGElementsPerBlock(1, NF, NFP - 1);
  static const int max_threads = MaxThreadsPerBlock(ApplyKernel<NP, NFP, NF, P>); /* once per instantiation */
  while (rows > 1 && (rows * per_row > shared_limit || rows * threads > max_threads)) rows--;
  if (per_row > shared_limit) return (int)cudaErrorInvalidConfiguration;
  const int grid = (d->K + rows * P - 1) / (rows * P);
  if (grid) ApplyKernel<NP, NFP, NF, P><<<grid, dim3(threads, rows), rows * per_row, (cudaStream_t)d->stream>>>(*d, u, gx, gy, bc, Au);
  return (int)cudaGetLastError();
}

template <int NP, int NFP, int NF>
static int LaunchApply(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc, double *Au)
{
  switch (d->elements_per_thread[1] ? d->elements_per_thread[1] : IPDGElementsPerThread(1, NF, NFP - 1)) {
  case 1:
    return LaunchApplyP<NP, NFP, NF, 1>(d, u, gx, gy, bc, Au);
  case 2:
    return LaunchApplyP<NP, NFP, NF, 2>(d, u, gx, gy, bc, Au);
  case 4:
    return LaunchApplyP<NP, NFP, NF, 4>(d, u, gx, gy, bc, Au);
  case 8:
    return LaunchApplyP<NP, NFP, NF, 8>(d, u, gx, gy, bc, Au);
  default:
    return (int)cudaErrorInvalidValue;
  }
}

// Instantiate for triangles (3 faces, Np = (N+1)(N+2)/2) and quadrilaterals (4 faces, Np = (N+1)^2).
#define HOFLOW_CUDA_CASE(LAUNCH, NN, ...)                                 \
  case 300 + NN:                                                          \
    return LAUNCH<((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3>(__VA_ARGS__); \
  case 400 + NN:                                                          \
    return LAUNCH<((NN) + 1) * ((NN) + 1), (NN) + 1, 4>(__VA_ARGS__);
#define HOFLOW_CUDA_DISPATCH(d, LAUNCH, ...)  \
  switch ((d)->Nfaces * 100 + (d)->N) {       \
    HOFLOW_CUDA_CASE(LAUNCH, 1, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 2, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 3, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 4, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 5, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 6, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 7, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 8, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 9, __VA_ARGS__)  \
    HOFLOW_CUDA_CASE(LAUNCH, 10, __VA_ARGS__) \
  default:                                    \
    return (int)cudaErrorInvalidValue;        \
  }

extern "C" int IPDGGradientCUDA(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
  HOFLOW_CUDA_DISPATCH(d, LaunchGradient, d, u, gx, gy)
}

extern "C" int IPDGApplyCUDA(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au){
    HOFLOW_CUDA_DISPATCH(d, LaunchApply, d, u, gx, gy, bc_data, Au)}

// The diagonal: one element per thread from the reference tables (DiagonalElement, shared with the
// host kernel). It runs once per operator setup (Jacobi, Chebyshev), so it is not tuned.
__global__ void DiagonalKernel(const IPDGKernelData d, double *__restrict__ diag)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) DiagonalElement(&d, d.Np, d.Nfp, d.Nfaces, e, diag + e * d.Np);
}

extern "C" int IPDGDiagonalCUDA(const IPDGKernelData *d, double *diag)
{
  if (d->K) DiagonalKernel<<<(d->K + 127) / 128, 128, 0, (cudaStream_t)d->stream>>>(*d, diag);
  return (int)cudaGetLastError();
}
