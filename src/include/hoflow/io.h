/* hoflow input/output: HDF5 files, sub-cell field output with an XDMF time series for ParaView,
 * exact checkpoint/restart, CSV monitors and a progress line.
 *
 * The io layer sees plain data: distributed rows (each rank's rows concatenated in rank order),
 * PETSc Vecs, names and numbers. The adapters to a discretization go through the generic Disc
 * interface: OutputMeshCreate lays the sub-cells of every element over its points,
 * CheckpointCreateDisc and CheckpointSetDiscProjection make a checkpoint of its element-wise vectors
 * and let a restart project them from another order or a coarser mesh (DiscProjectElements).
 *
 * Parallel runs write one file set. With parallel HDF5 (Debian's PETSc) every rank writes its
 * rows collectively through MPI-IO; without it (or with -io_hdf5_collective 0) rank 0 gathers
 * the rows in rank order and writes alone. */
#pragma once

#include <petscts.h>
#include <hoflow/disc.h>
#include <hoflow/ts.h>

#define HOFLOW_VERSION "0.2.0"
#define HOFLOW_CHECKPOINT_FORMAT 3 /* 3: element vertices (blocks/vertices); format 2 files are still read */

/* ---- HDF5 files (io/hdf5.c) ---- */
typedef struct _n_IOFile *IOFile;
typedef enum {
  IO_DOUBLE,
  IO_INT
} IODataType;

/* Create (truncate) or open (read-only) an HDF5 file; collective. Opening names the file and the
 * option it came from when it is missing or not a readable HDF5 file. */
PETSC_EXTERN PetscErrorCode IOFileCreate(MPI_Comm comm, const char path[], IOFile *file);
PETSC_EXTERN PetscErrorCode IOFileOpen(MPI_Comm comm, const char path[], const char option[], IOFile *file);
/* Flush and close; collective. */
PETSC_EXTERN PetscErrorCode IOFileClose(IOFile *file);
/* Dataset `name` (groups created as needed) of global_rows x ncols, this rank's nrows rows
 * following those of lower ranks: a 1D dataset when ncols is 1. Collective. */
PETSC_EXTERN PetscErrorCode IOFileWriteRows(IOFile file, const char name[], IODataType type, PetscInt ncols, PetscInt nrows, const void *data);
/* Read rows [row_start, row_start+nrows) of dataset `name` (each rank its own range); collective.
 * Errors name the file and dataset when it is missing, of another shape, or unreadable. */
PETSC_EXTERN PetscErrorCode IOFileReadRows(IOFile file, const char name[], IODataType type, PetscInt ncols, PetscInt row_start, PetscInt nrows, void *data);
/* Rows and columns of dataset `name` (-1, -1 when it does not exist); collective. */
PETSC_EXTERN PetscErrorCode IOFileGetDatasetShape(IOFile file, const char name[], PetscInt *nrows, PetscInt *ncols);
/* Attributes of the root group, the same value on every rank; collective. Reading a missing
 * attribute sets *found = PETSC_FALSE (found may be NULL: then a missing attribute is an error). */
PETSC_EXTERN PetscErrorCode IOFileWriteAttributeString(IOFile file, const char name[], const char value[]);
PETSC_EXTERN PetscErrorCode IOFileWriteAttributeReal(IOFile file, const char name[], PetscReal value);
PETSC_EXTERN PetscErrorCode IOFileWriteAttributeInt(IOFile file, const char name[], PetscInt value);
PETSC_EXTERN PetscErrorCode IOFileReadAttributeString(IOFile file, const char name[], char value[], size_t len, PetscBool *found);
PETSC_EXTERN PetscErrorCode IOFileReadAttributeReal(IOFile file, const char name[], PetscReal *value, PetscBool *found);
PETSC_EXTERN PetscErrorCode IOFileReadAttributeInt(IOFile file, const char name[], PetscInt *value, PetscBool *found);
PETSC_EXTERN PetscErrorCode IOFileGetPath(IOFile file, const char **path);

/* ---- sub-cell fields and their XDMF series (io/fields.c) ---- */
/* A mesh of straight-sided sub-cells over the points of this rank's elements. */
typedef struct {
  MPI_Comm   comm;
  PetscInt   dim;                     /* of the points */
  PetscInt   npoints, ncells, nverts; /* local points and sub-cells; vertices per sub-cell (0: mixed shapes) */
  PetscInt   ncells_len;              /* entries of cells */
  RefShape   shape;                   /* of the sub-cells (vertices in the shape's order, hoflow/shape.h); mixed: unused */
  PetscReal *x;                       /* [npoints*dim] point coordinates */
  PetscInt  *cells;                   /* [ncells*nverts] local point indices; mixed: (shape, point indices) per sub-cell */
} OutputMesh;

