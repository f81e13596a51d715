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
  *ref = dg->ref;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block of element l. */
static const DGBlock *DGElementBlock(const DGDisc *dg, PetscInt l)
{
  return &dg->blocks[dg->mesh->elem_block[l]];
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

/* vmapP by matching node coordinates across each interior face (robust to any orientation). Across a
 * periodic face each element has its own coordinates, so the neighbour's nodes sit one period away: the
 * match removes that shift, the difference of the face's centroids seen from the two sides (zero on
 * ordinary faces; the mesh has checked that it is a translation of the whole face). */
static PetscErrorCode DGDiscBuildTraceMaps(DGDisc *dg)
{
  const Mesh    *mesh = dg->mesh;
  const PetscInt dim  = dg->dim;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(dg->elem_fnode[mesh->K], &dg->vmapP));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefElement *ref = DGElementBlock(dg, e)->ref;
    for (PetscInt f = 0; f < ref->Nfaces; f++) {
      const PetscInt  slot = mesh->face_slot[e] + f, nb = mesh->face_elem[slot], g = mesh->face_face[slot];
      const PetscReal tol      = 1e-8 * PetscPowReal(mesh->face_measure[slot], 1.0 / (dim - 1));
      PetscReal       shift[3] = {0, 0, 0}, shift_norm = 0;
      if (nb >= 0) {
        PetscReal ce[3], cn[3];
        FaceCentroid(mesh, e, f, ce);
        FaceCentroid(mesh, nb, g, cn);
        for (PetscInt d = 0; d < dim; d++) {
          shift[d] = cn[d] - ce[d];
          shift_norm += PetscSqr(shift[d]);
        }
        shift_norm = PetscSqrtReal(shift_norm);
      }
      for (PetscInt i = 0; i < ref->Nfp[f]; i++) {
        const PetscInt idM = dg->elem_node[e] + ref->face_nodes[ref->face_offset[f] + i];
        PetscInt       idP = idM;
        if (nb >= 0) {
          const RefElement *rnb  = DGElementBlock(dg, nb)->ref;
          PetscReal         best = PETSC_MAX_REAL;
          for (PetscInt j = 0; j < rnb->Nfp[g]; j++) {
            const PetscInt id = dg->elem_node[nb] + rnb->face_nodes[rnb->face_offset[g] + j];
            PetscReal      d2 = 0;
            for (PetscInt d = 0; d < dim; d++) d2 += PetscSqr(dg->x[id * dim + d] - shift[d] - dg->x[idM * dim + d]);
            if (PetscSqrtReal(d2) < best) {
              best = PetscSqrtReal(d2);
              idP  = id;
            }
          }
          if (best >= tol) {
            char xs[64], ss[64];
            PetscCheck(shift_norm <= tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: periodic faces that do not match: face node %s of face %" PetscInt_FMT " of cell %" PetscInt_FMT " has no node of face %" PetscInt_FMT " of neighbour cell %" PetscInt_FMT " within %g after the periodic shift %s (the nearest is %g away)", mesh->source,
                       MeshFormatPoint(dim, dg->x + idM * dim, xs, sizeof(xs)), f, mesh->elem_cell[e], g, mesh->elem_cell[nb], (double)tol, MeshFormatPoint(dim, shift, ss, sizeof(ss)), (double)best);
            SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: face node %s of cell %" PetscInt_FMT " has no matching node in neighbour cell %" PetscInt_FMT " (distance %g); the mesh is not conforming", mesh->source, MeshFormatPoint(dim, dg->x + idM * dim, xs, sizeof(xs)), mesh->elem_cell[e], mesh->elem_cell[nb], (double)best);
          }
        }
        dg->vmapP[dg->elem_fnode[e] + ref->face_offset[f] + i] = idP;
      }
    }
  }
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
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f at the cubature points of every owned element of block b: [K_b*Nq]. */
static PetscErrorCode DGDiscEvaluateAtCubature(DGDisc *dg, PetscInt b, PointFunction f, void *ctx, PetscReal **fq)
{
  const Mesh       *mesh = dg->mesh;
  const DGBlock    *blk  = &dg->blocks[b];
  const MeshBlock  *mb   = &mesh->blocks[b];
  const RefElement *ref  = blk->ref;
  const PetscInt    dim  = dg->dim;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1((mb->end - mb->start) * ref->Nq, fq));
  for (PetscInt e = mb->start; e < mb->end; e++)
    for (PetscInt q = 0; q < ref->Nq; q++) {
      PetscReal x[3];
      GeomAffineMap(ref->shape, (int)dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, ref->xiq + q * dim, x);
      PetscCall(f(x, &(*fq)[(e - mb->start) * ref->Nq + q], NULL, ctx));
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
    PetscCall(DGDiscEvaluateAtCubature(dg, b, f, ctx, &fq));
    if (!on_device)
      DGWeightedIntegralHost(&blk->kd, fq, ba);
    else {
      void *d_fq;
      blk->kd_device.stream = dg->shell.stream;
      PetscCall(HoflowDeviceUploadChecked(fq, sizeof(double) * blk->kd.K * blk->kd.Nq, &d_fq));
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(DGWeightedIntegralCUDA(&blk->kd_device, (const double *)d_fq, ba)), "right-hand side"));
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
    PetscCall(DGDiscEvaluateAtCubature(dg, b, f, ctx, &eq));
    PetscCall(PetscMalloc1(blk->kd.K, &err2));
    if (!on_device)
      DGErrorHost(&blk->kd, ua, eq, err2);
    else {
      void *d_eq, *d_err2;
      blk->kd_device.stream = dg->shell.stream;
      PetscCall(HoflowDeviceUploadChecked(eq, sizeof(double) * blk->kd.K * blk->kd.Nq, &d_eq));
      PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * blk->kd.K, &d_err2));
      PetscCall(OpShellCheckKernel(&dg->shell, HOFLOW_CUDA(DGErrorCUDA(&blk->kd_device, ua, (const double *)d_eq, (double *)d_err2)), "L2 error"));
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
    const RefElement *ref = DGElementBlock(dg, e)->ref;
    for (PetscInt f = 0; f < ref->Nfaces; f++) {
      const PetscInt   slot = mesh->face_slot[e] + f, type = face_type[slot];
      const PetscReal *n = mesh->face_normal + slot * dim;
      if (type == HOFLOW_FACE_INTERIOR) continue;
      for (PetscInt i = 0; i < ref->Nfp[f]; i++) {
        const PetscInt id = dg->elem_node[e] + ref->face_nodes[ref->face_offset[f] + i];
        PetscReal      u, grad[3] = {0, 0, 0}, gn = 0;
        PetscCall(fn(dg->x + id * dim, &u, grad, ctx));
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
  if (x) *x = dg->x;
  if (elem_point) *elem_point = dg->elem_node;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGGetSubCells(Disc disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells)
{
  DGDisc     *dg = (DGDisc *)disc->data;
  RefElement *ref;
  PetscInt    nsub, *sub, nv;

  PetscFunctionBeginUser;
  PetscCall(DGDiscGetUniformRef(dg, "sub-cell output", &ref));
  nv = ref->Nverts;
  PetscCall(RefElementSubCells(ref, &nsub, &sub));
  PetscCall(PetscMalloc1(dg->mesh->K * nsub * nv, cells));
  for (PetscInt e = 0; e < dg->mesh->K; e++)
    for (PetscInt c = 0; c < nsub * nv; c++) (*cells)[e * nsub * nv + c] = dg->elem_node[e] + sub[c];
  PetscCall(PetscFree(sub));
  *ncells = dg->mesh->K * nsub;
  *nverts = nv;
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
    PetscCall(RefElementDestroy(&dg->blocks[b].ref));
    PetscCall(PetscFree(dg->blocks[b].node_face));
  }
  PetscCall(PetscFree2(dg->elem_node, dg->elem_fnode));
  PetscCall(PetscFree(dg->x));
  PetscCall(PetscFree(dg->vmapP));
  PetscCall(PetscFree(dg->sgeo));
  PetscCall(PetscFree(dg));
  PetscFunctionReturn(PETSC_SUCCESS);
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
    blk->Np     = blk->ref->Np;
    blk->Nfn    = blk->ref->Nfn;
    blk->Nfaces = blk->ref->Nfaces;
    PetscCall(PetscMalloc1(blk->Nfn, &blk->node_face));
    for (PetscInt f = 0; f < blk->Nfaces; f++)
      for (PetscInt i = blk->ref->face_offset[f]; i < blk->ref->face_offset[f + 1]; i++) blk->node_face[i] = f;
  }
  if (dg->nblocks == 1) {
    dg->ref = dg->blocks[0].ref;
    dg->Np  = dg->ref->Np;
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
  PetscCall(DGDiscCreateSection(dg));
  disc->dm = dg->dm; /* destroyed by DiscDestroy */

  /* node coordinates (the affine map of each element) and trace maps */
  PetscCall(PetscMalloc1(dg->nodes_local * dim, &dg->x));
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    const RefElement *ref = DGElementBlock(dg, l)->ref;
    for (PetscInt i = 0; i < ref->Np; i++) GeomAffineMap(ref->shape, (int)dim, mesh->vertices + l * HOFLOW_VERTS_MAX * dim, ref->xi + i * dim, dg->x + (dg->elem_node[l] + i) * dim);
  }
  PetscCall(DGDiscBuildTraceMaps(dg));

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
