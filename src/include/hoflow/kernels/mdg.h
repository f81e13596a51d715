/* Modal DG kernels of the Euler equations (-disc mdg, seed 002 §4): the right-hand side of
 *   d/dt (M_e c_e) = sum_q w J grad(phi) . F(u_q) - sum_faces sum_fq w sJ phi F*(u-, u+, n)
 * as three kernels over one block of elements (volume, face, lift = M_e^{-1}), cell means, the
 * largest wave speed over the element size (the CFL step), and the Barth–Jespersen limiter of the
 * linear part (seed 002 §4.3.5, eqs. 17-19). Host kernels in src/kernels/mdg.c, CUDA twins in
 * cuda/mdg.cu: one thread per element over the element routines below, which both share.
 *
 * Layout: element e of the block stores its nv components component-major, c[k*Np + m], at
 * dof0 + e*nv*Np of the arrays (owned elements; halo elements follow in the local array). The geometry
 * is per point for every element (affine elements too): volume points G (dr_d/dx_j at [j*dim + d]) and
 * w J; face points the unit normal and w sJ (w the face-shape cubature weight). The two elements of a
 * face evaluate at the same physical face points, placed in the face's canonical frame (hoflow/mesh.h,
 * MeshFaceOrientation); a face's basis table Pf + offset gives every mode at its points. */
#pragma once

#include <hoflow/kernels/common.h>
#include <hoflow/pointwise/advection.h>
#include <hoflow/pointwise/navier_stokes.h>

#define MDG_NMAX 6
#define MDG_NP_MAX ((MDG_NMAX + 1) * (MDG_NMAX + 1) * (MDG_NMAX + 1))
#define MDG_FACE_INFO 7 /* per face: own basis offset, neighbour dof offset (-1: boundary), neighbour basis offset (boundary: first data row), face type, neighbour Np, neighbour local element (-1: boundary), the neighbour's first point of this face in trace (-1: boundary, or a halo neighbour with -mdg_halo elements; with -mdg_halo traces a halo neighbour's slot, which the exchange fills) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, nv, Np, Nq, Nfaces, K; /* modes, volume points and faces per element; the block's owned elements */
  int           dof0, e0;                   /* first dof and local element number of the block's first element */
  int           Kh, halo_dof0, halo_e0;     /* the block's halo elements, their first dof and element number */
  int           nfq;                        /* face points of all faces of an element */
  int           fq_offset[HOFLOW_FACES_MAX + 1];
  const double *Pq;        /* [Nq*Np] the modes at the volume points */
  const double *dPq;       /* [dim*Nq*Np] their reference derivatives, dPq[(d*Nq + q)*Np + m] */
  const double *Pf;        /* face basis tables of every shape and orientation ([Nfq*Np] each) */
  const double *PqT, *PfT; /* device only: the same tables transposed ([Np*Nq], each face table [Np*Nfq] at its offset), read across point threads */
  const double *vgeo;      /* [(K + Kh)*Nq*(dim*dim + 1)] G and w J (owned, then halo elements) */
  const double *fgeo;      /* [K*nfq*(dim + 1)] n and w sJ */
  const double *Minv;      /* [K*Np*Np] inverse element mass matrices (curved), or NULL: ... */
  const double *Jinv;      /* [K] ... 1/J (affine elements: M_e = J I in the orthonormal basis) */
  const int    *face_info; /* [K*Nfaces*MDG_FACE_INFO] */
  const int    *lin;       /* [nlin] the modes of the linear part (the order-1 modes) */
  int           nlin;
  const int    *top; /* [ntop] the modes of degree N (those outside the order N-1 space) */
  int           ntop;
  double        sensor; /* > 0: Barth–Jespersen only where the density's top modes hold more than this fraction of its modal energy (troubled cells) */
  double        gamma;
  int           flux;        /* EULER_FLUX_* (EULER_FLUX_ADVECTION: linear advection, hoflow/pointwise/advection.h) */
  double        velocity[3]; /* linear advection's velocity a */
  int           barth;       /* MDGLimit: Barth–Jespersen ... */
  int           positivity;  /* ... then positivity (Zhang–Shu: density and pressure >= eps at every point) */
  double        eps;         /* positivity bound */
  const double *bc_point;    /* boundary data, EULER_BC_DATA doubles per boundary face point (rows from face_info[2]) */
  double       *trace;       /* the state at the face points of every owned element (all blocks, nv a point; the volume kernel's), then halo slots (-mdg_halo traces) */
  int           trace0;      /* ... the point of the block's first element's first face point (element e: trace0 + e nfq) */
  int           subset;      /* nonzero: the volume and face kernels run over the block's elements [range_begin, range_end) only (those with */
  int           range_begin; /* a halo neighbour, whose traces are sent, or the interior elements, while they are in flight: MeshBlock's */
  int           range_end;   /* interior_end, FRExchangeFaceRange) */
  /* Navier–Stokes (viscous != 0): BR2 viscous terms (hoflow/kernels/mdg_viscous.h) */
  int           viscous;
  NSViscosity   vis;
  double        eta;        /* BR2 penalty of the face liftings */
  double        visc_dt;    /* 2N + 1: the diffusive part of the step's speed, visc_dt D / h^2 */
  const double *grad;       /* [dim*ndof_local] projected broken gradients of owned and halo elements, at dim*(dof offset) */
  double       *Q;          /* [dim*ndof_local] the lifted gradients (broken gradient + all face liftings) of owned elements */
  double       *fstate;     /* [K*nfq*(2 nv + 1)] per face point of the block's owned elements: u-, the other side's state, heat flag */
  double       *fjw;        /* [K*nfq*dim*nv] ... the lifting integrand w sJ [u] n */
  double       *flift;      /* [K*nfq*2*dim*nv] per face point: its face's lifting on the element, then on the neighbour */
  const double *imass;      /* inverse masses of every local element: 1/J (affine) or M^{-1} (curved) ... */
  const int    *imass_info; /* ... at imass + imass_info[2 l], imass_info[2 l + 1] = 1 for M^{-1} */
  void         *stream;     /* CUDA stream */
} MDGKernelData;

