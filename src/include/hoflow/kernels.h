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

/* One iteration's vector work of the Chebyshev/Jacobi smoother (solver/chebyjacobi.c), entry-wise
 * over n entries (Saad, Iterative Methods, Alg. 12.1, with w = A x or A d computed before):
 *   mode 0 (first, zero guess)     r = b,      d = c dinv r,          x = d
 *   mode 1 (first, nonzero guess)  r = b - w,  d = c dinv r,          x = x + d
 *   mode 2 (further iterations)    r = r - w,  d = a d + c dinv r,    x = x + d
 * (b is read in modes 0 and 1, w in modes 1 and 2; the others may be NULL). */
void ChebyshevUpdateHost(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x);
int  ChebyshevUpdateCUDA(int n, int mode, double a, double c, const double *b, const double *w, const double *dinv, double *r, double *d, double *x, void *stream);

/* ---- incompressible flow operators (seed 000 §2.1, §5.3): ins_kernels.c, cuda/ins.cu ----
 * Two velocity components and the pressure are separate DG fields with the nodal layout above.
 * Boundary faces carry the velocity's type: HOFLOW_FACE_DIRICHLET (inflow, walls: u = g) or
 * HOFLOW_FACE_NEUMANN (outflow: nu du/dn = p n, the pressure given there). Boundary data come as
 * a spatial part times a time factor (g(x) tau(t)), so a time step needs scalars only. */
#define HOFLOW_NCUB_MAX (((3 * HOFLOW_NMAX) / 2 + 1) * ((3 * HOFLOW_NMAX) / 2 + 1)) /* volume cubature points */
#define HOFLOW_NFQ_MAX ((3 * HOFLOW_NMAX) / 2 + 1)                                  /* face cubature points */
typedef struct {
  int           N, Np, Nfp, Nfaces, K, Klocal;
  int           Nc;         /* volume cubature points, exact to degree 3N (the advective flux u u times a test gradient) */
  int           Nfq;        /* Gauss points per face, exact to degree 3N */
  const int    *elem_cell;  /* [K] */
  const double *geo;        /* [Klocal*HOFLOW_GEO_SIZE] */
  const double *sgeo;       /* [K*Nfaces*HOFLOW_SGEO_SIZE] */
  const int    *face_type;  /* [K*Nfaces] the velocity's HOFLOW_FACE_* */
  const int    *vmapP;      /* [K*Nfaces*Nfp] */
  const int    *face_nodes; /* [Nfaces*Nfp] */
  const double *Dr, *Ds;    /* [Np*Np] nodal derivative matrices */
  const double *LIFT;       /* [Np*Nfaces*Nfp] */
  const double *Minv;       /* [Np*Np] reference inverse mass */
  const double *Ic;         /* [Nc*Np] interpolation from the nodes to the volume cubature */
  const double *DrW, *DsW;  /* [Np*Nc] w_q dl_i/dr(x_q), w_q dl_i/ds(x_q) */
  const double *If;         /* [Nfq*Nfp] interpolation from a face's nodes to its Gauss points */
  const double *LIFTf;      /* [Nfp*Nfq] w_q l_a(xi_q): face Gauss points onto the face nodes */
  const double *bcq;        /* [2][K*Nfaces*Nfq] velocity data u, v at face Gauss points of every boundary face (spatial part) */
  const double *bcn;        /* [3][K*Nfaces*Nfp] at face nodes (spatial parts): for u and v the SIPDG data (g on Dirichlet
                               faces, n.grad u on outflow faces), for p its value on outflow faces */
  /* column-major copies of the matrices above for the CUDA kernels (A^T[j*rows + i] = A[i*cols + j]),
   * made once when the operators first run on the device; NULL on the host */
  const double *IcT, *DrWT, *DsWT, *MinvT, *IfT, *LIFTfT, *DrT, *DsT, *LIFTT;
  void         *stream; /* CUDA stream; NULL: default */
} INSKernelData;

/* Advection in divergence form with cubature (seed 000 eqs. 8, 9, 21, 34):
 *   out_k = M^{-1} [ -(grad l_i, a c_k) + <l_i, n.F*_k> ],  k = 0, 1,
 *   n.F*_k = ({{(n.a) c_k}}) + Lambda/2 (c_k^- - c_k^+),  Lambda = lambda_scale max(|n.a^-|, |n.a^+|),
 * advected components c (local arrays [Klocal*Np]) carried by the velocity a (local arrays); on
 * Dirichlet faces a^+ = c^+ = bc_scale g, on outflow faces the exterior is the interior. N(u) is
 * (on outflow faces where the flow enters, the exterior is the velocity data too: bcq holds it on
 * every boundary face). N(u) is a = c = u with lambda_scale 2 (the eigenvalues of the flux Jacobian of u (x) u are n.u and 2 n.u);
 * the subcycling operator N~(a, c) has lambda_scale 1. out: owned elements [K*Np]. */
void INSAdvectionHost(const INSKernelData *d, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1);
/* G p = grad p + LIFT (sJ/J) n (p* - p^-) with central p* = {{p}}; on Dirichlet-velocity faces
 * p* = p^-, on outflow faces p* = bc_scale p_D (bcn) + trace_scale trace(ptrace) (ptrace may be
 * NULL). p: local [Klocal*Np]; ptrace: owned [K*Np]; gx, gy: [K*Np]. */
void INSGradientHost(const INSKernelData *d, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy);
/* D u = div u + LIFT (sJ/J) n.(u* - u^-), central u* = {{u}}; Dirichlet faces u* = bc_scale g,
 * outflow u* = u^-. u, v: local [Klocal*Np]; out [K*Np]. */
void INSDivergenceHost(const INSKernelData *d, const double *u, const double *v, double bc_scale, double *out);
/* Face data for a SIPDG solve, [K*Nfaces*Nfp]: on faces of type `type` (-1: every boundary face)
 * alpha * bcn[component] + beta * trace(x) (x owned [K*Np], may be NULL), zero elsewhere. */
void INSFaceDataHost(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
int  INSAdvectionCUDA(const INSKernelData *d, const double *au, const double *av, const double *c0, const double *c1, double lambda_scale, double bc_scale, double *out0, double *out1);
int  INSGradientCUDA(const INSKernelData *d, const double *p, const double *ptrace, double trace_scale, double bc_scale, double *gx, double *gy);
int  INSDivergenceCUDA(const INSKernelData *d, const double *u, const double *v, double bc_scale, double *out);
int  INSFaceDataCUDA(const INSKernelData *d, int type, int component, double alpha, double beta, const double *x, double *out);
/* Launch shape of the CUDA kernels (cuda/ins.cu) of kernel 0 (advection), 1 (gradient) or 2
 * (divergence): element groups per thread block and elements per thread. */
int INSElementsPerBlock(int kernel, int Nfaces, int N);
int INSElementsPerThread(int kernel, int Nfaces, int N);
/* Flops per element (log events) and bytes per element (roofline); the advection's bytes for
 * `fields` distinct input fields (4 for N~(a; c), 2 for N(u)). */
double INSAdvectionFlopsPerElement(int Np, int Nc, int Nfaces, int Nfp, int Nfq);
double INSAdvectionBytesPerElement(int Np, int Nfaces, int Nfp, int fields);
double INSGradientFlopsPerElement(int Np, int Nfaces, int Nfp);
double INSGradientBytesPerElement(int Np, int Nfaces, int Nfp);
double INSDivergenceFlopsPerElement(int Np, int Nfaces, int Nfp);
double INSDivergenceBytesPerElement(int Np, int Nfaces, int Nfp);

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
