/* The tetrahedron {r, s, t >= -1, r + s + t <= -1}: warp & blend nodes (nodes.c), the orthonormal
 * Proriol–Koornwinder–Dubiner basis on collapsed coordinates, collapsed (Stroud conical)
 * Gauss–Jacobi cubature, and the N^3 sub-tetrahedra of the node lattice. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

static PetscErrorCode TetrahedronNodes(PetscInt N, PetscReal xi[])
{
  const PetscInt Np = (N + 1) * (N + 2) * (N + 3) / 6;
  PetscReal     *r, *s, *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(Np, &r, Np, &s, Np, &t));
  PetscCall(NodesTetrahedronWarpBlend(N, r, s, t));
  for (PetscInt i = 0; i < Np; i++) {
    xi[3 * i]     = r[i];
    xi[3 * i + 1] = s[i];
    xi[3 * i + 2] = t[i];
  }
  PetscCall(PetscFree3(r, s, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x^n for a small non-negative integer n, with x^0 = 1 also for x = 0. */
static PetscReal IntPow(PetscReal x, PetscInt n)
{
  PetscReal p = 1.0;

  for (PetscInt k = 0; k < n; k++) p *= x;
  return p;
}

/* The quotient q = 2 num/den - 1 of a collapsed coordinate, clamped to [-1, 1]; -1 where the
 * denominator vanishes. */
static PetscReal CollapsedQuotient(PetscReal num, PetscReal den)
{
  PetscReal q;

  if (!(den > 0.0)) return -1.0;
  q = 2.0 * num / den - 1.0;
  return PetscMax(-1.0, PetscMin(1.0, q));
}

/* Collapsed coordinates (H&W rstoabc): the cube [-1,1]^3 is mapped onto the tetrahedron by
 *   r = (1+a) hb hc - 1,  s = (1+b) hc - 1,  t = c,   hb = (1-b)/2, hc = (1-c)/2,
 * inverted by a = 2(1+r)/(-s-t) - 1, b = 2(1+s)/(1-t) - 1, c = t. The map collapses the faces
 * b = 1 onto the edge r = -1, s + t = 0 (vertices 2 and 3), where a is arbitrary, and c = 1 onto
 * vertex 3, where a and b are. There any preimage serves (the basis and its gradient below are
 * polynomials in (a, b, c), continuous up to the boundary of the cube), and a = -1, b = -1 are
 * taken. Near them the quotients divide small numbers; they are clamped to [-1, 1], which keeps
 * everything evaluated from them bounded, and a clamped or rounded quotient is the exact preimage
 * of a point within rounding of (r,s,t): a change da moves r by da hb hc = da (-s-t)/2 only. */
static void TetrahedronCollapse(const PetscReal x[3], PetscReal *a, PetscReal *b, PetscReal *c)
{
  *a = CollapsedQuotient(1.0 + x[0], -x[1] - x[2]);
  *b = CollapsedQuotient(1.0 + x[1], 1.0 - x[2]);
  *c = x[2];
}

/* PKD basis (H&W Simplex3DP): with the collapsed coordinates above,
 *   phi_ijk = 2 sqrt(2) P_i^{(0,0)}(a) P_j^{(2i+1,0)}(b) (1-b)^i P_k^{(2i+2j+2,0)}(c) (1-c)^{i+j}
 *           = 2^{2i+j+3/2} F_i(a) G_ij(b) hb^i H_{i+j,k}(c) hc^{i+j},   i + j + k <= N,
 * a polynomial of total degree i+j+k in (r,s,t) (F_i(a) hb^i hc^i is one of degree i in (1+r),
 * hb hc = (-s-t)/2 and so on). Orthonormal: dr ds dt = hb hc^2 da db dc, and the Jacobi weights
 * (1-b)^{2i+1}, (1-c)^{2i+2j+2} absorb the squared factors. Mode order: i outer, then j, k inner.
 *
 * Gradient (H&W GradSimplex3DP), from da/dr = 1/(hb hc), da/ds = da/dt = (1+a)/(2 hb hc),
 * db/ds = 1/hc, db/dt = (1+b)/(2 hc), dc/dt = 1 and d hb/db = d hc/dc = -1/2:
 *   dphi/dr = S F' G H hb^{i-1} hc^{i+j-1},
 *   dphi/ds = (1+a)/2 dphi/dr + T,                   T = S F (G' hb^i - i/2 G hb^{i-1}) H hc^{i+j-1},
 *   dphi/dt = (1+a)/2 dphi/dr + (1+b)/2 T + S F G hb^i (H' hc^{i+j} - (i+j)/2 H hc^{i+j-1}),
 * S = 2^{2i+j+3/2}, with the terms of negative powers dropped: they carry F' = 0 (i = 0) or
 * G' = 0 with i = j = 0. Every term is a polynomial in (a, b, c), so at the collapsed edge and
 * vertex (TetrahedronCollapse) the formulas give the exact gradient. The 1D values are computed
 * once per point: F for each i, G for each (i, j), H for each (i+j, k). */
