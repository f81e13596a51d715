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

#ifdef __cplusplus
}
#endif
