/* hoflow nodal DG discretization (-disc ipdg), its data: the field layout on every element shape,
 * node coordinates, trace maps, face factors with the SIPDG penalty (seed 000 eq. 14), and the Disc
 * operations that need no operator: integrals and errors by cubature, output points and sub-cells.
 * The operators (mass, SIPDG) are added by op/nodal_dg.c. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/dg.h>
#include <hoflow/kernels/device.h>
#include <hoflow/log.h>

PetscReal DGPenaltyConstant(RefShape shape, PetscInt N)
{
  /* trace-inverse constants: (N+1)(N+d)/d on d-simplices (Shahbazi 2005), (N+1)^2 on tensor shapes;
   * prisms take the larger of their triangle and segment factors */
  switch (shape) {
  case REF_TRIANGLE:
  case REF_PRISM:
    return 0.5 * (N + 1) * (N + 2);
  case REF_TETRAHEDRON:
    return (N + 1) * (N + 3) / 3.0;
  default:
    return (PetscReal)(N + 1) * (N + 1);
  }
}

PetscErrorCode DiscGetDG(Disc disc, const char what[], DGDisc **dg)
{
  PetscFunctionBeginUser;
  PetscCheck(!strcmp(disc->type, "ipdg"), PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_SUP, "%s needs the nodal DG discretization (-disc ipdg), not -disc %s", what, disc->type);
  *dg = (DGDisc *)disc->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscGetUniformRef(DGDisc *dg, const char what[], RefElement **ref)
{
  PetscFunctionBeginUser;
  PetscCheck(dg->ref, PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "Mesh %s mixes element shapes; %s needs one element shape", dg->mesh->source, what);
  /* affine and curved blocks of one shape share the reference element (blocks[0].ref) */
  *ref = dg->ref;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block of element l. */
static const DGBlock *DGElementBlock(const DGDisc *dg, PetscInt l)
{
  return &dg->blocks[dg->mesh->elem_block[l]];
}

/* Node coordinates. On a mesh without curved blocks no kernel reads them (the element maps are affine:
 * hoflow/geom.h), so dg->x (K_local Np dim reals: 309 MB at 19.3 M DOFs, first touched per p-level) is
 * built on first use by DGDiscGetNodeCoordinates, and the set-up (trace maps) and the boundary data take
 * the few coordinates they need from DGDiscNodeCoordinate, the same GeomAffineMap: the same bits. Meshes
 * with curved blocks build dg->x in DGDiscSetUp (DGCurvedSetUp writes their nodes). */
static void DGDiscAffineNodeCoordinate(const DGDisc *dg, PetscInt l, PetscInt i, PetscReal x[])
{
  const RefElement *ref = DGElementBlock(dg, l)->ref;

  GeomAffineMap(ref->shape, (int)dg->dim, dg->mesh->vertices + l * HOFLOW_VERTS_MAX * dg->dim, ref->xi + i * dg->dim, x);
}

static void DGDiscNodeCoordinate(const DGDisc *dg, PetscInt l, PetscInt i, PetscReal x[])
{
  if (dg->x)
    for (PetscInt d = 0; d < dg->dim; d++) x[d] = dg->x[(dg->elem_node[l] + i) * dg->dim + d];
  else
    DGDiscAffineNodeCoordinate(dg, l, i, x);
}

PetscErrorCode DGDiscGetNodeCoordinates(DGDisc *dg, const PetscReal **x)
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim  = dg->dim;

  PetscFunctionBeginUser;
  if (!dg->x) {
    PetscCall(PetscMalloc1(dg->nodes_local * dim, &dg->x));
    for (PetscInt l = 0; l < mesh->Klocal; l++) {
      const DGBlock *blk = DGElementBlock(dg, l);
      if (blk->curved) continue; /* DGCurvedSetUp's */
      for (PetscInt i = 0; i < blk->ref->Np; i++) DGDiscAffineNodeCoordinate(dg, l, i, dg->x + (dg->elem_node[l] + i) * dim);
    }
  }
  *x = dg->x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Storage order of the DG section: the elements (cells) in element order, then every other point. */
static PetscErrorCode DGDiscCreateSection(DGDisc *dg)
{
  Mesh        *mesh = dg->mesh;
  PetscSection section, gsection;
  PetscInt     pStart, pEnd, *perm, n = 0, rstart;
  IS           is;

  PetscFunctionBeginUser;
  PetscCall(DMClone(mesh->dm, &dg->dm));
  PetscCall(PetscSectionCreate(PetscObjectComm((PetscObject)mesh->dm), &section));
  PetscCall(DMPlexGetChart(dg->dm, &pStart, &pEnd));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  PetscCall(PetscMalloc1(pEnd - pStart, &perm));
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    PetscCall(PetscSectionSetDof(section, mesh->elem_cell[l], DGElementBlock(dg, l)->Np));
    perm[n++] = mesh->elem_cell[l];
  }
  for (PetscInt p = pStart; p < pEnd; p++)
    if (p >= mesh->Klocal) perm[n++] = p; /* cells are the points 0..Klocal-1 */
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, perm, PETSC_OWN_POINTER, &is));
  PetscCall(PetscSectionSetPermutation(section, is));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(dg->dm, section));
  /* kernels write owned element e at elem_node[e] of the global and the local array: check the sections agree */
  PetscCall(DMGetGlobalSection(dg->dm, &gsection));
  PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[0], &rstart));
  for (PetscInt e = 0; e < mesh->K; e++) {
    PetscInt off, loff;
    PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[e], &off));
    PetscCall(PetscSectionGetOffset(section, mesh->elem_cell[e], &loff));
    PetscCheck(off == rstart + dg->elem_node[e] && loff == dg->elem_node[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "DG layout is not in element order");
  }
  PetscCall(PetscSectionDestroy(&section));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The centroid of face f of element l from the element's own vertices. */
static void FaceCentroid(const Mesh *mesh, PetscInt l, PetscInt f, PetscReal c[])
{
  const RefShapeInfo *info = &RefShapeTable[MeshElementShape(mesh, l)];
  const PetscInt      dim = mesh->dim, nfv = info->face_nverts[f];

  for (PetscInt d = 0; d < dim; d++) {
    c[d] = 0;
    for (PetscInt v = 0; v < nfv; v++) c[d] += mesh->vertices[(l * HOFLOW_VERTS_MAX + info->face_verts[f][v]) * dim + d] / nfv;
  }
}

/* The face-node permutation of face f of element e onto face g of its neighbour nb by matching node
 * coordinates (robust to any orientation): perm[i] = j where face node i of e sits at face node j of nb,
 * after removing the periodic shift. Errors where the faces do not match. */
