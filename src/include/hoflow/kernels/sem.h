/* Host kernels of continuous spectral elements (-disc sem) on quadrilaterals and hexahedra: the
 * matrix-free -Laplace + lambda by sum factorization with the collocated GLL rule of N1 = N + 1 points
 * a direction (the nodes are the quadrature points), element by element on a local (ghosted) array:
 *
 *   (A u)_e = sum_a D_a^T t_a + lambda wJ u_e,   t_a = sum_b G_ab (D_b u_e),
 *
 * D_0 = I (x) [I (x)] D1 etc. (hoflow/ref.h), G_ab = w J sum_x (dr_a/dx)(dr_b/dx) and wJ = w J at the
 * element's GLL nodes (w the tensor GLL weights), so affine and curved elements take one code path. The
 * element's nodes are gathered from and scattered (added) to the local array through gather[e*Np + i]:
 * node i = i0 + N1 i1 [+ N1^2 i2] of element e is local dof gather[...]; local dofs marked in dirichlet
 * (when not NULL) are read as zero (the operator's identity Dirichlet columns). Written once for
 * dim = 2, 3 and instantiated per (shape, N) of hoflow/kernels/shapes.h (src/kernels/sem.c). The CUDA
 * twin (cuda/sem.cu) runs a thread per line of GLL points in the last direction (N1^(dim-1) threads an
 * element, several elements a block), the line's values in registers, the other directions through
 * one plane at a time in shared memory, and adds to shared dofs atomically; where every element of the
 * rank is affine it forms G_ab and wJ at the node from npair + 1 numbers per element (`affine`) and the
 * GLL weights w1, as the host's setup forms them, instead of reading them per node. No PETSc here. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, N, N1, Np, K; /* K elements */
  const int    *gather;            /* [K*Np] local dof of element node */
  const double *D1, *D1T;          /* [N1*N1] GLL derivative matrix and its transpose */
  const double *G;                 /* [K*Np*npair] G_ab for a <= b (SEMPair), npair = dim (dim + 1) / 2 */
  const double *wJ;                /* [K*Np] */
  double        lambda;
  const char   *dirichlet; /* [local dofs] 1: read as zero; NULL: none */
  /* the CUDA twin only: */
  const double *affine; /* [K*(npair + 1)] J and s_ab = (dr_a/dx).(dr_b/dx) (a <= b, SEMPair) of each element
                           where all are affine, G_ab = (w J) s_ab; NULL: G and wJ per node */
  const double *w1;     /* [N1] the 1D GLL weights (affine) */
} SEMKernelData;

/* The index of the symmetric pair (a, b), a <= b, in the rows a = 0..dim-1, b = a..dim-1. */
HOFLOW_HD int SEMPair(int a, int b, int dim)
{
  if (a > b) {
    const int t = a;
    a           = b;
    b           = t;
  }
  return a * dim - a * (a - 1) / 2 + (b - a);
}

/* Au[gather] += (A u)_e over the elements; u[gather] read. Both local arrays. */
void SEMApplyHost(const SEMKernelData *d, const double *u, double *Au);
/* diag[gather] += the diagonal of each element's matrix (matrix-free, O(Np N1 dim) per element). */
void SEMDiagonalHost(const SEMKernelData *d, double *diag);
/* Whether the apply kernel is compiled for this dimension and order: N = 1..HOFLOW_NMAX, host and CUDA. */
int SEMHostSupported(int dim, int N);
int SEMCUDASupported(int dim, int N);
/* CUDA twins (cuda/sem.cu), device pointers in d and the arrays, on the cudaStream_t stream; 0 or a
 * cudaError_t. SEMApplyCUDA: the apply of SEMApplyHost to the ncomp interlaced components of u
 * (component c of node i at gather[i] + c; the Dirichlet mask read at gather[i]) in one launch, as
 * SEMApplyHost(d, u + c, Au + c) for c < ncomp; SEMDiagonalCUDA: SEMDiagonalHost(d, diag + c) for c < ncomp.
 * SEMCopyRowsCUDA: y[rows[k]] = x[rows[k]] for k < n (x NULL: 1). */
int SEMApplyCUDA(const SEMKernelData *d, int ncomp, const double *u, double *Au, void *stream);
int SEMDiagonalCUDA(const SEMKernelData *d, int ncomp, double *diag, void *stream);
int SEMCopyRowsCUDA(int n, const int *rows, const double *x, double *y, void *stream);
/* out = (A[dim-1] (x) ... (x) A[0]) in: an element array of n_in^dim values to n_out^dim values, the
 * 1D matrix A[d] (n_out x n_in, row-major) along direction d (the first fastest); dimension-generic,
 * for rectangular operators (GLL nodes to Gauss points and back); work holds 2 max(n_in, n_out)^dim
 * doubles. */
void SEMTensorApply(int dim, int n_in, int n_out, const double *const A[], const double *in, double *out, double *work);
/* The same with one matrix B in every direction. */
void SEMTensorInterpolate(int dim, int n_in, int n_out, const double *B, const double *in, double *out, double *work);
/* Floating-point operations of one element application. */
double SEMApplyFlopsPerElement(int dim, int N);

#ifdef __cplusplus
}
#endif
