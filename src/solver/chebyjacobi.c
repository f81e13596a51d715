/* Chebyshev iteration with Jacobi scaling, the p-multigrid smoother: -ksp_type chebyjacobi.
 *
 * The same polynomial smoother as PETSc's KSPCHEBYSHEV with PCJACOBI on an interval [emin, emax] of
 * the spectrum of D^{-1} A (Saad, Iterative Methods, Alg. 12.1), with each iteration's vector work
 * (residual update, direction, solution update) fused into one kernel (ChebyshevUpdateHost/CUDA):
 * an iteration is one matrix-vector product and one vector kernel, where PETSc's implementation
 * makes about five vector operations and a PC application. On a GPU a smoother on a p-level of a
 * modest mesh is bound by launch latency, not bandwidth, so this counts.
 *
 * The bounds come from KSPChebyshevSetEigenvalues (the same call as for KSPCHEBYSHEV), or else from
 * a few CG iterations at setup ([0.1, 1.1] lambda_max, PETSc's default transform). D is the diagonal
 * of the preconditioning matrix; the KSP's PC must be jacobi (what the smoother does) or none.
 * Iterations: -ksp_max_it (the degree); no norms are computed. */
#include <petsc/private/kspimpl.h>
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/kernels/chebyshev.h>
#include <hoflow/kernels/device.h>
#include <hoflow/log.h>
#include <hoflow/solver.h>

const char *const HoflowChebyKinds[] = {"first", "fourth", "HoflowChebyKind", "HOFLOW_CHEBY_", NULL};

typedef struct {
  HoflowChebyKind  kind;
  PetscReal        emin, emax;  /* the interval targeted; 0: estimate at setup */
  PetscBool        estimated;   /* the bounds came from an estimate (redone for a new operator) */
  Vec              dinv;        /* 1 / diag(P) */
  Vec              given_dinv;  /* 1 / diag(given_for) from KSPChebyJacobiSetInverseDiagonal, or NULL */
  Mat              given_for;   /* (not referenced) */
  PetscObjectState given_state; /* given_for's state then: the given diagonal is used while P is that matrix unchanged */
} KSP_ChebyJacobi;

PetscErrorCode HoflowEigenEstimateRHS(Vec b)
{
  PetscScalar *ba;
  PetscMemType mt;
  PetscInt     n, start;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(b, &start, NULL));
  PetscCall(VecGetLocalSize(b, &n));
  PetscCall(VecGetArrayWriteAndMemType(b, &ba, &mt)); /* a CUDA vector's device array: no host copy */
  if (PetscMemTypeDevice(mt)) {
#if defined(HOFLOW_HAVE_CUDA)
    void *stream;
    int   err;
    PetscCall(HoflowGetCUDAStream(&stream));
    err = EigestRHSCUDA((int)n, (int)start, ba, stream);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA kernel of the eigenvalue estimate's right-hand side failed: %s", HoflowDeviceErrorString(err));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
#endif
  } else
    EigestRHSHost((int)n, (int)start, ba);
  PetscCall(VecRestoreArrayWriteAndMemType(b, &ba));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Jacobi preconditioner of the estimate from a given inverse diagonal: y = dinv .* x, PCJACOBI's apply. */
