/* The low-order-refined (LOR) operator of a SIPDG discretization (seed 001 §5.2 and its ref. [39],
 * carried over to DG): each element is cut into the N^2 sub-triangles or sub-quadrilaterals through
 * its nodes (warp & blend lattice, GLL grid; RefElementSubCells), on which -Laplace + lambda is
 * discretized by continuous P1/Q1 finite elements (lumped mass). Elements are coupled, as the DG
 * operator couples them, by the interior-penalty term tau [[u]] [[v]] at the face nodes, with the
 * high-order penalty tau of eq. (14) and the trapezoidal face weights of the face nodes (Dirichlet
 * faces: the mirror state, 2 tau). The unknowns are the DG nodes themselves, so the matrix is a
 * preconditioning matrix for the high-order operator with ~7-9 nonzeros per row at every order.
 *
 * The face penalty is scaled by -lor_penalty_scale (default 1/4): the consistency terms of the
 * SIPDG form, -2 ({{n.grad u}}, [[u]]), cancel much of tau [[u]]^2 for discrete functions, which
 * the LOR form lacks; with the full tau the LOR matrix over-penalizes jumps and the smallest
 * eigenvalue of P^{-1} A falls to ~0.2 (quadrilaterals, N = 1..8), with tau/4 it stays ~0.6.
 * Measured with LU on the LOR matrix (-pc_type lu -ksp_view_singularvalues): on GLL quadrilaterals
 * cond(P^{-1} A) stays at 6-9 for N = 1..8; on warp & blend triangles it grows from 6 to 15 at
 * N = 8 (and 46 at N = 10), from the volume term alone (a single element with a large penalty shows
 * the same growth): P1 on the node lattice of warp & blend points is not spectrally equivalent to
 * the degree-N stiffness at high order (a Delaunay triangulation of the nodes does no better).
 *
 * 3D: the N^3 sub-tetrahedra, sub-wedges or sub-hexahedra of RefElementSubCells with P1, P1 x Q1
 * and Q1 (isoparametric) elements, and face weights from the sub-facets lying in each face
 * (LORFaceWeights, which also gives 2D's trapezoidal weights). Hexahedra: 34-46 CG + BoomerAMG
 * iterations for N = 2..8 on three meshes, as many as with LU on the LOR matrix (Q1 on GLL
 * sub-cells is equivalent with constants about (pi^2/4)^3). Tetrahedra: 31-181, growing with N,
 * the triangles' effect made stronger (use pMG-AMG there). */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/dg.h>

/* P1 stiffness and lumped mass of the triangle (x[v], y[v]), v = 0..2 counterclockwise. */
static void TriangleP1(const PetscReal *x, const PetscReal *y, PetscReal lambda, PetscReal K[])
{
  const PetscReal A = 0.5 * ((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]));
  PetscReal       gx[3], gy[3];

  for (PetscInt i = 0; i < 3; i++) {
    const PetscInt j = (i + 1) % 3, k = (i + 2) % 3;
    gx[i] = (y[j] - y[k]) / (2 * A);
    gy[i] = (x[k] - x[j]) / (2 * A);
  }
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) K[i * 3 + j] = A * (gx[i] * gx[j] + gy[i] * gy[j]) + (i == j ? lambda * A / 3 : 0.0);
}

