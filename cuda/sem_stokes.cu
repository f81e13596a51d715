// CUDA twins of the spectral-element Stokes coupling (src/kernels/sem_stokes.c, hoflow/kernels/sem_stokes.h):
// the divergence B (velocity -> pressure), the gradient G = B^T and the consistent Taylor-Hood pressure mass.
//
// Layout: one element per slot of N1^2 threads (several slots a block where N1^2 < 64, so a block has at
// least 64 threads), the element's arrays in shared memory (N1^dim doubles each: the Gauss points and the
// pressure nodes are no more a direction than the velocity's GLL nodes), every rectangular 1D pass (Ng x N1,
// N1 x Ng, Ng x Np1) a loop of the slot's threads over the pass's outputs, a barrier between passes.
//   B:  for each velocity component j: u_j gathered; the reference derivatives at the Gauss points by 8
//       passes in 3D (dir 0: B and D; dir 1: BB, BD, DB; dir 2 fused with the metric: t_q += sum_a g_ja
//       D~_a u_j), 3 in 2D; then t_q *= w_q J_q and, for Taylor-Hood, dim passes of Bpq^T and an atomic
//       scatter through the pressure's gather (qn_qn2: added to the element's own values).
//   G:  t_q = w_q J_q p(x_q) (Taylor-Hood: dim passes of Bpq from the gathered pressure); for each component
//       s_a = g_ja t, the transposed passes in the reverse direction order (dir 2: three, dir 1: three,
//       dir 0 fused with the sum over a), atomically added to the velocity where it is not Dirichlet.
//   M_c: dim passes of Bpq, w J, dim passes of Bpq^T, atomic scatter.
// Affine meshes (d.affine): w_q J and g from 1 + dim^2 numbers an element and the Gauss weights, formed as the
// host setup forms them (so equal to the stored factors to the bit). Instances per (dim, N1 = 3..9, pair). The
// summation order of the passes differs from the host's (dir 2 first in G), so the two agree to round-off, not
// to the bit. No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/sem_stokes.h>

