/* The SIPDG operator A = -Laplace + lambda on a block of curved elements (hoflow/mesh.h), any shape and
 * dimension: the same bilinear form as the affine kernels of hoflow/kernels/ipdg.h (seed 000 eq. 28),
 * written in weak form with quadrature because the metric terms vary inside the element:
 *
 *   (Au)_i = sum_q w_q J_q [grad l_i . grad u + lambda l_i u](x_q)
 *          + sum_faces int_F [ l_i (-{n.grad u} + tau [u]) - 1/2 (n.grad l_i) [u] ] dA,
 *
 * [u] = u^- - u^+, {w} the average; mirror states on Dirichlet (u^+ = 2g - u^-, grad u^+ = grad u^-) and
 * Neumann faces (u^+ = u^-, n.grad u^+ = 2h - n.grad u^-), as hoflow/pointwise/elliptic.h has them.
 * Volume integrals at the cubature points of the reference element (degree 2N+1) with the factors
 * w J (dr/dx)(dr/dx)^T there. Face integrals at face cubature points (degree 2N+1 on the face's own
 * shape), in the face's canonical frame (hoflow/geom.h), so that both elements of a face integrate at
 * the same physical points: traces and gradients are interpolated there from the element's own face
 * nodes, the neighbour's values gathered into them through vmapP. The gradients on faces are the
 * nodal gradients (the gradient kernel's output: on curved elements with metric terms at every node),
 * for grad u and for grad l_i alike, which makes the operator symmetric; an affine neighbour computes
 * the same face terms (on a straight face the interpolants are the polynomials its face mass matrix
 * integrates exactly).
 *
 * Host kernels in src/kernels/ipdg_curved.c, CUDA twins in cuda/ipdg_curved.cu; both call the
 * element routines of hoflow/kernels/ipdg_curved_element.h. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  RefShape      shape;
  int           dim, N, Np, Nfaces, Nfn, Nq;
  int           face_offset[HOFLOW_FACES_MAX + 1];                     /* first face node of face f */
  int           Nfq[HOFLOW_FACES_MAX];                                 /* face cubature points of face f */
  int           fq_offset[HOFLOW_FACES_MAX + 1];                       /* first face point of face f in an element's face data */
  int           if_offset[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS]; /* face f, orientation o: its interpolation matrix at If + if_offset[f][o] */
  int           NfpMax, NfqMax;
  int           K, Khalo;          /* the block's owned and halo elements */
  int           node0, halo_node0; /* local node index of the block's first owned and first halo element */
  const double *Gn, *halo_Gn;      /* [K*Np*dim*dim], [Khalo*...]: dr_d/dx_j at every node (layout of hoflow/geom.h) */
  const double *vq;                /* [K*Nq*(npair+1)]: w J sum_j (dr_a/dx_j)(dr_b/dx_j) for a <= b (npair = dim(dim+1)/2), then w J */
  const double *fq;                /* [K*fq_offset[Nfaces]*(dim+1)]: unit outward normal and w sJ at each face point */
  const double *sgeo;              /* [K*Nfaces*HOFLOW_SGEO_SIZE(dim)]: the penalty tau of each face (hoflow/geom.h) */
  const int    *face_type;         /* [K*Nfaces] HOFLOW_FACE_* */
  const int    *fperm;             /* [K*Nfaces] orientation of each face's points */
  const int    *vmapP;             /* [K*Nfn] local node of the exterior trace */
  const int    *face_nodes;        /* [Nfn] reference node of each face node */
  const double *D[3];              /* [Np*Np] nodal derivative matrices */
  const double *Iq, *Dq[3];        /* [Nq*Np] interpolation and derivatives of the nodal basis at the cubature points */
  const double *If;                /* face interpolation matrices [Nfq[f]*Nfp(f)], from face nodes to face points */
  /* Sum-factorized volume terms (quadrilaterals and hexahedra, -ipdg_kernel tensor): tensor != 0 selects
   * them; the cubature is then the tensor Gauss rule of N1 = N + 1 points a direction (q = i + N1 j
   * [+ N1^2 k]), and with x the GLL nodes and g the Gauss points, row-major [N1*N1]:
   * D1[i*N1+k] = l_k'(x_i), B1[q*N1+k] = l_k(g_q), G1[q*N1+k] = l_k'(g_q) and the transposes D1T, B1T, G1T. */
  int           tensor;
  const double *D1, *D1T, *B1, *B1T, *G1, *G1T;
  double        lambda;
  double       *work; /* CUDA: scratch of IPDGCurvedWorkSize doubles per element, element-interleaved */
  void         *stream;
} IPDGCurvedKernelData;

/* Doubles of scratch one element's apply needs. */
int IPDGCurvedWorkSize(const IPDGCurvedKernelData *d);
/* Nodal gradient on elements [e0, e1) of the block's owned (halo = 0) or halo elements (local arrays). */
void IPDGCurvedGradientHost(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
/* Au on owned elements [e0, e1): u and the gradient local arrays, Au the owned array; bc_data: NULL or
 * [K*Nfn] block-relative Dirichlet values / Neumann data at face nodes (as IPDGApplyHost). */
void IPDGCurvedApplyHost(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
/* The diagonal of A on the block's owned elements. */
void IPDGCurvedDiagonalHost(const IPDGCurvedKernelData *d, double *diag);
int  IPDGCurvedGradientCUDA(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
int  IPDGCurvedApplyCUDA(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
int  IPDGCurvedDiagonalCUDA(const IPDGCurvedKernelData *d, double *diag);
/* Floating-point operations per element (log events). */
double IPDGCurvedGradientFlopsPerElement(int dim, int Np);
double IPDGCurvedApplyFlopsPerElement(const IPDGCurvedKernelData *d);

#ifdef __cplusplus
}
#endif