/* Q1 stiffness (2x2 Gauss) and lumped mass of the quadrilateral (x[v], y[v]), v = 0..3 counterclockwise. */
static void QuadQ1(const PetscReal *x, const PetscReal *y, PetscReal lambda, PetscReal K[])
{
  const PetscReal g = 1.0 / PetscSqrtReal(3.0), xi[4] = {-1, 1, 1, -1}, eta[4] = {-1, -1, 1, 1};

  for (PetscInt k = 0; k < 16; k++) K[k] = 0;
  for (PetscInt q = 0; q < 4; q++) {
    const PetscReal a = xi[q] * g, b = eta[q] * g;
    PetscReal       N[4], Na[4], Nb[4], J[4] = {0, 0, 0, 0}, det, gx[4], gy[4];
    for (PetscInt v = 0; v < 4; v++) {
      N[v]  = 0.25 * (1 + xi[v] * a) * (1 + eta[v] * b);
      Na[v] = 0.25 * xi[v] * (1 + eta[v] * b);
      Nb[v] = 0.25 * eta[v] * (1 + xi[v] * a);
      J[0] += Na[v] * x[v];
      J[1] += Nb[v] * x[v];
      J[2] += Na[v] * y[v];
      J[3] += Nb[v] * y[v];
    }
    det = J[0] * J[3] - J[1] * J[2];
    for (PetscInt v = 0; v < 4; v++) { /* grad N = J^{-T} (Na, Nb) */
      gx[v] = (J[3] * Na[v] - J[2] * Nb[v]) / det;
      gy[v] = (-J[1] * Na[v] + J[0] * Nb[v]) / det;
    }
    for (PetscInt i = 0; i < 4; i++) {
      for (PetscInt j = 0; j < 4; j++) K[i * 4 + j] += det * (gx[i] * gx[j] + gy[i] * gy[j]);
      K[i * 4 + i] += lambda * det * N[i]; /* row sum of the consistent mass: lumped */
    }
  }
}

/* Lowest-order stiffness and lumped mass of a 3D sub-cell (P1 tetrahedron, P1 x Q1 wedge, Q1
 * hexahedron; nv = 4, 6, 8 vertices in the order of RefElementSubCells: tetrahedra any, wedges bottom
 * triangle then top, hexahedra bottom quadrilateral counterclockwise then top), isoparametric, with a
 * cubature exact for the affine case (1 point, 3 x 2, 2 x 2 x 2) and the row sums of the consistent
 * mass as the lumped mass. */
static void Cell3DLowOrder(PetscInt nv, const PetscReal *x, const PetscReal *y, const PetscReal *z, PetscReal lambda, PetscReal K[])
{
  const PetscReal g = 0.5 / PetscSqrtReal(3.0), gp[2] = {0.5 - g, 0.5 + g};
  PetscReal       qp[8][4]; /* r, s, t, weight on the unit reference cell */
  PetscInt        nq = 0;

  if (nv == 4) {
    qp[0][0] = qp[0][1] = qp[0][2] = 0.25;
    qp[0][3]                       = 1.0 / 6.0;
    nq                             = 1;
  } else if (nv == 6) {
    const PetscReal tr[3][2] = {{1.0 / 6, 1.0 / 6}, {2.0 / 3, 1.0 / 6}, {1.0 / 6, 2.0 / 3}};
    for (PetscInt a = 0; a < 3; a++)
      for (PetscInt b = 0; b < 2; b++, nq++) {
        qp[nq][0] = tr[a][0];
        qp[nq][1] = tr[a][1];
        qp[nq][2] = gp[b];
        qp[nq][3] = 1.0 / 12.0;
      }
  } else {
    for (PetscInt c = 0; c < 2; c++)
      for (PetscInt b = 0; b < 2; b++)
        for (PetscInt a = 0; a < 2; a++, nq++) {
          qp[nq][0] = gp[a];
          qp[nq][1] = gp[b];
          qp[nq][2] = gp[c];
          qp[nq][3] = 0.125;
        }
  }
  for (PetscInt k = 0; k < nv * nv; k++) K[k] = 0;
  for (PetscInt q = 0; q < nq; q++) {
    const PetscReal r = qp[q][0], s = qp[q][1], t = qp[q][2];
    PetscReal       N[8], dN[8][3], J[3][3]       = {{0}}, Ji[3][3], det, gr[8][3];
    if (nv == 4) {
      const PetscReal l[4] = {1 - r - s - t, r, s, t}, dl[4][3] = {{-1, -1, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      for (PetscInt v = 0; v < 4; v++) {
        N[v] = l[v];
        for (PetscInt d = 0; d < 3; d++) dN[v][d] = dl[v][d];
      }
    } else if (nv == 6) {
      const PetscReal l[3] = {1 - r - s, r, s}, dl[3][2] = {{-1, -1}, {1, 0}, {0, 1}};
      for (PetscInt v = 0; v < 6; v++) {
        const PetscReal h = v < 3 ? 1 - t : t, dh = v < 3 ? -1 : 1;
        N[v]     = l[v % 3] * h;
        dN[v][0] = dl[v % 3][0] * h;
        dN[v][1] = dl[v % 3][1] * h;
        dN[v][2] = l[v % 3] * dh;
      }
    } else {
      const PetscInt corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
      for (PetscInt v = 0; v < 8; v++) {
        const PetscReal a = corner[v][0] ? r : 1 - r, b = corner[v][1] ? s : 1 - s, c = corner[v][2] ? t : 1 - t;
        const PetscReal da = corner[v][0] ? 1 : -1, db = corner[v][1] ? 1 : -1, dc = corner[v][2] ? 1 : -1;
        N[v]     = a * b * c;
        dN[v][0] = da * b * c;
        dN[v][1] = a * db * c;
        dN[v][2] = a * b * dc;
      }
    }
    for (PetscInt v = 0; v < nv; v++)
      for (PetscInt d = 0; d < 3; d++) {
        J[0][d] += x[v] * dN[v][d];
        J[1][d] += y[v] * dN[v][d];
        J[2][d] += z[v] * dN[v][d];
      }
    det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) + J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) { /* inverse by cofactors: Ji[i][j] = cof(J)[j][i] / det */
        const PetscInt i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
        Ji[i][j] = (J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1]) / det;
      }
    for (PetscInt v = 0; v < nv; v++) /* grad N = J^{-T} dN */
      for (PetscInt d = 0; d < 3; d++) gr[v][d] = Ji[0][d] * dN[v][0] + Ji[1][d] * dN[v][1] + Ji[2][d] * dN[v][2];
    det = PetscAbsReal(det) * qp[q][3];
    for (PetscInt i = 0; i < nv; i++) {
      for (PetscInt j = 0; j < nv; j++) K[i * nv + j] += det * (gr[i][0] * gr[j][0] + gr[i][1] * gr[j][1] + gr[i][2] * gr[j][2]);
      K[i * nv + i] += lambda * det * N[i];
    }
  }
}

