/* Exact checkpoint/restart. One HDF5 file holds everything a run needs to continue: the state and
 * any history vectors, time, step, dt, the identity of the run (problem, discretization, order,
 * ...), the options used and the hoflow version. It is written to <file>.tmp and renamed, so a run
 * killed while writing leaves the previous checkpoint intact.
 *
 * Vectors are stored block by block (DG: element by element) in the writer's order, each block
 * with a key (DG: centroid and first node). A restart matches its own blocks to the file's by
 * key, so the same number of ranks reads back exactly the same numbers (bitwise) and another
 * number of ranks reads the same values into its own layout.
 *
 * Format 3 also stores each block's vertices (DG: the element's, in its shape's reference order).
 * A restart allowed to project (CheckpointSetProjection, -restart_project) reads a checkpoint of
 * another order (one identity entry differs, and with it the block size) and onto the file's mesh
 * refined: each of this run's blocks is then located inside one of the file's by its centroid, all
 * its vertices checked to lie in that block, and the caller projects the file's block onto it.
 * Format 2 files (no vertices) are still read, on their own mesh. On a mesh of several element shapes (blocks of
 * varying width, blocks/widths) a projection changes the order on the same mesh only: each block is read at its width
 * in the file, the blocks packed one after another, and the caller projects each with its own shape.
 *
 * A continuous field (a Disc with point_values: -disc sem) is stored as its values at each element's points,
 * a block of its own width (points x components) per element, and put back through the element restriction;
 * projected, it goes to its own Disc's project_elements at the order its width gives. */
#define _POSIX_C_SOURCE 200809L
#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

#define CHECKPOINT_MAX 32 /* 3D incompressible flow at BDF3: 4 fields, 12 history vectors, 2 pressures, the increment */

struct _n_Checkpoint {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscInt    nblocks, nblocks_global, block_size;
  PetscReal  *keys;    /* [nblocks*HOFLOW_CHECKPOINT_KEY] */
  PetscInt   *offsets; /* [nblocks+1] blocks of varying width (CheckpointSetBlockOffsets), else NULL */
  PetscInt    nvec;
  char        vec_names[CHECKPOINT_MAX][64];
  Vec         vecs[CHECKPOINT_MAX];      /* what is written: blocks of vec_bs values */
  PetscInt    vec_bs[CHECKPOINT_MAX];    /* block_size, or the points of an element times the components */
  Vec         vec_field[CHECKPOINT_MAX]; /* a continuous discretization's vector, vecs[k] its point values; else NULL */
  Disc        vec_disc[CHECKPOINT_MAX];
  PetscInt    nid;
  char        id_name[CHECKPOINT_MAX][64], id_value[CHECKPOINT_MAX][256], id_option[CHECKPOINT_MAX][64];
  PetscBool   kill_during_write;
  /* block geometry (CheckpointSetBlockVertices): shape, vertices [nblocks*nverts*dim] */
  RefShape   shape;
  PetscInt   dim, nverts;
  PetscReal *vertices;
  /* what a restart may project (CheckpointSetProjection) */
  char                      proj_identity[64], proj_option[64];
  PetscBool                 proj_enabled;
  CheckpointProjectFunction proj;
  void                     *proj_ctx;
};

