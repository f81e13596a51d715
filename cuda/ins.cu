// CUDA twins of the incompressible-flow host kernels (src/kernels/ins.c): advection with
// cubature, gradient, divergence and face data, on the same INSKernelData with device pointers.
//
// Seed 000 §5.3 (Algorithms 3 and 4), fused: one kernel evaluates the volume and the surface terms
// of a group of elements, in 2D and 3D (the dimension DIM is a template parameter, the velocity
// DIM components passed by value in INSComponents). Threads first run over the volume cubature
// points (interpolation of the 2 DIM fields, contravariant velocity) and the face cubature points
// (traces, Lax–Friedrichs flux), then over the nodes (weighted derivative matrices) and the face
// nodes (face lift), then over the nodes again (inverse mass). Each thread works on points or nodes
// of P elements, so every matrix entry it fetches serves P elements (seed 000's kernel 4), and
// `rows` such groups share a block (kernel 3); a group has at most 256 threads, each looping over
// the points beyond. Element data lives in shared memory (more than 48 kB per group from 3D N = 6
// on: the kernel then opts in to the device's larger limit, 227 kB on an H100); the order is a
// template parameter, so loop bounds are constants and loops unroll. The gradient and divergence kernels are the SIPDG gradient kernel's
// pattern (cuda/ipdg.cu) with a face term. The pointwise physics (exterior states, flux, face data)
// are the host's own routines (hoflow/pointwise/ins.h, hoflow/kernels/ins_element.h). No PETSc here.
//
// The kernels read the reference matrices through their column-major copies in INSKernelData
// (IcT, DWT, ..., built once when the operators first run on the device): thread t of a warp reads
// A^T[j*rows + t], at consecutive addresses across the warp, through the read-only cache (__ldg).
#include <cuda_runtime.h>
#include <hoflow/kernels/ins_element.h>

static const size_t shared_limit = 48 * 1024;  // dynamic shared memory without cudaFuncSetAttribute
static const size_t shared_optin = 227 * 1024; // the most a block may opt in to (H100; the device's own limit is checked at launch)
static const int    thread_cap   = 256;        // threads per element group: each loops over the points or nodes beyond

// The velocity's components, passed to a kernel by value.
template <int DIM>
struct INSComponents {
  const double *__restrict__ f[DIM];
};
template <int DIM>
struct INSOutputs {
  double *__restrict__ f[DIM];
};

// ---------------------------------------------------------------- launch shapes

// Elements per thread P (each thread works on points or nodes of P elements) per kernel and order:
// 0 advection, 1 gradient, 2 divergence. Not tuned yet (the SIPDG kernels' table in cuda/ipdg.cu
// favours P = 4..8 from N = 4 on); the launcher puts about 256 threads in a block.
__host__ __device__ constexpr int INSPerThread(int kernel, int N)
{
  if (kernel == 0) return N <= 3 ? 1 : 2;
  if (N <= 2) return 1;
  return N <= 4 ? 2 : 4;
}

__host__ __device__ constexpr int IMax(int a, int b) { return a > b ? a : b; }
__host__ __device__ constexpr int IMin(int a, int b) { return a < b ? a : b; }

// Per element of the advection: threads (one per point or node of the largest phase, at most
// thread_cap) and shared doubles. Regions: A, the 2 DIM fields a, c on the nodes, then the
// right-hand sides R [DIM NP] and the lifted face fluxes LS [DIM NFN]; C, the contravariant velocity
// A_r = sum_j G[j][r] a_j [DIM NC] and the advected components [DIM NC] at the cubature points;
// FL, the face fluxes [DIM NFQT]. The exterior traces are read from global memory.
template <int DIM, int NP, int NFP, int NF, int NC, int NFQ>
struct AdvectionSizes {
  static constexpr int NFN  = NF * NFP;                          // face nodes
  static constexpr int NFQT = NF * NFQ;                          // face cubature points
  static constexpr int T    = IMin(IMax(NP, NFQT), thread_cap);  // threads per element group
  static constexpr int SA   = DIM * NP + IMax(DIM * NP, DIM * NFN);
  static constexpr int SC   = 2 * DIM * NC;
  static constexpr int S    = SA + SC + DIM * NFQT;
  static_assert(NFQT >= NFN, "every face has at least as many cubature points as nodes");
  static_assert(S * sizeof(double) <= shared_optin, "one element must fit the shared memory of a block");
};