void LORSubCellCoordinates(PetscInt dim, PetscInt nv, const PetscReal X[], const PetscInt v[], PetscReal x[], PetscReal y[], PetscReal z[])
{
  for (PetscInt k = 0; k < nv; k++) {
    x[k] = X[dim * v[k]];
    y[k] = X[dim * v[k] + 1];
    z[k] = dim == 3 ? X[dim * v[k] + 2] : 0.0;
  }
}

void LORSubCellMatrix(PetscInt dim, PetscInt nv, const PetscReal *x, const PetscReal *y, const PetscReal *z, PetscReal lambda, PetscReal K[])
{
  if (dim == 3)
    Cell3DLowOrder(nv, x, y, z, lambda, K);
  else if (nv == 3)
    TriangleP1(x, y, lambda, K);
  else
    QuadQ1(x, y, lambda, K);
}

/* The faces of a 3D sub-cell of nv vertices (Cell3DLowOrder's vertex orders): counts and vertices. */
static PetscInt Cell3DFaces(PetscInt nv, PetscInt fv[6][4], PetscInt fnv[6])
{
  static const PetscInt tet[4][3]   = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  static const PetscInt wedge[5][4] = {{0, 1, 2, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}};
  static const PetscInt hex[6][4]   = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  const PetscInt        nf          = nv == 4 ? 4 : nv == 6 ? 5
                                                            : 6;

  for (PetscInt f = 0; f < nf; f++) {
    fnv[f] = nv == 4 ? 3 : nv == 6 ? (f < 2 ? 3 : 4)
                                   : 4;
    for (PetscInt k = 0; k < fnv[f]; k++) fv[f][k] = nv == 4 ? tet[f][k] : nv == 6 ? wedge[f][k]
                                                                                   : hex[f][k];
  }
  return nf;
}

