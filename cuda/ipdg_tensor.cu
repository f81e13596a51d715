// CUDA twins of the sum-factorized SIPDG kernels on quadrilaterals and hexahedra
// (src/kernels/ipdg_tensor.c, hoflow/kernels/ipdg_tensor.h): the same 1D passes in the same order,
// the same face terms. Quadrilaterals, and hexahedra up to N = 3: one thread per GLL point, a
// hexahedron one thread block of N1^3 threads (threadIdx.x, .y, .z the point's indices),
// quadrilaterals E elements per block (threadIdx.z the element), E N1^2 about 256 threads. Affine
// hexahedra from N = 4: one thread per (r, s) line holding its N1 points along t in registers (Hex
// below). The 1D factors and the element's fields live in shared memory with odd pitches; each pass
// reads N1 entries of a line of the element's array. Curved blocks: the volume terms by passes (block
// per element), the face terms by the dense curved element routine (thread per element,
// IPDGCurvedApplyElement with IPDG_CURVED_FACES), D^T R by passes. Instances per (shape, N) of
// hoflow/kernels/shapes.h (hexahedra to N = 9), chosen from a table. No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/ipdg_curved_element.h>
#include <hoflow/kernels/ipdg_tensor.h>
#include <hoflow/kernels/shapes.h>
#include <hoflow/pointwise/elliptic.h>

namespace {

template <int DIM, int N1>
struct Tensor {
  static constexpr int NP  = DIM == 2 ? N1 * N1 : N1 * N1 * N1;
  static constexpr int NFP = DIM == 2 ? N1 : N1 * N1;
  static constexpr int NF  = 2 * DIM;
  static constexpr int NFN = NF * NFP;
  static constexpr int E   = DIM == 2 ? (256 / NP > 0 ? 256 / NP : 1) : 1; // elements per block
  // Shared-memory pitches: a 1D matrix row and a line of an element's field are padded to an odd
  // number of doubles, so the threads of a warp that read different rows or lines hit different
  // banks (an even pitch of 8 doubles put 4 of them on one bank).
  static constexpr int LD  = N1 % 2 ? N1 : N1 + 1;                           // matrix row pitch
  static constexpr int S1  = N1 % 2 ? N1 : N1 + 1, S2 = S1 * N1;             // field pitches in s, t
  static constexpr int NPP = DIM == 2 ? S1 * N1 : S2 * N1;                   // padded field size
};

// The point's indices c[0..DIM-1] and its index in the element.
template <int DIM, int N1>
__device__ __forceinline__ int PointIndex(int c[3])
{
  c[0] = threadIdx.x;
  c[1] = threadIdx.y;
  c[2] = DIM == 3 ? threadIdx.z : 0;
  return c[0] + N1 * c[1] + N1 * N1 * c[2];
}

// The point's index in an element's field in shared memory with padded pitches (PAD) or without.
template <int DIM, int N1, bool PAD>
__device__ __forceinline__ int SharedIndex(const int c[3])
{
  using T = Tensor<DIM, N1>;
  return PAD ? c[0] + T::S1 * c[1] + T::S2 * c[2] : c[0] + N1 * c[1] + N1 * N1 * c[2];
}

// sum_k A[c_dir][k] in[point with c_dir = k] (A in shared memory, row-major with pitch LD, see
// StageMatrix; in with padded pitches if PAD), added to acc.
template <int DIM, int N1, bool PAD = false>
__device__ __forceinline__ double Line(int dir, const int c[3], const double *A, const double *in, double acc)
{
  using T      = Tensor<DIM, N1>;
  const int st = dir == 0 ? 1 : dir == 1 ? (PAD ? T::S1 : N1)
                                         : (PAD ? T::S2 : N1 * N1),
            i0 = SharedIndex<DIM, N1, PAD>(c) - c[dir] * st;
#pragma unroll
  for (int k = 0; k < N1; k++) acc += A[c[dir] * T::LD + k] * in[i0 + k * st];
  return acc;
}

// The element of a block's slot (mass kernels: the whole block of K elements).
template <int DIM, int N1>
__device__ __forceinline__ int ElementOf(unsigned block, int slot)
{
  return (int)block * Tensor<DIM, N1>::E + slot;
}
#define e0_(blk, slot) ElementOf<DIM, N1>(blk, slot)

// Load an N1 x N1 matrix into shared memory (row pitch LD) with the block's threads.
template <int DIM, int N1>
__device__ __forceinline__ void StageMatrix(double *dst, const double *src, int t, int nt)
{
  for (int k = t; k < N1 * N1; k += nt) dst[(k / N1) * Tensor<DIM, N1>::LD + k % N1] = src[k];
}

// The face terms of the apply for the face nodes n = n0, n0 + step, ... of element e (by face grid
// position): the flux s and [[u]] into FS, FJ, and each face's 0.5 sJ (grad r_a . n) into sgn.
template <int DIM, int N1>
__device__ __forceinline__ void FaceFluxes(const IPDGKernelData &d, int e, int base, double J, const double *ge, const double *const g[3], const double *u, const double *bc, int n0, int step, double *FS, double *FJ, double (*sgn)[3])
{
  using T                = Tensor<DIM, N1>;
  constexpr int NFP = T::NFP, NF = T::NF, NFN = T::NFN, SS = HOFLOW_SGEO_SIZE(DIM);
  for (int n = n0; n < NFN; n += step) {
    const int     f = n / NFP, p = d.face_pos[n], idM = base + d.face_nodes[n];
    const double *sg = d.sgeo + (e * NF + f) * SS, sJ = sg[HOFLOW_SGEO_SJ_OVER_J(DIM)] * J, tau = sg[HOFLOW_SGEO_TAU(DIM)];
    const int     type = d.face_type[e * NF + f], interior = type == HOFLOW_FACE_INTERIOR, idP = interior ? d.vmapP[e * NFN + n] : idM;
    double        gnM = 0, gnP = 0, ju, jg;
#pragma unroll
    for (int x = 0; x < DIM; x++) gnM += sg[x] * g[x][idM];
    if (interior)
#pragma unroll
      for (int x = 0; x < DIM; x++) gnP += sg[x] * g[x][idP];
    EllipticFaceJumps(type, u[idM], gnM, interior ? u[idP] : 0.0, gnP, bc ? bc[e * NFN + n] : 0.0, &ju, &jg);
    FS[f * NFP + p] = -sJ * (gnM + 0.5 * jg + tau * ju);
    FJ[f * NFP + p] = ju;
    if (p == 0)
#pragma unroll
      for (int a = 0; a < DIM; a++) {
        double s = 0;
#pragma unroll
        for (int x = 0; x < DIM; x++) s += ge[x * DIM + a] * sg[x];
        sgn[f][a] = 0.5 * sJ * s;
      }
  }
}

// The face mass M1 (x) M1 on each face grid, one direction of it for face nodes n0, n0 + step, ...:
// along the grid's first direction (second = false: as the host, through M1^T = M1) or its second.
template <int DIM, int N1, bool SECOND>
__device__ __forceinline__ void FaceMassPass(int n0, int step, const double *sM, const double *inS, const double *inJ, double *outS, double *outJ)
{
  using T           = Tensor<DIM, N1>;
  constexpr int NFP = T::NFP;
  for (int n = n0; n < T::NFN; n += step) {
    const int f = n / NFP, p = n % NFP, p0 = p % N1, p1 = p / N1;
    double    a = 0, b = 0;
#pragma unroll
    for (int k = 0; k < N1; k++) {
      const double m = SECOND ? sM[p1 * T::LD + k] : sM[k * T::LD + p0];
      const int    q = SECOND ? f * NFP + p0 + k * N1 : f * NFP + p - p0 + k;
      a += m * inS[q];
      b += m * inJ[q];
    }
    outS[n] = a;
    outJ[n] = b;
  }
}

// The position of the point with indices c on the grid of face f, or -1 where it is not on face f.
template <int DIM, int N1>
__device__ __forceinline__ int FacePoint(const IPDGKernelData &d, int f, const int c[3])
{
  const int fd = d.face_dir[f], st = fd == 0 ? 1 : fd == 1 ? N1
                                                           : N1 * N1;
  if (c[fd] != (d.face_nodes[f * Tensor<DIM, N1>::NFP] / st) % N1) return -1;
  int p = 0;
#pragma unroll
  for (int x = DIM - 1; x >= 0; x--)
    if (x != fd) p = p * N1 + c[x];
  return p;
}

template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) TensorGradientKernel(const IPDGKernelData d, int halo, int e0, int e1, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy, double *__restrict__ gz)
{
  using T = Tensor<DIM, N1>;
  __shared__ double sD[N1 * Tensor<DIM, N1>::LD], su[T::E][T::NPP];
  int               c[3];
  const int         i = PointIndex<DIM, N1>(c), slot = DIM == 2 ? threadIdx.z : 0, e = e0 + blockIdx.x * T::E + slot, t = i + slot * T::NP;
  const double     *geo  = halo ? d.halo_geo : d.geo;
  const int         n0   = halo ? d.halo_node0 : d.node0;
  double *const     g[3] = {gx, gy, gz};

  StageMatrix<DIM, N1>(sD, d.D1, t, T::E * T::NP);
  const int ip = SharedIndex<DIM, N1, true>(c);
  if (e < e1) su[slot][ip] = u[n0 + e * T::NP + i];
  __syncthreads();
  if (e >= e1) return;
  double ur[DIM];
#pragma unroll
  for (int a = 0; a < DIM; a++) ur[a] = Line<DIM, N1, true>(a, c, sD, su[slot], 0.0);
  const double *ge = geo + e * HOFLOW_GEO_SIZE(DIM);
#pragma unroll
  for (int x = 0; x < DIM; x++) {
    double s = 0;
#pragma unroll
    for (int a = 0; a < DIM; a++) s += ge[x * DIM + a] * ur[a];
    g[x][n0 + e * T::NP + i] = s;
  }
}

