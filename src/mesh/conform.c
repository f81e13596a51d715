/* Conformity diagnostics: a boundary face that lies on another element's boundary face is a
 * non-conforming interface (a hanging face between elements of different sizes, a quadrilateral
 * face against two triangles, or volumes meshed without being fused), which hoflow's face-to-face
 * coupling cannot represent. Used to explain a boundary face without a group. */
#include <hoflow/compat.h>
#include <hoflow/mesh.h>

static void FaceVertex(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt k, PetscReal x[3])
{
  const RefShapeInfo *info = &RefShapeTable[MeshElementShape(mesh, e)];
  const PetscInt      dim = mesh->dim, v = info->face_verts[f][k];

  x[0] = x[1] = x[2] = 0;
  for (PetscInt d = 0; d < dim; d++) x[d] = mesh->vertices[(e * HOFLOW_VERTS_MAX + v) * dim + d];
}

/* Whether p lies in triangle (a, b, c) of 3-space, to tol relative to the triangle's size. */
static PetscBool PointInTriangle(const PetscReal p[3], const PetscReal a[3], const PetscReal b[3], const PetscReal c[3], PetscReal tol)
{
  PetscReal u[3], v[3], w[3], n[3], nn, uu = 0, uv = 0, vv = 0, wu = 0, wv = 0, den, s, t, dist = 0;

  for (PetscInt d = 0; d < 3; d++) {
    u[d] = b[d] - a[d];
    v[d] = c[d] - a[d];
    w[d] = p[d] - a[d];
  }
  n[0] = u[1] * v[2] - u[2] * v[1];
  n[1] = u[2] * v[0] - u[0] * v[2];
  n[2] = u[0] * v[1] - u[1] * v[0];
  nn   = PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (nn <= 0) return PETSC_FALSE;
  for (PetscInt d = 0; d < 3; d++) {
    dist += w[d] * n[d] / nn;
    uu += u[d] * u[d];
    uv += u[d] * v[d];
    vv += v[d] * v[d];
    wu += w[d] * u[d];
    wv += w[d] * v[d];
  }
  if (PetscAbsReal(dist) > tol * PetscSqrtReal(PetscMax(uu, vv))) return PETSC_FALSE;
  den = uu * vv - uv * uv;
  s   = (vv * wu - uv * wv) / den;
  t   = (uu * wv - uv * wu) / den;
  return s >= -tol && t >= -tol && s + t <= 1 + tol ? PETSC_TRUE : PETSC_FALSE;
}

/* Whether p lies on face f of element e (a segment in 2D, a triangle or planar quadrilateral in 3D). */
static PetscBool PointOnFace(const Mesh *mesh, PetscInt e, PetscInt f, const PetscReal p[3], PetscReal tol)
{
  const RefShapeInfo *info = &RefShapeTable[MeshElementShape(mesh, e)];
  PetscReal           a[3], b[3], c[3];

  FaceVertex(mesh, e, f, 0, a);
  FaceVertex(mesh, e, f, 1, b);
  if (mesh->dim == 2) { /* a segment: p = a + s (b - a) with 0 <= s <= 1, off the line by at most tol |b - a| */
    const PetscReal u[2] = {b[0] - a[0], b[1] - a[1]}, w[2] = {p[0] - a[0], p[1] - a[1]}, uu = u[0] * u[0] + u[1] * u[1];
    const PetscReal s = (w[0] * u[0] + w[1] * u[1]) / uu, cross = w[0] * u[1] - w[1] * u[0];
    return uu > 0 && PetscAbsReal(cross) <= tol * uu && s >= -tol && s <= 1 + tol ? PETSC_TRUE : PETSC_FALSE;
  }
  FaceVertex(mesh, e, f, 2, c);
  if (PointInTriangle(p, a, b, c, tol)) return PETSC_TRUE;
  if (info->face_nverts[f] == 4) {
    PetscReal d4[3];
    FaceVertex(mesh, e, f, 3, d4);
    return PointInTriangle(p, a, c, d4, tol);
  }
  return PETSC_FALSE;
}

PetscErrorCode MeshFindOverlappingFace(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt *e2, PetscInt *f2)
{
  const RefShapeInfo *info   = &RefShapeTable[MeshElementShape(mesh, e)];
  PetscReal           mid[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  *e2 = *f2 = -1;
  for (PetscInt k = 0; k < info->face_nverts[f]; k++) {
    PetscReal x[3];
    FaceVertex(mesh, e, f, k, x);
    for (PetscInt d = 0; d < 3; d++) mid[d] += x[d] / info->face_nverts[f];
  }
  for (PetscInt o = 0; o < mesh->K && *e2 < 0; o++) {
    const RefShapeInfo *oinfo = &RefShapeTable[MeshElementShape(mesh, o)];
    if (o == e) continue;
    for (PetscInt g = 0; g < oinfo->nfaces; g++) {
      if (mesh->face_elem[mesh->face_slot[o] + g] >= 0) continue;
      if (PointOnFace(mesh, o, g, mid, 1e-8)) {
        *e2 = o;
        *f2 = g;
        break;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