/* rhs = volume term (overwrites) and the trace of the elements of the range (MDGElementRange); rhs -= face terms of the
 * elements of the range from the traces of owned neighbours and of halo neighbours (-mdg_halo traces) or the modes of
 * halo neighbours (-mdg_halo elements: u the local array, owned then halo; else unread, may be NULL); rhs = M^{-1} rhs. */
void MDGVolumeHost(const MDGKernelData *d, const double *u, double *rhs);
void MDGFaceHost(const MDGKernelData *d, const double *u, double *rhs);
void MDGLiftHost(const MDGKernelData *d, double *rhs);
/* means[l*nv + k] of the block's owned and halo elements (l the local element); speed[e] = max over volume points of (|v| + c) / h_e with h_e given */
void MDGMeansHost(const MDGKernelData *d, const double *u, double *means);
void MDGWaveSpeedHost(const MDGKernelData *d, const double *u, const double *h, double *speed);
/* Barth–Jespersen (d->barth) and the positivity bounds (d->positivity): limit u's linear part on every owned element from the cell means of all local elements
 * (means_local[l*nv + k]) and the face neighbours nb_elem[K*Nfaces] (local elements, -1 on the boundary),
 * conservatively; limited[e] = 1 where it limited, else 0 */
void MDGLimitHost(const MDGKernelData *d, const double *means_local, const int *nb_elem, double *u, double *limited);
/* BR2 viscous terms (hoflow/kernels/mdg_viscous.h), in this order: projected gradients of owned and
 * halo elements, face states and lifting integrands, face liftings, lifted gradients of owned elements,
 * then the viscous volume and face terms (before the lift) */
