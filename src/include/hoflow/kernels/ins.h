/* The operators of incompressible flow on nodal DG (seed 000 §2.1, §5.3) on one block of elements
 * of one 2D shape: host kernels in src/kernels/ins.c, CUDA twins in cuda/ins.cu, element routines
 * in hoflow/kernels/ins_element.h, pointwise physics in hoflow/pointwise/ins.h. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Two velocity components and the pressure are separate DG fields with the nodal layout above.
 * Boundary faces carry the velocity's type: HOFLOW_FACE_DIRICHLET (inflow, walls: u = g) or
 * HOFLOW_FACE_NEUMANN (outflow: nu du/dn = p n, the pressure given there). Boundary data come as
 * a spatial part times a time factor (g(x) tau(t)), so a time step needs scalars only. */
/* 2D metric terms in the hoflow/geom.h layout */
enum {
  INS_RX   = 0,
  INS_SX   = 1,
  INS_RY   = 2,
  INS_SY   = 3,
  INS_J    = 4,
  INS_GEO  = 5,
  INS_SJ   = 2,
  INS_SGEO = 4
};
#define HOFLOW_NCUB_MAX (((3 * HOFLOW_NMAX) / 2 + 1) * ((3 * HOFLOW_NMAX) / 2 + 1)) /* volume cubature points */
#define HOFLOW_NFQ_MAX ((3 * HOFLOW_NMAX) / 2 + 1)                                  /* face cubature points */
typedef struct {
  RefShape      shape;
  int           dim, N, Np, Nfp, Nfaces, K; /* 2D shapes: every face has Nfp nodes */
  int           node0;                      /* local node index of the block's first element */
  int           Nc;                         /* volume cubature points, exact to degree 3N (the advective flux u u times a test gradient) */
  int           Nfq;                        /* Gauss points per face, exact to degree 3N */
  const double *geo;                        /* [K*HOFLOW_GEO_SIZE(dim)] */
  const double *sgeo;                       /* [K*Nfaces*HOFLOW_SGEO_SIZE(dim)] */
  const int    *face_type;                  /* [K*Nfaces] the velocity's HOFLOW_FACE_* */
  const int    *vmapP;                      /* [K*Nfaces*Nfp] */
  const int    *face_nodes;                 /* [Nfaces*Nfp] */
  const double *D[2];                       /* [Np*Np] nodal derivative matrices */
  const double *LIFT;                       /* [Np*Nfaces*Nfp] */
  const double *Minv;                       /* [Np*Np] reference inverse mass */
  const double *Ic;                         /* [Nc*Np] interpolation from the nodes to the volume cubature */
  const double *DW[2];                      /* [Np*Nc] w_q dl_i/dr(x_q), w_q dl_i/ds(x_q) */
  const double *If;                         /* [Nfq*Nfp] interpolation from a face's nodes to its Gauss points */
  const double *LIFTf;                      /* [Nfp*Nfq] w_q l_a(xi_q): face Gauss points onto the face nodes */
  const double *bcq;                        /* [2][K*Nfaces*Nfq] velocity data u, v at face Gauss points of every boundary face (spatial part) */
  const double *bcn;                        /* [3][K*Nfaces*Nfp] at face nodes (spatial parts): for u and v the SIPDG data (g on Dirichlet
                                               faces, n.grad u on outflow faces), for p its value on outflow faces */
  /* column-major copies of the matrices above for the CUDA kernels (A^T[j*rows + i] = A[i*cols + j]),
   * made once when the operators first run on the device; NULL on the host */
  const double *IcT, *DWT[2], *MinvT, *IfT, *LIFTfT, *DT[2], *LIFTT;
  void         *stream; /* CUDA stream; NULL: default */
} INSKernelData;

/* Advection in divergence form with cubature (seed 000 eqs. 8, 9, 21, 34):
 *   out_k = M^{-1} [ -(grad l_i, a c_k) + <l_i, n.F*_k> ],  k = 0, 1,
 *   n.F*_k = ({{(n.a) c_k}}) + Lambda/2 (c_k^- - c_k^+),  Lambda = lambda_scale max(|n.a^-|, |n.a^+|),
 * advected components c (local arrays) carried by the velocity a (local arrays); the exterior states
 * are those of hoflow/pointwise/ins.h (bcq holds the velocity data on every boundary face). N(u) is a = c = u with lambda_scale 2 (the eigenvalues of the flux Jacobian of u (x) u are n.u and 2 n.u);
 * the subcycling operator N~(a, c) has lambda_scale 1. Elements [e0, e1) of the block; out: owned
 * arrays (element e at node0 + e Np). */
void INSAdvectionHost(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1);
/* G p = grad p + LIFT (sJ/J) n (p* - p^-) with central p* = {{p}}; on Dirichlet-velocity faces
 * p* = p^-, on outflow faces p* = bc_scale p_D (bcn) + trace_scale trace(ptrace) (ptrace may be
 * NULL). p: local; ptrace: owned (may be NULL); gx, gy: owned. */
void INSGradientHost(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy);
/* D u = div u + LIFT (sJ/J) n.(u* - u^-), central u* = {{u}}; Dirichlet faces u* = bc_scale g,
 * outflow u* = u^-. u, v: local; out: owned. */
void INSDivergenceHost(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out);
/* Face data for a SIPDG solve, [K*Nfaces*Nfp]: on faces of type `type` (-1: every boundary face)
 * alpha * bcn[component] + beta * trace(x) (x owned, may be NULL), zero elsewhere. */
void INSFaceDataHost(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
int  INSAdvectionCUDA(const INSKernelData *d, int e0, int e1, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1);
int  INSGradientCUDA(const INSKernelData *d, int e0, int e1, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy);
int  INSDivergenceCUDA(const INSKernelData *d, int e0, int e1, const double *u, const double *v, double bc_scale, double *out);
int  INSFaceDataCUDA(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
/* Launch shape of the CUDA kernels (cuda/ins.cu) of kernel 0 (advection), 1 (gradient) or 2
 * (divergence) for (shape, N): element groups per thread block and elements per thread. */
int INSElementsPerBlock(int kernel, RefShape shape, int N);
int INSElementsPerThread(int kernel, RefShape shape, int N);
/* Flops per element (log events) and bytes per element (roofline); the advection's bytes for
 * `fields` distinct input fields (4 for N~(a; c), 2 for N(u)). */
double INSAdvectionFlopsPerElement(int Np, int Nc, int Nfaces, int Nfp, int Nfq);
double INSAdvectionBytesPerElement(int Np, int Nfaces, int Nfp, int fields);
double INSGradientFlopsPerElement(int Np, int Nfaces, int Nfp);
double INSGradientBytesPerElement(int Np, int Nfaces, int Nfp);
double INSDivergenceFlopsPerElement(int Np, int Nfaces, int Nfp);
double INSDivergenceBytesPerElement(int Np, int Nfaces, int Nfp);

#ifdef __cplusplus
}
#endif
