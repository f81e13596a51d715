/* Flux-reconstruction kernels with dense operator matrices (-disc fr on triangles, tetrahedra, prisms and mixed
 * meshes, disc/fr_dense.c): the Euler equations and linear advection (the flux type chooses, as in
 * hoflow/kernels/fr.h). One kernel data per mesh block (one shape); PETSc-free, host loops in
 * src/kernels/fr_dense.c, CUDA twins in cuda/fr_dense.cu (one thread a point, several elements a block).
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

#define FRD_FACE_INFO 7 /* per element face: own table offset, neighbour's local element (-1: boundary), neighbour's dof offset, neighbour's Np, neighbour's table offset (boundary: first data row), face type, the owned neighbour's trace offset of the face's first point (-1: halo or boundary) */

/* The dense loops (Np or nfp terms) unrolled by 2 in the CUDA kernels, whose compiled sizes would otherwise unroll
 * them whole and spill registers (hexahedra N = 5: 2.5 KB a thread; by 4: 8-32 bytes in the 3D volume kernels, whose
 * trace loop keeps (dim + 1) nv sums); the same order of operations. */
#if defined(__CUDA_ARCH__) /* the device pass only: the host compiler of a .cu file would warn about the pragma */
#  define FRD_UNROLL _Pragma("unroll 2")
#else
#  define FRD_UNROLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int           dim, nv, Np, Nfaces, nfpt, K, e0; /* nfpt flux points of all faces; owned elements e0 .. e0 + K - 1 */
  int           fp_off[HOFLOW_FACES_MAX + 1];
  double        nref[HOFLOW_FACES_MAX][3]; /* unit outward reference normals */
  const double *D;                         /* [dim*Np*Np] D[(d*Np + i)*Np + m] = d l_m / d r_d at solution point i */
  const double *L, *C;                     /* every shape's face tables: at offset o, L [nfp*Np] (interpolation to the face's points) and C [Np*nfp] */
  const int    *dof;                       /* [Klocal+1] every local element's first value (a block's elements are consecutive) */
  const double *geo;                       /* [K*Np*(dim*dim + 1)] G (dr_d/dx_j at [j*dim + d]) and J at every solution point */
  const double *fgeo;                      /* [K*nfpt*(dim + 1)] outward unit normal and J |G nr| at every flux point */
  const int    *face_info;                 /* [K*Nfaces*FRD_FACE_INFO] */
  double       *trace;                     /* every owned element's trace (all blocks: the face step reads the neighbours'), u- and Fh^D . nr per flux point, [nfpt][2 nv] an element */
  int           trace0;                    /* the block's first element's trace at trace + trace0; element e's at + e*nfpt*2*nv */
  const double *bc_point;                  /* boundary data, EULER_BC_DATA doubles per boundary face point */
  double        gamma;
  int           flux;                 /* EULER_FLUX_* (EULER_FLUX_ADVECTION: linear advection) */
  double        velocity[3];          /* linear advection's velocity a */
  void         *stream;               /* CUDA stream (device copies) */
  int           face_subset;          /* nonzero: the face step runs over elements face_begin .. face_end - 1 (of the */
  int           face_begin, face_end; /* block) only; set per call by the exchange strategy (disc/fr_exchange.c) */
  /* Navier–Stokes (ldg.on): the corrected-gradient viscous terms, hoflow/kernels/fr_dense_viscous.h */
  NSLDG         ldg;
  const double *face_scale; /* [K*Nfaces] 1/h = |F| / min(|E-|, |E+|) of every face */
  double       *ujump;      /* [K*nfpt*nv] u_I - u- at every flux point of the block's owned elements */
  double       *grad;       /* the corrected physical gradients of every owned element (all blocks), local element l's
                               [(j*nv + k)*Np + i] at dim*dof[l] */
  double *grad_trace;       /* the gradient trace of every owned element (all blocks): its corrected gradients at its
                               flux points, [nfpt][dim nv] an element, laid out as the trace (the element with trace
                               slot t has its gradient trace at t / (2 nv) * dim nv: an owned neighbour's from fi[6]);
                               written after V2 (FRDenseViscousPointGradientTrace), read by the face step */
  /* several ranks (-fr_halo traces): the corrected gradients at the flux points of the elements on partition faces, owned
   * (written by FRDenseViscousGradientTracePoint, sent) and halo (received), element l's [nfpt][dim*nv] at gtrace_elem[l];
   * NULL on one rank */
  const int *gtrace_elem; /* [Klocal] (-1: none) */
  const int *gtrace_face; /* [K*Nfaces] the halo neighbour's gradient trace at the face's first point (-1: an owned neighbour) */
  double    *gtrace;
} FRDenseKernelData;

