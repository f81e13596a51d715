/* The viscous terms of the compressible Navier–Stokes equations in flux reconstruction with dense operator matrices
 * (hoflow/kernels/fr_dense.h; seed 003 §II: the corrected gradient), the twin of the tensor routines FRViscous* of
 * hoflow/kernels/fr.h with the same interface treatment (hoflow/pointwise/ldg.h). After the halo exchange and before
 * the face part, over every owned element of a block:
 *
 *   V1 FRDenseViscousFaceState  u_I - u- at every flux point (u_I: the common solution; the boundary state u_b)
 *   V2 FRDenseViscousGradient   the corrected gradient at the solution points, in reference directions
 *                                 q_d = D_d u + sum_f C_f ((u_I - u-) nr_f,d)
 *                               (the correction fields of the flux, C_f = (M + K)^{-1} E_f, lifting the jump of u
 *                               times the reference normal), then physical: grad u = G q; then interpolated to the
 *                               element's flux points, its gradient trace (d->grad_trace)
 *   V3 FRDenseViscousVolume     rhs -= sum_d D_d Fh_v,d with Fh_v,d = J G_jd F_v,j(u, grad u) at the solution points,
 *                               and the trace's Fh^D . nr -= Fh_v^D . nr at the flux points,
 *
 * and the face part's common flux is F* - F_v^I (FRDenseViscousFacePointJump, in place of FRDenseFacePointJump: both
 * sides' corrected gradients at the flux point read from their gradient traces, not interpolated at every face point;
 * a halo neighbour's from the copy of its gradient trace sent by its owner: FRDenseViscousGradientTracePoint). Each
 * step is a point routine (one flux point or one solution point of one element, every sum in the element routines'
 * order), which the host loops (src/kernels/fr_dense_viscous.c) and the CUDA kernels (cuda/fr_viscous.cu: V1..V3
 * fused, one thread a point, E elements a block; the face part's kernel) share. */
#pragma once

#include <hoflow/kernels/fr_dense.h>

#ifdef __cplusplus
extern "C" {
#endif

/* u+ at point q of face f of the block's element e (u- and the face metric fg there), as FRDenseFacePointJump takes
 * it: an owned neighbour's trace at the same physical point, a halo neighbour's values interpolated from the local
 * array ul, or the boundary state */
HOFLOW_HD void FRDenseViscousFacePointOther(const FRDenseKernelData *d, FRDenseSizes z, int e, int f, int q, const double *HOFLOW_RESTRICT ul, const double uM[], const double fg[], double uP[])
{
  const int  nv = z.nv;
  const int *fi = d->face_info + ((size_t)e * z.Nfaces + f) * FRD_FACE_INFO;
  if (fi[6] >= 0)
    for (int k = 0; k < nv; k++) uP[k] = d->trace[fi[6] + (size_t)q * 2 * nv + k];
  else if (fi[1] >= 0)
    FRDenseInterpolate(nv, fi[3], d->L + fi[4] + (size_t)q * fi[3], ul + fi[2], uP);
  else
    EulerBoundaryState(fi[5], z.dim, d->gamma, d->bc_point + (size_t)(fi[4] + q) * EULER_BC_DATA, uM, fg, uP);
}

/* V1 at flux point p of the block's owned element e (ul the local array): ujump = u_I - u- */
HOFLOW_HD void FRDenseViscousFacePointState(const FRDenseKernelData *d, FRDenseSizes z, int e, int p, const double *HOFLOW_RESTRICT ul)
{
  const int     dim = z.dim, nv = z.nv, f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  const int    *fi = d->face_info + ((size_t)e * z.Nfaces + f) * FRD_FACE_INFO;
  const double *uM = FRDenseTrace(d, e) + (size_t)p * 2 * nv, *fg = d->fgeo + ((size_t)e * z.nfpt + p) * (dim + 1);
  double        uP[EULER_NV_MAX] = {0, 0, 0, 0, 0}, uI[EULER_NV_MAX] = {0, 0, 0, 0, 0};
  FRDenseViscousFacePointOther(d, z, e, f, q, ul, uM, fg, uP);
  if (fi[1] >= 0)
    NSLDGCommonState(nv, &d->ldg, NSLDGSide(dim, fg), uM, uP, uI);
  else
    (void)NSViscousBoundaryState(fi[5], dim, d->gamma, d->bc_point + (size_t)(fi[4] + q) * EULER_BC_DATA, uM, uP, uI);
  for (int k = 0; k < nv; k++) d->ujump[((size_t)e * z.nfpt + p) * nv + k] = uI[k] - uM[k];
}

/* V1 for the block's owned element e */
HOFLOW_HD void FRDenseViscousFaceState(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT ul)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int p = 0; p < z.nfpt; p++) FRDenseViscousFacePointState(d, z, e, p, ul);
}

