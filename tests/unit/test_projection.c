static const char help[] = "The projection onto previous solutions (-ksp_guess_type projection, solver/projection.c) on a\n"
                           "sequence of solves with the 5-point Laplacian on an n x n grid (-n; Dirichlet, or Neumann with the\n"
                           "constants as null space: -neumann) and right-hand sides b_k = sum_j cos(0.4 k (j + 1)) f_j in the span\n"
                           "of -rank fixed random vectors f_j: once the basis spans their solutions, the guess is the solution and\n"
                           "CG stops at once. CG + Jacobi to -rtol. Prints the iterations of each solve, the worst |X^T A X - I|\n"
                           "of the basis after each, and the iterations of the same solves continued by a second KSP whose basis was\n"
                           "copied from the first after -restore_after solves (a checkpoint and restart: KSPGuessProjectionRestore).\n"
                           "Options: -size L (basis size), -solves K, -projection false (none: the last solution as guess).\n";

#include <hoflow/compat.h>
#include <hoflow/solver.h>

static PetscErrorCode LaplacianCreate(PetscInt n, PetscBool neumann, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n * n, n * n, 5, NULL, 5, NULL, A));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) {
      const PetscInt row = i * n + j, nb[4][2] = {{i - 1, j}, {i + 1, j}, {i, j - 1}, {i, j + 1}};
      PetscInt       deg = 0;
      for (PetscInt k = 0; k < 4; k++) {
        const PetscBool inside = (PetscBool)(nb[k][0] >= 0 && nb[k][0] < n && nb[k][1] >= 0 && nb[k][1] < n);
        if (inside) PetscCall(MatSetValue(*A, row, nb[k][0] * n + nb[k][1], -1.0, INSERT_VALUES));
        deg += inside || !neumann;
      }
      PetscCall(MatSetValue(*A, row, row, (PetscScalar)deg, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (neumann) {
    MatNullSpace null_space;
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &null_space));
    PetscCall(MatSetNullSpace(*A, null_space));
    PetscCall(MatNullSpaceDestroy(&null_space));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolverCreate(Mat A, PetscBool projection, PetscInt size, PetscReal rtol, KSP *ksp)
{
  PC pc;

  PetscFunctionBeginUser;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetType(*ksp, KSPCG));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetInitialGuessNonzero(*ksp, PETSC_TRUE));
  PetscCall(KSPSetNormType(*ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(*ksp, rtol, 0.0, PETSC_DEFAULT, 10000));
  if (projection) {
    KSPGuess guess;
    PetscCall(KSPGetGuess(*ksp, &guess));
    PetscCall(KSPGuessSetType(guess, KSPGUESSPROJECTION));
    PetscCall(KSPGuessProjectionSetSize(guess, size));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max_ij |x_i^T A x_j - delta_ij| over the basis */
static PetscErrorCode BasisOrthonormality(KSP ksp, Mat A, PetscReal *worst)
{
  KSPGuess     guess;
  PetscInt     n, count;
  Vec         *X, w;
  PetscScalar *g;

  PetscFunctionBeginUser;
  PetscCall(KSPGetGuess(ksp, &guess));
  PetscCall(KSPGuessProjectionGetCount(guess, &count, NULL));
  PetscCall(KSPGuessProjectionGetVecs(guess, NULL, &n, &X));
  PetscCall(MatCreateVecs(A, &w, NULL));
  PetscCall(PetscMalloc1(n, &g));
  *worst = 0;
  for (PetscInt i = 0; i < count; i++) {
    PetscCall(MatMult(A, X[i], w));
    PetscCall(VecMDot(w, count, X, g));
    for (PetscInt j = 0; j < count; j++) *worst = PetscMax(*worst, PetscAbsScalar(g[j] - (i == j ? 1.0 : 0.0)));
  }
  for (PetscInt i = count; i < n; i++) { /* the slots beyond the basis are zero (what a checkpoint relies on) */
    PetscReal m;
    PetscCall(VecNorm(X[i], NORM_INFINITY, &m));
    *worst = PetscMax(*worst, m);
  }
  PetscCall(PetscFree(g));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 24, rank = 3, size = 8, solves = 8, restore_after = 5;
  PetscReal   rtol = 1e-10, worst = 0;
  PetscBool   neumann = PETSC_FALSE, projection = PETSC_TRUE;
  Mat         A;
  KSP         ksp, ksp2 = NULL;
  Vec         f[8], b, x, x2 = NULL;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(HoflowSolverRegisterAll());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "test_projection", NULL);
  PetscCall(PetscOptionsInt("-n", "grid points a direction", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-rank", "dimension of the right-hand sides' span (<= 8)", NULL, rank, &rank, NULL));
  PetscCall(PetscOptionsInt("-size", "basis size L", NULL, size, &size, NULL));
  PetscCall(PetscOptionsInt("-solves", "solves", NULL, solves, &solves, NULL));
  PetscCall(PetscOptionsInt("-restore_after", "copy the basis into a second solver after this many solves (0: never)", NULL, restore_after, &restore_after, NULL));
  PetscCall(PetscOptionsReal("-rtol", "CG tolerance (relative to b)", NULL, rtol, &rtol, NULL));
  PetscCall(PetscOptionsBool("-neumann", "Neumann Laplacian (constants as null space)", NULL, neumann, &neumann, NULL));
  PetscCall(PetscOptionsBool("-projection", "use the projection", NULL, projection, &projection, NULL));
  PetscOptionsEnd();
  PetscCheck(rank >= 1 && rank <= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rank %" PetscInt_FMT ": 1..8", rank);
  PetscCall(LaplacianCreate(n, neumann, &A));
  PetscCall(SolverCreate(A, projection, size, rtol, &ksp));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt j = 0; j < rank; j++) {
    PetscCall(VecDuplicate(b, &f[j]));
    PetscCall(VecSetRandom(f[j], rnd));
  }
  PetscCall(VecZeroEntries(x));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "its"));
  for (PetscInt k = 0; k < solves; k++) {
    PetscInt its;
    PetscCall(VecZeroEntries(b));
    for (PetscInt j = 0; j < rank; j++) PetscCall(VecAXPY(b, PetscCosReal(0.4 * k * (j + 1)), f[j]));
    if (neumann) { /* consistent: mean zero */
      MatNullSpace null_space;
      PetscCall(MatGetNullSpace(A, &null_space));
      PetscCall(MatNullSpaceRemove(null_space, b));
    }
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(KSPGetIterationNumber(ksp, &its));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %" PetscInt_FMT, its));
    if (projection) {
      PetscReal w = 0;
      PetscCall(BasisOrthonormality(ksp, A, &w));
      worst = PetscMax(worst, w);
    }
    if (ksp2) {
      PetscCall(KSPSolve(ksp2, b, x2));
      PetscCall(KSPGetIterationNumber(ksp2, &its));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "/%" PetscInt_FMT, its));
    }
    if (projection && k + 1 == restore_after) { /* a checkpoint: the basis vectors and the last solution */
      KSPGuess g1, g2;
      PetscInt n1, n2;
      Vec     *X1, *X2;
      PetscCall(SolverCreate(A, projection, size, rtol, &ksp2));
      PetscCall(KSPGetGuess(ksp, &g1));
      PetscCall(KSPGetGuess(ksp2, &g2));
      PetscCall(KSPGuessProjectionGetVecs(g1, NULL, &n1, &X1));
      PetscCall(KSPGuessProjectionGetVecs(g2, x, &n2, &X2));
      for (PetscInt i = 0; i < n1; i++) PetscCall(VecCopy(X1[i], X2[i]));
      PetscCall(KSPGuessProjectionRestore(g2));
      PetscCall(VecDuplicate(x, &x2));
      PetscCall(VecCopy(x, x2));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  if (projection) {
    KSPGuess guess;
    PetscInt count, rejected;
    PetscCall(KSPGetGuess(ksp, &guess));
    PetscCall(KSPGuessProjectionGetCount(guess, &count, &rejected));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "orthonormality %.3e count %" PetscInt_FMT " rejected %" PetscInt_FMT "\n", (double)worst, count, rejected));
  }
  if (x2) {
    PetscReal d, m;
    PetscCall(VecAXPY(x2, -1.0, x));
    PetscCall(VecNorm(x2, NORM_INFINITY, &d));
    PetscCall(VecNorm(x, NORM_INFINITY, &m));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "restored difference %.3e\n", (double)(d / m)));
  }
  for (PetscInt j = 0; j < rank; j++) PetscCall(VecDestroy(&f[j]));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&x2));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(KSPDestroy(&ksp2));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
