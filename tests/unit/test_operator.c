static const char help[] = "Checks the SIPDG MatShell against an independent assembly of the bilinear form:\n"
                           "equality, symmetry, positive definiteness and MatGetDiagonal; the mass operators; how far\n"
                           "the constants are from its null space (zero on periodic and pure-Neumann Poisson). Takes hoflow's\n"
                           "options; -test_operator_max_eigen_size n skips the dense eigenvalues above n unknowns;\n"
                           "-test_operator_kernels only compares the dense and the sum-factorized (-ipdg_kernel) SIPDG, mass and\n"
                           "inverse mass operators (-test_operator_kernels_inverse 0: not the inverse mass);\n"
                           "-test_operator_cg1 (at -order 1) only checks the continuous order-1 coarse space (op/cg1.c): its\n"
                           "directly assembled matrix against P^T A P of the assembled SIPDG matrix, its size against the DG one's.\n";

#include <hoflow/compat.h>
#include <hoflow/physics.h>
#include <hoflow/dg.h>
#include <petscblaslapack.h>

/* ||A - B||_F / ||B||_F */
static PetscErrorCode RelativeDifference(Mat A, Mat B, PetscReal *rel)
{
  Mat       D;
  PetscReal nd, nb;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, B, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &nb));
  *rel = nd / nb;
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Extreme eigenvalues of a symmetric matrix and the second smallest (serial, dense LAPACK): a singular
 * operator (periodic or pure Neumann Poisson) has one zero eigenvalue, the constants. */
static PetscErrorCode ExtremeEigenvalues(Mat A, PetscReal *emin, PetscReal *esecond, PetscReal *emax)
{
  Mat          D;
  PetscInt     n;
  PetscScalar *a, *work;
  PetscReal   *w;
  PetscBLASInt bn, lwork, info;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatGetSize(D, &n, NULL));
  PetscCall(PetscBLASIntCast(n, &bn));
  lwork = 8 * bn;
  PetscCall(PetscMalloc2(n, &w, lwork, &work));
  PetscCall(MatDenseGetArray(D, &a));
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("N", "U", &bn, a, &bn, w, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev failed: info %d", (int)info);
  PetscCall(MatDenseRestoreArray(D, &a));
  *emin    = w[0];
  *esecond = n > 1 ? w[1] : w[0];
  *emax    = w[n - 1];
  PetscCall(PetscFree2(w, work));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The continuous order-1 space below the order-1 SIPDG operator A: the direct assembly against the
 * Galerkin product, symmetry, P 1 = 1, and the sizes of both coarse matrices. */
static PetscErrorCode CheckCG1(Mat A)
{
  Mat       P, Pg, Adirect, Agalerkin, Adg, At;
  Vec       one_c, one_f;
  PetscReal rel, rel_sym, rel_p, rel_pg, frob;
  PetscInt  rows, rows_dg;
  MatInfo   info, info_dg;

  PetscFunctionBeginUser;
  PetscCall(CG1CoarseSpaceCreate(A, CG1_MATRIX_DIRECT, &P, &Adirect));
  PetscCall(CG1CoarseSpaceCreate(A, CG1_MATRIX_GALERKIN, &Pg, &Agalerkin));
  PetscCall(RelativeDifference(Adirect, Agalerkin, &rel));
  PetscCall(RelativeDifference(Pg, P, &rel_pg));
  PetscCall(MatTranspose(Adirect, MAT_INITIAL_MATRIX, &At));
  PetscCall(RelativeDifference(At, Adirect, &rel_sym));
  PetscCall(MatDestroy(&At));
  PetscCall(MatCreateVecs(P, &one_c, &one_f));
  PetscCall(VecSet(one_c, 1.0));
  PetscCall(MatMult(P, one_c, one_f));
  PetscCall(VecShift(one_f, -1.0));
  PetscCall(VecNorm(one_f, NORM_INFINITY, &rel_p));
  PetscCall(MatNorm(Adirect, NORM_FROBENIUS, &frob));
  PetscCall(IPDGOperatorAssemble(A, &Adg));
  PetscCall(MatGetSize(Adirect, &rows, NULL));
  PetscCall(MatGetSize(Adg, &rows_dg, NULL));
  PetscCall(MatGetInfo(Adirect, MAT_GLOBAL_SUM, &info));
  PetscCall(MatGetInfo(Adg, MAT_GLOBAL_SUM, &info_dg));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cg1: direct_vs_galerkin %.3e symmetry %.3e constant_injection %.3e rows %" PetscInt_FMT " nonzeros %.0f dg1_rows %" PetscInt_FMT " dg1_nonzeros %.0f frobenius %.12e\n", (double)rel, (double)rel_sym, (double)PetscMax(rel_p, rel_pg), rows, info.nz_used, rows_dg, info_dg.nz_used, (double)frob));
  PetscCall(VecDestroy(&one_c));
  PetscCall(VecDestroy(&one_f));
  PetscCall(MatDestroy(&Adg));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&Pg));
  PetscCall(MatDestroy(&Adirect));
  PetscCall(MatDestroy(&Agalerkin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mass operators: M^{-1} (M x) = x, and x^T M x equals the cubature L2 norm squared of x. */
static PetscErrorCode CheckMass(App *app, PetscReal *roundtrip, PetscReal *norm)
{
  Mat         M, Minv;
  Vec         x, Mx, y;
  PetscRandom rnd;
  PetscReal   nx, l2;
  PetscScalar xMx;

  PetscFunctionBeginUser;
  PetscCall(DiscCreateMass(app->disc, PETSC_FALSE, &M));
  PetscCall(DiscCreateMass(app->disc, PETSC_TRUE, &Minv));
  PetscCall(MatCreateVecs(M, &x, &Mx));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(M, x, Mx));
  PetscCall(MatMult(Minv, Mx, y));
  PetscCall(VecAXPY(y, -1.0, x));
  PetscCall(VecNorm(y, NORM_2, roundtrip));
  PetscCall(VecNorm(x, NORM_2, &nx));
  *roundtrip /= nx;
  PetscCall(VecDot(x, Mx, &xMx));
  PetscCall(DiscL2Error(app->disc, x, ZeroPointFunction, NULL, &l2));
  *norm = PetscAbsReal(PetscRealPart(xMx) - l2 * l2) / (l2 * l2);
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&Mx));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||A_tensor x - A_dense x|| / ||A_dense x|| for a random x: the two -ipdg_kernel choices of the same
 * operator, for the SIPDG operator (which 0), the mass (1) and the inverse mass (2). */