/* V2 at solution point i of the block's owned element e (u its values): q_d = D_d u + sum_f sum_q C_f[i][q] (u_I - u-)_q
 * nr_f,d (each sum over m, then faces and points, in order), then grad u = G q into the element's gradients */
HOFLOW_HD void FRDenseViscousPointGradient(const FRDenseKernelData *d, FRDenseSizes z, int e, int i, const double *HOFLOW_RESTRICT u)
{
  const int dim = z.dim, nv = z.nv, Np = z.Np, gs = dim * dim + 1;
  double   *ge = d->grad + (size_t)dim * d->dof[d->e0 + e], qr[3 * EULER_NV_MAX], gu[3 * EULER_NV_MAX] = {0};
  for (int rd = 0; rd < dim; rd++) {
    const double *Dr = d->D + ((size_t)rd * Np + i) * Np;
    double        s[EULER_NV_MAX];
    for (int k = 0; k < nv; k++) s[k] = 0;
    FRD_UNROLL
    for (int m = 0; m < Np; m++) {
      const double dm = Dr[m];
      for (int k = 0; k < nv; k++) s[k] += dm * u[(size_t)k * Np + m];
    }
    for (int k = 0; k < nv; k++) qr[rd * nv + k] = s[k];
  }
  for (int f = 0; f < z.Nfaces; f++) {
    const int     nfp = d->fp_off[f + 1] - d->fp_off[f];
    const double *C   = d->C + d->face_info[((size_t)e * z.Nfaces + f) * FRD_FACE_INFO] + (size_t)i * nfp;
    FRD_UNROLL
    for (int q = 0; q < nfp; q++) {
      const double *uj = d->ujump + ((size_t)e * z.nfpt + d->fp_off[f] + q) * nv;
      for (int rd = 0; rd < dim; rd++) {
        if (d->nref[f][rd] == 0) continue;
        for (int k = 0; k < nv; k++) qr[rd * nv + k] += C[q] * (uj[k] * d->nref[f][rd]);
      }
    }
  }
  NSLDGPhysicalGradient(dim, nv, d->geo + ((size_t)e * Np + i) * gs, qr, gu);
  for (int c = 0; c < dim * nv; c++) ge[(size_t)c * Np + i] = gu[c];
}

/* The gradient trace at the trace slot t (an element's trace + point p * 2 nv: d->trace + t): the element's corrected
 * gradients there, dim*nv values */
HOFLOW_HD double *FRDenseGradientTraceAt(const FRDenseKernelData *d, size_t t)
{
  return d->grad_trace + t / (2 * (size_t)d->nv) * ((size_t)d->dim * d->nv);
}

/* The gradient trace of the block's owned element e at its flux point p */
HOFLOW_HD double *FRDenseElementGradientTrace(const FRDenseKernelData *d, int e, int p)
{
  return FRDenseGradientTraceAt(d, (size_t)d->trace0 + ((size_t)e * d->nfpt + p) * 2 * d->nv);
}

/* After V2, at flux point p of the block's owned element e: its corrected gradients interpolated there into its gradient
 * trace (the row of L of face f's point q, as the face step interpolated them at every point before), once a right-hand
 * side; the face steps of both elements of the face read it */
HOFLOW_HD void FRDenseViscousPointGradientTrace(const FRDenseKernelData *d, FRDenseSizes z, int e, int p)
{
  const int f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  FRDenseInterpolate(z.dim * z.nv, z.Np, d->L + d->face_info[((size_t)e * z.Nfaces + f) * FRD_FACE_INFO] + (size_t)q * z.Np, d->grad + (size_t)z.dim * d->dof[d->e0 + e], FRDenseElementGradientTrace(d, e, p));
}

/* V2 for the block's owned element e (u its values), then its gradient trace */
HOFLOW_HD void FRDenseViscousGradient(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT u)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int i = 0; i < z.Np; i++) FRDenseViscousPointGradient(d, z, e, i, u);
  for (int p = 0; p < z.nfpt; p++) FRDenseViscousPointGradientTrace(d, z, e, p);
}

