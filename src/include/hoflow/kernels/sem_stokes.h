/* Kernels of the spectral-element Stokes coupling (hoflow/sem.h: SEMPressure, op/sem_stokes.c): the
 * divergence B from the Q_N velocity (dim interlaced components on its GLL nodes) to the pressure of the
 * pair, its transpose the gradient G = B^T, and the consistent Taylor-Hood pressure mass, each element by
 * element with the pair's Gauss rule of Ng points a direction:
 *
 *   (B u)_i = sum_q l_i(x_q) t_q,   t_q = w_q J_q sum_j sum_a g_ja(x_q) (D~_a u_j)(x_q),
 *   (G p)_j = sum_a D~_a^T (g_ja w J p(x_q)),        (M_c p)_i = sum_q l_i(x_q) w_q J_q p(x_q),
 *
 * D~_a the velocity's GLL basis differentiated along a and interpolated along the other directions at
 * the Gauss points (Dgl along a, Bgl elsewhere: Ng x N1), g_ja = dr_a/dx_j (hoflow/geom.h layout
 * g[j*dim + a]), l_i the pressure basis: the Q_{N-1} GLL basis for Taylor-Hood (Bpq, Ng x Np1, Ng = N1,
 * Np1 = N; the pressure's continuous gather `pgather`), the identity for qn_qn2 (Ng = Np1 = N - 1, the
 * element's values at `poffset[e]`, discontinuous). Velocity dofs marked in `dirichlet` are left out:
 * read as zero by B, not written by G. The host kernels (src/kernels/sem_stokes.c) are the reference; the
 * CUDA twins (cuda/sem_stokes.cu) take the same struct with device pointers, one element per thread slot
 * of N1^2 threads (several elements a block at low order), every tensor pass through shared memory, and
 * add shared dofs atomically; where every element of the rank is affine they form w_q J and g from
 * 1 + dim^2 numbers an element (`affine`) and the Gauss weights, as the host setup forms them. No PETSc. */
#pragma once

#include <hoflow/kernels/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, N1, Ng, Np1, Np, Npp, Npe, K; /* velocity nodes a direction, Gauss points a direction, pressure nodes a direction; per element: N1^dim, Ng^dim, Np1^dim */
  const int    *gather;                            /* [K*Np] velocity local dof of element node (component 0; dim components interlaced) */
  const int    *pgather;                           /* Taylor-Hood: [K*Npe] pressure local dof of element node; NULL for qn_qn2 */
  const int    *poffset;                           /* qn_qn2: [K] local offset of the element's Npp pressure values; NULL for Taylor-Hood */
  const double *Bgl, *Dgl, *BglT, *DglT;           /* [Ng*N1] the velocity basis and its derivative at the Gauss points; transposes [N1*Ng] */
  const double *Bpq, *BpqT;                        /* Taylor-Hood: [Ng*Np1] the pressure basis at the Gauss points, [Np1*Ng]; NULL for qn_qn2 */
  const double *wJ, *g;                            /* [K*Npp] w_q J_q, [K*Npp*dim*dim] g[j*dim + a] = dr_a/dx_j */
  const char   *dirichlet;                         /* [velocity local dofs] left out; NULL: none */
  /* the CUDA twin only: */
  const double *affine; /* [K*(1 + dim*dim)] J and g of each element where all are affine (wJ = w_q J); NULL: wJ and g per point */
  const double *wg;     /* [Ng] the Gauss weights (affine) */
} SEMStokesKernelData;

/* Doubles of work the host kernels need. */
int SEMStokesWorkSize(const SEMStokesKernelData *d);
/* p += B u (Taylor-Hood: added through pgather; qn_qn2: to the element's own values), u and p local arrays. */
void SEMDivergenceHost(const SEMStokesKernelData *d, const double *u, double *p, double *work);
/* u += G p = B^T p (Dirichlet velocity dofs untouched). */
void SEMGradientHost(const SEMStokesKernelData *d, const double *p, double *u, double *work);
/* y += M_c p, the consistent Taylor-Hood pressure mass. */
void SEMPressureMassHost(const SEMStokesKernelData *d, const double *p, double *y, double *work);
/* Whether the CUDA kernels are compiled for this dimension, velocity order and pair (qn_qn2: Ng = N - 1). */
int SEMStokesCUDASupported(int dim, int N, int taylor_hood);
/* CUDA twins (cuda/sem_stokes.cu) on the cudaStream_t stream; 0 or a cudaError_t. */
int SEMDivergenceCUDA(const SEMStokesKernelData *d, const double *u, double *p, void *stream);
int SEMGradientCUDA(const SEMStokesKernelData *d, const double *p, double *u, void *stream);
int SEMPressureMassCUDA(const SEMStokesKernelData *d, const double *p, double *y, void *stream);

#ifdef __cplusplus
}
#endif
