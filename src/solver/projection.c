/* -ksp_guess_type projection: the initial guess of a KSP that solves A x = b with one operator for a
 * sequence of right-hand sides b^1, b^2, ... (the pressure and velocity solves of a time stepper), by the
 * projection of Fischer (1998, "Projection techniques for iterative solution of Ax = b with successive
 * right-hand sides", CMAME 163, 193-204; the scheme of Nek5000 and nekRS, compared on GPUs by Austin et al.
 * 2021, SISC 43, "Initial guesses for sequences of linear systems in a GPU-accelerated incompressible flow
 * solver"). Up to L vectors x_1..x_l are kept A-orthonormal (x_i^T A x_j = delta_ij) and span the last
 * solutions; for a new b the best approximation of A^{-1} b from their span in the energy norm is
 *
 *   x0 = sum_i alpha_i x_i,   alpha_i = x_i^T b,
 *
 * and the Krylov method starts from x0: it computes only the correction x - x0, to its own tolerance,
 * which stays relative to b (the KSP's convergence test). After the solve the correction dx = x - x0 is
 * A-orthogonalized against the basis and appended (one product w = A dx; beta_i = x_i^T w, one VecMDot
 * with dx^T w too; dx -= sum_i beta_i x_i by VecMAXPY; ||dx - sum beta_i x_i||_A^2 = dx^T w - |beta|^2
 * because the basis is A-orthonormal), unless it lies within the span (then nothing is learnt). When L
 * vectors are held the basis starts again: Fischer restarts from the last solution alone, which costs
 * nearly a whole solve at that step (11 pressure iterations against 3-4 before, 3D Taylor-Green); here
 * from the last two, x^{n-1} (the caller's initial guess, the previous solution, kept at FormGuess) and
 * x^n (one product more each restart), so the next guess is still an extrapolation. Everything
 * is a vector operation of the vectors' own backend (MatMult, VecMDot, VecMAXPY, VecScale): on device
 * vectors only the l + 1 dot products cross to the host.
 *
 * A null space of A (the pure-Neumann pressure's constants) is removed from each new direction, so the
 * guess carries none. The L vectors are allocated once; the slots beyond the basis are kept zero, so a
 * checkpoint of all L (KSPGuessProjectionGetVecs) restores basis and size exactly
 * (KSPGuessProjectionRestore counts the nonzero slots and, at the next solve, checks the restored
 * basis is A-orthonormal for the operator then in use: a restart onto another order, mesh or step size
 * starts the basis empty instead). A new operator (another Mat, or the same Mat changed) empties the
 * basis too (KSPGuessSetUp calls the reset). */
#include <petsc/private/kspimpl.h>
#include <hoflow/compat.h>
#include <hoflow/solver.h>

typedef struct {
  PetscInt     size;     /* L */
  PetscInt     count;    /* l: basis[0..l-1] A-orthonormal, basis[l..L-1] zero */
  Vec         *basis;    /* L vectors, allocated like the first solution (or GetVecs' template) */
  Vec          guess;    /* x0 of the last FormGuess */
  Vec          previous; /* the caller's initial guess at the FormGuess before a restart (the previous solution) */
  Vec          product;  /* A dx */
  PetscScalar *coef;     /* L + 1 */
  PetscBool    guessed;  /* the last FormGuess set x = x0 (a nonempty basis); else x kept the caller's guess */
  PetscBool    verify;   /* the basis was restored: check its A-orthonormality before the next guess */
  PetscInt     rejected; /* updates whose correction lay within the span */
} KSPGuess_Projection;

/* A correction whose part outside the span is below this fraction (in the squared energy norm) of itself
 * is not appended: classical Gram-Schmidt loses about sqrt(1/this) in orthogonality on it. */
#define PROJECTION_SPAN_FRACTION 1e-6
/* The restored basis is kept where |X^T A X - I| stays below this (CGS keeps it to about 1e-13). */
#define PROJECTION_RESTORE_TOLERANCE 1e-8

static PetscErrorCode KSPGuessProjectionAllocate(KSPGuess guess, Vec like)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;

  PetscFunctionBeginUser;
  if (pj->basis) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDuplicateVecs(like, pj->size, &pj->basis));
  for (PetscInt k = 0; k < pj->size; k++) PetscCall(VecZeroEntries(pj->basis[k]));
  PetscCall(VecDuplicate(like, &pj->guess));
  PetscCall(VecDuplicate(like, &pj->product));
  PetscCall(VecDuplicate(like, &pj->previous));
  PetscCall(PetscMalloc1(pj->size + 1, &pj->coef));
  pj->count = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessProjectionFree(KSPGuess guess)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;

  PetscFunctionBeginUser;
  if (pj->basis) PetscCall(VecDestroyVecs(pj->size, &pj->basis));
  PetscCall(VecDestroy(&pj->guess));
  PetscCall(VecDestroy(&pj->product));
  PetscCall(VecDestroy(&pj->previous));
  PetscCall(PetscFree(pj->coef));
  pj->count = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Empty the basis (its slots zero again). */