static PetscErrorCode DGTraceFaceSearch(const DGDisc *dg, PetscInt e, PetscInt f, PetscInt nb, PetscInt g, const PetscReal shift[], PetscReal shift_norm, PetscReal tol, PetscInt perm[])
{
  const Mesh       *mesh = dg->mesh;
  const PetscInt    dim  = dg->dim;
  const RefElement *ref = DGElementBlock(dg, e)->ref, *rnb = DGElementBlock(dg, nb)->ref;
  PetscReal         xP[(HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1)][3];

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < rnb->Nfp[g]; j++) DGDiscNodeCoordinate(dg, nb, rnb->face_nodes[rnb->face_offset[g] + j], xP[j]);
  for (PetscInt i = 0; i < ref->Nfp[f]; i++) {
    PetscReal xM[3], best = PETSC_MAX_REAL;
    DGDiscNodeCoordinate(dg, e, ref->face_nodes[ref->face_offset[f] + i], xM);
    /* the nearest node; the first within tol is it (face nodes lie O(h/N) apart, tol is 1e-8 h) */
    for (PetscInt j = 0; j < rnb->Nfp[g] && !(best < tol * tol); j++) {
      PetscReal d2 = 0;
      for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(xP[j][d] - shift[d] - xM[d]);
      if (d2 < best) {
        best    = d2;
        perm[i] = j;
      }
    }
    best = PetscSqrtReal(best);
    if (!(best < tol)) {
      char xs[64], ss[64];
      PetscCheck(shift_norm <= tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: periodic faces that do not match: face node %s of face %" PetscInt_FMT " of cell %" PetscInt_FMT " has no node of face %" PetscInt_FMT " of neighbour cell %" PetscInt_FMT " within %g after the periodic shift %s (the nearest is %g away)", mesh->source,
                 MeshFormatPoint(dim, xM, xs, sizeof(xs)), f, mesh->elem_cell[e], g, mesh->elem_cell[nb], (double)tol, MeshFormatPoint(dim, shift, ss, sizeof(ss)), (double)best);
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: face node %s of cell %" PetscInt_FMT " has no matching node in neighbour cell %" PetscInt_FMT " (distance %g); the mesh is not conforming", mesh->source, MeshFormatPoint(dim, xM, xs, sizeof(xs)), mesh->elem_cell[e], mesh->elem_cell[nb], (double)best);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vertex correspondence of face f of element e with face g of nb (vertex a of ours is vertex sigma[a]
 * of theirs: the same global vertex, which the mesh has checked moves by the periodic translation across
 * a periodic face, MeshCheckFaceTranslation) as its rank among the permutations of the face's vertices
 * (0..23), or -1 where the vertices do not pair up one to one. */
static PetscInt DGTraceFaceVertexOrientation(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt nb, PetscInt g)
{
  const RefShapeInfo *ie = &RefShapeTable[MeshElementShape(mesh, e)], *in = &RefShapeTable[MeshElementShape(mesh, nb)];
  const PetscInt      nfv = ie->face_nverts[f], *gide = mesh->vertex_gid + e * HOFLOW_VERTS_MAX, *gidn = mesh->vertex_gid + nb * HOFLOW_VERTS_MAX;
  PetscInt            sigma[4], used = 0, rank = 0;

  if (in->face_nverts[g] != nfv) return -1;
  for (PetscInt a = 0; a < nfv; a++) {
    sigma[a] = -1;
    for (PetscInt b = 0; b < nfv && sigma[a] < 0; b++)
      if (gidn[in->face_verts[g][b]] == gide[ie->face_verts[f][a]] && !(used & (1 << b))) sigma[a] = b;
    if (sigma[a] < 0) return -1;
    used |= 1 << sigma[a];
  }
  for (PetscInt a = 0; a < nfv; a++) { /* the Lehmer code: sigma[a] among the values not yet taken */
    PetscInt smaller = 0;
    for (PetscInt c = a + 1; c < nfv; c++) smaller += sigma[c] < sigma[a];
    rank = rank * (nfv - a) + smaller;
  }
  return rank;
}

#define DG_TRACE_ORIENTATIONS 24 /* permutations of up to 4 face vertices */

/* vmapP, the neighbour's node of every face node. Which face node of the neighbour sits at ours depends
 * only on the two elements' shapes, the two face numbers and the vertex correspondence of the face (2
 * cases on an edge, 6 on a triangle, 8 on a quadrilateral), so the face-node permutation is found once
 * per such key by matching node coordinates (DGTraceFaceSearch) and reused. Between two affine elements
 * the reused permutation is exact (both sides' face nodes are the same affine image of the reference
 * face's nodes); where either element is curved, each node is checked to sit on its partner (one
 * distance per node), else that face is matched by coordinates. The maps are those of matching every
 * face by coordinates: the partner within 1e-8 h is unique (face nodes lie O(h/N) apart). Across a
 * periodic face each element has its own coordinates, so the neighbour's nodes sit one period away: the
 * match removes that shift, the difference of the face's centroids seen from the two sides (zero on
 * ordinary faces; the mesh has checked that it is a translation of the whole face). */
static PetscErrorCode DGDiscBuildTraceMaps(DGDisc *dg)
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim = dg->dim, nkeys = PetscSqr(REF_NUM_SHAPES * HOFLOW_FACES_MAX) * DG_TRACE_ORIENTATIONS;
  PetscInt     **cache, perm[(HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1)];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(dg->elem_fnode[mesh->K], &dg->vmapP));
  PetscCall(PetscCalloc1(nkeys, &cache));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const DGBlock    *blk = DGElementBlock(dg, e);
    const RefElement *ref = blk->ref;
    for (PetscInt f = 0; f < ref->Nfaces; f++) {
      const PetscInt  slot = mesh->face_slot[e] + f, nb = mesh->face_elem[slot], g = mesh->face_face[slot], nfp = ref->Nfp[f];
      PetscInt       *vmapP = dg->vmapP + dg->elem_fnode[e] + ref->face_offset[f];
      const PetscInt *fnM   = ref->face_nodes + ref->face_offset[f];

      if (nb < 0) {
        for (PetscInt i = 0; i < nfp; i++) vmapP[i] = dg->elem_node[e] + fnM[i];
        continue;
      }
      {
        const DGBlock    *bnb = DGElementBlock(dg, nb);
        const RefElement *rnb = bnb->ref;
        const PetscInt   *fnP = rnb->face_nodes + rnb->face_offset[g];
        const PetscInt    o   = DGTraceFaceVertexOrientation(mesh, e, f, nb, g);
        const PetscInt    key = o < 0 || rnb->Nfp[g] != nfp ? -1 : ((((PetscInt)MeshElementShape(mesh, e) * HOFLOW_FACES_MAX + f) * REF_NUM_SHAPES + (PetscInt)MeshElementShape(mesh, nb)) * HOFLOW_FACES_MAX + g) * DG_TRACE_ORIENTATIONS + o;
        const PetscInt   *p   = key >= 0 ? cache[key] : NULL;

        if (!p || blk->curved || bnb->curved) { /* match by coordinates, or check the reused permutation */
          const PetscReal tol      = 1e-8 * PetscPowReal(mesh->face_measure[slot], 1.0 / (dim - 1));
          PetscReal       shift[3] = {0, 0, 0}, shift_norm = 0, ce[3], cn[3];
          PetscBool       match = (PetscBool)(p != NULL);
          FaceCentroid(mesh, e, f, ce);
          FaceCentroid(mesh, nb, g, cn);
          for (PetscInt d = 0; d < dim; d++) {
            shift[d] = cn[d] - ce[d];
            shift_norm += PetscSqr(shift[d]);
          }
          shift_norm = PetscSqrtReal(shift_norm);
          for (PetscInt i = 0; i < nfp && match; i++) {
            PetscReal xM[3], xP[3], d2 = 0;
            DGDiscNodeCoordinate(dg, e, fnM[i], xM);
            DGDiscNodeCoordinate(dg, nb, fnP[p[i]], xP);
            for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(xP[d] - shift[d] - xM[d]);
            match = (PetscBool)(d2 < tol * tol);
          }
          if (!match) {
            PetscCall(DGTraceFaceSearch(dg, e, f, nb, g, shift, shift_norm, tol, perm));
            if (key >= 0 && !p) {
              PetscCall(PetscMalloc1(nfp, &cache[key]));
              PetscCall(PetscArraycpy(cache[key], perm, nfp));
            }
            p = perm;
          }
        }
        for (PetscInt i = 0; i < nfp; i++) vmapP[i] = dg->elem_node[nb] + fnP[p[i]];
      }
    }
  }
  for (PetscInt k = 0; k < nkeys; k++) PetscCall(PetscFree(cache[k]));
  PetscCall(PetscFree(cache));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Face factors: normal, sJ/J and the penalty of eq. (14), tau = C_N max(|F|/|E-|, |F|/|E+|) with the
 * trace-inverse constant C_N of each element's shape (DGPenaltyConstant). */
