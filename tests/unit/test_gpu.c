static const char help[] = "Compares the CUDA SIPDG kernels with their host twins on the same operator and input.\n"
                           "Takes hoflow's options. Prints SKIPPED when hoflow is built without CUDA.\n";

#include <hoflow/app.h>
#include <hoflow/compat.h>

int main(int argc, char **argv)
{
  App *app;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
#if !defined(HOFLOW_HAVE_CUDA)
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: SKIPPED (hoflow built without CUDA=1)\n"));
#else
  {
    Vec                x, y, xd, yd, yd2;
    PetscRandom        rnd;
    PetscInt           n, N;
    const PetscScalar *ya, *yda, *yd2a;
    PetscReal          diff = 0, norm = 0, repeat = 0, all[3];

    PetscCall(MatCreateVecs(app->A, &x, &y));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(PetscRandomSetFromOptions(rnd));
    PetscCall(VecSetRandom(x, rnd));
    PetscCall(MatMult(app->A, x, y)); /* host kernels */
    PetscCall(VecGetLocalSize(x, &n));
    PetscCall(VecGetSize(x, &N));
    PetscCall(VecCreate(PETSC_COMM_WORLD, &xd));
    PetscCall(VecSetSizes(xd, n, N));
    PetscCall(VecSetType(xd, VECCUDA));
    PetscCall(VecCopy(x, xd));
    PetscCall(VecDuplicate(xd, &yd));
    PetscCall(VecDuplicate(xd, &yd2));
    PetscCall(VecSet(yd, NAN)); /* poison: every entry must be written */
    PetscCall(VecSet(yd2, NAN));
    PetscCall(MatMult(app->A, xd, yd)); /* CUDA kernels */
    PetscCall(MatMult(app->A, xd, yd2));
    PetscCall(VecGetArrayRead(y, &ya));
    PetscCall(VecGetArrayRead(yd, &yda));
    PetscCall(VecGetArrayRead(yd2, &yd2a));
    for (PetscInt i = 0; i < n; i++) {
      diff += PetscSqr(PetscRealPart(yda[i] - ya[i]));
      norm += PetscSqr(PetscRealPart(ya[i]));
      repeat += PetscSqr(PetscRealPart(yd2a[i] - yda[i]));
      if (PetscIsNanReal(PetscRealPart(yda[i]))) diff = PETSC_INFINITY;
    }
    PetscCall(VecRestoreArrayRead(y, &ya));
    PetscCall(VecRestoreArrayRead(yd, &yda));
    PetscCall(VecRestoreArrayRead(yd2, &yd2a));
    all[0] = diff;
    all[1] = norm;
    all[2] = repeat;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, all, 3, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: apply_relative_difference %.3e repeat_difference %.3e dofs %" PetscInt_FMT "\n", (double)PetscSqrtReal(all[0] / all[1]), (double)PetscSqrtReal(all[2]), N));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(VecDestroy(&xd));
    PetscCall(VecDestroy(&yd));
    PetscCall(VecDestroy(&yd2));
  }
#endif
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