static PetscErrorCode TetrahedronBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const PetscInt Np = (N + 1) * (N + 2) * (N + 3) / 6, N1 = N + 1;
  PetscReal     *Pr = dP ? dP[0] : NULL, *Ps = dP ? dP[1] : NULL, *Pt = dP ? dP[2] : NULL;
  PetscReal     *F, *dF, *G, *dG, *H, *dH;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(N1, &F, N1, &dF, N1 * N1, &G, N1 * N1, &dG, N1 * N1, &H, N1 * N1, &dH));
  for (PetscInt q = 0; q < n; q++) {
    PetscReal a, b, c, hb, hc;
    PetscInt  m = 0;

    TetrahedronCollapse(pts + 3 * q, &a, &b, &c);
    hb = 0.5 * (1.0 - b);
    hc = 0.5 * (1.0 - c);
    for (PetscInt i = 0; i <= N; i++) {
      F[i]  = JacobiP(a, 0.0, 0.0, i);
      dF[i] = JacobiPDerivative(a, 0.0, 0.0, i);
      for (PetscInt j = 0; j <= N - i; j++) {
        G[i * N1 + j]  = JacobiP(b, 2.0 * i + 1.0, 0.0, j);
        dG[i * N1 + j] = JacobiPDerivative(b, 2.0 * i + 1.0, 0.0, j);
      }
    }
    for (PetscInt p = 0; p <= N; p++)
      for (PetscInt k = 0; k <= N - p; k++) {
        H[p * N1 + k]  = JacobiP(c, 2.0 * p + 2.0, 0.0, k);
        dH[p * N1 + k] = JacobiPDerivative(c, 2.0 * p + 2.0, 0.0, k);
      }
    for (PetscInt i = 0; i <= N; i++) {
      const PetscReal hbi = IntPow(hb, i), hbim1 = i > 0 ? IntPow(hb, i - 1) : 0.0;

      for (PetscInt j = 0; j <= N - i; j++) {
        const PetscInt  p = i + j;
        const PetscReal S = PetscPowReal(2.0, 2.0 * i + j + 1.5), g = G[i * N1 + j], dg = dG[i * N1 + j];
        const PetscReal hcp = IntPow(hc, p), hcpm1 = p > 0 ? IntPow(hc, p - 1) : 0.0;

        for (PetscInt k = 0; k <= N - p; k++, m++) {
          const PetscReal h = H[p * N1 + k], dh = dH[p * N1 + k];

          if (P) P[q * Np + m] = S * F[i] * g * hbi * h * hcp;
          if (Pr || Ps || Pt) {
            const PetscReal dr = S * dF[i] * g * h * hbim1 * hcpm1;
            const PetscReal T  = S * F[i] * (dg * hbi - 0.5 * i * g * hbim1) * h * hcpm1;
            const PetscReal Tc = S * F[i] * g * hbi * (dh * hcp - 0.5 * p * h * hcpm1);

            if (Pr) Pr[q * Np + m] = dr;
            if (Ps) Ps[q * Np + m] = 0.5 * (1.0 + a) * dr + T;
            if (Pt) Pt[q * Np + m] = 0.5 * (1.0 + a) * dr + 0.5 * (1.0 + b) * T + Tc;
          }
        }
      }
    }
  }
  PetscCall(PetscFree6(F, dF, G, dG, H, dH));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collapsed (Stroud conical) rule. With the collapsed coordinates, dr ds dt = hb hc^2 da db dc
 * = (1-b)(1-c)^2/8 da db dc, so int_T f = 1/8 int f (1-b)(1-c)^2 da db dc: Gauss–Legendre in a,
 * Gauss–Jacobi(1,0) in b and Gauss–Jacobi(2,0) in c (which absorb the factors), n points each.
 * A polynomial of total degree d in (r,s,t) has degree <= d in each of a, b, c, since
 * (1+r)^p (1+s)^q (1+t)^m = (1+a)^p hb^p (1+b)^q hc^{p+q} (1+c)^m, so the rule is exact to
 * 2n-1 >= degree. Weights wa wb wc / 8 sum to 2 * 2 * (8/3) / 8 = 4/3, the volume. Points a
 * fastest; all strictly inside (Gauss points are interior). */
