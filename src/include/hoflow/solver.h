/* hoflow preconditioners and smoothers, registered with PETSc so -pc_type and -ksp_type select them
 * like built-in ones. */
#pragma once

#include <petscksp.h>

/* -pc_type inverse_mass: the element-wise inverse DG mass matrix (seed 000 §3). */
PETSC_EXTERN PetscErrorCode PCCreate_InverseMass(PC pc);
/* -pc_type pmg: p-multigrid on matrix-free SIPDG levels with an AMG coarse solve (pMG-AMG). */
PETSC_EXTERN PetscErrorCode PCCreate_PMG(PC pc);
/* -pc_type gather (solver/pc_gather.c): every rank solves the whole assembled (AIJ) Pmat redundantly
 * with its own inner PC on PETSC_COMM_SELF (options prefix <prefix>gather_; BoomerAMG with hoflow's
 * defaults unless given), the input allgathered, device buffers with GPU-aware MPI. Meant for
 * pMG-AMG's coarse level on several GPUs: -pmg_mg_coarse_pc_type gather. On one rank it is the inner PC. */
#define PCGATHER "gather"
PETSC_EXTERN PetscErrorCode PCCreate_Gather(PC pc);
/* The BoomerAMG strong threshold of the inner PC's defaults (0, the default: hypre's 0.25); before
 * the setup. Anything but a gather PC: nothing. */
PETSC_EXTERN PetscErrorCode PCGatherSetHypreStrongThreshold(PC pc, PetscReal theta);
/* The handshake with pMG's gathered CG1 transfer (op/cg1_transfer.c), which does the gather's communication
 * itself. After the set-up: the full-length sequential input and output vectors (NULL on one rank or for
 * another PC type). PCGatherSetInputGathered: xfull holds b's gathered values for b's present object state,
 * so the next application to that b (same vector, same state, or one more: the increase MatMultTranspose gives
 * its output after a shell's operation has set this) skips its allgather (any application forgets it). PCGatherGetOutput: yfull when x is the last application's output, unchanged since (object state),
 * else NULL. */
PETSC_EXTERN PetscErrorCode PCGatherGetFullVectors(PC pc, Vec *xfull, Vec *yfull);
PETSC_EXTERN PetscErrorCode PCGatherSetInputGathered(PC pc, Vec b);
PETSC_EXTERN PetscErrorCode PCGatherGetOutput(PC pc, Vec x, Vec *yfull);
/* Remove the constant from the full input before the inner solve and from the full output after it (each rank on its
 * own full vectors: the projections KSPSolve makes for a coarse matrix with the constant null space, without the
 * copy that would defeat the handshake above; pMG sets it and leaves the coarse KSP without the null space). */
PETSC_EXTERN PetscErrorCode PCGatherSetRemoveConstant(PC pc, PetscBool flg);
/* The Chebyshev degree every -pc_type pmg of a run starts from: -pc_pmg_chebyshev_degree_default
 * (unprefixed, one setting for the elliptic, velocity and pressure solves alike), read from
 * `options` (NULL: the global database); 0 unless given, which means 2 on 2D meshes and, on 3D
 * meshes, 3 + max(0, (p - 4)/2) on the level of order p (3 up to p = 5, 4 at 6 and 7, 5 at 8):
 * tetrahedra need the stronger smoothing. A PC's own
 * -[prefix]pc_pmg_chebyshev_degree overrides it. */
PETSC_EXTERN PetscErrorCode PCPMGGetDefaultChebyshevDegree(PetscOptions options, PetscInt *degree);
/* -ksp_type chebyjacobi: Chebyshev/Jacobi with one fused vector kernel per iteration (the p-multigrid
 * smoother); bounds from KSPChebyshevSetEigenvalues or estimated. */
#define KSPCHEBYJACOBI "chebyjacobi"
PETSC_EXTERN PetscErrorCode KSPCreate_ChebyJacobi(KSP ksp);
/* The polynomial of -ksp_type chebyjacobi (-ksp_chebyjacobi_kind): first-kind Chebyshev on the
 * interval [emin, emax], or the fourth-kind Chebyshev smoother of Lottes (2022) on (0, emax], which
 * needs no lower bound and damps the upper part of the spectrum more strongly at the same cost. */
typedef enum {
  HOFLOW_CHEBY_FIRST,
  HOFLOW_CHEBY_FOURTH
} HoflowChebyKind;
PETSC_EXTERN const char *const HoflowChebyKinds[];
PETSC_EXTERN PetscErrorCode    KSPChebyJacobiSetKind(KSP ksp, HoflowChebyKind kind);
/* The smoother's 1 / diag(A), computed by the caller (pMG, for its estimate too): used by KSPSetUp while the
 * KSP's preconditioning matrix is A, unchanged; a reference is kept. No-op for other KSP types. */