static PetscErrorCode CompareKernels(App *app, PetscInt which, PetscReal *rel)
{
  Mat         A[2];
  Vec         x, y[2];
  PetscRandom rnd;
  PetscReal   nd, ny;
  const char *kinds[2] = {"dense", "tensor"};

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscOptionsSetValue(NULL, "-ipdg_kernel", kinds[k]));
    if (which == 0)
      PetscCall(DiscCreateElliptic(app->disc, app->problem.lambda, NULL, &A[k]));
    else
      PetscCall(DiscCreateMass(app->disc, (PetscBool)(which == 2), &A[k]));
    PetscCall(PetscOptionsClearValue(NULL, "-ipdg_kernel"));
  }
  PetscCall(MatCreateVecs(A[0], &x, &y[0]));
  PetscCall(VecDuplicate(y[0], &y[1]));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  for (PetscInt k = 0; k < 2; k++) PetscCall(MatMult(A[k], x, y[k]));
  PetscCall(VecNorm(y[0], NORM_2, &ny));
  PetscCall(VecAXPY(y[1], -1.0, y[0]));
  PetscCall(VecNorm(y[1], NORM_2, &nd));
  *rel = nd / ny;
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&y[k]));
    PetscCall(MatDestroy(&A[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  App        *app;
  Mat         A, Ashell, Aassembled, At;
  Vec         d1, d2;
  PetscReal   rel_op, rel_sym_shell, rel_sym_assembled, rel_diag, dn, emin = 0, esecond = 0, emax = 0;
  PetscMPIInt size;
  PetscInt    nglobal, max_eigen = 100000;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  {
    PetscBool kernels = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_operator_kernels", &kernels, NULL));
    if (kernels) { /* only this check */
      PetscReal rel[3]  = {0, 0, 0};
      PetscBool inverse = PETSC_TRUE; /* curved blocks: the inverse mass is dense on both (and slow to build at high order) */
      PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_operator_kernels_inverse", &inverse, NULL));
      for (PetscInt w = 0; w < (inverse ? 3 : 2); w++) PetscCall(CompareKernels(app, w, &rel[w]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "kernels: tensor_vs_dense %.3e mass %.3e inverse_mass %.3e\n", (double)rel[0], (double)rel[1], (double)rel[2]));
      PetscCall(AppDestroy(&app));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  PetscCall(DiscCreateElliptic(app->disc, app->problem.lambda, NULL, &A));
  {
    PetscBool cg1 = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_operator_cg1", &cg1, NULL));
    if (cg1) { /* only this check */
      PetscCall(CheckCG1(A));
      PetscCall(MatDestroy(&A));
      PetscCall(AppDestroy(&app));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  PetscCall(MatComputeOperator(A, MATAIJ, &Ashell));
  PetscCall(IPDGOperatorAssemble(A, &Aassembled));
  PetscCall(RelativeDifference(Ashell, Aassembled, &rel_op));
  PetscCall(MatTranspose(Ashell, MAT_INITIAL_MATRIX, &At));
  PetscCall(RelativeDifference(At, Ashell, &rel_sym_shell));
  PetscCall(MatDestroy(&At));
  PetscCall(MatTranspose(Aassembled, MAT_INITIAL_MATRIX, &At));
  PetscCall(RelativeDifference(At, Aassembled, &rel_sym_assembled));
  PetscCall(MatDestroy(&At));
  PetscCall(MatCreateVecs(A, &d1, &d2));
  PetscCall(MatGetDiagonal(A, d1));
  PetscCall(MatGetDiagonal(Aassembled, d2));
  PetscCall(VecAXPY(d1, -1.0, d2));
  PetscCall(VecNorm(d1, NORM_2, &dn));
  PetscCall(VecNorm(d2, NORM_2, &rel_diag));
  rel_diag = dn / rel_diag;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "operator: shell_vs_assembled %.3e symmetry_shell %.3e symmetry_assembled %.3e diagonal %.3e\n", (double)rel_op, (double)rel_sym_shell, (double)rel_sym_assembled, (double)rel_diag));
  {
    /* ||A 1||_inf / max_i |A_ii|: round-off when the constants are in A's null space (every face interior
     * or Neumann, lambda = 0; a periodic face treated as a boundary would give O(1)) */
    PetscReal r, dmax;
    PetscCall(VecSet(d1, 1.0));
    PetscCall(MatMult(A, d1, d2));
    PetscCall(VecNorm(d2, NORM_INFINITY, &r));
    PetscCall(MatGetDiagonal(Aassembled, d1));
    PetscCall(VecNorm(d1, NORM_INFINITY, &dmax));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "operator: constant_residual %.3e\n", (double)(r / dmax)));
  }
  {
    PetscReal roundtrip = 0, norm = 0;
    PetscCall(CheckMass(app, &roundtrip, &norm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mass: inverse_roundtrip %.3e xMx_vs_cubature %.3e\n", (double)roundtrip, (double)norm));
  }
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(MatGetSize(A, &nglobal, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_operator_max_eigen_size", &max_eigen, NULL));
  if (size == 1 && nglobal <= max_eigen) {
    PetscCall(ExtremeEigenvalues(Ashell, &emin, &esecond, &emax));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "operator: min_eigenvalue %.6e second_eigenvalue %.6e max_eigenvalue %.6e\n", (double)emin, (double)esecond, (double)emax));
  }
  PetscCall(VecDestroy(&d1));
  PetscCall(VecDestroy(&d2));
  PetscCall(MatDestroy(&Ashell));
  PetscCall(MatDestroy(&Aassembled));
  PetscCall(MatDestroy(&A));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
