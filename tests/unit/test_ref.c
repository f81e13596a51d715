/* Unit tests of the reference-element layer (src/ref): 1D quadrature, element cubature,
 * derivative, mass and lift matrices, node sets (triangle, square, tetrahedron), Lebesgue
 * constants and the order range check; for the 3D elements (tetrahedron, prism, hexahedron)
 * also the modal bases' orthonormality, face nodes and face mass matrices, integration by parts,
 * sub-cells, interpolation, the 1D tensor factor and the conformity of faces between shapes.
 * Prisms and hexahedra are tested up to order 8 (-ref_prism_nmax, -ref_hex_nmax raise it to 10,
 * which takes over half a minute more: the order-10 hexahedron has 1331 nodes).
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
  {
    /* sum_q w_q l_i(x_q) l_j(x_q) as a product of rows of Iq^T (contiguous, for the large 3D Np) */
    const PetscInt Nq = ref->Nq;
    PetscReal     *IqT, *WIqT;

    PetscCall(PetscMalloc2(Np * Nq, &IqT, Np * Nq, &WIqT));
    DenseTranspose(Nq, Np, ref->Iq, IqT);
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt q = 0; q < Nq; q++) WIqT[i * Nq + q] = ref->wq[q] * IqT[i * Nq + q];
    DenseMatMultTranspose(Np, Nq, Np, IqT, WIqT, W);
    for (PetscInt i = 0; i < Np * Np; i++) err = PetscMax(err, PetscAbsReal(W[i] - ref->M[i]));
    PetscCall(PetscFree2(IqT, WIqT));
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
  /* in 3D the rounding errors of the Np-term products grow with Np (M's condition number with it) */
  PetscCall(Check(name, PetscMax(errinv, errmm), ref->dim == 3 ? 2e-14 * Np : 1e-14 * 100));
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

/* ==== three-dimensional elements: tetrahedron, prism, hexahedron ====
 *
 * Cubature rules are tested on monomials in the shifted coordinates u = 1+r, v = 1+s, w = 1+t:
 * they span the same polynomial spaces as r^a s^b t^c, and their integrals over the reference
 * shapes are products of factorials (Dirichlet's integral on simplices), while the rules' sums
 * of them have positive terms only, so both are computed and compared to relative rounding
 * without cancellation. */

/* k!, exact to 22! and correctly rounded to a few ulps beyond. */
static PetscReal Factorial(PetscInt k)
{
  PetscReal f = 1.0;

  for (PetscInt i = 2; i <= k; i++) f *= (PetscReal)i;
  return f;
}

/* int (1+r)^p (1+s)^q (1+t)^m over a reference shape (m = 0 in 2D). With u = 1+r, ... the
 * triangle is {u, v >= 0, u+v <= 2} and the tetrahedron {u, v, w >= 0, u+v+w <= 2}: unit
 * simplices scaled by 2, on which int x^p y^q = p! q!/(p+q+2)! and
 * int x^p y^q z^m = p! q! m!/(p+q+m+3)! (Dirichlet). The prism is the triangle times [-1,1],
 * the quadrilateral and hexahedron products of [-1,1], int_{-1}^{1} (1+t)^m = 2^{m+1}/(m+1). */
static PetscReal ShiftedMoment(RefShape shape, PetscInt p, PetscInt q, PetscInt m)
{
  switch (shape) {
  case REF_TRIANGLE:
    return IPow(2.0, p + q + 2) * Factorial(p) * Factorial(q) / Factorial(p + q + 2);
  case REF_QUADRILATERAL:
    return IPow(2.0, p + 1) / (p + 1.0) * IPow(2.0, q + 1) / (q + 1.0);
  case REF_TETRAHEDRON:
    return IPow(2.0, p + q + m + 3) * Factorial(p) * Factorial(q) * Factorial(m) / Factorial(p + q + m + 3);
  case REF_PRISM:
    return ShiftedMoment(REF_TRIANGLE, p, q, 0) * IPow(2.0, m + 1) / (m + 1.0);
  case REF_HEXAHEDRON:
    return IPow(2.0, p + 1) / (p + 1.0) * IPow(2.0, q + 1) / (q + 1.0) * IPow(2.0, m + 1) / (m + 1.0);
  default:
    return 0.0;
  }
}

/* Whether the monomial of exponents (p, q, m) belongs to the shape's order-n space: total degree
 * on simplices, degree per variable on quadrilaterals and hexahedra, total degree in (r,s) and
 * degree in t on prisms. (The cubature rules are claimed exact to total degree n; on tensor
 * shapes they are exact on the larger tensor space, which is what is tested.) */
static PetscBool InSpace(RefShape shape, PetscInt n, PetscInt p, PetscInt q, PetscInt m)
{
  switch (shape) {
  case REF_TRIANGLE:
    return (PetscBool)(p + q <= n && m == 0);
  case REF_QUADRILATERAL:
    return (PetscBool)(p <= n && q <= n && m == 0);
  case REF_TETRAHEDRON:
    return (PetscBool)(p + q + m <= n);
  case REF_PRISM:
    return (PetscBool)(p + q <= n && m <= n);
  default:
    return (PetscBool)(p <= n && q <= n && m <= n);
  }
}

/* The exponents of the shape's order-n space, [3*count], PetscMalloc'd. */
static PetscErrorCode MonomialList(RefShape shape, PetscInt n, PetscInt *count, PetscInt **exps)
{
  PetscInt c = 0, mmax = RefShapeTable[shape].dim == 3 ? n : 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(3 * (n + 1) * (n + 1) * (n + 1), exps));
  for (PetscInt m = 0; m <= mmax; m++)
    for (PetscInt q = 0; q <= n; q++)
      for (PetscInt p = 0; p <= n; p++)
        if (InSpace(shape, n, p, q, m)) {
          (*exps)[3 * c]     = p;
          (*exps)[3 * c + 1] = q;
          (*exps)[3 * c + 2] = m;
          c++;
        }
  *count = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distance of x inside the shape's boundary: the smallest slack of its defining inequalities,
 * positive inside, zero on the boundary, negative outside. */
static PetscReal ShapeMargin(RefShape shape, const PetscReal x[])
{
  PetscReal m = PETSC_MAX_REAL;

  switch (shape) {
  case REF_TRIANGLE:
    m = PetscMin(PetscMin(1.0 + x[0], 1.0 + x[1]), -x[0] - x[1]);
    break;
  case REF_QUADRILATERAL:
    for (PetscInt d = 0; d < 2; d++) m = PetscMin(m, 1.0 - PetscAbsReal(x[d]));
    break;
  case REF_TETRAHEDRON:
    m = PetscMin(PetscMin(1.0 + x[0], 1.0 + x[1]), PetscMin(1.0 + x[2], -1.0 - x[0] - x[1] - x[2]));
    break;
  case REF_PRISM:
    m = PetscMin(PetscMin(1.0 + x[0], 1.0 + x[1]), PetscMin(-x[0] - x[1], 1.0 - PetscAbsReal(x[2])));
    break;
  default:
    for (PetscInt d = 0; d < 3; d++) m = PetscMin(m, 1.0 - PetscAbsReal(x[d]));
    break;
  }
  return m;
}

