// CUDA twins of the modal DG Euler kernels (src/kernels/mdg.c). The volume and face kernels work on a
// group of E elements per thread block: the group's modes are copied to shared memory (coalesced), one
// thread per cubature point computes the flux from them into shared memory (the volume kernel also
// writes the trace, the state at every face point, from which the face kernel's threads take both sides'
// states: the neighbour's modes are not read again per point), and one thread per
// mode sums its contributions over the points in the host's order (so the results are the host's to
// round-off) and writes once; the affine lift is one thread per DOF. Accumulating into the element's rows
// of rhs point by point, as the host does, cost one read-modify-write of the whole element per point
// (1-5 % of the roofline on an H100). Groups that do not fit the shared memory, and the cell means, wave
// speed and limiter, run the host's element routines (hoflow/kernels/mdg.h) one element per thread.
// The BR2 viscous terms (hoflow/kernels/mdg_viscous.h) follow the same plan: gradient, volume and face
// terms by groups (points, then modes), face states, liftings and lifted gradients one thread per unit.
// tests/unit/test_mdg.c compares each with its host twin.
#include <cuda_runtime.h>
#include <hoflow/kernels/mdg_viscous.h>

// the volume terms and traces of the elements of the range [begin, end) (MDGElementRange), one thread an element
__global__ void MDGVolumeKernel(const MDGKernelData d, int begin, int end, const double *u, double *rhs)
{
  const int    e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < end) {
    MDGVolumeElement(&d, e, u + d.dof0 + e * s, rhs + d.dof0 + e * s);
    MDGTraceElement(&d, e, u + d.dof0 + e * s, d.trace + ((size_t)d.trace0 + (size_t)e * d.nfq) * d.nv);
  }
}

// the face terms of the elements of the face range [begin, end) (MDGElementRange), one thread an element
__global__ void MDGFaceKernel(const MDGKernelData d, int begin, int end, const double *u, double *rhs)
{
  const int    e = begin + blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < end) MDGFaceElement(&d, e, u, rhs + d.dof0 + e * s);
}

__global__ void MDGLiftKernel(const MDGKernelData d, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGLiftElement(&d, e, rhs + d.dof0 + e * s);
}

__global__ void MDGMeansKernel(const MDGKernelData d, const double *u, double *means)
{
  const int    k = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (k < d.K + d.Kh) {
    const int l = k < d.K ? d.e0 + k : d.halo_e0 + (k - d.K);
    MDGMeansElement(&d, k, u + (k < d.K ? d.dof0 + k * s : d.halo_dof0 + (k - d.K) * s), means + (size_t)l * d.nv);
  }
}

__global__ void MDGWaveSpeedKernel(const MDGKernelData d, const double *u, const double *h, double *speed)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) speed[e] = MDGWaveSpeedElement(&d, e, u + d.dof0 + e * s, h[e]);
}

__global__ void MDGLimitKernel(const MDGKernelData d, const double *means_local, const int *nb_elem, double *u, double *limited)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) limited[e] = MDGLimitElement(&d, e, means_local, nb_elem, u + d.dof0 + e * s);
}

// The modes of block blockIdx.x's group of E elements of the range [begin, end) into shared memory c [E][nv Np]
// (coalesced); the group's first element in *e0, its size returned.
__device__ int MDGLoadGroup(const MDGKernelData &d, int E, int begin, int end, const double *u, double *c, int *e0)
{
  const int     s = d.nv * d.Np, Eb = min(E, end - (begin + (int)blockIdx.x * E));
  const double *ug = u + d.dof0 + (size_t)(begin + (int)blockIdx.x * E) * s;
  *e0              = begin + blockIdx.x * E;
  for (int i = threadIdx.x; i < Eb * s; i += blockDim.x) c[i] = ug[i];
  __syncthreads();
  return Eb;
}

// The state at point q of n points of a transposed basis table PT [Np][n] (MDGEvaluate's sums in its order).
__device__ void MDGEvaluateT(int nv, int Np, int n, const double *PT, int q, const double *c, double u[])
{
  for (int k = 0; k < nv; k++) {
    double s = 0;
    for (int m = 0; m < Np; m++) s += PT[m * n + q] * c[k * Np + m];
    u[k] = s;
  }
}