/* The sizes the point routines loop over, by value, so that the CUDA kernels (cuda/fr_dense.cu) give them as
 * compile-time constants per shape and order; the host takes them from the data. */
typedef struct {
  int dim, nv, Np, Nfaces, nfpt;
} FRDenseSizes;

/* The face step's i-th element, and how many (FRExchange's subsets: the interior elements, then those with a halo
 * neighbour; all K by default) */
HOFLOW_HD int FRDenseFaceElement(const FRDenseKernelData *d, int i)
{
  return d->face_subset ? d->face_begin + i : i;
}
HOFLOW_HD int FRDenseFaceCount(const FRDenseKernelData *d)
{
  return d->face_subset ? d->face_end - d->face_begin : d->K;
}

HOFLOW_HD FRDenseSizes FRDenseSizesOf(const FRDenseKernelData *d)
{
  FRDenseSizes z;
  z.dim    = d->dim;
  z.nv     = d->nv;
  z.Np     = d->Np;
  z.Nfaces = d->Nfaces;
  z.nfpt   = d->nfpt;
  return z;
}

/* v[nv] = the values u (component-major, Np per component; nv <= 3 EULER_NV_MAX: a state's components, or a corrected
 * gradient's dim nv) interpolated by the row l[Np]. The loop over m is the outer one, so that each l[m] is read once
 * for the nv components (each v[k] still sums over m in order; with nv a compile-time constant in the kernels the sums
 * stay in registers). */
HOFLOW_HD void FRDenseInterpolate(int nv, int Np, const double *HOFLOW_RESTRICT l, const double *HOFLOW_RESTRICT u, double v[])
{
  double s[3 * EULER_NV_MAX];
  for (int k = 0; k < nv; k++) s[k] = 0;
  FRD_UNROLL
  for (int m = 0; m < Np; m++) {
    const double lm = l[m];
    for (int k = 0; k < nv; k++) s[k] += lm * u[(size_t)k * Np + m];
  }
  for (int k = 0; k < nv; k++) v[k] = s[k];
}

/* The point routines: one solution point or one flux point of the block's element e, called in loops by the host's
 * element routines below and by one thread each in the CUDA kernels (cuda/fr_dense.cu), so both run the same
 * arithmetic in the same order. Element-relative arrays: u and rhs [nv][Np], the transformed fluxes Fh [dim][nv][Np],
 * the trace tr [nfpt][2 nv] (u- and Fh^D . nr), the jumps jump [nv][nfpt]. */

/* The element's trace (in d->trace) */
HOFLOW_HD double *FRDenseTrace(const FRDenseKernelData *d, int e)
{
  return d->trace + d->trace0 + (size_t)e * d->nfpt * 2 * d->nv;
}

/* The face of flux point p */
HOFLOW_HD int FRDenseFaceOf(const FRDenseKernelData *d, FRDenseSizes z, int p)
{
  int f = 0;
  while (f + 1 < z.Nfaces && p >= d->fp_off[f + 1]) f++;
  return f;
}

/* Step 1 (seed 003 §II: the discontinuous flux at the solution points): Fh_d = J sum_j G_jd F_j(u) at point i,
 * Fh[(d*nv + k)*Np + i]. */
