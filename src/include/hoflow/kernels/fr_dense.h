/* Flux-reconstruction kernels with dense operator matrices (-disc fr on triangles, tetrahedra, prisms and mixed
 * meshes, disc/fr_dense.c): the Euler equations and linear advection (the flux type chooses, as in
 * hoflow/kernels/fr.h). One kernel data per mesh block (one shape); PETSc-free, host loops in
 * src/kernels/fr_dense.c (no CUDA twins yet).
 *
 * Element l stores u[k*Np + i] (component k, solution point i: the nodes of hoflow's RefElement) at dof[l]. Its
 * flux points are the points of the face cubature on every face (MeshFaceCubature in the element's canonical
 * orientation of that face, so the two elements of a face list the same physical points in the same order);
 * point q of face f is flux point fp_off[f] + q. In reference coordinates (the metric at every point)
 *
 *   du/dt = -(1/J) [ sum_d D_d Fh_d + sum_faces C_f (Fh^I - Fh^D . nr_f) ]
 *
 * with Fh_d = J sum_j G_jd F_j the transformed flux at the solution points, Fh^D . nr_f its interpolant's normal
 * component at the flux points (nr_f the unit reference normal of face f), Fh^I = J |G nr_f| F*(u-, u+, n) the
 * common one (n = G nr_f / |G nr_f|), and C_f = (M + K)^{-1} E_f the correction field's divergence at the
 * solution points (E_f[i, q] = w_q ratio_f l_i(x_q), w the face-shape cubature weights, ratio_f the face's area
 * in reference coordinates over the face shape's); K = 0 is the nodal DG scheme (disc/fr_dense.c: K). */
#pragma once

#include <hoflow/kernels/common.h>
#include <hoflow/pointwise/advection.h>
#include <hoflow/pointwise/ldg.h>

#define FRD_FACE_INFO 6 /* per element face: own table offset, neighbour's local element (-1: boundary), neighbour's dof offset, neighbour's Np, neighbour's table offset (boundary: first data row), face type */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, nv, Np, Nfaces, nfpt, K, e0; /* nfpt flux points of all faces; owned elements e0 .. e0 + K - 1 */
  int           fp_off[HOFLOW_FACES_MAX + 1];
  double        nref[HOFLOW_FACES_MAX][3]; /* unit outward reference normals */
  const double *D;                         /* [dim*Np*Np] D[(d*Np + i)*Np + m] = d l_m / d r_d at solution point i */
  const double *L, *C;                     /* every shape's face tables: at offset o, L [nfp*Np] (interpolation to the face's points) and C [Np*nfp] */
  const int    *dof;                       /* [Klocal+1] every local element's first value */
  const double *geo;                       /* [K*Np*(dim*dim + 1)] G (dr_d/dx_j at [j*dim + d]) and J at every solution point */
  const double *fgeo;                      /* [K*nfpt*(dim + 1)] outward unit normal and J |G nr| at every flux point */
  const int    *face_info;                 /* [K*Nfaces*FRD_FACE_INFO] */
  double       *trace;                     /* the block's owned elements' traces, [K*nfpt*2*nv]: u- and Fh^D . nr per flux point */
  const double *bc_point;                  /* boundary data, EULER_BC_DATA doubles per boundary face point */
  double        gamma;
  int           flux;        /* EULER_FLUX_* (EULER_FLUX_ADVECTION: linear advection) */
  double        velocity[3]; /* linear advection's velocity a */
  /* Navier–Stokes (ldg.on): the corrected-gradient viscous terms, hoflow/kernels/fr_dense_viscous.h */
  NSLDG         ldg;
  const double *face_scale; /* [K*Nfaces] 1/h = |F| / min(|E-|, |E+|) of every face */
  double       *ujump;      /* [K*nfpt*nv] u_I - u- at every flux point of the block's owned elements */
  double       *grad;       /* the corrected physical gradients of every owned element (all blocks), local element l's
                               [(j*nv + k)*Np + i] at dim*dof[l] */
} FRDenseKernelData;

HOFLOW_HD void FRDenseViscousFacePointFlux(const FRDenseKernelData *d, int e, int f, int q, const double uM[], const double uP[], const double fg[], double Fv[]);

/* v[nv] = the values u (component-major, Np per component) interpolated by the row l[Np] */
HOFLOW_HD void FRDenseInterpolate(int nv, int Np, const double *HOFLOW_RESTRICT l, const double *HOFLOW_RESTRICT u, double v[])
{
  for (int k = 0; k < nv; k++) {
    double s = 0;
    for (int m = 0; m < Np; m++) s += l[m] * u[(size_t)k * Np + m];
    v[k] = s;
  }
}

/* The volume part of the block's element e (needs no neighbour): rhs = sum_d D_d Fh_d, and the element's trace;
 * Fh is scratch of dim*nv*Np doubles. */
