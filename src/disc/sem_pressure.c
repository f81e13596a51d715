/* The pressure spaces of the spectral-element Stokes pairs (hoflow/sem.h, SEMPressure), -stokes_pair:
 *  - taylor_hood: continuous Q_{N-1} on its own GLL nodes, a scalar -disc sem layout of order N - 1 on the
 *    same mesh (its own section on a clone of the mesh's DM), the pair of seed 001 §3 (Brezzi and Falk:
 *    stable for N >= 2). The divergence (q, div u) is integrated with N + 1 Gauss points a direction:
 *    q div u has degree 2N - 1 a direction on affine cells, 2N on bilinear and 2N + 1 on trilinear ones
 *    (the cofactors of J), so the rule is exact on all three and the constant pressure's gradient
 *    vanishes off the boundary there (the system's null vector to round-off).
 *  - qn_qn2: discontinuous Q_{N-2} whose (N-1)^dim nodes are the tensor Gauss-Legendre points of each
 *    element, so that the divergence taken with the Gauss rule of those points is collocation: (B u)_q =
 *    w_q J_q (div u)(x_q) (the P_N - P_{N-2} method of Maday and Patera).
 * The quadrature points carry the element's geometry (affine map or the mesh's curved map), computed
 * once here. */
#include <hoflow/compat.h>
#include <hoflow/sem.h>

const char *const SEMStokesPairNames[] = {"taylor_hood", "qn_qn2", "SEMStokesPair", "SEM_STOKES_", NULL};

