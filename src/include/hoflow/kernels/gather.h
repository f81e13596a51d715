/* The two index kernels of the gathered CG1 <-> DG1 transfer (op/cg1_transfer.c): a CSR gather-sum (the
 * restriction's per-vertex sums, twice: over this rank's DG1 nodes, then over every rank's partial sums) and
 * an indexed add (the interpolation from the gathered coarse solution). Host twins in src/kernels/gather.c,
 * CUDA twins in cuda/gather.cu; each sum runs in the order of its index list, so the host and the device,
 * and every rank, produce the same bits (no atomics). */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] = sum_{j = ptr[i]}^{ptr[i+1]-1} src[idx[j]] for i < n, summed in j's order */
void GatherSumHost(int n, const int *ptr, const int *idx, const double *src, double *dst);
/* w[i] = y[i] + src[map[i]] for i < n (y NULL: 0); w may be y */
void GatherAddHost(int n, const int *map, const double *src, const double *y, double *w);
int  GatherSumCUDA(int n, const int *ptr, const int *idx, const double *src, double *dst, void *stream);
int  GatherAddCUDA(int n, const int *map, const double *src, const double *y, double *w, void *stream);

#ifdef __cplusplus
}
#endif
