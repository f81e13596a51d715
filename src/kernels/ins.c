/* Host reference kernels of the incompressible flow operators (hoflow/kernels/ins.h, INSKernelData):
 * advection with cubature, gradient, divergence and face data. Plain C, no PETSc calls; the CUDA
 * twins in cuda/ins.cu take the same INSKernelData and must agree with these to round-off. Each
 * kernel is instantiated per order and shape (triangles, quadrilaterals, tetrahedra, hexahedra), so loop bounds are compile-time constants; the
 * dispatch is keyed by (shape, N). */
#include <hoflow/kernels/ins_element.h>

/* Instantiate per shape and order: CALL(DIM, Np, Nfp, Nfaces, Nc, Nfq) with the cubature of degree
 * 3N (RefElementCubature: INS_NQ(N) Gauss points per direction, INS_NQ(N)^dim in the volume and
 * INS_NQ(N)^(dim-1) per face). */
#define INS_CASE2(CALL, NN)                                                                 \
  case REF_TRIANGLE * 100 + NN:                                                             \
    CALL(2, ((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN)); \
    break;                                                                                  \
  case REF_QUADRILATERAL * 100 + NN:                                                        \
    CALL(2, ((NN) + 1) * ((NN) + 1), (NN) + 1, 4, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN));     \
    break;
#define INS_CASE3(CALL, NN)                                                                                                                   \
  case REF_TETRAHEDRON * 100 + NN:                                                                                                            \
    CALL(3, ((NN) + 1) * ((NN) + 2) * ((NN) + 3) / 6, ((NN) + 1) * ((NN) + 2) / 2, 4, INS_NQ(NN) * INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN) * INS_NQ(NN)); \
    break;                                                                                                                                    \
  case REF_HEXAHEDRON * 100 + NN:                                                                                                             \
    CALL(3, ((NN) + 1) * ((NN) + 1) * ((NN) + 1), ((NN) + 1) * ((NN) + 1), 6, INS_NQ(NN) * INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN) * INS_NQ(NN));        \
    break;
#define INS_CASE(CALL, NN) INS_CASE2(CALL, NN) INS_CASE3(CALL, NN)
#define INS_DISPATCH(d, CALL)                                                                                                                                      \
  do {                                                                                                                                                             \
    switch ((d)->shape * 100 + (d)->N) {                                                                                                                           \
      INS_CASE(CALL, 1)                                                                                                                                            \
      INS_CASE(CALL, 2)                                                                                                                                            \
      INS_CASE(CALL, 3)                                                                                                                                            \
      INS_CASE(CALL, 4)                                                                                                                                            \
      INS_CASE(CALL, 5)                                                                                                                                            \
      INS_CASE(CALL, 6)                                                                                                                                            \
      INS_CASE(CALL, 7)                                                                                                                                            \
      INS_CASE(CALL, 8)                                                                                                                                            \
      INS_CASE2(CALL, 9) INS_CASE2(CALL, 10) default : break;                                                                                                     \
    }                                                                                                                                                              \
  } while (0)

int INSKernelsSupported(RefShape shape, int N)
{
  if (N < 1) return 0;
  if (shape == REF_TRIANGLE || shape == REF_QUADRILATERAL) return N <= INS_NMAX_2D;
  if (shape == REF_TETRAHEDRON || shape == REF_HEXAHEDRON) return N <= INS_NMAX_3D;
  return 0;
}

void INSAdvectionHost(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[])
{
#define CALL_ADVECTION(DIM, NP, NFP, NF, NC, NFQ)                                                             \
  for (int e = e0; e < e1; e++) {                                                                             \
    double *o[3] = {out[0] + d->node0 + e * (NP), out[1] + d->node0 + e * (NP), NULL};                       \
    if ((DIM) == 3) o[2] = out[2] + d->node0 + e * (NP);                                                      \
    INSAdvectionElement(d, DIM, NP, NFP, NF, NC, NFQ, e, a, c, lambda_scale, bc_scale, o);                   \
  }
  INS_DISPATCH(d, CALL_ADVECTION);
#undef CALL_ADVECTION
}

