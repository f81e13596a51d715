/* Host kernels of flux reconstruction with dense operator matrices (hoflow/kernels/fr_dense.h): the element routines
 * over every owned element of a block; cuda/fr_dense.cu runs the same point routines one thread a point. */
#include <hoflow/kernels/fr_dense.h>

void FRDenseVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch)
{
  for (int e = 0; e < d->K; e++) {
    const int off = d->dof[d->e0 + e];
    FRDenseElementVolume(d, e, u + off, rhs + off, scratch);
  }
}

void FRDenseFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs, double *scratch)
{
  for (int i = 0; i < FRDenseFaceCount(d); i++) {
    const int e = FRDenseFaceElement(d, i);
    FRDenseElementFaces(d, e, ul, scratch, rhs + d->dof[d->e0 + e]);
  }
}

void FRDenseWaveSpeedHost(const FRDenseKernelData *d, const double *u, const double *h, double *speed)
{
  for (int e = 0; e < d->K; e++) speed[d->e0 + e] = FRDenseWaveSpeedElement(d, u + d->dof[d->e0 + e], h[d->e0 + e]);
}