static PetscErrorCode EstimatePCApply(PC pc, Vec x, Vec y)
{
  Vec dinv;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &dinv));
  PetscCall(VecPointwiseMult(y, dinv, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowEstimateMaxEigenvalue(Mat A, PetscInt steps, Vec dinv, PetscReal *emax)
{
  KSP       ksp;
  PC        pc;
  Vec       x, b;
  PetscReal emin;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_EigEstimate, A, 0, 0, 0));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(HoflowEigenEstimateRHS(b));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  /* a prefix of its own: KSPSolve reads -ksp_converged_reason, -ksp_monitor, -ksp_view with the KSP's
   * prefix, and the user's unprefixed ones are meant for the outer solve, not for this estimate */
  PetscCall(KSPSetOptionsPrefix(ksp, "hoflow_eigest_"));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  if (dinv) { /* the caller's 1 / diag(A) (pMG hands the same vector to the level's smoother) */
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetContext(pc, dinv));
    PetscCall(PCShellSetApply(pc, EstimatePCApply));
    PetscCall(PCShellSetName(pc, "Jacobi (given inverse diagonal)"));
  } else
    PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
  PetscCall(KSPSetTolerances(ksp, 1e-30, 1e-30, PETSC_DEFAULT, steps));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPComputeExtremeSingularValues(ksp, emax, &emin));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscLogEventEnd(HOFLOW_EigEstimate, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPChebyJacobiSetInverseDiagonal(KSP ksp, Mat A, Vec dinv)
{
  PetscBool        is;
  KSP_ChebyJacobi *cj;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCHEBYJACOBI, &is));
  if (!is) PetscFunctionReturn(PETSC_SUCCESS);
  cj = (KSP_ChebyJacobi *)ksp->data;
  PetscCall(PetscObjectReference((PetscObject)dinv));
  PetscCall(VecDestroy(&cj->given_dinv));
  cj->given_dinv = dinv;
  cj->given_for  = A;
  PetscCall(PetscObjectStateGet((PetscObject)A, &cj->given_state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPChebyshevSetEigenvalues_ChebyJacobi(KSP ksp, PetscReal emax, PetscReal emin)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;

  PetscFunctionBeginUser;
  PetscCheck(emin > 0 && emax > emin, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "-ksp_type chebyjacobi: eigenvalue bounds must satisfy 0 < emin < emax, got emin %g, emax %g", (double)emin, (double)emax);
  cj->emax      = emax;
  cj->emin      = emin;
  cj->estimated = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPChebyJacobiSetKind(KSP ksp, HoflowChebyKind kind)
{
  PetscBool is;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCHEBYJACOBI, &is));
  if (is) ((KSP_ChebyJacobi *)ksp->data)->kind = kind;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_ChebyJacobi(KSP ksp, PetscOptionItems *PetscOptionsObject)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;

  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, "hoflow Chebyshev/Jacobi smoother");
  PetscCall(PetscOptionsEnum("-ksp_chebyjacobi_kind", "Chebyshev polynomial: first (interval [emin, emax]) or fourth (Lottes 2022, (0, emax])", NULL, HoflowChebyKinds, (PetscEnum)cj->kind, (PetscEnum *)&cj->kind, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_ChebyJacobi(KSP ksp)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;
  Mat              P;
  PetscBool        ok;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)ksp->pc, &ok, PCJACOBI, PCNONE, ""));
  PetscCheck(ok, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "-ksp_type chebyjacobi applies its own Jacobi scaling: its PC must be jacobi or none, not %s (or use -ksp_type chebyshev)", ((PetscObject)ksp->pc)->type_name);
  PetscCall(KSPGetOperators(ksp, NULL, &P));
  PetscCall(VecDestroy(&cj->dinv));
  if (cj->given_dinv && P == cj->given_for) {
    PetscObjectState state;
    PetscCall(PetscObjectStateGet((PetscObject)P, &state));
    if (state == cj->given_state) { /* computed once by the caller for its own use too (pMG's estimate) */
      PetscCall(PetscObjectReference((PetscObject)cj->given_dinv));
      cj->dinv = cj->given_dinv;
    }
  }
  if (!cj->dinv) {
    if (ksp->vec_sol)
      PetscCall(VecDuplicate(ksp->vec_sol, &cj->dinv)); /* the solution's backend (set up inside KSPSolve) */
    else
      PetscCall(MatCreateVecs(P, &cj->dinv, NULL));
    PetscCall(MatGetDiagonal(P, cj->dinv));
    PetscCall(VecReciprocal(cj->dinv));
  }
  PetscCall(KSPSetWorkVecs(ksp, 3));
  if (cj->emax == 0 || cj->estimated) {
    PetscReal emax;
    PetscCall(HoflowEstimateMaxEigenvalue(P, 10, NULL, &emax));
    cj->emax      = 1.1 * emax;
    cj->emin      = 0.1 * emax;
    cj->estimated = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fused vector work of one iteration (hoflow/kernels/chebyshev.h), on the backend of the vectors. */
static PetscErrorCode ChebyJacobiUpdate(PetscInt mode, PetscReal a, PetscReal c, Vec b, Vec w, Vec dinv, Vec r, Vec d, Vec x)
{
  const PetscScalar *ba = NULL, *wa = NULL, *da;
  PetscScalar       *ra, *dd, *xa;
  PetscMemType       mt[6];
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  if (mode < 2) PetscCall(VecGetArrayReadAndMemType(b, &ba, &mt[0]));
  if (mode > 0) PetscCall(VecGetArrayReadAndMemType(w, &wa, &mt[1]));
  PetscCall(VecGetArrayReadAndMemType(dinv, &da, &mt[2]));
  if (mode < 2)
    PetscCall(VecGetArrayWriteAndMemType(r, &ra, &mt[3]));
  else
    PetscCall(VecGetArrayAndMemType(r, &ra, &mt[3]));
  if (mode < 2)
    PetscCall(VecGetArrayWriteAndMemType(d, &dd, &mt[4]));
  else
    PetscCall(VecGetArrayAndMemType(d, &dd, &mt[4]));
  if (mode == 0)
    PetscCall(VecGetArrayWriteAndMemType(x, &xa, &mt[5]));
  else
    PetscCall(VecGetArrayAndMemType(x, &xa, &mt[5]));
  if (mode == 2) mt[0] = mt[2];
  if (mode == 0) mt[1] = mt[2];
  for (PetscInt k = 0; k < 6; k++) PetscCheck(PetscMemTypeDevice(mt[k]) == PetscMemTypeDevice(mt[5]), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-ksp_type chebyjacobi needs all vectors on one backend (host or device)");
  PetscCall(PetscLogEventBegin(HOFLOW_ChebyshevUpdate, 0, 0, 0, 0));
  if (PetscMemTypeDevice(mt[5])) {
#if defined(HOFLOW_HAVE_CUDA)
    void *stream;
    int   err;
    PetscCall(HoflowGetCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    err = ChebyshevUpdateCUDA((int)n, (int)mode, a, c, ba, wa, da, ra, dd, xa, stream);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA Chebyshev update kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(PetscLogGpuFlops(6.0 * n));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
#endif
  } else {
    ChebyshevUpdateHost((int)n, (int)mode, a, c, ba, wa, da, ra, dd, xa);
    PetscCall(PetscLogFlops(6.0 * n));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_ChebyshevUpdate, 0, 0, 0, 0));
  if (mode < 2) PetscCall(VecRestoreArrayReadAndMemType(b, &ba));
  if (mode > 0) PetscCall(VecRestoreArrayReadAndMemType(w, &wa));
  PetscCall(VecRestoreArrayReadAndMemType(dinv, &da));
  if (mode < 2)
    PetscCall(VecRestoreArrayWriteAndMemType(r, &ra));
  else
    PetscCall(VecRestoreArrayAndMemType(r, &ra));
  if (mode < 2)
    PetscCall(VecRestoreArrayWriteAndMemType(d, &dd));
  else
    PetscCall(VecRestoreArrayAndMemType(d, &dd));
  if (mode == 0)
    PetscCall(VecRestoreArrayWriteAndMemType(x, &xa));
  else
    PetscCall(VecRestoreArrayAndMemType(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* First kind (Saad, Alg. 12.1) on [emin, emax]; fourth kind (Lottes 2022, Alg. 1 with beta = 1) on
 * (0, emax]: d_0 = 4/(3 emax) D^{-1} r_0, and for k >= 1
 *   r_k = r_{k-1} - A d_{k-1},  d_k = (2k-1)/(2k+3) d_{k-1} + (8k+4)/((2k+3) emax) D^{-1} r_k,
 * x_{k+1} = x_k + d_k. Both are the kernel's update d = a d + c D^{-1} r with other a, c. */
static PetscErrorCode KSPSolve_ChebyJacobi(KSP ksp)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;
  Mat              A;
  Vec              x = ksp->vec_sol, b = ksp->vec_rhs, r = ksp->work[0], d = ksp->work[1], w = ksp->work[2];
  const PetscBool  fourth = (PetscBool)(cj->kind == HOFLOW_CHEBY_FOURTH);
  const PetscReal  theta = 0.5 * (cj->emax + cj->emin), delta = 0.5 * (cj->emax - cj->emin), sigma = theta / delta;
  const PetscReal  c0    = fourth ? 4.0 / (3.0 * cj->emax) : 1.0 / theta;
  PetscReal        rho   = 1.0 / sigma;

  PetscFunctionBeginUser;
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  if (ksp->guess_zero)
    PetscCall(ChebyJacobiUpdate(0, 0.0, c0, b, NULL, cj->dinv, r, d, x));
  else {
    PetscCall(KSP_MatMult(ksp, A, x, w));
    PetscCall(ChebyJacobiUpdate(1, 0.0, c0, b, w, cj->dinv, r, d, x));
  }
  for (PetscInt k = 1; k < ksp->max_it; k++) {
    PetscReal a, c;
    if (fourth) {
      a = (2.0 * k - 1.0) / (2.0 * k + 3.0);
      c = (8.0 * k + 4.0) / ((2.0 * k + 3.0) * cj->emax);
    } else {
      const PetscReal rho_next = 1.0 / (2.0 * sigma - rho);
      a                        = rho_next * rho;
      c                        = 2.0 * rho_next / delta;
      rho                      = rho_next;
    }
    PetscCall(KSP_MatMult(ksp, A, d, w));
    PetscCall(ChebyJacobiUpdate(2, a, c, NULL, w, cj->dinv, r, d, x));
  }
  ksp->its    = ksp->max_it;
  ksp->reason = KSP_CONVERGED_ITS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_ChebyJacobi(KSP ksp, PetscViewer viewer)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;
  PetscBool        ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "  hoflow Chebyshev/Jacobi (fused vector kernel), %s kind, eigenvalue targets [%g, %g]%s\n", HoflowChebyKinds[cj->kind], (double)cj->emin, (double)cj->emax, cj->estimated ? " (estimated)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_ChebyJacobi(KSP ksp)
{
  KSP_ChebyJacobi *cj = (KSP_ChebyJacobi *)ksp->data;

  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&cj->dinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_ChebyJacobi(KSP ksp)
{
  PetscFunctionBeginUser;
  PetscCall(KSPReset_ChebyJacobi(ksp));
  PetscCall(VecDestroy(&((KSP_ChebyJacobi *)ksp->data)->given_dinv));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPChebyshevSetEigenvalues_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPCreate_ChebyJacobi(KSP ksp)
{
  KSP_ChebyJacobi *cj;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&cj));
  ksp->data = cj;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_RIGHT, 1));
  ksp->ops->setup   = KSPSetUp_ChebyJacobi;
  ksp->ops->solve   = KSPSolve_ChebyJacobi;
  ksp->ops->view    = KSPView_ChebyJacobi;
  ksp->ops->setfromoptions = KSPSetFromOptions_ChebyJacobi;
  ksp->ops->reset   = KSPReset_ChebyJacobi;
  ksp->ops->destroy = KSPDestroy_ChebyJacobi;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPChebyshevSetEigenvalues_C", KSPChebyshevSetEigenvalues_ChebyJacobi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