HOFLOW_HD void FRDensePointFlux(const FRDenseKernelData *d, FRDenseSizes z, int e, int i, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT Fh)
{
  const int     dim = z.dim, nv = z.nv, Np = z.Np, gs = dim * dim + 1;
  const double *g = d->geo + ((size_t)e * Np + i) * gs;
  double        w[EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
  for (int k = 0; k < nv; k++) w[k] = u[(size_t)k * Np + i];
  ConsLawPointReferenceFlux(d->flux, dim, nv, d->gamma, d->velocity, g, w, Fr);
  for (int rk = 0; rk < dim * nv; rk++) Fh[(size_t)rk * Np + i] = Fr[rk];
}

/* Step 2 (dense): rhs[k*Np + i] = sum_d sum_m D_d[i][m] Fh_d[k][m], the divergence of the discontinuous flux (each
 * D_d[i][m] read once for the nv components; each sum over d, then m, in order) */
/* s[k] = sum_d sum_m D_d[i][m] Fh_d[k][m] (the divergence of a flux at solution point i; also the viscous flux's) */
HOFLOW_HD void FRDensePointDivergenceSum(const FRDenseKernelData *d, FRDenseSizes z, int i, const double *HOFLOW_RESTRICT Fh, double s[EULER_NV_MAX])
{
  const int nv = z.nv, Np = z.Np;
  for (int k = 0; k < nv; k++) s[k] = 0;
  for (int rd = 0; rd < z.dim; rd++) {
    const double *Dr = d->D + ((size_t)rd * Np + i) * Np, *f = Fh + (size_t)rd * nv * Np;
    FRD_UNROLL
    for (int m = 0; m < Np; m++) {
      const double dm = Dr[m];
      for (int k = 0; k < nv; k++) s[k] += dm * f[(size_t)k * Np + m];
    }
  }
}

HOFLOW_HD void FRDensePointDivergence(const FRDenseKernelData *d, FRDenseSizes z, int i, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT rhs)
{
  double s[EULER_NV_MAX];
  FRDensePointDivergenceSum(d, z, i, Fh, s);
  for (int k = 0; k < z.nv; k++) rhs[(size_t)k * z.Np + i] = s[k];
}

/* Step 3 (the discontinuous solution and normal flux at the flux points): u- and Fh^D . nr_f = sum_d nr_d (L Fh_d) at
 * flux point p; the dim + 1 interpolations in one pass over the row l (each l[m] read once) */
HOFLOW_HD void FRDenseTracePoint(const FRDenseKernelData *d, FRDenseSizes z, int e, int p, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT Fh, double *HOFLOW_RESTRICT tr)
{
  const int     nv = z.nv, Np = z.Np, f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  const double *l = d->L + d->face_info[((size_t)e * z.Nfaces + f) * FRD_FACE_INFO] + (size_t)q * Np;
  double       *t = tr + (size_t)p * 2 * nv, w[4 * EULER_NV_MAX], Fn[EULER_NV_MAX]; /* w: u, then Fh_0 .. Fh_{dim-1} at the point */
  for (int c = 0; c < (z.dim + 1) * nv; c++) w[c] = 0;
  FRD_UNROLL
  for (int m = 0; m < Np; m++) {
    const double lm = l[m];
    for (int k = 0; k < nv; k++) w[k] += lm * u[(size_t)k * Np + m];
    for (int rk = 0; rk < z.dim * nv; rk++) w[nv + rk] += lm * Fh[(size_t)rk * Np + m];
  }
  for (int k = 0; k < nv; k++) Fn[k] = 0;
  for (int rd = 0; rd < z.dim; rd++)
    for (int k = 0; k < nv; k++) Fn[k] += d->nref[f][rd] * w[(1 + rd) * nv + k];
  for (int k = 0; k < nv; k++) {
    t[k]      = w[k];
    t[nv + k] = Fn[k];
  }
}

/* Step 4 (the common interface flux): jump[k*nfpt + p] = J |G nr| F*(u-, u+, n) - Fh^D . nr at flux point p. u+ is
 * an owned neighbour's trace at the same physical point (both elements list a face's points in its canonical
 * order; a halo neighbour's too with -fr_halo traces: fi[6] is its slot, received from its owner), a halo neighbour's
 * values interpolated from the local array ul (-fr_halo elements), or the boundary state (the viscous face
 * step has the same u+ in FRDenseViscousFacePointOther, hoflow/kernels/fr_dense_viscous.h: apart, so that the CUDA
 * face kernel compiles as before). */
HOFLOW_HD void FRDenseFacePointJump(const FRDenseKernelData *d, FRDenseSizes z, int e, int p, const double *HOFLOW_RESTRICT ul, double *HOFLOW_RESTRICT jump)
{
  const int     dim = z.dim, nv = z.nv, f = FRDenseFaceOf(d, z, p), q = p - d->fp_off[f];
  const int    *fi = d->face_info + ((size_t)e * z.Nfaces + f) * FRD_FACE_INFO;
  const double *uM = FRDenseTrace(d, e) + (size_t)p * 2 * nv, *FD = uM + nv, *fg = d->fgeo + ((size_t)e * z.nfpt + p) * (dim + 1);
  double        uP[EULER_NV_MAX], Fn[EULER_NV_MAX];
  if (fi[6] >= 0)
    for (int k = 0; k < nv; k++) uP[k] = d->trace[fi[6] + (size_t)q * 2 * nv + k];
  else if (fi[1] >= 0)
    FRDenseInterpolate(nv, fi[3], d->L + fi[4] + (size_t)q * fi[3], ul + fi[2], uP);
  else
    EulerBoundaryState(fi[5], dim, d->gamma, d->bc_point + (size_t)(fi[4] + q) * EULER_BC_DATA, uM, fg, uP);
  ConsLawPointNumericalFlux(d->flux, dim, d->gamma, d->velocity, uM, uP, fg, Fn);
  for (int k = 0; k < nv; k++) jump[(size_t)k * z.nfpt + p] = fg[dim] * Fn[k] - FD[k];
}

/* Step 5 (the corrected flux divergence): rhs[k*Np + i] += sum_faces sum_q C_f[i][q] jump_f[k][q], then
 * rhs = -rhs / J at point i */
HOFLOW_HD void FRDensePointCorrect(const FRDenseKernelData *d, FRDenseSizes z, int e, int i, const double *HOFLOW_RESTRICT jump, double *HOFLOW_RESTRICT rhs)
{
  const int nv = z.nv, Np = z.Np, gs = z.dim * z.dim + 1;
  double    r[EULER_NV_MAX];
  for (int k = 0; k < nv; k++) r[k] = rhs[(size_t)k * Np + i];
  for (int f = 0; f < z.Nfaces; f++) {
    const int     nfp = d->fp_off[f + 1] - d->fp_off[f];
    const double *C = d->C + d->face_info[((size_t)e * z.Nfaces + f) * FRD_FACE_INFO] + (size_t)i * nfp, *jf = jump + d->fp_off[f];
    FRD_UNROLL
    for (int q = 0; q < nfp; q++)
      for (int k = 0; k < nv; k++) r[k] += C[q] * jf[(size_t)k * z.nfpt + q];
  }
  for (int k = 0; k < nv; k++) rhs[(size_t)k * Np + i] = r[k] * (-1.0 / d->geo[((size_t)e * Np + i) * gs + gs - 1]);
}

/* The volume part of the block's element e (needs no neighbour): rhs = sum_d D_d Fh_d (steps 1, 2), and the element's
 * trace (step 3); Fh is scratch of dim*nv*Np doubles. */
HOFLOW_HD void FRDenseElementVolume(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT u, double *HOFLOW_RESTRICT rhs, double *HOFLOW_RESTRICT Fh)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int i = 0; i < z.Np; i++) FRDensePointFlux(d, z, e, i, u, Fh);
  for (int i = 0; i < z.Np; i++) FRDensePointDivergence(d, z, i, Fh, rhs);
  for (int p = 0; p < z.nfpt; p++) FRDenseTracePoint(d, z, e, p, u, Fh, FRDenseTrace(d, e));
}

