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
#include <hoflow/kernels/fr.h>
#include <hoflow/kernels/fr_dense.h>

PETSC_EXTERN PetscErrorCode DiscCreate_FR(Disc disc);
/* -disc fr on meshes with simplices or prisms (dense operators, disc/fr_dense.c), chosen by DiscCreate_FR with its
 * options: the correction's name, or c itself (c_given), and the CUDA kernels' elements a thread block (0: by order) */
PETSC_EXTERN PetscErrorCode DiscCreate_FRDense(Disc disc, FRCorrection correction, PetscReal c, PetscBool c_given, PetscInt elements_per_block);
/* Navier–Stokes with -disc fr (tensor and dense alike, disc/fr_viscous.c): ldg from the physics' viscosity law and
 * the options -fr_viscous_beta, -fr_viscous_tau (hoflow/pointwise/ldg.h), dt_scale 2N + 1; refused on several ranks
 * (the corrected gradients of halo elements are not exchanged) */
PETSC_EXTERN PetscErrorCode FRViscousSetUp(Disc disc, const NSViscosity *vis, NSLDG *ldg);
/* 1/h = |F| / min(|E-|, |E+|) of face f of owned element e (the penalty's length scale; the same from both sides) */
PETSC_EXTERN PetscReal FRViscousFaceScale(const Mesh *mesh, PetscInt e, PetscInt f);
/* For tests of the kernels (tests/unit/test_fr_kernels.c): the kernel data of -disc fr on the host and on the
 * device (NULL before the first device call), and the element sizes h [K] of the wave speeds on both. */
/* The same for -disc fr with dense operators (tests/unit/test_fr_dense_kernels.c): nblocks kernel data, one a mesh
 * block, on the host and the device (NULL before the first device call), and the element sizes h [K]. */
PETSC_EXTERN PetscErrorCode FRDenseGetKernelData(Disc disc, PetscInt *nblocks, const FRDenseKernelData **host, const FRDenseKernelData **device, const PetscReal **h, const PetscReal **h_device);
/* The mean kinetic energy (1/|Omega|) int rho |v|^2 / 2 of a compressible state by vector operations of its type (device
 * reductions on CUDA vectors; disc/fr_kinetic.c); -disc fr on quadrilaterals and hexahedra */
PETSC_EXTERN PetscErrorCode FRKineticEnergy(Disc disc, Vec u, PetscReal *energy);
/* ... and the enstrophy (1/|Omega|) int rho |omega|^2 / 2 of the 3D Navier-Stokes equations, from the corrected gradients
 * of a right-hand side at u (ConsLawRHS into a work vector) */
PETSC_EXTERN PetscErrorCode FREnstrophy(ConsLaw cl, Vec u, PetscReal *enstrophy);
PETSC_EXTERN PetscErrorCode FRGetKernelData(Disc disc, const FRKernelData **host, const FRKernelData **device, const PetscReal **h, const PetscReal **h_device);