PetscErrorCode SEMStokesPairFromOptions(MPI_Comm comm, SEMStokesPair *pair)
{
  char      name[64] = "taylor_hood";
  PetscBool found    = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, NULL, "Spectral-element Stokes pair", NULL);
  PetscCall(PetscOptionsString("-stokes_pair", "Velocity-pressure pair: taylor_hood (Q_N / continuous Q_{N-1}) or qn_qn2 (Q_N / discontinuous Q_{N-2} on Gauss points)", NULL, name, name, sizeof(name), NULL));
  PetscOptionsEnd();
  for (PetscInt k = 0; k < 2 && !found; k++)
    if (!strcmp(name, SEMStokesPairNames[k])) {
      *pair = (SEMStokesPair)k;
      found = PETSC_TRUE;
    }
  PetscCheck(found, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "-stokes_pair %s is not a velocity-pressure pair: use taylor_hood (Q_N / continuous Q_{N-1}, the default) or qn_qn2 (Q_N / discontinuous Q_{N-2})", name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* qn_qn2: the (N-1)^dim values of every element as dofs of its cell. */
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
  for (PetscInt c = cStart; c < cEnd; c++) PetscCall(PetscSectionSetDof(section, c, p->Npe));
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(p->dm, section));
  PetscCall(PetscMalloc1(u->K, &p->offset));
  for (PetscInt e = 0; e < u->K; e++) PetscCall(PetscSectionGetOffset(section, u->mesh->elem_cell[e], &p->offset[e]));
  PetscCall(PetscSectionDestroy(&section));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureCreate(SEMDisc *u, SEMStokesPair pair, SEMPressure **pout)
{
  const Mesh       *mesh = u->mesh;
  const PetscInt    dim = u->dim, N1 = u->N1;
  SEMPressure      *p;
  PetscReal        *xi, *jac;
  MeshGeometryTable tab;

  PetscFunctionBeginUser;
  PetscCheck(u->N >= 2, PetscObjectComm((PetscObject)u->dm), PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT ": the %s velocity-pressure pair needs N >= 2 (-stokes_pair %s)", u->N, pair == SEM_STOKES_TAYLOR_HOOD ? "Taylor-Hood Q_N / Q_{N-1}" : "Q_N / Q_{N-2}", SEMStokesPairNames[pair]);
  PetscCheck(u->ncomp == dim, PetscObjectComm((PetscObject)u->dm), PETSC_ERR_ARG_WRONG, "The pressure space of -disc sem needs a velocity of %" PetscInt_FMT " components, not %" PetscInt_FMT, dim, u->ncomp);
  PetscCall(PetscNew(&p));
  p->velocity = u;
  p->pair     = pair;
  p->Ng       = pair == SEM_STOKES_TAYLOR_HOOD ? u->N + 1 : u->N - 1;
  p->Np1      = pair == SEM_STOKES_TAYLOR_HOOD ? u->N : u->N - 1;
  p->Npp = p->Npe = 1;
  for (PetscInt d = 0; d < dim; d++) {
    p->Npp *= p->Ng;
    p->Npe *= p->Np1;
  }
  PetscCall(PetscMalloc3(p->Ng, &p->xg, p->Ng, &p->wg, p->Np1, &p->xp));
  PetscCall(JacobiGaussQuadrature(0, 0, p->Ng, p->xg, p->wg));
  if (pair == SEM_STOKES_TAYLOR_HOOD) {
    PetscCall(DiscCreateComponents(u->mesh, "sem", u->N - 1, 1, &p->space));
    PetscCall(DiscGetSEM(p->space, "the Taylor-Hood pressure", &p->continuous));
    p->dm = p->continuous->dm;
    PetscCall(PetscObjectReference((PetscObject)p->dm));
    for (PetscInt i = 0; i < p->Np1; i++) p->xp[i] = p->continuous->ref->x1[i];
    PetscCall(PetscMalloc2(p->Ng * p->Np1, &p->Bpq, p->Ng * p->Np1, &p->BpqT));
    LagrangeMatrix1D(p->Np1, p->xp, p->Ng, p->xg, p->Bpq, NULL);
    DenseTranspose(p->Ng, p->Np1, p->Bpq, p->BpqT);
  } else {
    for (PetscInt i = 0; i < p->Np1; i++) p->xp[i] = p->xg[i];
    PetscCall(SEMPressureCreateSection(p));
  }
  /* 1D: the velocity's GLL Lagrange basis and its derivative at the Gauss points (by the GLL derivative
   * matrix: l_k' is the interpolant of its nodal values D1[:, k], exact for polynomials of degree N) */
  PetscCall(PetscMalloc4(p->Ng * N1, &p->Bgl, p->Ng * N1, &p->Dgl, p->Ng * N1, &p->BglT, p->Ng * N1, &p->DglT));
  LagrangeMatrix1D(N1, u->ref->x1, p->Ng, p->xg, p->Bgl, NULL);
  DenseMatMult(p->Ng, N1, N1, p->Bgl, u->ref->D1, p->Dgl); /* (B D1)[i, k] = sum_m l_m(x_i) l_k'(x_m) = l_k'(x_i) */
  DenseTranspose(p->Ng, N1, p->Bgl, p->BglT);
  DenseTranspose(p->Ng, N1, p->Dgl, p->DglT);
  /* geometry at the tensor Gauss points */
  PetscCall(PetscMalloc3(u->K * p->Npp, &p->wJ, u->K * p->Npp * dim * dim, &p->g, u->K * p->Npp * dim, &p->x));
  if (u->affine) PetscCall(PetscMalloc1(u->K * (1 + dim * dim), &p->affine)); /* no element of the rank is curved (and -sem_affine_factors) */
  PetscCall(PetscMalloc2(p->Npp * dim, &xi, p->Npp * dim * dim, &jac));
  for (PetscInt q = 0; q < p->Npp; q++) {
    const PetscInt ix[3] = {q % p->Ng, (q / p->Ng) % p->Ng, q / (p->Ng * p->Ng)};
    for (PetscInt d = 0; d < dim; d++) xi[q * dim + d] = p->xg[ix[d]];
  }
  if (u->has_curved) PetscCall(MeshGeometryTableCreate(mesh, u->shape, p->Npp, xi, &tab));
  for (PetscInt e = 0; e < u->K; e++) {
    PetscCall(SEMElementMap(u, u->has_curved ? &tab : NULL, p->Npp, xi, e, p->x + e * p->Npp * dim, jac));
    for (PetscInt q = 0; q < p->Npp; q++) {
      const PetscInt ix[3] = {q % p->Ng, (q / p->Ng) % p->Ng, q / (p->Ng * p->Ng)};
      PetscReal      g[HOFLOW_GEO_SIZE(3)], w = 1, J;
      for (PetscInt d = 0; d < dim; d++) w *= p->wg[ix[d]];
      J = GeomMetricFromJacobian((int)dim, jac + q * dim * dim, g);
      PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " is tangled or inverted at a Gauss point of the -disc sem pressure (Jacobian %g)", mesh->source, mesh->elem_cell[e], (double)J);
      p->wJ[e * p->Npp + q] = w * J;
      for (PetscInt k = 0; k < dim * dim; k++) p->g[(e * p->Npp + q) * dim * dim + k] = g[k];
      if (p->affine && q == 0) { /* the same at every point of an affine element */
        p->affine[e * (1 + dim * dim)] = J;
        for (PetscInt k = 0; k < dim * dim; k++) p->affine[e * (1 + dim * dim) + 1 + k] = g[k];
      }
    }
  }
  if (u->has_curved) PetscCall(MeshGeometryTableDestroy(&tab));
  PetscCall(PetscFree2(xi, jac));
  p->kd = (SEMStokesKernelData){(int)dim, (int)N1, (int)p->Ng, (int)p->Np1, (int)u->Np, (int)p->Npp, (int)p->Npe, (int)u->K, u->gather, p->continuous ? p->continuous->gather : NULL, p->continuous ? NULL : p->offset, p->Bgl, p->Dgl, p->BglT, p->DglT, p->Bpq, p->BpqT, p->wJ, p->g, NULL, p->affine, p->wg};
  *pout = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void SEMPressureElementValues(const SEMPressure *p, const PetscScalar *local, PetscInt e, PetscReal pe[])
{
  if (p->continuous)
    for (PetscInt i = 0; i < p->Npe; i++) pe[i] = local[p->continuous->gather[e * p->Npe + i]];
  else
    for (PetscInt i = 0; i < p->Npe; i++) pe[i] = local[p->offset[e] + i];
}

