/* The (shape, order) pairs kernels are compiled for, as X-macros: X(SHAPE, N, DIM, NP, NFACES, NFN)
 * with the shape's RefShape token, order, dimension, nodes, faces and face nodes of all faces
 * (hoflow/shape.h RefShapeNumNodes). Host kernels instantiate every pair and pick one from a table
 * indexed by (shape, N); CUDA kernels instantiate the pairs their family lists. Generated once by
 * hand from the formulas; tests/unit/test_ref.c checks it against RefElementCreate. */
#pragma once

#include <hoflow/shape.h>

#define HOFLOW_ORDERS_TRIANGLE(X)  \
  X(REF_TRIANGLE, 1, 2, 3, 3, 6)   \
  X(REF_TRIANGLE, 2, 2, 6, 3, 9)   \
  X(REF_TRIANGLE, 3, 2, 10, 3, 12) \
  X(REF_TRIANGLE, 4, 2, 15, 3, 15) \
  X(REF_TRIANGLE, 5, 2, 21, 3, 18) \
  X(REF_TRIANGLE, 6, 2, 28, 3, 21) \
  X(REF_TRIANGLE, 7, 2, 36, 3, 24) \
  X(REF_TRIANGLE, 8, 2, 45, 3, 27) \
  X(REF_TRIANGLE, 9, 2, 55, 3, 30) \
  X(REF_TRIANGLE, 10, 2, 66, 3, 33)

#define HOFLOW_ORDERS_QUADRILATERAL(X)   \
  X(REF_QUADRILATERAL, 1, 2, 4, 4, 8)    \
  X(REF_QUADRILATERAL, 2, 2, 9, 4, 12)   \
  X(REF_QUADRILATERAL, 3, 2, 16, 4, 16)  \
  X(REF_QUADRILATERAL, 4, 2, 25, 4, 20)  \
  X(REF_QUADRILATERAL, 5, 2, 36, 4, 24)  \
  X(REF_QUADRILATERAL, 6, 2, 49, 4, 28)  \
  X(REF_QUADRILATERAL, 7, 2, 64, 4, 32)  \
  X(REF_QUADRILATERAL, 8, 2, 81, 4, 36)  \
  X(REF_QUADRILATERAL, 9, 2, 100, 4, 40) \
  X(REF_QUADRILATERAL, 10, 2, 121, 4, 44)

#define HOFLOW_ORDERS_TETRAHEDRON(X)    \
  X(REF_TETRAHEDRON, 1, 3, 4, 4, 12)    \
  X(REF_TETRAHEDRON, 2, 3, 10, 4, 24)   \
  X(REF_TETRAHEDRON, 3, 3, 20, 4, 40)   \
  X(REF_TETRAHEDRON, 4, 3, 35, 4, 60)   \
  X(REF_TETRAHEDRON, 5, 3, 56, 4, 84)   \
  X(REF_TETRAHEDRON, 6, 3, 84, 4, 112)  \
  X(REF_TETRAHEDRON, 7, 3, 120, 4, 144) \
  X(REF_TETRAHEDRON, 8, 3, 165, 4, 180) \
  X(REF_TETRAHEDRON, 9, 3, 220, 4, 220) \
  X(REF_TETRAHEDRON, 10, 3, 286, 4, 264)

#define HOFLOW_ORDERS_PRISM(X)    \
  X(REF_PRISM, 1, 3, 6, 5, 18)    \
  X(REF_PRISM, 2, 3, 18, 5, 39)   \
  X(REF_PRISM, 3, 3, 40, 5, 68)   \
  X(REF_PRISM, 4, 3, 75, 5, 105)  \
  X(REF_PRISM, 5, 3, 126, 5, 150) \
  X(REF_PRISM, 6, 3, 196, 5, 203) \
  X(REF_PRISM, 7, 3, 288, 5, 264) \
  X(REF_PRISM, 8, 3, 405, 5, 333) \
  X(REF_PRISM, 9, 3, 550, 5, 410) \
  X(REF_PRISM, 10, 3, 726, 5, 495)

#define HOFLOW_ORDERS_HEXAHEDRON(X)     \
  X(REF_HEXAHEDRON, 1, 3, 8, 6, 24)     \
  X(REF_HEXAHEDRON, 2, 3, 27, 6, 54)    \
  X(REF_HEXAHEDRON, 3, 3, 64, 6, 96)    \
  X(REF_HEXAHEDRON, 4, 3, 125, 6, 150)  \
  X(REF_HEXAHEDRON, 5, 3, 216, 6, 216)  \
  X(REF_HEXAHEDRON, 6, 3, 343, 6, 294)  \
  X(REF_HEXAHEDRON, 7, 3, 512, 6, 384)  \
  X(REF_HEXAHEDRON, 8, 3, 729, 6, 486)  \
  X(REF_HEXAHEDRON, 9, 3, 1000, 6, 600) \
  X(REF_HEXAHEDRON, 10, 3, 1331, 6, 726)

#define HOFLOW_ORDERS_2D(X) HOFLOW_ORDERS_TRIANGLE(X) HOFLOW_ORDERS_QUADRILATERAL(X)
#define HOFLOW_ORDERS_3D(X) HOFLOW_ORDERS_TETRAHEDRON(X) HOFLOW_ORDERS_PRISM(X) HOFLOW_ORDERS_HEXAHEDRON(X)
#define HOFLOW_ORDERS_ALL(X) HOFLOW_ORDERS_2D(X) HOFLOW_ORDERS_3D(X)

/* The pairs the dense 3D CUDA kernels are compiled for: an element must fit a thread block (one
 * thread per node, at most 1024) and the shared memory of an SM. */
#define HOFLOW_ORDERS_PRISM_CUDA(X) \
  X(REF_PRISM, 1, 3, 6, 5, 18) \
  X(REF_PRISM, 2, 3, 18, 5, 39) \
  X(REF_PRISM, 3, 3, 40, 5, 68) \
  X(REF_PRISM, 4, 3, 75, 5, 105) \
  X(REF_PRISM, 5, 3, 126, 5, 150) \
  X(REF_PRISM, 6, 3, 196, 5, 203) \
  X(REF_PRISM, 7, 3, 288, 5, 264) \
  X(REF_PRISM, 8, 3, 405, 5, 333)

#define HOFLOW_ORDERS_HEXAHEDRON_CUDA(X) \
  X(REF_HEXAHEDRON, 1, 3, 8, 6, 24) \
  X(REF_HEXAHEDRON, 2, 3, 27, 6, 54) \
  X(REF_HEXAHEDRON, 3, 3, 64, 6, 96) \
  X(REF_HEXAHEDRON, 4, 3, 125, 6, 150) \
  X(REF_HEXAHEDRON, 5, 3, 216, 6, 216) \
  X(REF_HEXAHEDRON, 6, 3, 343, 6, 294) \
  X(REF_HEXAHEDRON, 7, 3, 512, 6, 384) \
  X(REF_HEXAHEDRON, 8, 3, 729, 6, 486) \
  X(REF_HEXAHEDRON, 9, 3, 1000, 6, 600)
