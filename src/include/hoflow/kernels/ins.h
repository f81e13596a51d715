/* The operators of incompressible flow on nodal DG (seed 000 §2.1, §5.3) on one block of elements
 * of one shape (2D or 3D): host kernels in src/kernels/ins.c, CUDA twins in cuda/ins.cu, element routines
 * in hoflow/kernels/ins_element.h, pointwise physics in hoflow/pointwise/ins.h. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The velocity's dim components and the pressure are separate DG fields with the nodal layout
 * above. Boundary faces carry the velocity's type: HOFLOW_FACE_DIRICHLET (inflow, walls: u = g) or
 * HOFLOW_FACE_NEUMANN (outflow: nu du/dn = p n, the pressure given there). Boundary data come as
 * a spatial part times a time factor (g(x) tau(t)), so a time step needs scalars only.
 * Shapes whose faces all have the same number of nodes (triangles, quadrilaterals, tetrahedra,
 * hexahedra): every face has Nfp nodes and Nfq cubature points. Metric terms in the hoflow/geom.h
 * layout: G[j*dim + d] = d r_d / d x_j, J = G[dim*dim]; face factors n[dim], sJ/J. */
#define INS_GEO(dim) HOFLOW_GEO_SIZE(dim)
#define INS_J(dim) HOFLOW_GEO_J(dim)
#define INS_SGEO(dim) HOFLOW_SGEO_SIZE(dim)
#define INS_SJ(dim) HOFLOW_SGEO_SJ_OVER_J(dim)
#define INS_NQ(NN) ((3 * (NN)) / 2 + 1) /* Gauss points per direction of the cubature of degree 3N */
/* Largest orders the kernels are instantiated for: 2D and 3D shapes */
#define INS_NMAX_2D 10
#define INS_NMAX_3D 8
#define HOFLOW_NCUB_MAX (INS_NQ(INS_NMAX_3D) * INS_NQ(INS_NMAX_3D) * INS_NQ(INS_NMAX_3D)) /* volume cubature points */
#define HOFLOW_NFQ_MAX (INS_NQ(HOFLOW_NMAX) * INS_NQ(HOFLOW_NMAX))                       /* face cubature points */
typedef struct {
  RefShape      shape;
  int           dim, N, Np, Nfp, Nfaces, K; /* every face has Nfp nodes */
  int           node0;                      /* local node index of the block's first element */
  int           Nc;                         /* volume cubature points, exact to degree 3N (the advective flux u u times a test gradient) */
  int           Nfq;                        /* cubature points per face, exact to degree 3N */
  const double *geo;                        /* [K*HOFLOW_GEO_SIZE(dim)] */
  const double *sgeo;                       /* [K*Nfaces*HOFLOW_SGEO_SIZE(dim)] */
  const int    *face_type;                  /* [K*Nfaces] the velocity's HOFLOW_FACE_* */
  const int    *vmapP;                      /* [K*Nfaces*Nfp] */
  const int    *face_nodes;                 /* [Nfaces*Nfp] */
  const double *D[3];                       /* [Np*Np] nodal derivative matrices (dim of them) */
  const double *LIFT;                       /* [Np*Nfaces*Nfp] */
  const double *Minv;                       /* [Np*Np] reference inverse mass */
  const double *Ic;                         /* [Nc*Np] interpolation from the nodes to the volume cubature */
  const double *DW[3];                      /* [Np*Nc] w_q dl_i/dr_d(x_q), d < dim */
  const double *If;                         /* [Nfaces][Nfq*Nfp] interpolation from face f's nodes to its cubature points */
  const double *LIFTf;                      /* [Nfaces][Nfp*Nfq] w_q l_a(xi_q): face f's cubature points onto its nodes */
  const double *bcq;                        /* [dim][K*Nfaces*Nfq] velocity data at the face cubature points of every boundary face (spatial part) */
  const double *bcn;                        /* [dim+1][K*Nfaces*Nfp] at face nodes (spatial parts): for each velocity component the SIPDG
                                               data (g on Dirichlet faces, n.grad u on outflow faces), then the pressure on outflow faces */
  /* column-major copies of the matrices above for the CUDA kernels (A^T[j*rows + i] = A[i*cols + j];
   * IfT and LIFTfT face by face), made once when the operators first run on the device; NULL on the host */
  const double *IcT, *DWT[3], *MinvT, *IfT, *LIFTfT, *DT[3], *LIFTT;
  void         *stream; /* CUDA stream; NULL: default */
} INSKernelData;

