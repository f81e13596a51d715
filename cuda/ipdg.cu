// CUDA twins of the SIPDG host kernels (src/kernels/ipdg.c): Algorithm 1 (local gradient)
// and Algorithm 2 / eq. (28) (apply) of seed 000, on the same IPDGKernelData with device pointers,
// for a block of elements of one shape in any dimension.
//
// Optimizations of seed 000 §5.2: the order, the shape's sizes and the dimension are template
// parameters (loop bounds are constants, loops unrolled); element data is staged in shared memory;
// inputs are const __restrict__ and read-only matrices go through the read-only cache (__ldg) from
// transposed copies, so the threads of a warp (one per node) read consecutive addresses; several
// elements share a thread block, as many as the table below says for each (shape, order) (tuned on
// an H100, see bench/). One dispatch table keyed by (shape, N) picks the instance. No PETSc here.
#include <cuda_runtime.h>
#include <hoflow/kernels/ipdg_element.h>
#include <hoflow/kernels/shapes.h>

// Launch shape per [kernel: 0 gradient, 1 apply][shape][N]: {thread rows per block, elements per
// thread}. A thread row holds one thread per node (the apply's face phases walk the face nodes in
// steps of the row, so no lane idles through the node phases, which carry the matrix products) and works on
// P elements, so each matrix entry it fetches serves P elements (seed 000's kernel 4). 0 entries fall
// back to about 256 threads and P = 1. Tuned on an NVIDIA H100 80GB HBM3 with bench/run-gpu.sh
// (2026-11-22) for triangles and quadrilaterals, and bench/run-gpu-3d.sh sweep (199 680 tetrahedra;
// 2026-11-24: apply 1.3-1.6x faster than the default shapes at N = 3..6; 2026-11-26, N = 1..6 with one
// thread a node and P = 4 in 3D: bench/results/h100_2026-11-26_sweep_tetrahedron.csv): see bench/README.md.
typedef struct {
  int rows, per_thread;
} LaunchShape;
static const LaunchShape tuned[2][REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {
    {[REF_TRIANGLE]      = {{0, 0}, {32, 1}, {16, 1}, {8, 2}, {2, 4}, {1, 8}, {1, 8}, {2, 8}, {1, 8}, {1, 8}, {4, 4}},
     [REF_QUADRILATERAL] = {{0, 0}, {32, 1}, {32, 1}, {4, 2}, {1, 8}, {2, 8}, {1, 8}, {1, 8}, {1, 8}, {8, 8}, {1, 4}},
     [REF_TETRAHEDRON]   = {{0, 0}, {32, 1}, {16, 1}, {4, 4}, {4, 4}, {4, 4}, {2, 2}, {1, 2}, {1, 2}}},
    {[REF_TRIANGLE]      = {{0, 0}, {16, 1}, {8, 2}, {16, 1}, {2, 2}, {1, 4}, {1, 4}, {2, 4}, {2, 4}, {1, 4}, {16, 4}},
     [REF_QUADRILATERAL] = {{0, 0}, {4, 2}, {4, 2}, {8, 2}, {1, 4}, {2, 4}, {1, 8}, {1, 4}, {1, 4}, {4, 4}, {2, 4}},
     [REF_TETRAHEDRON]   = {{0, 0}, {4, 1}, {32, 1}, {4, 2}, {8, 2}, {16, 4}, {8, 2}, {1, 2}, {2, 1}}},
};

static const size_t shared_limit = 48 * 1024; // dynamic shared memory without cudaFuncSetAttribute

// Loops over the nodes unroll fully on small elements (2D) and by 8 on large ones (3D), where a
// full unroll of hundreds of iterations only bloats the code.
__host__ __device__ constexpr int Unroll(int n)
{
  return n <= 128 ? n : 8;
}

template <int NP, int DIM, int P>
__global__ void GradientKernel(const IPDGKernelData d, int halo, int e0, int e1, const double *__restrict__ u, double *__restrict__ gx, double *__restrict__ gy, double *__restrict__ gz)
{
  constexpr int            GS = HOFLOW_GEO_SIZE(DIM);
  extern __shared__ double smem[];
  const int                i = threadIdx.x, c0 = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  const double *const      geo  = halo ? d.halo_geo : d.geo;
  const int                n0   = halo ? d.halo_node0 : d.node0;
  double                  *su   = smem + threadIdx.y * P * NP;
  double *const            g[3] = {gx, gy, gz};

#pragma unroll
  for (int p = 0; p < P; p++)
    if (c0 + p < e1) su[p * NP + i] = u[n0 + (c0 + p) * NP + i];
  __syncthreads();
  if (c0 >= e1) return;
  double ur[DIM][P];
#pragma unroll
  for (int a = 0; a < DIM; a++)
#pragma unroll
    for (int p = 0; p < P; p++) ur[a][p] = 0;
#pragma unroll Unroll(NP)
  for (int j = 0; j < NP; j++) {
#pragma unroll
    for (int a = 0; a < DIM; a++) {
      const double da = __ldg(d.DT[a] + j * NP + i);
#pragma unroll
      for (int p = 0; p < P; p++) ur[a][p] += da * su[p * NP + j];
    }
  }
#pragma unroll
  for (int p = 0; p < P; p++) {
    const int c = c0 + p;
    if (c < e1) {
      const double *gc = geo + c * GS;
#pragma unroll
      for (int x = 0; x < DIM; x++) {
        double s = 0;
#pragma unroll
        for (int a = 0; a < DIM; a++) s += __ldg(gc + x * DIM + a) * ur[a][p];
        g[x][n0 + c * NP + i] = s;
      }
    }
  }
}

// acc[p] += sum_n A[t][n] x_p[n] for the P elements of a thread, A given transposed (AT[n*NP+t]),
// x_p = x + p*stride in shared memory: each matrix entry is fetched once for all P elements.
template <int NP, int NCOLS, int P>
__device__ __forceinline__ void RowTimesBatch(const double *__restrict__ AT, int t, const double *x, int stride, double acc[P])
{
#pragma unroll Unroll(NCOLS)
  for (int n = 0; n < NCOLS; n++) {
    const double a = __ldg(AT + n * NP + t);
#pragma unroll
    for (int p = 0; p < P; p++) acc[p] += a * x[p * stride + n];
  }
}

// The jumps at face node tf (node fn of face f) of element e: [u], [du/dn] (mirror states on the boundary) and
// the weighted jumps w_x = n_x sJ/J [u] / 2 (both apply kernels' first phase).
template <int NP, int NFN, int NF, int DIM>
__device__ __forceinline__ void FaceNodeJumps(const IPDGKernelData &d, int e, int tf, int f, int fn, const double *__restrict__ u, const double *const g[3], const double *__restrict__ bc, double *ju, double *jg, double w[DIM])
{
  constexpr int SS = HOFLOW_SGEO_SIZE(DIM);
  double        sg[DIM], sj;
#pragma unroll
  for (int x = 0; x < DIM; x++) sg[x] = __ldg(d.sgeo + (e * NF + f) * SS + x);
  sj = __ldg(d.sgeo + (e * NF + f) * SS + HOFLOW_SGEO_SJ_OVER_J(DIM));
  const int     type = __ldg(d.face_type + e * NF + f), idM = d.node0 + e * NP + fn, vP = __ldg(d.vmapP + e * NFN + tf);
  const int     idP  = type == HOFLOW_FACE_INTERIOR ? vP : idM;
  double        gnM = 0, gnP = 0;
#pragma unroll
  for (int x = 0; x < DIM; x++) {
    gnM += sg[x] * __ldg(g[x] + idM);
    gnP += sg[x] * __ldg(g[x] + idP);
  }
  EllipticFaceJumps(type, __ldg(u + idM), gnM, __ldg(u + idP), gnP, bc ? __ldg(bc + e * NFN + tf) : 0.0, ju, jg);
#pragma unroll
  for (int x = 0; x < DIM; x++) w[x] = 0.5 * sg[x] * sj * *ju;
}

// Per element shared memory (doubles): du, dgn, w (DIM components) on face nodes; L, q (DIM
// components each) and r on nodes.
__host__ __device__ constexpr int ApplySharedPerElement(int NP, int NFN, int DIM)
{
  return (2 + DIM) * NFN + (2 * DIM + 1) * NP;
}

template <int NP, int NFN, int NF, int DIM, int P>
__global__ void ApplyKernel(const IPDGKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  constexpr int            S = ApplySharedPerElement(NP, NFN, DIM), GS = HOFLOW_GEO_SIZE(DIM), SS = HOFLOW_SGEO_SIZE(DIM);
  extern __shared__ double smem[];
  const int                t = threadIdx.x, eb = e0 + (blockIdx.x * blockDim.y + threadIdx.y) * P;
  double                  *sh   = smem + threadIdx.y * P * S;
  const double *const      g[3] = {gx, gy, gz};
#define S_DU(p) (sh + (p)*S)
#define S_DGN(p) (sh + (p)*S + NFN)
#define S_W(p, x) (sh + (p)*S + (2 + (x)) * NFN)
#define S_L(p, x) (sh + (p)*S + (2 + DIM) * NFN + (x)*NP)
#define S_Q(p, x) (sh + (p)*S + (2 + DIM) * NFN + (DIM + (x)) * NP)
#define S_R(p) (sh + (p)*S + (2 + DIM) * NFN + 2 * DIM * NP)

  // jumps of u and of the normal derivative at the face nodes (mirror states on the boundary); a
  // thread row has one thread a node, so it walks the face nodes in steps of NP
  for (int tf = t; tf < NFN; tf += NP) {
    const int f = __ldg(d.node_face + tf), fn = __ldg(d.face_nodes + tf);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      double ju, jg, w[DIM];
      FaceNodeJumps<NP, NFN, NF, DIM>(d, e, tf, f, fn, u, g, bc, &ju, &jg, w);
      S_DU(p)
      [tf] = ju;
      S_DGN(p)
      [tf] = jg;
#pragma unroll
      for (int x = 0; x < DIM; x++) S_W(p, x)
                                    [tf] = w[x];
    }
  }
  __syncthreads();
  // lifted jumps Lvec and the volume flux q = grad u + Lvec in reference directions
  {
    double l[DIM][P];
#pragma unroll
    for (int x = 0; x < DIM; x++)
#pragma unroll
      for (int p = 0; p < P; p++) l[x][p] = 0;
#pragma unroll Unroll(NFN)
    for (int n = 0; n < NFN; n++) {
      const double L = __ldg(d.LIFTT + n * NP + t);
#pragma unroll
      for (int x = 0; x < DIM; x++)
#pragma unroll
        for (int p = 0; p < P; p++) l[x][p] += L * S_W(p, x)[n];
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const int     base = d.node0 + e * NP;
      const double *ge   = d.geo + e * GS;
      double        qx[DIM];
#pragma unroll
      for (int x = 0; x < DIM; x++) {
        S_L(p, x)
        [t]   = l[x][p];
        qx[x] = g[x][base + t] + l[x][p];
      }
#pragma unroll
      for (int a = 0; a < DIM; a++) {
        double s = 0;
#pragma unroll
        for (int x = 0; x < DIM; x++) s += __ldg(ge + x * DIM + a) * qx[x];
        S_Q(p, a)
        [t] = s;
      }
    }
  }
  __syncthreads();
  // volume term -div q + lambda u; surface fluxes s (overwrite w_0)
  double r[P];
  {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
#pragma unroll Unroll(NP)
    for (int j = 0; j < NP; j++) {
#pragma unroll
      for (int b = 0; b < DIM; b++) {
        const double db = __ldg(d.DT[b] + j * NP + t);
#pragma unroll
        for (int p = 0; p < P; p++) a[p] += db * S_Q(p, b)[j];
      }
    }
#pragma unroll
    for (int p = 0; p < P; p++) r[p] = eb + p < e1 ? -a[p] + d.lambda * u[d.node0 + (eb + p) * NP + t] : 0.0;
  }
  for (int tf = t; tf < NFN; tf += NP) {
    const int f = __ldg(d.node_face + tf), m = __ldg(d.face_nodes + tf);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e >= e1) break;
      const double *sg = d.sgeo + (e * NF + f) * SS;
      double        nL = 0;
#pragma unroll
      for (int x = 0; x < DIM; x++) nL += sg[x] * S_L(p, x)[m];
      S_W(p, 0)
      [tf] = sg[HOFLOW_SGEO_SJ_OVER_J(DIM)] * (0.5 * S_DGN(p)[tf] + sg[HOFLOW_SGEO_TAU(DIM)] * S_DU(p)[tf] - nL);
    }
  }
  __syncthreads();
  {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
    RowTimesBatch<NP, NFN, P>(d.LIFTT, t, S_W(0, 0), S, a);
#pragma unroll
    for (int p = 0; p < P; p++) S_R(p)
                                [t] = r[p] - a[p];
  }
  __syncthreads();
  // multiply by the element mass matrix J M
  {
    double a[P];
#pragma unroll
    for (int p = 0; p < P; p++) a[p] = 0;
    RowTimesBatch<NP, NP, P>(d.MT, t, S_R(0), S, a);
#pragma unroll
    for (int p = 0; p < P; p++) {
      const int e = eb + p;
      if (e < e1) Au[d.node0 + e * NP + t] = __ldg(d.geo + e * GS + HOFLOW_GEO_J(DIM)) * a[p];
    }
  }
