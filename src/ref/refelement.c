/* Reference elements: orthonormal modal bases, nodal operators (Vandermonde, derivative,
 * mass and lift matrices) and cubature, following Hesthaven & Warburton's nodal DG setup.
 *
 * Everything nodal is built from the orthonormal modal basis phi_j through the Vandermonde
 * matrix V_ij = phi_j(x_i): the nodal (Lagrange) basis is l = V^{-T} phi, hence
 *   M = int l l^T = V^{-T} (int phi phi^T) V^{-1} = (V V^T)^{-1}   (int phi phi^T = I),
 *   Dr = Vr V^{-1}, Ds = Vs V^{-1}  with Vr_ij = d phi_j/dr (x_i),
 * and interpolation to arbitrary points is P(points) V^{-1}. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

const char *const RefShapes[] = {"triangle", "quadrilateral", "RefShape", "REF_", NULL};

/* x^n for a small non-negative integer n, with x^0 = 1 also for x = 0 (the collapsed
 * coordinate factors (1-b)^i are evaluated at b = 1). */
static PetscReal IntPow(PetscReal x, PetscInt n)
{
  PetscReal p = 1.0;

  for (PetscInt k = 0; k < n; k++) p *= x;
  return p;
}

/* Number of nodes of the order-N element. */
static PetscInt ShapeNp(RefShape shape, PetscInt N)
{
  return shape == REF_TRIANGLE ? (N + 1) * (N + 2) / 2 : (N + 1) * (N + 1);
}

/* Orthonormal bases.
 *
 * Triangle (Dubiner / Koornwinder, H&W Simplex2DP): with the collapsed coordinates
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
 * i >= 2 both sides vanish, and for i <= 1 the terms in (1+a) cancel exactly.
 *
 * Quadrilateral: phi_{i+(N+1)j}(r,s) = P_i^{(0,0)}(r) P_j^{(0,0)}(s), 0 <= i,j <= N. */
