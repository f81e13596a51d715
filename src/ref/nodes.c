/* Interpolation node sets: warp & blend nodes on simplices (Hesthaven & Warburton, Nodal
 * Discontinuous Galerkin Methods, Sec. 6.1 and 10.2) and tensor GLL nodes on the square.
 *
 * Warp & blend in one sentence: start from the equidistant lattice, and move every node by
 * the 1D displacement that turns equidistant points into Gauss–Lobatto–Legendre points,
 * applied along each edge direction and blended into the interior, so that edge nodes are
 * exactly GLL (which makes faces of neighbouring elements and of the quadrilateral match)
 * and the Lebesgue constant of the interior stays small. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

/* Optimized blending parameters alpha(N), N = 1..15 (H&W Table 6.1 for triangles and the
 * corresponding table of Sec. 10.2 for tetrahedra); beyond the tables the book uses 5/3
 * (triangle) and 1 (tetrahedron). */
static const PetscReal alpha_tri[15] = {0.0000, 0.0000, 1.4152, 0.1001, 0.2751, 0.9800, 1.0999, 1.2832, 1.3648, 1.4773, 1.4959, 1.5743, 1.5770, 1.6223, 1.6258};
static const PetscReal alpha_tet[15] = {0, 0, 0, 0.1002, 1.1332, 1.5608, 1.3413, 1.2577, 1.1603, 1.10153, 0.6080, 0.4523, 0.8856, 0.8717, 0.9655};

/* Reduced 1D warp function
 *   w(x) = sum_i (xgll_i - xeq_i) l_i(x) / (1 - x^2),
 * l_i the Lagrange polynomials of the N+1 equidistant points xeq_i = -1 + 2i/N. The
 * displacement vanishes at i = 0 and i = N (both sets contain ±1), and for an interior i,
 * l_i(x) = (1 - x^2)/(1 - xeq_i^2) prod_{j interior, j != i} (x - xeq_j)/(xeq_i - xeq_j),
 * so the division by 1 - x^2 is carried out exactly and w is a polynomial of degree N-2
 * with no singularity at x = ±1 (H&W's Warpfactor divides numerically and zeroes the end
 * values, which are multiplied by a vanishing blend anyway). */
static PetscReal WarpReduced(PetscInt N, const PetscReal xgll[], PetscReal x)
{
  PetscReal w = 0.0;

  for (PetscInt i = 1; i < N; i++) {
    const PetscReal xi = -1.0 + 2.0 * i / N;
    PetscReal       l  = (xgll[i] - xi) / (1.0 - xi * xi);

    for (PetscInt j = 1; j < N; j++) {
      const PetscReal xj = -1.0 + 2.0 * j / N;

      if (j != i) l *= (x - xj) / (xi - xj);
    }
    w += l;
  }
  return w;
}

/* Triangle (H&W Nodes2D). In barycentric coordinates (L1, L2, L3) of the equilateral
 * triangle with vertices v1 = (-1,-1/sqrt3), v2 = (1,-1/sqrt3), v3 = (0,2/sqrt3) (L2, L3, L1
 * are the weights of v1, v2, v3), edge k is warped along its own direction by
 *   warp_k = b_k w(L_c - L_b) (1 + (alpha L_a)^2),  b_k = 4 L_b L_c,
 * where (L_b, L_c) are the two coordinates that are nonzero on that edge and L_a is the
 * opposite one; the edge directions are at angles 0, 2pi/3 and 4pi/3. On the edge itself
 * L_a = 0 and L_b + L_c = 1, so with x = L_c - L_b the blend is 4 L_b L_c = 1 - x^2 and
 * warp_k = (1 - x^2) w(x) = sum_i (xgll_i - xeq_i) l_i(x): exactly the displacement that
 * maps the equidistant edge points onto GLL points. The blends of the other two edges vanish
 * there, and (1 + (alpha L_a)^2) is the optimized interior enhancement: alpha_tri(N) for the
 * triangle itself, alpha_tet(N) for the faces of the tetrahedron. */