#undef S_DU
#undef S_DGN
#undef S_W
#undef S_L
#undef S_Q
#undef S_R
}

// The apply on FP64 tensor cores (mma.sync m8n8k4, sm_80 and later) for 3D dense elements: a block of
// TC_E = 8, 16 or 32 elements, whose matrix products are 8 x 4 by 4 x 8 tiles: one warp a tile of 8 nodes by
// 8 elements, the matrix fragment read once from the transposed copies (zero outside the matrix) for all 8
// elements, the elements' values from shared memory stored entry by entry (the elements' values of an entry
// side by side, entries E + 1 doubles apart against bank conflicts). Each matrix entry fetched serves 8
// elements, four times the CUDA-core kernel's best (whose L1 traffic the matrix reads dominate:
// bench/results/h100_2026-11-26_ncu_tet_apply_N3_N4.txt). Two products: LIFT on the three weighted jumps,
// then Au = J (sum_b (M D_b)(-q_b) + (M LIFT)(-s) + M (lambda u)), the mass matrix multiplied into the
// derivative and lift matrices beforehand (MDT, MLIFTT), so the divergence, the surface lift and the mass
// are one accumulation (three phases and two barriers fewer than the host's order of operations). The
// pointwise steps between the products run one thread an (element, node) or (element, face node) pair;
// __launch_bounds__ asks for the blocks an SM that the shared memory allows (8 at N <= 3: 64 warps an SM).
constexpr int TC_WARPS = 8;

