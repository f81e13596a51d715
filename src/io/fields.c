/* Field output for ParaView: high-order DG fields on the sub-cells through each element's nodes,
 * so the picture shows the polynomial's nodal values rather than element averages; one HDF5
 * file per output time, the sub-cell mesh once per run, and an XDMF temporal collection that
 * ParaView opens directly (File > Open > <series>.xmf). */
#include <hoflow/compat.h>
#include <hoflow/io.h>

PetscErrorCode OutputMeshCreate(Disc disc, OutputMesh **mesh_out)
{
  OutputMesh      *om;
  const PetscReal *x;
  const PetscInt  *elem_point;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&om));
  om->comm = PetscObjectComm((PetscObject)disc->dm);
  om->dim  = disc->mesh->dim;
  PetscCall(DiscGetPoints(disc, &om->npoints, &x, &elem_point));
  PetscCall(DiscGetSubCells(disc, &om->ncells, &om->nverts, &om->cells));
  om->shape = disc->mesh->K ? MeshElementShape(disc->mesh, 0) : REF_NUM_SHAPES;
  if (om->nverts) om->ncells_len = om->ncells * om->nverts;
  else
    for (PetscInt c = 0, k = 0; c < om->ncells; c++, om->ncells_len = k) k += 1 + RefShapeTable[om->cells[k]].nverts;
  PetscCall(PetscMalloc1(om->npoints * om->dim, &om->x));
  PetscCall(PetscArraycpy(om->x, x, om->npoints * om->dim));
  *mesh_out = om;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode OutputMeshDestroy(OutputMesh **mesh)
{
  PetscFunctionBeginUser;
  if (!*mesh) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*mesh)->x));
  PetscCall(PetscFree((*mesh)->cells));
  PetscCall(PetscFree(*mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define FIELD_MAX 16
typedef struct {
  PetscInt  step, mesh_step, nfields;
  PetscInt  npoints, ncells, tlen; /* of its mesh file (tlen: entries of a mixed topology); -1: this run's */
  PetscReal time;
  char      fields[FIELD_MAX][64];
} OutputRecord;

struct _n_FieldWriter {
  MPI_Comm          comm;
  PetscMPIInt       rank;
  const OutputMesh *mesh;
  PetscInt          npoints_global, ncells_global, tlen_global; /* tlen: entries of the topology */
  char              dir[PETSC_MAX_PATH_LEN], series[128];
  PetscInt          mesh_step; /* step whose mesh file this run writes (-1: not yet written) */
  PetscInt          nrecords, maxrecords;
  OutputRecord     *records; /* rank 0 */
};

/* <dir>/<series><suffix> */
static PetscErrorCode FieldWriterPath(FieldWriter w, const char suffix[], char path[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, len, "%s/%s%s", w->dir, w->series, suffix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The index of outputs (one line per output: step time mesh_step field names), read on rank 0. */
static PetscErrorCode FieldWriterReadIndex(FieldWriter w)
{
  char  path[PETSC_MAX_PATH_LEN], line[4096];
  FILE *fp;

  PetscFunctionBeginUser;
  if (w->rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FieldWriterPath(w, ".index", path, sizeof(path)));
  fp = fopen(path, "r");
  if (!fp) PetscFunctionReturn(PETSC_SUCCESS);
  while (fgets(line, sizeof(line), fp)) {
    OutputRecord r;
    long long    step, mesh_step;
    double       t;
    int          used;
    char        *p;
    if (sscanf(line, "%lld %lg %lld%n", &step, &t, &mesh_step, &used) != 3) continue;
    r.step      = (PetscInt)step;
    r.time      = (PetscReal)t;
    r.mesh_step = (PetscInt)mesh_step;
    r.npoints   = -1;
    r.ncells    = -1;
    r.tlen      = -1;
    r.nfields   = 0;
    for (p = strtok(line + used, " \n"); p && r.nfields < FIELD_MAX; p = strtok(NULL, " \n")) PetscCall(PetscStrncpy(r.fields[r.nfields++], p, sizeof(r.fields[0])));
    if (w->nrecords == w->maxrecords) {
      w->maxrecords = PetscMax(16, 2 * w->maxrecords);
      PetscCall(PetscRealloc(sizeof(OutputRecord) * w->maxrecords, &w->records));
    }
    w->records[w->nrecords++] = r;
  }
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Write text through <path>.tmp and rename, so readers never see a half-written file. */
static PetscErrorCode FieldWriterOpenTemporary(const char path[], char tmp[], size_t len, FILE **fp)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, len, "%s.tmp", path));
  *fp = fopen(tmp, "w");
  PetscCheck(*fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write '%s': check -output_dir", tmp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FieldWriterCommitTemporary(const char tmp[], const char path[], FILE *fp)
{
  PetscFunctionBeginUser;
  PetscCheck(fclose(fp) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Writing '%s' failed (disk full?)", tmp);
  PetscCheck(rename(tmp, path) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename '%s' to '%s'", tmp, path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rewrite the index and the XDMF series from the records (rank 0). */
static PetscErrorCode FieldWriterWriteSeries(FieldWriter w)
{
  char                     path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 8];
  FILE                    *fp;
  static const char *const topologies[REF_NUM_SHAPES] = {[REF_TRIANGLE] = "Triangle", [REF_QUADRILATERAL] = "Quadrilateral", [REF_TETRAHEDRON] = "Tetrahedron", [REF_PRISM] = "Wedge", [REF_HEXAHEDRON] = "Hexahedron", [REF_SEGMENT] = "Polyline"};
  const PetscBool          mixed                      = w->mesh->nverts == 0 ? PETSC_TRUE : PETSC_FALSE;
  const char              *topology                   = mixed ? "Mixed" : topologies[w->mesh->shape];

  PetscFunctionBeginUser;
  if (w->rank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FieldWriterPath(w, ".index", path, sizeof(path)));
  PetscCall(FieldWriterOpenTemporary(path, tmp, sizeof(tmp), &fp));
  for (PetscInt k = 0; k < w->nrecords; k++) {
    const OutputRecord *r = &w->records[k];
    fprintf(fp, "%lld %.17g %lld", (long long)r->step, (double)r->time, (long long)r->mesh_step);
    for (PetscInt f = 0; f < r->nfields; f++) fprintf(fp, " %s", r->fields[f]);
    fprintf(fp, "\n");
  }
  PetscCall(FieldWriterCommitTemporary(tmp, path, fp));

  PetscCall(FieldWriterPath(w, ".xmf", path, sizeof(path)));
  PetscCall(FieldWriterOpenTemporary(path, tmp, sizeof(tmp), &fp));
  fprintf(fp, "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"2.0\">\n <Domain>\n");
  fprintf(fp, "  <Grid Name=\"%s\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", w->series);
  for (PetscInt k = 0; k < w->nrecords; k++) {
    const OutputRecord *r = &w->records[k];
    /* a record of an earlier run has its mesh file's counts (another order or mesh after a
     * projected restart; on the same discretization only the point order differs) */
    const PetscInt npoints = r->npoints >= 0 ? r->npoints : w->npoints_global, ncells = r->ncells >= 0 ? r->ncells : w->ncells_global, tlen = r->tlen >= 0 ? r->tlen : w->tlen_global;
    fprintf(fp, "   <Grid Name=\"step %lld\" GridType=\"Uniform\">\n", (long long)r->step);
    fprintf(fp, "    <Time Value=\"%.17g\"/>\n", (double)r->time);
    fprintf(fp, "    <Topology TopologyType=\"%s\" NumberOfElements=\"%lld\">\n", topology, (long long)ncells);
    if (mixed) /* XDMF's mixed layout: each cell's type number, then its points */
      fprintf(fp, "     <DataItem Dimensions=\"%lld\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">%s_mesh_%06lld.h5:/topology</DataItem>\n", (long long)tlen, w->series, (long long)r->mesh_step);
    else
      fprintf(fp, "     <DataItem Dimensions=\"%lld %lld\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">%s_mesh_%06lld.h5:/topology</DataItem>\n", (long long)ncells, (long long)w->mesh->nverts, w->series, (long long)r->mesh_step);
    fprintf(fp, "    </Topology>\n    <Geometry GeometryType=\"%s\">\n", w->mesh->dim == 3 ? "XYZ" : "XY");
    fprintf(fp, "     <DataItem Dimensions=\"%lld %lld\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s_mesh_%06lld.h5:/geometry</DataItem>\n", (long long)npoints, (long long)w->mesh->dim, w->series, (long long)r->mesh_step);
    fprintf(fp, "    </Geometry>\n");
    for (PetscInt f = 0; f < r->nfields; f++) {
      fprintf(fp, "    <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Node\">\n", r->fields[f]);
      fprintf(fp, "     <DataItem Dimensions=\"%lld\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s_%06lld.h5:/%s</DataItem>\n", (long long)npoints, w->series, (long long)r->step, r->fields[f]);
      fprintf(fp, "    </Attribute>\n");
    }
    fprintf(fp, "   </Grid>\n");
  }
  fprintf(fp, "  </Grid>\n </Domain>\n</Xdmf>\n");
  PetscCall(FieldWriterCommitTemporary(tmp, path, fp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldWriterCreate(const OutputMesh *mesh, const char dir[], const char series[], FieldWriter *writer)
{
  FieldWriter w;
  PetscInt    local[3] = {mesh->npoints, mesh->ncells, mesh->ncells_len}, global[3];

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&w));
  w->comm      = mesh->comm;
  w->mesh      = mesh;
  w->mesh_step = -1;
  PetscCallMPI(MPI_Comm_rank(w->comm, &w->rank));
  PetscCall(MPIU_Allreduce(local, global, 3, MPIU_INT, MPI_SUM, w->comm));
  w->npoints_global = global[0];
  w->ncells_global  = global[1];
  w->tlen_global    = global[2];
  PetscCheck(global[0] < PETSC_MAX_INT && global[0] < 2147483647, w->comm, PETSC_ERR_SUP, "Output of %" PetscInt_FMT " points exceeds 32-bit topology indices", global[0]);
  PetscCall(PetscStrncpy(w->dir, dir, sizeof(w->dir)));
  PetscCall(PetscStrncpy(w->series, series, sizeof(w->series)));
  PetscCall(IOMakeDirectory(w->comm, dir));
  *writer = w;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldWriterRestart(FieldWriter w, PetscInt step)
{
  PetscInt n = 0;

  PetscFunctionBeginUser;
  PetscCall(FieldWriterReadIndex(w));
  for (PetscInt k = 0; k < w->nrecords; k++)
    if (w->records[k].step < step) w->records[n++] = w->records[k];
  w->nrecords = n;
  /* the point and cell counts of the kept records' mesh files (attributes points, cells), read on
   * rank 0, which holds the records: a projected restart continues the series on another order or
   * mesh; a mesh file that is gone leaves this run's counts, as before */
  for (PetscInt k = 0; k < w->nrecords; k++) {
    OutputRecord *r = &w->records[k];
    char          path[PETSC_MAX_PATH_LEN], suffix[32];
    PetscBool     readable, found[2] = {PETSC_FALSE, PETSC_FALSE};
    PetscInt      ncols;
    IOFile        file;
    if (k && r->mesh_step == r[-1].mesh_step) {
      r->npoints = r[-1].npoints;
      r->ncells  = r[-1].ncells;
      r->tlen    = r[-1].tlen;
      continue;
    }
    PetscCall(PetscSNPrintf(suffix, sizeof(suffix), "_mesh_%06lld.h5", (long long)r->mesh_step));
    PetscCall(FieldWriterPath(w, suffix, path, sizeof(path)));
    PetscCall(PetscTestFile(path, 'r', &readable));
    if (!readable) continue;
    PetscCall(IOFileOpen(PETSC_COMM_SELF, path, NULL, &file));
    PetscCall(IOFileReadAttributeInt(file, "points", &r->npoints, &found[0]));
    PetscCall(IOFileReadAttributeInt(file, "cells", &r->ncells, &found[1]));
    PetscCall(IOFileGetDatasetShape(file, "topology", &r->tlen, &ncols));
    PetscCall(IOFileClose(&file));
    if (!found[0] || !found[1]) r->npoints = r->ncells = r->tlen = -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sub-cell mesh, in global point numbers. */
static PetscErrorCode FieldWriterWriteMesh(FieldWriter w, PetscInt step)
{
  char              path[PETSC_MAX_PATH_LEN], suffix[32];
  IOFile            file;
  PetscInt          offset = 0, *cells;
  const OutputMesh *m      = w->mesh;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Exscan(&m->npoints, &offset, 1, MPIU_INT, MPI_SUM, w->comm));
  if (!w->rank) offset = 0;
  PetscCall(PetscMalloc1(m->ncells_len, &cells));
  if (m->nverts)
    for (PetscInt k = 0; k < m->ncells_len; k++) cells[k] = offset + m->cells[k];
  else { /* mixed: hoflow's shape numbers become XDMF's cell type numbers */
    static const PetscInt xdmf_type[REF_NUM_SHAPES] = {[REF_TRIANGLE] = 4, [REF_QUADRILATERAL] = 5, [REF_TETRAHEDRON] = 6, [REF_PRISM] = 8, [REF_HEXAHEDRON] = 9};
    for (PetscInt k = 0; k < m->ncells_len;) {
      const PetscInt nv = RefShapeTable[m->cells[k]].nverts;
      PetscCheck(xdmf_type[m->cells[k]], PETSC_COMM_SELF, PETSC_ERR_SUP, "Mixed output of %s sub-cells", RefShapeTable[m->cells[k]].name);
      cells[k] = xdmf_type[m->cells[k]];
      for (PetscInt v = 1; v <= nv; v++) cells[k + v] = offset + m->cells[k + v];
      k += nv + 1;
    }
  }
  PetscCall(PetscSNPrintf(suffix, sizeof(suffix), "_mesh_%06lld.h5", (long long)step));
  PetscCall(FieldWriterPath(w, suffix, path, sizeof(path)));
  PetscCall(IOFileCreate(w->comm, path, &file));
  PetscCall(IOFileWriteRows(file, "geometry", IO_DOUBLE, m->dim, m->npoints, m->x));
  if (m->nverts) PetscCall(IOFileWriteRows(file, "topology", IO_INT, m->nverts, m->ncells, cells));
  else PetscCall(IOFileWriteRows(file, "topology", IO_INT, 1, m->ncells_len, cells));
  PetscCall(IOFileWriteAttributeInt(file, "points", w->npoints_global));
  PetscCall(IOFileWriteAttributeInt(file, "cells", w->ncells_global));
  PetscCall(IOFileClose(&file));
  PetscCall(PetscFree(cells));
  w->mesh_step = step;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldWriterWrite(FieldWriter w, PetscInt step, PetscReal time, PetscInt nfields, const char *names[], Vec fields[])
{
  char     path[PETSC_MAX_PATH_LEN], suffix[32], out[FIELD_MAX][64]; /* the datasets: a field, or a component of one */
  PetscInt nout = 0;
  IOFile   file;

  PetscFunctionBeginUser;
  PetscCheck(nfields <= FIELD_MAX, w->comm, PETSC_ERR_ARG_SIZ, "At most %d output fields", FIELD_MAX);
  if (w->mesh_step < 0) PetscCall(FieldWriterWriteMesh(w, step));
  PetscCall(PetscSNPrintf(suffix, sizeof(suffix), "_%06lld.h5", (long long)step));
  PetscCall(FieldWriterPath(w, suffix, path, sizeof(path)));
  PetscCall(IOFileCreate(w->comm, path, &file));
  for (PetscInt f = 0; f < nfields; f++) {
    const PetscScalar *a;
    PetscInt           n, ncomp = 1;
    Disc               disc;
    PetscBool          continuous = PETSC_FALSE;
    Vec                values     = fields[f];
    PetscCall(DiscFromVec(fields[f], &disc));
    if (disc) PetscCall(DiscHasPointValues(disc, &continuous));
    if (continuous) { /* a continuous field: its values at the points, the components of a point together */
      ncomp = disc->ncomp;
      PetscCall(VecCreateSeq(PETSC_COMM_SELF, w->mesh->npoints * ncomp, &values));
      PetscCall(DiscPointValues(disc, fields[f], values, SCATTER_FORWARD));
    }
    PetscCall(VecGetLocalSize(values, &n));
    PetscCheck(n == w->mesh->npoints * ncomp, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Field %s has %" PetscInt_FMT " local values for %" PetscInt_FMT " output points of %" PetscInt_FMT " components", names[f], n, w->mesh->npoints, ncomp);
    PetscCheck(nout + ncomp <= FIELD_MAX, w->comm, PETSC_ERR_ARG_SIZ, "At most %d output fields (components)", FIELD_MAX);
    PetscCall(VecGetArrayRead(values, &a));
    if (ncomp == 1) {
      PetscCall(IOFileWriteRows(file, names[f], IO_DOUBLE, 1, n, a));
      PetscCall(PetscStrncpy(out[nout++], names[f], sizeof(out[0])));
    } else {
      PetscReal *comp;
      PetscCall(PetscMalloc1(w->mesh->npoints, &comp));
      for (PetscInt c = 0; c < ncomp; c++) {
        for (PetscInt i = 0; i < w->mesh->npoints; i++) comp[i] = a[i * ncomp + c];
        if (ncomp <= 3)
          PetscCall(PetscSNPrintf(out[nout], sizeof(out[0]), "%s_%c", names[f], "xyz"[c]));
        else
          PetscCall(PetscSNPrintf(out[nout], sizeof(out[0]), "%s_%" PetscInt_FMT, names[f], c));
        PetscCall(IOFileWriteRows(file, out[nout++], IO_DOUBLE, 1, w->mesh->npoints, comp));
      }
      PetscCall(PetscFree(comp));
    }
    PetscCall(VecRestoreArrayRead(values, &a));
    if (continuous) PetscCall(VecDestroy(&values));
  }
  PetscCall(IOFileWriteAttributeReal(file, "time", time));
  PetscCall(IOFileWriteAttributeInt(file, "step", step));
  PetscCall(IOFileClose(&file));
  if (!w->rank) {
    OutputRecord r;
    /* a repeated step (the first monitor call after a restart) replaces its record */
    if (w->nrecords && w->records[w->nrecords - 1].step == step) w->nrecords--;
    if (w->nrecords == w->maxrecords) {
      w->maxrecords = PetscMax(16, 2 * w->maxrecords);
      PetscCall(PetscRealloc(sizeof(OutputRecord) * w->maxrecords, &w->records));
    }
    r.step      = step;
    r.time      = time;
    r.mesh_step = w->mesh_step;
    r.npoints   = w->npoints_global;
    r.ncells    = w->ncells_global;
    r.tlen      = w->tlen_global;
    r.nfields   = nout;
    for (PetscInt f = 0; f < nout; f++) PetscCall(PetscStrncpy(r.fields[f], out[f], sizeof(r.fields[f])));
    w->records[w->nrecords++] = r;
  }
  PetscCall(FieldWriterWriteSeries(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FieldWriterDestroy(FieldWriter *w)
{
  PetscFunctionBeginUser;
  if (!*w) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*w)->records));
  PetscCall(PetscFree(*w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