// Shared doubles per element of the apply: q_a (DIM NPP), the first and second passes' fields (DIM NPP),
// lambda J u (NPP), the face fields (4 NFN); the volume fields with padded pitches.
template <int DIM, int N1>
__host__ __device__ constexpr int ApplyShared()
{
  return (2 * DIM + 1) * Tensor<DIM, N1>::NPP + 4 * Tensor<DIM, N1>::NFN;
}

template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) TensorApplyKernel(const IPDGKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  using T                     = Tensor<DIM, N1>;
  constexpr int            NP = T::NP, NPP = T::NPP, NFP = T::NFP, NF = T::NF, NFN = T::NFN;
  __shared__ double        sM[N1 * Tensor<DIM, N1>::LD], sA[N1 * Tensor<DIM, N1>::LD], sAT[N1 * Tensor<DIM, N1>::LD], sD[N1 * Tensor<DIM, N1>::LD], sDT[N1 * Tensor<DIM, N1>::LD], sgn[T::E][NF][3];
  extern __shared__ double smem[];
  int                      c[3];
  const int                i = PointIndex<DIM, N1>(c), ip = SharedIndex<DIM, N1, true>(c), slot = DIM == 2 ? threadIdx.z : 0, e = e0 + blockIdx.x * T::E + slot, t = i + slot * NP;
  double                  *sh = smem + slot * ApplyShared<DIM, N1>();
  double                  *q = sh, *X = sh + DIM * NPP, *lu = sh + 2 * DIM * NPP, *FS = lu + NPP, *FJ = FS + NFN, *FT = FJ + NFN, *FU = FT + NFN;
  const double *const      g[3] = {gx, gy, gz};
  const bool               live = e < e1;
  const double            *ge = d.geo + (live ? e : e0) * HOFLOW_GEO_SIZE(DIM), J = ge[HOFLOW_GEO_J(DIM)];
  const int                base = d.node0 + (live ? e : e0) * NP;

  StageMatrix<DIM, N1>(sM, d.M1, t, T::E * NP);
  StageMatrix<DIM, N1>(sA, d.A1, t, T::E * NP);
  StageMatrix<DIM, N1>(sAT, d.A1T, t, T::E * NP);
  StageMatrix<DIM, N1>(sD, d.D1, t, T::E * NP);
  StageMatrix<DIM, N1>(sDT, d.D1T, t, T::E * NP);
  if (live) {
#pragma unroll
    for (int a = 0; a < DIM; a++) {
      double s = 0;
#pragma unroll
      for (int x = 0; x < DIM; x++) s += J * ge[x * DIM + a] * g[x][base + i];
      q[a * NPP + ip] = s;
    }
    lu[ip] = d.lambda * J * u[base + i];
  }
  __syncthreads();
  // volume: the passes of the host kernel, direction by direction (A along the first direction is
  // applied as the host does it, through its transpose: the same products in the same order)
  double out = 0;
  if (live) {
    double x0 = Line<DIM, N1, true>(0, c, sA, q, 0.0);
    if (d.lambda != 0) x0 = Line<DIM, N1, true>(0, c, sM, lu, x0);
    X[ip]       = x0;
    X[NPP + ip] = Line<DIM, N1, true>(0, c, sM, q + NPP, 0.0);
    if (DIM == 3) X[2 * NPP + ip] = Line<DIM, N1, true>(0, c, sM, q + 2 * NPP, 0.0);
  }
  __syncthreads();
  if (live) {
    if (DIM == 2)
      out = Line<DIM, N1, true>(1, c, sA, X + NPP, Line<DIM, N1, true>(1, c, sM, X, 0.0));
    else {
      q[ip]       = Line<DIM, N1, true>(1, c, sA, X + NPP, Line<DIM, N1, true>(1, c, sM, X, 0.0)); // P
      q[NPP + ip] = Line<DIM, N1, true>(1, c, sM, X + 2 * NPP, 0.0);                             // Q
    }
  }
  __syncthreads();
  if (live && DIM == 3) out = Line<DIM, N1, true>(2, c, sA, q + NPP, Line<DIM, N1, true>(2, c, sM, q, 0.0));
  // faces: the flux s and [[u]] at each face node, by face grid position; the face mass
  if (live) FaceFluxes<DIM, N1>(d, e, base, J, ge, g, u, bc, i, NP, FS, FJ, sgn[slot]);
  __syncthreads();
  if (live) FaceMassPass<DIM, N1, false>(i, NP, sM, FS, FJ, FT, FU);
  __syncthreads();
  if (live && DIM == 3) FaceMassPass<DIM, N1, true>(i, NP, sM, FT, FU, FS, FJ);
  __syncthreads();
  const double *MS = DIM == 3 ? FS : FT, *MJ = DIM == 3 ? FJ : FU;
  // this point's share of every face it lies on (the faces in order, as the host adds them), and F_a
  double F[DIM];
#pragma unroll
  for (int a = 0; a < DIM; a++) F[a] = 0;
  if (live)
#pragma unroll
    for (int f = 0; f < NF; f++) {
      const int p = FacePoint<DIM, N1>(d, f, c);
      if (p < 0) continue;
      out += MS[f * NFP + p];
#pragma unroll
      for (int a = 0; a < DIM; a++) F[a] += sgn[slot][f][a] * MJ[f * NFP + p];
    }
  __syncthreads();
  if (live)
#pragma unroll
    for (int a = 0; a < DIM; a++) X[a * NPP + ip] = F[a];
  __syncthreads();
  if (live) {
#pragma unroll
    for (int a = 0; a < DIM; a++) out = Line<DIM, N1, true>(a, c, sDT, X + a * NPP, out);
    Au[base + i] = out;
  }
}

