/* hoflow meshes: DMPlex from Gmsh or PETSc's box generator, distributed with a one-cell
 * face-adjacent overlap, with affine geometric factors, face connectivity and boundary tags. */
#include <hoflow/compat.h>
#include <hoflow/kernels.h>
#include <hoflow/log.h>
#include <hoflow/mesh.h>
#include <petscsf.h>

static const char *const box_sides[4] = {"bottom", "right", "top", "left"};

/* Insert the problem's default mesh options unless the user chose a mesh, and the options hoflow
 * relies on (quadrilateral boxes: Debian's PETSc has no triangle generator; Gmsh physical names,
 * only when a file is read: a box never reads it, and -options_left would report it unused). */
static PetscErrorCode MeshInsertDefaultOptions(const char default_options[])
{
  PetscBool has_file, has_box, has_simplex, has_regions;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &has_file));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_faces", &has_box));
  if (!has_file && !has_box && default_options) PetscCall(PetscOptionsInsertString(NULL, default_options));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_simplex", &has_simplex));
  if (!has_simplex) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_simplex", "0"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &has_file));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_gmsh_use_regions", &has_regions));
  if (has_file && !has_regions) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_gmsh_use_regions", "1"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On generated boxes, name the boundary edges by the side of the bounding box they lie on. */
