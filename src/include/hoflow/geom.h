/* hoflow geometry in one place: the layout of the metric terms every kernel reads, and the maps
 * from reference to physical elements that produce them (mesh/geom.c), for any dimension.
 * PETSc-free, so the CUDA kernels share the layout.
 *
 * Volume factors (per element when affine), HOFLOW_GEO_SIZE(dim) doubles:
 *   G[j*dim + d] = d r_d / d x_j   (in 2D: rx, sx, ry, sy; eq. 30 of seed 000)
 *   G[dim*dim]   = J = det(dx/dr)
 * Face factors per face slot, HOFLOW_SGEO_SIZE(dim) doubles: the outward unit normal n[dim],
 * sJ/J (the lift scaling, sJ = |F| / |F_ref|) and the SIPDG penalty tau. */
#pragma once

#define HOFLOW_GEO_SIZE(dim) ((dim) * (dim) + 1)
#define HOFLOW_GEO_J(dim) ((dim) * (dim))
#define HOFLOW_SGEO_SIZE(dim) ((dim) + 2)
#define HOFLOW_SGEO_SJ_OVER_J(dim) (dim)
#define HOFLOW_SGEO_TAU(dim) ((dim) + 1)

#ifdef __cplusplus
extern "C" {
#endif

/* The affine map of a reference shape onto an element with vertices vert[v*dim + d] (reference order):
 * x(r) = v0 + sum_d (1 + r_d)/2 (v_{a_d} - v0) with the shape's axis vertices a_d (the vertices at
 * r_d = 1, the other coordinates -1). Writes dx/dr (jac[i*dim + d] = dx_i/dr_d) and returns the
 * largest distance between a vertex and its image under the map (0 for affine elements). */
double GeomAffineJacobian(int shape, int dim, const double vert[], double jac[]);
/* The image x[dim] of the reference point xi under the affine map above, evaluated as
 * v0 + (1 + r_d)/2 (v_{a_d} - v0) summed over d. */
void GeomAffineMap(int shape, int dim, const double vert[], const double xi[], double x[]);
/* The reference point xi[dim] that the affine map above takes to x (its inverse). */
void GeomAffineInverseMap(int shape, int dim, const double vert[], const double x[], double xi[]);
/* How far the reference point xi lies outside the reference shape: the largest violation of the
 * shape's bounding inequalities (r_d >= -1, r_d <= 1 on tensor directions, r + s <= 0 on triangles
 * and prisms, r + s + t <= -1 on tetrahedra), <= 0 inside or on the boundary. */
double GeomReferenceOutside(int shape, const double xi[]);
/* Metric terms from dx/dr: geo as in the layout above. Returns J. */
double GeomMetricFromJacobian(int dim, const double jac[], double geo[]);
/* Outward unit normal and measure of face f of an element with reference-ordered vertices (affine faces). */
void GeomFaceNormal(int shape, int dim, int f, const double vert[], double n[], double *measure);

/* ---- curved (isoparametric) and non-affine elements ----
 * A curved element's map x(r) interpolates its geometry nodes; the pieces below are what every shape
 * and dimension shares: vertex functions (the straight-sided map and the blending of boundary
 * displacements), the shape's edges, reference faces, Nanson's formula for normals and surface
 * Jacobians at any face point, and the symmetries of a face, which fix the orientation of face
 * cubature points so that the two elements of a face use the same physical points. */
#define HOFLOW_EDGES_MAX 12
#define HOFLOW_FACE_ORIENTATIONS 8

/* The vertex functions of a shape at the reference point xi: barycentric coordinates on simplices,
 * multilinear functions on tensor shapes, their products on prisms (a partition of unity, N_v = 1 at
 * vertex v). N[nverts]; dN[v*dim + d] = dN_v/dr_d when dN is not NULL. */
void GeomVertexFunctions(int shape, const double xi[], double N[], double dN[]);
/* The straight-sided (multilinear) map x = sum_v N_v(xi) X_v from reference-ordered vertices, and
 * dx/dr (jac[i*dim + d], may be NULL): affine on simplices, bilinear or trilinear on quadrilaterals
 * and hexahedra. */
void GeomMultilinearMap(int shape, int dim, const double vert[], const double xi[], double x[], double jac[]);
/* The edges of a shape as pairs of reference vertices (from its faces; in 2D its faces); returns their number. */
int GeomShapeEdges(int shape, int edges[HOFLOW_EDGES_MAX][2]);
/* The unit outward normal of reference face f in reference coordinates, and the ratio of the face's
 * measure in reference coordinates to the measure of its face shape's own reference (so that the
 * surface Jacobian of the face's nodal operators is sJ = ratio * dA/dA_ref). */
void GeomReferenceFace(int shape, int f, double nref[], double *ratio);
/* Nanson's formula n dA = J (dr/dx)^T nref dA_ref at a face point, from dx/dr (jac) and the reference
 * face normal: writes the physical unit outward normal n and returns dA/dA_ref (0 when J <= 0). */
double GeomFaceNormalFromJacobian(int dim, const double jac[], const double nref[], double n[]);
/* Orientations of a face shape (segment 2, triangle 6, quadrilateral 8: its symmetries) and the vertex
 * permutation of orientation o: the face's vertex perm[k] (face-shape order) is the k-th vertex of the
 * canonical frame. */
int        GeomFaceOrientations(int face_shape);
const int *GeomFaceOrientationPerm(int face_shape, int o);
/* The orientation whose frame orders the face's vertices by their global numbers gid[] (face-shape
 * order): increasing on segments and triangles; on quadrilaterals the smallest first, then the smaller
 * of its two neighbours. Both elements of a face find the same frame. */
int GeomCanonicalFaceOrientation(int face_shape, const int gid[]);

#ifdef __cplusplus
}
#endif
