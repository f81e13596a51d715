/* The pack and unpack of a batched halo exchange (core/opshell_batch.c): n DG vectors (n <=
 * HALO_NMAX) travel in one message per neighbour, their values interleaved node by node, so that one
 * star forest with a unit of n scalars carries them all. Host kernels in src/kernels/halo.c, CUDA
 * twins in cuda/halo.cu; both only copy, so the exchanged values are the same bits as n exchanges'. */
#pragma once

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

#ifdef __cplusplus
}
#endif
