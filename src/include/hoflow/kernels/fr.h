/* Flux-reconstruction kernels of the Euler equations and linear advection (the flux type chooses:
 * hoflow/pointwise/advection.h) on quadrilaterals and hexahedra (-disc fr, hoflow/fr.h): the right-hand side of
 * one element in two parts (the volume part and the element's trace need only its own values, so they run while
 * the halo exchange is in flight; the face part reads the neighbours'), the largest wave speed, as element
 * routines over affine and non-affine elements (the metric at every point). Host loops in src/kernels/fr.c (no
 * CUDA twins yet). PETSc-free.
 *
 * Layout: element l of the local array stores u[k*Np + i] at l*nv*Np (every element of the mesh has the
 * same Np); solution point i = i_0 + n1 (i_1 + n1 i_2), n1 = N + 1. Face f of an element is the face
 * r_dir[f] = side[f] (side +-1); its point q (q = t_0 + n1 t_1 over the other directions, in increasing
 * order) ends the solution-point line that starts at line[f*nfp + q] (i_dir = 0) and runs with stride
 * n1^dir[f]. */
#pragma once

#include <hoflow/kernels/common.h>
#include <hoflow/pointwise/advection.h>

#define FR_FACE_INFO 3 /* per element face: the neighbour's local element (-1: boundary), its face (boundary: the type), the first boundary data row (-1 inside) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, nv, n1, Np, Nfaces, nfp, K; /* nfp: points of a face, n1^(dim-1); K owned elements */
  const double *D;                               /* [n1*n1] D[i*n1 + m] = l_m'(x_i), the 1D derivative at the Gauss points */
  const double *lL, *lR;                         /* [n1] l_m(-1), l_m(1) */
  const double *gL, *gR;                         /* [n1] g_L'(x_i), g_R'(x_i) */
  int           dir[HOFLOW_FACES_MAX], side[HOFLOW_FACES_MAX];
  const int    *line;      /* [Nfaces*nfp] the first solution point of face point q's line */
  const double *geo;       /* [K*Np*(dim*dim + 1)] G (dr_d/dx_j at [j*dim + d]) and J at every solution point */
  const double *fgeo;      /* [K*Nfaces*nfp*(dim + 1)] outward unit normal and J |grad r_dir| at every face point */
  const int    *face_info; /* [K*Nfaces*FR_FACE_INFO] */
  const int    *nb_line;   /* [K*Nfaces*nfp] the neighbour's line start of the same physical point */
  const double *bc_point;  /* boundary data, EULER_BC_DATA doubles per boundary face point */
  double        gamma;
  int           flux;        /* EULER_FLUX_* (EULER_FLUX_ADVECTION: linear advection, hoflow/pointwise/advection.h) */
  double        velocity[3]; /* linear advection's velocity a */
} FRKernelData;

/* The state at the end of line (start, stride) on side s (+1: r = 1) by the 1D interpolation l_L or l_R. */
HOFLOW_HD void FRLineEnd(const FRKernelData *d, const double *HOFLOW_RESTRICT u, int start, int stride, int s, double w[])
{
  const double *l = s > 0 ? d->lR : d->lL;
  for (int k = 0; k < d->nv; k++) {
    double v = 0;
    for (int m = 0; m < d->n1; m++) v += l[m] * u[(size_t)k * d->Np + start + m * stride];
    w[k] = v;
  }
}

/* The volume part of owned element e, which needs no neighbour: rhs = the divergence of its discontinuous
 * transformed flux along every line, and its trace tr (2 nv doubles per face point, face by face: the state
 * u- and the discontinuous normal transformed flux Fh^D at the point); Fh is scratch of dim*Np*nv doubles. */
HOFLOW_HD void FRElementVolume(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, n1 = d->n1, gs = dim * dim + 1;
  for (int i = 0; i < Np; i++) { /* the transformed flux Fh_d = J sum_j G_jd F_j at every point, Fh[(d*nv + k)*Np + i] */
    const double *g = d->geo + ((size_t)e * Np + i) * gs, J = g[dim * dim];
    double        w[EULER_NV_MAX], F[3 * EULER_NV_MAX];
    for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
    ConsLawPointFlux(d->flux, dim, d->gamma, d->velocity, w, F);
    for (int rd = 0; rd < dim; rd++)
      for (int k = 0; k < nv; k++) {
        double s = 0;
        for (int j = 0; j < dim; j++) s += g[j * dim + rd] * F[j * nv + k];
        Fh[((size_t)rd * nv + k) * Np + i] = J * s;
      }
  }
  for (int i = 0; i < nv * Np; i++) rhs[i] = 0;
  for (int rd = 0, stride = 1; rd < dim; rd++, stride *= n1) /* the divergence of the discontinuous flux along every line */
    for (int i = 0; i < Np; i++) {
      const int id = (i / stride) % n1, start = i - id * stride;
      for (int k = 0; k < nv; k++) {
        const double *f = Fh + ((size_t)rd * nv + k) * Np + start;
        double        s = 0;
        for (int m = 0; m < n1; m++) s += d->D[id * n1 + m] * f[m * stride];
        rhs[(size_t)k * Np + i] += s;
      }
    }
  for (int f = 0; f < d->Nfaces; f++) {
    const int rd = d->dir[f], s = d->side[f];
    int       stride = 1;
    for (int j = 0; j < rd; j++) stride *= n1;
    for (int q = 0; q < d->nfp; q++) {
      double *t = tr + ((size_t)f * d->nfp + q) * 2 * nv;
      FRLineEnd(d, u, d->line[f * d->nfp + q], stride, s, t);
      FRLineEnd(d, Fh + (size_t)rd * nv * Np, d->line[f * d->nfp + q], stride, s, t + nv);
    }
  }
}