void MDGGradientHost(const MDGKernelData *d, const double *u, double *grad);
void MDGFaceStatesHost(const MDGKernelData *d, const double *u);
void MDGFaceLiftingsHost(const MDGKernelData *d);
void MDGLiftedGradientHost(const MDGKernelData *d);
void MDGViscousVolumeHost(const MDGKernelData *d, const double *u, double *rhs);
void MDGViscousFaceHost(const MDGKernelData *d, double *rhs);
int  MDGGradientCUDA(const MDGKernelData *d, const double *u, double *grad);
int  MDGFaceStatesCUDA(const MDGKernelData *d, const double *u);
int  MDGFaceLiftingsCUDA(const MDGKernelData *d);
int  MDGLiftedGradientCUDA(const MDGKernelData *d);
int  MDGViscousVolumeCUDA(const MDGKernelData *d, const double *u, double *rhs);
int  MDGViscousFaceCUDA(const MDGKernelData *d, double *rhs);
int  MDGVolumeCUDA(const MDGKernelData *d, const double *u, double *rhs);
int  MDGFaceCUDA(const MDGKernelData *d, const double *u, double *rhs);
int  MDGLiftCUDA(const MDGKernelData *d, double *rhs);
int  MDGMeansCUDA(const MDGKernelData *d, const double *u, double *means);
int  MDGWaveSpeedCUDA(const MDGKernelData *d, const double *u, const double *h, double *speed);
int  MDGLimitCUDA(const MDGKernelData *d, const double *means_local, const int *nb_elem, double *u, double *limited);

#ifdef __cplusplus
}
#endif

/* the state at volume point q of an element */
HOFLOW_HD void MDGEvaluate(int nv, int Np, const double *P, const double *c, double u[])
{
  for (int k = 0; k < nv; k++) {
    double s = 0;
    for (int m = 0; m < Np; m++) s += P[m] * c[k * Np + m];
    u[k] = s;
  }
}

HOFLOW_HD void MDGVolumeElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT c, double *HOFLOW_RESTRICT r)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  for (int i = 0; i < nv * Np; i++) r[i] = 0;
  for (int q = 0; q < Nq; q++) {
    const double *g = d->vgeo + ((size_t)e * Nq + q) * gs;
    double        u[EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
    MDGEvaluate(nv, Np, d->Pq + q * Np, c, u);
    ConsLawPointReferenceFlux(d->flux, dim, nv, d->gamma, d->velocity, g, u, Fr); /* w J (dr_rd/dx_j) F_j */
    for (int rd = 0; rd < dim; rd++) {
      const double *dP = d->dPq + ((size_t)rd * Nq + q) * Np;
      for (int k = 0; k < nv; k++)
        for (int m = 0; m < Np; m++) r[k * Np + m] += dP[m] * Fr[rd * nv + k];
    }
  }
}

/* the elements [begin, end) of the block a volume or face kernel runs over (d->subset) */
HOFLOW_HD void MDGElementRange(const MDGKernelData *d, int *begin, int *end)
{
  *begin = d->subset ? d->range_begin : 0;
  *end   = d->subset ? d->range_end : d->K;
}

/* the face of face point qq (0 <= qq < nfq) of an element, and the point's number on that face */
HOFLOW_HD int MDGFaceOfPoint(const MDGKernelData *d, int qq, int *q)
{
  int f = 0;
  while (qq >= d->fq_offset[f + 1]) f++;
  *q = qq - d->fq_offset[f];
  return f;
}

/* The trace of element e: the state at each of its face points, t[qq nv + k] (both elements of an interior
 * face evaluate at the same physical points, so a face's two states are two trace rows). */
HOFLOW_HD void MDGTraceElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT c, double *HOFLOW_RESTRICT t)
{
  for (int f = 0; f < d->Nfaces; f++) {
    const double *P = d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO];
    for (int q = 0, qq = d->fq_offset[f]; qq < d->fq_offset[f + 1]; q++, qq++) MDGEvaluate(d->nv, d->Np, P + q * d->Np, c, t + (size_t)qq * d->nv);
  }
}

