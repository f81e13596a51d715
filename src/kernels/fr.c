/* Host kernels of flux reconstruction for the Euler equations and linear advection (hoflow/kernels/fr.h): the
 * element routines over every owned element; cuda/fr.cu runs the same point routines one thread a point. */
#include <hoflow/kernels/fr.h>

void FRVolumeHost(const FRKernelData *d, const double *u, double *rhs, double *scratch, double *tr)
{
  const size_t s = (size_t)d->nv * d->Np, t = (size_t)d->Nfaces * d->nfp * 2 * d->nv;
  for (int e = 0; e < d->K; e++) FRElementVolume(d, e, u + e * s, rhs + e * s, scratch, tr + e * t);
}

void FRFaceHost(const FRKernelData *d, const double *ul, const double *tr, double *scratch, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int i = 0; i < FRFaceCount(d); i++) {
    const int e = FRFaceElement(d, i);
    FRElementFaces(d, e, ul, tr, scratch, rhs + e * s);
  }
}

void FRWaveSpeedHost(const FRKernelData *d, const double *u, const double *h, double *speed)
{
  for (int e = 0; e < d->K; e++) speed[e] = FRWaveSpeedElement(d, e, u, h[e]);
}

void FRViscousHost(const FRKernelData *d, const double *u, const double *ul, double *tr, double *scratch, double *rhs)
{
  const FRSizes z = FRSizesOf(d);
  const size_t  s = (size_t)d->nv * d->Np, t = (size_t)d->Nfaces * d->nfp * 2 * d->nv;
  for (int e = 0; e < d->K; e++)
    for (int p = 0; p < z.Nfaces * z.nfp; p++) FRViscousFacePointState(d, z, e, p, ul, tr);
  for (int e = 0; e < d->K; e++)
    for (int i = 0; i < z.Np; i++) FRViscousPointGradient(d, z, e, i, u + e * s);
  for (int e = 0; e < d->K; e++) FRViscousElementVolume(d, e, u + e * s, rhs + e * s, scratch, tr + e * t);
}

void FRViscousGradientTraceHost(const FRKernelData *d)
{
  const FRSizes z = FRSizesOf(d);
  for (int e = 0; e < d->K; e++)
    if (d->gtrace_elem[e] >= 0)
      for (int p = 0; p < z.Nfaces * z.nfp; p++) FRViscousGradientTracePoint(d, z, e, p);
}
