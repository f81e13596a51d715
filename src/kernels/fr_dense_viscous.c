/* Host loops of the viscous terms of dense flux reconstruction (hoflow/kernels/fr_dense_viscous.h). */
#include <hoflow/kernels/fr_dense_viscous.h>

void FRDenseViscousStateHost(const FRDenseKernelData *d, const double *ul)
{
  for (int e = 0; e < d->K; e++) FRDenseViscousFaceState(d, e, ul);
}

void FRDenseViscousGradientHost(const FRDenseKernelData *d, const double *u)
{
  for (int e = 0; e < d->K; e++) FRDenseViscousGradient(d, e, u + d->dof[d->e0 + e]);
}

void FRDenseViscousVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch)
{
  for (int e = 0; e < d->K; e++) {
    const int off = d->dof[d->e0 + e];
    FRDenseViscousVolume(d, e, u + off, rhs + off, scratch);
  }
}

void FRDenseViscousFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs, double *scratch)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int e = 0; e < d->K; e++) {
    double *r = rhs + d->dof[d->e0 + e];
    for (int p = 0; p < z.nfpt; p++) FRDenseViscousFacePointJump(d, z, e, p, ul, scratch);
    for (int i = 0; i < z.Np; i++) FRDensePointCorrect(d, z, e, i, scratch, r);
  }
}

void FRDenseViscousGradientTraceHost(const FRDenseKernelData *d)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int e = 0; e < d->K; e++)
    if (d->gtrace_elem[d->e0 + e] >= 0)
      for (int p = 0; p < z.nfpt; p++) FRDenseViscousGradientTracePoint(d, z, e, p);
}