/* w sJ times the numerical flux at point q (qq of the element) of face f of owned element e, W[nv]: the
 * element's state from its trace, the neighbour's from its trace (owned, or a halo element's slot with -mdg_halo
 * traces), from its modes in u (the local array) when it is a halo element with -mdg_halo elements, or from the
 * boundary condition */
HOFLOW_HD void MDGFacePointFlux(const MDGKernelData *d, int e, int f, int q, int qq, const double *HOFLOW_RESTRICT u, double W[])
{
  const int     dim = d->dim, nv = d->nv;
  const int    *fi               = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
  const double *fg               = d->fgeo + ((size_t)e * d->nfq + qq) * (dim + 1);
  const double *tm               = d->trace + ((size_t)d->trace0 + (size_t)e * d->nfq + qq) * nv;
  double        uM[EULER_NV_MAX] = {0}, uP[EULER_NV_MAX] = {0}, F[EULER_NV_MAX];
  for (int k = 0; k < nv; k++) uM[k] = tm[k];
  if (fi[6] >= 0)
    for (int k = 0; k < nv; k++) uP[k] = d->trace[((size_t)fi[6] + q) * nv + k];
  else if (fi[1] >= 0)
    MDGEvaluate(nv, fi[4], d->Pf + fi[2] + q * fi[4], u + fi[1], uP); /* a halo neighbour, maybe of another shape */
  else
    EulerBoundaryState(fi[3], dim, d->gamma, d->bc_point + (size_t)(fi[2] + q) * EULER_BC_DATA, uM, fg, uP);
  ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, F);
  for (int k = 0; k < nv; k++) W[k] = fg[dim] * F[k];
}

/* the face terms of element e; u: the local array (halo neighbours' modes) */
HOFLOW_HD void MDGFaceElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT r)
{
  const int nv = d->nv, Np = d->Np;
  for (int f = 0; f < d->Nfaces; f++) {
    const double *Pm = d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO];
    for (int q = 0, qq = d->fq_offset[f]; qq < d->fq_offset[f + 1]; q++, qq++) {
      double W[EULER_NV_MAX];
      MDGFacePointFlux(d, e, f, q, qq, u, W);
      for (int k = 0; k < nv; k++)
        for (int m = 0; m < Np; m++) r[k * Np + m] -= Pm[q * Np + m] * W[k];
    }
  }
}

HOFLOW_HD void MDGLiftElement(const MDGKernelData *d, int e, double *HOFLOW_RESTRICT r)
{
  const int nv = d->nv, Np = d->Np;
  if (!d->Minv) {
    const double s = d->Jinv[e];
    for (int i = 0; i < nv * Np; i++) r[i] *= s;
  } else {
    const double *Mi = d->Minv + (size_t)e * Np * Np;
    double        t[MDG_NP_MAX];
    for (int k = 0; k < nv; k++) {
      for (int i = 0; i < Np; i++) t[i] = r[k * Np + i];
      for (int i = 0; i < Np; i++) {
        double s = 0;
        for (int j = 0; j < Np; j++) s += Mi[i * Np + j] * t[j];
        r[k * Np + i] = s;
      }
    }
  }
}

HOFLOW_HD void MDGMeansElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT c, double *HOFLOW_RESTRICT mean)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  double    vol = 0;
  if (!d->Minv) { /* affine: the orthonormal modes m > 0 have mean zero, so the mean is the constant mode's */
    for (int k = 0; k < nv; k++) mean[k] = d->Pq[0] * c[k * Np];
    return;
  }
  for (int k = 0; k < nv; k++) mean[k] = 0;
  for (int q = 0; q < Nq; q++) {
    const double wJ = d->vgeo[((size_t)e * Nq + q) * gs + dim * dim];
    double       u[EULER_NV_MAX];
    MDGEvaluate(nv, Np, d->Pq + q * Np, c, u);
    for (int k = 0; k < nv; k++) mean[k] += wJ * u[k];
    vol += wJ;
  }
  for (int k = 0; k < nv; k++) mean[k] /= vol;
}

