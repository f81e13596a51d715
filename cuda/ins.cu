// CUDA twins of the incompressible-flow host kernels (src/kernels/ins.c): advection with
// cubature, gradient, divergence and face data, on the same INSKernelData with device pointers.
//
// Seed 000 §5.3 (Algorithms 3 and 4), fused: one kernel evaluates the volume and the surface terms
// of a group of elements. Threads first run over the volume cubature points (interpolation of the
// four fields, contravariant fluxes) and the face Gauss points (traces, Lax–Friedrichs flux), then
// over the nodes (weighted derivative matrices) and the face nodes (face lift), then over the nodes
// again (inverse mass). Each thread works on one point or node of P elements, so every matrix entry
// it fetches serves P elements (seed 000's kernel 4), and `rows` such groups share a block (kernel
// 3). Element data lives in shared memory; the order is a template parameter, so loop bounds are
// constants and loops unroll. The gradient and divergence kernels are the SIPDG gradient kernel's
// pattern (cuda/ipdg.cu) with a face term. The pointwise physics (exterior states, flux, face data)
// are the host's own routines (hoflow/pointwise/ins.h, hoflow/kernels/ins_element.h). No PETSc here.
//
// The kernels read the reference matrices through their column-major copies in INSKernelData
// (IcT, DWT, ..., built once when the operators first run on the device): thread t of a warp reads
// A^T[j*rows + t], at consecutive addresses across the warp, through the read-only cache (__ldg).
#include <cuda_runtime.h>
#include <hoflow/kernels/ins_element.h>

static const size_t shared_limit = 48 * 1024; // dynamic shared memory without cudaFuncSetAttribute

// ---------------------------------------------------------------- launch shapes

// Elements per thread P (each thread works on one point or node of P elements) per kernel and
// order: 0 advection, 1 gradient, 2 divergence. Not tuned yet (the SIPDG kernels' table in
// cuda/ipdg.cu favours P = 4..8 from N = 4 on); the launcher puts about 256 threads in a block.
__host__ __device__ constexpr int INSPerThread(int kernel, int N)
{
  if (kernel == 0) return N <= 3 ? 1 : 2;
  if (N <= 2) return 1;
  return N <= 4 ? 2 : 4;
}

// Per element: threads (one per point or node of the largest phase) and shared doubles.
template <int NP, int NFP, int NF, int NC, int NFQ>
struct AdvectionSizes {
  static constexpr int NFN  = NF * NFP;              // face nodes
  static constexpr int NFQT = NF * NFQ;              // face Gauss points
  static constexpr int T    = NP > NFQT ? NP : NFQT; // threads per element group (NFQ >= NFP)
  // fields au, av, c0, c1 on the nodes and across the faces; cubature fluxes Fr0, Fs0, Fr1, Fs1;
  // face fluxes of both components. After the fluxes, the face-lifted fluxes (2 NFN) and the
  // right-hand sides (2 NP) overwrite the fields.
  static constexpr int S = 4 * NP + 4 * NFN + 4 * NC + 2 * NFQT;
  static_assert(2 * NFN + 2 * NP <= 4 * NP + 4 * NFN, "lifted fluxes and right-hand sides must fit over the fields");
  static_assert(S * sizeof(double) <= shared_limit, "one element must fit the shared memory of a block");
};

template <int NP, int NFP, int NF>
struct FaceSizes {
  static constexpr int NFN = NF * NFP;
  static constexpr int T   = NP > NFN ? NP : NFN;
};

// P reduced until a group of P elements fits the shared memory of a block.
template <int S, int PWANT>
struct FitPerThread {
  static constexpr int P = (PWANT > 1 && PWANT * S * sizeof(double) > shared_limit) ? FitPerThread<S, PWANT / 2>::P : PWANT;
};
template <int S>
struct FitPerThread<S, 1> {
  static constexpr int P = 1;
};

// Most threads a block of this kernel may have, given its registers.
template <typename Kernel>
static int MaxThreadsPerBlock(Kernel kernel)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, kernel) == cudaSuccess ? attr.maxThreadsPerBlock : 256;
}

