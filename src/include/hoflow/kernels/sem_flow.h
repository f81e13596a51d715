/* Host kernels of incompressible flow on continuous spectral elements (-disc sem, issue 18, seed 001
 * §4.2): the convection term, the weak divergence of the pressure equation with the rotational
 * (curl curl) boundary term, and the weak right-hand side of the velocity's Helmholtz solve, element by
 * element by sum factorization (the 1D pass of hoflow/kernels/tensor.h), on local (ghosted) arrays.
 *
 * Fields: the velocity and vector fields of the velocity's section, dim components interlaced (node i
 * of element e, component c, at ugather[e*Np + i] + c); the pressure a scalar field of its own section
 * (pgather). Geometry at the GLL nodes: g[(e*Np + q)*dim*dim + j*dim + a] = dr_a/dx_j and wJ = w J
 * (the collocated weights). Derivatives are element-local: du/dx_j = sum_a (D_a u) dr_a/dx_j, D_a the
 * GLL derivative D1 along direction a.
 *
 *   convection (collocated):     C_i += wJ (u.grad u)(x_i)                   (N(u) = -M^-1 C)
 *   convection (over-integrated): C_i += sum_q B^T_iq wJ_q (u.grad u)(x_q), at the Nq^dim Gauss points
 *                                 x_q, u and grad u interpolated there (the 3/2 rule: Nq = 3N/2 + 1)
 *   pressure:  b_i += sum_a D_a^T [wJ sum_j (dr_a/dx_j) (F_j - nu (curl curl u*)_j)] = (F - nu curl curl u*, grad phi_i)
 *   velocity:  b_i += wJ (F - grad p)(x_i) / nu                              (= (F - grad p, phi_i) / nu)
 *   enstrophy: elem_e = sum_q wJ |curl u|^2 (x_q) over element e's nodes       (= int_e |omega|^2, collocated)
 *
 * CUDA twins (cuda/sem_flow.cu): the same struct with device pointers, one element a thread block, the
 * element's fields in shared memory and the 1D passes shared by the block's threads; the same operations in
 * the same order as the host's (nvcc contracts multiply-adds: equal to round-off, compared in tests/emu and
 * tests/unit/test_sem_flow.c). Shared dofs are added atomically.
 *
 * No PETSc here. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, N1, Np, K;
  const int    *ugather, *pgather; /* [K*Np] local dof of node i (velocity: component 0) */
  const double *D1, *D1T;          /* [N1*N1] */
  const double *g, *wJ;            /* [K*Np*dim*dim], [K*Np] */
  /* over-integration (Nq = 0: none): Nq Gauss points a direction, B and DB (Nq x N1) interpolate and
   * differentiate the GLL basis there, BT = B^T; gq, wJq the geometry at the Gauss points */
  int           Nq;
  const double *B, *DB, *BT;
  const double *gq, *wJq; /* [K*Nq^dim*dim*dim], [K*Nq^dim] */
} SEMFlowKernelData;

/* C[ugather + c] += the convection u.grad u of u (both velocity-layout local arrays). */
void SEMFlowConvectionHost(const SEMFlowKernelData *d, const double *u, double *C);
/* b[pgather] += (F - nu curl curl ustar, grad phi_i); F, ustar velocity-layout local arrays. */
void SEMFlowPressureRHSHost(const SEMFlowKernelData *d, double nu, const double *F, const double *ustar, double *b);
/* b[ugather + c] += wJ (F - grad p)_c / nu; p a pressure-layout local array. */
void SEMFlowVelocityRHSHost(const SEMFlowKernelData *d, double nu, const double *F, const double *p, double *b);
/* div[pgather] += wJ (div u)(x_i): the collocated divergence of u, for the divergence monitor. */
void SEMFlowDivergenceHost(const SEMFlowKernelData *d, const double *u, double *div);
/* elem[e] = sum_q wJ |curl u|^2 at element e's nodes (set, not added), e < K: the enstrophy integrand. */
void SEMFlowEnstrophyHost(const SEMFlowKernelData *d, const double *u, double *elem);

/* The CUDA twins (cuda/sem_flow.cu): device pointers in d and the arrays, on the cudaStream_t stream;
 * 0 or a cudaError_t (cudaErrorInvalidConfiguration where the element's fields do not fit the block's
 * shared memory, see SEMFlowCUDASharedBytes). */
int SEMFlowConvectionCUDA(const SEMFlowKernelData *d, const double *u, double *C, void *stream);
int SEMFlowPressureRHSCUDA(const SEMFlowKernelData *d, double nu, const double *F, const double *ustar, double *b, void *stream);
int SEMFlowVelocityRHSCUDA(const SEMFlowKernelData *d, double nu, const double *F, const double *p, double *b, void *stream);
int SEMFlowDivergenceCUDA(const SEMFlowKernelData *d, const double *u, double *div, void *stream);
int SEMFlowEnstrophyCUDA(const SEMFlowKernelData *d, const double *u, double *elem, void *stream);

#ifdef __cplusplus
}
#endif
