/* Host kernels of modal DG for the Euler equations (hoflow/kernels/mdg.h): the reference for the CUDA
 * twins in cuda/mdg.cu, element routines shared with them. */
#include <hoflow/kernels/mdg_viscous.h>

void MDGVolumeHost(const MDGKernelData *d, const double *u, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  int          begin, end;
  MDGElementRange(d, &begin, &end);
  for (int e = begin; e < end; e++) {
    MDGVolumeElement(d, e, u + d->dof0 + e * s, rhs + d->dof0 + e * s);
    MDGTraceElement(d, e, u + d->dof0 + e * s, d->trace + ((size_t)d->trace0 + (size_t)e * d->nfq) * d->nv);
  }
}

void MDGFaceHost(const MDGKernelData *d, const double *u, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  int          begin, end;
  MDGElementRange(d, &begin, &end);
  for (int e = begin; e < end; e++) MDGFaceElement(d, e, u, rhs + d->dof0 + e * s);
}

void MDGLiftHost(const MDGKernelData *d, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) MDGLiftElement(d, e, rhs + d->dof0 + e * s);
}

void MDGMeansHost(const MDGKernelData *d, const double *u, double *means)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int k = 0; k < d->K + d->Kh; k++) {
    const int     l = k < d->K ? d->e0 + k : d->halo_e0 + (k - d->K);
    const double *c = u + (k < d->K ? d->dof0 + k * s : d->halo_dof0 + (k - d->K) * s);
    MDGMeansElement(d, k, c, means + (size_t)l * d->nv);
  }
}

void MDGWaveSpeedHost(const MDGKernelData *d, const double *u, const double *h, double *speed)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) speed[e] = MDGWaveSpeedElement(d, e, u + d->dof0 + e * s, h[e]);
}

void MDGLimitHost(const MDGKernelData *d, const double *means_local, const int *nb_elem, double *u, double *limited)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) limited[e] = MDGLimitElement(d, e, means_local, nb_elem, u + d->dof0 + e * s);
}

/* ---- BR2 viscous terms (hoflow/kernels/mdg_viscous.h) ---- */
void MDGGradientHost(const MDGKernelData *d, const double *u, double *grad)
{
  for (int k = 0; k < d->K + d->Kh; k++) MDGGradientElement(d, k, u, grad);
}

void MDGFaceStatesHost(const MDGKernelData *d, const double *u)
{
  for (int e = 0; e < d->K; e++)
    for (int qq = 0; qq < d->nfq; qq++) MDGViscousFaceStatePoint(d, e, qq, u);
}

void MDGFaceLiftingsHost(const MDGKernelData *d)
{
  const int nc = d->dim * d->nv;
  for (int e = 0; e < d->K; e++)
    for (int f = 0; f < d->Nfaces; f++)
      for (int side = 0; side < (d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO + 1] >= 0 ? 2 : 1); side++)
        for (int i = 0; i < nc; i++) MDGFaceLiftingComponent(d, e, f, side, i);
}

void MDGLiftedGradientHost(const MDGKernelData *d)
{
  const int nc = d->dim * d->nv;
  for (int e = 0; e < d->K; e++)
    for (int i = 0; i < nc; i++) MDGLiftedGradientComponent(d, e, i);
}

void MDGViscousVolumeHost(const MDGKernelData *d, const double *u, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) MDGViscousVolumeElement(d, e, u, rhs + d->dof0 + e * s);
}

void MDGViscousFaceHost(const MDGKernelData *d, double *rhs)
{
  const size_t s = (size_t)d->nv * d->Np;
  for (int e = 0; e < d->K; e++) MDGViscousFaceElement(d, e, rhs + d->dof0 + e * s);
}
