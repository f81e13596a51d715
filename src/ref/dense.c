/* Small dense row-major linear algebra for the reference-element operators (Np <= 1331, the
 * order-10 hexahedron). They are built once, so simple O(n^3) loops are all that is needed. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

/* Gauss–Jordan elimination on the augmented system [A | I] -> [I | A^{-1}]. At step k the
 * row with the largest |a_ik| (i >= k) is swapped in as pivot (partial pivoting), the pivot
 * row is scaled to a unit diagonal and column k is eliminated from every other row. A pivot
 * below n * eps * max|A| means A is singular to working precision. */
PetscErrorCode DenseInvert(PetscInt n, const PetscReal A[], PetscReal Ainv[])
{
  PetscReal *W, amax = 0.0, tol, badpivot = 0.0;
  PetscInt   bad = -1; /* column of a vanishing pivot, if any */

  PetscFunctionBeginUser;
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Matrix size must be positive, got %" PetscInt_FMT, n);
  PetscCall(PetscMalloc1(n * n, &W));
  for (PetscInt i = 0; i < n * n; i++) {
    W[i]    = A[i];
    Ainv[i] = 0.0;
    amax    = PetscMax(amax, PetscAbsReal(A[i]));
  }
  for (PetscInt i = 0; i < n; i++) Ainv[i * n + i] = 1.0;
  tol = n * PETSC_MACHINE_EPSILON * amax;

  for (PetscInt k = 0; k < n; k++) {
    PetscInt  p    = k;
    PetscReal pmax = PetscAbsReal(W[k * n + k]), pinv;

    for (PetscInt i = k + 1; i < n; i++) {
      if (PetscAbsReal(W[i * n + k]) > pmax) {
        pmax = PetscAbsReal(W[i * n + k]);
        p    = i;
      }
    }
    if (!(pmax > tol)) { /* also catches NaN */
      bad      = k;
      badpivot = pmax;
      break;
    }
    if (p != k) {
      for (PetscInt j = 0; j < n; j++) {
        PetscReal t;

        t               = W[k * n + j];
        W[k * n + j]    = W[p * n + j];
        W[p * n + j]    = t;
        t               = Ainv[k * n + j];
        Ainv[k * n + j] = Ainv[p * n + j];
        Ainv[p * n + j] = t;
      }
    }
    pinv = 1.0 / W[k * n + k];
    for (PetscInt j = 0; j < n; j++) {
      W[k * n + j] *= pinv;
      Ainv[k * n + j] *= pinv;
    }
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal f = W[i * n + k];

      if (i == k || f == 0.0) continue;
      for (PetscInt j = 0; j < n; j++) {
        W[i * n + j] -= f * W[k * n + j];
        Ainv[i * n + j] -= f * Ainv[k * n + j];
      }
    }
  }
  PetscCall(PetscFree(W));
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Dense matrix is singular to working precision: pivot %g at column %" PetscInt_FMT " (max entry %g)", (double)badpivot, bad, (double)amax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C_ij = sum_l A_il B_lj. */
void DenseMatMult(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[])
{
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt j = 0; j < n; j++) C[i * n + j] = 0.0;
    for (PetscInt l = 0; l < k; l++) {
      const PetscReal a = A[i * k + l];

      for (PetscInt j = 0; j < n; j++) C[i * n + j] += a * B[l * n + j];
    }
  }
}

/* C_ij = sum_l A_il B_jl (both operands read along rows), each sum in the order l = 0, 1, ...;
 * four of them at a time, which are independent, instead of one chain of dependent additions. */
void DenseMatMultTranspose(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[])
{
  for (PetscInt i = 0; i < m; i++) {
    const PetscReal *a = A + i * k;
    PetscInt         j = 0;

    for (; j + 4 <= n; j += 4) {
      const PetscReal *b0 = B + j * k, *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
      PetscReal        s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;

      for (PetscInt l = 0; l < k; l++) {
        s0 += a[l] * b0[l];
        s1 += a[l] * b1[l];
        s2 += a[l] * b2[l];
        s3 += a[l] * b3[l];
      }
      C[i * n + j]     = s0;
      C[i * n + j + 1] = s1;
      C[i * n + j + 2] = s2;
      C[i * n + j + 3] = s3;
    }
    for (; j < n; j++) {
      PetscReal sum = 0.0;

      for (PetscInt l = 0; l < k; l++) sum += a[l] * B[j * k + l];
      C[i * n + j] = sum;
    }
  }
}

void DenseTranspose(PetscInt rows, PetscInt cols, const PetscReal A[], PetscReal AT[])
{
  for (PetscInt i = 0; i < rows; i++)
    for (PetscInt j = 0; j < cols; j++) AT[j * rows + i] = A[i * cols + j];
}