HOFLOW_HD void FRDenseElementVolume(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, gs = dim * dim + 1;
  for (int i = 0; i < Np; i++) {
    const double *g = d->geo + ((size_t)e * Np + i) * gs;
    double        w[EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
    for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
    ConsLawPointReferenceFlux(d->flux, dim, nv, d->gamma, d->velocity, g, w, Fr);
    for (int rk = 0; rk < dim * nv; rk++) Fh[(size_t)rk * Np + i] = Fr[rk];
  }
  for (int k = 0; k < nv; k++)
    for (int i = 0; i < Np; i++) {
      double s = 0;
      for (int rd = 0; rd < dim; rd++) {
        const double *Dr = d->D + ((size_t)rd * Np + i) * Np, *f = Fh + ((size_t)rd * nv + k) * Np;
        for (int m = 0; m < Np; m++) s += Dr[m] * f[m];
      }
      rhs[(size_t)k * Np + i] = s;
    }
  for (int f = 0; f < d->Nfaces; f++) {
    const double *L = d->L + d->face_info[((size_t)e * d->Nfaces + f) * FRD_FACE_INFO];
    for (int q = 0; q < d->fp_off[f + 1] - d->fp_off[f]; q++) {
      double *t = d->trace + ((size_t)e * d->nfpt + d->fp_off[f] + q) * 2 * nv, Fd[EULER_NV_MAX];
      FRDenseInterpolate(nv, Np, L + (size_t)q * Np, u, t);
      for (int k = 0; k < nv; k++) t[nv + k] = 0;
      for (int rd = 0; rd < dim; rd++) {
        FRDenseInterpolate(nv, Np, L + (size_t)q * Np, Fh + (size_t)rd * nv * Np, Fd);
        for (int k = 0; k < nv; k++) t[nv + k] += d->nref[f][rd] * Fd[k];
      }
    }
  }
}

/* The face part of the block's element e: rhs += C_f (Fh^I - Fh^D . nr) on every face (u+ interpolated from the
 * neighbour's values in the local array ul, or the boundary state), then rhs = -rhs / J at every solution point. */
HOFLOW_HD void FRDenseElementFaces(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT ul, double *HOFLOW_RESTRICT rhs)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, gs = dim * dim + 1;
  for (int f = 0; f < d->Nfaces; f++) {
    const int    *fi  = d->face_info + ((size_t)e * d->Nfaces + f) * FRD_FACE_INFO;
    const int     nfp = d->fp_off[f + 1] - d->fp_off[f];
    const double *C   = d->C + fi[0];
    for (int q = 0; q < nfp; q++) {
      const int     qq = d->fp_off[f] + q;
      const double *uM = d->trace + ((size_t)e * d->nfpt + qq) * 2 * nv, *FD = uM + nv, *fg = d->fgeo + ((size_t)e * d->nfpt + qq) * (dim + 1);
      double        uP[EULER_NV_MAX], Fn[EULER_NV_MAX];
      if (fi[1] >= 0)
        FRDenseInterpolate(nv, fi[3], d->L + fi[4] + (size_t)q * fi[3], ul + fi[2], uP);
      else
        EulerBoundaryState(fi[5], dim, d->gamma, d->bc_point + (size_t)(fi[4] + q) * EULER_BC_DATA, uM, fg, uP);
      ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, Fn);
      if (d->ldg.on) { /* Navier–Stokes: F* - F_v^I */
        double Fv[EULER_NV_MAX];
        FRDenseViscousFacePointFlux(d, e, f, q, uM, uP, fg, Fv);
        for (int k = 0; k < nv; k++) Fn[k] -= Fv[k];
      }
      for (int k = 0; k < nv; k++) {
        const double jump = fg[dim] * Fn[k] - FD[k];
        for (int i = 0; i < Np; i++) rhs[(size_t)k * Np + i] += C[(size_t)i * nfp + q] * jump;
      }
    }
  }
  for (int k = 0; k < nv; k++)
    for (int i = 0; i < Np; i++) rhs[(size_t)k * Np + i] *= -1.0 / d->geo[((size_t)e * Np + i) * gs + dim * dim];
}

/* the largest wave speed / h over the element's solution points ((|v| + c) / h; advection |a| / h); -1 for a non-physical state */
HOFLOW_HD double FRDenseWaveSpeedElement(const FRDenseKernelData *d, const double *HOFLOW_RESTRICT u, double h)
{
  double s = 0;
  for (int i = 0; i < d->Np; i++) {
    double w[EULER_NV_MAX], c;
    for (int k = 0; k < d->nv; k++) w[k] = u[(size_t)k * d->Np + i];
    c = ConsLawPointWaveSpeed(d->flux, d->dim, d->gamma, d->velocity, w);
    if (c < 0) return -1;
    s = fmax(s, c / h + (d->ldg.on ? d->ldg.dt_scale * NSDiffusivity(d->dim, d->gamma, &d->ldg.vis, w) / (h * h) : 0.0));
  }
  return s;
}

/* every owned element of the block: the volume parts from the owned array u (while the halo exchange is in flight;
 * scratch [dim*nv*Np]), then the face parts from the local array ul */
void FRDenseVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch);
void FRDenseFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs);

#ifdef __cplusplus
}
#endif

#include <hoflow/kernels/fr_dense_viscous.h>