__device__ __forceinline__ void MMA884(double c[2], double a, double b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n" : "+d"(c[0]), "+d"(c[1]) : "d"(a), "d"(b));
#else
  (void)c, (void)a, (void)b;
  __trap();
#endif
}

// c[m] += A_tile B_m for the nodes tile*8..tile*8+7: A (NP x K) given transposed (AT[k*NP + row]),
// B_m (K entries x 8 elements) in shared memory at B[m] + k*LD + e (LD the entry stride, the 8 elements of
// this product starting at B[m]). Lane l holds A's (l/4, l%4)
// and B's (l%4, l/4) of each k step; c[m] holds the products' (l/4, 2(l%4)) and (l/4, 2(l%4)+1).
// Two chains of accumulators (even and odd k steps) halve the dependent sequence of mma.
template <int NP, int K, int NB, int LD>
__device__ __forceinline__ void TileProduct(const double *__restrict__ AT, int tile, int lane, const double *const B[NB], double c[NB][2])
{
  const int row = tile * 8 + (lane >> 2), kl = lane & 3, eb = lane >> 2;
  double    c2[NB][2];
#pragma unroll
  for (int m = 0; m < NB; m++) c2[m][0] = c2[m][1] = 0;
#pragma unroll 2
  for (int k0 = 0; k0 < K; k0 += 8) {
    const int    k = k0 + kl, kk = k + 4;
    const double a = row < NP && k < K ? __ldg(AT + k * NP + row) : 0.0, aa = row < NP && kk < K ? __ldg(AT + kk * NP + row) : 0.0;
#pragma unroll
    for (int m = 0; m < NB; m++) {
      MMA884(c[m], a, k < K ? B[m][k * LD + eb] : 0.0);
      MMA884(c2[m], aa, kk < K ? B[m][kk * LD + eb] : 0.0);
    }
  }
#pragma unroll
  for (int m = 0; m < NB; m++) {
    c[m][0] += c2[m][0];
    c[m][1] += c2[m][1];
  }
}

