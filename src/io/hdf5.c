/* HDF5 files for hoflow's output and checkpoints: distributed rows written and read either
 * collectively through MPI-IO (parallel HDF5) or gathered to and scattered from rank 0 in rank
 * order (serial HDF5, or -io_hdf5_collective 0). Either way the file is the same: one dataset
 * holding every rank's rows, rank 0's first. */
#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <sys/stat.h>
#include <errno.h>

#if defined(PETSC_HAVE_HDF5)
#  include <hdf5.h>

struct _n_IOFile {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscBool   collective; /* every rank holds the file (parallel HDF5) */
  PetscBool   holder;     /* this rank holds the file: all ranks when collective, else rank 0 */
  hid_t       file;
  char        path[PETSC_MAX_PATH_LEN];
};

/* Every rank learns whether the operation succeeded on the ranks that did it. */
static PetscErrorCode IOAgree(IOFile f, PetscBool *ok)
{
  PetscMPIInt v = *ok ? 1 : 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, f->comm));
  *ok = v ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IOFileSetUp(MPI_Comm comm, const char path[], IOFile *file)
{
  IOFile    f;
  PetscBool collective = PETSC_TRUE;

  PetscFunctionBeginUser;
  /* HDF5's own error stack would print on every probe; hoflow reports errors itself */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  PetscCall(PetscNew(&f));
  f->comm = comm;
  f->file = -1;
  PetscCallMPI(MPI_Comm_rank(comm, &f->rank));
  PetscCallMPI(MPI_Comm_size(comm, &f->size));
  PetscCall(PetscStrncpy(f->path, path, sizeof(f->path)));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-io_hdf5_collective", &collective, NULL));
#  if !defined(H5_HAVE_PARALLEL)
  collective = PETSC_FALSE;
#  endif
  f->collective = (collective && f->size > 1) ? PETSC_TRUE : PETSC_FALSE;
  f->holder     = (f->collective || f->rank == 0) ? PETSC_TRUE : PETSC_FALSE;
  *file         = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static hid_t IOFileAccessList(IOFile f)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#  if defined(H5_HAVE_PARALLEL)
  if (f->collective) H5Pset_fapl_mpio(fapl, f->comm, MPI_INFO_NULL);
#  endif
  return fapl;
}

