/* Continuous spectral elements (-disc sem): the field layout (a DMPlex section with dofs on vertices,
 * edges, faces and cells), the element restriction through frames of global vertex numbers, the
 * geometric factors at the GLL nodes, right-hand sides, L2 errors and the Dirichlet dofs
 * (hoflow/sem.h). The operators are in op/sem.c. */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/sem.h>

PetscErrorCode DiscGetSEM(Disc disc, const char what[], SEMDisc **sem)
{
  PetscFunctionBeginUser;
  PetscCheck(!strcmp(disc->type, "sem"), PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_SUP, "%s needs -disc sem, not -disc %s", what, disc->type);
  *sem = (SEMDisc *)disc->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mesh must be all quadrilaterals or all hexahedra, on every rank. */
static PetscErrorCode SEMCheckMesh(const Mesh *mesh, PetscInt N, RefShape *shape)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)mesh->dm);
  PetscInt bad  = -1, depth;

  PetscFunctionBeginUser;
  PetscCheck(N >= 1 && N <= HOFLOW_NMAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT " is out of range for -disc sem: continuous spectral elements of orders 1..%d", N, HOFLOW_NMAX);
  *shape = mesh->dim == 2 ? REF_QUADRILATERAL : REF_HEXAHEDRON;
  for (PetscInt b = 0; b < mesh->nblocks; b++)
    if (mesh->blocks[b].shape != *shape) bad = PetscMax(bad, (PetscInt)mesh->blocks[b].shape);
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_MAX, comm));
  PetscCheck(bad < 0, comm, PETSC_ERR_SUP, "-disc sem: continuous spectral elements need %s elements only on a %" PetscInt_FMT "D mesh; mesh %s has %s elements (use -disc ipdg on simplex, prism or mixed meshes)", RefShapeTable[*shape].name, mesh->dim, mesh->source, RefShapeTable[bad].name);
  PetscCall(DMPlexGetDepth(mesh->dm, &depth));
  PetscCheck(depth == mesh->dim, comm, PETSC_ERR_SUP, "-disc sem needs an interpolated mesh (edges and faces as DMPlex points); mesh %s has depth %" PetscInt_FMT " in %" PetscInt_FMT "D (do not set -dm_plex_interpolate 0)", mesh->source, depth, mesh->dim);
  PetscCheck(mesh->dim == 2 || mesh->dim == 3, comm, PETSC_ERR_SUP, "-disc sem needs a 2D or 3D mesh");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The section: 1 dof per vertex, N-1 per edge, (N-1)^2 per face, (N-1)^dim per cell. */
static PetscErrorCode SEMCreateSection(SEMDisc *sem)
{
  const Mesh  *mesh = sem->mesh;
  PetscSection section;
  PetscInt     pStart, pEnd, dof[4] = {1, 0, 0, 0};

  PetscFunctionBeginUser;
  for (PetscInt d = 1; d <= sem->dim; d++) dof[d] = dof[d - 1] * (sem->N - 1);
  for (PetscInt d = 0; d <= sem->dim; d++) dof[d] *= sem->ncomp;
  PetscCall(DMClone(mesh->dm, &sem->dm));
  PetscCall(PetscSectionCreate(PetscObjectComm((PetscObject)mesh->dm), &section));
  PetscCall(DMPlexGetChart(sem->dm, &pStart, &pEnd));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  for (PetscInt depth = 0; depth <= sem->dim; depth++) {
    PetscInt s, e;
    PetscCall(DMPlexGetDepthStratum(sem->dm, depth, &s, &e));
    for (PetscInt p = s; p < e; p++) PetscCall(PetscSectionSetDof(section, p, dof[depth]));
  }
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(sem->dm, section));
  PetscCall(PetscSectionGetStorageSize(section, &sem->nlocal));
  PetscCall(PetscSectionDestroy(&section));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the local (ghosted) layout is the global one on every rank (one rank: no shared points, every
 * point at the same offset in both sections): the operators then apply the element kernels to the global
 * arrays and skip DMGlobalToLocal / DMLocalToGlobal (identity copies). Decided together, since the
 * exchange is collective. */