/* A polynomial sum_j c_j r^p_j s^q_j t^m_j and its gradient at the point x. */
static void EvalPoly(PetscInt nm, const PetscInt exps[], const PetscReal c[], const PetscReal x[], PetscReal *val, PetscReal grad[3])
{
  *val = grad[0] = grad[1] = grad[2] = 0.0;
  for (PetscInt j = 0; j < nm; j++) {
    const PetscInt *e = exps + 3 * j;
    PetscReal       pw[3], dpw[3];

    for (PetscInt d = 0; d < 3; d++) {
      pw[d]  = IPow(x[d], e[d]);
      dpw[d] = e[d] ? e[d] * IPow(x[d], e[d] - 1) : 0.0;
    }
    *val += c[j] * pw[0] * pw[1] * pw[2];
    grad[0] += c[j] * dpw[0] * pw[1] * pw[2];
    grad[1] += c[j] * pw[0] * dpw[1] * pw[2];
    grad[2] += c[j] * pw[0] * pw[1] * dpw[2];
  }
}

/* ---- 10. 3D cubature: positive weights, interior points, the volume, exactness ---- */
static PetscErrorCode TestCubatureRule(RefShape shape, PetscInt degree, PetscInt nq, const PetscReal x[], const PetscReal w[], const char *tag)
{
  const PetscInt  dim  = RefShapeTable[shape].dim;
  const PetscReal vol  = RefShapeTable[shape].measure;
  PetscReal       wsum = 0.0, minw = PETSC_MAX_REAL, minmargin = PETSC_MAX_REAL, err = 0.0, *pw;
  PetscInt        nm, *exps;
  char            name[200], details[200];

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < nq; q++) {
    wsum += w[q];
    minw      = PetscMin(minw, w[q]);
    minmargin = PetscMin(minmargin, ShapeMargin(shape, x + dim * q));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "cubature %s degree %" PetscInt_FMT ": %" PetscInt_FMT " points, weights positive, points interior, sum = %.6f", tag, degree, nq, (double)vol));
  PetscCall(PetscSNPrintf(details, sizeof(details), "min weight %g, min margin %g, sum %.16g", (double)minw, (double)minmargin, (double)wsum));
  PetscCall(CheckBool(name, (PetscBool)(minw > 0.0 && minmargin > 0.0 && PetscAbsReal(wsum - vol) <= 1e-14 * vol * 10), details));
  /* (1+x_d)^e for every point, direction and power */
  PetscCall(PetscMalloc1(nq * 3 * (degree + 1), &pw));
  for (PetscInt q = 0; q < nq; q++)
    for (PetscInt d = 0; d < 3; d++)
      for (PetscInt e = 0; e <= degree; e++) pw[(q * 3 + d) * (degree + 1) + e] = d < dim ? IPow(1.0 + x[dim * q + d], e) : 1.0;
  PetscCall(MonomialList(shape, degree, &nm, &exps));
  for (PetscInt j = 0; j < nm; j++) {
    const PetscInt *e   = exps + 3 * j;
    PetscReal       sum = 0.0, exact = ShiftedMoment(shape, e[0], e[1], e[2]);

    for (PetscInt q = 0; q < nq; q++) sum += w[q] * pw[(q * 3) * (degree + 1) + e[0]] * pw[(q * 3 + 1) * (degree + 1) + e[1]] * pw[(q * 3 + 2) * (degree + 1) + e[2]];
    err = PetscMax(err, PetscAbsReal(sum / exact - 1.0));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "cubature %s exact on all %" PetscInt_FMT " monomials (1+r)^p (1+s)^q (1+t)^m of the degree-%" PetscInt_FMT " space (relative error)", tag, nm, degree));
  PetscCall(Check(name, err, 1e-13));
  PetscCall(PetscFree(exps));
  PetscCall(PetscFree(pw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 11. orthonormal modal basis: int phi_i phi_j = delta_ij by the element's cubature ---- */
static PetscErrorCode TestOrthonormal(const RefElement *ref, const char *tag)
{
  const PetscInt Np = ref->Np, Nq = ref->Nq;
  PetscReal     *P, *PT, *WPT, *G, err = 0.0;
  char           name[160];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(Nq * Np, &P, Np * Nq, &PT, Np * Nq, &WPT, Np * Np, &G));
  PetscCall(RefElementModalBasis(ref->shape, ref->N, Nq, ref->xiq, P, NULL));
  DenseTranspose(Nq, Np, P, PT);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt q = 0; q < Nq; q++) WPT[i * Nq + q] = ref->wq[q] * PT[i * Nq + q];
  DenseMatMultTranspose(Np, Nq, Np, PT, WPT, G);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) err = PetscMax(err, PetscAbsReal(G[i * Np + j] - (i == j ? 1.0 : 0.0)));
  PetscCall(PetscSNPrintf(name, sizeof(name), "modal basis %s orthonormal (%" PetscInt_FMT " modes, cubature degree %" PetscInt_FMT ")", tag, Np, 2 * ref->N + 1));
  PetscCall(Check(name, err, 1e-13));
  PetscCall(PetscFree4(P, PT, WPT, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 12. derivative matrices exact on every monomial of the element's space ---- */
static PetscErrorCode TestDerivatives3D(const RefElement *ref, const char *tag)
{
  const PetscInt N = ref->N, Np = ref->Np;
  PetscInt       nm, *exps;
  PetscReal     *U, *DU, err = 0.0;
  char           name[160];

  PetscFunctionBeginUser;
  PetscCall(MonomialList(ref->shape, N, &nm, &exps));
  PetscCall(PetscMalloc2(Np * nm, &U, Np * nm, &DU));
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < nm; j++) U[i * nm + j] = IPow(ref->xi[3 * i], exps[3 * j]) * IPow(ref->xi[3 * i + 1], exps[3 * j + 1]) * IPow(ref->xi[3 * i + 2], exps[3 * j + 2]);
  for (PetscInt d = 0; d < 3; d++) {
    DenseMatMult(Np, Np, nm, ref->D[d], U, DU);
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < nm; j++) {
        const PetscInt *e     = exps + 3 * j;
        PetscReal       exact = 1.0;

        for (PetscInt k = 0; k < 3; k++) exact *= k == d ? (e[k] ? e[k] * IPow(ref->xi[3 * i + k], e[k] - 1) : 0.0) : IPow(ref->xi[3 * i + k], e[k]);
        err = PetscMax(err, PetscAbsReal(DU[i * nm + j] - exact));
      }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "Dr,Ds,Dt %s exact on the %" PetscInt_FMT " monomials of the element's space", tag, nm));
  PetscCall(Check(name, err, 1e-14 * 10 * N * N));
  PetscCall(PetscFree2(U, DU));
  PetscCall(PetscFree(exps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Face f's affine map x = v0 + (1+a)/2 e1 + (1+b)/2 e2 (hoflow/shape.h) and n sJ = +-(e1 x e2)/4,
 * the outward normal times the surface Jacobian |F|/|F_ref| (the map's area element). */
static void FaceFrame(RefShape shape, PetscInt f, PetscReal v0[3], PetscReal e1[3], PetscReal e2[3], PetscReal nsJ[3])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const PetscInt      nv = info->face_nverts[f], *fv = info->face_verts[f];
  PetscReal           c[3] = {0, 0, 0}, fc[3] = {0, 0, 0}, dot = 0.0;

  for (PetscInt d = 0; d < 3; d++) {
    v0[d] = info->verts[fv[0]][d];
    e1[d] = info->verts[fv[1]][d] - v0[d];
    e2[d] = info->verts[fv[nv - 1]][d] - v0[d];
    for (PetscInt v = 0; v < info->nverts; v++) c[d] += info->verts[v][d] / info->nverts;
    for (PetscInt v = 0; v < nv; v++) fc[d] += info->verts[fv[v]][d] / nv;
  }
  for (PetscInt d = 0; d < 3; d++) {
    nsJ[d] = 0.25 * (e1[(d + 1) % 3] * e2[(d + 2) % 3] - e1[(d + 2) % 3] * e2[(d + 1) % 3]);
    dot += nsJ[d] * (fc[d] - c[d]);
  }
  if (dot < 0)
    for (PetscInt d = 0; d < 3; d++) nsJ[d] = -nsJ[d];
}

/* ---- 13. faces: nodes, face coordinates, face mass, lift, integration by parts ---- */
static PetscErrorCode TestFaces3D(const RefElement *ref, PetscRandom rnd, const char *tag)
{
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      N = ref->N, Np = ref->Np, Nfn = ref->Nfn;
  PetscReal           errpos = 0.0, errmass = 0.0, errsym = 0.0, errsum = 0.0, *E, *ML, errlift = 0.0;
  PetscBool           counts = PETSC_TRUE, unique = PETSC_TRUE;
  char                name[200];

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const RefShape   fshape = info->face_shape[f];
    const PetscInt   Nfp = ref->Nfp[f], off = ref->face_offset[f], expect = RefShapeNumNodes(fshape, (int)N);
    const PetscReal *Mf = ref->Mface + ref->face_mass_offset[f], fmeas = RefShapeTable[fshape].measure;
    PetscReal        v0[3], e1[3], e2[3], nsJ[3], nn, sum = 0.0, *Pf, *MP;
    PetscInt         cnt = 0, nmf, *fexps;

    FaceFrame(ref->shape, f, v0, e1, e2, nsJ);
    nn = PetscSqrtReal(nsJ[0] * nsJ[0] + nsJ[1] * nsJ[1] + nsJ[2] * nsJ[2]);
    /* nodes on the face's plane, found independently of BuildFaceNodes */
    for (PetscInt n = 0; n < Np; n++) {
      PetscReal dist = 0.0;

      for (PetscInt d = 0; d < 3; d++) dist += nsJ[d] / nn * (ref->xi[3 * n + d] - v0[d]);
      if (PetscAbsReal(dist) <= 1e-10) cnt++;
    }
    counts = (PetscBool)(counts && cnt == expect && Nfp == expect);
    for (PetscInt i = 0; i < Nfp; i++) {
      const PetscInt   n = ref->face_nodes[off + i];
      const PetscReal *a = ref->face_xi + 2 * (off + i);

      /* the face coordinates map back onto the node, and lie in the face's reference shape */
      for (PetscInt d = 0; d < 3; d++) errpos = PetscMax(errpos, PetscAbsReal(v0[d] + 0.5 * (1.0 + a[0]) * e1[d] + 0.5 * (1.0 + a[1]) * e2[d] - ref->xi[3 * n + d]));
      errpos = PetscMax(errpos, -ShapeMargin(fshape, a));
      for (PetscInt j = 0; j < i; j++) unique = (PetscBool)(unique && ref->face_nodes[off + j] != n);
    }
    /* face mass: symmetric, total = the face's reference measure, exact on products of face
     * monomials of degree N: (Pf^T Mf Pf)_jk = int a^{p_j+p_k} b^{q_j+q_k} (the plain monomials
     * are of size <= 1 at the nodes, unlike (1+a)^p, so that the sums do not cancel digits) */
    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < Nfp; j++) {
        sum += Mf[i * Nfp + j];
        errsym = PetscMax(errsym, PetscAbsReal(Mf[i * Nfp + j] - Mf[j * Nfp + i]));
      }
    errsum = PetscMax(errsum, PetscAbsReal(sum - fmeas));
    PetscCall(MonomialList(fshape, N, &nmf, &fexps));
    PetscCall(PetscMalloc2(Nfp * nmf, &Pf, Nfp * nmf, &MP));
    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < nmf; j++) Pf[i * nmf + j] = IPow(ref->face_xi[2 * (off + i)], fexps[3 * j]) * IPow(ref->face_xi[2 * (off + i) + 1], fexps[3 * j + 1]);
    DenseMatMult(Nfp, Nfp, nmf, Mf, Pf, MP);
    for (PetscInt j = 0; j < nmf; j++)
      for (PetscInt k = 0; k < nmf; k++) {
        const PetscInt a = fexps[3 * j] + fexps[3 * k], b = fexps[3 * j + 1] + fexps[3 * k + 1];
        PetscReal      g = 0.0, exact = fshape == REF_TRIANGLE ? TriangleMoment(a, b) : Moment1D(a) * Moment1D(b);

        for (PetscInt i = 0; i < Nfp; i++) g += Pf[i * nmf + j] * MP[i * nmf + k];
        errmass = PetscMax(errmass, PetscAbsReal(g - exact));
      }
    PetscCall(PetscFree2(Pf, MP));
    PetscCall(PetscFree(fexps));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "faces %s: nodes on each face plane = face node count = RefShapeNumNodes of the face shape", tag));
  PetscCall(CheckBool(name, counts, "a face has the wrong number of nodes"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "faces %s: face nodes distinct, face coordinates map onto the nodes and lie in the face", tag));
  PetscCall(CheckBool(name, (PetscBool)(unique && errpos <= 1e-14), "repeated face node or face coordinates off"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "faces %s: Mface symmetric, sums to the face measure (2 or 4)", tag));
  PetscCall(Check(name, PetscMax(errsym, errsum), 1e-13));
  PetscCall(PetscSNPrintf(name, sizeof(name), "faces %s: Mface exact on products of degree-%" PetscInt_FMT " face monomials", tag, N));
  PetscCall(Check(name, errmass, 1e-13));

  /* M LIFT == E */
  PetscCall(PetscCalloc1(Np * Nfn, &E));
  PetscCall(PetscMalloc1(Np * Nfn, &ML));
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const PetscInt   Nfp = ref->Nfp[f], off = ref->face_offset[f];
    const PetscReal *Mf = ref->Mface + ref->face_mass_offset[f];

    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < Nfp; j++) E[ref->face_nodes[off + i] * Nfn + off + j] = Mf[i * Nfp + j];
  }
  DenseMatMult(Np, Np, Nfn, ref->M, ref->LIFT, ML);
  for (PetscInt i = 0; i < Np * Nfn; i++) errlift = PetscMax(errlift, PetscAbsReal(ML[i] - E[i]));
  PetscCall(PetscSNPrintf(name, sizeof(name), "M*LIFT == E %s (%" PetscInt_FMT " face nodes)", tag, Nfn));
  PetscCall(Check(name, errlift, 1e-13));
  PetscCall(PetscFree(E));
  PetscCall(PetscFree(ML));

  /* Integration by parts for random u, v of the element's space, exact in every term:
   *   v^T M D_d u + u^T M D_d v = sum_f (n_d sJ)_f v_f^T Mface_f u_f,
   * which ties D, M, the face nodes, the face mass matrices and the face geometry together. */
  {
    PetscReal *u, *v, *Du, *Dv, *Mu, *Mv, err = 0.0;

    PetscCall(PetscMalloc6(Np, &u, Np, &v, Np, &Du, Np, &Dv, Np, &Mu, Np, &Mv));
    for (PetscInt trial = 0; trial < 2; trial++) {
      for (PetscInt i = 0; i < Np; i++) {
        PetscCall(PetscRandomGetValueReal(rnd, &u[i]));
        PetscCall(PetscRandomGetValueReal(rnd, &v[i]));
      }
      DenseMatMult(Np, Np, 1, ref->M, u, Mu);
      DenseMatMult(Np, Np, 1, ref->M, v, Mv);
      for (PetscInt d = 0; d < 3; d++) {
        PetscReal lhs = 0.0, rhs = 0.0, scale = 0.0;

        DenseMatMult(Np, Np, 1, ref->D[d], u, Du);
        DenseMatMult(Np, Np, 1, ref->D[d], v, Dv);
        for (PetscInt i = 0; i < Np; i++) {
          lhs += Mv[i] * Du[i] + Mu[i] * Dv[i];
          scale += PetscAbsReal(Mv[i] * Du[i]) + PetscAbsReal(Mu[i] * Dv[i]);
        }
        for (PetscInt f = 0; f < ref->Nfaces; f++) {
          const PetscInt   Nfp = ref->Nfp[f], off = ref->face_offset[f];
          const PetscReal *Mf = ref->Mface + ref->face_mass_offset[f];
          PetscReal        v0[3], e1[3], e2[3], nsJ[3], fi = 0.0;

          FaceFrame(ref->shape, f, v0, e1, e2, nsJ);
          for (PetscInt i = 0; i < Nfp; i++)
            for (PetscInt j = 0; j < Nfp; j++) fi += v[ref->face_nodes[off + i]] * Mf[i * Nfp + j] * u[ref->face_nodes[off + j]];
          rhs += nsJ[d] * fi;
        }
        err = PetscMax(err, PetscAbsReal(lhs - rhs) / scale);
      }
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "integration by parts %s: v'M D u + u'M D v = sum_f n sJ v_f'Mface u_f (relative)", tag));
    PetscCall(Check(name, err, 1e-13));
    PetscCall(PetscFree6(u, v, Du, Dv, Mu, Mv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 14. sub-cells: N^3 positively oriented cells tiling the element ---- */
/* Each sub-cell's vertices map the reference shape onto it with the order-1 element's basis
 * (linear, prism-linear or trilinear): x(xi) = sum_v X_v l_v(xi). Its Jacobian determinant is
 * checked positive at the points of a degree-3 rule and at the shape's vertices, and its volume
 * sum_q w_q det J(xi_q) (exact: det J has degree <= 2 per variable) summed over the cells. */
static PetscErrorCode TestSubCells3D(const RefElement *ref, const RefElement *ref1, const char *tag)
{
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      nv = info->nverts, N = ref->N;
  PetscInt            nsub, *cells, vnode[HOFLOW_VERTS_MAX], nq, n, *used;
  PetscReal          *xq, *wq, *pts, *dL[3], vol = 0.0, mindet = PETSC_MAX_REAL;
  PetscBool           allused = PETSC_TRUE, vmap = PETSC_TRUE;
  char                name[200], details[200];

  PetscFunctionBeginUser;
  /* the order-1 element's nodes are the vertices, in some order */
  for (PetscInt v = 0; v < nv; v++) {
    vnode[v] = -1;
    for (PetscInt i = 0; i < ref1->Np; i++)
      if (PetscAbsReal(ref1->xi[3 * i] - info->verts[v][0]) + PetscAbsReal(ref1->xi[3 * i + 1] - info->verts[v][1]) + PetscAbsReal(ref1->xi[3 * i + 2] - info->verts[v][2]) < 1e-14) vnode[v] = i;
    vmap = (PetscBool)(vmap && vnode[v] >= 0);
  }
  PetscCheck(vmap && ref1->Np == nv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Order-1 %s nodes are not its vertices", info->name);
  PetscCall(RefElementCubature(ref->shape, 3, &nq, &xq, &wq));
  n = nq + nv;
  PetscCall(PetscMalloc4(3 * n, &pts, n * nv, &dL[0], n * nv, &dL[1], n * nv, &dL[2]));
  for (PetscInt i = 0; i < 3 * nq; i++) pts[i] = xq[i];
  for (PetscInt v = 0; v < nv; v++)
    for (PetscInt d = 0; d < 3; d++) pts[3 * (nq + v) + d] = info->verts[v][d];
  PetscCall(RefElementDerivativeMatrices(ref1, n, pts, dL));
  PetscCall(RefElementSubCells(ref, &nsub, &cells));
  PetscCall(PetscCalloc1(ref->Np, &used));
  for (PetscInt c = 0; c < nsub; c++) {
    for (PetscInt v = 0; v < nv; v++) used[cells[c * nv + v]] = 1;
    for (PetscInt q = 0; q < n; q++) {
      PetscReal J[3][3] = {
          {0, 0, 0},
          {0, 0, 0},
          {0, 0, 0}},
                det;

      for (PetscInt v = 0; v < nv; v++) {
        const PetscReal *X = ref->xi + 3 * cells[c * nv + v];

        for (PetscInt d = 0; d < 3; d++)
          for (PetscInt k = 0; k < 3; k++) J[d][k] += X[d] * dL[k][q * nv + vnode[v]];
      }
      det    = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) + J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
      mindet = PetscMin(mindet, det);
      if (q < nq) vol += wq[q] * det;
    }
  }
  for (PetscInt i = 0; i < ref->Np; i++) allused = (PetscBool)(allused && used[i]);
  PetscCall(PetscSNPrintf(name, sizeof(name), "sub-cells %s: N^3 = %" PetscInt_FMT " cells, volumes sum to %.6f", tag, nsub, (double)info->measure));
  PetscCall(Check(name, PetscAbsReal(vol / info->measure - 1.0) + (nsub == N * N * N ? 0.0 : 1.0), 1e-13));
  PetscCall(PetscSNPrintf(name, sizeof(name), "sub-cells %s: positively oriented in the shape's vertex order, all nodes used", tag));
  PetscCall(PetscSNPrintf(details, sizeof(details), "min det J %g, all nodes used %d", (double)mindet, (int)allused));
  PetscCall(CheckBool(name, (PetscBool)(mindet > 0.0 && allused), details));
  PetscCall(PetscFree(used));
  PetscCall(PetscFree(cells));
  PetscCall(PetscFree4(pts, dL[0], dL[1], dL[2]));
  PetscCall(PetscFree(xq));
  PetscCall(PetscFree(wq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 15. interpolation and its derivatives at arbitrary points ---- */
/* A random polynomial of the element's space, given at the nodes, is interpolated to random
 * points and to special ones (vertices; on tetrahedra the collapsed edge r = -1, s + t = 0 and
 * vertex (-1,-1,1) of the modal basis, and points just off them) and differentiated there. */
static PetscErrorCode TestInterpolation3D(const RefElement *ref, PetscRandom rnd, const char *tag)
{
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      N = ref->N, Np = ref->Np, nrand = 40, nspecial = 16;
  PetscInt            nm, *exps, n = 0;
  PetscReal          *c, *u, *pts, *Imat, *dI[3], err = 0.0, errd = 0.0, scale = 0.0;
  char                name[200];

  PetscFunctionBeginUser;
  PetscCall(MonomialList(ref->shape, N, &nm, &exps));
  PetscCall(PetscMalloc3(nm, &c, Np, &u, 3 * (nrand + nspecial), &pts));
  for (PetscInt j = 0; j < nm; j++) PetscCall(PetscRandomGetValueReal(rnd, &c[j]));
  for (PetscInt i = 0; i < Np; i++) {
    PetscReal g[3];

    EvalPoly(nm, exps, c, ref->xi + 3 * i, &u[i], g);
  }
  while (n < nrand) {
    PetscReal x[3];

    for (PetscInt d = 0; d < 3; d++) PetscCall(PetscRandomGetValueReal(rnd, &x[d]));
    if (ShapeMargin(ref->shape, x) < 0) continue;
    for (PetscInt d = 0; d < 3; d++) pts[3 * n + d] = x[d];
    n++;
  }
  for (PetscInt v = 0; v < info->nverts; v++, n++)
    for (PetscInt d = 0; d < 3; d++) pts[3 * n + d] = info->verts[v][d];
  if (ref->shape == REF_TETRAHEDRON) {
    /* on the collapsed edge, and 1e-15, 1e-13, 1e-9 inside it; near the collapsed vertex */
    const PetscReal sp[8][3] = {
        {-1.0, 0.25, -0.25},
        {-1.0, -0.6, 0.6},
        {-1.0 + 1e-15, 0.3, -0.3 - 2e-15},
        {-1.0 + 1e-13, -0.1, 0.1 - 2e-13},
        {-1.0 + 1e-9, 0.7, -0.7 - 2e-9},
        {-1.0, -1.0, 1.0 - 1e-15},
        {-1.0 + 1e-14, -1.0, 1.0 - 3e-14},
        {-1.0, -1.0 + 1e-12, 1.0 - 2e-12}};
    for (PetscInt k = 0; k < 8; k++, n++)
      for (PetscInt d = 0; d < 3; d++) pts[3 * n + d] = sp[k][d];
  }
  PetscCall(PetscMalloc4(n * Np, &Imat, n * Np, &dI[0], n * Np, &dI[1], n * Np, &dI[2]));
  PetscCall(RefElementInterpolationMatrix(ref, n, pts, Imat));
  PetscCall(RefElementDerivativeMatrices(ref, n, pts, dI));
  for (PetscInt q = 0; q < n; q++) {
    PetscReal val, g[3], iu = 0.0, du[3] = {0, 0, 0};

    EvalPoly(nm, exps, c, pts + 3 * q, &val, g);
    for (PetscInt i = 0; i < Np; i++) {
      iu += Imat[q * Np + i] * u[i];
      for (PetscInt d = 0; d < 3; d++) du[d] += dI[d][q * Np + i] * u[i];
    }
    scale = PetscMax(scale, PetscAbsReal(val));
    err   = PetscMax(err, PetscAbsReal(iu - val));
    for (PetscInt d = 0; d < 3; d++) errd = PetscMax(errd, PetscAbsReal(du[d] - g[d]));
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "interpolation %s reproduces a degree-%" PetscInt_FMT " polynomial at %" PetscInt_FMT " random and special points", tag, N, n));
  PetscCall(Check(name, err, 1e-13 * PetscMax(1.0, scale)));
  PetscCall(PetscSNPrintf(name, sizeof(name), "derivative interpolation %s exact there%s", tag, ref->shape == REF_TETRAHEDRON ? " (collapsed edge and vertex included)" : ""));
  PetscCall(Check(name, errd, 1e-13 * N * N * PetscMax(1.0, scale)));
  PetscCall(PetscFree4(Imat, dI[0], dI[1], dI[2]));
  PetscCall(PetscFree3(c, u, pts));
  PetscCall(PetscFree(exps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 16. the 1D tensor factor (N1, x1, w1, D1, M1) and the Kronecker structure ---- */
static PetscErrorCode TestTensorFactor(const RefElement *ref, const char *tag)
{
  const PetscInt N = ref->N, n = N + 1, Np = ref->Np;
  PetscReal     *xg, *wg, err1 = 0.0, errD = 0.0, errM = 0.0;
  char           name[200];

  PetscFunctionBeginUser;
  if (ref->shape == REF_TRIANGLE || ref->shape == REF_TETRAHEDRON) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: none (N1 = 0, no arrays)", tag));
    PetscCall(CheckBool(name, (PetscBool)(ref->N1 == 0 && !ref->x1 && !ref->w1 && !ref->D1 && !ref->M1), "1D data set on a simplex"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the 1D data themselves: GLL nodes and weights, D1 and M1 exact on degree <= N */
  PetscCall(PetscMalloc2(n, &xg, n, &wg));
  PetscCall(GaussLobattoLegendre(n, xg, wg));
  for (PetscInt i = 0; i < n; i++) err1 = PetscMax(err1, PetscAbsReal(ref->x1[i] - xg[i]) + PetscAbsReal(ref->w1[i] - wg[i]));
  for (PetscInt a = 0; a <= N; a++) {
    for (PetscInt i = 0; i < n; i++) {
      PetscReal du = 0.0;

      for (PetscInt j = 0; j < n; j++) du += ref->D1[i * n + j] * IPow(ref->x1[j], a);
      err1 = PetscMax(err1, PetscAbsReal(du - (a ? a * IPow(ref->x1[i], a - 1) : 0.0)) / (N * N));
    }
    for (PetscInt b = 0; b <= N; b++) {
      PetscReal m = 0.0;

      for (PetscInt i = 0; i < n; i++)
        for (PetscInt j = 0; j < n; j++) m += IPow(ref->x1[i], a) * ref->M1[i * n + j] * IPow(ref->x1[j], b);
      err1 = PetscMax(err1, PetscAbsReal(m - Moment1D(a + b)));
    }
  }
  PetscCall(PetscFree2(xg, wg));
  PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: N1 = N+1, x1, w1 GLL, D1 and M1 exact on degree %" PetscInt_FMT, tag, N));
  PetscCall(Check(name, err1 + (ref->N1 == n ? 0.0 : 1.0), 1e-13));

  /* the element's operators are Kronecker products of the 1D ones */
  if (ref->shape == REF_QUADRILATERAL || ref->shape == REF_HEXAHEDRON) {
    const PetscInt dim = ref->dim;

    for (PetscInt row = 0; row < Np; row++)
      for (PetscInt col = 0; col < Np; col++) {
        PetscInt  a[3] = {row % n, (row / n) % n, row / (n * n)}, b[3] = {col % n, (col / n) % n, col / (n * n)};
        PetscReal m = 1.0;

        for (PetscInt d = 0; d < dim; d++) m *= ref->M1[a[d] * n + b[d]];
        errM = PetscMax(errM, PetscAbsReal(ref->M[row * Np + col] - m));
        for (PetscInt d = 0; d < dim; d++) {
          PetscReal dd = ref->D1[a[d] * n + b[d]];

          for (PetscInt e = 0; e < dim; e++)
            if (e != d && a[e] != b[e]) dd = 0.0;
          errD = PetscMax(errD, PetscAbsReal(ref->D[d][row * Np + col] - dd));
        }
      }
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: D[d] = Kronecker products of D1 and I", tag));
    PetscCall(Check(name, errD, 1e-14 * 10 * N * N));
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: M = M1 (x) M1%s", tag, dim == 3 ? " (x) M1" : ""));
    PetscCall(Check(name, errM, 1e-14 * 10));
  } else {
    /* prism: node m + Nt k. D[2] = D1 (x) I, D[0], D[1] = I (x) Dtri, M = M1 (x) Mtri, with Dtri,
     * Mtri the exact operators of the triangle with the prism's (tetrahedron-face) nodes */
    const PetscInt Nt = Np / n;
    PetscReal     *r, *s, *rs, *Vt, *Vtinv, *dVt[2], *Dt[2], *Mt, errT = 0.0;

    PetscCall(PetscMalloc6(Nt, &r, Nt, &s, 2 * Nt, &rs, Nt * Nt, &Vt, Nt * Nt, &Vtinv, Nt * Nt, &Mt));
    PetscCall(PetscMalloc4(Nt * Nt, &dVt[0], Nt * Nt, &dVt[1], Nt * Nt, &Dt[0], Nt * Nt, &Dt[1]));
    PetscCall(NodesTetrahedronFaceWarpBlend(N, r, s));
    for (PetscInt i = 0; i < Nt; i++) {
      rs[2 * i]     = r[i];
      rs[2 * i + 1] = s[i];
      errT          = PetscMax(errT, PetscAbsReal(ref->xi[3 * i] - r[i]) + PetscAbsReal(ref->xi[3 * i + 1] - s[i]));
    }
    PetscCall(RefElementModalBasis(REF_TRIANGLE, N, Nt, rs, Vt, dVt));
    PetscCall(DenseInvert(Nt, Vt, Vtinv));
    DenseMatMult(Nt, Nt, Nt, dVt[0], Vtinv, Dt[0]);
    DenseMatMult(Nt, Nt, Nt, dVt[1], Vtinv, Dt[1]);
    DenseTranspose(Nt, Nt, Vtinv, Vt);
    DenseMatMult(Nt, Nt, Nt, Vt, Vtinv, Mt);
    for (PetscInt row = 0; row < Np; row++)
      for (PetscInt col = 0; col < Np; col++) {
        const PetscInt a = row % Nt, k = row / Nt, b = col % Nt, l = col / Nt;

        errM = PetscMax(errM, PetscAbsReal(ref->M[row * Np + col] - ref->M1[k * n + l] * Mt[a * Nt + b]));
        errD = PetscMax(errD, PetscAbsReal(ref->D[2][row * Np + col] - (a == b ? ref->D1[k * n + l] : 0.0)));
        for (PetscInt d = 0; d < 2; d++) errD = PetscMax(errD, PetscAbsReal(ref->D[d][row * Np + col] - (k == l ? Dt[d][a * Nt + b] : 0.0)));
      }
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: layer 0 holds the tetrahedron-face triangle nodes", tag));
    PetscCall(Check(name, errT, 0.0));
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: Dt = D1 (x) I, Dr, Ds = I (x) Dtri", tag));
    PetscCall(Check(name, errD, 1e-14 * 10 * N * N));
    PetscCall(PetscSNPrintf(name, sizeof(name), "tensor factor %s: M = M1 (x) Mtri", tag));
    PetscCall(Check(name, errM, 1e-14 * 10));
    PetscCall(PetscFree6(r, s, rs, Vt, Vtinv, Mt));
    PetscCall(PetscFree4(dVt[0], dVt[1], Dt[0], Dt[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 17. conformity of faces between shapes ---- */
/* max over the points of A of the distance to the nearest point of B and vice versa (2D point
 * sets of n points); PETSC_MAX_REAL if the sizes differ. */
static PetscReal SetDistance(PetscInt n, const PetscReal A[], PetscInt m, const PetscReal B[])
{
  PetscReal dmax = 0.0;

  if (n != m) return PETSC_MAX_REAL;
  for (PetscInt pass = 0; pass < 2; pass++) {
    const PetscReal *X = pass ? B : A, *Y = pass ? A : B;

    for (PetscInt i = 0; i < n; i++) {
      PetscReal dmin = PETSC_MAX_REAL;

      for (PetscInt j = 0; j < n; j++) dmin = PetscMin(dmin, PetscMax(PetscAbsReal(X[2 * i] - Y[2 * j]), PetscAbsReal(X[2 * i + 1] - Y[2 * j + 1])));
      dmax = PetscMax(dmax, dmin);
    }
  }
  return dmax;
}

/* The face coordinates of face f of ref against the list X of n points, entry by entry. */
static PetscReal FaceListDistance(const RefElement *ref, PetscInt f, PetscInt n, const PetscReal X[])
{
  PetscReal d = 0.0;

  if (ref->Nfp[f] != n) return PETSC_MAX_REAL;
  for (PetscInt i = 0; i < 2 * n; i++) d = PetscMax(d, PetscAbsReal(ref->face_xi[2 * ref->face_offset[f] + i] - X[i]));
  return d;
}

/* Tetrahedron faces against NodesTetrahedronFaceWarpBlend and the 2D triangle set; prism faces
 * against the tetrahedron's and the quadrilateral's; hexahedron faces against the quadrilateral.
 * Face node lists are compared entry by entry in BuildFaceNodes' order (by face coordinates), as
 * neighbouring elements see them; tet and prism may be NULL. */
static PetscErrorCode TestConformity(PetscInt N, const RefElement *tet, const RefElement *prism, const RefElement *hex, const RefElement *quad)
{
  const PetscInt Nt = (N + 1) * (N + 2) / 2;
  PetscReal     *r, *s, *tf, *t2, dface = 0.0, dfaces = 0.0, d2d, drot = 0.0;
  char           name[200], details[200];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(Nt, &r, Nt, &s, 2 * Nt, &tf, 2 * Nt, &t2));
  PetscCall(NodesTetrahedronFaceWarpBlend(N, r, s));
  for (PetscInt i = 0; i < Nt; i++) {
    tf[2 * i]     = r[i];
    tf[2 * i + 1] = s[i];
  }
  PetscCall(NodesTriangleWarpBlend(N, r, s));
  for (PetscInt i = 0; i < Nt; i++) {
    t2[2 * i]     = r[i];
    t2[2 * i + 1] = s[i];
  }
  /* the tetrahedron-face set is invariant under the triangle's symmetries (so that a face's
   * nodes match whichever way two elements' face coordinates are oriented): barycentric
   * (l1, l2, l3) = (-(r+s)/2, (1+r)/2, (1+s)/2) rotated and two of them swapped */
  for (PetscInt i = 0; i < Nt; i++) {
    const PetscReal l1 = -0.5 * (tf[2 * i] + tf[2 * i + 1]), l2 = 0.5 * (1.0 + tf[2 * i]), l3 = 0.5 * (1.0 + tf[2 * i + 1]);
    const PetscReal img[3][2] = {
        {2.0 * l3 - 1.0, 2.0 * l1 - 1.0},
        {2.0 * l1 - 1.0, 2.0 * l2 - 1.0},
        {tf[2 * i + 1], tf[2 * i]}};
    for (PetscInt k = 0; k < 3; k++) {
      PetscReal dmin = PETSC_MAX_REAL;

      for (PetscInt j = 0; j < Nt; j++) dmin = PetscMin(dmin, PetscMax(PetscAbsReal(tf[2 * j] - img[k][0]), PetscAbsReal(tf[2 * j + 1] - img[k][1])));
      drot = PetscMax(drot, dmin);
    }
  }
  PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron-face nodes N=%" PetscInt_FMT " invariant under the triangle's rotations and reflections", N));
  PetscCall(Check(name, drot, 1e-13));
  d2d = SetDistance(Nt, tf, Nt, t2);
  if (tet) {
    for (PetscInt f = 0; f < 4; f++) {
      dface  = PetscMax(dface, SetDistance(tet->Nfp[f], tet->face_xi + 2 * tet->face_offset[f], Nt, tf));
      dfaces = PetscMax(dfaces, FaceListDistance(tet, f, Nt, tet->face_xi));
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT ": every face carries the NodesTetrahedronFaceWarpBlend set", N));
    PetscCall(Check(name, dface, 1e-13));
    PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron N=%" PetscInt_FMT ": the four faces' face-node lists are equal", N));
    PetscCall(Check(name, dfaces, 1e-13));
  }
  /* The 2D triangle set has the triangle's alpha: equal to the face set where no interior face
   * node depends on alpha (N <= 3: alpha only moves interior nodes, and the one interior node of
   * N = 3 is the centroid), different from N = 4 on. Hence the prism's own triangle set. */
  PetscCall(PetscSNPrintf(name, sizeof(name), "tetrahedron-face nodes N=%" PetscInt_FMT " vs 2D triangle warp&blend: max deviation %.3e (%s)", N, (double)d2d, N <= 3 ? "equal" : "differ"));
  PetscCall(PetscSNPrintf(details, sizeof(details), "deviation %.3e", (double)d2d));
  PetscCall(CheckBool(name, (PetscBool)(N <= 3 ? d2d <= 1e-14 : d2d > 1e-9), details));
  if (prism) {
    PetscReal dtri = 0.0, dquad = 0.0;

    for (PetscInt f = 0; f < prism->Nfaces; f++) {
      if (RefShapeTable[REF_PRISM].face_shape[f] == REF_TRIANGLE) {
        dtri = PetscMax(dtri, tet ? FaceListDistance(prism, f, Nt, tet->face_xi) : 0.0);
        dtri = PetscMax(dtri, SetDistance(prism->Nfp[f], prism->face_xi + 2 * prism->face_offset[f], Nt, tf));
      } else
        dquad = PetscMax(dquad, FaceListDistance(prism, f, quad->Np, quad->xi));
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "prism N=%" PetscInt_FMT ": triangle faces' node lists equal the tetrahedron's", N));
    PetscCall(Check(name, dtri, 1e-13));
    PetscCall(PetscSNPrintf(name, sizeof(name), "prism N=%" PetscInt_FMT ": quadrilateral faces' node lists equal the quadrilateral's (GLL x GLL)", N));
    PetscCall(Check(name, dquad, 1e-13));
  }
  if (hex) {
    PetscReal dquad = 0.0;

    for (PetscInt f = 0; f < 6; f++) dquad = PetscMax(dquad, FaceListDistance(hex, f, quad->Np, quad->xi));
    PetscCall(PetscSNPrintf(name, sizeof(name), "hexahedron N=%" PetscInt_FMT ": all six faces' node lists equal the quadrilateral's (GLL x GLL)", N));
    PetscCall(Check(name, dquad, 1e-15));
  }
  PetscCall(PetscFree4(r, s, tf, t2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- 18. Lebesgue constants in 3D ---- */
/* Lebesgue constant of an order-N triangle node set (r,s interleaved) on the K-lattice of the
 * square that RefElementLebesgueConstant uses in 3D (points -1 + 2i/K with r + s <= 1e-12). */
static PetscErrorCode TriangleLatticeLebesgue(PetscInt N, const PetscReal rs[], PetscInt K, PetscReal *leb)
{
  const PetscInt Nt = (N + 1) * (N + 2) / 2;
  PetscReal     *V, *Vinv, *pts, *P, *Imat, lmax = 0.0;
  PetscInt       n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc5(Nt * Nt, &V, Nt * Nt, &Vinv, 2 * (K + 1) * (K + 1), &pts, (K + 1) * (K + 1) * Nt, &P, (K + 1) * (K + 1) * Nt, &Imat));
  PetscCall(RefElementModalBasis(REF_TRIANGLE, N, Nt, rs, V, NULL));
  PetscCall(DenseInvert(Nt, V, Vinv));
  for (PetscInt j = 0; j <= K; j++)
    for (PetscInt i = 0; i <= K; i++) {
      const PetscReal x = -1.0 + 2.0 * i / K, y = -1.0 + 2.0 * j / K;

      if (x + y > 1e-12) continue;
      pts[2 * n]     = x;
      pts[2 * n + 1] = y;
      n++;
    }
  PetscCall(RefElementModalBasis(REF_TRIANGLE, N, n, pts, P, NULL));
  DenseMatMult(n, Nt, Nt, P, Vinv, Imat);
  for (PetscInt q = 0; q < n; q++) {
    PetscReal sum = 0.0;

    for (PetscInt l = 0; l < Nt; l++) sum += PetscAbsReal(Imat[q * Nt + l]);
    lmax = PetscMax(lmax, sum);
  }
  PetscCall(PetscFree5(V, Vinv, pts, P, Imat));
  *leb = lmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tetrahedron: warp & blend against the equidistant lattice, which it must beat from N = 3 on and
 * by far at N = 6 (6.95 against 13.40 on the K = 40 lattice), and grow no faster than N + 1.5. Prism and hexahedron: their nodal bases are tensor products, so their
 * Lebesgue functions are products and the lattice maxima products of the factors' on the same
 * K = 40 lattice. Overwrites the nodes of a tetrahedron, which is not used afterwards. */
static PetscErrorCode TestLebesgue3D(RefElement *ref, const char *tag)
{
  const PetscInt N = ref->N, K = 40;
  PetscReal      leb, other = 0.0, leb1 = 0.0;
  char           name[200], details[200];

  PetscFunctionBeginUser;
  PetscCall(RefElementLebesgueConstant(ref, &leb));
  PetscCall(LebesgueGLL1D(N, K, &leb1));
  if (ref->shape == REF_TETRAHEDRON) {
    PetscInt sk = 0;

    for (PetscInt k = 0; k <= N; k++)
      for (PetscInt j = 0; j <= N - k; j++)
        for (PetscInt i = 0; i <= N - k - j; i++, sk++) {
          ref->xi[3 * sk]     = -1.0 + 2.0 * i / N;
          ref->xi[3 * sk + 1] = -1.0 + 2.0 * j / N;
          ref->xi[3 * sk + 2] = -1.0 + 2.0 * k / N;
        }
    PetscCall(RefElementModalBasis(ref->shape, N, ref->Np, ref->xi, ref->V, NULL));
    PetscCall(DenseInvert(ref->Np, ref->V, ref->Vinv));
    PetscCall(RefElementLebesgueConstant(ref, &other));
    PetscCall(PetscSNPrintf(name, sizeof(name), "lebesgue %s warp&blend %.4f (equidistant %.4f)", tag, (double)leb, (double)other));
    PetscCall(PetscSNPrintf(details, sizeof(details), "warp&blend %.4f, equidistant %.4f", (double)leb, (double)other));
    PetscCall(CheckBool(name, (PetscBool)(leb <= other + 1e-12 && (N < 3 || leb < other) && (N < 6 || leb < 0.6 * other) && leb <= N + 1.5), details));
  } else if (ref->shape == REF_PRISM) {
    const PetscInt Nt = (N + 1) * (N + 2) / 2;
    PetscReal     *rs;

    PetscCall(PetscMalloc1(2 * Nt, &rs));
    for (PetscInt i = 0; i < Nt; i++) {
      rs[2 * i]     = ref->xi[3 * i];
      rs[2 * i + 1] = ref->xi[3 * i + 1];
    }
    PetscCall(TriangleLatticeLebesgue(N, rs, K, &other));
    PetscCall(PetscFree(rs));
    PetscCall(PetscSNPrintf(name, sizeof(name), "lebesgue %s %.4f = triangle %.4f x 1D GLL %.4f", tag, (double)leb, (double)other, (double)leb1));
    PetscCall(Check(name, PetscAbsReal(leb - other * leb1), 1e-12 * leb));
  } else {
    PetscCall(PetscSNPrintf(name, sizeof(name), "lebesgue %s tensor GLL %.4f = (1D GLL %.4f)^3", tag, (double)leb, (double)leb1));
    PetscCall(Check(name, PetscAbsReal(leb - leb1 * leb1 * leb1), 1e-12 * leb));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* All 3D checks of one order N: every shape's element up to its order limit (creating the
 * order-10 hexahedron alone takes seconds, so the default limits keep the run short; raise
 * them with -ref_prism_nmax / -ref_hex_nmax). */
static PetscErrorCode Test3D(PetscInt N, const PetscInt nmax[], RefElement *const ref1[], PetscRandom rnd)
{
  const RefShape shapes[3] = {REF_TETRAHEDRON, REF_PRISM, REF_HEXAHEDRON};
  RefElement    *refs[3]   = {NULL, NULL, NULL}, *quad;

  PetscFunctionBeginUser;
  PetscCall(RefElementCreate(REF_QUADRILATERAL, N, &quad));
  for (PetscInt k = 0; k < 3; k++) {
    char tag[64];

    if (N > nmax[k]) continue;
    PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s N=%" PetscInt_FMT, RefShapes[shapes[k]], N));
    PetscCall(RefElementCreate(shapes[k], N, &refs[k]));
    PetscCall(TestCubatureRule(shapes[k], 2 * N + 1, refs[k]->Nq, refs[k]->xiq, refs[k]->wq, tag));
    PetscCall(TestOrthonormal(refs[k], tag));
    PetscCall(TestDerivatives3D(refs[k], tag));
    PetscCall(TestMass(refs[k], tag));
    PetscCall(TestFaces3D(refs[k], rnd, tag));
    PetscCall(TestSubCells3D(refs[k], ref1[k], tag));
    PetscCall(TestInterpolation3D(refs[k], rnd, tag));
    PetscCall(TestTensorFactor(refs[k], tag));
  }
  PetscCall(TestConformity(N, refs[0], refs[1], refs[2], quad));
  for (PetscInt k = 0; k < 3; k++) {
    const PetscInt lebmax[3] = {6, 3, 3};
    char           tag[64];

    if (!refs[k]) continue;
    PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s N=%" PetscInt_FMT, RefShapes[shapes[k]], N));
    if (N <= lebmax[k]) PetscCall(TestLebesgue3D(refs[k], tag)); /* last: may overwrite the nodes */
    PetscCall(RefElementDestroy(&refs[k]));
  }
  PetscCall(RefElementDestroy(&quad));
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
  for (PetscInt sh = 0; sh < REF_SEGMENT; sh++) {
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
      PetscCall(TestTensorFactor(ref, tag));
      PetscCall(TestLebesgue(ref, tag)); /* last: may overwrite the nodes */
      PetscCall(RefElementDestroy(&ref));
    }
  }
  for (PetscInt N = 1; N <= HOFLOW_NMAX; N++) PetscCall(TestTetrahedron(N));

  /* 3D elements: cubature rules of every degree used, then every order (see Test3D for the
   * order limits of the larger elements) */
  {
    const RefShape shapes[3] = {REF_TETRAHEDRON, REF_PRISM, REF_HEXAHEDRON};
    PetscInt       nmax[3]   = {HOFLOW_NMAX, 8, 8};
    RefElement    *ref1[3];

    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ref_prism_nmax", &nmax[1], NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-ref_hex_nmax", &nmax[2], NULL));
    for (PetscInt k = 0; k < 3; k++) {
      for (PetscInt deg = 0; deg <= 2 * HOFLOW_NMAX + 1; deg++) {
        PetscInt   nq;
        PetscReal *x, *w;

        PetscCall(RefElementCubature(shapes[k], deg, &nq, &x, &w));
        PetscCall(TestCubatureRule(shapes[k], deg, nq, x, w, RefShapes[shapes[k]]));
        PetscCall(PetscFree(x));
        PetscCall(PetscFree(w));
      }
      PetscCall(RefElementCreate(shapes[k], 1, &ref1[k]));
    }
    for (PetscInt N = 1; N <= HOFLOW_NMAX; N++) PetscCall(Test3D(N, nmax, ref1, rnd));
    for (PetscInt k = 0; k < 3; k++) PetscCall(RefElementDestroy(&ref1[k]));
  }
  PetscCall(TestErrors());

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "ref tests: %" PetscInt_FMT " passed, %" PetscInt_FMT " failed\n", npass, nfail));
  PetscCall(PetscFinalize());
  return nfail ? 1 : 0;
}
