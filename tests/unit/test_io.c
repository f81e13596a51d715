static const char help[] = "Writes a DG field holding a known polynomial of degree N through hoflow's field output, reads\n"
                           "the HDF5 files back and checks the values at every sub-cell vertex, the sub-cell mesh (orientation,\n"
                           "total area or volume, mixed shapes in XDMF's mixed layout) and a checkpoint round trip. Takes hoflow's options and -test_dir DIR.\n";

#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <hoflow/physics.h>

/* A polynomial of total degree N: the DG field represents it exactly (z = 0 in 2D). */
static PetscReal Polynomial(PetscInt N, const PetscReal x[], PetscInt dim)
{
  const PetscReal z = dim == 3 ? x[2] : 0;
  return PetscPowRealInt(0.5 + 0.7 * x[0] - 0.4 * x[1] + 0.3 * z, N) + 0.3 * PetscPowRealInt(x[1], N) - 0.2 * x[0] + 0.1 * PetscPowRealInt(z, N);
}

typedef struct {
  PetscInt N, dim;
} PolyCtx;

static PetscErrorCode PolynomialPoint(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx)
{
  const PolyCtx *c = (const PolyCtx *)ctx;
  *value           = Polynomial(c->N, x, c->dim);
  return PETSC_SUCCESS;
}

/* Signed volume of the tetrahedron (a, b, c, d): positive when (a, b, c) turns counterclockwise seen from d. */
static PetscReal TetVolume(const PetscReal *X, const PetscInt *v, PetscInt a, PetscInt b, PetscInt c, PetscInt d)
{
  const PetscReal *p = X + 3 * v[a], *q = X + 3 * v[b], *r = X + 3 * v[c], *t = X + 3 * v[d];
  PetscReal        u[3], w[3], y[3];
  for (PetscInt i = 0; i < 3; i++) {
    u[i] = q[i] - p[i];
    w[i] = r[i] - p[i];
    y[i] = t[i] - p[i];
  }
  return (u[0] * (w[1] * y[2] - w[2] * y[1]) - u[1] * (w[0] * y[2] - w[2] * y[0]) + u[2] * (w[0] * y[1] - w[1] * y[0])) / 6;
}

/* Signed measure of a straight-sided sub-cell with XDMF's (VTK's) vertex order: the shoelace area of a
 * triangle or quadrilateral; tetrahedra, prisms (bottom 0-2, top 3-5) and hexahedra (two prisms) by
 * tetrahedra. An element with the wrong orientation for ParaView comes out negative. */
static PetscReal SubCellMeasure(PetscInt dim, PetscInt nv, const PetscReal *X, const PetscInt *v)
{
  PetscReal m = 0;
  if (dim == 2) {
    for (PetscInt j = 0; j < nv; j++) m += 0.5 * (X[2 * v[j]] * X[2 * v[(j + 1) % nv] + 1] - X[2 * v[(j + 1) % nv]] * X[2 * v[j] + 1]);
    return m;
  }
  switch (nv) {
  case 4:
    return TetVolume(X, v, 0, 1, 2, 3);
  case 6:
    return TetVolume(X, v, 0, 1, 2, 3) + TetVolume(X, v, 1, 2, 3, 4) + TetVolume(X, v, 2, 3, 4, 5);
  case 8: {
    const PetscInt a[6] = {v[0], v[1], v[2], v[4], v[5], v[6]}, b[6] = {v[0], v[2], v[3], v[4], v[6], v[7]};
    return SubCellMeasure(3, 6, X, a) + SubCellMeasure(3, 6, X, b);
  }
  default:
    return PETSC_MAX_REAL;
  }
}

