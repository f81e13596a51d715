/* Host kernels of the spectral-element Stokes coupling (hoflow/kernels/sem_stokes.h): the divergence, the
 * gradient and the consistent Taylor-Hood pressure mass, element by element with rectangular 1D passes
 * (SEMTensorApply, kernels/sem.c). The reference of the CUDA twins (cuda/sem_stokes.cu). */
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/sem_stokes.h>

static int SEMStokesMax(int a, int b)
{
  return a > b ? a : b;
}

/* dim*dim arrays of Npp for the derivatives, then 8 of max(Np, Npp): a gathered component, the passes' scratch, the
 * pressure element values and the projection's result */
int SEMStokesWorkSize(const SEMStokesKernelData *d)
{
  return d->dim * d->dim * d->Npp + 8 * SEMStokesMax(d->Np, d->Npp);
}

/* The pressure values of element e (Npe of them) from a local array. */
static void SEMStokesPressureValues(const SEMStokesKernelData *d, const double *p, int e, double *pe)
{
  if (d->pgather)
    for (int i = 0; i < d->Npe; i++) pe[i] = p[d->pgather[(size_t)e * d->Npe + i]];
  else
    for (int i = 0; i < d->Npe; i++) pe[i] = p[d->poffset[e] + i];
}

void SEMDivergenceHost(const SEMStokesKernelData *d, const double *u, double *p, double *work)
{
  const int dim = d->dim, Np = d->Np, Npp = d->Npp, m = SEMStokesMax(Np, Npp);

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
        SEMTensorApply(dim, d->N1, d->Ng, A, ue, T + (j * dim + a) * Npp, scratch);
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
        p[d->poffset[e] + q] = d->wJ[(size_t)e * Npp + q] * div;
    }
    if (d->pgather) {
      double    *r  = scratch + 2 * m;
      const int *gp = d->pgather + (size_t)e * d->Npe;
      SEMTensorInterpolate(dim, d->Ng, d->Np1, d->BpqT, ue, r, scratch);
      for (int i = 0; i < d->Npe; i++) p[gp[i]] += r[i];
    }
  }
}

void SEMGradientHost(const SEMStokesKernelData *d, const double *p, double *u, double *work)
{
  const int dim = d->dim, Np = d->Np, Npp = d->Npp, m = SEMStokesMax(Np, Npp);

  for (int e = 0; e < d->K; e++) {
    double *t = work, *s = t + Npp, *out = s + Npp, *acc = out + Np, *scratch = acc + Np;
    if (d->pgather) { /* the pressure at the Gauss points */
      double *pe = scratch + 2 * m;
      SEMStokesPressureValues(d, p, e, pe);
      SEMTensorInterpolate(dim, d->Np1, d->Ng, d->Bpq, pe, t, scratch);
      for (int q = 0; q < Npp; q++) t[q] *= d->wJ[(size_t)e * Npp + q];
    } else
      for (int q = 0; q < Npp; q++) t[q] = d->wJ[(size_t)e * Npp + q] * p[d->poffset[e] + q];
    for (int j = 0; j < dim; j++) { /* (G p)_j = sum_a D~_a^T (g_ja t) */
      for (int i = 0; i < Np; i++) acc[i] = 0;
      for (int a = 0; a < dim; a++) {
        const double *A[3];
        for (int q = 0; q < Npp; q++) s[q] = d->g[((size_t)e * Npp + q) * dim * dim + j * dim + a] * t[q];
        for (int x = 0; x < dim; x++) A[x] = x == a ? d->DglT : d->BglT;
        SEMTensorApply(dim, d->Ng, d->N1, A, s, out, scratch);
        for (int i = 0; i < Np; i++) acc[i] += out[i];
      }
      for (int i = 0; i < Np; i++) {
        const int k = d->gather[(size_t)e * Np + i] + j;
        if (!d->dirichlet || !d->dirichlet[k]) u[k] += acc[i];
      }
    }
  }
}

void SEMPressureMassHost(const SEMStokesKernelData *d, const double *p, double *y, double *work)
{
  const int Npp = d->Npp;

  for (int e = 0; e < d->K; e++) {
    const int *gp = d->pgather + (size_t)e * d->Npe;
    double    *pe = work, *t = pe + Npp, *r = t + Npp, *scratch = r + Npp;
    SEMStokesPressureValues(d, p, e, pe);
    SEMTensorInterpolate(d->dim, d->Np1, d->Ng, d->Bpq, pe, t, scratch);
    for (int q = 0; q < Npp; q++) t[q] *= d->wJ[(size_t)e * Npp + q];
    SEMTensorInterpolate(d->dim, d->Ng, d->Np1, d->BpqT, t, r, scratch);
    for (int i = 0; i < d->Npe; i++) y[gp[i]] += r[i];
  }
}

int SEMStokesCUDASupported(int dim, int N, int taylor_hood)
{
  (void)taylor_hood;
  return (dim == 2 || dim == 3) && N >= 2 && N <= 8; /* cuda/sem_stokes.cu: N1 = 3..9 (its shared memory at N1 = 9: 41 KB) */
}
