/* The pack and unpack of a batched halo exchange (core/opshell_batch.c): n DG vectors (n <=
 * HALO_NMAX) travel in one message per neighbour, their values interleaved node by node, so that one
 * star forest with a unit of n scalars carries them all. Host kernels in src/kernels/halo.c, CUDA
 * twins in cuda/halo.cu; both only copy, so the exchanged values are the same bits as n exchanges'. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HALO_NMAX 12 /* e.g. 3D BDF3 subcycles: 3 past velocities and the 3 advected components */

/* The n arrays of one call, by value (the CUDA launch takes them as a kernel argument). */
typedef struct {
  const double *in[HALO_NMAX];
  double       *out[HALO_NMAX];
} HaloArrays;

/* buffer[j n + k] = a.in[k][index[j]] for j < m, k < n (the owned nodes that neighbours read) */
void HaloGatherHost(int n, int m, const int *index, HaloArrays a, double *buffer);
/* a.out[k][index[j]] = buffer[j n + k] for j < m, k < n (the ghost nodes of the local vectors) */
void HaloScatterHost(int n, int m, const int *index, const double *buffer, HaloArrays a);
int  HaloGatherCUDA(int n, int m, const int *index, HaloArrays a, double *buffer, void *stream);
int  HaloScatterCUDA(int n, int m, const int *index, const double *buffer, HaloArrays a, void *stream);

/* The peer-to-peer transport of a halo exchange between the GPUs of one host (core/halo_ipc.c): a sender's push
 * kernel writes its values straight into each receiver's buffer (CUDA IPC memory of the receiver's GPU), then
 * sets the receiver's ready flag to the round's sequence number; the receiver's pull kernel waits for that flag,
 * scatters its buffer into the leaves and sets the sender's freed flag, which the sender's next push waits for.
 * Everything is ordered on the two GPUs' streams: no host synchronization and no MPI call per exchange. */
#define HALO_IPC_HANDLE_BYTES 64

/* One neighbour of a push (the receiver) or of a pull (the sender): entries start..start + count of the index
 * list; buffer + offset * unit is where those entries' values travel (the receiver's memory in a push, one's
 * own in a pull); signal is set to the round when they are written (push) or read (pull); wait is one's own
 * flag that must reach the round (pull) or the round before (push) first. */
typedef struct {
  int                 start, count, offset;
  double             *buffer;
  unsigned long long *signal, *wait;
} HaloIPCSegment;

/* One side of an exchange on the device: nseg segments (device array seg), the index list (root indices in a
 * push, leaf indices in a pull), one arrival counter a segment, and the nself entries this rank copies from its
 * own roots to its own leaves (in the push: self_root[i] -> self_leaf[i]). */
typedef struct {
  int                   nseg, nself, blocks;
  const HaloIPCSegment *seg;
  const int            *index, *self_root, *self_leaf;
  unsigned int         *count;
} HaloIPCSide;

int HaloIPCAlloc(void **ptr, size_t bytes, unsigned long long check); /* zeroed device memory to export, check its first word */
int HaloIPCPeek(const void *ptr, unsigned long long *value);           /* the first word of device memory (mapped or own) */
/* the handle of the memory block ptr lies in, the block's address (in this process) and ptr's offset in it */
int HaloIPCGetHandle(void *ptr, char handle[HALO_IPC_HANDLE_BYTES], unsigned long long *base, size_t *offset);
int HaloIPCOpen(const char handle[HALO_IPC_HANDLE_BYTES], void **ptr); /* another process's block, mapped here */
int HaloIPCClose(void *ptr);
/* leaf values from roots (unit scalars an entry) through a push side and a pull side of round seq */
int HaloIPCPushCUDA(HaloIPCSide side, int unit, unsigned long long seq, const double *root, double *leaf, void *stream);
int HaloIPCPullCUDA(HaloIPCSide side, int unit, unsigned long long seq, double *leaf, void *stream);

#ifdef __cplusplus
}
#endif
