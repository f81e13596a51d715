/* The spectral-element Stokes saddle-point system (physics/stokes.c), shared by the steady physics
 * (stokes) and the DIRK stages of the unsteady one (stokes_dirk, physics/stokes_dirk.c). With the
 * momentum equation divided by nu and the pressure unknown pi = -p / nu the system is symmetric:
 *
 *   [ A + lambda M   B0^T ] [ u  ]   [ r_u - A_ID g_D, g_D on the Dirichlet rows ]
 *   [ B0             0    ] [ pi ] = [ -B_D g_D                                  ]
 *
 * A the vector Laplacian with identity Dirichlet rows and columns, M the diagonal GLL velocity mass
 * (zero on the Dirichlet rows), lambda = 0 (steady) or 1 / (nu dt a_ii) (a DIRK stage), B0 the
 * divergence without the Dirichlet velocity dofs, g_D the velocity's Dirichlet values, r_u the
 * momentum source. Solved by FGMRES + PCFIELDSPLIT (Schur, upper): velocity block 3 CG iterations with
 * BoomerAMG on the LOR matrix of A + lambda M; Schur complement S = -B0 (A + lambda M)^-1 B0^T by
 * -(M_p^-1 + lambda L_p^-1) (seed 001 §5.4: pressure mass, M_p^-1 by 3 CG iterations on the consistent
 * Taylor-Hood mass (-stokes_schur_consistent_mass) or the diagonal one, and for lambda > 0 one BoomerAMG V-cycle on
 * the LOR matrix of the pressure Laplacian L_p of the Taylor-Hood pressure space). */
#pragma once

#include <hoflow/physics.h>
#include <hoflow/sem.h>

typedef struct {
  App          *app;
  SEMDisc      *u;
  SEMPressure  *p;
  SEMStokesPair pair;
  PetscReal     nu, lambda;
  PetscBool     cuda; /* the DM's vectors are CUDA vectors: operators, matrices (AIJCUSPARSE) and BoomerAMG on the device */
  Mat           A, Plor, Afree, B0, Bfull, BT, Sp, K, P;
  IS            is[2];
  KSP           ksp;
  MatNullSpace  nullspace;
  PetscReal     null_residual; /* |B0^T 1| / |B^T 1|: how far the constant pressure is from the null space */
  char         *dirichlet_mask;
  PetscInt      ndirichlet, *dirichlet_rows; /* owned velocity Dirichlet rows (global numbers) */
  /* the Schur preconditioner (StokesSchurApply): -M_p^-1, S's own value on the constant pressure where
   * it is no null vector, and lambda L_p^-1 (unsteady, Taylor-Hood) */
  PetscBool      deflate, shell;
  Vec            mass_p, inv_sp; /* M_p 1 (the lumped mass) and the diagonal of -M_p^-1 (lumped) */
  PetscReal      volume, s_c;    /* 1^T M_p 1 and 1^T S 1 = -(B0^T 1)^T (A + lambda M)^-1 (B0^T 1) */
  Mat            Lp, Lp_lor;
  PC             poisson;
  PetscBool      consistent_mass; /* -stokes_schur_mass consistent: M_p^-1 by a few CG iterations on the consistent mass */
  Mat            Mc, Ml;          /* the consistent pressure mass (MatShell) and the lumped one (diagonal AIJ, its preconditioner) */
  KSP            mass_ksp;
  Vec            mwork;
  Vec            pwork;
  PetscInt       iterations, solves, max_iterations; /* FGMRES iterations: total, solves, the most in one solve */
  PetscLogDouble setup_time, solve_time;
} StokesSystem;

/* The operators and the solver of the system with this lambda (>= 0), the pair from -stokes_pair. */
PETSC_EXTERN PetscErrorCode StokesSystemCreate(App *app, PetscReal nu, PetscReal lambda, StokesSystem *st);
/* b = (r_u - A_ID g_D with g_D on the Dirichlet rows, -B_D g_D), the constant pressure projected out where
 * it is the null space; b a vector of the system (MatCreateVecs(st->K)); only g's Dirichlet entries are
 * read. */
PETSC_EXTERN PetscErrorCode StokesSystemRightHandSide(StokesSystem *st, Vec r_u, Vec g, Vec b);
/* Solve (x is the initial guess), with an error naming the options if FGMRES does not converge. */
PETSC_EXTERN PetscErrorCode StokesSystemSolve(StokesSystem *st, Vec b, Vec x);
PETSC_EXTERN PetscErrorCode StokesSystemDestroy(StokesSystem *st);
/* L2 errors of the solution x at time t against the problem's exact (u, p) (pressures with the means
 * removed), and ||B u|| of all velocity dofs. */
PETSC_EXTERN PetscErrorCode StokesSystemErrors(StokesSystem *st, Vec x, PetscReal t, PetscReal *err_u, PetscReal *err_p, PetscReal *div);
/* The problem's exact velocity at time t as a SEMVectorFunction: ctx a StokesPoint. */
typedef struct {
  App      *app;
  PetscReal t;
} StokesPoint;
PETSC_EXTERN PetscErrorCode StokesExactVelocity(const PetscReal x[], PetscReal v[], void *ctx);
PETSC_EXTERN PetscErrorCode StokesForcing(const PetscReal x[], PetscReal v[], void *ctx);