static PetscErrorCode DGDiscBuildFaceFactors(DGDisc *dg)
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim = dg->dim, ss = HOFLOW_SGEO_SIZE(dim);

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(mesh->nslots * ss, &dg->sgeo));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefShape      shape = MeshElementShape(mesh, e);
    const RefShapeInfo *info  = &RefShapeTable[shape];
    const PetscReal     J     = mesh->geo[e * HOFLOW_GEO_SIZE(dim) + HOFLOW_GEO_J(dim)];
    for (PetscInt f = 0; f < info->nfaces; f++) {
      const PetscInt slot = mesh->face_slot[e] + f, nb = mesh->face_elem[slot];
      PetscReal     *sg  = dg->sgeo + slot * ss;
      PetscReal      tau = dg->penalty_scale * DGPenaltyConstant(shape, dg->N) * (mesh->face_measure[slot] / mesh->measure[e]);
      if (nb >= 0) tau = PetscMax(tau, dg->penalty_scale * DGPenaltyConstant(MeshElementShape(mesh, nb), dg->N) * (mesh->face_measure[slot] / mesh->measure[nb]));
      for (PetscInt d = 0; d < dim; d++) sg[d] = mesh->face_normal[slot * dim + d];
      sg[HOFLOW_SGEO_SJ_OVER_J(dim)] = mesh->face_measure[slot] / RefShapeTable[info->face_shape[f]].measure / J;
      sg[HOFLOW_SGEO_TAU(dim)]       = tau;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload the element-wise kernel data of every block (the DG shell's device setup). */
static PetscErrorCode DGDiscDeviceSetUp(void *ctx)
{
  DGDisc *dg = (DGDisc *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const DGKernelData *h   = &dg->blocks[b].kd;
    DGKernelData       *d   = &dg->blocks[b].kd_device;
    const size_t        np2 = (size_t)h->Np * h->Np;
    *d                      = *h;
    PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->geo, sizeof(double) * h->K * HOFLOW_GEO_SIZE(h->dim), (const void **)&d->geo));
    PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->M, sizeof(double) * np2, (const void **)&d->M));
    PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->Minv, sizeof(double) * np2, (const void **)&d->Minv));
    PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->Iq, sizeof(double) * h->Nq * h->Np, (const void **)&d->Iq));
    PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->wq, sizeof(double) * h->Nq, (const void **)&d->wq));
    if (h->N1) {
      const size_t n1 = (size_t)h->N1 * h->N1;
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->M1, sizeof(double) * n1, (const void **)&d->M1));
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->M1inv, sizeof(double) * n1, (const void **)&d->M1inv));
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->B1, sizeof(double) * n1, (const void **)&d->B1));
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->B1T, sizeof(double) * n1, (const void **)&d->B1T));
    }
    if (dg->blocks[b].curved) { /* the inverse element masses follow when an inverse-mass operator needs them */
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->wJq, sizeof(double) * h->K * h->Nq, (const void **)&d->wJq));
      PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, NULL, sizeof(double) * PetscMax(1, h->K * h->Nq), (const void **)&d->work));
      d->Minve = NULL;
      if (h->Minve) PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, h->Minve, sizeof(double) * h->K * np2, (const void **)&d->Minve));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The affine map of hoflow/geom.h at the cubature points as weights of the vertices: x_q = sum_v
 * Aq[q*nv + v] X_v (the map is linear in the vertices: GeomAffineMap of the v-th unit vertex set). */
