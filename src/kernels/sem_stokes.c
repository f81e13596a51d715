/* Host kernels of the spectral-element Stokes coupling (hoflow/kernels/sem_stokes.h): the divergence, the
 * gradient and the consistent Taylor-Hood pressure mass, element by element with rectangular 1D passes
 * (TensorApplyRect, hoflow/kernels/tensor.h). The element loops are written once with the sizes as arguments and
 * instantiated per (dim, N, pair) of hoflow/kernels/shapes.h, so that the passes run with constant sizes (as the
 * Laplacian's host kernel does; with runtime sizes they took about twice its time an application). The reference
 * of the CUDA twins (cuda/sem_stokes.cu). */
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/sem_stokes.h>
#include <hoflow/kernels/shapes.h>
#include <hoflow/kernels/tensor.h>

TENSOR_INLINE int SEMStokesMax(int a, int b)
{
  return a > b ? a : b;
}

TENSOR_INLINE int SEMStokesPow(int n, int dim)
{
  return dim == 2 ? n * n : n * n * n;
}

/* dim*dim arrays of Npp for the derivatives, then 8 of max(Np, Npp): a gathered component, the passes' scratch, the
 * pressure element values and the projection's result */
int SEMStokesWorkSize(const SEMStokesKernelData *d)
{
  return d->dim * d->dim * d->Npp + 8 * SEMStokesMax(d->Np, d->Npp);
}

/* The pressure values of element e (Npe of them) from a local array. */
TENSOR_INLINE void SEMStokesPressureValues(const SEMStokesKernelData *d, const int Npe, const double *p, int e, double *pe)
{
  if (d->pgather)
    for (int i = 0; i < Npe; i++) pe[i] = p[d->pgather[(size_t)e * Npe + i]];
  else
    for (int i = 0; i < Npe; i++) pe[i] = p[d->poffset[e] + i];
}

TENSOR_INLINE void SEMDivergenceElements(const SEMStokesKernelData *d, const int dim, const int N1, const int Ng, const int Np1, const double *u, double *p, double *work)
{
  const int Np = SEMStokesPow(N1, dim), Npp = SEMStokesPow(Ng, dim), Npe = SEMStokesPow(Np1, dim), m = SEMStokesMax(Np, Npp);

  for (int e = 0; e < d->K; e++) {
    double *T = work, *ue = T + dim * dim * Npp, *scratch = ue + m;
    for (int j = 0; j < dim; j++) {
      for (int i = 0; i < Np; i++) {
        const int k = d->gather[(size_t)e * Np + i] + j;
        ue[i]       = d->dirichlet && d->dirichlet[k] ? 0.0 : u[k];
      }
      for (int a = 0; a < dim; a++) {
        const double *A[3];
        for (int x = 0; x < dim; x++) A[x] = x == a ? d->Dgl : d->Bgl;
        TensorApplyRect(dim, N1, Ng, A, ue, T + (j * dim + a) * Npp, scratch);
      }
    }
    for (int q = 0; q < Npp; q++) {
      const double *g   = d->g + ((size_t)e * Npp + q) * dim * dim;
      double        div = 0;
      for (int j = 0; j < dim; j++)
        for (int a = 0; a < dim; a++) div += g[j * dim + a] * T[(j * dim + a) * Npp + q];
      if (d->pgather)
        ue[q] = d->wJ[(size_t)e * Npp + q] * div; /* t_q, tested against the Q_{N-1} basis below */
      else
        p[d->poffset[e] + q] += d->wJ[(size_t)e * Npp + q] * div;
    }
    if (d->pgather) {
      double    *r  = scratch + 2 * m;
      const int          *gp   = d->pgather + (size_t)e * Npe;
      const double *const A[3] = {d->BpqT, d->BpqT, d->BpqT};
      TensorApplyRect(dim, Ng, Np1, A, ue, r, scratch);
      for (int i = 0; i < Npe; i++) p[gp[i]] += r[i];
    }
  }
}

