/* Uniform refinement of 2D triangle/quadrilateral meshes on one rank, built in hoflow's arrays and turned
 * into a DMPlex once (docs/design-notes.md, "hoflow's own uniform refinement").
 *
 * Why: PETSc's DMRefine (DMPlexTransformApply, refine_regular) spends most of its time in its generic
 * machinery, not in the topology: the cell types of every new point go one by one into a hashed label,
 * the region labels likewise, and the coordinate DM's clone then sorts each of those labels; a level
 * takes 0.25 us a new point on this VM (1.95 s for the 7 levels of square.msh to 688 128 triangles, 2.9 s
 * on the H100 host). Refining arrays level by level and building one DMPlex at the end with the cones
 * written directly, every label set from sorted strata (no hashing), costs a fraction of that.
 *
 * The refined mesh is PETSc's refine_regular mesh up to the numbering of points: the same vertices
 * (edge midpoints, quadrilateral centres), the same cells, the same labels (a child point carries its
 * parent's value: an edge's two halves and midpoint, a cell's four children, interior edges and, for a
 * quadrilateral, centre). Numbering: cells first (the children of cell c are 4c..4c+3), then vertices
 * (old vertices keep their numbers, then edge midpoints, then quadrilateral centres), then edges (the
 * halves of edge e are 2e, 2e+1, then each cell's interior edges). */
#include <hoflow/compat.h>
#include <hoflow/mesh.h>

typedef struct {
  PetscInt   nv, ne, nc, dE;
  PetscReal *x;       /* [nv*dE] vertex coordinates */
  PetscInt  *edge;    /* [ne*2] an edge's vertices in its cone order */
  PetscInt  *cell_nv; /* [nc] 3 or 4 */
  PetscInt  *cell_v;  /* [nc*4] vertices, cyclic (vertex k starts side k) */
  PetscInt  *cell_e;  /* [nc*4] side k's edge */
  PetscInt  *cell_o;  /* [nc*4] 0 when edge k's cone runs v_k -> v_k+1, -1 when reversed */
  PetscInt   nlabels;
  char     **label_name;
  PetscInt **vval, **eval, **cval; /* [nlabels][nv / ne / nc] a point's value, -1 for none */
  PetscInt  *nvalues, **values;    /* [nlabels] a label's values, sorted (refinement keeps them) */
} RefineMesh;

static PetscErrorCode RefineMeshDestroy(RefineMesh *m)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(m->x));
  PetscCall(PetscFree(m->edge));
  PetscCall(PetscFree4(m->cell_nv, m->cell_v, m->cell_e, m->cell_o));
  for (PetscInt l = 0; l < m->nlabels; l++) {
    PetscCall(PetscFree(m->vval[l]));
    PetscCall(PetscFree(m->eval[l]));
    PetscCall(PetscFree(m->cval[l]));
    if (m->label_name) PetscCall(PetscFree(m->label_name[l]));
    if (m->values) PetscCall(PetscFree(m->values[l]));
  }
  PetscCall(PetscFree(m->nvalues));
  PetscCall(PetscFree(m->values));
  PetscCall(PetscFree(m->vval));
  PetscCall(PetscFree(m->eval));
  PetscCall(PetscFree(m->cval));
  PetscCall(PetscFree(m->label_name));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether dm can be refined here, and its arrays when it can: one rank, 2D, straight-sided coordinates
 * without a coordinate space, not periodic, triangles and quadrilaterals only, labels with one value a
 * point. */
