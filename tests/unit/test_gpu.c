static const char help[] = "Compares every CUDA kernel with its host twin on the same operator and input:\n"
                           "SIPDG apply (gradient + apply), diagonal, mass, inverse mass, right-hand side, L2 error and the\n"
                           "p-multigrid transfer (prolongation, restriction).\n"
                           "Takes hoflow's options. Prints SKIPPED when hoflow is built without CUDA.\n";

#include <hoflow/app.h>
#include <hoflow/compat.h>

#if defined(HOFLOW_HAVE_CUDA)
/* A CUDA vector with x's layout and values. */
static PetscErrorCode DuplicateOnDevice(Vec x, Vec *xd)
{
  PetscInt n, N;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)x), xd));
  PetscCall(VecSetSizes(*xd, n, N));
  PetscCall(VecSetType(*xd, VECCUDA));
  PetscCall(VecCopy(x, *xd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||yd - yh|| / ||yh||, infinite if yd holds a NaN (an unwritten entry of the poisoned output). */
static PetscErrorCode RelativeDifference(Vec yh, Vec yd, PetscReal *rel)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          s[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(yh, &n));
  PetscCall(VecGetArrayRead(yh, &a));
  PetscCall(VecGetArrayRead(yd, &b));
  for (PetscInt i = 0; i < n; i++) {
    s[0] += PetscSqr(PetscRealPart(b[i] - a[i]));
    s[1] += PetscSqr(PetscRealPart(a[i]));
    if (PetscIsNanReal(PetscRealPart(b[i]))) s[0] = PETSC_INFINITY;
  }
  PetscCall(VecRestoreArrayRead(yh, &a));
  PetscCall(VecRestoreArrayRead(yd, &b));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, s, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)yh)));
  *rel = PetscSqrtReal(s[0] / s[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (or A^T x) on the host and on the device (twice, to catch races); relative difference and
 * repeat difference. */
static PetscErrorCode CompareMultOrTranspose(Mat A, PetscBool transpose, Vec x, PetscReal *rel, PetscReal *repeat)
{
  Vec yh, xd, yd, yd2;

  PetscFunctionBeginUser;
  if (transpose)
    PetscCall(MatCreateVecs(A, &yh, NULL));
  else
    PetscCall(MatCreateVecs(A, NULL, &yh));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, x, yh));
  PetscCall(DuplicateOnDevice(x, &xd));
  PetscCall(DuplicateOnDevice(yh, &yd));
  PetscCall(VecDuplicate(yd, &yd2));
  PetscCall(VecSet(yd, NAN));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, xd, yd));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, xd, yd2));
  PetscCall(RelativeDifference(yh, yd, rel));
  PetscCall(VecAXPY(yd2, -1.0, yd));
  PetscCall(VecNorm(yd2, NORM_INFINITY, repeat));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(VecDestroy(&yd2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareMult(Mat A, Vec x, PetscReal *rel, PetscReal *repeat)
{
  PetscFunctionBeginUser;
  PetscCall(CompareMultOrTranspose(A, PETSC_FALSE, x, rel, repeat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p-multigrid transfer between order N and N/2 (N > 1): prolongation and restriction kernels. */
static PetscErrorCode CompareTransfer(App *app, PetscRandom rnd, PetscReal *prolong, PetscReal *restrict_, PetscReal *repeat)
{
  DGDisc   *coarse;
  Mat       P;
  Vec       xc, xf;
  PetscReal rep[2];

  PetscFunctionBeginUser;
  PetscCall(DGDiscCreate(app->mesh, PetscMax(1, app->order / 2), &coarse));
  PetscCall(DGTransferCreate(coarse, app->disc, &P));
  PetscCall(MatCreateVecs(P, &xc, &xf));
  PetscCall(VecSetRandom(xc, rnd));
  PetscCall(VecSetRandom(xf, rnd));
  PetscCall(CompareMultOrTranspose(P, PETSC_FALSE, xc, prolong, &rep[0]));
  PetscCall(CompareMultOrTranspose(P, PETSC_TRUE, xf, restrict_, &rep[1]));
  *repeat = PetscMax(rep[0], rep[1]);
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&xf));
  PetscCall(MatDestroy(&P));
  PetscCall(DGDiscDestroy(&coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  App *app;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
#if !defined(HOFLOW_HAVE_CUDA)
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: SKIPPED (hoflow built without CUDA=1)\n"));
#else
  {
    Vec         x, xd, dh, dd, bh, bd;
    Mat         M, Minv;
    PetscRandom rnd;
    PetscReal   apply, repeat, diag, mass, mass_repeat, inv, inv_repeat, rhs, eh, ed, prolong, restrict_, transfer_repeat;

    PetscCall(MatCreateVecs(app->A, &x, NULL));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    /* SIPDG operator: gradient and apply kernels */
    PetscCall(CompareMult(app->A, x, &apply, &repeat));
    /* diagonal */
    PetscCall(VecDuplicate(x, &dh));
    PetscCall(MatGetDiagonal(app->A, dh));
    PetscCall(DuplicateOnDevice(x, &dd));
    PetscCall(VecSet(dd, NAN));
    PetscCall(MatGetDiagonal(app->A, dd));
    PetscCall(RelativeDifference(dh, dd, &diag));
    /* mass and inverse mass */
    PetscCall(DGMassOperatorCreate(app->disc, PETSC_FALSE, &M));
    PetscCall(DGMassOperatorCreate(app->disc, PETSC_TRUE, &Minv));
    PetscCall(CompareMult(M, x, &mass, &mass_repeat));
    PetscCall(CompareMult(Minv, x, &inv, &inv_repeat));
    /* right-hand side (l_i, f) */
    PetscCall(VecDuplicate(x, &bh));
    PetscCall(VecZeroEntries(bh));
    PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.forcing, app->problem.ctx, bh));
    PetscCall(DuplicateOnDevice(x, &bd));
    PetscCall(VecZeroEntries(bd));
    PetscCall(DGDiscAddWeightedIntegral(app->disc, app->problem.forcing, app->problem.ctx, bd));
    PetscCall(RelativeDifference(bh, bd, &rhs));
    /* L2 error of the random field against the exact solution */
    PetscCall(DGDiscL2Error(app->disc, x, app->problem.exact, app->problem.ctx, &eh));
    PetscCall(DuplicateOnDevice(x, &xd));
    PetscCall(DGDiscL2Error(app->disc, xd, app->problem.exact, app->problem.ctx, &ed));
    PetscCall(CompareTransfer(app, rnd, &prolong, &restrict_, &transfer_repeat));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: apply_relative_difference %.3e repeat_difference %.3e\n", (double)apply, (double)repeat));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: diagonal %.3e mass %.3e inverse_mass %.3e rhs %.3e error %.3e mass_repeat %.3e\n", (double)diag, (double)mass, (double)inv, (double)rhs, (double)(PetscAbsReal(ed - eh) / eh), (double)PetscMax(mass_repeat, inv_repeat)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu-transfer: prolong %.3e restrict %.3e transfer_repeat %.3e\n", (double)prolong, (double)restrict_, (double)transfer_repeat));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(MatDestroy(&M));
    PetscCall(MatDestroy(&Minv));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&xd));
    PetscCall(VecDestroy(&dh));
    PetscCall(VecDestroy(&dd));
    PetscCall(VecDestroy(&bh));
    PetscCall(VecDestroy(&bd));
  }
#endif
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