// volume: c [E][nv Np], then the reference fluxes w J G^T F at every point, F [E][dim][nv][Nq] (consecutive
// point threads write and read consecutive words); the point threads read the transposed basis table
__global__ void MDGVolumeGroupKernel(const MDGKernelData d, int E, int begin, int end, const double *u, double *rhs)
{
  extern __shared__ double sm[];
  const int                nv = d.nv, Np = d.Np, Nq = d.Nq, dim = d.dim, gs = dim * dim + 1, s = nv * Np;
  double                  *c = sm, *F = sm + (size_t)E * s;
  int                      e0;
  const int                Eb = MDGLoadGroup(d, E, begin, end, u, c, &e0);
  for (int it = threadIdx.x; it < Eb * Nq; it += blockDim.x) {
    const int     el = it / Nq, q = it % Nq;
    const double *g = d.vgeo + ((size_t)(e0 + el) * Nq + q) * gs;
    double        w[EULER_NV_MAX], Fr[3 * EULER_NV_MAX];
    MDGEvaluateT(nv, Np, Nq, d.PqT, q, c + (size_t)el * s, w);
    ConsLawPointReferenceFlux(d.flux, dim, nv, d.gamma, d.velocity, g, w, Fr);
    for (int rk = 0; rk < dim * nv; rk++) F[((size_t)el * dim * nv + rk) * Nq + q] = Fr[rk];
  }
  for (int it = threadIdx.x; it < Eb * d.nfq; it += blockDim.x) { // the trace: the state at every face point
    const int el = it / d.nfq, qq = it % d.nfq, e = e0 + el;
    int       q;
    const int f = MDGFaceOfPoint(&d, qq, &q);
    MDGEvaluateT(nv, Np, d.fq_offset[f + 1] - d.fq_offset[f], d.PfT + d.face_info[((size_t)e * d.Nfaces + f) * MDG_FACE_INFO], q, c + (size_t)el * s, d.trace + ((size_t)d.trace0 + (size_t)e * d.nfq + qq) * nv);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) { // mode m of every variable: one table read for nv sums
    const int     el = it / Np, m = it % Np;
    const double *Fe              = F + (size_t)el * dim * nv * Nq;
    double        r[EULER_NV_MAX] = {0};
    for (int q = 0; q < Nq; q++)
      for (int rd = 0; rd < dim; rd++) {
        const double dp = d.dPq[((size_t)rd * Nq + q) * Np + m];
        for (int k = 0; k < EULER_NV_MAX; k++)
          if (k < nv) r[k] += dp * Fe[(rd * nv + k) * Nq + q];
      }
    for (int k = 0; k < nv; k++) rhs[d.dof0 + (size_t)(e0 + el) * s + k * Np + m] = r[k];
  }
}

// face: w sJ times the numerical flux at every face point of the group [E][nfq][nv] (from the traces), then
// one thread per mode sums its face terms; the groups cover the face range [begin, end) (MDGElementRange)
__global__ void MDGFaceGroupKernel(const MDGKernelData d, int E, int begin, int end, const double *u, double *rhs)
{
  extern __shared__ double W[];
  const int                nv = d.nv, Np = d.Np, s = nv * Np, nfq = d.nfq, e0 = begin + blockIdx.x * E;
  const int                Eb = min(E, end - e0);
  for (int it = threadIdx.x; it < Eb * nfq; it += blockDim.x) {
    const int el = it / nfq, qq = it % nfq;
    int       q;
    const int f = MDGFaceOfPoint(&d, qq, &q);
    MDGFacePointFlux(&d, e0 + el, f, q, qq, u, W + ((size_t)el * nfq + qq) * nv);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * Np; it += blockDim.x) { // mode m of every variable
    const int     el = it / Np, m = it % Np, e = e0 + el;
    const double *We = W + (size_t)el * nfq * nv;
    double       *r  = rhs + d.dof0 + (size_t)e * s + m;
    double        t[EULER_NV_MAX];
    for (int k = 0; k < EULER_NV_MAX; k++)
      if (k < nv) t[k] = r[k * Np];
    for (int f = 0; f < d.Nfaces; f++) {
      const double *Pm = d.Pf + d.face_info[((size_t)e * d.Nfaces + f) * MDG_FACE_INFO];
      for (int q = 0, qq = d.fq_offset[f]; qq < d.fq_offset[f + 1]; q++, qq++) {
        const double p = Pm[q * Np + m];
        for (int k = 0; k < EULER_NV_MAX; k++)
          if (k < nv) t[k] -= p * We[qq * nv + k];
      }
    }
    for (int k = 0; k < nv; k++) r[k * Np] = t[k];
  }
}

