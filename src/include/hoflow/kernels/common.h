/* What every hoflow compute kernel shares: the host/device function qualifiers, the boundary face
 * types, the geometry layout (hoflow/geom.h) and size bounds.
 *
 * Kernels are plain functions over plain-data structs (one struct per kernel family, in
 * hoflow/kernels/<family>.h) with host or device pointers: no PETSc calls, no allocation, no error
 * codes, so nvcc compiles cuda/ without a PETSc installation. Reals are double, indices are int
 * (hoflow checks PetscReal == double and PetscInt == int when it fills these structs). A host
 * kernel (src/op/ *_kernels.c, src/solver/ *_kernels.c) is the reference; its CUDA twin
 * (cuda/ *.cu) takes the same struct and is compared with it in tests/unit/test_gpu.c.
 *
 * Elements are numbered as in hoflow/mesh.h; kernel structs describe one block of elements of one
 * shape with block-relative per-element arrays, and node offsets into the local arrays. */
#pragma once

#include <stddef.h>
#include <hoflow/shape.h>
#include <hoflow/geom.h>

#if defined(__CUDACC__)
#  define HOFLOW_HD static __host__ __device__ __forceinline__
#  define HOFLOW_RESTRICT __restrict__
#else
#  define HOFLOW_HD static inline __attribute__((always_inline))
#  define HOFLOW_RESTRICT restrict
#endif

/* What lies across a face. Dirichlet and Neumann data are weak (mirror states, seed 000 §2.1). */
enum {
  HOFLOW_FACE_INTERIOR  = 0,
  HOFLOW_FACE_DIRICHLET = 1,
  HOFLOW_FACE_NEUMANN   = 2
};

/* Bounds for local arrays in element routines: nodes and face nodes of the largest element. */
#define HOFLOW_NP_MAX ((HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1))
#define HOFLOW_NFACE_NODE_MAX (6 * (HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1))