PETSC_EXTERN PetscErrorCode KSPChebyJacobiSetInverseDiagonal(KSP ksp, Mat A, Vec dinv);
/* lambda_max of D^{-1} A from `steps` CG/Jacobi iterations on a fixed pseudo-random right-hand side
 * (HoflowEigenEstimateRHS), with a KSP destroyed afterwards; dinv: 1 / diag(A) if the caller has it
 * (NULL: PCJACOBI computes it). */
PETSC_EXTERN PetscErrorCode HoflowEstimateMaxEigenvalue(Mat A, PetscInt steps, Vec dinv, PetscReal *emax);
/* That right-hand side: a hash of each entry's global index in [-1, 1], the same on any number of ranks,
 * written on the vector's backend (a CUDA vector is not filled on the host). */
PETSC_EXTERN PetscErrorCode HoflowEigenEstimateRHS(Vec b);
typedef enum {
  HOFLOW_PMAT_SHELL,
  HOFLOW_PMAT_ASSEMBLED,
  HOFLOW_PMAT_LOR
} HoflowPmatType;
PETSC_EXTERN const char *const HoflowPmatTypes[];
/* KSPSetOperators(ksp, A, P) for a SIPDG operator A, with P chosen by -[prefix]pmat shell|assembled|lor
 * (solver/pmat.c). Attach A's null space before calling: assembled matrices inherit it. */
PETSC_EXTERN PetscErrorCode HoflowKSPSetOperators(KSP ksp, Mat A);
/* hoflow's BoomerAMG defaults for pc (solver/hypre.c): PMIS (device) or HMIS (host) coarsening,
 * ext+i interpolation with P_max 4, the strong threshold given (0: hypre's); into the options database under
 * pc's prefix unless given, and only if pc is or will be BoomerAMG (*is_boomeramg). Refuses a
 * coarsening other than PMIS on more than one GPU rank. */
PETSC_EXTERN PetscErrorCode HoflowHypreSetDefaults(PC pc, PetscReal strong_threshold, PetscBool device, PetscBool *is_boomeramg);
/* Tell hypre to hand device buffers to MPI when PETSc does (-use_gpu_aware_mpi); pc a PCHYPRE
 * (anything else: nothing). solver/hypre.c. */
PETSC_EXTERN PetscErrorCode HoflowHypreSetDeviceMPI(PC pc);
/* pc = BoomerAMG with HoflowHypreSetDefaults, or GAMG where this PETSc's hypre cannot serve the solve
 * (none, or a device-only hypre and a host solve). */
PETSC_EXTERN PetscErrorCode HoflowAMGSetDefault(PC pc, PetscReal strong_threshold, PetscBool device);
/* -ksp_guess_type projection (solver/projection.c): the initial guess of a KSP solving with one operator
 * for successive right-hand sides, projected onto up to -ksp_guess_projection_size L (8) A-orthonormal
 * vectors spanning the last solutions (Fischer 1998); vector operations only (device vectors stay there).
 * -ts_type velcorr sets it on its pressure (and velocity) solve (-velcorr_pressure_projection L). */
#define KSPGUESSPROJECTION "projection"
PETSC_EXTERN PetscErrorCode KSPGuessCreate_Projection(KSPGuess guess);
PETSC_EXTERN PetscErrorCode KSPGuessProjectionSetSize(KSPGuess guess, PetscInt size);
/* The L vectors that hold the basis (created like `like` if not yet): the first ones the basis, the others
 * zero; for checkpoints. After their values were restored, KSPGuessProjectionRestore counts the basis again
 * (and the next solve checks it is A-orthonormal for its operator, else starts it empty). */
PETSC_EXTERN PetscErrorCode KSPGuessProjectionGetVecs(KSPGuess guess, Vec like, PetscInt *n, Vec **vecs);
PETSC_EXTERN PetscErrorCode KSPGuessProjectionRestore(KSPGuess guess);
/* The basis's size now, and how many corrections were not appended (they lay within the span). */
PETSC_EXTERN PetscErrorCode KSPGuessProjectionGetCount(KSPGuess guess, PetscInt *count, PetscInt *rejected);
/* Register hoflow's PC, KSP and KSPGuess types (idempotent). */
PETSC_EXTERN PetscErrorCode HoflowSolverRegisterAll(void);
/* [A00, A01; A10, A11] (blocks row by row, NULL for zero) on vectors of type vtype whose rows on each rank are field
 * 0's then field 1's (MatNestGetISs gives the index sets): a MatNest (PCFIELDSPLIT finds its blocks), whose MatMult
 * with `fused` applies the blocks to wrappers placed on the arrays of x and y (device arrays for CUDA vectors) instead
 * of PETSc's subvectors (solver/blockmat.c). */
PETSC_EXTERN PetscErrorCode HoflowBlockMatCreate(MPI_Comm comm, Mat blocks[4], VecType vtype, PetscBool fused, Mat *K);
