/* Host kernels of flux reconstruction for the Euler equations (hoflow/kernels/fr.h). */
#include <hoflow/kernels/fr.h>

void FRRHSHost(const FRKernelData *d, const double *ul, double *rhs, double *scratch)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) FRElementRHS(d, e, ul, rhs + e * s, scratch);
}

void FRWaveSpeedHost(const FRKernelData *d, const double *u, const double *h, double *speed)
{
  for (int e = 0; e < d->K; e++) speed[e] = FRWaveSpeedElement(d, e, u, h[e]);
}
