/* One-dimensional orthogonal polynomials and Gauss-type quadrature on [-1,1].
 *
 * The Jacobi polynomials are normalized to be orthonormal with respect to the weight
 * (1-x)^alpha (1+x)^beta:
 *   int_{-1}^{1} (1-x)^alpha (1+x)^beta P_m(x) P_n(x) dx = delta_mn,
 * which keeps every Vandermonde matrix built from them well conditioned and makes the
 * modal mass matrix the identity. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>
#include <math.h>

/* Orthonormal three-term recurrence (Hesthaven & Warburton, Nodal DG Methods, App. A):
 *   x P_n = a_{n+1} P_{n+1} + b_n P_n + a_n P_{n-1},
 *   a_n = 2/(2n+alpha+beta) sqrt( n (n+alpha+beta) (n+alpha) (n+beta)
 *                                 / ((2n+alpha+beta-1)(2n+alpha+beta+1)) ),
 *   b_n = -(alpha^2 - beta^2) / ((2n+alpha+beta)(2n+alpha+beta+2)),
 * started from P_0 = 1/sqrt(gamma_0), gamma_0 = 2^{alpha+beta+1}/(alpha+beta+1)
 * Gamma(alpha+1)Gamma(beta+1)/Gamma(alpha+beta+1) (the weight's total mass), and
 * P_1 = ((alpha+beta+2) x/2 + (alpha-beta)/2)/sqrt(gamma_1),
 * gamma_1 = (alpha+1)(beta+1)/(alpha+beta+3) gamma_0. */
PetscReal JacobiP(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n)
{
  const PetscReal ab     = alpha + beta;
  const PetscReal gamma0 = PetscPowReal(2.0, ab + 1.0) / (ab + 1.0) * tgamma(alpha + 1.0) * tgamma(beta + 1.0) / tgamma(ab + 1.0);
  const PetscReal gamma1 = (alpha + 1.0) * (beta + 1.0) / (ab + 3.0) * gamma0;
  PetscReal       pm1, p, aold;

  if (n < 0) return 0.0;
  pm1 = 1.0 / PetscSqrtReal(gamma0);
  if (n == 0) return pm1;
  p = ((ab + 2.0) * x / 2.0 + (alpha - beta) / 2.0) / PetscSqrtReal(gamma1);
  /* a_1 */
  aold = 2.0 / (2.0 + ab) * PetscSqrtReal((alpha + 1.0) * (beta + 1.0) / (ab + 3.0));
  for (PetscInt i = 1; i < n; i++) {
    const PetscReal h1   = 2.0 * i + ab;
    const PetscReal anew = 2.0 / (h1 + 2.0) * PetscSqrtReal((i + 1.0) * (i + 1.0 + ab) * (i + 1.0 + alpha) * (i + 1.0 + beta) / (h1 + 1.0) / (h1 + 3.0));
    const PetscReal bnew = -(alpha * alpha - beta * beta) / h1 / (h1 + 2.0);
    const PetscReal pnew = (-aold * pm1 + (x - bnew) * p) / anew;

    pm1  = p;
    p    = pnew;
    aold = anew;
  }
  return p;
}

/* d/dx P_n^{(alpha,beta)} = sqrt(n (n+alpha+beta+1)) P_{n-1}^{(alpha+1,beta+1)} for the
 * orthonormal family (the classical identity d/dx P_n = (n+alpha+beta+1)/2 P_{n-1}^{(a+1,b+1)}
 * rescaled by the ratio of the two normalization constants). */
PetscReal JacobiPDerivative(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n)
{
  if (n <= 0) return 0.0;
  return PetscSqrtReal(n * (n + alpha + beta + 1.0)) * JacobiP(x, alpha + 1.0, beta + 1.0, n - 1);
}

/* d^k P_n / dx^k of the classical Legendre polynomial (P_n(1) = 1): k = 0 by Bonnet's recurrence
 *   (m+1) P_{m+1} = (2m+1) x P_m - m P_{m-1},
 * k > 0 by its k-fold derivative for m = 0..n (n <= HOFLOW_NMAX + 2: the VCJH corrections' degrees),
 *   (m+1) P_{m+1}^(j) = (2m+1) (x P_m^(j) + j P_m^(j-1)) - m P_{m-1}^(j). */
PetscReal LegendreDerivative(PetscReal x, PetscInt n, PetscInt k)
{
  PetscReal p[HOFLOW_NMAX + 3][HOFLOW_NMAX + 3]; /* p[j][m] = P_m^(j)(x) */

  if (n < 0 || k > n) return 0;
  if (k == 0) {
    PetscReal lm1 = 1.0, l = x;
    if (n == 0) return 1.0;
    for (PetscInt m = 1; m < n; m++) {
      const PetscReal lnew = ((2.0 * m + 1.0) * x * l - m * lm1) / (m + 1.0);
      lm1                  = l;
      l                    = lnew;
    }
    return l;
  }
  if (n > HOFLOW_NMAX + 2) return NAN;
  for (PetscInt j = 0; j <= k; j++) {
    p[j][0] = j == 0 ? 1 : 0;
    if (n >= 1) p[j][1] = j == 0 ? x : (j == 1 ? 1 : 0);
    for (PetscInt m = 1; m < n; m++) p[j][m + 1] = ((2 * m + 1) * (x * p[j][m] + (j ? j * p[j - 1][m] : 0)) - m * p[j][m - 1]) / (m + 1);
  }
  return p[k][n];
}