// Element groups per block: about 256 threads, within the block's register and shared-memory limits.
static int GroupsPerBlock(int threads, size_t shared_per_group, int max_threads)
{
  int rows = 256 / threads > 1 ? 256 / threads : 1;
  while (rows > 1 && (rows * shared_per_group > shared_limit || rows * threads > max_threads)) rows--;
  return rows;
}

// ---------------------------------------------------------------- advection

// Shared memory of one element (S doubles): offsets.
template <int NP, int NFP, int NF, int NC, int NFQ>
struct AdvectionLayout {
  typedef AdvectionSizes<NP, NFP, NF, NC, NFQ> Z;
  static constexpr int                         AU = 0, AV = NP, C0 = 2 * NP, C1 = 3 * NP;                                         // nodal fields
  static constexpr int                         XAU = 4 * NP, XAV = XAU + Z::NFN, XC0 = XAU + 2 * Z::NFN, XC1 = XAU + 3 * Z::NFN;  // exterior traces
  static constexpr int                         FR0 = 4 * NP + 4 * Z::NFN, FS0 = FR0 + NC, FR1 = FR0 + 2 * NC, FS1 = FR0 + 3 * NC; // cubature fluxes
  static constexpr int                         FL0 = FR0 + 4 * NC, FL1 = FL0 + Z::NFQT;                                           // face fluxes
  static constexpr int                         LS0 = 0, LS1 = Z::NFN, R0 = 2 * Z::NFN, R1 = 2 * Z::NFN + NP;                      // over the fields
};