template <int NP, int NFP, int NF>
struct FaceSizes {
  static constexpr int NFN = NF * NFP;
  static constexpr int T   = IMin(IMax(NP, NFN), thread_cap);
};

// P reduced until a group of P elements fits the shared memory of a block without opting in.
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

// The shared memory a block of this kernel may use: 48 kB, or, when one group needs more, what the
// device allows a block to opt in to (set once per kernel). 0 when one group does not fit at all.
template <typename Kernel>
static size_t SharedLimit(Kernel kernel, size_t per_group)
{
  int dev = 0, optin = 0;
  if (per_group <= shared_limit) return shared_limit;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || (size_t)optin < per_group) return 0;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)per_group) != cudaSuccess) return 0;
  return per_group;
}

// Element groups per block: about 256 threads, within the block's register and shared-memory limits.
static int GroupsPerBlock(int threads, size_t shared_per_group, int max_threads, size_t limit = shared_limit)
{
  int rows = 256 / threads > 1 ? 256 / threads : 1;
  while (rows > 1 && (rows * shared_per_group > limit || rows * threads > max_threads)) rows--;
  return rows;
}

// ---------------------------------------------------------------- advection

template <int DIM, int NP, int NFP, int NF, int NC, int NFQ, int P>
__global__ void AdvectionKernel(const INSKernelData d, int e0, int e1, INSComponents<DIM> a, INSComponents<DIM> c, double lambda_scale, double bc_scale, INSOutputs<DIM> out)
{
  typedef AdvectionSizes<DIM, NP, NFP, NF, NC, NFQ> Z;
  constexpr int                                     NFN = Z::NFN, NFQT = Z::NFQT, T = Z::T, S = Z::S;
  constexpr int                                     A = 0, R = 0, LS = DIM * NP, C = Z::SA, FL = Z::SA + Z::SC; // region offsets
  extern __shared__ double                          smem[];
  const int                                         t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const                                     sh = smem + threadIdx.y * P * S; // element p: sh + p*S

  // 1. the fields a, c on the nodes
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    for (int i = t; i < NP; i += T) {
#pragma unroll
      for (int k = 0; k < DIM; k++) {
        s[A + k * NP + i]         = a.f[k][base + i];
        s[A + (DIM + k) * NP + i] = c.f[k][base + i];
      }
    }
  }
  __syncthreads();

  // 2a. volume: the fields at the cubature points, the contravariant velocity A_r = sum_j G[j][r] a_j
  //     (Algorithm 3, lines 4-11; the fluxes A_r c_k are formed where they are used)
  for (int q = t; q < NC; q += T) {
    double av[DIM][P], cv[DIM][P];
#pragma unroll
    for (int p = 0; p < P; p++)
#pragma unroll
      for (int k = 0; k < DIM; k++) av[k][p] = cv[k][p] = 0;
#pragma unroll 4
    for (int j = 0; j < NP; j++) {
      const double I = __ldg(d.IcT + j * NC + q);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
#pragma unroll
        for (int k = 0; k < DIM; k++) {
          av[k][p] += I * s[A + k * NP + j];
          cv[k][p] += I * s[A + (DIM + k) * NP + j];
        }
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *G = d.geo + e * INS_GEO(DIM);
      double       *s = sh + p * S;
#pragma unroll
      for (int r = 0; r < DIM; r++) {
        double Ar = __ldg(G + r) * av[0][p];
#pragma unroll
        for (int j = 1; j < DIM; j++) Ar += __ldg(G + j * DIM + r) * av[j][p];
        s[C + r * NC + q]         = Ar;
        s[C + (DIM + r) * NC + q] = cv[r][p];
      }
    }
  }
  // 2b. faces: traces at the cubature points (the exterior ones from global memory), exterior states,
  //     Lax–Friedrichs flux (Algorithm 4)
  for (int idx = t; idx < NFQT; idx += T) {
    const int f = idx / NFQ, q = idx % NFQ, nbq = d.K * NF * NFQ;
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      double       *s    = sh + p * S;
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO(DIM);
      const int    *vP   = d.vmapP + (e * NF + f) * NFP;
      double        n[DIM], aM[DIM], cM[DIM], aP[DIM], cP[DIM], fl[DIM];
#pragma unroll
      for (int k = 0; k < DIM; k++) {
        n[k]  = __ldg(sg + k);
        aM[k] = cM[k] = aP[k] = cP[k] = 0;
      }
      for (int m = 0; m < NFP; m++) {
        const double I  = __ldg(d.IfT + f * NFQ * NFP + m * NFQ + q);
        const int    nd = __ldg(d.face_nodes + f * NFP + m);
#pragma unroll
        for (int k = 0; k < DIM; k++) {
          aM[k] += I * s[A + k * NP + nd];
          cM[k] += I * s[A + (DIM + k) * NP + nd];
        }
        if (type == HOFLOW_FACE_INTERIOR) {
          const int idP = __ldg(vP + m);
#pragma unroll
          for (int k = 0; k < DIM; k++) {
            aP[k] += I * a.f[k][idP];
            cP[k] += I * c.f[k][idP];
          }
        }
      }
      if (type != HOFLOW_FACE_INTERIOR) {
        const int k0 = (e * NF + f) * NFQ + q;
        double    bc[DIM];
#pragma unroll
        for (int k = 0; k < DIM; k++) bc[k] = bc_scale * __ldg(d.bcq + k * nbq + k0);
        INSAdvectionExterior(DIM, DIM, type, n, bc, aM, cM, aP, cP);
      }
      INSAdvectionFlux(DIM, DIM, n, lambda_scale, aM, cM, aP, cP, fl);
#pragma unroll
      for (int k = 0; k < DIM; k++) s[FL + k * NFQT + idx] = fl[k];
    }
  }
  __syncthreads();

  // 3a. volume: weighted derivative matrices on the nodes, R_k = -J sum_q sum_r DW_r (A_r c_k) (over the fields)
  for (int i = t; i < NP; i += T) {
    double rk[DIM][P];
#pragma unroll
    for (int p = 0; p < P; p++)
#pragma unroll
      for (int k = 0; k < DIM; k++) rk[k][p] = 0;
#pragma unroll 4
    for (int q = 0; q < NC; q++) {
      double dw[DIM];
#pragma unroll
      for (int r = 0; r < DIM; r++) dw[r] = __ldg(d.DWT[r] + q * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
#pragma unroll
        for (int k = 0; k < DIM; k++) {
          const double ck = s[C + (DIM + k) * NC + q];
          double       v  = dw[0] * (s[C + q] * ck);
#pragma unroll
          for (int r = 1; r < DIM; r++) v += dw[r] * (s[C + r * NC + q] * ck);
          rk[k][p] += v;
        }
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J = __ldg(d.geo + e * INS_GEO(DIM) + INS_J(DIM));
      double      *s = sh + p * S;
#pragma unroll
      for (int k = 0; k < DIM; k++) s[R + k * NP + i] = -J * rk[k][p];
    }
  }
  // 3b. faces: the fluxes lifted onto the face nodes, (sJ/J) J sum_q LIFTf F* (over the fields)
  for (int idx = t; idx < NFN; idx += T) {
    const int f = idx / NFP, m = idx % NFP;
    double    l[DIM][P];
#pragma unroll
    for (int p = 0; p < P; p++)
#pragma unroll
      for (int k = 0; k < DIM; k++) l[k][p] = 0;
    for (int q = 0; q < NFQ; q++) {
      const double Lq = __ldg(d.LIFTfT + f * NFQ * NFP + q * NFP + m);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
#pragma unroll
        for (int k = 0; k < DIM; k++) l[k][p] += Lq * s[FL + k * NFQT + f * NFQ + q];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J  = __ldg(d.geo + e * INS_GEO(DIM) + INS_J(DIM));
      const double sJ = __ldg(d.sgeo + (e * NF + f) * INS_SGEO(DIM) + INS_SJ(DIM)) * J;
      double      *s  = sh + p * S;
#pragma unroll
      for (int k = 0; k < DIM; k++) s[LS + k * NFN + idx] = sJ * l[k][p];
    }
  }
  __syncthreads();

  // 4. right-hand sides: add the lifted fluxes of the faces through the node, in face order
  for (int i = t; i < NP; i += T) {
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      double *s = sh + p * S;
      double  Rk[DIM];
#pragma unroll
      for (int k = 0; k < DIM; k++) Rk[k] = s[R + k * NP + i];
      for (int n = 0; n < NFN; n++)
        if (__ldg(d.face_nodes + n) == i) {
#pragma unroll
          for (int k = 0; k < DIM; k++) Rk[k] += s[LS + k * NFN + n];
        }
#pragma unroll
      for (int k = 0; k < DIM; k++) s[R + k * NP + i] = Rk[k];
    }
  }
  __syncthreads();

  // 5. out = (J M)^{-1} R
  for (int i = t; i < NP; i += T) {
    double o[DIM][P];
#pragma unroll
    for (int p = 0; p < P; p++)
#pragma unroll
      for (int k = 0; k < DIM; k++) o[k][p] = 0;
#pragma unroll 4
    for (int j = 0; j < NP; j++) {
      const double Mij = __ldg(d.MinvT + j * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double *s = sh + p * S;
#pragma unroll
        for (int k = 0; k < DIM; k++) o[k][p] += Mij * s[R + k * NP + j];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double J = __ldg(d.geo + e * INS_GEO(DIM) + INS_J(DIM));
#pragma unroll
      for (int k = 0; k < DIM; k++) out.f[k][d.node0 + e * NP + i] = o[k][p] / J;
    }
  }
}