__global__ void MDGLiftAffineKernel(const MDGKernelData d, double *rhs)
{
  const size_t s = (size_t)d.nv * d.Np, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (size_t)d.K * s) rhs[d.dof0 + i] *= d.Jinv[i / s];
}

static int MDGBlocks(int n)
{
  return (n + 127) / 128;
}

// Elements per group (about 256 point threads) and its shared memory; 0 if one element does not fit.
static int MDGGroup(const void *kernel, int K, int points, size_t per_element, size_t *shared)
{
  static int optin = -1;
  int        E     = points >= 256 ? 1 : 256 / points;
  if (optin < 0) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) optin = 48 * 1024;
  }
  E = E < K ? E : K; /* K >= 1: the launchers return early on empty blocks */
  while (E > 1 && E * per_element * sizeof(double) > 64 * 1024) E--;
  *shared = E * per_element * sizeof(double);
  if (*shared > (size_t)optin) return 0;
  if (*shared > 48 * 1024 && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*shared) != cudaSuccess) return 0;
  return E;
}

extern "C" int MDGVolumeCUDA(const MDGKernelData *d, const double *u, double *rhs)
{
  size_t shared;
  int    E, begin, end;
  MDGElementRange(d, &begin, &end);
  if (end <= begin) return 0;
  E = MDGGroup((const void *)MDGVolumeGroupKernel, end - begin, d->Nq, (size_t)d->nv * d->Np + (size_t)d->Nq * d->dim * d->nv, &shared);
  if (E)
    MDGVolumeGroupKernel<<<(end - begin + E - 1) / E, 256, shared, (cudaStream_t)d->stream>>>(*d, E, begin, end, u, rhs);
  else
    MDGVolumeKernel<<<MDGBlocks(end - begin), 128, 0, (cudaStream_t)d->stream>>>(*d, begin, end, u, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGFaceCUDA(const MDGKernelData *d, const double *u, double *rhs)
{
  size_t shared;
  int    E, begin, end;
  MDGElementRange(d, &begin, &end);
  if (end <= begin) return 0;
  E = MDGGroup((const void *)MDGFaceGroupKernel, end - begin, d->nfq, (size_t)d->nfq * d->nv, &shared);
  if (E)
    MDGFaceGroupKernel<<<(end - begin + E - 1) / E, 256, shared, (cudaStream_t)d->stream>>>(*d, E, begin, end, u, rhs);
  else
    MDGFaceKernel<<<MDGBlocks(end - begin), 128, 0, (cudaStream_t)d->stream>>>(*d, begin, end, u, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGLiftCUDA(const MDGKernelData *d, double *rhs)
{
  const size_t n = (size_t)d->K * d->nv * d->Np;
  if (!d->K) return 0;
  if (!d->Minv)
    MDGLiftAffineKernel<<<(unsigned)((n + 255) / 256), 256, 0, (cudaStream_t)d->stream>>>(*d, rhs);
  else
    MDGLiftKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGMeansCUDA(const MDGKernelData *d, const double *u, double *means)
{
  if (d->K + d->Kh) MDGMeansKernel<<<MDGBlocks(d->K + d->Kh), 128, 0, (cudaStream_t)d->stream>>>(*d, u, means);
  return (int)cudaGetLastError();
}

extern "C" int MDGWaveSpeedCUDA(const MDGKernelData *d, const double *u, const double *h, double *speed)
{
  if (d->K) MDGWaveSpeedKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, h, speed);
  return (int)cudaGetLastError();
}

extern "C" int MDGLimitCUDA(const MDGKernelData *d, const double *means_local, const int *nb_elem, double *u, double *limited)
{
  if (d->K) MDGLimitKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, means_local, nb_elem, u, limited);
  return (int)cudaGetLastError();
}

// ---- BR2 viscous terms (hoflow/kernels/mdg_viscous.h) ----

// gradient of block elements k (owned, then halo) by groups: w J grad u at the points [E][Nq][nc] and the
// unscaled projection [E][nc Np] in shared memory, then the inverse mass, one thread per coefficient
__global__ void MDGGradientGroupKernel(const MDGKernelData d, int E, const double *u, double *grad)
{
  extern __shared__ double sm[];
  const int                Np = d.Np, Nq = d.Nq, nc = d.dim * d.nv, k0 = blockIdx.x * E, Eb = min(E, d.K + d.Kh - k0);
  double                  *G = sm, *S = sm + (size_t)E * Nq * nc;
  for (int it = threadIdx.x; it < Eb * Nq; it += blockDim.x) {
    const int el = it / Nq, q = it % Nq;
    int       l;
    const int off = MDGElementOffset(&d, k0 + el, &l);
    MDGGradientPoint(&d, k0 + el, q, u + off, G + ((size_t)el * Nq + q) * nc);
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * nc * Np; it += blockDim.x) {
    const int     el = it / (nc * Np), i = (it / Np) % nc, m = it % Np;
    const double *Ge = G + (size_t)el * Nq * nc + i;
    double        s  = 0;
    for (int q = 0; q < Nq; q++) s += d.Pq[q * Np + m] * Ge[q * nc];
    S[it] = s;
  }
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * nc * Np; it += blockDim.x) {
    const int     el = it / (nc * Np), i = (it / Np) % nc, m = it % Np;
    int           l;
    const int     off = MDGElementOffset(&d, k0 + el, &l);
    const double *Mi  = d.imass + d.imass_info[2 * l];
    double        s;
    if (!d.imass_info[2 * l + 1])
      s = S[it] * Mi[0];
    else {
      const double *Se = S + ((size_t)el * nc + i) * Np;
      s                = 0;
      for (int j = 0; j < Np; j++) s += Mi[m * Np + j] * Se[j];
    }
    grad[(size_t)d.dim * off + it % (nc * Np)] = s;
  }
}

__global__ void MDGGradientKernel(const MDGKernelData d, const double *u, double *grad)
{
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < d.K + d.Kh) MDGGradientElement(&d, k, u, grad);
}

__global__ void MDGFaceStatesKernel(const MDGKernelData d, const double *u)
{
  const size_t it = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (it < (size_t)d.K * d.nfq) MDGViscousFaceStatePoint(&d, (int)(it / d.nfq), (int)(it % d.nfq), u);
}

// one thread per face, side and component (side 1 of boundary faces idle)
__global__ void MDGFaceLiftingsKernel(const MDGKernelData d)
{
  const int    nc = d.dim * d.nv;
  const size_t it = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (it < (size_t)d.K * d.Nfaces * 2 * nc) {
    const int i = (int)(it % nc), side = (int)(it / nc % 2), f = (int)(it / (2 * nc) % d.Nfaces), e = (int)(it / (2 * nc * d.Nfaces));
    if (side == 0 || d.face_info[((size_t)e * d.Nfaces + f) * MDG_FACE_INFO + 1] >= 0) MDGFaceLiftingComponent(&d, e, f, side, i);
  }
}

__global__ void MDGLiftedGradientKernel(const MDGKernelData d)
{
  const int    nc = d.dim * d.nv;
  const size_t it = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (it < (size_t)d.K * nc) MDGLiftedGradientComponent(&d, (int)(it / nc), (int)(it % nc));
}

// viscous volume: the reference fluxes w J G^T F_v at every point [E][Nq][dim nv], then rhs -= their sums
__global__ void MDGViscousVolumeGroupKernel(const MDGKernelData d, int E, const double *u, double *rhs)
{
  extern __shared__ double sm[];
  const int                nv = d.nv, Np = d.Np, Nq = d.Nq, dim = d.dim, nc = dim * nv, s = nv * Np, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *F = sm;
  for (int it = threadIdx.x; it < Eb * Nq; it += blockDim.x) MDGViscousVolumePoint(&d, e0 + it / Nq, it % Nq, u, F + (size_t)it * nc);
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) {
    const int     el = it / s, v = (it % s) / Np, m = it % Np;
    const double *Fe = F + (size_t)el * Nq * nc + v;
    double       *r  = rhs + d.dof0 + (size_t)(e0 + el) * s + it % s;
    double        t  = *r;
    for (int q = 0; q < Nq; q++)
      for (int rd = 0; rd < dim; rd++) t -= d.dPq[((size_t)rd * Nq + q) * Np + m] * Fe[q * nc + rd * nv];
    *r = t;
  }
}