static PetscErrorCode TetrahedronCubature(PetscInt degree, PetscInt *nq_out, PetscReal **pts, PetscReal **w)
{
  const PetscInt n = degree / 2 + 1; /* 2 n - 1 >= degree */
  PetscReal     *xa, *wa, *xb, *wb, *xc, *wc;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(n, &xa, n, &wa, n, &xb, n, &wb, n, &xc, n, &wc));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, n, xa, wa));
  PetscCall(JacobiGaussQuadrature(1.0, 0.0, n, xb, wb));
  PetscCall(JacobiGaussQuadrature(2.0, 0.0, n, xc, wc));
  *nq_out = n * n * n;
  PetscCall(PetscMalloc1(3 * n * n * n, pts));
  PetscCall(PetscMalloc1(n * n * n, w));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) {
        const PetscInt  q  = i + n * (j + n * k);
        const PetscReal hb = 0.5 * (1.0 - xb[j]), hc = 0.5 * (1.0 - xc[k]);

        (*pts)[3 * q]     = (1.0 + xa[i]) * hb * hc - 1.0;
        (*pts)[3 * q + 1] = (1.0 + xb[j]) * hc - 1.0;
        (*pts)[3 * q + 2] = xc[k];
        (*w)[q]           = 0.125 * wa[i] * wb[j] * wc[k];
      }
  PetscCall(PetscFree6(xa, wa, xb, wb, xc, wc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lattice node (i, j, k), i + j + k <= N, in NodesTetrahedronWarpBlend's order (t slowest, r
 * fastest): the layers below k hold T(N) - T(N-k) nodes, T(M) = (M+1)(M+2)(M+3)/6 the nodes of
 * order M, and layer k is an order-(N-k) triangle, row j starting at j (N-k+1) - j (j-1)/2. */
static PetscInt TetLatticeNode(PetscInt N, PetscInt i, PetscInt j, PetscInt k)
{
  const PetscInt M = N - k;

  return (N + 1) * (N + 2) * (N + 3) / 6 - (M + 1) * (M + 2) * (M + 3) / 6 + j * (M + 1) - j * (j - 1) / 2 + i;
}

/* Append the sub-tetrahedron of lattice points p[4] (offsets from (i,j,k)), oriented like the
 * reference tetrahedron: det[p1-p0, p2-p0, p3-p0] > 0 (it is 8 for the reference vertices), two
 * vertices swapped where the lattice determinant is negative. */
static void AddSubTet(PetscInt N, PetscInt i, PetscInt j, PetscInt k, const PetscInt p[4][3], PetscInt *c, PetscInt *n)
{
  PetscInt e[3][3], det, order[4] = {0, 1, 2, 3};

  for (PetscInt v = 0; v < 3; v++)
    for (PetscInt d = 0; d < 3; d++) e[v][d] = p[v + 1][d] - p[0][d];
  det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  if (det < 0) {
    order[2] = 3;
    order[3] = 2;
  }
  for (PetscInt v = 0; v < 4; v++) c[(*n)++] = TetLatticeNode(N, i + p[order[v]][0], j + p[order[v]][1], k + p[order[v]][2]);
}

/* The N^3 sub-tetrahedra of the node lattice. The lattice cube with corner (i,j,k) is cut by the
 * planes x+y+z = 1 and 2 (in offsets) into a corner tetrahedron at (0,0,0), an octahedron with
 * vertices (1,0,0), (0,1,0), (0,0,1), (1,1,0), (1,0,1), (0,1,1) and a corner tetrahedron at
 * (1,1,1); the octahedron is split into four tetrahedra around its diagonal (1,0,0)-(0,1,1).
 * The tetrahedron i+j+k <= N contains the first piece of the cubes with i+j+k <= N-1, the second
 * of those with i+j+k <= N-2 and the third of those with i+j+k <= N-3: in all
 * N(N+1)(N+2)/6 + 4 (N-1)N(N+1)/6 + (N-2)(N-1)N/6 = N^3 tetrahedra of volume 1/N^3 of the
 * whole. The octahedra have only triangular faces, so the sub-tetrahedra are conforming. */
static PetscErrorCode TetrahedronSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  const PetscInt corner[4][3] = {
      {0, 0, 0},
      {1, 0, 0},
      {0, 1, 0},
      {0, 0, 1}};
  const PetscInt opposite[4][3] = {
      {1, 1, 1},
      {0, 1, 1},
      {1, 0, 1},
      {1, 1, 0}};
  /* around the octahedron's diagonal (1,0,0)-(0,1,1): its other four vertices in cyclic order
   * (consecutive ones share an edge of the octahedron) */
  const PetscInt equator[4][3] = {
      {0, 1, 0},
      {0, 0, 1},
      {1, 0, 1},
      {1, 1, 0}};
  PetscInt *c, n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4 * N * N * N, &c));
  for (PetscInt k = 0; k < N; k++)
    for (PetscInt j = 0; j < N - k; j++)
      for (PetscInt i = 0; i < N - k - j; i++) {
        const PetscInt level = i + j + k;

        AddSubTet(N, i, j, k, corner, c, &n);
        if (level <= N - 2)
          for (PetscInt e = 0; e < 4; e++) {
            const PetscInt p[4][3] = {
                {1, 0, 0},
                {0, 1, 1},
                {equator[e][0], equator[e][1], equator[e][2]},
                {equator[(e + 1) % 4][0], equator[(e + 1) % 4][1], equator[(e + 1) % 4][2]}};
            AddSubTet(N, i, j, k, p, c, &n);
          }
        if (level <= N - 3) AddSubTet(N, i, j, k, opposite, c, &n);
      }
  PetscCheck(n == 4 * N * N * N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Made %" PetscInt_FMT " sub-tetrahedron vertices, expected %" PetscInt_FMT, n, 4 * N * N * N);
  *nsub  = N * N * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Tetrahedron = {TetrahedronNodes, TetrahedronBasis, TetrahedronCubature, TetrahedronSubCells};
