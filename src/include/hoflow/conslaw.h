/* hoflow conservation laws: what a physics of a system of conservation laws u_t + div F(u) = 0 (the
 * compressible Euler and Navier–Stokes equations, physics/euler.c) asks of a discretization, and what a
 * discretization of such a system (-disc mdg: disc/mdg_conslaw.c; -disc fr: disc/fr.c) fills in.
 *
 * A discretization that solves conservation laws gives its Disc a ConsLaw (DiscGetConsLaw): a table of
 * operations (ConsLawOps) and the data the physics reads (the boundary face points and their data rows,
 * the rows of every element in the state vector). The state is a vector of the Disc's DM; the physics
 * never sees how an element's values are stored (modes, solution points). What is the same for every
 * discretization is written once here (src/disc/conslaw.c, src/op/conslaw_jacobian.c): the wall forces
 * from the wall samples, the spreading of element values to their rows (local time steps), the element-wise
 * DM, and the colored finite-difference Jacobian of the right-hand side (implicit steps).
 *
 * The physics' constants: gamma and the numerical flux (EULER_FLUX_*, hoflow/pointwise/euler.h) and, for
 * Navier–Stokes, the viscosity law and the penalty of the viscous face terms. Boundary data: one row of
 * EULER_BC_DATA doubles per boundary face point (hoflow/pointwise/euler.h), filled by the physics from the
 * points' positions and types, then ConsLawUpdateBoundaryData. */
#pragma once

#include <hoflow/disc.h>
#include <hoflow/pointwise/navier_stokes.h>

/* A state function of position: u[nv] at x[dim]. */
typedef PetscErrorCode (*ConsLawStateFunction)(PetscInt dim, const PetscReal x[], PetscReal u[], void *ctx);

/* A wall sample (ConsLawWallSamples): one face point of a no-slip wall, CONSLAW_WALL_ROW doubles: */
#define CONSLAW_WALL_ROW 11 /* x[3], n[3] (out of the fluid), w sJ, p, the viscous force density on the wall -tau n [3] */

/* What a discretization of conservation laws implements (an entry left NULL: not provided; the calls
 * below name the operation and the -disc in their error). Vectors are global vectors of disc->dm. */
typedef struct {
  /* the physics' constants: gamma and the numerical flux (EULER_FLUX_*), before the first right-hand side */
  PetscErrorCode (*set_equations)(ConsLaw, PetscReal gamma, PetscInt flux);
  /* Navier–Stokes: the viscosity law and the penalty of the viscous face terms (BR2's eta), after set_equations */
  PetscErrorCode (*set_viscous)(ConsLaw, const NSViscosity *vis, PetscReal eta);
  /* what limit does: Barth–Jespersen (barth), then the positivity bounds (density and pressure >= eps);
   * sensor > 0: Barth–Jespersen only on troubled cells (Persson–Peraire's sensor, threshold sensor / N^4) */
  PetscErrorCode (*set_limiter)(ConsLaw, PetscBool barth, PetscBool positivity, PetscReal eps, PetscReal sensor);
  /* after the physics changed bc_point: refresh the discretization's copies (the device's) */
  PetscErrorCode (*update_boundary_data)(ConsLaw);
  /* f = the right-hand side M^{-1} R(u) of u_t = M^{-1} R(u), on u's backend (the halo exchange inside) */
  PetscErrorCode (*rhs)(ConsLaw, Vec u, Vec f);
  /* the largest (|v| + c) / h (+ the diffusive part) over the owned elements of every rank, and every owned
   * element's own in *element_speed (kept by the discretization, [K] on u's backend); a non-physical state
   * gives *speed < 0 and a DMPlex cell where it happens in *bad_cell (-1 if none on this rank) */
  PetscErrorCode (*max_wave_speed)(ConsLaw, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed);
  /* limit u in place (set_limiter); *nlimited elements limited (all ranks) */
  PetscErrorCode (*limit)(ConsLaw, Vec u, PetscInt *nlimited);
  /* u = the projection of f onto the discrete space (the initial state) */
  PetscErrorCode (*project)(ConsLaw, ConsLawStateFunction f, void *ctx, Vec u);
  /* err[k] = ||u_k - f_k|| in L1 (NORM_1) or L2 (NORM_2) for every component (f NULL: the norms of u) */
  PetscErrorCode (*error_norm)(ConsLaw, NormType type, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[]);
  /* total[k] = int u_k over the domain (conservation) */
  PetscErrorCode (*integrate)(ConsLaw, Vec u, PetscReal total[]);
  /* means[e*nv + k] = the mean of u_k over owned element e (host state) */
  PetscErrorCode (*element_means)(ConsLaw, Vec u, PetscReal means[]);
  /* w[(k*n + i)*nv + v] = u_v at reference point xi[i*dim] of the k-th owned element of mesh block b (host state;
   * output at another discretization's nodes) */
  PetscErrorCode (*evaluate)(ConsLaw, Vec u, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[]);
  /* the no-slip walls' face points on this rank, CONSLAW_WALL_ROW doubles each (PetscFree the rows); viscous runs */
  PetscErrorCode (*wall_samples)(ConsLaw, Vec u, PetscInt *nrows, PetscReal **rows);
  /* *energy = the discretization's own quadratic energy of u, summed over the components, all ranks (-disc fr: the
   * VCJH norm of Vincent et al. 2011, in which linear advection's energy does not grow); NULL: the L2 norm squared */
  PetscErrorCode (*energy)(ConsLaw, Vec u, PetscReal *energy);
} ConsLawOps;