// Blocks an SM that shared memory allows (228 KB an SM, 1 KB reserved a block), at most 8 (2048 threads).
__host__ __device__ constexpr int TCMinBlocks(size_t bytes)
{
  return 233472 / (bytes + 1024) >= 8 ? 8 : (233472 / (bytes + 1024) < 1 ? 1 : (int)(233472 / (bytes + 1024)));
}

template <int NP, int NFN, int NF, int DIM, int TC_E, int PAD>
__global__ void __launch_bounds__(32 * TC_WARPS, TCMinBlocks((TC_E + PAD) * ApplySharedPerElement(NP, NFN, DIM) * sizeof(double))) ApplyTCKernel(const IPDGKernelData d, int e0, int e1, const double *__restrict__ u, const double *__restrict__ gx, const double *__restrict__ gy, const double *__restrict__ gz, const double *__restrict__ bc, double *__restrict__ Au)
{
  constexpr int            GS = HOFLOW_GEO_SIZE(DIM), SS = HOFLOW_SGEO_SIZE(DIM), NRT = (NP + 7) / 8, NT = NRT * (TC_E / 8), NTH = 32 * TC_WARPS;
  constexpr int            F_DU = 0, F_DGN = NFN, F_W = 2 * NFN, F_L = (2 + DIM) * NFN, F_Q = F_L + DIM * NP, F_R = F_Q + DIM * NP;
  constexpr int            RF = (TC_E * NFN + NTH - 1) / NTH; /* rounds of the face-node loops, unrolled: the loads of all rounds in flight */
  extern __shared__ double sh[];
  const int                tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, eb = e0 + blockIdx.x * TC_E;
  const double *const      g[3] = {gx, gy, gz};
#define SH(F, k, p) sh[((F) + (k)) * (TC_E + PAD) + (p)] /* entry stride TC_E + 1 (odd, PAD 1): no bank conflicts across entries */

  // jumps of u and of the normal derivative at the face nodes (mirror states on the boundary)
#pragma unroll RF
  for (int i = tid; i < TC_E * NFN; i += NTH) {
    const int p = i / NFN, tf = i % NFN, e = eb + p;
    if (e >= e1) continue;
    const int f = __ldg(d.node_face + tf), fn = __ldg(d.face_nodes + tf);
    double    ju, jg, w[DIM];
    FaceNodeJumps<NP, NFN, NF, DIM>(d, e, tf, f, fn, u, g, bc, &ju, &jg, w);
    SH(F_DU, tf, p)  = ju;
    SH(F_DGN, tf, p) = jg;
#pragma unroll
    for (int x = 0; x < DIM; x++) SH(F_W + x * NFN, tf, p) = w[x];
  }
  __syncthreads();
  // lifted jumps L_x = LIFT w_x: with few row tiles (N <= 3) one warp a (tile, x), so more warps work;
  // else one warp a tile for the three x (each matrix fragment serves three products)
  if constexpr (2 * NT <= TC_WARPS) {
    for (int item = warp; item < NT * DIM; item += TC_WARPS) {
      const int     tile = item / DIM, x = item % DIM, rt = tile % NRT, e8 = tile / NRT * 8, row = rt * 8 + (lane >> 2), col = e8 + 2 * (lane & 3);
      const double *B[1]    = {&SH(F_W + x * NFN, 0, e8)};
      double        c[1][2] = {{0, 0}};
      TileProduct<NP, NFN, 1, TC_E + PAD>(d.LIFTT, rt, lane, B, c);
      if (row < NP) {
        SH(F_L + x * NP, row, col)     = c[0][0];
        SH(F_L + x * NP, row, col + 1) = c[0][1];
      }
    }
  } else {
    for (int tile = warp; tile < NT; tile += TC_WARPS) {
      const double *B[DIM];
      double        c[DIM][2];
      const int     rt = tile % NRT, e8 = tile / NRT * 8, row = rt * 8 + (lane >> 2), col = e8 + 2 * (lane & 3);
#pragma unroll
      for (int x = 0; x < DIM; x++) {
        B[x]    = &SH(F_W + x * NFN, 0, e8);
        c[x][0] = c[x][1] = 0;
      }
      TileProduct<NP, NFN, DIM, TC_E + PAD>(d.LIFTT, rt, lane, B, c);
      if (row < NP)
#pragma unroll
        for (int x = 0; x < DIM; x++) {
          SH(F_L + x * NP, row, col)     = c[x][0];
          SH(F_L + x * NP, row, col + 1) = c[x][1];
        }
    }
  }
  __syncthreads();
  // -q, the volume flux grad u + L in reference directions, and lambda u (zero in the unused columns: the
  // products then see finite values there)
  for (int i = tid; i < TC_E * NP; i += NTH) {
    const int p = i / NP, t = i % NP, e = eb + p;
    if (e >= e1) {
#pragma unroll
      for (int a = 0; a < DIM; a++) SH(F_Q + a * NP, t, p) = 0.0;
      SH(F_R, t, p) = 0.0;
      continue;
    }
    const double *ge = d.geo + e * GS;
    double        qx[DIM];
#pragma unroll
    for (int x = 0; x < DIM; x++) qx[x] = __ldg(g[x] + d.node0 + e * NP + t) + SH(F_L + x * NP, t, p);
#pragma unroll
    for (int a = 0; a < DIM; a++) {
      double s = 0;
#pragma unroll
      for (int x = 0; x < DIM; x++) s += __ldg(ge + x * DIM + a) * qx[x];
      SH(F_Q + a * NP, t, p) = -s;
    }
    SH(F_R, t, p) = d.lambda * __ldg(u + d.node0 + e * NP + t);
  }
  // -s, the surface fluxes (overwrite w_0)
#pragma unroll RF
  for (int i = tid; i < TC_E * NFN; i += NTH) {
    const int p = i / NFN, tf = i % NFN, e = eb + p;
    if (e >= e1) {
      SH(F_W, tf, p) = 0.0;
      continue;
    }
    const int     f = __ldg(d.node_face + tf), m = __ldg(d.face_nodes + tf);
    const double *sg = d.sgeo + (e * NF + f) * SS;
    double        nL = 0;
#pragma unroll
    for (int x = 0; x < DIM; x++) nL += __ldg(sg + x) * SH(F_L + x * NP, m, p);
    SH(F_W, tf, p) = -__ldg(sg + HOFLOW_SGEO_SJ_OVER_J(DIM)) * (0.5 * SH(F_DGN, tf, p) + __ldg(sg + HOFLOW_SGEO_TAU(DIM)) * SH(F_DU, tf, p) - nL);
  }
  __syncthreads();
  // Au = J (sum_b (M D_b)(-q_b) + (M LIFT)(-s) + M (lambda u))
  for (int tile = warp; tile < NT; tile += TC_WARPS) {
    const int rt = tile % NRT, e8 = tile / NRT * 8, row = rt * 8 + (lane >> 2);
    double    c[1][2] = {{0, 0}};
#pragma unroll
    for (int b = 0; b < DIM; b++) {
      const double *B[1] = {&SH(F_Q + b * NP, 0, e8)};
      TileProduct<NP, NP, 1, TC_E + PAD>(d.MDT[b], rt, lane, B, c);
    }
    {
      const double *B[1] = {&SH(F_W, 0, e8)};
      TileProduct<NP, NFN, 1, TC_E + PAD>(d.MLIFTT, rt, lane, B, c);
    }
    if (d.lambda != 0) {
      const double *B[1] = {&SH(F_R, 0, e8)};
      TileProduct<NP, NP, 1, TC_E + PAD>(d.MT, rt, lane, B, c);
    }
    if (row < NP)
#pragma unroll
      for (int h = 0; h < 2; h++) {
        const int e = eb + e8 + 2 * (lane & 3) + h;
        if (e < e1) Au[d.node0 + e * NP + row] = __ldg(d.geo + e * GS + HOFLOW_GEO_J(DIM)) * c[0][h];
      }
  }
#undef SH
}

