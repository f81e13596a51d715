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

// Elements per thread block, per [shape: 0 triangle, 1 quadrilateral][N], for the gradient and
// apply kernels; 0 means "about 256 threads". Tuned with bench/ipdg_bench (see bench/README.md).
static const int epb_table[2][2][HOFLOW_NMAX + 1] = {
  {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
  {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
};

static const size_t shared_limit = 48 * 1024; // static limit without cudaFuncSetAttribute

template <int NP>
__global__ void GradientKernel(const IPDGKernelData d, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy)
{
  extern __shared__ double smem[];
  const int i = threadIdx.x, c = blockIdx.x * blockDim.y + threadIdx.y;
  double   *su = smem + threadIdx.y * NP;

  if (c < d.Klocal) su[i] = u[c * NP + i];
  __syncthreads();
  if (c >= d.Klocal) return;
  double ur = 0, us = 0;
#pragma unroll
  for (int j = 0; j < NP; j++) {
    const double uj = su[j];
    ur += __ldg(d.DrT + j * NP + i) * uj;
    us += __ldg(d.DsT + j * NP + i) * uj;
  }
  const double *g = d.geo + c * HOFLOW_GEO_SIZE;
  gx[c * NP + i]  = __ldg(g + HOFLOW_GEO_RX) * ur + __ldg(g + HOFLOW_GEO_SX) * us;
  gy[c * NP + i]  = __ldg(g + HOFLOW_GEO_RY) * ur + __ldg(g + HOFLOW_GEO_SY) * us;
}

// Per element shared memory (doubles): du, dgn, wx, wy on face nodes; Lx, Ly, qr, qs, r on nodes.
__host__ __device__ constexpr int ApplySharedPerElement(int NP, int NFN)
{
  return 4 * NFN + 5 * NP;
}

template <int NP, int NFP, int NF>
__global__ void ApplyKernel(const IPDGKernelData d, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ bc, double *__restrict__ Au)
{
  constexpr int NFN = NF * NFP;
  extern __shared__ double smem[];
  const int  t = threadIdx.x, e = blockIdx.x * blockDim.y + threadIdx.y;
  const bool active = e < d.K;
  double    *s_du = smem + threadIdx.y * ApplySharedPerElement(NP, NFN);
  double    *s_dgn = s_du + NFN, *s_wx = s_dgn + NFN, *s_wy = s_wx + NFN;
  double    *s_Lx = s_wy + NFN, *s_Ly = s_Lx + NP, *s_qr = s_Ly + NP, *s_qs = s_qr + NP, *s_r = s_qs + NP;
  const int  cell = active ? d.elem_cell[e] : 0, base = cell * NP;
  const double *g = d.geo + cell * HOFLOW_GEO_SIZE;

  // jumps of u and of the normal derivative at the face nodes (mirror states on the boundary)
  if (active && t < NFN) {
    const int     f = t / NFP;
    const double *sg = d.sgeo + (e * NF + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
    const int     type = d.face_type[e * NF + f], idM = base + __ldg(d.face_nodes + t);
    const double  uM = u[idM], gnM = nx * gx[idM] + ny * gy[idM];
    const double  bcv = bc ? bc[e * NFN + t] : 0.0;
    double        ju, jg;
    if (type == HOFLOW_FACE_INTERIOR) {
      const int idP = d.vmapP[e * NFN + t];
      ju            = u[idP] - uM;
      jg            = nx * gx[idP] + ny * gy[idP] - gnM;
    } else if (type == HOFLOW_FACE_DIRICHLET) {
      ju = 2.0 * (bcv - uM);
      jg = 0.0;
    } else {
      ju = 0.0;
      jg = 2.0 * (bcv - gnM);
    }
    s_du[t]  = ju;
    s_dgn[t] = jg;
    s_wx[t]  = 0.5 * nx * sj * ju;
    s_wy[t]  = 0.5 * ny * sj * ju;
  }
  __syncthreads();
  // lifted jumps Lvec and the volume flux q = grad u + Lvec in reference directions
  if (active && t < NP) {
    double lx = 0, ly = 0;
#pragma unroll
    for (int n = 0; n < NFN; n++) {
      const double L = __ldg(d.LIFTT + n * NP + t);
      lx += L * s_wx[n];
      ly += L * s_wy[n];
    }
    s_Lx[t]         = lx;
    s_Ly[t]         = ly;
    const double qx = gx[base + t] + lx, qy = gy[base + t] + ly;
    s_qr[t]         = __ldg(g + HOFLOW_GEO_RX) * qx + __ldg(g + HOFLOW_GEO_RY) * qy;
    s_qs[t]         = __ldg(g + HOFLOW_GEO_SX) * qx + __ldg(g + HOFLOW_GEO_SY) * qy;
  }
  __syncthreads();
  // volume term -div q + lambda u; surface fluxes s (overwrite wx)
  double r = 0;
  if (active && t < NP) {
    double a = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) a += __ldg(d.DrT + j * NP + t) * s_qr[j] + __ldg(d.DsT + j * NP + t) * s_qs[j];
    r = -a + d.lambda * u[base + t];
  }
  if (active && t < NFN) {
    const int     f = t / NFP, m = __ldg(d.face_nodes + t);
    const double *sg = d.sgeo + (e * NF + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J], tau = sg[HOFLOW_SGEO_TAU];
    s_wx[t]          = sj * (0.5 * s_dgn[t] + tau * s_du[t] - (nx * s_Lx[m] + ny * s_Ly[m]));
  }
  __syncthreads();
  if (active && t < NP) {
    double a = 0;
#pragma unroll
    for (int n = 0; n < NFN; n++) a += __ldg(d.LIFTT + n * NP + t) * s_wx[n];
    s_r[t] = r - a;
  }
  __syncthreads();
  // multiply by the element mass matrix J M
  if (active && t < NP) {
    double a = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) a += __ldg(d.MT + j * NP + t) * s_r[j];
    Au[e * NP + t] = __ldg(g + HOFLOW_GEO_J) * a;
  }
}

extern "C" int IPDGElementsPerBlock(int kernel, int Nfaces, int N)
{
  const int shape = Nfaces == 3 ? 0 : 1;
  const int Np = shape ? (N + 1) * (N + 1) : (N + 1) * (N + 2) / 2, nfn = Nfaces * (N + 1);
  const int threads = kernel == 0 ? Np : (Np > nfn ? Np : nfn);
  int       epb     = epb_table[kernel][shape][N];
  if (!epb) epb = 256 / threads > 1 ? 256 / threads : 1;
  return epb;
}

template <int NP, int NFP, int NF>
static int LaunchGradient(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
  int epb = d->elements_per_block[0] ? d->elements_per_block[0] : IPDGElementsPerBlock(0, NF, NFP - 1);
  while (epb > 1 && epb * NP * sizeof(double) > shared_limit) epb--;
  const int grid = (d->Klocal + epb - 1) / epb;
  if (grid) GradientKernel<NP><<<grid, dim3(NP, epb), epb * NP * sizeof(double), (cudaStream_t)d->stream>>>(*d, u, gx, gy);
  return (int)cudaGetLastError();
}

template <int NP, int NFP, int NF>
static int LaunchApply(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc, double *Au)
{
  constexpr int NFN = NF * NFP, threads = NP > NFN ? NP : NFN;
  constexpr size_t per_element = ApplySharedPerElement(NP, NFN) * sizeof(double);
  int epb = d->elements_per_block[1] ? d->elements_per_block[1] : IPDGElementsPerBlock(1, NF, NFP - 1);
  while (epb > 1 && epb * per_element > shared_limit) epb--;
  const int grid = (d->K + epb - 1) / epb;
  if (grid) ApplyKernel<NP, NFP, NF><<<grid, dim3(threads, epb), epb * per_element, (cudaStream_t)d->stream>>>(*d, u, gx, gy, bc, Au);
  return (int)cudaGetLastError();
}

// Instantiate for triangles (3 faces, Np = (N+1)(N+2)/2) and quadrilaterals (4 faces, Np = (N+1)^2).
#define HOFLOW_CUDA_CASE(LAUNCH, NN, ...) \
  case 300 + NN: \
    return LAUNCH<((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3>(__VA_ARGS__); \
  case 400 + NN: \
    return LAUNCH<((NN) + 1) * ((NN) + 1), (NN) + 1, 4>(__VA_ARGS__);
#define HOFLOW_CUDA_DISPATCH(d, LAUNCH, ...) \
  switch ((d)->Nfaces * 100 + (d)->N) { \
    HOFLOW_CUDA_CASE(LAUNCH, 1, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 2, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 3, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 4, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 5, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 6, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 7, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 8, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 9, __VA_ARGS__) \
    HOFLOW_CUDA_CASE(LAUNCH, 10, __VA_ARGS__) \
  default: \
    return (int)cudaErrorInvalidValue; \
  }

extern "C" int IPDGGradientCUDA(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
  HOFLOW_CUDA_DISPATCH(d, LaunchGradient, d, u, gx, gy)
}

extern "C" int IPDGApplyCUDA(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au)
{
  HOFLOW_CUDA_DISPATCH(d, LaunchApply, d, u, gx, gy, bc_data, Au)
}