/* Advection in divergence form with cubature (seed 000 eqs. 8, 9, 21, 34):
 *   out_k = M^{-1} [ -(grad l_i, a c_k) + <l_i, n.F*_k> ],  k < dim,
 *   n.F*_k = ({{(n.a) c_k}}) + Lambda/2 (c_k^- - c_k^+),  Lambda = lambda_scale max(|n.a^-|, |n.a^+|),
 * advected components c[dim] (local arrays) carried by the velocity a[dim] (local arrays); the exterior
 * states are those of hoflow/pointwise/ins.h (bcq holds the velocity data on every boundary face).
 * N(u) is a = c = u with lambda_scale 2 (the eigenvalues of the flux Jacobian of u (x) u are n.u and
 * 2 n.u); the subcycling operator N~(a, c) has lambda_scale 1. Elements [e0, e1) of the block;
 * out[dim]: owned arrays (element e at node0 + e Np). */
void INSAdvectionHost(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[]);
/* G p = grad p + LIFT (sJ/J) n (p* - p^-) with central p* = {{p}}; on Dirichlet-velocity faces
 * p* = p^-, on outflow faces p* = bc_scale p_D (bcn) + trace_scale trace(ptrace) (ptrace may be
 * NULL). p: local; ptrace: owned (may be NULL); g[dim]: owned. */
void INSGradientHost(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[]);
/* D u = div u + LIFT (sJ/J) n.(u* - u^-), central u* = {{u}}; Dirichlet faces u* = bc_scale g,
 * outflow u* = u^-. u[dim]: local; out: owned. */
void INSDivergenceHost(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out);
/* Face data for a SIPDG solve, [K*Nfaces*Nfp]: on faces of type `type` (-1: every boundary face)
 * alpha * bcn[component] + beta * trace(x) (x owned, may be NULL), zero elsewhere; component dim is
 * the pressure. */
void INSFaceDataHost(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
/* Scatter of boundary data packed face by face into a face array: for c < ncomp, b < nb, j < bs
 * dst[c*dst_stride + face[b]*bs + j] = src[(c*nb + b)*bs + j] (time-dependent boundary data: only
 * the boundary faces' values cross to the device). */
void INSScatterFacesHost(int nb, const int *face, int bs, int ncomp, const double *src, int dst_stride, double *dst);
int  INSScatterFacesCUDA(int nb, const int *face, int bs, int ncomp, const double *src, int dst_stride, double *dst, void *stream);
int  INSAdvectionCUDA(const INSKernelData *d, int e0, int e1, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[]);
int  INSGradientCUDA(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *const g[]);
int  INSDivergenceCUDA(const INSKernelData *d, int e0, int e1, const double *const u[], double bc_scale, double *out);
int  INSFaceDataCUDA(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
/* Whether the kernels are instantiated for (shape, N): triangles and quadrilaterals N <= INS_NMAX_2D,
 * tetrahedra and hexahedra N <= INS_NMAX_3D. */
int INSKernelsSupported(RefShape shape, int N);
/* Launch shape of the CUDA kernels (cuda/ins.cu) of kernel 0 (advection), 1 (gradient) or 2
 * (divergence) for (shape, N): element groups per thread block and elements per thread. */
int INSElementsPerBlock(int kernel, RefShape shape, int N);
int INSElementsPerThread(int kernel, RefShape shape, int N);
/* Flops per element (log events) and bytes per element (roofline); the advection's bytes for
 * `fields` distinct input fields (2 dim for N~(a; c), dim for N(u)). */
double INSAdvectionFlopsPerElement(int dim, int Np, int Nc, int Nfaces, int Nfp, int Nfq);
double INSAdvectionBytesPerElement(int dim, int Np, int Nfaces, int Nfp, int fields);
double INSGradientFlopsPerElement(int dim, int Np, int Nfaces, int Nfp);
double INSGradientBytesPerElement(int dim, int Np, int Nfaces, int Nfp);
double INSDivergenceFlopsPerElement(int dim, int Np, int Nfaces, int Nfp);
double INSDivergenceBytesPerElement(int dim, int Np, int Nfaces, int Nfp);

#ifdef __cplusplus
}
#endif
