/* Incompressible flow on continuous spectral elements (-disc sem, issue 18, seed 001 §4.2): the
 * operators of the velocity-correction scheme (-ts_type velcorr) on an equal-order pair, Q_N velocity
 * (a SEMDisc of dim interlaced components) and Q_N pressure (a scalar SEMDisc on the same mesh and
 * order), host kernels in src/kernels/sem_flow.c (hoflow/kernels/sem_flow.h).
 *
 * The convection N(u) = -(u.grad) u is taken in weak form and divided by the diagonal GLL mass (the
 * nodal values of a continuous field): collocated at the GLL nodes by default (the nodes are the
 * quadrature points, as for every other SEM operator: exact for the smooth solutions of the tests
 * and spectrally accurate), or over-integrated with the 3/2 rule (Nq = 3N/2 + 1 Gauss points a direction,
 * -sem_ns_dealias): exact for u.grad u.v on affine elements, the cure for aliasing in under-resolved
 * flows, at about (Nq/N1)^dim times the cost.
 *
 * Every operation runs on the backend of its vectors (OpShell, hoflow/opshell.h): host kernels for host
 * vectors, their CUDA twins (cuda/sem_flow.cu) for CUDA vectors, the kernel data uploaded at the first
 * device call. Where the local layout is the global one (one rank) the kernels read and add into the
 * global arrays without an exchange, as the elliptic operator does. */
#pragma once

#include <hoflow/opshell.h>
#include <hoflow/sem.h>
#include <hoflow/kernels/sem_flow.h>

typedef struct {
  SEMDisc          *u, *p;
  SEMFlowKernelData kd, kd_device; /* host arrays; the same with device arrays (uploaded at the first device call) */
  PetscReal        *g, *B, *DB, *BT, *gq, *wJq;
  OpShell           shell_u, shell_p; /* backend, local work vectors of the velocity (slots 0-2) and pressure (slot 0) layouts */
  Vec               elem[2];          /* the enstrophy of each owned element, host [0] and device [1] (created on first use) */
} SEMFlow;

/* The operators of velocity u (dim components) and pressure p (1 component, same mesh and order);
 * dealias: over-integrate the convection. */
PETSC_EXTERN PetscErrorCode SEMFlowCreate(SEMDisc *u, SEMDisc *p, PetscBool dealias, SEMFlow **flow);
PETSC_EXTERN PetscErrorCode SEMFlowDestroy(SEMFlow **flow);
/* Nu = -M^-1 C(u): the nodal values of -(u.grad) u (global vectors of the velocity). */
PETSC_EXTERN PetscErrorCode SEMFlowConvection(SEMFlow *flow, Vec u, Vec Nu);
/* b = (F - nu curl curl ustar, grad phi_i), a global pressure vector. */
PETSC_EXTERN PetscErrorCode SEMFlowPressureRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec ustar, Vec b);
/* b = (F - grad p, phi_i) / nu (collocated), a global velocity vector. */
PETSC_EXTERN PetscErrorCode SEMFlowVelocityRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec p, Vec b);
/* div = (div u, phi_i) (collocated), a global pressure vector. */
PETSC_EXTERN PetscErrorCode SEMFlowDivergence(SEMFlow *flow, Vec u, Vec div);
/* integral = int |curl u|^2 dx over the mesh (collocated at the GLL nodes of every element; the vorticity taken
 * element by element), summed on the backend of u: one scalar comes back. */
PETSC_EXTERN PetscErrorCode SEMFlowEnstrophy(SEMFlow *flow, Vec u, PetscReal *integral);