static PetscErrorCode TriangleWarpBlend(PetscInt N, PetscReal alpha, PetscReal r[], PetscReal s[])
{
  const PetscReal sq3 = PetscSqrtReal(3.0);
  const PetscReal c2 = PetscCosReal(2.0 * PETSC_PI / 3.0), s2 = PetscSinReal(2.0 * PETSC_PI / 3.0);
  const PetscReal c4 = PetscCosReal(4.0 * PETSC_PI / 3.0), s4 = PetscSinReal(4.0 * PETSC_PI / 3.0);
  PetscReal      *xgll, *wgll;
  PetscInt        sk = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(N + 1, &xgll, N + 1, &wgll));
  PetscCall(GaussLobattoLegendre(N + 1, xgll, wgll));
  /* Row by row in s (L1 = j/N), r fastest (L3 = i/N). */
  for (PetscInt j = 0; j <= N; j++) {
    for (PetscInt i = 0; i <= N - j; i++, sk++) {
      const PetscReal L1 = (PetscReal)j / N, L3 = (PetscReal)i / N, L2 = 1.0 - L1 - L3;
      const PetscReal warp1 = 4.0 * L2 * L3 * WarpReduced(N, xgll, L3 - L2) * (1.0 + (alpha * L1) * (alpha * L1));
      const PetscReal warp2 = 4.0 * L1 * L3 * WarpReduced(N, xgll, L1 - L3) * (1.0 + (alpha * L2) * (alpha * L2));
      const PetscReal warp3 = 4.0 * L1 * L2 * WarpReduced(N, xgll, L2 - L1) * (1.0 + (alpha * L3) * (alpha * L3));
      PetscReal       x = -L2 + L3, y = (-L2 - L3 + 2.0 * L1) / sq3;
      PetscReal       B1, B2, B3;

      x += warp1 + c2 * warp2 + c4 * warp3;
      y += s2 * warp2 + s4 * warp3;
      /* Back to barycentric coordinates of the equilateral triangle, then to (r,s):
       * r = 2 B3 - 1 = -B2 + B3 - B1, s = 2 B1 - 1 = -B2 - B3 + B1. */
      B1    = (sq3 * y + 1.0) / 3.0;
      B2    = (-3.0 * x - sq3 * y + 2.0) / 6.0;
      B3    = (3.0 * x - sq3 * y + 2.0) / 6.0;
      r[sk] = -B2 + B3 - B1;
      s[sk] = -B2 - B3 + B1;
    }
  }
  PetscCall(PetscFree2(xgll, wgll));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode NodesTriangleWarpBlend(PetscInt N, PetscReal r[], PetscReal s[])
{
  PetscFunctionBeginUser;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Warp & blend nodes need order N >= 1 (-order), got %" PetscInt_FMT, N);
  PetscCall(TriangleWarpBlend(N, N <= 15 ? alpha_tri[N - 1] : 5.0 / 3.0, r, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nodes that NodesTetrahedronWarpBlend puts on each face of the tetrahedron, in the
 * coordinates of the bi-unit triangle. On a face (La = 0) the volume blend of that face is 1
 * and those of the other three faces vanish, so a face node is moved by the face's own shift
 * alone: FaceShift, the triangle's edge warps, with the tetrahedron's alpha(N) in the interior
 * enhancement (1 + (alpha L)^2). The tetrahedron's alpha differs from the triangle's from
 * N = 3 on (alpha_tri vs alpha_tet above), and it moves the face's interior nodes from N = 4 on
 * (edge nodes do not depend on it, nor does the one interior node of N = 3, the centroid): from
 * N = 4 on the 2D triangle set is not the tetrahedron's face set. Elements whose triangular
 * faces meet tetrahedra (prisms) take this set, so that faces match in mixed meshes. */
PetscErrorCode NodesTetrahedronFaceWarpBlend(PetscInt N, PetscReal r[], PetscReal s[])
{
  PetscFunctionBeginUser;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Warp & blend nodes need order N >= 1 (-order), got %" PetscInt_FMT, N);
  PetscCall(TriangleWarpBlend(N, N <= 15 ? alpha_tet[N - 1] : 1.0, r, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2D shift of the face-local triangle (H&W evalshift): with the face's three barycentric
 * coordinates (L1, L2, L3), the same edge warps as on the triangle (blend L_b L_c times
 * 4 w(L_c - L_b), i.e. the edge displacement), summed along the directions 0, 2pi/3, 4pi/3. */
static void FaceShift(PetscInt N, const PetscReal xgll[], PetscReal alpha, PetscReal L1, PetscReal L2, PetscReal L3, PetscReal *dx, PetscReal *dy)
{
  const PetscReal c2 = PetscCosReal(2.0 * PETSC_PI / 3.0), s2 = PetscSinReal(2.0 * PETSC_PI / 3.0);
  const PetscReal c4 = PetscCosReal(4.0 * PETSC_PI / 3.0), s4 = PetscSinReal(4.0 * PETSC_PI / 3.0);
  const PetscReal warp1 = L2 * L3 * 4.0 * WarpReduced(N, xgll, L3 - L2) * (1.0 + (alpha * L1) * (alpha * L1));
  const PetscReal warp2 = L1 * L3 * 4.0 * WarpReduced(N, xgll, L1 - L3) * (1.0 + (alpha * L2) * (alpha * L2));
  const PetscReal warp3 = L1 * L2 * 4.0 * WarpReduced(N, xgll, L2 - L1) * (1.0 + (alpha * L3) * (alpha * L3));

  *dx = warp1 + c2 * warp2 + c4 * warp3;
  *dy = s2 * warp2 + s4 * warp3;
}

/* Tetrahedron (H&W Nodes3D, warp & shift). The equidistant lattice is placed in the regular
 * tetrahedron v1..v4; each face (La = 0 on it) contributes its 2D face shift, expressed in
 * the face's orthonormal tangent frame (t1, t2) and blended into the volume with
 *   blend = (1 + (alpha La)^2) Lb Lc Ld / ((Lb + La/2)(Lc + La/2)(Ld + La/2)),
 * which is 1 on the face and decays to 0 at the opposite vertex. Points on an edge (La = 0
 * and one more coordinate zero) take exactly the face's shift, so edges receive the 1D GLL
 * displacement once, not once per adjacent face. */
PetscErrorCode NodesTetrahedronWarpBlend(PetscInt N, PetscReal r[], PetscReal s[], PetscReal t[])
{
  const PetscReal alpha = N <= 15 ? alpha_tet[N - 1] : 1.0;
  const PetscReal tol   = 1e-10;
  const PetscReal sq3 = PetscSqrtReal(3.0), sq6 = PetscSqrtReal(6.0);
  const PetscReal v[4][3] = {
      {-1.0, -1.0 / sq3, -1.0 / sq6},
      {1.0, -1.0 / sq3, -1.0 / sq6},
      {0.0, 2.0 / sq3, -1.0 / sq6},
      {0.0, 0.0, 3.0 / sq6}};
  PetscReal t1[4][3], t2[4][3], A[3][3], Ainv[3][3], det, *xgll, *wgll;
  PetscInt  sk = 0;

  PetscFunctionBeginUser;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Warp & blend nodes need order N >= 1 (-order), got %" PetscInt_FMT, N);
  PetscCall(PetscMalloc2(N + 1, &xgll, N + 1, &wgll));
  PetscCall(GaussLobattoLegendre(N + 1, xgll, wgll));
  /* Face tangent frames: t1 along an edge of the face, t2 from that edge's midpoint to the
   * face's third vertex, both normalized. */
  for (PetscInt d = 0; d < 3; d++) {
    t1[0][d] = v[1][d] - v[0][d];
    t1[1][d] = v[1][d] - v[0][d];
    t1[2][d] = v[2][d] - v[1][d];
    t1[3][d] = v[2][d] - v[0][d];
    t2[0][d] = v[2][d] - 0.5 * (v[0][d] + v[1][d]);
    t2[1][d] = v[3][d] - 0.5 * (v[0][d] + v[1][d]);
    t2[2][d] = v[3][d] - 0.5 * (v[1][d] + v[2][d]);
    t2[3][d] = v[3][d] - 0.5 * (v[0][d] + v[2][d]);
  }
  for (PetscInt f = 0; f < 4; f++) {
    const PetscReal n1 = PetscSqrtReal(t1[f][0] * t1[f][0] + t1[f][1] * t1[f][1] + t1[f][2] * t1[f][2]);
    const PetscReal n2 = PetscSqrtReal(t2[f][0] * t2[f][0] + t2[f][1] * t2[f][1] + t2[f][2] * t2[f][2]);

    for (PetscInt d = 0; d < 3; d++) {
      t1[f][d] /= n1;
      t2[f][d] /= n2;
    }
  }
  /* Affine map (r,s,t) -> X = v1 + (r+1)/2 (v2-v1) + (s+1)/2 (v3-v1) + (t+1)/2 (v4-v1)
   *                        = c + A (r,s,t),  c = (v2+v3+v4-v1)/2, A = [v2-v1 v3-v1 v4-v1]/2;
   * its inverse is applied at the end with the adjugate formula. */
  for (PetscInt d = 0; d < 3; d++) {
    A[d][0] = 0.5 * (v[1][d] - v[0][d]);
    A[d][1] = 0.5 * (v[2][d] - v[0][d]);
    A[d][2] = 0.5 * (v[3][d] - v[0][d]);
  }
  det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  for (PetscInt i = 0; i < 3; i++) {
    for (PetscInt j = 0; j < 3; j++) {
      /* Ainv_ij = cofactor_ji / det, cyclic index form of the cofactor. */
      const PetscInt j1 = (j + 1) % 3, j2 = (j + 2) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;

      Ainv[i][j] = (A[j1][i1] * A[j2][i2] - A[j1][i2] * A[j2][i1]) / det;
    }
  }

  /* Equidistant lattice, t slowest, r fastest. */
  for (PetscInt k = 0; k <= N; k++) {
    for (PetscInt j = 0; j <= N - k; j++) {
      for (PetscInt i = 0; i <= N - k - j; i++, sk++) {
        const PetscReal re = -1.0 + 2.0 * i / N, se = -1.0 + 2.0 * j / N, te = -1.0 + 2.0 * k / N;
        /* L1..L4: weights of v4, v3, v1, v2 respectively. */
        const PetscReal L1 = 0.5 * (1.0 + te), L2 = 0.5 * (1.0 + se), L3 = -0.5 * (1.0 + re + se + te), L4 = 0.5 * (1.0 + re);
        PetscReal       X[3], shift[3] = {0.0, 0.0, 0.0}, rhs[3];

        for (PetscInt d = 0; d < 3; d++) X[d] = L3 * v[0][d] + L4 * v[1][d] + L2 * v[2][d] + L1 * v[3][d];
        for (PetscInt f = 0; f < 4; f++) {
          PetscReal La, Lb, Lc, Ld, w1, w2, blend, denom;
          PetscInt  nonzero;

          switch (f) {
          case 0:
            La = L1, Lb = L2, Lc = L3, Ld = L4;
            break;
          case 1:
            La = L2, Lb = L1, Lc = L3, Ld = L4;
            break;
          case 2:
            La = L3, Lb = L1, Lc = L4, Ld = L2;
            break;
          default:
            La = L4, Lb = L1, Lc = L3, Ld = L2;
            break;
          }
          FaceShift(N, xgll, alpha, Lb, Lc, Ld, &w1, &w2);
          blend = Lb * Lc * Ld;
          denom = (Lb + 0.5 * La) * (Lc + 0.5 * La) * (Ld + 0.5 * La);
          if (denom > tol) blend = (1.0 + (alpha * La) * (alpha * La)) * blend / denom;
          for (PetscInt d = 0; d < 3; d++) shift[d] += blend * w1 * t1[f][d] + blend * w2 * t2[f][d];
          nonzero = (Lb > tol) + (Lc > tol) + (Ld > tol);
          if (La < tol && nonzero < 3) {
            for (PetscInt d = 0; d < 3; d++) shift[d] = w1 * t1[f][d] + w2 * t2[f][d];
          }
        }
        for (PetscInt d = 0; d < 3; d++) rhs[d] = X[d] + shift[d] - 0.5 * (v[1][d] + v[2][d] + v[3][d] - v[0][d]);
        r[sk] = Ainv[0][0] * rhs[0] + Ainv[0][1] * rhs[1] + Ainv[0][2] * rhs[2];
        s[sk] = Ainv[1][0] * rhs[0] + Ainv[1][1] * rhs[1] + Ainv[1][2] * rhs[2];
        t[sk] = Ainv[2][0] * rhs[0] + Ainv[2][1] * rhs[1] + Ainv[2][2] * rhs[2];
      }
    }
  }
  PetscCall(PetscFree2(xgll, wgll));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tensor product of the (N+1)-point GLL rule: node i + (N+1) j at (x_i, x_j). */
PetscErrorCode NodesQuadrilateralGLL(PetscInt N, PetscReal r[], PetscReal s[])
{
  PetscReal *x, *w;

  PetscFunctionBeginUser;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GLL nodes need order N >= 1 (-order), got %" PetscInt_FMT, N);
  PetscCall(PetscMalloc2(N + 1, &x, N + 1, &w));
  PetscCall(GaussLobattoLegendre(N + 1, x, w));
  for (PetscInt j = 0; j <= N; j++) {
    for (PetscInt i = 0; i <= N; i++) {
      r[i + (N + 1) * j] = x[i];
      s[i + (N + 1) * j] = x[j];
    }
  }
  PetscCall(PetscFree2(x, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