void INSGradientHost(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[])
{
#define CALL_GRADIENT(DIM, NP, NFP, NF, NC, NFQ)                                                            \
  for (int e = e0; e < e1; e++) {                                                                           \
    double *o[3] = {g[0] + d->node0 + e * (NP), g[1] + d->node0 + e * (NP), NULL};                         \
    if ((DIM) == 3) o[2] = g[2] + d->node0 + e * (NP);                                                      \
    INSGradientElement(d, DIM, NP, NFP, NF, e, p, ptrace, trace_scale, bc_scale, o);                        \
  }
  INS_DISPATCH(d, CALL_GRADIENT);
#undef CALL_GRADIENT
}

void INSDivergenceHost(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out)
{
#define CALL_DIVERGENCE(DIM, NP, NFP, NF, NC, NFQ) \
  for (int e = e0; e < e1; e++) INSDivergenceElement(d, DIM, NP, NFP, NF, e, u, bc_scale, out + d->node0 + e * (NP))
  INS_DISPATCH(d, CALL_DIVERGENCE);
#undef CALL_DIVERGENCE
}

void INSFaceDataHost(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out)
{
  for (int e = 0; e < d->K; e++)
    for (int f = 0; f < d->Nfaces; f++)
      for (int a = 0; a < d->Nfp; a++) out[(e * d->Nfaces + f) * d->Nfp + a] = INSFaceDataNode(d, type, component, alpha, beta, x, e, f, a);
}

void INSScatterFacesHost(int nb, const int *face, int bs, int ncomp, const double *src, int dst_stride, double *dst)
{
  for (int c = 0; c < ncomp; c++)
    for (int b = 0; b < nb; b++)
      for (int j = 0; j < bs; j++) dst[(long)c * dst_stride + (long)face[b] * bs + j] = src[((long)c * nb + b) * bs + j];
}

double INSAdvectionFlopsPerElement(int dim, int Np, int Nc, int Nfaces, int Nfp, int Nfq)
{
  /* interpolation of 2 dim fields, contravariant fluxes, the weighted derivatives, face traces (both
   * sides) and fluxes, face lifts, the inverse mass */
  return 4.0 * dim * Nc * Np + 3.0 * dim * dim * Nc + 2.0 * dim * dim * Np * Nc + Nfaces * (8.0 * dim * Nfq * Nfp + 10.0 * dim * Nfq + 2.0 * dim * Nfp * Nfq) + 2.0 * dim * Np * Np + dim * Np;
}

/* Bytes per element (roofline, as IPDG*BytesPerElement): every input read once on the element and
 * once across its faces (the neighbours' traces), every output written once, the geometry, face
 * factors and indices (face types, vmapP). Boundary data are read on boundary faces
 * only, a vanishing fraction of a mesh worth timing, and are not counted. */
double INSAdvectionBytesPerElement(int dim, int Np, int Nfaces, int Nfp, int fields)
{
  const double nf = (double)Nfaces * Nfp;
  /* `fields` distinct inputs (2 dim for N~(a; c), dim for N(u) where a = c), dim outputs */
  return 8.0 * (fields * (Np + nf) + dim * Np + INS_GEO(dim) + INS_SGEO(dim) * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSGradientBytesPerElement(int dim, int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* p on the element and across its faces, the dim components; the metric terms (no J) */
  return 8.0 * ((dim + 1.0) * Np + nf + INS_GEO(dim) - 1 + INS_SGEO(dim) * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSDivergenceBytesPerElement(int dim, int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* the dim components on the element and across its faces, the divergence; the metric terms (no J) */
  return 8.0 * ((dim + 1.0) * Np + dim * nf + INS_GEO(dim) - 1 + INS_SGEO(dim) * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSGradientFlopsPerElement(int dim, int Np, int Nfaces, int Nfp)
{
  return 2.0 * dim * Np * Np + 2.0 * dim * Np * Nfaces * Nfp + 2.0 * dim * Np + 3.0 * dim * Nfaces * Nfp;
}

double INSDivergenceFlopsPerElement(int dim, int Np, int Nfaces, int Nfp)
{
  return 2.0 * dim * dim * Np * Np + 2.0 * Np * Nfaces * Nfp + (2.0 * dim * dim - 1) * Np + 4.0 * dim * Nfaces * Nfp;
}