// ---------------------------------------------------------------- affine hexahedra: one thread per (r, s) line

// The affine hexahedral gradient and apply with N1^2 threads an element, thread (c0, c1) holding the
// line of N1 points along t in registers: passes along t run in registers (the 1D matrix entries are
// the same for the whole warp: shared-memory broadcasts), passes along r and s read the element's
// field from shared memory with the thread's matrix row in registers. Against one thread per point
// (above, kept for quadrilaterals) this reads a third of the shared-memory words per pass and
// holds N1 independent points per thread. Same passes, same matrices, same face terms as the host.
// The line kernels from N = 4 (N1 = 5) on; below, one thread per point was faster (H100, 64 000
// hexahedra, gradient + apply: N = 2 9.2 against 8.8 GDOF/s, N = 3 13.4 against 11.3).
constexpr int HEX_LINE_MIN_N1 = 5;

template <int N1>
struct Hex {
  using T                    = Tensor<3, N1>;
  static constexpr int NP    = T::NP, NFP = T::NFP, NF = 6, NFN = T::NFN, LD = T::LD, S1 = T::S1, S2 = T::S2, NPP = T::NPP;
  static constexpr int E     = 128 / (N1 * N1) > 0 ? 128 / (N1 * N1) : 1; // elements per block
  static constexpr int SLAB  = N1 * S1;                                     // one t-plane of a padded field
  static constexpr int FACES = 2 * NFN > NPP ? 2 * NFN : NPP;               // the face fields, or X_2
  // apply, per element: X_0, X_1 (padded fields; between the face-mass passes the intermediate face
  // fields), X_2 or the two face fields, the t-plane of q_0..2 and lambda J u
  static constexpr int XS    = NPP > NFN ? NPP : NFN;                       // room of X_0 and of X_1
  static constexpr int APPLY = 2 * XS + FACES + 4 * SLAB;
  // resident blocks an SM asked of the compiler (a register cap: 85 registers at 6, 128 at 4). H100,
  // 64 000 hexahedra, gradient + apply GDOF/s without a cap / 4 / 6: N = 4 12.9/12.7/14.2, N = 5
  // 13.0/13.1/14.8, N = 6 10.3/12.3/13.1, N = 7 13.6/16.1/15.0, N = 8 10.8/11.6/13.1 (N = 9 not measured)
  static constexpr int MIN_BLOCKS = N1 == 8 || N1 == 10 ? 4 : 6;
};