PetscErrorCode IOFileCreate(MPI_Comm comm, const char path[], IOFile *file)
{
  IOFile    f;
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(IOFileSetUp(comm, path, &f));
  if (f->holder) {
    hid_t fapl = IOFileAccessList(f);
    f->file    = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    ok = f->file >= 0 ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(IOAgree(f, &ok));
  if (!ok) {
    if (f->file >= 0) H5Fclose(f->file);
    PetscCall(PetscFree(f));
    SETERRQ(comm, PETSC_ERR_FILE_OPEN, "Cannot create HDF5 file '%s': check that its directory exists and is writable", path);
  }
  *file = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileOpen(MPI_Comm comm, const char path[], const char option[], IOFile *file)
{
  IOFile      f;
  PetscBool   ok   = PETSC_TRUE, exists;
  const char *from = option ? option : "";

  PetscFunctionBeginUser;
  PetscCall(PetscTestFile(path, 'r', &exists));
  PetscCallMPI(MPI_Bcast(&exists, 1, MPIU_BOOL, 0, comm));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "File '%s'%s%s%s does not exist or is not readable", path, option ? " (from " : "", from, option ? ")" : "");
  PetscCall(IOFileSetUp(comm, path, &f));
  if (f->holder) {
    hid_t fapl = IOFileAccessList(f);
    f->file    = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    ok = f->file >= 0 ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(IOAgree(f, &ok));
  if (!ok) {
    if (f->file >= 0) H5Fclose(f->file);
    PetscCall(PetscFree(f));
    SETERRQ(comm, PETSC_ERR_FILE_READ, "File '%s'%s%s%s is not a readable HDF5 file: it is truncated, corrupt or of another format", path, option ? " (from " : "", from, option ? ")" : "");
  }
  *file = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileClose(IOFile *file)
{
  IOFile    f  = *file;
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  if (f->holder && f->file >= 0) {
    if (H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0) ok = PETSC_FALSE;
    if (H5Fclose(f->file) < 0) ok = PETSC_FALSE;
  }
  PetscCall(IOAgree(f, &ok));
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_WRITE, "Closing HDF5 file '%s' failed (disk full?)", f->path);
  PetscCall(PetscFree(*file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileGetPath(IOFile file, const char **path)
{
  PetscFunctionBeginUser;
  *path = file->path;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static hid_t IOMemoryType(IODataType type)
{
  if (type == IO_DOUBLE) return H5T_NATIVE_DOUBLE;
  return sizeof(PetscInt) == 8 ? H5T_NATIVE_LLONG : H5T_NATIVE_INT;
}

static MPI_Datatype IOMPIType(IODataType type)
{
  return type == IO_DOUBLE ? MPIU_REAL : MPIU_INT;
}

static size_t IOTypeSize(IODataType type)
{
  return type == IO_DOUBLE ? sizeof(PetscReal) : sizeof(PetscInt);
}

/* One dataset write (or read) of rows [start, start+nrows) of a global_rows x ncols dataset. */
static herr_t IODatasetTransfer(hid_t dset, PetscBool write, IODataType type, PetscBool collective, PetscInt ncols, PetscInt start, PetscInt nrows, void *data)
{
  hsize_t       dims[2] = {(hsize_t)nrows, (hsize_t)ncols}, offset[2] = {(hsize_t)start, 0};
  const int     rank      = ncols == 1 ? 1 : 2;
  hid_t         filespace = H5Dget_space(dset), memspace = H5Screate_simple(rank, dims, NULL), dxpl = H5Pcreate(H5P_DATASET_XFER);
  herr_t        err;
  static double dummy[1];

  if (nrows > 0) {
    H5Sselect_hyperslab(filespace, H5S_SELECT_SET, offset, NULL, dims, NULL);
  } else {
    H5Sselect_none(filespace);
    H5Sselect_none(memspace);
    data = dummy;
  }
#  if defined(H5_HAVE_PARALLEL)
  if (collective) H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
#  endif
  if (write)
    err = H5Dwrite(dset, IOMemoryType(type), memspace, filespace, dxpl, data);
  else
    err = H5Dread(dset, IOMemoryType(type), memspace, filespace, dxpl, data);
  H5Pclose(dxpl);
  H5Sclose(memspace);
  H5Sclose(filespace);
  return err;
}

PetscErrorCode IOFileWriteRows(IOFile f, const char name[], IODataType type, PetscInt ncols, PetscInt nrows, const void *data)
{
  PetscInt  nglobal = 0, start = 0;
  PetscBool ok       = PETSC_TRUE;
  void     *gathered = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Exscan(&nrows, &start, 1, MPIU_INT, MPI_SUM, f->comm));
  if (f->rank == 0) start = 0;
  PetscCall(MPIU_Allreduce(&nrows, &nglobal, 1, MPIU_INT, MPI_SUM, f->comm));
  if (!f->collective && f->size > 1) {
    /* rank-ordered gathering: rank 0 writes all rows */
    PetscMPIInt n = (PetscMPIInt)(nrows * ncols), *counts = NULL, *displs = NULL;
    static char dummy[8];
    PetscCall(PetscMalloc2(f->size, &counts, f->size, &displs));
    PetscCallMPI(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, f->comm));
    if (f->rank == 0) {
      displs[0] = 0;
      for (PetscMPIInt r = 1; r < f->size; r++) displs[r] = displs[r - 1] + counts[r - 1];
      PetscCall(PetscMalloc(IOTypeSize(type) * (size_t)PetscMax(nglobal * ncols, 1), &gathered));
    }
    PetscCallMPI(MPI_Gatherv(n ? data : dummy, n, IOMPIType(type), gathered, counts, displs, IOMPIType(type), 0, f->comm));
    PetscCall(PetscFree2(counts, displs));
    data  = gathered;
    start = 0;
    nrows = f->rank == 0 ? nglobal : 0;
  }
  if (f->holder) {
    hsize_t dims[2] = {(hsize_t)nglobal, (hsize_t)ncols};
    hid_t   space = H5Screate_simple(ncols == 1 ? 1 : 2, dims, NULL), lcpl = H5Pcreate(H5P_LINK_CREATE), dset;
    H5Pset_create_intermediate_group(lcpl, 1);
    dset = H5Dcreate2(f->file, name, type == IO_DOUBLE ? H5T_IEEE_F64LE : H5T_STD_I32LE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0)
      ok = PETSC_FALSE;
    else {
      if (IODatasetTransfer(dset, PETSC_TRUE, type, f->collective, ncols, start, nrows, (void *)data) < 0) ok = PETSC_FALSE;
      H5Dclose(dset);
    }
    H5Pclose(lcpl);
    H5Sclose(space);
  }
  PetscCall(PetscFree(gathered));
  PetscCall(IOAgree(f, &ok));
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_WRITE, "Writing dataset %s of HDF5 file '%s' failed (disk full, or the dataset exists?)", name, f->path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether every component of the path exists (H5Lexists needs the parents to exist). */
static PetscBool IOLinkExists(hid_t file, const char name[])
{
  char   path[PETSC_MAX_PATH_LEN];
  size_t n = strlen(name);

  if (n >= sizeof(path)) return PETSC_FALSE;
  for (size_t i = 1; i <= n; i++) {
    if (name[i] == '/' || name[i] == '\0') {
      memcpy(path, name, i);
      path[i] = '\0';
      if (H5Lexists(file, path, H5P_DEFAULT) <= 0) return PETSC_FALSE;
    }
  }
  return PETSC_TRUE;
}

PetscErrorCode IOFileGetDatasetShape(IOFile f, const char name[], PetscInt *nrows, PetscInt *ncols)
{
  PetscInt shape[2] = {-1, -1};

  PetscFunctionBeginUser;
  if (f->holder && IOLinkExists(f->file, name)) {
    hid_t dset = H5Dopen2(f->file, name, H5P_DEFAULT);
    if (dset >= 0) {
      hid_t   space   = H5Dget_space(dset);
      hsize_t dims[2] = {0, 1};
      int     rank    = H5Sget_simple_extent_ndims(space);
      if (rank == 1 || rank == 2) {
        H5Sget_simple_extent_dims(space, dims, NULL);
        shape[0] = (PetscInt)dims[0];
        shape[1] = rank == 2 ? (PetscInt)dims[1] : 1;
      }
      H5Sclose(space);
      H5Dclose(dset);
    }
  }
  if (!f->collective) PetscCallMPI(MPI_Bcast(shape, 2, MPIU_INT, 0, f->comm));
  *nrows = shape[0];
  *ncols = shape[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileReadRows(IOFile f, const char name[], IODataType type, PetscInt ncols, PetscInt row_start, PetscInt nrows, void *data)
{
  PetscInt  grows, gcols, range[2] = {row_start, nrows}, *ranges = NULL, total = 0;
  PetscBool ok     = PETSC_TRUE;
  void     *buffer = NULL;

  PetscFunctionBeginUser;
  PetscCall(IOFileGetDatasetShape(f, name, &grows, &gcols));
  PetscCheck(grows >= 0, f->comm, PETSC_ERR_FILE_UNEXPECTED, "HDF5 file '%s' has no dataset %s: it is truncated or was not written by this version of hoflow", f->path, name);
  PetscCheck(gcols == ncols, f->comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset %s of '%s' has %" PetscInt_FMT " columns, expected %" PetscInt_FMT, name, f->path, gcols, ncols);
  ok = (row_start >= 0 && row_start + nrows <= grows) ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(IOAgree(f, &ok));
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_UNEXPECTED, "Dataset %s of '%s' has %" PetscInt_FMT " rows, fewer than this run reads", name, f->path, grows);
  if (f->collective || f->size == 1) {
    hid_t dset = H5Dopen2(f->file, name, H5P_DEFAULT);
    if (dset < 0 || IODatasetTransfer(dset, PETSC_FALSE, type, f->collective, ncols, row_start, nrows, data) < 0) ok = PETSC_FALSE;
    if (dset >= 0) H5Dclose(dset);
  } else {
    /* rank 0 reads every rank's range in turn and scatters them */
    PetscMPIInt *counts = NULL, *displs = NULL, n = (PetscMPIInt)(nrows * ncols);
    static char  dummy[8];
    if (f->rank == 0) PetscCall(PetscMalloc1(2 * f->size, &ranges));
    PetscCallMPI(MPI_Gather(range, 2, MPIU_INT, ranges, 2, MPIU_INT, 0, f->comm));
    if (f->rank == 0) {
      hid_t dset = H5Dopen2(f->file, name, H5P_DEFAULT);
      PetscCall(PetscMalloc2(f->size, &counts, f->size, &displs));
      for (PetscMPIInt r = 0; r < f->size; r++) {
        counts[r] = (PetscMPIInt)(ranges[2 * r + 1] * ncols);
        displs[r] = (PetscMPIInt)total;
        total += ranges[2 * r + 1] * ncols;
      }
      PetscCall(PetscMalloc(IOTypeSize(type) * (size_t)PetscMax(total, 1), &buffer));
      if (dset < 0) ok = PETSC_FALSE;
      for (PetscMPIInt r = 0; ok && r < f->size; r++)
        if (ranges[2 * r + 1] > 0 && IODatasetTransfer(dset, PETSC_FALSE, type, PETSC_FALSE, ncols, ranges[2 * r], ranges[2 * r + 1], (char *)buffer + IOTypeSize(type) * displs[r]) < 0) ok = PETSC_FALSE;
      if (dset >= 0) H5Dclose(dset);
    }
    PetscCallMPI(MPI_Bcast(&ok, 1, MPIU_BOOL, 0, f->comm));
    if (ok) PetscCallMPI(MPI_Scatterv(buffer, counts, displs, IOMPIType(type), n ? data : dummy, n, IOMPIType(type), 0, f->comm));
    PetscCall(PetscFree(ranges));
    PetscCall(PetscFree2(counts, displs));
    PetscCall(PetscFree(buffer));
  }
  PetscCall(IOAgree(f, &ok));
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_READ, "Cannot read dataset %s of HDF5 file '%s': the file is truncated or corrupt", name, f->path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- attributes of the root group ---- */
static PetscErrorCode IOFileWriteAttribute(IOFile f, const char name[], hid_t type, const void *value)
{
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  if (f->holder) {
    hid_t space = H5Screate(H5S_SCALAR), attr;
    if (H5Aexists(f->file, name) > 0) H5Adelete(f->file, name);
    attr = H5Acreate2(f->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0 || H5Awrite(attr, type, value) < 0) ok = PETSC_FALSE;
    if (attr >= 0) H5Aclose(attr);
    H5Sclose(space);
  }
  PetscCall(IOAgree(f, &ok));
  PetscCheck(ok, f->comm, PETSC_ERR_FILE_WRITE, "Writing attribute %s of HDF5 file '%s' failed", name, f->path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileWriteAttributeString(IOFile f, const char name[], const char value[])
{
  hid_t type = H5Tcopy(H5T_C_S1);

  PetscFunctionBeginUser;
  H5Tset_size(type, strlen(value) + 1);
  H5Tset_strpad(type, H5T_STR_NULLTERM);
  PetscCall(IOFileWriteAttribute(f, name, type, value));
  H5Tclose(type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileWriteAttributeReal(IOFile f, const char name[], PetscReal value)
{
  double v = (double)value;

  PetscFunctionBeginUser;
  PetscCall(IOFileWriteAttribute(f, name, H5T_NATIVE_DOUBLE, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileWriteAttributeInt(IOFile f, const char name[], PetscInt value)
{
  long long v = (long long)value;

  PetscFunctionBeginUser;
  PetscCall(IOFileWriteAttribute(f, name, H5T_NATIVE_LLONG, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read attribute `name` as `type` into value (string attributes: up to len bytes). */
static PetscErrorCode IOFileReadAttribute(IOFile f, const char name[], hid_t type, void *value, size_t len, PetscBool *found)
{
  int status = 0; /* 0 found, 1 missing, 2 unreadable */

  PetscFunctionBeginUser;
  if (f->holder) {
    if (H5Aexists(f->file, name) <= 0)
      status = 1;
    else {
      hid_t attr = H5Aopen(f->file, name, H5P_DEFAULT);
      if (attr < 0)
        status = 2;
      else {
        if (type == H5T_C_S1) {
          hid_t  ftype = H5Aget_type(attr), mtype = H5Tcopy(H5T_C_S1);
          size_t size = H5Tget_size(ftype);
          char  *buf;
          H5Tset_cset(mtype, H5Tget_cset(ftype)); /* h5py writes UTF-8, hoflow ASCII */
          if (H5Tget_class(ftype) != H5T_STRING)
            status = 2;
          else if (H5Tis_variable_str(ftype) > 0) { /* as h5py and other tools write strings */
            char *vbuf = NULL;
            H5Tset_size(mtype, H5T_VARIABLE);
            if (H5Aread(attr, mtype, &vbuf) < 0 || !vbuf)
              status = 2;
            else
              PetscCall(PetscStrncpy((char *)value, vbuf, len));
            if (vbuf) H5free_memory(vbuf);
          } else {
            PetscCall(PetscCalloc1(size + 1, &buf));
            H5Tset_size(mtype, size);
            if (H5Aread(attr, mtype, buf) < 0)
              status = 2;
            else
              PetscCall(PetscStrncpy((char *)value, buf, len));
            PetscCall(PetscFree(buf));
          }
          H5Tclose(mtype);
          H5Tclose(ftype);
        } else if (H5Aread(attr, type, value) < 0)
          status = 2;
        H5Aclose(attr);
      }
    }
  }
  if (!f->collective) {
    PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, f->comm));
    if (status == 0) PetscCallMPI(MPI_Bcast(value, type == H5T_C_S1 ? (PetscMPIInt)len : 8, MPI_BYTE, 0, f->comm));
  }
  PetscCheck(status != 2, f->comm, PETSC_ERR_FILE_READ, "Cannot read attribute %s of HDF5 file '%s': the file is corrupt", name, f->path);
  PetscCheck(status == 0 || found, f->comm, PETSC_ERR_FILE_UNEXPECTED, "HDF5 file '%s' has no attribute %s: it was not written by hoflow or is incomplete", f->path, name);
  if (found) *found = status == 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileReadAttributeString(IOFile f, const char name[], char value[], size_t len, PetscBool *found)
{
  PetscFunctionBeginUser;
  PetscCall(IOFileReadAttribute(f, name, H5T_C_S1, value, len, found));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileReadAttributeReal(IOFile f, const char name[], PetscReal *value, PetscBool *found)
{
  double v = 0;

  PetscFunctionBeginUser;
  PetscCall(IOFileReadAttribute(f, name, H5T_NATIVE_DOUBLE, &v, 0, found));
  *value = (PetscReal)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IOFileReadAttributeInt(IOFile f, const char name[], PetscInt *value, PetscBool *found)
{
  long long v = 0;

  PetscFunctionBeginUser;
  PetscCall(IOFileReadAttribute(f, name, H5T_NATIVE_LLONG, &v, 0, found));
  *value = (PetscInt)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#else /* PETSc without HDF5: every entry point says so */

#  define IO_NO_HDF5(comm) SETERRQ(comm, PETSC_ERR_SUP, "hoflow's output and checkpoints need HDF5: rebuild against a PETSc configured --with-hdf5")
PetscErrorCode IOFileCreate(MPI_Comm comm, const char path[], IOFile *file)
{
  IO_NO_HDF5(comm);
}
PetscErrorCode IOFileOpen(MPI_Comm comm, const char path[], const char option[], IOFile *file)
{
  IO_NO_HDF5(comm);
}
PetscErrorCode IOFileClose(IOFile *file)
{
  return PETSC_SUCCESS;
}
PetscErrorCode IOFileGetPath(IOFile file, const char **path)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileWriteRows(IOFile file, const char name[], IODataType type, PetscInt ncols, PetscInt nrows, const void *data)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileReadRows(IOFile file, const char name[], IODataType type, PetscInt ncols, PetscInt row_start, PetscInt nrows, void *data)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileGetDatasetShape(IOFile file, const char name[], PetscInt *nrows, PetscInt *ncols)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileWriteAttributeString(IOFile file, const char name[], const char value[])
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileWriteAttributeReal(IOFile file, const char name[], PetscReal value)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileWriteAttributeInt(IOFile file, const char name[], PetscInt value)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileReadAttributeString(IOFile file, const char name[], char value[], size_t len, PetscBool *found)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileReadAttributeReal(IOFile file, const char name[], PetscReal *value, PetscBool *found)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
PetscErrorCode IOFileReadAttributeInt(IOFile file, const char name[], PetscInt *value, PetscBool *found)
{
  IO_NO_HDF5(PETSC_COMM_SELF);
}
#endif

PetscErrorCode IOMakeDirectory(MPI_Comm comm, const char dir[])
{
  PetscMPIInt rank;
  int         err = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    char   path[PETSC_MAX_PATH_LEN];
    size_t n;
    PetscCall(PetscStrncpy(path, dir, sizeof(path)));
    n = strlen(path);
    for (size_t i = 1; i <= n && !err; i++) {
      if (path[i] == '/' || path[i] == '\0') {
        char c  = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) && errno != EEXIST) err = errno;
        path[i] = c;
      }
    }
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, comm));
  PetscCheck(!err, comm, PETSC_ERR_FILE_OPEN, "Cannot create output directory '%s': %s", dir, strerror(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}
