/* pMG-AMG's CG1 <-> DG1 transfer through the gathered coarse vector (issue 19: 4-GPU weak scaling).
 *
 * With the coarse level solved by -pc_type gather on several ranks (solver/pc_gather.c), every rank holds the
 * whole coarse input (xfull, after the allgather) and the whole coarse solution (yfull). The AIJ injection P of
 * op/cg1.c communicates twice more a V-cycle around that: its MatMultTranspose (PCMG's restriction) sums the
 * ghost vertices' contributions into their owners (a reverse scatter), its MatMultAdd (the interpolation) fetches
 * the ghost vertices' values (a forward scatter), and the gather PC then allgathers the restricted vector again.
 * On 4 H200s (N = 6, 10 M DOFs a GPU, 2026-11-27) those cost ~6 ms of the ~28 ms a solve lost to weak scaling,
 * the allgather ~9 ms more. This shell replaces P at PCMG's coarsest interpolation:
 *
 * Restriction, one exchange instead of the scatter and the allgather. Each rank sums its residual over its own
 * DG1 nodes into one partial sum per vertex its nodes touch (its "touched" vertices: the sorted unique vertex
 * numbers of its nodes), broadcasts its partials to every rank (one PetscSF whose leaves are all ranks' partials
 * in rank order, the same layout everywhere; through the CUDA IPC transport, hoflow/halo_ipc.h, where it is
 * taken), and every rank sums the leaves of each vertex in rank order into xfull: the same bits on every rank
 * (no atomics), the coarse input the gather PC would have gathered. The coarse vector b gets its own rows, and
 * the gather PC is told that xfull already holds b (PCGatherSetInputGathered: its next application to b, same
 * object state, skips the allgather).
 *
 * Interpolation, no communication: when x is the gather PC's last output, unchanged since (object state), every
 * local DG1 node reads its vertex from yfull, w[i] = y[i] + yfull[vertex(i)].
 *
 * Anything else (another input, a vector changed since, a backend that differs from the gather PC's vectors)
 * takes the AIJ P, kept as the fallback: the shell is always the same operator as P. Both sums are the CSR
 * gather-sum of hoflow/kernels/gather.h, on the device for CUDA vectors (tables uploaded at the set-up). The
 * coarse solve is reached through CG1GatheredSolve's callbacks (the op layer sees no PC type of hoflow's). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/dg.h>
#include <hoflow/halo_ipc.h>
#include <hoflow/log.h>
#include <hoflow/kernels/gather.h>
#if defined(PETSC_HAVE_DEVICE)
#  include <petscdevice.h>
#endif

typedef struct {
  Mat              P;     /* the AIJ injection: the fallback */
  CG1GatheredSolve solve; /* the gather PC (referenced) and its handshake */
  PetscInt         n, vstart, vend, N;
  PetscInt         ntouched, nleaves;
  int             *node_vertex; /* [n]: the global vertex of each local DG1 node */
  int             *ptr1, *idx1; /* [ntouched + 1], [n]: the local nodes of each touched vertex, ascending */
  int             *ptr2, *idx2; /* [N + 1], [nleaves]: the leaves of each vertex, in rank order */
  PetscSF          sf;          /* roots: this rank's partials; leaves: every rank's, in rank order */
  HaloIPC          ipc;         /* the SF's broadcast by CUDA IPC (NULL: PetscSF) */
  Vec              partial, leaves; /* sequential work vectors on the shell's backend */
  PetscBool        device;          /* P's vectors are CUDA vectors: tables and work vectors on the device */
  PetscBool        host_wait;       /* -<coarse prefix>pc_gather_host_wait: the host waits for the sums before every coarse solve */
  HoflowDeviceArrays dev;
  const int         *d_node_vertex, *d_ptr1, *d_idx1, *d_ptr2, *d_idx2;
  PetscInt64         count[5]; /* restrictions gathered / by P, interpolations gathered / by P, host waits before the coarse solve */
} CG1Transfer;