TENSOR_INLINE void SEMGradientElements(const SEMStokesKernelData *d, const int dim, const int N1, const int Ng, const int Np1, const double *p, double *u, double *work)
{
  const int Np = SEMStokesPow(N1, dim), Npp = SEMStokesPow(Ng, dim), Npe = SEMStokesPow(Np1, dim), m = SEMStokesMax(Np, Npp);

  for (int e = 0; e < d->K; e++) {
    double *t = work, *s = t + Npp, *out = s + Npp, *acc = out + Np, *scratch = acc + Np;
    if (d->pgather) { /* the pressure at the Gauss points */
      double             *pe   = scratch + 2 * m;
      const double *const B[3] = {d->Bpq, d->Bpq, d->Bpq};
      SEMStokesPressureValues(d, Npe, p, e, pe);
      TensorApplyRect(dim, Np1, Ng, B, pe, t, scratch);
      for (int q = 0; q < Npp; q++) t[q] *= d->wJ[(size_t)e * Npp + q];
    } else
      for (int q = 0; q < Npp; q++) t[q] = d->wJ[(size_t)e * Npp + q] * p[d->poffset[e] + q];
    for (int j = 0; j < dim; j++) { /* (G p)_j = sum_a D~_a^T (g_ja t) */
      for (int i = 0; i < Np; i++) acc[i] = 0;
      for (int a = 0; a < dim; a++) {
        const double *A[3];
        for (int q = 0; q < Npp; q++) s[q] = d->g[((size_t)e * Npp + q) * dim * dim + j * dim + a] * t[q];
        for (int x = 0; x < dim; x++) A[x] = x == a ? d->DglT : d->BglT;
        TensorApplyRect(dim, Ng, N1, A, s, out, scratch);
        for (int i = 0; i < Np; i++) acc[i] += out[i];
      }
      for (int i = 0; i < Np; i++) {
        const int k = d->gather[(size_t)e * Np + i] + j;
        if (!d->dirichlet || !d->dirichlet[k]) u[k] += acc[i];
      }
    }
  }
}

TENSOR_INLINE void SEMPressureMassElements(const SEMStokesKernelData *d, const int dim, const int Ng, const int Np1, const double *p, double *y, double *work)
{
  const int           Npp = SEMStokesPow(Ng, dim), Npe = SEMStokesPow(Np1, dim);
  const double *const B[3] = {d->Bpq, d->Bpq, d->Bpq}, *const BT[3] = {d->BpqT, d->BpqT, d->BpqT};

  for (int e = 0; e < d->K; e++) {
    const int *gp = d->pgather + (size_t)e * Npe;
    double    *pe = work, *t = pe + Npp, *r = t + Npp, *scratch = r + Npp;
    SEMStokesPressureValues(d, Npe, p, e, pe);
    TensorApplyRect(dim, Np1, Ng, B, pe, t, scratch);
    for (int q = 0; q < Npp; q++) t[q] *= d->wJ[(size_t)e * Npp + q];
    TensorApplyRect(dim, Ng, Np1, BT, t, r, scratch);
    for (int i = 0; i < Npe; i++) y[gp[i]] += r[i];
  }
}

/* Instances per (dim, N) and pair: Taylor-Hood Ng = N + 1, Np1 = N; qn_qn2 Ng = Np1 = N - 1 (N >= 2). */
typedef void (*SEMStokesFn)(const SEMStokesKernelData *, const double *, double *, double *);
#define SEM_STOKES_DEFINE(SHAPE, NN, DIM, ...) \
  static void SEMDivergenceTH_##SHAPE##_##NN(const SEMStokesKernelData *d, const double *x, double *y, double *w) \
  { \
    SEMDivergenceElements(d, DIM, (NN) + 1, (NN) + 1, NN, x, y, w); \
  } \
  static void SEMGradientTH_##SHAPE##_##NN(const SEMStokesKernelData *d, const double *x, double *y, double *w) \
  { \
    SEMGradientElements(d, DIM, (NN) + 1, (NN) + 1, NN, x, y, w); \
  } \
  static void SEMPressureMass_##SHAPE##_##NN(const SEMStokesKernelData *d, const double *x, double *y, double *w) \
  { \
    SEMPressureMassElements(d, DIM, (NN) + 1, NN, x, y, w); \
  } \
  static void SEMDivergenceQN_##SHAPE##_##NN(const SEMStokesKernelData *d, const double *x, double *y, double *w) \
  { \
    SEMDivergenceElements(d, DIM, (NN) + 1, (NN) > 1 ? (NN) - 1 : 1, (NN) > 1 ? (NN) - 1 : 1, x, y, w); \
  } \
  static void SEMGradientQN_##SHAPE##_##NN(const SEMStokesKernelData *d, const double *x, double *y, double *w) \
  { \
    SEMGradientElements(d, DIM, (NN) + 1, (NN) > 1 ? (NN) - 1 : 1, (NN) > 1 ? (NN) - 1 : 1, x, y, w); \
  }
