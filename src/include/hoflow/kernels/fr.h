/* Flux-reconstruction kernels of the Euler equations and linear advection (the flux type chooses:
 * hoflow/pointwise/advection.h) on quadrilaterals and hexahedra (-disc fr, hoflow/fr.h): the right-hand side of
 * one element in two parts (the volume part and the element's trace need only its own values, so they run while
 * the halo exchange is in flight; the face part reads the neighbours'), the largest wave speed, as element
 * routines over affine and non-affine elements (the metric at every point), built from point routines (one
 * solution or face point each) that the host loops (src/kernels/fr.c) and the CUDA kernels (cuda/fr.cu: one
 * thread a point, several elements a thread block) share. PETSc-free.
 *
 * Layout: element l of the local array stores u[k*Np + i] at l*nv*Np (every element of the mesh has the
 * same Np); solution point i = i_0 + n1 (i_1 + n1 i_2), n1 = N + 1. Face f of an element is the face
 * r_dir[f] = side[f] (side +-1); its point q (q = t_0 + n1 t_1 over the other directions, in increasing
 * order) ends the solution-point line that starts at line[f*nfp + q] (i_dir = 0) and runs with stride
 * n1^dir[f]. */
#pragma once

#include <hoflow/kernels/common.h>
#include <hoflow/pointwise/advection.h>
#include <hoflow/pointwise/ldg.h>

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
  int           flux;                 /* EULER_FLUX_* (EULER_FLUX_ADVECTION: linear advection, hoflow/pointwise/advection.h) */
  double        velocity[3];          /* linear advection's velocity a */
  void         *stream;               /* CUDA stream (device copies) */
  int           face_subset;          /* nonzero: the face step runs over elements face_begin .. face_end - 1 (of the */
  int           face_begin, face_end; /* block) only; set per call by the exchange strategy (disc/fr_exchange.c) */
  int           halo_traces;          /* nonzero (-fr_halo traces): the traces tr hold every halo element's too (its faces */
                                      /* that owned elements share, received from its owner): read as an owned neighbour's */
  /* Navier–Stokes (ldg.on): the corrected-gradient viscous terms (seed 003 §II; the interface treatment of
   * hoflow/pointwise/ldg.h), one rank, host and device (the FRViscous* routines below, cuda/fr_viscous.cu) */
  NSLDG         ldg;
  const double *face_scale; /* [K*Nfaces] 1/h = |F| / min(|E-|, |E+|) of every face (the penalty's length) */
  double       *ujump;      /* [K*nv*Nfq] u_I - u- at every face point of every owned element, [k*Nfq + p] */
  double       *grad;       /* [K*dim*nv*Np] the corrected physical gradient at the solution points, [(j*nv + k)*Np + i] */
  /* several ranks (-fr_halo traces): the corrected gradients at the face points of the elements on partition faces, owned
   * (written by FRViscousGradientTracePoint, sent) and halo (received), element l's [dim*nv][Nfq] at gtrace_elem[l] */
  const int *gtrace_elem; /* [Klocal] (-1: none); NULL on one rank */
  double    *gtrace;
} FRKernelData;

/* The sizes the point routines loop over, passed by value so that the CUDA kernels give them as compile-time
 * constants (cuda/fr.cu: per dimension and order); the host takes them from the data (FRSizesOf). */
typedef struct {
  int dim, nv, n1, Np, nfp, Nfaces;
} FRSizes;

/* The face step's i-th element, and how many (FRExchange's subsets: the interior elements, then those with a halo
 * neighbour; all K by default) */
HOFLOW_HD int FRFaceElement(const FRKernelData *d, int i)
{
  return d->face_subset ? d->face_begin + i : i;
}
HOFLOW_HD int FRFaceCount(const FRKernelData *d)
{
  return d->face_subset ? d->face_end - d->face_begin : d->K;
}

HOFLOW_HD FRSizes FRSizesOf(const FRKernelData *d)
{
  FRSizes z;
  z.dim    = d->dim;
  z.nv     = d->nv;
  z.n1     = d->n1;
  z.Np     = d->Np;
  z.nfp    = d->nfp;
  z.Nfaces = d->Nfaces;
  return z;
}

/* The stride of direction rd in an element's solution points: n1^rd. */
HOFLOW_HD int FRStride(FRSizes z, int rd)
{
  int stride = 1;
  for (int j = 0; j < rd; j++) stride *= z.n1;
  return stride;
}