static PetscErrorCode RefineMeshFromDM(DM dm, RefineMesh *m, PetscBool *ok)
{
  PetscMPIInt  size;
  PetscInt     dim, cStart, cEnd, vStart, vEnd, eStart, eEnd, nlab, nfields = 0;
  PetscBool    localized, bad = PETSC_FALSE;
  DM           cdm;
  Vec          coords;
  PetscSection csec;

  PetscFunctionBeginUser;
  *ok = PETSC_FALSE;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &size));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetCoordinatesLocalized(dm, &localized));
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetNumFields(cdm, &nfields));
  for (PetscInt f = 0; f < nfields; f++) { /* a coordinate space (PetscFE) is PETSc's to refine; the placeholder field of a plain coordinate DM is not one */
    PetscObject  disc;
    PetscClassId id;
    PetscCall(DMGetField(cdm, f, NULL, &disc));
    PetscCall(PetscObjectGetClassId(disc, &id));
    if (id == PETSCFE_CLASSID) localized = PETSC_TRUE;
  }
  if (size != 1 || dim != 2 || localized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetDepthStratum(dm, 1, &eStart, &eEnd));
  for (PetscInt c = cStart; c < cEnd; c++) {
    DMPolytopeType ct;
    PetscCall(DMPlexGetCellType(dm, c, &ct));
    if (ct != DM_POLYTOPE_TRIANGLE && ct != DM_POLYTOPE_QUADRILATERAL) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &csec));
  PetscCall(DMGetCoordinateDim(dm, &m->dE));
  m->nv = vEnd - vStart;
  m->ne = eEnd - eStart;
  m->nc = cEnd - cStart;
  PetscCall(PetscMalloc1(m->nv * m->dE, &m->x));
  PetscCall(PetscMalloc1(m->ne * 2, &m->edge));
  PetscCall(PetscMalloc4(m->nc, &m->cell_nv, m->nc * 4, &m->cell_v, m->nc * 4, &m->cell_e, m->nc * 4, &m->cell_o));
  {
    const PetscScalar *x;
    PetscCall(VecGetArrayRead(coords, &x));
    for (PetscInt v = vStart; v < vEnd; v++) {
      PetscInt off, dof;
      PetscCall(PetscSectionGetDof(csec, v, &dof));
      PetscCall(PetscSectionGetOffset(csec, v, &off));
      PetscCheck(dof == m->dE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Vertex %" PetscInt_FMT " has %" PetscInt_FMT " coordinates, expected %" PetscInt_FMT, v, dof, m->dE);
      for (PetscInt d = 0; d < m->dE; d++) m->x[(v - vStart) * m->dE + d] = PetscRealPart(x[off + d]);
    }
    PetscCall(VecRestoreArrayRead(coords, &x));
  }
  for (PetscInt e = eStart; e < eEnd; e++) {
    const PetscInt *cone;
    PetscInt        n;
    PetscCall(DMPlexGetConeSize(dm, e, &n));
    PetscCall(DMPlexGetCone(dm, e, &cone));
    PetscCheck(n == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Edge %" PetscInt_FMT " has %" PetscInt_FMT " vertices", e, n);
    for (PetscInt k = 0; k < 2; k++) m->edge[(e - eStart) * 2 + k] = cone[k] - vStart;
  }
  for (PetscInt c = cStart; c < cEnd; c++) {
    const PetscInt *cone, *ornt;
    PetscInt        n, i = c - cStart;
    PetscCall(DMPlexGetConeSize(dm, c, &n));
    PetscCall(DMPlexGetCone(dm, c, &cone));
    PetscCall(DMPlexGetConeOrientation(dm, c, &ornt));
    m->cell_nv[i] = n;
    for (PetscInt k = 0; k < n; k++) {
      const PetscInt e = cone[k] - eStart;
      PetscCheck(e >= 0 && e < m->ne && (ornt[k] == 0 || ornt[k] == -1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT ": side %" PetscInt_FMT " is point %" PetscInt_FMT " with orientation %" PetscInt_FMT ", expected an edge with orientation 0 or -1", c, k, cone[k], ornt[k]);
      m->cell_e[4 * i + k] = e;
      m->cell_o[4 * i + k] = ornt[k];
      m->cell_v[4 * i + k] = m->edge[2 * e + (ornt[k] ? 1 : 0)]; /* the side's first vertex in the cell's direction */
    }
    for (PetscInt k = 0; k < n; k++) { /* the sides must chain: side k ends where side k+1 starts */
      const PetscInt e = m->cell_e[4 * i + k], last = m->edge[2 * e + (m->cell_o[4 * i + k] ? 0 : 1)];
      PetscCheck(last == m->cell_v[4 * i + (k + 1) % n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cell %" PetscInt_FMT ": its sides do not form a cycle with the orientations of its cone", c);
    }
  }
  /* labels other than PETSc's own (depth, celltype): one value a point, else PETSc refines */
  PetscCall(DMGetNumLabels(dm, &nlab));
  PetscCall(PetscCalloc1(nlab, &m->label_name));
  PetscCall(PetscCalloc1(nlab, &m->vval));
  PetscCall(PetscCalloc1(nlab, &m->eval));
  PetscCall(PetscCalloc1(nlab, &m->cval));
  PetscCall(PetscCalloc1(nlab, &m->nvalues));
  PetscCall(PetscCalloc1(nlab, &m->values));
  for (PetscInt l = 0; l < nlab && !bad; l++) {
    const char     *name;
    DMLabel         label;
    IS              vis;
    PetscInt        nvals, defval, k;
    const PetscInt *vals;
    PetscBool       own;
    PetscCall(DMGetLabelName(dm, l, &name));
    PetscCall(PetscStrcmp(name, "depth", &own));
    if (own) continue;
    PetscCall(PetscStrcmp(name, "celltype", &own));
    if (own) continue;
    PetscCall(DMGetLabel(dm, name, &label));
    PetscCall(DMLabelGetDefaultValue(label, &defval));
    bad = (PetscBool)(defval != -1);
    k   = m->nlabels++;
    PetscCall(PetscStrallocpy(name, &m->label_name[k]));
    PetscCall(PetscMalloc1(m->nv, &m->vval[k]));
    PetscCall(PetscMalloc1(m->ne, &m->eval[k]));
    PetscCall(PetscMalloc1(m->nc, &m->cval[k]));
    for (PetscInt p = 0; p < m->nv; p++) m->vval[k][p] = -1;
    for (PetscInt p = 0; p < m->ne; p++) m->eval[k][p] = -1;
    for (PetscInt p = 0; p < m->nc; p++) m->cval[k][p] = -1;
    PetscCall(DMLabelGetValueIS(label, &vis));
    PetscCall(ISGetLocalSize(vis, &nvals));
    PetscCall(ISGetIndices(vis, &vals));
    m->nvalues[k] = nvals;
    PetscCall(PetscMalloc1(nvals, &m->values[k]));
    PetscCall(PetscArraycpy(m->values[k], vals, nvals));
    PetscCall(PetscSortInt(nvals, m->values[k]));
    for (PetscInt j = 0; j < nvals && !bad; j++) {
      IS              sis;
      PetscInt        n;
      const PetscInt *pts;
      bad = (PetscBool)(vals[j] < 0); /* -1 is the default value: not a stratum we can carry */
      PetscCall(DMLabelGetStratumIS(label, vals[j], &sis));
      if (!sis || bad) {
        PetscCall(ISDestroy(&sis));
        continue;
      }
      PetscCall(ISGetLocalSize(sis, &n));
      PetscCall(ISGetIndices(sis, &pts));
      for (PetscInt q = 0; q < n && !bad; q++) {
        const PetscInt p   = pts[q];
        PetscInt      *val = NULL;
        if (p >= vStart && p < vEnd)
          val = &m->vval[k][p - vStart];
        else if (p >= eStart && p < eEnd)
          val = &m->eval[k][p - eStart];
        else if (p >= cStart && p < cEnd)
          val = &m->cval[k][p - cStart];
        if (val && *val == -1)
          *val = vals[j];
        else
          bad = PETSC_TRUE; /* a point in two strata, or outside the mesh */
      }
      PetscCall(ISRestoreIndices(sis, &pts));
      PetscCall(ISDestroy(&sis));
    }
    PetscCall(ISRestoreIndices(vis, &vals));
    PetscCall(ISDestroy(&vis));
  }
  if (bad) {
    PetscCall(RefineMeshDestroy(m));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *ok = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One uniform refinement of the arrays (the numbering in the file's head comment). */
static PetscErrorCode RefineMeshOnce(RefineMesh *m)
{
  RefineMesh r;
  PetscInt   nquad = 0, ninterior = 0, *ioff, *qcenter;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&r, sizeof(r)));
  PetscCall(PetscMalloc2(m->nc + 1, &ioff, m->nc, &qcenter));
  for (PetscInt c = 0; c < m->nc; c++) {
    ioff[c] = ninterior;
    ninterior += m->cell_nv[c];
    qcenter[c] = m->cell_nv[c] == 4 ? m->nv + m->ne + nquad++ : -1;
  }
  ioff[m->nc] = ninterior;
  r.dE        = m->dE;
  r.nv        = m->nv + m->ne + nquad;
  r.ne        = 2 * m->ne + ninterior;
  r.nc        = 4 * m->nc;
  PetscCall(PetscMalloc1(r.nv * r.dE, &r.x));
  PetscCall(PetscMalloc1(r.ne * 2, &r.edge));
  PetscCall(PetscMalloc4(r.nc, &r.cell_nv, r.nc * 4, &r.cell_v, r.nc * 4, &r.cell_e, r.nc * 4, &r.cell_o));
  /* vertices: the old ones, the edges' midpoints, the quadrilaterals' centres */
  PetscCall(PetscArraycpy(r.x, m->x, m->nv * m->dE));
  for (PetscInt e = 0; e < m->ne; e++) {
    const PetscReal *a = &m->x[m->edge[2 * e] * m->dE], *b = &m->x[m->edge[2 * e + 1] * m->dE];
    for (PetscInt d = 0; d < m->dE; d++) r.x[(m->nv + e) * m->dE + d] = 0.5 * (a[d] + b[d]);
  }
  for (PetscInt c = 0; c < m->nc; c++) {
    if (qcenter[c] < 0) continue;
    for (PetscInt d = 0; d < m->dE; d++) {
      PetscReal s = 0;
      for (PetscInt k = 0; k < 4; k++) s += m->x[m->cell_v[4 * c + k] * m->dE + d];
      r.x[qcenter[c] * m->dE + d] = 0.25 * s;
    }
  }
  /* edges: halves 2e (from the cone's first vertex) and 2e+1 */
  for (PetscInt e = 0; e < m->ne; e++) {
    r.edge[4 * e + 0] = m->edge[2 * e];
    r.edge[4 * e + 1] = m->nv + e;
    r.edge[4 * e + 2] = m->nv + e;
    r.edge[4 * e + 3] = m->edge[2 * e + 1];
  }
  for (PetscInt c = 0; c < m->nc; c++) {
    const PetscInt n = m->cell_nv[c], *cv = &m->cell_v[4 * c], *ce = &m->cell_e[4 * c], *co = &m->cell_o[4 * c];
    const PetscInt ib = 2 * m->ne + ioff[c]; /* the cell's first interior edge */
    PetscInt       mid[4], first[4], second[4];
    for (PetscInt k = 0; k < n; k++) {
      mid[k]    = m->nv + ce[k];
      first[k]  = 2 * ce[k] + (co[k] ? 1 : 0); /* the half of side k at v_k */
      second[k] = 2 * ce[k] + (co[k] ? 0 : 1); /* the half at v_k+1 */
    }
    if (n == 3) {
      /* interior edges ib+0 = (m2, m0), ib+1 = (m0, m1), ib+2 = (m1, m2): the centre triangle's sides */
      const PetscInt cv_child[4][3] = {
          {cv[0], mid[0], mid[2]},
          {mid[0], cv[1], mid[1]},
          {mid[2], mid[1], cv[2]},
          {mid[0], mid[1], mid[2]}};
      const PetscInt ce_child[4][3] = {
          {first[0], ib + 0, second[2]},
          {second[0], first[1], ib + 1},
          {ib + 2, second[1], first[2]},
          {ib + 1, ib + 2, ib + 0}};
      const PetscInt co_child[4][3] = {
          {co[0], -1, co[2]},
          {co[0], co[1], -1},
          {-1, co[1], co[2]},
          {0, 0, 0}};
      r.edge[2 * (ib + 0)]     = mid[2];
      r.edge[2 * (ib + 0) + 1] = mid[0];
      r.edge[2 * (ib + 1)]     = mid[0];
      r.edge[2 * (ib + 1) + 1] = mid[1];
      r.edge[2 * (ib + 2)]     = mid[1];
      r.edge[2 * (ib + 2) + 1] = mid[2];
      for (PetscInt j = 0; j < 4; j++) {
        const PetscInt cc = 4 * c + j;
        r.cell_nv[cc]     = 3;
        for (PetscInt k = 0; k < 3; k++) {
          r.cell_v[4 * cc + k] = cv_child[j][k];
          r.cell_e[4 * cc + k] = ce_child[j][k];
          r.cell_o[4 * cc + k] = co_child[j][k];
        }
      }
    } else {
      /* interior edges ib+k = (m_k, centre); child k at corner v_k: (v_k, m_k, centre, m_k-1) */
      const PetscInt z = qcenter[c];
      for (PetscInt k = 0; k < 4; k++) {
        r.edge[2 * (ib + k)]     = mid[k];
        r.edge[2 * (ib + k) + 1] = z;
      }
      for (PetscInt k = 0; k < 4; k++) {
        const PetscInt cc = 4 * c + k, km = (k + 3) % 4;
        r.cell_nv[cc]        = 4;
        r.cell_v[4 * cc + 0] = cv[k];
        r.cell_v[4 * cc + 1] = mid[k];
        r.cell_v[4 * cc + 2] = z;
        r.cell_v[4 * cc + 3] = mid[km];
        r.cell_e[4 * cc + 0] = first[k];
        r.cell_o[4 * cc + 0] = co[k];
        r.cell_e[4 * cc + 1] = ib + k;
        r.cell_o[4 * cc + 1] = 0;
        r.cell_e[4 * cc + 2] = ib + km;
        r.cell_o[4 * cc + 2] = -1;
        r.cell_e[4 * cc + 3] = second[km];
        r.cell_o[4 * cc + 3] = co[km];
      }
    }
  }
  /* labels: a child carries its parent's value */
  r.nlabels     = m->nlabels;
  r.label_name  = m->label_name;
  r.nvalues     = m->nvalues;
  r.values      = m->values;
  m->label_name = NULL;
  m->nvalues    = NULL;
  m->values     = NULL;
  PetscCall(PetscCalloc1(r.nlabels, &r.vval));
  PetscCall(PetscCalloc1(r.nlabels, &r.eval));
  PetscCall(PetscCalloc1(r.nlabels, &r.cval));
  for (PetscInt l = 0; l < m->nlabels; l++) {
    const PetscInt *vv = m->vval[l], *ev = m->eval[l], *cvl = m->cval[l];
    PetscCall(PetscMalloc1(r.nv, &r.vval[l]));
    PetscCall(PetscMalloc1(r.ne, &r.eval[l]));
    PetscCall(PetscMalloc1(r.nc, &r.cval[l]));
    PetscCall(PetscArraycpy(r.vval[l], vv, m->nv));
    for (PetscInt e = 0; e < m->ne; e++) {
      r.vval[l][m->nv + e] = ev[e];
      r.eval[l][2 * e] = r.eval[l][2 * e + 1] = ev[e];
    }
    for (PetscInt c = 0; c < m->nc; c++) {
      if (qcenter[c] >= 0) r.vval[l][qcenter[c]] = cvl[c];
      for (PetscInt k = ioff[c]; k < ioff[c + 1]; k++) r.eval[l][2 * m->ne + k] = cvl[c];
      for (PetscInt j = 0; j < 4; j++) r.cval[l][4 * c + j] = cvl[c];
    }
  }
  PetscCall(PetscFree2(ioff, qcenter));
  PetscCall(RefineMeshDestroy(m)); /* its names now belong to r (m->label_name, values are NULL) */
  *m = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An index set of points [start + first, start + first + n) or, when list is given, start + list[i]. */
static PetscErrorCode RefineStratumIS(PetscInt start, PetscInt n, const PetscInt list[], IS *is)
{
  PetscFunctionBeginUser;
  if (!list)
    PetscCall(ISCreateStride(PETSC_COMM_SELF, n, start, 1, is));
  else {
    PetscInt *pts;
    PetscCall(PetscMalloc1(n, &pts));
    for (PetscInt i = 0; i < n; i++) pts[i] = start + list[i];
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, pts, PETSC_OWN_POINTER, is));
  }
  PetscCall(ISSetInfo(*is, IS_SORTED, IS_LOCAL, PETSC_TRUE, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Set a label's strata from per-point values of the three kinds of points, each stratum a sorted point
 * list (the label is never hashed). */
static PetscErrorCode RefineSetLabel(DM dm, const char name[], PetscInt nvalues, const PetscInt values[], PetscInt nc, PetscInt nv, PetscInt ne, const PetscInt cval[], const PetscInt vval[], const PetscInt eval[])
{
  DMLabel         label;
  PetscInt       *count, *offset, *pts;
  const PetscInt  start[3] = {0, nc, nc + nv}, size[3] = {nc, nv, ne};
  const PetscInt *val[3] = {cval, vval, eval};

  PetscFunctionBeginUser;
  PetscCall(DMCreateLabel(dm, name));
  PetscCall(DMGetLabel(dm, name, &label));
  PetscCall(PetscCalloc2(nvalues + 1, &count, nvalues + 1, &offset));
  for (PetscInt t = 0; t < 3; t++)
    for (PetscInt p = 0; p < size[t]; p++) {
      PetscInt j;
      if (val[t][p] < 0) continue;
      PetscCall(PetscFindInt(val[t][p], nvalues, values, &j));
      count[j]++;
    }
  for (PetscInt j = 0; j < nvalues; j++) offset[j + 1] = offset[j] + count[j];
  PetscCall(PetscMalloc1(offset[nvalues], &pts));
  for (PetscInt j = 0; j < nvalues; j++) count[j] = offset[j];
  for (PetscInt t = 0; t < 3; t++) /* chart order: cells, vertices, edges, so each stratum comes sorted */
    for (PetscInt p = 0; p < size[t]; p++) {
      PetscInt j;
      if (val[t][p] < 0) continue;
      PetscCall(PetscFindInt(val[t][p], nvalues, values, &j));
      pts[count[j]++] = start[t] + p;
    }
  for (PetscInt j = 0; j < nvalues; j++) {
    IS is;
    PetscCall(RefineStratumIS(0, offset[j + 1] - offset[j], &pts[offset[j]], &is));
    PetscCall(DMLabelSetStratumIS(label, values[j], is));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscFree(pts));
  PetscCall(PetscFree2(count, offset));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interpolated DMPlex of the arrays: cells [0, nc), vertices [nc, nc + nv), edges after them. */
static PetscErrorCode RefineMeshToDM(MPI_Comm comm, const RefineMesh *m, DM *dm)
{
  const PetscInt cs = 0, vs = m->nc, es = m->nc + m->nv, pend = m->nc + m->nv + m->ne;
  PetscInt      *cones, *ornts;
  PetscSection   csec;
  DMLabel        ctlabel;
  PetscInt       ntri = 0, nquad = 0;

  PetscFunctionBeginUser;
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  PetscCall(DMSetDimension(*dm, 2));
  PetscCall(DMPlexSetChart(*dm, 0, pend));
  for (PetscInt c = 0; c < m->nc; c++) {
    PetscCall(DMPlexSetConeSize(*dm, cs + c, m->cell_nv[c]));
    if (m->cell_nv[c] == 3)
      ntri++;
    else
      nquad++;
  }
  for (PetscInt e = 0; e < m->ne; e++) PetscCall(DMPlexSetConeSize(*dm, es + e, 2));
  PetscCall(DMSetUp(*dm));
  /* the cell types by strata, before anything asks for them (DMPlexGetCellTypeLabel would compute them
   * point by point into a hashed label; PETSc 3.22 caches them from the label on first use) */
  PetscCall(DMCreateLabel(*dm, "celltype"));
  PetscCall(DMGetLabel(*dm, "celltype", &ctlabel));
  {
    IS is;
    PetscCall(RefineStratumIS(vs, m->nv, NULL, &is));
    PetscCall(DMLabelSetStratumIS(ctlabel, DM_POLYTOPE_POINT, is));
    PetscCall(ISDestroy(&is));
    PetscCall(RefineStratumIS(es, m->ne, NULL, &is));
    PetscCall(DMLabelSetStratumIS(ctlabel, DM_POLYTOPE_SEGMENT, is));
    PetscCall(ISDestroy(&is));
    for (PetscInt t = 0; t < 2; t++) {
      const PetscInt nt = t ? nquad : ntri, nvt = t ? 4 : 3;
      PetscInt      *list = NULL, n = 0;
      if (!nt) continue;
      if (nt != m->nc) {
        PetscCall(PetscMalloc1(nt, &list));
        for (PetscInt c = 0; c < m->nc; c++)
          if (m->cell_nv[c] == nvt) list[n++] = c;
      }
      PetscCall(RefineStratumIS(cs, nt, list, &is));
      PetscCall(PetscFree(list));
      PetscCall(DMLabelSetStratumIS(ctlabel, t ? DM_POLYTOPE_QUADRILATERAL : DM_POLYTOPE_TRIANGLE, is));
      PetscCall(ISDestroy(&is));
    }
  }
  /* the cones in chart order, written straight into DMPlex's arrays (DMSetUp laid them out so) */
  PetscCall(DMPlexGetCones(*dm, &cones));
  PetscCall(DMPlexGetConeOrientations(*dm, &ornts));
  {
    PetscInt off = 0;
    for (PetscInt c = 0; c < m->nc; c++)
      for (PetscInt k = 0; k < m->cell_nv[c]; k++, off++) {
        cones[off] = es + m->cell_e[4 * c + k];
        ornts[off] = m->cell_o[4 * c + k];
      }
    for (PetscInt e = 0; e < m->ne; e++)
      for (PetscInt k = 0; k < 2; k++, off++) {
        cones[off] = vs + m->edge[2 * e + k];
        ornts[off] = 0;
      }
  }
  PetscCall(DMPlexSymmetrize(*dm));
  PetscCall(DMPlexStratify(*dm));
  for (PetscInt l = 0; l < m->nlabels; l++) PetscCall(RefineSetLabel(*dm, m->label_name[l], m->nvalues[l], m->values[l], m->nc, m->nv, m->ne, m->cval[l], m->vval[l], m->eval[l]));
  /* coordinates, as DMPlexTransform lays them out: one field of dE components on the vertices */
  PetscCall(DMSetCoordinateDim(*dm, m->dE));
  PetscCall(PetscSectionCreate(comm, &csec));
  PetscCall(PetscSectionSetNumFields(csec, 1));
  PetscCall(PetscSectionSetFieldComponents(csec, 0, m->dE));
  PetscCall(PetscSectionSetChart(csec, vs, es));
  for (PetscInt v = vs; v < es; v++) {
    PetscCall(PetscSectionSetDof(csec, v, m->dE));
    PetscCall(PetscSectionSetFieldDof(csec, v, 0, m->dE));
  }
  PetscCall(PetscSectionSetUp(csec));
  PetscCall(DMSetCoordinateSection(*dm, m->dE, csec));
  PetscCall(PetscSectionDestroy(&csec));
  {
    Vec          coords;
    PetscScalar *x;
    PetscCall(VecCreate(PETSC_COMM_SELF, &coords));
    PetscCall(PetscObjectSetName((PetscObject)coords, "coordinates"));
    PetscCall(VecSetSizes(coords, m->nv * m->dE, PETSC_DETERMINE));
    PetscCall(VecSetBlockSize(coords, m->dE));
    PetscCall(VecSetType(coords, VECSTANDARD));
    PetscCall(VecGetArrayWrite(coords, &x));
    for (PetscInt i = 0; i < m->nv * m->dE; i++) x[i] = m->x[i];
    PetscCall(VecRestoreArrayWrite(coords, &x));
    PetscCall(DMSetCoordinatesLocal(*dm, coords));
    PetscCall(VecDestroy(&coords));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MeshRefineUniform(DM dm, PetscInt levels, DM *rdm)
{
  RefineMesh m;
  PetscBool  ok;

  PetscFunctionBeginUser;
  *rdm = NULL;
  if (levels <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RefineMeshFromDM(dm, &m, &ok));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt l = 0; l < levels; l++) PetscCall(RefineMeshOnce(&m));
  PetscCall(RefineMeshToDM(PetscObjectComm((PetscObject)dm), &m, rdm));
  PetscCall(RefineMeshDestroy(&m));
  PetscFunctionReturn(PETSC_SUCCESS);
}