template <int NP, int NFP, int NF, int NC, int NFQ, int P>
__global__ void AdvectionKernel(const INSKernelData d, int e0, int e1, const double *__restrict__ au, const double *__restrict__ av, const double *__restrict__ c0, const double *__restrict__ c1, double lambda_scale, double bc_scale, double *__restrict__ out0, double *__restrict__ out1)
{
  typedef AdvectionSizes<NP, NFP, NF, NC, NFQ>  Z;
  typedef AdvectionLayout<NP, NFP, NF, NC, NFQ> L;
  constexpr int                                 NFN = Z::NFN, NFQT = Z::NFQT, T = Z::T, S = Z::S;
  extern __shared__ double                      smem[];
  const int                                     t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const                                 sh = smem + threadIdx.y * P * S; // element p: sh + p*S

  // 1. the four fields on the nodes and, on interior faces, across the faces
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    if (t < NP) {
      s[L::AU + t] = au[base + t];
      s[L::AV + t] = av[base + t];
      s[L::C0 + t] = c0[base + t];
      s[L::C1 + t] = c1[base + t];
    }
    if (t < NFN && __ldg(d.face_type + e * NF + t / NFP) == HOFLOW_FACE_INTERIOR) {
      const int idP = __ldg(d.vmapP + e * NFN + t);
      s[L::XAU + t] = au[idP];
      s[L::XAV + t] = av[idP];
      s[L::XC0 + t] = c0[idP];
      s[L::XC1 + t] = c1[idP];
    }
  }
  __syncthreads();

  // 2a. volume: the fields at the cubature points and the contravariant fluxes
  //     F_r = (rx a + ry b) c_k, F_s = (sx a + sy b) c_k (Algorithm 3, lines 4-11)
  for (int q = t; q < NC; q += T) {
    double a[P], b[P], w0[P], w1[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = b[p] = w0[p] = w1[p] = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) {
      const double I = __ldg(d.IcT + j * NC + q);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
        a[p] += I * s[L::AU + j];
        b[p] += I * s[L::AV + j];
        w0[p] += I * s[L::C0 + j];
        w1[p] += I * s[L::C1 + j];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *g  = d.geo + e * INS_GEO;
      const double  rx = __ldg(g + INS_RX), sx = __ldg(g + INS_SX), ry = __ldg(g + INS_RY), sy = __ldg(g + INS_SY);
      double       *s = sh + p * S;
      s[L::FR0 + q]   = (rx * a[p] + ry * b[p]) * w0[p];
      s[L::FS0 + q]   = (sx * a[p] + sy * b[p]) * w0[p];
      s[L::FR1 + q]   = (rx * a[p] + ry * b[p]) * w1[p];
      s[L::FS1 + q]   = (sx * a[p] + sy * b[p]) * w1[p];
    }
  }
  // 2b. faces: traces at the Gauss points, exterior states, Lax–Friedrichs flux (Algorithm 4)
  if (t < NFQT) {
    const int f = t / NFQ, q = t % NFQ, nbq = d.K * NF * NFQ;
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      double       *s    = sh + p * S;
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO;
      const double  nx = __ldg(sg + 0), ny = __ldg(sg + 1);
      double        aM = 0, bM = 0, c0M = 0, c1M = 0, aP = 0, bP = 0, c0P = 0, c1P = 0;
#pragma unroll
      for (int a = 0; a < NFP; a++) {
        const double I = __ldg(d.IfT + a * NFQ + q);
        const int    n = __ldg(d.face_nodes + f * NFP + a);
        aM += I * s[L::AU + n];
        bM += I * s[L::AV + n];
        c0M += I * s[L::C0 + n];
        c1M += I * s[L::C1 + n];
        if (type == HOFLOW_FACE_INTERIOR) {
          aP += I * s[L::XAU + f * NFP + a];
          bP += I * s[L::XAV + f * NFP + a];
          c0P += I * s[L::XC0 + f * NFP + a];
          c1P += I * s[L::XC1 + f * NFP + a];
        }
      }
      {
        const double n[2] = {nx, ny}, vM[2] = {aM, bM}, wM[2] = {c0M, c1M};
        double       vP[2] = {aP, bP}, wP[2] = {c0P, c1P}, fl[2];
        if (type != HOFLOW_FACE_INTERIOR) {
          const int    k     = (e * NF + f) * NFQ + q;
          const double bc[2] = {bc_scale * __ldg(d.bcq + k), bc_scale * __ldg(d.bcq + nbq + k)};
          INSAdvectionExterior(2, 2, type, n, bc, vM, wM, vP, wP);
        }
        INSAdvectionFlux(2, 2, n, lambda_scale, vM, wM, vP, wP, fl);
        s[L::FL0 + t] = fl[0];
        s[L::FL1 + t] = fl[1];
      }
    }
  }
  __syncthreads();

  // 3a. volume: weighted derivative matrices on the nodes, r_k = sum_q DrW F_r + DsW F_s
  double r0[P], r1[P];
#pragma unroll
  for (int p = 0; p < P; p++) r0[p] = r1[p] = 0;
  if (t < NP) {
#pragma unroll 8
    for (int q = 0; q < NC; q++) {
      const double dr = __ldg(d.DWT[0] + q * NP + t), ds = __ldg(d.DWT[1] + q * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
        r0[p] += dr * s[L::FR0 + q] + ds * s[L::FS0 + q];
        r1[p] += dr * s[L::FR1 + q] + ds * s[L::FS1 + q];
      }
    }
  }
  // 3b. faces: the fluxes lifted onto the face nodes, (sJ/J) J sum_q LIFTf F* (overwrites the fields)
  if (t < NFN) {
    const int f = t / NFP, a = t % NFP;
    double    l0[P], l1[P];
#pragma unroll
    for (int p = 0; p < P; p++) l0[p] = l1[p] = 0;
#pragma unroll
    for (int q = 0; q < NFQ; q++) {
      const double Lq = __ldg(d.LIFTfT + q * NFP + a);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
        l0[p] += Lq * s[L::FL0 + f * NFQ + q];
        l1[p] += Lq * s[L::FL1 + f * NFQ + q];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J  = __ldg(d.geo + e * INS_GEO + INS_J);
      const double sJ = __ldg(d.sgeo + (e * NF + f) * INS_SGEO + INS_SJ) * J;
      double      *s  = sh + p * S;
      s[L::LS0 + t]   = sJ * l0[p];
      s[L::LS1 + t]   = sJ * l1[p];
    }
  }
  __syncthreads();

  // 4. right-hand sides R = -J r + the lifted fluxes of the faces through the node, in face order
  if (t < NP) {
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J  = __ldg(d.geo + e * INS_GEO + INS_J);
      double      *s  = sh + p * S;
      double       R0 = -J * r0[p], R1 = -J * r1[p];
#pragma unroll
      for (int n = 0; n < NFN; n++)
        if (__ldg(d.face_nodes + n) == t) {
          R0 += s[L::LS0 + n];
          R1 += s[L::LS1 + n];
        }
      s[L::R0 + t] = R0;
      s[L::R1 + t] = R1;
    }
  }
  __syncthreads();

  // 5. out = (J M)^{-1} R
  if (t < NP) {
    double o0[P], o1[P];
#pragma unroll
    for (int p = 0; p < P; p++) o0[p] = o1[p] = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) {
      const double Mij = __ldg(d.MinvT + j * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
        o0[p] += Mij * s[L::R0 + j];
        o1[p] += Mij * s[L::R1 + j];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J             = __ldg(d.geo + e * INS_GEO + INS_J);
      out0[d.node0 + e * NP + t] = o0[p] / J;
      out1[d.node0 + e * NP + t] = o1[p] / J;
    }
  }
}