// Most threads a block of this kernel may have, given its registers.
template <typename Kernel>
static int MaxThreadsPerBlock(Kernel kernel)
{
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, kernel) == cudaSuccess ? attr.maxThreadsPerBlock : 256;
}

// The dynamic shared memory a kernel may use: 48 kB, or (large 3D elements) the device's opt-in
// maximum when one element group needs more than 48 kB.
template <typename Kernel>
static size_t SharedLimit(Kernel kernel, size_t per_row)
{
  int dev, optin = 0;
  if (per_row <= shared_limit) return shared_limit;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) return shared_limit;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin) != cudaSuccess) return shared_limit;
  return (size_t)optin;
}

extern "C" int IPDGElementsPerBlock(int kernel, RefShape shape, int N)
{
  const int rows = tuned[kernel][shape][N].rows, threads = RefShapeNumNodes(shape, N); /* one thread a node */
  return rows ? rows : (256 / threads > 1 ? 256 / threads : 1);
}

// The 3D dense apply's units per (shape, N): 1 CUDA cores (ApplyKernel), 2 FP64 tensor cores
// (ApplyTCKernel). Chosen by bench/run-gpu-3d.sh sweep on an H100.
extern "C" int IPDGApplyUnits(RefShape shape, int N)
{
  /* H100, 199 680 tetrahedra (bench/results/h100_2026-11-26_tet_apply_tensor_cores.md): the tensor cores
   * faster than the CUDA cores at every order (1.16x at N = 1, 1.12x at N = 3, 1.5-1.7x at N = 4, 5, 7); with the
   * mass matrix inside the last product 61-117 % of the roofline at N = 3..7 (h100_2026-11-26e_tet_apply_fused.md) */
  return shape == REF_TETRAHEDRON ? 2 : 1;
}