static PetscErrorCode DGDiscAffineCubatureWeights(const RefElement *ref, PetscInt dim, PetscReal **Aq)
{
  const PetscInt nv = RefShapeTable[ref->shape].nverts;
  PetscReal      vert[HOFLOW_VERTS_MAX * 3], x[3];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(ref->Nq * nv, Aq));
  for (PetscInt v = 0; v < nv; v++) {
    PetscCall(PetscArrayzero(vert, HOFLOW_VERTS_MAX * 3));
    vert[v * dim] = 1.0;
    for (PetscInt q = 0; q < ref->Nq; q++) {
      GeomAffineMap(ref->shape, (int)dim, vert, ref->xiq + q * dim, x);
      (*Aq)[q * nv + v] = x[0];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f at the cubature points of every owned element of block b, [K_b*Nq], where the kernels read it: a host
 * array *fq (PetscFree) or, on_device, a device array *d_fq (HoflowDeviceFreeChecked). Where f has a closed
 * form (PointFunctionGetClosedForm) on an affine block, a kernel evaluates it where the vector lies (on the
 * device from the block's vertices: the host no longer evaluates 32 M points at 19.3 M DOFs); else f at
 * each point on the host, uploaded for the device. */
static PetscErrorCode DGDiscCubatureValues(DGDisc *dg, PetscInt b, PointFunction f, void *ctx, PetscBool on_device, PetscReal **fq, void **d_fq)
{
  const Mesh       *mesh = dg->mesh;
  const DGBlock    *blk  = &dg->blocks[b];
  const MeshBlock  *mb   = &mesh->blocks[b];
  const RefElement *ref  = blk->ref;
  const PetscInt    dim = dg->dim, K = mb->end - mb->start, vstride = HOFLOW_VERTS_MAX * dim;
  HoflowClosedForm  cf;

  PetscFunctionBeginUser;
  *fq   = NULL;
  *d_fq = NULL;
  PetscCall(PointFunctionGetClosedForm(f, ctx, &cf));
  if (cf.kind != HOFLOW_CLOSED_FORM_NONE && !blk->curved) {
    const PetscInt   nv    = RefShapeTable[ref->shape].nverts;
    const PetscReal *verts = mesh->vertices + mb->start * vstride;
    PetscReal       *Aq;
    if (!on_device) {
      PetscCall(DGDiscAffineCubatureWeights(ref, dim, &Aq));
      PetscCall(PetscMalloc1(K * ref->Nq, fq));
      DGClosedFormAtCubatureHost(&blk->kd, (int)nv, (int)vstride, Aq, verts, &cf, *fq);
      PetscCall(PetscFree(Aq));
    } else {
      DGBlock *dblk = &dg->blocks[b];
      if (!dblk->closed_Aq_device) { /* once: a time-dependent closed form copies nothing but its result */
        PetscCall(DGDiscAffineCubatureWeights(ref, dim, &Aq));
        PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, Aq, sizeof(double) * ref->Nq * nv, &dblk->closed_Aq_device));
        PetscCall(HoflowDeviceArraysUpload(&dg->shell.device, verts, sizeof(double) * PetscMax(1, K * vstride), &dblk->vertices_device));
        PetscCall(PetscFree(Aq));
      }
      PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * PetscMax(1, K * ref->Nq), d_fq));
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(DGClosedFormAtCubatureCUDA(&blk->kd_device, (int)nv, (int)vstride, (const double *)dblk->closed_Aq_device, (const double *)dblk->vertices_device, &cf, (double *)*d_fq)), "closed form at the cubature points"));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(K * ref->Nq, fq));
  for (PetscInt e = mb->start; e < mb->end; e++)
    for (PetscInt q = 0; q < ref->Nq; q++) {
      PetscReal x[3];
      if (blk->curved)
        for (PetscInt d = 0; d < dim; d++) x[d] = blk->cv->xq[((e - mb->start) * ref->Nq + q) * dim + d];
      else
        GeomAffineMap(ref->shape, (int)dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, ref->xiq + q * dim, x);
      PetscCall(f(x, &(*fq)[(e - mb->start) * ref->Nq + q], NULL, ctx));
    }
  if (on_device) {
    PetscCall(HoflowDeviceUploadChecked(*fq, sizeof(double) * PetscMax(1, K * ref->Nq), d_fq));
    PetscCall(PetscFree(*fq));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGIntegrate(Disc disc, PointFunction f, void *ctx, Vec bvec)
{
  DGDisc      *dg = (DGDisc *)disc->data;
  PetscScalar *ba;
  PetscBool    on_device;
  PetscReal    flops = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscCall(OpShellBegin(&dg->shell, bvec, &on_device));
  PetscCall(OpShellGetArray(&dg->shell, bvec, &ba));
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    DGBlock   *blk = &dg->blocks[b];
    PetscReal *fq;
    void      *d_fq;
    blk->kd_device.stream = dg->shell.stream;
    PetscCall(DGDiscCubatureValues(dg, b, f, ctx, on_device, &fq, &d_fq));
    if (!on_device) {
      if (blk->curved)
        DGCurvedWeightedIntegralHost(&blk->kd, fq, ba);
      else
        DGWeightedIntegralHost(&blk->kd, fq, ba);
    } else {
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(blk->curved ? DGCurvedWeightedIntegralCUDA(&blk->kd_device, (const double *)d_fq, ba) : DGWeightedIntegralCUDA(&blk->kd_device, (const double *)d_fq, ba)), "right-hand side"));
      PetscCall(HoflowDeviceFreeChecked(d_fq)); /* cudaFree waits for the kernel */
    }
    PetscCall(PetscFree(fq));
    flops += 3.0 * blk->kd.K * blk->kd.Nq * blk->kd.Np;
  }
  PetscCall(OpShellRestoreArray(&dg->shell, bvec, &ba));
  PetscCall(PetscLogFlops(flops));
  PetscCall(PetscLogEventEnd(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGL2Error(Disc disc, Vec u, PointFunction f, void *ctx, PetscReal *error)
{
  DGDisc            *dg = (DGDisc *)disc->data;
  const PetscScalar *ua;
  PetscReal          sum = 0, flops = 0;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGError, 0, 0, 0, 0));
  PetscCall(OpShellBegin(&dg->shell, u, &on_device));
  PetscCall(OpShellGetArrayRead(&dg->shell, u, &ua));
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    DGBlock   *blk = &dg->blocks[b];
    PetscReal *eq, *err2;
    void      *d_eq;
    blk->kd_device.stream = dg->shell.stream;
    PetscCall(DGDiscCubatureValues(dg, b, f, ctx, on_device, &eq, &d_eq));
    PetscCall(PetscMalloc1(blk->kd.K, &err2));
    if (!on_device) {
      if (blk->curved)
        DGCurvedErrorHost(&blk->kd, ua, eq, err2);
      else
        DGErrorHost(&blk->kd, ua, eq, err2);
    } else {
      void *d_err2;
      PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * PetscMax(1, blk->kd.K), &d_err2));
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(blk->curved ? DGCurvedErrorCUDA(&blk->kd_device, ua, (const double *)d_eq, (double *)d_err2) : DGErrorCUDA(&blk->kd_device, ua, (const double *)d_eq, (double *)d_err2)), "L2 error"));
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(HoflowDeviceDownload(err2, d_err2, sizeof(double) * blk->kd.K, dg->shell.stream)), "copy of the element errors")); /* K numbers, after the solve */
      PetscCall(HoflowDeviceFreeChecked(d_eq));
      PetscCall(HoflowDeviceFreeChecked(d_err2));
    }
    for (PetscInt e = 0; e < blk->kd.K; e++) sum += err2[e];
    PetscCall(PetscFree(eq));
    PetscCall(PetscFree(err2));
    flops += (2.0 * blk->kd.Np + 4.0) * blk->kd.K * blk->kd.Nq;
  }
  PetscCall(OpShellRestoreArrayRead(&dg->shell, u, &ua));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)dg->dm)));
  *error = PetscSqrtReal(sum);
  PetscCall(PetscLogFlops(flops));
  PetscCall(PetscLogEventEnd(HOFLOW_DGError, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscBoundaryData(DGDisc *dg, const PetscInt face_type[], PointFunction fn, void *ctx, PetscReal **bc_data)
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim  = dg->dim;

  PetscFunctionBeginUser;
  if (!face_type) face_type = mesh->face_type;
  PetscCall(PetscCalloc1(dg->elem_fnode[mesh->K], bc_data));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const DGBlock    *blk = DGElementBlock(dg, e);
    const RefElement *ref = blk->ref;
    for (PetscInt f = 0; f < ref->Nfaces; f++) {
      const PetscInt   slot = mesh->face_slot[e] + f, type = face_type[slot];
      const PetscReal *n = mesh->face_normal + slot * dim;
      PetscReal        nref[3], ratio;
      if (type == HOFLOW_FACE_INTERIOR) continue;
      if (blk->curved) GeomReferenceFace(ref->shape, (int)f, nref, &ratio);
      for (PetscInt i = 0; i < ref->Nfp[f]; i++) {
        PetscReal u, grad[3] = {0, 0, 0}, gn = 0, nc[3], xn[3];
        if (blk->curved) { /* the normal at this face node: (dr/dx)^T nref, normalized (Nanson) */
          const PetscReal *G   = blk->cv->Gn + ((e - dg->mesh->blocks[mesh->elem_block[e]].start) * ref->Np + ref->face_nodes[ref->face_offset[f] + i]) * dim * dim;
          PetscReal        len = 0;
          for (PetscInt j = 0; j < dim; j++) {
            nc[j] = 0;
            for (PetscInt d = 0; d < dim; d++) nc[j] += G[j * dim + d] * nref[d];
            len += nc[j] * nc[j];
          }
          for (PetscInt j = 0; j < dim; j++) nc[j] /= PetscSqrtReal(len);
          n = nc;
        }
        DGDiscNodeCoordinate(dg, e, ref->face_nodes[ref->face_offset[f] + i], xn);
        PetscCall(fn(xn, &u, grad, ctx));
        for (PetscInt d = 0; d < dim; d++) gn += n[d] * grad[d];
        (*bc_data)[dg->elem_fnode[e] + ref->face_offset[f] + i] = type == HOFLOW_FACE_DIRICHLET ? u : gn;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  DGDisc *dg = (DGDisc *)disc->data;

  PetscFunctionBeginUser;
  *n = dg->nodes;
  if (x) PetscCall(DGDiscGetNodeCoordinates(dg, x));
  if (elem_point) *elem_point = dg->elem_node;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGGetSubCells(Disc disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells)
{
  DGDisc        *dg   = (DGDisc *)disc->data;
  const Mesh    *mesh = dg->mesh;
  const PetscInt nb   = dg->nblocks;
  PetscInt       nsub[MESH_MAX_BLOCKS], *sub[MESH_MAX_BLOCKS], len = 0, k = 0;
  PetscBool      mixed = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCheck(nb <= MESH_MAX_BLOCKS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " element blocks", nb);
  for (PetscInt b = 0; b < nb; b++) {
    PetscCall(RefElementSubCells(dg->blocks[b].ref, &nsub[b], &sub[b]));
    if (dg->blocks[b].ref->shape != dg->blocks[0].ref->shape) mixed = PETSC_TRUE;
  }
  /* mixed: every rank writes the (shape, points) layout, so ranks holding one shape agree with the others */
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &mixed, 1, MPIU_BOOL, MPI_LOR, PetscObjectComm((PetscObject)dg->dm)));
  *ncells = 0;
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefElement *ref = dg->blocks[mesh->elem_block[e]].ref;
    *ncells += nsub[mesh->elem_block[e]];
    len += nsub[mesh->elem_block[e]] * (ref->Nverts + (mixed ? 1 : 0));
  }
  PetscCall(PetscMalloc1(len, cells));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt    b   = mesh->elem_block[e];
    const RefElement *ref = dg->blocks[b].ref;
    const PetscInt    nv  = ref->Nverts;
    for (PetscInt c = 0; c < nsub[b]; c++) {
      if (mixed) (*cells)[k++] = ref->shape;
      for (PetscInt v = 0; v < nv; v++) (*cells)[k++] = dg->elem_node[e] + sub[b][c * nv + v];
    }
  }
  for (PetscInt b = 0; b < nb; b++) PetscCall(PetscFree(sub[b]));
  *nverts = mixed ? 0 : (nb ? dg->blocks[0].ref->Nverts : RefShapeTable[MeshElementShape(mesh, 0)].nverts);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element functions of order Ns (nodal values at the order-Ns nodes of the same shape) onto this
 * order N, element by element. On the element itself (src_vertices NULL) one matrix serves every
 * element: for N >= Ns the interpolation at the order-N nodes, exact (a polynomial of degree Ns <= N
 * is its own interpolant); for N < Ns the L2 projection M^{-1} Iq^T W Is, Is the order-Ns basis at a
 * cubature exact to degree N + Ns (the element's Jacobian cancels: maps are affine). On a child of
 * the source element (a refined mesh) the same with the child's points mapped into the parent's
 * reference coordinates: the parent's polynomial restricted to the affine child is again of degree
 * Ns in the child's coordinates, so both cases stay exact. */
static PetscErrorCode DGProjectElements(Disc disc, PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  DGDisc          *dg   = (DGDisc *)disc->data;
  const Mesh      *mesh = dg->mesh;
  const PetscInt   dim = dg->dim, N = dg->N;
  const PetscBool  l2 = Ns > N ? PETSC_TRUE : PETSC_FALSE;
  RefElement      *ref, *sref;
  PetscInt         Np, Nps, nv, npts, nq = 0;
  PetscReal       *xq = NULL, *wq = NULL, *B = NULL, *pts, *Is, *P;
  const PetscReal *ref_pts;
  PetscScalar    **ua;

  PetscFunctionBeginUser;
  PetscCall(DGDiscGetUniformRef(dg, "a restart onto another order or a refined mesh", &ref));
  PetscCall(RefElementCreate(ref->shape, Ns, &sref));
  Np  = ref->Np;
  Nps = sref->Np;
  nv  = ref->Nverts;
  if (l2) {
    PetscReal *Iq;
    PetscCall(RefElementCubature(ref->shape, N + Ns, &nq, &xq, &wq));
    PetscCall(PetscMalloc1(nq * Np, &Iq));
    PetscCall(PetscMalloc1(Np * nq, &B));
    PetscCall(RefElementInterpolationMatrix(ref, nq, xq, Iq));
    /* B = M^{-1} Iq^T W: B[i][q] = sum_j Minv[i][j] Iq[q][j] w_q */
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt q = 0; q < nq; q++) {
        PetscReal sum = 0;
        for (PetscInt j = 0; j < Np; j++) sum += ref->Minv[i * Np + j] * Iq[q * Np + j];
        B[i * nq + q] = sum * wq[q];
      }
    PetscCall(PetscFree(Iq));
  }
  npts    = l2 ? nq : Np;
  ref_pts = l2 ? xq : ref->xi;
  PetscCall(PetscMalloc3(npts * dim, &pts, npts * Nps, &Is, Np * Nps, &P));
  PetscCall(PetscMalloc1(n, &ua));
  for (PetscInt k = 0; k < n; k++) PetscCall(VecGetArrayWrite(u[k], &ua[k]));
  for (PetscInt e = 0; e < mesh->K; e++) {
    if (e == 0 || src_vertices) {
      if (!src_vertices)
        PetscCall(PetscArraycpy(pts, ref_pts, npts * dim));
      else
        for (PetscInt p = 0; p < npts; p++) {
          PetscReal x[3];
          GeomAffineMap(ref->shape, (int)dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, ref_pts + p * dim, x);
          GeomAffineInverseMap(ref->shape, (int)dim, src_vertices + e * nv * dim, x, pts + p * dim);
        }
      PetscCall(RefElementInterpolationMatrix(sref, npts, pts, Is));
      if (l2)
        DenseMatMult(Np, nq, Nps, B, Is, P);
      else
        PetscCall(PetscArraycpy(P, Is, Np * Nps));
    }
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *in  = src[k] + e * Nps;
      PetscScalar     *out = ua[k] + dg->elem_node[e];
      for (PetscInt i = 0; i < Np; i++) {
        PetscReal sum = 0;
        for (PetscInt j = 0; j < Nps; j++) sum += P[i * Nps + j] * in[j];
        out[i] = sum;
      }
    }
  }
  for (PetscInt k = 0; k < n; k++) PetscCall(VecRestoreArrayWrite(u[k], &ua[k]));
  PetscCall(PetscFree(ua));
  PetscCall(PetscFree3(pts, Is, P));
  PetscCall(PetscFree(xq));
  PetscCall(PetscFree(wq));
  PetscCall(PetscFree(B));
  PetscCall(RefElementDestroy(&sref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGDestroy(Disc disc)
{
  DGDisc *dg = (DGDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCall(OpShellDestroy(&dg->shell));
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    DGCurved *cv = dg->blocks[b].cv;
    PetscCall(RefElementDestroy(&dg->blocks[b].ref));
    PetscCall(PetscFree(dg->blocks[b].node_face));
    PetscCall(PetscFree(dg->blocks[b].tensor1));
    if (!cv) continue;
    for (PetscInt d = 0; d < HOFLOW_DIM_MAX; d++) PetscCall(PetscFree(cv->Dq[d]));
    PetscCall(PetscFree(cv->If));
    PetscCall(PetscFree(cv->Gn));
    PetscCall(PetscFree4(cv->vq, cv->wJq, cv->xq, cv->fq));
    PetscCall(PetscFree(cv->fperm));
    PetscCall(PetscFree(cv->Minve));
    PetscCall(PetscFree(dg->blocks[b].cv));
  }
  PetscCall(PetscFree2(dg->elem_node, dg->elem_fnode));
  PetscCall(PetscFree(dg->x));
  PetscCall(PetscFree(dg->vmapP));
  PetscCall(PetscFree(dg->sgeo));
  PetscCall(PetscFree(dg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Error naming the cell when a curved element's Jacobian is not positive at a point of the discretization. */
static PetscErrorCode DGCurvedCheckJacobian(const DGDisc *dg, PetscInt l, PetscReal J, const PetscReal x[], const char where[])
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim  = dg->dim;
  char           pbuf[96];

  PetscFunctionBeginUser;
  PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: curved %s cell %" PetscInt_FMT " is tangled or inverted: its Jacobian is %g at the %s point %s of the order-%" PetscInt_FMT " discretization (its geometry comes from %s)", mesh->source, RefShapeTable[MeshElementShape(mesh, l)].name, mesh->elem_cell[l], (double)J, where, MeshFormatPoint(dim, x, pbuf, sizeof(pbuf)), dg->N, mesh->geom_source);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of curved block b at this order (DGCurved), and the node coordinates of its elements. */
static PetscErrorCode DGCurvedSetUp(DGDisc *dg, PetscInt b)
{
  const Mesh         *mesh = dg->mesh;
  const MeshBlock    *mb   = &mesh->blocks[b];
  DGBlock            *blk  = &dg->blocks[b];
  const RefElement   *ref  = blk->ref;
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscInt      dim = dg->dim, Np = ref->Np, Nq = ref->Nq, npair = dim * (dim + 1) / 2, K = mb->end - mb->start, Kh = mb->halo_end - mb->halo_start, degree = 2 * dg->N + 1;
  DGCurved           *cv;
  MeshGeometryTable   tn, tq, tf[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];
  PetscReal          *fw[HOFLOW_FACES_MAX], nref[HOFLOW_FACES_MAX][3], ratio[HOFLOW_FACES_MAX], *x, *jac, g[HOFLOW_GEO_SIZE(3)];
  PetscInt            nIf = 0, nmax;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&blk->cv));
  cv     = blk->cv;
  cv->Nq = Nq;
  for (PetscInt d = 0; d < dim; d++) PetscCall(PetscMalloc1(Nq * Np, &cv->Dq[d]));
  PetscCall(RefElementDerivativeMatrices(ref, Nq, ref->xiq, cv->Dq));
  /* faces: points of every orientation, interpolation from the face nodes to them */
  cv->fq_offset[0] = 0;
  for (PetscInt f = 0; f < info->nfaces; f++) {
    const RefShape fs = info->face_shape[f];
    PetscInt       nz;
    PetscReal     *zeta, *w;
    PetscCall(RefElementCubature(fs, degree, &nz, &zeta, &w));
    cv->Nfq[f]           = nz;
    cv->fq_offset[f + 1] = cv->fq_offset[f] + nz;
    cv->NfqMax           = PetscMax(cv->NfqMax, nz);
    for (PetscInt o = 0; o < GeomFaceOrientations(fs); o++) {
      cv->if_offset[f][o] = nIf;
      nIf += nz * ref->Nfp[f];
    }
    PetscCall(PetscFree(zeta));
    PetscCall(PetscFree(w));
  }
  PetscCall(PetscMalloc1(nIf, &cv->If));
  for (PetscInt f = 0; f < info->nfaces; f++) {
    const RefShape fs  = info->face_shape[f];
    const PetscInt Nfp = ref->Nfp[f], fdim = dim - 1;
    PetscInt       nz;
    PetscReal     *zeta, *Vf, *Vfinv, *P, *fc;
    PetscCall(RefElementCubature(fs, degree, &nz, &zeta, &fw[f]));
    PetscCall(PetscMalloc4(Nfp * Nfp, &Vf, Nfp * Nfp, &Vfinv, nz * Nfp, &P, nz * fdim, &fc));
    PetscCall(RefElementModalBasis(fs, dg->N, Nfp, ref->face_xi + ref->face_offset[f] * fdim, Vf, NULL));
    PetscCall(DenseInvert(Nfp, Vf, Vfinv));
    GeomReferenceFace(ref->shape, (int)f, nref[f], &ratio[f]);
    for (PetscInt o = 0; o < GeomFaceOrientations(fs); o++) {
      const int *perm = GeomFaceOrientationPerm(fs, (int)o);
      PetscReal *exi, *ew;
      PetscInt   n;
      for (PetscInt q = 0; q < nz; q++) { /* the point in this face's own coordinates, frame o */
        PetscReal beta[4];
        GeomVertexFunctions(fs, zeta + q * fdim, beta, NULL);
        for (PetscInt k = 0; k < fdim; k++) {
          PetscReal sum = 0;
          for (PetscInt v = 0; v < RefShapeTable[fs].nverts; v++) sum += beta[v] * RefShapeTable[fs].verts[perm[v]][k];
          fc[q * fdim + k] = sum;
        }
      }
      PetscCall(RefElementModalBasis(fs, dg->N, nz, fc, P, NULL));
      DenseMatMult(nz, Nfp, Nfp, P, Vfinv, cv->If + cv->if_offset[f][o]);
      PetscCall(MeshFaceCubature(ref->shape, f, o, degree, &n, &exi, &ew));
      PetscCall(MeshGeometryTableCreate(mesh, ref->shape, n, exi, &tf[f][o]));
      PetscCall(PetscFree(exi));
      PetscCall(PetscFree(ew));
    }
    PetscCall(PetscFree(zeta));
    PetscCall(PetscFree4(Vf, Vfinv, P, fc));
  }
  PetscCall(MeshGeometryTableCreate(mesh, ref->shape, Np, ref->xi, &tn));
  PetscCall(MeshGeometryTableCreate(mesh, ref->shape, Nq, ref->xiq, &tq));
  nmax = PetscMax(PetscMax(Np, Nq), cv->NfqMax);
  PetscCall(PetscMalloc2(nmax * dim, &x, nmax * dim * dim, &jac));
  PetscCall(PetscMalloc1((K + Kh) * Np * dim * dim, &cv->Gn));
  PetscCall(PetscMalloc4(K * Nq * (npair + 1), &cv->vq, K * Nq, &cv->wJq, K * Nq * dim, &cv->xq, K * cv->fq_offset[info->nfaces] * (dim + 1), &cv->fq));
  PetscCall(PetscMalloc1(K * info->nfaces, &cv->fperm));
  for (PetscInt k = 0; k < K + Kh; k++) {
    const PetscInt l = k < K ? mb->start + k : mb->halo_start + (k - K);
    /* nodes: coordinates and metric terms */
    MeshCurvedElementMap(mesh, &tn, l, x, jac);
    for (PetscInt i = 0; i < Np; i++) {
      const PetscReal J = GeomMetricFromJacobian((int)dim, jac + i * dim * dim, g);
      PetscCall(DGCurvedCheckJacobian(dg, l, J, x + i * dim, "node"));
      for (PetscInt j = 0; j < dim * dim; j++) cv->Gn[(k * Np + i) * dim * dim + j] = g[j];
      for (PetscInt d = 0; d < dim; d++) dg->x[(dg->elem_node[l] + i) * dim + d] = x[i * dim + d];
    }
    if (k >= K) continue;
    /* cubature points: w J G G^T, w J, the points */
    MeshCurvedElementMap(mesh, &tq, l, x, jac);
    for (PetscInt q = 0; q < Nq; q++) {
      const PetscReal J = GeomMetricFromJacobian((int)dim, jac + q * dim * dim, g), wJ = ref->wq[q] * J;
      PetscReal      *vq = cv->vq + (k * Nq + q) * (npair + 1);
      PetscInt        p  = 0;
      PetscCall(DGCurvedCheckJacobian(dg, l, J, x + q * dim, "cubature"));
      for (PetscInt a = 0; a < dim; a++)
        for (PetscInt bb = a; bb < dim; bb++, p++) {
          PetscReal sum = 0;
          for (PetscInt j = 0; j < dim; j++) sum += g[j * dim + a] * g[j * dim + bb];
          vq[p] = wJ * sum;
        }
      vq[npair]           = wJ;
      cv->wJq[k * Nq + q] = wJ;
      for (PetscInt d = 0; d < dim; d++) cv->xq[(k * Nq + q) * dim + d] = x[q * dim + d];
    }
    /* face points in the face's canonical frame: normal and w sJ (Nanson) */
    for (PetscInt f = 0; f < info->nfaces; f++) {
      const PetscInt o                = MeshFaceOrientation(mesh, l, f);
      cv->fperm[k * info->nfaces + f] = o;
      MeshCurvedElementMap(mesh, &tf[f][o], l, x, jac);
      for (PetscInt q = 0; q < cv->Nfq[f]; q++) {
        PetscReal *fq = cv->fq + (k * cv->fq_offset[info->nfaces] + cv->fq_offset[f] + q) * (dim + 1);
        PetscReal  dA = GeomFaceNormalFromJacobian((int)dim, jac + q * dim * dim, nref[f], fq);
        PetscCall(DGCurvedCheckJacobian(dg, l, dA > 0 ? 1.0 : 0.0, x + q * dim, "face"));
        fq[dim] = fw[f][q] * ratio[f] * dA;
      }
    }
  }
  PetscCall(PetscFree2(x, jac));
  PetscCall(MeshGeometryTableDestroy(&tn));
  PetscCall(MeshGeometryTableDestroy(&tq));
  for (PetscInt f = 0; f < info->nfaces; f++) {
    PetscCall(PetscFree(fw[f]));
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) PetscCall(MeshGeometryTableDestroy(&tf[f][o]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscCurvedInverseMass(DGDisc *dg)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    DGBlock          *blk = &dg->blocks[b];
    const RefElement *ref = blk->ref;
    const PetscInt    Np = ref->Np, Nq = ref->Nq, K = blk->kd.K;
    PetscReal        *M;
    if (!blk->curved || blk->cv->Minve) continue;
    PetscCall(PetscMalloc1(PetscMax(1, K * Np * Np), &blk->cv->Minve));
    PetscCall(PetscMalloc1(Np * Np, &M));
    for (PetscInt k = 0; k < K; k++) { /* M_e = Iq^T diag(w J) Iq, inverted */
      const PetscReal *wJ = blk->cv->wJq + k * Nq;
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt j = 0; j < Np; j++) {
          PetscReal sum = 0;
          for (PetscInt q = 0; q < Nq; q++) sum += ref->Iq[q * Np + i] * wJ[q] * ref->Iq[q * Np + j];
          M[i * Np + j] = sum;
        }
      PetscCall(DenseInvert(Np, M, blk->cv->Minve + k * Np * Np));
    }
    PetscCall(PetscFree(M));
    blk->kd.Minve = blk->cv->Minve;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void DGDiscNodeBasisGradients(const DGDisc *dg, PetscInt l, PetscInt m, PetscReal grad[])
{
  const Mesh       *mesh = dg->mesh;
  const PetscInt    b = mesh->elem_block[l], dim = dg->dim;
  const DGBlock    *blk = &dg->blocks[b];
  const RefElement *ref = blk->ref;
  const PetscInt    Np  = ref->Np;
  const PetscReal  *G;

  if (blk->curved) {
    const MeshBlock *mb = &mesh->blocks[b];
    const PetscInt   k  = l < mesh->K ? l - mb->start : (mb->end - mb->start) + (l - mb->halo_start);
    G                   = blk->cv->Gn + (k * Np + m) * dim * dim;
  } else
    G = mesh->geo + l * HOFLOW_GEO_SIZE(dim);
  for (PetscInt j = 0; j < Np; j++)
    for (PetscInt x = 0; x < dim; x++) {
      PetscReal s = 0;
      for (PetscInt d = 0; d < dim; d++) s += G[x * dim + d] * ref->D[d][m * Np + j];
      grad[j * dim + x] = s;
    }
}

PetscErrorCode DGDiscSetUp(Disc disc)
{
  DGDisc        *dg;
  Mesh          *mesh = disc->mesh;
  const PetscInt dim  = mesh->dim;

  PetscFunctionBeginUser;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscReal) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow kernels need PETSc built with 32-bit indices and double precision reals");
  PetscCall(PetscLogEventBegin(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&dg));
  disc->data = dg;
  dg->disc   = disc;
  dg->mesh   = mesh;
  dg->N      = disc->order;
  dg->dim    = dim;

  /* blocks: one reference element per shape; node and face-node offsets of every element */
  dg->nblocks = mesh->nblocks;
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    DGBlock *blk = &dg->blocks[b];
    PetscCall(RefElementCreate(mesh->blocks[b].shape, dg->N, &blk->ref));
    blk->curved = mesh->blocks[b].curved;
    blk->Np     = blk->ref->Np;
    blk->Nfn    = blk->ref->Nfn;
    blk->Nfaces = blk->ref->Nfaces;
    PetscCall(PetscMalloc1(blk->Nfn, &blk->node_face));
    for (PetscInt f = 0; f < blk->Nfaces; f++)
      for (PetscInt i = blk->ref->face_offset[f]; i < blk->ref->face_offset[f + 1]; i++) blk->node_face[i] = f;
  }
  {
    PetscBool uniform = PETSC_TRUE;
    for (PetscInt b = 1; b < mesh->nblocks; b++) uniform = (PetscBool)(uniform && mesh->blocks[b].shape == mesh->blocks[0].shape);
    if (uniform) { /* one shape (affine and curved blocks): one reference element in the uniform-shape operators */
      dg->ref = dg->blocks[0].ref;
      dg->Np  = dg->ref->Np;
    }
  }
  PetscCall(PetscMalloc2(mesh->Klocal + 1, &dg->elem_node, mesh->K + 1, &dg->elem_fnode));
  dg->elem_node[0]  = 0;
  dg->elem_fnode[0] = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) dg->elem_node[l + 1] = dg->elem_node[l] + DGElementBlock(dg, l)->Np;
  for (PetscInt e = 0; e < mesh->K; e++) dg->elem_fnode[e + 1] = dg->elem_fnode[e] + DGElementBlock(dg, e)->Nfn;
  dg->nodes       = dg->elem_node[mesh->K];
  dg->nodes_local = dg->elem_node[mesh->Klocal];
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    DGBlock         *blk = &dg->blocks[b];
    const MeshBlock *mb  = &mesh->blocks[b];
    blk->node0           = dg->elem_node[mb->start];
    blk->halo_node0      = dg->elem_node[mb->halo_start];
    blk->fnode0          = dg->elem_fnode[mb->start];
    blk->slot0           = mesh->face_slot[mb->start];
  }
  PetscCall(PetscLogEventBegin(HOFLOW_DGLayout, 0, 0, 0, 0));
  PetscCall(DGDiscCreateSection(dg));
  PetscCall(PetscLogEventEnd(HOFLOW_DGLayout, 0, 0, 0, 0));
  disc->dm = dg->dm; /* destroyed by DiscDestroy */

  /* curved blocks: their data and node coordinates (with the affine elements' ones); affine meshes build
   * node coordinates on first use (DGDiscGetNodeCoordinates). Then the trace maps. */
  for (PetscInt b = 0; b < dg->nblocks; b++)
    if (dg->blocks[b].curved) {
      const PetscReal *x;
      PetscCall(DGDiscGetNodeCoordinates(dg, &x)); /* allocated once, the affine elements' nodes written */
      break;
    }
  for (PetscInt b = 0; b < dg->nblocks; b++)
    if (dg->blocks[b].curved) PetscCall(DGCurvedSetUp(dg, b));

  PetscCall(PetscLogEventBegin(HOFLOW_DGTraceMaps, 0, 0, 0, 0));
  PetscCall(DGDiscBuildTraceMaps(dg));
  PetscCall(PetscLogEventEnd(HOFLOW_DGTraceMaps, 0, 0, 0, 0));

  dg->penalty_scale = 1.0;
  PetscOptionsBegin(PetscObjectComm((PetscObject)mesh->dm), NULL, "SIPDG discretization", NULL);
  PetscCall(PetscOptionsReal("-ipdg_penalty_scale", "Multiplier of the SIPDG penalty of eq. (14)", NULL, dg->penalty_scale, &dg->penalty_scale, NULL));
  PetscOptionsEnd();
  PetscCheck(dg->penalty_scale >= 1.0, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_penalty_scale %g must be >= 1: a smaller penalty does not guarantee a positive definite operator", (double)dg->penalty_scale);
  PetscCall(DGDiscBuildFaceFactors(dg));

  for (PetscInt b = 0; b < dg->nblocks; b++) {
    DGBlock         *blk = &dg->blocks[b];
    const MeshBlock *mb  = &mesh->blocks[b];
    DGKernelData    *kd  = &blk->kd;
    kd->dim              = (int)dim;
    kd->Np               = (int)blk->Np;
    kd->Nq               = (int)blk->ref->Nq;
    kd->K                = (int)(mb->end - mb->start);
    kd->node0            = (int)blk->node0;
    kd->geo              = mesh->geo + mb->start * HOFLOW_GEO_SIZE(dim);
    kd->M                = blk->ref->M;
    kd->Minv             = blk->ref->Minv;
    kd->Iq               = blk->ref->Iq;
    kd->wq               = blk->ref->wq;
    if (blk->curved) kd->wJq = blk->cv->wJq;
    if (RefShapeTable[blk->ref->shape].tensor && blk->ref->N1 && kd->Nq == kd->Np) { /* the 1D factors of the sum-factorized mass */
      const RefElement *ref = blk->ref;
      const PetscInt    N1 = ref->N1, n1 = N1 * N1;
      PetscReal        *T, l[HOFLOW_NMAX + 1];
      PetscCall(PetscMalloc1(4 * n1, &T));
      PetscCall(PetscArraycpy(T, ref->M1, n1));
      PetscCall(DenseInvert(N1, ref->M1, T + n1));
      for (PetscInt q = 0; q < N1; q++) { /* the Lagrange basis on the GLL nodes at the Gauss points */
        LagrangeMatrix1D(N1, ref->x1, 1, ref->xiq + q * dim, l, NULL);
        for (PetscInt k = 0; k < N1; k++) T[2 * n1 + q * N1 + k] = T[3 * n1 + k * N1 + q] = l[k];
      }
      blk->tensor1 = T;
      kd->N1       = (int)N1;
      kd->M1       = T;
      kd->M1inv    = T + n1;
      kd->B1       = T + 2 * n1;
      kd->B1T      = T + 3 * n1;
    }
  }
  PetscCall(OpShellInit(&dg->shell, "DG element-wise kernels", dg->dm, DGDiscDeviceSetUp, dg));

  disc->ops.destroy          = DGDestroy;
  disc->ops.integrate        = DGIntegrate;
  disc->ops.l2_error         = DGL2Error;
  disc->ops.get_points       = DGGetPoints;
  disc->ops.get_subcells     = DGGetSubCells;
  disc->ops.project_elements = DGProjectElements;
  PetscCall(PetscLogEventEnd(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
