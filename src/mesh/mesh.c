/* hoflow meshes: DMPlex from Gmsh or PETSc's box generator, in 2D or 3D, distributed with a one-cell
 * face-adjacent overlap; elements numbered in storage order (hoflow/mesh.h), vertices in reference
 * order, affine geometric factors, face connectivity and boundary groups. */
#include <hoflow/compat.h>
#include <hoflow/geom.h>
#include <hoflow/log.h>
#include <hoflow/mesh.h>
#include <petscsf.h>
#include <ctype.h>

/* Box sides by axis, low and high: 2D x left/right, y bottom/top; 3D x left/right, y front/back,
 * z bottom/top (as the 3D Gmsh meshes of examples/meshes name them). */
static const char *const box_sides2[4] = {"left", "right", "bottom", "top"};
static const char *const box_sides3[6] = {"left", "right", "front", "back", "bottom", "top"};

/* Whether an ASCII Gmsh file (MSH 2.2 or 4.1) has elements beyond the linear ones (types 1-7, 15):
 * high-order (curved) geometry. Binary files are not read (*known = PETSC_FALSE). */
static PetscErrorCode GmshFileHighOrder(const char path[], PetscBool *known, PetscBool *high_order)
{
  FILE  *fp = fopen(path, "r");
  char   line[1024];
  double version = 0;
  int    binary  = 0;

  PetscFunctionBeginUser;
  *known = *high_order = PETSC_FALSE;
  if (!fp) PetscFunctionReturn(PETSC_SUCCESS);
  while (fgets(line, sizeof(line), fp)) {
    if (!strncmp(line, "$MeshFormat", 11)) {
      if (!fgets(line, sizeof(line), fp) || sscanf(line, "%lf %d", &version, &binary) != 2 || binary) break;
    } else if (!strncmp(line, "$Elements", 9) && version > 0) {
      long long nblocks, n, type, count;
      if (!fgets(line, sizeof(line), fp)) break;
      *known = PETSC_TRUE;
      if (version >= 4) { /* blocks: dim tag type count, then count lines */
        if (sscanf(line, "%lld", &nblocks) != 1) break;
        for (long long b = 0; b < nblocks && fgets(line, sizeof(line), fp); b++) {
          if (sscanf(line, "%*d %*d %lld %lld", &type, &count) != 2) break;
          if (!(type <= 7 || type == 15)) *high_order = PETSC_TRUE;
          for (long long k = 0; k < count && fgets(line, sizeof(line), fp); k++) {}
        }
      } else { /* one element a line: number type ... */
        if (sscanf(line, "%lld", &n) != 1) break;
        for (long long k = 0; k < n && fgets(line, sizeof(line), fp); k++)
          if (sscanf(line, "%*d %lld", &type) == 1 && !(type <= 7 || type == 15)) *high_order = PETSC_TRUE;
      }
      break;
    }
  }
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Insert the problem's default mesh options unless the user chose a mesh, and the options hoflow
 * relies on: quadrilateral boxes (Debian's PETSc has no triangle generator); for Gmsh files, physical
 * names as labels, prisms as plain (not tensor) prisms so that they meet tetrahedra and hexahedra, and
 * for straight-sided files no coordinate finite-element space (PETSc 3.18 cannot build one for prisms;
 * docs/notes/meshes-petsc318.md). Only options that are read are set (-options_left reports the rest). */
static PetscErrorCode MeshInsertDefaultOptions(MPI_Comm comm, const char default_options[])
{
  PetscBool has_file, has_box, has_simplex, has_set;
  char      filename[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &has_file));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_faces", &has_box));
  if ((has_file || has_box) && default_options && strstr(default_options, "-curve_")) {
    /* the problem's mesh defaults go with its mesh: say so where they would have curved a boundary that
     * the user's options do not curve */
    char      buf[PETSC_MAX_PATH_LEN];
    PetscBool curved = PETSC_FALSE;
    PetscCall(PetscStrncpy(buf, default_options, sizeof(buf)));
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
      PetscBool set = PETSC_FALSE;
      if (!strncmp(t, "-curve_", 7)) PetscCall(PetscOptionsHasName(NULL, NULL, t, &set));
      curved = (PetscBool)(curved || set);
    }
    if (!curved) PetscCall(PetscPrintf(comm, "note: a mesh is given (-dm_plex_filename or -dm_plex_box_faces): the problem's default mesh options \"%s\" are not applied; give its -curve_<group> options again for curved walls\n", default_options));
  }
  if (!has_file && !has_box && default_options) { /* each "-name [value]" unless the user gave that option */
    char     buf[PETSC_MAX_PATH_LEN], *tok[64];
    PetscInt n = 0;
    PetscCall(PetscStrncpy(buf, default_options, sizeof(buf)));
    for (char *t = strtok(buf, " "); t && n < 64; t = strtok(NULL, " ")) tok[n++] = t;
    for (PetscInt k = 0; k < n; k++) {
      const PetscBool has_value = (PetscBool)(k + 1 < n && !(tok[k + 1][0] == '-' && isalpha((unsigned char)tok[k + 1][1])));
      PetscBool       set;
      if (tok[k][0] != '-') continue;
      PetscCall(PetscOptionsHasName(NULL, NULL, tok[k], &set));
      if (!set) PetscCall(PetscOptionsSetValue(NULL, tok[k], has_value ? tok[k + 1] : NULL));
    }
  }
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_simplex", &has_simplex));
  if (!has_simplex) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_simplex", "0"));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_plex_filename", filename, sizeof(filename), &has_file));
  if (!has_file || !strstr(filename, ".msh")) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_gmsh_use_regions", &has_set));
  if (!has_set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_gmsh_use_regions", "1"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_gmsh_hybrid", &has_set));
  if (!has_set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_gmsh_hybrid", "0"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_coord_space", &has_set));
  if (!has_set) {
    PetscBool   info[2] = {PETSC_FALSE, PETSC_FALSE};
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    if (!rank) PetscCall(GmshFileHighOrder(filename, &info[0], &info[1]));
    PetscCallMPI(MPI_Bcast(info, 2, MPIU_BOOL, 0, comm));
    if (info[0] && !info[1]) PetscCall(PetscOptionsSetValue(NULL, "-dm_coord_space", "0"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vertices of a DMPlex point, in closure order. */
static PetscErrorCode PointVertices(DM dm, PetscInt point, PetscInt *nv, PetscInt verts[])
{
  PetscInt vStart, vEnd, npts, *pts = NULL;

  PetscFunctionBeginUser;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetTransitiveClosure(dm, point, PETSC_TRUE, &npts, &pts));
  *nv = 0;
  for (PetscInt k = 0; k < npts; k++) {
    const PetscInt p = pts[2 * k];
    if (p >= vStart && p < vEnd) verts[(*nv)++] = p;
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, point, PETSC_TRUE, &npts, &pts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On generated boxes, name the boundary faces by the side of the bounding box they lie on. */
static PetscErrorCode MeshLabelBoxSides(DM dm)
{
  PetscInt           fStart, fEnd, vStart, vEnd, dim;
  Vec                coords;
  PetscSection       csec;
  const PetscScalar *c;
  PetscReal          lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL};
  const PetscReal   *L;

  PetscFunctionBeginUser;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetPeriodicity(dm, NULL, NULL, &L));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &csec));
  PetscCall(VecGetArrayRead(coords, &c));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetHeightStratum(dm, 1, &fStart, &fEnd));
  for (PetscInt v = vStart; v < vEnd; v++) {
    PetscInt off;
    PetscCall(PetscSectionGetOffset(csec, v, &off));
    for (PetscInt d = 0; d < dim; d++) {
      lo[d] = PetscMin(lo[d], PetscRealPart(c[off + d]));
      hi[d] = PetscMax(hi[d], PetscRealPart(c[off + d]));
    }
  }
  const char *const *box_sides = dim == 2 ? box_sides2 : box_sides3;
  /* the sides of a periodic direction are interior faces: no group (L[axis] > 0 there; the wrapped
   * vertex coordinates of that axis do not span the box either) */
  for (PetscInt s = 0; s < 2 * dim; s++)
    if (!(L && L[s / 2] > 0)) PetscCall(DMCreateLabel(dm, box_sides[s]));
  for (PetscInt f = fStart; f < fEnd; f++) {
    PetscInt  nsupp, nv, verts[HOFLOW_VERTS_MAX], off;
    PetscReal mid[3] = {0, 0, 0};

    PetscCall(DMPlexGetSupportSize(dm, f, &nsupp));
    if (nsupp != 1) continue;
    PetscCall(PointVertices(dm, f, &nv, verts));
    for (PetscInt k = 0; k < nv; k++) {
      PetscCall(PetscSectionGetOffset(csec, verts[k], &off));
      for (PetscInt d = 0; d < dim; d++) mid[d] += PetscRealPart(c[off + d]) / nv;
    }
    /* 2D keeps its historical test order: bottom, right, top, left */
    {
      static const PetscInt order2[4] = {2, 1, 3, 0}, order3[6] = {2, 1, 3, 0, 4, 5};
      for (PetscInt k = 0; k < 2 * dim; k++) {
        const PetscInt  s = dim == 2 ? order2[k] : order3[k], axis = s / 2;
        const PetscReal side = s % 2 ? hi[axis] : lo[axis];
        if (L && L[axis] > 0) continue;
        if (PetscAbsReal(mid[axis] - side) < 1e-10 * (hi[axis] - lo[axis])) {
          PetscCall(DMSetLabelValue(dm, box_sides[s], f, s + 1));
          break;
        }
      }
    }
  }
  PetscCall(VecRestoreArrayRead(coords, &c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static RefShape ShapeOfPolytope(DMPolytopeType ct)
{
  switch (ct) {
  case DM_POLYTOPE_TRIANGLE:
    return REF_TRIANGLE;
  case DM_POLYTOPE_QUADRILATERAL:
    return REF_QUADRILATERAL;
  case DM_POLYTOPE_TETRAHEDRON:
    return REF_TETRAHEDRON;
  case DM_POLYTOPE_TRI_PRISM:
  case DM_POLYTOPE_TRI_PRISM_TENSOR:
    return REF_PRISM;
  case DM_POLYTOPE_HEXAHEDRON:
    return REF_HEXAHEDRON;
  default:
    return REF_NUM_SHAPES;
  }
}

/* The other vertex of the cell edge at vertex v leaving the vertex set `not_in` (nnot of them). */
static PetscErrorCode CellEdgeNeighbour(DM dm, PetscInt cell, PetscInt v, PetscInt nnot, const PetscInt not_in[], PetscInt *w)
{
  PetscInt npts, *pts = NULL, eStart, eEnd;

  PetscFunctionBeginUser;
  *w = -1;
  PetscCall(DMPlexGetDepthStratum(dm, 1, &eStart, &eEnd));
  PetscCall(DMPlexGetTransitiveClosure(dm, cell, PETSC_TRUE, &npts, &pts));
  for (PetscInt k = 0; k < npts && *w < 0; k++) {
    const PetscInt  e = pts[2 * k];
    const PetscInt *ev;
    if (e < eStart || e >= eEnd) continue;
    PetscCall(DMPlexGetCone(dm, e, &ev));
    if (ev[0] == v || ev[1] == v) {
      const PetscInt o  = ev[0] == v ? ev[1] : ev[0];
      PetscBool      in = PETSC_FALSE;
      for (PetscInt j = 0; j < nnot; j++) in = (PetscBool)(in || not_in[j] == o);
      if (!in) *w = o;
    }
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, cell, PETSC_TRUE, &npts, &pts));
  PetscCheck(*w >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT ": no edge leaves vertex %" PetscInt_FMT " of its face", cell, v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vertices of a 3D cell's face point in cyclic order (following its edges). */
static PetscErrorCode FaceVerticesCyclic(DM dm, PetscInt face, PetscInt *nv, PetscInt verts[])
{
  PetscInt        ncone;
  const PetscInt *cone;

  PetscFunctionBeginUser;
  PetscCall(DMPlexGetConeSize(dm, face, &ncone));
  PetscCall(DMPlexGetCone(dm, face, &cone));
  {
    const PetscInt *ev;
    PetscCall(DMPlexGetCone(dm, cone[0], &ev));
    verts[0] = ev[0];
    verts[1] = ev[1];
  }
  for (PetscInt k = 2; k < ncone; k++) {
    for (PetscInt j = 1; j < ncone; j++) {
      const PetscInt *ev;
      PetscCall(DMPlexGetCone(dm, cone[j], &ev));
      if ((ev[0] == verts[k - 1] && ev[1] != verts[k - 2]) || (ev[1] == verts[k - 1] && ev[0] != verts[k - 2])) {
        verts[k] = ev[0] == verts[k - 1] ? ev[1] : ev[0];
        break;
      }
    }
  }
  *nv = ncone;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal TripleProduct(const PetscReal a[], const PetscReal b[], const PetscReal c[])
{
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* The vertices of a 3D cell in the reference order of its shape (hoflow/shape.h), positively oriented:
 * tetrahedra by the sign of their volume; prisms and hexahedra from a bottom face (a triangle, a
 * quadrilateral) in cyclic order and the vertices joined to it by the remaining edges. */
static PetscErrorCode CellVertices3D(DM dm, RefShape shape, PetscInt cell, const PetscReal *(*coord)(PetscInt v, void *ctx), void *cctx, PetscInt verts[])
{
  PetscInt nv;

  PetscFunctionBeginUser;
  if (shape == REF_TETRAHEDRON) {
    PetscCall(PointVertices(dm, cell, &nv, verts));
  } else {
    PetscInt        ncone, nb = shape == REF_PRISM ? 3 : 4, bottom = -1;
    const PetscInt *cone;
    PetscCall(DMPlexGetConeSize(dm, cell, &ncone));
    PetscCall(DMPlexGetCone(dm, cell, &cone));
    for (PetscInt k = 0; k < ncone && bottom < 0; k++) {
      PetscInt n;
      PetscCall(DMPlexGetConeSize(dm, cone[k], &n));
      if (n == nb) bottom = cone[k];
    }
    PetscCheck(bottom >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Cell %" PetscInt_FMT " has no face with %" PetscInt_FMT " edges", cell, nb);
    PetscCall(FaceVerticesCyclic(dm, bottom, &nv, verts));
    for (PetscInt k = 0; k < nb; k++) PetscCall(CellEdgeNeighbour(dm, cell, verts[k], nb, verts, &verts[nb + k]));
  }
  { /* orientation: the axes (v_a1 - v0, v_a2 - v0, v_a3 - v0) must be right-handed */
    const PetscInt a2 = shape == REF_HEXAHEDRON ? 3 : 2, a3 = shape == REF_HEXAHEDRON ? 4 : 3;
    const PetscInt ids[4] = {verts[0], verts[1], verts[a2], verts[a3]};
    PetscReal      x[4][3], e1[3], e2[3], e3[3];
    for (PetscInt k = 0; k < 4; k++) { /* coord() returns a buffer it reuses: copy */
      const PetscReal *xk = coord(ids[k], cctx);
      for (PetscInt d = 0; d < 3; d++) x[k][d] = xk[d];
    }
    for (PetscInt d = 0; d < 3; d++) {
      e1[d] = x[1][d] - x[0][d];
      e2[d] = x[2][d] - x[0][d];
      e3[d] = x[3][d] - x[0][d];
    }
    if (TripleProduct(e1, e2, e3) < 0) { /* mirror: reverse the bottom cycle (keep vertex 0), and the top with it */
      const PetscInt nb = shape == REF_TETRAHEDRON ? 3 : shape == REF_PRISM ? 3
                                                                            : 4;
      for (PetscInt k = 1; k < nb - k; k++) {
        PetscInt t    = verts[k];
        verts[k]      = verts[nb - k];
        verts[nb - k] = t;
        if (shape != REF_TETRAHEDRON) {
          t                  = verts[nb + k];
          verts[nb + k]      = verts[nb + nb - k];
          verts[nb + nb - k] = t;
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A cell's vertices (closure order) and their coordinates as the cell sees them. Across a periodic
 * boundary these are the cell's own (localized) coordinates: DMGetCoordinatesLocal holds one
 * position per vertex, wrapped into the periodic box, which is the far side for some of the cells
 * around it. */
typedef struct {
  PetscInt  nv;
  PetscInt  verts[HOFLOW_VERTS_MAX];
  PetscReal x[HOFLOW_VERTS_MAX][3];
} CellCoords;

/* High-order meshes: vertex coordinates by vertex point (the coordinate field's vertex values). */
typedef struct {
  PetscInt         dim;
  const PetscReal *vcoord; /* vertex coordinates by vertex point (NULL: a straight-sided mesh) */
  PetscInt         vStart;
  PetscReal        x[3];
} CoordCtx;

/* The vertices of a 2D cell in closure order from its cone of edges, without the transitive closure (which
 * looks up every point's cell type in the label: a search through its strata). DMPlex orients a polygon's
 * edges along its cycle, so the closure (the cell, its edges, then each oriented edge's vertices without
 * repeats) visits v_0, the vertex of edge 0 not on edge 1, then v_k, the vertex edges k-1 and k share.
 * *nv = 0 where the cone is not such a cycle (a tensor cell's cone, an uninterpolated mesh): the caller
 * then takes the closure. */
static PetscErrorCode CellVerticesFromEdges(DM dm, PetscInt cell, PetscInt vStart, PetscInt vEnd, PetscInt *nv, PetscInt verts[])
{
  PetscInt        ncone, prev[2] = {-1, -1};
  const PetscInt *cone;

  PetscFunctionBeginUser;
  *nv = 0;
  PetscCall(DMPlexGetConeSize(dm, cell, &ncone));
  PetscCall(DMPlexGetCone(dm, cell, &cone));
  if (ncone < 3 || ncone > HOFLOW_VERTS_MAX) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k <= ncone; k++) {
    PetscInt        n, shared = -1;
    const PetscInt *ev;
    PetscCall(DMPlexGetConeSize(dm, cone[k % ncone], &n));
    PetscCall(DMPlexGetCone(dm, cone[k % ncone], &ev));
    if (n != 2 || ev[0] < vStart || ev[0] >= vEnd || ev[1] < vStart || ev[1] >= vEnd || ev[0] == ev[1]) PetscFunctionReturn(PETSC_SUCCESS);
    if (k > 0) {
      for (PetscInt a = 0; a < 2; a++)
        for (PetscInt b = 0; b < 2; b++)
          if (prev[a] == ev[b]) shared = shared < 0 ? prev[a] : -2;
      if (shared < 0) PetscFunctionReturn(PETSC_SUCCESS); /* none, or both: not a cycle */
      if (k == 1) verts[0] = prev[0] == shared ? prev[1] : prev[0];
      if (k < ncone)
        verts[k] = shared;
      else if (shared != verts[0])
        PetscFunctionReturn(PETSC_SUCCESS); /* the last edge must close the cycle at v_0 */
    }
    prev[0] = ev[0];
    prev[1] = ev[1];
  }
  for (PetscInt a = 0; a < ncone; a++)
    for (PetscInt b = a + 1; b < ncone; b++)
      if (verts[a] == verts[b]) PetscFunctionReturn(PETSC_SUCCESS);
  *nv = ncone;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local coordinates of a straight-sided mesh without periodic identification by vertex: vStart..vEnd and
 * each vertex's offset into the coordinate array (read once from the coordinate section, not per cell). */
typedef struct {
  PetscInt           vStart, vEnd;
  const PetscScalar *array; /* NULL: periodic meshes (cells have their own copies) */
  PetscInt          *offset;
} VertexCoordinates;

/* The cell's closure vertices and their coordinates: from the local coordinate array (vc->array, one
 * coordinate per vertex), or through DMPlexGetCellCoordinates (NULL vc->array: periodic meshes, whose
 * cells have their own copies). */
static PetscErrorCode CellCoordsGet(const Mesh *mesh, PetscInt cell, const VertexCoordinates *vc, CellCoords *cc)
{
  const PetscInt     dim = mesh->dim;
  PetscBool          isdg;
  PetscInt           nc, nv = 0, npts, *pts = NULL;
  const PetscScalar *array;
  PetscScalar       *coords;

  PetscFunctionBeginUser;
  if (dim == 2) PetscCall(CellVerticesFromEdges(mesh->dm, cell, vc->vStart, vc->vEnd, &nv, cc->verts));
  if (!nv) {
    PetscCall(DMPlexGetTransitiveClosure(mesh->dm, cell, PETSC_TRUE, &npts, &pts));
    for (PetscInt k = 0; k < npts; k++)
      if (pts[2 * k] >= vc->vStart && pts[2 * k] < vc->vEnd) {
        if (nv < HOFLOW_VERTS_MAX) cc->verts[nv] = pts[2 * k];
        nv++;
      }
    PetscCall(DMPlexRestoreTransitiveClosure(mesh->dm, cell, PETSC_TRUE, &npts, &pts));
  }
  PetscCheck(nv <= HOFLOW_VERTS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: cell %" PetscInt_FMT " has %" PetscInt_FMT " vertices; hoflow's shapes have at most %d", mesh->source, cell, nv, HOFLOW_VERTS_MAX);
  cc->nv = nv;
  if (vc->array) { /* the same values as DMPlexGetCellCoordinates, without its second closure */
    for (PetscInt k = 0; k < nv; k++) {
      const PetscInt off = vc->offset[cc->verts[k] - vc->vStart];
      for (PetscInt d = 0; d < 3; d++) cc->x[k][d] = d < dim ? PetscRealPart(vc->array[off + d]) : 0.0;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the coordinates of the cell's closure vertices, in closure order; the cell's own copy where it has one */
  PetscCall(DMPlexGetCellCoordinates(mesh->dm, cell, &isdg, &nc, &array, &coords));
  if (nc == nv * dim)
    for (PetscInt k = 0; k < nv; k++)
      for (PetscInt d = 0; d < 3; d++) cc->x[k][d] = d < dim ? PetscRealPart(coords[k * dim + d]) : 0.0;
  PetscCall(DMPlexRestoreCellCoordinates(mesh->dm, cell, &isdg, &nc, &array, &coords));
  PetscCheck(nc == nv * dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: cell %" PetscInt_FMT " has %" PetscInt_FMT " coordinate values for its %" PetscInt_FMT " vertices in %" PetscInt_FMT "D%s", mesh->source, cell, nc, nv, dim,
             mesh->periodic ? "; its vertices may be identified with each other across a periodic boundary: a periodic direction needs at least 3 cells" : "; hoflow reads straight-sided meshes (one coordinate per vertex)");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The position of closure vertex v of the cell (CellVertices3D's coordinate callback). */
static const PetscReal *CellVertexCoord(PetscInt v, void *ctx)
{
  const CellCoords *cc = (const CellCoords *)ctx;
  for (PetscInt k = 0; k < cc->nv; k++)
    if (cc->verts[k] == v) return cc->x[k];
  return NULL; /* not a vertex of the cell: the callers pass closure vertices only */
}

/* The position of vertex v of a high-order mesh (its coordinate field's vertex value) */
static const PetscReal *VertexCoord(PetscInt v, void *ctx)
{
  CoordCtx *cc = (CoordCtx *)ctx;

  for (PetscInt d = 0; d < 3; d++) cc->x[d] = d < cc->dim ? cc->vcoord[(v - cc->vStart) * cc->dim + d] : 0.0;
  return cc->x;
}

static PetscReal SignedArea(PetscInt nv, const PetscReal xy[])
{
  PetscReal a = 0;
  for (PetscInt k = 0; k < nv; k++) {
    const PetscInt l = (k + 1) % nv;
    a += xy[2 * k] * xy[2 * l + 1] - xy[2 * l] * xy[2 * k + 1];
  }
  return 0.5 * a;
}

/* Element numbering (hoflow/mesh.h): owned cells by (shape, kind), interior first, then halo cells
 * grouped the same way; affine blocks before curved ones of the same shape. */
static PetscErrorCode MeshNumberElements(Mesh *mesh, const RefShape cell_shape[], const PetscBool owned[], const PetscBool curved[])
{
  DM         dm     = mesh->dm;
  PetscInt   ncells = mesh->Klocal, l = 0, present[2 * REF_NUM_SHAPES] = {0}, gpresent[2 * REF_NUM_SHAPES];
  PetscBool *interior;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(ncells, &interior));
  for (PetscInt c = 0; c < ncells; c++) {
    PetscInt        ncone;
    const PetscInt *cone;
    interior[c]                              = owned[c];
    present[2 * cell_shape[c] + !!curved[c]] = 1;
    if (!owned[c]) continue;
    PetscCall(DMPlexGetConeSize(dm, c, &ncone));
    PetscCall(DMPlexGetCone(dm, c, &cone));
    for (PetscInt k = 0; k < ncone; k++) {
      PetscInt        nsupp;
      const PetscInt *supp;
      PetscCall(DMPlexGetSupportSize(dm, cone[k], &nsupp));
      PetscCall(DMPlexGetSupport(dm, cone[k], &supp));
      for (PetscInt j = 0; j < nsupp; j++)
        if (supp[j] != c && !owned[supp[j]]) interior[c] = PETSC_FALSE;
    }
  }
  /* the same blocks on every rank, in RefShape order, affine before curved */
  PetscCall(MPIU_Allreduce(present, gpresent, 2 * REF_NUM_SHAPES, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)dm)));
  PetscCall(PetscMalloc2(ncells, &mesh->elem_cell, ncells, &mesh->elem_block));
  PetscCall(PetscMalloc1(ncells, &mesh->cell_elem));
  mesh->nblocks = 0;
  for (PetscInt sk = 0; sk < 2 * REF_NUM_SHAPES; sk++) {
    const PetscInt  s = sk / 2;
    const PetscBool k = (PetscBool)(sk % 2);
    MeshBlock      *b;
    if (!gpresent[sk]) continue;
    b         = &mesh->blocks[mesh->nblocks++];
    b->shape  = (RefShape)s;
    b->curved = k;
    b->nverts = RefShapeTable[s].nverts;
    b->nfaces = RefShapeTable[s].nfaces;
    b->start  = l;
    for (PetscInt pass = 0; pass < 2; pass++) {
      for (PetscInt c = 0; c < ncells; c++)
        if ((PetscInt)cell_shape[c] == s && !!curved[c] == k && owned[c] && interior[c] == (pass == 0)) mesh->elem_cell[l++] = c;
      if (pass == 0) b->interior_end = l;
    }
    b->end = l;
  }
  mesh->K = l;
  for (PetscInt k = 0; k < mesh->nblocks; k++) {
    MeshBlock *b  = &mesh->blocks[k];
    b->halo_start = l;
    for (PetscInt c = 0; c < ncells; c++)
      if (cell_shape[c] == b->shape && !!curved[c] == b->curved && !owned[c]) mesh->elem_cell[l++] = c;
    b->halo_end = l;
  }
  PetscCheck(l == ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element numbering lost cells");
  for (PetscInt k = 0; k < mesh->nblocks; k++) {
    const MeshBlock *b = &mesh->blocks[k];
    for (PetscInt e = b->start; e < b->end; e++) mesh->elem_block[e] = k;
    for (PetscInt e = b->halo_start; e < b->halo_end; e++) mesh->elem_block[e] = k;
  }
  for (PetscInt e = 0; e < ncells; e++) mesh->cell_elem[mesh->elem_cell[e]] = e;
  PetscCall(PetscFree(interior));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *MeshFormatPoint(PetscInt dim, const PetscReal x[], char buf[], size_t size)
{
  if (dim == 3)
    snprintf(buf, size, "(%g, %g, %g)", (double)x[0], (double)x[1], (double)x[2]);
  else
    snprintf(buf, size, "(%g, %g)", (double)x[0], (double)x[1]);
  return buf;
}

RefShape MeshElementShape(const Mesh *mesh, PetscInt l)
{
  return mesh->blocks[mesh->elem_block[l]].shape;
}

PetscBool MeshElementIsCurved(const Mesh *mesh, PetscInt l)
{
  return mesh->blocks[mesh->elem_block[l]].curved;
}

PetscErrorCode MeshHasCurved(const Mesh *mesh, PetscBool *curved)
{
  PetscFunctionBeginUser;
  *curved = PETSC_FALSE;
  for (PetscInt b = 0; b < mesh->nblocks; b++) *curved = (PetscBool)(*curved || mesh->blocks[b].curved);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshGetUniformShape(const Mesh *mesh, const char what[], RefShape *shape)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 1; b < mesh->nblocks; b++)
    PetscCheck(mesh->blocks[b].shape == mesh->blocks[0].shape, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_SUP, "Mesh %s mixes %s and %s elements; %s needs one element shape", mesh->source, RefShapes[mesh->blocks[0].shape], RefShapes[mesh->blocks[b].shape], what);
  *shape = mesh->blocks[0].shape;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MeshElementCentroid(const Mesh *mesh, PetscInt l, PetscReal c[])
{
  const PetscInt   dim = mesh->dim, nv = RefShapeTable[MeshElementShape(mesh, l)].nverts;
  const PetscReal *v = mesh->vertices + l * HOFLOW_VERTS_MAX * dim;
  for (PetscInt d = 0; d < dim; d++) {
    c[d] = 0;
    for (PetscInt k = 0; k < nv; k++) c[d] += v[k * dim + d];
    c[d] /= nv;
  }
}

/* Per DMPlex cell, before the numbering: the vertices in reference order and their coordinates (each
 * cell's own, so an element across a periodic boundary has its true shape; a high-order mesh's vertex
 * values of its coordinate field), the cell's size (longest edge), the orientation and degeneracy
 * checks, and whether the cell is curved, with its geometry nodes (xg: PetscMalloc'd, cell c's at
 * xg_off[c], -1 for affine cells). */
static PetscErrorCode MeshCellGeometry(Mesh *mesh, const RefShape cell_shape[], PetscInt cell_verts[], PetscReal cell_x[], PetscReal cell_diam[], PetscBool curved[], PetscReal **xg, PetscInt xg_off[])
{
  DM                dm  = mesh->dm;
  const PetscInt    dim = mesh->dim, vstride = HOFLOW_VERTS_MAX * dim, ncells = mesh->Klocal;
  CoordCtx          cc = {0};
  CellCoords        cell_cc;
  PetscInt          counts[2] = {0, 0}, gcounts[2], nxg = 0, cap = 0;
  PetscReal         dominant = 1.0, *xgc = NULL;
  VertexCoordinates vc = {0, 0, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCall(MeshCurveVertexCoordinates(mesh, &cc.vcoord, &cc.vStart));
  PetscCheck(!(cc.vcoord && mesh->periodic), PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "Mesh %s is periodic and high-order: hoflow reads periodic meshes with straight-sided cells only (curve their boundaries with -curve_<group> instead)", mesh->source);
  /* DMPlexGetCellCoordinates reads the local coordinate vectors without creating them (collective) */
  PetscCall(DMGetCoordinatesLocalSetUp(dm));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vc.vStart, &vc.vEnd));
  if (mesh->periodic)
    PetscCall(DMGetCellCoordinatesLocalSetUp(dm));
  else if (!cc.vcoord) { /* straight-sided: each vertex's offset in the coordinate array, read once (high-order
                          * meshes take their coordinate field's vertex values, cc.vcoord, instead) */
    Vec          cvec;
    PetscSection vsec;
    PetscCall(DMGetCoordinateSection(dm, &vsec));
    PetscCall(PetscMalloc1(vc.vEnd - vc.vStart, &vc.offset));
    for (PetscInt v = vc.vStart; v < vc.vEnd; v++) {
      PetscInt ndof;
      PetscCall(PetscSectionGetDof(vsec, v, &ndof));
      PetscCall(PetscSectionGetOffset(vsec, v, &vc.offset[v - vc.vStart]));
      PetscCheck(ndof == dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: vertex %" PetscInt_FMT " has %" PetscInt_FMT " coordinate values in %" PetscInt_FMT "D; hoflow reads straight-sided meshes (one coordinate per vertex)", mesh->source, v, ndof, dim);
    }
    PetscCall(DMGetCoordinatesLocal(dm, &cvec));
    PetscCall(VecGetArrayRead(cvec, &vc.array));
  }
  cc.dim = dim;
  for (PetscInt c = 0; c < ncells; c++) {
    const RefShape      shape = cell_shape[c];
    const RefShapeInfo *info  = &RefShapeTable[shape];
    PetscInt           *cv = cell_verts + c * HOFLOW_VERTS_MAX, n = 0;
    if (!cc.vcoord) PetscCall(CellCoordsGet(mesh, c, &vc, &cell_cc));
    if (dim == 2 && !cc.vcoord) { /* the closure's vertices, which CellCoordsGet has just read */
      n = cell_cc.nv;
      for (PetscInt k = 0; k < n && k < HOFLOW_VERTS_MAX; k++) cv[k] = cell_cc.verts[k];
    } else if (dim == 2)
      PetscCall(PointVertices(dm, c, &n, cv));
    else {
      if (cc.vcoord)
        PetscCall(CellVertices3D(dm, shape, c, VertexCoord, &cc, cv));
      else
        PetscCall(CellVertices3D(dm, shape, c, CellVertexCoord, &cell_cc, cv));
      n = info->nverts;
    }
    PetscCheck(n == info->nverts, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " has %" PetscInt_FMT " vertices; a %s has %d", mesh->source, c, n, info->name, info->nverts);
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *x = cc.vcoord ? VertexCoord(cv[k], &cc) : CellVertexCoord(cv[k], &cell_cc);
      PetscCheck(x, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mesh %s: vertex %" PetscInt_FMT " is not in the closure of cell %" PetscInt_FMT, mesh->source, cv[k], c);
      for (PetscInt d = 0; d < dim; d++) {
        PetscCheck(!PetscIsInfOrNanReal(x[d]), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " has non-finite vertex coordinates; PETSc 3.18 cannot refine curved (high-order) meshes with -dm_refine: remesh with gmsh -clscale instead", mesh->source, c);
        cell_x[c * vstride + k * dim + d] = x[d];
      }
    }
    if (dim == 2) counts[SignedArea(n, cell_x + c * vstride) < 0]++;
  }
  if (vc.array) {
    Vec cvec;
    PetscCall(DMGetCoordinatesLocal(dm, &cvec));
    PetscCall(VecRestoreArrayRead(cvec, &vc.array));
  }
  PetscCall(PetscFree(vc.offset));
  if (dim == 2) {
    /* A 2D mesh may be consistently clockwise (a Gmsh surface with normal -z); an inverted (folded)
     * element is one whose orientation disagrees with the rest of the mesh. */
    PetscCall(MPIU_Allreduce(counts, gcounts, 2, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)dm)));
    dominant = gcounts[1] > gcounts[0] ? -1.0 : 1.0;
  }

  for (PetscInt c = 0; c < ncells; c++) {
    const RefShape      shape = cell_shape[c];
    const RefShapeInfo *info  = &RefShapeTable[shape];
    const PetscInt      nv = info->nverts, npg = MeshCurveNumNodes(mesh, shape);
    PetscReal          *xy = cell_x + c * vstride, diam = 0, jac[9], g[HOFLOW_GEO_SIZE(3)], J;
    PetscInt           *cv = cell_verts + c * HOFLOW_VERTS_MAX;

    /* the longest edge: edges join consecutive vertices of a face's cycle (hoflow/shape.h) */
    for (PetscInt f = 0; f < info->nfaces; f++)
      for (PetscInt k = 0; k < info->face_nverts[f]; k++) {
        const PetscInt a = info->face_verts[f][k], b = info->face_verts[f][(k + 1) % info->face_nverts[f]];
        PetscReal      d2 = 0;
        for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(xy[a * dim + d] - xy[b * dim + d]);
        diam = PetscMax(diam, PetscSqrtReal(d2));
      }
    cell_diam[c] = diam;
    if (dim == 2) {
      const PetscReal area = SignedArea(nv, xy);
      PetscCheck(area * dominant > 1e-12 * diam * diam, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
                 "Mesh %s: cell %" PetscInt_FMT " with vertices (%g, %g), (%g, %g), (%g, %g)%s is inverted or degenerate (signed area %g against the mesh's orientation %+g); fix the mesh", mesh->source, c, (double)xy[0], (double)xy[1], (double)xy[2], (double)xy[3], (double)xy[4], (double)xy[5], nv > 3 ? ", ..." : "", (double)area, (double)dominant);
      if (dominant < 0) { /* reverse to counterclockwise, keeping vertex 0 */
        for (PetscInt k = 1; k < nv - k; k++) {
          for (PetscInt d = 0; d < 2; d++) {
            const PetscReal t    = xy[2 * k + d];
            xy[2 * k + d]        = xy[2 * (nv - k) + d];
            xy[2 * (nv - k) + d] = t;
          }
          const PetscInt t = cv[k];
          cv[k]            = cv[nv - k];
          cv[nv - k]       = t;
        }
      }
    }
    /* curved or affine (the geometry nodes of curved cells kept) */
    xg_off[c] = -1;
    curved[c] = PETSC_FALSE;
    if (npg) {
      if (nxg + npg * dim > cap) {
        PetscReal *grown;
        cap = 2 * cap + npg * dim * 64;
        PetscCall(PetscMalloc1(cap, &grown));
        if (nxg) PetscCall(PetscArraycpy(grown, xgc, nxg));
        PetscCall(PetscFree(xgc));
        xgc = grown;
      }
      PetscCall(MeshCurveCell(mesh, c, shape, cv, xy, diam, &curved[c], xgc + nxg));
      if (curved[c]) {
        xg_off[c] = nxg;
        nxg += npg * dim;
      }
    }
    (void)GeomAffineJacobian(shape, (int)dim, xy, jac);
    J = GeomMetricFromJacobian((int)dim, jac, g);
    PetscCheck(J > 1e-12 * PetscPowRealInt(diam, dim), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: %s cell %" PetscInt_FMT " near (%g, %g) is degenerate (Jacobian %g); fix the mesh", mesh->source, info->name, c, (double)xy[0], (double)xy[1], (double)J);
  }
  *xg = xgc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element-ordered vertex coordinates, global vertex numbers, affine factors, measures, face points and
 * geometry nodes from the per-cell data. */
static PetscErrorCode MeshComputeGeometry(Mesh *mesh, const PetscInt cell_verts[], const PetscReal cell_x[], const PetscReal cell_diam[], const PetscReal xg[], const PetscInt xg_off[])
{
  DM              dm  = mesh->dm;
  const PetscInt  dim = mesh->dim, vstride = HOFLOW_VERTS_MAX * dim, gsize = HOFLOW_GEO_SIZE(dim);
  PetscInt        nxg = 0, vStart, vEnd;
  IS              vnum;
  const PetscInt *gnum;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(mesh->Klocal * vstride, &mesh->vertices));
  PetscCall(PetscMalloc3(mesh->Klocal * gsize, &mesh->geo, mesh->Klocal, &mesh->measure, mesh->Klocal * HOFLOW_FACES_MAX, &mesh->face_point));
  PetscCall(PetscMalloc2(mesh->Klocal * HOFLOW_VERTS_MAX, &mesh->vertex_gid, mesh->Klocal, &mesh->geom_offset));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetVertexNumbering(dm, &vnum));
  PetscCall(ISGetIndices(vnum, &gnum));
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    const PetscInt c = mesh->elem_cell[l];
    if (xg_off[c] >= 0) nxg += MeshCurveNumNodes(mesh, MeshElementShape(mesh, l)) * dim;
  }
  PetscCall(PetscMalloc1(PetscMax(nxg, 1), &mesh->geom_nodes));
  nxg        = 0;
  mesh->hmax = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    const PetscInt      cell  = mesh->elem_cell[l];
    const RefShape      shape = MeshElementShape(mesh, l);
    const RefShapeInfo *info  = &RefShapeTable[shape];
    const PetscInt      nv    = info->nverts;
    const PetscInt     *cv    = cell_verts + cell * HOFLOW_VERTS_MAX;
    PetscReal          *xy = mesh->vertices + l * vstride, *g = mesh->geo + l * gsize, jac[9], J;

    for (PetscInt k = 0; k < nv * dim; k++) xy[k] = cell_x[cell * vstride + k];
    for (PetscInt k = 0; k < nv; k++) {
      const PetscInt gv                          = gnum[cv[k] - vStart];
      mesh->vertex_gid[l * HOFLOW_VERTS_MAX + k] = gv < 0 ? -(gv + 1) : gv;
    }
    mesh->geom_offset[l] = -1;
    if (xg_off[cell] >= 0) {
      const PetscInt n = MeshCurveNumNodes(mesh, shape) * dim;
      PetscCall(PetscArraycpy(mesh->geom_nodes + nxg, xg + xg_off[cell], n));
      mesh->geom_offset[l] = nxg;
      nxg += n;
    }
    (void)GeomAffineJacobian(shape, (int)dim, xy, jac);
    J                = GeomMetricFromJacobian((int)dim, jac, g);
    mesh->measure[l] = dim == 2 ? SignedArea(nv, xy) : J * info->measure; /* 2D: the polygon's area, as hoflow always had; curved: MeshCurveFinish */
    mesh->hmax       = PetscMax(mesh->hmax, cell_diam[cell]);
    /* face points: the cone face with the reference face's vertices */
    {
      PetscInt        ncone;
      const PetscInt *cone;
      PetscInt        fv[HOFLOW_FACES_MAX][HOFLOW_VERTS_MAX], nfv[HOFLOW_FACES_MAX];
      PetscCall(DMPlexGetConeSize(dm, mesh->elem_cell[l], &ncone));
      PetscCall(DMPlexGetCone(dm, mesh->elem_cell[l], &cone));
      PetscCheck(ncone <= HOFLOW_FACES_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT " has %" PetscInt_FMT " faces", mesh->elem_cell[l], ncone);
      for (PetscInt k = 0; k < ncone; k++) { /* the vertices of each face once (an edge's cone is its vertices) */
        PetscInt        nfc;
        const PetscInt *fcone;
        PetscCall(DMPlexGetConeSize(dm, cone[k], &nfc));
        PetscCall(DMPlexGetCone(dm, cone[k], &fcone));
        if (nfc > 0 && nfc <= HOFLOW_VERTS_MAX && fcone[0] >= vStart && fcone[0] < vEnd) {
          nfv[k] = nfc;
          for (PetscInt a = 0; a < nfc; a++) fv[k][a] = fcone[a];
        } else
          PetscCall(PointVertices(dm, cone[k], &nfv[k], fv[k]));
      }
      for (PetscInt f = 0; f < info->nfaces; f++) {
        mesh->face_point[l * HOFLOW_FACES_MAX + f] = -1;
        for (PetscInt k = 0; k < ncone; k++) {
          PetscInt match = 0;
          if (nfv[k] != info->face_nverts[f]) continue;
          for (PetscInt a = 0; a < nfv[k]; a++)
            for (PetscInt b = 0; b < nfv[k]; b++) match += fv[k][b] == cv[info->face_verts[f][a]];
          if (match == nfv[k]) mesh->face_point[l * HOFLOW_FACES_MAX + f] = cone[k];
        }
        PetscCheck(mesh->face_point[l * HOFLOW_FACES_MAX + f] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT ": no face joins the vertices of reference face %" PetscInt_FMT, mesh->elem_cell[l], f);
      }
    }
  }
  PetscCall(ISRestoreIndices(vnum, &gnum));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &mesh->hmax, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Both elements of an interior face see its vertex points, each at its own position; across a periodic
 * face these differ by the periodic map. The trace maps (disc) take that map as the translation of the
 * face centroid, so check that every shared vertex moves by it and that the two sides see opposite
 * normals. Otherwise: vertices whose distances change mean paired faces that do not match; a congruent
 * face seen from the same side by both cells means cells folded onto each other (PETSc merges faces with
 * the same vertices where a periodic direction has fewer than 3 cells); a congruent face seen from
 * opposite sides, a rotation (Gmsh allows any affine periodic map). */
static PetscErrorCode MeshCheckFaceTranslation(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt nb, PetscInt g)
{
  const PetscInt      dim = mesh->dim, slot = mesh->face_slot[e] + f;
  const RefShapeInfo *ie = &RefShapeTable[MeshElementShape(mesh, e)], *in = &RefShapeTable[MeshElementShape(mesh, nb)];
  const PetscInt      nfv      = ie->face_nverts[f];
  const PetscReal    *ne       = mesh->face_normal + slot * dim;
  PetscReal           pe[4][3] = {{0}}, pn[4][3] = {{0}}, shift[3] = {0, 0, 0}, ce[3] = {0, 0, 0}, cn[3] = {0, 0, 0}, dev = 0, distort = 0, ndot = 0, tol;
  double              nbn[3], meas;
  char                ps[64], pes[64], pns[64];

  PetscFunctionBeginUser;
  for (PetscInt a = 0; a < nfv; a++) {
    const PetscInt ia = ie->face_verts[f][a], v = mesh->vertex_gid[e * HOFLOW_VERTS_MAX + ia];
    PetscInt       ib = -1;
    for (PetscInt b = 0; b < in->face_nverts[g]; b++)
      if (mesh->vertex_gid[nb * HOFLOW_VERTS_MAX + in->face_verts[g][b]] == v) ib = in->face_verts[g][b];
    PetscCheck(ib >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mesh %s: vertex %" PetscInt_FMT " of face %" PetscInt_FMT " of cell %" PetscInt_FMT " is not on the face of its neighbour cell %" PetscInt_FMT, mesh->source, v, f, mesh->elem_cell[e], mesh->elem_cell[nb]);
    for (PetscInt d = 0; d < dim; d++) {
      pe[a][d] = mesh->vertices[(e * HOFLOW_VERTS_MAX + ia) * dim + d];
      pn[a][d] = mesh->vertices[(nb * HOFLOW_VERTS_MAX + ib) * dim + d];
      ce[d] += pe[a][d] / nfv;
      cn[d] += pn[a][d] / nfv;
    }
  }
  for (PetscInt d = 0; d < dim; d++) shift[d] = cn[d] - ce[d];
  tol = 1e-8 * PetscPowReal(mesh->face_measure[slot], 1.0 / (dim - 1));
  for (PetscInt a = 0; a < nfv; a++) {
    PetscReal d2 = 0;
    for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(pn[a][d] - pe[a][d] - shift[d]);
    dev = PetscMax(dev, PetscSqrtReal(d2));
    for (PetscInt b = a + 1; b < nfv; b++) { /* an isometry keeps the distances between the face's vertices */
      PetscReal le = 0, ln = 0;
      for (PetscInt d = 0; d < dim; d++) {
        le += PetscSqr(pe[a][d] - pe[b][d]);
        ln += PetscSqr(pn[a][d] - pn[b][d]);
      }
      distort = PetscMax(distort, PetscAbsReal(PetscSqrtReal(le) - PetscSqrtReal(ln)));
    }
  }
  GeomFaceNormal(MeshElementShape(mesh, nb), (int)dim, (int)g, mesh->vertices + nb * HOFLOW_VERTS_MAX * dim, nbn, &meas);
  for (PetscInt d = 0; d < dim; d++) {
    ndot += ne[d] * nbn[d];
  }
  /* the vertices match after the shift and the cells lie on opposite sides: an ordinary or a periodic
   * face (normals from the vertices of a warped quadrilateral face differ between its two cells) */
  if (dev <= tol && ndot < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(distort <= tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: periodic faces that do not match: face %" PetscInt_FMT " of cell %" PetscInt_FMT " at %s and face %" PetscInt_FMT " of cell %" PetscInt_FMT " at %s share their vertices, but after the periodic shift %s (the centroids' difference) a vertex is %g from its partner; the periodic sides of a mesh need the same nodes, one side a translate of the other", mesh->source, f,
             mesh->elem_cell[e], MeshFormatPoint(dim, ce, pes, sizeof(pes)), g, mesh->elem_cell[nb], MeshFormatPoint(dim, cn, pns, sizeof(pns)), MeshFormatPoint(dim, shift, ps, sizeof(ps)), (double)dev);
  PetscCheck(ndot < 1 - 1e-8, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cells %" PetscInt_FMT " and %" PetscInt_FMT " lie on the same side of their common face (at %s and %s): they overlap. Where a periodic direction has fewer than 3 cells PETSc merges faces with the same vertices; give it at least 3 cells", mesh->source, mesh->elem_cell[e], mesh->elem_cell[nb], MeshFormatPoint(dim, ce, pes, sizeof(pes)), MeshFormatPoint(dim, cn, pns, sizeof(pns)));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: face %" PetscInt_FMT " of cell %" PetscInt_FMT " at %s is periodic with face %" PetscInt_FMT " of cell %" PetscInt_FMT " at %s by a map that is not a translation (a vertex moves by %g more or less than the centroid, which moves by %s): hoflow supports periodicity by translation only (Gmsh: Periodic ... Translate {...})", mesh->source, f, mesh->elem_cell[e],
          MeshFormatPoint(dim, ce, pes, sizeof(pes)), g, mesh->elem_cell[nb], MeshFormatPoint(dim, cn, pns, sizeof(pns)), (double)dev, MeshFormatPoint(dim, shift, ps, sizeof(ps)));
}

/* Neighbours, outward normals and face measures of the owned elements' faces. A periodic face is an
 * ordinary interior face (two cells in its support), whatever the positions its two cells see it at. */
static PetscErrorCode MeshComputeFaces(Mesh *mesh)
{
  DM             dm  = mesh->dm;
  const PetscInt dim = mesh->dim;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(mesh->K + 1, &mesh->face_slot));
  mesh->face_slot[0] = 0;
  for (PetscInt e = 0; e < mesh->K; e++) mesh->face_slot[e + 1] = mesh->face_slot[e] + RefShapeTable[MeshElementShape(mesh, e)].nfaces;
  mesh->nslots = mesh->face_slot[mesh->K];
  PetscCall(PetscMalloc5(mesh->nslots, &mesh->face_elem, mesh->nslots, &mesh->face_face, mesh->nslots, &mesh->face_type, mesh->nslots * dim, &mesh->face_normal, mesh->nslots, &mesh->face_measure));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefShape shape = MeshElementShape(mesh, e);
    const PetscInt nf    = RefShapeTable[shape].nfaces;
    for (PetscInt f = 0; f < nf; f++) {
      const PetscInt  slot = mesh->face_slot[e] + f, point = mesh->face_point[e * HOFLOW_FACES_MAX + f];
      PetscInt        nsupp;
      const PetscInt *supp;
      double          n[3], measure;

      GeomFaceNormal(shape, (int)dim, (int)f, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, n, &measure);
      for (PetscInt d = 0; d < dim; d++) mesh->face_normal[slot * dim + d] = n[d];
      mesh->face_measure[slot] = measure;
      mesh->face_elem[slot]    = -1;
      mesh->face_face[slot]    = -1;
      mesh->face_type[slot]    = -1; /* boundary faces are set by MeshSetBoundaryTypes */
      PetscCall(DMPlexGetSupportSize(dm, point, &nsupp));
      PetscCall(DMPlexGetSupport(dm, point, &supp));
      PetscCheck(nsupp == 1 || nsupp == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: face %" PetscInt_FMT " of cell %" PetscInt_FMT " is shared by %" PetscInt_FMT " cells; the mesh is not a conforming manifold", mesh->source, point, mesh->elem_cell[e], nsupp);
      if (nsupp == 2) {
        const PetscInt nb     = mesh->cell_elem[supp[0] == mesh->elem_cell[e] ? supp[1] : supp[0]];
        mesh->face_elem[slot] = nb;
        mesh->face_type[slot] = 0; /* HOFLOW_FACE_INTERIOR */
        for (PetscInt g = 0; g < RefShapeTable[MeshElementShape(mesh, nb)].nfaces; g++)
          if (mesh->face_point[nb * HOFLOW_FACES_MAX + g] == point) mesh->face_face[slot] = g;
        PetscCheck(mesh->face_face[slot] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mesh %s: face %" PetscInt_FMT " of cell %" PetscInt_FMT " is not a face of its neighbour cell %" PetscInt_FMT, mesh->source, point, mesh->elem_cell[e], mesh->elem_cell[nb]);
        /* on a mesh that is not periodic both sides of a face read the same DMPlex vertices: nothing to check
         * (the check, with a second face normal, was a third of MeshFaces at 172 k triangles) */
        if (mesh->periodic) PetscCall(MeshCheckFaceTranslation(mesh, e, f, nb, mesh->face_face[slot]));
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -dm_refine deferred: taken out of the database before DMSetFromOptions (and put back after it) so PETSc
 * builds the coarse mesh only, then refined by hoflow. Two cases, never with curved groups (-curve_*: they are
 * projected on PETSc's serial refined mesh, MeshCurveCreate):
 * - several ranks with -dm_refine_distributed (*after): refine after distributing (a serial refinement of the
 *   whole mesh on rank 0, then its distribution, takes time and memory that grow with the fine mesh);
 *   MeshRefineDistributed refines; periodic meshes keep the serial refinement there;
 * - a Gmsh file on one rank (*serial): MeshRefineSerial refines, by hoflow's arrays where MeshRefineUniform can
 *   (2D triangles and quadrilaterals, about 6x faster than PETSc's DMRefine at 688 k triangles), else by
 *   DMRefine level by level as DMSetFromOptions would; -mesh_refine_native false keeps PETSc's refinement. */
static PetscErrorCode MeshDeferRefinementBegin(MPI_Comm comm, PetscBool from_file, PetscInt *after, PetscInt *serial)
{
  PetscMPIInt size;
  PetscBool   distributed = PETSC_FALSE, native = PETSC_TRUE, curved;
  PetscInt    levels      = 0;

  PetscFunctionBeginUser;
  *after = *serial = 0;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-dm_refine_distributed", &distributed, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mesh_refine_native", &native, NULL));
  PetscCall(MeshCurveOptionsGiven(&curved));
  if (curved || (size > 1 ? !distributed : !from_file || !native)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dm_refine", &levels, NULL));
  if (levels <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsClearValue(NULL, "-dm_refine"));
  if (size > 1) *after = levels;
  else *serial = levels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Replace *dm by new (when there is one), which takes its name and vector/matrix types. */
static PetscErrorCode MeshReplace(DM *dm, DM *new)
{
  VecType vtype;
  MatType mtype;

  PetscFunctionBeginUser;
  if (!*new) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetVecType(*dm, &vtype));
  PetscCall(DMGetMatType(*dm, &mtype));
  PetscCall(DMSetVecType(*new, vtype));
  PetscCall(DMSetMatType(*new, mtype));
  PetscCall(PetscObjectSetName((PetscObject) * new, "mesh"));
  PetscCall(DMDestroy(dm));
  *dm  = *new;
  *new = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One uniform refinement of dm (serial or distributed). */
static PetscErrorCode MeshRefineOnce(DM *dm)
{
  DM rdm;

  PetscFunctionBeginUser;
  PetscCall(DMPlexSetRefinementUniform(*dm, PETSC_TRUE));
  PetscCall(DMRefine(*dm, PetscObjectComm((PetscObject)*dm), &rdm));
  PetscCall(MeshReplace(dm, &rdm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The deferred serial -dm_refine levels (MeshDeferSerialRefinementBegin). */
static PetscErrorCode MeshRefineSerial(DM *dm, PetscInt levels)
{
  DM rdm;

  PetscFunctionBeginUser;
  PetscCall(MeshRefineUniform(*dm, levels, &rdm));
  if (rdm) PetscCall(MeshReplace(dm, &rdm)); /* keeps the vector and matrix types (-dm_vec_type cuda) */
  else
    for (PetscInt l = 0; l < levels; l++) PetscCall(MeshRefineOnce(dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distribute the coarse mesh after refining it on rank 0 only until it has at least 64 cells per rank
 * (the partition's balance), refine the rest of the levels in parallel, then add hoflow's one-cell
 * face-adjacent overlap. */
static PetscErrorCode MeshRefineDistributed(DM *dm, PetscInt levels)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)*dm);
  PetscMPIInt size;
  PetscInt    cStart, cEnd, ncells;
  DM          dist = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (; levels > 0; levels--) {
    PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, &cEnd));
    ncells = cEnd - cStart;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ncells, 1, MPIU_INT, MPI_SUM, comm));
    if (ncells >= 64 * (PetscInt)size) break;
    PetscCall(MeshRefineOnce(dm));
  }
  PetscCall(DMPlexDistribute(*dm, 0, NULL, &dist));
  PetscCall(MeshReplace(dm, &dist));
  for (; levels > 0; levels--) PetscCall(MeshRefineOnce(dm));
  PetscCall(DMSetBasicAdjacency(*dm, PETSC_TRUE, PETSC_FALSE));
  PetscCall(DMPlexDistributeOverlap(*dm, 1, NULL, &dist));
  PetscCall(MeshReplace(dm, &dist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshCreate(MPI_Comm comm, const char default_options[], Mesh **mesh_out)
{
  Mesh           *mesh;
  DM              dm, dist = NULL;
  PetscBool       from_file, *owned;
  char            filename[PETSC_MAX_PATH_LEN] = "";
  PetscInt        dim, cStart, cEnd, nleaves;
  const PetscInt *leaves;
  RefShape       *cell_shape;
  PetscSF         sf;
  PetscInt        refine_after = 0, refine_serial = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_MeshSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&mesh));
  PetscCall(MeshInsertDefaultOptions(comm, default_options));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_plex_filename", filename, sizeof(filename), &from_file));
  if (from_file) {
    PetscBool exists;
    PetscCall(PetscTestFile(filename, 'r', &exists));
    PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "Mesh file '%s' (from -dm_plex_filename) does not exist or cannot be read%s", filename,
               strstr(filename, ".msh") ? "; meshes in examples/meshes are generated from their .geo files by 'make meshes'" : "");
    PetscCall(PetscStrncpy(mesh->source, filename, sizeof(mesh->source)));
    PetscCall(MeshCurveCheckFile(comm, filename));
  } else
    PetscCall(PetscStrncpy(mesh->source, "box", sizeof(mesh->source)));

#if !defined(HOFLOW_HAVE_CUDA)
  {
    char      vtype[64] = "";
    PetscBool set;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_vec_type", vtype, sizeof(vtype), &set));
    PetscCheck(!set || !strstr(vtype, "cuda"), comm, PETSC_ERR_SUP, "-dm_vec_type %s: this hoflow was built without CUDA; build it with 'make CUDA=1' against a CUDA-enabled PETSc (README, GPUs)", vtype);
  }
#endif
#if !defined(PETSC_HAVE_TETGEN) && !defined(PETSC_HAVE_CTETGEN)
  if (!from_file) { /* PETSc builds simplicial 3D boxes with TetGen, which it may lack */
    PetscInt  bdim    = 2;
    PetscBool simplex = PETSC_FALSE;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-dm_plex_dim", &bdim, NULL));
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-dm_plex_simplex", &simplex, NULL));
    PetscCheck(bdim != 3 || !simplex, comm, PETSC_ERR_SUP, "-dm_plex_dim 3 -dm_plex_simplex 1: this PETSc has no tetrahedral mesh generator (configure it with --download-ctetgen); read a Gmsh tetrahedral mesh instead, e.g. -dm_plex_filename examples/meshes/cube_tet.msh -dm_refine L");
  }
#endif
  PetscCall(DMCreate(comm, &dm));
  PetscCall(DMSetType(dm, DMPLEX));
  PetscCall(PetscObjectSetName((PetscObject)dm, "mesh"));
  PetscCall(DMPlexDistributeSetDefault(dm, PETSC_FALSE)); /* hoflow distributes below, with its overlap */
  PetscCall(MeshDeferRefinementBegin(comm, from_file, &refine_after, &refine_serial));
  PetscCall(PetscLogEventBegin(HOFLOW_MeshRead, 0, 0, 0, 0));
  PetscCall(DMSetFromOptions(dm));
  if (refine_serial) PetscCall(MeshRefineSerial(&dm, refine_serial));
  PetscCall(PetscLogEventEnd(HOFLOW_MeshRead, 0, 0, 0, 0));
  if (refine_after || refine_serial) { /* back in the database, used (MeshRefineDistributed / MeshRefineSerial did the work) */
    char value[32];
    PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, refine_after ? refine_after : refine_serial));
    PetscInt used;
    PetscCall(PetscOptionsSetValue(NULL, "-dm_refine", value));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-dm_refine", &used, NULL));
  }
  PetscCall(DMGetDimension(dm, &dim));
  PetscCheck(dim == 2 || dim == 3, comm, PETSC_ERR_SUP, "Mesh %s is %" PetscInt_FMT "-dimensional; hoflow solves in 2D and 3D (-dm_plex_dim 2 or 3)", mesh->source, dim);
  mesh->dim = dim;
  /* Periodic meshes (PETSc boxes with -dm_plex_box_bd periodic, Gmsh files with a $Periodic section)
   * are tori with localized cell coordinates; DMGetPeriodicity knows only the boxes. */
  PetscCall(DMGetCoordinatesLocalized(dm, &mesh->periodic));
  for (; refine_after > 0 && mesh->periodic; refine_after--) PetscCall(MeshRefineOnce(&dm)); /* periodic: serial, as PETSc does */
  {
    const PetscReal *maxcell, *L;
    PetscCall(DMGetPeriodicity(dm, &maxcell, NULL, &L));
    for (PetscInt d = 0; L && maxcell && d < dim; d++)
      PetscCheck(L[d] <= 0 || maxcell[d] < 0.5 * L[d], comm, PETSC_ERR_SUP, "Mesh %s is periodic in %c with fewer than 3 cells across (PETSc's maxCell %g for the period %g): PETSc 3.18 localizes the coordinates of such a box wrongly (its far cells fold onto the near ones); give at least 3 cells in each periodic direction (-dm_plex_box_faces)", mesh->source, "xyz"[d], (double)maxcell[d], (double)L[d]);
  }
  if (!from_file) PetscCall(MeshLabelBoxSides(dm));
  PetscCall(MeshCurveCreate(mesh, dm)); /* on the undistributed mesh: curved groups, high-order coordinates */

  /* DG couples cells through faces only: distribute with a one-cell face-adjacent overlap */
  PetscCall(DMSetBasicAdjacency(dm, PETSC_TRUE, PETSC_FALSE));
  PetscCall(PetscLogEventBegin(HOFLOW_MeshDistribute, 0, 0, 0, 0));
  if (refine_after)
    PetscCall(MeshRefineDistributed(&dm, refine_after));
  else {
    PetscCall(DMPlexDistribute(dm, 1, NULL, &dist));
    PetscCall(MeshReplace(&dm, &dist));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_MeshDistribute, 0, 0, 0, 0));
  PetscCall(DMViewFromOptions(dm, NULL, "-mesh_view"));
  mesh->dm = dm;

  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCheck(cStart == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected cells to be numbered from 0");
  PetscCheck(cEnd > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s has no cells on this rank", mesh->source);
  mesh->Klocal = cEnd;
  PetscCall(PetscLogEventBegin(HOFLOW_MeshGeometry, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(cEnd, &cell_shape, cEnd, &owned));
  {
    /* the cell types by strata of the cell-type label: DMPlexGetCellType looks each point up in the label
     * (a search through its strata), which took 8 % of a serial run's setup at 43 k cells */
    DMLabel         ctlabel;
    DMPolytopeType *cell_type;
    PetscCall(PetscMalloc1(cEnd, &cell_type));
    for (PetscInt c = 0; c < cEnd; c++) cell_type[c] = DM_NUM_POLYTOPES;
    PetscCall(DMPlexGetCellTypeLabel(dm, &ctlabel));
    for (PetscInt t = 0; t < DM_NUM_POLYTOPES; t++) {
      IS              is;
      PetscInt        n;
      const PetscInt *pts;
      PetscCall(DMLabelGetStratumIS(ctlabel, t, &is));
      if (!is) continue;
      PetscCall(ISGetLocalSize(is, &n));
      PetscCall(ISGetIndices(is, &pts));
      for (PetscInt k = 0; k < n; k++)
        if (pts[k] >= 0 && pts[k] < cEnd) cell_type[pts[k]] = (DMPolytopeType)t;
      PetscCall(ISRestoreIndices(is, &pts));
      PetscCall(ISDestroy(&is));
    }
    for (PetscInt c = 0; c < cEnd; c++) {
      const DMPolytopeType ct = cell_type[c];
      PetscCheck(ct != DM_NUM_POLYTOPES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Mesh %s: cell %" PetscInt_FMT " has no cell type", mesh->source, c);
      cell_shape[c] = ShapeOfPolytope(ct);
      PetscCheck(cell_shape[c] != REF_NUM_SHAPES && RefShapeTable[cell_shape[c]].dim == dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: cell %" PetscInt_FMT " is a %s; hoflow supports triangles and quadrilaterals in 2D, tetrahedra, prisms and hexahedra in 3D", mesh->source, c, DMPolytopeTypes[ct]);
      owned[c] = PETSC_TRUE;
    }
    PetscCall(PetscFree(cell_type));
  }
  /* owned cells: those that are not leaves of the point SF */
  PetscCall(DMGetPointSF(dm, &sf));
  PetscCall(PetscSFGetGraph(sf, NULL, &nleaves, &leaves, NULL));
  for (PetscInt l = 0; l < nleaves; l++) {
    const PetscInt p = leaves ? leaves[l] : l;
    if (p < cEnd) owned[p] = PETSC_FALSE;
  }
  {
    PetscInt  *cell_verts, *xg_off;
    PetscReal *cell_x, *cell_diam, *xg = NULL;
    PetscBool *curved;
    PetscCall(PetscMalloc4(cEnd * HOFLOW_VERTS_MAX, &cell_verts, cEnd * HOFLOW_VERTS_MAX * dim, &cell_x, cEnd, &cell_diam, cEnd, &xg_off));
    PetscCall(PetscMalloc1(cEnd, &curved));
    PetscCall(MeshCellGeometry(mesh, cell_shape, cell_verts, cell_x, cell_diam, curved, &xg, xg_off));
    PetscCall(MeshNumberElements(mesh, cell_shape, owned, curved));
    PetscCall(MPIU_Allreduce(&mesh->K, &mesh->Kglobal, 1, MPIU_INT, MPI_SUM, comm));
    PetscCall(MeshComputeGeometry(mesh, cell_verts, cell_x, cell_diam, xg, xg_off));
    PetscCall(PetscFree4(cell_verts, cell_x, cell_diam, xg_off));
    PetscCall(PetscFree(curved));
    PetscCall(PetscFree(xg));
  }
  PetscCall(PetscFree2(cell_shape, owned));
  PetscCall(PetscLogEventEnd(HOFLOW_MeshGeometry, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(HOFLOW_MeshFaces, 0, 0, 0, 0));
  PetscCall(MeshComputeFaces(mesh));
  PetscCall(PetscLogEventEnd(HOFLOW_MeshFaces, 0, 0, 0, 0));
  PetscCall(MeshCurveFinish(mesh));
  PetscCall(PetscLogEventEnd(HOFLOW_MeshSetup, 0, 0, 0, 0));
  *mesh_out = mesh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Comma-joined names for messages. */
static void JoinNames(PetscInt n, char *names[], char buf[], size_t size)
{
  buf[0] = 0;
  if (!n) PetscStrncpy(buf, "none", size);
  for (PetscInt k = 0; k < n; k++) {
    if (k) PetscStrlcat(buf, ",", size);
    PetscStrlcat(buf, names[k], size);
  }
}

static PetscErrorCode MeshPointInGroups(DM dm, PetscInt point, PetscInt n, char *names[], PetscBool *in)
{
  PetscFunctionBeginUser;
  *in = PETSC_FALSE;
  for (PetscInt k = 0; k < n; k++) {
    DMLabel  label;
    PetscInt value;
    PetscCall(DMGetLabel(dm, names[k], &label));
    if (!label) continue;
    PetscCall(DMLabelGetValue(label, point, &value));
    if (value != -1) *in = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Check the groups names[*n] of option against the mesh. strict (the user gave the option): a group
 * the mesh lacks, or a periodic one, is an error; otherwise (the problem's default groups, written
 * for any dimension: 3D boxes have front and back sides, 2D ones do not) such groups are dropped. */
static PetscErrorCode MeshCheckLabels(Mesh *mesh, const char option[], PetscBool strict, PetscInt *n, char *names[])
{
  PetscInt kept = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < *n; k++) {
    DMLabel  label;
    PetscInt size = 0, gsize;
    PetscCall(DMGetLabel(mesh->dm, names[k], &label));
    if (label) PetscCall(DMLabelGetNumValues(label, &size));
    PetscCall(MPIU_Allreduce(&size, &gsize, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)mesh->dm)));
    if (!gsize && !strict) continue;
    if (!gsize) {
      PetscInt nl;
      char     known[1024] = "";
      PetscCall(DMGetNumLabels(mesh->dm, &nl));
      for (PetscInt l = 0; l < nl; l++) {
        const char *lname;
        PetscCall(DMGetLabelName(mesh->dm, l, &lname));
        if (!strcmp(lname, "depth") || !strcmp(lname, "celltype") || !strcmp(lname, "Face Sets") || !strcmp(lname, "Cell Sets") || !strcmp(lname, "marker") || !strcmp(lname, "Vertex Sets") || !strcmp(lname, "hoflow_curve")) continue;
        if (known[0]) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
        PetscCall(PetscStrlcat(known, lname, sizeof(known)));
      }
      SETERRQ(PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_WRONG, "Boundary group '%s' (from %s) is not in mesh %s; its named groups are: %s%s. Name the boundary with a Gmsh Physical %s or change %s", names[k], option, mesh->source, known[0] ? known : "(none)",
              mesh->periodic ? " (the mesh is periodic: the sides of its periodic directions are interior and have no group)" : "", mesh->dim == 2 ? "Curve" : "Surface", option);
    }
    if (mesh->periodic) { /* a Gmsh group of periodic faces names interior faces: no boundary condition applies there */
      PetscInt nbnd = 0, gnbnd;
      for (PetscInt e = 0; e < mesh->K; e++)
        for (PetscInt f = 0; f < RefShapeTable[MeshElementShape(mesh, e)].nfaces; f++) {
          PetscBool in;
          if (mesh->face_elem[mesh->face_slot[e] + f] >= 0) continue;
          PetscCall(MeshPointInGroups(mesh->dm, mesh->face_point[e * HOFLOW_FACES_MAX + f], 1, &names[k], &in));
          nbnd += in;
        }
      PetscCall(MPIU_Allreduce(&nbnd, &gnbnd, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)mesh->dm)));
      if (!gnbnd && !strict) continue;
      PetscCheck(gnbnd > 0, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_WRONG, "Boundary group '%s' (from %s) of the periodic mesh %s has no boundary faces: its faces are periodic, hence interior, and take no boundary condition; remove it from %s", names[k], option, mesh->source, option);
    }
    names[kept++] = names[k];
  }
  *n = kept;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Split a comma-separated list in place; "none" and "" are empty. */
static PetscErrorCode SplitNames(char list[], PetscInt max, const char option[], PetscInt *n, char *names[])
{
  char *tok;

  PetscFunctionBeginUser;
  *n = 0;
  if (!strcmp(list, "none")) PetscFunctionReturn(PETSC_SUCCESS);
  for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    PetscCheck(*n < max, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: too many boundary groups (at most %" PetscInt_FMT ")", option, max);
    names[(*n)++] = tok;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define MESH_MAX_BC_TYPES 12
#define MESH_MAX_GROUPS 16

PetscErrorCode MeshSetBoundaryTypes(Mesh *mesh, PetscInt ntypes, const MeshBoundaryType types[])
{
  const PetscInt dim = mesh->dim;
  char           lists[MESH_MAX_BC_TYPES][256], options[MESH_MAX_BC_TYPES][64], joined[MESH_MAX_BC_TYPES][512], *names[MESH_MAX_BC_TYPES][MESH_MAX_GROUPS], all[1024] = "";
  PetscInt       n[MESH_MAX_BC_TYPES];
  PetscBool      given[MESH_MAX_BC_TYPES];

  PetscFunctionBeginUser;
  PetscCheck(ntypes <= MESH_MAX_BC_TYPES, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many boundary types");
  PetscOptionsBegin(PetscObjectComm((PetscObject)mesh->dm), NULL, "Boundary conditions", NULL);
  for (PetscInt t = 0; t < ntypes; t++) {
    char help[256];
    PetscCall(PetscSNPrintf(options[t], sizeof(options[t]), "-bc_%s", types[t].name));
    PetscCall(PetscSNPrintf(help, sizeof(help), "Comma-separated boundary groups with %s (none: no group)", types[t].help));
    PetscCall(PetscStrncpy(lists[t], types[t].groups, sizeof(lists[t])));
    PetscCall(PetscOptionsString(options[t], help, NULL, lists[t], lists[t], sizeof(lists[t]), &given[t]));
  }
  PetscOptionsEnd();
  for (PetscInt t = 0; t < ntypes; t++) {
    char entry[600];
    PetscCall(SplitNames(lists[t], MESH_MAX_GROUPS, options[t], &n[t], names[t]));
    PetscCall(MeshCheckLabels(mesh, options[t], given[t], &n[t], names[t]));
    JoinNames(n[t], names[t], joined[t], sizeof(joined[t]));
    PetscCall(PetscSNPrintf(entry, sizeof(entry), "%s%s (%s)", t ? " or " : "", options[t], joined[t]));
    PetscCall(PetscStrlcat(all, entry, sizeof(all)));
  }
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefShapeInfo *info = &RefShapeTable[MeshElementShape(mesh, e)];
    for (PetscInt f = 0; f < info->nfaces; f++) {
      const PetscInt slot = mesh->face_slot[e] + f, point = mesh->face_point[e * HOFLOW_FACES_MAX + f];
      PetscReal      mid[3] = {0, 0, 0};
      PetscInt       found  = -1;
      char           pbuf[96];

      if (mesh->face_elem[slot] >= 0) continue;
      for (PetscInt v = 0; v < info->face_nverts[f]; v++)
        for (PetscInt d = 0; d < dim; d++) mid[d] += mesh->vertices[(e * HOFLOW_VERTS_MAX + info->face_verts[f][v]) * dim + d] / info->face_nverts[f];
      for (PetscInt t = 0; t < ntypes; t++) {
        PetscBool in;
        PetscCall(MeshPointInGroups(mesh->dm, point, n[t], names[t], &in));
        if (!in) continue;
        PetscCheck(found < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: the boundary face at %s is in both %s (%s) and %s (%s)", mesh->source, MeshFormatPoint(dim, mid, pbuf, sizeof(pbuf)), options[found], joined[found], options[t], joined[t]);
        found = t;
      }
      if (found < 0) {
        PetscInt  e2, f2;
        PetscReal c[2][3] = {{0, 0, 0}, {0, 0, 0}};
        char      cbuf[2][64];
        PetscCall(MeshFindOverlappingFace(mesh, e, f, &e2, &f2));
        MeshElementCentroid(mesh, e, c[0]);
        if (e2 >= 0) MeshElementCentroid(mesh, e2, c[1]);
        PetscCheck(e2 < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s is not conforming: face %" PetscInt_FMT " of the %s with centroid %s (cell %" PetscInt_FMT ") lies on face %" PetscInt_FMT " of the %s with centroid %s (cell %" PetscInt_FMT ") without being that face; hoflow needs every interior face shared whole by its two elements (no hanging nodes; in Gmsh, fuse the volumes with Coherence or BooleanFragments)", mesh->source, f, RefShapeTable[MeshElementShape(mesh, e)].name, MeshFormatPoint(dim, c[0], cbuf[0], sizeof(cbuf[0])), mesh->elem_cell[e], f2, e2 >= 0 ? RefShapeTable[MeshElementShape(mesh, e2)].name : "", MeshFormatPoint(dim, c[1], cbuf[1], sizeof(cbuf[1])), e2 >= 0 ? mesh->elem_cell[e2] : -1);
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: the boundary face at %s belongs to none of the groups in %s; every boundary face needs a condition", mesh->source, MeshFormatPoint(dim, mid, pbuf, sizeof(pbuf)), all);
      }
      mesh->face_type[slot] = types[found].code;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshGetGroupFaces(Mesh *mesh, const char option[], const char group[], PetscBool **mask)
{
  char    *names[1];
  char     name[256];
  PetscInt one = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(name, group, sizeof(name)));
  names[0] = name;
  PetscCall(MeshCheckLabels(mesh, option, PETSC_TRUE, &one, names));
  PetscCall(PetscCalloc1(mesh->nslots, mask));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt nf = RefShapeTable[MeshElementShape(mesh, e)].nfaces;
    for (PetscInt f = 0; f < nf; f++) {
      const PetscInt slot = mesh->face_slot[e] + f;
      if (mesh->face_elem[slot] >= 0) continue;
      PetscCall(MeshPointInGroups(mesh->dm, mesh->face_point[e * HOFLOW_FACES_MAX + f], 1, names, &(*mask)[slot]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshGetBoundaryGroups(Mesh *mesh, char groups[], size_t len)
{
  PetscInt nl;

  PetscFunctionBeginUser;
  groups[0] = 0;
  PetscCall(DMGetNumLabels(mesh->dm, &nl));
  for (PetscInt l = 0; l < nl; l++) {
    const char *lname;
    char       *names[1];
    char        name[256];
    PetscInt    nbnd = 0, gnbnd;
    PetscCall(DMGetLabelName(mesh->dm, l, &lname));
    if (!strcmp(lname, "depth") || !strcmp(lname, "celltype") || !strcmp(lname, "Face Sets") || !strcmp(lname, "Cell Sets") || !strcmp(lname, "marker") || !strcmp(lname, "Vertex Sets") || !strcmp(lname, "hoflow_curve")) continue;
    PetscCall(PetscStrncpy(name, lname, sizeof(name)));
    names[0] = name;
    for (PetscInt e = 0; e < mesh->K; e++) {
      const PetscInt nf = RefShapeTable[MeshElementShape(mesh, e)].nfaces;
      for (PetscInt f = 0; f < nf; f++) {
        PetscBool in;
        if (mesh->face_elem[mesh->face_slot[e] + f] >= 0) continue;
        PetscCall(MeshPointInGroups(mesh->dm, mesh->face_point[e * HOFLOW_FACES_MAX + f], 1, names, &in));
        nbnd += in;
      }
    }
    PetscCall(MPIU_Allreduce(&nbnd, &gnbnd, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)mesh->dm)));
    if (!gnbnd) continue;
    if (groups[0]) PetscCall(PetscStrlcat(groups, ",", len));
    PetscCall(PetscStrlcat(groups, lname, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshDestroy(Mesh **mesh)
{
  PetscFunctionBeginUser;
  if (!*mesh) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDestroy(&(*mesh)->dm));
  PetscCall(PetscFree2((*mesh)->elem_cell, (*mesh)->elem_block));
  PetscCall(PetscFree((*mesh)->cell_elem));
  PetscCall(PetscFree((*mesh)->vertices));
  PetscCall(PetscFree3((*mesh)->geo, (*mesh)->measure, (*mesh)->face_point));
  PetscCall(PetscFree2((*mesh)->vertex_gid, (*mesh)->geom_offset));
  PetscCall(PetscFree((*mesh)->geom_nodes));
  PetscCall(MeshCurveDestroy(*mesh));
  PetscCall(PetscFree((*mesh)->face_slot));
  PetscCall(PetscFree5((*mesh)->face_elem, (*mesh)->face_face, (*mesh)->face_type, (*mesh)->face_normal, (*mesh)->face_measure));
  PetscCall(PetscFree(*mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshGetShapeNames(const Mesh *mesh, char names[], size_t len)
{
  PetscFunctionBeginUser;
  names[0] = 0;
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    if (b && mesh->blocks[b].shape == mesh->blocks[b - 1].shape) continue; /* affine and curved blocks of a shape */
    if (b) PetscCall(PetscStrlcat(names, "+", len));
    PetscCall(PetscStrlcat(names, RefShapes[mesh->blocks[b].shape], len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