// ---------------------------------------------------------------- gradient and divergence

// G p: shared per element p [NP], the lifted-jump weights wx, wy [NFN each].
template <int NP, int NFP, int NF, int P>
__global__ void GradientKernel(const INSKernelData d, int e0, int e1, const double *__restrict__ pr, const double *__restrict__ ptrace, double trace_scale, double bc_scale, double *__restrict__ gx, double *__restrict__ gy)
{
  constexpr int            NFN = NF * NFP, S = NP + 2 * NFN;
  extern __shared__ double smem[];
  const int                t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const            sh = smem + threadIdx.y * P * S;
  const double *const      pD = d.bcn + 2 * d.K * NFN;

  // the element's pressure and the weights (sJ/J) n (p* - p^-) at the face nodes
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    if (t < NP) s[t] = pr[base + t];
    if (t < NFN) {
      const int     f = t / NFP, n = __ldg(d.face_nodes + t);
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO;
      const double  pM   = pr[base + n];
      double        jump = 0; /* p* - p^- */
      if (type == HOFLOW_FACE_INTERIOR)
        jump = 0.5 * (pr[__ldg(d.vmapP + e * NFN + t)] - pM);
      else if (type == HOFLOW_FACE_NEUMANN)
        jump = bc_scale * __ldg(pD + e * NFN + t) + (ptrace ? trace_scale * ptrace[d.node0 + e * NP + n] : 0.0) - pM;
      s[NP + t]       = __ldg(sg + INS_SJ) * __ldg(sg + 0) * jump;
      s[NP + NFN + t] = __ldg(sg + INS_SJ) * __ldg(sg + 1) * jump;
    }
  }
  __syncthreads();
  if (t < NP) {
    double ur[P], us[P], lx[P], ly[P];
#pragma unroll
    for (int p = 0; p < P; p++) ur[p] = us[p] = lx[p] = ly[p] = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) {
      const double dr = __ldg(d.DT[0] + j * NP + t), ds = __ldg(d.DT[1] + j * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double pj = sh[p * S + j];
        ur[p] += dr * pj;
        us[p] += ds * pj;
      }
    }
#pragma unroll
    for (int n = 0; n < NFN; n++) {
      const double Ln = __ldg(d.LIFTT + n * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        lx[p] += Ln * sh[p * S + NP + n];
        ly[p] += Ln * sh[p * S + NP + NFN + n];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *g          = d.geo + e * INS_GEO;
      gx[d.node0 + e * NP + t] = __ldg(g + INS_RX) * ur[p] + __ldg(g + INS_SX) * us[p] + lx[p];
      gy[d.node0 + e * NP + t] = __ldg(g + INS_RY) * ur[p] + __ldg(g + INS_SY) * us[p] + ly[p];
    }
  }
}