template <int N1>
__global__ void __launch_bounds__(Hex<N1>::E *N1 *N1, Hex<N1>::MIN_BLOCKS) HexGradientKernel(const IPDGKernelData d, int halo, int e0, int e1, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy, double *__restrict__ gz)
{
  using H = Hex<N1>;
  __shared__ double sD[N1 * H::LD], su[H::E][H::NPP];
  const int         c0 = threadIdx.x, c1 = threadIdx.y, slot = threadIdx.z, e = e0 + blockIdx.x * H::E + slot, t = c0 + N1 * (c1 + N1 * slot);
  const double     *geo = halo ? d.halo_geo : d.geo;
  const int         n0  = halo ? d.halo_node0 : d.node0, line = c0 + N1 * c1;
  const bool        live = e < e1;
  double            ul[N1], D0[N1], D1r[N1];

  StageMatrix<3, N1>(sD, d.D1, t, H::E * N1 * N1);
  if (live)
#pragma unroll
    for (int k = 0; k < N1; k++) su[slot][c0 + H::S1 * c1 + H::S2 * k] = ul[k] = u[n0 + e * H::NP + line + N1 * N1 * k];
  __syncthreads();
  if (!live) return;
#pragma unroll
  for (int k = 0; k < N1; k++) {
    D0[k]  = sD[c0 * H::LD + k];
    D1r[k] = sD[c1 * H::LD + k];
  }
  const double *ge = geo + e * HOFLOW_GEO_SIZE(3), *us = su[slot];
  double        G[9];
#pragma unroll
  for (int k = 0; k < 9; k++) G[k] = ge[k];
#pragma unroll
  for (int c2 = 0; c2 < N1; c2++) {
    double ur[3] = {0, 0, 0};
#pragma unroll
    for (int k = 0; k < N1; k++) {
      ur[0] += D0[k] * us[k + H::S1 * c1 + H::S2 * c2];
      ur[1] += D1r[k] * us[c0 + H::S1 * k + H::S2 * c2];
      ur[2] += sD[c2 * H::LD + k] * ul[k];
    }
#pragma unroll
    for (int x = 0; x < 3; x++) (x == 0 ? gx : x == 1 ? gy : gz)[n0 + e * H::NP + line + N1 * N1 * c2] = G[x * 3] * ur[0] + G[x * 3 + 1] * ur[1] + G[x * 3 + 2] * ur[2];
  }
}