/* The point q of face f (natural order: the other directions' indices, increasing) on the solution-point line
 * through point i (i's own index along dir[f] is ignored): the face point where i's line ends. */
HOFLOW_HD int FRFacePointOfLine(const FRKernelData *d, FRSizes z, int f, int i)
{
  const int dir = d->dir[f];
  int       q = 0, stride = 1;
  for (int j = 0; j < z.dim; j++, i /= z.n1) {
    if (j == dir) continue;
    q += (i % z.n1) * stride;
    stride *= z.n1;
  }
  return q;
}

/* The nc components (Np apart) of u at the end of line (start, stride) on side s (+1: r = 1) by the 1D
 * interpolation l_L or l_R. */
HOFLOW_HD void FRLineEndComponents(const FRKernelData *d, FRSizes z, const double *HOFLOW_RESTRICT u, int start, int stride, int s, int nc, double w[])
{
  const double *l = s > 0 ? d->lR : d->lL;
  for (int k = 0; k < nc; k++) {
    double v = 0;
    for (int m = 0; m < z.n1; m++) v += l[m] * u[(size_t)k * z.Np + start + m * stride];
    w[k] = v;
  }
}

/* The state at the end of line (start, stride) on side s (+1: r = 1) by the 1D interpolation l_L or l_R. */
HOFLOW_HD void FRLineEnd(const FRKernelData *d, FRSizes z, const double *HOFLOW_RESTRICT u, int start, int stride, int s, double w[])
{
  FRLineEndComponents(d, z, u, start, stride, s, z.nv, w);
}

/* The point routines: one solution point or one face point of one element, called in loops by the host's element
 * routines below and by one thread each in the CUDA kernels (cuda/fr.cu), so both run the same arithmetic in the
 * same order. An element's arrays are element-relative: u and rhs [nv][Np] (u[k*Np + i]), the transformed
 * fluxes Fh [dim][nv][Np], the trace tr [2 nv][Nfq] (the state u- at face point p = f*nfp + q in rows 0..nv-1,
 * the discontinuous normal transformed flux Fh^D in rows nv..2nv-1; Nfq = Nfaces*nfp), the face jumps
 * jump [nv][Nfq]. */

/* Step 1 (seed 003 §II: the discontinuous flux at the solution points): Fh_d = J sum_j G_jd F_j(u) at point i of
 * element e, Fh[(d*nv + k)*Np + i]. */