// The tensor-core apply's elements a block for (shape, N), + 100 where the entries are packed (PAD 0):
// tetrahedra N = 6, whose padded block fits two blocks an SM instead of three (3.25 against 3.83 ms). N = 2 takes
// 8 since the fused kernel (64.3 against 62.8 % with 16: h100_2026-11-26e_roofline_tetrahedron_final.csv).
static int ApplyTCShape(RefShape shape, int N)
{
  static const int tet[HOFLOW_NMAX + 1] = {8, 32, 8, 8, 8, 8, 108, 8, 8};
  return shape == REF_TETRAHEDRON && N <= 8 ? tet[N] : 8;
}

extern "C" int IPDGApplyTCElementsPerBlock(RefShape shape, int N)
{
  return ApplyTCShape(shape, N) % 100;
}

extern "C" int IPDGElementsPerThread(int kernel, RefShape shape, int N)
{
  const int p = tuned[kernel][shape][N].per_thread;
  return p ? p : 1;
}

template <int NP, int DIM, int P>
static int LaunchGradientP(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  int              rows        = d->elements_per_block[0] ? d->elements_per_block[0] : IPDGElementsPerBlock(0, d->shape, d->N);
  static const int max_threads = MaxThreadsPerBlock(GradientKernel<NP, DIM, P>); /* once per instantiation */
  while (rows > 1 && (rows * P * NP * sizeof(double) > shared_limit || rows * NP > max_threads)) rows--;
  const int grid = (e1 - e0 + rows * P - 1) / (rows * P);
  if (grid > 0) GradientKernel<NP, DIM, P><<<grid, dim3(NP, rows), rows * P * NP * sizeof(double), (cudaStream_t)d->stream>>>(*d, halo, e0, e1, u, gx, gy, gz);
  return (int)cudaGetLastError();
}

