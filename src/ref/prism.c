/* The prism: triangle x segment, {r, s >= -1, r + s <= 0} x [-1, 1], vertices 0-2 at t = -1 and
 * 3-5 above them at t = 1. Everything is a product of the triangle's and the segment's: nodes,
 * orthonormal modes, cubature and sub-cells. Node and mode m + Ntri k is triangle node (mode) m
 * in layer k, Ntri = (N+1)(N+2)/2. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

/* Triangle nodes x GLL in t. The triangle nodes are those of the tetrahedron's faces
 * (NodesTetrahedronFaceWarpBlend), not the 2D triangle's (they differ from N = 4 on): a prism's
 * triangular faces then carry the same nodes as the tetrahedra they meet in mixed meshes. Its
 * quadrilateral faces carry GLL x GLL like the hexahedron's, since the triangle's edges carry
 * the GLL points. */
static PetscErrorCode PrismNodes(PetscInt N, PetscReal xi[])
{
  const PetscInt Nt = (N + 1) * (N + 2) / 2;
  PetscReal     *r, *s, *x, *w;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(Nt, &r, Nt, &s, N + 1, &x, N + 1, &w));
  PetscCall(NodesTetrahedronFaceWarpBlend(N, r, s));
  PetscCall(GaussLobattoLegendre(N + 1, x, w));
  for (PetscInt k = 0; k <= N; k++)
    for (PetscInt m = 0; m < Nt; m++) {
      const PetscInt i = m + Nt * k;

      xi[3 * i]     = r[m];
      xi[3 * i + 1] = s[m];
      xi[3 * i + 2] = x[k];
    }
  PetscCall(PetscFree4(r, s, x, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* phi_{m + Ntri k}(r,s,t) = psi_m(r,s) P_k^{(0,0)}(t): the triangle's orthonormal PKD modes times
 * orthonormal Legendre polynomials, orthonormal on the prism since its measure is the product. */
static PetscErrorCode PrismBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const PetscInt Nt = (N + 1) * (N + 2) / 2, Np = Nt * (N + 1);
  PetscReal     *Pr = dP ? dP[0] : NULL, *Ps = dP ? dP[1] : NULL, *Pt = dP ? dP[2] : NULL;
  PetscReal     *rs, *T, *Tr, *Ts, *L, *dL;
  PetscReal     *Td[2];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(2 * n, &rs, n * Nt, &T, n * Nt, &Tr, n * Nt, &Ts, N + 1, &L, N + 1, &dL));
  for (PetscInt q = 0; q < n; q++) {
    rs[2 * q]     = pts[3 * q];
    rs[2 * q + 1] = pts[3 * q + 1];
  }
  Td[0] = Pr ? Tr : NULL; /* the triangle's values are always needed (for d/dt too) */
  Td[1] = Ps ? Ts : NULL;
  PetscCall(RefElementModalBasis(REF_TRIANGLE, N, n, rs, T, Td));
  for (PetscInt q = 0; q < n; q++) {
    const PetscReal t = pts[3 * q + 2];

    for (PetscInt k = 0; k <= N; k++) {
      L[k]  = JacobiP(t, 0.0, 0.0, k);
      dL[k] = JacobiPDerivative(t, 0.0, 0.0, k);
    }
    for (PetscInt k = 0; k <= N; k++)
      for (PetscInt m = 0; m < Nt; m++) {
        const PetscInt i = q * Np + m + Nt * k, j = q * Nt + m;

        if (P) P[i] = T[j] * L[k];
        if (Pr) Pr[i] = Tr[j] * L[k];
        if (Ps) Ps[i] = Ts[j] * L[k];
        if (Pt) Pt[i] = T[j] * dL[k];
      }
  }
  PetscCall(PetscFree6(rs, T, Tr, Ts, L, dL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The triangle's collapsed rule x Gauss–Legendre in t, both exact to `degree`: exact for
 * p(r,s) q(t) with deg p, deg q <= degree, so for every polynomial of total degree <= degree.
 * Weights sum to 2 * 2 = 4, the volume. Point qt + ntri qz, triangle point qt fastest. */
static PetscErrorCode PrismCubature(PetscInt degree, PetscInt *nq_out, PetscReal **pts, PetscReal **w)
{
  PetscInt   nt, nz;
  PetscReal *xt, *wt, *xz, *wz;

  PetscFunctionBeginUser;
  PetscCall(RefElementCubature(REF_TRIANGLE, degree, &nt, &xt, &wt));
  PetscCall(RefElementCubature(REF_SEGMENT, degree, &nz, &xz, &wz));
  *nq_out = nt * nz;
  PetscCall(PetscMalloc1(3 * nt * nz, pts));
  PetscCall(PetscMalloc1(nt * nz, w));
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt m = 0; m < nt; m++) {
      const PetscInt q = m + nt * k;

      (*pts)[3 * q]     = xt[2 * m];
      (*pts)[3 * q + 1] = xt[2 * m + 1];
      (*pts)[3 * q + 2] = xz[k];
      (*w)[q]           = wt[m] * wz[k];
    }
  PetscCall(PetscFree(xt));
  PetscCall(PetscFree(wt));
  PetscCall(PetscFree(xz));
  PetscCall(PetscFree(wz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* N^3 sub-prisms: the N^2 counterclockwise sub-triangles of the triangle's lattice (the prism's
 * triangle nodes are numbered like the triangle's) in each of the N layers between GLL planes,
 * bottom triangle then the one above it, as in the prism's vertex order. */
static PetscErrorCode PrismSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  const PetscInt     Nt = (N + 1) * (N + 2) / 2;
  const RefShapeOps *tri;
  PetscInt           ntri, *tcells, *c, n = 0;

  PetscFunctionBeginUser;
  PetscCall(RefShapeGetOps(REF_TRIANGLE, &tri));
  PetscCall(tri->subcells(N, &ntri, &tcells));
  PetscCall(PetscMalloc1(6 * ntri * N, &c));
  for (PetscInt k = 0; k < N; k++)
    for (PetscInt e = 0; e < ntri; e++) {
      for (PetscInt v = 0; v < 3; v++) c[n++] = tcells[3 * e + v] + Nt * k;
      for (PetscInt v = 0; v < 3; v++) c[n++] = tcells[3 * e + v] + Nt * (k + 1);
    }
  PetscCall(PetscFree(tcells));
  *nsub  = ntri * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Prism = {PrismNodes, PrismBasis, PrismCubature, PrismSubCells};
