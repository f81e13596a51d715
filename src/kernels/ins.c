/* Host reference kernels of the incompressible flow operators (hoflow/kernels/ins.h, INSKernelData):
 * advection with cubature, gradient, divergence and face data. Plain C, no PETSc calls; the CUDA
 * twins in cuda/ins.cu take the same INSKernelData and must agree with these to round-off. Each
 * kernel is instantiated per order and 2D shape, so loop bounds are compile-time constants; the
 * dispatch is keyed by (shape, N). */
#include <hoflow/kernels/ins_element.h>

/* Instantiate for triangles and quadrilaterals: CALL(Np, Nfp, Nfaces, Nc, Nfq) with the cubature of
 * degree 3N (RefElementCubature: (3N/2 + 1) Gauss points per direction). */
#define INS_NQ(NN) ((3 * (NN)) / 2 + 1)
#define INS_CASE(CALL, NN)                                                               \
  case REF_TRIANGLE * 100 + NN:                                                          \
    CALL(((NN) + 1) * ((NN) + 2) / 2, (NN) + 1, 3, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN)); \
    break;                                                                               \
  case REF_QUADRILATERAL * 100 + NN:                                                     \
    CALL(((NN) + 1) * ((NN) + 1), (NN) + 1, 4, INS_NQ(NN) * INS_NQ(NN), INS_NQ(NN));     \
    break;
#define INS_DISPATCH(d, CALL)                                                                   \
  do {                                                                                          \
    switch ((d)->shape * 100 + (d)->N) {                                                        \
      INS_CASE(CALL, 1)                                                                         \
      INS_CASE(CALL, 2)                                                                         \
      INS_CASE(CALL, 3)                                                                         \
      INS_CASE(CALL, 4)                                                                         \
      INS_CASE(CALL, 5)                                                                         \
      INS_CASE(CALL, 6)                                                                         \
      INS_CASE(CALL, 7) INS_CASE(CALL, 8) INS_CASE(CALL, 9) INS_CASE(CALL, 10) default : break; \
    }                                                                                           \
  } while (0)

void INSAdvectionHost(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1)
{
#define CALL_ADVECTION(NP, NFP, NF, NC, NFQ) \
  for (int e = e0; e < e1; e++) INSAdvectionElement(d, NP, NFP, NF, NC, NFQ, e, au, av, c0, c1, lambda_scale, bc_scale, out0 + d->node0 + e * (NP), out1 + d->node0 + e * (NP))
  INS_DISPATCH(d, CALL_ADVECTION);
#undef CALL_ADVECTION
}

void INSGradientHost(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy)
{
#define CALL_GRADIENT(NP, NFP, NF, NC, NFQ) \
  for (int e = e0; e < e1; e++) INSGradientElement(d, NP, NFP, NF, e, p, ptrace, trace_scale, bc_scale, gx + d->node0 + e * (NP), gy + d->node0 + e * (NP))
  INS_DISPATCH(d, CALL_GRADIENT);
#undef CALL_GRADIENT
}

void INSDivergenceHost(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out)
{
#define CALL_DIVERGENCE(NP, NFP, NF, NC, NFQ) \
  for (int e = e0; e < e1; e++) INSDivergenceElement(d, NP, NFP, NF, e, u, v, bc_scale, out + d->node0 + e * (NP))
  INS_DISPATCH(d, CALL_DIVERGENCE);
#undef CALL_DIVERGENCE
}

void INSFaceDataHost(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out)
{
  for (int e = 0; e < d->K; e++)
    for (int f = 0; f < d->Nfaces; f++)
      for (int a = 0; a < d->Nfp; a++) out[(e * d->Nfaces + f) * d->Nfp + a] = INSFaceDataNode(d, type, component, alpha, beta, x, e, f, a);
}

double INSAdvectionFlopsPerElement(int Np, int Nc, int Nfaces, int Nfp, int Nfq)
{
  /* interpolation of 4 fields, contravariant fluxes, the weighted derivatives, face traces (both
   * sides) and fluxes, face lifts, the inverse mass */
  return 8.0 * Nc * Np + 12.0 * Nc + 8.0 * Np * Nc + Nfaces * (16.0 * Nfq * Nfp + 20.0 * Nfq + 4.0 * Nfp * Nfq) + 4.0 * Np * Np + 2.0 * Np;
}

/* Bytes per element (roofline, as IPDG*BytesPerElement): every input read once on the element and
 * once across its faces (the neighbours' traces), every output written once, the geometry, face
 * factors and indices (face types, vmapP). Boundary data are read on boundary faces
 * only, a vanishing fraction of a mesh worth timing, and are not counted. */
double INSAdvectionBytesPerElement(int Np, int Nfaces, int Nfp, int fields)
{
  const double nf = (double)Nfaces * Nfp;
  /* `fields` distinct inputs (4 for N~(a; c), 2 for N(u) where a = c), two outputs */
  return 8.0 * (fields * (Np + nf) + 2.0 * Np + INS_GEO + INS_SGEO * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSGradientBytesPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* p on the element and across its faces, gx and gy; rx sx ry sy (no J) */
  return 8.0 * (3.0 * Np + nf + INS_GEO - 1 + INS_SGEO * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSDivergenceBytesPerElement(int Np, int Nfaces, int Nfp)
{
  const double nf = (double)Nfaces * Nfp;
  /* u and v on the element and across its faces, the divergence; rx sx ry sy (no J) */
  return 8.0 * (3.0 * Np + 2.0 * nf + INS_GEO - 1 + INS_SGEO * Nfaces) + 4.0 * (nf + Nfaces);
}

double INSGradientFlopsPerElement(int Np, int Nfaces, int Nfp)
{
  return 4.0 * Np * Np + 4.0 * Np * Nfaces * Nfp + 4.0 * Np + 6.0 * Nfaces * Nfp;
}

double INSDivergenceFlopsPerElement(int Np, int Nfaces, int Nfp)
{
  return 8.0 * Np * Np + 2.0 * Np * Nfaces * Nfp + 7.0 * Np + 8.0 * Nfaces * Nfp;
}