static PetscErrorCode SEMLocalIsGlobal(SEMDisc *sem)
{
  PetscSection lsec, gsec;
  PetscInt     pStart, pEnd, nowned, rstart = 0;
  PetscBool    same;

  PetscFunctionBeginUser;
  PetscCall(DMGetLocalSection(sem->dm, &lsec));
  PetscCall(DMGetGlobalSection(sem->dm, &gsec));
  PetscCall(PetscSectionGetConstrainedStorageSize(gsec, &nowned));
  PetscCallMPI(MPI_Exscan(&nowned, &rstart, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)sem->dm)));
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)sem->dm), &rank));
    if (!rank) rstart = 0; /* MPI_Exscan leaves rank 0's undefined */
  }
  same = (PetscBool)(nowned == sem->nlocal);
  PetscCall(PetscSectionGetChart(lsec, &pStart, &pEnd));
  for (PetscInt p = pStart; p < pEnd && same; p++) {
    PetscInt ldof, gdof, loff, goff;
    PetscCall(PetscSectionGetDof(lsec, p, &ldof));
    PetscCall(PetscSectionGetDof(gsec, p, &gdof));
    PetscCall(PetscSectionGetOffset(lsec, p, &loff));
    PetscCall(PetscSectionGetOffset(gsec, p, &goff));
    same = (PetscBool)(ldof == gdof && (!ldof || goff - rstart == loff));
  }
  PetscCallMPI(MPIU_Allreduce(&same, &sem->local_is_global, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)sem->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gather and gdof: the point of the cell's closure that holds each element node and the node's place
 * in that point's dofs, in the point's frame of global vertex numbers (hoflow/sem.h). */
static PetscErrorCode SEMBuildRestriction(SEMDisc *sem)
{
  const Mesh         *mesh = sem->mesh;
  const RefShapeInfo *info = &RefShapeTable[sem->shape];
  const PetscInt      dim = sem->dim, N = sem->N, N1 = sem->N1, Np = sem->Np, nv = info->nverts, M = N - 1;
  PetscSection        lsec, gsec;
  PetscInt            vStart, vEnd, corner[HOFLOW_VERTS_MAX][3];
  IS                  vnum;
  const PetscInt     *gnum;

  PetscFunctionBeginUser;
  PetscCall(DMGetLocalSection(sem->dm, &lsec));
  PetscCall(DMGetGlobalSection(sem->dm, &gsec));
  PetscCall(DMPlexGetDepthStratum(sem->dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetVertexNumbering(sem->dm, &vnum));
  PetscCall(ISGetIndices(vnum, &gnum));
  for (PetscInt v = 0; v < nv; v++) /* the vertex's node multi-index: 0 or N in each direction */
    for (PetscInt d = 0; d < dim; d++) corner[v][d] = info->verts[v][d] > 0 ? N : 0;
  PetscCall(PetscMalloc2(sem->K * Np, &sem->gather, sem->K * Np, &sem->gdof));
  for (PetscInt e = 0; e < sem->K; e++) {
    const PetscInt cell = mesh->elem_cell[e], *vgid = mesh->vertex_gid + e * HOFLOW_VERTS_MAX;
    PetscInt      *closure = NULL, nclosure, npts = 0, pts[27], pdepth[27], pverts[27][HOFLOW_VERTS_MAX], pnv[27];
    for (PetscInt k = 0; k < nv; k++)
      for (PetscInt j = 0; j < k; j++) PetscCheck(vgid[k] != vgid[j], PETSC_COMM_SELF, PETSC_ERR_SUP, "-disc sem: cell %" PetscInt_FMT " of mesh %s meets itself (two of its vertices are one mesh vertex, as on a periodic mesh with one cell across)", cell, mesh->source);
    /* the closure's points with the global numbers of their vertices */
    PetscCall(DMPlexGetTransitiveClosure(sem->dm, cell, PETSC_TRUE, &nclosure, &closure));
    PetscCheck(nclosure <= 27, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cell %" PetscInt_FMT " has %" PetscInt_FMT " closure points", cell, nclosure);
    for (PetscInt c = 0; c < nclosure; c++) {
      const PetscInt p   = closure[2 * c];
      PetscInt      *sub = NULL, nsub, depth;
      PetscCall(DMPlexGetPointDepth(sem->dm, p, &depth));
      pts[npts]    = p;
      pdepth[npts] = depth;
      pnv[npts]    = 0;
      PetscCall(DMPlexGetTransitiveClosure(sem->dm, p, PETSC_TRUE, &nsub, &sub));
      for (PetscInt s = 0; s < nsub; s++) {
        const PetscInt q = sub[2 * s];
        if (q >= vStart && q < vEnd) {
          const PetscInt g          = gnum[q - vStart];
          pverts[npts][pnv[npts]++] = g < 0 ? -(g + 1) : g;
        }
      }
      PetscCall(DMPlexRestoreTransitiveClosure(sem->dm, p, PETSC_TRUE, &nsub, &sub));
      npts++;
    }
    PetscCall(DMPlexRestoreTransitiveClosure(sem->dm, cell, PETSC_TRUE, &nclosure, &closure));
    for (PetscInt i = 0; i < Np; i++) {
      const PetscInt ix[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)};
      PetscInt       nfree = 0, dirs[3], verts[HOFLOW_VERTS_MAX], nverts = 0, point = -1, idx = 0, loff, goff;
      for (PetscInt d = 0; d < dim; d++)
        if (ix[d] > 0 && ix[d] < N) dirs[nfree++] = d;
      for (PetscInt v = 0; v < nv; v++) { /* the vertices of the sub-entity: they agree with I off the free directions */
        PetscBool on = PETSC_TRUE;
        for (PetscInt d = 0; d < dim; d++) {
          PetscBool free = PETSC_FALSE;
          for (PetscInt k = 0; k < nfree; k++) free = (PetscBool)(free || dirs[k] == d);
          if (!free && corner[v][d] != ix[d]) on = PETSC_FALSE;
        }
        if (on) verts[nverts++] = v;
      }
      for (PetscInt c = 0; c < npts && point < 0; c++) { /* the closure point of that depth with those vertices */
        PetscInt match = 0;
        if (pdepth[c] != nfree || pnv[c] != nverts) continue;
        for (PetscInt a = 0; a < nverts; a++)
          for (PetscInt b = 0; b < pnv[c]; b++) match += vgid[verts[a]] == pverts[c][b];
        if (match == nverts) point = pts[c];
      }
      PetscCheck(point >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-disc sem: no point of cell %" PetscInt_FMT "'s closure holds node %" PetscInt_FMT, cell, i);
      if (nfree == 1) { /* edge: from the smaller vertex number to the larger */
        const PetscInt d = dirs[0];
        PetscInt       a = -1, b = -1;
        for (PetscInt k = 0; k < nverts; k++) {
          if (corner[verts[k]][d] == 0)
            a = verts[k];
          else
            b = verts[k];
        }
        idx = vgid[a] < vgid[b] ? ix[d] - 1 : N - 1 - ix[d];
      } else if (nfree == 2 && dim == 3) { /* face: from its smallest vertex, first towards the smaller neighbour */
        PetscInt c0 = verts[0], n1 = -1, n2 = -1, d1 = -1, d2 = -1, alpha, beta;
        for (PetscInt k = 1; k < nverts; k++)
          if (vgid[verts[k]] < vgid[c0]) c0 = verts[k];
        for (PetscInt k = 0; k < nverts; k++) { /* neighbours: differ from c0 in one free direction */
          const PetscInt v = verts[k];
          for (PetscInt f = 0; f < 2; f++) {
            const PetscInt o = dirs[1 - f];
            if (corner[v][dirs[f]] != corner[c0][dirs[f]] && corner[v][o] == corner[c0][o]) {
              if (n1 < 0) {
                n1 = v;
                d1 = dirs[f];
              } else {
                n2 = v;
                d2 = dirs[f];
              }
            }
          }
        }
        if (vgid[n2] < vgid[n1]) {
          PetscInt t = n1;
          n1         = n2;
          n2         = t;
          t          = d1;
          d1         = d2;
          d2         = t;
        }
        alpha = corner[c0][d1] == 0 ? ix[d1] : N - ix[d1];
        beta  = corner[c0][d2] == 0 ? ix[d2] : N - ix[d2];
        idx   = (alpha - 1) + M * (beta - 1);
      } else if (nfree == dim) { /* the cell's own */
        idx = 0;
        for (PetscInt d = dim - 1; d >= 0; d--) idx = idx * M + (ix[d] - 1);
      }
      PetscCall(PetscSectionGetOffset(lsec, point, &loff));
      PetscCall(PetscSectionGetOffset(gsec, point, &goff));
      sem->gather[e * Np + i] = loff + sem->ncomp * idx;
      sem->gdof[e * Np + i]   = (goff < 0 ? -(goff + 1) : goff) + sem->ncomp * idx;
    }
  }
  PetscCall(ISRestoreIndices(vnum, &gnum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMElementMap(const SEMDisc *sem, const MeshGeometryTable *tab, PetscInt n, const PetscReal xi[], PetscInt e, PetscReal x[], PetscReal jac[])
{
  const Mesh      *mesh = sem->mesh;
  const PetscInt   dim  = sem->dim;
  const PetscReal *vert = mesh->vertices + e * HOFLOW_VERTS_MAX * dim;

  PetscFunctionBeginUser;
  if (MeshElementIsCurved(mesh, e)) {
    PetscCheck(tab, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-disc sem: no curved geometry table for element %" PetscInt_FMT, e);
    MeshCurvedElementMap(mesh, tab, e, x, jac);
  } else {
    PetscReal j0[9];
    (void)GeomAffineJacobian(sem->shape, (int)dim, vert, j0);
    for (PetscInt q = 0; q < n; q++) {
      if (x) GeomAffineMap(sem->shape, (int)dim, vert, xi + q * dim, x + q * dim);
      if (jac)
        for (PetscInt k = 0; k < dim * dim; k++) jac[q * dim * dim + k] = j0[k];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDiscElementGeometry(SEMDisc *sem, PetscInt e, PetscReal x[], PetscReal jac[])
{
  PetscFunctionBeginUser;
  PetscCall(SEMElementMap(sem, sem->has_curved ? &sem->curved_table : NULL, sem->Np, sem->ref->xi, e, x, jac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometric factors at the GLL nodes: G_ab = w J (dr_a/dx).(dr_b/dx), wJ, and the node coordinates; where
 * no element of the rank is curved (all affine) also the element's J and (dr_a/dx).(dr_b/dx), from which
 * the CUDA kernel forms G and wJ at the node with the same products (-sem_affine_factors). */
static PetscErrorCode SEMComputeGeometry(SEMDisc *sem)
{
  const Mesh      *mesh = sem->mesh;
  const PetscInt   dim = sem->dim, Np = sem->Np, N1 = sem->N1, npair = dim * (dim + 1) / 2;
  const PetscReal *w1 = sem->ref->w1;
  PetscReal       *jac;
  PetscBool        affine_factors = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PetscObjectComm((PetscObject)mesh->dm), NULL, "Continuous spectral elements (-disc sem)", NULL);
  PetscCall(PetscOptionsBool("-sem_affine_factors", "On meshes of affine elements, the CUDA kernel forms the metric factors at each node from 7 numbers per element (false: reads the 7 stored per node, as on curved meshes)", NULL, affine_factors, &affine_factors, NULL));
  PetscOptionsEnd();
  for (PetscInt e = 0; e < sem->K && !sem->has_curved; e++) sem->has_curved = MeshElementIsCurved(mesh, e);
  if (sem->has_curved) PetscCall(MeshGeometryTableCreate(mesh, sem->shape, Np, sem->ref->xi, &sem->curved_table));
  if (!sem->has_curved && affine_factors) PetscCall(PetscMalloc1(sem->K * (npair + 1), &sem->affine));
  PetscCall(PetscMalloc3(sem->K * Np * dim, &sem->x, sem->K * Np * npair, &sem->G, sem->K * Np, &sem->wJ));
  PetscCall(PetscMalloc1(Np * dim * dim, &jac));
  for (PetscInt e = 0; e < sem->K; e++) {
    PetscReal *x = sem->x + e * Np * dim;
    PetscCall(SEMDiscElementGeometry(sem, e, x, jac));
    for (PetscInt q = 0; q < Np; q++) {
      const PetscInt ix[3] = {q % N1, (q / N1) % N1, q / (N1 * N1)};
      PetscReal      g[HOFLOW_GEO_SIZE(3)], J, w = 1;
      char           pbuf[96];
      for (PetscInt d = 0; d < dim; d++) w *= w1[ix[d]];
      J = GeomMetricFromJacobian((int)dim, jac + q * dim * dim, g);
      PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " is tangled or inverted: its Jacobian is %g at the GLL node %s of the order-%" PetscInt_FMT " -disc sem discretization", mesh->source, mesh->elem_cell[e], (double)J, MeshFormatPoint(dim, x + q * dim, pbuf, sizeof(pbuf)), sem->N);
      for (PetscInt a = 0; a < dim; a++)
        for (PetscInt b = a; b < dim; b++) {
          PetscReal s = 0;
          for (PetscInt j = 0; j < dim; j++) s += g[j * dim + a] * g[j * dim + b];
          sem->G[(e * Np + q) * npair + SEMPair((int)a, (int)b, (int)dim)] = w * J * s;
          if (sem->affine && q == 0) sem->affine[e * (npair + 1) + 1 + SEMPair((int)a, (int)b, (int)dim)] = s; /* the same at every node */
        }
      sem->wJ[e * Np + q] = w * J;
      if (sem->affine && q == 0) sem->affine[e * (npair + 1)] = J;
    }
  }
  PetscCall(PetscFree(jac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b_i += (phi_i, f) with the collocated GLL rule: wJ f at the nodes, added over elements and ranks. */
static PetscErrorCode SEMIntegrate(Disc disc, PointFunction f, void *ctx, Vec b)
{
  SEMDisc     *sem = (SEMDisc *)disc->data;
  Vec          bl  = sem->work[0];
  PetscScalar *ba;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscCall(VecZeroEntries(bl));
  PetscCall(VecGetArray(bl, &ba));
  for (PetscInt k = 0; k < sem->K * sem->Np; k++) {
    PetscReal v;
    PetscCall(f(sem->x + k * sem->dim, &v, NULL, ctx));
    ba[sem->gather[k]] += sem->wJ[k] * v;
  }
  PetscCall(VecRestoreArray(bl, &ba));
  PetscCall(DMLocalToGlobal(sem->dm, bl, ADD_VALUES, b));
  PetscCall(PetscLogFlops(2.0 * sem->K * sem->Np));
  PetscCall(PetscLogEventEnd(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Disc interface's ||u - f||_L2 (scalar fields): SEMDiscL2ErrorVector (disc/sem_norms.c) with f as a
 * function of one component. */
typedef struct {
  PointFunction f;
  void         *ctx;
} SEMScalarFunction;

static PetscErrorCode SEMScalarFunctionValue(const PetscReal x[], PetscReal v[], void *ctx)
{
  SEMScalarFunction *s = (SEMScalarFunction *)ctx;

  PetscFunctionBeginUser;
  PetscCall(s->f(x, v, NULL, s->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEML2Error(Disc disc, Vec u, PointFunction f, void *ctx, PetscReal *error)
{
  SEMScalarFunction s = {f, ctx};

  PetscFunctionBeginUser;
  PetscCall(SEMDiscL2ErrorVector((SEMDisc *)disc->data, u, SEMScalarFunctionValue, &s, error));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Output and checkpoints see a continuous field element by element: the points are every owned element's
 * GLL nodes (a node shared by elements appears once in each), the sub-cells the GLL grid's, and a global
 * vector's values there come through the element restriction (point_values). */
static PetscErrorCode SEMGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  SEMDisc *sem = (SEMDisc *)disc->data;

  PetscFunctionBeginUser;
  *n = sem->K * sem->Np;
  if (x) *x = sem->x;
  if (elem_point) *elem_point = sem->elem_point;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMGetSubCells(Disc disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells)
{
  SEMDisc       *sem = (SEMDisc *)disc->data;
  const PetscInt nv  = sem->ref->Nverts;
  PetscInt       nsub, *sub;

  PetscFunctionBeginUser;
  PetscCall(RefElementSubCells(sem->ref, &nsub, &sub));
  PetscCall(PetscMalloc1(sem->K * nsub * nv, cells));
  for (PetscInt e = 0; e < sem->K; e++)
    for (PetscInt k = 0; k < nsub * nv; k++) (*cells)[e * nsub * nv + k] = e * sem->Np + sub[k];
  PetscCall(PetscFree(sub));
  *ncells = sem->K * nsub;
  *nverts = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMPointValues(Disc disc, Vec u, Vec ue, ScatterMode mode)
{
  SEMDisc       *sem = (SEMDisc *)disc->data;
  const PetscInt nc = sem->ncomp, n = sem->K * sem->Np;
  Vec            ul = sem->work[0];
  PetscInt       size;
  PetscScalar   *ua, *ea;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(ue, &size));
  PetscCheck(size == n * nc, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "-disc sem point values: %" PetscInt_FMT " local values for %" PetscInt_FMT " points of %" PetscInt_FMT " components", size, n, nc);
  PetscCall(DMGlobalToLocal(sem->dm, u, INSERT_VALUES, ul)); /* reverse: dofs of no owned element keep their values */
  PetscCall(VecGetArray(ul, &ua));
  PetscCall(VecGetArray(ue, &ea));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt c = 0; c < nc; c++) {
      if (mode == SCATTER_FORWARD)
        ea[k * nc + c] = ua[sem->gather[k] + c];
      else
        ua[sem->gather[k] + c] = ea[k * nc + c];
    }
  PetscCall(VecRestoreArray(ue, &ea));
  PetscCall(VecRestoreArray(ul, &ua));
  if (mode == SCATTER_REVERSE) PetscCall(DMLocalToGlobal(sem->dm, ul, INSERT_VALUES, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restarts onto another order or the mesh refined (-restart_project): the checkpoint's element polynomials
 * (their values at the order-Ns GLL nodes, the components of a node together) interpolated at this run's
 * nodes, of the same element (src_vertices NULL) or mapped into the file's element that contains it (affine
 * elements), then put back through the element restriction. Interpolation, not DG's L2 projection where the
 * order drops: the values at a shared node are then the same from every element (the source is continuous),
 * so the field stays continuous; for N >= Ns it is exact. */
static PetscErrorCode SEMProjectElements(Disc disc, PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  SEMDisc       *sem = (SEMDisc *)disc->data;
  const PetscInt dim = sem->dim, Np = sem->Np, nc = sem->ncomp, nv = sem->ref->Nverts;
  RefElement    *sref;
  PetscInt       Nps;
  PetscReal     *pts, *Is;
  Vec            ue;
  PetscScalar   *ea;

  PetscFunctionBeginUser;
  PetscCall(RefElementCreate(sem->shape, Ns, &sref));
  Nps = sref->Np;
  PetscCall(PetscMalloc2(Np * dim, &pts, Np * Nps, &Is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, sem->K * Np * nc, &ue));
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(VecGetArrayWrite(ue, &ea));
    for (PetscInt e = 0; e < sem->K; e++) {
      if (e == 0 || src_vertices) {
        if (!src_vertices) PetscCall(PetscArraycpy(pts, sem->ref->xi, Np * dim));
        else {
          PetscReal jac[9], size = 0, miss = GeomAffineJacobian(sem->shape, (int)dim, src_vertices + e * nv * dim, jac);
          for (PetscInt q = 0; q < dim * dim; q++) size = PetscMax(size, PetscAbsReal(jac[q]));
          PetscCheck(miss <= 1e-10 * size && !MeshElementIsCurved(sem->mesh, e), PETSC_COMM_SELF, PETSC_ERR_SUP,
                     "-restart: element %" PetscInt_FMT " of the checkpoint's mesh (or this run's) is not affine (%s): a continuous field is mapped between meshes or partitions through the affine map only; restart on the checkpoint's number of ranks without -restart_project, or on an affine mesh", e, miss > 1e-10 * size ? "its vertices are not an affine image of the reference element's" : "curved");
          for (PetscInt p = 0; p < Np; p++) GeomAffineInverseMap(sem->shape, (int)dim, src_vertices + e * nv * dim, sem->x + (e * Np + p) * dim, pts + p * dim);
        }
        PetscCall(RefElementInterpolationMatrix(sref, Np, pts, Is));
      }
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt c = 0; c < nc; c++) {
          PetscReal s = 0;
          for (PetscInt j = 0; j < Nps; j++) s += Is[i * Nps + j] * src[k][(e * Nps + j) * nc + c];
          ea[(e * Np + i) * nc + c] = s;
        }
    }
    PetscCall(VecRestoreArrayWrite(ue, &ea));
    PetscCall(SEMPointValues(disc, u[k], ue, SCATTER_REVERSE));
  }
  PetscCall(VecDestroy(&ue));
  PetscCall(PetscFree2(pts, Is));
  PetscCall(RefElementDestroy(&sref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDiscDirichletDofs(SEMDisc *sem, const PetscInt face_type[], char **mask, PetscInt *n, PetscInt **rows)
{
  const Mesh        *mesh = sem->mesh;
  const PetscInt     dim = sem->dim, N1 = sem->N1, Np = sem->Np;
  Vec                ml = sem->work[0], mg;
  PetscScalar       *ma;
  const PetscScalar *mga;
  PetscInt           rstart, nown;

  PetscFunctionBeginUser;
  PetscCall(VecZeroEntries(ml));
  PetscCall(VecGetArray(ml, &ma));
  for (PetscInt e = 0; e < sem->K; e++)
    for (PetscInt f = 0; f < 2 * dim; f++) {
      if (face_type[mesh->face_slot[e] + f] != HOFLOW_FACE_DIRICHLET) continue;
      for (PetscInt i = 0; i < Np; i++) {
        const PetscInt ix[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)};
        if (ix[sem->face_dir[f]] == sem->face_side[f])
          for (PetscInt c = 0; c < sem->ncomp; c++) ma[sem->gather[e * Np + i] + c] = 1;
      }
    }
  PetscCall(VecRestoreArray(ml, &ma));
  /* a dof on a Dirichlet face of one rank's element is Dirichlet on every rank that holds it */
  PetscCall(DMGetGlobalVector(sem->dm, &mg));
  PetscCall(VecZeroEntries(mg));
  PetscCall(DMLocalToGlobal(sem->dm, ml, ADD_VALUES, mg));
  PetscCall(DMGlobalToLocal(sem->dm, mg, INSERT_VALUES, ml));
  PetscCall(PetscMalloc1(sem->nlocal, mask));
  PetscCall(VecGetArray(ml, &ma));
  for (PetscInt k = 0; k < sem->nlocal; k++) (*mask)[k] = PetscRealPart(ma[k]) > 0;
  PetscCall(VecRestoreArray(ml, &ma));
  PetscCall(VecGetOwnershipRange(mg, &rstart, NULL));
  PetscCall(VecGetLocalSize(mg, &nown));
  PetscCall(VecGetArrayRead(mg, &mga));
  *n = 0;
  for (PetscInt k = 0; k < nown; k++) *n += PetscRealPart(mga[k]) > 0;
  PetscCall(PetscMalloc1(*n, rows));
  *n = 0;
  for (PetscInt k = 0; k < nown; k++)
    if (PetscRealPart(mga[k]) > 0) (*rows)[(*n)++] = rstart + k;
  PetscCall(VecRestoreArrayRead(mg, &mga));
  PetscCall(DMRestoreGlobalVector(sem->dm, &mg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDiscInterpolate(SEMDisc *sem, SEMVectorFunction f, void *ctx, Vec u)
{
  Vec          ul = sem->work[0];
  PetscScalar *ua;
  PetscReal    v[8];
  PetscInt     n;

  PetscFunctionBeginUser;
  PetscCheck(sem->ncomp <= 8, PETSC_COMM_SELF, PETSC_ERR_SUP, "-disc sem interpolation of %" PetscInt_FMT " components: at most 8", sem->ncomp);
  PetscCall(VecGetLocalSize(ul, &n));
  PetscCall(VecGetArrayWrite(ul, &ua)); /* host values: no copy from a device vector */
  PetscCall(PetscArrayzero(ua, n));
  for (PetscInt k = 0; k < sem->K * sem->Np; k++) {
    PetscCall(f(sem->x + k * sem->dim, v, ctx));
    for (PetscInt c = 0; c < sem->ncomp; c++) ua[sem->gather[k] + c] = v[c];
  }
  PetscCall(VecRestoreArrayWrite(ul, &ua));
  PetscCall(DMLocalToGlobal(sem->dm, ul, INSERT_VALUES, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMDestroy(Disc disc)
{
  SEMDisc *sem = (SEMDisc *)disc->data;

  PetscFunctionBeginUser;
  if (!sem) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree2(sem->gather, sem->gdof));
  PetscCall(PetscFree3(sem->x, sem->G, sem->wJ));
  PetscCall(PetscFree(sem->affine));
  PetscCall(PetscFree(sem->elem_point));
  PetscCall(PetscFree(sem->D1T));
  if (sem->has_curved) PetscCall(MeshGeometryTableDestroy(&sem->curved_table));
  PetscCall(VecDestroy(&sem->mass));
  for (PetscInt k = 0; k < 2; k++) PetscCall(VecDestroy(&sem->work[k]));
  PetscCall(RefElementDestroy(&sem->ref));
  PetscCall(DMDestroy(&sem->dm));
  PetscCall(PetscFree(disc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDiscSetUp(Disc disc)
{
  Mesh               *mesh = disc->mesh;
  SEMDisc            *sem;
  const RefShapeInfo *info;
  Vec                 ml;
  PetscScalar        *ma;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&sem));
  disc->data = sem;
  sem->mesh  = mesh;
  sem->dim   = mesh->dim;
  sem->N     = disc->order;
  sem->K     = mesh->K;
  sem->ncomp = disc->ncomp;
  PetscCall(SEMCheckMesh(mesh, sem->N, &sem->shape));
  info = &RefShapeTable[sem->shape];
  PetscCall(RefElementCreate(sem->shape, sem->N, &sem->ref));
  sem->N1 = sem->N + 1;
  sem->Np = sem->ref->Np;
  PetscCheck(sem->ref->N1 == sem->N1 && SEMHostSupported((int)sem->dim, (int)sem->N), PETSC_COMM_SELF, PETSC_ERR_PLIB, "-disc sem: no tensor kernel for order %" PetscInt_FMT, sem->N);
  for (PetscInt f = 0; f < info->nfaces; f++) /* reference face f: the direction in which its vertices agree */
    for (PetscInt d = 0; d < sem->dim; d++) {
      PetscBool same = PETSC_TRUE;
      for (PetscInt k = 1; k < info->face_nverts[f]; k++) same = (PetscBool)(same && info->verts[info->face_verts[f][k]][d] == info->verts[info->face_verts[f][0]][d]);
      if (same) {
        sem->face_dir[f]  = d;
        sem->face_side[f] = info->verts[info->face_verts[f][0]][d] > 0 ? sem->N : 0;
      }
    }
  PetscCall(SEMCreateSection(sem));
  PetscCall(SEMLocalIsGlobal(sem));
  disc->dm = sem->dm;
  PetscCall(PetscObjectReference((PetscObject)sem->dm)); /* DiscDestroy destroys disc->dm */
  PetscCall(SEMBuildRestriction(sem));
  PetscCall(SEMComputeGeometry(sem));
  PetscCall(PetscMalloc1(sem->N1 * sem->N1, &sem->D1T));
  DenseTranspose(sem->N1, sem->N1, sem->ref->D1, sem->D1T);
  sem->kd = (SEMKernelData){(int)sem->dim, (int)sem->N, (int)sem->N1, (int)sem->Np, (int)sem->K, sem->gather, sem->ref->D1, sem->D1T, sem->G, sem->wJ, 0.0, NULL, sem->affine, sem->ref->w1};
  for (PetscInt k = 0; k < 2; k++) PetscCall(DMCreateLocalVector(sem->dm, &sem->work[k]));
  /* the diagonal GLL mass */
  ml = sem->work[0];
  PetscCall(VecZeroEntries(ml));
  PetscCall(VecGetArray(ml, &ma));
  for (PetscInt k = 0; k < sem->K * sem->Np; k++)
    for (PetscInt c = 0; c < sem->ncomp; c++) ma[sem->gather[k] + c] += sem->wJ[k];
  PetscCall(VecRestoreArray(ml, &ma));
  PetscCall(DMCreateGlobalVector(sem->dm, &sem->mass));
  PetscCall(VecZeroEntries(sem->mass));
  PetscCall(DMLocalToGlobal(sem->dm, ml, ADD_VALUES, sem->mass));
  PetscCall(PetscMalloc1(sem->K + 1, &sem->elem_point));
  for (PetscInt e = 0; e <= sem->K; e++) sem->elem_point[e] = e * sem->Np;
  disc->ops.destroy      = SEMDestroy;
  disc->ops.get_points   = SEMGetPoints;
  disc->ops.get_subcells = SEMGetSubCells;
  disc->ops.point_values     = SEMPointValues;
  disc->ops.project_elements = SEMProjectElements;
  if (sem->ncomp == 1) { /* the Disc interface's functions are scalar; a vector field uses SEMDiscInterpolate */
    disc->ops.integrate = SEMIntegrate;
    disc->ops.l2_error  = SEML2Error;
  }
  PetscCall(PetscLogEventEnd(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