int main(int argc, char **argv)
{
  App             *app;
  OutputMesh      *om;
  FieldWriter      writer;
  IOFile           file;
  Vec              u, v;
  char             dir[PETSC_MAX_PATH_LEN] = "output/test_io", path[PETSC_MAX_PATH_LEN + 32];
  PetscInt         N, Np, K, np_global, nc_global, tlen, rows, cols, nv, offset = 0, npoints, dim;
  const PetscReal *x;
  const PetscInt  *elem_point;
  PetscReal       *xy, *values, value_error = 0, geometry_error = 0, area = 0, min_area = PETSC_MAX_REAL, checkpoint_difference;
  PetscInt        *cells;
  const char      *names[1] = {"p"};
  PolyCtx          poly;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test_dir", dir, sizeof(dir), NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  N   = app->order;
  K   = app->mesh->K;
  dim = app->mesh->dim;
  nv  = RefShapeTable[app->mesh->blocks[0].shape].nverts;
  for (PetscInt b = 1; b < app->mesh->nblocks; b++)
    if (app->mesh->blocks[b].shape != app->mesh->blocks[0].shape) nv = 0; /* mixed: (type, points) per sub-cell */
  poly.N   = N;
  poly.dim = dim;
  PetscCall(DiscGetPoints(app->disc, &npoints, &x, &elem_point));
  Np = elem_point[1] - elem_point[0];

  /* the L2 projection of the polynomial by the DG machinery (cubature, inverse mass): exact up
   * to round-off, so the values written at the nodes are the polynomial there only if the
   * projection, the node order and the output layout all agree */
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(DiscProject(app->disc, PolynomialPoint, &poly, u));
  PetscCall(OutputMeshCreate(app->disc, &om));
  PetscCall(FieldWriterCreate(om, dir, "poly", &writer));
  PetscCall(FieldWriterWrite(writer, 0, 0.0, 1, names, &u));

  /* read everything back on every rank */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/poly_mesh_000000.h5", dir));
  PetscCall(IOFileOpen(PETSC_COMM_WORLD, path, NULL, &file));
  PetscCall(IOFileGetDatasetShape(file, "geometry", &np_global, &cols));
  PetscCheck(cols == dim, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "geometry has %" PetscInt_FMT " columns", cols);
  PetscCall(IOFileGetDatasetShape(file, "topology", &tlen, &cols));
  PetscCheck(cols == (nv ? nv : 1), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "topology has %" PetscInt_FMT " columns", cols);
  PetscCall(IOFileReadAttributeInt(file, "cells", &nc_global, NULL));
  PetscCall(PetscMalloc3(dim * np_global, &xy, np_global, &values, tlen * cols, &cells));
  PetscCall(IOFileReadRows(file, "geometry", IO_DOUBLE, dim, 0, np_global, xy));
  PetscCall(IOFileReadRows(file, "topology", IO_INT, cols, 0, tlen, cells));
  PetscCall(IOFileClose(&file));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/poly_000000.h5", dir));
  PetscCall(IOFileOpen(PETSC_COMM_WORLD, path, NULL, &file));
  PetscCall(IOFileGetDatasetShape(file, "p", &rows, &cols));
  PetscCheck(rows == np_global && cols == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "field p has %" PetscInt_FMT " x %" PetscInt_FMT " values for %" PetscInt_FMT " points", rows, cols, np_global);
  PetscCall(IOFileReadRows(file, "p", IO_DOUBLE, 1, 0, np_global, values));
  PetscCall(IOFileClose(&file));

  /* values at every sub-cell vertex equal the polynomial there; sub-cells positively oriented and tiling the domain */
  for (PetscInt c = 0, k = 0; c < nc_global; c++) {
    PetscInt        cnv = nv;
    const PetscInt *v;
    PetscReal       a;
    if (!nv) { /* XDMF mixed: type number, then the points */
      const PetscInt type = cells[k++];
      cnv                 = type == 4 ? 3 : type == 5 ? 4 : type == 6 ? 4 : type == 8 ? 6 : type == 9 ? 8 : -1;
      PetscCheck(cnv > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sub-cell %" PetscInt_FMT " has XDMF type %" PetscInt_FMT, c, type);
    }
    PetscCheck(k + cnv <= tlen * (nv ? nv : 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "topology ends inside sub-cell %" PetscInt_FMT, c);
    v = cells + k;
    for (PetscInt j = 0; j < cnv; j++) {
      PetscCheck(v[j] >= 0 && v[j] < np_global, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sub-cell %" PetscInt_FMT " names point %" PetscInt_FMT " of %" PetscInt_FMT, c, v[j], np_global);
      value_error = PetscMax(value_error, PetscAbsReal(values[v[j]] - Polynomial(N, xy + dim * v[j], dim)));
    }
    a = SubCellMeasure(dim, cnv, xy, v);
    k += cnv;
    area += a;
    min_area = PetscMin(min_area, a);
  }
  /* this rank's points are its nodes, in element order, after those of lower ranks */
  PetscCallMPI(MPI_Exscan(&om->npoints, &offset, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  if (PetscGlobalRank == 0) offset = 0;
  for (PetscInt i = 0; i < dim * om->npoints; i++) geometry_error = PetscMax(geometry_error, PetscAbsReal(xy[dim * offset + i] - om->x[i]));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &geometry_error, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));

  /* checkpoint round trip on the same ranks: bitwise (checkpoints hold one element shape: -1 on mixed meshes) */
  checkpoint_difference = -1;
  if (nv) {
    Checkpoint ckpt;
    PetscReal *keys, t, dt;
    PetscInt   step;
    PetscCall(PetscCalloc1(K * HOFLOW_CHECKPOINT_KEY, &keys));
    for (PetscInt e = 0; e < K; e++) {
      const PetscReal *xe = x + dim * elem_point[e]; /* keyed by the mean of its nodes and its first node */
      for (PetscInt j = 0; j < Np; j++)
        for (PetscInt d = 0; d < dim; d++) keys[e * HOFLOW_CHECKPOINT_KEY + d] += xe[j * dim + d] / Np;
      for (PetscInt d = 0; d < dim; d++) keys[e * HOFLOW_CHECKPOINT_KEY + 3 + d] = xe[d];
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