static PetscErrorCode MeshLabelBoxSides(DM dm)
{
  PetscInt           eStart, eEnd, vStart, vEnd, cdim;
  Vec                coords;
  PetscSection       csec;
  const PetscScalar *c;
  PetscReal          lo[2] = {PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[2] = {PETSC_MIN_REAL, PETSC_MIN_REAL};

  PetscFunctionBeginUser;
  PetscCall(DMGetCoordinateDim(dm, &cdim));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &csec));
  PetscCall(VecGetArrayRead(coords, &c));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetDepthStratum(dm, 1, &eStart, &eEnd));
  for (PetscInt v = vStart; v < vEnd; v++) {
    PetscInt off;
    PetscCall(PetscSectionGetOffset(csec, v, &off));
    for (PetscInt d = 0; d < 2; d++) {
      lo[d] = PetscMin(lo[d], PetscRealPart(c[off + d]));
      hi[d] = PetscMax(hi[d], PetscRealPart(c[off + d]));
    }
  }
  for (PetscInt s = 0; s < 4; s++) PetscCall(DMCreateLabel(dm, box_sides[s]));
  for (PetscInt e = eStart; e < eEnd; e++) {
    PetscInt        nsupp, ncone, off;
    const PetscInt *cone;
    PetscReal       mid[2] = {0, 0}, tol[2] = {1e-10 * (hi[0] - lo[0]), 1e-10 * (hi[1] - lo[1])};

    PetscCall(DMPlexGetSupportSize(dm, e, &nsupp));
    if (nsupp != 1) continue;
    PetscCall(DMPlexGetConeSize(dm, e, &ncone));
    PetscCall(DMPlexGetCone(dm, e, &cone));
    for (PetscInt k = 0; k < ncone; k++) {
      PetscCall(PetscSectionGetOffset(csec, cone[k], &off));
      for (PetscInt d = 0; d < 2; d++) mid[d] += PetscRealPart(c[off + d]) / ncone;
    }
    if (PetscAbsReal(mid[1] - lo[1]) < tol[1])
      PetscCall(DMSetLabelValue(dm, "bottom", e, 1));
    else if (PetscAbsReal(mid[0] - hi[0]) < tol[0])
      PetscCall(DMSetLabelValue(dm, "right", e, 2));
    else if (PetscAbsReal(mid[1] - hi[1]) < tol[1])
      PetscCall(DMSetLabelValue(dm, "top", e, 3));
    else if (PetscAbsReal(mid[0] - lo[0]) < tol[0])
      PetscCall(DMSetLabelValue(dm, "left", e, 4));
  }
  PetscCall(VecRestoreArrayRead(coords, &c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Vertices of cell c in DMPlex closure order. */
static PetscErrorCode MeshCellVertices(DM dm, PetscInt c, PetscInt *nv, PetscInt verts[])
{
  PetscInt vStart, vEnd, npts, *pts = NULL;

  PetscFunctionBeginUser;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetTransitiveClosure(dm, c, PETSC_TRUE, &npts, &pts));
  *nv = 0;
  for (PetscInt k = 0; k < npts; k++) {
    const PetscInt p = pts[2 * k];
    if (p >= vStart && p < vEnd) verts[(*nv)++] = p;
  }
  PetscCall(DMPlexRestoreTransitiveClosure(dm, c, PETSC_TRUE, &npts, &pts));
  PetscFunctionReturn(PETSC_SUCCESS);
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

/* The DMPlex edge of cell c joining vertices a and b. */
static PetscErrorCode MeshFindEdge(DM dm, PetscInt c, PetscInt a, PetscInt b, PetscInt *edge)
{
  PetscInt        ncone;
  const PetscInt *cone;

  PetscFunctionBeginUser;
  *edge = -1;
  PetscCall(DMPlexGetConeSize(dm, c, &ncone));
  PetscCall(DMPlexGetCone(dm, c, &cone));
  for (PetscInt k = 0; k < ncone; k++) {
    const PetscInt *ev;
    PetscCall(DMPlexGetCone(dm, cone[k], &ev));
    if ((ev[0] == a && ev[1] == b) || (ev[0] == b && ev[1] == a)) *edge = cone[k];
  }
  PetscCheck(*edge >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT " has no edge joining vertices %" PetscInt_FMT " and %" PetscInt_FMT, c, a, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Counterclockwise vertex coordinates, affine factors and face points of every local cell. */
static PetscErrorCode MeshComputeGeometry(Mesh *mesh)
{
  DM                 dm = mesh->dm;
  const PetscInt     nv = mesh->Nverts;
  Vec                coords;
  PetscSection       csec;
  const PetscScalar *c;
  PetscInt          *cell_verts, counts[2] = {0, 0}, gcounts[2];
  PetscReal          dominant;

  PetscFunctionBeginUser;
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &csec));
  PetscCall(VecGetArrayRead(coords, &c));
  PetscCall(PetscMalloc1(mesh->Klocal * nv, &cell_verts));
  PetscCall(PetscMalloc4(mesh->Klocal * nv * 2, &mesh->vertices, mesh->Klocal * HOFLOW_GEO_SIZE, &mesh->geo, mesh->Klocal, &mesh->area, mesh->Klocal * nv, &mesh->face_point));
  for (PetscInt cell = 0; cell < mesh->Klocal; cell++) {
    PetscInt n = 0;
    PetscCall(MeshCellVertices(dm, cell, &n, cell_verts + cell * nv));
    PetscCheck(n == nv, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Cell %" PetscInt_FMT " has %" PetscInt_FMT " vertices; expected %" PetscInt_FMT, cell, n, nv);
    for (PetscInt k = 0; k < nv; k++) {
      PetscInt off;
      PetscCall(PetscSectionGetOffset(csec, cell_verts[cell * nv + k], &off));
      mesh->vertices[(cell * nv + k) * 2 + 0] = PetscRealPart(c[off]);
      mesh->vertices[(cell * nv + k) * 2 + 1] = PetscRealPart(c[off + 1]);
    }
    counts[SignedArea(nv, mesh->vertices + cell * nv * 2) < 0]++;
  }
  PetscCall(VecRestoreArrayRead(coords, &c));
  /* A mesh may be consistently clockwise (a Gmsh surface with normal -z); an inverted (folded)
   * element is one whose orientation disagrees with the rest of the mesh. */
  PetscCall(MPIU_Allreduce(counts, gcounts, 2, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)dm)));
  dominant = gcounts[1] > gcounts[0] ? -1.0 : 1.0;

  mesh->hmax = 0;
  for (PetscInt cell = 0; cell < mesh->Klocal; cell++) {
    PetscReal *xy = mesh->vertices + cell * nv * 2, *g = mesh->geo + cell * HOFLOW_GEO_SIZE, area = SignedArea(nv, xy), diam = 0;
    PetscInt  *cv = cell_verts + cell * nv;
    PetscReal  xr, xs, yr, ys, J;

    for (PetscInt k = 0; k < nv; k++) {
      const PetscInt l = (k + 1) % nv;
      diam             = PetscMax(diam, PetscSqrtReal(PetscSqr(xy[2 * l] - xy[2 * k]) + PetscSqr(xy[2 * l + 1] - xy[2 * k + 1])));
    }
    PetscCheck(area * dominant > 1e-12 * diam * diam, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "Mesh %s: cell %" PetscInt_FMT " with vertices (%g, %g), (%g, %g), (%g, %g)%s is inverted or degenerate (signed area %g against the mesh's orientation %+g); fix the mesh", mesh->source, cell, (double)xy[0], (double)xy[1], (double)xy[2], (double)xy[3], (double)xy[4], (double)xy[5], nv > 3 ? ", ..." : "", (double)area, (double)dominant);
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
      area = -area;
    }
    /* x = x0 + (1+r)/2 (x1 - x0) + (1+s)/2 (x_last - x0): exact for triangles and parallelograms */
    xr = 0.5 * (xy[2] - xy[0]);
    yr = 0.5 * (xy[3] - xy[1]);
    xs = 0.5 * (xy[2 * (nv - 1)] - xy[0]);
    ys = 0.5 * (xy[2 * (nv - 1) + 1] - xy[1]);
    if (nv == 4) {
      const PetscReal dx = xy[0] + xy[4] - xy[2] - xy[6], dy = xy[1] + xy[5] - xy[3] - xy[7];
      PetscCheck(PetscSqrtReal(dx * dx + dy * dy) <= 1e-10 * diam, PETSC_COMM_SELF, PETSC_ERR_SUP,
                 "Mesh %s: quadrilateral cell %" PetscInt_FMT " with vertices (%g, %g), (%g, %g), (%g, %g), (%g, %g) is not a parallelogram; hoflow supports affine quadrilaterals only (use triangles for general geometry)", mesh->source, cell, (double)xy[0], (double)xy[1], (double)xy[2], (double)xy[3], (double)xy[4], (double)xy[5], (double)xy[6], (double)xy[7]);
    }
    J                = xr * ys - xs * yr;
    g[HOFLOW_GEO_RX] = ys / J;
    g[HOFLOW_GEO_RY] = -xs / J;
    g[HOFLOW_GEO_SX] = -yr / J;
    g[HOFLOW_GEO_SY] = xr / J;
    g[HOFLOW_GEO_J]  = J;
    mesh->area[cell] = area;
    mesh->hmax       = PetscMax(mesh->hmax, diam);
    for (PetscInt f = 0; f < nv; f++) PetscCall(MeshFindEdge(dm, cell, cv[f], cv[(f + 1) % nv], &mesh->face_point[cell * nv + f]));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &mesh->hmax, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)dm)));
  PetscCall(PetscFree(cell_verts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Neighbours, outward normals and face lengths of the owned elements. */
static PetscErrorCode MeshComputeFaces(Mesh *mesh)
{
  DM             dm = mesh->dm;
  const PetscInt nf = mesh->Nverts;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(mesh->K * nf, &mesh->face_cell, mesh->K * nf, &mesh->face_face, mesh->K * nf, &mesh->face_type, mesh->K * nf * 3, &mesh->face_geo));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt   cell = mesh->elem_cell[e];
    const PetscReal *xy   = mesh->vertices + cell * nf * 2;
    for (PetscInt f = 0; f < nf; f++) {
      const PetscInt  edge = mesh->face_point[cell * nf + f], l = (f + 1) % nf;
      const PetscReal tx = xy[2 * l] - xy[2 * f], ty = xy[2 * l + 1] - xy[2 * f + 1], len = PetscSqrtReal(tx * tx + ty * ty);
      PetscInt        nsupp;
      const PetscInt *supp;

      mesh->face_geo[(e * nf + f) * 3 + 0] = ty / len; /* counterclockwise boundary: outward normal is the tangent turned right */
      mesh->face_geo[(e * nf + f) * 3 + 1] = -tx / len;
      mesh->face_geo[(e * nf + f) * 3 + 2] = len;
      mesh->face_cell[e * nf + f]          = -1;
      mesh->face_face[e * nf + f]          = -1;
      mesh->face_type[e * nf + f]          = -1; /* boundary faces are set by MeshSetBoundaryConditions */
      PetscCall(DMPlexGetSupportSize(dm, edge, &nsupp));
      PetscCall(DMPlexGetSupport(dm, edge, &supp));
      PetscCheck(nsupp == 1 || nsupp == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: edge %" PetscInt_FMT " of cell %" PetscInt_FMT " is shared by %" PetscInt_FMT " cells; the mesh is not a conforming 2D manifold", mesh->source, edge, cell, nsupp);
      if (nsupp == 2) {
        const PetscInt nb           = supp[0] == cell ? supp[1] : supp[0];
        mesh->face_cell[e * nf + f] = nb;
        mesh->face_type[e * nf + f] = HOFLOW_FACE_INTERIOR;
        for (PetscInt g = 0; g < nf; g++)
          if (mesh->face_point[nb * nf + g] == edge) mesh->face_face[e * nf + f] = g;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshCreate(MPI_Comm comm, const char default_options[], Mesh **mesh_out)
{
  Mesh            *mesh;
  DM               dm, dist            = NULL;
  PetscBool        from_file, periodic = PETSC_FALSE;
  char             filename[PETSC_MAX_PATH_LEN] = "";
  PetscInt         dim, cStart, cEnd, nleaves;
  const PetscInt  *leaves;
  const PetscReal *maxcell, *lo, *len;
  DMPolytopeType   ct;
  PetscSF          sf;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_MeshSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&mesh));
  PetscCall(MeshInsertDefaultOptions(default_options));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_plex_filename", filename, sizeof(filename), &from_file));
  if (from_file) {
    PetscBool exists;
    PetscCall(PetscTestFile(filename, 'r', &exists));
    PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "Mesh file '%s' (from -dm_plex_filename) does not exist or cannot be read%s", filename,
               strstr(filename, ".msh") ? "; meshes in examples/meshes are generated from their .geo files by 'make meshes'" : "");
    PetscCall(PetscStrncpy(mesh->source, filename, sizeof(mesh->source)));
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
  PetscCall(DMCreate(comm, &dm));
  PetscCall(DMSetType(dm, DMPLEX));
  PetscCall(PetscObjectSetName((PetscObject)dm, "mesh"));
  PetscCall(DMPlexDistributeSetDefault(dm, PETSC_FALSE)); /* hoflow distributes below, with its overlap */
  PetscCall(DMSetFromOptions(dm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCheck(dim == 2, comm, PETSC_ERR_SUP, "Mesh %s is %" PetscInt_FMT "-dimensional; hoflow's elliptic and incompressible solvers need a 2D mesh (-dm_plex_dim 2)", mesh->source, dim);
  PetscCall(DMGetPeriodicity(dm, &maxcell, &lo, &len));
  if (len) periodic = PETSC_TRUE;
  PetscCheck(!periodic, comm, PETSC_ERR_SUP, "Mesh %s is periodic; periodic DG meshes are not supported yet", mesh->source);
  if (!from_file) PetscCall(MeshLabelBoxSides(dm));

  /* DG couples cells through faces only: distribute with a one-cell face-adjacent overlap */
  PetscCall(DMSetBasicAdjacency(dm, PETSC_TRUE, PETSC_FALSE));
  PetscCall(DMPlexDistribute(dm, 1, NULL, &dist));
  if (dist) {
    PetscCall(DMDestroy(&dm));
    dm = dist;
  }
  PetscCall(DMViewFromOptions(dm, NULL, "-mesh_view"));
  mesh->dm = dm;

  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCheck(cStart == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected cells to be numbered from 0");
  mesh->Klocal = cEnd;
  PetscCheck(cEnd > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s has no cells on this rank", mesh->source);
  PetscCall(DMPlexGetCellType(dm, 0, &ct));
  PetscCheck(ct == DM_POLYTOPE_TRIANGLE || ct == DM_POLYTOPE_QUADRILATERAL, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: unsupported element type %s; hoflow supports triangles and quadrilaterals in 2D", mesh->source, DMPolytopeTypes[ct]);
  for (PetscInt c = 1; c < cEnd; c++) {
    DMPolytopeType ctc;
    PetscCall(DMPlexGetCellType(dm, c, &ctc));
    PetscCheck(ctc == ct, PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s mixes %s and %s cells; hoflow needs one element type per mesh", mesh->source, DMPolytopeTypes[ct], DMPolytopeTypes[ctc]);
  }
  mesh->shape  = ct == DM_POLYTOPE_TRIANGLE ? REF_TRIANGLE : REF_QUADRILATERAL;
  mesh->Nverts = ct == DM_POLYTOPE_TRIANGLE ? 3 : 4;

  /* owned cells: those that are not leaves of the point SF */
  PetscCall(PetscMalloc1(mesh->Klocal, &mesh->cell_elem));
  for (PetscInt c = 0; c < mesh->Klocal; c++) mesh->cell_elem[c] = 0;
  PetscCall(DMGetPointSF(dm, &sf));
  PetscCall(PetscSFGetGraph(sf, NULL, &nleaves, &leaves, NULL));
  for (PetscInt l = 0; l < nleaves; l++) {
    const PetscInt p = leaves ? leaves[l] : l;
    if (p < cEnd) mesh->cell_elem[p] = -1;
  }
  PetscCall(PetscMalloc1(mesh->Klocal, &mesh->elem_cell));
  mesh->K = 0;
  for (PetscInt c = 0; c < mesh->Klocal; c++)
    if (mesh->cell_elem[c] == 0) {
      mesh->cell_elem[c]         = mesh->K;
      mesh->elem_cell[mesh->K++] = c;
    }
  PetscCall(MPIU_Allreduce(&mesh->K, &mesh->Kglobal, 1, MPIU_INT, MPI_SUM, comm));

  PetscCall(MeshComputeGeometry(mesh));
  PetscCall(MeshComputeFaces(mesh));
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

static PetscErrorCode MeshCheckLabels(Mesh *mesh, const char option[], PetscInt n, char *names[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    DMLabel  label;
    PetscInt size = 0, gsize;
    PetscCall(DMGetLabel(mesh->dm, names[k], &label));
    if (label) PetscCall(DMLabelGetNumValues(label, &size));
    PetscCall(MPIU_Allreduce(&size, &gsize, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)mesh->dm)));
    if (!gsize) {
      PetscInt nl;
      char     known[1024] = "";
      PetscCall(DMGetNumLabels(mesh->dm, &nl));
      for (PetscInt l = 0; l < nl; l++) {
        const char *lname;
        PetscCall(DMGetLabelName(mesh->dm, l, &lname));
        if (!strcmp(lname, "depth") || !strcmp(lname, "celltype") || !strcmp(lname, "Face Sets") || !strcmp(lname, "Cell Sets") || !strcmp(lname, "marker") || !strcmp(lname, "Vertex Sets")) continue;
        if (known[0]) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
        PetscCall(PetscStrlcat(known, lname, sizeof(known)));
      }
      SETERRQ(PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_WRONG, "Boundary group '%s' (from %s) is not in mesh %s; its named groups are: %s. Name the boundary with a Gmsh Physical Curve or change %s", names[k], option, mesh->source, known[0] ? known : "(none)", option);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
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

PetscErrorCode MeshSetBoundaryConditions(Mesh *mesh, PetscInt ndirichlet, char *dirichlet[], PetscInt nneumann, char *neumann[])
{
  const PetscInt nf = mesh->Nverts;
  char           dnames[512], nnames[512];

  PetscFunctionBeginUser;
  PetscCall(MeshCheckLabels(mesh, "-bc_dirichlet", ndirichlet, dirichlet));
  PetscCall(MeshCheckLabels(mesh, "-bc_neumann", nneumann, neumann));
  JoinNames(ndirichlet, dirichlet, dnames, sizeof(dnames));
  JoinNames(nneumann, neumann, nnames, sizeof(nnames));
  for (PetscInt e = 0; e < mesh->K; e++) {
    for (PetscInt f = 0; f < nf; f++) {
      const PetscInt   cell = mesh->elem_cell[e], point = mesh->face_point[cell * nf + f];
      const PetscReal *xy = mesh->vertices + cell * nf * 2;
      const PetscReal  mx = 0.5 * (xy[2 * f] + xy[2 * ((f + 1) % nf)]), my = 0.5 * (xy[2 * f + 1] + xy[2 * ((f + 1) % nf) + 1]);
      PetscBool        isd, isn;

      if (mesh->face_cell[e * nf + f] >= 0) continue;
      PetscCall(MeshPointInGroups(mesh->dm, point, ndirichlet, dirichlet, &isd));
      PetscCall(MeshPointInGroups(mesh->dm, point, nneumann, neumann, &isn));
      PetscCheck(isd || isn, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: the boundary face at (%g, %g) belongs to none of the groups in -bc_dirichlet (%s) or -bc_neumann (%s); every boundary face needs a condition", mesh->source, (double)mx, (double)my, dnames, nnames);
      PetscCheck(!(isd && isn), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: the boundary face at (%g, %g) is in both -bc_dirichlet (%s) and -bc_neumann (%s)", mesh->source, (double)mx, (double)my, dnames, nnames);
      mesh->face_type[e * nf + f] = isd ? HOFLOW_FACE_DIRICHLET : HOFLOW_FACE_NEUMANN;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshGetGroupFaces(Mesh *mesh, const char option[], const char group[], PetscBool **mask)
{
  const PetscInt nf = mesh->Nverts;
  char          *names[1];
  char           name[256];

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(name, group, sizeof(name)));
  names[0] = name;
  PetscCall(MeshCheckLabels(mesh, option, 1, names));
  PetscCall(PetscCalloc1(mesh->K * nf, mask));
  for (PetscInt e = 0; e < mesh->K; e++)
    for (PetscInt f = 0; f < nf; f++) {
      const PetscInt cell = mesh->elem_cell[e];
      if (mesh->face_cell[e * nf + f] >= 0) continue;
      PetscCall(MeshPointInGroups(mesh->dm, mesh->face_point[cell * nf + f], 1, names, &(*mask)[e * nf + f]));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshDestroy(Mesh **mesh)
{
  PetscFunctionBeginUser;
  if (!*mesh) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMDestroy(&(*mesh)->dm));
  PetscCall(PetscFree((*mesh)->elem_cell));
  PetscCall(PetscFree((*mesh)->cell_elem));
  PetscCall(PetscFree4((*mesh)->vertices, (*mesh)->geo, (*mesh)->area, (*mesh)->face_point));
  PetscCall(PetscFree4((*mesh)->face_cell, (*mesh)->face_face, (*mesh)->face_type, (*mesh)->face_geo));
  PetscCall(PetscFree(*mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}
