// The compile-time sizes of the flux-reconstruction kernels and the per-order dispatch of their launchers, shared by
// cuda/fr.cu (tensor FR), cuda/fr_dense.cu (dense FR) and cuda/fr_viscous.cu (the viscous terms of both).
#pragma once
#include <hoflow/kernels/fr.h>
#include <hoflow/kernels/fr_dense.h>

// The sizes as compile-time constants (DIM = 0: the run-time values of the data), so that the point routines' loops
// unroll and their divisions are by constants. NV = DIM + 2 (the Euler equations); other nv run the run-time sizes.
template <int DIM, int N1>
__device__ __forceinline__ FRSizes FRSizesFor(const FRKernelData *d)
{
  FRSizes z = FRSizesOf(d);
  if (DIM > 0) {
    z.dim    = DIM;
    z.nv     = DIM + 2;
    z.n1     = N1;
    z.Np     = DIM == 2 ? N1 * N1 : N1 * N1 * N1;
    z.nfp    = DIM == 2 ? N1 : N1 * N1;
    z.Nfaces = 2 * DIM;
  }
  return z;
}

// The sizes as compile-time constants (NP = 0: the run-time values of the data). NV = DIM + 2 (the Euler equations).
template <int DIM, int NP, int NF>
__device__ __forceinline__ FRDenseSizes FRDenseSizesFor(const FRDenseKernelData *d)
{
  FRDenseSizes z = FRDenseSizesOf(d);
  if (NP > 0) {
    z.dim    = DIM;
    z.nv     = DIM + 2;
    z.Np     = NP;
    z.Nfaces = NF;
  }
  return z;
}

// The instantiation of launcher L for the data's dimension and order: N = 1..8 of the Euler equations compiled for
// it, else (higher orders, linear advection) the run-time one.
#define FR_DISPATCH(L, ...)                                 \
  switch (d->nv == d->dim + 2 ? d->dim * 100 + d->n1 : 0) { \
  case 202:                                                 \
    return L<2, 2>(__VA_ARGS__);                            \
  case 203:                                                 \
    return L<2, 3>(__VA_ARGS__);                            \
  case 204:                                                 \
    return L<2, 4>(__VA_ARGS__);                            \
  case 205:                                                 \
    return L<2, 5>(__VA_ARGS__);                            \
  case 206:                                                 \
    return L<2, 6>(__VA_ARGS__);                            \
  case 207:                                                 \
    return L<2, 7>(__VA_ARGS__);                            \
  case 208:                                                 \
    return L<2, 8>(__VA_ARGS__);                            \
  case 209:                                                 \
    return L<2, 9>(__VA_ARGS__);                            \
  case 302:                                                 \
    return L<3, 2>(__VA_ARGS__);                            \
  case 303:                                                 \
    return L<3, 3>(__VA_ARGS__);                            \
  case 304:                                                 \
    return L<3, 4>(__VA_ARGS__);                            \
  case 305:                                                 \
    return L<3, 5>(__VA_ARGS__);                            \
  case 306:                                                 \
    return L<3, 6>(__VA_ARGS__);                            \
  case 307:                                                 \
    return L<3, 7>(__VA_ARGS__);                            \
  case 308:                                                 \
    return L<3, 8>(__VA_ARGS__);                            \
  case 309:                                                 \
    return L<3, 9>(__VA_ARGS__);                            \
  default:                                                  \
    return L<0, 0>(__VA_ARGS__);                            \
  }

// The instantiation of launcher L for the block's shape and order: the Euler equations at N = 1..5 on triangles
// (3 faces), quadrilaterals (4), tetrahedra (4), prisms (5) and hexahedra (6) compiled for them (key dim, faces, Np),
// else the run-time one.
#define FRD_CASE(L, DIM, NF, NP)      \
  case DIM * 100000 + NF * 1000 + NP: \
    return L<DIM, NP, NF>
#define FRD_DISPATCH(L, ...)                                                      \
  switch (d->nv == d->dim + 2 ? d->dim * 100000 + d->Nfaces * 1000 + d->Np : 0) { \
    FRD_CASE(L, 2, 3, 3)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 3, 6)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 3, 10)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 3, 15)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 3, 21)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 4, 4)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 4, 9)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 4, 16)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 4, 25)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 2, 4, 36)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 4, 4)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 4, 10)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 4, 20)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 4, 35)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 4, 56)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 5, 6)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 5, 18)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 5, 40)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 5, 75)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 5, 126)                                                        \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 6, 8)                                                          \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 6, 27)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 6, 64)                                                         \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 6, 125)                                                        \
    (__VA_ARGS__);                                                                \
    FRD_CASE(L, 3, 6, 216)                                                        \
    (__VA_ARGS__);                                                                \
  default:                                                                        \
    return L<0, 0, 0>(__VA_ARGS__);                                               \
  }
