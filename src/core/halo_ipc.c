/* The peer-to-peer halo transport of hoflow/halo_ipc.h. Set up once from a star forest: the leaves read from
 * each other rank form a receive segment (in rank order, leaf order within), stored contiguously in this
 * rank's receive buffer; each rank tells the owners of those roots which root indices it reads, where in its
 * buffer they go and which of its flags signals them, and learns in turn which of the owner's flags to set when
 * it has read them. The buffers and flags are exported through CUDA IPC and mapped by the neighbours, so a
 * round is a push kernel on the sender (kernels/halo.h: wait until the receiver has read the last round, write
 * into the receiver's buffer, set its ready flag) and a pull kernel on the receiver (wait for the ready flag,
 * scatter the buffer into the leaves, set the sender's freed flag).
 *
 * Why it cannot deadlock: every rank runs the same sequence of rounds. A pull waits for the push of the same
 * round, a push for the pull of the round before; both were queued earlier in the program, on the other GPU's
 * stream, by a host that queues without waiting on this one. Two rounds of one object in flight at once would
 * break this (the second push would wait for a pull queued after it), hence HaloIPCBusy. */
#include <hoflow/compat.h>
#include <string.h>
#include <hoflow/halo_ipc.h>
#include <hoflow/device.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/halo.h>

struct _n_HaloIPC {
  MPI_Comm            comm;
  const char         *name;
  PetscInt            unit_max;
  HaloIPCSide         push, pull; /* the device descriptors of the two kernels */
  void               *memory;     /* one exported allocation: a check value, the flags, the receive buffer */
  double             *buffer;     /* the receive buffer */
  unsigned long long *flags;      /* ready (a sender each), then freed (a receiver each) */
  void              **mapped;     /* the neighbours' allocations mapped here */
  PetscInt            nmapped;
  HoflowDeviceArrays  device; /* segments, index lists, counters */
  unsigned long long  seq;    /* rounds begun */
  PetscBool           busy;
};

#if defined(HOFLOW_HAVE_CUDA)
/* what a rank tells the others of its allocation */
typedef struct {
  char               handle[HALO_IPC_HANDLE_BYTES]; /* of the memory block the allocation lies in */
  unsigned long long check;                         /* the allocation's first word */
  unsigned long long base;                          /* the block's address in its owner (with world_rank: a key) */
  long long          offset;                        /* where the allocation starts in the block */
  long long          flag_bytes;                    /* where the receive buffer starts in the allocation */
  int                world_rank;
} HaloIPCExport;

/* The blocks of other processes mapped in this one, shared by every transport object: a block may hold several
 * allocations (of several operators), and CUDA maps a block once a process. */
typedef struct {
  int                world_rank, refs;
  unsigned long long base;
  void              *mapped;
} HaloIPCBlock;
static HaloIPCBlock halo_ipc_blocks[256];
static int          halo_ipc_nblocks = 0;