namespace {

template <int DIM, int N1, bool TH>
struct SEMStokesShape {
  static constexpr int NG      = TH ? N1 : N1 - 2; // Gauss points a direction
  static constexpr int NP1     = TH ? N1 - 1 : NG; // pressure nodes a direction
  static constexpr int NP      = DIM == 2 ? N1 * N1 : N1 * N1 * N1;
  static constexpr int NPP     = DIM == 2 ? NG * NG : NG * NG * NG;
  static constexpr int NPE     = DIM == 2 ? NP1 * NP1 : NP1 * NP1 * NP1;
  static constexpr int VOL     = NP; // an element array (N1 >= NG >= NP1)
  static constexpr int NT      = N1 * N1;
  static constexpr int E       = NT >= 64 ? 1 : (64 + NT - 1) / NT; // elements a block
  static constexpr int THREADS = NT * E;
  static_assert(NPE <= NPP && NPP <= VOL, "the element arrays hold the Gauss points and the pressure nodes");
};

// out = A along direction DIR of in: in has dims S0 x S1 x S2 (the first fastest, S_DIR = NIN), out the same with
// NOUT along DIR; A is NOUT x NIN row-major. The slot's NT threads share the outputs.
template <int DIR, int NIN, int NOUT, int S0, int S1, int S2, int NT>
__device__ __forceinline__ void Pass(const double *A, const double *in, double *out, int tid)
{
  constexpr int O0 = DIR == 0 ? NOUT : S0, O1 = DIR == 1 ? NOUT : S1, O2 = DIR == 2 ? NOUT : S2;
  constexpr int STRIDE = DIR == 0 ? 1 : DIR == 1 ? S0 : S0 * S1;
  for (int idx = tid; idx < O0 * O1 * O2; idx += NT) {
    const int o0 = idx % O0, o1 = (idx / O0) % O1, o2 = idx / (O0 * O1);
    const int od = DIR == 0 ? o0 : DIR == 1 ? o1 : o2;
    const int base = (DIR == 0 ? 0 : o0) + S0 * ((DIR == 1 ? 0 : o1) + S1 * (DIR == 2 ? 0 : o2));
    double    s    = 0;
#pragma unroll
    for (int k = 0; k < NIN; k++) s += A[od * NIN + k] * in[base + k * STRIDE];
    out[idx] = s;
  }
}

// out = (A x A [x A]) in, NIN^DIM -> NOUT^DIM, through w1 (and w2 in 3D); barriers between the passes (in ready before).
template <int DIM, int NIN, int NOUT, int NT>
__device__ __forceinline__ void Interpolate(const double *A, const double *in, double *w1, double *w2, double *out, int tid)
{
  if constexpr (DIM == 3) {
    Pass<0, NIN, NOUT, NIN, NIN, NIN, NT>(A, in, w1, tid);
    __syncthreads();
    Pass<1, NIN, NOUT, NOUT, NIN, NIN, NT>(A, w1, w2, tid);
    __syncthreads();
    Pass<2, NIN, NOUT, NOUT, NOUT, NIN, NT>(A, w2, out, tid);
  } else {
    (void)w2;
    Pass<0, NIN, NOUT, NIN, NIN, 1, NT>(A, in, w1, tid);
    __syncthreads();
    Pass<1, NIN, NOUT, NOUT, NIN, 1, NT>(A, w1, out, tid);
  }
  __syncthreads();
}

// w_q J_q and g_k(x_q) of element e: formed from the element's numbers (affine) or read per point.
template <int DIM, int NG>
__device__ __forceinline__ double PointWJ(const SEMStokesKernelData &d, const double *sw, size_t e, int q)
{
  constexpr int NPP = DIM == 2 ? NG * NG : NG * NG * NG;
  if (d.affine) {
    const int ix[3] = {q % NG, (q / NG) % NG, q / (NG * NG)};
    double    w     = 1;
#pragma unroll
    for (int x = 0; x < DIM; x++) w *= sw[ix[x]];
    return w * d.affine[e * (1 + DIM * DIM)];
  }
  return d.wJ[e * NPP + q];
}

template <int DIM, int NG>
__device__ __forceinline__ double PointG(const SEMStokesKernelData &d, size_t e, int q, int k)
{
  constexpr int NPP = DIM == 2 ? NG * NG : NG * NG * NG;
  return d.affine ? d.affine[e * (1 + DIM * DIM) + 1 + k] : d.g[(e * NPP + q) * DIM * DIM + k];
}

template <int DIM, int N1, bool TH>
__global__ void SEMDivergenceKernel(const SEMStokesKernelData d, const double *__restrict__ u, double *__restrict__ p)
{
  using S            = SEMStokesShape<DIM, N1, TH>;
  constexpr int NG = S::NG, NP1 = S::NP1, VOL = S::VOL, NT = S::NT;
  __shared__ double sBgl[NG * N1], sDgl[NG * N1], sBpqT[NP1 * NG + 1], sw[NG], sbuf[S::E * 6 * VOL];
  const int         tid = threadIdx.x, slot = threadIdx.y, t = tid + NT * slot;
  const size_t      e    = (size_t)blockIdx.x * S::E + slot;
  const bool        live = e < (size_t)d.K;
  const size_t      ee   = live ? e : 0;
  double           *sU = sbuf + slot * 6 * VOL, *sB = sU + VOL, *sC = sB + VOL, *sD = sC + VOL, *sE = sD + VOL, *acc = sE + VOL;

  for (int k = t; k < NG * N1; k += S::THREADS) {
    sBgl[k] = d.Bgl[k];
    sDgl[k] = d.Dgl[k];
  }
  if (TH)
    for (int k = t; k < NP1 * NG; k += S::THREADS) sBpqT[k] = d.BpqT[k];
  if (d.affine)
    for (int k = t; k < NG; k += S::THREADS) sw[k] = d.wg[k];
  for (int q = tid; q < S::NPP; q += NT) acc[q] = 0;
  for (int j = 0; j < DIM; j++) {
    for (int i = tid; i < S::NP; i += NT) {
      double v = 0;
      if (live) {
        const int k = d.gather[ee * S::NP + i] + j;
        v           = d.dirichlet && d.dirichlet[k] ? 0.0 : u[k];
      }
      sU[i] = v;
    }
    __syncthreads();
    if constexpr (DIM == 3) {
      Pass<0, N1, NG, N1, N1, N1, NT>(sBgl, sU, sB, tid);
      Pass<0, N1, NG, N1, N1, N1, NT>(sDgl, sU, sC, tid);
      __syncthreads();
      Pass<1, N1, NG, NG, N1, N1, NT>(sBgl, sB, sU, tid); // B B
      Pass<1, N1, NG, NG, N1, N1, NT>(sDgl, sB, sD, tid); // B D: d/ds
      Pass<1, N1, NG, NG, N1, N1, NT>(sBgl, sC, sE, tid); // D B: d/dr
      __syncthreads();
      for (int q = tid; q < S::NPP; q += NT) { // dir 2 with the metric: T_a = D~_a u_j at point q
        const int o2 = q / (NG * NG), base = q - o2 * NG * NG;
        double    T0 = 0, T1 = 0, T2 = 0;
#pragma unroll
        for (int k = 0; k < N1; k++) {
          T0 += sBgl[o2 * N1 + k] * sE[base + k * NG * NG];
          T1 += sBgl[o2 * N1 + k] * sD[base + k * NG * NG];
          T2 += sDgl[o2 * N1 + k] * sU[base + k * NG * NG];
        }
        double a = acc[q];
        a += PointG<DIM, NG>(d, ee, q, j * DIM + 0) * T0;
        a += PointG<DIM, NG>(d, ee, q, j * DIM + 1) * T1;
        a += PointG<DIM, NG>(d, ee, q, j * DIM + 2) * T2;
        acc[q] = a;
      }
    } else {
      Pass<0, N1, NG, N1, N1, 1, NT>(sBgl, sU, sB, tid);
      Pass<0, N1, NG, N1, N1, 1, NT>(sDgl, sU, sC, tid);
      __syncthreads();
      for (int q = tid; q < S::NPP; q += NT) {
        const int o1 = q / NG, o0 = q - o1 * NG;
        double    T0 = 0, T1 = 0;
#pragma unroll
        for (int k = 0; k < N1; k++) {
          T0 += sBgl[o1 * N1 + k] * sC[o0 + k * NG];
          T1 += sDgl[o1 * N1 + k] * sB[o0 + k * NG];
        }
        double a = acc[q];
        a += PointG<DIM, NG>(d, ee, q, j * DIM + 0) * T0;
        a += PointG<DIM, NG>(d, ee, q, j * DIM + 1) * T1;
        acc[q] = a;
      }
    }
    __syncthreads();
  }
  for (int q = tid; q < S::NPP; q += NT) acc[q] = PointWJ<DIM, NG>(d, sw, ee, q) * acc[q];
  if constexpr (!TH) {
    if (live)
      for (int q = tid; q < S::NPP; q += NT) p[d.poffset[e] + q] += acc[q]; // the element's own values: no atomics
  } else {
    __syncthreads();
    Interpolate<DIM, NG, NP1, NT>(sBpqT, acc, sU, sB, sC, tid); // tested against the Q_{N-1} basis
    if (live)
      for (int i = tid; i < S::NPE; i += NT) atomicAdd(p + d.pgather[e * S::NPE + i], sC[i]);
  }
}

template <int DIM, int N1, bool TH>
__global__ void SEMGradientKernel(const SEMStokesKernelData d, const double *__restrict__ p, double *__restrict__ u)
{
  using S            = SEMStokesShape<DIM, N1, TH>;
  constexpr int NG = S::NG, NP1 = S::NP1, VOL = S::VOL, NT = S::NT;
  __shared__ double sBglT[N1 * NG], sDglT[N1 * NG], sBpq[NG * NP1 + 1], sw[NG], sbuf[S::E * 7 * VOL];
  const int         tid = threadIdx.x, slot = threadIdx.y, t = tid + NT * slot;
  const size_t      e    = (size_t)blockIdx.x * S::E + slot;
  const bool        live = e < (size_t)d.K;
  const size_t      ee   = live ? e : 0;
  double           *st = sbuf + slot * 7 * VOL, *s0 = st + VOL, *s1 = s0 + VOL, *s2 = s1 + VOL, *q0 = s2 + VOL, *q1 = q0 + VOL, *q2 = q1 + VOL;

  for (int k = t; k < N1 * NG; k += S::THREADS) {
    sBglT[k] = d.BglT[k];
    sDglT[k] = d.DglT[k];
  }
  if (TH)
    for (int k = t; k < NG * NP1; k += S::THREADS) sBpq[k] = d.Bpq[k];
  if (d.affine)
    for (int k = t; k < NG; k += S::THREADS) sw[k] = d.wg[k];
  if constexpr (TH) { // the pressure at the Gauss points
    for (int i = tid; i < S::NPE; i += NT) s0[i] = live ? p[d.pgather[ee * S::NPE + i]] : 0.0;
    __syncthreads();
    Interpolate<DIM, NP1, NG, NT>(sBpq, s0, s1, s2, st, tid);
    for (int q = tid; q < S::NPP; q += NT) st[q] *= PointWJ<DIM, NG>(d, sw, ee, q);
  } else {
    __syncthreads();
    for (int q = tid; q < S::NPP; q += NT) st[q] = PointWJ<DIM, NG>(d, sw, ee, q) * (live ? p[d.poffset[ee] + q] : 0.0);
  }
  for (int j = 0; j < DIM; j++) {
    for (int q = tid; q < S::NPP; q += NT) {
      s0[q] = PointG<DIM, NG>(d, ee, q, j * DIM + 0) * st[q];
      s1[q] = PointG<DIM, NG>(d, ee, q, j * DIM + 1) * st[q];
      if (DIM == 3) s2[q] = PointG<DIM, NG>(d, ee, q, j * DIM + 2) * st[q];
    }
    __syncthreads();
    if constexpr (DIM == 3) {
      Pass<2, NG, N1, NG, NG, NG, NT>(sBglT, s0, q0, tid);
      Pass<2, NG, N1, NG, NG, NG, NT>(sBglT, s1, q1, tid);
      Pass<2, NG, N1, NG, NG, NG, NT>(sDglT, s2, q2, tid);
      __syncthreads();
      Pass<1, NG, N1, NG, NG, N1, NT>(sBglT, q0, s0, tid); // a = 0: B^T along 1
      Pass<1, NG, N1, NG, NG, N1, NT>(sDglT, q1, s1, tid); // a = 1: D^T along 1
      Pass<1, NG, N1, NG, NG, N1, NT>(sBglT, q2, s2, tid); // a = 2: B^T along 1
      __syncthreads();
      for (int i = tid; i < S::NP; i += NT) { // dir 0: D^T for a = 0, B^T for a = 1, 2
        const int i0 = i % N1, base = (i - i0) / N1 * NG;
        double    o = 0, o1 = 0, o2 = 0;
#pragma unroll
        for (int k = 0; k < NG; k++) {
          o += sDglT[i0 * NG + k] * s0[base + k];
          o1 += sBglT[i0 * NG + k] * s1[base + k];
          o2 += sBglT[i0 * NG + k] * s2[base + k];
        }
        if (live) {
          const int g = d.gather[ee * S::NP + i] + j;
          if (!d.dirichlet || !d.dirichlet[g]) atomicAdd(u + g, o + o1 + o2);
        }
      }
    } else {
      Pass<1, NG, N1, NG, NG, 1, NT>(sBglT, s0, q0, tid);
      Pass<1, NG, N1, NG, NG, 1, NT>(sDglT, s1, q1, tid);
      __syncthreads();
      for (int i = tid; i < S::NP; i += NT) {
        const int i0 = i % N1, base = (i - i0) / N1 * NG;
        double    o = 0, o1 = 0;
#pragma unroll
        for (int k = 0; k < NG; k++) {
          o += sDglT[i0 * NG + k] * q0[base + k];
          o1 += sBglT[i0 * NG + k] * q1[base + k];
        }
        if (live) {
          const int g = d.gather[ee * S::NP + i] + j;
          if (!d.dirichlet || !d.dirichlet[g]) atomicAdd(u + g, o + o1);
        }
      }
    }
    __syncthreads();
  }
}

template <int DIM, int N1>
__global__ void SEMPressureMassKernel(const SEMStokesKernelData d, const double *__restrict__ p, double *__restrict__ y)
{
  using S            = SEMStokesShape<DIM, N1, true>;
  constexpr int NG = S::NG, NP1 = S::NP1, VOL = S::VOL, NT = S::NT;
  __shared__ double sBpq[NG * NP1], sBpqT[NP1 * NG], sw[NG], sbuf[S::E * 4 * VOL];
  const int         tid = threadIdx.x, slot = threadIdx.y, t = tid + NT * slot;
  const size_t      e    = (size_t)blockIdx.x * S::E + slot;
  const bool        live = e < (size_t)d.K;
  const size_t      ee   = live ? e : 0;
  double           *a0 = sbuf + slot * 4 * VOL, *a1 = a0 + VOL, *a2 = a1 + VOL, *a3 = a2 + VOL;

  for (int k = t; k < NG * NP1; k += S::THREADS) {
    sBpq[k]  = d.Bpq[k];
    sBpqT[k] = d.BpqT[k];
  }
  if (d.affine)
    for (int k = t; k < NG; k += S::THREADS) sw[k] = d.wg[k];
  for (int i = tid; i < S::NPE; i += NT) a0[i] = live ? p[d.pgather[ee * S::NPE + i]] : 0.0;
  __syncthreads();
  Interpolate<DIM, NP1, NG, NT>(sBpq, a0, a1, a2, a3, tid);
  for (int q = tid; q < S::NPP; q += NT) a3[q] *= PointWJ<DIM, NG>(d, sw, ee, q);
  __syncthreads();
  Interpolate<DIM, NG, NP1, NT>(sBpqT, a3, a0, a1, a2, tid);
  if (live)
    for (int i = tid; i < S::NPE; i += NT) atomicAdd(y + d.pgather[e * S::NPE + i], a2[i]);
}

typedef int (*SEMStokesLaunch)(const SEMStokesKernelData *, const double *, double *, cudaStream_t);

template <int DIM, int N1, bool TH>
int LaunchDivergence(const SEMStokesKernelData *d, const double *x, double *y, cudaStream_t stream)
{
  using S = SEMStokesShape<DIM, N1, TH>;
  SEMDivergenceKernel<DIM, N1, TH><<<(unsigned)((d->K + S::E - 1) / S::E), dim3(S::NT, S::E), 0, stream>>>(*d, x, y);
  return (int)cudaGetLastError();
}

template <int DIM, int N1, bool TH>
int LaunchGradient(const SEMStokesKernelData *d, const double *x, double *y, cudaStream_t stream)
{
  using S = SEMStokesShape<DIM, N1, TH>;
  SEMGradientKernel<DIM, N1, TH><<<(unsigned)((d->K + S::E - 1) / S::E), dim3(S::NT, S::E), 0, stream>>>(*d, x, y);
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
int LaunchPressureMass(const SEMStokesKernelData *d, const double *x, double *y, cudaStream_t stream)
{
  using S = SEMStokesShape<DIM, N1, true>;
  SEMPressureMassKernel<DIM, N1><<<(unsigned)((d->K + S::E - 1) / S::E), dim3(S::NT, S::E), 0, stream>>>(*d, x, y);
  return (int)cudaGetLastError();
}

// [dim][N1][pair: 0 qn_qn2, 1 Taylor-Hood]
struct SEMStokesTables {
  SEMStokesLaunch divergence[4][10][2], gradient[4][10][2], mass[4][10];
  SEMStokesTables()
      : divergence(), gradient(), mass()
  {
    Fill<2, 3>();
    Fill<3, 3>();
  }
  template <int DIM, int N1>
  void Fill()
  {
    divergence[DIM][N1][0] = LaunchDivergence<DIM, N1, false>;
    divergence[DIM][N1][1] = LaunchDivergence<DIM, N1, true>;
    gradient[DIM][N1][0]   = LaunchGradient<DIM, N1, false>;
    gradient[DIM][N1][1]   = LaunchGradient<DIM, N1, true>;
    mass[DIM][N1]          = LaunchPressureMass<DIM, N1>;
    if constexpr (N1 < 9) Fill<DIM, N1 + 1>();
  }
};
const SEMStokesTables tables;

int SEMStokesLaunchOf(const SEMStokesKernelData *d, SEMStokesLaunch *launch, int which)
{
  const int th = d->pgather != nullptr;
  if (!SEMStokesCUDASupported(d->dim, d->N1 - 1, th) || d->Ng != (th ? d->N1 : d->N1 - 2)) return 0;
  *launch = which == 0 ? tables.divergence[d->dim][d->N1][th] : which == 1 ? tables.gradient[d->dim][d->N1][th] : th ? tables.mass[d->dim][d->N1] : nullptr;
  return *launch != nullptr;
}

int SEMStokesRun(const SEMStokesKernelData *d, int which, const double *x, double *y, void *stream)
{
  SEMStokesLaunch launch = nullptr;
  if (!SEMStokesLaunchOf(d, &launch, which)) return (int)cudaErrorInvalidConfiguration;
  if (!d->K) return 0;
  return launch(d, x, y, (cudaStream_t)stream);
}

} // namespace

extern "C" int SEMDivergenceCUDA(const SEMStokesKernelData *d, const double *u, double *p, void *stream)
{
  return SEMStokesRun(d, 0, u, p, stream);
}

extern "C" int SEMGradientCUDA(const SEMStokesKernelData *d, const double *p, double *u, void *stream)
{
  return SEMStokesRun(d, 1, p, u, stream);
}

extern "C" int SEMPressureMassCUDA(const SEMStokesKernelData *d, const double *p, double *y, void *stream)
{
  return SEMStokesRun(d, 2, p, y, stream);
}