static PetscErrorCode KSPGuessReset_Projection(KSPGuess guess)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < pj->count; k++) PetscCall(VecZeroEntries(pj->basis[k]));
  pj->count   = 0;
  pj->guessed = PETSC_FALSE;
  pj->verify  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a restore: keep the basis only if it is A-orthonormal for the operator now in use. */
static PetscErrorCode KSPGuessProjectionVerify(KSPGuess guess)
{
  KSPGuess_Projection *pj    = (KSPGuess_Projection *)guess->data;
  PetscReal            worst = 0;

  PetscFunctionBeginUser;
  pj->verify = PETSC_FALSE;
  for (PetscInt k = 0; k < pj->count; k++) {
    PetscCall(MatMult(guess->A, pj->basis[k], pj->product));
    PetscCall(VecMDot(pj->product, k + 1, pj->basis, pj->coef));
    for (PetscInt i = 0; i <= k; i++) worst = PetscMax(worst, PetscAbsScalar(pj->coef[i] - (i == k ? 1.0 : 0.0)));
  }
  if (worst > PROJECTION_RESTORE_TOLERANCE) {
    PetscCall(PetscInfo(guess, "projection: the restored basis of %" PetscInt_FMT " vectors is not A-orthonormal for this operator (|X^T A X - I| = %g): started again\n", pj->count, (double)worst));
    PetscCall(KSPGuessReset_Projection(guess));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = x0 = sum_i (x_i^T b) x_i, kept in guess */
static PetscErrorCode KSPGuessProjectionFormGuess(KSPGuess guess, Vec b, Vec x)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;

  PetscFunctionBeginUser;
  PetscCall(VecMDot(b, pj->count, pj->basis, pj->coef));
  PetscCall(VecZeroEntries(x));
  PetscCall(VecMAXPY(x, pj->count, pj->coef, pj->basis));
  PetscCall(VecCopy(x, pj->guess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Append v (the slot basis[count], A v in product, c = x_i^T A v for i < count and v^T A v in coef[count])
 * A-orthogonalized and normalized, unless it lies within the span (then the slot is zeroed). */
static PetscErrorCode KSPGuessProjectionAppend(KSPGuess guess)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;
  const PetscInt       l  = pj->count;
  Vec                  v  = pj->basis[l];
  PetscReal            vAv, outside;

  PetscFunctionBeginUser;
  PetscCall(VecMDot(pj->product, l + 1, pj->basis, pj->coef)); /* x_i^T A v, and v^T A v last */
  vAv     = PetscRealPart(pj->coef[l]);
  outside = vAv;
  for (PetscInt i = 0; i < l; i++) outside -= PetscRealPart(pj->coef[i] * PetscConj(pj->coef[i]));
  if (!(vAv > 0) || !(outside > PROJECTION_SPAN_FRACTION * vAv)) {
    pj->rejected++;
    PetscCall(VecZeroEntries(v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < l; i++) pj->coef[i] = -pj->coef[i];
  if (l) PetscCall(VecMAXPY(v, l, pj->coef, pj->basis));
  PetscCall(VecScale(v, 1.0 / PetscSqrtReal(outside)));
  pj->count++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessFormGuess_Projection(KSPGuess guess, Vec b, Vec x)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionAllocate(guess, x));
  if (pj->verify) PetscCall(KSPGuessProjectionVerify(guess));
  pj->guessed = (PetscBool)(pj->count > 0);
  if (!pj->guessed) { /* nothing learnt yet: the caller's guess (the last step's solution), marked as changed so that KSPSolve keeps it */
    PetscCall(PetscObjectStateIncrease((PetscObject)x));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (pj->count == pj->size) PetscCall(VecCopy(x, pj->previous)); /* the update restarts from it */
  PetscCall(KSPGuessProjectionFormGuess(guess, b, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessUpdate_Projection(KSPGuess guess, Vec b, Vec x)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;
  MatNullSpace         null_space;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionAllocate(guess, x));
  PetscCall(MatGetNullSpace(guess->A, &null_space));
  if (pj->count == pj->size) { /* full: start again from the previous solution and this one */
    PetscCall(KSPGuessReset_Projection(guess));
    if (pj->size > 1) {
      PetscCall(VecCopy(pj->previous, pj->basis[0]));
      if (null_space) PetscCall(MatNullSpaceRemove(null_space, pj->basis[0]));
      PetscCall(MatMult(guess->A, pj->basis[0], pj->product));
      PetscCall(KSPGuessProjectionAppend(guess));
      if (pj->count) { /* x0 = the projection of b onto it: below, x - x0 is the part of x outside it */
        PetscCall(KSPGuessProjectionFormGuess(guess, b, pj->previous));
        pj->guessed = PETSC_TRUE;
      }
    }
  }
  if (pj->guessed)
    PetscCall(VecWAXPY(pj->basis[pj->count], -1.0, pj->guess, x));
  else
    PetscCall(VecCopy(x, pj->basis[pj->count]));
  if (null_space) PetscCall(MatNullSpaceRemove(null_space, pj->basis[pj->count]));
  PetscCall(MatMult(guess->A, pj->basis[pj->count], pj->product));
  PetscCall(KSPGuessProjectionAppend(guess));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessSetFromOptions_Projection(KSPGuess guess)
{
  KSPGuess_Projection *pj   = (KSPGuess_Projection *)guess->data;
  PetscInt             size = pj->size;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PetscObjectComm((PetscObject)guess), ((PetscObject)guess)->prefix, "Projection onto the previous solutions (Fischer 1998)", "KSPGuess");
  PetscCall(PetscOptionsInt("-ksp_guess_projection_size", "How many A-orthonormal vectors of the previous solutions to keep", "KSPGuessProjectionSetSize", size, &size, NULL));
  PetscOptionsEnd();
  PetscCall(KSPGuessProjectionSetSize(guess, size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessView_Projection(KSPGuess guess, PetscViewer viewer)
{
  KSPGuess_Projection *pj = (KSPGuess_Projection *)guess->data;
  PetscBool            ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "projection onto the previous solutions: %" PetscInt_FMT " of at most %" PetscInt_FMT " vectors, %" PetscInt_FMT " corrections within the span\n", pj->count, pj->size, pj->rejected));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPGuessDestroy_Projection(KSPGuess guess)
{
  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionFree(guess));
  PetscCall(PetscFree(guess->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGuessCreate_Projection(KSPGuess guess)
{
  KSPGuess_Projection *pj;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&pj));
  pj->size                   = 8;
  guess->data                = pj;
  guess->ops->formguess      = KSPGuessFormGuess_Projection;
  guess->ops->update         = KSPGuessUpdate_Projection;
  guess->ops->setfromoptions = KSPGuessSetFromOptions_Projection;
  guess->ops->reset          = KSPGuessReset_Projection;
  guess->ops->view           = KSPGuessView_Projection;
  guess->ops->destroy        = KSPGuessDestroy_Projection;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The guess's data, or an error for another type. */
static PetscErrorCode KSPGuessProjectionGet(KSPGuess guess, const char what[], KSPGuess_Projection **pj)
{
  PetscBool match;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)guess, KSPGUESSPROJECTION, &match));
  PetscCheck(match, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_WRONG, "%s needs a KSPGuess of type %s (-ksp_guess_type %s)", what, KSPGUESSPROJECTION, KSPGUESSPROJECTION);
  *pj = (KSPGuess_Projection *)guess->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGuessProjectionSetSize(KSPGuess guess, PetscInt size)
{
  KSPGuess_Projection *pj = NULL;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionGet(guess, "KSPGuessProjectionSetSize", &pj));
  PetscCheck(size >= 1, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_guess_projection_size %" PetscInt_FMT ": keep at least 1 vector (no projection: another -ksp_guess_type, or none)", size);
  if (size == pj->size) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(KSPGuessProjectionFree(guess));
  pj->size = size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGuessProjectionGetVecs(KSPGuess guess, Vec like, PetscInt *n, Vec **vecs)
{
  KSPGuess_Projection *pj = NULL;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionGet(guess, "KSPGuessProjectionGetVecs", &pj));
  PetscCheck(pj->basis || like, PetscObjectComm((PetscObject)guess), PETSC_ERR_ARG_NULL, "KSPGuessProjectionGetVecs: give a vector to create the basis like (none solved yet)");
  if (!pj->basis) PetscCall(KSPGuessProjectionAllocate(guess, like));
  *n    = pj->size;
  *vecs = pj->basis;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGuessProjectionRestore(KSPGuess guess)
{
  KSPGuess_Projection *pj = NULL;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionGet(guess, "KSPGuessProjectionRestore", &pj));
  pj->count = 0;
  for (PetscInt k = 0; pj->basis && k < pj->size; k++) {
    PetscReal m;
    PetscCall(VecNorm(pj->basis[k], NORM_INFINITY, &m));
    if (m == 0) break;
    pj->count++;
  }
  for (PetscInt k = pj->count; pj->basis && k < pj->size; k++) PetscCall(VecZeroEntries(pj->basis[k])); /* the invariant, whatever the file held */
  pj->guessed = PETSC_FALSE;
  pj->verify  = (PetscBool)(pj->count > 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPGuessProjectionGetCount(KSPGuess guess, PetscInt *count, PetscInt *rejected)
{
  KSPGuess_Projection *pj = NULL;

  PetscFunctionBeginUser;
  PetscCall(KSPGuessProjectionGet(guess, "KSPGuessProjectionGetCount", &pj));
  if (count) *count = pj->count;
  if (rejected) *rejected = pj->rejected;
  PetscFunctionReturn(PETSC_SUCCESS);
}
