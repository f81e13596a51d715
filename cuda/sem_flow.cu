// CUDA twins of the flow kernels of continuous spectral elements (src/kernels/sem_flow.c,
// hoflow/kernels/sem_flow.h): the convection u.grad u (collocated, or over-integrated with the 3/2 rule),
// the pressure's right-hand side with the rotational term (F - nu curl curl u*, grad phi), the velocity's
// (F - grad p, phi) / nu, the collocated divergence and the enstrophy integrand of each element.
//
// One element a thread block, the element's fields in (dynamic) shared memory, each 1D pass of the host's
// sum factorization done by all threads of the block (a thread an output entry, a loop where the entries
// outnumber the threads), pointwise steps a thread a node; the same operations in the same order as the
// host kernels, so the two agree to round-off (nvcc's fused multiply-adds). These kernels run once or twice
// a time step next to Krylov solves that apply the elliptic line kernel (cuda/sem.cu) tens of times, so
// they are written for any dim and N at run time, not per order. Shared dofs are added atomically.
// No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/sem_flow.h>

#if defined(HOFLOW_EMU)
#  define SEM_FLOW_SHARED(name) static double name[1 << 17]
#else
#  define SEM_FLOW_SHARED(name) extern __shared__ double name[]
#endif

namespace {

// out = A along direction dir of an array whose directions below dir have n_out entries and those above
// n_in (SEMTensorApply's order; n_in = n_out: Pass of hoflow/kernels/tensor.h): out[(o n_out + i) inner + c]
// (+)= sum_k A[i n_in + k] in[(o n_in + k) inner + c]. acc: add to out, starting from its value as Pass does.
__device__ void BlockPass(int dim, int dir, int n_in, int n_out, const double *__restrict__ A, const double *in, double *out, bool acc)
{
  int inner = 1, outer = 1;
  for (int d = 0; d < dir; d++) inner *= n_out;
  for (int d = dir + 1; d < dim; d++) outer *= n_in;
  const int total = outer * n_out * inner;
  for (int t = threadIdx.x; t < total; t += blockDim.x) {
    const int     c = t % inner, i = (t / inner) % n_out, o = t / (inner * n_out);
    const double *ip = in + o * n_in * inner + c;
    double        s  = acc ? out[t] : 0.0;
    for (int k = 0; k < n_in; k++) s += A[i * n_in + k] * ip[k * inner];
    out[t] = s;
  }
}

// SEMTensorApply: A[dir] along every direction, through the two work arrays w0, w1 (max(n_in, n_out)^dim
// each); the result in w[1 - dim % 2] (the work array the last pass does not read), returned.
__device__ double *BlockTensorApply(int dim, int n_in, int n_out, const double *const A[], const double *in, double *w0, double *w1)
{
  const double *src = in;
  double       *dst = w0;
  for (int dir = 0; dir < dim; dir++) {
    dst = dir % 2 ? w1 : w0;
    BlockPass(dim, dir, n_in, n_out, A[dir], src, dst, false);
    __syncthreads();
    src = dst;
  }
  return dst;
}

// r[a Np + q] = (D_a f)(q), a < dim (ElementGradient's first half); synchronized.
__device__ void BlockReferenceGradient(const SEMFlowKernelData &d, const double *f, double *r)
{
  for (int a = 0; a < d.dim; a++) BlockPass(d.dim, a, d.N1, d.N1, d.D1, f, r + a * d.Np, false);
  __syncthreads();
}

// d f / d x_j at node q from the reference derivatives r (ElementGradient's second half).
__device__ __forceinline__ double NodeDerivative(const SEMFlowKernelData &d, const double *g, const double *r, int q, int j)
{
  double s = 0;
  for (int a = 0; a < d.dim; a++) s += g[q * d.dim * d.dim + j * d.dim + a] * r[a * d.Np + q];
  return s;
}

__device__ void BlockGather(const SEMFlowKernelData &d, const int *gather, const double *u, double *ue)
{
  for (int c = 0; c < d.dim; c++)
    for (int i = threadIdx.x; i < d.Np; i += blockDim.x) ue[c * d.Np + i] = u[gather[i] + c];
  __syncthreads();
}

// w = curl u of the element's velocity ue (ElementVorticity: component by component of u); r: dim Np.
__device__ void BlockVorticity(const SEMFlowKernelData &d, const double *g, const double *ue, double *w, double *r)
{
  const int dim = d.dim, Np = d.Np;
  for (int q = threadIdx.x; q < (dim == 2 ? 1 : 3) * Np; q += blockDim.x) w[q] = 0;
  for (int c = 0; c < dim; c++) {
    BlockReferenceGradient(d, ue + c * Np, r);
    for (int q = threadIdx.x; q < Np; q += blockDim.x) {
      if (dim == 2) {
        if (c == 0)
          w[q] -= NodeDerivative(d, g, r, q, 1);
        else
          w[q] += NodeDerivative(d, g, r, q, 0);
      } else {
        const double g0 = NodeDerivative(d, g, r, q, 0), g1 = NodeDerivative(d, g, r, q, 1), g2 = NodeDerivative(d, g, r, q, 2);
        if (c == 0) w[Np + q] += g2, w[2 * Np + q] -= g1;
        if (c == 1) w[q] -= g2, w[2 * Np + q] += g0;
        if (c == 2) w[q] += g1, w[Np + q] -= g0;
      }
    }
    __syncthreads();
  }
}

// shared: ue (dim Np), r (dim Np)
__global__ void ConvectionKernel(const SEMFlowKernelData d, const double *__restrict__ u, double *__restrict__ C)
{
  SEM_FLOW_SHARED(smem);
  const int     dim = d.dim, Np = d.Np;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np;
  const double *g = d.g + e * Np * dim * dim, *wJ = d.wJ + e * Np;
  double       *ue = smem, *r = ue + dim * Np;

  BlockGather(d, gather, u, ue);
  for (int c = 0; c < dim; c++) {
    BlockReferenceGradient(d, ue + c * Np, r);
    for (int q = threadIdx.x; q < Np; q += blockDim.x) {
      double s = 0;
      for (int j = 0; j < dim; j++) s += ue[j * Np + q] * NodeDerivative(d, g, r, q, j);
      atomicAdd(C + gather[q] + c, wJ[q] * s);
    }
    __syncthreads();
  }
}

// The 3/2 rule. shared: ue (dim Np), U (dim Nqp), cq (Nqp), w0, w1 (M^dim each, M = max(Nq, N1)).
__global__ void ConvectionDealiasKernel(const SEMFlowKernelData d, const double *__restrict__ u, double *__restrict__ C)
{
  SEM_FLOW_SHARED(smem);
  const int dim = d.dim, Np = d.Np, N1 = d.N1, Nq = d.Nq, M = Nq > N1 ? Nq : N1;
  int       Nqp = 1, Mp = 1;
  for (int k = 0; k < dim; k++) Nqp *= Nq, Mp *= M;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np;
  const double *g = d.gq + e * Nqp * dim * dim, *wJ = d.wJq + e * Nqp;
  double       *ue = smem, *U = ue + dim * Np, *cq = U + dim * Nqp, *w0 = cq + Nqp, *w1 = w0 + Mp;

  BlockGather(d, gather, u, ue);
  for (int q = threadIdx.x; q < dim * Nqp; q += blockDim.x) U[q] = 0;
  for (int j = 0; j < dim; j++) {
    const double *const B[3] = {d.B, d.B, d.B};
    const double       *uq   = BlockTensorApply(dim, N1, Nq, B, ue + j * Np, w0, w1);
    for (int q = threadIdx.x; q < Nqp; q += blockDim.x)
      for (int a = 0; a < dim; a++) U[a * Nqp + q] += uq[q] * g[q * dim * dim + j * dim + a];
    __syncthreads();
  }
  for (int c = 0; c < dim; c++) {
    for (int q = threadIdx.x; q < Nqp; q += blockDim.x) cq[q] = 0;
    for (int a = 0; a < dim; a++) {
      const double *A[3] = {d.B, d.B, d.B};
      A[a]               = d.DB;
      const double *dc   = BlockTensorApply(dim, N1, Nq, A, ue + c * Np, w0, w1);
      for (int q = threadIdx.x; q < Nqp; q += blockDim.x) cq[q] += U[a * Nqp + q] * dc[q];
      __syncthreads();
    }
    for (int q = threadIdx.x; q < Nqp; q += blockDim.x) cq[q] *= wJ[q];
    __syncthreads();
    const double *const BT[3] = {d.BT, d.BT, d.BT};
    const double       *ce    = BlockTensorApply(dim, Nq, N1, BT, cq, w0, w1);
    for (int i = threadIdx.x; i < Np; i += blockDim.x) atomicAdd(C + gather[i] + c, ce[i]);
    __syncthreads();
  }
}

// shared: se then cc (3 Np), w then t (3 Np), r then out (3 Np)
__global__ void PressureRHSKernel(const SEMFlowKernelData d, double nu, const double *__restrict__ F, const double *__restrict__ ustar, double *__restrict__ b)
{
  SEM_FLOW_SHARED(smem);
  const int     dim = d.dim, Np = d.Np, N1 = d.N1;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np, *pg = d.pgather + e * Np;
  const double *g = d.g + e * Np * dim * dim, *wJ = d.wJ + e * Np;
  double       *se = smem, *cc = smem, *w = se + 3 * Np, *t = w, *r = w + 3 * Np, *out = r;

  BlockGather(d, gather, ustar, se);
  BlockVorticity(d, g, se, w, r);
  // cc = curl curl u* (ElementCurlCurl), over se (no longer read)
  if (dim == 2) {
    BlockReferenceGradient(d, w, r);
    for (int q = threadIdx.x; q < Np; q += blockDim.x) {
      cc[q]      = NodeDerivative(d, g, r, q, 1);
      cc[Np + q] = -NodeDerivative(d, g, r, q, 0);
    }
  } else {
    for (int q = threadIdx.x; q < 3 * Np; q += blockDim.x) cc[q] = 0;
    for (int k = 0; k < 3; k++) {
      BlockReferenceGradient(d, w + k * Np, r);
      for (int q = threadIdx.x; q < Np; q += blockDim.x) {
        const double g0 = NodeDerivative(d, g, r, q, 0), g1 = NodeDerivative(d, g, r, q, 1), g2 = NodeDerivative(d, g, r, q, 2);
        if (k == 0) cc[Np + q] += g2, cc[2 * Np + q] -= g1;
        if (k == 1) cc[2 * Np + q] += g0, cc[q] -= g2;
        if (k == 2) cc[q] += g1, cc[Np + q] -= g0;
      }
      __syncthreads();
    }
  }
  __syncthreads();
  // t_a = wJ sum_j (dr_a/dx_j) (F - nu curl curl u*)_j, over w (no longer read)
  for (int q = threadIdx.x; q < Np; q += blockDim.x)
    for (int a = 0; a < dim; a++) {
      double s = 0;
      for (int j = 0; j < dim; j++) s += g[q * dim * dim + j * dim + a] * (F[gather[q] + j] - nu * cc[j * Np + q]);
      t[a * Np + q] = wJ[q] * s;
    }
  __syncthreads();
  for (int a = 0; a < dim; a++) {
    BlockPass(dim, a, N1, N1, d.D1T, t + a * Np, out, a > 0);
    __syncthreads();
  }
  for (int i = threadIdx.x; i < Np; i += blockDim.x) atomicAdd(b + pg[i], out[i]);
}

// shared: pe (Np), r (dim Np)
__global__ void VelocityRHSKernel(const SEMFlowKernelData d, double nu, const double *__restrict__ F, const double *__restrict__ p, double *__restrict__ b)
{
  SEM_FLOW_SHARED(smem);
  const int     dim = d.dim, Np = d.Np;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np, *pg = d.pgather + e * Np;
  const double *g = d.g + e * Np * dim * dim, *wJ = d.wJ + e * Np;
  double       *pe = smem, *r = pe + Np;

  for (int i = threadIdx.x; i < Np; i += blockDim.x) pe[i] = p[pg[i]];
  __syncthreads();
  BlockReferenceGradient(d, pe, r);
  for (int i = threadIdx.x; i < Np; i += blockDim.x)
    for (int c = 0; c < dim; c++) atomicAdd(b + gather[i] + c, wJ[i] * (F[gather[i] + c] - NodeDerivative(d, g, r, i, c)) / nu);
}

// shared: ue (dim Np), r (dim Np)
__global__ void DivergenceKernel(const SEMFlowKernelData d, const double *__restrict__ u, double *__restrict__ div)
{
  SEM_FLOW_SHARED(smem);
  const int     dim = d.dim, Np = d.Np;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np, *pg = d.pgather + e * Np;
  const double *g = d.g + e * Np * dim * dim, *wJ = d.wJ + e * Np;
  double       *ue = smem, *r = ue + dim * Np, *de = r + dim * Np;

  BlockGather(d, gather, u, ue);
  for (int i = threadIdx.x; i < Np; i += blockDim.x) de[i] = 0;
  for (int c = 0; c < dim; c++) {
    BlockReferenceGradient(d, ue + c * Np, r);
    for (int i = threadIdx.x; i < Np; i += blockDim.x) de[i] += NodeDerivative(d, g, r, i, c);
    __syncthreads();
  }
  for (int i = threadIdx.x; i < Np; i += blockDim.x) atomicAdd(div + pg[i], wJ[i] * de[i]);
}

// shared: ue (dim Np), w (3 Np), r (dim Np), the block's partial sums (blockDim)
__global__ void EnstrophyKernel(const SEMFlowKernelData d, const double *__restrict__ u, double *__restrict__ elem)
{
  SEM_FLOW_SHARED(smem);
  const int     dim = d.dim, Np = d.Np, nw = dim == 2 ? 1 : 3;
  const size_t  e      = blockIdx.x;
  const int    *gather = d.ugather + e * Np;
  const double *g = d.g + e * Np * dim * dim, *wJ = d.wJ + e * Np;
  double       *ue = smem, *w = ue + dim * Np, *r = w + 3 * Np, *part = r + dim * Np;
  double        s = 0;

  BlockGather(d, gather, u, ue);
  BlockVorticity(d, g, ue, w, r);
  for (int q = threadIdx.x; q < Np; q += blockDim.x) {
    double w2 = 0;
    for (int k = 0; k < nw; k++) w2 += w[k * Np + q] * w[k * Np + q];
    s += wJ[q] * w2;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double sum = 0;
    for (unsigned k = 0; k < blockDim.x; k++) sum += part[k];
    elem[e] = sum;
  }
}

// Threads a block: the element's nodes rounded up to warps, at most 256 (loops take the rest).
int FlowThreads(const SEMFlowKernelData *d)
{
  const int n = (d->Np + 31) / 32 * 32;
  return n < 256 ? n : 256;
}

// Launch kernel on one block an element with `doubles` of dynamic shared memory (above the default 48 KB
// the kernel is allowed more, up to the device's limit; beyond it: cudaErrorInvalidConfiguration).
template <class Kernel, class... Args>
int FlowLaunch(Kernel kernel, const SEMFlowKernelData *d, size_t doubles, void *stream, Args... args)
{
  const size_t bytes = doubles * sizeof(double);
  if (!d->K) return 0;
  if (bytes > 48 * 1024) {
    int         device = 0, limit = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (!err) err = cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (err) return (int)err;
    if (bytes > (size_t)limit) return (int)cudaErrorInvalidConfiguration;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err) return (int)err;
  }
  kernel<<<(unsigned)d->K, FlowThreads(d), bytes, (cudaStream_t)stream>>>(*d, args...);
  return (int)cudaGetLastError();
}

} // namespace