template <int N1>
__global__ void __launch_bounds__(Hex<N1>::E *N1 *N1, Hex<N1>::MIN_BLOCKS) HexApplyKernel(const IPDGKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  using H                     = Hex<N1>;
  constexpr int            NP = H::NP, NFP = H::NFP, NF = H::NF, NFN = H::NFN, S1 = H::S1, S2 = H::S2, LD = H::LD;
  __shared__ double        sM[N1 * LD], sA[N1 * LD], sDT[N1 * LD], sgn[H::E][NF][3];
  extern __shared__ double smem[];
  const int                c0 = threadIdx.x, c1 = threadIdx.y, slot = threadIdx.z, e = e0 + blockIdx.x * H::E + slot, t = c0 + N1 * (c1 + N1 * slot), line = c0 + N1 * c1;
  double                  *sh = smem + slot * H::APPLY, *X0 = sh, *X1 = sh + H::XS, *X2 = sh + 2 * H::XS, *Q = X2 + H::FACES;
  double                  *FS = X2, *FJ = FS + NFN, *FT = X0, *FU = X0 + NFN;
  const double *const      g[3] = {gx, gy, gz};
  const bool               live = e < e1;
  const double            *ge = d.geo + (live ? e : e0) * HOFLOW_GEO_SIZE(3), J = ge[HOFLOW_GEO_J(3)];
  const int                base = d.node0 + (live ? e : e0) * NP, own = c0 + S1 * c1;
  const bool               lam  = d.lambda != 0;
  double                   rA[N1], rM[N1], col[N1], out[N1];

  StageMatrix<3, N1>(sM, d.M1, t, H::E * N1 * N1);
  StageMatrix<3, N1>(sA, d.A1, t, H::E * N1 * N1);
  StageMatrix<3, N1>(sDT, d.D1T, t, H::E * N1 * N1);
  __syncthreads();
  // along r, one t-plane at a time: q_a = J sum_x (dr_a/dx) g_x and lambda J u into the plane
  // buffer, then X_0 = A q_0 (+ M lambda J u), X_1 = M q_1, X_2 = M q_2 at the thread's point
#pragma unroll
  for (int k = 0; k < N1; k++) {
    rA[k] = sA[c0 * LD + k];
    rM[k] = sM[c0 * LD + k];
  }
  for (int c2 = 0; c2 < N1; c2++) {
    if (live) {
      const int gi = base + line + N1 * N1 * c2;
      double    gv[3];
#pragma unroll
      for (int x = 0; x < 3; x++) gv[x] = g[x][gi];
#pragma unroll
      for (int a = 0; a < 3; a++) { // as the one-thread-a-point kernel: sum_x J (dr_a/dx) g_x
        double s = 0;
#pragma unroll
        for (int x = 0; x < 3; x++) s += J * ge[x * 3 + a] * gv[x];
        Q[a * H::SLAB + own] = s;
      }
      if (lam) Q[3 * H::SLAB + own] = d.lambda * J * u[gi];
    }
    __syncthreads();
    if (live) {
      const double *q0 = Q + S1 * c1, *q1 = q0 + H::SLAB, *q2 = q1 + H::SLAB, *l = q2 + H::SLAB;
      double        x0 = 0, x1 = 0, x2 = 0;
#pragma unroll
      for (int k = 0; k < N1; k++) x0 += rA[k] * q0[k];
      if (lam)
#pragma unroll
        for (int k = 0; k < N1; k++) x0 += rM[k] * l[k];
#pragma unroll
      for (int k = 0; k < N1; k++) {
        x1 += rM[k] * q1[k];
        x2 += rM[k] * q2[k];
      }
      X0[own + S2 * c2] = x0;
      X1[own + S2 * c2] = x1;
      X2[own + S2 * c2] = x2;
    }
    __syncthreads();
  }
  // along s into registers (P in col, the Q of the host in out), then along t: out = M P + A Q
#pragma unroll
  for (int k = 0; k < N1; k++) {
    rA[k] = sA[c1 * LD + k];
    rM[k] = sM[c1 * LD + k];
  }
  if (live)
#pragma unroll
    for (int c2 = 0; c2 < N1; c2++) {
      double p = 0, qq = 0;
#pragma unroll
      for (int k = 0; k < N1; k++) p += rM[k] * X0[c0 + S1 * k + S2 * c2];
#pragma unroll
      for (int k = 0; k < N1; k++) p += rA[k] * X1[c0 + S1 * k + S2 * c2];
#pragma unroll
      for (int k = 0; k < N1; k++) qq += rM[k] * X2[c0 + S1 * k + S2 * c2];
      col[c2] = p;
      out[c2] = qq;
    }
  __syncthreads(); // X_2 becomes the face fields
  if (live) {
    double Qv[N1];
#pragma unroll
    for (int k = 0; k < N1; k++) Qv[k] = out[k];
#pragma unroll
    for (int c2 = 0; c2 < N1; c2++) {
      double o = 0;
#pragma unroll
      for (int k = 0; k < N1; k++) o += sM[c2 * LD + k] * col[k];
#pragma unroll
      for (int k = 0; k < N1; k++) o += sA[c2 * LD + k] * Qv[k];
      out[c2] = o;
    }
  }
  // faces: the flux s and [[u]] at each face node, by face grid position (a thread: the same grid
  // position on every face); the face mass
  if (live) FaceFluxes<3, N1>(d, e, base, J, ge, g, u, bc, line, NFP, FS, FJ, sgn[slot]);
  __syncthreads();
  if (live) FaceMassPass<3, N1, false>(line, NFP, sM, FS, FJ, FT, FU);
  __syncthreads();
  if (live) FaceMassPass<3, N1, true>(line, NFP, sM, FT, FU, FS, FJ);
  __syncthreads();
  // each point's share of the faces it lies on (faces in order, as the host adds them): the flux into
  // out, F_a = sum_f sgn_f,a [[u]]-mass into X_0, X_1 (shared) and the line's F_2 (registers, col)
  if (live)
#pragma unroll
    for (int c2 = 0; c2 < N1; c2++) {
      const int c[3] = {c0, c1, c2};
      double    F[3] = {0, 0, 0};
#pragma unroll
      for (int f = 0; f < NF; f++) {
        const int p = FacePoint<3, N1>(d, f, c);
        if (p < 0) continue;
        out[c2] += FS[f * NFP + p];
#pragma unroll
        for (int a = 0; a < 3; a++) F[a] += sgn[slot][f][a] * FJ[f * NFP + p];
      }
      X0[own + S2 * c2] = F[0];
      X1[own + S2 * c2] = F[1];
      col[c2]           = F[2];
    }
  __syncthreads();
  if (!live) return;
  // lift: out += D^T along r of F_0, along s of F_1, along t of F_2
#pragma unroll
  for (int k = 0; k < N1; k++) {
    rA[k] = sDT[c0 * LD + k];
    rM[k] = sDT[c1 * LD + k];
  }
#pragma unroll
  for (int c2 = 0; c2 < N1; c2++) {
    double o = out[c2];
#pragma unroll
    for (int k = 0; k < N1; k++) o += rA[k] * X0[k + S1 * c1 + S2 * c2];
#pragma unroll
    for (int k = 0; k < N1; k++) o += rM[k] * X1[c0 + S1 * k + S2 * c2];
#pragma unroll
    for (int k = 0; k < N1; k++) o += sDT[c2 * LD + k] * col[k];
    Au[base + line + N1 * N1 * c2] = o;
  }
}

// ---------------------------------------------------------------- curved blocks

template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) CurvedTensorGradientKernel(const IPDGCurvedKernelData d, int halo, int e0, int e1, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy, double *__restrict__ gz)
{
  using T = Tensor<DIM, N1>;
  __shared__ double sD[N1 * Tensor<DIM, N1>::LD], su[T::E][T::NP];
  int               c[3];
  const int         i = PointIndex<DIM, N1>(c), slot = DIM == 2 ? threadIdx.z : 0, e = e0 + blockIdx.x * T::E + slot, t = i + slot * T::NP;
  const double     *Gn   = halo ? d.halo_Gn : d.Gn;
  const int         n0   = halo ? d.halo_node0 : d.node0;
  double *const     g[3] = {gx, gy, gz};

  StageMatrix<DIM, N1>(sD, d.D1, t, T::E * T::NP);
  if (e < e1) su[slot][i] = u[n0 + e * T::NP + i];
  __syncthreads();
  if (e >= e1) return;
  double ur[DIM];
#pragma unroll
  for (int a = 0; a < DIM; a++) ur[a] = Line<DIM, N1>(a, c, sD, su[slot], 0.0);
  const double *Gi = Gn + ((size_t)e * T::NP + i) * DIM * DIM;
#pragma unroll
  for (int x = 0; x < DIM; x++) {
    double s = 0;
#pragma unroll
    for (int a = 0; a < DIM; a++) s += Gi[x * DIM + a] * ur[a];
    g[x][n0 + e * T::NP + i] = s;
  }
}