HOFLOW_HD void FRPointFlux(const FRKernelData *d, FRSizes z, int e, int i, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Fh)
{
  const int     dim = z.dim, nv = z.nv, Np = z.Np, gs = dim * dim + 1;
  const double *g = d->geo + ((size_t)e * Np + i) * gs;
  double        w[EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
  for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
  ConsLawPointReferenceFlux(d->flux, dim, nv, d->gamma, d->velocity, g, w, Fr);
  for (int rk = 0; rk < dim * nv; rk++) Fh[(size_t)rk * Np + i] = Fr[rk];
}

/* Step 2 (sum factorization): rhs[k*Np + i] = sum_d sum_m D[i_d][m] Fh_d along point i's line in direction d, the
 * divergence of the discontinuous flux. */
HOFLOW_HD void FRPointDivergenceValues(const FRKernelData *d, FRSizes z, int i, const double *HOFLOW_RESTRICT Fh, double r[])
{
  const int nv = z.nv, Np = z.Np, n1 = z.n1;
  for (int k = 0; k < nv; k++) r[k] = 0;
  for (int rd = 0, stride = 1; rd < z.dim; rd++, stride *= n1) {
    const int     id = (i / stride) % n1, start = i - id * stride;
    const double *Dr = d->D + id * n1;
    for (int k = 0; k < nv; k++) {
      const double *f = Fh + ((size_t)rd * nv + k) * Np + start;
      double        s = 0;
      for (int m = 0; m < n1; m++) s += Dr[m] * f[m * stride];
      r[k] += s;
    }
  }
}

HOFLOW_HD void FRPointDivergence(const FRKernelData *d, FRSizes z, int i, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT rhs)
{
  double r[EULER_NV_MAX];
  FRPointDivergenceValues(d, z, i, Fh, r);
  for (int k = 0; k < z.nv; k++) rhs[(size_t)k * z.Np + i] = r[k];
}

/* Step 3 (the discontinuous solution and normal flux at the flux points): the trace at face point p = f*nfp + q,
 * u- and Fh^D_dir[f] interpolated to the end of the point's line. */
HOFLOW_HD void FRTracePoint(const FRKernelData *d, FRSizes z, int p, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const int f = p / z.nfp, rd = d->dir[f], s = d->side[f], stride = FRStride(z, rd), start = d->line[p], Nfq = z.Nfaces * z.nfp;
  double    w[2 * EULER_NV_MAX];
  FRLineEnd(d, z, u, start, stride, s, w);
  FRLineEnd(d, z, Fh + (size_t)rd * z.nv * z.Np, start, stride, s, w + z.nv);
  for (int c = 0; c < 2 * z.nv; c++) tr[(size_t)c * Nfq + p] = w[c];
}

/* The other side's state uP at face point p of owned element e with the element's state uM and face geometry fg:
 * the neighbour's trace at the same physical point (traces tr of every owned element, [K][2 nv][Nfq], and with
 * halo_traces every halo element's after the exchange), a halo neighbour's state interpolated from its line in the
 * local array ul (-fr_halo elements), or the boundary state. Returns -1 inside,
 * the boundary type on the boundary. */
HOFLOW_HD int FRFacePointOther(const FRKernelData *d, FRSizes z, int e, int p, const double *HOFLOW_RESTRICT ul, const double *HOFLOW_RESTRICT tr, const double uM[], const double fg[], double uP[])
{
  const int  nv = z.nv, Nfq = z.Nfaces * z.nfp, f = p / z.nfp, q = p % z.nfp;
  const int *fi = d->face_info + ((size_t)e * z.Nfaces + f) * FR_FACE_INFO;
  if (fi[0] >= 0) { /* the neighbour's state at the same physical point */
    const int g2 = fi[1], start = d->nb_line[(size_t)e * Nfq + p];
    if (fi[0] < d->K || d->halo_traces) {
      const double *tn = tr + (size_t)fi[0] * 2 * nv * Nfq;
      const int     p2 = g2 * z.nfp + FRFacePointOfLine(d, z, g2, start);
      for (int k = 0; k < nv; k++) uP[k] = tn[(size_t)k * Nfq + p2];
    } else
      FRLineEnd(d, z, ul + (size_t)fi[0] * nv * z.Np, start, FRStride(z, d->dir[g2]), d->side[g2], uP);
    return -1;
  }
  EulerBoundaryState(fi[1], z.dim, d->gamma, d->bc_point + (size_t)(fi[2] + q) * EULER_BC_DATA, uM, fg, uP);
  return fi[1];
}

HOFLOW_HD void FRViscousFacePointFlux(const FRKernelData *d, FRSizes z, int e, int p, int type, const double uM[], const double uP[], const double fg[], double Fv[]);

/* Step 4 (the common interface flux): jump[k*Nfq + p] = Fh^I - Fh^D at face point p of owned element e, Fh^I =
 * s J |grad r_d| F*(u-, u+, n) (Navier–Stokes: F* - F_v^I, FRViscousFacePointFlux). u- is the element's trace; u+
 * from FRFacePointOther. */
HOFLOW_HD void FRFacePointJump(const FRKernelData *d, FRSizes z, int e, int p, const double *HOFLOW_RESTRICT ul, const double *HOFLOW_RESTRICT tr, double *HOFLOW_RESTRICT jump)
{
  const int     dim = z.dim, nv = z.nv, Nfq = z.Nfaces * z.nfp, f = p / z.nfp, s = d->side[f];
  const double *te = tr + (size_t)e * 2 * nv * Nfq, *fg = d->fgeo + ((size_t)e * Nfq + p) * (dim + 1);
  double        uM[EULER_NV_MAX], FD[EULER_NV_MAX], uP[EULER_NV_MAX] = {0, 0, 0, 0, 0}, Fn[EULER_NV_MAX];
  int           type;
  for (int k = 0; k < nv; k++) {
    uM[k] = te[(size_t)k * Nfq + p];
    FD[k] = te[(size_t)(nv + k) * Nfq + p];
  }
  type = FRFacePointOther(d, z, e, p, ul, tr, uM, fg, uP);
  ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, Fn);
  if (d->ldg.on) {
    double Fv[EULER_NV_MAX];
    FRViscousFacePointFlux(d, z, e, p, type, uM, uP, fg, Fv);
    for (int k = 0; k < nv; k++) Fn[k] -= Fv[k];
  }
  for (int k = 0; k < nv; k++) jump[(size_t)k * Nfq + p] = s * fg[dim] * Fn[k] - FD[k];
}

