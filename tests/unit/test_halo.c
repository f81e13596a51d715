static const char help[] = "The batched halo exchange (OpShellHaloBeginMany/EndMany, core/opshell_batch.c) against DMGlobalToLocal:\n"
                           "n = 1..12 random DG vectors of the run's discretization (any hoflow problem and mesh options) into local\n"
                           "slots in reverse order (slot n-1-k), every local vector compared entry by entry with DMGlobalToLocal's.\n"
                           "Prints \"halo: vectors 1..12 mismatches <entries that differ> ghosts <ghost nodes, summed over ranks>\";\n"
                           "-halo_overlap 0 ends each exchange in its Begin.\n";

#include <hoflow/compat.h>
#include <hoflow/opshell.h>
#include <hoflow/physics.h>
#include <hoflow/kernels/halo.h>

int main(int argc, char **argv)
{
  App        *app;
  DM          dm;
  OpShell     op;
  PetscRandom rnd;
  PetscInt    mismatches = 0, ghosts, nowned, nlocal;
  Vec         g[HALO_NMAX], reference;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  dm = app->disc->dm;
  PetscCall(PetscMemzero(&op, sizeof(op)));
  PetscCall(OpShellInit(&op, "halo test", dm, NULL, NULL));
  PetscCall(OpShellHaloSetUpBatch(&op));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  for (PetscInt k = 0; k < HALO_NMAX; k++) PetscCall(DMCreateGlobalVector(dm, &g[k]));
  PetscCall(DMCreateLocalVector(dm, &reference));
  PetscCall(VecGetLocalSize(g[0], &nowned));
  PetscCall(VecGetLocalSize(reference, &nlocal));
  ghosts = nlocal - nowned;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ghosts, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  for (PetscInt n = 1; n <= HALO_NMAX; n++) {
    PetscInt           slot[HALO_NMAX];
    const PetscScalar *local[HALO_NMAX];
    for (PetscInt k = 0; k < n; k++) {
      PetscCall(VecSetRandom(g[k], rnd));
      slot[k] = n - 1 - k;
    }
    PetscCall(OpShellBegin(&op, g[0], NULL));
    PetscCall(OpShellHaloBeginMany(&op, n, slot, g));
    PetscCall(OpShellHaloEndMany(&op, n, slot, g, local));
    for (PetscInt k = 0; k < n; k++) {
      const PetscScalar *r;
      PetscCall(DMGlobalToLocal(dm, g[k], INSERT_VALUES, reference));
      PetscCall(VecGetArrayRead(reference, &r));
      for (PetscInt i = 0; i < nlocal; i++) mismatches += r[i] != local[k][i];
      PetscCall(VecRestoreArrayRead(reference, &r));
      PetscCall(OpShellHaloRestore(&op, slot[k], &local[k]));
    }
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &mismatches, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo: vectors 1..%d mismatches %" PetscInt_FMT " ghosts %" PetscInt_FMT "\n", HALO_NMAX, mismatches, ghosts));
  for (PetscInt k = 0; k < HALO_NMAX; k++) PetscCall(VecDestroy(&g[k]));
  PetscCall(VecDestroy(&reference));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(OpShellDestroy(&op));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
