/* Host twins of the gathered CG1 transfer's index kernels (hoflow/kernels/gather.h); the CUDA twins are
 * cuda/gather.cu. */
#include <hoflow/kernels/gather.h>

void GatherSumHost(int n, const int *ptr, const int *idx, const double *src, double *dst)
{
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = ptr[i]; j < ptr[i + 1]; j++) s += src[idx[j]];
    dst[i] = s;
  }
}

void GatherAddHost(int n, const int *map, const double *src, const double *y, double *w)
{
  for (int i = 0; i < n; i++) w[i] = (y ? y[i] : 0.0) + src[map[i]];
}