// The volume terms (CurvedTensorVolume of the host): set Au.
template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) CurvedTensorVolumeKernel(const IPDGCurvedKernelData d, int e0, int e1, const double *__restrict__ u, double *__restrict__ Au)
{
  using T                     = Tensor<DIM, N1>;
  constexpr int            NP = T::NP, NPAIR = DIM * (DIM + 1) / 2;
  __shared__ double        sB[N1 * Tensor<DIM, N1>::LD], sG[N1 * Tensor<DIM, N1>::LD], sBT[N1 * Tensor<DIM, N1>::LD], sGT[N1 * Tensor<DIM, N1>::LD];
  extern __shared__ double smem[];
  int                      c[3];
  const int                i = PointIndex<DIM, N1>(c), slot = DIM == 2 ? threadIdx.z : 0, e = e0 + blockIdx.x * T::E + slot, t = i + slot * NP;
  double                  *su = smem + slot * (5 + DIM) * NP, *s1 = su + NP, *s2 = s1 + NP, *s3 = s2 + NP, *uq = s3 + NP, *ua = uq + NP; // ua: DIM NP
  const bool               live = e < e1;
  const int                base = d.node0 + (live ? e : e0) * NP;

  StageMatrix<DIM, N1>(sB, d.B1, t, T::E * NP);
  StageMatrix<DIM, N1>(sG, d.G1, t, T::E * NP);
  StageMatrix<DIM, N1>(sBT, d.B1T, t, T::E * NP);
  StageMatrix<DIM, N1>(sGT, d.G1T, t, T::E * NP);
  if (live) su[i] = u[base + i];
  __syncthreads();
  if (live) {
    s1[i] = Line<DIM, N1>(0, c, sB, su, 0.0);
    s2[i] = Line<DIM, N1>(0, c, sG, su, 0.0);
  }
  __syncthreads();
  if (DIM == 2) {
    if (live) {
      uq[i]      = Line<DIM, N1>(1, c, sB, s1, 0.0);
      ua[NP + i] = Line<DIM, N1>(1, c, sG, s1, 0.0);
      ua[i]      = Line<DIM, N1>(1, c, sB, s2, 0.0);
    }
    __syncthreads();
  } else { // every stage writes buffers that no thread reads in it
    if (live) {
      s3[i] = Line<DIM, N1>(1, c, sB, s1, 0.0); // B_s B_r u
      su[i] = Line<DIM, N1>(1, c, sG, s1, 0.0); // G_s B_r u
      uq[i] = Line<DIM, N1>(1, c, sB, s2, 0.0); // B_s G_r u
    }
    __syncthreads();
    if (live) {
      ua[NP + i]     = Line<DIM, N1>(2, c, sB, su, 0.0);
      ua[i]          = Line<DIM, N1>(2, c, sB, uq, 0.0);
      ua[2 * NP + i] = Line<DIM, N1>(2, c, sG, s3, 0.0);
      s1[i]          = Line<DIM, N1>(2, c, sB, s3, 0.0); // u at the point
    }
    __syncthreads();
  }
  double *up = DIM == 2 ? uq : s1; // u at the points, then lambda w J u
  if (live) {                      // the fluxes at the point
    const double *K = d.vq + ((size_t)e * NP + i) * (NPAIR + 1);
    double        r[DIM], v[DIM];
#pragma unroll
    for (int a = 0; a < DIM; a++) r[a] = ua[a * NP + i];
#pragma unroll
    for (int a = 0; a < DIM; a++) {
      double s = 0;
#pragma unroll
      for (int b = 0; b < DIM; b++) s += K[IPDGCurvedPair(a, b, DIM)] * r[b];
      v[a] = s;
    }
#pragma unroll
    for (int a = 0; a < DIM; a++) ua[a * NP + i] = v[a];
    up[i] = d.lambda * K[NPAIR] * up[i];
  }
  __syncthreads();
  if (DIM == 2) {
    if (live) {
      s1[i] = Line<DIM, N1>(1, c, sGT, ua + NP, Line<DIM, N1>(1, c, sBT, uq, 0.0));
      s2[i] = Line<DIM, N1>(1, c, sBT, ua, 0.0);
    }
    __syncthreads();
    if (live) Au[base + i] = Line<DIM, N1>(0, c, sGT, s2, Line<DIM, N1>(0, c, sBT, s1, 0.0));
  } else {
    if (live) {
      su[i] = Line<DIM, N1>(2, c, sGT, ua + 2 * NP, Line<DIM, N1>(2, c, sBT, up, 0.0));
      s2[i] = Line<DIM, N1>(2, c, sBT, ua + NP, 0.0);
      s3[i] = Line<DIM, N1>(2, c, sBT, ua, 0.0);
    }
    __syncthreads();
    if (live) {
      uq[i] = Line<DIM, N1>(1, c, sGT, s2, Line<DIM, N1>(1, c, sBT, su, 0.0));
      s1[i] = Line<DIM, N1>(1, c, sBT, s3, 0.0);
    }
    __syncthreads();
    if (live) Au[base + i] = Line<DIM, N1>(0, c, sGT, s1, Line<DIM, N1>(0, c, sBT, uq, 0.0));
  }
}

// The face terms of the dense curved kernel, one element per thread, leaving R in the scratch.
template <int DIM, int N1>
__global__ void CurvedTensorFacesKernel(const IPDGCurvedKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  const int           k       = blockIdx.x * blockDim.x + threadIdx.x;
  const double *const grad[3] = {gx, gy, gz};
  if (e0 + k < e1) IPDGCurvedApplyElement(&d, Tensor<DIM, N1>::NP, DIM, e0 + k, u, grad, bc, Au, d.work + k, e1 - e0, IPDG_CURVED_FACES);
}