PetscErrorCode RefElementModalBasis(RefShape shape, PetscInt N, PetscInt n, const PetscReal rp[], const PetscReal sp[], PetscReal P[], PetscReal Pr[], PetscReal Ps[])
{
  const PetscInt Np = ShapeNp(shape, N);

  PetscFunctionBeginUser;
  PetscCheck(shape == REF_TRIANGLE || shape == REF_QUADRILATERAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown reference shape %d", (int)shape);
  PetscCheck(N >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Polynomial order must be non-negative (-order), got %" PetscInt_FMT, N);
  for (PetscInt q = 0; q < n; q++) {
    const PetscReal r = rp[q], s = sp[q];

    if (shape == REF_TRIANGLE) {
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
    } else {
      for (PetscInt j = 0; j <= N; j++) {
        const PetscReal ps = JacobiP(s, 0.0, 0.0, j), dps = JacobiPDerivative(s, 0.0, 0.0, j);

        for (PetscInt i = 0; i <= N; i++) {
          const PetscInt  m  = i + (N + 1) * j;
          const PetscReal pr = JacobiP(r, 0.0, 0.0, i), dpr = JacobiPDerivative(r, 0.0, 0.0, i);

          if (P) P[q * Np + m] = pr * ps;
          if (Pr) Pr[q * Np + m] = dpr * ps;
          if (Ps) Ps[q * Np + m] = pr * dps;
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* interp = P(points) V^{-1}: row i holds the nodal basis functions l_j evaluated at point i. */
PetscErrorCode RefElementInterpolationMatrix(const RefElement *ref, PetscInt n, const PetscReal rp[], const PetscReal sp[], PetscReal interp[])
{
  PetscReal *P;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * ref->Np, &P));
  PetscCall(RefElementModalBasis(ref->shape, ref->N, n, rp, sp, P, NULL, NULL));
  DenseMatMult(n, ref->Np, ref->Np, P, ref->Vinv, interp);
  PetscCall(PetscFree(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementSubCells(const RefElement *ref, PetscInt *nsub, PetscInt **cells)
{
  const PetscInt N = ref->N, nv = ref->Nverts;
  PetscInt      *c, n           = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N * N * nv, &c));
  if (ref->shape == REF_TRIANGLE) {
    /* lattice node (i,j), i + j <= N, is node j(N+1) - j(j-1)/2 + i (NodesTriangleWarpBlend order) */
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
  } else {
    for (PetscInt j = 0; j < N; j++)
      for (PetscInt i = 0; i < N; i++) {
        c[n++] = j * (N + 1) + i;
        c[n++] = j * (N + 1) + i + 1;
        c[n++] = (j + 1) * (N + 1) + i + 1;
        c[n++] = (j + 1) * (N + 1) + i;
      }
  }
  PetscCheck(n == N * N * nv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Sub-cell count %" PetscInt_FMT " != N^2", n / nv);
  *nsub  = N * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Face f of the element: whether (r,s) lies on it (within tol) and the 1D coordinate
 * xi in [-1,1] that runs along the face from its first vertex (xi = -1) to its second
 * (xi = 1), faces being numbered by their first vertex (counterclockwise).
 *   triangle: f0 s = -1, xi = r;   f1 r + s = 0, xi = s;   f2 r = -1, xi = -s;
 *   square:   f0 s = -1, xi = r;   f1 r = 1, xi = s;   f2 s = 1, xi = -r;   f3 r = -1, xi = -s. */
static PetscBool OnFace(RefShape shape, PetscInt f, PetscReal r, PetscReal s, PetscReal tol, PetscReal *xi)
{
  if (shape == REF_TRIANGLE) {
    switch (f) {
    case 0:
      *xi = r;
      return (PetscBool)(PetscAbsReal(s + 1.0) < tol);
    case 1:
      *xi = s;
      return (PetscBool)(PetscAbsReal(r + s) < tol);
    default:
      *xi = -s;
      return (PetscBool)(PetscAbsReal(r + 1.0) < tol);
    }
  }
  switch (f) {
  case 0:
    *xi = r;
    return (PetscBool)(PetscAbsReal(s + 1.0) < tol);
  case 1:
    *xi = s;
    return (PetscBool)(PetscAbsReal(r - 1.0) < tol);
  case 2:
    *xi = -r;
    return (PetscBool)(PetscAbsReal(s - 1.0) < tol);
  default:
    *xi = -s;
    return (PetscBool)(PetscAbsReal(r + 1.0) < tol);
  }
}

/* face_nodes[f*Nfp + i]: the nodes found on face f, sorted by increasing face coordinate;
 * xi0[i] returns the face coordinates of face 0 (the same GLL set on every face). */
static PetscErrorCode BuildFaceNodes(RefElement *ref, PetscReal xi0[])
{
  const PetscInt Nfp = ref->Nfp;
  PetscReal     *xi;
  PetscInt       badface = -1, badcount = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(Nfp, &xi));
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    PetscInt *fn = &ref->face_nodes[f * Nfp], cnt = 0;

    for (PetscInt n = 0; n < ref->Np; n++) {
      PetscReal x;

      if (!OnFace(ref->shape, f, ref->r[n], ref->s[n], 1e-10, &x)) continue;
      if (cnt < Nfp) {
        xi[cnt] = x;
        fn[cnt] = n;
      }
      cnt++;
    }
    if (cnt != Nfp) {
      badface  = f;
      badcount = cnt;
      break;
    }
    PetscCall(PetscSortRealWithArrayInt(Nfp, xi, fn));
    if (f == 0) {
      for (PetscInt i = 0; i < Nfp; i++) xi0[i] = xi[i];
    }
  }
  PetscCall(PetscFree(xi));
  PetscCheck(badface < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Found %" PetscInt_FMT " nodes on face %" PetscInt_FMT " of the %s, expected %" PetscInt_FMT, badcount, badface, RefShapes[ref->shape], Nfp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cubature on the reference element exact for polynomials of degree `degree`:
 *   square: tensor n-point Gauss–Legendre, n = ceil((degree+1)/2), exact to 2n-1 per direction.
 *   triangle: collapsed (Stroud conical) rule. With r = (1+a)(1-b)/2 - 1, s = b the Jacobian
 *     is dr ds = (1-b)/2 da db, so int_T f = 1/2 int int f (1-b) da db: Gauss–Legendre in a
 *     and Gauss–Jacobi(1,0) in b (which absorbs the factor 1-b), n points each; a degree-d
 *     polynomial in (r,s) has degree <= d in a and in b, so the rule is exact to 2n-1.
 *     Weights w = w_a w_b / 2 sum to 2 * 2 / 2 = 2, the triangle's area. */
PetscErrorCode RefElementCubature(RefShape shape, PetscInt degree, PetscInt *nq_out, PetscReal **rq, PetscReal **sq, PetscReal **wq)
{
  const PetscInt nq = degree / 2 + 1; /* 2 nq - 1 >= degree */
  PetscReal     *xa, *wa, *xb, *wb;

  PetscFunctionBeginUser;
  PetscCheck(degree >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cubature degree %" PetscInt_FMT " must be >= 0", degree);
  PetscCall(PetscMalloc4(nq, &xa, nq, &wa, nq, &xb, nq, &wb));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, nq, xa, wa));
  if (shape == REF_TRIANGLE)
    PetscCall(JacobiGaussQuadrature(1.0, 0.0, nq, xb, wb));
  else
    PetscCall(JacobiGaussQuadrature(0.0, 0.0, nq, xb, wb));
  *nq_out = nq * nq;
  PetscCall(PetscMalloc1(nq * nq, rq));
  PetscCall(PetscMalloc1(nq * nq, sq));
  PetscCall(PetscMalloc1(nq * nq, wq));
  for (PetscInt j = 0; j < nq; j++) {
    for (PetscInt i = 0; i < nq; i++) {
      const PetscInt q = i + nq * j;

      if (shape == REF_TRIANGLE) {
        (*rq)[q] = 0.5 * (1.0 + xa[i]) * (1.0 - xb[j]) - 1.0;
        (*sq)[q] = xb[j];
        (*wq)[q] = 0.5 * wa[i] * wb[j];
      } else {
        (*rq)[q] = xa[i];
        (*sq)[q] = xb[j];
        (*wq)[q] = wa[i] * wb[j];
      }
    }
  }
  PetscCall(PetscFree4(xa, wa, xb, wb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element cubature exact for polynomials of degree 2N+1 (products of two degree-N functions times
 * a degree-1 factor such as an affine coefficient), and the interpolation to it. */
static PetscErrorCode BuildCubature(RefElement *ref)
{
  PetscFunctionBeginUser;
  PetscCall(RefElementCubature(ref->shape, 2 * ref->N + 1, &ref->Nq, &ref->rq, &ref->sq, &ref->wq));
  PetscCall(PetscMalloc1(ref->Nq * ref->Np, &ref->Iq));
  PetscCall(RefElementInterpolationMatrix(ref, ref->Nq, ref->rq, ref->sq, ref->Iq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementCreate(RefShape shape, PetscInt N, RefElement **ref)
{
  RefElement *re;
  PetscInt    Np, Nfp, Nf;
  PetscReal  *Vr, *Vs, *VinvT, *xi, *V1, *V1inv, *V1invT, *E;

  PetscFunctionBeginUser;
  PetscCheck(shape == REF_TRIANGLE || shape == REF_QUADRILATERAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown reference shape %d", (int)shape);
  PetscCheck(N >= 1 && N <= HOFLOW_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Polynomial order -order %" PetscInt_FMT " is outside the supported range 1..%d", N, HOFLOW_NMAX);
  PetscCall(PetscCalloc1(1, &re));
  re->shape = shape;
  re->N     = N;
  re->Np = Np = ShapeNp(shape, N);
  re->Nfp = Nfp = N + 1;
  re->Nfaces = Nf = shape == REF_TRIANGLE ? 3 : 4;
  re->Nverts      = Nf;

  /* Nodes */
  /* Every array is allocated on its own (no PetscMalloc2..), so that users may replace or
   * free members individually without knowing how they were grouped. */
  PetscCall(PetscMalloc1(Np, &re->r));
  PetscCall(PetscMalloc1(Np, &re->s));
  if (shape == REF_TRIANGLE)
    PetscCall(NodesTriangleWarpBlend(N, re->r, re->s));
  else
    PetscCall(NodesQuadrilateralGLL(N, re->r, re->s));
  PetscCall(PetscMalloc1(Nf * Nfp, &re->face_nodes));
  PetscCall(PetscMalloc1(Nfp, &xi));
  PetscCall(BuildFaceNodes(re, xi));

  /* Vandermonde matrices and derivative operators */
  PetscCall(PetscMalloc1(Np * Np, &re->V));
  PetscCall(PetscMalloc1(Np * Np, &re->Vinv));
  PetscCall(PetscMalloc1(Np * Np, &re->Dr));
  PetscCall(PetscMalloc1(Np * Np, &re->Ds));
  PetscCall(PetscMalloc3(Np * Np, &Vr, Np * Np, &Vs, Np * Np, &VinvT));
  PetscCall(RefElementModalBasis(shape, N, Np, re->r, re->s, re->V, Vr, Vs));
  PetscCall(DenseInvert(Np, re->V, re->Vinv));
  DenseMatMult(Np, Np, Np, Vr, re->Vinv, re->Dr);
  DenseMatMult(Np, Np, Np, Vs, re->Vinv, re->Ds);

  /* Mass matrix and inverse: Minv = V V^T, M = (V V^T)^{-1} = V^{-T} V^{-1}, the latter
   * evaluated as a product of the already computed inverse instead of a second inversion. */
  PetscCall(PetscMalloc1(Np * Np, &re->M));
  PetscCall(PetscMalloc1(Np * Np, &re->Minv));
  DenseMatMultTranspose(Np, Np, Np, re->V, re->V, re->Minv);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) VinvT[i * Np + j] = re->Vinv[j * Np + i];
  DenseMatMult(Np, Np, Np, VinvT, re->Vinv, re->M);
  PetscCall(PetscFree3(Vr, Vs, VinvT));

  /* Face mass matrix: the 1D analogue, Mface = (V1 V1^T)^{-1} = V1^{-T} V1^{-1} with the
   * orthonormal Legendre Vandermonde V1_ik = P_k(xi_i) at the face nodes' coordinate xi. */
  PetscCall(PetscMalloc1(Nfp * Nfp, &re->Mface));
  PetscCall(PetscMalloc3(Nfp * Nfp, &V1, Nfp * Nfp, &V1inv, Nfp * Nfp, &V1invT));
  for (PetscInt i = 0; i < Nfp; i++)
    for (PetscInt k = 0; k < Nfp; k++) V1[i * Nfp + k] = JacobiP(xi[i], 0.0, 0.0, k);
  PetscCall(DenseInvert(Nfp, V1, V1inv));
  for (PetscInt i = 0; i < Nfp; i++)
    for (PetscInt j = 0; j < Nfp; j++) V1invT[i * Nfp + j] = V1inv[j * Nfp + i];
  DenseMatMult(Nfp, Nfp, Nfp, V1invT, V1inv, re->Mface);
  PetscCall(PetscFree3(V1, V1inv, V1invT));
  PetscCall(PetscFree(xi));

  /* LIFT = Minv E: E maps face traces to the element, E[face_nodes[f Nfp + i], f Nfp + j]
   * = Mface_ij, so that (E g)_n = int_face l_n g ds for a face function g given at the face
   * nodes (the nodal basis restricted to a face is the face's 1D nodal basis, since exactly
   * Nfp nodes lie on it and the trace has degree N). */
  PetscCall(PetscCalloc1(Np * Nf * Nfp, &E));
  for (PetscInt f = 0; f < Nf; f++)
    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < Nfp; j++) E[re->face_nodes[f * Nfp + i] * (Nf * Nfp) + f * Nfp + j] = re->Mface[i * Nfp + j];
  PetscCall(PetscMalloc1(Np * Nf * Nfp, &re->LIFT));
  DenseMatMult(Np, Np, Nf * Nfp, re->Minv, E, re->LIFT);
  PetscCall(PetscFree(E));

  /* Cubature and interpolation to it */
  PetscCall(BuildCubature(re));
  *ref = re;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementDestroy(RefElement **ref)
{
  RefElement *re;

  PetscFunctionBeginUser;
  if (!ref || !*ref) PetscFunctionReturn(PETSC_SUCCESS);
  re = *ref;
  PetscCall(PetscFree(re->r));
  PetscCall(PetscFree(re->s));
  PetscCall(PetscFree(re->face_nodes));
  PetscCall(PetscFree(re->V));
  PetscCall(PetscFree(re->Vinv));
  PetscCall(PetscFree(re->Dr));
  PetscCall(PetscFree(re->Ds));
  PetscCall(PetscFree(re->M));
  PetscCall(PetscFree(re->Minv));
  PetscCall(PetscFree(re->Mface));
  PetscCall(PetscFree(re->LIFT));
  PetscCall(PetscFree(re->rq));
  PetscCall(PetscFree(re->sq));
  PetscCall(PetscFree(re->wq));
  PetscCall(PetscFree(re->Iq));
  PetscCall(PetscFree(re));
  *ref = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