HOFLOW_ORDERS_QUADRILATERAL(SEM_STOKES_DEFINE)
HOFLOW_ORDERS_HEXAHEDRON(SEM_STOKES_DEFINE)

/* [dim][N][0 qn_qn2, 1 Taylor-Hood] */
#define SEM_STOKES_DIV(SHAPE, NN, DIM, ...) [DIM][NN] = {SEMDivergenceQN_##SHAPE##_##NN, SEMDivergenceTH_##SHAPE##_##NN},
#define SEM_STOKES_GRAD(SHAPE, NN, DIM, ...) [DIM][NN] = {SEMGradientQN_##SHAPE##_##NN, SEMGradientTH_##SHAPE##_##NN},
#define SEM_STOKES_MASS(SHAPE, NN, DIM, ...) [DIM][NN] = SEMPressureMass_##SHAPE##_##NN,
static const SEMStokesFn divergence_table[4][HOFLOW_NMAX + 1][2] = {HOFLOW_ORDERS_QUADRILATERAL(SEM_STOKES_DIV) HOFLOW_ORDERS_HEXAHEDRON(SEM_STOKES_DIV)};
static const SEMStokesFn gradient_table[4][HOFLOW_NMAX + 1][2]   = {HOFLOW_ORDERS_QUADRILATERAL(SEM_STOKES_GRAD) HOFLOW_ORDERS_HEXAHEDRON(SEM_STOKES_GRAD)};
static const SEMStokesFn mass_table[4][HOFLOW_NMAX + 1]         = {HOFLOW_ORDERS_QUADRILATERAL(SEM_STOKES_MASS) HOFLOW_ORDERS_HEXAHEDRON(SEM_STOKES_MASS)};

/* The instance of d's sizes, or NULL (the pair's sizes not as instantiated: the runtime-size loops). */
static SEMStokesFn SEMStokesInstance(const SEMStokesKernelData *d, int which)
{
  const int th = d->pgather != NULL, N = d->N1 - 1;
  if (d->dim < 2 || d->dim > 3 || N < 2 || N > HOFLOW_NMAX || d->Ng != (th ? N + 1 : N - 1) || d->Np1 != (th ? N : N - 1)) return NULL;
  return which == 0 ? divergence_table[d->dim][N][th] : which == 1 ? gradient_table[d->dim][N][th] : th ? mass_table[d->dim][N] : NULL;
}

void SEMDivergenceHost(const SEMStokesKernelData *d, const double *u, double *p, double *work)
{
  const SEMStokesFn f = SEMStokesInstance(d, 0);
  if (f) f(d, u, p, work);
  else SEMDivergenceElements(d, d->dim, d->N1, d->Ng, d->Np1, u, p, work);
}

void SEMGradientHost(const SEMStokesKernelData *d, const double *p, double *u, double *work)
{
  const SEMStokesFn f = SEMStokesInstance(d, 1);
  if (f) f(d, p, u, work);
  else SEMGradientElements(d, d->dim, d->N1, d->Ng, d->Np1, p, u, work);
}

void SEMPressureMassHost(const SEMStokesKernelData *d, const double *p, double *y, double *work)
{
  const SEMStokesFn f = SEMStokesInstance(d, 2);
  if (f) f(d, p, y, work);
  else SEMPressureMassElements(d, d->dim, d->Ng, d->Np1, p, y, work);
}

int SEMStokesCUDASupported(int dim, int N, int taylor_hood)
{
  (void)taylor_hood;
  return (dim == 2 || dim == 3) && N >= 2 && N <= 8; /* cuda/sem_stokes.cu: N1 = 3..9 (its shared memory at N1 = 9: 41 KB) */
}