/* The face part of owned element e: rhs += (Fh^I - Fh^D) g' along the line of every face point (u+ from the
 * neighbour's line in the local array ul, or the boundary state), then rhs = -rhs / J at every solution point
 * (non-affine elements: the metric at every point; Fh_d is then a polynomial of the points' J G, which the
 * collocation differentiates exactly on bilinear quadrilaterals, so a uniform state stays uniform). */
HOFLOW_HD void FRElementFaces(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT ul, const double *HOFLOW_RESTRICT tr, double *HOFLOW_RESTRICT rhs)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, n1 = d->n1, gs = dim * dim + 1;
  for (int f = 0; f < d->Nfaces; f++) {
    const int     rd = d->dir[f], s = d->side[f], *fi = d->face_info + ((size_t)e * d->Nfaces + f) * FR_FACE_INFO;
    const double *gp     = s > 0 ? d->gR : d->gL;
    int           stride = 1;
    for (int j = 0; j < rd; j++) stride *= n1;
    for (int q = 0; q < d->nfp; q++) {
      const int     start = d->line[f * d->nfp + q];
      const double *uM = tr + ((size_t)f * d->nfp + q) * 2 * nv, *FD = uM + nv, *fg = d->fgeo + (((size_t)e * d->Nfaces + f) * d->nfp + q) * (dim + 1);
      double        uP[EULER_NV_MAX], Fn[EULER_NV_MAX];
      if (fi[0] >= 0) { /* the neighbour's state at the same physical point */
        const int g2 = fi[1], s2 = d->side[g2];
        int       stride2 = 1;
        for (int j = 0; j < d->dir[g2]; j++) stride2 *= n1;
        FRLineEnd(d, ul + (size_t)fi[0] * nv * Np, d->nb_line[((size_t)e * d->Nfaces + f) * d->nfp + q], stride2, s2, uP);
      } else
        EulerBoundaryState(fi[1], dim, d->gamma, d->bc_point + (size_t)(fi[2] + q) * EULER_BC_DATA, uM, fg, uP);
      ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, Fn);
      for (int k = 0; k < nv; k++) {
        const double jump = s * fg[dim] * Fn[k] - FD[k];
        for (int m = 0; m < n1; m++) rhs[(size_t)k * Np + start + m * stride] += jump * gp[m];
      }
    }
  }
  for (int k = 0; k < nv; k++)
    for (int i = 0; i < Np; i++) rhs[(size_t)k * Np + i] *= -1.0 / d->geo[((size_t)e * Np + i) * gs + dim * dim];
}

/* the largest wave speed / h over the element's solution points ((|v| + c) / h; advection |a| / h); -1 for a non-physical state */
HOFLOW_HD double FRWaveSpeedElement(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT u, double h)
{
  double s = 0;
  for (int i = 0; i < d->Np; i++) {
    double w[EULER_NV_MAX], c;
    for (int k = 0; k < d->nv; k++) w[k] = u[(size_t)e * d->nv * d->Np + (size_t)k * d->Np + i];
    c = ConsLawPointWaveSpeed(d->flux, d->dim, d->gamma, d->velocity, w);
    if (c < 0) return -1;
    s = fmax(s, c / h);
  }
  return s;
}

/* every owned element: the volume part from the owned array u (before the halo exchange ends) with the trace
 * tr [K*Nfaces*nfp*2*nv] and scratch [dim*Np*nv]; then the face part from the local array ul */
void FRVolumeHost(const FRKernelData *d, const double *u, double *rhs, double *scratch, double *tr);
void FRFaceHost(const FRKernelData *d, const double *ul, const double *tr, double *rhs);
void FRWaveSpeedHost(const FRKernelData *d, const double *u, const double *h, double *speed);

#ifdef __cplusplus
}
#endif
