/* Host reference kernels of the SIPDG operator on curved elements (hoflow/kernels/ipdg_curved.h),
 * instantiated for every (shape, order) of hoflow/kernels/shapes.h (the node count and dimension are
 * compile-time constants; cubature sizes are the block's) and picked from tables indexed by (shape, N).
 * The CUDA twins in cuda/ipdg_curved.cu run the same element routines. */
#include <hoflow/kernels/ipdg_curved_element.h>
#include <hoflow/kernels/shapes.h>

typedef void (*CurvedGradientFn)(const IPDGCurvedKernelData *, int, int, int, const double *, double *, double *, double *);
typedef void (*CurvedApplyFn)(const IPDGCurvedKernelData *, int, int, const double *, const double *const[3], const double *, double *);
typedef void (*CurvedDiagonalFn)(const IPDGCurvedKernelData *, double *);

int IPDGCurvedWorkSize(const IPDGCurvedKernelData *d)
{
  return (d->dim + 1) * d->Nq + d->dim * d->Np + (1 + d->dim) * d->NfpMax + 2 * d->NfqMax;
}

#define DEFINE_CURVED(SHAPE, NN, DIM, NP, NF, NFN)                                                                                                               \
  static void CurvedGradient_##SHAPE##_##NN(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)        \
  {                                                                                                                                                              \
    const double *Gn   = halo ? d->halo_Gn : d->Gn;                                                                                                              \
    const int     n0   = halo ? d->halo_node0 : d->node0;                                                                                                        \
    double *const g[3] = {gx, gy, gz};                                                                                                                           \
    for (int e = e0; e < e1; e++)                                                                                                                                \
      for (int i = 0; i < (NP); i++) {                                                                                                                           \
        double v[3];                                                                                                                                             \
        IPDGCurvedGradientNode(d, NP, DIM, i, Gn + ((size_t)e * (NP) + i) * (DIM) * (DIM), u + n0 + e * (NP), v);                                                \
        for (int x = 0; x < (DIM); x++) g[x][n0 + e * (NP) + i] = v[x];                                                                                          \
      }                                                                                                                                                          \
  }                                                                                                                                                              \
  static void CurvedApply_##SHAPE##_##NN(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *const g[3], const double *bc, double *Au) \
  {                                                                                                                                                              \
    double w[IPDGCurvedWorkSize(d)];                                                                                                                             \
    for (int e = e0; e < e1; e++) IPDGCurvedApplyElement(d, NP, DIM, e, u, g, bc, Au, w, 1, IPDG_CURVED_ALL);                                                                     \
  }                                                                                                                                                              \
  static void CurvedDiagonal_##SHAPE##_##NN(const IPDGCurvedKernelData *d, double *diag)                                                                         \
  {                                                                                                                                                              \
    for (int e = 0; e < d->K; e++) IPDGCurvedDiagonalElement(d, NP, DIM, e, diag + d->node0 + e * (NP));                                                         \
  }
HOFLOW_ORDERS_ALL(DEFINE_CURVED)

#define GRADIENT_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = CurvedGradient_##SHAPE##_##NN,
#define APPLY_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = CurvedApply_##SHAPE##_##NN,
#define DIAGONAL_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = CurvedDiagonal_##SHAPE##_##NN,
static const CurvedGradientFn gradient_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_ALL(GRADIENT_ENTRY)};
static const CurvedApplyFn    apply_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1]    = {HOFLOW_ORDERS_ALL(APPLY_ENTRY)};
static const CurvedDiagonalFn diagonal_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_ALL(DIAGONAL_ENTRY)};

void IPDGCurvedGradientHost(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  gradient_table[d->shape][d->N](d, halo, e0, e1, u, gx, gy, gz);
}

void IPDGCurvedApplyHost(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  const double *const g[3] = {gx, gy, gz};
  apply_table[d->shape][d->N](d, e0, e1, u, g, bc_data, Au);
}

void IPDGCurvedDiagonalHost(const IPDGCurvedKernelData *d, double *diag)
{
  diagonal_table[d->shape][d->N](d, diag);
}

double IPDGCurvedGradientFlopsPerElement(int dim, int Np)
{
  return 2.0 * dim * Np * Np + dim * (2.0 * dim - 1.0) * Np;
}

double IPDGCurvedApplyFlopsPerElement(const IPDGCurvedKernelData *d)
{
  const int dim = d->dim, Np = d->Np, Nq = d->Nq;
  double    faces = 0;
  for (int f = 0; f < d->Nfaces; f++) {
    const int Nfp = d->face_offset[f + 1] - d->face_offset[f];
    faces += 2.0 * (dim + 1) * Nfp * d->Nfq[f] * 2 + 2.0 * dim * dim * Nfp + 8.0 * d->Nfq[f];
  }
  /* volume: derivatives and interpolation at the cubature points and back, the factors; faces; D^T R */
  return 4.0 * (dim + 1) * Nq * Np + (2.0 * dim * dim + 3) * Nq + faces + 2.0 * dim * Np * Np;
}