/* Step 5 (the corrected flux divergence): rhs[k*Np + i] += sum_faces jump g'(r_i along the face's direction), face by
 * face, then rhs = -rhs / J at point i of owned element e (non-affine elements: the metric at every point; Fh_d is
 * then a polynomial of the points' J G, which the collocation differentiates exactly on bilinear quadrilaterals, so
 * a uniform state stays uniform). */
HOFLOW_HD void FRPointCorrect(const FRKernelData *d, FRSizes z, int e, int i, const double *HOFLOW_RESTRICT jump, double *HOFLOW_RESTRICT rhs)
{
  const int dim = z.dim, nv = z.nv, Np = z.Np, Nfq = z.Nfaces * z.nfp, gs = dim * dim + 1;
  double    r[EULER_NV_MAX];
  for (int k = 0; k < nv; k++) r[k] = rhs[(size_t)k * Np + i];
  for (int f = 0; f < z.Nfaces; f++) {
    const double  gp = (d->side[f] > 0 ? d->gR : d->gL)[(i / FRStride(z, d->dir[f])) % z.n1];
    const double *jf = jump + f * z.nfp + FRFacePointOfLine(d, z, f, i);
    for (int k = 0; k < nv; k++) r[k] += jf[(size_t)k * Nfq] * gp;
  }
  for (int k = 0; k < nv; k++) rhs[(size_t)k * Np + i] = r[k] * (-1.0 / d->geo[((size_t)e * Np + i) * gs + dim * dim]);
}

/* The viscous terms of the compressible Navier–Stokes equations (ldg.on; seed 003 §II, the corrected gradient):
 * after the halo exchange and before the face part, three steps over every owned element,
 *
 *   V1 FRViscousFacePointState  u_I - u- at every face point (hoflow/pointwise/ldg.h's common solution)
 *   V2 FRViscousPointGradient   the corrected gradient at every solution point, in reference directions
 *                                 q_d = du/dr_d + sum_{faces of direction d} (u_I - u-) g'(r_d)
 *                               (the same correction functions as the flux), then physical: grad u = G q
 *   V3 FRViscousElementVolume   rhs -= the divergence of the transformed viscous flux Fh_v,d = J G_jd F_v,j(u, grad u)
 *                               at the solution points, and Fh_v^D at the face points out of the trace's Fh^D,
 *
 * and the face part's common flux becomes F* - F_v^I (FRViscousFacePointFlux: the corrected gradients of both
 * sides at the face point, interpolated from the solution points; a halo neighbour's from its gradient trace, which
 * its owner sends: FRViscousGradientTracePoint, -fr_halo traces). cuda/fr_viscous.cu runs V1..V3 fused in one
 * kernel (E elements a block, the point routines below one thread a point); cuda/fr.cu's face kernel then adds the
 * viscous common flux as the host's face part does. */

/* V1: ujump[k*Nfq + p] = u_I - u- at face point p of owned element e (boundary: u_I = u_b) */
HOFLOW_HD void FRViscousFacePointState(const FRKernelData *d, FRSizes z, int e, int p, const double *HOFLOW_RESTRICT ul, const double *HOFLOW_RESTRICT tr)
{
  const int     dim = z.dim, nv = z.nv, Nfq = z.Nfaces * z.nfp;
  const double *te = tr + (size_t)e * 2 * nv * Nfq, *fg = d->fgeo + ((size_t)e * Nfq + p) * (dim + 1);
  double        uM[EULER_NV_MAX], uP[EULER_NV_MAX], uI[EULER_NV_MAX];
  int           type;
  for (int k = 0; k < nv; k++) uM[k] = te[(size_t)k * Nfq + p];
  type = FRFacePointOther(d, z, e, p, ul, tr, uM, fg, uP);
  if (type >= 0)
    (void)NSViscousBoundaryState(type, dim, d->gamma, d->bc_point + (size_t)(d->face_info[((size_t)e * z.Nfaces + p / z.nfp) * FR_FACE_INFO + 2] + p % z.nfp) * EULER_BC_DATA, uM, uP, uI);
  else
    NSLDGCommonState(nv, &d->ldg, NSLDGSide(dim, fg), uM, uP, uI);
  for (int k = 0; k < nv; k++) d->ujump[((size_t)e * nv + k) * Nfq + p] = uI[k] - uM[k];
}

