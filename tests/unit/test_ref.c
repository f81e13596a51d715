/* Unit tests of the reference-element layer (src/ref): 1D quadrature, element cubature,
 * derivative, mass and lift matrices, node sets (triangle, square, tetrahedron), Lebesgue
 * constants and the order range check.
 *
 * Prints one TAP-like line per check ("ok <name>" / "not ok <name> <details>") and a final
 * "ref tests: P passed, F failed"; the exit code is nonzero if any check failed.
 *
 * Tolerances: the exact quantities here are O(1) and computed in double precision from
 * well-conditioned bases (orthonormal modes, warp & blend / GLL nodes), so rounding errors
 * are a few hundred ulps at most. Operators that differentiate grow like N^2 (the largest
 * entries of Dr are ~N^2/2 near the vertices), so derivative tolerances scale with N^2. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

static PetscInt npass = 0, nfail = 0;

/* Report a check that passes when err <= tol. */
static PetscErrorCode Check(const char *name, PetscReal err, PetscReal tol)
{
  PetscFunctionBeginUser;
  if (err <= tol) {
    npass++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ok %s\n", name));
  } else {
    nfail++; /* also catches NaN, for which err <= tol is false */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok %s error %.3e > tolerance %.1e\n", name, (double)err, (double)tol));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Report a boolean check with free-form details on failure. */
static PetscErrorCode CheckBool(const char *name, PetscBool ok, const char *details)
{
  PetscFunctionBeginUser;
  if (ok) {
    npass++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ok %s\n", name));
  } else {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "not ok %s %s\n", name, details));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* int_{-1}^{1} x^k dx */
static PetscReal Moment1D(PetscInt k)
{
  return (k % 2) ? 0.0 : 2.0 / (k + 1.0);
}

static PetscReal IPow(PetscReal x, PetscInt k)
{
  PetscReal p = 1.0;

  for (PetscInt i = 0; i < k; i++) p *= x;
  return p;
}

/* Exact integral of r^a s^b over the bi-unit triangle {r,s >= -1, r+s <= 0}: integrating
 * first in r from -1 to -s,
 *   int_{-1}^{1} s^b ((-s)^{a+1} - (-1)^{a+1})/(a+1) ds
 *     = (-1)^{a+1}/(a+1) ( m_{a+b+1} - m_b ),   m_k = int_{-1}^{1} s^k ds,
 * which involves no cancellation (unlike the binomial expansion of the unit-triangle
 * moments p! q!/(p+q+2)!, which is also computed below as a cross-check). */
static PetscReal TriangleMoment(PetscInt a, PetscInt b)
{
  const PetscReal sign = (a + 1) % 2 ? -1.0 : 1.0;

  return sign / (a + 1.0) * (Moment1D(a + b + 1) - Moment1D(b));
}

/* Same integral via (r,s) = (2x-1, 2y-1), dr ds = 4 dx dy and
 * int_{unit triangle} x^p y^q = p! q! / (p+q+2)!. The alternating sum cancels heavily for
 * large a+b, so the sum of the terms' magnitudes is returned to scale the comparison. */
static PetscReal TriangleMomentBinomial(PetscInt a, PetscInt b, PetscReal *sumabs)
{
  PetscReal sum = 0.0;

  *sumabs = 0.0;
  for (PetscInt p = 0; p <= a; p++) {
    for (PetscInt q = 0; q <= b; q++) {
      PetscReal c = 4.0 * IPow(2.0, p + q) * (((a - p + b - q) % 2) ? -1.0 : 1.0);

      /* binomials C(a,p) C(b,q) and p! q! / (p+q+2)! as running products */
      for (PetscInt k = 1; k <= p; k++) c *= (PetscReal)(a - p + k) / k;
      for (PetscInt k = 1; k <= q; k++) c *= (PetscReal)(b - q + k) / k;
      for (PetscInt k = 1; k <= p; k++) c *= (PetscReal)k;
      for (PetscInt k = 1; k <= q; k++) c *= (PetscReal)k;
      for (PetscInt k = 1; k <= p + q + 2; k++) c /= (PetscReal)k;
      sum += c;
      *sumabs += PetscAbsReal(c);
    }
  }
  return sum;
}

/* ---- 1. one-dimensional quadrature ---- */
static PetscErrorCode TestQuadrature1D(PetscInt n)
{
  PetscReal *x, *w, err;
  char       name[128];
  /* (alpha, beta) pairs: Legendre, the collapsed-coordinate weight (1-x), the GLL interior */
  const PetscReal ab[3][2] = {
      {0.0, 0.0},
      {1.0, 0.0},
      {1.0, 1.0}};

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n, &x, n, &w));
  for (PetscInt c = 0; c < 3; c++) {
    PetscBool asc = PETSC_TRUE;

    PetscCall(JacobiGaussQuadrature(ab[c][0], ab[c][1], n, x, w));
    err = 0.0;
    for (PetscInt k = 0; k <= 2 * n - 1; k++) {
      PetscReal q = 0.0, exact = Moment1D(k);

      for (PetscInt i = 0; i < n; i++) q += w[i] * IPow(x[i], k);
      /* (1-x)^alpha (1+x)^beta x^k expanded for alpha, beta in {0,1} */
      if (ab[c][0] == 1.0 && ab[c][1] == 0.0) exact = Moment1D(k) - Moment1D(k + 1);
      if (ab[c][0] == 1.0 && ab[c][1] == 1.0) exact = Moment1D(k) - Moment1D(k + 2);
      err = PetscMax(err, PetscAbsReal(q - exact));
    }
    for (PetscInt i = 1; i < n; i++) asc = (PetscBool)(asc && x[i] > x[i - 1]);
    for (PetscInt i = 0; i < n; i++) asc = (PetscBool)(asc && x[i] > -1.0 && x[i] < 1.0 && w[i] > 0.0);
    if (!asc) err = PETSC_MAX_REAL;
    PetscCall(PetscSNPrintf(name, sizeof(name), "gauss-jacobi(%g,%g) n=%" PetscInt_FMT " exact to degree %" PetscInt_FMT, (double)ab[c][0], (double)ab[c][1], n, 2 * n - 1));
    PetscCall(Check(name, err, 1e-14 * 20));
  }
  if (n >= 2) {
    PetscBool asc = PETSC_TRUE;

    PetscCall(GaussLobattoLegendre(n, x, w));
    err = 0.0;
    for (PetscInt k = 0; k <= 2 * n - 3; k++) {
      PetscReal q = 0.0;

      for (PetscInt i = 0; i < n; i++) q += w[i] * IPow(x[i], k);
      err = PetscMax(err, PetscAbsReal(q - Moment1D(k)));
    }
    for (PetscInt i = 1; i < n; i++) asc = (PetscBool)(asc && x[i] > x[i - 1]);
    asc = (PetscBool)(asc && x[0] == -1.0 && x[n - 1] == 1.0);
    if (!asc) err = PETSC_MAX_REAL;
    PetscCall(PetscSNPrintf(name, sizeof(name), "gauss-lobatto-legendre n=%" PetscInt_FMT " exact to degree %" PetscInt_FMT, n, 2 * n - 3));
    PetscCall(Check(name, err, 1e-14 * 20));
  }
  PetscCall(PetscFree2(x, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Known GLL rules: n = 3 {-1,0,1}, {1/3,4/3,1/3}; n = 5 {±1, ±sqrt(3/7), 0},
 * {1/10, 49/90, 32/45, 49/90, 1/10}. */
static PetscErrorCode TestGLLKnown(void)
{
  PetscReal       x[5], w[5], err = 0.0;
  const PetscReal x3[3] = {-1.0, 0.0, 1.0}, w3[3] = {1.0 / 3.0, 4.0 / 3.0, 1.0 / 3.0};
  const PetscReal x5[5] = {-1.0, -PetscSqrtReal(3.0 / 7.0), 0.0, PetscSqrtReal(3.0 / 7.0), 1.0};
  const PetscReal w5[5] = {0.1, 49.0 / 90.0, 32.0 / 45.0, 49.0 / 90.0, 0.1};

  PetscFunctionBeginUser;
  PetscCall(GaussLobattoLegendre(3, x, w));
  for (PetscInt i = 0; i < 3; i++) err = PetscMax(err, PetscMax(PetscAbsReal(x[i] - x3[i]), PetscAbsReal(w[i] - w3[i])));
  PetscCall(Check("gll known values n=3", err, 1e-15 * 10));
  err = 0.0;
  PetscCall(GaussLobattoLegendre(5, x, w));
  for (PetscInt i = 0; i < 5; i++) err = PetscMax(err, PetscMax(PetscAbsReal(x[i] - x5[i]), PetscAbsReal(w[i] - w5[i])));
  PetscCall(Check("gll known values n=5", err, 1e-15 * 10));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 2. element cubature ---- */
static PetscErrorCode TestCubature(const RefElement *ref, const char *tag)
{
  const PetscInt deg = 2 * ref->N + 1;
  PetscReal      err = 0.0, wsum = 0.0, area = ref->shape == REF_TRIANGLE ? 2.0 : 4.0;
  PetscBool      inside = PETSC_TRUE;
  char           name[128];

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < ref->Nq; q++) {
    wsum += ref->wq[q];
    inside = (PetscBool)(inside && ref->wq[q] > 0.0 && ref->xiq[2 * q] > -1.0 && ref->xiq[2 * (q) + 1] > -1.0);
    if (ref->shape == REF_TRIANGLE)
      inside = (PetscBool)(inside && ref->xiq[2 * q] + ref->xiq[2 * (q) + 1] < 0.0);
    else
      inside = (PetscBool)(inside && ref->xiq[2 * q] < 1.0 && ref->xiq[2 * (q) + 1] < 1.0);
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "cubature %s weights positive, points interior, sum = area %d", tag, (int)area));
  PetscCall(Check(name, inside ? PetscAbsReal(wsum - area) : PETSC_MAX_REAL, 1e-14 * 10));
  /* triangle: all r^a s^b with a+b <= 2N+1; square: tensor exactness a, b <= 2N+1 */
  for (PetscInt a = 0; a <= deg; a++) {
    for (PetscInt b = 0; b <= deg; b++) {
      PetscReal q = 0.0, exact;

      if (ref->shape == REF_TRIANGLE && a + b > deg) continue;
      exact = ref->shape == REF_TRIANGLE ? TriangleMoment(a, b) : Moment1D(a) * Moment1D(b);
      for (PetscInt k = 0; k < ref->Nq; k++) q += ref->wq[k] * IPow(ref->xiq[2 * k], a) * IPow(ref->xiq[2 * (k) + 1], b);
      err = PetscMax(err, PetscAbsReal(q - exact));
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "cubature %s exact to degree %" PetscInt_FMT, tag, deg));
  PetscCall(Check(name, err, 1e-14 * 20));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 3. derivative matrices ---- */
static PetscErrorCode TestDerivatives(const RefElement *ref, const char *tag)
{
  const PetscInt N = ref->N, Np = ref->Np;
  PetscReal     *u, *ur, *us, err = 0.0;
  char           name[128];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(Np, &u, Np, &ur, Np, &us));
  for (PetscInt a = 0; a <= N; a++) {
    for (PetscInt b = 0; b <= N; b++) {
      if (ref->shape == REF_TRIANGLE && a + b > N) continue;
      for (PetscInt i = 0; i < Np; i++) u[i] = IPow(ref->xi[2 * i], a) * IPow(ref->xi[2 * (i) + 1], b);
      DenseMatMult(Np, Np, 1, ref->D[0], u, ur);
      DenseMatMult(Np, Np, 1, ref->D[1], u, us);
      for (PetscInt i = 0; i < Np; i++) {
        const PetscReal dr = a ? a * IPow(ref->xi[2 * i], a - 1) * IPow(ref->xi[2 * (i) + 1], b) : 0.0;
        const PetscReal ds = b ? b * IPow(ref->xi[2 * i], a) * IPow(ref->xi[2 * (i) + 1], b - 1) : 0.0;

        err = PetscMax(err, PetscMax(PetscAbsReal(ur[i] - dr), PetscAbsReal(us[i] - ds)));
      }
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "Dr,Ds %s exact on degree-%" PetscInt_FMT " monomials", tag, N));
  PetscCall(Check(name, err, 1e-14 * 10 * N * N));
  PetscCall(PetscFree3(u, ur, us));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 4. mass matrix against cubature; V Vinv = I ---- */
static PetscErrorCode TestMass(const RefElement *ref, const char *tag)
{
  const PetscInt Np = ref->Np;
  PetscReal     *W, err = 0.0, errinv = 0.0, errmm = 0.0;
  char           name[128];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(Np * Np, &W));
  for (PetscInt i = 0; i < Np; i++) {
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal m = 0.0;

      for (PetscInt q = 0; q < ref->Nq; q++) m += ref->wq[q] * ref->Iq[q * Np + i] * ref->Iq[q * Np + j];
      err = PetscMax(err, PetscAbsReal(m - ref->M[i * Np + j]));
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "mass %s equals cubature of nodal basis products", tag));
  PetscCall(Check(name, err, 1e-14 * 10));
  DenseMatMult(Np, Np, Np, ref->V, ref->Vinv, W);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) errinv = PetscMax(errinv, PetscAbsReal(W[i * Np + j] - (i == j ? 1.0 : 0.0)));
  DenseMatMult(Np, Np, Np, ref->M, ref->Minv, W);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) errmm = PetscMax(errmm, PetscAbsReal(W[i * Np + j] - (i == j ? 1.0 : 0.0)));
  PetscCall(PetscSNPrintf(name, sizeof(name), "V Vinv = I and M Minv = I %s", tag));
  PetscCall(Check(name, PetscMax(errinv, errmm), 1e-14 * 100));
  PetscCall(PetscFree(W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 5. face mass and lift ---- */
static PetscErrorCode TestLift(const RefElement *ref, PetscRandom rnd, const char *tag)
{
  const PetscInt Np = ref->Np, Nfp = ref->Nfp[0], Nf = ref->Nfaces, Nc = Nf * Nfp;
  PetscReal     *ML, *u, *v, *Mv, err = 0.0, errv = 0.0, errf = 0.0;
  char           name[160];

  PetscFunctionBeginUser;
  /* Mface exact: sum_ij Mface_ij xi_i^a xi_j^b = int xi^{a+b} for a, b <= N, xi the face
   * nodes' coordinate (GLL points, ascending). */
  {
    PetscReal *xg, *wg;

    PetscCall(PetscMalloc2(Nfp, &xg, Nfp, &wg));
    PetscCall(GaussLobattoLegendre(Nfp, xg, wg));
    for (PetscInt a = 0; a <= ref->N; a++) {
      for (PetscInt b = 0; b <= ref->N; b++) {
        PetscReal m = 0.0;

        for (PetscInt i = 0; i < Nfp; i++)
          for (PetscInt j = 0; j < Nfp; j++) m += ref->Mface[i * Nfp + j] * IPow(xg[i], a) * IPow(xg[j], b);
        errf = PetscMax(errf, PetscAbsReal(m - Moment1D(a + b)));
      }
    }
    PetscCall(PetscFree2(xg, wg));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "Mface %s exact 1D mass of the face nodes", tag));
  PetscCall(Check(name, errf, 1e-14 * 20));

  /* M LIFT == E */
  PetscCall(PetscMalloc1(Np * Nc, &ML));
  DenseMatMult(Np, Np, Nc, ref->M, ref->LIFT, ML);
  for (PetscInt n = 0; n < Np; n++) {
    for (PetscInt c = 0; c < Nc; c++) {
      const PetscInt f = c / Nfp, j = c % Nfp;
      PetscReal      e = 0.0;

      for (PetscInt i = 0; i < Nfp; i++)
        if (ref->face_nodes[f * Nfp + i] == n) e = ref->Mface[i * Nfp + j];
      err = PetscMax(err, PetscAbsReal(ML[n * Nc + c] - e));
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "M*LIFT == E %s", tag));
  PetscCall(Check(name, err, 1e-14 * 20));

  /* Random nodal v and face data u_f: v^T M LIFT_f u_f == v_f^T Mface u_f */
  PetscCall(PetscMalloc3(Np, &v, Nc, &u, Np, &Mv));
  for (PetscInt trial = 0; trial < 4; trial++) {
    for (PetscInt i = 0; i < Np; i++) PetscCall(PetscRandomGetValueReal(rnd, &v[i]));
    for (PetscInt i = 0; i < Nc; i++) PetscCall(PetscRandomGetValueReal(rnd, &u[i]));
    /* Mv = M^T v = M v (M symmetric, but use the transpose explicitly) */
    for (PetscInt j = 0; j < Np; j++) {
      Mv[j] = 0.0;
      for (PetscInt i = 0; i < Np; i++) Mv[j] += v[i] * ref->M[i * Np + j];
    }
    for (PetscInt f = 0; f < Nf; f++) {
      PetscReal lhs = 0.0, rhs = 0.0;

      for (PetscInt n = 0; n < Np; n++)
        for (PetscInt j = 0; j < Nfp; j++) lhs += Mv[n] * ref->LIFT[n * Nc + f * Nfp + j] * u[f * Nfp + j];
      for (PetscInt i = 0; i < Nfp; i++)
        for (PetscInt j = 0; j < Nfp; j++) rhs += v[ref->face_nodes[f * Nfp + i]] * ref->Mface[i * Nfp + j] * u[f * Nfp + j];
      errv = PetscMax(errv, PetscAbsReal(lhs - rhs));
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "v^T M LIFT_f u_f == face integral of v u %s", tag));
  PetscCall(Check(name, errv, 1e-14 * 20));
  PetscCall(PetscFree3(v, u, Mv));
  PetscCall(PetscFree(ML));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 6. node sets ---- */
static PetscBool HasNode(const RefElement *ref, PetscReal r, PetscReal s, PetscReal tol)
{
  for (PetscInt i = 0; i < ref->Np; i++)
    if (PetscAbsReal(ref->xi[2 * i] - r) <= tol && PetscAbsReal(ref->xi[2 * (i) + 1] - s) <= tol) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Sub-cells: N^2 of them, every one counterclockwise (positive area), tiling the reference element
 * (areas sum to 2 or 4), every node used. */
static PetscErrorCode TestSubCells(const RefElement *ref, const char *tag)
{
  PetscInt  nsub, *cells, nv = ref->Nverts, *used;
  PetscReal area = 0, minarea = PETSC_MAX_REAL;
  PetscBool allused = PETSC_TRUE;
  char      name[128];

  PetscFunctionBeginUser;
  PetscCall(RefElementSubCells(ref, &nsub, &cells));
  PetscCall(PetscCalloc1(ref->Np, &used));
  for (PetscInt c = 0; c < nsub; c++) {
    PetscReal a = 0; /* shoelace */
    for (PetscInt v = 0; v < nv; v++) {
      const PetscInt p = cells[c * nv + v], q = cells[c * nv + (v + 1) % nv];
      a += 0.5 * (ref->xi[2 * p] * ref->xi[2 * (q) + 1] - ref->xi[2 * q] * ref->xi[2 * (p) + 1]);
      used[p] = 1;
    }
    area += a;
    minarea = PetscMin(minarea, a);
  }
  for (PetscInt i = 0; i < ref->Np; i++) allused = (PetscBool)(allused && used[i]);
  PetscCall(PetscSNPrintf(name, sizeof(name), "sub-cells tile the element %s", tag));
  PetscCall(Check(name, PetscAbsReal(area - (nv == 3 ? 2.0 : 4.0)) + (nsub == ref->N * ref->N ? 0.0 : 1.0), 1e-13));
  PetscCall(PetscSNPrintf(name, sizeof(name), "sub-cells counterclockwise, all nodes used %s", tag));
  PetscCall(CheckBool(name, (PetscBool)(minarea > 0 && allused), "a sub-cell is inverted or a node is unused"));
  PetscCall(PetscFree(used));
  PetscCall(PetscFree(cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestNodes(const RefElement *ref, const char *tag)
{
  const PetscInt  N = ref->N, Np = ref->Np, Nfp = ref->Nfp[0], Nv = ref->Nverts;
  const PetscReal vt[3][2] = {
      {-1, -1},
      {1, -1},
      {-1, 1}};
  const PetscReal vq[4][2] = {
      {-1, -1},
      {1, -1},
      {1, 1},
      {-1, 1}};
  const PetscReal(*vx)[2] = ref->shape == REF_TRIANGLE ? vt : vq;
  const PetscInt expectNp = ref->shape == REF_TRIANGLE ? (N + 1) * (N + 2) / 2 : (N + 1) * (N + 1);
  PetscReal      dmin = PETSC_MAX_REAL, outside = 0.0, *xg, *wg;
  char           name[160], details[256];

  PetscFunctionBeginUser;
  /* count, distinctness, inside the element */
  for (PetscInt i = 0; i < Np; i++) {
    const PetscReal r = ref->xi[2 * i], s = ref->xi[2 * (i) + 1];

    outside = PetscMax(outside, PetscMax(-1.0 - r, -1.0 - s));
    if (ref->shape == REF_TRIANGLE)
      outside = PetscMax(outside, r + s);
    else
      outside = PetscMax(outside, PetscMax(r - 1.0, s - 1.0));
    for (PetscInt j = 0; j < i; j++) dmin = PetscMin(dmin, PetscSqrtReal(PetscSqr(r - ref->xi[2 * j]) + PetscSqr(s - ref->xi[2 * (j) + 1])));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "nodes %s count %" PetscInt_FMT ", distinct (min distance %.3g), inside", tag, Np, (double)dmin));
  PetscCall(PetscSNPrintf(details, sizeof(details), "Np=%" PetscInt_FMT " expected %" PetscInt_FMT ", min distance %g, max outside %g", Np, expectNp, (double)dmin, (double)outside));
  PetscCall(CheckBool(name, (PetscBool)(Np == expectNp && dmin > 1e-3 && outside <= 1e-14), details));

  /* faces: located independently by distance to the segment vertex f -> vertex f+1, with
   * coordinate xi = 2 t - 1, t the normalized projection; must be the N+1 GLL points in
   * increasing order and equal to face_nodes. */
  PetscCall(PetscMalloc2(Nfp, &xg, Nfp, &wg));
  PetscCall(GaussLobattoLegendre(Nfp, xg, wg));
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const PetscReal *a = vx[f], *b = vx[(f + 1) % Nv];
    const PetscReal  ex = b[0] - a[0], ey = b[1] - a[1], len2 = ex * ex + ey * ey;
    PetscInt         cnt = 0;
    PetscReal        err = 0.0;
    PetscBool        ok;

    for (PetscInt n = 0; n < Np; n++) {
      const PetscReal t    = ((ref->xi[2 * n] - a[0]) * ex + (ref->xi[2 * (n) + 1] - a[1]) * ey) / len2;
      const PetscReal dist = PetscSqrtReal(PetscSqr(ref->xi[2 * n] - a[0] - t * ex) + PetscSqr(ref->xi[2 * (n) + 1] - a[1] - t * ey));

      if (dist < 1e-10) cnt++;
    }
    for (PetscInt i = 0; i < Nfp; i++) {
      const PetscInt  n    = ref->face_nodes[f * Nfp + i];
      const PetscReal t    = ((ref->xi[2 * n] - a[0]) * ex + (ref->xi[2 * (n) + 1] - a[1]) * ey) / len2;
      const PetscReal dist = PetscSqrtReal(PetscSqr(ref->xi[2 * n] - a[0] - t * ex) + PetscSqr(ref->xi[2 * (n) + 1] - a[1] - t * ey));

      err = PetscMax(err, PetscMax(dist, PetscAbsReal(2.0 * t - 1.0 - xg[i])));
    }
    ok = (PetscBool)(cnt == Nfp && err <= 1e-13);
    PetscCall(PetscSNPrintf(name, sizeof(name), "face %" PetscInt_FMT " %s has N+1 nodes, ordered, at GLL points", f, tag));
    PetscCall(PetscSNPrintf(details, sizeof(details), "count %" PetscInt_FMT " (expected %" PetscInt_FMT "), max deviation from GLL %.3e", cnt, Nfp, (double)err));
    PetscCall(CheckBool(name, ok, details));
  }
  PetscCall(PetscFree2(xg, wg));

  if (ref->shape == REF_TRIANGLE) {
    /* Barycentric coordinates l1 = -(r+s)/2, l2 = (1+r)/2, l3 = (1+s)/2 (weights of the
     * vertices (-1,-1), (1,-1), (-1,1)); (r,s) = (2 l2 - 1, 2 l3 - 1). A rotation permutes
     * (l1,l2,l3) cyclically, a reflection swaps two of them. */
    PetscReal errrot = 0.0, errref = 0.0;

    for (PetscInt i = 0; i < Np; i++) {
      const PetscReal l1 = -0.5 * (ref->xi[2 * i] + ref->xi[2 * (i) + 1]), l2 = 0.5 * (1.0 + ref->xi[2 * i]), l3 = 0.5 * (1.0 + ref->xi[2 * (i) + 1]);
      const PetscReal rot[2][3] = {
          {l2, l3, l1},
          {l3, l1, l2}};
      for (PetscInt k = 0; k < 2; k++) {
        PetscReal dbest = PETSC_MAX_REAL;

        for (PetscInt j = 0; j < Np; j++) dbest = PetscMin(dbest, PetscMax(PetscAbsReal(ref->xi[2 * j] - (2.0 * rot[k][1] - 1.0)), PetscAbsReal(ref->xi[2 * (j) + 1] - (2.0 * rot[k][2] - 1.0))));
        errrot = PetscMax(errrot, dbest);
      }
      {
        PetscReal dbest = PETSC_MAX_REAL; /* swap l2 <-> l3: (r,s) -> (s,r) */

        for (PetscInt j = 0; j < Np; j++) dbest = PetscMin(dbest, PetscMax(PetscAbsReal(ref->xi[2 * j] - ref->xi[2 * (i) + 1]), PetscAbsReal(ref->xi[2 * (j) + 1] - ref->xi[2 * i])));
        errref = PetscMax(errref, dbest);
      }
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "nodes %s invariant under rotations", tag));
    PetscCall(Check(name, errrot, 1e-12));
    PetscCall(PetscSNPrintf(name, sizeof(name), "nodes %s invariant under reflection", tag));
    PetscCall(Check(name, errref, 1e-12));
    if (N % 3 == 0) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "nodes %s contain the centroid (-1/3,-1/3)", tag));
      PetscCall(CheckBool(name, HasNode(ref, -1.0 / 3.0, -1.0 / 3.0, 1e-12), "centroid not found"));
    }
  } else {
    PetscReal known = -1.0;

    if (N == 3) known = 1.0 / PetscSqrtReal(5.0);
    if (N == 4) known = PetscSqrtReal(3.0 / 7.0);
    if (known > 0.0) {
      /* node i = N-1 of the first row is the largest interior GLL point */
      PetscCall(PetscSNPrintf(name, sizeof(name), "nodes %s interior GLL point %.15f", tag, (double)known));
      PetscCall(Check(name, PetscAbsReal(ref->xi[2 * (N - 1)] - known) + PetscAbsReal(ref->xi[2 * ((N - 1) * (N + 1)) + 1] - known) + (HasNode(ref, -known, known, 1e-15) ? 0.0 : 1.0), 1e-15 * 4));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 7. Lebesgue constants ---- */
/* Equidistant lattice on the triangle, r fastest, for the comparison constant. */
static PetscErrorCode SetEquidistantNodes(RefElement *ref)
{
  const PetscInt N  = ref->N;
  PetscInt       sk = 0;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j <= N; j++)
    for (PetscInt i = 0; i <= N - j; i++, sk++) {
      ref->xi[2 * sk]       = -1.0 + 2.0 * i / N;
      ref->xi[2 * (sk) + 1] = -1.0 + 2.0 * j / N;
    }
  PetscCall(RefElementModalBasis(ref->shape, N, ref->Np, ref->xi, ref->V, NULL));
  PetscCall(DenseInvert(ref->Np, ref->V, ref->Vinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1D GLL Lebesgue constant on the same K = 120 lattice that RefElementLebesgueConstant
 * uses; the tensor nodal basis' Lebesgue function is the product of the 1D ones, so the
 * square's lattice maximum is exactly its square. */
static PetscErrorCode LebesgueGLL1D(PetscInt N, PetscInt K, PetscReal *leb)
{
  PetscReal *x, *w, lmax = 0.0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(N + 1, &x, N + 1, &w));
  PetscCall(GaussLobattoLegendre(N + 1, x, w));
  for (PetscInt k = 0; k <= K; k++) {
    const PetscReal y   = -1.0 + 2.0 * k / K;
    PetscReal       sum = 0.0;

    for (PetscInt i = 0; i <= N; i++) {
      PetscReal l = 1.0;

      for (PetscInt j = 0; j <= N; j++)
        if (j != i) l *= (y - x[j]) / (x[i] - x[j]);
      sum += PetscAbsReal(l);
    }
    lmax = PetscMax(lmax, sum);
  }
  PetscCall(PetscFree2(x, w));
  *leb = lmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestLebesgue(RefElement *ref, const char *tag)
{
  /* Hesthaven & Warburton, Table 6.1, alpha-optimized warp & blend nodes, N = 1..10 */
  const PetscReal table[10] = {1.00, 1.67, 2.11, 2.65, 3.12, 3.70, 4.27, 4.96, 5.74, 6.67};
  const PetscInt  N         = ref->N;
  PetscReal       leb, lebeq = 0.0, leb1 = 0.0;
  char            name[200], details[200];

  PetscFunctionBeginUser;
  PetscCall(RefElementLebesgueConstant(ref, &leb));
  if (ref->shape == REF_TRIANGLE) {
    /* The book's values are rounded to 2 decimals and the lattice maximum may only
     * underestimate: accept a 2% relative deviation. */
    PetscCall(SetEquidistantNodes(ref)); /* destroys the element's nodes; it is not reused */
    PetscCall(RefElementLebesgueConstant(ref, &lebeq));
    PetscCall(PetscSNPrintf(name, sizeof(name), "lebesgue %s warp&blend %.4f (H&W table %.2f, equidistant %.4f)", tag, (double)leb, (double)table[N - 1], (double)lebeq));
    PetscCall(PetscSNPrintf(details, sizeof(details), "relative deviation %.2f%% from the table", 100.0 * (double)PetscAbsReal(leb / table[N - 1] - 1.0)));
    PetscCall(CheckBool(name, (PetscBool)(PetscAbsReal(leb / table[N - 1] - 1.0) <= 0.02 && leb <= lebeq + 1e-12), details));
  } else {
    PetscCall(LebesgueGLL1D(N, 120, &leb1));
    PetscCall(PetscSNPrintf(name, sizeof(name), "lebesgue %s tensor GLL %.4f = (1D GLL %.4f)^2", tag, (double)leb, (double)leb1));
    PetscCall(Check(name, PetscAbsReal(leb - leb1 * leb1), 1e-12 * leb));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 8. tetrahedron warp & blend ---- */
static PetscErrorCode TestTetrahedron(PetscInt N)
{
  const PetscInt Np = (N + 1) * (N + 2) * (N + 3) / 6;
  /* vertex k has barycentric coordinate lam[k]: v0 (-1,-1,-1), v1 (1,-1,-1), v2 (-1,1,-1), v3 (-1,-1,1) */
  const PetscReal verts[4][3] = {
      {-1, -1, -1},
      {1, -1, -1},
      {-1, 1, -1},
      {-1, -1, 1}};
  PetscReal *r, *s, *t, *lam, *xg, *wg, *xi, outside = 0.0, dmin = PETSC_MAX_REAL, errsym = 0.0;
  PetscBool  finite = PETSC_TRUE, verts_ok = PETSC_TRUE;
  char       name[160], details[256];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(Np, &r, Np, &s, Np, &t, 4 * Np, &lam));
  PetscCall(PetscMalloc3(N + 1, &xg, N + 1, &wg, Np, &xi));
  for (PetscInt i = 0; i < Np; i++) r[i] = s[i] = t[i] = PETSC_MAX_REAL;
  PetscCall(NodesTetrahedronWarpBlend(N, r, s, t));
  for (PetscInt i = 0; i < Np; i++) {
    finite         = (PetscBool)(finite && !PetscIsInfOrNanReal(r[i] + s[i] + t[i]) && PetscAbsReal(r[i]) < 2 && PetscAbsReal(s[i]) < 2 && PetscAbsReal(t[i]) < 2);
    lam[4 * i + 0] = -0.5 * (1.0 + r[i] + s[i] + t[i]);
    lam[4 * i + 1] = 0.5 * (1.0 + r[i]);
    lam[4 * i + 2] = 0.5 * (1.0 + s[i]);
    lam[4 * i + 3] = 0.5 * (1.0 + t[i]);
    for (PetscInt k = 0; k < 4; k++) outside = PetscMax(outside, -lam[4 * i + k]);
    for (PetscInt j = 0; j < i; j++) dmin = PetscMin(dmin, PetscSqrtReal(PetscSqr(r[i] - r[j]) + PetscSqr(s[i] - s[j]) + PetscSqr(t[i] - t[j])));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT " %" PetscInt_FMT " distinct nodes (min distance %.3g), all inside", N, Np, (double)dmin));
  PetscCall(PetscSNPrintf(details, sizeof(details), "finite %d, min distance %g, max outside %g", (int)finite, (double)dmin, (double)outside));
  PetscCall(CheckBool(name, (PetscBool)(finite && dmin > 1e-3 && outside <= 1e-14), details));

  for (PetscInt v = 0; v < 4; v++) {
    PetscBool found = PETSC_FALSE;

    for (PetscInt i = 0; i < Np; i++)
      if (PetscAbsReal(r[i] - verts[v][0]) < 1e-14 && PetscAbsReal(s[i] - verts[v][1]) < 1e-14 && PetscAbsReal(t[i] - verts[v][2]) < 1e-14) found = PETSC_TRUE;
    verts_ok = (PetscBool)(verts_ok && found);
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT " contains the 4 vertices", N));
  PetscCall(CheckBool(name, verts_ok, "a vertex is missing"));

  /* Edges: nodes whose other two barycentric coordinates vanish; coordinate along the
   * edge a -> b is lam_b - lam_a; sorted, these must be the GLL points. */
  PetscCall(GaussLobattoLegendre(N + 1, xg, wg));
  {
    PetscReal err      = 0.0;
    PetscInt  badcount = -1;

    for (PetscInt a = 0; a < 4; a++) {
      for (PetscInt b = a + 1; b < 4; b++) {
        PetscInt cnt = 0;

        for (PetscInt i = 0; i < Np; i++) {
          PetscBool on = PETSC_TRUE;

          for (PetscInt k = 0; k < 4; k++)
            if (k != a && k != b && PetscAbsReal(lam[4 * i + k]) > 1e-10) on = PETSC_FALSE;
          if (on && cnt <= N) xi[cnt] = lam[4 * i + b] - lam[4 * i + a];
          if (on) cnt++;
        }
        if (cnt != N + 1) {
          badcount = cnt;
          continue;
        }
        PetscCall(PetscSortReal(cnt, xi));
        for (PetscInt i = 0; i <= N; i++) err = PetscMax(err, PetscAbsReal(xi[i] - xg[i]));
      }
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT " edges carry the N+1 GLL points", N));
    PetscCall(PetscSNPrintf(details, sizeof(details), "bad edge count %" PetscInt_FMT ", max deviation %.3e", badcount, (double)err));
    PetscCall(CheckBool(name, (PetscBool)(badcount < 0 && err <= 1e-13), details));
  }

  /* Symmetry: the node set is invariant under permutations of the barycentric
   * coordinates (checked for the generators (0 1 2 3) and (0 1)). */
  for (PetscInt i = 0; i < Np; i++) {
    const PetscReal *L          = &lam[4 * i];
    const PetscReal  perm[2][4] = {
         {L[1], L[2], L[3], L[0]},
         {L[1], L[0], L[2], L[3]}};
    for (PetscInt p = 0; p < 2; p++) {
      PetscReal dbest = PETSC_MAX_REAL;

      for (PetscInt j = 0; j < Np; j++) {
        PetscReal d = 0.0;

        for (PetscInt k = 0; k < 4; k++) d = PetscMax(d, PetscAbsReal(lam[4 * j + k] - perm[p][k]));
        dbest = PetscMin(dbest, d);
      }
      errsym = PetscMax(errsym, dbest);
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT " nodes invariant under vertex permutations", N));
  PetscCall(Check(name, errsym, 1e-12));
  PetscCall(PetscFree4(r, s, t, lam));
  PetscCall(PetscFree3(xg, wg, xi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 9. order range and singular matrices are errors ---- */
static PetscErrorCode TestErrors(void)
{
  const PetscInt  bad[2] = {0, HOFLOW_NMAX + 1};
  const PetscReal S[4]   = {1.0, 2.0, 2.0, 4.0};
  PetscReal       Sinv[4];
  char            name[128];

  PetscFunctionBeginUser;
  for (PetscInt sh = 0; sh < 2; sh++) {
    for (PetscInt k = 0; k < 2; k++) {
      RefElement    *ref = NULL;
      PetscErrorCode ierr;

      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = RefElementCreate((RefShape)sh, bad[k], &ref);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscSNPrintf(name, sizeof(name), "RefElementCreate %s N=%" PetscInt_FMT " is an error", RefShapes[sh], bad[k]));
      PetscCall(CheckBool(name, (PetscBool)(ierr != 0 && ref == NULL), "no error returned"));
    }
  }
  {
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DenseInvert(2, S, Sinv);
    PetscCall(PetscPopErrorHandler());
    PetscCall(CheckBool("DenseInvert of a singular matrix is an error", (PetscBool)(ierr != 0), "no error returned"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscRandom rnd;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Unit tests of the hoflow reference elements"));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscRandomSetFromOptions(rnd));

  /* 1D rules for every size used by orders 1..NMAX (N+1 points), plus known GLL values */
  for (PetscInt n = 1; n <= HOFLOW_NMAX + 1; n++) PetscCall(TestQuadrature1D(n));
  PetscCall(TestGLLKnown());
  {
    PetscReal err = 0.0; /* relative to the magnitude of the binomial terms */

    for (PetscInt a = 0; a <= 2 * HOFLOW_NMAX + 1; a++) {
      for (PetscInt b = 0; a + b <= 2 * HOFLOW_NMAX + 1; b++) {
        PetscReal sumabs, mb = TriangleMomentBinomial(a, b, &sumabs);

        err = PetscMax(err, PetscAbsReal(TriangleMoment(a, b) - mb) / sumabs);
      }
    }
    PetscCall(Check("triangle moments: closed form == binomial expansion of unit-triangle moments", err, 1e-14));
  }

  for (PetscInt sh = 0; sh < 2; sh++) {
    for (PetscInt N = 1; N <= HOFLOW_NMAX; N++) {
      RefElement *ref;
      char        tag[64];

      PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s N=%" PetscInt_FMT, RefShapes[sh], N));
      PetscCall(RefElementCreate((RefShape)sh, N, &ref));
      PetscCall(TestCubature(ref, tag));
      PetscCall(TestDerivatives(ref, tag));
      PetscCall(TestMass(ref, tag));
      PetscCall(TestLift(ref, rnd, tag));
      PetscCall(TestNodes(ref, tag));
      PetscCall(TestSubCells(ref, tag));
      PetscCall(TestLebesgue(ref, tag)); /* last: may overwrite the nodes */
      PetscCall(RefElementDestroy(&ref));
    }
  }
  for (PetscInt N = 1; N <= HOFLOW_NMAX; N++) PetscCall(TestTetrahedron(N));
  PetscCall(TestErrors());

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "ref tests: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
