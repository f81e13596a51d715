/* hoflow time integrators registered with PETSc (src/ts/): -ts_type insplit, the BDF/EXT algebraic
 * splitting of incompressible flow with semi-Lagrangian (OIFS) subcycling (seed 000 eqs. 16-21),
 * and the low-storage Runge–Kutta scheme LSERK4 (Carpenter & Kennedy, 5 stages, order 4) as a
 * TSRK tableau (-ts_rk_type lserk4) used for the subcycles. */
#pragma once

#include <petscts.h>

#define TSINSPLIT "insplit"
#define TSRKLSERK4 "lserk4"

/* The operators the splitting scheme composes, supplied by the physics. The velocity's dim
 * components (dim = 2 or 3) and the pressure p are DG global vectors; the TS solution is the VecNest
 * (u, v, p) or (u, v, w, p). Arrays of components have dim entries. Boundary data are those at time t. */
typedef struct {
  void     *ctx;
  PetscReal nu;             /* kinematic viscosity */
  PetscReal velocity_scale; /* a reference speed: a step whose |u| exceeds -ins_divergence_factor times it has diverged */
  /* out = N~(a; c): advection of the components c by the velocity a (lambda_scale 2: the nonlinear term N(u) with a = c) */
  PetscErrorCode (*advection)(void *ctx, PetscReal t, const Vec a[], const Vec c[], PetscReal lambda_scale, const Vec out[]);
  /* optional: out = N~(a; c) of the subcycles, a = sum_j w[j] a_j of the n past velocities hist[j dim + comp],
   * unchanged within a step (the operators may keep their halos); NULL: insplit forms a and calls advection */
  PetscErrorCode (*advection_extrapolated)(void *ctx, PetscReal t, PetscInt n, const Vec hist[], const PetscReal w[], const Vec c[], const Vec out[]);
  /* x = (-L + lambda M)^{-1} (b + boundary terms) for velocity component comp (0: u, 1: v, 2: w); x holds
   * the initial guess; *its the Krylov iterations */
  PetscErrorCode (*velocity_solve)(void *ctx, PetscReal t, PetscReal lambda, PetscInt comp, Vec b, Vec x, PetscInt *its);
  /* phi = (-L)^{-1} (b + boundary terms of the increment p(t) - pstar) */
  PetscErrorCode (*pressure_solve)(void *ctx, PetscReal t, Vec pstar, Vec b, Vec phi, PetscInt *its);
  /* g = G p of the extrapolated pressure (pstar NULL), or of the increment p = phi relative to pstar */
  PetscErrorCode (*gradient)(void *ctx, PetscReal t, Vec p, Vec pstar, const Vec g[]);
  /* div = D u */
  PetscErrorCode (*divergence)(void *ctx, PetscReal t, const Vec u[], Vec div);
  /* Mx = M x (the DG mass matrix) */
  PetscErrorCode (*mass)(void *ctx, Vec x, Vec Mx);
  /* body force f at time t, nodal values; NULL: none */
  PetscErrorCode (*forcing)(void *ctx, PetscReal t, const Vec f[]);
} TSInsplitOps;

/* Time integrators whose state between steps is more than the solution expose it under this
 * composed function name, so a checkpoint saves it:
 *   PetscErrorCode fn(TS ts, PetscInt *n, const char ***names, Vec **vecs)  (arrays owned by the TS) */
#define HOFLOW_TS_GET_HISTORY "HoflowTSGetHistory_C"
typedef PetscErrorCode (*HoflowTSGetHistoryFunction)(TS, PetscInt *, const char ***, Vec **);
/* ... and, on a restart, once the history is read back, are told the step size it was taken at, so that a restart
 * with another -ts_dt starts the history again instead of combining levels of the old spacing:
 *   PetscErrorCode fn(TS ts, PetscReal dt) */
#define HOFLOW_TS_SET_HISTORY_STEP "HoflowTSSetHistoryStep_C"
typedef PetscErrorCode (*HoflowTSSetHistoryStepFunction)(TS, PetscReal);

PETSC_EXTERN PetscErrorCode TSInsplitSetOps(TS ts, const TSInsplitOps *ops);
/* Supply the past levels (velocity and pressure at t - dt, t - 2 dt, ...) before the first step, so
 * that the scheme runs at full order from the start instead of the lower-order start-up (for
 * convergence studies with an exact solution). fill(ctx, t, u, p) sets the state (u[dim], p) at time t. */