__global__ void MDGViscousVolumeKernel(const MDGKernelData d, const double *u, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGViscousVolumeElement(&d, e, u, rhs + d.dof0 + e * s);
}

// viscous face: w sJ F_v* . n at every face point [E][nfq][nv], then rhs += their sums
__global__ void MDGViscousFaceGroupKernel(const MDGKernelData d, int E, double *rhs)
{
  extern __shared__ double sm[];
  const int                nv = d.nv, Np = d.Np, s = nv * Np, nfq = d.nfq, e0 = blockIdx.x * E, Eb = min(E, d.K - e0);
  double                  *W = sm;
  for (int it = threadIdx.x; it < Eb * nfq; it += blockDim.x) MDGViscousFacePoint(&d, e0 + it / nfq, it % nfq, W + (size_t)it * nv);
  __syncthreads();
  for (int it = threadIdx.x; it < Eb * s; it += blockDim.x) {
    const int     el = it / s, v = (it % s) / Np, m = it % Np, e = e0 + el;
    const double *We = W + (size_t)el * nfq * nv + v;
    double       *r  = rhs + d.dof0 + (size_t)e * s + it % s;
    double        t  = *r;
    for (int f = 0; f < d.Nfaces; f++) {
      const double *Pm = d.Pf + d.face_info[((size_t)e * d.Nfaces + f) * MDG_FACE_INFO];
      for (int q = 0, qq = d.fq_offset[f]; qq < d.fq_offset[f + 1]; q++, qq++) t += Pm[q * Np + m] * We[qq * nv];
    }
    *r = t;
  }
}