/* V3 at solution point i: Fh[(d*nv + k)*Np + i] = the transformed viscous flux J G_jd F_v,j(u, grad u) */
HOFLOW_HD void FRDenseViscousPointFlux(const FRDenseKernelData *d, FRDenseSizes z, int e, int i, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Fh)
{
  const int     dim = z.dim, nv = z.nv, Np = z.Np, gs = dim * dim + 1;
  const double *ge = d->grad + (size_t)dim * d->dof[d->e0 + e];
  double        w[EULER_NV_MAX], gu[3 * EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
  for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
  for (int c = 0; c < dim * nv; c++) gu[c] = ge[(size_t)c * Np + i];
  NSLDGReferenceFlux(dim, nv, d->gamma, &d->ldg, d->geo + ((size_t)e * Np + i) * gs, w, gu, Fr);
  for (int rk = 0; rk < dim * nv; rk++) Fh[(size_t)rk * Np + i] = Fr[rk];
}

/* V3 at solution point i: rhs[k*Np + i] -= sum_d sum_m D_d[i][m] Fh_v,d[k][m] */
HOFLOW_HD void FRDenseViscousPointDivergence(const FRDenseKernelData *d, FRDenseSizes z, int i, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT rhs)
{
  double s[EULER_NV_MAX];
  FRDensePointDivergenceSum(d, z, i, Fh, s);
  for (int k = 0; k < z.nv; k++) rhs[(size_t)k * z.Np + i] -= s[k];
}

/* V3 at flux point p of the block's owned element e: the trace's Fh^D . nr -= Fh_v^D . nr (one interpolation a
 * reference direction with a normal component) */
HOFLOW_HD void FRDenseViscousTracePoint(const FRDenseKernelData *d, FRDenseSizes z, int e, int p, const double *HOFLOW_RESTRICT Fh)
{
  const int     nv = z.nv, Np = z.Np, f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  const double *l = d->L + d->face_info[((size_t)e * z.Nfaces + f) * FRD_FACE_INFO] + (size_t)q * Np;
  double       *t = FRDenseTrace(d, e) + (size_t)p * 2 * nv, Fd[EULER_NV_MAX];
  for (int rd = 0; rd < z.dim; rd++) {
    if (d->nref[f][rd] == 0) continue;
    FRDenseInterpolate(nv, Np, l, Fh + (size_t)rd * nv * Np, Fd);
    for (int k = 0; k < nv; k++) t[nv + k] -= d->nref[f][rd] * Fd[k];
  }
}

/* V3 for the block's owned element e (u its values, rhs its right-hand side so far); Fh is scratch of dim*nv*Np
 * doubles */
HOFLOW_HD void FRDenseViscousVolume(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int i = 0; i < z.Np; i++) FRDenseViscousPointFlux(d, z, e, i, u, Fh);
  for (int i = 0; i < z.Np; i++) FRDenseViscousPointDivergence(d, z, i, Fh, rhs);
  for (int p = 0; p < z.nfpt; p++) FRDenseViscousTracePoint(d, z, e, p, Fh);
}

/* F_v^I . n at flux point q of face f of the block's owned element e (hoflow/pointwise/ldg.h): gM the element's gradient
 * trace, gP an owned neighbour's (at its trace slot fi[6]: the same physical point), a halo neighbour's from its owner
 * (d->gtrace), or interpolated from the neighbour's gradients where neither is set */
HOFLOW_HD void FRDenseViscousFacePointFlux(const FRDenseKernelData *d, int e, int f, int q, const double uM[], const double uP[], const double fg[], double Fv[])
{
  const int     dim = d->dim, nv = d->nv;
  const int    *fi    = d->face_info + ((size_t)e * d->Nfaces + f) * FRD_FACE_INFO;
  const double  scale = d->face_scale[(size_t)e * d->Nfaces + f];
  const double *gM    = FRDenseElementGradientTrace(d, e, d->fp_off[f] + q), *gP;
  double        gi[3 * EULER_NV_MAX];
  if (fi[1] < 0) {
    double    uB[EULER_NV_MAX];
    const int heat = NSViscousBoundaryState(fi[5], dim, d->gamma, d->bc_point + (size_t)(fi[4] + q) * EULER_BC_DATA, uM, uP, uB);
    NSLDGCommonFlux(dim, nv, d->gamma, &d->ldg, fg, scale, 1, heat, uM, gM, uB, gM, Fv);
    return;
  }
  if (d->gtrace_face && d->gtrace_face[(size_t)e * d->Nfaces + f] >= 0) /* a halo neighbour: its owner's gradient trace */
    gP = d->gtrace + d->gtrace_face[(size_t)e * d->Nfaces + f] + (size_t)q * dim * nv;
  else if (fi[6] >= 0) /* an owned neighbour */
    gP = FRDenseGradientTraceAt(d, (size_t)fi[6] + (size_t)q * 2 * nv);
  else {
    FRDenseInterpolate(dim * nv, fi[3], d->L + fi[4] + (size_t)q * fi[3], d->grad + (size_t)dim * fi[2], gi);
    gP = gi;
  }
  NSLDGCommonFlux(dim, nv, d->gamma, &d->ldg, fg, scale, 0, 1, uM, gM, uP, gP, Fv);
}

