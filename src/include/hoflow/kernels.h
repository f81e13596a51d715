/* hoflow compute kernels: the plain-data interface shared by the host reference kernels
 * (src/op/ *_kernels.c) and their CUDA twins (cuda/ *.cu).
 *
 * This header includes nothing from PETSc, so nvcc compiles cuda/ without a PETSc
 * installation. Reals are double, indices are int (hoflow checks PetscReal == double and
 * PetscInt == int when it fills these structs). Kernels are plain functions: no PETSc
 * calls, no allocation, no error codes.
 *
 * Symbols: K owned elements, Klocal local elements (owned + halo), N order, Np nodes per
 * element, Nfp nodes per face, Nfaces faces per element. Element-major layouts:
 * u[cell*Np + i], geo[cell*HOFLOW_GEO_SIZE + k], face arrays [(e*Nfaces + f)*...].
 */
#pragma once

#include <stddef.h>

#ifndef HOFLOW_NMAX
#  define HOFLOW_NMAX 10 /* highest polynomial order */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Affine volume geometric factors per element: dr/dx, ds/dx, dr/dy, ds/dy, J (eq. 30). */
enum {
  HOFLOW_GEO_RX,
  HOFLOW_GEO_SX,
  HOFLOW_GEO_RY,
  HOFLOW_GEO_SY,
  HOFLOW_GEO_J,
  HOFLOW_GEO_SIZE
};

/* Face factors per (owned element, face): outward normal, sJ/J (the lift scaling of eq. 31)
 * and the SIPDG penalty tau of eq. (14). */
enum {
  HOFLOW_SGEO_NX,
  HOFLOW_SGEO_NY,
  HOFLOW_SGEO_SJ_OVER_J,
  HOFLOW_SGEO_TAU,
  HOFLOW_SGEO_SIZE
};

/* What lies across a face. Dirichlet and Neumann data are weak (mirror states, seed 000 §2.1). */
enum {
  HOFLOW_FACE_INTERIOR  = 0,
  HOFLOW_FACE_DIRICHLET = 1,
  HOFLOW_FACE_NEUMANN   = 2
};

typedef struct {
  int           N, Np, Nfp, Nfaces;
  int           K;          /* owned elements: the rows the operator produces */
  int           Klocal;     /* local elements, owned and halo: the gradient is needed on all */
  const int    *elem_cell;  /* [K] local cell of owned element e */
  const double *geo;        /* [Klocal*HOFLOW_GEO_SIZE] */
  const double *sgeo;       /* [K*Nfaces*HOFLOW_SGEO_SIZE] */
  const int    *face_type;  /* [K*Nfaces] HOFLOW_FACE_* */
  const int    *vmapP;      /* [K*Nfaces*Nfp] local node index (cell*Np + i) of the exterior trace */
  const int    *face_nodes; /* [Nfaces*Nfp] reference node index of each face node */
  const double *Dr, *Ds;    /* [Np*Np] reference derivative matrices */
  const double *LIFT;       /* [Np*Nfaces*Nfp] reference lift M^{-1} E */
  const double *M;          /* [Np*Np] reference mass matrix */
  /* Transposes of Dr, Ds, LIFT, M (column-major copies): a warp of threads, one per node,
   * then reads consecutive addresses. Used by the CUDA kernels; may be NULL on the host. */
  const double *DrT, *DsT, *LIFTT, *MT;
  /* Reference tables for the diagonal (IPDGDiagonalTablesSize doubles): (Dr^T M Dr)_ii,
   * (Dr^T M Ds)_ii, (Ds^T M Ds)_ii, M_ii [4*Np]; per face slot a of face f (node m = face_nodes)
   * sum_b Mface_ab Dr[m_b][m] and the same with Ds [2*Nfaces*Nfp]; Mface_aa [Nfp]. */
  const double *diag_tables;
  double        lambda;                 /* screening constant of -Laplace + lambda */
  int           elements_per_block[2];  /* CUDA launch shape of gradient / apply; 0: the tuned table */
  int           elements_per_thread[2]; /* elements each CUDA thread works on (1, 2, 4, 8); 0: the tuned table */
  void         *stream;                 /* CUDA stream (cudaStream_t) the kernels run on; NULL: default */
} IPDGKernelData;

/* Algorithm 1: grad u on all Klocal elements. u, gx, gy are local arrays [Klocal*Np]. */
void IPDGGradientHost(const IPDGKernelData *d, const double *u, double *gx, double *gy);