// Au += sum_d D_d^T R_d, R from the scratch (element k of the launch at stride ws).
template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) CurvedTensorLiftKernel(const IPDGCurvedKernelData d, int e0, int e1, double *__restrict__ Au)
{
  using T                     = Tensor<DIM, N1>;
  constexpr int            NP = T::NP;
  __shared__ double        sDT[N1 * Tensor<DIM, N1>::LD];
  extern __shared__ double smem[];
  int                      c[3];
  const int                i = PointIndex<DIM, N1>(c), slot = DIM == 2 ? threadIdx.z : 0, k = blockIdx.x * T::E + slot, e = e0 + k, t = i + slot * NP, ws = e1 - e0;
  double                  *sR   = smem + slot * DIM * NP;
  const bool               live = e < e1;

  StageMatrix<DIM, N1>(sDT, d.D1T, t, T::E * NP);
  if (live) {
    const double *R = d.work + (size_t)(DIM + 1) * d.Nq * ws + k;
#pragma unroll
    for (int a = 0; a < DIM; a++) sR[a * NP + i] = R[(size_t)(a * NP + i) * ws];
  }
  __syncthreads();
  if (!live) return;
  double out = Au[d.node0 + e * NP + i];
#pragma unroll
  for (int a = 0; a < DIM; a++) out = Line<DIM, N1>(a, c, sDT, sR + a * NP, out);
  Au[d.node0 + e * NP + i] = out;
}

// ---------------------------------------------------------------- mass and inverse mass

// Affine: J (M1 (x) ...) u or (M1^-1 (x) ...) u / J; curved: B^T diag(w J) B u (the host's passes).
template <int DIM, int N1>
__global__ void __launch_bounds__(Tensor<DIM, N1>::E *Tensor<DIM, N1>::NP) TensorMassKernel(const DGKernelData d, int curved, int inverse, const double *__restrict__ u, double *__restrict__ Mu)
{
  using T              = Tensor<DIM, N1>;
  constexpr int     NP = T::NP;
  __shared__ double sA[N1 * Tensor<DIM, N1>::LD], sAT[N1 * Tensor<DIM, N1>::LD], s1[T::E][NP], s2[T::E][NP];
  int               c[3];
  const int         i = PointIndex<DIM, N1>(c), slot = DIM == 2 ? threadIdx.z : 0, e = e0_(blockIdx.x, slot), t = i + slot * NP;
  const bool        live = e < d.K;
  const double     *A    = curved ? d.B1 : inverse ? d.M1inv
                                                   : d.M1,
               *AT       = curved ? d.B1T : A;
  double *a = s1[slot], *b = s2[slot];

  StageMatrix<DIM, N1>(sA, A, t, T::E * NP);
  StageMatrix<DIM, N1>(sAT, AT, t, T::E * NP);
  if (live) a[i] = u[d.node0 + e * NP + i];
  __syncthreads();
  // forward: along r, s[, t]; the result in b (2D) or a (3D)
  if (live) b[i] = Line<DIM, N1>(0, c, sA, a, 0.0);
  __syncthreads();
  if (live) a[i] = Line<DIM, N1>(1, c, sA, b, 0.0);
  __syncthreads();
  if (DIM == 3) {
    if (live) b[i] = Line<DIM, N1>(2, c, sA, a, 0.0);
    __syncthreads();
  }
  double *r = DIM == 3 ? b : a; // the forward result
  if (!curved) {
    if (live) {
      const double J           = d.geo[e * HOFLOW_GEO_SIZE(DIM) + HOFLOW_GEO_J(DIM)];
      Mu[d.node0 + e * NP + i] = (inverse ? 1.0 / J : J) * r[i];
    }
    return;
  }
  double *o = DIM == 3 ? a : b;
  if (live) r[i] *= d.wJq[(size_t)e * NP + i];
  __syncthreads();
  // back: B^T along t[, s], r
  if (DIM == 3) {
    if (live) o[i] = Line<DIM, N1>(2, c, sAT, r, 0.0);
    __syncthreads();
    if (live) r[i] = Line<DIM, N1>(1, c, sAT, o, 0.0);
    __syncthreads();
    if (live) Mu[d.node0 + e * NP + i] = Line<DIM, N1>(0, c, sAT, r, 0.0);
  } else {
    if (live) o[i] = Line<DIM, N1>(1, c, sAT, r, 0.0);
    __syncthreads();
    if (live) Mu[d.node0 + e * NP + i] = Line<DIM, N1>(0, c, sAT, o, 0.0);
  }
}

// ---------------------------------------------------------------- launchers and tables

template <int DIM, int N1>
dim3 Block()
{
  return DIM == 2 ? dim3(N1, N1, Tensor<DIM, N1>::E) : dim3(N1, N1, N1);
}

// Opt in to more than 48 KiB of shared memory (the kernel's static arrays plus the dynamic ones) where
// a kernel needs it; *ok: anything to launch.
template <typename K>
static int Launch(K kernel, int nelem, size_t shared, bool *ok)
{
  cudaFuncAttributes attr;
  cudaError_t        err = cudaFuncGetAttributes(&attr, kernel);
  if (err != cudaSuccess) return (int)err;
  if (shared + attr.sharedSizeBytes > 48 * 1024 && (err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared)) != cudaSuccess) return (int)err;
  *ok = nelem > 0;
  return 0;
}