// ---------------------------------------------------------------- gradient and divergence

// G p: shared per element p [NP], the lifted-jump weights w_x [DIM][NFN].
template <int DIM, int NP, int NFP, int NF, int P>
__global__ void GradientKernel(const INSKernelData d, int e0, int e1, const double *__restrict__ pr, const double *__restrict__ ptrace, double trace_scale, double bc_scale, INSOutputs<DIM> g)
{
  constexpr int            NFN = NF * NFP, S = NP + DIM * NFN, T = FaceSizes<NP, NFP, NF>::T;
  extern __shared__ double smem[];
  const int                t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const            sh = smem + threadIdx.y * P * S;
  const double *const      pD = d.bcn + DIM * d.K * NFN;

  // the element's pressure and the weights (sJ/J) n (p* - p^-) at the face nodes
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    for (int i = t; i < NP; i += T) s[i] = pr[base + i];
    for (int idx = t; idx < NFN; idx += T) {
      const int     f = idx / NFP, n = __ldg(d.face_nodes + idx);
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO(DIM);
      const double  pM   = pr[base + n];
      double        jump = 0; /* p* - p^- */
      if (type == HOFLOW_FACE_INTERIOR)
        jump = 0.5 * (pr[__ldg(d.vmapP + e * NFN + idx)] - pM);
      else if (type == HOFLOW_FACE_NEUMANN)
        jump = bc_scale * __ldg(pD + e * NFN + idx) + (ptrace ? trace_scale * ptrace[d.node0 + e * NP + n] : 0.0) - pM;
#pragma unroll
      for (int x = 0; x < DIM; x++) s[NP + x * NFN + idx] = __ldg(sg + INS_SJ(DIM)) * __ldg(sg + x) * jump;
    }
  }
  __syncthreads();
  for (int i = t; i < NP; i += T) {
    double ur[DIM][P], l[DIM][P];
#pragma unroll
    for (int p = 0; p < P; p++)
#pragma unroll
      for (int x = 0; x < DIM; x++) ur[x][p] = l[x][p] = 0;
#pragma unroll 4
    for (int j = 0; j < NP; j++) {
      double dr[DIM];
#pragma unroll
      for (int r = 0; r < DIM; r++) dr[r] = __ldg(d.DT[r] + j * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++) {
        const double pj = sh[p * S + j];
#pragma unroll
        for (int r = 0; r < DIM; r++) ur[r][p] += dr[r] * pj;
      }
    }
#pragma unroll 4
    for (int n = 0; n < NFN; n++) {
      const double Ln = __ldg(d.LIFTT + n * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++)
#pragma unroll
        for (int x = 0; x < DIM; x++) l[x][p] += Ln * sh[p * S + NP + x * NFN + n];
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *G = d.geo + e * INS_GEO(DIM);
#pragma unroll
      for (int x = 0; x < DIM; x++) {
        double v = __ldg(G + x * DIM) * ur[0][p];
#pragma unroll
        for (int r = 1; r < DIM; r++) v += __ldg(G + x * DIM + r) * ur[r][p];
        g.f[x][d.node0 + e * NP + i] = v + l[x][p];
      }
    }
  }
}