/* The sub-cells through the points of every owned element (DiscGetPoints, DiscGetSubCells), so a global
 * vector of an element-wise discretization is a point field as it stands; FieldWriterWrite takes the point
 * values of a continuous one's (DiscPointValues), a field of several components as one dataset a component
 * (<name>_x, _y, _z). */
PETSC_EXTERN PetscErrorCode OutputMeshCreate(Disc disc, OutputMesh **mesh);
PETSC_EXTERN PetscErrorCode OutputMeshDestroy(OutputMesh **mesh);

/* Field output: every write is <dir>/<series>_<step>.h5 with one dataset per field (point
 * values), the sub-cell mesh goes to <dir>/<series>_mesh_<step>.h5 once per run (its point order
 * depends on the partition), and <dir>/<series>.xmf lists all outputs as a temporal collection
 * (rewritten through a temporary file after every write). <dir>/<series>.index keeps the list
 * so a restarted run continues the series. */
typedef struct _n_FieldWriter *FieldWriter;
PETSC_EXTERN PetscErrorCode    FieldWriterCreate(const OutputMesh *mesh, const char dir[], const char series[], FieldWriter *writer);
/* Forget outputs at or after `step` (a restart from that step rewrites them). */
PETSC_EXTERN PetscErrorCode FieldWriterRestart(FieldWriter writer, PetscInt step);
PETSC_EXTERN PetscErrorCode FieldWriterWrite(FieldWriter writer, PetscInt step, PetscReal time, PetscInt nfields, const char *names[], Vec fields[]);
PETSC_EXTERN PetscErrorCode FieldWriterDestroy(FieldWriter *writer);

/* ---- checkpoint / restart (io/checkpoint.c) ---- */
/* Checkpoint vectors are block-distributed: this rank owns nblocks blocks of block_size values
 * (DG: elements of Np nodes). Each block has a key of HOFLOW_CHECKPOINT_KEY numbers (DG: its
 * centroid and first node, three coordinates each, 0 beyond the dimension), so a checkpoint written
 * on one number of ranks is read on another: blocks are matched by key, not by position. */
#define HOFLOW_CHECKPOINT_KEY 6
typedef struct _n_Checkpoint *Checkpoint;
PETSC_EXTERN PetscErrorCode   CheckpointCreate(MPI_Comm comm, PetscInt nblocks, PetscInt block_size, const PetscReal keys[], Checkpoint *ckpt);
/* A named vector (the state, or a time integrator's history) saved and restored: nblocks blocks of
 * block_size values, or a global vector of a continuous discretization (DiscFromVec, DiscPointValues),
 * saved as its values at each element's points (a block of points x components per element). */
PETSC_EXTERN PetscErrorCode CheckpointAddVector(Checkpoint ckpt, const char name[], Vec v);
/* What a restart must match (problem, order, ...) and the option that sets it. */
PETSC_EXTERN PetscErrorCode CheckpointAddIdentity(Checkpoint ckpt, const char name[], const char value[], const char option[]);
/* The blocks' geometry (DG: each element's vertices [nblocks*nverts*dim] in the shape's reference
 * order), saved so that a restart can map the checkpoint onto the mesh refined; copied. */
PETSC_EXTERN PetscErrorCode CheckpointSetBlockVertices(Checkpoint ckpt, RefShape shape, PetscInt dim, const PetscReal vertices[]);
/* Blocks of varying width (DG: a mesh of several element shapes): block b is values [offsets[b],
 * offsets[b+1]) of each element-wise vector, at most block_size; the file pads each to block_size and
 * records the widths (blocks/widths), which a restart checks block by block. Before CheckpointAddVector;
 * such a checkpoint is read back exactly (same order, same mesh), or projected onto another order of the same
 * mesh (its elements' vertices listed as in the file), never onto a refined mesh. */
PETSC_EXTERN PetscErrorCode CheckpointSetBlockOffsets(Checkpoint ckpt, const PetscInt offsets[]);
/* A restart that projects (-restart_project): project(ctx, path, file_value, file_block_size, widths,
 * parent_vertices, nvec, in, out) gets, for this rank's blocks in order, the file's block each one is (same mesh:
 * parent_vertices NULL) or lies in (a refined mesh: parent_vertices[b*nverts*dim] are that block's
 * vertices), as in[k][b*file_block_size ...] for every added vector k, and fills the vectors out[k];
 * file_value is the file's value of the identity entry `identity`. Blocks of varying width (several element
 * shapes: the same mesh only, parent_vertices NULL): widths[b] is block b's width in the file, the blocks lie one
 * after another in in[k]; otherwise widths is NULL. */
