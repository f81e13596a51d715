/* hoflow reference shapes: everything a mesh, a reference element or a kernel needs to know about
 * a shape, in one table (ref/shape.c): dimension, reference vertices, faces and their shapes,
 * tensor-product structure. PETSc-free, so host C code and CUDA share it.
 *
 * Reference shapes (bi-unit, coordinates r, s, t):
 *   segment        [-1, 1]
 *   triangle       (-1,-1) (1,-1) (-1,1)
 *   quadrilateral  [-1,1]^2, vertices counterclockwise from (-1,-1)
 *   tetrahedron    (-1,-1,-1) (1,-1,-1) (-1,1,-1) (-1,-1,1)
 *   prism          triangle x [-1,1]: vertices 0-2 at t = -1, 3-5 above them at t = 1
 *   hexahedron     [-1,1]^3: vertices 0-3 counterclockwise at t = -1, 4-7 above them at t = 1
 * Faces list their vertices in the order of the face shape's own reference vertices, so a
 * point of face f has face coordinates (the face shape's r, s) given by the affine map from the
 * face's first vertices: x = v0 + (1+a)/2 (v1 - v0) + (1+b)/2 (v_last - v0), v_last = v2 on
 * triangles, v3 on quadrilaterals (reference faces are parallelograms). In 2D face f joins
 * vertex f and vertex f+1 (counterclockwise). */
#pragma once

#ifndef HOFLOW_NMAX
#  define HOFLOW_NMAX 10 /* highest polynomial order */
#endif

#define HOFLOW_DIM_MAX 3
#define HOFLOW_FACES_MAX 6
#define HOFLOW_VERTS_MAX 8

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  REF_TRIANGLE,
  REF_QUADRILATERAL,
  REF_TETRAHEDRON,
  REF_PRISM,
  REF_HEXAHEDRON,
  REF_SEGMENT,
  REF_NUM_SHAPES
} RefShape;

typedef struct {
  const char *name;
  int         dim, nverts, nfaces;
  int         tensor;                       /* a tensor product of segments (quadrilateral, hexahedron) */
  double      verts[HOFLOW_VERTS_MAX][3];   /* reference vertex coordinates */
  RefShape    face_shape[HOFLOW_FACES_MAX]; /* shape of face f */
  int         face_nverts[HOFLOW_FACES_MAX];
  int         face_verts[HOFLOW_FACES_MAX][4]; /* reference vertices of face f, in the face shape's vertex order */
  double      measure;                         /* length, area or volume of the reference shape */
} RefShapeInfo;

/* The table, indexed by RefShape. */
extern const RefShapeInfo RefShapeTable[REF_NUM_SHAPES];

/* Nodes (and modes) of the order-N nodal element of a shape: (N+1)(N+2)/2 on triangles, (N+1)^2 on
 * quadrilaterals, (N+1)(N+2)(N+3)/6 on tetrahedra, (N+1)^2(N+2)/2 on prisms, (N+1)^3 on hexahedra,
 * N+1 on segments. */
int RefShapeNumNodes(RefShape shape, int N);

#ifdef __cplusplus
}
#endif