// D u: shared per element the components [DIM][NP], the lifted-jump weight w [NFN].
template <int DIM, int NP, int NFP, int NF, int P>
__global__ void DivergenceKernel(const INSKernelData d, int e0, int e1, INSComponents<DIM> u, double bc_scale, double *__restrict__ out)
{
  constexpr int            NFN = NF * NFP, S = DIM * NP + NFN, T = FaceSizes<NP, NFP, NF>::T;
  extern __shared__ double smem[];
  const int                t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double *const            sh = smem + threadIdx.y * P * S;

  // the element's velocity and the weights (sJ/J) n.(u* - u^-) at the face nodes
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int e = eb + p;
    if (e >= e1) break;
    double   *s    = sh + p * S;
    const int base = d.node0 + e * NP;
    for (int i = t; i < NP; i += T)
#pragma unroll
      for (int x = 0; x < DIM; x++) s[x * NP + i] = u.f[x][base + i];
    for (int idx = t; idx < NFN; idx += T) {
      const int     f = idx / NFP, idM = base + __ldg(d.face_nodes + idx);
      const int     type = __ldg(d.face_type + e * NF + f);
      const double *sg   = d.sgeo + (e * NF + f) * INS_SGEO(DIM);
      double        jmp[DIM], sum; /* u* - u^- */
#pragma unroll
      for (int x = 0; x < DIM; x++) jmp[x] = 0;
      if (type == HOFLOW_FACE_INTERIOR) {
        const int idP = __ldg(d.vmapP + e * NFN + idx);
#pragma unroll
        for (int x = 0; x < DIM; x++) jmp[x] = 0.5 * (u.f[x][idP] - u.f[x][idM]);
      } else if (type == HOFLOW_FACE_DIRICHLET) {
#pragma unroll
        for (int x = 0; x < DIM; x++) jmp[x] = bc_scale * __ldg(d.bcn + x * d.K * NFN + e * NFN + idx) - u.f[x][idM];
      }
      sum = __ldg(sg + 0) * jmp[0];
#pragma unroll
      for (int x = 1; x < DIM; x++) sum += __ldg(sg + x) * jmp[x];
      s[DIM * NP + idx] = __ldg(sg + INS_SJ(DIM)) * sum;
    }
  }
  __syncthreads();
  for (int i = t; i < NP; i += T) {
    double ur[DIM * DIM][P], l[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
      l[p] = 0;
#pragma unroll
      for (int k = 0; k < DIM * DIM; k++) ur[k][p] = 0;
    }
#pragma unroll 4
    for (int j = 0; j < NP; j++) {
      double dr[DIM];
#pragma unroll
      for (int r = 0; r < DIM; r++) dr[r] = __ldg(d.DT[r] + j * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++)
#pragma unroll
        for (int x = 0; x < DIM; x++) {
          const double uj = sh[p * S + x * NP + j];
#pragma unroll
          for (int r = 0; r < DIM; r++) ur[x * DIM + r][p] += dr[r] * uj;
        }
    }
#pragma unroll 4
    for (int n = 0; n < NFN; n++) {
      const double Ln = __ldg(d.LIFTT + n * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++) l[p] += Ln * sh[p * S + DIM * NP + n];
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *G = d.geo + e * INS_GEO(DIM);
      double        v = __ldg(G) * ur[0][p];
#pragma unroll
      for (int k = 1; k < DIM * DIM; k++) v += __ldg(G + k) * ur[k][p];
      out[d.node0 + e * NP + i] = v + l[p];
    }
  }
}

