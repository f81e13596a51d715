/* Host reference kernels of the SIPDG screened-Poisson operator A = -Laplace + lambda
 * (seed 000, eqs. 23 and 28; Algorithms 1 and 2). Plain C, no PETSc calls: the CUDA twins in
 * cuda/ipdg.cu take the same IPDGKernelData and must agree with these to round-off.
 *
 * Each kernel is written once as an always-inline function of (Np, Nfp, Nfaces) and
 * instantiated for every order and element shape, so loop bounds are compile-time constants
 * (the specialization seed 000 §5.2 found essential); a switch picks the instance. */
#include <hoflow/kernels.h>
#include <hoflow/kernels/element.h>

#define HOFLOW_INLINE static inline __attribute__((always_inline))

HOFLOW_INLINE void GradientAll(const IPDGKernelData *d, const int Np, const double *restrict u, double *restrict gx, double *restrict gy)
{
  for (int c = 0; c < d->Klocal; c++) GradientElement(Np, d->Dr, d->Ds, d->geo + c * HOFLOW_GEO_SIZE, u + c * Np, gx + c * Np, gy + c * Np);
}

HOFLOW_INLINE void ApplyAll(const IPDGKernelData *d, const int Np, const int Nfp, const int Nfaces, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au)
{
  for (int e = 0; e < d->K; e++) ApplyElement(d, Np, Nfp, Nfaces, e, d->elem_cell[e] * Np, 0, u, gx, gy, bc_data, Au + e * Np);
}

/* Instantiate for triangles (Nfaces 3, Np (N+1)(N+2)/2) and quadrilaterals (Nfaces 4, Np (N+1)^2). */
#define HOFLOW_DISPATCH(d, CALL)                                                                            \
  do {                                                                                                      \
    switch ((d)->Nfaces * 100 + (d)->N) {                                                                   \
      HOFLOW_CASE(CALL, 1)                                                                                  \
      HOFLOW_CASE(CALL, 2)                                                                                  \
      HOFLOW_CASE(CALL, 3)                                                                                  \
      HOFLOW_CASE(CALL, 4)                                                                                  \
      HOFLOW_CASE(CALL, 5)                                                                                  \
      HOFLOW_CASE(CALL, 6)                                                                                  \
      HOFLOW_CASE(CALL, 7) HOFLOW_CASE(CALL, 8) HOFLOW_CASE(CALL, 9) HOFLOW_CASE(CALL, 10) default : break; \
    }                                                                                                       \
  } while (0)
#define HOFLOW_CASE(CALL, NN)                       \
  case 300 + NN:                                    \
    CALL(((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3); \
    break;                                          \
  case 400 + NN:                                    \
    CALL(((NN) + 1) * ((NN) + 1), (NN) + 1, 4);     \
    break;

void IPDGGradientHost(const IPDGKernelData *d, const double *u, double *gx, double *gy)
{
#define CALL_GRADIENT(NP, NFP, NF) GradientAll(d, NP, u, gx, gy)
  HOFLOW_DISPATCH(d, CALL_GRADIENT);
#undef CALL_GRADIENT
}

void IPDGApplyHost(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au)
{
#define CALL_APPLY(NP, NFP, NF) ApplyAll(d, NP, NFP, NF, u, gx, gy, bc_data, Au)
  HOFLOW_DISPATCH(d, CALL_APPLY);
#undef CALL_APPLY
}

void IPDGDiagonalHost(const IPDGKernelData *d, double *diag)
{
#define CALL_DIAGONAL(NP, NFP, NF) \
  for (int e = 0; e < d->K; e++) DiagonalElement(d, NP, NFP, NF, e, diag + e * NP)
  HOFLOW_DISPATCH(d, CALL_DIAGONAL);
#undef CALL_DIAGONAL
}

int IPDGDiagonalTablesSize(int Np, int Nfaces, int Nfp)
{
  return 4 * Np + 2 * Nfaces * Nfp + Nfp;
}

double IPDGGradientFlopsPerElement(int Np)
{
  return 4.0 * Np * Np + 6.0 * Np;
}

double IPDGApplyFlopsPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  return 6.0 * Np * Np + 6.0 * Np * nf + 20.0 * nf + 10.0 * Np;
}

double IPDGDiagonalFlopsPerElement(int Np, int Nfaces, int Nfp)
{
  return 8.0 * Np + 12.0 * Nfaces * Nfp + 20.0 * Nfaces;
}

double IPDGGradientBytesPerElement(int Np)
{
  return 8.0 * (3.0 * Np + HOFLOW_GEO_SIZE - 1);
}

double IPDGApplyBytesPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* u, gx, gy on the element and across its faces, Au; geometry, trace indices, face data */
  return 8.0 * (4.0 * Np + 3.0 * nf + HOFLOW_SGEO_SIZE * Nfaces + HOFLOW_GEO_SIZE) + 4.0 * (nf + Nfaces + 1);
}
