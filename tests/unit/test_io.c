static const char help[] = "Writes a DG field holding a known polynomial of degree N through hoflow's field output, reads\n"
                           "the HDF5 files back and checks the values at every sub-cell vertex, the sub-cell mesh (orientation,\n"
                           "total area) and a checkpoint round trip. Takes hoflow's options and -test_dir DIR.\n";

#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <hoflow/physics.h>

/* A polynomial of total degree N: the DG field represents it exactly. */
static PetscReal Polynomial(PetscInt N, PetscReal x, PetscReal y)
{
  return PetscPowRealInt(0.5 + 0.7 * x - 0.4 * y, N) + 0.3 * PetscPowRealInt(y, N) - 0.2 * x;
}

static PetscErrorCode PolynomialPoint(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx)
{
  *value = Polynomial(*(const PetscInt *)ctx, x[0], x[1]);
  return PETSC_SUCCESS;
}

int main(int argc, char **argv)
{
  App             *app;
  OutputMesh      *om;
  FieldWriter      writer;
  IOFile           file;
  Vec              u, v;
  char             dir[PETSC_MAX_PATH_LEN] = "output/test_io", path[PETSC_MAX_PATH_LEN + 32];
  PetscInt         N, Np, K, np_global, nc_global, rows, cols, nv, offset = 0, npoints;
  const PetscReal *x;
  const PetscInt  *elem_point;
  PetscReal       *xy, *values, value_error = 0, geometry_error = 0, area = 0, min_area = PETSC_MAX_REAL, checkpoint_difference;
  PetscInt        *cells;
  const char      *names[1] = {"p"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test_dir", dir, sizeof(dir), NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  N  = app->order;
  K  = app->mesh->K;
  nv = RefShapeTable[app->mesh->blocks[0].shape].nverts;
  PetscCall(DiscGetPoints(app->disc, &npoints, &x, &elem_point));
  Np = elem_point[1] - elem_point[0];

  /* the L2 projection of the polynomial by the DG machinery (cubature, inverse mass): exact up
   * to round-off, so the values written at the nodes are the polynomial there only if the
   * projection, the node order and the output layout all agree */
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(DiscProject(app->disc, PolynomialPoint, &N, u));
  PetscCall(OutputMeshCreate(app->disc, &om));
  PetscCall(FieldWriterCreate(om, dir, "poly", &writer));
  PetscCall(FieldWriterWrite(writer, 0, 0.0, 1, names, &u));

  /* read everything back on every rank */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/poly_mesh_000000.h5", dir));
  PetscCall(IOFileOpen(PETSC_COMM_WORLD, path, NULL, &file));
  PetscCall(IOFileGetDatasetShape(file, "geometry", &np_global, &cols));
  PetscCheck(cols == 2, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "geometry has %" PetscInt_FMT " columns", cols);
  PetscCall(IOFileGetDatasetShape(file, "topology", &nc_global, &cols));
  PetscCheck(cols == nv, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "topology has %" PetscInt_FMT " columns", cols);
  PetscCall(PetscMalloc3(2 * np_global, &xy, np_global, &values, nc_global * nv, &cells));
  PetscCall(IOFileReadRows(file, "geometry", IO_DOUBLE, 2, 0, np_global, xy));
  PetscCall(IOFileReadRows(file, "topology", IO_INT, nv, 0, nc_global, cells));
  PetscCall(IOFileClose(&file));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/poly_000000.h5", dir));
  PetscCall(IOFileOpen(PETSC_COMM_WORLD, path, NULL, &file));
  PetscCall(IOFileGetDatasetShape(file, "p", &rows, &cols));
  PetscCheck(rows == np_global && cols == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "field p has %" PetscInt_FMT " x %" PetscInt_FMT " values for %" PetscInt_FMT " points", rows, cols, np_global);
  PetscCall(IOFileReadRows(file, "p", IO_DOUBLE, 1, 0, np_global, values));
  PetscCall(IOFileClose(&file));

  /* values at every sub-cell vertex equal the polynomial there; sub-cells counterclockwise and tiling the domain */
  for (PetscInt c = 0; c < nc_global; c++) {
    PetscReal a = 0;
    for (PetscInt j = 0; j < nv; j++) {
      const PetscInt p = cells[c * nv + j], q = cells[c * nv + (j + 1) % nv];
      PetscCheck(p >= 0 && p < np_global, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sub-cell %" PetscInt_FMT " names point %" PetscInt_FMT " of %" PetscInt_FMT, c, p, np_global);
      value_error = PetscMax(value_error, PetscAbsReal(values[p] - Polynomial(N, xy[2 * p], xy[2 * p + 1])));
      a += 0.5 * (xy[2 * p] * xy[2 * q + 1] - xy[2 * q] * xy[2 * p + 1]);
    }
    area += a;
    min_area = PetscMin(min_area, a);
  }
  /* this rank's points are its nodes, in element order, after those of lower ranks */
  PetscCallMPI(MPI_Exscan(&om->npoints, &offset, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  if (PetscGlobalRank == 0) offset = 0;
  for (PetscInt i = 0; i < 2 * om->npoints; i++) geometry_error = PetscMax(geometry_error, PetscAbsReal(xy[2 * offset + i] - om->x[i]));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &geometry_error, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));

  /* checkpoint round trip on the same ranks: bitwise */
  {
    Checkpoint ckpt;
    PetscReal *keys, t, dt;
    PetscInt   step;
    PetscCall(PetscCalloc1(K * HOFLOW_CHECKPOINT_KEY, &keys));
    for (PetscInt e = 0; e < K; e++) {
      const PetscReal *xe                 = x + 2 * elem_point[e];
      keys[e * HOFLOW_CHECKPOINT_KEY + 0] = xe[0] + xe[2];
      keys[e * HOFLOW_CHECKPOINT_KEY + 1] = xe[1] + xe[3];
      keys[e * HOFLOW_CHECKPOINT_KEY + 2] = xe[0];
      keys[e * HOFLOW_CHECKPOINT_KEY + 3] = xe[1];
    }
    PetscCall(VecDuplicate(u, &v));
    PetscCall(CheckpointCreate(PETSC_COMM_WORLD, K, Np, keys, &ckpt));
    PetscCall(CheckpointAddIdentity(ckpt, "test", "io", "-test"));
    PetscCall(CheckpointAddVector(ckpt, "p", u));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint.h5", dir));
    PetscCall(CheckpointWrite(ckpt, path, 7, 0.25, 0.125));
    PetscCall(CheckpointDestroy(&ckpt));
    PetscCall(CheckpointCreate(PETSC_COMM_WORLD, K, Np, keys, &ckpt));
    PetscCall(CheckpointAddIdentity(ckpt, "test", "io", "-test"));
    PetscCall(CheckpointAddVector(ckpt, "p", v));
    PetscCall(CheckpointRead(ckpt, path, &step, &t, &dt));
    PetscCheck(step == 7 && t == 0.25 && dt == 0.125, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "checkpoint step/time/dt read back as %" PetscInt_FMT " %g %g", step, (double)t, (double)dt);
    PetscCall(CheckpointDestroy(&ckpt));
    PetscCall(PetscFree(keys));
    PetscCall(VecAXPY(v, -1.0, u));
    PetscCall(VecNorm(v, NORM_INFINITY, &checkpoint_difference));
    PetscCall(VecDestroy(&v));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "io: order %" PetscInt_FMT " elements %" PetscInt_FMT " points %" PetscInt_FMT " cells %" PetscInt_FMT " value_error %.3e geometry_error %.3e area %.15f min_area %.3e checkpoint_difference %.3e\n", N, app->mesh->Kglobal, np_global, nc_global, (double)value_error, (double)geometry_error, (double)area, (double)min_area, (double)checkpoint_difference));
  PetscCall(PetscFree3(xy, values, cells));
  PetscCall(FieldWriterDestroy(&writer));
  PetscCall(OutputMeshDestroy(&om));
  PetscCall(VecDestroy(&u));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