// ---------------------------------------------------------------- launchers

// Check that the kernel data has the sizes this instantiation was compiled for.
template <int DIM, int NP, int NFP, int NF, int NC, int NFQ>
static bool SizesMatch(const INSKernelData *d)
{
  return d->dim == DIM && d->Np == NP && d->Nfp == NFP && d->Nfaces == NF && d->Nc == NC && d->Nfq == NFQ;
}

// One kernel launch on `rows` element groups of P elements per block (0: GroupsPerBlock).
template <int DIM, int NP, int NFP, int NF, int NC, int NFQ, int P>
static int LaunchAdvectionP(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[], int rows)
{
  typedef AdvectionSizes<DIM, NP, NFP, NF, NC, NFQ> Z;
  constexpr size_t                                  per_group   = (size_t)P * Z::S * sizeof(double);
  static const int                                  max_threads = MaxThreadsPerBlock(AdvectionKernel<DIM, NP, NFP, NF, NC, NFQ, P>); /* once per instantiation */
  static const size_t                               limit       = SharedLimit(AdvectionKernel<DIM, NP, NFP, NF, NC, NFQ, P>, per_group);
  cudaStream_t                                      stream      = (cudaStream_t)d->stream;
  INSComponents<DIM>                                ca, cc;
  INSOutputs<DIM>                                   co;

  if (!SizesMatch<DIM, NP, NFP, NF, NC, NFQ>(d) || per_group > limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads, limit);
  if (rows * Z::T > max_threads || rows * per_group > limit) return (int)cudaErrorInvalidConfiguration;
  for (int k = 0; k < DIM; k++) ca.f[k] = a[k], cc.f[k] = c[k], co.f[k] = out[k];
  AdvectionKernel<DIM, NP, NFP, NF, NC, NFQ, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, ca, cc, lambda_scale, bc_scale, co);
  return (int)cudaGetLastError();
}