typedef PetscErrorCode (*CheckpointProjectFunction)(void *ctx, const char path[], const char file_value[], PetscInt file_block_size, const PetscInt widths[], const PetscReal parent_vertices[], PetscInt nvec, const PetscReal *const in[], Vec out[]);
/* What a restart may project: the identity entry `identity` (e.g. "order") may differ from the file's
 * and the mesh may be the file's refined (format 3 files), read through `project`, when `enabled`;
 * when not, the errors for such a file name `option`, the option that enables it. Without this call
 * any difference is an error. A restart of the same identity and mesh never projects: it is exact. */
PETSC_EXTERN PetscErrorCode CheckpointSetProjection(Checkpoint ckpt, const char identity[], const char option[], PetscBool enabled, CheckpointProjectFunction project, void *ctx);
/* Write everything to `path` through `path`.tmp renamed at the end. */
PETSC_EXTERN PetscErrorCode CheckpointWrite(Checkpoint ckpt, const char path[], PetscInt step, PetscReal time, PetscReal dt);
/* Check identity and mesh, then load every added vector (projected when CheckpointSetProjection
 * allows and the file differs, announced on stdout); returns step, time and dt. */
PETSC_EXTERN PetscErrorCode CheckpointRead(Checkpoint ckpt, const char path[], PetscInt *step, PetscReal *time, PetscReal *dt);
/* Testing hook: the next write kills the process (SIGKILL) after its data and before the rename. */
PETSC_EXTERN PetscErrorCode CheckpointSetKillDuringWrite(Checkpoint ckpt, PetscBool kill);
PETSC_EXTERN PetscErrorCode CheckpointDestroy(Checkpoint *ckpt);
/* Checkpoints of a discretization's fields, the adapter between checkpoints and a Disc: one block per
 * owned element, keyed by its centroid and first point, with its vertices, and the identity entries disc,
 * shape ("prism+tetrahedron" on a mixed mesh, whose elements are then blocks of their own widths) and order. */
PETSC_EXTERN PetscErrorCode CheckpointCreateDisc(Disc disc, const char option[], Checkpoint *ckpt);
/* When `enabled`, a restart may read a checkpoint of another order and/or of the mesh this one refines,
 * projecting every vector element by element (DiscProjectElements); otherwise such a file is refused
 * with an error naming `option`. */
PETSC_EXTERN PetscErrorCode CheckpointSetDiscProjection(Checkpoint ckpt, Disc disc, const char option[], PetscBool enabled);

/* ---- CSV monitors and progress (io/monitor.c) ---- */
typedef struct _n_MonitorCSV *MonitorCSV;
/* Rank 0 writes `path` with the header step,time,dt,<columns>. When `restart_step` >= 0 the rows of
 * an existing file up to that step are kept (a restarted run continues the file after it; a file with
 * another header is an error, not overwritten). */
PETSC_EXTERN PetscErrorCode MonitorCSVCreate(MPI_Comm comm, const char path[], PetscInt ncolumns, const char *columns[], PetscInt restart_step, MonitorCSV *csv);
/* The rows kept on a restart (every rank): n times, and n x ncolumns values. */
PETSC_EXTERN PetscErrorCode MonitorCSVGetKeptRows(MonitorCSV csv, PetscInt *n, const PetscReal **times, const PetscReal **values);
PETSC_EXTERN PetscErrorCode MonitorCSVWriteRow(MonitorCSV csv, PetscInt step, PetscReal time, PetscReal dt, const PetscReal values[]);
PETSC_EXTERN PetscErrorCode MonitorCSVDestroy(MonitorCSV *csv);

typedef struct _n_Progress *Progress;
/* A one-line report on rank 0 every `interval` seconds of wall time (0: every call, < 0: never),
 * with the estimated time to max_time or max_steps (whichever comes first). */
PETSC_EXTERN PetscErrorCode ProgressCreate(MPI_Comm comm, PetscReal interval, PetscInt step0, PetscReal time0, PetscInt max_steps, PetscReal max_time, Progress *progress);
PETSC_EXTERN PetscErrorCode ProgressUpdate(Progress progress, PetscInt step, PetscReal time, PetscReal dt, PetscInt iterations, PetscBool final);
PETSC_EXTERN PetscErrorCode ProgressDestroy(Progress *progress);

/* Create directory `dir` and its parents on rank 0 (as mkdir -p); collective. */
PETSC_EXTERN PetscErrorCode IOMakeDirectory(MPI_Comm comm, const char dir[]);