/* max over the volume points of (|v| + c) / h (+ (2N+1) D / h^2 with viscosity, D the largest diffusivity); a non-physical state (rho <= 0, p <= 0 or not finite) gives -1 */
HOFLOW_HD double MDGWaveSpeedElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT c, double h)
{
  const int nv = d->nv, Np = d->Np;
  double    s = 0;
  for (int q = 0; q < d->Nq; q++) {
    double u[EULER_NV_MAX];
    MDGEvaluate(nv, Np, d->Pq + q * Np, c, u);
    {
      const double c = ConsLawPointWaveSpeed(d->flux, d->dim, d->gamma, d->velocity, u);
      if (c < 0) return -1;
      s = fmax(s, c / h + (d->viscous ? d->visc_dt * NSDiffusivity(d->dim, d->gamma, &d->vis, u) / (h * h) : 0.0));
    }
  }
  return s;
}

/* Barth–Jespersen (seed 002 eqs. 17-19) per component: u_max/min over the element's and its face
 * neighbours' means; alpha = min over the face points of the limit that keeps mean + alpha * (linear
 * part - mean) within them. A limited element keeps alpha times its linear part and loses its higher
 * modes; its mean is restored through the constant mode (exact also on curved elements). */
/* The density and pressure bounds of Zhang & Shu (2010): scale u - mean by theta in [0, 1] so that the
 * density and then the pressure are >= eps at every volume and face point (the mean, assumed physical,
 * is kept exactly: c_0 absorbs (1 - theta) times the mean's constant mode). Returns whether it scaled. */
HOFLOW_HD int MDGPositivityElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT mean, double *HOFLOW_RESTRICT c)
{
  const int    nv = d->nv, Np = d->Np, dim = d->dim;
  const double phi0      = d->Pq[0]; /* the constant mode's value */
  double       theta_rho = 1, theta_p = 1;
  int          scaled = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int f = -1; f < d->Nfaces; f++) { /* f = -1: the volume points */
      const int     n = f < 0 ? d->Nq : d->fq_offset[f + 1] - d->fq_offset[f];
      const double *P = f < 0 ? d->Pq : d->Pf + d->face_info[((size_t)e * d->Nfaces + f) * MDG_FACE_INFO];
      for (int q = 0; q < n; q++) {
        double u[EULER_NV_MAX];
        MDGEvaluate(nv, Np, P + q * Np, c, u);
        if (pass == 0) {
          if (u[0] < d->eps) theta_rho = fmin(theta_rho, (mean[0] - d->eps) / (mean[0] - u[0]));
        } else if (EulerPressure(dim, d->gamma, u) < d->eps) { /* p(mean + t (u - mean)) = eps by bisection (p is concave) */
          double lo = 0, hi = 1;
          for (int it = 0; it < 40; it++) {
            const double t = 0.5 * (lo + hi);
            double       w[EULER_NV_MAX];
            for (int k = 0; k < nv; k++) w[k] = mean[k] + t * (u[k] - mean[k]);
            if (w[0] > 0 && EulerPressure(dim, d->gamma, w) >= d->eps)
              lo = t;
            else
              hi = t;
          }
          theta_p = fmin(theta_p, lo);
        }
      }
    }
    if (pass == 0 && theta_rho < 1) { /* scale the density */
      theta_rho = fmax(theta_rho, 0.0);
      for (int m = 1; m < Np; m++) c[m] *= theta_rho;
      c[0]   = theta_rho * c[0] + (1 - theta_rho) * mean[0] / phi0;
      scaled = 1;
    }
  }
  if (theta_p < 1) {
    for (int k = 0; k < nv; k++) {
      for (int m = 1; m < Np; m++) c[k * Np + m] *= theta_p;
      c[k * Np] = theta_p * c[k * Np] + (1 - theta_p) * mean[k] / phi0;
    }
    scaled = 1;
  }
  return scaled;
}

