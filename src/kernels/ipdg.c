/* Host reference kernels of the SIPDG screened-Poisson operator A = -Laplace + lambda
 * (seed 000, eqs. 23 and 28; Algorithms 1 and 2) on a block of elements of any shape. Plain C, no
 * PETSc calls: the CUDA twins in cuda/ipdg.cu take the same IPDGKernelData and must agree with
 * these to round-off.
 *
 * Each kernel is written once (hoflow/kernels/ipdg_element.h) and instantiated for every (shape,
 * order) of hoflow/kernels/shapes.h, so loop bounds are compile-time constants (the specialization
 * seed 000 §5.2 found essential); a table indexed by (shape, N) picks the instance. */
#include <hoflow/kernels/ipdg_element.h>
#include <hoflow/kernels/shapes.h>

typedef void (*GradientFn)(const IPDGKernelData *, int, int, int, const double *, double *, double *, double *);
typedef void (*ApplyFn)(const IPDGKernelData *, int, int, const double *, const double *, const double *, const double *, const double *, double *);
typedef void (*DiagonalFn)(const IPDGKernelData *, double *);

#define DEFINE_KERNELS(SHAPE, NN, DIM, NP, NF, NFN)                                                                                                                              \
  static void Gradient_##SHAPE##_##NN(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)                                    \
  {                                                                                                                                                                              \
    const double *geo = halo ? d->halo_geo : d->geo;                                                                                                                             \
    const int     n0  = halo ? d->halo_node0 : d->node0;                                                                                                                         \
    for (int e = e0; e < e1; e++) {                                                                                                                                              \
      double *const g[3] = {gx + n0 + e * (NP), gy + n0 + e * (NP), (DIM) == 3 ? gz + n0 + e * (NP) : NULL};                                                                     \
      IPDGGradientElement(d, NP, DIM, geo + e * HOFLOW_GEO_SIZE(DIM), u + n0 + e * (NP), g);                                                                                     \
    }                                                                                                                                                                            \
  }                                                                                                                                                                              \
  static void Apply_##SHAPE##_##NN(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc, double *Au) \
  {                                                                                                                                                                              \
    const double *const g[3] = {gx, gy, gz};                                                                                                                                     \
    for (int e = e0; e < e1; e++) IPDGApplyElement(d, NP, NFN, NF, DIM, e, d->node0 + e * (NP), 0, u, g, bc, Au + d->node0 + e * (NP));                                          \
  }                                                                                                                                                                              \
  static void Diagonal_##SHAPE##_##NN(const IPDGKernelData *d, double *diag)                                                                                                     \
  {                                                                                                                                                                              \
    for (int e = 0; e < d->K; e++) IPDGDiagonalElement(d, NP, NFN, NF, DIM, e, diag + d->node0 + e * (NP));                                                                      \
  }
HOFLOW_ORDERS_ALL(DEFINE_KERNELS)

#define GRADIENT_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = Gradient_##SHAPE##_##NN,
#define APPLY_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = Apply_##SHAPE##_##NN,
#define DIAGONAL_ENTRY(SHAPE, NN, ...) [SHAPE][NN] = Diagonal_##SHAPE##_##NN,
static const GradientFn gradient_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_ALL(GRADIENT_ENTRY)};
static const ApplyFn    apply_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1]    = {HOFLOW_ORDERS_ALL(APPLY_ENTRY)};
static const DiagonalFn diagonal_table[REF_NUM_SHAPES][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_ALL(DIAGONAL_ENTRY)};

void IPDGGradientHost(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz)
{
  gradient_table[d->shape][d->N](d, halo, e0, e1, u, gx, gy, gz);
}

void IPDGApplyHost(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au)
{
  apply_table[d->shape][d->N](d, e0, e1, u, gx, gy, gz, bc_data, Au);
}

void IPDGDiagonalHost(const IPDGKernelData *d, double *diag)
{
  diagonal_table[d->shape][d->N](d, diag);
}

int IPDGDiagonalTablesSize(int dim, int Np, int Nfn)
{
  return (dim * (dim + 1) / 2 + 1) * Np + (dim + 1) * Nfn;
}

double IPDGGradientFlopsPerElement(int dim, int Np)
{
  return 2.0 * dim * Np * Np + dim * (2.0 * dim - 1.0) * Np;
}

double IPDGApplyFlopsPerElement(int dim, int Np, int Nfaces, int Nfn)
{
  /* volume derivatives and mass 2 (dim + 1) Np^2, lifts 2 (dim + 1) Np Nfn, face and node work */
  return (2.0 * dim + 2.0) * Np * Np + (2.0 * dim + 2.0) * Np * Nfn + (8.0 + 6.0 * dim) * Nfn + (2.0 + 4.0 * dim) * Np;
}

double IPDGDiagonalFlopsPerElement(int dim, int Np, int Nfaces, int Nfn)
{
  return (4.0 + 2.0 * dim) * Np + (4.0 + 4.0 * dim) * Nfn + 20.0 * Nfaces;
}

double IPDGGradientBytesPerElement(int dim, int Np)
{
  /* u in, dim gradient components out, the metric terms (not J) */
  return 8.0 * ((dim + 1.0) * Np + dim * dim);
}

double IPDGApplyBytesPerElement(int dim, int Np, int Nfaces, int Nfn)
{
  /* u and the gradient on the element and across its faces, Au; geometry, trace indices, face types */
  return 8.0 * ((dim + 2.0) * Np + (dim + 1.0) * Nfn + HOFLOW_SGEO_SIZE(dim) * Nfaces + HOFLOW_GEO_SIZE(dim)) + 4.0 * (Nfn + Nfaces);
}