// D u: shared per element u, v [NP each], the lifted-jump weight w [NFN].
template <int NP, int NFP, int NF, int P>
__global__ void DivergenceKernel(const INSKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ v, double bc_scale, double *__restrict__ out)
{
  constexpr int            NFN = NF * NFP, S = 2 * NP + NFN;
  extern __shared__ double smem[];
  const int                t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const            sh = smem + threadIdx.y * P * S;
  const double *const gu = d.bcn, *const gv = d.bcn + d.K * NFN;

  // the element's velocity and the weights (sJ/J) n.(u* - u^-) at the face nodes
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    if (t < NP) {
      s[t]      = u[base + t];
      s[NP + t] = v[base + t];
    }
    if (t < NFN) {
      const int     f = t / NFP, idM = base + __ldg(d.face_nodes + t);
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO;
      double        ju = 0, jv = 0; /* u* - u^- */
      if (type == HOFLOW_FACE_INTERIOR) {
        const int idP = __ldg(d.vmapP + e * NFN + t);
        ju            = 0.5 * (u[idP] - u[idM]);
        jv            = 0.5 * (v[idP] - v[idM]);
      } else if (type == HOFLOW_FACE_DIRICHLET) {
        ju = bc_scale * __ldg(gu + e * NFN + t) - u[idM];
        jv = bc_scale * __ldg(gv + e * NFN + t) - v[idM];
      }
      s[2 * NP + t] = __ldg(sg + INS_SJ) * (__ldg(sg + 0) * ju + __ldg(sg + 1) * jv);
    }
  }
  __syncthreads();
  if (t < NP) {
    double ur[P], us[P], vr[P], vs[P], l[P];
#pragma unroll
    for (int p = 0; p < P; p++) ur[p] = us[p] = vr[p] = vs[p] = l[p] = 0;
#pragma unroll
    for (int j = 0; j < NP; j++) {
      const double dr = __ldg(d.DT[0] + j * NP + t), ds = __ldg(d.DT[1] + j * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double uj = sh[p * S + j], vj = sh[p * S + NP + j];
        ur[p] += dr * uj;
        us[p] += ds * uj;
        vr[p] += dr * vj;
        vs[p] += ds * vj;
      }
    }
#pragma unroll
    for (int n = 0; n < NFN; n++) {
      const double Ln = __ldg(d.LIFTT + n * NP + t);
#pragma unroll
      for (int p = 0; p < P; p++) l[p] += Ln * sh[p * S + 2 * NP + n];
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *g           = d.geo + e * INS_GEO;
      out[d.node0 + e * NP + t] = __ldg(g + INS_RX) * ur[p] + __ldg(g + INS_SX) * us[p] + __ldg(g + INS_RY) * vr[p] + __ldg(g + INS_SY) * vs[p] + l[p];
    }
  }
}

// ---------------------------------------------------------------- launchers

// Check that the kernel data has the sizes this instantiation was compiled for.
template <int NP, int NFP, int NF, int NC, int NFQ>
static bool SizesMatch(const INSKernelData *d)
{
  return d->Np == NP && d->Nfp == NFP && d->Nfaces == NF && d->Nc == NC && d->Nfq == NFQ;
}

// One kernel launch on `rows` element groups of P elements per block (0: GroupsPerBlock).
template <int NP, int NFP, int NF, int NC, int NFQ, int P>
static int LaunchAdvectionP(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1, int rows)
{
  typedef AdvectionSizes<NP, NFP, NF, NC, NFQ> Z;
  constexpr size_t                             per_group   = (size_t)P * Z::S * sizeof(double);
  static const int                             max_threads = MaxThreadsPerBlock(AdvectionKernel<NP, NFP, NF, NC, NFQ, P>); /* once per instantiation */
  cudaStream_t                                 stream      = (cudaStream_t)d->stream;

  if (!SizesMatch<NP, NFP, NF, NC, NFQ>(d) || per_group > shared_limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads);
  if (rows * Z::T > max_threads || rows * per_group > shared_limit) return (int)cudaErrorInvalidConfiguration;
  AdvectionKernel<NP, NFP, NF, NC, NFQ, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, au, av, c0, c1, lambda_scale, bc_scale, out0, out1);
  return (int)cudaGetLastError();
}