static PetscErrorCode CG1TransferDestroy(Mat S)
{
  CG1Transfer *t;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &t));
  PetscCall(HaloIPCDestroy(&t->ipc));
  PetscCall(PetscSFDestroy(&t->sf));
  PetscCall(VecDestroy(&t->partial));
  PetscCall(VecDestroy(&t->leaves));
  PetscCall(HoflowDeviceArraysFree(&t->dev));
  PetscCall(PetscFree3(t->node_vertex, t->ptr1, t->idx1));
  PetscCall(PetscFree2(t->ptr2, t->idx2));
  PetscCall(MatDestroy(&t->P));
  PetscCall(PetscObjectDereference(t->solve.pc));
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether v is on the shell's backend (CUDA vectors where the tables are on the device, host vectors else). */
static PetscErrorCode CG1TransferBackend(CG1Transfer *t, Vec v, PetscBool *ok)
{
  PetscBool cuda = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(HoflowVecIsCUDA(v, &cuda));
  *ok = (PetscBool)(cuda == t->device);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b = P^T r: the partial sums, their broadcast, the sums of every vertex in rank order into the gather PC's
 * xfull, b's own rows from it; the gather PC told. */
static PetscErrorCode CG1TransferRestrict(Mat S, Vec r, Vec b)
{
  CG1Transfer       *t;
  Vec                xfull;
  PetscBool          ok[3] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  const PetscScalar *ra;
  PetscScalar       *xa, *ba, *pa, *la;
  PetscMemType       mt[5];
#if defined(HOFLOW_HAVE_CUDA)
  void *stream = NULL; /* PETSc's CUDA stream, for the device path */
#endif

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &t));
  PetscCall(t->solve.full_vectors(t->solve.pc, &xfull, NULL));
  if (xfull) {
    PetscCall(CG1TransferBackend(t, r, &ok[0]));
    PetscCall(CG1TransferBackend(t, b, &ok[1]));
    PetscCall(CG1TransferBackend(t, xfull, &ok[2]));
  }
  if (!(ok[0] && ok[1] && ok[2])) { /* the same answer on every rank: the vectors' types are collective */
    t->count[1]++;
    PetscCall(MatMultTranspose(t->P, r, b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  t->count[0]++;
  PetscCall(PetscLogEventBegin(HOFLOW_CG1Transfer, S, r, b, 0));
  PetscCall(VecGetArrayReadAndMemType(r, &ra, &mt[0]));
  PetscCall(VecGetArrayWriteAndMemType(t->partial, &pa, &mt[1]));
  PetscCall(VecGetArrayWriteAndMemType(t->leaves, &la, &mt[2]));
  PetscCall(VecGetArrayWriteAndMemType(xfull, &xa, &mt[3]));
  PetscCall(VecGetArrayWriteAndMemType(b, &ba, &mt[4]));
  for (PetscInt k = 1; k < 5; k++) PetscCheck(PetscMemTypeDevice(mt[k]) == PetscMemTypeDevice(mt[0]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "CG1 transfer: host and device arrays mixed");
  if (t->device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscCall(HoflowGetCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCheck(!GatherSumCUDA((int)t->ntouched, t->d_ptr1, t->d_idx1, ra, pa, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "CG1 transfer: the partial sums' kernel failed");
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogEventBegin(HOFLOW_GatherComm, S, 0, 0, 0));
    if (t->ipc) { /* queued on the stream after the partial sums; no host synchronization */
      PetscCall(HaloIPCBegin(t->ipc, 1, pa, la, stream));
      PetscCall(HaloIPCEnd(t->ipc, 1, la, stream));
    } else {
      PetscCall(PetscSFBcastWithMemTypeBegin(t->sf, MPIU_SCALAR, PETSC_MEMTYPE_DEVICE, pa, PETSC_MEMTYPE_DEVICE, la, MPI_REPLACE));
      PetscCall(PetscSFBcastEnd(t->sf, MPIU_SCALAR, pa, la, MPI_REPLACE));
    }
    PetscCall(PetscLogEventEnd(HOFLOW_GatherComm, S, 0, 0, 0));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCheck(!GatherSumCUDA((int)t->N, t->d_ptr2, t->d_idx2, la, xa, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "CG1 transfer: the vertex sums' kernel failed");
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(HoflowDeviceCopyOnDeviceChecked(ba, xa + t->vstart, sizeof(PetscScalar) * (size_t)(t->vend - t->vstart), stream));
    PetscCall(PetscLogGpuFlops((PetscLogDouble)(t->n + t->nleaves)));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
#endif
  } else {
    GatherSumHost((int)t->ntouched, t->ptr1, t->idx1, ra, pa);
    PetscCall(PetscLogEventBegin(HOFLOW_GatherComm, S, 0, 0, 0));
    PetscCall(PetscSFBcastBegin(t->sf, MPIU_SCALAR, pa, la, MPI_REPLACE));
    PetscCall(PetscSFBcastEnd(t->sf, MPIU_SCALAR, pa, la, MPI_REPLACE));
    PetscCall(PetscLogEventEnd(HOFLOW_GatherComm, S, 0, 0, 0));
    GatherSumHost((int)t->N, t->ptr2, t->idx2, la, xa);
    PetscCall(PetscArraycpy(ba, xa + t->vstart, t->vend - t->vstart));
    PetscCall(PetscLogFlops((PetscLogDouble)(t->n + t->nleaves)));
  }
  PetscCall(VecRestoreArrayWriteAndMemType(b, &ba));
  PetscCall(VecRestoreArrayWriteAndMemType(xfull, &xa));
  PetscCall(VecRestoreArrayWriteAndMemType(t->leaves, &la));
  PetscCall(VecRestoreArrayWriteAndMemType(t->partial, &pa));
  PetscCall(VecRestoreArrayReadAndMemType(r, &ra));
#if defined(HOFLOW_HAVE_CUDA)
  if (t->device) {
    /* hypre reads xfull next, on a stream of its own: the sums end first. hypre (2.32, utilities/device_utils.c)
     * creates its streams blocking (cudaStreamDefault), and blocking streams wait for the work queued before on
     * the legacy default stream: where PETSc's stream is that one (PETSc's default stream type, handle NULL) the
     * order holds on the device and the host need not wait. On any other stream it waits, and wherever
     * -<coarse prefix>pc_gather_host_wait asks (a hypre whose streams do not block). */
    if (stream || t->host_wait) {
      PetscDeviceContext dctx;
      t->count[4]++;
      PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
      PetscCall(PetscDeviceContextSynchronize(dctx));
    }
  }
#endif
  PetscCall(t->solve.set_input_gathered(t->solve.pc, b)); /* b's state as left above */
  PetscCall(PetscLogEventEnd(HOFLOW_CG1Transfer, S, r, b, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w = y + P x (y NULL: w = P x): from yfull when x is the gather PC's last output, else by P. */
static PetscErrorCode CG1TransferInterpolate(Mat S, Vec x, Vec y, Vec w)
{
  CG1Transfer       *t;
  Vec                yfull;
  PetscBool          ok[2] = {PETSC_FALSE, PETSC_FALSE};
  const PetscScalar *fa, *ya = NULL;
  PetscScalar       *wa;
  PetscMemType       mt[3];

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &t));
  PetscCall(t->solve.get_output(t->solve.pc, x, &yfull));
  if (yfull) {
    PetscCall(CG1TransferBackend(t, w, &ok[0]));
    PetscCall(CG1TransferBackend(t, yfull, &ok[1]));
  }
  if (!(ok[0] && ok[1])) {
    t->count[3]++;
    if (y)
      PetscCall(MatMultAdd(t->P, x, y, w));
    else
      PetscCall(MatMult(t->P, x, w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  t->count[2]++;
  PetscCall(PetscLogEventBegin(HOFLOW_CG1Transfer, S, x, w, 0));
  PetscCall(VecGetArrayReadAndMemType(yfull, &fa, &mt[0]));
  if (y == w) {
    PetscCall(VecGetArrayAndMemType(w, &wa, &mt[1]));
    ya    = wa;
    mt[2] = mt[1];
  } else {
    mt[2] = mt[0];
    if (y) PetscCall(VecGetArrayReadAndMemType(y, &ya, &mt[2]));
    PetscCall(VecGetArrayWriteAndMemType(w, &wa, &mt[1]));
  }
  PetscCheck(PetscMemTypeDevice(mt[1]) == PetscMemTypeDevice(mt[0]) && PetscMemTypeDevice(mt[2]) == PetscMemTypeDevice(mt[0]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "CG1 transfer: host and device arrays mixed");
  if (t->device) {
#if defined(HOFLOW_HAVE_CUDA)
    void *stream;
    PetscCall(HoflowGetCUDAStream(&stream));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCheck(!GatherAddCUDA((int)t->n, t->d_node_vertex, fa, ya, wa, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "CG1 transfer: the interpolation kernel failed");
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops((PetscLogDouble)(y ? t->n : 0)));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
#endif
  } else {
    GatherAddHost((int)t->n, t->node_vertex, fa, ya, wa);
    PetscCall(PetscLogFlops((PetscLogDouble)(y ? t->n : 0)));
  }
  if (y == w)
    PetscCall(VecRestoreArrayAndMemType(w, &wa));
  else {
    PetscCall(VecRestoreArrayWriteAndMemType(w, &wa));
    if (y) PetscCall(VecRestoreArrayReadAndMemType(y, &ya));
  }
  PetscCall(VecRestoreArrayReadAndMemType(yfull, &fa));
  PetscCall(PetscLogEventEnd(HOFLOW_CG1Transfer, S, x, w, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CG1TransferMult(Mat S, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(CG1TransferInterpolate(S, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P^T r + y: not PCMG's; by P */
static PetscErrorCode CG1TransferMultTransposeAdd(Mat S, Vec r, Vec y, Vec w)
{
  CG1Transfer *t;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &t));
  PetscCall(MatMultTransposeAdd(t->P, r, y, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CG1TransferView(Mat S, PetscViewer viewer)
{
  CG1Transfer *t;
  PetscBool    ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatShellGetContext(S, &t));
  PetscCall(PetscViewerASCIIPrintf(viewer, "CG1 <-> DG1 transfer: gathered (restriction: partial sums over %" PetscInt_FMT " vertices on rank 0, one broadcast of %" PetscInt_FMT " partials by %s into the gather PC's input; interpolation from its output); rank 0's counts: restrictions %" PetscInt64_FMT " gathered, %" PetscInt64_FMT " by the AIJ P; interpolations %" PetscInt64_FMT " gathered, %" PetscInt64_FMT " by the AIJ P; host waits before the coarse solve %" PetscInt64_FMT "\n", t->ntouched,
                                   t->nleaves, t->ipc ? "CUDA IPC" : "PetscSF", t->count[0], t->count[1], t->count[2], t->count[3], t->count[4]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tables: each local node's vertex (P's one column a row), the touched vertices' node lists, every rank's
 * touched vertices (one allgather) and each vertex's leaves in rank order; the star forest. */
static PetscErrorCode CG1TransferTables(CG1Transfer *t, MPI_Comm comm)
{
  PetscInt     rstart, *touched, *all, M;
  PetscMPIInt  size, *counts, *displs, nt;
  PetscSFNode *iremote;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetOwnershipRange(t->P, &rstart, NULL));
  PetscCall(MatGetOwnershipRangeColumn(t->P, &t->vstart, &t->vend));
  PetscCall(MatGetSize(t->P, &M, &t->N));
  PetscCall(MatGetLocalSize(t->P, &t->n, NULL));
  PetscCheck(t->N < PETSC_MAX_INT && M < PETSC_MAX_INT, comm, PETSC_ERR_SUP, "CG1 transfer: %" PetscInt_FMT " vertices, %" PetscInt_FMT " DG1 nodes: the kernels' int indices overflow", t->N, M);
  PetscCall(PetscMalloc1(PetscMax(t->n, 1), &touched));
  PetscCall(PetscMalloc3(t->n, &t->node_vertex, t->n + 1, &t->ptr1, PetscMax(t->n, 1), &t->idx1));
  for (PetscInt i = 0; i < t->n; i++) { /* the injection: one 1 a row */
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(t->P, rstart + i, &nc, &cols, &vals));
    PetscCheck(nc == 1 && vals[0] == 1.0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "CG1 transfer: row %" PetscInt_FMT " of the injection has %" PetscInt_FMT " entries, not a single 1", rstart + i, nc);
    t->node_vertex[i] = (int)cols[0];
    touched[i]        = cols[0];
    PetscCall(MatRestoreRow(t->P, rstart + i, &nc, &cols, &vals));
  }
  t->ntouched = t->n;
  PetscCall(PetscSortRemoveDupsInt(&t->ntouched, touched));
  /* node lists of the touched vertices, nodes ascending (a counting sort, stable) */
  for (PetscInt k = 0; k <= t->ntouched; k++) t->ptr1[k] = 0;
  for (PetscInt i = 0; i < t->n; i++) {
    PetscInt k;
    PetscCall(PetscFindInt(t->node_vertex[i], t->ntouched, touched, &k));
    t->ptr1[k + 1]++;
  }
  for (PetscInt k = 0; k < t->ntouched; k++) t->ptr1[k + 1] += t->ptr1[k];
  {
    int *pos;
    PetscCall(PetscMalloc1(t->ntouched + 1, &pos));
    for (PetscInt k = 0; k < t->ntouched; k++) pos[k] = t->ptr1[k];
    for (PetscInt i = 0; i < t->n; i++) {
      PetscInt k;
      PetscCall(PetscFindInt(t->node_vertex[i], t->ntouched, touched, &k));
      t->idx1[pos[k]++] = (int)i;
    }
    PetscCall(PetscFree(pos));
  }
  /* every rank's touched vertices, in rank order: the leaves */
  PetscCall(PetscMalloc2(size, &counts, size + 1, &displs));
  PetscCall(PetscMPIIntCast(t->ntouched, &nt));
  PetscCallMPI(MPI_Allgather(&nt, 1, MPI_INT, counts, 1, MPI_INT, comm));
  displs[0] = 0;
  for (PetscMPIInt p = 0; p < size; p++) {
    PetscCheck((PetscInt)displs[p] + counts[p] < PETSC_MPI_INT_MAX, comm, PETSC_ERR_SUP, "CG1 transfer: more partial sums than an int counts");
    displs[p + 1] = displs[p] + counts[p];
  }
  t->nleaves = displs[size];
  PetscCall(PetscMalloc1(PetscMax(t->nleaves, 1), &all));
  PetscCallMPI(MPI_Allgatherv(touched, nt, MPIU_INT, all, counts, displs, MPIU_INT, comm));
  /* the leaves of each vertex, leaves ascending = rank order (a counting sort, stable) */
  PetscCall(PetscMalloc2(t->N + 1, &t->ptr2, PetscMax(t->nleaves, 1), &t->idx2));
  for (PetscInt v = 0; v <= t->N; v++) t->ptr2[v] = 0;
  for (PetscInt l = 0; l < t->nleaves; l++) t->ptr2[all[l] + 1]++;
  for (PetscInt v = 0; v < t->N; v++) t->ptr2[v + 1] += t->ptr2[v];
  {
    int *pos;
    PetscCall(PetscMalloc1(t->N + 1, &pos));
    for (PetscInt v = 0; v < t->N; v++) pos[v] = t->ptr2[v];
    for (PetscInt l = 0; l < t->nleaves; l++) t->idx2[pos[all[l]]++] = (int)l;
    for (PetscInt v = 0; v < t->N; v++) PetscCheck(t->ptr2[v + 1] > t->ptr2[v], PETSC_COMM_SELF, PETSC_ERR_PLIB, "CG1 transfer: vertex %" PetscInt_FMT " is touched by no rank's DG1 node", v);
    PetscCall(PetscFree(pos));
  }
  /* leaf l of rank p's k-th partial: (p, k) */
  PetscCall(PetscMalloc1(PetscMax(t->nleaves, 1), &iremote));
  for (PetscMPIInt p = 0; p < size; p++)
    for (PetscInt k = 0; k < counts[p]; k++) {
      iremote[displs[p] + k].rank  = p;
      iremote[displs[p] + k].index = k;
    }
  PetscCall(PetscSFCreate(comm, &t->sf));
  PetscCall(PetscSFSetGraph(t->sf, t->ntouched, t->nleaves, NULL, PETSC_COPY_VALUES, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(t->sf));
  PetscCall(PetscFree(touched));
  PetscCall(PetscFree(all));
  PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CG1TransferCreate(Mat P, const CG1GatheredSolve *solve, Mat *S)
{
  MPI_Comm     comm = PetscObjectComm((PetscObject)P);
  CG1Transfer *t;
  PetscInt     m, n, M, N;
  VecType      vtype;
  Vec          probe;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&t));
  t->P     = P;
  t->solve = *solve;
  PetscCall(PetscObjectReference((PetscObject)P));
  PetscCall(PetscObjectReference(solve->pc));
  PetscCall(CG1TransferTables(t, comm));
  PetscCall(MatCreateVecs(P, &probe, NULL));
  PetscCall(HoflowVecIsCUDA(probe, &t->device));
  PetscCall(VecDestroy(&probe));
  {
    const char *prefix;
    PetscCall(PetscObjectGetOptionsPrefix(solve->pc, &prefix));
    PetscCall(PetscOptionsGetBool(NULL, prefix, "-pc_gather_host_wait", &t->host_wait, NULL));
  }
  /* the work vectors: sequential, on the backend of P's vectors */
  PetscCall(VecCreate(PETSC_COMM_SELF, &t->partial));
  PetscCall(VecSetSizes(t->partial, t->ntouched, t->ntouched));
  PetscCall(VecSetType(t->partial, t->device ? VECCUDA : VECSTANDARD));
  PetscCall(VecCreate(PETSC_COMM_SELF, &t->leaves));
  PetscCall(VecSetSizes(t->leaves, t->nleaves, t->nleaves));
  PetscCall(VecSetType(t->leaves, t->device ? VECCUDA : VECSTANDARD));
  if (t->device) {
    PetscCall(HoflowDeviceArraysUpload(&t->dev, t->node_vertex, sizeof(int) * (size_t)PetscMax(t->n, 1), (const void **)&t->d_node_vertex));
    PetscCall(HoflowDeviceArraysUpload(&t->dev, t->ptr1, sizeof(int) * (size_t)(t->ntouched + 1), (const void **)&t->d_ptr1));
    PetscCall(HoflowDeviceArraysUpload(&t->dev, t->idx1, sizeof(int) * (size_t)PetscMax(t->n, 1), (const void **)&t->d_idx1));
    PetscCall(HoflowDeviceArraysUpload(&t->dev, t->ptr2, sizeof(int) * (size_t)(t->N + 1), (const void **)&t->d_ptr2));
    PetscCall(HoflowDeviceArraysUpload(&t->dev, t->idx2, sizeof(int) * (size_t)PetscMax(t->nleaves, 1), (const void **)&t->d_idx2));
    PetscCall(HaloIPCCreate(t->sf, 1, "CG1 transfer", &t->ipc)); /* collective; NULL where not taken */
  }
  PetscCall(MatGetLocalSize(P, &m, &n));
  PetscCall(MatGetSize(P, &M, &N));
  PetscCall(MatCreateShell(comm, m, n, M, N, t, S));
  PetscCall(MatGetVecType(P, &vtype));
  PetscCall(MatShellSetVecType(*S, vtype)); /* PCMG's vectors of this level: CUDA vectors stay CUDA vectors */
  PetscCall(MatShellSetOperation(*S, MATOP_MULT, (void (*)(void))CG1TransferMult));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT_ADD, (void (*)(void))CG1TransferInterpolate));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT_TRANSPOSE, (void (*)(void))CG1TransferRestrict));
  PetscCall(MatShellSetOperation(*S, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))CG1TransferMultTransposeAdd));
  PetscCall(MatShellSetOperation(*S, MATOP_VIEW, (void (*)(void))CG1TransferView));
  PetscCall(MatShellSetOperation(*S, MATOP_DESTROY, (void (*)(void))CG1TransferDestroy));
  PetscCall(PetscObjectSetName((PetscObject)*S, "CG1 to DG1 injection (gathered)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
