/* Host kernels of the batched halo exchange (hoflow/kernels/halo.h). */
#include <hoflow/kernels/halo.h>

void HaloGatherHost(int n, int m, const int *index, HaloArrays a, double *buffer)
{
  for (int j = 0; j < m; j++)
    for (int k = 0; k < n; k++) buffer[(long)j * n + k] = a.in[k][index[j]];
}

void HaloScatterHost(int n, int m, const int *index, const double *buffer, HaloArrays a)
{
  for (int j = 0; j < m; j++)
    for (int k = 0; k < n; k++) a.out[k][index[j]] = buffer[(long)j * n + k];
}
