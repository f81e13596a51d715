/* Affine maps from the reference shapes (hoflow/shape.h) to elements: Jacobians, metric terms and
 * face normals, for any dimension (hoflow/geom.h). */
#include <math.h>
#include <stddef.h>
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

void GeomVertexFunctions(int shape, const double xi[], double N[], double dN[])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const int           dim = info->dim, nv = info->nverts;

  if (info->tensor) { /* prod_d (1 + r_d r_d^v)/2 */
    for (int v = 0; v < nv; v++) {
      double f[3], p = 1;
      for (int d = 0; d < dim; d++) {
        f[d] = 0.5 * (1.0 + xi[d] * info->verts[v][d]);
        p *= f[d];
      }
      N[v] = p;
      if (dN)
        for (int d = 0; d < dim; d++) {
          double q = 0.5 * info->verts[v][d];
          for (int k = 0; k < dim; k++)
            if (k != d) q *= f[k];
          dN[v * dim + d] = q;
        }
    }
  } else if (shape == REF_PRISM) { /* triangle barycentric lambda_{v mod 3}(r, s) times (1 + t t_v)/2 */
    const double lam[3]   = {-0.5 * (xi[0] + xi[1]), 0.5 * (1.0 + xi[0]), 0.5 * (1.0 + xi[1])};
    const double dl[3][2] = {{-0.5, -0.5}, {0.5, 0}, {0, 0.5}};
    for (int v = 0; v < nv; v++) {
      const double tv = info->verts[v][2], h = 0.5 * (1.0 + xi[2] * tv);
      N[v] = lam[v % 3] * h;
      if (dN) {
        dN[v * 3 + 0] = dl[v % 3][0] * h;
        dN[v * 3 + 1] = dl[v % 3][1] * h;
        dN[v * 3 + 2] = lam[v % 3] * 0.5 * tv;
      }
    }
  } else { /* simplices: lambda_0 = 1 - sum_d (1 + r_d)/2, lambda_{d+1} = (1 + r_d)/2 */
    N[0] = 1.0;
    for (int d = 0; d < dim; d++) {
      N[d + 1] = 0.5 * (1.0 + xi[d]);
      N[0] -= N[d + 1];
    }
    if (dN)
      for (int v = 0; v < nv; v++)
        for (int d = 0; d < dim; d++) dN[v * dim + d] = v == 0 ? -0.5 : (v == d + 1 ? 0.5 : 0.0);
  }
}

void GeomMultilinearMap(int shape, int dim, const double vert[], const double xi[], double x[], double jac[])
{
  const int nv = RefShapeTable[shape].nverts;
  double    N[HOFLOW_VERTS_MAX], dN[HOFLOW_VERTS_MAX * 3];

  GeomVertexFunctions(shape, xi, N, jac ? dN : NULL);
  for (int i = 0; i < dim; i++) {
    double s = 0;
    for (int v = 0; v < nv; v++) s += N[v] * vert[v * dim + i];
    x[i] = s;
    if (jac)
      for (int d = 0; d < dim; d++) {
        double t = 0;
        for (int v = 0; v < nv; v++) t += dN[v * dim + d] * vert[v * dim + i];
        jac[i * dim + d] = t;
      }
  }
}

int GeomShapeEdges(int shape, int edges[HOFLOW_EDGES_MAX][2])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  int                 n    = 0;

  for (int f = 0; f < info->nfaces; f++) {
    const int nfv = info->face_nverts[f];
    for (int k = 0; k < (info->dim == 2 ? 1 : nfv); k++) {
      const int a = info->face_verts[f][k], b = info->face_verts[f][(k + 1) % nfv];
      int       seen = 0;
      for (int j = 0; j < n; j++) seen |= (edges[j][0] == a && edges[j][1] == b) || (edges[j][0] == b && edges[j][1] == a);
      if (!seen && n < HOFLOW_EDGES_MAX) {
        edges[n][0] = a;
        edges[n][1] = b;
        n++;
      }
    }
  }
  return n;
}

void GeomReferenceFace(int shape, int f, double nref[], double *ratio)
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const int           dim  = info->dim;
  double              vert[HOFLOW_VERTS_MAX * 3], measure;

  for (int v = 0; v < info->nverts; v++)
    for (int d = 0; d < dim; d++) vert[v * dim + d] = info->verts[v][d];
  GeomFaceNormal(shape, dim, f, vert, nref, &measure);
  *ratio = measure / RefShapeTable[info->face_shape[f]].measure;
}

double GeomFaceNormalFromJacobian(int dim, const double jac[], const double nref[], double n[])
{
  double g[HOFLOW_GEO_SIZE(3)], J, len = 0;

  J = GeomMetricFromJacobian(dim, jac, g);
  if (!(J > 0)) return 0.0;
  for (int j = 0; j < dim; j++) { /* J (dr/dx)^T nref: the cofactor matrix of dx/dr applied to nref */
    double s = 0;
    for (int d = 0; d < dim; d++) s += g[j * dim + d] * nref[d];
    n[j] = J * s;
    len += n[j] * n[j];
  }
  len = sqrt(len);
  for (int j = 0; j < dim; j++) n[j] /= len;
  return len;
}

static const int seg_perm[2][4]  = {{0, 1}, {1, 0}};
static const int tri_perm[6][4]  = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
static const int quad_perm[8][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}, {0, 3, 2, 1}, {1, 0, 3, 2}, {2, 1, 0, 3}, {3, 2, 1, 0}};

int GeomFaceOrientations(int face_shape)
{
  return face_shape == REF_SEGMENT ? 2 : face_shape == REF_TRIANGLE    ? 6
                                     : face_shape == REF_QUADRILATERAL ? 8
                                                                       : 1;
}

const int *GeomFaceOrientationPerm(int face_shape, int o)
{
  return face_shape == REF_SEGMENT ? seg_perm[o] : face_shape == REF_TRIANGLE ? tri_perm[o]
                                                                              : quad_perm[o];
}

int GeomCanonicalFaceOrientation(int face_shape, const int gid[])
{
  const int n = GeomFaceOrientations(face_shape);

  for (int o = 0; o < n; o++) {
    const int *p  = GeomFaceOrientationPerm(face_shape, o);
    int        ok = 1;
    if (face_shape == REF_QUADRILATERAL) /* smallest first, then its smaller neighbour */
      ok = gid[p[0]] < gid[p[1]] && gid[p[0]] < gid[p[2]] && gid[p[0]] < gid[p[3]] && gid[p[1]] < gid[p[3]];
    else
      for (int k = 1; k < RefShapeTable[face_shape].nverts; k++) ok = ok && gid[p[k - 1]] < gid[p[k]];
    if (ok) return o;
  }
  return 0; /* repeated numbers (a degenerate face): any frame */
}