template <int NP, int NFP, int NF, int P>
static int LaunchGradientP(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy, int rows)
{
  typedef FaceSizes<NP, NFP, NF> Z;
  constexpr size_t               per_group   = (size_t)P * (NP + 2 * Z::NFN) * sizeof(double);
  static const int               max_threads = MaxThreadsPerBlock(GradientKernel<NP, NFP, NF, P>); /* once per instantiation */
  cudaStream_t                   stream      = (cudaStream_t)d->stream;

  if (d->Np != NP || d->Nfp != NFP || d->Nfaces != NF || per_group > shared_limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads);
  if (rows * Z::T > max_threads || rows * per_group > shared_limit) return (int)cudaErrorInvalidConfiguration;
  GradientKernel<NP, NFP, NF, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, p, ptrace, trace_scale, bc_scale, gx, gy);
  return (int)cudaGetLastError();
}

template <int NP, int NFP, int NF, int P>
static int LaunchDivergenceP(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out, int rows)
{
  typedef FaceSizes<NP, NFP, NF> Z;
  constexpr size_t               per_group   = (size_t)P * (2 * NP + Z::NFN) * sizeof(double);
  static const int               max_threads = MaxThreadsPerBlock(DivergenceKernel<NP, NFP, NF, P>); /* once per instantiation */
  cudaStream_t                   stream      = (cudaStream_t)d->stream;

  if (d->Np != NP || d->Nfp != NFP || d->Nfaces != NF || per_group > shared_limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads);
  if (rows * Z::T > max_threads || rows * per_group > shared_limit) return (int)cudaErrorInvalidConfiguration;
  DivergenceKernel<NP, NFP, NF, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, u, v, bc_scale, out);
  return (int)cudaGetLastError();
}

// The launch shape of each order: P from INSPerThread, reduced to fit the shared memory.
template <int NP, int NFP, int NF, int NC, int NFQ>
static int LaunchAdvection(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1)
{
  constexpr int P = FitPerThread<AdvectionSizes<NP, NFP, NF, NC, NFQ>::S, INSPerThread(0, NFP - 1)>::P;
  return LaunchAdvectionP<NP, NFP, NF, NC, NFQ, P>(d, e0, e1, au, av, c0, c1, lambda_scale, bc_scale, out0, out1, 0);
}

template <int NP, int NFP, int NF, int NC, int NFQ>
static int LaunchGradient(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy)
{
  constexpr int P = FitPerThread<NP + 2 * NF * NFP, INSPerThread(1, NFP - 1)>::P;
  return LaunchGradientP<NP, NFP, NF, P>(d, e0, e1, p, ptrace, trace_scale, bc_scale, gx, gy, 0);
}

template <int NP, int NFP, int NF, int NC, int NFQ>
static int LaunchDivergence(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out)
{
  constexpr int P = FitPerThread<2 * NP + NF * NFP, INSPerThread(2, NFP - 1)>::P;
  return LaunchDivergenceP<NP, NFP, NF, P>(d, e0, e1, u, v, bc_scale, out, 0);
}

// Instantiate for triangles (3 faces, Np = (N+1)(N+2)/2) and quadrilaterals (4 faces, Np = (N+1)^2),
// with the cubature of degree 3N: (3N/2 + 1) Gauss points per face and per direction (INS_NQ in
// src/kernels/ins.c).
#define INS_NQ(NN) ((3 * (NN)) / 2 + 1)
#define INS_CUDA_CASE(LAUNCH, NN, ...)                                                                         \
  case REF_TRIANGLE * 100 + NN:                                                                                \
    return LAUNCH<((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN)>(__VA_ARGS__); \
  case REF_QUADRILATERAL * 100 + NN:                                                                           \
    return LAUNCH<((NN) + 1) * ((NN) + 1), (NN) + 1, 4, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN)>(__VA_ARGS__);
