/* The pressure space of the Q_N / Q_{N-2} spectral-element pair (hoflow/sem.h, SEMPressure): discontinuous
 * Q_{N-2} whose (N-1)^dim nodes are the tensor Gauss-Legendre points of each element, so that the
 * divergence (q, div u) taken with the Gauss rule of those points is collocation: (B u)_q =
 * w_q J_q (div u)(x_q) (the P_N - P_{N-2} method of Maday and Patera). The points carry the element's
 * geometry (affine map or the mesh's curved map), computed once here. */
#include <hoflow/compat.h>
#include <hoflow/sem.h>

/* The (N-1)^dim values of every element as dofs of its cell. */
static PetscErrorCode SEMPressureCreateSection(SEMPressure *p)
{
  SEMDisc     *u = p->velocity;
  PetscSection section;
  PetscInt     pStart, pEnd, cStart, cEnd;

  PetscFunctionBeginUser;
  PetscCall(DMClone(u->mesh->dm, &p->dm));
  PetscCall(PetscSectionCreate(PetscObjectComm((PetscObject)p->dm), &section));
  PetscCall(DMPlexGetChart(p->dm, &pStart, &pEnd));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  PetscCall(DMPlexGetHeightStratum(p->dm, 0, &cStart, &cEnd));
  for (PetscInt c = cStart; c < cEnd; c++) PetscCall(PetscSectionSetDof(section, c, p->Npp));
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(p->dm, section));
  PetscCall(PetscMalloc1(u->K, &p->offset));
  for (PetscInt e = 0; e < u->K; e++) PetscCall(PetscSectionGetOffset(section, u->mesh->elem_cell[e], &p->offset[e]));
  PetscCall(PetscSectionDestroy(&section));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureCreate(SEMDisc *u, SEMPressure **pout)
{
  const Mesh       *mesh = u->mesh;
  const PetscInt    dim = u->dim, N1 = u->N1;
  SEMPressure      *p;
  PetscReal        *xi, *jac;
  MeshGeometryTable tab;

  PetscFunctionBeginUser;
  PetscCheck(u->N >= 2, PetscObjectComm((PetscObject)u->dm), PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT ": the Q_N / Q_{N-2} velocity-pressure pair needs N >= 2", u->N);
  PetscCheck(u->ncomp == dim, PetscObjectComm((PetscObject)u->dm), PETSC_ERR_ARG_WRONG, "The pressure space of -disc sem needs a velocity of %" PetscInt_FMT " components, not %" PetscInt_FMT, dim, u->ncomp);
  PetscCall(PetscNew(&p));
  p->velocity = u;
  p->Ng       = u->N - 1;
  p->Npp      = 1;
  for (PetscInt d = 0; d < dim; d++) p->Npp *= p->Ng;
  PetscCall(SEMPressureCreateSection(p));
  /* 1D: Gauss points, the GLL Lagrange basis and its derivative there (by the GLL derivative matrix:
   * l_k' is the interpolant of its nodal values D1[:, k], exact for polynomials of degree N) */
  PetscCall(PetscMalloc2(p->Ng, &p->xg, p->Ng, &p->wg));
  PetscCall(PetscMalloc4(p->Ng * N1, &p->Bgl, p->Ng * N1, &p->Dgl, p->Ng * N1, &p->BglT, p->Ng * N1, &p->DglT));
  PetscCall(JacobiGaussQuadrature(0, 0, p->Ng, p->xg, p->wg));
  for (PetscInt i = 0; i < p->Ng; i++)
    for (PetscInt k = 0; k < N1; k++) {
      PetscReal l = 1;
      for (PetscInt m = 0; m < N1; m++)
        if (m != k) l *= (p->xg[i] - u->ref->x1[m]) / (u->ref->x1[k] - u->ref->x1[m]);
      p->Bgl[i * N1 + k] = l;
    }
  DenseMatMult(p->Ng, N1, N1, p->Bgl, u->ref->D1, p->Dgl); /* (B D1)[i, k] = sum_m l_m(x_i) l_k'(x_m) = l_k'(x_i) */
  DenseTranspose(p->Ng, N1, p->Bgl, p->BglT);
  DenseTranspose(p->Ng, N1, p->Dgl, p->DglT);
  /* geometry at the tensor Gauss points */
  PetscCall(PetscMalloc3(u->K * p->Npp, &p->wJ, u->K * p->Npp * dim * dim, &p->g, u->K * p->Npp * dim, &p->x));
  PetscCall(PetscMalloc2(p->Npp * dim, &xi, p->Npp * dim * dim, &jac));
  for (PetscInt q = 0; q < p->Npp; q++) {
    const PetscInt ix[3] = {q % p->Ng, (q / p->Ng) % p->Ng, q / (p->Ng * p->Ng)};
    for (PetscInt d = 0; d < dim; d++) xi[q * dim + d] = p->xg[ix[d]];
  }
  if (u->has_curved) PetscCall(MeshGeometryTableCreate(mesh, u->shape, p->Npp, xi, &tab));
  for (PetscInt e = 0; e < u->K; e++) {
    const PetscReal *vert = mesh->vertices + e * HOFLOW_VERTS_MAX * dim;
    PetscReal       *x    = p->x + e * p->Npp * dim;
    if (MeshElementIsCurved(mesh, e))
      MeshCurvedElementMap(mesh, &tab, e, x, jac);
    else {
      PetscReal j0[9];
      (void)GeomAffineJacobian(u->shape, (int)dim, vert, j0);
      for (PetscInt q = 0; q < p->Npp; q++) {
        GeomAffineMap(u->shape, (int)dim, vert, xi + q * dim, x + q * dim);
        for (PetscInt k = 0; k < dim * dim; k++) jac[q * dim * dim + k] = j0[k];
      }
    }
    for (PetscInt q = 0; q < p->Npp; q++) {
      const PetscInt ix[3] = {q % p->Ng, (q / p->Ng) % p->Ng, q / (p->Ng * p->Ng)};
      PetscReal      g[HOFLOW_GEO_SIZE(3)], w = 1, J;
      for (PetscInt d = 0; d < dim; d++) w *= p->wg[ix[d]];
      J = GeomMetricFromJacobian((int)dim, jac + q * dim * dim, g);
      PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " is tangled or inverted at a Gauss point of the -disc sem pressure (Jacobian %g)", mesh->source, mesh->elem_cell[e], (double)J);
      p->wJ[e * p->Npp + q] = w * J;
      for (PetscInt k = 0; k < dim * dim; k++) p->g[(e * p->Npp + q) * dim * dim + k] = g[k];
    }
  }
  if (u->has_curved) PetscCall(MeshGeometryTableDestroy(&tab));
  PetscCall(PetscFree2(xi, jac));
  *pout = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureDestroy(SEMPressure **p)
{
  PetscFunctionBeginUser;
  if (!*p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDestroy(&(*p)->dm));
  PetscCall(PetscFree((*p)->offset));
  PetscCall(PetscFree2((*p)->xg, (*p)->wg));
  PetscCall(PetscFree4((*p)->Bgl, (*p)->Dgl, (*p)->BglT, (*p)->DglT));
  PetscCall(PetscFree3((*p)->wJ, (*p)->g, (*p)->x));
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
