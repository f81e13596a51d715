/* Reference elements of every shape: nodal operators (Vandermonde, derivative, mass and lift
 * matrices), face node maps and cubature, built generically from the shape's nodes, modal basis
 * and cubature (RefShapeOps, one file per shape), following Hesthaven & Warburton's nodal DG setup.
 *
 * Everything nodal is built from the orthonormal modal basis phi_j through the Vandermonde
 * matrix V_ij = phi_j(x_i): the nodal (Lagrange) basis is l = V^{-T} phi, hence
 *   M = int l l^T = V^{-T} (int phi phi^T) V^{-1} = (V V^T)^{-1}   (int phi phi^T = I),
 *   D_d = V_d V^{-1}  with (V_d)_ij = d phi_j/d r_d (x_i),
 * and interpolation to arbitrary points is P(points) V^{-1}. Faces take the same construction on
 * the face's own shape (segment, triangle, quadrilateral) at the face nodes' face coordinates. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

PetscErrorCode RefElementModalBasis(RefShape shape, PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const RefShapeOps *ops;

  PetscFunctionBeginUser;
  PetscCheck(N >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Polynomial order must be non-negative (-order), got %" PetscInt_FMT, N);
  PetscCall(RefShapeGetOps(shape, &ops));
  PetscCall(ops->basis(N, n, pts, P, dP));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementCubature(RefShape shape, PetscInt degree, PetscInt *nq, PetscReal **pts, PetscReal **wq)
{
  const RefShapeOps *ops;

  PetscFunctionBeginUser;
  PetscCheck(degree >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cubature degree %" PetscInt_FMT " must be >= 0", degree);
  PetscCall(RefShapeGetOps(shape, &ops));
  PetscCall(ops->cubature(degree, nq, pts, wq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* interp = P(points) V^{-1}: row i holds the nodal basis functions l_j evaluated at point i. */