__global__ void MDGViscousFaceKernel(const MDGKernelData d, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGViscousFaceElement(&d, e, rhs + d.dof0 + e * s);
}

static unsigned MDGThreads(size_t n)
{
  return (unsigned)((n + 255) / 256);
}

extern "C" int MDGGradientCUDA(const MDGKernelData *d, const double *u, double *grad)
{
  const int nc = d->dim * d->nv;
  size_t    shared;
  int       E;
  if (!(d->K + d->Kh)) return 0;
  E = MDGGroup((const void *)MDGGradientGroupKernel, d->K + d->Kh, d->Nq, (size_t)d->Nq * nc + (size_t)nc * d->Np, &shared);
  if (E)
    MDGGradientGroupKernel<<<(d->K + d->Kh + E - 1) / E, 256, shared, (cudaStream_t)d->stream>>>(*d, E, u, grad);
  else
    MDGGradientKernel<<<MDGBlocks(d->K + d->Kh), 128, 0, (cudaStream_t)d->stream>>>(*d, u, grad);
  return (int)cudaGetLastError();
}

extern "C" int MDGFaceStatesCUDA(const MDGKernelData *d, const double *u)
{
  if (d->K) MDGFaceStatesKernel<<<MDGThreads((size_t)d->K * d->nfq), 256, 0, (cudaStream_t)d->stream>>>(*d, u);
  return (int)cudaGetLastError();
}

extern "C" int MDGFaceLiftingsCUDA(const MDGKernelData *d)
{
  if (d->K) MDGFaceLiftingsKernel<<<MDGThreads((size_t)d->K * d->Nfaces * 2 * d->dim * d->nv), 256, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}

extern "C" int MDGLiftedGradientCUDA(const MDGKernelData *d)
{
  if (d->K) MDGLiftedGradientKernel<<<MDGThreads((size_t)d->K * d->dim * d->nv), 256, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}

extern "C" int MDGViscousVolumeCUDA(const MDGKernelData *d, const double *u, double *rhs)
{
  size_t shared;
  int    E;
  if (!d->K) return 0;
  E = MDGGroup((const void *)MDGViscousVolumeGroupKernel, d->K, d->Nq, (size_t)d->Nq * d->dim * d->nv, &shared);
  if (E)
    MDGViscousVolumeGroupKernel<<<(d->K + E - 1) / E, 256, shared, (cudaStream_t)d->stream>>>(*d, E, u, rhs);
  else
    MDGViscousVolumeKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGViscousFaceCUDA(const MDGKernelData *d, double *rhs)
{
  size_t shared;
  int    E;
  if (!d->K) return 0;
  E = MDGGroup((const void *)MDGViscousFaceGroupKernel, d->K, d->nfq, (size_t)d->nfq * d->nv, &shared);
  if (E)
    MDGViscousFaceGroupKernel<<<(d->K + E - 1) / E, 256, shared, (cudaStream_t)d->stream>>>(*d, E, rhs);
  else
    MDGViscousFaceKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, rhs);
  return (int)cudaGetLastError();
}
