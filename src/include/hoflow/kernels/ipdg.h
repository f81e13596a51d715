/* The SIPDG screened-Poisson operator A = -Laplace + lambda of seed 000 (eqs. 13, 14, 23, 28;
 * Algorithms 1 and 2) on one block of elements of one shape, any dimension: host kernels in
 * src/kernels/ipdg.c, CUDA twins in cuda/ipdg.cu, element routines in hoflow/kernels/ipdg_element.h. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  RefShape      shape;
  int           dim, N, Np, Nfaces, Nfn; /* Nfn: the face nodes of all faces */
  int           K, Khalo;                /* the block's owned and halo elements */
  int           node0, halo_node0;       /* local node index of the block's first owned and first halo element */
  const double *geo, *halo_geo;          /* [K*HOFLOW_GEO_SIZE(dim)], [Khalo*...]: affine factors of owned and halo elements */
  const double *sgeo;                    /* [K*Nfaces*HOFLOW_SGEO_SIZE(dim)] face factors */
  const int    *face_type;               /* [K*Nfaces] HOFLOW_FACE_* */
  const int    *vmapP;                   /* [K*Nfn] local node index of the exterior trace */
  const int    *face_nodes;              /* [Nfn] reference node of each face node */
  const int    *node_face;               /* [Nfn] the face of each face node */
  const double *D[3];                    /* [Np*Np] reference derivative matrices */
  const double *LIFT;                    /* [Np*Nfn] reference lift M^{-1} E */
  const double *M;                       /* [Np*Np] reference mass matrix */
  /* Transposes of D, LIFT, M (column-major copies): a warp of threads, one per node, then reads
   * consecutive addresses. Used by the CUDA kernels; may be NULL on the host. */
  const double *DT[3], *LIFTT, *MT;
  /* Transposes of M D_a and M LIFT (the face mass matrix): the 3D tensor-core apply multiplies by the mass
   * matrix inside its last product (CUDA only; NULL on the host). */
  const double *MDT[3], *MLIFTT;
  /* Reference tables for the diagonal (IPDGDiagonalTablesSize doubles): (D_a^T M D_b)_ii for the
   * dim(dim+1)/2 pairs a <= b, M_ii [(dim(dim+1)/2 + 1) Np]; per face node a of face f (reference
   * node m) sum_b Mface_ab D_d[m_b][m] for each d [dim*Nfn]; Mface_aa [Nfn]. */
  const double *diag_tables;
  /* Sum-factorized kernels (quadrilaterals and hexahedra, -ipdg_kernel tensor; hoflow/kernels/ipdg_tensor.h):
   * tensor != 0 selects them. 1D factors of the reference element (ref.h), N1 = N + 1, row-major
   * [N1*N1]: D1[i*N1+k] = l_k'(x_i) and its transpose D1T, the exact 1D mass M1, A1 = D1^T M1 and A1T;
   * face_dir[f] the reference direction normal to face f, face_pos[n] the position of face node n in
   * its face's tensor grid (the other directions, the lower one fastest). */
  int           tensor;
  const double *D1, *D1T, *M1, *A1, *A1T;
  const int    *face_pos;
  int           face_dir[HOFLOW_FACES_MAX];
  double        lambda;                 /* screening constant of -Laplace + lambda */
  int           elements_per_block[2];  /* CUDA launch shape of gradient / apply; 0: the tuned table */
  int           elements_per_thread[2]; /* elements each CUDA thread works on (1, 2, 4, 8); 0: the tuned table */
  int           apply_units;            /* 3D dense apply on CUDA: 1 CUDA cores, 2 FP64 tensor cores (mma); 0: the tuned table */
  void         *stream;                 /* CUDA stream (cudaStream_t) the kernels run on; NULL: default */
} IPDGKernelData;

/* Algorithm 1: grad u on elements [e0, e1) of the block's owned (halo = 0) or halo (halo = 1)
 * elements. u and the gradient components (gz unused in 2D) are local arrays. */
void IPDGGradientHost(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
/* Algorithm 2 / eq. (28): Au on owned elements [e0, e1) of the block. u and the gradient: local
 * arrays; Au: the owned array (element e at node0 + e Np, like the local array).
 * bc_data: NULL for the homogeneous operator; otherwise [K*Nfn] (block-relative) Dirichlet values g
 * (on Dirichlet faces) and Neumann data n.grad u (on Neumann faces) at face nodes, which then enter
 * as exterior states u+ = 2g - u-, n.grad u+ = 2h - n.grad u-. */
void IPDGApplyHost(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
/* Diagonal of A on the block's owned elements (at node0 + e Np of diag), from d->diag_tables. */
void IPDGDiagonalHost(const IPDGKernelData *d, double *diag);
int  IPDGDiagonalTablesSize(int dim, int Np, int Nfn);

/* CUDA twins (cuda/ipdg.cu): same data, device pointers throughout. Return 0 or a cudaError_t. */
int IPDGGradientCUDA(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
int IPDGApplyCUDA(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
int IPDGDiagonalCUDA(const IPDGKernelData *d, double *diag);
/* The tuned launch shape (cuda/ipdg.cu) of kernel 0 (gradient) or 1 (apply) for (shape, N): thread
 * rows per block (each a group of element nodes) and elements per thread. */
int IPDGElementsPerBlock(int kernel, RefShape shape, int N);
int IPDGElementsPerThread(int kernel, RefShape shape, int N);
/* The units of the tuned 3D dense apply (cuda/ipdg.cu) for (shape, N): 1 CUDA cores, 2 FP64 tensor cores. */
int IPDGApplyUnits(RefShape shape, int N);
/* ... and the tensor-core apply's elements a block (8, 16, 32). */
int IPDGApplyTCElementsPerBlock(RefShape shape, int N);

/* Floating-point operations of one gradient / one apply / the diagonal, per element (log events), and
 * the bytes a kernel must move through memory per element (each input read once, each output written
 * once): the denominator of the empirical roofline (seed 000 §5.1). */
double IPDGGradientFlopsPerElement(int dim, int Np);
double IPDGApplyFlopsPerElement(int dim, int Np, int Nfaces, int Nfn);
double IPDGDiagonalFlopsPerElement(int dim, int Np, int Nfaces, int Nfn);
double IPDGGradientBytesPerElement(int dim, int Np);
double IPDGApplyBytesPerElement(int dim, int Np, int Nfaces, int Nfn);

#ifdef __cplusplus
}
#endif