/* The face part of the block's element e (steps 4, 5): the jumps into scratch jump [nv*nfpt], then rhs += C (jumps)
 * and rhs = -rhs / J at every solution point; ul the local array. */
HOFLOW_HD void FRDenseElementFaces(const FRDenseKernelData *d, int e, const double *HOFLOW_RESTRICT ul, double *HOFLOW_RESTRICT jump, double *HOFLOW_RESTRICT rhs)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  for (int p = 0; p < z.nfpt; p++) FRDenseFacePointJump(d, z, e, p, ul, jump);
  for (int i = 0; i < z.Np; i++) FRDensePointCorrect(d, z, e, i, jump, rhs);
}

/* the wave speed ((|v| + c); advection |a|) at solution point i, -1 for a non-physical state */
HOFLOW_HD double FRDensePointWaveSpeed(const FRDenseKernelData *d, FRDenseSizes z, int i, const double *HOFLOW_RESTRICT u)
{
  double w[EULER_NV_MAX];
  for (int k = 0; k < z.nv; k++) w[k] = u[(size_t)k * z.Np + i];
  return ConsLawPointWaveSpeed(d->flux, z.dim, d->gamma, d->velocity, w);
}

/* the speed / h at solution point i (h the element's size): (|v| + c) / h, with Navier–Stokes (ldg.on) plus the
 * diffusive part dt_scale D / h^2; -1 for a non-physical state */
