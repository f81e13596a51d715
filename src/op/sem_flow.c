/* Operators of incompressible flow on continuous spectral elements (hoflow/sem_flow.h): the geometry
 * the flow kernels need (dr/dx at the GLL nodes; for the over-integrated convection dr/dx and w J at
 * the Gauss points of the isoparametric map), local work vectors, and the global-vector wrappers of
 * the kernels of src/kernels/sem_flow.c. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
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

/* The kernel data on the device, at the first call with CUDA vectors (OpShellBegin). */
static PetscErrorCode SEMFlowDeviceSetUp(void *ctx)
{
  SEMFlow                 *flow = (SEMFlow *)ctx;
  const SEMFlowKernelData *h    = &flow->kd;
  SEMFlowKernelData       *d    = &flow->kd_device;
  HoflowDeviceArrays      *dev  = &flow->shell_u.device;
  const size_t             n = (size_t)h->K * h->Np, dd = (size_t)h->dim * h->dim;
  const void              *ptr;

  PetscFunctionBeginUser;
  *d = *h;
#define SEM_FLOW_UPLOAD(field, type, count) \
  do { \
    PetscCall(HoflowDeviceArraysUpload(dev, h->field, sizeof(type) * (count), &ptr)); \
    d->field = (const type *)ptr; \
  } while (0)
  SEM_FLOW_UPLOAD(ugather, int, n);
  SEM_FLOW_UPLOAD(pgather, int, n);
  SEM_FLOW_UPLOAD(D1, double, (size_t)h->N1 * h->N1);
  SEM_FLOW_UPLOAD(D1T, double, (size_t)h->N1 * h->N1);
  SEM_FLOW_UPLOAD(g, double, n * dd);
  SEM_FLOW_UPLOAD(wJ, double, n);
  if (h->Nq) {
    size_t Nqp = 1;
    for (int k = 0; k < h->dim; k++) Nqp *= (size_t)h->Nq;
    SEM_FLOW_UPLOAD(B, double, (size_t)h->Nq * h->N1);
    SEM_FLOW_UPLOAD(DB, double, (size_t)h->Nq * h->N1);
    SEM_FLOW_UPLOAD(BT, double, (size_t)h->Nq * h->N1);
    SEM_FLOW_UPLOAD(gq, double, (size_t)h->K * Nqp * dd);
    SEM_FLOW_UPLOAD(wJq, double, (size_t)h->K * Nqp);
  }
#undef SEM_FLOW_UPLOAD
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
  PetscCall(OpShellInit(&flow->shell_u, "SEM flow operators", u->dm, SEMFlowDeviceSetUp, flow));
  PetscCall(OpShellInit(&flow->shell_p, "SEM flow operators (pressure layout)", p->dm, NULL, NULL));
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
  PetscCall(OpShellDestroy(&(*flow)->shell_u));
  PetscCall(OpShellDestroy(&(*flow)->shell_p));
  PetscCall(VecDestroy(&(*flow)->elem[0]));
  PetscCall(VecDestroy(&(*flow)->elem[1]));
  PetscCall(PetscFree(*flow));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The backend of a call with input x (both layouts' shells follow it). */
static PetscErrorCode SEMFlowBegin(SEMFlow *flow, Vec x, PetscBool *on_device)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&flow->shell_u, x, on_device));
  PetscCall(OpShellBegin(&flow->shell_p, x, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local (ghosted) values of global x of layout sem, read-only: x itself where the local layout is the
 * global one, else exchanged into local slot k of shell. */
static PetscErrorCode SEMFlowInput(OpShell *shell, SEMDisc *sem, PetscInt k, Vec x, Vec *xl)
{
  PetscFunctionBeginUser;
  *xl = x;
  if (sem->local_is_global) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OpShellGetLocal(shell, k, xl));
  PetscCall(DMGlobalToLocal(sem->dm, x, INSERT_VALUES, *xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The zeroed vector the kernel adds into for global y: y itself where the local layout is the global one,
 * else local slot k of shell; SEMFlowOutputEnd adds it into y. */
static PetscErrorCode SEMFlowOutputBegin(OpShell *shell, SEMDisc *sem, PetscInt k, Vec y, Vec *yl)
{
  PetscFunctionBeginUser;
  *yl = y;
  if (!sem->local_is_global) PetscCall(OpShellGetLocal(shell, k, yl));
  PetscCall(VecZeroEntries(*yl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMFlowOutputEnd(SEMDisc *sem, Vec yl, Vec y)
{
  PetscFunctionBeginUser;
  if (yl == y) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecZeroEntries(y));
  PetscCall(DMLocalToGlobal(sem->dm, yl, ADD_VALUES, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowConvection(SEMFlow *flow, Vec u, Vec Nu)
{
  SEMDisc           *us = flow->u;
  Vec                ul, cl;
  const PetscScalar *ua;
  PetscScalar       *ca;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowBegin(flow, u, &on_device));
  PetscCall(OpShellEventBegin(&flow->shell_u, HOFLOW_SEMConvection));
  PetscCall(SEMFlowInput(&flow->shell_u, us, 0, u, &ul));
  PetscCall(SEMFlowOutputBegin(&flow->shell_u, us, 1, Nu, &cl));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(OpShellGetArray(&flow->shell_u, cl, &ca));
  if (!on_device) SEMFlowConvectionHost(&flow->kd, ua, ca);
  else PetscCall(OpShellCheckKernel(&flow->shell_u, HOFLOW_CUDA(SEMFlowConvectionCUDA(&flow->kd_device, ua, ca, flow->shell_u.stream)), flow->kd.Nq ? "over-integrated convection" : "convection"));
  PetscCall(OpShellRestoreArray(&flow->shell_u, cl, &ca));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(SEMFlowOutputEnd(us, cl, Nu));
  PetscCall(HoflowVecPointwiseDivide(Nu, Nu, us->mass));
  PetscCall(VecScale(Nu, -1.0));
  PetscCall(OpShellEventEnd(&flow->shell_u, HOFLOW_SEMConvection, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowPressureRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec ustar, Vec b)
{
  SEMDisc           *us = flow->u;
  Vec                fl, sl, bl;
  const PetscScalar *fa, *sa;
  PetscScalar       *ba;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowBegin(flow, F, &on_device));
  PetscCall(SEMFlowInput(&flow->shell_u, us, 0, F, &fl));
  PetscCall(SEMFlowInput(&flow->shell_u, us, 1, ustar, &sl));
  PetscCall(SEMFlowOutputBegin(&flow->shell_p, flow->p, 0, b, &bl));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, fl, &fa));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, sl, &sa));
  PetscCall(OpShellGetArray(&flow->shell_p, bl, &ba));
  if (!on_device) SEMFlowPressureRHSHost(&flow->kd, nu, fa, sa, ba);
  else PetscCall(OpShellCheckKernel(&flow->shell_u, HOFLOW_CUDA(SEMFlowPressureRHSCUDA(&flow->kd_device, nu, fa, sa, ba, flow->shell_u.stream)), "pressure right-hand side"));
  PetscCall(OpShellRestoreArray(&flow->shell_p, bl, &ba));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, sl, &sa));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, fl, &fa));
  PetscCall(SEMFlowOutputEnd(flow->p, bl, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowVelocityRHS(SEMFlow *flow, PetscReal nu, Vec F, Vec p, Vec b)
{
  SEMDisc           *us = flow->u;
  Vec                fl, pl, bl;
  const PetscScalar *fa, *pa;
  PetscScalar       *ba;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowBegin(flow, F, &on_device));
  PetscCall(SEMFlowInput(&flow->shell_u, us, 0, F, &fl));
  PetscCall(SEMFlowInput(&flow->shell_p, flow->p, 0, p, &pl));
  PetscCall(SEMFlowOutputBegin(&flow->shell_u, us, 1, b, &bl));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, fl, &fa));
  PetscCall(OpShellGetArrayRead(&flow->shell_p, pl, &pa));
  PetscCall(OpShellGetArray(&flow->shell_u, bl, &ba));
  if (!on_device) SEMFlowVelocityRHSHost(&flow->kd, nu, fa, pa, ba);
  else PetscCall(OpShellCheckKernel(&flow->shell_u, HOFLOW_CUDA(SEMFlowVelocityRHSCUDA(&flow->kd_device, nu, fa, pa, ba, flow->shell_u.stream)), "velocity right-hand side"));
  PetscCall(OpShellRestoreArray(&flow->shell_u, bl, &ba));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_p, pl, &pa));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, fl, &fa));
  PetscCall(SEMFlowOutputEnd(us, bl, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowDivergence(SEMFlow *flow, Vec u, Vec div)
{
  Vec                ul, dl;
  const PetscScalar *ua;
  PetscScalar       *da;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowBegin(flow, u, &on_device));
  PetscCall(SEMFlowInput(&flow->shell_u, flow->u, 0, u, &ul));
  PetscCall(SEMFlowOutputBegin(&flow->shell_p, flow->p, 0, div, &dl));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(OpShellGetArray(&flow->shell_p, dl, &da));
  if (!on_device) SEMFlowDivergenceHost(&flow->kd, ua, da);
  else PetscCall(OpShellCheckKernel(&flow->shell_u, HOFLOW_CUDA(SEMFlowDivergenceCUDA(&flow->kd_device, ua, da, flow->shell_u.stream)), "divergence"));
  PetscCall(OpShellRestoreArray(&flow->shell_p, dl, &da));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(SEMFlowOutputEnd(flow->p, dl, div));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMFlowEnstrophy(SEMFlow *flow, Vec u, PetscReal *integral)
{
  Vec                ul, *elem;
  const PetscScalar *ua;
  PetscScalar       *ea;
  PetscBool          on_device;
  PetscScalar        sum;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowBegin(flow, u, &on_device));
  elem = &flow->elem[on_device ? 1 : 0];
  if (!*elem) {
    PetscCall(VecCreate(PetscObjectComm((PetscObject)flow->u->dm), elem));
    PetscCall(VecSetSizes(*elem, flow->u->K, PETSC_DECIDE));
    PetscCall(VecSetType(*elem, on_device ? VECCUDA : VECSTANDARD));
  }
  PetscCall(SEMFlowInput(&flow->shell_u, flow->u, 0, u, &ul));
  PetscCall(OpShellGetArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(OpShellGetArrayWrite(&flow->shell_u, *elem, &ea));
  if (!on_device) SEMFlowEnstrophyHost(&flow->kd, ua, ea);
  else PetscCall(OpShellCheckKernel(&flow->shell_u, HOFLOW_CUDA(SEMFlowEnstrophyCUDA(&flow->kd_device, ua, ea, flow->shell_u.stream)), "enstrophy"));
  PetscCall(OpShellRestoreArrayWrite(&flow->shell_u, *elem, &ea));
  PetscCall(OpShellRestoreArrayRead(&flow->shell_u, ul, &ua));
  PetscCall(VecSum(*elem, &sum));
  *integral = PetscRealPart(sum);
  PetscFunctionReturn(PETSC_SUCCESS);
}