PetscErrorCode SEMPressureMass(SEMPressure *p, Vec mass)
{
  PetscFunctionBeginUser;
  if (p->continuous)
    PetscCall(VecCopy(p->continuous->mass, mass));
  else {
    Vec          pl;
    PetscScalar *pa;
    PetscCall(DMGetLocalVector(p->dm, &pl));
    PetscCall(VecZeroEntries(pl));
    PetscCall(VecGetArray(pl, &pa));
    for (PetscInt e = 0; e < p->velocity->K; e++)
      for (PetscInt q = 0; q < p->Npp; q++) pa[p->offset[e] + q] = p->wJ[e * p->Npp + q];
    PetscCall(VecRestoreArray(pl, &pa));
    PetscCall(DMLocalToGlobal(p->dm, pl, INSERT_VALUES, mass));
    PetscCall(DMRestoreLocalVector(p->dm, &pl));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureDestroy(SEMPressure **p)
{
  PetscFunctionBeginUser;
  if (!*p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDestroy(&(*p)->dm));
  PetscCall(DiscDestroy(&(*p)->space));
  PetscCall(PetscFree((*p)->offset));
  PetscCall(PetscFree3((*p)->xg, (*p)->wg, (*p)->xp));
  PetscCall(PetscFree2((*p)->Bpq, (*p)->BpqT));
  PetscCall(PetscFree4((*p)->Bgl, (*p)->Dgl, (*p)->BglT, (*p)->DglT));
  PetscCall(PetscFree3((*p)->wJ, (*p)->g, (*p)->x));
  PetscCall(PetscFree((*p)->affine));
  PetscCall(PetscFree(*p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
