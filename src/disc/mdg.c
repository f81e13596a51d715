/* hoflow modal DG (-disc mdg), its data (hoflow/mdg.h): the field layout of nv components, the modal
 * bases at the volume and face points, the geometry at every point, face neighbours, element masses,
 * and the element-wise operations that need no kernel: projections, errors, integrals. The right-hand
 * side and the limiter are op/mdg.c. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/mdg.h>
#include <petscsf.h>

PetscErrorCode DiscGetMDG(Disc disc, const char what[], MDGDisc **mdg)
{
  PetscFunctionBeginUser;
  PetscCheck(!strcmp(disc->type, "mdg"), PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_SUP, "%s needs the modal DG discretization (-disc mdg), not -disc %s", what, disc->type);
  *mdg = (MDGDisc *)disc->data;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face basis tables of one shape: every face and orientation at the face cubature of mdg->degree. */
static PetscErrorCode MDGFaceTables(MDGDisc *mdg, RefShape shape)
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const PetscInt      Np   = RefShapeNumNodes(shape, (int)mdg->N);

  PetscFunctionBeginUser;
  if (mdg->pf_offset[shape][0][0] >= 0) PetscFunctionReturn(PETSC_SUCCESS);
  mdg->fq_off[shape][0] = 0;
  for (PetscInt f = 0; f < info->nfaces; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscInt   n;
      PetscReal *xi, *w;
      PetscCall(MeshFaceCubature(shape, f, o, mdg->degree, &n, &xi, &w));
      mdg->fq_off[shape][f + 1] = mdg->fq_off[shape][f] + n;
      PetscCall(PetscRealloc(sizeof(PetscReal) * (mdg->npf + n * Np), &mdg->Pf));
      PetscCall(RefElementModalBasis(shape, mdg->N, n, xi, mdg->Pf + mdg->npf, NULL));
      mdg->pf_offset[shape][f][o] = mdg->npf;
      mdg->npf += n * Np;
      PetscCall(PetscFree(xi));
      PetscCall(PetscFree(w));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The modes of the order-M space among the order-N modes (in[m]: 1 or 0): those whose projection onto
 * the order-M orthonormal basis keeps their norm (the bases are hierarchical: every mode is in it or
 * orthogonal to it). */
static PetscErrorCode MDGModesIn(MDGDisc *mdg, MDGBlock *blk, PetscInt M, PetscBool in[])
{
  const PetscInt Np1 = RefShapeNumNodes(blk->shape, (int)M);
  PetscReal     *P1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(blk->Nq * Np1, &P1));
  PetscCall(RefElementModalBasis(blk->shape, M, blk->Nq, blk->xiq, P1, NULL));
  for (PetscInt m = 0; m < blk->Np; m++) {
    PetscReal norm2 = 0;
    for (PetscInt j = 0; j < Np1; j++) {
      PetscReal s = 0;
      for (PetscInt q = 0; q < blk->Nq; q++) s += blk->wq[q] * blk->Pq[q * blk->Np + m] * P1[q * Np1 + j];
      norm2 += s * s;
    }
    in[m] = (PetscBool)(norm2 > 0.5);
  }
  PetscCall(PetscFree(P1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The modes of the linear part (the order-1 space), for the limiter, and those of degree N (outside
 * the order N-1 space), for its troubled-cell sensor. */
static PetscErrorCode MDGLimiterModes(MDGDisc *mdg, MDGBlock *blk)
{
  PetscBool *in;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(blk->Np, &in));
  PetscCall(PetscMalloc2(blk->Np, &blk->lin, blk->Np, &blk->top));
  blk->nlin = blk->ntop = 0;
  PetscCall(MDGModesIn(mdg, blk, PetscMin(mdg->N, 1), in));
  for (PetscInt m = 0; m < blk->Np; m++)
    if (in[m]) blk->lin[blk->nlin++] = (int)m;
  if (mdg->N > 0) {
    PetscCall(MDGModesIn(mdg, blk, mdg->N - 1, in));
    for (PetscInt m = 0; m < blk->Np; m++)
      if (!in[m]) blk->top[blk->ntop++] = (int)m;
  }
  PetscCall(PetscFree(in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGCheckJacobian(MDGDisc *mdg, PetscInt l, PetscReal J, const char where[])
{
  PetscFunctionBeginUser;
  PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: cell %" PetscInt_FMT " is tangled or inverted: its Jacobian is %g at a %s point of the modal DG cubature of degree %" PetscInt_FMT, mdg->mesh->source, mdg->mesh->elem_cell[l], (double)J, where, mdg->degree);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every local element's first trace point (trace_elem): the owned elements' block by block (trace_start), then, with
 * -mdg_halo traces on several ranks, a slot of all its face points for every halo element, which the trace exchange
 * fills on the faces it shares with owned elements here (the others stay unread); -1: no trace. */
static PetscErrorCode MDGTraceSlots(MDGDisc *mdg)
{
  const Mesh *mesh = mdg->mesh;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)mesh->dm), &size));
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &mdg->trace_elem));
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    const RefShape s = mesh->blocks[b].shape;
    for (PetscInt e = mesh->blocks[b].start; e < mesh->blocks[b].end; e++) mdg->trace_elem[e] = mdg->trace_start[b] + (e - mesh->blocks[b].start) * mdg->fq_off[s][RefShapeTable[s].nfaces];
  }
  mdg->ntrace = mdg->trace_start[mesh->nblocks];
  for (PetscInt l = mesh->K; l < mesh->Klocal; l++) {
    const RefShape s   = MeshElementShape(mesh, l);
    mdg->trace_elem[l] = -1;
    if (mdg->halo != FR_HALO_TRACES || size == 1) continue;
    mdg->trace_elem[l] = mdg->ntrace;
    mdg->ntrace += mdg->fq_off[s][RefShapeTable[s].nfaces];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the trace layout of modal DG (FRTraceLayout): face f's points of element l's shape, nv values a point */
static void MDGTraceFacePoints(const void *ctx, PetscInt l, PetscInt f, PetscInt *begin, PetscInt *end)
{
  const MDGDisc *mdg = (const MDGDisc *)ctx;
  const RefShape s   = MeshElementShape(mdg->mesh, l);
  *begin             = mdg->fq_off[s][f];
  *end               = mdg->fq_off[s][f + 1];
}

/* Geometry, masses, face information of block b. */
static PetscErrorCode MDGBlockSetUp(MDGDisc *mdg, PetscInt b)
{
  Mesh               *mesh = mdg->mesh;
  const MeshBlock    *mb   = &mesh->blocks[b];
  MDGBlock           *blk  = &mdg->blocks[b];
  const RefShapeInfo *info = &RefShapeTable[mb->shape];
  const PetscInt      dim = mdg->dim, gs = dim * dim + 1, nv = mdg->nv;
  const PetscInt     *nfq_off = mdg->fq_off[mb->shape]; /* MDGFaceTables' */
  PetscInt            Np, Nq;
  MeshGeometryTable   tq, tf[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];
  PetscReal          *fxi[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS], *fw[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS], nref[HOFLOW_FACES_MAX][3], ratio[HOFLOW_FACES_MAX];
  PetscReal          *x, *jac;

  PetscFunctionBeginUser;
  blk->shape  = mb->shape;
  blk->curved = mb->curved;
  blk->Np = Np = RefShapeNumNodes(mb->shape, (int)mdg->N);
  blk->Nfaces  = info->nfaces;
  blk->K       = mb->end - mb->start;
  blk->Kh      = mb->halo_end - mb->halo_start;
  /* affine elements integrate their polynomials exactly at 2N+1 (their volume terms need no more) */
  PetscCall(RefElementCubature(mb->shape, mb->curved || mdg->degree_given ? mdg->degree : PetscMin(mdg->degree, 2 * mdg->N + 1), &blk->Nq, &blk->xiq, &blk->wq));
  Nq = blk->Nq;
  PetscCall(PetscMalloc2(Nq * Np, &blk->Pq, dim * Nq * Np, &blk->dPq));
  {
    PetscReal *dP[HOFLOW_DIM_MAX] = {NULL, NULL, NULL};
    for (PetscInt d = 0; d < dim; d++) dP[d] = blk->dPq + d * Nq * Np;
    PetscCall(RefElementModalBasis(mb->shape, mdg->N, Nq, blk->xiq, blk->Pq, dP));
  }
  PetscCall(MDGLimiterModes(mdg, blk));
  for (PetscInt f = 0; f < info->nfaces; f++) {
    GeomReferenceFace(mb->shape, (int)f, nref[f], &ratio[f]);
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscInt n;
      PetscCall(MeshFaceCubature(mb->shape, f, o, mdg->degree, &n, &fxi[f][o], &fw[f][o]));
      if (blk->curved) PetscCall(MeshGeometryTableCreate(mesh, mb->shape, n, fxi[f][o], &tf[f][o]));
    }
  }
  if (blk->curved) PetscCall(MeshGeometryTableCreate(mesh, mb->shape, Nq, blk->xiq, &tq));
  PetscCall(PetscMalloc2(PetscMax(Nq, nfq_off[info->nfaces]) * dim, &x, PetscMax(Nq, nfq_off[info->nfaces]) * dim * dim, &jac));
  PetscCall(PetscMalloc4((blk->K + blk->Kh) * Nq * gs, &blk->vgeo, blk->K * nfq_off[info->nfaces] * (dim + 1), &blk->fgeo, blk->K * Nq * dim, &blk->xq, blk->K, &blk->h));
  PetscCall(PetscMalloc2(blk->K * info->nfaces * MDG_FACE_INFO, &blk->face_info, blk->K * info->nfaces, &blk->nb_elem));
  if (blk->curved)
    PetscCall(PetscMalloc1(blk->K * Np * Np, &blk->Minv));
  else
    PetscCall(PetscMalloc1(blk->K, &blk->Jinv));
  for (PetscInt k = 0; k < blk->K + blk->Kh; k++) {
    const PetscInt l = k < blk->K ? mb->start + k : mb->halo_start + (k - blk->K);
    PetscReal      g[HOFLOW_GEO_SIZE(3)];
    /* volume points */
    if (blk->curved) MeshCurvedElementMap(mesh, &tq, l, x, jac);
    for (PetscInt q = 0; q < Nq; q++) {
      PetscReal *vg = blk->vgeo + (k * Nq + q) * gs, J;
      if (blk->curved)
        J = GeomMetricFromJacobian((int)dim, jac + q * dim * dim, g);
      else {
        for (PetscInt j = 0; j < gs; j++) g[j] = mesh->geo[l * HOFLOW_GEO_SIZE(dim) + j];
        J = g[dim * dim];
        GeomAffineMap(mb->shape, (int)dim, mesh->vertices + l * HOFLOW_VERTS_MAX * dim, blk->xiq + q * dim, x + q * dim);
      }
      PetscCall(MDGCheckJacobian(mdg, l, J, "volume"));
      for (PetscInt j = 0; j < dim * dim; j++) vg[j] = g[j];
      vg[dim * dim] = blk->wq[q] * J;
      if (k < blk->K)
        for (PetscInt d = 0; d < dim; d++) blk->xq[(k * Nq + q) * dim + d] = x[q * dim + d];
    }
    if (k >= blk->K) continue;
    /* mass */
    if (blk->curved)
      PetscCall(MDGBlockInverseMass(blk, dim, k, blk->Minv + k * Np * Np));
    else
      blk->Jinv[k] = 1.0 / mesh->geo[l * HOFLOW_GEO_SIZE(dim) + HOFLOW_GEO_J(dim)];
    /* faces */
    {
      PetscReal perimeter = 0;
      for (PetscInt f = 0; f < info->nfaces; f++) {
        const PetscInt slot = mesh->face_slot[l] + f, o = MeshFaceOrientation(mesh, l, f), nb = mesh->face_elem[slot];
        const PetscInt nf = nfq_off[f + 1] - nfq_off[f];
        int           *fi = blk->face_info + (k * info->nfaces + f) * MDG_FACE_INFO;
        perimeter += mesh->face_measure[slot];
        if (blk->curved)
          MeshCurvedElementMap(mesh, &tf[f][o], l, x, jac);
        else
          for (PetscInt q = 0; q < nf; q++) GeomAffineMap(mb->shape, (int)dim, mesh->vertices + l * HOFLOW_VERTS_MAX * dim, fxi[f][o] + q * dim, x + q * dim);
        for (PetscInt q = 0; q < nf; q++) {
          PetscReal *fg = blk->fgeo + (k * nfq_off[info->nfaces] + nfq_off[f] + q) * (dim + 1);
          if (blk->curved) {
            const PetscReal dA = GeomFaceNormalFromJacobian((int)dim, jac + q * dim * dim, nref[f], fg);
            PetscCall(MDGCheckJacobian(mdg, l, dA, "face"));
            fg[dim] = fw[f][o][q] * ratio[f] * dA;
          } else {
            for (PetscInt d = 0; d < dim; d++) fg[d] = mesh->face_normal[slot * dim + d];
            fg[dim] = fw[f][o][q] * mesh->face_measure[slot] / RefShapeTable[info->face_shape[f]].measure;
          }
        }
        fi[0]                              = (int)mdg->pf_offset[mb->shape][f][o];
        fi[3]                              = (int)mesh->face_type[slot];
        blk->nb_elem[k * info->nfaces + f] = (int)nb;
        if (nb >= 0) {
          const PetscInt g = mesh->face_face[slot], o2 = MeshFaceOrientation(mesh, nb, g);
          const RefShape s2 = MeshElementShape(mesh, nb);
          fi[1]             = (int)mdg->elem_dof[nb];
          fi[2]             = (int)mdg->pf_offset[s2][g][o2];
          fi[4]             = RefShapeNumNodes(s2, (int)mdg->N);
          fi[5]             = (int)nb;
          /* the neighbour's trace row of face g: an owned neighbour's, or a halo neighbour's slot (-mdg_halo traces) */
          fi[6] = mdg->trace_elem[nb] >= 0 ? (int)(mdg->trace_elem[nb] + mdg->fq_off[s2][g]) : -1;
        } else {
          PetscCheck(mesh->face_type[slot] >= EULER_BC_SLIP_WALL && mesh->face_type[slot] < EULER_BC_END, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: boundary face %" PetscInt_FMT " of cell %" PetscInt_FMT " has no boundary type of the Euler equations (-bc_slip_wall, -bc_supersonic_inflow, ...)", mesh->source, f, mesh->elem_cell[l]);
          fi[1] = -1;
          fi[2] = (int)mdg->nbpoints;
          fi[4] = (int)Np;
          fi[5] = -1;
          fi[6] = -1;
          PetscCall(PetscRealloc(sizeof(PetscReal) * (mdg->nbpoints + nf) * dim, &mdg->bx));
          PetscCall(PetscRealloc(sizeof(PetscReal) * (mdg->nbpoints + nf) * dim, &mdg->bn));
          PetscCall(PetscRealloc(sizeof(PetscInt) * (mdg->nbpoints + nf), &mdg->btype));
          for (PetscInt q = 0; q < nf; q++, mdg->nbpoints++) {
            const PetscReal *fg = blk->fgeo + (k * nfq_off[info->nfaces] + nfq_off[f] + q) * (dim + 1);
            for (PetscInt d = 0; d < dim; d++) {
              mdg->bx[mdg->nbpoints * dim + d] = x[q * dim + d];
              mdg->bn[mdg->nbpoints * dim + d] = fg[d];
            }
            mdg->btype[mdg->nbpoints] = mesh->face_type[slot];
          }
        }
      }
      blk->h[k] = dim * mesh->measure[l] / perimeter;
    }
  }
  PetscCall(PetscFree2(x, jac));
  if (blk->curved) PetscCall(MeshGeometryTableDestroy(&tq));
  for (PetscInt f = 0; f < info->nfaces; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscCall(PetscFree(fxi[f][o]));
      PetscCall(PetscFree(fw[f][o]));
      if (blk->curved) PetscCall(MeshGeometryTableDestroy(&tf[f][o]));
    }
  /* the kernel's view */
  {
    MDGKernelData *kd = &blk->kd;
    kd->dim           = (int)dim;
    kd->nv            = (int)nv;
    kd->Np            = (int)Np;
    kd->Nq            = (int)Nq;
    kd->Nfaces        = (int)info->nfaces;
    kd->K             = (int)blk->K;
    kd->dof0          = (int)mdg->elem_dof[mb->start];
    kd->e0            = (int)mb->start;
    kd->Kh            = (int)blk->Kh;
    kd->halo_dof0     = (int)mdg->elem_dof[mb->halo_start];
    kd->halo_e0       = (int)mb->halo_start;
    kd->nfq           = (int)nfq_off[info->nfaces];
    kd->trace0        = (int)mdg->trace_start[b];
    for (PetscInt f = 0; f <= info->nfaces; f++) kd->fq_offset[f] = (int)nfq_off[f];
    kd->Pq        = blk->Pq;
    kd->dPq       = blk->dPq;
    kd->vgeo      = blk->vgeo;
    kd->fgeo      = blk->fgeo;
    kd->Minv      = blk->Minv;
    kd->Jinv      = blk->Jinv;
    kd->face_info = blk->face_info;
    kd->lin       = blk->lin;
    kd->nlin      = blk->nlin;
    kd->top       = blk->top;
    kd->ntop      = blk->ntop;
    kd->gamma     = 1.4;
    kd->flux      = EULER_FLUX_RUSANOV;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGBlockInverseMass(const MDGBlock *blk, PetscInt dim, PetscInt k, PetscReal Minv[])
{
  const PetscInt Np = blk->Np, Nq = blk->Nq, gs = dim * dim + 1;
  PetscReal     *M;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(Np * Np, &M));
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal s = 0;
      for (PetscInt q = 0; q < Nq; q++) s += blk->vgeo[(k * Nq + q) * gs + dim * dim] * blk->Pq[q * Np + i] * blk->Pq[q * Np + j];
      M[i * Np + j] = s;
    }
  PetscCall(DenseInvert(Np, M, Minv));
  PetscCall(PetscFree(M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGProject(MDGDisc *mdg, ConsLawStateFunction fn, void *ctx, Vec uvec)
{
  const PetscInt dim = mdg->dim, nv = mdg->nv, gs = dim * dim + 1;
  PetscScalar   *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(uvec, &u));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock      *blk = &mdg->blocks[b];
    const PetscInt Np = blk->Np, Nq = blk->Nq;
    PetscReal     *rhs, *fq;
    PetscCall(PetscMalloc2(nv * Np, &rhs, Nq * nv, &fq));
    for (PetscInt k = 0; k < blk->K; k++) {
      PetscScalar *c = u + blk->kd.dof0 + k * nv * Np;
      for (PetscInt q = 0; q < Nq; q++) PetscCall(fn(dim, blk->xq + (k * Nq + q) * dim, fq + q * nv, ctx));
      for (PetscInt v = 0; v < nv; v++)
        for (PetscInt m = 0; m < Np; m++) {
          PetscReal s = 0;
          for (PetscInt q = 0; q < Nq; q++) s += blk->vgeo[(k * Nq + q) * gs + dim * dim] * blk->Pq[q * Np + m] * fq[q * nv + v];
          rhs[v * Np + m] = s;
        }
      for (PetscInt i = 0; i < nv * Np; i++) c[i] = rhs[i];
      MDGLiftElement(&blk->kd, (int)k, c);
    }
    PetscCall(PetscFree2(rhs, fq));
  }
  PetscCall(VecRestoreArrayWrite(uvec, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||u_k - f_k|| in L1 (p = 1) or L2 (p = 2) */
static PetscErrorCode MDGLpError(MDGDisc *mdg, PetscInt p, Vec uvec, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  const PetscInt     dim = mdg->dim, nv = mdg->nv, gs = dim * dim + 1;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  for (PetscInt v = 0; v < nv; v++) err[v] = 0;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock      *blk = &mdg->blocks[b];
    const PetscInt Np = blk->Np, Nq = blk->Nq;
    for (PetscInt k = 0; k < blk->K; k++)
      for (PetscInt q = 0; q < Nq; q++) {
        PetscReal uq[EULER_NV_MAX], fq[EULER_NV_MAX] = {0, 0, 0, 0, 0};
        MDGEvaluate((int)nv, (int)Np, blk->Pq + q * Np, u + blk->kd.dof0 + k * nv * Np, uq);
        if (fn) PetscCall(fn(dim, blk->xq + (k * Nq + q) * dim, fq, ctx));
        for (PetscInt v = 0; v < nv; v++) err[v] += blk->vgeo[(k * Nq + q) * gs + dim * dim] * (p == 1 ? PetscAbsReal(uq[v] - fq[v]) : PetscSqr(uq[v] - fq[v]));
      }
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, (PetscMPIInt)nv, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)mdg->dm)));
  if (p == 2)
    for (PetscInt v = 0; v < nv; v++) err[v] = PetscSqrtReal(err[v]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGL2Error(MDGDisc *mdg, Vec u, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  PetscFunctionBeginUser;
  PetscCall(MDGLpError(mdg, 2, u, fn, ctx, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGL1Error(MDGDisc *mdg, Vec u, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  PetscFunctionBeginUser;
  PetscCall(MDGLpError(mdg, 1, u, fn, ctx, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integral of component v is linear in the modes: u . W_v with W_v = sum_q w J phi_m(x_q) on component v's
 * rows (0 elsewhere). The weights are made once on the state's backend, so the integrals of a state on the
 * device are one fused multi-dot there (monitors every step without copying the state to the host). */
PetscErrorCode MDGIntegrate(MDGDisc *mdg, Vec uvec, PetscReal total[])
{
  const PetscInt dim = mdg->dim, nv = mdg->nv, gs = dim * dim + 1;
  PetscScalar    t[EULER_NV_MAX];

  PetscFunctionBeginUser;
  if (mdg->intw[0]) { /* made for another backend or layout: remake */
    VecType   a, b;
    PetscInt  n, m;
    PetscBool same;
    PetscCall(VecGetType(uvec, &a));
    PetscCall(VecGetType(mdg->intw[0], &b));
    PetscCall(VecGetLocalSize(uvec, &n));
    PetscCall(VecGetLocalSize(mdg->intw[0], &m));
    PetscCall(PetscStrcmp(a, b, &same));
    if (!same || n != m)
      for (PetscInt v = 0; v < nv; v++) PetscCall(VecDestroy(&mdg->intw[v]));
  }
  if (!mdg->intw[0]) {
    for (PetscInt v = 0; v < nv; v++) {
      PetscScalar *w;
      PetscCall(VecDuplicate(uvec, &mdg->intw[v]));
      PetscCall(VecGetArrayWrite(mdg->intw[v], &w));
      for (PetscInt b = 0; b < mdg->nblocks; b++) {
        const MDGBlock *blk = &mdg->blocks[b];
        const PetscInt  Np = blk->Np, Nq = blk->Nq;
        for (PetscInt k = 0; k < blk->K; k++) {
          PetscScalar *wk = w + blk->kd.dof0 + k * nv * Np;
          for (PetscInt i = 0; i < nv * Np; i++) wk[i] = 0;
          for (PetscInt q = 0; q < Nq; q++)
            for (PetscInt m = 0; m < Np; m++) wk[v * Np + m] += blk->vgeo[(k * Nq + q) * gs + dim * dim] * blk->Pq[q * Np + m];
        }
      }
      PetscCall(VecRestoreArrayWrite(mdg->intw[v], &w));
    }
  }
  PetscCall(VecMDot(uvec, nv, mdg->intw, t)); /* all ranks' sums */
  for (PetscInt v = 0; v < nv; v++) total[v] = PetscRealPart(t[v]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Modal coefficients have no points of their own: each is given its element's centroid, which is what
 * checkpoints need to key elements (the per-element block is elem_dof's). Field output needs nodal values
 * and sub-cells, which -disc mdg does not provide yet. */
static PetscErrorCode MDGGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  MDGDisc       *mdg = (MDGDisc *)disc->data;
  const PetscInt dim = mdg->dim;

  PetscFunctionBeginUser;
  if (!mdg->xdof) {
    PetscCall(PetscMalloc1(mdg->ndof * dim, &mdg->xdof));
    for (PetscInt e = 0; e < mdg->mesh->K; e++) {
      PetscReal c[3];
      MeshElementCentroid(mdg->mesh, e, c);
      for (PetscInt i = mdg->elem_dof[e]; i < mdg->elem_dof[e + 1]; i++)
        for (PetscInt d = 0; d < dim; d++) mdg->xdof[i * dim + d] = c[d];
    }
  }
  *n = mdg->ndof;
  if (x) *x = mdg->xdof;
  if (elem_point) *elem_point = mdg->elem_dof;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A restart from a checkpoint of another order on the same mesh (-restart_project): every element's modal
 * coefficients of order Ns projected onto this order in reference coordinates, c_m = sum_j T_mj c_j with
 * T_mj = int phi_m psi_j over the reference element (phi, psi the orthonormal bases of orders N and Ns;
 * cubature exact to degree N + Ns): the same polynomial when Ns <= N (the bases are hierarchical), its
 * reference-space L2 projection when Ns > N. A refined mesh, or elements whose vertices the checkpoint
 * lists in another order, would need the map between the two elements' reference coordinates: refused. */
static PetscErrorCode MDGProjectElements(Disc disc, PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  MDGDisc       *mdg  = (MDGDisc *)disc->data;
  const Mesh    *mesh = mdg->mesh;
  const PetscInt nv = mdg->nv, dim = mdg->dim;
  const RefShape shape = mesh->blocks[0].shape;
  const PetscInt Np = RefShapeNumNodes(shape, (int)mdg->N), Nps = RefShapeNumNodes(shape, (int)Ns), nverts = RefShapeTable[shape].nverts;
  PetscInt       nq;
  PetscReal     *xq, *wq, *P, *Ps, *T;
  PetscScalar  **ua;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mesh->nblocks; b++) PetscCheck(mesh->blocks[b].shape == shape, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_SUP, "-restart_project: -disc mdg projects meshes of one element shape");
  if (src_vertices) /* the same mesh: only vertices listed in the same order carry the same reference coordinates */
    for (PetscInt e = 0; e < mesh->K; e++)
      for (PetscInt i = 0; i < nverts * dim; i++) {
        const PetscReal a = src_vertices[e * nverts * dim + i], c = mesh->vertices[e * HOFLOW_VERTS_MAX * dim + i];
        PetscCheck(PetscAbsReal(a - c) <= 1e-10 * (1 + PetscAbsReal(c)), PETSC_COMM_SELF, PETSC_ERR_SUP, "-restart_project: -disc mdg projects a checkpoint onto another order of the same mesh, distributed as it was (element %" PetscInt_FMT " lies elsewhere or lists its vertices in another order); restart on the checkpoint's mesh with its number of ranks", e);
      }
  PetscCall(RefElementCubature(shape, mdg->N + Ns, &nq, &xq, &wq));
  PetscCall(PetscMalloc3(nq * Np, &P, nq * Nps, &Ps, Np * Nps, &T));
  PetscCall(RefElementModalBasis(shape, mdg->N, nq, xq, P, NULL));
  PetscCall(RefElementModalBasis(shape, Ns, nq, xq, Ps, NULL));
  for (PetscInt m = 0; m < Np; m++)
    for (PetscInt j = 0; j < Nps; j++) {
      PetscReal sum = 0;
      for (PetscInt q = 0; q < nq; q++) sum += wq[q] * P[q * Np + m] * Ps[q * Nps + j];
      T[m * Nps + j] = PetscAbsReal(sum) < 1e-13 ? 0 : sum;
    }
  PetscCall(PetscMalloc1(n, &ua));
  for (PetscInt k = 0; k < n; k++) PetscCall(VecGetArrayWrite(u[k], &ua[k]));
  for (PetscInt e = 0; e < mesh->K; e++)
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *in  = src[k] + e * nv * Nps;
      PetscScalar     *out = ua[k] + mdg->elem_dof[e];
      for (PetscInt v = 0; v < nv; v++)
        for (PetscInt m = 0; m < Np; m++) {
          PetscReal sum = 0;
          for (PetscInt j = 0; j < Nps; j++) sum += T[m * Nps + j] * in[v * Nps + j];
          out[v * Np + m] = sum;
        }
    }
  for (PetscInt k = 0; k < n; k++) PetscCall(VecRestoreArrayWrite(u[k], &ua[k]));
  PetscCall(PetscFree(ua));
  PetscCall(PetscFree3(P, Ps, T));
  PetscCall(PetscFree(xq));
  PetscCall(PetscFree(wq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGDestroy(Disc disc)
{
  MDGDisc *mdg = (MDGDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCall(OpShellDestroy(&mdg->shell));
  PetscCall(VecDestroy(&mdg->means_local));
  PetscCall(VecDestroy(&mdg->speed));
  PetscCall(VecDestroy(&mdg->limited));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    PetscCall(PetscFree(blk->xiq));
    PetscCall(PetscFree(blk->wq));
    PetscCall(PetscFree2(blk->Pq, blk->dPq));
    PetscCall(PetscFree2(blk->lin, blk->top));
    PetscCall(PetscFree4(blk->vgeo, blk->fgeo, blk->xq, blk->h));
    PetscCall(PetscFree2(blk->face_info, blk->nb_elem));
    PetscCall(PetscFree(blk->Minv));
    PetscCall(PetscFree(blk->Jinv));
  }
  PetscCall(PetscFree(mdg->Pf));
  PetscCall(PetscFree(mdg->bx));
  PetscCall(PetscFree(mdg->bn));
  PetscCall(PetscFree(mdg->btype));
  PetscCall(PetscFree(mdg->bc_point));
  PetscCall(PetscFree(mdg->xdof));
  PetscCall(PetscFree(mdg->elem_dof));
  PetscCall(PetscFree4(mdg->imass, mdg->imass_info, mdg->grad, mdg->Q));
  for (PetscInt v = 0; v < EULER_NV_MAX; v++) PetscCall(VecDestroy(&mdg->intw[v]));
  PetscCall(VecDestroy(&mdg->wall_host));
  PetscCall(PetscFree3(mdg->fstate, mdg->fjw, mdg->flift));
  PetscCall(PetscFree(mdg->trace));
  PetscCall(PetscFree(mdg->trace_elem));
  PetscCall(PetscSFDestroy(&mdg->trace_sf));
  PetscCall(PetscFree(mdg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload the kernel data of every block at the first device call. */
static PetscErrorCode MDGDeviceSetUp(void *ctx)
{
  MDGDisc      *mdg = (MDGDisc *)ctx;
  const double *PfT;

  PetscFunctionBeginUser;
  { /* every face table transposed at its offset */
    PetscReal *T;
    PetscCall(PetscMalloc1(PetscMax(mdg->npf, 1), &T));
    for (PetscInt s = 0; s < REF_NUM_SHAPES; s++) {
      const PetscInt Np = RefShapeNumNodes((RefShape)s, (int)mdg->N);
      if (mdg->pf_offset[s][0][0] < 0) continue;
      for (PetscInt f = 0; f < RefShapeTable[s].nfaces; f++)
        for (PetscInt o = 0; o < GeomFaceOrientations(RefShapeTable[s].face_shape[f]); o++) {
          const PetscInt off = mdg->pf_offset[s][f][o], n = mdg->fq_off[s][f + 1] - mdg->fq_off[s][f];
          for (PetscInt q = 0; q < n; q++)
            for (PetscInt m = 0; m < Np; m++) T[off + m * n + q] = mdg->Pf[off + q * Np + m];
        }
    }
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, T, sizeof(double) * PetscMax(mdg->npf, 1), (const void **)&PfT));
    PetscCall(PetscFree(T));
  }
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock            *blk = &mdg->blocks[b];
    const MDGKernelData *h   = &blk->kd;
    MDGKernelData       *d   = &blk->kd_device;
    const size_t         gs  = (size_t)h->dim * h->dim + 1;
    *d                       = *h;
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->Pq, sizeof(double) * h->Nq * h->Np, (const void **)&d->Pq));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->dPq, sizeof(double) * h->dim * h->Nq * h->Np, (const void **)&d->dPq));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->Pf, sizeof(double) * mdg->npf, (const void **)&d->Pf));
    PetscCall(HoflowDeviceArraysUploadTranspose(&mdg->shell.device, h->Nq, h->Np, h->Pq, &d->PqT));
    d->PfT = PfT;
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->vgeo, sizeof(double) * (h->K + h->Kh) * h->Nq * gs, (const void **)&d->vgeo));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->fgeo, sizeof(double) * h->K * h->nfq * (h->dim + 1), (const void **)&d->fgeo));
    if (h->Minv) PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->Minv, sizeof(double) * h->K * h->Np * h->Np, (const void **)&d->Minv));
    if (h->Jinv) PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->Jinv, sizeof(double) * h->K, (const void **)&d->Jinv));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->face_info, sizeof(int) * h->K * h->Nfaces * MDG_FACE_INFO, (const void **)&d->face_info));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->lin, sizeof(int) * h->nlin, (const void **)&d->lin));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, h->top, sizeof(int) * PetscMax(h->ntop, 1), (const void **)&d->top)); /* N = 0: none (one int read by nobody) */
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->bc_point, sizeof(double) * PetscMax(mdg->nbpoints, 1) * EULER_BC_DATA, (const void **)&d->bc_point));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, blk->h, sizeof(double) * PetscMax(h->K, 1), (const void **)&blk->h_device));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, blk->nb_elem, sizeof(int) * PetscMax(h->K * h->Nfaces, 1), (const void **)&blk->nb_device));
  }
  { /* the traces of every block (scratch: allocated only) */
    const double *trace;
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, NULL, sizeof(double) * PetscMax(mdg->ntrace * mdg->nv, 1), (const void **)&trace));
    for (PetscInt b = 0; b < mdg->nblocks; b++) mdg->blocks[b].kd_device.trace = (double *)trace;
  }
  if (mdg->viscous) { /* BR2: the inverse masses, the gradients and the face scratch, shared by the blocks */
    const double *imass, *grad, *Q, *fstate, *fjw, *flift;
    const int    *imass_info;
    PetscInt      nimass = 0;
    for (PetscInt b = 0; b < mdg->nblocks; b++) nimass += (mdg->blocks[b].K + mdg->blocks[b].Kh) * (mdg->blocks[b].curved ? mdg->blocks[b].Np * mdg->blocks[b].Np : 1);
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->imass, sizeof(double) * PetscMax(nimass, 1), (const void **)&imass));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->imass_info, sizeof(int) * 2 * PetscMax(mdg->mesh->Klocal, 1), (const void **)&imass_info));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->grad, sizeof(double) * PetscMax(mdg->dim * mdg->ndof_local, 1), (const void **)&grad));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->Q, sizeof(double) * PetscMax(mdg->dim * mdg->ndof_local, 1), (const void **)&Q));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->fstate, sizeof(double) * PetscMax(mdg->nfstate, 1), (const void **)&fstate));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->fjw, sizeof(double) * PetscMax(mdg->nfjw, 1), (const void **)&fjw));
    PetscCall(HoflowDeviceArraysUpload(&mdg->shell.device, mdg->flift, sizeof(double) * PetscMax(mdg->nflift, 1), (const void **)&flift));
    for (PetscInt b = 0; b < mdg->nblocks; b++) { /* the device pointers at the host's offsets */
      const MDGKernelData *h = &mdg->blocks[b].kd;
      MDGKernelData       *d = &mdg->blocks[b].kd_device;
      d->imass               = imass;
      d->imass_info          = imass_info;
      d->grad                = grad;
      d->Q                   = (double *)Q;
      d->fstate              = (double *)fstate + (h->fstate - mdg->fstate);
      d->fjw                 = (double *)fjw + (h->fjw - mdg->fjw);
      d->flift               = (double *)flift + (h->flift - mdg->flift);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate_ModalDG(Disc disc)
{
  MDGDisc       *mdg;
  Mesh          *mesh = disc->mesh;
  const PetscInt dim  = mesh->dim;
  PetscBool      curved;

  PetscFunctionBeginUser;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscReal) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow kernels need PETSc built with 32-bit indices and double precision reals");
  PetscCheck(disc->order >= 0 && disc->order <= MDG_NMAX, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT ": -disc mdg supports orders 0..%d", disc->order, MDG_NMAX);
  PetscCheck(disc->ncomp == dim + 2 || disc->ncomp == 1, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_SUP, "-disc mdg discretizes the Euler equations (%" PetscInt_FMT " components in %" PetscInt_FMT "D) or linear advection (1); the problem's physics has %" PetscInt_FMT, dim + 2, dim, disc->ncomp);
  PetscCall(PetscLogEventBegin(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&mdg));
  disc->data   = mdg;
  mdg->disc    = disc;
  mdg->mesh    = mesh;
  mdg->N       = disc->order;
  mdg->dim     = dim;
  mdg->nv      = disc->ncomp;
  mdg->nblocks = mesh->nblocks;
  PetscCall(MeshHasCurved(mesh, &curved));
  /* 2N+1 integrates the mass matrix and the flux of affine elements; curved elements add the degree of
   * their metric terms (J dr/dx is of degree dim (Ng-1)), so that a constant state stays constant */
  mdg->degree = 2 * mdg->N + 1 + (curved ? dim * PetscMax(mesh->geom_order - 1, 0) : 0);
  PetscOptionsBegin(PetscObjectComm((PetscObject)mesh->dm), NULL, "Modal DG discretization", NULL);
  PetscCall(PetscOptionsInt("-mdg_quadrature_degree", "Polynomial degree of the volume and face cubature of -disc mdg (default 2N+1; on curved meshes more on faces and curved elements)", NULL, mdg->degree, &mdg->degree, &mdg->degree_given));
  PetscCall(PetscOptionsBool("-mdg_view_cost", "Print the flops and least bytes of the right-hand side's volume, face and lift kernels per block", NULL, mdg->view_cost, &mdg->view_cost, NULL));
  PetscCall(PetscOptionsEnum("-mdg_halo", "What the right-hand side's halo exchange sends on several ranks: traces (the owners' states at the partition faces' points) or elements (every mode of the halo elements; the BR2 viscous terms need them)", NULL, FRHaloTypes, (PetscEnum)mdg->halo, (PetscEnum *)&mdg->halo, &mdg->halo_given));
  PetscCall(PetscOptionsBool("-mdg_view_halo", "Print, per rank, the bytes the right-hand side's halo exchange receives (several ranks)", NULL, mdg->view_halo, &mdg->view_halo, NULL));
  PetscOptionsEnd();
  PetscCheck(mdg->degree >= 2 * mdg->N, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_OUTOFRANGE, "-mdg_quadrature_degree %" PetscInt_FMT " must be at least 2N = %" PetscInt_FMT " (the mass matrix)", mdg->degree, 2 * mdg->N);

  PetscCall(PetscMalloc1(mesh->Klocal + 1, &mdg->elem_dof));
  mdg->elem_dof[0] = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) mdg->elem_dof[l + 1] = mdg->elem_dof[l] + mdg->nv * RefShapeNumNodes(MeshElementShape(mesh, l), (int)mdg->N);
  mdg->ndof       = mdg->elem_dof[mesh->K];
  mdg->ndof_local = mdg->elem_dof[mesh->Klocal];
  PetscCall(ConsLawCreateElementDM(mesh, mdg->elem_dof, &mdg->dm));
  disc->dm = mdg->dm;
  for (PetscInt s = 0; s < REF_NUM_SHAPES; s++)
    for (PetscInt f = 0; f < HOFLOW_FACES_MAX; f++)
      for (PetscInt o = 0; o < HOFLOW_FACE_ORIENTATIONS; o++) mdg->pf_offset[s][f][o] = -1;
  for (PetscInt b = 0; b < mesh->nblocks; b++) PetscCall(MDGFaceTables(mdg, mesh->blocks[b].shape));
  mdg->trace_start[0] = 0;
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    const RefShape s        = mesh->blocks[b].shape;
    mdg->trace_start[b + 1] = mdg->trace_start[b] + (mesh->blocks[b].end - mesh->blocks[b].start) * mdg->fq_off[s][RefShapeTable[s].nfaces];
  }
  PetscCall(MDGTraceSlots(mdg));
  for (PetscInt b = 0; b < mesh->nblocks; b++) PetscCall(MDGBlockSetUp(mdg, b));
  if (mdg->halo == FR_HALO_TRACES) {
    FRTraceLayout layout = {mdg->nv, 1, mdg->nv, MDGTraceFacePoints, mdg};
    PetscInt     *off;
    PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &off));
    for (PetscInt l = 0; l < mesh->Klocal; l++) off[l] = mdg->trace_elem[l] >= 0 ? mdg->trace_elem[l] * mdg->nv : -1;
    PetscCall(FRTraceSFCreate(mesh, off, PetscMax(mdg->ntrace * mdg->nv, 1), &layout, "modal DG traces", &mdg->trace_sf));
    PetscCall(PetscFree(off));
  }
  PetscCall(PetscCalloc1(PetscMax(mdg->nbpoints, 1) * EULER_BC_DATA, &mdg->bc_point));
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    mdg->blocks[b].kd.Pf       = mdg->Pf;
    mdg->blocks[b].kd.bc_point = mdg->bc_point;
  }
  PetscCall(OpShellInit(&mdg->shell, "modal DG Euler right-hand side", mdg->dm, MDGDeviceSetUp, mdg));
  PetscCall(OpShellCreateLocal(&mdg->shell, 1));
  disc->ops.destroy          = MDGDestroy;
  disc->ops.get_points       = MDGGetPoints;
  disc->ops.project_elements = MDGProjectElements;
  PetscCall(MDGConsLawCreate(mdg));
  PetscCall(PetscLogEventEnd(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