PetscErrorCode CheckpointCreate(MPI_Comm comm, PetscInt nblocks, PetscInt block_size, const PetscReal keys[], Checkpoint *ckpt)
{
  Checkpoint c;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->comm       = comm;
  c->nblocks    = nblocks;
  c->block_size = block_size;
  PetscCallMPI(MPI_Comm_rank(comm, &c->rank));
  PetscCallMPI(MPI_Comm_size(comm, &c->size));
  PetscCall(MPIU_Allreduce(&nblocks, &c->nblocks_global, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(PetscMalloc1(nblocks * HOFLOW_CHECKPOINT_KEY, &c->keys));
  PetscCall(PetscArraycpy(c->keys, keys, nblocks * HOFLOW_CHECKPOINT_KEY));
  *ckpt = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointAddVector(Checkpoint c, const char name[], Vec v)
{
  PetscInt  n;
  Disc      disc;
  PetscBool continuous = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCheck(c->nvec < CHECKPOINT_MAX, c->comm, PETSC_ERR_ARG_SIZ, "At most %d checkpoint vectors", CHECKPOINT_MAX);
  for (PetscInt k = 0; k < c->nvec; k++) PetscCheck(strcmp(c->vec_names[k], name), c->comm, PETSC_ERR_ARG_WRONG, "Checkpoint vector %s added twice", name);
  PetscCall(DiscFromVec(v, &disc));
  if (disc) PetscCall(DiscHasPointValues(disc, &continuous));
  c->vec_field[c->nvec] = NULL;
  c->vec_disc[c->nvec]  = NULL;
  if (continuous) {
    /* a continuous field: saved as its values at each owned element's points (the elements are the blocks),
     * so it is matched by element like an element-wise field; the shared values come back exactly */
    const PetscInt *elem_point;
    PetscInt        npoints;
    PetscCheck(!c->offsets, c->comm, PETSC_ERR_SUP, "Checkpoint vector %s: a continuous field on blocks of varying width (a mesh of several element shapes) is not supported", name);
    PetscCall(DiscGetPoints(disc, &npoints, NULL, &elem_point));
    PetscCheck(npoints == c->nblocks * (c->nblocks ? elem_point[1] - elem_point[0] : 0), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Checkpoint vector %s: its discretization has %" PetscInt_FMT " points on %" PetscInt_FMT " elements, expected the same number on each", name, npoints, c->nblocks);
    c->vec_bs[c->nvec] = (c->nblocks ? elem_point[1] - elem_point[0] : 0) * disc->ncomp;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &c->vec_bs[c->nvec], 1, MPIU_INT, MPI_MAX, c->comm));
    PetscCall(VecCreateMPI(c->comm, npoints * disc->ncomp, PETSC_DETERMINE, &c->vecs[c->nvec]));
    c->vec_field[c->nvec] = v;
    c->vec_disc[c->nvec]  = disc;
  } else {
    PetscCall(VecGetLocalSize(v, &n));
    PetscCheck(n == (c->offsets ? c->offsets[c->nblocks] : c->nblocks * c->block_size), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Checkpoint vector %s has %" PetscInt_FMT " local values, expected %" PetscInt_FMT " blocks of %" PetscInt_FMT, name, n, c->nblocks, c->block_size);
    c->vec_bs[c->nvec] = c->block_size;
    c->vecs[c->nvec]   = v;
  }
  PetscCall(PetscStrncpy(c->vec_names[c->nvec], name, sizeof(c->vec_names[0])));
  c->nvec++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointAddIdentity(Checkpoint c, const char name[], const char value[], const char option[])
{
  PetscFunctionBeginUser;
  PetscCheck(c->nid < CHECKPOINT_MAX, c->comm, PETSC_ERR_ARG_SIZ, "At most %d checkpoint identity entries", CHECKPOINT_MAX);
  PetscCall(PetscStrncpy(c->id_name[c->nid], name, sizeof(c->id_name[0])));
  PetscCall(PetscStrncpy(c->id_value[c->nid], value, sizeof(c->id_value[0])));
  PetscCall(PetscStrncpy(c->id_option[c->nid], option, sizeof(c->id_option[0])));
  c->nid++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointSetBlockVertices(Checkpoint c, RefShape shape, PetscInt dim, const PetscReal vertices[])
{
  PetscFunctionBeginUser;
  PetscCheck(shape >= 0 && shape < REF_NUM_SHAPES && RefShapeTable[shape].dim == dim, c->comm, PETSC_ERR_ARG_WRONG, "Checkpoint block vertices: shape %d is not a shape of dimension %" PetscInt_FMT, (int)shape, dim);
  c->shape  = shape;
  c->dim    = dim;
  c->nverts = RefShapeTable[shape].nverts;
  PetscCall(PetscFree(c->vertices));
  PetscCall(PetscMalloc1(c->nblocks * c->nverts * dim, &c->vertices));
  PetscCall(PetscArraycpy(c->vertices, vertices, c->nblocks * c->nverts * dim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointSetBlockOffsets(Checkpoint c, const PetscInt offsets[])
{
  PetscFunctionBeginUser;
  PetscCheck(!c->nvec, c->comm, PETSC_ERR_ORDER, "CheckpointSetBlockOffsets: call it before CheckpointAddVector");
  for (PetscInt b = 0; b < c->nblocks; b++) PetscCheck(offsets[b + 1] - offsets[b] >= 0 && offsets[b + 1] - offsets[b] <= c->block_size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Checkpoint block %" PetscInt_FMT " has %" PetscInt_FMT " values, more than the block size %" PetscInt_FMT, b, offsets[b + 1] - offsets[b], c->block_size);
  PetscCall(PetscFree(c->offsets));
  PetscCall(PetscMalloc1(c->nblocks + 1, &c->offsets));
  PetscCall(PetscArraycpy(c->offsets, offsets, c->nblocks + 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointSetProjection(Checkpoint c, const char identity[], const char option[], PetscBool enabled, CheckpointProjectFunction project, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(c->proj_identity, identity, sizeof(c->proj_identity)));
  PetscCall(PetscStrncpy(c->proj_option, option, sizeof(c->proj_option)));
  c->proj_enabled = enabled;
  c->proj         = project;
  c->proj_ctx     = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointSetKillDuringWrite(Checkpoint c, PetscBool kill)
{
  PetscFunctionBeginUser;
  c->kill_during_write = kill;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointWrite(Checkpoint c, const char path[], PetscInt step, PetscReal time, PetscReal dt)
{
  char   tmp[PETSC_MAX_PATH_LEN + 8], attr[96], names[CHECKPOINT_MAX * 65] = "", *options;
  IOFile file;
  int    err = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
  PetscCall(IOFileCreate(c->comm, tmp, &file));
  PetscCall(IOFileWriteAttributeString(file, "format", "hoflow checkpoint"));
  PetscCall(IOFileWriteAttributeInt(file, "format_version", HOFLOW_CHECKPOINT_FORMAT));
  PetscCall(IOFileWriteAttributeString(file, "hoflow_version", HOFLOW_VERSION));
  PetscCall(IOFileWriteAttributeInt(file, "step", step));
  PetscCall(IOFileWriteAttributeReal(file, "time", time));
  PetscCall(IOFileWriteAttributeReal(file, "dt", dt));
  PetscCall(IOFileWriteAttributeInt(file, "ranks", c->size));
  PetscCall(IOFileWriteAttributeInt(file, "blocks", c->nblocks_global));
  PetscCall(IOFileWriteAttributeInt(file, "block_size", c->block_size));
  PetscCall(PetscOptionsGetAll(NULL, &options));
  PetscCall(IOFileWriteAttributeString(file, "options", options));
  PetscCall(PetscFree(options));
  for (PetscInt k = 0; k < c->nid; k++) {
    PetscCall(PetscSNPrintf(attr, sizeof(attr), "identity_%s", c->id_name[k]));
    PetscCall(IOFileWriteAttributeString(file, attr, c->id_value[k]));
  }
  for (PetscInt k = 0; k < c->nvec; k++) {
    if (k) PetscCall(PetscStrlcat(names, ",", sizeof(names)));
    PetscCall(PetscStrlcat(names, c->vec_names[k], sizeof(names)));
  }
  PetscCall(IOFileWriteAttributeString(file, "vectors", names));
  PetscCall(IOFileWriteRows(file, "blocks/keys", IO_DOUBLE, HOFLOW_CHECKPOINT_KEY, c->nblocks, c->keys));
  if (c->vertices) PetscCall(IOFileWriteRows(file, "blocks/vertices", IO_DOUBLE, c->nverts * c->dim, c->nblocks, c->vertices));
  if (c->offsets) {
    /* blocks of varying width: each block's width, its values padded with zeros to block_size */
    PetscInt *w;
    PetscCall(PetscMalloc1(c->nblocks, &w));
    for (PetscInt b = 0; b < c->nblocks; b++) w[b] = c->offsets[b + 1] - c->offsets[b];
    PetscCall(IOFileWriteRows(file, "blocks/widths", IO_INT, 1, c->nblocks, w));
    PetscCall(PetscFree(w));
  }
  for (PetscInt k = 0; k < c->nvec; k++) {
    const PetscScalar *a;
    char               dset[96];
    PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
    if (c->vec_field[k]) PetscCall(DiscPointValues(c->vec_disc[k], c->vec_field[k], c->vecs[k], SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(c->vecs[k], &a));
    if (c->offsets) {
      PetscScalar *pad;
      PetscCall(PetscCalloc1(c->nblocks * c->block_size, &pad));
      for (PetscInt b = 0; b < c->nblocks; b++) PetscCall(PetscArraycpy(pad + b * c->block_size, a + c->offsets[b], c->offsets[b + 1] - c->offsets[b]));
      PetscCall(IOFileWriteRows(file, dset, IO_DOUBLE, c->block_size, c->nblocks, pad));
      PetscCall(PetscFree(pad));
    } else PetscCall(IOFileWriteRows(file, dset, IO_DOUBLE, c->vec_bs[k], c->nblocks, a));
    PetscCall(VecRestoreArrayRead(c->vecs[k], &a));
  }
  if (c->kill_during_write) {
    /* testing hook: die with the data half way to disk, before the file is closed and renamed */
    PetscCallMPI(MPI_Barrier(c->comm));
    kill(getpid(), SIGKILL);
  }
  PetscCall(IOFileClose(&file));
  if (c->rank == 0) {
    /* on disk before it replaces the previous checkpoint */
    int fd = open(tmp, O_RDONLY);
    if (fd < 0 || fsync(fd)) err = 1;
    if (fd >= 0) close(fd);
    if (!err && rename(tmp, path)) err = 2;
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, c->comm));
  PetscCheck(!err, c->comm, PETSC_ERR_FILE_WRITE, "Cannot %s checkpoint '%s'", err == 1 ? "sync" : "rename the temporary file to", path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lexicographic order of keys by their first three numbers (DG: the centroid; in 3D elements stacked
 * above each other share the first two). */
#define CHECKPOINT_SORT_KEYS 3
static int CompareKeyValues(const PetscReal *ka, const PetscReal *kb)
{
  for (PetscInt j = 0; j < CHECKPOINT_SORT_KEYS; j++)
    if (ka[j] != kb[j]) return ka[j] < kb[j] ? -1 : 1;
  return 0;
}
static const PetscReal *sort_keys;
static int              CompareKeys(const void *a, const void *b)
{
  return CompareKeyValues(sort_keys + HOFLOW_CHECKPOINT_KEY * *(const PetscInt *)a, sort_keys + HOFLOW_CHECKPOINT_KEY * *(const PetscInt *)b);
}

/* position[b]: the file's block holding this rank's block b, found by the first ncompare numbers of its key
 * (HOFLOW_CHECKPOINT_KEY, or CHECKPOINT_SORT_KEYS: the centroid alone, when the file is of another order and the
 * first point depends on it, -disc fr's Gauss points). When `required`, a block that is not in the file is an
 * error naming it; otherwise *matched tells every rank whether all were found. */
static PetscErrorCode CheckpointMatchBlocks(Checkpoint c, IOFile file, const char path[], PetscBool required, PetscInt ncompare, PetscInt position[], PetscBool *matched)
{
  PetscReal *fkeys, scale = 0;
  PetscInt  *order, bad   = -1;
  PetscBool  ok;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(c->nblocks_global * HOFLOW_CHECKPOINT_KEY, &fkeys, c->nblocks_global, &order));
  PetscCall(IOFileReadRows(file, "blocks/keys", IO_DOUBLE, HOFLOW_CHECKPOINT_KEY, 0, c->nblocks_global, fkeys));
  for (PetscInt k = 0; k < c->nblocks_global; k++) order[k] = k;
  for (PetscInt k = 0; k < c->nblocks_global * HOFLOW_CHECKPOINT_KEY; k++) scale = PetscMax(scale, PetscAbsReal(fkeys[k]));
  sort_keys = fkeys;
  qsort(order, (size_t)c->nblocks_global, sizeof(PetscInt), CompareKeys);
  for (PetscInt b = 0; b < c->nblocks && bad < 0; b++) {
    const PetscReal *k  = c->keys + b * HOFLOW_CHECKPOINT_KEY;
    PetscInt         lo = 0, hi = c->nblocks_global - 1, found = -1;
    while (lo <= hi) {
      const PetscInt   mid = (lo + hi) / 2;
      const PetscReal *m   = fkeys + HOFLOW_CHECKPOINT_KEY * order[mid];
      const int        cmp = CompareKeyValues(m, k);
      if (!cmp) {
        found = order[mid];
        break;
      }
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid - 1;
    }
    if (found >= 0)
      for (PetscInt j = CHECKPOINT_SORT_KEYS; j < ncompare; j++)
        if (PetscAbsReal(fkeys[HOFLOW_CHECKPOINT_KEY * found + j] - k[j]) > 1e-12 * PetscMax(scale, 1)) found = -1;
    if (found < 0) bad = b;
    position[b] = found;
  }
  ok = bad < 0 ? PETSC_TRUE : PETSC_FALSE;
  {
    PetscMPIInt v = ok ? 1 : 0;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, c->comm));
    *matched = v ? PETSC_TRUE : PETSC_FALSE;
    if (!required) {
      PetscCall(PetscFree2(fkeys, order));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (!v && ok) {
      PetscCall(PetscFree2(fkeys, order));
      SETERRQ(c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh (-dm_plex_filename, -dm_plex_box_faces, -dm_refine): elements do not match", path);
    }
  }
  if (!ok) {
    const PetscReal *k = c->keys + bad * HOFLOW_CHECKPOINT_KEY;
    PetscCall(PetscFree2(fkeys, order));
    char z[40] = ""; /* keys are 0 beyond the dimension: a 3D centroid has z != 0 */
    if (k[2] != 0) PetscCall(PetscSNPrintf(z, sizeof(z), ", %g", (double)k[2]));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh (-dm_plex_filename, -dm_plex_box_faces, -dm_refine): this run's element with centroid (%g, %g%s) is not in it", path, (double)k[0], (double)k[1], z);
  }
  PetscCall(PetscFree2(fkeys, order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The bucket of a point in a grid of g[d] cells of size h[d] from lo[d]. */
static PetscInt BucketOf(PetscInt dim, const PetscReal x[], const PetscReal lo[], const PetscReal h[], const PetscInt g[], PetscInt axis[])
{
  PetscInt cell = 0;
  for (PetscInt d = dim - 1; d >= 0; d--) {
    PetscInt i = (PetscInt)PetscFloorReal((x[d] - lo[d]) / h[d]);
    i          = PetscMin(PetscMax(i, 0), g[d] - 1);
    if (axis) axis[d] = i;
    cell = cell * g[d] + i;
  }
  return cell;
}

/* For a mesh that refines the file's: parent[b], the file's block that contains this rank's block b,
 * and its vertices pverts[b*nverts*dim]. The parent is the file's block whose reference coordinates
 * put b's centroid deepest inside (GeomReferenceOutside), among those whose bounding box covers the
 * centroid's cell of a uniform grid of about one file block per cell; all of b's vertices must lie in
 * it (to 1e-8 in reference coordinates), so a mesh that is not a refinement is refused. */
static PetscErrorCode CheckpointLocateParents(Checkpoint c, IOFile file, const char path[], PetscInt version, PetscInt nfile, PetscInt parent[], PetscReal pverts[])
{
  const PetscInt  dim = c->dim, nvd = c->nverts * c->dim;
  const PetscReal tol  = 1e-8;
  PetscInt        rows = -1, cols = -1, g[3] = {1, 1, 1}, ncells = 1, *start, *list, bad = -1;
  PetscReal      *fv, lo[3], hi[3], h[3];
  PetscBool       ok;

  PetscFunctionBeginUser;
  PetscCheck(c->vertices, c->comm, PETSC_ERR_ORDER, "Checkpoint: a restart onto another mesh needs the block vertices (CheckpointSetBlockVertices)");
  PetscCall(IOFileGetDatasetShape(file, "blocks/vertices", &rows, &cols));
  PetscCheck(rows >= 0, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' (checkpoint format %" PetscInt_FMT ") does not record its elements' vertices, so %s cannot map it onto another mesh (it has %" PetscInt_FMT " elements, this run's mesh %" PetscInt_FMT "): restart on the mesh it was written on, or write the checkpoint again with this hoflow (format %d)", path, version, c->proj_option, nfile, c->nblocks_global, HOFLOW_CHECKPOINT_FORMAT);
  PetscCheck(rows == nfile && cols == nvd, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': dataset blocks/vertices has %" PetscInt_FMT " x %" PetscInt_FMT " values, expected %" PetscInt_FMT " x %" PetscInt_FMT " (%s elements)", path, rows, cols, nfile, nvd, RefShapes[c->shape]);
  PetscCall(PetscMalloc1(nfile * nvd, &fv));
  PetscCall(IOFileReadRows(file, "blocks/vertices", IO_DOUBLE, nvd, 0, nfile, fv));

  /* buckets: the file's blocks by the grid cells their bounding boxes cover (CSR start/list) */
  for (PetscInt d = 0; d < dim; d++) {
    lo[d] = PETSC_MAX_REAL;
    hi[d] = PETSC_MIN_REAL;
  }
  for (PetscInt k = 0; k < nfile * c->nverts; k++)
    for (PetscInt d = 0; d < dim; d++) {
      lo[d] = PetscMin(lo[d], fv[k * dim + d]);
      hi[d] = PetscMax(hi[d], fv[k * dim + d]);
    }
  for (PetscInt d = 0; d < dim; d++) {
    g[d] = PetscMax(1, (PetscInt)PetscFloorReal(PetscPowReal((PetscReal)nfile, 1.0 / dim)));
    h[d] = hi[d] > lo[d] ? (hi[d] - lo[d]) / g[d] : 1.0;
    ncells *= g[d];
  }
  PetscCall(PetscCalloc1(ncells + 1, &start));
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass) {
      for (PetscInt k = 0; k < ncells; k++) start[k + 1] += start[k];
      PetscCall(PetscMalloc1(start[ncells], &list));
    }
    for (PetscInt p = 0; p < nfile; p++) {
      PetscReal bmin[3], bmax[3];
      PetscInt  a0[3] = {0, 0, 0}, a1[3] = {0, 0, 0};
      for (PetscInt d = 0; d < dim; d++) {
        bmin[d] = PETSC_MAX_REAL;
        bmax[d] = PETSC_MIN_REAL;
        for (PetscInt v = 0; v < c->nverts; v++) {
          bmin[d] = PetscMin(bmin[d], fv[p * nvd + v * dim + d]);
          bmax[d] = PetscMax(bmax[d], fv[p * nvd + v * dim + d]);
        }
      }
      (void)BucketOf(dim, bmin, lo, h, g, a0);
      (void)BucketOf(dim, bmax, lo, h, g, a1);
      for (PetscInt k = a0[2]; k <= a1[2]; k++)
        for (PetscInt j = a0[1]; j <= a1[1]; j++)
          for (PetscInt i = a0[0]; i <= a1[0]; i++) {
            const PetscInt cell = dim == 3 ? (k * g[1] + j) * g[0] + i : dim == 2 ? j * g[0] + i
                                                                                  : i;
            if (pass)
              list[start[cell]++] = p;
            else
              start[cell + 1]++;
          }
    }
  }
  for (PetscInt k = ncells; k > 0; k--) start[k] = start[k - 1]; /* the fill advanced each start to the next's */
  start[0] = 0;

  for (PetscInt b = 0; b < c->nblocks && bad < 0; b++) {
    const PetscReal *x    = c->keys + b * HOFLOW_CHECKPOINT_KEY; /* the centroid */
    const PetscInt   cell = BucketOf(dim, x, lo, h, g, NULL);
    PetscReal        best = PETSC_MAX_REAL, xi[3];
    PetscInt         p    = -1;
    for (PetscInt k = start[cell]; k < start[cell + 1]; k++) {
      PetscReal out;
      GeomAffineInverseMap(c->shape, (int)dim, fv + list[k] * nvd, x, xi);
      out = GeomReferenceOutside(c->shape, xi);
      if (out < best) {
        best = out;
        p    = list[k];
      }
    }
    if (p < 0 || best > tol) {
      bad = b;
      break;
    }
    for (PetscInt v = 0; v < c->nverts; v++) {
      GeomAffineInverseMap(c->shape, (int)dim, fv + p * nvd, c->vertices + b * nvd + v * dim, xi);
      if (GeomReferenceOutside(c->shape, xi) > tol) bad = b;
    }
    parent[b] = p;
    PetscCall(PetscArraycpy(pverts + b * nvd, fv + p * nvd, nvd));
  }
  PetscCall(PetscFree(start));
  PetscCall(PetscFree(list));
  PetscCall(PetscFree(fv));
  ok = bad < 0 ? PETSC_TRUE : PETSC_FALSE;
  {
    PetscMPIInt v = ok ? 1 : 0;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, c->comm));
    PetscCheck(v || !ok, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from another mesh: elements of this run's mesh do not lie inside its elements; %s maps a checkpoint onto the mesh it was written on, or that mesh refined (-dm_refine), not onto another mesh", path, c->proj_option);
  }
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from another mesh: this run's element with centroid (%g, %g) does not lie inside one of its elements; %s maps a checkpoint onto the mesh it was written on, or that mesh refined (-dm_refine), not onto another or a coarser mesh", path, (double)c->keys[bad * HOFLOW_CHECKPOINT_KEY], (double)c->keys[bad * HOFLOW_CHECKPOINT_KEY + 1], c->proj_option);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A scatter from the file's blocks (each rank an even share, read into fvec) to this rank's blocks:
 * local block b gets the file's block position[b], of bs values. */
static PetscErrorCode CheckpointCreateScatter(Checkpoint c, PetscInt nfile, PetscInt bs, const PetscInt position[], Vec to, Vec *fvec, PetscInt *start, PetscInt *nread, VecScatter *scatter)
{
  PetscInt *idx;
  IS        from;

  PetscFunctionBeginUser;
  *nread = nfile / c->size + (c->rank < nfile % c->size ? 1 : 0);
  *start = 0;
  PetscCallMPI(MPI_Exscan(nread, start, 1, MPIU_INT, MPI_SUM, c->comm));
  if (c->rank == 0) *start = 0;
  PetscCall(VecCreateMPI(c->comm, *nread * bs, PETSC_DETERMINE, fvec));
  PetscCall(PetscMalloc1(c->nblocks * bs, &idx));
  for (PetscInt b = 0; b < c->nblocks; b++)
    for (PetscInt i = 0; i < bs; i++) idx[b * bs + i] = position[b] * bs + i;
  PetscCall(ISCreateGeneral(c->comm, c->nblocks * bs, idx, PETSC_OWN_POINTER, &from));
  PetscCall(VecScatterCreate(*fvec, from, to, NULL, scatter));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On the same mesh, the matched blocks' vertices in the file against this run's: a mesh distributed
 * another way may list an element's vertices in another order (a DMPlex box's cells after
 * distribution), and then its nodes are in another order too. *reordered tells every rank whether any
 * block differs; pverts[b*nverts*dim] are then the file block's vertices, to map its values by. */
static PetscErrorCode CheckpointCheckVertexOrder(Checkpoint c, IOFile file, PetscInt nfile, const PetscInt position[], PetscReal **pverts, PetscBool *reordered)
{
  const PetscInt nvd = c->nverts * c->dim;
  PetscInt       rows = -1, cols = -1;
  PetscReal     *fv;
  PetscMPIInt    any = 0;

  PetscFunctionBeginUser;
  *reordered = PETSC_FALSE;
  *pverts    = NULL;
  if (!c->vertices) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(IOFileGetDatasetShape(file, "blocks/vertices", &rows, &cols));
  if (rows != nfile || cols != nvd) PetscFunctionReturn(PETSC_SUCCESS); /* format 2: no vertices to compare */
  PetscCall(PetscMalloc1(nfile * nvd, &fv));
  PetscCall(IOFileReadRows(file, "blocks/vertices", IO_DOUBLE, nvd, 0, nfile, fv));
  for (PetscInt b = 0; b < c->nblocks && !any; b++)
    for (PetscInt k = 0; k < nvd; k++)
      if (fv[position[b] * nvd + k] != c->vertices[b * nvd + k]) any = 1;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, c->comm));
  if (any) {
    PetscCall(PetscMalloc1(c->nblocks * nvd, pverts));
    for (PetscInt b = 0; b < c->nblocks; b++) PetscCall(PetscArraycpy(*pverts + b * nvd, fv + position[b] * nvd, nvd));
    *reordered = PETSC_TRUE;
  }
  PetscCall(PetscFree(fv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* width[b]: the file's width of this rank's block b (the file's block position[b]; blocks/widths) */
static PetscErrorCode CheckpointReadWidths(Checkpoint c, IOFile file, const char path[], PetscInt nfile, const PetscInt position[], PetscInt width[])
{
  PetscInt *fw, rows = -1, cols = -1;

  PetscFunctionBeginUser;
  PetscCall(IOFileGetDatasetShape(file, "blocks/widths", &rows, &cols));
  PetscCheck(rows == nfile && cols == 1, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' does not record its elements' widths (blocks/widths): it was written on a mesh of one element shape, this run's mesh mixes shapes", path);
  PetscCall(PetscMalloc1(nfile, &fw));
  PetscCall(IOFileReadRows(file, "blocks/widths", IO_INT, 1, 0, nfile, fw));
  for (PetscInt b = 0; b < c->nblocks; b++) width[b] = fw[position[b]];
  PetscCall(PetscFree(fw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Blocks of varying width, matched by key (position): every block's width checked against the file's,
 * the padded rows gathered and unpacked into this run's vectors, so the restart continues exactly. */
static PetscErrorCode CheckpointReadVarying(Checkpoint c, IOFile file, const char path[], PetscInt nfile, const PetscInt position[])
{
  PetscInt  *fw, rows = -1, cols = -1, bad = -1, start, nread;
  Vec        local, fvec;
  VecScatter scatter;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(c->nblocks, &fw));
  PetscCall(CheckpointReadWidths(c, file, path, nfile, position, fw));
  for (PetscInt b = 0; b < c->nblocks && bad < 0; b++)
    if (fw[b] != c->offsets[b + 1] - c->offsets[b]) bad = b;
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': its element with centroid (%g, %g, %g) has %" PetscInt_FMT " values, this run's %" PetscInt_FMT " (another shape or order)", path, (double)c->keys[bad * HOFLOW_CHECKPOINT_KEY], (double)c->keys[bad * HOFLOW_CHECKPOINT_KEY + 1], (double)c->keys[bad * HOFLOW_CHECKPOINT_KEY + 2], fw[bad], c->offsets[bad + 1] - c->offsets[bad]);
  PetscCall(PetscFree(fw));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, c->nblocks * c->block_size, &local));
  PetscCall(CheckpointCreateScatter(c, nfile, c->block_size, position, local, &fvec, &start, &nread, &scatter));
  for (PetscInt k = 0; k < c->nvec; k++) {
    PetscScalar       *a;
    const PetscScalar *l;
    char               dset[96];
    PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
    PetscCall(IOFileGetDatasetShape(file, dset, &rows, &cols));
    PetscCheck(rows == nfile && cols == c->block_size, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': vector %s has %" PetscInt_FMT " x %" PetscInt_FMT " values, expected %" PetscInt_FMT " x %" PetscInt_FMT, path, c->vec_names[k], rows, cols, nfile, c->block_size);
    PetscCall(VecGetArrayWrite(fvec, &a));
    PetscCall(IOFileReadRows(file, dset, IO_DOUBLE, c->block_size, start, nread, a));
    PetscCall(VecRestoreArrayWrite(fvec, &a));
    PetscCall(VecScatterBegin(scatter, fvec, local, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(scatter, fvec, local, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(local, &l));
    PetscCall(VecGetArrayWrite(c->vecs[k], &a));
    for (PetscInt b = 0; b < c->nblocks; b++) PetscCall(PetscArraycpy(a + c->offsets[b], l + b * c->block_size, c->offsets[b + 1] - c->offsets[b]));
    PetscCall(VecRestoreArrayWrite(c->vecs[k], &a));
    PetscCall(VecRestoreArrayRead(local, &l));
  }
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(VecDestroy(&fvec));
  PetscCall(VecDestroy(&local));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointRead(Checkpoint c, const char path[], PetscInt *step, PetscReal *time, PetscReal *dt)
{
  IOFile     file;
  char       value[256], attr[96], names[CHECKPOINT_MAX * 65], file_value[256] = "", run_value[256] = "";
  PetscInt   version, blocks, block_size, *position, start, nread, *widths = NULL;
  PetscBool  found, differs = PETSC_FALSE, same_mesh, project, reordered = PETSC_FALSE;
  Vec        fvec    = NULL;
  VecScatter scatter = NULL;
  PetscReal *pverts  = NULL;

  PetscFunctionBeginUser;
  PetscCall(IOFileOpen(c->comm, path, "-restart", &file));
  PetscCall(IOFileReadAttributeString(file, "format", value, sizeof(value), &found));
  PetscCheck(found && !strcmp(value, "hoflow checkpoint"), c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' (from -restart) is an HDF5 file but not a hoflow checkpoint", path);
  PetscCall(IOFileReadAttributeInt(file, "format_version", &version, NULL));
  PetscCheck(version == 2 || version == HOFLOW_CHECKPOINT_FORMAT, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has checkpoint format %" PetscInt_FMT "; this hoflow reads formats 2 and %d", path, version, HOFLOW_CHECKPOINT_FORMAT);
  for (PetscInt k = 0; k < c->nid; k++) {
    const PetscBool projectable = c->proj && !strcmp(c->id_name[k], c->proj_identity) ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscSNPrintf(attr, sizeof(attr), "identity_%s", c->id_name[k]));
    PetscCall(IOFileReadAttributeString(file, attr, value, sizeof(value), &found));
    PetscCheck(found, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' does not record the %s it was written for", path, c->id_name[k]);
    if (projectable) {
      PetscCall(PetscStrncpy(file_value, value, sizeof(file_value)));
      PetscCall(PetscStrncpy(run_value, c->id_value[k], sizeof(run_value)));
      if (strcmp(value, c->id_value[k])) {
        PetscCheck(c->proj_enabled, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' was written for %s %s, but this run has %s %s (%s); add %s to project the checkpoint onto this %s", path, c->id_name[k], value, c->id_name[k], c->id_value[k], c->id_option[k], c->proj_option, c->id_name[k]);
        differs = PETSC_TRUE;
      }
      continue;
    }
    PetscCheck(!strcmp(value, c->id_value[k]), c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' was written for %s %s, but this run has %s %s (%s)", path, c->id_name[k], value, c->id_name[k], c->id_value[k], c->id_option[k]);
  }
  project = c->proj && c->proj_enabled ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(IOFileReadAttributeInt(file, "blocks", &blocks, NULL));
  PetscCall(IOFileReadAttributeInt(file, "block_size", &block_size, NULL));
  PetscCheck(blocks == c->nblocks_global || project, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh: it has %" PetscInt_FMT " elements, this run's mesh has %" PetscInt_FMT " (-dm_plex_filename, -dm_plex_box_faces, -dm_refine)%s%s%s", path, blocks, c->nblocks_global,
             c->proj && blocks < c->nblocks_global ? "; if this mesh is the checkpoint's refined, add " : "", c->proj && blocks < c->nblocks_global ? c->proj_option : "", c->proj && blocks < c->nblocks_global ? " to project the checkpoint onto it" : "");
  PetscCheck(blocks > 0, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has no elements", path);
  PetscCheck(block_size == c->block_size || differs, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has %" PetscInt_FMT " values per element, this run %" PetscInt_FMT, path, block_size, c->block_size);
  PetscCall(IOFileReadAttributeString(file, "vectors", names, sizeof(names), NULL));
  {
    /* exactly the vectors this run restores: a history the integrator does not use, or one it
     * needs and the file lacks, means the run would not continue exactly */
    char list[CHECKPOINT_MAX * 65], *tok;
    PetscCall(PetscStrncpy(list, names, sizeof(list)));
    for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
      PetscBool used = PETSC_FALSE;
      for (PetscInt k = 0; k < c->nvec; k++) used = used || !strcmp(tok, c->vec_names[k]);
      PetscCheck(used, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' holds vector %s (of a time integrator's history) that this run does not use: restart with the -ts_type it was written with", path, tok);
    }
    for (PetscInt k = 0; k < c->nvec; k++) {
      PetscBool present = PETSC_FALSE;
      PetscCall(PetscStrncpy(list, names, sizeof(list)));
      for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) present = present || !strcmp(tok, c->vec_names[k]);
      PetscCheck(present, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has no vector %s, which this run's time integrator needs: restart with the -ts_type it was written with", path, c->vec_names[k]);
    }
  }

  /* this rank's blocks in the file: the same elements by key, or (projecting) the elements they lie in; on a mesh
   * of several shapes (blocks of varying width) the same elements only, their vertices listed in the same order */
  PetscCall(PetscMalloc1(c->nblocks, &position));
  same_mesh = blocks == c->nblocks_global ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(same_mesh || !c->offsets, c->comm, PETSC_ERR_SUP, "Restart file '%s' has %" PetscInt_FMT " elements, this run's mesh %" PetscInt_FMT ": %s maps a checkpoint onto the mesh it refines only on a mesh of one element shape; this mesh mixes shapes: restart on the checkpoint's mesh (at any order), or refine the mesh file itself and start afresh", path, blocks, c->nblocks_global, c->proj_option);
  if (same_mesh) PetscCall(CheckpointMatchBlocks(c, file, path, project && !c->offsets ? PETSC_FALSE : PETSC_TRUE, differs ? CHECKPOINT_SORT_KEYS : HOFLOW_CHECKPOINT_KEY, position, &same_mesh));
  if (same_mesh && c->proj) PetscCall(CheckpointCheckVertexOrder(c, file, blocks, position, &pverts, &reordered));
  PetscCheck(!reordered || !c->offsets, c->comm, PETSC_ERR_SUP, "Restart file '%s' lists the vertices of some elements in another order than this run (the mesh was distributed another way); on a mesh of several element shapes a checkpoint is read only onto its elements as they were listed: restart with the number of ranks it was written with", path);
  if (!same_mesh) {
    PetscCall(PetscMalloc1(c->nblocks * c->nverts * c->dim, &pverts));
    PetscCall(CheckpointLocateParents(c, file, path, version, blocks, position, pverts));
  }

  if (!differs && same_mesh && !reordered && c->offsets) {
    /* blocks of varying width (several element shapes): read exactly, each block as wide as the file's */
    PetscCall(CheckpointReadVarying(c, file, path, blocks, position));
  } else if (!differs && same_mesh && !reordered) {
    /* the same discretization: the file's values as they are, so a restart continues exactly */
    for (PetscInt k = 0; k < c->nvec; k++) {
      PetscScalar *a;
      char         dset[96];
      if (!k || c->vec_bs[k] != c->vec_bs[k - 1]) { /* a scatter for each block size in turn */
        if (k) {
          PetscCall(VecScatterDestroy(&scatter));
          PetscCall(VecDestroy(&fvec));
        }
        PetscCall(CheckpointCreateScatter(c, blocks, c->vec_bs[k], position, c->vecs[k], &fvec, &start, &nread, &scatter));
      }
      PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
      PetscCall(VecGetArrayWrite(fvec, &a));
      PetscCall(IOFileReadRows(file, dset, IO_DOUBLE, c->vec_bs[k], start, nread, a));
      PetscCall(VecRestoreArrayWrite(fvec, &a));
      PetscCall(VecScatterBegin(scatter, fvec, c->vecs[k], INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(scatter, fvec, c->vecs[k], INSERT_VALUES, SCATTER_FORWARD));
      if (c->vec_field[k]) PetscCall(DiscPointValues(c->vec_disc[k], c->vec_field[k], c->vecs[k], SCATTER_REVERSE));
    }
  } else {
    /* another order or a refined mesh: each block's source block gathered, then projected: the element-wise
     * vectors by the caller, the continuous fields by their discretization (each of its own width) */
    PetscReal  *in[CHECKPOINT_MAX], *din[CHECKPOINT_MAX];
    PetscInt    width[CHECKPOINT_MAX], nd = 0;
    Vec         local = NULL, dvecs[CHECKPOINT_MAX];
    for (PetscInt k = 0; k < c->nvec; k++) {
      PetscScalar       *a;
      const PetscScalar *l;
      char               dset[96];
      PetscInt           rows = -1;
      PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
      width[k] = block_size;
      if (c->vec_field[k]) {
        PetscCall(IOFileGetDatasetShape(file, dset, &rows, &width[k]));
        PetscCheck(rows == blocks, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': vector %s has %" PetscInt_FMT " rows, expected one per element (%" PetscInt_FMT ")", path, c->vec_names[k], rows, blocks);
      }
      if (!k || width[k] != width[k - 1]) {
        if (k) {
          PetscCall(VecScatterDestroy(&scatter));
          PetscCall(VecDestroy(&fvec));
          PetscCall(VecDestroy(&local));
        }
        PetscCall(VecCreateSeq(PETSC_COMM_SELF, c->nblocks * width[k], &local));
        PetscCall(CheckpointCreateScatter(c, blocks, width[k], position, local, &fvec, &start, &nread, &scatter));
      }
      PetscCall(VecGetArrayWrite(fvec, &a));
      PetscCall(IOFileReadRows(file, dset, IO_DOUBLE, width[k], start, nread, a));
      PetscCall(VecRestoreArrayWrite(fvec, &a));
      PetscCall(VecScatterBegin(scatter, fvec, local, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(scatter, fvec, local, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(PetscMalloc1(c->nblocks * width[k], &in[k]));
      PetscCall(VecGetArrayRead(local, &l));
      PetscCall(PetscArraycpy(in[k], l, c->nblocks * width[k]));
      PetscCall(VecRestoreArrayRead(local, &l));
      if (!c->vec_field[k]) {
        din[nd]     = in[k];
        dvecs[nd++] = c->vecs[k];
      }
    }
    PetscCall(VecDestroy(&local));
    if (c->offsets) { /* several shapes: each block as wide as the file's, the blocks one after another */
      PetscCall(PetscMalloc1(c->nblocks, &widths));
      PetscCall(CheckpointReadWidths(c, file, path, blocks, position, widths));
      for (PetscInt k = 0; k < c->nvec; k++)
        for (PetscInt b = 0, off = 0; b < c->nblocks; off += widths[b], b++) {
          PetscCheck(widths[b] >= 0 && widths[b] <= block_size, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': an element of %" PetscInt_FMT " values, more than its rows' %" PetscInt_FMT, path, widths[b], block_size);
          PetscCall(PetscArraymove(in[k] + off, in[k] + b * block_size, widths[b]));
        }
    }
    if (!differs && reordered) PetscCall(PetscPrintf(c->comm, "restart: %s lists the vertices of some elements in another order (the mesh was distributed another way); their values are mapped onto this run's nodes (exact up to round-off)\n", path));
    else PetscCall(PetscPrintf(c->comm, "restart: %s has %s %s on %" PetscInt_FMT " elements; its %" PetscInt_FMT " vectors (state and history) projected onto %s %s on %" PetscInt_FMT " elements%s (%s)\n", path, c->proj_identity, file_value, blocks, c->nvec, c->proj_identity, run_value, c->nblocks_global, same_mesh ? "" : " (the checkpoint's mesh refined)", c->proj_option));
    if (nd) PetscCall(c->proj(c->proj_ctx, path, file_value, block_size, widths, pverts, nd, (const PetscReal *const *)din, dvecs));
    for (PetscInt k = 0; k < c->nvec; k++) {
      if (c->vec_field[k]) { /* the file's order of this field from its points per element, (Ns + 1)^dim */
        const PetscInt  nc = c->vec_disc[k]->ncomp, dim = c->vec_disc[k]->mesh->dim;
        const PetscReal n1 = PetscPowReal((PetscReal)(width[k] / nc), 1.0 / dim);
        const PetscInt  Ns = (PetscInt)PetscFloorReal(n1 + 0.5) - 1;
        PetscInt        npe = nc;
        for (PetscInt d = 0; d < dim; d++) npe *= Ns + 1;
        PetscCheck(Ns >= 1 && npe == width[k], c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s': vector %s has %" PetscInt_FMT " values per element, no order of a %" PetscInt_FMT "-component field in %" PetscInt_FMT "D", path, c->vec_names[k], width[k], nc, dim);
        PetscCall(DiscProjectElements(c->vec_disc[k], Ns, pverts, 1, (const PetscReal *const *)&in[k], &c->vec_field[k]));
      }
      PetscCall(PetscFree(in[k]));
    }
  }
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(VecDestroy(&fvec));
  PetscCall(PetscFree(position));
  PetscCall(PetscFree(pverts));
  PetscCall(PetscFree(widths));
  PetscCall(IOFileReadAttributeInt(file, "step", step, NULL));
  PetscCall(IOFileReadAttributeReal(file, "time", time, NULL));
  PetscCall(IOFileReadAttributeReal(file, "dt", dt, NULL));
  PetscCall(IOFileClose(&file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointDestroy(Checkpoint *c)
{
  PetscFunctionBeginUser;
  if (!*c) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < (*c)->nvec; k++)
    if ((*c)->vec_field[k]) PetscCall(VecDestroy(&(*c)->vecs[k]));
  PetscCall(PetscFree((*c)->keys));
  PetscCall(PetscFree((*c)->offsets));
  PetscCall(PetscFree((*c)->vertices));
  PetscCall(PetscFree(*c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointCreateDisc(Disc disc, const char option[], Checkpoint *ckpt)
{
  Mesh            *mesh = disc->mesh;
  const PetscInt   K = mesh->K, dim = mesh->dim;
  const PetscReal *x;
  const PetscInt  *elem_point;
  PetscInt         npoints, nv = 0, width = 0, present = 0, nshapes = 0;
  PetscReal       *keys, *verts;
  RefShape         shape = REF_NUM_SHAPES;
  char             order[16], shapes[128] = "";
  MPI_Comm         comm = PetscObjectComm((PetscObject)disc->dm);

  PetscFunctionBeginUser;
  /* the shapes present on any rank: one (a block per element of one width) or several (each element
   * its own width, CheckpointSetBlockOffsets; its vertices padded to the most of any shape's) */
  for (PetscInt b = 0; b < mesh->nblocks; b++)
    if (mesh->blocks[b].end > mesh->blocks[b].start) present |= 1 << mesh->blocks[b].shape;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &present, 1, MPIU_INT, MPI_BOR, comm));
  for (int s = 0; s < REF_NUM_SHAPES; s++)
    if (present & (1 << s)) {
      if (shape == REF_NUM_SHAPES) shape = (RefShape)s;
      nv = PetscMax(nv, RefShapeTable[s].nverts);
      if (nshapes++) PetscCall(PetscStrlcat(shapes, "+", sizeof(shapes)));
      PetscCall(PetscStrlcat(shapes, RefShapes[s], sizeof(shapes)));
    }
  PetscCheck(nshapes, comm, PETSC_ERR_ARG_WRONG, "%s: the mesh %s has no elements", option, mesh->source);
  /* element keys: centroid and first point, to match elements across partitions */
  PetscCall(DiscGetPoints(disc, &npoints, &x, &elem_point));
  for (PetscInt e = 0; e < K; e++) width = PetscMax(width, elem_point[e + 1] - elem_point[e]);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &width, 1, MPIU_INT, MPI_MAX, comm));
  PetscCall(PetscCalloc1(K * HOFLOW_CHECKPOINT_KEY, &keys));
  PetscCall(PetscCalloc1(K * nv * dim, &verts));
  for (PetscInt e = 0; e < K; e++) {
    PetscReal c[3];
    MeshElementCentroid(mesh, e, c);
    for (PetscInt d = 0; d < dim; d++) {
      keys[e * HOFLOW_CHECKPOINT_KEY + d]     = c[d];
      keys[e * HOFLOW_CHECKPOINT_KEY + 3 + d] = x[elem_point[e] * dim + d];
    }
    PetscCall(PetscArraycpy(verts + e * nv * dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, mesh->blocks[mesh->elem_block[e]].nverts * dim));
  }
  PetscCall(CheckpointCreate(comm, K, width, keys, ckpt));
  if (nshapes > 1) {
    PetscInt *offsets;
    PetscCall(PetscMalloc1(K + 1, &offsets));
    for (PetscInt e = 0; e <= K; e++) offsets[e] = elem_point[e] - elem_point[0];
    PetscCall(CheckpointSetBlockOffsets(*ckpt, offsets));
    PetscCall(PetscFree(offsets));
    /* the vertices, compared on restart: a projection maps several shapes at another order on the same elements only */
    (*ckpt)->shape    = shape;
    (*ckpt)->dim      = dim;
    (*ckpt)->nverts   = nv;
    (*ckpt)->vertices = verts;
    verts             = NULL;
  } else PetscCall(CheckpointSetBlockVertices(*ckpt, shape, dim, verts));
  PetscCall(PetscFree(keys));
  PetscCall(PetscFree(verts));
  PetscCall(PetscSNPrintf(order, sizeof(order), "%" PetscInt_FMT, disc->order));
  PetscCall(CheckpointAddIdentity(*ckpt, "disc", disc->type, "-disc"));
  PetscCall(CheckpointAddIdentity(*ckpt, "shape", shapes, "-dm_plex_filename or -dm_plex_box_faces"));
  PetscCall(CheckpointAddIdentity(*ckpt, "order", order, "-order"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file's order from its identity entry, each element's width in the file checked against that order's on the
 * element's own shape (widths NULL: every element file_block_size wide), then the discretization's projection of every
 * vector. */
static PetscErrorCode CheckpointDiscProject(void *ctx, const char path[], const char file_order[], PetscInt file_block_size, const PetscInt widths[], const PetscReal parent_vertices[], PetscInt nvec, const PetscReal *const in[], Vec out[])
{
  Disc            disc = (Disc)ctx;
  const Mesh     *mesh = disc->mesh;
  MPI_Comm        comm = PetscObjectComm((PetscObject)disc->dm);
  char           *end;
  const long      N = strtol(file_order, &end, 10);
  const PetscInt *elem_point;
  PetscInt        npoints, bad = -1, expected = 0, got = 0;

  PetscFunctionBeginUser;
  PetscCall(DiscGetPoints(disc, &npoints, NULL, &elem_point));
  PetscCheck(*file_order && !*end && N >= 1 && N <= HOFLOW_NMAX, comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' records order '%s'; a projection reads orders 1..%d", path, file_order, HOFLOW_NMAX);
  for (PetscInt e = 0; e < mesh->K && bad < 0; e++) {
    const RefShape shape    = MeshElementShape(mesh, e);
    const PetscInt per_node = (elem_point[e + 1] - elem_point[e]) / RefShapeNumNodes(shape, (int)disc->order); /* values per node or mode: 1 (nodal DG), the components (FR, modal DG) */
    expected                = per_node * RefShapeNumNodes(shape, (int)N);
    got                     = widths ? widths[e] : file_block_size;
    if (got != expected) bad = e;
  }
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has %" PetscInt_FMT " values for element %" PetscInt_FMT " (cell %" PetscInt_FMT ", a %s); an order-%ld %s has %" PetscInt_FMT, path, got, bad, mesh->elem_cell[PetscMax(bad, 0)], RefShapes[MeshElementShape(mesh, PetscMax(bad, 0))], N, RefShapes[MeshElementShape(mesh, PetscMax(bad, 0))], expected);
  PetscCall(DiscProjectElements(disc, (PetscInt)N, parent_vertices, nvec, in, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointSetDiscProjection(Checkpoint c, Disc disc, const char option[], PetscBool enabled)
{
  PetscFunctionBeginUser;
  PetscCall(CheckpointSetProjection(c, "order", option, enabled, CheckpointDiscProject, disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