/* V2: the corrected physical gradient at solution point i of owned element e (u the element's values) */
HOFLOW_HD void FRViscousPointGradient(const FRKernelData *d, FRSizes z, int e, int i, const double *HOFLOW_RESTRICT u)
{
  const int     dim = z.dim, nv = z.nv, Np = z.Np, n1 = z.n1, Nfq = z.Nfaces * z.nfp, gs = dim * dim + 1;
  const double *uj = d->ujump + (size_t)e * nv * Nfq;
  double       *ge = d->grad + (size_t)e * dim * nv * Np, qr[3 * EULER_NV_MAX], gu[3 * EULER_NV_MAX];
  for (int rd = 0, stride = 1; rd < dim; rd++, stride *= n1) {
    const int     id = (i / stride) % n1, start = i - id * stride;
    const double *Dr = d->D + id * n1;
    for (int k = 0; k < nv; k++) {
      double s = 0;
      for (int m = 0; m < n1; m++) s += Dr[m] * u[(size_t)k * Np + start + m * stride];
      qr[rd * nv + k] = s;
    }
  }
  for (int f = 0; f < z.Nfaces; f++) {
    const int     rd = d->dir[f];
    const double  gp = (d->side[f] > 0 ? d->gR : d->gL)[(i / FRStride(z, rd)) % n1];
    const double *jf = uj + f * z.nfp + FRFacePointOfLine(d, z, f, i);
    for (int k = 0; k < nv; k++) qr[rd * nv + k] += jf[(size_t)k * Nfq] * gp;
  }
  NSLDGPhysicalGradient(dim, nv, d->geo + ((size_t)e * Np + i) * gs, qr, gu);
  for (int c = 0; c < dim * nv; c++) ge[(size_t)c * Np + i] = gu[c];
}