// Elements per thread 1, 2, 4, 8 in 2D; in 3D 1, 2, 4 for elements of up to 56 nodes and 8 up to 20
// (larger elements: more registers and shared memory per element, fewer elements to share a fetched entry).
template <int NP, int NFN, int NF, int DIM>
static int LaunchGradient(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  switch (d->elements_per_thread[0] ? d->elements_per_thread[0] : IPDGElementsPerThread(0, d->shape, d->N)) {
  case 1:
    return LaunchGradientP<NP, DIM, 1>(d, halo, e0, e1, u, gx, gy, gz);
  case 2:
    return LaunchGradientP<NP, DIM, 2>(d, halo, e0, e1, u, gx, gy, gz);
  case 4:
    if constexpr (DIM == 2 || NP <= 56) return LaunchGradientP<NP, DIM, 4>(d, halo, e0, e1, u, gx, gy, gz);
    return (int)cudaErrorInvalidValue;
  case 8:
    if constexpr (DIM == 2 || NP <= 20) return LaunchGradientP<NP, DIM, 8>(d, halo, e0, e1, u, gx, gy, gz);
    return (int)cudaErrorInvalidValue;
  default:
    return (int)cudaErrorInvalidValue;
  }
}

template <int NP, int NFN, int NF, int DIM, int P>
static int LaunchApplyP(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  constexpr int    threads     = NP; /* one thread a node; the face phases loop */
  constexpr size_t per_row     = P * ApplySharedPerElement(NP, NFN, DIM) * sizeof(double);
  int              rows        = d->elements_per_block[1] ? d->elements_per_block[1] : IPDGElementsPerBlock(1, d->shape, d->N);
  static const int max_threads = MaxThreadsPerBlock(ApplyKernel<NP, NFN, NF, DIM, P>); /* once per instantiation */
  static const size_t limit   = SharedLimit(ApplyKernel<NP, NFN, NF, DIM, P>, per_row);
  while (rows > 1 && (rows * per_row > limit || rows * threads > max_threads)) rows--;
  if (per_row > limit || threads > max_threads) return (int)cudaErrorInvalidConfiguration;
  const int grid = (e1 - e0 + rows * P - 1) / (rows * P);
  if (grid > 0) ApplyKernel<NP, NFN, NF, DIM, P><<<grid, dim3(threads, rows), rows * per_row, (cudaStream_t)d->stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  return (int)cudaGetLastError();
}

// Elements per block of the tensor-core apply (8, 16 or 32): -ipdg_cuda_elements_per_block's apply entry,
// else the tuned table; PAD 1 spaces entries E + 1 doubles apart (no bank conflicts), 0 packs them (more
// blocks an SM where shared memory limits them); false where they do not fit (CUDA cores then).
template <int NP, int NFN, int NF, int DIM, int E, int PAD>
static bool ApplyTCFits()
{
  constexpr size_t    bytes = (E + PAD) * ApplySharedPerElement(NP, NFN, DIM) * sizeof(double);
  static const size_t limit = SharedLimit(ApplyTCKernel<NP, NFN, NF, DIM, E, PAD>, bytes);
  return bytes <= limit;
}

template <int NP, int NFN, int NF, int DIM, int E, int PAD>
static int LaunchApplyTCE(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  constexpr size_t bytes = (E + PAD) * ApplySharedPerElement(NP, NFN, DIM) * sizeof(double);
  const int        grid  = (e1 - e0 + E - 1) / E;
  if (grid > 0) ApplyTCKernel<NP, NFN, NF, DIM, E, PAD><<<grid, 32 * TC_WARPS, bytes, (cudaStream_t)d->stream>>>(*d, e0, e1, u, gx, gy, gz, bc, Au);
  return (int)cudaGetLastError();
}

// 1: launched (*err its status); 0: the elements do not fit, use CUDA cores
template <int NP, int NFN, int NF, int DIM>
static int LaunchApplyTC(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au, int *err)
{
  const int e = d->elements_per_block[1] ? d->elements_per_block[1] : ApplyTCShape(d->shape, d->N) % 100, pad = e == 8 && ApplyTCShape(d->shape, d->N) >= 100 ? 0 : 1;
  if (e >= 32 && ApplyTCFits<NP, NFN, NF, DIM, 32, 1>()) *err = LaunchApplyTCE<NP, NFN, NF, DIM, 32, 1>(d, e0, e1, u, gx, gy, gz, bc, Au);
  else if (e >= 16 && ApplyTCFits<NP, NFN, NF, DIM, 16, 1>()) *err = LaunchApplyTCE<NP, NFN, NF, DIM, 16, 1>(d, e0, e1, u, gx, gy, gz, bc, Au);
  else if (pad && ApplyTCFits<NP, NFN, NF, DIM, 8, 1>()) *err = LaunchApplyTCE<NP, NFN, NF, DIM, 8, 1>(d, e0, e1, u, gx, gy, gz, bc, Au);
  else if (ApplyTCFits<NP, NFN, NF, DIM, 8, 0>()) *err = LaunchApplyTCE<NP, NFN, NF, DIM, 8, 0>(d, e0, e1, u, gx, gy, gz, bc, Au);
  else return 0;
  return 1;
}

