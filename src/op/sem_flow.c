/* Operators of incompressible flow on continuous spectral elements (hoflow/sem_flow.h): the geometry
 * the flow kernels need (dr/dx at the GLL nodes; for the over-integrated convection dr/dx and w J at
 * the Gauss points of the isoparametric map), local work vectors, and the global-vector wrappers of
 * the kernels of src/kernels/sem_flow.c. */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/sem_flow.h>

/* dr/dx at the GLL nodes of every element: g[(e*Np + q)*dim*dim + j*dim + a] = dr_a/dx_j. */
static PetscErrorCode SEMFlowNodeGeometry(SEMFlow *flow)
{
  SEMDisc       *u   = flow->u;
  const PetscInt dim = u->dim, Np = u->Np, dd = dim * dim;
  PetscReal     *jac;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((size_t)u->K * Np * dd, &flow->g));
  PetscCall(PetscMalloc1(Np * dd, &jac));
  for (PetscInt e = 0; e < u->K; e++) {
    PetscCall(SEMDiscElementGeometry(u, e, NULL, jac));
    for (PetscInt q = 0; q < Np; q++) {
      PetscReal geo[HOFLOW_GEO_SIZE(3)];
      (void)GeomMetricFromJacobian((int)dim, jac + q * dd, geo);
      for (PetscInt k = 0; k < dd; k++) flow->g[(e * Np + q) * dd + k] = geo[k];
    }
  }
  PetscCall(PetscFree(jac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 3/2 rule: Nq = 3N/2 + 1 Gauss points a direction (2 Nq - 1 >= 3N: u.grad u.v of degree 3N in each
 * direction on affine elements), the GLL basis and its derivative there (the order-N segment's), and the
 * geometry of the isoparametric map (x interpolated from the GLL nodes) at the points. */
static PetscErrorCode SEMFlowGaussGeometry(SEMFlow *flow)
{
  SEMDisc       *u   = flow->u;
  const PetscInt dim = u->dim, Np = u->Np, N1 = u->N1, Nq = 3 * u->N / 2 + 1, dd = dim * dim;
  PetscInt       Nqp = 1, M;
  PetscReal     *xg, *wg, *xe, *dx, *work;
  RefElement    *seg;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) Nqp *= Nq;
  M = PetscMax(Nq, N1);
  PetscCall(PetscMalloc2(Nq, &xg, Nq, &wg));
  PetscCall(PetscMalloc3(Nq * N1, &flow->B, Nq * N1, &flow->DB, Nq * N1, &flow->BT));
  PetscCall(JacobiGaussQuadrature(0, 0, Nq, xg, wg));
  PetscCall(RefElementCreate(REF_SEGMENT, u->N, &seg));
  PetscCall(RefElementInterpolationMatrix(seg, Nq, xg, flow->B));
  {
    PetscReal *dB[1] = {flow->DB};
    PetscCall(RefElementDerivativeMatrices(seg, Nq, xg, dB));
  }
  PetscCall(RefElementDestroy(&seg));
  DenseTranspose(Nq, N1, flow->B, flow->BT);
  PetscCall(PetscMalloc2((size_t)u->K * Nqp * dd, &flow->gq, (size_t)u->K * Nqp, &flow->wJq));
  PetscCall(PetscMalloc3(Np, &xe, dd * Nqp, &dx, 2 * (dim == 2 ? M * M : M * M * M), &work));
  for (PetscInt e = 0; e < u->K; e++) {
    for (PetscInt i = 0; i < dim; i++) { /* dx_i/dr_a at the Gauss points: dx[(i*dim + a)*Nqp + q] */
      for (PetscInt k = 0; k < Np; k++) xe[k] = u->x[(e * Np + k) * dim + i];
      for (PetscInt a = 0; a < dim; a++) {
        const double *A[3] = {flow->B, flow->B, flow->B};
        A[a]               = flow->DB;
        SEMTensorApply((int)dim, (int)N1, (int)Nq, A, xe, dx + (i * dim + a) * Nqp, work);
      }
    }
    for (PetscInt q = 0; q < Nqp; q++) {
      const PetscInt ix[3] = {q % Nq, (q / Nq) % Nq, q / (Nq * Nq)};
      PetscReal      jac[9], geo[HOFLOW_GEO_SIZE(3)], J, w = 1;
      for (PetscInt k = 0; k < dd; k++) jac[k] = dx[k * Nqp + q];
      for (PetscInt d = 0; d < dim; d++) w *= wg[ix[d]];
      J = GeomMetricFromJacobian((int)dim, jac, geo);
      PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-sem_ns_dealias: cell %" PetscInt_FMT " of mesh %s has the Jacobian %g at a Gauss point of the over-integration", u->mesh->elem_cell[e], u->mesh->source, (double)J);
      for (PetscInt k = 0; k < dd; k++) flow->gq[(e * Nqp + q) * dd + k] = geo[k];
      flow->wJq[e * Nqp + q] = w * J;
    }
  }
  PetscCall(PetscFree3(xe, dx, work));
  PetscCall(PetscFree2(xg, wg));
  flow->kd.Nq  = (int)Nq;
  flow->kd.B   = flow->B;
  flow->kd.DB  = flow->DB;
  flow->kd.BT  = flow->BT;
  flow->kd.gq  = flow->gq;
  flow->kd.wJq = flow->wJq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowCreate(SEMDisc *u, SEMDisc *p, PetscBool dealias, SEMFlow **flow_out)
{
  SEMFlow *flow;

  PetscFunctionBeginUser;
  PetscCheck(u->ncomp == u->dim && p->ncomp == 1 && p->N == u->N && p->K == u->K && p->mesh == u->mesh, PetscObjectComm((PetscObject)u->dm), PETSC_ERR_ARG_WRONG, "-disc sem flow operators need a velocity of %" PetscInt_FMT " components and a scalar pressure of the same order on the same mesh", u->dim);
  PetscCall(PetscNew(&flow));
  flow->u = u;
  flow->p = p;
  PetscCall(SEMFlowNodeGeometry(flow));
  flow->kd = (SEMFlowKernelData){(int)u->dim, (int)u->N1, (int)u->Np, (int)u->K, u->gather, p->gather, u->ref->D1, u->D1T, flow->g, u->wJ, 0, NULL, NULL, NULL, NULL, NULL};
  if (dealias) PetscCall(SEMFlowGaussGeometry(flow));
  for (PetscInt k = 0; k < 3; k++) PetscCall(DMCreateLocalVector(u->dm, &flow->ul[k]));
  PetscCall(DMCreateLocalVector(p->dm, &flow->pl));
  *flow_out = flow;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowDestroy(SEMFlow **flow)
{
  PetscFunctionBeginUser;
  if (!*flow) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*flow)->g));
  if ((*flow)->B) {
    PetscCall(PetscFree3((*flow)->B, (*flow)->DB, (*flow)->BT));
    PetscCall(PetscFree2((*flow)->gq, (*flow)->wJq));
  }
  for (PetscInt k = 0; k < 3; k++) PetscCall(VecDestroy(&(*flow)->ul[k]));
  PetscCall(VecDestroy(&(*flow)->pl));
  PetscCall(PetscFree(*flow));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowConvection(SEMFlow *flow, Vec u, Vec Nu)
{
  SEMDisc           *us = flow->u;
  const PetscScalar *ua;
  PetscScalar       *ca;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_SEMConvection, 0, 0, 0, 0));
  PetscCall(DMGlobalToLocal(us->dm, u, INSERT_VALUES, flow->ul[0]));
  PetscCall(VecZeroEntries(flow->ul[1]));
  PetscCall(VecGetArrayRead(flow->ul[0], &ua));
  PetscCall(VecGetArray(flow->ul[1], &ca));
  SEMFlowConvectionHost(&flow->kd, ua, ca);
  PetscCall(VecRestoreArray(flow->ul[1], &ca));
  PetscCall(VecRestoreArrayRead(flow->ul[0], &ua));
  PetscCall(VecZeroEntries(Nu));
  PetscCall(DMLocalToGlobal(us->dm, flow->ul[1], ADD_VALUES, Nu));
  PetscCall(VecPointwiseDivide(Nu, Nu, us->mass));
  PetscCall(VecScale(Nu, -1.0));
  PetscCall(PetscLogEventEnd(HOFLOW_SEMConvection, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowPressureRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec ustar, Vec b)
{
  SEMDisc           *us = flow->u;
  const PetscScalar *fa, *sa;
  PetscScalar       *ba;

  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocal(us->dm, F, INSERT_VALUES, flow->ul[0]));
  PetscCall(DMGlobalToLocal(us->dm, ustar, INSERT_VALUES, flow->ul[1]));
  PetscCall(VecZeroEntries(flow->pl));
  PetscCall(VecGetArrayRead(flow->ul[0], &fa));
  PetscCall(VecGetArrayRead(flow->ul[1], &sa));
  PetscCall(VecGetArray(flow->pl, &ba));
  SEMFlowPressureRHSHost(&flow->kd, nu, fa, sa, ba);
  PetscCall(VecRestoreArray(flow->pl, &ba));
  PetscCall(VecRestoreArrayRead(flow->ul[1], &sa));
  PetscCall(VecRestoreArrayRead(flow->ul[0], &fa));
  PetscCall(VecZeroEntries(b));
  PetscCall(DMLocalToGlobal(flow->p->dm, flow->pl, ADD_VALUES, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowVelocityRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec p, Vec b)
{
  SEMDisc           *us = flow->u;
  const PetscScalar *fa, *pa;
  PetscScalar       *ba;

  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocal(us->dm, F, INSERT_VALUES, flow->ul[0]));
  PetscCall(DMGlobalToLocal(flow->p->dm, p, INSERT_VALUES, flow->pl));
  PetscCall(VecZeroEntries(flow->ul[1]));
  PetscCall(VecGetArrayRead(flow->ul[0], &fa));
  PetscCall(VecGetArrayRead(flow->pl, &pa));
  PetscCall(VecGetArray(flow->ul[1], &ba));
  SEMFlowVelocityRHSHost(&flow->kd, nu, fa, pa, ba);
  PetscCall(VecRestoreArray(flow->ul[1], &ba));
  PetscCall(VecRestoreArrayRead(flow->pl, &pa));
  PetscCall(VecRestoreArrayRead(flow->ul[0], &fa));
  PetscCall(VecZeroEntries(b));
  PetscCall(DMLocalToGlobal(us->dm, flow->ul[1], ADD_VALUES, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowDivergence(SEMFlow *flow, Vec u, Vec div)
{
  const PetscScalar *ua;
  PetscScalar       *da;

  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocal(flow->u->dm, u, INSERT_VALUES, flow->ul[0]));
  PetscCall(VecZeroEntries(flow->pl));
  PetscCall(VecGetArrayRead(flow->ul[0], &ua));
  PetscCall(VecGetArray(flow->pl, &da));
  SEMFlowDivergenceHost(&flow->kd, ua, da);
  PetscCall(VecRestoreArray(flow->pl, &da));
  PetscCall(VecRestoreArrayRead(flow->ul[0], &ua));
  PetscCall(VecZeroEntries(div));
  PetscCall(DMLocalToGlobal(flow->p->dm, flow->pl, ADD_VALUES, div));
  PetscFunctionReturn(PETSC_SUCCESS);
}