/* The modal smoothness sensor of Persson & Peraire (2006) on the density: the fraction of its modal
 * energy in the modes of degree N, sum_top c_m^2 / sum_m c_m^2 (orthonormal modes), above d->sensor
 * marks a troubled cell. Resolved smooth data decay like h^(2N) there; a discontinuity keeps O(1/N). */
HOFLOW_HD int MDGTroubledElement(const MDGKernelData *d, const double *HOFLOW_RESTRICT c)
{
  double top = 0, all = 0;
  if (d->sensor <= 0) return 1;
  for (int i = 0; i < d->ntop; i++) top += c[d->top[i]] * c[d->top[i]];
  for (int m = 0; m < d->Np; m++) all += c[m] * c[m];
  return top > d->sensor * all;
}

HOFLOW_HD int MDGLimitElement(const MDGKernelData *d, int e, const double *HOFLOW_RESTRICT means_local, const int *HOFLOW_RESTRICT nb_elem, double *HOFLOW_RESTRICT c)
{
  const int dim = d->dim, nv = d->nv, Np = d->Np, Nq = d->Nq, gs = dim * dim + 1;
  const int barth   = d->barth && MDGTroubledElement(d, c);
  int       limited = 0;
  for (int k = 0; k < nv && barth; k++) {
    const double mean = means_local[(size_t)(d->e0 + e) * nv + k];
    double       umax = mean, umin = mean, alpha = 1;
    for (int f = 0; f < d->Nfaces; f++) {
      const int nb = nb_elem[(size_t)e * d->Nfaces + f];
      if (nb >= 0) {
        umax = fmax(umax, means_local[(size_t)nb * nv + k]);
        umin = fmin(umin, means_local[(size_t)nb * nv + k]);
      }
    }
    for (int f = 0; f < d->Nfaces; f++) {
      const int    *fi  = d->face_info + ((size_t)e * d->Nfaces + f) * MDG_FACE_INFO;
      const int     nfq = d->fq_offset[f + 1] - d->fq_offset[f];
      const double *P   = d->Pf + fi[0];
      for (int q = 0; q < nfq; q++) { /* the linear part minus the mean (phi_0's part of the constant) */
        double delta = 0, lin0 = 0;
        for (int i = 0; i < d->nlin; i++) {
          const int m = d->lin[i];
          if (m == 0)
            lin0 = P[q * Np] * c[k * Np];
          else
            delta += P[q * Np + m] * c[k * Np + m];
        }
        delta += lin0 - mean;
        if (delta > 1e-13 * fmax(1.0, fabs(mean)))
          alpha = fmin(alpha, (umax - mean) / delta);
        else if (delta < -1e-13 * fmax(1.0, fabs(mean)))
          alpha = fmin(alpha, (umin - mean) / delta);
      }
    }
    if (alpha < 1) {
      double newmean = 0, vol = 0, phi0 = 0;
      alpha = fmax(alpha, 0.0);
      for (int m = 1; m < Np; m++) {
        int is_lin = 0;
        for (int i = 0; i < d->nlin; i++) is_lin = is_lin || d->lin[i] == m;
        c[k * Np + m] *= is_lin ? alpha : 0.0;
      }
      limited = 1;
      if (!d->Minv) continue;        /* affine: the modes m > 0 do not change the mean */
      for (int q = 0; q < Nq; q++) { /* restore the mean through the constant mode (curved elements) */
        const double wJ = d->vgeo[((size_t)e * Nq + q) * gs + dim * dim];
        double       s  = 0;
        for (int m = 0; m < Np; m++) s += d->Pq[q * Np + m] * c[k * Np + m];
        newmean += wJ * s;
        phi0 += wJ * d->Pq[q * Np];
        vol += wJ;
      }
      c[k * Np] += (mean * vol - newmean) / phi0;
    }
  }
  if (d->positivity && MDGPositivityElement(d, e, means_local + (size_t)(d->e0 + e) * nv, c)) limited = 1;
  return limited;
}