/* Algorithm 2 / eq. (28): Au on the K owned elements.
 * u, gx, gy: local arrays [Klocal*Np]; Au: [K*Np].
 * bc_data: NULL for the homogeneous operator; otherwise [K*Nfaces*Nfp] Dirichlet values g
 * (on Dirichlet faces) and Neumann data n.grad u (on Neumann faces) at face nodes, which then
 * enter as exterior states u+ = 2g - u-, n.grad u+ = 2h - n.grad u-. */
void IPDGApplyHost(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au);

/* Diagonal of A on the owned elements: diag[K*Np], from the reference tables d->diag_tables. */
void IPDGDiagonalHost(const IPDGKernelData *d, double *diag);
int  IPDGDiagonalTablesSize(int Np, int Nfaces, int Nfp);

/* CUDA twins (cuda/ipdg.cu): same data, device pointers throughout. Return 0 or a cudaError_t. */
int IPDGGradientCUDA(const IPDGKernelData *d, const double *u, double *gx, double *gy);
int IPDGApplyCUDA(const IPDGKernelData *d, const double *u, const double *gx, const double *gy, const double *bc_data, double *Au);
int IPDGDiagonalCUDA(const IPDGKernelData *d, double *diag);
/* The tuned launch shape (cuda/ipdg.cu) of kernel 0 (gradient) or 1 (apply): thread rows per block
 * (each a group of element nodes) and elements per thread. */
int IPDGElementsPerBlock(int kernel, int Nfaces, int N);
int IPDGElementsPerThread(int kernel, int Nfaces, int N);

/* Element-wise DG kernels: mass and inverse mass, cubature integrals against the basis
 * (right-hand sides) and squared L2 errors. Arrays are over owned elements: [K*Np] or [K*Nq]. */
typedef struct {
  int           N, Np, Nq, Nfaces, K;
  const int    *elem_cell; /* [K] */
  const double *geo;       /* [Klocal*HOFLOW_GEO_SIZE], J used */
  const double *M, *Minv;  /* [Np*Np] reference mass matrix and inverse */
  const double *Iq, *wq;   /* [Nq*Np] interpolation to cubature points, [Nq] weights */
  void         *stream;    /* CUDA stream; NULL: default */
} DGKernelData;

void DGMassHost(const DGKernelData *d, int inverse, const double *u, double *Mu);
void DGWeightedIntegralHost(const DGKernelData *d, const double *fq, double *b);               /* b += (l_i, f) */
void DGErrorHost(const DGKernelData *d, const double *u, const double *exact_q, double *err2); /* err2[K] */
int  DGMassCUDA(const DGKernelData *d, int inverse, const double *u, double *Mu);
int  DGWeightedIntegralCUDA(const DGKernelData *d, const double *fq, double *b);
int  DGErrorCUDA(const DGKernelData *d, const double *u, const double *exact_q, double *err2);

/* Element-wise dense blocks: out[e*m + i] = sum_j A[i*n + j] in[e*n + j] for the K elements
 * (p-multigrid prolongation A = interpolation, restriction A = its transpose). */
void DGBlockApplyHost(int K, int m, int n, const double *A, const double *in, double *out);
int  DGBlockApplyCUDA(int K, int m, int n, const double *A, const double *in, double *out, void *stream);

/* Device memory and timing helpers (cuda/device.cu), so host C code needs no CUDA headers. */
int         HoflowDeviceMalloc(void **ptr, size_t bytes);
int         HoflowDeviceUpload(void **ptr, const void *host, size_t bytes);                   /* allocate and copy */
int         HoflowDeviceDownload(void *host, const void *device, size_t bytes, void *stream); /* ordered after the stream's work */
int         HoflowDeviceFree(void *ptr);
int         HoflowDeviceSynchronize(void);
const char *HoflowDeviceErrorString(int err);
int         HoflowDeviceMemoryUsed(size_t *bytes); /* device memory in use (all processes): total - free */
/* Name, multiprocessor count and SM clock of the current device (for the shared-memory bound). */
int HoflowDeviceProperties(char *name, int len, int *multiprocessors, double *clock_ghz);

/* Bytes a kernel must move through device memory per element (each input read once, each output
 * written once): the denominator of the empirical roofline (seed 000 §5.1). */
double IPDGGradientBytesPerElement(int Np);
double IPDGApplyBytesPerElement(int Np, int Nfaces, int Nfp);

/* Floating-point operations of one gradient / one apply, per element (for log events). */
double IPDGGradientFlopsPerElement(int Np);
double IPDGApplyFlopsPerElement(int Np, int Nfaces, int Nfp);
double IPDGDiagonalFlopsPerElement(int Np, int Nfaces, int Nfp);

#ifdef __cplusplus
}
#endif