template <int DIM, int NP, int NFP, int NF, int P>
static int LaunchGradientP(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[], int rows)
{
  typedef FaceSizes<NP, NFP, NF> Z;
  constexpr size_t               per_group   = (size_t)P * (NP + DIM * Z::NFN) * sizeof(double);
  static const int               max_threads = MaxThreadsPerBlock(GradientKernel<DIM, NP, NFP, NF, P>); /* once per instantiation */
  static const size_t            limit       = SharedLimit(GradientKernel<DIM, NP, NFP, NF, P>, per_group);
  cudaStream_t                   stream      = (cudaStream_t)d->stream;
  INSOutputs<DIM>                co;

  if (d->dim != DIM || d->Np != NP || d->Nfp != NFP || d->Nfaces != NF || per_group > limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads, limit);
  if (rows * Z::T > max_threads || rows * per_group > limit) return (int)cudaErrorInvalidConfiguration;
  for (int k = 0; k < DIM; k++) co.f[k] = g[k];
  GradientKernel<DIM, NP, NFP, NF, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, p, ptrace, trace_scale, bc_scale, co);
  return (int)cudaGetLastError();
}

template <int DIM, int NP, int NFP, int NF, int P>
static int LaunchDivergenceP(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out, int rows)
{
  typedef FaceSizes<NP, NFP, NF> Z;
  constexpr size_t               per_group   = (size_t)P * (DIM * NP + Z::NFN) * sizeof(double);
  static const int               max_threads = MaxThreadsPerBlock(DivergenceKernel<DIM, NP, NFP, NF, P>); /* once per instantiation */
  static const size_t            limit       = SharedLimit(DivergenceKernel<DIM, NP, NFP, NF, P>, per_group);
  cudaStream_t                   stream      = (cudaStream_t)d->stream;
  INSComponents<DIM>             cu;

  if (d->dim != DIM || d->Np != NP || d->Nfp != NFP || d->Nfaces != NF || per_group > limit) return (int)cudaErrorInvalidValue;
  if (e1 <= e0) return (int)cudaGetLastError();
  if (rows <= 0) rows = GroupsPerBlock(Z::T, per_group, max_threads, limit);
  if (rows * Z::T > max_threads || rows * per_group > limit) return (int)cudaErrorInvalidConfiguration;
  for (int k = 0; k < DIM; k++) cu.f[k] = u[k];
  DivergenceKernel<DIM, NP, NFP, NF, P><<<(e1 - e0 + rows * P - 1) / (rows * P), dim3(Z::T, rows), rows * per_group, stream>>>(*d, e0, e1, cu, bc_scale, out);
  return (int)cudaGetLastError();
}