#define INS_CUDA_DISPATCH(d, LAUNCH, ...)  \
  switch ((d)->shape * 100 + (d)->N) {     \
    INS_CUDA_CASE(LAUNCH, 1, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 2, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 3, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 4, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 5, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 6, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 7, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 8, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 9, __VA_ARGS__)  \
    INS_CUDA_CASE(LAUNCH, 10, __VA_ARGS__) \
  default:                                 \
    return (int)cudaErrorInvalidValue;     \
  }

extern "C" int INSAdvectionCUDA(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1)
{
  INS_CUDA_DISPATCH(d, LaunchAdvection, d, e0, e1, au, av, c0, c1, lambda_scale, bc_scale, out0, out1)
}

extern "C" int INSGradientCUDA(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy)
{
  INS_CUDA_DISPATCH(d, LaunchGradient, d, e0, e1, p, ptrace, trace_scale, bc_scale, gx, gy)
}

extern "C" int INSDivergenceCUDA(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out)
{
  INS_CUDA_DISPATCH(d, LaunchDivergence, d, e0, e1, u, v, bc_scale, out)
}

// Elements per thread and element groups per block of kernel 0 (advection), 1 (gradient) or
// 2 (divergence) as launched (the register limit, known only on the device, may lower the groups).
extern "C" int INSElementsPerThread(int kernel, RefShape shape, int N)
{
  const int Nfaces = RefShapeTable[shape].nfaces;
  const int Np = Nfaces == 3 ? (N + 1) * (N + 2) / 2 : (N + 1) * (N + 1), nfn = Nfaces * (N + 1), nq = INS_NQ(N);
  const int S = kernel == 0 ? 4 * Np + 4 * nfn + 4 * nq * nq + 2 * Nfaces * nq : kernel == 1 ? Np + 2 * nfn
                                                                                             : 2 * Np + nfn;
  int       P = INSPerThread(kernel, N);
  while (P > 1 && P * S * sizeof(double) > shared_limit) P /= 2;
  return P;
}

extern "C" int INSElementsPerBlock(int kernel, RefShape shape, int N)
{
  const int Nfaces = RefShapeTable[shape].nfaces;
  const int Np = Nfaces == 3 ? (N + 1) * (N + 2) / 2 : (N + 1) * (N + 1), nfn = Nfaces * (N + 1), nq = INS_NQ(N);
  const int S = kernel == 0 ? 4 * Np + 4 * nfn + 4 * nq * nq + 2 * Nfaces * nq : kernel == 1 ? Np + 2 * nfn
                                                                                             : 2 * Np + nfn;
  const int T = kernel == 0 ? (Np > Nfaces * nq ? Np : Nfaces * nq) : (Np > nfn ? Np : nfn);
  return GroupsPerBlock(T, (size_t)INSElementsPerThread(kernel, shape, N) * S * sizeof(double), 1024);
}

// Face data: one thread per face node (INSFaceDataNode, shared with the host kernel).
__global__ void FaceDataKernel(const INSKernelData d, int type, int component, double alpha, double beta, const double *__restrict__ x, double *__restrict__ out)
{
  const int  nfn = d.Nfaces * d.Nfp;
  const long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long)d.K * nfn) return;
  const int e = (int)(idx / nfn), n = (int)(idx % nfn);
  out[idx] = INSFaceDataNode(&d, type, component, alpha, beta, x, e, n / d.Nfp, n % d.Nfp);
}

extern "C" int INSFaceDataCUDA(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out)
{
  const long total = (long)d->K * d->Nfaces * d->Nfp;
  if (total) FaceDataKernel<<<(unsigned)((total + 255) / 256), 256, 0, (cudaStream_t)d->stream>>>(*d, type, component, alpha, beta, x, out);
  return (int)cudaGetLastError();
}