/* Several ranks: the gradient trace of the block's owned element e (one with a partition face: gtrace_elem >= 0) at
 * flux point p copied into d->gtrace, which the exchange sends to the ranks that hold e as a halo element; after
 * FRDenseViscousPointGradientTrace */
HOFLOW_HD void FRDenseViscousGradientTracePoint(const FRDenseKernelData *d, FRDenseSizes z, int e, int p)
{
  const int     nc = z.dim * z.nv;
  const double *g  = FRDenseElementGradientTrace(d, e, p);
  double       *s  = d->gtrace + d->gtrace_elem[d->e0 + e] + (size_t)p * nc;
  for (int c = 0; c < nc; c++) s[c] = g[c];
}

/* Step 4 with the viscous terms: jump[k*nfpt + p] = J |G nr| (F* - F_v^I)(u-, u+, n) - (Fh^D - Fh_v^D) . nr at flux
 * point p (the trace's normal flux holds Fh^D - Fh_v^D after V3) */
HOFLOW_HD void FRDenseViscousFacePointJump(const FRDenseKernelData *d, FRDenseSizes z, int e, int p, const double *HOFLOW_RESTRICT ul, double *HOFLOW_RESTRICT jump)
{
  const int     dim = z.dim, nv = z.nv, f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  const double *uM = FRDenseTrace(d, e) + (size_t)p * 2 * nv, *FD = uM + nv, *fg = d->fgeo + ((size_t)e * z.nfpt + p) * (dim + 1);
  double        uP[EULER_NV_MAX], Fn[EULER_NV_MAX], Fv[EULER_NV_MAX];
  FRDenseViscousFacePointOther(d, z, e, f, q, ul, uM, fg, uP);
  ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, Fn);
  FRDenseViscousFacePointFlux(d, e, f, q, uM, uP, fg, Fv);
  for (int k = 0; k < nv; k++) jump[(size_t)k * z.nfpt + p] = fg[dim] * (Fn[k] - Fv[k]) - FD[k];
}

/* V1..V3 of every owned element of the block: the states first (V1 of every element), then V2, V3 (the neighbours'
 * gradients are read only by the face part, after every block's V2); scratch [dim*nv*Np]. Then the face part
 * (FRDenseFaceHost's loop with FRDenseViscousFacePointJump; scratch [nv*nfpt]). */
void FRDenseViscousStateHost(const FRDenseKernelData *d, const double *ul);
void FRDenseViscousGradientHost(const FRDenseKernelData *d, const double *u);
void FRDenseViscousVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch);
void FRDenseViscousFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs, double *scratch);
/* several ranks, after V2 of every block: the gradient traces of the block's owned elements with gtrace_elem >= 0
 * copied into d->gtrace (the exchange's send buffer) */
void FRDenseViscousGradientTraceHost(const FRDenseKernelData *d);
int  FRDenseViscousGradientTraceCUDA(const FRDenseKernelData *d);
/* Their CUDA twins (cuda/fr_viscous.cu) on a device copy of the data; 0 or a cudaError_t. V1..V3 of the block fused
 * in one kernel (the states of its own flux points, its gradients, its viscous volume part: the trace rows that V3
 * changes, Fh^D . nr, are not those that a neighbour's V1 reads, u-); call it for every block before the face part's
 * kernel of any block (which reads the neighbours' gradients). E elements a thread block (E <= 0: by order). */
int FRDenseViscousCUDA(const FRDenseKernelData *d, int E, const double *u, const double *ul, double *rhs);
int FRDenseViscousFaceCUDA(const FRDenseKernelData *d, int E, const double *ul, double *rhs);

#ifdef __cplusplus
}
#endif