// The launch shape of each order: P from INSPerThread, reduced to fit 48 kB of shared memory.
template <int DIM, int NP, int NFP, int NF, int NC, int NFQ, int NN>
static int LaunchAdvection(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[])
{
  constexpr int P = FitPerThread<AdvectionSizes<DIM, NP, NFP, NF, NC, NFQ>::S, INSPerThread(0, NN)>::P;
  return LaunchAdvectionP<DIM, NP, NFP, NF, NC, NFQ, P>(d, e0, e1, a, c, lambda_scale, bc_scale, out, 0);
}

template <int DIM, int NP, int NFP, int NF, int NC, int NFQ, int NN>
static int LaunchGradient(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[])
{
  constexpr int P = FitPerThread<NP + DIM * NF * NFP, INSPerThread(1, NN)>::P;
  return LaunchGradientP<DIM, NP, NFP, NF, P>(d, e0, e1, p, ptrace, trace_scale, bc_scale, g, 0);
}

template <int DIM, int NP, int NFP, int NF, int NC, int NFQ, int NN>
static int LaunchDivergence(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out)
{
  constexpr int P = FitPerThread<DIM * NP + NF * NFP, INSPerThread(2, NN)>::P;
  return LaunchDivergenceP<DIM, NP, NFP, NF, P>(d, e0, e1, u, bc_scale, out, 0);
}

// Instantiate per (shape, N) as the host kernels (src/kernels/ins.c): triangles and quadrilaterals
// N = 1..INS_NMAX_2D, tetrahedra and hexahedra N = 1..INS_NMAX_3D, with the cubature of degree 3N
// (INS_NQ(N) points per direction).
#define INS_CUDA_CASE2(LAUNCH, NN, ...)                                                                              \
  case REF_TRIANGLE * 100 + NN:                                                                                      \
    return LAUNCH<2, ((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN), NN>(__VA_ARGS__); \
  case REF_QUADRILATERAL * 100 + NN:                                                                                 \
    return LAUNCH<2, ((NN) + 1) * ((NN) + 1), (NN) + 1, 4, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN), NN>(__VA_ARGS__);
#define INS_CUDA_CASE3(LAUNCH, NN, ...)                                                                                                                                          \
  case REF_TETRAHEDRON * 100 + NN:                                                                                                                                               \
    return LAUNCH<3, ((NN) + 1) * ((NN) + 2) * ((NN) + 3) / 6, ((NN) + 1) * ((NN) + 2) / 2, 4, INS_NQ(NN) * INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN) * INS_NQ(NN), NN>(__VA_ARGS__); \
  case REF_HEXAHEDRON * 100 + NN:                                                                                                                                                \
    return LAUNCH<3, ((NN) + 1) * ((NN) + 1) * ((NN) + 1), ((NN) + 1) * ((NN) + 1), 6, INS_NQ(NN) * INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN) * INS_NQ(NN), NN>(__VA_ARGS__);