template <int NP, int NFN, int NF, int DIM>
static int LaunchApply(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au)
{
  if constexpr (DIM == 3) { /* tensor cores where 8 elements fit in a block's shared memory, else CUDA cores */
    int err;
    if ((d->apply_units ? d->apply_units : IPDGApplyUnits(d->shape, d->N)) == 2 && LaunchApplyTC<NP, NFN, NF, DIM>(d, e0, e1, u, gx, gy, gz, bc, Au, &err)) return err;
  }
  switch (d->elements_per_thread[1] ? d->elements_per_thread[1] : IPDGElementsPerThread(1, d->shape, d->N)) {
  case 1:
    return LaunchApplyP<NP, NFN, NF, DIM, 1>(d, e0, e1, u, gx, gy, gz, bc, Au);
  case 2:
    return LaunchApplyP<NP, NFN, NF, DIM, 2>(d, e0, e1, u, gx, gy, gz, bc, Au);
  case 4:
    if constexpr (DIM == 2 || NP <= 56) return LaunchApplyP<NP, NFN, NF, DIM, 4>(d, e0, e1, u, gx, gy, gz, bc, Au);
    return (int)cudaErrorInvalidValue;
  case 8:
    if constexpr (DIM == 2 || NP <= 20) return LaunchApplyP<NP, NFN, NF, DIM, 8>(d, e0, e1, u, gx, gy, gz, bc, Au);
    return (int)cudaErrorInvalidValue;
  default:
    return (int)cudaErrorInvalidValue;
  }
}

// The dispatch tables: one launcher per (shape, N) of hoflow/kernels/shapes.h instantiated here:
// every 2D pair and tetrahedron; prisms and hexahedra up to the orders whose element fits a thread
// block (<= 1024 threads, one per node) and the opt-in shared memory (shapes.h *_CUDA lists).
typedef int (*GradientLaunch)(const IPDGKernelData *, int, int, int, const double *, double *, double *, double *);
typedef int (*ApplyLaunch)(const IPDGKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);
#define GRADIENT_ENTRY(SHAPE, NN, DIM, NP, NF, NFN) gradient_table[SHAPE][NN] = LaunchGradient<NP, NFN, NF, DIM>;
#define APPLY_ENTRY(SHAPE, NN, DIM, NP, NF, NFN) apply_table[SHAPE][NN] = LaunchApply<NP, NFN, NF, DIM>;
struct LaunchTables {
  GradientLaunch gradient_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  ApplyLaunch    apply_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1];
  LaunchTables()
      : gradient_table(), apply_table()
  {
    HOFLOW_ORDERS_2D(GRADIENT_ENTRY)
    HOFLOW_ORDERS_2D(APPLY_ENTRY)
    HOFLOW_ORDERS_TETRAHEDRON(GRADIENT_ENTRY)
    HOFLOW_ORDERS_TETRAHEDRON(APPLY_ENTRY)
    HOFLOW_ORDERS_PRISM_CUDA(GRADIENT_ENTRY)
    HOFLOW_ORDERS_PRISM_CUDA(APPLY_ENTRY)
    HOFLOW_ORDERS_HEXAHEDRON_CUDA(GRADIENT_ENTRY)
    HOFLOW_ORDERS_HEXAHEDRON_CUDA(APPLY_ENTRY)
  }
};
static const LaunchTables tables;

extern "C" int IPDGGradientCUDA(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  const GradientLaunch launch = d->shape < REF_NUM_SHAPES && d->N <= HOFLOW_NMAX ? tables.gradient_table[d->shape][d->N] : NULL;
  return launch ? launch(d, halo, e0, e1, u, gx, gy, gz) : (int)cudaErrorInvalidValue;
}

extern "C" int IPDGApplyCUDA(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  const ApplyLaunch launch = d->shape < REF_NUM_SHAPES && d->N <= HOFLOW_NMAX ? tables.apply_table[d->shape][d->N] : NULL;
  return launch ? launch(d, e0, e1, u, gx, gy, gz, bc_data, Au) : (int)cudaErrorInvalidValue;
}

// The diagonal: one element per thread from the reference tables (IPDGDiagonalElement, shared with
// the host kernel). It runs once per operator setup (Jacobi, Chebyshev), so it is not tuned.
__global__ void DiagonalKernel(const IPDGKernelData d, double *__restrict__ diag)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < d.K) IPDGDiagonalElement(&d, d.Np, d.Nfn, d.Nfaces, d.dim, e, diag + d.node0 + e * d.Np);
}

extern "C" int IPDGDiagonalCUDA(const IPDGKernelData *d, double *diag)
{
  if (d->K) DiagonalKernel<<<(d->K + 127) / 128, 128, 0, (cudaStream_t)d->stream>>>(*d, diag);
  return (int)cudaGetLastError();
}
