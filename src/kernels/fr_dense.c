/* Host kernels of flux reconstruction with dense operator matrices (hoflow/kernels/fr_dense.h). */
#include <hoflow/kernels/fr_dense.h>

void FRDenseVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch)
{
  for (int e = 0; e < d->K; e++) {
    const int off = d->dof[d->e0 + e];
    FRDenseElementVolume(d, e, u + off, rhs + off, scratch);
  }
}

void FRDenseFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs)
{
  for (int e = 0; e < d->K; e++) FRDenseElementFaces(d, e, ul, rhs + d->dof[d->e0 + e]);
}