/* Quadrature weights of the face nodes of every face of the reference element on one element: each
 * sub-cell facet lying in face f (all its vertices face-f nodes) gives each of its vertices its
 * measure / (number of vertices): the trapezoidal rule on the sub-facets (2D: the sub-segments). */
static PetscErrorCode LORFaceWeights(const RefElement *ref, PetscInt nsub, const PetscInt *sub, const PetscReal *X, PetscInt *mark, PetscReal *w)
{
  const PetscInt dim = ref->dim, nv = ref->Nverts;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < ref->Nfn; i++) w[i] = 0;
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    for (PetscInt i = 0; i < ref->Np; i++) mark[i] = -1;
    for (PetscInt a = 0; a < ref->Nfp[f]; a++) mark[ref->face_nodes[ref->face_offset[f] + a]] = a;
    for (PetscInt c = 0; c < nsub; c++) {
      const PetscInt *v = sub + c * nv;
      PetscInt        fv[6][4], fnv[6], nf;
      if (dim == 2) { /* segments (v_k, v_k+1) */
        nf = nv;
        for (PetscInt k = 0; k < nv; k++) {
          fnv[k]   = 2;
          fv[k][0] = k;
          fv[k][1] = (k + 1) % nv;
        }
      } else
        nf = Cell3DFaces(nv, fv, fnv);
      for (PetscInt g = 0; g < nf; g++) {
        PetscBool on = PETSC_TRUE;
        PetscReal meas;
        for (PetscInt k = 0; k < fnv[g]; k++)
          if (mark[v[fv[g][k]]] < 0) on = PETSC_FALSE;
        if (!on) continue;
        if (dim == 2) {
          const PetscReal *p = X + 2 * v[fv[g][0]], *q = X + 2 * v[fv[g][1]];
          meas = PetscSqrtReal(PetscSqr(q[0] - p[0]) + PetscSqr(q[1] - p[1]));
        } else { /* triangle (p0, p1, p2): |e1 x e2| / 2; planar quadrilateral: |d1 x d2| / 2 */
          const PetscReal *p0 = X + 3 * v[fv[g][0]], *p1 = X + 3 * v[fv[g][1]], *p2 = X + 3 * v[fv[g][2]], *p3 = fnv[g] == 4 ? X + 3 * v[fv[g][3]] : NULL;
          PetscReal        a[3], b[3];
          for (PetscInt d = 0; d < 3; d++) {
            a[d] = p3 ? p2[d] - p0[d] : p1[d] - p0[d];
            b[d] = p3 ? p3[d] - p1[d] : p2[d] - p0[d];
          }
          meas = 0.5 * PetscSqrtReal(PetscSqr(a[1] * b[2] - a[2] * b[1]) + PetscSqr(a[2] * b[0] - a[0] * b[2]) + PetscSqr(a[0] * b[1] - a[1] * b[0]));
        }
        for (PetscInt k = 0; k < fnv[g]; k++) w[ref->face_offset[f] + mark[v[fv[g][k]]]] += meas / fnv[g];
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode LOROperatorAssemble(Mat A, Mat *assembled)
{
  DGDisc          *disc;
  const Mesh      *mesh;
  RefElement      *ref;
  PetscReal        lambda, *vals, Ke[64], pscale = 0.25, *fw;
  PetscInt         Nf, nv, nsub, *sub, *coo_i, *coo_j, *mark, n, dim;
  PetscCount       ncoo = 0, cap;
  PetscSection     gsec;
  MatNullSpace     nullsp;
  const PetscReal *xn;
  const PetscInt  *face_type;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetDisc(A, &disc));
  PetscCall(IPDGOperatorGetLambda(A, &lambda));
  PetscCall(IPDGOperatorGetFaceTypes(A, &face_type));
  mesh = disc->mesh;
  dim  = disc->dim;
  PetscCall(DGDiscGetUniformRef(disc, "the low-order-refined operator", &ref));
  PetscCheck(dim == 2 || dim == 3, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "The low-order-refined operator (-pmat lor) needs a 2D or 3D mesh, not %" PetscInt_FMT "D", dim);
  Nf = ref->Nfaces;
  nv = ref->Nverts;
  n  = disc->nodes;
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), NULL, "Low-order-refined operator", NULL);
  PetscCall(PetscOptionsReal("-lor_penalty_scale", "Multiplier of the face penalty of the LOR operator", NULL, pscale, &pscale, NULL));
  PetscOptionsEnd();
  PetscCheck(pscale > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-lor_penalty_scale %g must be positive", (double)pscale);
  PetscCall(PetscLogEventBegin(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscCall(RefElementSubCells(ref, &nsub, &sub));
  PetscCall(DGDiscGetNodeCoordinates(disc, &xn));
  PetscCall(DMGetGlobalSection(disc->dm, &gsec));
  cap = (PetscCount)mesh->K * (nsub * nv * nv + 2 * ref->Nfn);
  PetscCall(PetscMalloc3(cap, &coo_i, cap, &coo_j, cap, &vals));
  PetscCall(PetscMalloc2(ref->Np, &mark, ref->Nfn, &fw));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt   cell = mesh->elem_cell[e];
    const PetscReal *X    = xn + dim * disc->elem_node[e];
    PetscInt         row0;

    PetscCall(PetscSectionGetOffset(gsec, cell, &row0));
    for (PetscInt c = 0; c < nsub; c++) {
      const PetscInt *v = sub + c * nv;
      PetscReal       xs[8], ys[8], zs[8];
      LORSubCellCoordinates(dim, nv, X, v, xs, ys, zs);
      LORSubCellMatrix(dim, nv, xs, ys, zs, lambda, Ke);
      for (PetscInt i = 0; i < nv; i++)
        for (PetscInt j = 0; j < nv; j++, ncoo++) {
          coo_i[ncoo] = row0 + v[i];
          coo_j[ncoo] = row0 + v[j];
          vals[ncoo]  = Ke[i * nv + j];
        }
    }
    PetscCall(LORFaceWeights(ref, nsub, sub, X, mark, fw));
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt  slot = mesh->face_slot[e] + f, type = face_type[slot], nb = mesh->face_elem[slot];
      const PetscReal tau  = pscale * disc->sgeo[slot * HOFLOW_SGEO_SIZE(dim) + HOFLOW_SGEO_TAU(dim)];
      const PetscInt *fn   = ref->face_nodes + ref->face_offset[f];
      PetscInt        col0 = 0;

      if (type == HOFLOW_FACE_NEUMANN) continue;
      if (type == HOFLOW_FACE_INTERIOR) {
        PetscCall(PetscSectionGetOffset(gsec, mesh->elem_cell[nb], &col0));
        if (col0 < 0) col0 = -(col0 + 1); /* halo cell: owned elsewhere */
      }
      for (PetscInt a = 0; a < ref->Nfp[f]; a++) {
        const PetscReal w = fw[ref->face_offset[f] + a];
        coo_i[ncoo]       = row0 + fn[a];
        coo_j[ncoo]       = row0 + fn[a];
        vals[ncoo]        = (type == HOFLOW_FACE_DIRICHLET ? 2.0 : 1.0) * tau * w;
        ncoo++;
        if (type == HOFLOW_FACE_INTERIOR) {
          coo_i[ncoo] = row0 + fn[a];
          coo_j[ncoo] = col0 + disc->vmapP[disc->elem_fnode[e] + ref->face_offset[f] + a] - disc->elem_node[nb];
          vals[ncoo]  = -tau * w;
          ncoo++;
        }
      }
    }
  }
  PetscCall(HoflowMatCreateFromTriplets(disc->dm, "lor_assembled_", n, ncoo, coo_i, coo_j, vals, assembled));
  PetscCall(PetscObjectSetName((PetscObject)*assembled, "LOR"));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) PetscCall(MatSetNullSpace(*assembled, nullsp));
  PetscCall(PetscFree3(coo_i, coo_j, vals));
  PetscCall(PetscFree2(mark, fw));
  PetscCall(PetscFree(sub));
  PetscCall(PetscLogEventEnd(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
