/* Sum-factorization building blocks shared by the tensor-product kernels of every discretization on
 * quadrilaterals and hexahedra (SIPDG: src/kernels/ipdg_tensor.c; continuous spectral elements:
 * src/kernels/sem.c): a 1D operator applied along one direction of an element's N1^dim array, written
 * once for dim = 2, 3. Host C only (the CUDA twins keep their own shared-memory versions). */
#pragma once

#include <hoflow/shape.h> /* HOFLOW_NMAX */

#define TENSOR_INLINE static inline __attribute__((always_inline))

/* out (+)= A along direction dir of an N1^dim array (index i0 + N1 i1 + N1^2 i2):
 * out[.., i, ..] = sum_k A[i*N1 + k] in[.., k, ..]; AT the transpose of A. Every inner loop runs over a
 * contiguous run: along the first direction over i (with AT), along the others over the faster indices. */
TENSOR_INLINE void Pass(const int N1, const int dim, const int dir, const double *restrict A, const double *restrict AT, const double *restrict in, double *restrict out, const int acc)
{
  const int s     = dir == 0 ? 1 : dir == 1 ? N1
                                            : N1 * N1;
  const int outer = dim - 1 - dir == 0 ? 1 : dim - 1 - dir == 1 ? N1
                                                                : N1 * N1;
  if (s == 1) {
    for (int o = 0; o < outer; o++) {
      double *restrict op       = out + o * N1;
      const double *restrict ip = in + o * N1;
      double t[HOFLOW_NMAX + 1]; /* fixed size: a variable-length array costs stack work per line */
      for (int i = 0; i < N1; i++) t[i] = acc ? op[i] : 0.0;
      for (int k = 0; k < N1; k++) {
        const double a = ip[k];
        for (int i = 0; i < N1; i++) t[i] += AT[k * N1 + i] * a;
      }
      for (int i = 0; i < N1; i++) op[i] = t[i];
    }
    return;
  }
  for (int o = 0; o < outer; o++)
    for (int i = 0; i < N1; i++) { /* accumulate in place (no copies of a line): the same sums as from 0 */
      double *restrict op        = out + (o * N1 + i) * s;
      const double *restrict ip0 = in + o * N1 * s;
      const double a0            = A[i * N1];
      if (acc)
        for (int c = 0; c < s; c++) op[c] += a0 * ip0[c];
      else
        for (int c = 0; c < s; c++) op[c] = a0 * ip0[c];
      for (int k = 1; k < N1; k++) {
        const double a            = A[i * N1 + k];
        const double *restrict ip = in + (o * N1 + k) * s;
        for (int c = 0; c < s; c++) op[c] += a * ip[c];
      }
    }
}

/* out = (A[dim-1] x ... x A[0]) in: n_in^dim values to n_out^dim values, the rectangular 1D matrix A[d] (n_out x
 * n_in, row-major) along direction d (the first fastest), through work (2 max(n_in, n_out)^dim doubles). Inline so
 * that kernels instantiated per order (src/kernels/sem_stokes.c) get it with constant sizes; SEMTensorApply
 * (hoflow/kernels/sem.h) is the same for runtime sizes. */
TENSOR_INLINE void TensorApplyRect(const int dim, const int n_in, const int n_out, const double *const A[], const double *in, double *out, double *work)
{
  const int     max   = n_in > n_out ? n_in : n_out;
  int           total = 1;
  const double *src   = in;

  for (int d = 0; d < dim; d++) total *= max;
  for (int dir = 0; dir < dim; dir++) {
    const double *B     = A[dir];
    double       *dst   = dir == dim - 1 ? out : work + (dir % 2) * total;
    int           inner = 1, outer = 1;
    for (int d = 0; d < dir; d++) inner *= n_out;
    for (int d = dir + 1; d < dim; d++) outer *= n_in;
    for (int o = 0; o < outer; o++)
      for (int i = 0; i < n_out; i++)
        for (int c = 0; c < inner; c++) {
          double s = 0;
          for (int k = 0; k < n_in; k++) s += B[i * n_in + k] * src[(o * n_in + k) * inner + c];
          dst[(o * n_out + i) * inner + c] = s;
        }
    src = dst;
  }
}