/* Sort x ascending, carrying nothing else: the weights are computed after sorting. */
static void SortAscending(PetscInt n, PetscReal x[])
{
  for (PetscInt i = 1; i < n; i++) {
    const PetscReal v = x[i];
    PetscInt        j = i - 1;

    while (j >= 0 && x[j] > v) {
      x[j + 1] = x[j];
      j--;
    }
    x[j + 1] = v;
  }
}

/* Gauss–Jacobi rule: the nodes are the n roots of P_n^{(alpha,beta)}, found one at a time
 * by Newton's method on the deflated function f(x) = P_n(x) / prod_{j<k} (x - x_j), whose
 * Newton step is
 *   dx = -P_n / (P_n' - P_n sum_{j<k} 1/(x - x_j)),
 * so previously found roots repel the iterate. The starting guesses are the Chebyshev
 * points -cos((2k+1) pi / (2n)), averaged with the previous root, which interlace the
 * Jacobi roots closely enough for Newton to pick up each root in turn.
 *
 * Weights (Christoffel numbers): for an orthonormal family the Gauss weight at a node is
 * w_i = 1 / sum_{k=0}^{n-1} P_k(x_i)^2, so the rule integrates against the weight
 * (1-x)^alpha (1+x)^beta exactly up to degree 2n-1. */
PetscErrorCode JacobiGaussQuadrature(PetscReal alpha, PetscReal beta, PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscFunctionBeginUser;
  PetscCheck(n >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Gauss-Jacobi quadrature needs n >= 1 points, got %" PetscInt_FMT, n);
  PetscCheck(alpha > -1.0 && beta > -1.0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Jacobi weight exponents must exceed -1");
  for (PetscInt k = 0; k < n; k++) {
    PetscReal xk = -PetscCosReal((2.0 * k + 1.0) * PETSC_PI / (2.0 * n));

    if (k > 0) xk = 0.5 * (xk + x[k - 1]);
    for (PetscInt it = 0; it < 100; it++) {
      const PetscReal p    = JacobiP(xk, alpha, beta, n);
      const PetscReal dp   = JacobiPDerivative(xk, alpha, beta, n);
      PetscReal       defl = 0.0, dx;

      for (PetscInt j = 0; j < k; j++) defl += 1.0 / (xk - x[j]);
      dx = -p / (dp - p * defl);
      xk += dx;
      if (PetscAbsReal(dx) < 1e-15) break;
    }
    x[k] = xk;
  }
  SortAscending(n, x);
  /* Symmetric weights (alpha == beta) have roots symmetric about 0: enforce it exactly so
   * that node sets built from these points keep their symmetries to the last bit. */
  if (alpha == beta) {
    for (PetscInt i = 0; i < n / 2; i++) {
      const PetscReal h = 0.5 * (x[n - 1 - i] - x[i]);

      x[i]         = -h;
      x[n - 1 - i] = h;
    }
    if (n % 2) x[n / 2] = 0.0;
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal sum = 0.0;

    for (PetscInt k = 0; k < n; k++) {
      const PetscReal p = JacobiP(x[i], alpha, beta, k);

      sum += p * p;
    }
    w[i] = 1.0 / sum;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gauss–Lobatto–Legendre rule with n points: x = ±1 plus the n-2 roots of L'_{n-1}.
 * Since L'_{n-1} is proportional to P_{n-2}^{(1,1)}, the interior points are the
 * (n-2)-point Gauss–Jacobi(1,1) nodes. The weights are w_i = 2 / (n(n-1) L_{n-1}(x_i)^2),
 * which also gives 2/(n(n-1)) at the endpoints since L_{n-1}(±1)^2 = 1. */
PetscErrorCode GaussLobattoLegendre(PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscFunctionBeginUser;
  PetscCheck(n >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Gauss-Lobatto-Legendre quadrature needs n >= 2 points, got %" PetscInt_FMT, n);
  x[0]     = -1.0;
  x[n - 1] = 1.0;
  if (n > 2) {
    PetscReal *wi;

    PetscCall(PetscMalloc1(n - 2, &wi));
    PetscCall(JacobiGaussQuadrature(1.0, 1.0, n - 2, &x[1], wi));
    PetscCall(PetscFree(wi));
  }
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal l = LegendreDerivative(x[i], n - 1, 0);

    w[i] = 2.0 / (n * (n - 1.0) * l * l);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void LagrangeMatrix1D(PetscInt n, const PetscReal xn[], PetscInt m, const PetscReal xp[], PetscReal L[], PetscReal dL[])
{
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal l = 1, dl = 0;
      for (PetscInt k = 0; k < n; k++) {
        if (k == j) continue;
        dl = dl * (xp[i] - xn[k]) / (xn[j] - xn[k]) + l / (xn[j] - xn[k]); /* (l_j)' by the product rule, factor by factor */
        l *= (xp[i] - xn[k]) / (xn[j] - xn[k]);
      }
      if (L) L[i * n + j] = l;
      if (dL) dL[i * n + j] = dl;
    }
}
