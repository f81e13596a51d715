/* Affine maps from the reference shapes (hoflow/shape.h) to elements: Jacobians, metric terms and
 * face normals, for any dimension (hoflow/geom.h). */
#include <math.h>
#include <hoflow/geom.h>
#include <hoflow/shape.h>

/* The vertex at r_d = 1 with the other reference coordinates -1, per shape and direction. */
static const int axis_vertex[REF_NUM_SHAPES][3] = {
    [REF_TRIANGLE]      = {1, 2, 0},
    [REF_QUADRILATERAL] = {1, 3, 0},
    [REF_TETRAHEDRON]   = {1, 2, 3},
    [REF_PRISM]         = {1, 2, 3},
    [REF_HEXAHEDRON]    = {1, 3, 4},
    [REF_SEGMENT]       = {1, 0, 0},
};

double GeomAffineJacobian(int shape, int dim, const double vert[], double jac[])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  double              dev  = 0;

  for (int i = 0; i < dim; i++)
    for (int d = 0; d < dim; d++) jac[i * dim + d] = 0.5 * (vert[axis_vertex[shape][d] * dim + i] - vert[i]);
  for (int v = 0; v < info->nverts; v++) {
    double dist2 = 0;
    for (int i = 0; i < dim; i++) {
      double x = vert[i];
      for (int d = 0; d < dim; d++) x += (1.0 + info->verts[v][d]) * jac[i * dim + d];
      dist2 += (x - vert[v * dim + i]) * (x - vert[v * dim + i]);
    }
    dev = fmax(dev, sqrt(dist2));
  }
  return dev;
}

void GeomAffineMap(int shape, int dim, const double vert[], const double xi[], double x[])
{
  for (int i = 0; i < dim; i++) {
    double s = vert[i];
    for (int d = 0; d < dim; d++) s += 0.5 * (1 + xi[d]) * (vert[axis_vertex[shape][d] * dim + i] - vert[i]);
    x[i] = s;
  }
}

void GeomAffineInverseMap(int shape, int dim, const double vert[], const double x[], double xi[])
{
  double jac[9], geo[HOFLOW_GEO_SIZE(3)];

  /* x - v0 = jac (1 + xi), so 1 + xi_d = sum_j (d r_d / d x_j) (x_j - v0_j) */
  (void)GeomAffineJacobian(shape, dim, vert, jac);
  (void)GeomMetricFromJacobian(dim, jac, geo);
  for (int d = 0; d < dim; d++) {
    double s = -1.0;
    for (int j = 0; j < dim; j++) s += geo[j * dim + d] * (x[j] - vert[j]);
    xi[d] = s;
  }
}

double GeomReferenceOutside(int shape, const double xi[])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  double              out  = -INFINITY;

  for (int d = 0; d < info->dim; d++) out = fmax(out, -1.0 - xi[d]); /* every shape: r_d >= -1 */
  switch (shape) {
  case REF_TRIANGLE:
    out = fmax(out, xi[0] + xi[1]);
    break;
  case REF_TETRAHEDRON:
    out = fmax(out, xi[0] + xi[1] + xi[2] + 1.0);
    break;
  case REF_PRISM:
    out = fmax(out, fmax(xi[0] + xi[1], xi[2] - 1.0));
    break;
  default: /* segments, quadrilaterals, hexahedra: r_d <= 1 */
    for (int d = 0; d < info->dim; d++) out = fmax(out, xi[d] - 1.0);
  }
  return out;
}

double GeomMetricFromJacobian(int dim, const double jac[], double geo[])
{
  double J;

  if (dim == 2) { /* r_x = y_s / J, r_y = -x_s / J, s_x = -y_r / J, s_y = x_r / J */
    const double xr = jac[0], xs = jac[1], yr = jac[2], ys = jac[3];
    J      = xr * ys - xs * yr;
    geo[0] = ys / J;
    geo[2] = -xs / J;
    geo[1] = -yr / J;
    geo[3] = xr / J;
  } else if (dim == 3) { /* the inverse by cofactors: dr_d/dx_j = cof(jac)_{jd} / J */
    J = jac[0] * (jac[4] * jac[8] - jac[5] * jac[7]) - jac[1] * (jac[3] * jac[8] - jac[5] * jac[6]) + jac[2] * (jac[3] * jac[7] - jac[4] * jac[6]);
    for (int j = 0; j < 3; j++)
      for (int d = 0; d < 3; d++) {
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3, d1 = (d + 1) % 3, d2 = (d + 2) % 3;
        geo[j * 3 + d] = (jac[j1 * 3 + d1] * jac[j2 * 3 + d2] - jac[j1 * 3 + d2] * jac[j2 * 3 + d1]) / J;
      }
  } else {
    J      = jac[0];
    geo[0] = 1.0 / J;
  }
  geo[dim * dim] = J;
  return J;
}

void GeomFaceNormal(int shape, int dim, int f, const double vert[], double n[], double *measure)
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const int          *fv = info->face_verts[f], nfv = info->face_nverts[f];
  double              c[3] = {0, 0, 0}, fc[3] = {0, 0, 0}, dot = 0, len = 0;

  for (int v = 0; v < info->nverts; v++)
    for (int i = 0; i < dim; i++) c[i] += vert[v * dim + i] / info->nverts;
  for (int v = 0; v < nfv; v++)
    for (int i = 0; i < dim; i++) fc[i] += vert[fv[v] * dim + i] / nfv;
  if (dim == 2) { /* the edge from its first vertex to its second, turned right (outward on a counterclockwise element) */
    const double tx = vert[fv[1] * 2] - vert[fv[0] * 2], ty = vert[fv[1] * 2 + 1] - vert[fv[0] * 2 + 1];
    len      = sqrt(tx * tx + ty * ty);
    n[0]     = ty / len;
    n[1]     = -tx / len;
    *measure = len;
  } else { /* triangle: half the cross product of two edges; parallelogram: the cross product */
    const double *v0 = vert + fv[0] * 3, *v1 = vert + fv[1] * 3, *vl = vert + fv[nfv - 1] * 3;
    const double  a[3] = {v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]}, b[3] = {vl[0] - v0[0], vl[1] - v0[1], vl[2] - v0[2]};
    n[0] = a[1] * b[2] - a[2] * b[1];
    n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    len  = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; i++) n[i] /= len;
    *measure = nfv == 3 ? 0.5 * len : len;
  }
  for (int i = 0; i < dim; i++) dot += n[i] * (fc[i] - c[i]);
  if (dot < 0)
    for (int i = 0; i < dim; i++) n[i] = -n[i];
}