#define INS_CUDA_DISPATCH(d, LAUNCH, ...)                                           \
  switch ((d)->shape * 100 + (d)->N) {                                              \
    INS_CUDA_CASE2(LAUNCH, 1, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 1, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 2, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 2, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 3, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 3, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 4, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 4, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 5, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 5, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 6, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 6, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 7, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 7, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 8, __VA_ARGS__) INS_CUDA_CASE3(LAUNCH, 8, __VA_ARGS__)   \
    INS_CUDA_CASE2(LAUNCH, 9, __VA_ARGS__)                                          \
    INS_CUDA_CASE2(LAUNCH, 10, __VA_ARGS__)                                         \
  default:                                                                          \
    return (int)cudaErrorInvalidValue;                                              \
  }

extern "C" int INSAdvectionCUDA(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[])
{
  INS_CUDA_DISPATCH(d, LaunchAdvection, d, e0, e1, a, c, lambda_scale, bc_scale, out)
}

extern "C" int INSGradientCUDA(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[])
{
  INS_CUDA_DISPATCH(d, LaunchGradient, d, e0, e1, p, ptrace, trace_scale, bc_scale, g)
}

extern "C" int INSDivergenceCUDA(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out)
{
  INS_CUDA_DISPATCH(d, LaunchDivergence, d, e0, e1, u, bc_scale, out)
}

// Shared doubles and threads per element of kernel 0 (advection), 1 (gradient) or 2 (divergence), as
// AdvectionSizes and FaceSizes compute them.
static void INSKernelSizes(int kernel, RefShape shape, int N, int *S, int *T)
{
  const int dim = RefShapeTable[shape].dim, Nfaces = RefShapeTable[shape].nfaces, nq = INS_NQ(N);
  const int Np = RefShapeNumNodes(shape, N), Nfp = dim == 2 ? N + 1 : RefShapeNumNodes(RefShapeTable[shape].face_shape[0], N), nfn = Nfaces * Nfp;
  const int Nc = dim == 2 ? nq * nq : nq * nq * nq, nfqt = Nfaces * (dim == 2 ? nq : nq * nq);
  *S = kernel == 0 ? dim * Np + IMax(dim * Np, dim * nfn) + 2 * dim * Nc + dim * nfqt : kernel == 1 ? Np + dim * nfn : dim * Np + nfn;
  *T = kernel == 0 ? IMin(IMax(Np, nfqt), thread_cap) : IMin(IMax(Np, nfn), thread_cap);
}

// Elements per thread and element groups per block of kernel 0 (advection), 1 (gradient) or
// 2 (divergence) as launched (the register limit, known only on the device, may lower the groups).
extern "C" int INSElementsPerThread(int kernel, RefShape shape, int N)
{
  int S, T, P = INSPerThread(kernel, N);
  INSKernelSizes(kernel, shape, N, &S, &T);
  while (P > 1 && P * S * sizeof(double) > shared_limit) P /= 2;
  return P;
}

extern "C" int INSElementsPerBlock(int kernel, RefShape shape, int N)
{
  int S, T;
  INSKernelSizes(kernel, shape, N, &S, &T);
  const size_t group = (size_t)INSElementsPerThread(kernel, shape, N) * S * sizeof(double);
  return GroupsPerBlock(T, group, 1024, group > shared_limit ? group : shared_limit);
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

// Scatter of packed boundary-face data into a face array: one thread per packed value.
__global__ void ScatterFacesKernel(int nb, const int *__restrict__ face, int bs, int ncomp, const double *__restrict__ src, int dst_stride, double *__restrict__ dst)
{
  const long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long)ncomp * nb * bs) return;
  const int  j = (int)(idx % bs), b = (int)((idx / bs) % nb), c = (int)(idx / ((long)bs * nb));
  dst[(long)c * dst_stride + (long)face[b] * bs + j] = src[idx];
}

extern "C" int INSScatterFacesCUDA(int nb, const int *face, int bs, int ncomp, const double *src, int dst_stride, double *dst, void *stream)
{
  const long total = (long)ncomp * nb * bs;
  if (total) ScatterFacesKernel<<<(unsigned)((total + 255) / 256), 256, 0, (cudaStream_t)stream>>>(nb, face, bs, ncomp, src, dst_stride, dst);
  return (int)cudaGetLastError();
}