extern "C" int SEMFlowConvectionCUDA(const SEMFlowKernelData *d, const double *u, double *C, void *stream)
{
  if (!d->Nq) return FlowLaunch(ConvectionKernel, d, (size_t)2 * d->dim * d->Np, stream, u, C);
  size_t Nqp = 1, Mp = 1;
  for (int k = 0; k < d->dim; k++) Nqp *= d->Nq, Mp *= d->Nq > d->N1 ? d->Nq : d->N1;
  return FlowLaunch(ConvectionDealiasKernel, d, d->dim * d->Np + (d->dim + 1) * Nqp + 2 * Mp, stream, u, C);
}

extern "C" int SEMFlowPressureRHSCUDA(const SEMFlowKernelData *d, double nu, const double *F, const double *ustar, double *b, void *stream)
{
  return FlowLaunch(PressureRHSKernel, d, (size_t)9 * d->Np, stream, nu, F, ustar, b);
}

extern "C" int SEMFlowVelocityRHSCUDA(const SEMFlowKernelData *d, double nu, const double *F, const double *p, double *b, void *stream)
{
  return FlowLaunch(VelocityRHSKernel, d, (size_t)(1 + d->dim) * d->Np, stream, nu, F, p, b);
}

extern "C" int SEMFlowDivergenceCUDA(const SEMFlowKernelData *d, const double *u, double *div, void *stream)
{
  return FlowLaunch(DivergenceKernel, d, (size_t)(2 * d->dim + 1) * d->Np, stream, u, div);
}

extern "C" int SEMFlowEnstrophyCUDA(const SEMFlowKernelData *d, const double *u, double *elem, void *stream)
{
  return FlowLaunch(EnstrophyKernel, d, (size_t)(2 * d->dim + 3) * d->Np + FlowThreads(d), stream, u, elem);
}