struct _n_ConsLaw {
  Disc       disc;
  PetscInt   dim, nv, order;
  PetscReal  cfl_scale;   /* the explicit step is C / (cfl_scale max speed) at CFL number C (modal DG: 2N + 1) */
  PetscReal  velocity[3]; /* linear advection (flux EULER_FLUX_ADVECTION, nv = 1): the velocity a, set by the physics before set_equations */
  ConsLawOps ops;
  void      *data; /* the discretization's */
  /* boundary face points of owned elements (the discretization's; the physics fills bc_point) */
  PetscInt         nbpoints;
  const PetscReal *bx, *bn;  /* positions and unit outward normals [nbpoints*dim] */
  const PetscInt  *btype;    /* boundary types [nbpoints] (EULER_BC_*) */
  PetscReal       *bc_point; /* [nbpoints*EULER_BC_DATA] their data */
  const PetscInt  *elem_dof; /* [Klocal+1] the rows of local element l in a local vector: elem_dof[l] .. elem_dof[l+1]-1 */
  PetscInt         nlimited; /* elements limited by the last ConsLawLimit */
  VecScatter       spread;   /* ConsLawSpreadElementValues: element values to their rows (made once) */
};

/* The conservation-law interface of a discretization; an error naming `what` (the physics) for a discretization
 * of another kind. */
PETSC_EXTERN PetscErrorCode DiscGetConsLaw(Disc disc, const char what[], ConsLaw *cl);
/* For implementations: a ConsLaw for disc (its fields and ops to be filled), and its destruction (DiscDestroy). */
PETSC_EXTERN PetscErrorCode ConsLawCreate(Disc disc, ConsLaw *cl);
/* For implementations: the fields every discretization fills the same way (its data, the explicit step's scale
 * 2N + 1, the boundary face points and the element rows); the ops stay theirs. */
PETSC_EXTERN PetscErrorCode ConsLawSetLayout(ConsLaw cl, void *data, PetscInt N, PetscInt nbpoints, const PetscReal bx[], const PetscReal bn[], const PetscInt btype[], PetscReal bc_point[], const PetscInt elem_dof[]);
PETSC_EXTERN PetscErrorCode ConsLawDestroy(ConsLaw *cl);
/* For implementations: a clone of the mesh's DM whose section holds elem_dof[l+1] - elem_dof[l] values on local element
 * l ([Klocal+1]), stored in element order (owned elements first, as the global vector; halo elements after them). */
PETSC_EXTERN PetscErrorCode ConsLawCreateElementDM(Mesh *mesh, const PetscInt elem_dof[], DM *dm);