/* the owner's block e mapped here (opened on first use); 0 or a CUDA error */
static int HaloIPCBlockOpen(const HaloIPCExport *e, void **mapped)
{
  int err, free_slot = -1;
  for (int i = 0; i < halo_ipc_nblocks; i++) {
    if (halo_ipc_blocks[i].refs && halo_ipc_blocks[i].world_rank == e->world_rank && halo_ipc_blocks[i].base == e->base) {
      halo_ipc_blocks[i].refs++;
      *mapped = halo_ipc_blocks[i].mapped;
      return 0;
    }
    if (!halo_ipc_blocks[i].refs && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0) {
    if (halo_ipc_nblocks == (int)(sizeof(halo_ipc_blocks) / sizeof(halo_ipc_blocks[0]))) return 1; /* cudaErrorInvalidValue: too many blocks */
    free_slot = halo_ipc_nblocks++;
  }
  err = HaloIPCOpen(e->handle, mapped);
  if (err) return err;
  halo_ipc_blocks[free_slot].world_rank = e->world_rank;
  halo_ipc_blocks[free_slot].base       = e->base;
  halo_ipc_blocks[free_slot].mapped     = *mapped;
  halo_ipc_blocks[free_slot].refs       = 1;
  return 0;
}

/* one use of a mapped block ended: unmapped with its last */
static int HaloIPCBlockClose(void *mapped)
{
  for (int i = 0; i < halo_ipc_nblocks; i++)
    if (halo_ipc_blocks[i].refs && halo_ipc_blocks[i].mapped == mapped) return --halo_ipc_blocks[i].refs ? 0 : HaloIPCClose(mapped);
  return 1;
}

/* whether the transport can be taken: one host, a GPU a rank (the same answer on every rank) */
static PetscErrorCode HaloIPCEligible(MPI_Comm comm, const char **why)
{
  PetscMPIInt size, rank, nodesize;
  MPI_Comm    node;
  char        bus[32] = {0}, *all;
  int         dev;

  PetscFunctionBeginUser;
  *why = NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &nodesize));
  PetscCallMPI(MPI_Comm_free(&node));
  if (nodesize != size) {
    *why = "the ranks are on several hosts";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(!HoflowDeviceCurrent(&dev) && !HoflowDeviceBusId(dev, bus, (int)sizeof(bus) - 1), PETSC_COMM_SELF, PETSC_ERR_LIB, "The halo transport could not query this rank's GPU");
  PetscCall(PetscMalloc1(32 * (size_t)size, &all));
  PetscCallMPI(MPI_Allgather(bus, 32, MPI_CHAR, all, 32, MPI_CHAR, comm));
  for (PetscMPIInt p = 0; p < size && !*why; p++)
    for (PetscMPIInt q = p + 1; q < size; q++)
      if (!strncmp(all + 32 * (size_t)p, all + 32 * (size_t)q, 32)) {
        *why = "two ranks share a GPU";
        break;
      }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HaloIPCUpload(HaloIPC ipc, const void *host, size_t bytes, const void **device)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowDeviceArraysUpload(&ipc->device, bytes ? host : NULL, bytes ? bytes : 8, device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the blocks a segment's row of the grid has: about 4 values a thread of 256, at most 128 */
static int HaloIPCBlocks(PetscInt entries, PetscInt unit)
{
  const PetscInt b = (entries * unit + 1023) / 1024;
  return (int)PetscMax(1, PetscMin(b, 128));
}
#endif

PetscErrorCode HaloIPCCreate(PetscSF sf, PetscInt unit_max, const char name[], HaloIPC *ipc)
{
  const char *const modes[] = {"auto", "ipc", "mpi"};
  PetscInt          mode    = 0;
  MPI_Comm          comm    = PetscObjectComm((PetscObject)sf);
  PetscMPIInt       size;

  PetscFunctionBeginUser;
  *ipc = NULL;
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-halo_transport", modes, 3, &mode, NULL));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1 || mode == 2) PetscFunctionReturn(PETSC_SUCCESS);
#if !defined(HOFLOW_HAVE_CUDA)
  (void)unit_max, (void)name;
  PetscCheck(mode != 1, comm, PETSC_ERR_SUP, "-halo_transport ipc needs a hoflow built with CUDA (make CUDA=1)");
#else
  {
    const char        *why;
    size_t             bytes;
    PetscMPIInt        rank, nrecv = 0, nsend = 0, *cnt, *want, *hdr_out, *hdr_in, *freed_out, *freed_in, *recv_rank, *send_rank;
    PetscInt           nroots, nleaves, nrecv_entries = 0, nsend_entries = 0, nself = 0, *rroot, *sroot, *roff, *soff, maxseg = 0;
    const PetscInt    *ilocal;
    const PetscSFNode *iremote;
    int               *rleaf, *sidx, *self_root, *self_leaf, ok = 1, all_ok, failed_here = 0;
    char               failure[256] = "";
    HaloIPCExport      mine, *all;
    MPI_Request       *req;
    PetscInt           nreq = 0;
    HaloIPC            h;
    HaloIPCSegment    *pushseg, *pullseg;
    void             **peer_buffer, **peer_flags;
    unsigned int      *zeros;

    PetscCall(HaloIPCEligible(comm, &why));
    if (why) {
      PetscCheck(mode != 1, comm, PETSC_ERR_SUP, "-halo_transport ipc (%s): %s; use -halo_transport mpi or auto", name, why);
      PetscCall(PetscInfo(NULL, "%s: the halo travels by MPI: %s\n", name, why));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscNew(&h));
    PetscCallMPI(MPI_Comm_dup(comm, &h->comm)); /* the set-up's messages apart from PETSc's on comm */
    h->name     = name;
    h->unit_max = unit_max;
    comm        = h->comm;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCall(PetscSFSetUp(sf));
    PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
    PetscCall(PetscCalloc2(size, &cnt, size, &want));
    for (PetscInt i = 0; i < nleaves; i++) cnt[iremote[i].rank]++;
    nself     = cnt[rank];
    cnt[rank] = 0;
    PetscCallMPI(MPI_Alltoall(cnt, 1, MPI_INT, want, 1, MPI_INT, comm));
    PetscCall(PetscMalloc2(size + 1, &roff, size + 1, &soff));
    roff[0] = soff[0] = 0;
    for (PetscMPIInt p = 0; p < size; p++) {
      roff[p + 1] = roff[p] + cnt[p];
      soff[p + 1] = soff[p] + want[p];
      nrecv += cnt[p] ? 1 : 0;
      nsend += want[p] ? 1 : 0;
      maxseg = PetscMax(maxseg, PetscMax(cnt[p], want[p]));
    }
    maxseg        = PetscMax(maxseg, nself);
    nrecv_entries = roff[size];
    nsend_entries = soff[size];
    /* the receive side: leaf and root indices grouped by owner */
    PetscCall(PetscMalloc4(PetscMax(nrecv_entries, 1), &rleaf, PetscMax(nrecv_entries, 1), &rroot, PetscMax(nself, 1), &self_root, PetscMax(nself, 1), &self_leaf));
    {
      PetscInt *pos, ns = 0;
      PetscCall(PetscMalloc1(size, &pos));
      for (PetscMPIInt p = 0; p < size; p++) pos[p] = roff[p];
      for (PetscInt i = 0; i < nleaves; i++) {
        const PetscInt l = ilocal ? ilocal[i] : i, p = iremote[i].rank;
        if (p == rank) {
          self_root[ns]   = (int)iremote[i].index;
          self_leaf[ns++] = (int)l;
        } else {
          rleaf[pos[p]]   = (int)l;
          rroot[pos[p]++] = iremote[i].index;
        }
      }
      PetscCall(PetscFree(pos));
    }
    /* One allocation a rank (a multiple of 2 MiB, the CUDA guide's advice against sharing other allocations' memory).
     * cudaMalloc may still carve it out of a larger block, and CUDA IPC exports and maps whole blocks, once a
     * process: the handle is the block's, users map each block once (HaloIPCBlockOpen) and add the allocation's
     * offset (2026-11-27, 4 H200s: with the allocation's own address exported, the mappings failed on the
     * quadrilateral runs and on the small pMG test). Its first word is a check value read back through the mapping. */
    {
      static unsigned long long serial = 0;
      const size_t              align = (size_t)2 << 20;
      mine.flag_bytes                 = (long long)(((sizeof(unsigned long long) * (size_t)(nrecv + nsend + 1)) + 255) / 256 * 256);
      mine.check                      = ((unsigned long long)(rank + 1) << 40) ^ (++serial << 8) ^ 0x5a5a;
      bytes                           = ((size_t)mine.flag_bytes + sizeof(double) * (size_t)(unit_max * PetscMax(nrecv_entries, 1)) + align - 1) / align * align;
    }
    PetscCheck(!HaloIPCAlloc(&h->memory, bytes, mine.check), PETSC_COMM_SELF, PETSC_ERR_MEM, "%s: the halo transport's %zu bytes of device memory could not be allocated", name, bytes);
    h->flags  = (unsigned long long *)h->memory + 1;
    h->buffer = (double *)((char *)h->memory + mine.flag_bytes);
    {
      size_t      offset;
      PetscMPIInt wr;
      int         err = HaloIPCGetHandle(h->memory, mine.handle, &mine.base, &offset);
      if (err) { /* nobody maps this rank's memory then: the check below fails everywhere it is read */
        PetscCall(PetscSNPrintf(failure, sizeof(failure), "rank %d got no handle for its memory: %s", (int)rank, HoflowDeviceErrorString(err)));
        ok = 0, failed_here = 1;
      }
      PetscCallMPI(MPI_Comm_rank(MPI_COMM_WORLD, &wr));
      mine.offset     = (long long)offset;
      mine.world_rank = wr;
    }
    PetscCall(PetscMalloc1(size, &all));
    PetscCallMPI(MPI_Allgather(&mine, (PetscMPIInt)sizeof(mine), MPI_BYTE, all, (PetscMPIInt)sizeof(mine), MPI_BYTE, comm));
    /* tell each owner which roots are read, where they go and which ready flag; learn its freed flag */
    PetscCall(PetscMalloc6(2 * size, &hdr_out, 2 * size, &hdr_in, size, &freed_out, size, &freed_in, size, &recv_rank, size, &send_rank));
    PetscCall(PetscMalloc2(PetscMax(nsend_entries, 1), &sroot, 6 * size, &req));
    {
      PetscMPIInt r = 0, s = 0;
      for (PetscMPIInt p = 0; p < size; p++) {
        if (cnt[p]) {
          hdr_out[2 * p]     = (PetscMPIInt)roff[p]; /* where in this buffer */
          hdr_out[2 * p + 1] = r;                    /* which ready flag */
          recv_rank[r++]     = p;
          PetscCallMPI(MPI_Isend(&hdr_out[2 * p], 2, MPI_INT, p, 0, comm, &req[nreq++]));
          PetscCallMPI(MPI_Isend(rroot + roff[p], cnt[p], MPIU_INT, p, 1, comm, &req[nreq++]));
          PetscCallMPI(MPI_Irecv(&freed_in[p], 1, MPI_INT, p, 2, comm, &req[nreq++]));
        }
      }
      for (PetscMPIInt p = 0; p < size; p++) {
        if (want[p]) {
          freed_out[p]   = nrecv + s; /* the flag the reader sets when it has read */
          send_rank[s++] = p;
          PetscCallMPI(MPI_Irecv(&hdr_in[2 * p], 2, MPI_INT, p, 0, comm, &req[nreq++]));
          PetscCallMPI(MPI_Irecv(sroot + soff[p], want[p], MPIU_INT, p, 1, comm, &req[nreq++]));
          PetscCallMPI(MPI_Isend(&freed_out[p], 1, MPI_INT, p, 2, comm, &req[nreq++]));
        }
      }
      PetscCallMPI(MPI_Waitall((PetscMPIInt)nreq, req, MPI_STATUSES_IGNORE));
    }
    /* every rank has a handle, or nobody maps anything */
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
    /* map the neighbours' buffers (those this rank writes) and flags */
    PetscCall(PetscCalloc2(size, &peer_buffer, size, &peer_flags));
    PetscCall(PetscMalloc1(size, &h->mapped));
    for (PetscMPIInt p = 0; p < size && ok; p++) {
      void              *m;
      unsigned long long check = 0;
      int                err;
      if (!want[p] && !cnt[p]) continue;
      err = HaloIPCBlockOpen(&all[p], &m);
      if (err) {
        PetscCall(PetscSNPrintf(failure, sizeof(failure), "rank %d could not map the memory of rank %d: %s", (int)rank, (int)p, HoflowDeviceErrorString(err)));
        ok = 0, failed_here = 1;
        break;
      }
      h->mapped[h->nmapped++] = m;
      m                       = (char *)m + all[p].offset;
      err                     = HaloIPCPeek(m, &check);
      ok                      = !err && check == all[p].check; /* the owner's allocation, where it said */
      failed_here             = !ok;
      if (!ok) PetscCall(PetscSNPrintf(failure, sizeof(failure), "rank %d read rank %d's check word as %#llx, expected %#llx%s%s", (int)rank, (int)p, check, all[p].check, err ? ": " : "", err ? HoflowDeviceErrorString(err) : ""));
      peer_flags[p]  = (unsigned long long *)m + 1;
      peer_buffer[p] = (char *)m + all[p].flag_bytes;
    }
    PetscCallMPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm));
    if (!all_ok) { /* what the first rank that failed saw, for the message below on every rank */
      PetscMPIInt first = failed_here ? rank : size;
      PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
      if (first < size) PetscCallMPI(MPI_Bcast(failure, (PetscMPIInt)sizeof(failure), MPI_CHAR, first, comm));
    }
    if (all_ok) {
      /* the segments: a push to each reader, a pull from each owner */
      PetscCall(PetscMalloc3(PetscMax(nsend, 1), &pushseg, PetscMax(nrecv, 1), &pullseg, PetscMax(nsend_entries, 1), &sidx));
      for (PetscInt i = 0; i < nsend_entries; i++) sidx[i] = (int)sroot[i];
      for (PetscMPIInt s = 0; s < nsend; s++) {
        const PetscMPIInt p = send_rank[s];
        pushseg[s].start    = (int)soff[p];
        pushseg[s].count    = want[p];
        pushseg[s].offset   = hdr_in[2 * p];
        pushseg[s].buffer   = (double *)peer_buffer[p];
        pushseg[s].signal   = (unsigned long long *)peer_flags[p] + hdr_in[2 * p + 1];
        pushseg[s].wait     = h->flags + nrecv + s;
      }
      for (PetscMPIInt r = 0; r < nrecv; r++) {
        const PetscMPIInt p = recv_rank[r];
        pullseg[r].start    = (int)roff[p];
        pullseg[r].count    = cnt[p];
        pullseg[r].offset   = (int)roff[p];
        pullseg[r].buffer   = h->buffer;
        pullseg[r].signal   = (unsigned long long *)peer_flags[p] + freed_in[p];
        pullseg[r].wait     = h->flags + r;
      }
      PetscCall(PetscCalloc1(PetscMax(nsend, nrecv) + 1, &zeros));
      h->push.nseg   = nsend;
      h->push.nself  = (int)nself;
      h->push.blocks = HaloIPCBlocks(maxseg, unit_max);
      h->pull.nseg   = nrecv;
      h->pull.blocks = h->push.blocks;
      PetscCall(HaloIPCUpload(h, pushseg, sizeof(HaloIPCSegment) * (size_t)nsend, (const void **)&h->push.seg));
      PetscCall(HaloIPCUpload(h, sidx, sizeof(int) * (size_t)nsend_entries, (const void **)&h->push.index));
      PetscCall(HaloIPCUpload(h, self_root, sizeof(int) * (size_t)nself, (const void **)&h->push.self_root));
      PetscCall(HaloIPCUpload(h, self_leaf, sizeof(int) * (size_t)nself, (const void **)&h->push.self_leaf));
      PetscCall(HaloIPCUpload(h, zeros, sizeof(unsigned int) * (size_t)(nsend + 1), (const void **)&h->push.count));
      PetscCall(HaloIPCUpload(h, pullseg, sizeof(HaloIPCSegment) * (size_t)nrecv, (const void **)&h->pull.seg));
      PetscCall(HaloIPCUpload(h, rleaf, sizeof(int) * (size_t)nrecv_entries, (const void **)&h->pull.index));
      PetscCall(HaloIPCUpload(h, zeros, sizeof(unsigned int) * (size_t)(nrecv + 1), (const void **)&h->pull.count));
      PetscCall(PetscFree(zeros));
      PetscCall(PetscFree3(pushseg, pullseg, sidx));
      PetscCall(PetscInfo(NULL, "%s: the halo travels by CUDA IPC: %d readers (%" PetscInt_FMT " entries), %d owners (%" PetscInt_FMT " entries), %" PetscInt_FMT " own\n", name, nsend, nsend_entries, nrecv, nrecv_entries, nself));
      *ipc = h;
    }
    PetscCall(PetscFree2(peer_buffer, peer_flags));
    PetscCall(PetscFree2(sroot, req));
    PetscCall(PetscFree6(hdr_out, hdr_in, freed_out, freed_in, recv_rank, send_rank));
    PetscCall(PetscFree(all));
    PetscCall(PetscFree4(rleaf, rroot, self_root, self_leaf));
    PetscCall(PetscFree2(roff, soff));
    PetscCall(PetscFree2(cnt, want));
    if (!all_ok) {
      PetscCall(HaloIPCDestroy(&h));
      PetscCheck(mode != 1, PetscObjectComm((PetscObject)sf), PETSC_ERR_LIB, "-halo_transport ipc (%s): a neighbour's GPU memory could not be mapped (CUDA IPC: %s); use -halo_transport mpi or auto", name, failure);
      PetscCall(PetscInfo(NULL, "%s: the halo travels by MPI: a CUDA IPC mapping failed (%s)\n", name, failure));
    }
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HaloIPCDestroy(HaloIPC *ipc)
{
  HaloIPC h = *ipc;

  PetscFunctionBeginUser;
  if (!h) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(HOFLOW_HAVE_CUDA)
  /* nobody's kernels touch another's memory any more, then nobody maps it any more */
  PetscCall(HoflowDeviceSynchronizeChecked());
  PetscCallMPI(MPI_Barrier(h->comm));
  for (PetscInt i = 0; i < h->nmapped; i++) PetscCheck(!HaloIPCBlockClose(h->mapped[i]), PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: a CUDA IPC mapping could not be closed", h->name);
  PetscCallMPI(MPI_Barrier(h->comm));
  PetscCall(HoflowDeviceFreeChecked(h->memory));
  PetscCall(HoflowDeviceArraysFree(&h->device));
#endif
  PetscCall(PetscFree(h->mapped));
  PetscCallMPI(MPI_Comm_free(&h->comm));
  PetscCall(PetscFree(*ipc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HaloIPCBusy(HaloIPC ipc, PetscBool *busy)
{
  PetscFunctionBeginUser;
  *busy = ipc->busy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HaloIPCBegin(HaloIPC ipc, PetscInt unit, const PetscScalar *root, PetscScalar *leaf, void *stream)
{
  PetscFunctionBeginUser;
  PetscCheck(!ipc->busy, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: a halo round begun while another is in flight", ipc->name);
  PetscCheck(unit >= 1 && unit <= ipc->unit_max, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %" PetscInt_FMT " scalars an entry; the halo transport holds 1..%" PetscInt_FMT, ipc->name, unit, ipc->unit_max);
  ipc->seq++;
  ipc->busy = PETSC_TRUE;
#if defined(HOFLOW_HAVE_CUDA)
  {
    const int err = HaloIPCPushCUDA(ipc->push, (int)unit, ipc->seq, root, leaf, stream);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: the halo push kernel failed: %s", ipc->name, HoflowDeviceErrorString(err));
  }
#else
  (void)root, (void)leaf, (void)stream;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HaloIPCEnd(HaloIPC ipc, PetscInt unit, PetscScalar *leaf, void *stream)
{
  PetscFunctionBeginUser;
  PetscCheck(ipc->busy, PETSC_COMM_SELF, PETSC_ERR_ORDER, "%s: a halo round ended that was not begun", ipc->name);
  ipc->busy = PETSC_FALSE;
#if defined(HOFLOW_HAVE_CUDA)
  {
    const int err = HaloIPCPullCUDA(ipc->pull, (int)unit, ipc->seq, leaf, stream);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "%s: the halo pull kernel failed: %s", ipc->name, HoflowDeviceErrorString(err));
  }
#else
  (void)unit, (void)leaf, (void)stream;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
