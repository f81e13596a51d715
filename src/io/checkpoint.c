/* Exact checkpoint/restart. One HDF5 file holds everything a run needs to continue: the state and
 * any history vectors, time, step, dt, the identity of the run (problem, discretization, order,
 * ...), the options used and the hoflow version. It is written to <file>.tmp and renamed, so a run
 * killed while writing leaves the previous checkpoint intact.
 *
 * Vectors are stored block by block (DG: element by element) in the writer's order, each block
 * with a key (DG: centroid and first node). A restart matches its own blocks to the file's by
 * key, so the same number of ranks reads back exactly the same numbers (bitwise) and another
 * number of ranks reads the same values into its own layout. */
#define _POSIX_C_SOURCE 200809L
#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

#define CHECKPOINT_MAX 16

struct _n_Checkpoint {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscInt    nblocks, nblocks_global, block_size;
  PetscReal  *keys; /* [nblocks*HOFLOW_CHECKPOINT_KEY] */
  PetscInt    nvec;
  char        vec_names[CHECKPOINT_MAX][64];
  Vec         vecs[CHECKPOINT_MAX];
  PetscInt    nid;
  char        id_name[CHECKPOINT_MAX][64], id_value[CHECKPOINT_MAX][256], id_option[CHECKPOINT_MAX][64];
  PetscBool   kill_during_write;
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
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCheck(c->nvec < CHECKPOINT_MAX, c->comm, PETSC_ERR_ARG_SIZ, "At most %d checkpoint vectors", CHECKPOINT_MAX);
  PetscCall(VecGetLocalSize(v, &n));
  PetscCheck(n == c->nblocks * c->block_size, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Checkpoint vector %s has %" PetscInt_FMT " local values, expected %" PetscInt_FMT " blocks of %" PetscInt_FMT, name, n, c->nblocks, c->block_size);
  for (PetscInt k = 0; k < c->nvec; k++) PetscCheck(strcmp(c->vec_names[k], name), c->comm, PETSC_ERR_ARG_WRONG, "Checkpoint vector %s added twice", name);
  PetscCall(PetscStrncpy(c->vec_names[c->nvec], name, sizeof(c->vec_names[0])));
  c->vecs[c->nvec++] = v;
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
  for (PetscInt k = 0; k < c->nvec; k++) {
    const PetscScalar *a;
    char               dset[96];
    PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
    PetscCall(VecGetArrayRead(c->vecs[k], &a));
    PetscCall(IOFileWriteRows(file, dset, IO_DOUBLE, c->block_size, c->nblocks, a));
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

/* Lexicographic order of keys by their first two numbers (DG: the centroid). */
static const PetscReal *sort_keys;
static int              CompareKeys(const void *a, const void *b)
{
  const PetscReal *ka = sort_keys + HOFLOW_CHECKPOINT_KEY * *(const PetscInt *)a, *kb = sort_keys + HOFLOW_CHECKPOINT_KEY * *(const PetscInt *)b;
  if (ka[0] != kb[0]) return ka[0] < kb[0] ? -1 : 1;
  if (ka[1] != kb[1]) return ka[1] < kb[1] ? -1 : 1;
  return 0;
}

/* position[b]: the file's block holding this rank's block b, found by key. */
static PetscErrorCode CheckpointMatchBlocks(Checkpoint c, IOFile file, const char path[], PetscInt position[])
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
      if (m[0] == k[0] && m[1] == k[1]) {
        found = order[mid];
        break;
      }
      if (m[0] < k[0] || (m[0] == k[0] && m[1] < k[1]))
        lo = mid + 1;
      else
        hi = mid - 1;
    }
    if (found >= 0)
      for (PetscInt j = 2; j < HOFLOW_CHECKPOINT_KEY; j++)
        if (PetscAbsReal(fkeys[HOFLOW_CHECKPOINT_KEY * found + j] - k[j]) > 1e-12 * PetscMax(scale, 1)) found = -1;
    if (found < 0) bad = b;
    position[b] = found;
  }
  ok = bad < 0 ? PETSC_TRUE : PETSC_FALSE;
  {
    PetscMPIInt v = ok ? 1 : 0;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, c->comm));
    if (!v && ok) {
      PetscCall(PetscFree2(fkeys, order));
      SETERRQ(c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh (-dm_plex_filename, -dm_plex_box_faces, -dm_refine): elements do not match", path);
    }
  }
  if (!ok) {
    const PetscReal *k = c->keys + bad * HOFLOW_CHECKPOINT_KEY;
    PetscCall(PetscFree2(fkeys, order));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh (-dm_plex_filename, -dm_plex_box_faces, -dm_refine): this run's element with centroid (%g, %g) is not in it", path, (double)k[0], (double)k[1]);
  }
  PetscCall(PetscFree2(fkeys, order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CheckpointRead(Checkpoint c, const char path[], PetscInt *step, PetscReal *time, PetscReal *dt)
{
  IOFile     file;
  char       value[256], attr[96], names[CHECKPOINT_MAX * 65];
  PetscInt   version, blocks, block_size, *position, start, nread;
  PetscBool  found;
  Vec        fvec;
  IS         from;
  VecScatter scatter;

  PetscFunctionBeginUser;
  PetscCall(IOFileOpen(c->comm, path, "-restart", &file));
  PetscCall(IOFileReadAttributeString(file, "format", value, sizeof(value), &found));
  PetscCheck(found && !strcmp(value, "hoflow checkpoint"), c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' (from -restart) is an HDF5 file but not a hoflow checkpoint", path);
  PetscCall(IOFileReadAttributeInt(file, "format_version", &version, NULL));
  PetscCheck(version == HOFLOW_CHECKPOINT_FORMAT, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has checkpoint format %" PetscInt_FMT "; this hoflow reads format %d", path, version, HOFLOW_CHECKPOINT_FORMAT);
  for (PetscInt k = 0; k < c->nid; k++) {
    PetscCall(PetscSNPrintf(attr, sizeof(attr), "identity_%s", c->id_name[k]));
    PetscCall(IOFileReadAttributeString(file, attr, value, sizeof(value), &found));
    PetscCheck(found, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' does not record the %s it was written for", path, c->id_name[k]);
    PetscCheck(!strcmp(value, c->id_value[k]), c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' was written for %s %s, but this run has %s %s (%s)", path, c->id_name[k], value, c->id_name[k], c->id_value[k], c->id_option[k]);
  }
  PetscCall(IOFileReadAttributeInt(file, "blocks", &blocks, NULL));
  PetscCall(IOFileReadAttributeInt(file, "block_size", &block_size, NULL));
  PetscCheck(blocks == c->nblocks_global, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' is from a different mesh: it has %" PetscInt_FMT " elements, this run's mesh has %" PetscInt_FMT " (-dm_plex_filename, -dm_plex_box_faces, -dm_refine)", path, blocks, c->nblocks_global);
  PetscCheck(block_size == c->block_size, c->comm, PETSC_ERR_FILE_UNEXPECTED, "Restart file '%s' has %" PetscInt_FMT " values per element, this run %" PetscInt_FMT, path, block_size, c->block_size);
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

  PetscCall(PetscMalloc1(c->nblocks, &position));
  PetscCall(CheckpointMatchBlocks(c, file, path, position));
  /* each rank reads an even share of the file's blocks, then a scatter moves them to their owners */
  nread = c->nblocks_global / c->size + (c->rank < c->nblocks_global % c->size ? 1 : 0);
  start = 0;
  PetscCallMPI(MPI_Exscan(&nread, &start, 1, MPIU_INT, MPI_SUM, c->comm));
  if (c->rank == 0) start = 0;
  PetscCall(VecCreateMPI(c->comm, nread * c->block_size, PETSC_DETERMINE, &fvec));
  {
    PetscInt *idx;
    PetscCall(PetscMalloc1(c->nblocks * c->block_size, &idx));
    for (PetscInt b = 0; b < c->nblocks; b++)
      for (PetscInt i = 0; i < c->block_size; i++) idx[b * c->block_size + i] = position[b] * c->block_size + i;
    PetscCall(ISCreateGeneral(c->comm, c->nblocks * c->block_size, idx, PETSC_OWN_POINTER, &from));
  }
  PetscCall(VecScatterCreate(fvec, from, c->vecs[0], NULL, &scatter));
  for (PetscInt k = 0; k < c->nvec; k++) {
    PetscScalar *a;
    char         dset[96];
    PetscCall(PetscSNPrintf(dset, sizeof(dset), "vectors/%s", c->vec_names[k]));
    PetscCall(VecGetArrayWrite(fvec, &a));
    PetscCall(IOFileReadRows(file, dset, IO_DOUBLE, c->block_size, start, nread, a));
    PetscCall(VecRestoreArrayWrite(fvec, &a));
    PetscCall(VecScatterBegin(scatter, fvec, c->vecs[k], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(scatter, fvec, c->vecs[k], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(ISDestroy(&from));
  PetscCall(VecDestroy(&fvec));
  PetscCall(PetscFree(position));
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
  PetscCall(PetscFree((*c)->keys));
  PetscCall(PetscFree(*c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