PETSC_EXTERN PetscErrorCode TSInsplitSetHistory(TS ts, PetscErrorCode (*fill)(void *ctx, PetscReal t, const Vec u[], Vec p), void *ctx);
/* Why the last step was rejected (empty when it was not). */
PETSC_EXTERN PetscErrorCode TSInsplitGetFailure(TS ts, const char **message);
/* BDF (gamma, beta[3]) and extrapolation (alpha[3]) coefficients of order S = 1, 2, 3 of the BDF/EXT
 * schemes (insplit and velcorr share them): gamma u^{n+1} - sum_i beta_i u^{n-i} = dt (...), and
 * f^{n+1} ~ sum_i alpha_i f^{n-i}. */
PETSC_EXTERN void HoflowBDFEXTCoefficients(PetscInt S, PetscReal *gamma, PetscReal beta[], PetscReal alpha[]);
/* t + dt, snapped to the multiple k dt it is within round-off of: times on the grid do not drift
 * over many steps, and a restarted run (whose time comes from the checkpoint) repeats them bit for bit. */
PETSC_EXTERN PetscReal HoflowTSNextTime(PetscReal t, PetscReal dt);

/* -ts_type velcorr (src/ts/velcorr.c): the velocity-correction projection of seed 001 §4.2
 * (Karniadakis, Israeli & Orszag 1991; Guermond & Shen 2003, rotational form), BDF-k / EXT-k, k = 1..3
 * (-velcorr_order). The solution is the VecNest (u, p): the velocity (dim interlaced components) and an
 * equal-order pressure. The physics supplies the spatial operators; vectors of the velocity's layout. */
#define TSVELCORR "velcorr"
typedef struct {
  void     *ctx;
  PetscReal nu;             /* kinematic viscosity */
  PetscReal velocity_scale; /* a step whose |u| exceeds -velcorr_divergence_factor times it has diverged */
  /* Nu = N(u) = -(u.grad) u, nodal values */
  PetscErrorCode (*convection)(void *ctx, PetscReal t, Vec u, Vec Nu);
  /* f = the body force at t, nodal values (NULL: none) */
  PetscErrorCode (*forcing)(void *ctx, PetscReal t, Vec f);
  /* p: (grad p, grad q) = (F - nu curl curl ustar, grad q) - (gamma/dt) <n.u_D(t), q> (p holds the initial guess) */
  PetscErrorCode (*pressure_solve)(void *ctx, PetscReal t, PetscReal gamma_dt, Vec F, Vec ustar, Vec p, PetscInt *its);
  /* u: (-Laplace + lambda) u = (F - grad p) / nu, u = u_D(t) on Dirichlet faces (u holds the initial guess) */
  PetscErrorCode (*velocity_solve)(void *ctx, PetscReal t, PetscReal lambda, Vec F, Vec p, Vec u, PetscInt *its);
  /* the KSPs of the two solves (NULL: none): velcorr gives them its projection onto the previous solutions
   * (-velcorr_pressure_projection, -velcorr_velocity_projection; a KSPGuess of type projection) */
  KSP pressure_ksp, velocity_ksp;
} TSVelCorrOps;
PETSC_EXTERN PetscErrorCode TSCreate_VelCorr(TS ts);
PETSC_EXTERN PetscErrorCode TSVelCorrSetOps(TS ts, const TSVelCorrOps *ops);
/* The past levels u(t - k dt), k = 1..order-1, before the first step (full order from the start, for
 * convergence studies with an exact solution); fill(ctx, t, u) sets the velocity at time t. */
PETSC_EXTERN PetscErrorCode TSVelCorrSetHistory(TS ts, PetscErrorCode (*fill)(void *ctx, PetscReal t, Vec u), void *ctx);
PETSC_EXTERN PetscErrorCode TSVelCorrGetFailure(TS ts, const char **message);
/* Iterations of the last step's pressure and velocity solves. */
PETSC_EXTERN PetscErrorCode TSVelCorrGetIterations(TS ts, PetscInt *pressure, PetscInt *velocity);

/* Register insplit, velcorr and lserk4 with PETSc (idempotent). */
PETSC_EXTERN PetscErrorCode HoflowTSRegisterAll(void);
