static const char help[] = "hoflow: high-order matrix-free flow solver (PETSc, CUDA).\n"
                           "Solves the problem chosen with -problem on the mesh from -dm_plex_filename or\n"
                           "-dm_plex_box_faces with the discretization -disc of order -order, and reports\n"
                           "the error against the exact solution. Solvers are PETSc options (-ksp_type, -pc_type);\n"
                           "time-dependent problems (-problem heat) step with a PETSc TS (-ts_type, -ts_dt, ...).\n\n";

#include <hoflow/app.h>
#include <hoflow/compat.h>
#include <hoflow/unsteady.h>

/* A steady solve writes its solution as a one-entry series when asked (-output_interval > 0). */
static PetscErrorCode AppWriteFields(App *app)
{
  char        dir[PETSC_MAX_PATH_LEN];
  PetscInt    interval = 0;
  OutputMesh *mesh;
  FieldWriter writer;
  const char *names[1] = {"u"};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "output/%s", app->problem_name));
  PetscOptionsBegin(app->comm, NULL, "Output", NULL);
  PetscCall(PetscOptionsString("-output_dir", "Directory for the solution fields", NULL, dir, dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsInt("-output_interval", "Write the solution (HDF5 + XDMF) when > 0", NULL, interval, &interval, NULL));
  PetscOptionsEnd();
  if (interval <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OutputMeshCreateDG(app->disc, &mesh));
  PetscCall(FieldWriterCreate(mesh, dir, app->problem_name, &writer));
  PetscCall(FieldWriterWrite(writer, 0, 0.0, 1, names, &app->u));
  PetscCall(FieldWriterDestroy(&writer));
  PetscCall(OutputMeshDestroy(&mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  App *app;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  if (app->problem.physics[0]) { /* time-dependent: the TS driver over the App's discretization */
    Unsteady *unsteady;
    PetscCall(UnsteadyCreate(app, &unsteady));
    PetscCall(UnsteadySolve(unsteady));
    PetscCall(UnsteadyReport(unsteady));
    PetscCall(UnsteadyDestroy(&unsteady));
  } else {
    const char *unsteady_options[] = {"-restart", "-checkpoint_interval"};
    for (size_t k = 0; k < sizeof(unsteady_options) / sizeof(unsteady_options[0]); k++) {
      PetscBool set;
      PetscCall(PetscOptionsHasName(NULL, NULL, unsteady_options[k], &set));
      PetscCheck(!set, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s: problem %s is steady (one elliptic solve); only time-dependent problems (heat, taylor_vortex, square_cylinder) checkpoint and restart", unsteady_options[k], app->problem_name);
    }
    PetscCall(AppSolve(app));
    PetscCall(AppWriteFields(app));
    PetscCall(AppReport(app));
  }
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
