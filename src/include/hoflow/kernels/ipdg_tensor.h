/* Sum-factorized (tensor-product) kernels of the SIPDG operator on quadrilaterals and hexahedra
 * (-ipdg_kernel tensor), for affine blocks (IPDGKernelData, hoflow/kernels/ipdg.h) and curved or
 * non-affine blocks (IPDGCurvedKernelData, hoflow/kernels/ipdg_curved.h). Same operator as the dense
 * kernels to round-off: nothing is re-discretized, every reference matrix is applied as its Kronecker
 * factors (ref.h: D[0] = I (x) D1, M = M1 (x) M1, ...), with N1 = N + 1 points a direction, so each
 * application costs O(N1^(dim+1)) instead of O(N1^(2 dim)).
 *
 * What is integrated (the same as the dense kernels):
 *  - affine: the exact mass M1 (x) M1 [(x) M1] of the GLL nodal basis, exact face mass matrices; not
 *    the diagonal GLL (collocation) mass, which would under-integrate and change the operator. The
 *    dense strong form of eq. (28) is rewritten in weak form with the exact summation-by-parts identity
 *    M D_a + D_a^T M = B_a (B_a the boundary mass of direction a), which removes the lift M^{-1} E:
 *      Au = sum_a D_a^T (J M q_a + E h_a) + lambda J M u - E [sJ ({n.grad u} + tau [[u]])]_faces,
 *      q_a = sum_x (dr_a/dx) grad_x u,  h_a = sJ/2 [[u]] sum_x (dr_a/dx) n_x  at the face nodes,
 *    E the face mass matrices (M1 [(x) M1] on each face's grid) embedded at the face nodes, the jumps as
 *    in the dense kernel ([[u]] = u^+ - u^-, mirror states on boundary faces, EllipticFaceJumps).
 *  - curved / non-affine: the tensor Gauss rule of N1 points a direction that the dense curved kernel
 *    uses (degree 2N+1), volume factors stored at its points (DGCurved vq); u and its reference
 *    derivatives are interpolated there with B1 and G1 in each direction and the transposes bring the
 *    fluxes back. The face terms are the dense curved kernel's (IPDGCurvedApplyElement with
 *    IPDG_CURVED_FACES), and its D^T R runs as tensor passes.
 *
 * Host kernels in src/kernels/ipdg_tensor.c (instantiated per (shape, N), loops with compile-time
 * bounds over contiguous lines so that the compiler vectorizes them), CUDA twins in
 * cuda/ipdg_tensor.cu (one thread block per element, a thread per GLL point, the 1D operators and the
 * element's fields in shared memory). No PETSc here. */
#pragma once

#include <hoflow/kernels/dg.h>
#include <hoflow/kernels/ipdg.h>
#include <hoflow/kernels/ipdg_curved.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Affine blocks: the same arguments and results as IPDGGradientHost / IPDGApplyHost. */
void IPDGTensorGradientHost(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
void IPDGTensorApplyHost(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
/* Curved blocks: the same as IPDGCurvedGradientHost / IPDGCurvedApplyHost. */
void IPDGCurvedTensorGradientHost(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
void IPDGCurvedTensorApplyHost(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
/* Whether the kernels are compiled for (shape, N): quadrilaterals and hexahedra, N = 1..HOFLOW_NMAX on
 * the host; the CUDA twins for the orders of the dense CUDA kernels (hexahedra up to 9). */
int IPDGTensorHostSupported(RefShape shape, int N);
int IPDGTensorCUDASupported(RefShape shape, int N);
/* -ipdg_kernel auto on CUDA: whether the sum-factorized kernels were measured faster than the dense
 * ones for dimension dim and order N (hexahedra N >= 2, quadrilaterals N >= 4, on an H100). */
int IPDGTensorCUDAPreferred(int dim, int N);

/* CUDA twins (cuda/ipdg_tensor.cu): device pointers throughout; 0 or a cudaError_t. */
int IPDGTensorGradientCUDA(const IPDGKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
int IPDGTensorApplyCUDA(const IPDGKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);
int IPDGCurvedTensorGradientCUDA(const IPDGCurvedKernelData *d, int halo, int e0, int e1, const double *u, double *gx, double *gy, double *gz);
int IPDGCurvedTensorApplyCUDA(const IPDGCurvedKernelData *d, int e0, int e1, const double *u, const double *gx, const double *gy, const double *gz, const double *bc_data, double *Au);

/* Mass and inverse mass of a DG block (hoflow/kernels/dg.h, kd->N1 > 0) by sum factorization: J M u or
 * M^-1 u / J on affine blocks; B^T diag(w J) B u on curved blocks (their inverse stays dense, DGCurvedMassHost).
 * Host (src/kernels/ipdg_tensor.c) and CUDA (cuda/ipdg_tensor.cu). */
void DGTensorMassHost(const DGKernelData *d, RefShape shape, int inverse, const double *u, double *Mu);
void DGCurvedTensorMassHost(const DGKernelData *d, RefShape shape, const double *u, double *Mu);
int  DGTensorMassCUDA(const DGKernelData *d, RefShape shape, int inverse, const double *u, double *Mu);
int  DGCurvedTensorMassCUDA(const DGKernelData *d, RefShape shape, const double *u, double *Mu);

/* Floating-point operations per element (log events and the benchmark): a 1D pass costs 2 N1^(dim+1). */
double IPDGTensorGradientFlopsPerElement(int dim, int N);
double IPDGTensorApplyFlopsPerElement(int dim, int N);

#ifdef __cplusplus
}
#endif
