static const char help[] = "hoflow: high-order matrix-free flow solver (PETSc, CUDA).\n"
                           "Solves the problem chosen with -problem on the mesh from -dm_plex_filename or\n"
                           "-dm_plex_box_faces with the discretization -disc of order -order, and reports\n"
                           "the error against the exact solution. Solvers are PETSc options (-ksp_type, -pc_type);\n"
                           "time-dependent problems (-problem heat) step with a PETSc TS (-ts_type, -ts_dt, ...).\n\n";

#include <hoflow/compat.h>
#include <hoflow/physics.h>

int main(int argc, char **argv)
{
  App *app;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(AppRun(app));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