/* V3 at solution point i: Fh[(d*nv + k)*Np + i] = the transformed viscous flux */
HOFLOW_HD void FRViscousPointFlux(const FRKernelData *d, FRSizes z, int e, int i, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Fh)
{
  const int     dim = z.dim, nv = z.nv, Np = z.Np, gs = dim * dim + 1;
  const double *ge = d->grad + (size_t)e * dim * nv * Np;
  double        w[EULER_NV_MAX], gu[3 * EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
  for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
  for (int c = 0; c < dim * nv; c++) gu[c] = ge[(size_t)c * Np + i];
  NSLDGReferenceFlux(dim, nv, d->gamma, &d->ldg, d->geo + ((size_t)e * Np + i) * gs, w, gu, Fr);
  for (int rk = 0; rk < dim * nv; rk++) Fh[(size_t)rk * Np + i] = Fr[rk];
}

/* V3 at solution point i: rhs[k*Np + i] -= the divergence of the transformed viscous fluxes Fh along its lines */
HOFLOW_HD void FRViscousPointDivergence(const FRKernelData *d, FRSizes z, int i, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT rhs)
{
  double r[EULER_NV_MAX];
  FRPointDivergenceValues(d, z, i, Fh, r);
  for (int k = 0; k < z.nv; k++) rhs[(size_t)k * z.Np + i] -= r[k];
}

/* V3 at face point p: the element's trace tr (rows nv..2nv-1, Fh^D) -= Fh_v^D at the end of the point's line */
HOFLOW_HD void FRViscousTracePoint(const FRKernelData *d, FRSizes z, int p, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const int f = p / z.nfp, rd = d->dir[f], Nfq = z.Nfaces * z.nfp;
  double    w[EULER_NV_MAX];
  FRLineEnd(d, z, Fh + (size_t)rd * z.nv * z.Np, d->line[p], FRStride(z, rd), d->side[f], w);
  for (int k = 0; k < z.nv; k++) tr[(size_t)(z.nv + k) * Nfq + p] -= w[k];
}

/* V3 of owned element e: rhs -= div Fh_v, the trace's Fh^D (rows nv..2nv-1 of tr, the element's) -= Fh_v^D; Fh is
 * scratch of dim*nv*Np doubles */
HOFLOW_HD void FRViscousElementVolume(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const FRSizes z = FRSizesOf(d);
  for (int i = 0; i < z.Np; i++) FRViscousPointFlux(d, z, e, i, u, Fh);
  for (int i = 0; i < z.Np; i++) FRViscousPointDivergence(d, z, i, Fh, rhs);
  for (int p = 0; p < z.Nfaces * z.nfp; p++) FRViscousTracePoint(d, z, p, Fh, tr);
}

/* F_v^I.n at face point p of owned element e (hoflow/pointwise/ldg.h): the corrected gradients of both sides
 * interpolated to the point (inside: an owned neighbour's), the boundary state u_b and heat flag on the boundary */
HOFLOW_HD void FRViscousFacePointFlux(const FRKernelData *d, FRSizes z, int e, int p, int type, const double uM[], const double uP[], const double fg[], double Fv[])
{
  const int    dim = z.dim, nv = z.nv, Np = z.Np, Nfq = z.Nfaces * z.nfp, f = p / z.nfp, nc = dim * nv;
  const int   *fi    = d->face_info + ((size_t)e * z.Nfaces + f) * FR_FACE_INFO;
  const double scale = d->face_scale[(size_t)e * z.Nfaces + f];
  double       gM[3 * EULER_NV_MAX], gP[3 * EULER_NV_MAX];
  FRLineEndComponents(d, z, d->grad + (size_t)e * nc * Np, d->line[p], FRStride(z, d->dir[f]), d->side[f], nc, gM);
  if (type >= 0) {
    double    uB[EULER_NV_MAX];
    const int heat = NSViscousBoundaryState(type, dim, d->gamma, d->bc_point + (size_t)(fi[2] + p % z.nfp) * EULER_BC_DATA, uM, uP, uB);
    NSLDGCommonFlux(dim, nv, d->gamma, &d->ldg, fg, scale, 1, heat, uM, gM, uB, gM, Fv);
    return;
  }
  if (fi[0] < d->K)
    FRLineEndComponents(d, z, d->grad + (size_t)fi[0] * nc * Np, d->nb_line[(size_t)e * Nfq + p], FRStride(z, d->dir[fi[1]]), d->side[fi[1]], nc, gP);
  else { /* a halo neighbour: its gradient trace from its owner (FRViscousGradientTracePoint there: the same interpolation) */
    const double *gn = d->gtrace + d->gtrace_elem[fi[0]];
    const int     p2 = fi[1] * z.nfp + FRFacePointOfLine(d, z, fi[1], d->nb_line[(size_t)e * Nfq + p]);
    for (int c = 0; c < nc; c++) gP[c] = gn[(size_t)c * Nfq + p2];
  }
  NSLDGCommonFlux(dim, nv, d->gamma, &d->ldg, fg, scale, 0, 1, uM, gM, uP, gP, Fv);
}

/* Several ranks: the corrected gradients at face point p of owned element e (one with a partition face: gtrace_elem[e] >=
 * 0) into its gradient trace, which the exchange sends to the ranks that hold e as a halo element; after V2 */
HOFLOW_HD void FRViscousGradientTracePoint(const FRKernelData *d, FRSizes z, int e, int p)
{
  const int nc = z.dim * z.nv, f = p / z.nfp, Nfq = z.Nfaces * z.nfp;
  double    g[3 * EULER_NV_MAX], *gt = d->gtrace + d->gtrace_elem[e];
  FRLineEndComponents(d, z, d->grad + (size_t)e * nc * z.Np, d->line[p], FRStride(z, d->dir[f]), d->side[f], nc, g);
  for (int c = 0; c < nc; c++) gt[(size_t)c * Nfq + p] = g[c];
}

/* The volume part of owned element e, which needs no neighbour: rhs = the divergence of its discontinuous
 * transformed flux (steps 1, 2), and its trace tr (step 3); Fh is scratch of dim*Np*nv doubles. */
HOFLOW_HD void FRElementVolume(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const FRSizes z = FRSizesOf(d);
  for (int i = 0; i < z.Np; i++) FRPointFlux(d, z, e, i, u, Fh);
  for (int i = 0; i < z.Np; i++) FRPointDivergence(d, z, i, Fh, rhs);
  for (int p = 0; p < z.Nfaces * z.nfp; p++) FRTracePoint(d, z, p, u, Fh, tr);
}

/* The face part of owned element e (steps 4, 5): the jumps at its face points into scratch jump [nv*Nfq], then the
 * correction of rhs at every solution point; tr the traces of every owned element, ul the local array. */
HOFLOW_HD void FRElementFaces(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT ul, const double *HOFLOW_RESTRICT tr, double *HOFLOW_RESTRICT jump, double *HOFLOW_RESTRICT rhs)
{
  const FRSizes z = FRSizesOf(d);
  for (int p = 0; p < z.Nfaces * z.nfp; p++) FRFacePointJump(d, z, e, p, ul, tr, jump);
  for (int i = 0; i < z.Np; i++) FRPointCorrect(d, z, e, i, jump, rhs);
}

/* the speed / h at solution point i of element e (u the owned array, h the element's size): (|v| + c) / h, advection
 * |a| / h, with Navier–Stokes (ldg.on) plus the diffusive part dt_scale D / h^2; -1 for a non-physical state */
HOFLOW_HD double FRPointSpeedOverH(const FRKernelData *d, int e, int i, const double *HOFLOW_RESTRICT u, double h)
{
  double w[EULER_NV_MAX], c;
  for (int k = 0; k < d->nv; k++) w[k] = u[(size_t)e * d->nv * d->Np + (size_t)k * d->Np + i];
  c = ConsLawPointWaveSpeed(d->flux, d->dim, d->gamma, d->velocity, w);
  if (c < 0) return -1;
  return d->ldg.on ? c / h + d->ldg.dt_scale * NSDiffusivity(d->dim, d->gamma, &d->ldg.vis, w) / (h * h) : c / h;
}

/* the largest speed / h over the element's solution points; -1 for a non-physical state */
HOFLOW_HD double FRWaveSpeedElement(const FRKernelData *d, int e, const double *HOFLOW_RESTRICT u, double h)
{
  double s = 0;
  for (int i = 0; i < d->Np; i++) {
    const double c = FRPointSpeedOverH(d, e, i, u, h);
    if (c < 0) return -1;
    s = fmax(s, c);
  }
  return s;
}

/* every owned element: the volume part from the owned array u (before the halo exchange ends) with the traces
 * tr [K*2*nv*Nfaces*nfp] and scratch [dim*Np*nv]; then the face part from the local array ul and the traces, with
 * scratch [nv*Nfaces*nfp] (<= dim*Np*nv); the element speeds speed[K] from the element sizes h[K] */
void FRVolumeHost(const FRKernelData *d, const double *u, double *rhs, double *scratch, double *tr);
void FRFaceHost(const FRKernelData *d, const double *ul, const double *tr, double *scratch, double *rhs);
void FRWaveSpeedHost(const FRKernelData *d, const double *u, const double *h, double *speed);
/* Navier–Stokes, between the two: V1..V3 of every owned element (u the owned array, ul the local one, tr the traces,
 * scratch [dim*Np*nv]) */
void FRViscousHost(const FRKernelData *d, const double *u, const double *ul, double *tr, double *scratch, double *rhs);
/* several ranks, after it: the gradient traces of the owned elements with gtrace_elem[e] >= 0 */
void FRViscousGradientTraceHost(const FRKernelData *d);
int  FRViscousGradientTraceCUDA(const FRKernelData *d);
/* its CUDA twin (cuda/fr_viscous.cu): V1..V3 of a group of E elements in one kernel (E <= 0: by order); the trace rows
 * that V3 changes (Fh^D) are not those that a neighbour's V1 reads (u-), so the groups need no order */
int FRViscousCUDA(const FRKernelData *d, int E, const double *u, const double *ul, double *tr, double *rhs);
/* Their CUDA twins (cuda/fr.cu) on a device copy of the data (device pointers, d->stream); 0 or a cudaError_t. The
 * volume and face kernels take E elements a thread block (E <= 0: FRCUDAElementsPerBlock's choice). */
int FRVolumeCUDA(const FRKernelData *d, int E, const double *u, double *rhs, double *tr);
int FRFaceCUDA(const FRKernelData *d, int E, const double *ul, const double *tr, double *rhs);
int FRWaveSpeedCUDA(const FRKernelData *d, const double *u, const double *h, double *speed);
/* The elements a thread block of the volume and face kernels by default (about 256 point threads). */
int FRCUDAElementsPerBlock(int dim, int n1);

#ifdef __cplusplus
}
#endif