PETSC_EXTERN PetscErrorCode ConsLawSetEquations(ConsLaw cl, PetscReal gamma, PetscInt flux);
PETSC_EXTERN PetscErrorCode ConsLawSetViscous(ConsLaw cl, const NSViscosity *vis, PetscReal eta);
PETSC_EXTERN PetscErrorCode ConsLawSetLimiter(ConsLaw cl, PetscBool barth, PetscBool positivity, PetscReal eps, PetscReal sensor);
PETSC_EXTERN PetscErrorCode ConsLawUpdateBoundaryData(ConsLaw cl);
PETSC_EXTERN PetscErrorCode ConsLawRHS(ConsLaw cl, Vec u, Vec f);
/* element_speed may be NULL */
PETSC_EXTERN PetscErrorCode ConsLawMaxWaveSpeed(ConsLaw cl, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed);
/* For the discretizations' max_wave_speed: *v, one value per owned element (K of them) on u's backend, made at the
 * first call and made again when u's backend changed; then the reduction of the element speeds: the largest, or
 * -1 and the cell (elem_cell[e]) of the first element whose speed is negative (a non-physical state). */
PETSC_EXTERN PetscErrorCode ConsLawElementVector(Vec u, PetscInt K, Vec *v);
PETSC_EXTERN PetscErrorCode ConsLawElementSpeedsReduce(Vec speeds, const PetscInt elem_cell[], PetscReal *speed, PetscInt *bad_cell);
PETSC_EXTERN PetscErrorCode ConsLawLimit(ConsLaw cl, Vec u, PetscInt *nlimited);
PETSC_EXTERN PetscErrorCode ConsLawProject(ConsLaw cl, ConsLawStateFunction f, void *ctx, Vec u);
PETSC_EXTERN PetscErrorCode ConsLawErrorNorm(ConsLaw cl, NormType type, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[]);
PETSC_EXTERN PetscErrorCode ConsLawIntegrate(ConsLaw cl, Vec u, PetscReal total[]);
PETSC_EXTERN PetscErrorCode ConsLawElementMeans(ConsLaw cl, Vec u, PetscReal means[]);
PETSC_EXTERN PetscErrorCode ConsLawEvaluate(ConsLaw cl, Vec u, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[]);
PETSC_EXTERN PetscErrorCode ConsLawWallSamples(ConsLaw cl, Vec u, PetscInt *nrows, PetscReal **rows);
/* The discretization's energy of u (ops.energy), else sum_k ||u_k||_2^2 (error_norm); all ranks. */
PETSC_EXTERN PetscErrorCode ConsLawEnergy(ConsLaw cl, Vec u, PetscReal *energy);
/* The force of the fluid on the no-slip walls from the wall samples: pressure part Fp[dim] = int p n and
 * viscous part Fv[dim] = -int tau n (n out of the fluid); all ranks. */
PETSC_EXTERN PetscErrorCode ConsLawWallForces(ConsLaw cl, Vec u, PetscReal Fp[], PetscReal Fv[]);
/* rows = every owned element's value (element_values, [K], e.g. the element speeds of ConsLawMaxWaveSpeed) on
 * each of the element's rows (rows: a global vector of disc->dm); on the vectors' backend. */
PETSC_EXTERN PetscErrorCode ConsLawSpreadElementValues(ConsLaw cl, Vec element_values, Vec rows);

/* d(M^{-1} R)/du by colored finite differences of ConsLawRHS (op/conslaw_jacobian.c): the element-diagonal
 * blocks only (full false) or with the face neighbours' couplings; the preconditioning matrix of implicit
 * steps. Create makes the coloring and the preallocated matrix. */
typedef struct _n_ConsLawJacobian *ConsLawJacobian;
PETSC_EXTERN PetscErrorCode        ConsLawJacobianCreate(ConsLaw cl, PetscBool full, ConsLawJacobian *jac, Mat *P);
PETSC_EXTERN PetscErrorCode        ConsLawJacobianCompute(ConsLawJacobian jac, Vec u, Mat P);
PETSC_EXTERN PetscErrorCode        ConsLawJacobianDestroy(ConsLawJacobian *jac);
