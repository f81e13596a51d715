/* L2 errors of the Stokes fields of -disc sem (hoflow/sem.h): a velocity of several interlaced
 * components and the pressure of either pair (hoflow/sem.h), both with the Gauss rule of
 * N + 3 points a direction (exact to degree 2N + 5), the field interpolated there by sum
 * factorization, x and J from the element's map (affine, or the mesh's curved map) at those points. */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/sem.h>

typedef struct {
  PetscInt          nq1, nq;
  PetscReal        *xg, *wg, *xi, *wq, *x, *jac;
  MeshGeometryTable tab;
  PetscBool         has_tab;
} SEMRule;

static PetscErrorCode SEMRuleCreate(SEMDisc *sem, SEMRule *r)
{
  const PetscInt dim = sem->dim;

  PetscFunctionBeginUser;
  r->nq1 = sem->N + 3;
  r->nq  = 1;
  for (PetscInt d = 0; d < dim; d++) r->nq *= r->nq1;
  PetscCall(PetscMalloc6(r->nq1, &r->xg, r->nq1, &r->wg, r->nq * dim, &r->xi, r->nq, &r->wq, r->nq * dim, &r->x, r->nq * dim * dim, &r->jac));
  PetscCall(JacobiGaussQuadrature(0, 0, r->nq1, r->xg, r->wg));
  for (PetscInt q = 0; q < r->nq; q++) {
    const PetscInt ix[3] = {q % r->nq1, (q / r->nq1) % r->nq1, q / (r->nq1 * r->nq1)};
    r->wq[q]             = 1;
    for (PetscInt d = 0; d < dim; d++) {
      r->xi[q * dim + d] = r->xg[ix[d]];
      r->wq[q] *= r->wg[ix[d]];
    }
  }
  r->has_tab = sem->has_curved;
  if (r->has_tab) PetscCall(MeshGeometryTableCreate(sem->mesh, sem->shape, r->nq, r->xi, &r->tab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMRuleDestroy(SEMRule *r)
{
  PetscFunctionBeginUser;
  if (r->has_tab) PetscCall(MeshGeometryTableDestroy(&r->tab));
  PetscCall(PetscFree6(r->xg, r->wg, r->xi, r->wq, r->x, r->jac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x at the rule's points of element e, and w J there (wJ[nq]) */
static PetscErrorCode SEMRuleElement(SEMDisc *sem, SEMRule *r, PetscInt e, PetscReal wJ[])
{
  const PetscInt dim = sem->dim;
  PetscReal      g[HOFLOW_GEO_SIZE(3)];

  PetscFunctionBeginUser;
  PetscCall(SEMElementMap(sem, r->has_tab ? &r->tab : NULL, r->nq, r->xi, e, r->x, r->jac));
  for (PetscInt q = 0; q < r->nq; q++) wJ[q] = r->wq[q] * GeomMetricFromJacobian((int)dim, r->jac + q * dim * dim, g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDiscL2ErrorVector(SEMDisc *sem, Vec u, SEMVectorFunction f, void *ctx, PetscReal *error)
{
  const PetscInt     dim = sem->dim, N1 = sem->N1, Np = sem->Np, nc = sem->ncomp;
  SEMRule            r;
  PetscReal         *B, *ue, *uq, *work, *wJ, sum = 0, v[8];
  Vec                ul = sem->work[0];
  const PetscScalar *ua;

  PetscFunctionBeginUser;
  PetscCheck(nc <= 8, PETSC_COMM_SELF, PETSC_ERR_SUP, "-disc sem L2 error of %" PetscInt_FMT " components: at most 8", nc);
  PetscCall(PetscLogEventBegin(HOFLOW_DGError, 0, 0, 0, 0));
  PetscCall(SEMRuleCreate(sem, &r));
  PetscCall(PetscMalloc5(r.nq1 * N1, &B, Np, &ue, r.nq * nc, &uq, 2 * r.nq, &work, r.nq, &wJ));
  LagrangeMatrix1D(N1, sem->ref->x1, r.nq1, r.xg, B, NULL);
  PetscCall(DMGlobalToLocal(sem->dm, u, INSERT_VALUES, ul));
  PetscCall(VecGetArrayRead(ul, &ua));
  for (PetscInt e = 0; e < sem->K; e++) {
    for (PetscInt c = 0; c < nc; c++) {
      for (PetscInt i = 0; i < Np; i++) ue[i] = ua[sem->gather[e * Np + i] + c];
      SEMTensorInterpolate((int)dim, (int)N1, (int)r.nq1, B, ue, uq + c * r.nq, work);
    }
    PetscCall(SEMRuleElement(sem, &r, e, wJ));
    for (PetscInt q = 0; q < r.nq; q++) {
      PetscCall(f(r.x + q * dim, v, ctx));
      for (PetscInt c = 0; c < nc; c++) sum += wJ[q] * PetscSqr(uq[c * r.nq + q] - v[c]);
    }
  }
  PetscCall(VecRestoreArrayRead(ul, &ua));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)sem->dm)));
  *error = PetscSqrtReal(sum);
  PetscCall(PetscFree5(B, ue, uq, work, wJ));
  PetscCall(SEMRuleDestroy(&r));
  PetscCall(PetscLogEventEnd(HOFLOW_DGError, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With shift c: sums of wJ (p_h - p - c)^2, wJ (p_h - p) and wJ over the owned elements and ranks. */
static PetscErrorCode SEMPressureSums(SEMPressure *p, Vec ph, SEMVectorFunction f, void *ctx, PetscReal c, PetscReal sums[3])
{
  SEMDisc           *sem = p->velocity;
  const PetscInt     dim = sem->dim;
  SEMRule            r;
  PetscReal         *B, *pe, *pq, *work, *wJ, v[8];
  Vec                pl;
  const PetscScalar *pa;

  PetscFunctionBeginUser;
  PetscCall(SEMRuleCreate(sem, &r));
  PetscCall(PetscMalloc5(r.nq1 * p->Np1, &B, p->Npe, &pe, r.nq, &pq, 2 * r.nq, &work, r.nq, &wJ));
  LagrangeMatrix1D(p->Np1, p->xp, r.nq1, r.xg, B, NULL);
  PetscCall(DMGetLocalVector(p->dm, &pl));
  PetscCall(DMGlobalToLocal(p->dm, ph, INSERT_VALUES, pl));
  PetscCall(VecGetArrayRead(pl, &pa));
  sums[0] = sums[1] = sums[2] = 0;
  for (PetscInt e = 0; e < sem->K; e++) {
    SEMPressureElementValues(p, pa, e, pe);
    SEMTensorInterpolate((int)dim, (int)p->Np1, (int)r.nq1, B, pe, pq, work);
    PetscCall(SEMRuleElement(sem, &r, e, wJ));
    for (PetscInt q = 0; q < r.nq; q++) {
      PetscCall(f(r.x + q * dim, v, ctx));
      sums[0] += wJ[q] * PetscSqr(pq[q] - v[0] - c);
      sums[1] += wJ[q] * (pq[q] - v[0]);
      sums[2] += wJ[q];
    }
  }
  PetscCall(VecRestoreArrayRead(pl, &pa));
  PetscCall(DMRestoreLocalVector(p->dm, &pl));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, sums, 3, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)p->dm)));
  PetscCall(PetscFree5(B, pe, pq, work, wJ));
  PetscCall(SEMRuleDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureL2Error(SEMPressure *p, Vec ph, SEMVectorFunction f, void *ctx, PetscBool mean_free, PetscReal *error)
{
  PetscReal sums[3], c = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGError, 0, 0, 0, 0));
  PetscCall(SEMPressureSums(p, ph, f, ctx, 0.0, sums));
  if (mean_free) {
    c = sums[1] / sums[2];
    PetscCall(SEMPressureSums(p, ph, f, ctx, c, sums));
  }
  *error = PetscSqrtReal(sums[0]);
  PetscCall(PetscLogEventEnd(HOFLOW_DGError, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
