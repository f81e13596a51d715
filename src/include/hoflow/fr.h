/* hoflow flux reconstruction (-disc fr, issue 17, seed 003 §II): Huynh's FR with the Vincent–Castonguay–
 * Jameson–Huynh (VCJH) correction functions, on quadrilaterals and hexahedra (tensor products of the 1D
 * scheme), for the Euler equations through the conservation-law table (hoflow/conslaw.h).
 *
 * Element e stores its nv components at the (N+1)^dim solution points, the tensor product of the N+1
 * Gauss–Legendre points x_i, component-major: u[k*Np + i], i = i_0 + (N+1)(i_1 + (N+1) i_2) (i_0 along r).
 * The flux points of a face are the ends of the solution-point lines that cross it, so they lie at the
 * same 1D points on the face. In reference coordinates (affine elements: J and G = dr/dx constant)
 *
 *   du_i/dt = -(1/J) [ sum_d d/dr_d Fh_d (r_i) + sum_faces (Fh^I - Fh^D) g'(r_i along the face's direction) ]
 *
 * with Fh_d = J sum_j G_jd F_j (the transformed flux), Fh^D the discontinuous transformed flux interpolated
 * to the flux point, Fh^I = s J |grad r_d| F*(u-, u+, n) the common one (s = +-1 the face's side, n = s
 * grad r_d / |grad r_d| the outward normal, F* the numerical flux of hoflow/pointwise/euler.h), and g = g_R
 * (s = +1) or g_L (s = -1) the 1D correction functions. */
#pragma once

#include <hoflow/conslaw.h>
#include <hoflow/opshell.h>

/* The 1D VCJH correction functions (Vincent, Castonguay & Jameson 2011, J Sci Comput 47:50-72; Huynh 2007):
 *   g_L = (-1)^N / 2 [ P_N - (eta_N P_{N-1} + P_{N+1}) / (1 + eta_N) ],   g_R(x) = g_L(-x),
 *   eta_N = c (2N+1) (a_N N!)^2 / 2,   a_N = (2N)! / (2^N (N!)^2),
 * P_k the Legendre polynomials. g_L(-1) = 1, g_L(1) = 0, and for every l of degree <= N
 *   int_{-1}^{1} g_L l' dx = c l^(N) g_L^(N+1)   (the VCJH condition; likewise g_R).
 * c = 0 gives the nodal DG scheme (g_L the right Radau polynomial), c_SD the spectral difference
 * scheme (eta_N = N/(N+1)), c_HU Huynh's g_2 (eta_N = (N+1)/N), c_+ the largest explicit step (tabulated). */
typedef enum {
  FR_CORRECTION_DG,
  FR_CORRECTION_SD,
  FR_CORRECTION_HU,
  FR_CORRECTION_PLUS
} FRCorrection;
PETSC_EXTERN const char *const FRCorrections[];
/* c of a scheme at order N (c_+: N = 1..FR_CPLUS_NMAX) */
#define FR_CPLUS_NMAX 6
PETSC_EXTERN PetscErrorCode VCJHParameter(FRCorrection type, PetscInt N, PetscReal *c);
/* g_L and its derivative at n points x (g or dg may be NULL); g_R(x) = g_L(-x), g_R'(x) = -g_L'(-x) */
PETSC_EXTERN PetscErrorCode VCJHCorrectionLeft(PetscInt N, PetscReal c, PetscInt n, const PetscReal x[], PetscReal g[], PetscReal dg[]);
/* The k-th derivative of the Legendre polynomial P_n (P_n(1) = 1) at x. */
PETSC_EXTERN PetscReal LegendreDerivative(PetscReal x, PetscInt n, PetscInt k);

PETSC_EXTERN PetscErrorCode DiscCreate_FR(Disc disc);
