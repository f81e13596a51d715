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
 * the degree-N stiffness at high order (a Delaunay triangulation of the nodes does no better). */
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

PetscErrorCode LOROperatorAssemble(Mat A, Mat *assembled)
{
  DGDisc         *disc;
  const Mesh     *mesh;
  RefElement     *ref;
  PetscReal       lambda, *vals, Ke[16], pscale = 0.25;
  PetscInt        Nfp, Nf, nv, nsub, *sub, *coo_i, *coo_j, n;
  PetscCount      ncoo = 0, cap;
  PetscSection    gsec;
  MatNullSpace    nullsp;
  const PetscInt *face_type;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetDisc(A, &disc));
  PetscCall(IPDGOperatorGetLambda(A, &lambda));
  PetscCall(IPDGOperatorGetFaceTypes(A, &face_type));
  mesh = disc->mesh;
  PetscCall(DGDiscGetUniformRef(disc, "the low-order-refined operator", &ref));
  PetscCheck(disc->dim == 2, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "The low-order-refined operator (-pmat lor) is implemented in 2D only");
  Nfp = ref->Nfp[0];
  Nf  = ref->Nfaces;
  nv  = ref->Nverts;
  n   = disc->nodes;
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), NULL, "Low-order-refined operator", NULL);
  PetscCall(PetscOptionsReal("-lor_penalty_scale", "Multiplier of the face penalty of the LOR operator", NULL, pscale, &pscale, NULL));
  PetscOptionsEnd();
  PetscCheck(pscale > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-lor_penalty_scale %g must be positive", (double)pscale);
  PetscCall(PetscLogEventBegin(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscCall(RefElementSubCells(ref, &nsub, &sub));
  PetscCall(DMGetGlobalSection(disc->dm, &gsec));
  cap = (PetscCount)mesh->K * (nsub * nv * nv + 2 * Nf * Nfp);
  PetscCall(PetscMalloc3(cap, &coo_i, cap, &coo_j, cap, &vals));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt   cell = mesh->elem_cell[e];
    const PetscReal *xy   = disc->x + 2 * disc->elem_node[e];
    PetscInt         row0;

    PetscCall(PetscSectionGetOffset(gsec, cell, &row0));
    for (PetscInt c = 0; c < nsub; c++) {
      const PetscInt *v = sub + c * nv;
      PetscReal       xs[4], ys[4];
      for (PetscInt k = 0; k < nv; k++) {
        xs[k] = xy[2 * v[k]];
        ys[k] = xy[2 * v[k] + 1];
      }
      if (nv == 3)
        TriangleP1(xs, ys, lambda, Ke);
      else
        QuadQ1(xs, ys, lambda, Ke);
      for (PetscInt i = 0; i < nv; i++)
        for (PetscInt j = 0; j < nv; j++, ncoo++) {
          coo_i[ncoo] = row0 + v[i];
          coo_j[ncoo] = row0 + v[j];
          vals[ncoo]  = Ke[i * nv + j];
        }
    }
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt  slot = mesh->face_slot[e] + f, type = face_type[slot], nb = mesh->face_elem[slot];
      const PetscReal tau  = pscale * disc->sgeo[slot * HOFLOW_SGEO_SIZE(2) + HOFLOW_SGEO_TAU(2)];
      const PetscInt *fn   = ref->face_nodes + f * Nfp;
      PetscInt        col0 = 0;

      if (type == HOFLOW_FACE_NEUMANN) continue;
      if (type == HOFLOW_FACE_INTERIOR) {
        PetscCall(PetscSectionGetOffset(gsec, mesh->elem_cell[nb], &col0));
        if (col0 < 0) col0 = -(col0 + 1); /* halo cell: owned elsewhere */
      }
      for (PetscInt a = 0; a < Nfp; a++) {
        PetscReal w = 0; /* trapezoidal weight of face node a */
        if (a > 0) w += 0.5 * PetscSqrtReal(PetscSqr(xy[2 * fn[a]] - xy[2 * fn[a - 1]]) + PetscSqr(xy[2 * fn[a] + 1] - xy[2 * fn[a - 1] + 1]));
        if (a < Nfp - 1) w += 0.5 * PetscSqrtReal(PetscSqr(xy[2 * fn[a + 1]] - xy[2 * fn[a]]) + PetscSqr(xy[2 * fn[a + 1] + 1] - xy[2 * fn[a] + 1]));
        coo_i[ncoo] = row0 + fn[a];
        coo_j[ncoo] = row0 + fn[a];
        vals[ncoo]  = (type == HOFLOW_FACE_DIRICHLET ? 2.0 : 1.0) * tau * w;
        ncoo++;
        if (type == HOFLOW_FACE_INTERIOR) {
          coo_i[ncoo] = row0 + fn[a];
          coo_j[ncoo] = col0 + disc->vmapP[disc->elem_fnode[e] + f * Nfp + a] - disc->elem_node[nb];
          vals[ncoo]  = -tau * w;
          ncoo++;
        }
      }
    }
  }
  PetscCall(HoflowMatCreateCOO(disc->dm, "lor_assembled_", n, ncoo, coo_i, coo_j, vals, assembled));
  PetscCall(PetscObjectSetName((PetscObject)*assembled, "LOR"));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) PetscCall(MatSetNullSpace(*assembled, nullsp));
  PetscCall(PetscFree3(coo_i, coo_j, vals));
  PetscCall(PetscFree(sub));
  PetscCall(PetscLogEventEnd(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
