/* The triangle {r, s >= -1, r + s <= 0}: warp & blend nodes (nodes.c), the orthonormal
 * Proriol–Koornwinder–Dubiner basis, collapsed Gauss–Jacobi cubature. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

static PetscErrorCode TriangleNodes(PetscInt N, PetscReal xi[])
{
  const PetscInt Np = (N + 1) * (N + 2) / 2;
  PetscReal     *r, *s;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(Np, &r, Np, &s));
  PetscCall(NodesTriangleWarpBlend(N, r, s));
  for (PetscInt i = 0; i < Np; i++) {
    xi[2 * i]     = r[i];
    xi[2 * i + 1] = s[i];
  }
  PetscCall(PetscFree2(r, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x^n for a small non-negative integer n, with x^0 = 1 also for x = 0 (the collapsed
 * coordinate factors (1-b)^i are evaluated at b = 1). */
static PetscReal IntPow(PetscReal x, PetscInt n)
{
  PetscReal p = 1.0;

  for (PetscInt k = 0; k < n; k++) p *= x;
  return p;
}

/* Dubiner / Koornwinder (H&W Simplex2DP): with the collapsed coordinates
 *   a = 2 (1+r)/(1-s) - 1,  b = s    (the square [-1,1]^2 -> triangle, the edge b = 1
 *                                       collapsing onto the vertex (-1,1); a = -1 there),
 *   phi_ij(r,s) = sqrt(2) P_i^{(0,0)}(a) P_j^{(2i+1,0)}(b) (1-b)^i,   i+j <= N,
 * which is a polynomial of total degree i+j in (r,s) since P_i(a)(1-b)^i is. Mode ordering
 * i = 0..N outer, j = 0..N-i inner.
 *
 * Gradient (H&W GradSimplex2DP): with da/dr = 2/(1-b), da/ds = 2(1+r)/(1-b)^2 = (1+a)/(1-b),
 *   dphi/dr = 2^{i+1/2} P_i'(a) P_j(b) ((1-b)/2)^{i-1},
 *   dphi/ds = 2^{i+1/2} [ P_i'(a) P_j(b) (1+a)/2 ((1-b)/2)^{i-1}
 *                         + P_i(a) ( P_j'(b) ((1-b)/2)^i - i/2 P_j(b) ((1-b)/2)^{i-1} ) ],
 * where the factors ((1-b)/2)^{i-1} are dropped for i = 0 (they multiply P_0' = 0). With
 * a = -1 at b = 1 this formula gives the exact gradient at the collapsed vertex too: for
 * i >= 2 both sides vanish, and for i <= 1 the terms in (1+a) cancel exactly. */
static PetscErrorCode TriangleBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const PetscInt Np = (N + 1) * (N + 2) / 2;
  PetscReal     *Pr = dP ? dP[0] : NULL, *Ps = dP ? dP[1] : NULL;

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < n; q++) {
    const PetscReal r = pts[2 * q], s = pts[2 * q + 1];
    const PetscReal a = PetscAbsReal(1.0 - s) > 1e-14 ? 2.0 * (1.0 + r) / (1.0 - s) - 1.0 : -1.0;
    const PetscReal b = s, hb = 0.5 * (1.0 - b);
    PetscInt        m = 0;

    for (PetscInt i = 0; i <= N; i++) {
      const PetscReal fa = JacobiP(a, 0.0, 0.0, i), dfa = JacobiPDerivative(a, 0.0, 0.0, i);
      const PetscReal scale = PetscPowReal(2.0, i + 0.5);

      for (PetscInt j = 0; j <= N - i; j++, m++) {
        const PetscReal gb = JacobiP(b, 2.0 * i + 1.0, 0.0, j), dgb = JacobiPDerivative(b, 2.0 * i + 1.0, 0.0, j);

        /* sqrt(2) (1-b)^i = 2^{i+1/2} ((1-b)/2)^i */
        if (P) P[q * Np + m] = scale * fa * gb * IntPow(hb, i);
        if (Pr || Ps) {
          const PetscReal him1 = i > 0 ? IntPow(hb, i - 1) : 0.0;
          const PetscReal dr   = dfa * gb * him1;
          PetscReal       ds   = dfa * gb * 0.5 * (1.0 + a) * him1 + fa * dgb * IntPow(hb, i);

          if (i > 0) ds -= fa * 0.5 * i * gb * him1;
          if (Pr) Pr[q * Np + m] = scale * dr;
          if (Ps) Ps[q * Np + m] = scale * ds;
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collapsed (Stroud conical) rule. With r = (1+a)(1-b)/2 - 1, s = b the Jacobian is
 * dr ds = (1-b)/2 da db, so int_T f = 1/2 int int f (1-b) da db: Gauss–Legendre in a and
 * Gauss–Jacobi(1,0) in b (which absorbs the factor 1-b), n points each; a degree-d polynomial
 * in (r,s) has degree <= d in a and in b, so the rule is exact to 2n-1. Weights w = w_a w_b / 2
 * sum to 2 * 2 / 2 = 2, the triangle's area. */
static PetscErrorCode TriangleCubature(PetscInt degree, PetscInt *nq_out, PetscReal **pts, PetscReal **w)
{
  const PetscInt nq = degree / 2 + 1; /* 2 nq - 1 >= degree */
  PetscReal     *xa, *wa, *xb, *wb;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(nq, &xa, nq, &wa, nq, &xb, nq, &wb));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, nq, xa, wa));
  PetscCall(JacobiGaussQuadrature(1.0, 0.0, nq, xb, wb));
  *nq_out = nq * nq;
  PetscCall(PetscMalloc1(2 * nq * nq, pts));
  PetscCall(PetscMalloc1(nq * nq, w));
  for (PetscInt j = 0; j < nq; j++)
    for (PetscInt i = 0; i < nq; i++) {
      const PetscInt q  = i + nq * j;
      (*pts)[2 * q]     = 0.5 * (1.0 + xa[i]) * (1.0 - xb[j]) - 1.0;
      (*pts)[2 * q + 1] = xb[j];
      (*w)[q]           = 0.5 * wa[i] * wb[j];
    }
  PetscCall(PetscFree4(xa, wa, xb, wb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* N^2 sub-triangles of the node lattice, counterclockwise: lattice node (i,j), i + j <= N, is
 * node j(N+1) - j(j-1)/2 + i (NodesTriangleWarpBlend order). */
static PetscErrorCode TriangleSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  PetscInt *c, n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(3 * N * N, &c));
#define TRI_NODE(i, j) ((j) * (N + 1) - (j) * ((j)-1) / 2 + (i))
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < N - j; i++) {
      c[n++] = TRI_NODE(i, j);
      c[n++] = TRI_NODE(i + 1, j);
      c[n++] = TRI_NODE(i, j + 1);
      if (i + j < N - 1) {
        c[n++] = TRI_NODE(i + 1, j);
        c[n++] = TRI_NODE(i + 1, j + 1);
        c[n++] = TRI_NODE(i, j + 1);
      }
    }
#undef TRI_NODE
  *nsub  = N * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Triangle = {TriangleNodes, TriangleBasis, TriangleCubature, TriangleSubCells};