HOFLOW_HD double FRDensePointSpeedOverH(const FRDenseKernelData *d, FRDenseSizes z, int i, const double *HOFLOW_RESTRICT u, double h)
{
  const double c = FRDensePointWaveSpeed(d, z, i, u);
  if (c < 0) return -1;
  if (d->ldg.on) {
    double w[EULER_NV_MAX];
    for (int k = 0; k < z.nv; k++) w[k] = u[(size_t)k * z.Np + i];
    return c / h + d->ldg.dt_scale * NSDiffusivity(z.dim, d->gamma, &d->ldg.vis, w) / (h * h);
  }
  return c / h;
}

/* the largest speed / h over the element's solution points; -1 for a non-physical state */
HOFLOW_HD double FRDenseWaveSpeedElement(const FRDenseKernelData *d, const double *HOFLOW_RESTRICT u, double h)
{
  const FRDenseSizes z = FRDenseSizesOf(d);
  double             s = 0;
  for (int i = 0; i < z.Np; i++) {
    const double c = FRDensePointSpeedOverH(d, z, i, u, h);
    if (c < 0) return -1;
    s = fmax(s, c);
  }
  return s;
}

/* every owned element of the block: the volume parts from the owned array u (while the halo exchange is in flight;
 * scratch [dim*nv*Np]), then the face parts (of the elements FRDenseFaceElement lists) from the local array ul
 * (scratch [nv*nfpt]); the element speeds
 * speed[e0 + e] from the sizes h[e0 + e] */
void FRDenseVolumeHost(const FRDenseKernelData *d, const double *u, double *rhs, double *scratch);
void FRDenseFaceHost(const FRDenseKernelData *d, const double *ul, double *rhs, double *scratch);
void FRDenseWaveSpeedHost(const FRDenseKernelData *d, const double *u, const double *h, double *speed);
/* Their CUDA twins (cuda/fr_dense.cu) on a device copy of the data (device pointers, d->stream); 0 or a cudaError_t.
 * The volume and face kernels take E elements a thread block (E <= 0: FRDenseCUDAElementsPerBlock's choice). */
int FRDenseVolumeCUDA(const FRDenseKernelData *d, int E, const double *u, double *rhs);
int FRDenseFaceCUDA(const FRDenseKernelData *d, int E, const double *ul, double *rhs);
int FRDenseWaveSpeedCUDA(const FRDenseKernelData *d, const double *u, const double *h, double *speed);
/* The elements a thread block of the volume and face kernels by default (about 256 solution points a block). */
int FRDenseCUDAElementsPerBlock(int Np);

#ifdef __cplusplus
}
#endif