template <int DIM, int N1>
static int LaunchGradient(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  if (e1 <= e0) return 0;
  if constexpr (DIM == 3 && N1 >= HEX_LINE_MIN_N1) {
    constexpr int E = Hex<N1>::E;
    HexGradientKernel<N1><<<(e1 - e0 + E - 1) / E, dim3(N1, N1, E), 0, (cudaStream_t)d->stream>>>(*d, halo, e0, e1, u, gx, gy, gz);
  } else {
    constexpr int E = Tensor<DIM, N1>::E;
    TensorGradientKernel<DIM, N1><<<(e1 - e0 + E - 1) / E, Block<DIM, N1>(), 0, (cudaStream_t)d->stream>>>(*d, halo, e0, e1, u, gx, gy, gz);
  }
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
static int LaunchApply(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  bool ok = false;
  int  err;
  if constexpr (DIM == 3 && N1 >= HEX_LINE_MIN_N1) {
    constexpr int    E      = Hex<N1>::E;
    constexpr size_t shared = sizeof(double) * E * Hex<N1>::APPLY;
    if ((err = Launch(HexApplyKernel<N1>, e1 - e0, shared, &ok))) return err;
    if (ok) HexApplyKernel<N1><<<(e1 - e0 + E - 1) / E, dim3(N1, N1, E), shared, (cudaStream_t)d->stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  } else {
    constexpr int    E      = Tensor<DIM, N1>::E;
    constexpr size_t shared = sizeof(double) * E * ApplyShared<DIM, N1>();
    if ((err = Launch(TensorApplyKernel<DIM, N1>, e1 - e0, shared, &ok))) return err;
    if (ok) TensorApplyKernel<DIM, N1><<<(e1 - e0 + E - 1) / E, Block<DIM, N1>(), shared, (cudaStream_t)d->stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  }
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
static int LaunchCurvedGradient(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  constexpr int E = Tensor<DIM, N1>::E;
  if (e1 > e0) CurvedTensorGradientKernel<DIM, N1><<<(e1 - e0 + E - 1) / E, Block<DIM, N1>(), 0, (cudaStream_t)d->stream>>>(*d, halo, e0, e1, u, gx, gy, gz);
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
static int LaunchCurvedApply(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  constexpr int    E = Tensor<DIM, N1>::E, NP = Tensor<DIM, N1>::NP;
  constexpr size_t sv = sizeof(double) * E * (5 + DIM) * NP, sl = sizeof(double) * E * DIM * NP; // CurvedTensorVolumeKernel: su, s1, s2, s3, uq, ua[DIM]
  cudaStream_t     stream = (cudaStream_t)d->stream;
  bool             ok     = false;
  int              err;
  if (e1 <= e0) return 0;
  if ((err = Launch(CurvedTensorVolumeKernel<DIM, N1>, e1 - e0, sv, &ok))) return err;
  CurvedTensorVolumeKernel<DIM, N1><<<(e1 - e0 + E - 1) / E, Block<DIM, N1>(), sv, stream>>>(*d, e0, e1, u, Au);
  CurvedTensorFacesKernel<DIM, N1><<<(e1 - e0 + 63) / 64, 64, 0, stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  if ((err = Launch(CurvedTensorLiftKernel<DIM, N1>, e1 - e0, sl, &ok))) return err;
  CurvedTensorLiftKernel<DIM, N1><<<(e1 - e0 + E - 1) / E, Block<DIM, N1>(), sl, stream>>>(*d, e0, e1, Au);
  return (int)cudaGetLastError();
}

template <int DIM, int N1>
static int LaunchMass(const DGKernelData *d, int curved, int inverse, const double *u, double *Mu)
{
  constexpr int E = Tensor<DIM, N1>::E;
  if (d->K > 0) TensorMassKernel<DIM, N1><<<(d->K + E - 1) / E, Block<DIM, N1>(), 0, (cudaStream_t)d->stream>>>(*d, curved, inverse, u, Mu);
  return (int)cudaGetLastError();
}

typedef int (*MassLaunch)(const DGKernelData *, int, int, const double *, double *);
typedef int (*GradientLaunch)(const IPDGKernelData *, int, int, int, const double *, double *, double *, double *);
typedef int (*ApplyLaunch)(const IPDGKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);
typedef int (*CurvedGradientLaunch)(const IPDGCurvedKernelData *, int, int, int, const double *, double *, double *, double *);
typedef int (*CurvedApplyLaunch)(const IPDGCurvedKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);

#define TENSOR_ENTRY(SHAPE, NN, DIM, NP, NF, NFN)                   \
  gradient[SHAPE][NN]        = LaunchGradient<DIM, (NN) + 1>;       \
  apply[SHAPE][NN]           = LaunchApply<DIM, (NN) + 1>;          \
  curved_gradient[SHAPE][NN] = LaunchCurvedGradient<DIM, (NN) + 1>; \
  curved_apply[SHAPE][NN]    = LaunchCurvedApply<DIM, (NN) + 1>;    \
  mass[SHAPE][NN]            = LaunchMass<DIM, (NN) + 1>;
struct TensorTables {
  GradientLaunch       gradient[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  ApplyLaunch          apply[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  CurvedGradientLaunch curved_gradient[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  CurvedApplyLaunch    curved_apply[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  MassLaunch           mass[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  TensorTables()
      : gradient(), apply(), curved_gradient(), curved_apply(), mass()
  {
    HOFLOW_ORDERS_QUADRILATERAL(TENSOR_ENTRY)
    HOFLOW_ORDERS_HEXAHEDRON_CUDA(TENSOR_ENTRY)
  }
};
const TensorTables tables;

bool Valid(RefShape shape, int N)
{
  return shape >= 0 && shape < REF_NUM_SHAPES && N >= 1 && N <= HOFLOW_NMAX && tables.apply[shape][N];
}

} // namespace

extern "C" int IPDGTensorGradientCUDA(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  return Valid(d->shape, d->N) ? tables.gradient[d->shape][d->N](d, halo, e0, e1, u, gx, gy, gz) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGTensorApplyCUDA(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  return Valid(d->shape, d->N) ? tables.apply[d->shape][d->N](d, e0, e1, u, gx, gy, gz, bc_data, Au) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGCurvedTensorGradientCUDA(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  return Valid(d->shape, d->N) ? tables.curved_gradient[d->shape][d->N](d, halo, e0, e1, u, gx, gy, gz) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGCurvedTensorApplyCUDA(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  return Valid(d->shape, d->N) ? tables.curved_apply[d->shape][d->N](d, e0, e1, u, gx, gy, gz, bc_data, Au) : (int)cudaErrorInvalidValue;
}

extern "C" int DGTensorMassCUDA(const DGKernelData *d, RefShape shape, int inverse, const double *u, double *Mu)
{
  return Valid(shape, d->N1 - 1) ? tables.mass[shape][d->N1 - 1](d, 0, inverse, u, Mu) : (int)cudaErrorInvalidValue;
}

extern "C" int DGCurvedTensorMassCUDA(const DGKernelData *d, RefShape shape, const double *u, double *Mu)
{
  return Valid(shape, d->N1 - 1) ? tables.mass[shape][d->N1 - 1](d, 1, 0, u, Mu) : (int)cudaErrorInvalidValue;
}
