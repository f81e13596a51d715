/* Host kernels of continuous spectral elements (hoflow/kernels/sem.h): one element routine for
 * dim = 2, 3, instantiated per (shape, N) of hoflow/kernels/shapes.h so that N1 and dim are
 * compile-time constants, on the 1D passes of hoflow/kernels/tensor.h (shared with the SIPDG tensor
 * kernels). */
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/shapes.h>
#include <hoflow/kernels/tensor.h>

/* out = (A u)_e of one element (see hoflow/kernels/sem.h): dim passes of D1, the pointwise G, dim
 * passes of D1^T accumulated onto lambda wJ u. */
TENSOR_INLINE void SEMApplyElement(const int N1, const int dim, const double *restrict D1, const double *restrict D1T, const double *restrict G, const double *restrict wJ, const double lambda, const double *restrict u, double *restrict out)
{
  const int Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, npair = dim * (dim + 1) / 2;
  double    ur[3][Np];

  for (int a = 0; a < dim; a++) Pass(N1, dim, a, D1, D1T, u, ur[a], 0);
  for (int q = 0; q < Np; q++) {
    const double *g = G + q * npair;
    double        r[3], t[3];
    for (int a = 0; a < dim; a++) r[a] = ur[a][q];
    for (int a = 0; a < dim; a++) {
      double s = 0;
      for (int b = 0; b < dim; b++) s += g[SEMPair(a, b, dim)] * r[b];
      t[a] = s;
    }
    for (int a = 0; a < dim; a++) ur[a][q] = t[a];
    out[q] = lambda * wJ[q] * u[q];
  }
  for (int a = 0; a < dim; a++) Pass(N1, dim, a, D1T, D1, ur[a], out, 1); /* D_a^T t_a */
}

#define DEFINE_SEM(SHAPE, NN, DIM, NP, NF, NFN)                                                                                  \
  static void SEMApply_##SHAPE##_##NN(const SEMKernelData *d, const double *u, double *Au)                                       \
  {                                                                                                                              \
    const int npair = (DIM) * ((DIM) + 1) / 2;                                                                                   \
    double    ue[NP], ve[NP];                                                                                                    \
    for (int e = 0; e < d->K; e++) {                                                                                             \
      const int *g = d->gather + (size_t)e * (NP);                                                                               \
      for (int i = 0; i < (NP); i++) ue[i] = d->dirichlet && d->dirichlet[g[i]] ? 0.0 : u[g[i]];                                 \
      SEMApplyElement((NN) + 1, DIM, d->D1, d->D1T, d->G + (size_t)e * (NP)*npair, d->wJ + (size_t)e * (NP), d->lambda, ue, ve); \
      for (int i = 0; i < (NP); i++) Au[g[i]] += ve[i];                                                                          \
    }                                                                                                                            \
  }

HOFLOW_ORDERS_QUADRILATERAL(DEFINE_SEM)
HOFLOW_ORDERS_HEXAHEDRON(DEFINE_SEM)

typedef void (*SEMApplyFn)(const SEMKernelData *, const double *, double *);
#define SEM_ENTRY(SHAPE, NN, DIM, ...) [DIM][NN] = SEMApply_##SHAPE##_##NN,
static const SEMApplyFn sem_table[4][HOFLOW_NMAX + 1] = {HOFLOW_ORDERS_QUADRILATERAL(SEM_ENTRY) HOFLOW_ORDERS_HEXAHEDRON(SEM_ENTRY)};

int SEMHostSupported(int dim, int N)
{
  return (dim == 2 || dim == 3) && N >= 1 && N <= HOFLOW_NMAX && sem_table[dim][N] != NULL;
}

int SEMCUDASupported(int dim, int N)
{
  return SEMHostSupported(dim, N); /* cuda/sem.cu instantiates the same pairs */
}

void SEMApplyHost(const SEMKernelData *d, const double *u, double *Au)
{
  sem_table[d->dim][d->N](d, u, Au);
}

/* K_ii = sum_a sum_k D1[k, i_a]^2 G_aa(i with i_a -> k) + sum_{a != b} D1[i_a, i_a] D1[i_b, i_b] G_ab(i)
 *        + lambda wJ(i):
 * (D_a)_{qi} vanishes unless q and i agree off direction a, so only these terms of
 * sum_q sum_ab (D_a)_{qi} G_ab(q) (D_b)_{qi} remain. */
void SEMDiagonalHost(const SEMKernelData *d, double *diag)
{
  const int dim = d->dim, N1 = d->N1, Np = d->Np, npair = dim * (dim + 1) / 2;
  const int stride[3] = {1, N1, N1 * N1};

  for (int e = 0; e < d->K; e++) {
    const double *G = d->G + (size_t)e * Np * npair, *wJ = d->wJ + (size_t)e * Np;
    const int    *g = d->gather + (size_t)e * Np;
    for (int i = 0; i < Np; i++) {
      int    idx[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)};
      double s      = d->lambda * wJ[i];
      for (int a = 0; a < dim; a++) {
        const int base = i - idx[a] * stride[a];
        for (int k = 0; k < N1; k++) {
          const double D = d->D1[k * N1 + idx[a]];
          s += D * D * G[(base + k * stride[a]) * npair + SEMPair(a, a, dim)];
        }
        for (int b = 0; b < dim; b++)
          if (b != a) s += d->D1[idx[a] * N1 + idx[a]] * d->D1[idx[b] * N1 + idx[b]] * G[i * npair + SEMPair(a, b, dim)];
      }
      diag[g[i]] += s;
    }
  }
}

void SEMTensorApply(int dim, int n_in, int n_out, const double *const A[], const double *in, double *out, double *work)
{
  TensorApplyRect(dim, n_in, n_out, A, in, out, work);
}

void SEMTensorInterpolate(int dim, int n_in, int n_out, const double *B, const double *in, double *out, double *work)
{
  const double *const A[3] = {B, B, B};
  SEMTensorApply(dim, n_in, n_out, A, in, out, work);
}

double SEMApplyFlopsPerElement(int dim, int N)
{
  const double N1 = N + 1, Np = dim == 2 ? N1 * N1 : N1 * N1 * N1;
  return 2.0 * dim * 2.0 * N1 * Np + (2.0 * dim * dim + 3.0) * Np;
}