PetscErrorCode RefElementInterpolationMatrix(const RefElement *ref, PetscInt n, const PetscReal pts[], PetscReal interp[])
{
  PetscReal *P;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * ref->Np, &P));
  PetscCall(RefElementModalBasis(ref->shape, ref->N, n, pts, P, NULL));
  DenseMatMult(n, ref->Np, ref->Np, P, ref->Vinv, interp);
  PetscCall(PetscFree(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementDerivativeMatrices(const RefElement *ref, PetscInt n, const PetscReal pts[], PetscReal *dinterp[])
{
  PetscReal *dP[HOFLOW_DIM_MAX] = {NULL, NULL, NULL};

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < ref->dim; d++)
    if (dinterp[d]) PetscCall(PetscMalloc1(n * ref->Np, &dP[d]));
  PetscCall(RefElementModalBasis(ref->shape, ref->N, n, pts, NULL, dP));
  for (PetscInt d = 0; d < ref->dim; d++)
    if (dinterp[d]) {
      DenseMatMult(n, ref->Np, ref->Np, dP[d], ref->Vinv, dinterp[d]);
      PetscCall(PetscFree(dP[d]));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementSubCells(const RefElement *ref, PetscInt *nsub, PetscInt **cells)
{
  const RefShapeOps *ops;

  PetscFunctionBeginUser;
  PetscCall(RefShapeGetOps(ref->shape, &ops));
  PetscCall(ops->subcells(ref->N, nsub, cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face coordinates of the point x of face f (hoflow/shape.h): x = v0 + (1+a)/2 e1 + (1+b)/2 e2
 * with e1 = v1 - v0 and e2 = v_last - v0, solved in the least-squares sense; *dist is the distance
 * of x from the face's line or plane. */
static void FaceCoordinates(const RefShapeInfo *info, PetscInt f, const PetscReal x[], PetscReal fc[], PetscReal *dist)
{
  const PetscInt dim = info->dim, nv = info->face_nverts[f];
  const double  *v0 = info->verts[info->face_verts[f][0]], *v1 = info->verts[info->face_verts[f][1]];
  PetscReal      e1[3] = {0, 0, 0}, e2[3] = {0, 0, 0}, y[3] = {0, 0, 0}, a11 = 0, a12 = 0, a22 = 0, p[3];

  for (PetscInt d = 0; d < dim; d++) {
    e1[d] = v1[d] - v0[d];
    y[d]  = x[d] - v0[d];
  }
  if (dim == 1) {
    *dist = PetscAbsReal(y[0]);
    return;
  }
  if (dim == 3) {
    const double *vl = info->verts[info->face_verts[f][nv - 1]];
    for (PetscInt d = 0; d < 3; d++) e2[d] = vl[d] - v0[d];
  }
  for (PetscInt d = 0; d < dim; d++) {
    a11 += e1[d] * e1[d];
    a12 += e1[d] * e2[d];
    a22 += e2[d] * e2[d];
  }
  if (dim == 2) {
    /* from the face's midpoint: exact for faces along the axes */
    const PetscReal m[2] = {x[0] - 0.5 * (v0[0] + v1[0]), x[1] - 0.5 * (v0[1] + v1[1])};
    fc[0]                = (m[0] * e1[0] + m[1] * e1[1]) / (0.5 * a11);
    for (PetscInt d = 0; d < 2; d++) p[d] = y[d] - 0.5 * (1.0 + fc[0]) * e1[d];
    *dist = PetscSqrtReal(p[0] * p[0] + p[1] * p[1]);
  } else {
    /* from the face's center m = v0 + (e1 + e2)/2: x = m + a e1/2 + b e2/2, so that
     * (a, b) = 2 G^{-1} (e1.(x-m), e2.(x-m)), G the Gram matrix; exact for faces along the axes
     * (no 2 c - 1 cancellation), which makes the faces of hexahedra and the bottom faces of
     * tetrahedra and prisms carry their nodes' coordinates bit for bit */
    const PetscReal det = a11 * a22 - a12 * a12;
    PetscReal       m[3], g1 = 0, g2 = 0;

    for (PetscInt d = 0; d < 3; d++) {
      m[d] = x[d] - (v0[d] + 0.5 * (e1[d] + e2[d]));
      g1 += e1[d] * m[d];
      g2 += e2[d] * m[d];
    }
    fc[0] = 2.0 * (a22 * g1 - a12 * g2) / det;
    fc[1] = 2.0 * (a11 * g2 - a12 * g1) / det;
    for (PetscInt d = 0; d < 3; d++) p[d] = m[d] - 0.5 * fc[0] * e1[d] - 0.5 * fc[1] * e2[d];
    *dist = PetscSqrtReal(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  }
}

/* Face nodes: the nodes on face f (within 1e-10 of it), ordered by their face coordinates (by a in
 * 2D; row by row in b, then a, in 3D), with their face coordinates. */
static PetscErrorCode BuildFaceNodes(RefElement *ref)
{
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      dim = ref->dim, fdim = dim - 1;
  PetscInt           *nodes, cnt;
  PetscReal          *fc;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(ref->Np, &nodes, ref->Np * 2, &fc));
  ref->face_offset[0] = 0;
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const RefShape fshape = info->face_shape[f];
    const PetscInt expect = fdim ? RefShapeNumNodes(fshape, (int)ref->N) : 1;

    cnt = 0;
    for (PetscInt n = 0; n < ref->Np; n++) {
      PetscReal c[2] = {0, 0}, dist;
      FaceCoordinates(info, f, ref->xi + n * dim, c, &dist);
      if (dist > 1e-10) continue;
      PetscCheck(cnt < ref->Np, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face node overflow");
      nodes[cnt]      = n;
      fc[2 * cnt]     = c[0];
      fc[2 * cnt + 1] = c[1];
      cnt++;
    }
    PetscCheck(cnt == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Found %" PetscInt_FMT " nodes on face %" PetscInt_FMT " of the order-%" PetscInt_FMT " %s, expected %" PetscInt_FMT, cnt, f, ref->N, info->name, expect);
    /* insertion sort by (b, a) */
    for (PetscInt i = 1; i < cnt; i++) {
      for (PetscInt j = i; j > 0; j--) {
        const PetscReal db = fc[2 * j + 1] - fc[2 * (j - 1) + 1], da = fc[2 * j] - fc[2 * (j - 1)];
        const PetscBool before = (PetscBool)(fdim == 2 && PetscAbsReal(db) > 1e-10 ? db < 0 : da < 0);
        if (!before) break;
        for (PetscInt k = 0; k < 2; k++) {
          const PetscReal t   = fc[2 * j + k];
          fc[2 * j + k]       = fc[2 * (j - 1) + k];
          fc[2 * (j - 1) + k] = t;
        }
        {
          const PetscInt t = nodes[j];
          nodes[j]         = nodes[j - 1];
          nodes[j - 1]     = t;
        }
      }
    }
    ref->Nfp[f]             = cnt;
    ref->face_offset[f + 1] = ref->face_offset[f] + cnt;
    ref->NfpMax             = PetscMax(ref->NfpMax, cnt);
    if (f == 0) {
      PetscCall(PetscMalloc1(ref->Np * ref->Nfaces, &ref->face_nodes)); /* enough; trimmed below */
      PetscCall(PetscMalloc1(PetscMax(1, ref->Np * ref->Nfaces * fdim), &ref->face_xi));
    }
    for (PetscInt i = 0; i < cnt; i++) {
      ref->face_nodes[ref->face_offset[f] + i] = nodes[i];
      for (PetscInt k = 0; k < fdim; k++) ref->face_xi[(ref->face_offset[f] + i) * fdim + k] = fc[2 * i + k];
    }
  }
  ref->Nfn = ref->face_offset[ref->Nfaces];
  PetscCall(PetscFree2(nodes, fc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Face mass matrices: on each face the analogue of M, (Vf Vf^T)^{-1} = Vf^{-T} Vf^{-1} with the
 * face shape's orthonormal Vandermonde Vf at the face nodes' face coordinates (the nodal basis
 * restricted to a face is the face's own nodal basis, since exactly Nfp nodes lie on it and the
 * trace is a polynomial of the face's space). */
static PetscErrorCode BuildFaceMass(RefElement *ref)
{
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      fdim = ref->dim - 1;
  PetscInt            size = 0;

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    ref->face_mass_offset[f] = size;
    size += ref->Nfp[f] * ref->Nfp[f];
  }
  PetscCall(PetscMalloc1(size, &ref->Mface));
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const PetscInt Nfp = ref->Nfp[f];
    PetscReal     *V1, *V1inv, *V1invT;

    if (!fdim) {
      ref->Mface[ref->face_mass_offset[f]] = 1.0;
      continue;
    }
    PetscCall(PetscMalloc3(Nfp * Nfp, &V1, Nfp * Nfp, &V1inv, Nfp * Nfp, &V1invT));
    PetscCall(RefElementModalBasis(info->face_shape[f], ref->N, Nfp, ref->face_xi + ref->face_offset[f] * fdim, V1, NULL));
    PetscCall(DenseInvert(Nfp, V1, V1inv));
    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < Nfp; j++) V1invT[i * Nfp + j] = V1inv[j * Nfp + i];
    DenseMatMult(Nfp, Nfp, Nfp, V1invT, V1inv, ref->Mface + ref->face_mass_offset[f]);
    PetscCall(PetscFree3(V1, V1inv, V1invT));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 1D factor of shapes that are tensor products with a segment (ref.h): GLL nodes and weights,
 * and, with the orthonormal Legendre Vandermonde V1 on the nodes, D1 = V1' V1^{-1} and the exact
 * mass matrix M1 = (V1 V1^T)^{-1} = V1^{-T} V1^{-1}, as for the element itself. */
static PetscErrorCode BuildTensorFactor(RefElement *re)
{
  const PetscInt n = re->N + 1;
  PetscReal     *V1, *dV1, *V1inv;

  PetscFunctionBeginUser;
  if (!(RefShapeTable[re->shape].tensor || re->shape == REF_PRISM)) PetscFunctionReturn(PETSC_SUCCESS);
  re->N1 = n;
  PetscCall(PetscMalloc1(n, &re->x1));
  PetscCall(PetscMalloc1(n, &re->w1));
  PetscCall(PetscMalloc1(n * n, &re->D1));
  PetscCall(PetscMalloc1(n * n, &re->M1));
  PetscCall(PetscMalloc3(n * n, &V1, n * n, &dV1, n * n, &V1inv));
  PetscCall(GaussLobattoLegendre(n, re->x1, re->w1));
  PetscCall(RefElementModalBasis(REF_SEGMENT, re->N, n, re->x1, V1, &dV1));
  PetscCall(DenseInvert(n, V1, V1inv));
  DenseMatMult(n, n, n, dV1, V1inv, re->D1);
  DenseTranspose(n, n, V1inv, V1);
  DenseMatMult(n, n, n, V1, V1inv, re->M1);
  PetscCall(PetscFree3(V1, dV1, V1inv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementCreate(RefShape shape, PetscInt N, RefElement **ref)
{
  const RefShapeOps  *ops;
  const RefShapeInfo *info;
  RefElement         *re;
  PetscInt            Np, dim, Nfn;
  PetscReal          *VinvT, *E, *dV[HOFLOW_DIM_MAX] = {NULL, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCheck(shape >= 0 && shape < REF_NUM_SHAPES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown reference shape %d", (int)shape);
  PetscCheck(N >= 1 && N <= HOFLOW_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Polynomial order -order %" PetscInt_FMT " is outside the supported range 1..%d", N, HOFLOW_NMAX);
  PetscCall(RefShapeGetOps(shape, &ops));
  info = &RefShapeTable[shape];
  PetscCall(PetscCalloc1(1, &re));
  re->shape = shape;
  re->dim = dim = info->dim;
  re->N         = N;
  re->Np = Np = RefShapeNumNodes(shape, (int)N);
  re->Nfaces  = info->nfaces;
  re->Nverts  = info->nverts;

  /* Nodes and faces. Every array is allocated on its own, so that users may replace or free
   * members individually without knowing how they were grouped. */
  PetscCall(PetscMalloc1(Np * dim, &re->xi));
  PetscCall(ops->nodes(N, re->xi));
  PetscCall(BuildFaceNodes(re));
  Nfn = re->Nfn;

  /* Vandermonde matrices and derivative operators */
  PetscCall(PetscMalloc1(Np * Np, &re->V));
  PetscCall(PetscMalloc1(Np * Np, &re->Vinv));
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(PetscMalloc1(Np * Np, &re->D[d]));
    PetscCall(PetscMalloc1(Np * Np, &dV[d]));
  }
  PetscCall(ops->basis(N, Np, re->xi, re->V, dV));
  PetscCall(DenseInvert(Np, re->V, re->Vinv));
  for (PetscInt d = 0; d < dim; d++) {
    DenseMatMult(Np, Np, Np, dV[d], re->Vinv, re->D[d]);
    PetscCall(PetscFree(dV[d]));
  }

  /* Mass matrix and inverse: Minv = V V^T, M = (V V^T)^{-1} = V^{-T} V^{-1}, the latter
   * evaluated as a product of the already computed inverse instead of a second inversion. */
  PetscCall(PetscMalloc1(Np * Np, &re->M));
  PetscCall(PetscMalloc1(Np * Np, &re->Minv));
  PetscCall(PetscMalloc1(Np * Np, &VinvT));
  DenseMatMultTranspose(Np, Np, Np, re->V, re->V, re->Minv);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) VinvT[i * Np + j] = re->Vinv[j * Np + i];
  DenseMatMult(Np, Np, Np, VinvT, re->Vinv, re->M);
  PetscCall(PetscFree(VinvT));

  /* LIFT = Minv E: E maps face traces to the element, E[face_nodes[off_f + i], off_f + j] =
   * Mface_f[ij], so that (E g)_n = int_face l_n g ds for a face function g given at the face nodes. */
  PetscCall(BuildFaceMass(re));
  PetscCall(PetscCalloc1(Np * Nfn, &E));
  for (PetscInt f = 0; f < re->Nfaces; f++) {
    const PetscInt   Nfp = re->Nfp[f], off = re->face_offset[f];
    const PetscReal *Mf = re->Mface + re->face_mass_offset[f];
    for (PetscInt i = 0; i < Nfp; i++)
      for (PetscInt j = 0; j < Nfp; j++) E[re->face_nodes[off + i] * Nfn + off + j] = Mf[i * Nfp + j];
  }
  PetscCall(PetscMalloc1(Np * Nfn, &re->LIFT));
  DenseMatMult(Np, Np, Nfn, re->Minv, E, re->LIFT);
  PetscCall(PetscFree(E));

  /* Cubature exact for polynomials of degree 2N+1 (products of two degree-N functions times a
   * degree-1 factor such as an affine coefficient), and the interpolation to it. */
  PetscCall(ops->cubature(2 * N + 1, &re->Nq, &re->xiq, &re->wq));
  PetscCall(PetscMalloc1(re->Nq * Np, &re->Iq));
  PetscCall(RefElementInterpolationMatrix(re, re->Nq, re->xiq, re->Iq));
  PetscCall(BuildTensorFactor(re));
  *ref = re;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RefElementDestroy(RefElement **ref)
{
  RefElement *re;

  PetscFunctionBeginUser;
  if (!ref || !*ref) PetscFunctionReturn(PETSC_SUCCESS);
  re = *ref;
  PetscCall(PetscFree(re->xi));
  PetscCall(PetscFree(re->face_nodes));
  PetscCall(PetscFree(re->face_xi));
  PetscCall(PetscFree(re->V));
  PetscCall(PetscFree(re->Vinv));
  for (PetscInt d = 0; d < HOFLOW_DIM_MAX; d++) PetscCall(PetscFree(re->D[d]));
  PetscCall(PetscFree(re->M));
  PetscCall(PetscFree(re->Minv));
  PetscCall(PetscFree(re->Mface));
  PetscCall(PetscFree(re->LIFT));
  PetscCall(PetscFree(re->xiq));
  PetscCall(PetscFree(re->wq));
  PetscCall(PetscFree(re->Iq));
  PetscCall(PetscFree(re->x1));
  PetscCall(PetscFree(re->w1));
  PetscCall(PetscFree(re->D1));
  PetscCall(PetscFree(re->M1));
  PetscCall(PetscFree(re));
  *ref = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lebesgue constant Lambda = max_x sum_j |l_j(x)| (the interpolation operator's norm in the max
 * norm), estimated on the points of the lattice of K subdivisions per direction of the bounding
 * box [-1,1]^dim that lie in the shape, boundary included. The lattice maximum is a lower bound
 * that converges to Lambda as K grows. Points are processed in chunks to bound the size of the
 * interpolation matrix. */
#define LEBESGUE_CHUNK 512

static PetscBool InsideShape(RefShape shape, const PetscReal x[])
{
  const PetscReal tol = 1e-12;
  switch (shape) {
  case REF_TRIANGLE:
    return (PetscBool)(x[0] + x[1] <= tol);
  case REF_TETRAHEDRON:
    return (PetscBool)(x[0] + x[1] + x[2] <= -1.0 + tol);
  case REF_PRISM:
    return (PetscBool)(x[0] + x[1] <= tol);
  default:
    return PETSC_TRUE;
  }
}

PetscErrorCode RefElementLebesgueConstant(const RefElement *ref, PetscReal *lebesgue)
{
  const PetscInt dim = ref->dim, Np = ref->Np, K = dim == 3 ? 40 : 120;
  const PetscInt total = dim == 3 ? (K + 1) * (K + 1) * (K + 1) : dim == 2 ? (K + 1) * (K + 1)
                                                                           : K + 1;
  PetscReal     *pts, *Imat, lmax = 0.0;
  PetscInt       n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(LEBESGUE_CHUNK * dim, &pts, LEBESGUE_CHUNK * Np, &Imat));
  for (PetscInt idx = 0; idx < total; idx++) {
    PetscInt  rest = idx;
    PetscReal x[3] = {0, 0, 0};
    for (PetscInt d = 0; d < dim; d++) {
      x[d] = -1.0 + 2.0 * (rest % (K + 1)) / K;
      rest /= K + 1;
    }
    if (InsideShape(ref->shape, x)) {
      for (PetscInt d = 0; d < dim; d++) pts[n * dim + d] = x[d];
      n++;
    }
    if (n && (n == LEBESGUE_CHUNK || idx == total - 1)) {
      PetscCall(RefElementInterpolationMatrix(ref, n, pts, Imat));
      for (PetscInt q = 0; q < n; q++) {
        PetscReal sum = 0.0;
        for (PetscInt l = 0; l < Np; l++) sum += PetscAbsReal(Imat[q * Np + l]);
        lmax = PetscMax(lmax, sum);
      }
      n = 0;
    }
  }
  PetscCall(PetscFree2(pts, Imat));
  *lebesgue = lmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}
