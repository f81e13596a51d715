/* The SIPDG screened-Poisson operator A = -Laplace + lambda (seed 000 eqs. 13, 14, 23, 28) as a
 * PETSc MatShell on nodal DG of any shape and dimension: MatMult runs the local-gradient and apply
 * kernels (host src/kernels/ipdg.c or CUDA cuda/ipdg.cu, by vector type) per element block, the interior
 * elements while the halo exchange is in flight and the elements next to other ranks after it;
 * MatGetDiagonal uses reference tables. An independent assembly of the same bilinear form
 * (IPDGOperatorAssemble) checks it and feeds AMG. */
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/ipdg.h>
#include <hoflow/kernels/ipdg_curved.h>
#include <hoflow/kernels/ipdg_tensor.h>
#include <hoflow/log.h>

typedef struct {
  OpShell              op;
  DGDisc              *dg;
  PetscReal            lambda;
  PetscInt            *face_type;                                       /* [nslots] this operator's boundary conditions (HOFLOW_FACE_*) */
  IPDGKernelData       kd[MESH_MAX_BLOCKS], kd_device[MESH_MAX_BLOCKS]; /* affine blocks */
  IPDGCurvedKernelData kc[MESH_MAX_BLOCKS], kc_device[MESH_MAX_BLOCKS]; /* curved blocks */
  PetscReal           *diag_tables[MESH_MAX_BLOCKS];
  PetscReal           *tensor1[MESH_MAX_BLOCKS];  /* sum-factorized kernels: the 1D factors of block b (IPDGTensorSetUp) */
  int                 *face_pos[MESH_MAX_BLOCKS]; /* and the face nodes' positions in their face grids */
  PetscBool            tensor[2];                 /* sum-factorized kernels on quadrilaterals and hexahedra, [host, CUDA] (-ipdg_kernel) */
  PetscReal           *g[3];                      /* host local gradient components [nodes_local] */
  double              *d_g[3];                    /* device local gradient components */
  Vec                  bwork;                     /* boundary-data residual, kept between calls; the type of the last b */
  PetscBool            split;                     /* the call's second phase on the side stream (OpShellSplitAvailable) */
} IPDGContext;

static PetscErrorCode IPDGContextDestroy(IPDGContext *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellDestroy(&ctx->op));
  PetscCall(VecDestroy(&ctx->bwork));
  PetscCall(PetscFree(ctx->face_type));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree(ctx->g[d]));
  for (PetscInt b = 0; b < ctx->dg->nblocks; b++) {
    PetscCall(PetscFree(ctx->diag_tables[b]));
    PetscCall(PetscFree(ctx->tensor1[b]));
    PetscCall(PetscFree(ctx->face_pos[b]));
  }
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_IPDG(Mat A)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(IPDGContextDestroy(ctx));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "HoflowOperatorAssemble_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "HoflowOperatorAssembleLOR_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload geometry, trace maps and transposed reference matrices of every block once; allocate the
 * device gradient. */
/* M D_a and M LIFT of the reference element, uploaded transposed (the 3D tensor-core apply's last product). */
static PetscErrorCode IPDGUploadMassProducts(HoflowDeviceArrays *a, PetscInt Np, PetscInt Nfn, const RefElement *ref, IPDGKernelData *d)
{
  PetscReal *P;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(Np * PetscMax(Np, Nfn), &P));
  for (PetscInt k = 0; k < 4; k++) {
    const PetscReal *B    = k < 3 ? ref->D[k] : ref->LIFT;
    const PetscInt   cols = k < 3 ? Np : Nfn;
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < cols; j++) {
        PetscReal s = 0;
        for (PetscInt m = 0; m < Np; m++) s += ref->M[i * Np + m] * B[m * cols + j];
        P[i * cols + j] = s;
      }
    PetscCall(HoflowDeviceArraysUploadTranspose(a, Np, cols, P, k < 3 ? &d->MDT[k] : &d->MLIFTT));
  }
  PetscCall(PetscFree(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IPDGDeviceSetUp(void *ptr)
{
  IPDGContext        *ctx = (IPDGContext *)ptr;
  HoflowDeviceArrays *a   = &ctx->op.device;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < ctx->dg->nblocks; b++) {
    const IPDGKernelData *h   = &ctx->kd[b];
    const RefElement     *ref = ctx->dg->blocks[b].ref;
    IPDGKernelData       *d   = &ctx->kd_device[b];
    const size_t          nf = (size_t)h->K * h->Nfaces, gs = HOFLOW_GEO_SIZE(h->dim);
    PetscCheck(!(ctx->tensor[1] && h->tensor) || IPDGTensorCUDASupported(h->shape, h->N), PETSC_COMM_SELF, PETSC_ERR_SUP, "-ipdg_kernel tensor: the CUDA kernels are compiled for hexahedra up to order 9, not %d; use -ipdg_kernel dense or auto", h->N);
    if (ctx->dg->blocks[b].curved) {
      const IPDGCurvedKernelData *hc = &ctx->kc[b];
      const DGCurved             *cv = ctx->dg->blocks[b].cv;
      IPDGCurvedKernelData       *dc = &ctx->kc_device[b];
      const size_t                dd = (size_t)hc->dim * hc->dim, npair = hc->dim * (hc->dim + 1) / 2;
      size_t                      nIf = 0;
      *dc                             = *hc;
      for (PetscInt f = 0; f < hc->Nfaces; f++)
        for (PetscInt o = 0; o < HOFLOW_FACE_ORIENTATIONS; o++) nIf = PetscMax(nIf, (size_t)hc->if_offset[f][o] + (size_t)hc->Nfq[f] * (hc->face_offset[f + 1] - hc->face_offset[f]));
      PetscCall(HoflowDeviceArraysUpload(a, cv->Gn, sizeof(double) * (hc->K + hc->Khalo) * hc->Np * dd, (const void **)&dc->Gn));
      dc->halo_Gn = dc->Gn + (size_t)hc->K * hc->Np * dd;
      PetscCall(HoflowDeviceArraysUpload(a, hc->vq, sizeof(double) * hc->K * hc->Nq * (npair + 1), (const void **)&dc->vq));
      PetscCall(HoflowDeviceArraysUpload(a, hc->fq, sizeof(double) * hc->K * hc->fq_offset[hc->Nfaces] * (hc->dim + 1), (const void **)&dc->fq));
      PetscCall(HoflowDeviceArraysUpload(a, hc->sgeo, sizeof(double) * nf * HOFLOW_SGEO_SIZE(hc->dim), (const void **)&dc->sgeo));
      PetscCall(HoflowDeviceArraysUpload(a, hc->face_type, sizeof(int) * nf, (const void **)&dc->face_type));
      PetscCall(HoflowDeviceArraysUpload(a, hc->fperm, sizeof(int) * nf, (const void **)&dc->fperm));
      PetscCall(HoflowDeviceArraysUpload(a, hc->vmapP, sizeof(int) * hc->K * hc->Nfn, (const void **)&dc->vmapP));
      PetscCall(HoflowDeviceArraysUpload(a, hc->face_nodes, sizeof(int) * hc->Nfn, (const void **)&dc->face_nodes));
      for (PetscInt k = 0; k < hc->dim; k++) {
        PetscCall(HoflowDeviceArraysUpload(a, hc->D[k], sizeof(double) * hc->Np * hc->Np, (const void **)&dc->D[k]));
        PetscCall(HoflowDeviceArraysUpload(a, hc->Dq[k], sizeof(double) * hc->Nq * hc->Np, (const void **)&dc->Dq[k]));
      }
      PetscCall(HoflowDeviceArraysUpload(a, hc->Iq, sizeof(double) * hc->Nq * hc->Np, (const void **)&dc->Iq));
      PetscCall(HoflowDeviceArraysUpload(a, hc->If, sizeof(double) * PetscMax(nIf, 1), (const void **)&dc->If));
      PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * PetscMax(1, hc->K) * IPDGCurvedWorkSize(hc), (const void **)&dc->work));
      if (hc->tensor) {
        const size_t n1 = (size_t)(hc->N + 1) * (hc->N + 1);
        PetscCall(HoflowDeviceArraysUpload(a, hc->D1, sizeof(double) * n1, (const void **)&dc->D1));
        PetscCall(HoflowDeviceArraysUpload(a, hc->D1T, sizeof(double) * n1, (const void **)&dc->D1T));
        PetscCall(HoflowDeviceArraysUpload(a, hc->B1, sizeof(double) * n1, (const void **)&dc->B1));
        PetscCall(HoflowDeviceArraysUpload(a, hc->B1T, sizeof(double) * n1, (const void **)&dc->B1T));
        PetscCall(HoflowDeviceArraysUpload(a, hc->G1, sizeof(double) * n1, (const void **)&dc->G1));
        PetscCall(HoflowDeviceArraysUpload(a, hc->G1T, sizeof(double) * n1, (const void **)&dc->G1T));
      }
      continue;
    }
    *d = *h;
    PetscCall(HoflowDeviceArraysUpload(a, h->geo, sizeof(double) * h->K * gs, (const void **)&d->geo));
    PetscCall(HoflowDeviceArraysUpload(a, h->halo_geo, sizeof(double) * h->Khalo * gs, (const void **)&d->halo_geo));
    PetscCall(HoflowDeviceArraysUpload(a, h->sgeo, sizeof(double) * nf * HOFLOW_SGEO_SIZE(h->dim), (const void **)&d->sgeo));
    PetscCall(HoflowDeviceArraysUpload(a, h->face_type, sizeof(int) * nf, (const void **)&d->face_type));
    PetscCall(HoflowDeviceArraysUpload(a, h->vmapP, sizeof(int) * h->K * h->Nfn, (const void **)&d->vmapP));
    PetscCall(HoflowDeviceArraysUpload(a, h->face_nodes, sizeof(int) * h->Nfn, (const void **)&d->face_nodes));
    PetscCall(HoflowDeviceArraysUpload(a, h->node_face, sizeof(int) * h->Nfn, (const void **)&d->node_face));
    for (PetscInt k = 0; k < h->dim; k++) {
      PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, ref->D[k], &d->DT[k]));
      d->D[k] = NULL; /* the CUDA kernels read the transposes */
    }
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Nfn, ref->LIFT, &d->LIFTT));
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, ref->M, &d->MT));
    if (h->dim == 3) PetscCall(IPDGUploadMassProducts(a, h->Np, h->Nfn, ref, d));
    PetscCall(HoflowDeviceArraysUpload(a, h->diag_tables, sizeof(double) * IPDGDiagonalTablesSize(h->dim, h->Np, h->Nfn), (const void **)&d->diag_tables));
    d->LIFT = d->M = NULL;
    if (h->tensor) {
      const size_t n1 = (size_t)(h->N + 1) * (h->N + 1);
      PetscCall(HoflowDeviceArraysUpload(a, h->D1, sizeof(double) * n1, (const void **)&d->D1));
      PetscCall(HoflowDeviceArraysUpload(a, h->D1T, sizeof(double) * n1, (const void **)&d->D1T));
      PetscCall(HoflowDeviceArraysUpload(a, h->M1, sizeof(double) * n1, (const void **)&d->M1));
      PetscCall(HoflowDeviceArraysUpload(a, h->A1, sizeof(double) * n1, (const void **)&d->A1));
      PetscCall(HoflowDeviceArraysUpload(a, h->A1T, sizeof(double) * n1, (const void **)&d->A1T));
      PetscCall(HoflowDeviceArraysUpload(a, h->face_pos, sizeof(int) * h->Nfn, (const void **)&d->face_pos));
    }
  }
  for (PetscInt k = 0; k < ctx->dg->dim; k++) PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * ctx->dg->nodes_local, (const void **)&ctx->d_g[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernels of one call's backend and block kind. */
static int IPDGGradient(IPDGContext *ctx, PetscInt b, int halo, int e0, int e1, const double *u, double *const g[3])
{
  if (e1 <= e0) return 0;
  if (ctx->dg->blocks[b].curved) {
    const int tensor = ctx->kc[b].tensor && ctx->tensor[ctx->op.on_device ? 1 : 0];
    if (!ctx->op.on_device) {
      if (tensor)
        IPDGCurvedTensorGradientHost(&ctx->kc[b], halo, e0, e1, u, g[0], g[1], g[2]);
      else
        IPDGCurvedGradientHost(&ctx->kc[b], halo, e0, e1, u, g[0], g[1], g[2]);
      return 0;
    }
    ctx->kc_device[b].stream = ctx->op.stream;
    return tensor ? HOFLOW_CUDA(IPDGCurvedTensorGradientCUDA(&ctx->kc_device[b], halo, e0, e1, u, g[0], g[1], g[2])) : HOFLOW_CUDA(IPDGCurvedGradientCUDA(&ctx->kc_device[b], halo, e0, e1, u, g[0], g[1], g[2]));
  }
  if (!ctx->op.on_device) {
    if (ctx->kd[b].tensor && ctx->tensor[0])
      IPDGTensorGradientHost(&ctx->kd[b], halo, e0, e1, u, g[0], g[1], g[2]);
    else
      IPDGGradientHost(&ctx->kd[b], halo, e0, e1, u, g[0], g[1], g[2]);
    return 0;
  }
  ctx->kd_device[b].stream = ctx->op.stream;
  return ctx->kd[b].tensor && ctx->tensor[1] ? HOFLOW_CUDA(IPDGTensorGradientCUDA(&ctx->kd_device[b], halo, e0, e1, u, g[0], g[1], g[2])) : HOFLOW_CUDA(IPDGGradientCUDA(&ctx->kd_device[b], halo, e0, e1, u, g[0], g[1], g[2]));
}

static int IPDGApply(IPDGContext *ctx, PetscInt b, int e0, int e1, const double *u, double *const g[3], const double *bc, double *Au)
{
  if (e1 <= e0) return 0;
  if (ctx->dg->blocks[b].curved) {
    const int tensor = ctx->kc[b].tensor && ctx->tensor[ctx->op.on_device ? 1 : 0];
    if (!ctx->op.on_device) {
      if (tensor)
        IPDGCurvedTensorApplyHost(&ctx->kc[b], e0, e1, u, g[0], g[1], g[2], bc, Au);
      else
        IPDGCurvedApplyHost(&ctx->kc[b], e0, e1, u, g[0], g[1], g[2], bc, Au);
      return 0;
    }
    ctx->kc_device[b].stream = ctx->op.stream;
    return tensor ? HOFLOW_CUDA(IPDGCurvedTensorApplyCUDA(&ctx->kc_device[b], e0, e1, u, g[0], g[1], g[2], bc, Au)) : HOFLOW_CUDA(IPDGCurvedApplyCUDA(&ctx->kc_device[b], e0, e1, u, g[0], g[1], g[2], bc, Au));
  }
  if (!ctx->op.on_device) {
    if (ctx->kd[b].tensor && ctx->tensor[0])
      IPDGTensorApplyHost(&ctx->kd[b], e0, e1, u, g[0], g[1], g[2], bc, Au);
    else
      IPDGApplyHost(&ctx->kd[b], e0, e1, u, g[0], g[1], g[2], bc, Au);
    return 0;
  }
  ctx->kd_device[b].stream = ctx->op.stream;
  return ctx->kd[b].tensor && ctx->tensor[1] ? HOFLOW_CUDA(IPDGTensorApplyCUDA(&ctx->kd_device[b], e0, e1, u, g[0], g[1], g[2], bc, Au)) : HOFLOW_CUDA(IPDGApplyCUDA(&ctx->kd_device[b], e0, e1, u, g[0], g[1], g[2], bc, Au));
}

/* Au = A(u) + A_bc(bc) on every block: gradients and the interior elements from the owned array u
 * (owned nodes have the same index in the local array), then, with the halo in ulocal, the halo
 * gradients and the elements next to other ranks. With ulocal == NULL the caller has u complete
 * (local) and everything runs at once. bc: face-node data [elem_fnode[K]] or NULL. */
static PetscErrorCode IPDGApplyPhase(IPDGContext *ctx, PetscBool second, const double *u, const double *bc, double *Au)
{
  DGDisc        *dg   = ctx->dg;
  const Mesh    *mesh = dg->mesh;
  double *const *g    = ctx->op.on_device ? ctx->d_g : ctx->g;
  PetscLogDouble fg = 0, fa = 0;
  PetscBool      work = PETSC_FALSE;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const MeshBlock *mb = &mesh->blocks[b];
    work                = (PetscBool)(work || (second ? mb->halo_end > mb->halo_start || mb->end > mb->interior_end : PETSC_TRUE));
  }
  if (!work) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OpShellEventBegin(&ctx->op, HOFLOW_IPDGGradient));
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const MeshBlock      *mb = &mesh->blocks[b];
    const IPDGKernelData *kd = &ctx->kd[b];
    const int             n  = second ? (int)(mb->halo_end - mb->halo_start) : kd->K;
    PetscCall(OpShellCheckKernel(&ctx->op, IPDGGradient(ctx, b, second, 0, n, u, g), "SIPDG gradient"));
    fg += n * (kd->tensor && ctx->tensor[ctx->op.on_device ? 1 : 0] ? IPDGTensorGradientFlopsPerElement(kd->dim, kd->N) : dg->blocks[b].curved ? IPDGCurvedGradientFlopsPerElement(kd->dim, kd->Np)
                                                                                                                                               : IPDGGradientFlopsPerElement(kd->dim, kd->Np));
  }
  PetscCall(OpShellEventEnd(&ctx->op, HOFLOW_IPDGGradient, fg));
  if (!second && ctx->split) PetscCall(OpShellStreamOrder(&ctx->op, 1, PETSC_FALSE)); /* the owned gradients, for the side stream */
  PetscCall(OpShellEventBegin(&ctx->op, HOFLOW_IPDGApply));
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const MeshBlock      *mb = &mesh->blocks[b];
    const IPDGKernelData *kd = &ctx->kd[b];
    const int             e0 = second ? (int)(mb->interior_end - mb->start) : 0, e1 = second ? kd->K : (int)(mb->interior_end - mb->start);
    PetscCall(OpShellCheckKernel(&ctx->op, IPDGApply(ctx, b, e0, e1, u, g, bc ? bc + dg->blocks[b].fnode0 : NULL, Au), "SIPDG apply"));
    fa += (e1 - e0) * (kd->tensor && ctx->tensor[ctx->op.on_device ? 1 : 0] ? IPDGTensorApplyFlopsPerElement(kd->dim, kd->N) : dg->blocks[b].curved ? IPDGCurvedApplyFlopsPerElement(&ctx->kc[b])
                                                                                                                                                    : IPDGApplyFlopsPerElement(kd->dim, kd->Np, kd->Nfaces, kd->Nfn));
  }
  PetscCall(OpShellEventEnd(&ctx->op, HOFLOW_IPDGApply, fa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_IPDG(Mat A, Vec x, Vec y)
{
  IPDGContext       *ctx;
  const PetscScalar *xa, *xl;
  PetscScalar       *ya;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(OpShellBegin(&ctx->op, x, NULL));
  /* split (several GPUs, CUDA IPC): the exchange, the halo gradients and the elements next to other ranks on the side
   * stream, beside the gradients and interior elements on PETSc's; the side stream starts after PETSc's work so far
   * and waits for the owned gradients before its second phase, PETSc's waits for it at the end */
  PetscCall(OpShellSplitAvailable(&ctx->op, &ctx->split));
  if (ctx->split) {
    PetscCall(OpShellStreamOrder(&ctx->op, 0, PETSC_FALSE));
    PetscCall(OpShellStreamUse(&ctx->op, PETSC_TRUE));
  }
  PetscCall(OpShellHaloBegin(&ctx->op, 0, x));
  PetscCall(OpShellStreamUse(&ctx->op, PETSC_FALSE));
  if (!ctx->op.halo_ipc_slot[0]) ctx->split = PETSC_FALSE; /* the round went to PetscSF (its pack and unpack on PETSc's stream) */
  PetscCall(OpShellGetArrayRead(&ctx->op, x, &xa));
  PetscCall(OpShellGetArrayWrite(&ctx->op, y, &ya));
  PetscCall(IPDGApplyPhase(ctx, PETSC_FALSE, xa, NULL, ya));
  PetscCall(OpShellStreamUse(&ctx->op, ctx->split));
  PetscCall(OpShellHaloEnd(&ctx->op, 0, x, &xl));
  PetscCall(IPDGApplyPhase(ctx, PETSC_TRUE, xl, NULL, ya));
  PetscCall(OpShellHaloRestore(&ctx->op, 0, &xl));
  if (ctx->split) {
    PetscCall(OpShellStreamOrder(&ctx->op, 2, PETSC_TRUE));
    PetscCall(OpShellStreamUse(&ctx->op, PETSC_FALSE));
    ctx->split = PETSC_FALSE;
  }
  PetscCall(OpShellRestoreArrayWrite(&ctx->op, y, &ya));
  PetscCall(OpShellRestoreArrayRead(&ctx->op, x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorTimeKernels(Mat A, Vec x, PetscInt reps, PetscReal *t_gradient, PetscReal *t_apply)
{
  IPDGContext       *ctx;
  const PetscScalar *xl;
  PetscScalar       *ya;
  PetscLogDouble     t0, t1, t2;
  Vec                y, local;
  int                err = 0;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCheck(ctx->dg->nblocks == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "Kernel timing needs a mesh of one element shape");
  PetscCall(VecDuplicate(x, &y));
  PetscCall(MatMult(A, x, y)); /* warm up; device setup */
  PetscCall(OpShellBegin(&ctx->op, x, NULL));
  PetscCall(OpShellGetLocal(&ctx->op, 0, &local));
  PetscCall(DMGlobalToLocal(ctx->dg->dm, x, INSERT_VALUES, local));
  PetscCall(OpShellGetArrayRead(&ctx->op, local, &xl));
  PetscCall(OpShellGetArrayWrite(&ctx->op, y, &ya));
  {
    double *const *g = ctx->op.on_device ? ctx->d_g : ctx->g;
    const int      K = ctx->kd[0].K;
    if (ctx->op.on_device) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps && !err; k++) err = IPDGGradient(ctx, 0, 0, 0, K, xl, g);
    if (ctx->op.on_device && !err) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(PetscTime(&t1));
    for (PetscInt k = 0; k < reps && !err; k++) err = IPDGApply(ctx, 0, 0, K, xl, g, NULL, ya);
    if (ctx->op.on_device && !err) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(PetscTime(&t2));
  }
  PetscCall(OpShellCheckKernel(&ctx->op, err, "SIPDG"));
  PetscCall(OpShellRestoreArrayWrite(&ctx->op, y, &ya));
  PetscCall(OpShellRestoreArrayRead(&ctx->op, local, &xl));
  *t_gradient = (t1 - t0) / reps;
  *t_apply    = (t2 - t1) / reps;
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorTimeExchange(Mat A, Vec x, PetscInt reps, PetscReal *t_exchange, PetscReal *t_mult)
{
  IPDGContext       *ctx;
  const PetscScalar *xl;
  PetscLogDouble     t0, t1, t2, t3;
  Vec                y;
  MPI_Comm           comm;
  int                err = 0;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(MatMult(A, x, y)); /* warm up; device setup */
  if (ctx->op.on_device) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
  PetscCall(OpShellCheckKernel(&ctx->op, err, "synchronize"));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) { /* the exchange alone, the device idle before each */
    PetscCall(OpShellBegin(&ctx->op, x, NULL));
    PetscCall(OpShellHaloBegin(&ctx->op, 0, x));
    PetscCall(OpShellHaloEnd(&ctx->op, 0, x, &xl));
    PetscCall(OpShellHaloRestore(&ctx->op, 0, &xl));
    if (ctx->op.on_device) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(OpShellCheckKernel(&ctx->op, err, "synchronize"));
  }
  PetscCall(PetscTime(&t1));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t2));
  for (PetscInt k = 0; k < reps; k++) PetscCall(MatMult(A, x, y)); /* back to back, as in a smoother */
  if (ctx->op.on_device) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
  PetscCall(OpShellCheckKernel(&ctx->op, err, "synchronize"));
  PetscCall(PetscTime(&t3));
  *t_exchange = (t1 - t0) / reps;
  *t_mult     = (t3 - t2) / reps;
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal (Jacobi and Chebyshev setup) from the reference tables. */
static PetscErrorCode MatGetDiagonal_IPDG(Mat A, Vec d)
{
  IPDGContext   *ctx;
  PetscScalar   *da;
  PetscBool      on_device;
  PetscLogDouble flops = 0;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(OpShellBegin(&ctx->op, d, &on_device));
  PetscCall(OpShellEventBegin(&ctx->op, HOFLOW_IPDGDiagonal));
  PetscCall(OpShellGetArrayWrite(&ctx->op, d, &da));
  for (PetscInt b = 0; b < ctx->dg->nblocks; b++) {
    const IPDGKernelData *kd = &ctx->kd[b];
    if (ctx->dg->blocks[b].curved) {
      if (!on_device)
        IPDGCurvedDiagonalHost(&ctx->kc[b], da);
      else {
        ctx->kc_device[b].stream = ctx->op.stream;
        PetscCall(OpShellCheckKernel(&ctx->op, HOFLOW_CUDA(IPDGCurvedDiagonalCUDA(&ctx->kc_device[b], da)), "SIPDG diagonal"));
      }
      flops += kd->K * IPDGCurvedApplyFlopsPerElement(&ctx->kc[b]) * 2.0;
      continue;
    }
    if (!on_device)
      IPDGDiagonalHost(kd, da);
    else {
      ctx->kd_device[b].stream = ctx->op.stream;
      PetscCall(OpShellCheckKernel(&ctx->op, HOFLOW_CUDA(IPDGDiagonalCUDA(&ctx->kd_device[b], da)), "SIPDG diagonal"));
    }
    flops += kd->K * IPDGDiagonalFlopsPerElement(kd->dim, kd->Np, kd->Nfaces, kd->Nfn);
  }
  PetscCall(OpShellRestoreArrayWrite(&ctx->op, d, &da));
  PetscCall(OpShellEventEnd(&ctx->op, HOFLOW_IPDGDiagonal, flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reference tables of the diagonal (hoflow/kernels/ipdg.h): volume stiffness diagonals and face terms. */
static PetscErrorCode IPDGDiagonalTables(const RefElement *ref, PetscReal **tables)
{
  const PetscInt Np = ref->Np, Nfn = ref->Nfn, dim = ref->dim, npair = dim * (dim + 1) / 2;
  PetscReal     *T, *FD, *Mfd;
  PetscInt       k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(IPDGDiagonalTablesSize((int)dim, (int)Np, (int)Nfn), &T));
  FD  = T + (npair + 1) * Np;
  Mfd = FD + dim * Nfn;
  for (PetscInt a = 0; a < dim; a++)
    for (PetscInt b = a; b < dim; b++, k++)
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt p = 0; p < Np; p++)
          for (PetscInt q = 0; q < Np; q++) T[k * Np + i] += ref->D[a][p * Np + i] * ref->M[p * Np + q] * ref->D[b][q * Np + i];
  for (PetscInt i = 0; i < Np; i++) T[npair * Np + i] = ref->M[i * Np + i];
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const PetscInt   Nfp = ref->Nfp[f], off = ref->face_offset[f];
    const PetscReal *Mf = ref->Mface + ref->face_mass_offset[f];
    for (PetscInt a = 0; a < Nfp; a++) {
      const PetscInt m = ref->face_nodes[off + a];
      for (PetscInt b = 0; b < Nfp; b++) {
        const PetscInt mb = ref->face_nodes[off + b];
        for (PetscInt d = 0; d < dim; d++) FD[d * Nfn + off + a] += Mf[a * Nfp + b] * ref->D[d][mb * Np + m];
      }
      Mfd[off + a] = Mf[a * Nfp + a];
    }
  }
  *tables = T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The 1D factors of the sum-factorized kernels on block b (hoflow/kernels/ipdg_tensor.h), checked
 * against the element's own matrices (the kernels rely on the nodes, the cubature and the face nodes
 * being tensor products in the order ref.h states). */
static PetscErrorCode IPDGTensorSetUp(IPDGContext *ctx, PetscInt b)
{
  const DGBlock    *blk = &ctx->dg->blocks[b];
  const RefElement *ref = blk->ref;
  const PetscInt    N1 = ref->N1, n1 = N1 * N1, dim = ref->dim, Np = ref->Np, Nfp = ref->Nfn / ref->Nfaces;
  IPDGKernelData   *kd = &ctx->kd[b];
  PetscReal        *T, err = 0;
  int              *pos;

  PetscFunctionBeginUser;
  PetscCheck(N1 == ref->N + 1 && ref->D1 && ref->M1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The %s reference element of order %" PetscInt_FMT " has no 1D factors", RefShapeTable[ref->shape].name, ref->N);
  PetscCall(PetscMalloc1(9 * n1, &T));
  PetscCall(PetscMalloc1(ref->Nfn, &pos));
  ctx->tensor1[b]  = T;
  ctx->face_pos[b] = pos;
  /* D1, D1T, M1, A1 = D1^T M1 */
  for (PetscInt i = 0; i < N1; i++)
    for (PetscInt k = 0; k < N1; k++) {
      PetscReal a = 0;
      for (PetscInt m = 0; m < N1; m++) a += ref->D1[m * N1 + i] * ref->M1[m * N1 + k];
      T[i * N1 + k]          = ref->D1[i * N1 + k];
      T[n1 + i * N1 + k]     = ref->D1[k * N1 + i];
      T[2 * n1 + i * N1 + k] = ref->M1[i * N1 + k];
      T[3 * n1 + i * N1 + k] = a;
      T[8 * n1 + k * N1 + i] = a;
    }
  /* the element's D_a and M against the Kronecker products of the factors */
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal m = 1, dd[3] = {1, 1, 1};
      for (PetscInt c = 0, ii = i, jj = j; c < dim; c++, ii /= N1, jj /= N1) {
        const PetscInt a = ii % N1, k = jj % N1;
        m *= ref->M1[a * N1 + k];
        for (PetscInt x = 0; x < dim; x++) dd[x] *= x == c ? ref->D1[a * N1 + k] : (PetscReal)(a == k);
      }
      err = PetscMax(err, PetscAbsReal(m - ref->M[i * Np + j]));
      for (PetscInt x = 0; x < dim; x++) err = PetscMax(err, PetscAbsReal(dd[x] - ref->D[x][i * Np + j]) / N1 / N1);
    }
  PetscCheck(err < 1e-11, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ipdg_kernel tensor: the %s element of order %" PetscInt_FMT " is not the tensor product of its 1D factors (difference %g)", RefShapeTable[ref->shape].name, ref->N, (double)err);
  /* faces: the normal direction and the face nodes' positions in the face grid */
  for (PetscInt f = 0; f < ref->Nfaces; f++) {
    const PetscInt off = ref->face_offset[f];
    PetscInt       fd  = -1;
    PetscCheck(ref->Nfp[f] == Nfp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ipdg_kernel tensor: face %" PetscInt_FMT " of the %s element has %" PetscInt_FMT " nodes, expected %" PetscInt_FMT, f, RefShapeTable[ref->shape].name, ref->Nfp[f], Nfp);
    for (PetscInt c = 0, st = 1; c < dim && fd < 0; c++, st *= N1) {
      PetscBool same = PETSC_TRUE;
      for (PetscInt a = 1; a < Nfp; a++) same = (PetscBool)(same && (ref->face_nodes[off + a] / st) % N1 == (ref->face_nodes[off] / st) % N1);
      if (same) fd = c;
    }
    PetscCheck(fd >= 0 && off == f * Nfp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ipdg_kernel tensor: face %" PetscInt_FMT " of the %s element does not lie on a grid plane", f, RefShapeTable[ref->shape].name);
    kd->face_dir[f] = (int)fd;
    for (PetscInt a = 0; a < Nfp; a++) {
      const PetscInt m = ref->face_nodes[off + a];
      PetscInt       p = 0;
      for (PetscInt c = dim - 1, st = Np / N1; c >= 0; c--, st /= N1)
        if (c != fd) p = p * N1 + (m / st) % N1;
      pos[off + a] = (int)p;
    }
  }
  kd->tensor   = 1;
  kd->D1       = T;
  kd->D1T      = T + n1;
  kd->M1       = T + 2 * n1;
  kd->A1       = T + 3 * n1;
  kd->A1T      = T + 8 * n1;
  kd->face_pos = pos;
  if (blk->curved) { /* the cubature must be the tensor Gauss rule of N1 points */
    IPDGCurvedKernelData *kc = &ctx->kc[b];
    PetscReal            *B1 = T + 4 * n1, *B1T = T + 5 * n1, *G1 = T + 6 * n1, *G1T = T + 7 * n1, l[HOFLOW_NMAX + 1], dl[HOFLOW_NMAX + 1];
    PetscCheck(ref->Nq == Np, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ipdg_kernel tensor: the %s cubature has %" PetscInt_FMT " points, expected %" PetscInt_FMT, RefShapeTable[ref->shape].name, ref->Nq, Np);
    for (PetscInt q = 0; q < N1; q++) {
      LagrangeMatrix1D(N1, ref->x1, 1, ref->xiq + q * dim, l, dl);
      for (PetscInt k = 0; k < N1; k++) {
        B1[q * N1 + k] = B1T[k * N1 + q] = l[k];
        G1[q * N1 + k] = G1T[k * N1 + q] = dl[k];
      }
    }
    err = 0;
    for (PetscInt q = 0; q < Np; q++)
      for (PetscInt j = 0; j < Np; j++) {
        PetscReal m = 1, dd[3] = {1, 1, 1};
        for (PetscInt c = 0, qq = q, jj = j; c < dim; c++, qq /= N1, jj /= N1) {
          const PetscInt a = qq % N1, k = jj % N1;
          m *= B1[a * N1 + k];
          for (PetscInt x = 0; x < dim; x++) dd[x] *= x == c ? G1[a * N1 + k] : B1[a * N1 + k];
        }
        err = PetscMax(err, PetscAbsReal(m - ref->Iq[q * Np + j]));
        for (PetscInt x = 0; x < dim; x++) err = PetscMax(err, PetscAbsReal(dd[x] - blk->cv->Dq[x][q * Np + j]) / N1 / N1);
      }
    PetscCheck(err < 1e-11, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-ipdg_kernel tensor: the %s cubature of order %" PetscInt_FMT " is not the tensor Gauss rule (difference %g)", RefShapeTable[ref->shape].name, ref->N, (double)err);
    kc->tensor = 1;
    kc->D1     = kd->D1;
    kc->D1T    = kd->D1T;
    kc->B1     = B1;
    kc->B1T    = B1T;
    kc->G1     = G1;
    kc->G1T    = G1T;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the second phase of a product reads from the local vector besides the halo: the values of the owned
 * elements with a halo neighbour (their apply follows the exchange) and of their owned face neighbours. The
 * exchange moves only these, not the whole vector (on one rank: nothing). */
static PetscErrorCode IPDGSetHaloReads(IPDGContext *ctx)
{
  const DGDisc *dg   = ctx->dg;
  const Mesh   *mesh = dg->mesh;
  PetscInt      n = 0, cap = 0, *start, *len;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mesh->nblocks; b++)
    for (PetscInt e = mesh->blocks[b].interior_end; e < mesh->blocks[b].end; e++) cap += 1 + mesh->face_slot[e + 1] - mesh->face_slot[e];
  PetscCall(PetscMalloc2(cap, &start, cap, &len));
  for (PetscInt b = 0; b < mesh->nblocks; b++)
    for (PetscInt e = mesh->blocks[b].interior_end; e < mesh->blocks[b].end; e++) {
      start[n] = dg->elem_node[e];
      len[n++] = dg->elem_node[e + 1] - dg->elem_node[e];
      for (PetscInt f = mesh->face_slot[e]; f < mesh->face_slot[e + 1]; f++) {
        const PetscInt nb = mesh->face_elem[f];
        if (nb < 0 || nb >= mesh->K) continue;
        start[n] = dg->elem_node[nb];
        len[n++] = dg->elem_node[nb + 1] - dg->elem_node[nb];
      }
    }
  PetscCall(OpShellSetHaloReads(&ctx->op, n, start, len));
  PetscCall(PetscFree2(start, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorCreate(DGDisc *dg, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  IPDGContext *ctx;
  const Mesh  *mesh    = dg->mesh;
  PetscInt     rows[2] = {0, 0}, per_thread[2] = {0, 0}, n = 2, kernel = 2, max_np = 0, units = 0;
  const char  *kernels[] = {"dense", "tensor", "auto"}, *unit_names[] = {"auto", "cuda_cores", "tensor_cores"};

  PetscFunctionBeginUser;
  PetscCheck(lambda >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The screening constant lambda = %g must be >= 0", (double)lambda);
  if (!face_type) face_type = mesh->face_type;
  for (PetscInt k = 0; k < mesh->nslots; k++) {
    PetscCheck(face_type[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call MeshSetBoundaryTypes() before creating operators");
    PetscCheck((face_type[k] == HOFLOW_FACE_INTERIOR) == (mesh->face_elem[k] >= 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Face slot %" PetscInt_FMT ": boundary type %" PetscInt_FMT " does not match the mesh (interior faces are interior, boundary faces Dirichlet or Neumann)", k, face_type[k]);
  }
  PetscCall(PetscNew(&ctx));
  ctx->dg     = dg;
  ctx->lambda = lambda;
  PetscCall(OpShellInit(&ctx->op, "SIPDG", dg->dm, IPDGDeviceSetUp, ctx));
  PetscCall(OpShellCreateLocal(&ctx->op, 1));
  PetscCall(IPDGSetHaloReads(ctx));
  PetscCall(PetscMalloc1(mesh->nslots, &ctx->face_type));
  PetscCall(PetscArraycpy(ctx->face_type, face_type, mesh->nslots));
  for (PetscInt d = 0; d < dg->dim; d++) PetscCall(PetscMalloc1(dg->nodes_local, &ctx->g[d]));

  PetscOptionsBegin(PetscObjectComm((PetscObject)dg->dm), NULL, "SIPDG operator", NULL);
  PetscCall(PetscOptionsIntArray("-ipdg_cuda_elements_per_block", "Thread rows (element groups) per CUDA block for the gradient and apply kernels (0: tuned table)", NULL, rows, &n, NULL));
  n = 2;
  PetscCall(PetscOptionsIntArray("-ipdg_cuda_elements_per_thread", "Elements per CUDA thread (1, 2, 4, 8) for the gradient and apply kernels (0: tuned table)", NULL, per_thread, &n, NULL));
  PetscCall(PetscOptionsEList("-ipdg_cuda_apply_units", "The 3D dense SIPDG apply on CUDA: FP64 CUDA cores, FP64 tensor cores (mma, sm_80 and later; where 8 elements fit a block's shared memory, else CUDA cores), or auto (the tuned table)", NULL, unit_names, 3, unit_names[units], &units, NULL));
  PetscCall(PetscOptionsEList("-ipdg_kernel", "SIPDG kernels on quadrilaterals and hexahedra: dense matrices, sum factorization, or auto (where measured faster: sum factorization on the host; on CUDA for hexahedra N >= 2 and quadrilaterals N >= 4); simplices and prisms always dense", NULL, kernels, 3, kernels[kernel], &kernel, NULL));
  PetscOptionsEnd();
  ctx->tensor[0] = (PetscBool)(kernel != 0);
  ctx->tensor[1] = (PetscBool)(kernel == 1 || (kernel == 2 && IPDGTensorCUDAPreferred((int)dg->dim, (int)dg->N)));
  for (PetscInt b = 0; b < dg->nblocks; b++) max_np = PetscMax(max_np, dg->blocks[b].ref->Np);
  for (PetscInt k = 0; k < 2; k++) {
    PetscCheck(rows[k] >= 0 && rows[k] <= 1024, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_cuda_elements_per_block %" PetscInt_FMT " must be in 0..1024", rows[k]);
    PetscCheck(per_thread[k] == 0 || per_thread[k] == 1 || per_thread[k] == 2 || per_thread[k] == 4 || per_thread[k] == 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_cuda_elements_per_thread %" PetscInt_FMT " must be 1, 2, 4 or 8 (0: tuned)", per_thread[k]);
    PetscCheck(dg->dim == 2 || per_thread[k] <= 2 || (per_thread[k] == 4 && max_np <= 56) || (per_thread[k] == 8 && max_np <= 20), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "-ipdg_cuda_elements_per_thread %" PetscInt_FMT ": 3D elements run 1 or 2 elements per CUDA thread, 4 for elements of up to 56 nodes, 8 up to 20 (this mesh has %" PetscInt_FMT "; 0: tuned)", per_thread[k], max_np);
  }
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const DGBlock    *blk = &dg->blocks[b];
    const MeshBlock  *mb  = &mesh->blocks[b];
    const RefElement *ref = blk->ref;
    IPDGKernelData   *kd  = &ctx->kd[b];
    const PetscInt    gs = HOFLOW_GEO_SIZE(dg->dim), ss = HOFLOW_SGEO_SIZE(dg->dim);
    kd->shape      = ref->shape;
    kd->dim        = (int)dg->dim;
    kd->N          = (int)dg->N;
    kd->Np         = (int)ref->Np;
    kd->Nfaces     = (int)ref->Nfaces;
    kd->Nfn        = (int)ref->Nfn;
    kd->K          = (int)(mb->end - mb->start);
    kd->Khalo      = (int)(mb->halo_end - mb->halo_start);
    kd->node0      = (int)blk->node0;
    kd->halo_node0 = (int)blk->halo_node0;
    kd->geo        = mesh->geo + mb->start * gs;
    kd->halo_geo   = mesh->geo + mb->halo_start * gs;
    kd->sgeo       = dg->sgeo + blk->slot0 * ss;
    kd->face_type  = (const int *)ctx->face_type + blk->slot0;
    kd->vmapP      = (const int *)dg->vmapP + blk->fnode0;
    kd->face_nodes = (const int *)ref->face_nodes;
    kd->node_face  = (const int *)blk->node_face;
    for (PetscInt d = 0; d < dg->dim; d++) kd->D[d] = ref->D[d];
    kd->LIFT   = ref->LIFT;
    kd->M      = ref->M;
    kd->lambda = lambda;
    if (blk->curved) { /* the curved kernels' data (kd keeps the sizes the shared code reads) */
      IPDGCurvedKernelData *kc = &ctx->kc[b];
      const DGCurved       *cv = blk->cv;
      kc->shape                = ref->shape;
      kc->dim                  = (int)dg->dim;
      kc->N                    = (int)dg->N;
      kc->Np                   = (int)ref->Np;
      kc->Nfaces               = (int)ref->Nfaces;
      kc->Nfn                  = (int)ref->Nfn;
      kc->Nq                   = (int)cv->Nq;
      kc->NfpMax               = (int)ref->NfpMax;
      kc->NfqMax               = (int)cv->NfqMax;
      for (PetscInt f = 0; f <= ref->Nfaces; f++) {
        kc->face_offset[f] = (int)ref->face_offset[f];
        kc->fq_offset[f]   = (int)cv->fq_offset[f];
        if (f < ref->Nfaces) {
          kc->Nfq[f] = (int)cv->Nfq[f];
          for (PetscInt o = 0; o < HOFLOW_FACE_ORIENTATIONS; o++) kc->if_offset[f][o] = (int)cv->if_offset[f][o];
        }
      }
      kc->K          = kd->K;
      kc->Khalo      = kd->Khalo;
      kc->node0      = kd->node0;
      kc->halo_node0 = kd->halo_node0;
      kc->Gn         = cv->Gn;
      kc->halo_Gn    = cv->Gn + (size_t)kd->K * ref->Np * dg->dim * dg->dim;
      kc->vq         = cv->vq;
      kc->fq         = cv->fq;
      kc->sgeo       = kd->sgeo;
      kc->face_type  = kd->face_type;
      kc->fperm      = (const int *)cv->fperm;
      kc->vmapP      = kd->vmapP;
      kc->face_nodes = kd->face_nodes;
      for (PetscInt d = 0; d < dg->dim; d++) {
        kc->D[d]  = ref->D[d];
        kc->Dq[d] = cv->Dq[d];
      }
      kc->Iq     = ref->Iq;
      kc->If     = cv->If;
      kc->lambda = lambda;
    }
    PetscCall(IPDGDiagonalTables(ref, &ctx->diag_tables[b]));
    if ((ctx->tensor[0] || ctx->tensor[1]) && IPDGTensorHostSupported(ref->shape, (int)dg->N)) PetscCall(IPDGTensorSetUp(ctx, b));
    kd->diag_tables = ctx->diag_tables[b];
    for (PetscInt k = 0; k < 2; k++) {
      kd->elements_per_block[k]  = (int)rows[k];
      kd->elements_per_thread[k] = (int)per_thread[k];
    }
    kd->apply_units = (int)units;
  }
  PetscCall(OpShellCreateMat(&ctx->op, dg->nodes, ctx, (void (*)(void))MatMult_IPDG, (void (*)(void))MatDestroy_IPDG, A));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_IPDG));
  PetscCall(MatSetDM(*A, dg->dm));
  /* the preconditioning matrices of -pmat assembled|lor (solver/pmat.c) */
  PetscCall(PetscObjectComposeFunction((PetscObject)*A, "HoflowOperatorAssemble_C", (void (*)(void))IPDGOperatorAssemble));
  PetscCall(PetscObjectComposeFunction((PetscObject)*A, "HoflowOperatorAssembleLOR_C", (void (*)(void))LOROperatorAssemble));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The context of a SIPDG operator; an error naming the matrix when it is not one. */
static PetscErrorCode IPDGOperatorGetContext(Mat A, IPDGContext **ctx)
{
  void (*mult)(void) = NULL;
  PetscBool   shell;
  const char *name;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSHELL, &shell));
  if (shell) PetscCall(MatShellGetOperation(A, MATOP_MULT, &mult));
  PetscCall(PetscObjectGetName((PetscObject)A, &name));
  PetscCheck(mult == (void (*)(void))MatMult_IPDG, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Matrix '%s' is not a hoflow SIPDG operator; hoflow's preconditioners (-pc_type inverse_mass, pmg) need one as the preconditioning matrix: use -pmat shell", name);
  PetscCall(MatShellGetContext(A, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorGetDisc(Mat A, DGDisc **dg)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  *dg = ctx->dg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorGetFaceTypes(Mat A, const PetscInt **face_type)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  *face_type = ctx->face_type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorGetLambda(Mat A, PetscReal *lambda)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  *lambda = ctx->lambda;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b -= A(0) with boundary data bc on the backend of b (bc on the same backend). */
static PetscErrorCode IPDGSubtractBoundaryResidual(IPDGContext *ctx, const PetscScalar *bc, Vec b)
{
  const PetscScalar *zero;
  PetscScalar       *ra;
  Vec                zlocal, r;

  PetscFunctionBeginUser;
  if (ctx->bwork) { /* reuse the work vector: this runs several times per time step */
    VecType   tb, tw;
    PetscBool same;
    PetscCall(VecGetType(b, &tb));
    PetscCall(VecGetType(ctx->bwork, &tw));
    PetscCall(PetscStrcmp(tb, tw, &same));
    if (!same) PetscCall(VecDestroy(&ctx->bwork));
  }
  if (!ctx->bwork) PetscCall(VecDuplicate(b, &ctx->bwork));
  r = ctx->bwork;
  PetscCall(OpShellGetLocal(&ctx->op, 0, &zlocal)); /* the input's slot: MatMult refills it */
  PetscCall(VecZeroEntries(zlocal));
  PetscCall(OpShellGetArrayRead(&ctx->op, zlocal, &zero));
  PetscCall(OpShellGetArrayWrite(&ctx->op, r, &ra));
  PetscCall(IPDGApplyPhase(ctx, PETSC_FALSE, zero, bc, ra));
  PetscCall(IPDGApplyPhase(ctx, PETSC_TRUE, zero, bc, ra));
  PetscCall(OpShellRestoreArrayWrite(&ctx->op, r, &ra));
  PetscCall(OpShellRestoreArrayRead(&ctx->op, zlocal, &zero));
  PetscCall(VecAXPY(b, -1.0, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorAddBoundaryData(Mat A, const PetscReal bc_data[], Vec b)
{
  IPDGContext *ctx;
  Vec          bh;
  PetscBool    on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(OpShellBegin(&ctx->op, b, &on_device));
  if (on_device) { /* the data to the device and the device kernels on b (a host copy of b through the host
                    * kernels took as long as the host right-hand side, about 1 s at 19.3 M DOFs) */
    void *d_bc;
    PetscCall(HoflowDeviceUploadChecked(bc_data, sizeof(double) * PetscMax(1, ctx->dg->elem_fnode[ctx->dg->mesh->K]), &d_bc));
    PetscCall(IPDGSubtractBoundaryResidual(ctx, (const PetscScalar *)d_bc, b));
    PetscCall(HoflowDeviceFreeChecked(d_bc)); /* cudaFree waits for the kernels */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* host data: the host kernels on a host copy of b */
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)A), ctx->dg->nodes, PETSC_DETERMINE, &bh));
  PetscCall(VecCopy(b, bh));
  PetscCall(OpShellBegin(&ctx->op, bh, NULL));
  PetscCall(IPDGSubtractBoundaryResidual(ctx, bc_data, bh));
  PetscCall(VecCopy(bh, b));
  PetscCall(VecDestroy(&bh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorAddBoundaryDataVec(Mat A, Vec bc, Vec b)
{
  IPDGContext       *ctx;
  const PetscScalar *bca;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(OpShellBegin(&ctx->op, b, NULL));
  PetscCall(OpShellGetArrayRead(&ctx->op, bc, &bca));
  PetscCall(IPDGSubtractBoundaryResidual(ctx, bca, b));
  PetscCall(OpShellRestoreArrayRead(&ctx->op, bc, &bca));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Physical derivative matrices of an element: Dx_j = sum_d (dr_d/dx_j) D_d. */
static void ElementDerivatives(const RefElement *ref, const PetscReal *g, PetscReal *Dx[3])
{
  const PetscInt dim = ref->dim;
  for (PetscInt j = 0; j < dim; j++)
    for (PetscInt k = 0; k < ref->Np * ref->Np; k++) {
      PetscReal s = 0;
      for (PetscInt d = 0; d < dim; d++) s += g[j * dim + d] * ref->D[d][k];
      Dx[j][k] = s;
    }
}

/* B += alpha P^T Mf Q for nf x np (P) and nf x nq (Q) face operators: B is np x nq. */
static void AddFaceProduct(PetscInt nf, PetscInt np, PetscInt nq, PetscReal alpha, const PetscReal *P, const PetscReal *Mf, const PetscReal *Q, PetscReal *B)
{
  for (PetscInt i = 0; i < np; i++)
    for (PetscInt j = 0; j < nq; j++) {
      PetscReal s = 0;
      for (PetscInt a = 0; a < nf; a++)
        for (PetscInt b = 0; b < nf; b++) s += P[a * np + i] * Mf[a * nf + b] * Q[b * nq + j];
      B[i * nq + j] += alpha * s;
    }
}

/* B += alpha P^T diag(w) Q for nf x np (P) and nf x nq (Q) operators at face points with weights w. */
static void AddFaceProductDiag(PetscInt nf, PetscInt np, PetscInt nq, PetscReal alpha, const PetscReal *P, const PetscReal *w, const PetscReal *Q, PetscReal *B)
{
  for (PetscInt i = 0; i < np; i++)
    for (PetscInt j = 0; j < nq; j++) {
      PetscReal s = 0;
      for (PetscInt a = 0; a < nf; a++) s += P[a * np + i] * w[a] * Q[a * nq + j];
      B[i * nq + j] += alpha * s;
    }
}

/* The rows of curved element e (COO triplets appended at *ncoo): the same bilinear form with the
 * curved discretization's quadrature (hoflow/kernels/ipdg_curved.h), built from element and face
 * matrices: volume sum_q Dq^T (w J G G^T) Dq + lambda Iq^T diag(w J) Iq; on each face, at its points
 * g with weights w sJ: traces T (interpolated from the face nodes) and normal derivatives G (the face
 * nodes' basis gradients, interpolated), of this element and, through vmapP, of the neighbour. */
static PetscErrorCode AssembleCurvedElement(IPDGContext *ctx, PetscInt e, PetscBool interior_faces, PetscSection gsec, PetscInt row0, PetscReal *Dx[3], PetscReal *B11, PetscReal *B12, PetscReal *T1, PetscReal *T2, PetscReal *G1, PetscReal *G2, PetscInt coo_i[], PetscInt coo_j[], PetscReal vals[], PetscCount *ncoo)
{
  const DGDisc     *dg   = ctx->dg;
  const Mesh       *mesh = dg->mesh;
  const PetscInt    b = mesh->elem_block[e], dim = dg->dim, npair = dim * (dim + 1) / 2, k = e - mesh->blocks[b].start;
  const DGBlock    *blk = &dg->blocks[b];
  const DGCurved   *cv  = blk->cv;
  const RefElement *ref = blk->ref;
  const PetscInt    Np = ref->Np, Nq = cv->Nq, Nfaces = ref->Nfaces, Nfqt = cv->fq_offset[Nfaces];
  PetscReal        *gr = Dx[0], *gn = Dx[1], w[HOFLOW_NFACE_NODE_MAX];

  PetscFunctionBeginUser;
  /* volume */
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal sum = 0;
      for (PetscInt q = 0; q < Nq; q++) {
        const PetscReal *K = cv->vq + (k * Nq + q) * (npair + 1);
        PetscReal        t = ctx->lambda * K[npair] * ref->Iq[q * Np + i] * ref->Iq[q * Np + j];
        for (PetscInt a = 0, p = 0; a < dim; a++)
          for (PetscInt c = a; c < dim; c++, p++) {
            t += K[p] * cv->Dq[a][q * Np + i] * cv->Dq[c][q * Np + j];
            if (c != a) t += K[p] * cv->Dq[c][q * Np + i] * cv->Dq[a][q * Np + j];
          }
        sum += t;
      }
      B11[i * Np + j] = sum;
    }
  /* faces */
  for (PetscInt f = 0; f < Nfaces; f++) {
    const PetscInt   slot = mesh->face_slot[e] + f, type = ctx->face_type[slot], nb = mesh->face_elem[slot], off = ref->face_offset[f], Nfp = ref->Nfp[f], Nfq = cv->Nfq[f];
    const PetscReal *If  = cv->If + cv->if_offset[f][cv->fperm[k * Nfaces + f]];
    const PetscReal *fq  = cv->fq + (k * Nfqt + cv->fq_offset[f]) * (dim + 1);
    const PetscReal  tau = dg->sgeo[slot * HOFLOW_SGEO_SIZE(dim) + HOFLOW_SGEO_TAU(dim)];
    if (type == HOFLOW_FACE_NEUMANN || (!interior_faces && type != HOFLOW_FACE_DIRICHLET)) continue;
    for (PetscInt g = 0; g < Nfq; g++) w[g] = fq[g * (dim + 1) + dim];
    /* this element: T1 = If on its face nodes, G1 = n . interpolated nodal gradients of its basis */
    for (PetscInt t = 0; t < Nfq * Np; t++) T1[t] = G1[t] = 0;
    for (PetscInt a = 0; a < Nfp; a++) {
      const PetscInt m = ref->face_nodes[off + a];
      DGDiscNodeBasisGradients(dg, e, m, gr);
      for (PetscInt g = 0; g < Nfq; g++) {
        const PetscReal Ig = If[g * Nfp + a];
        T1[g * Np + m] += Ig;
        for (PetscInt j = 0; j < Np; j++) {
          PetscReal t = 0;
          for (PetscInt x = 0; x < dim; x++) t += fq[g * (dim + 1) + x] * gr[j * dim + x];
          G1[g * Np + j] += Ig * t;
        }
      }
    }
    if (type == HOFLOW_FACE_DIRICHLET) {
      AddFaceProductDiag(Nfq, Np, Np, -1.0, T1, w, G1, B11);
      AddFaceProductDiag(Nfq, Np, Np, -1.0, G1, w, T1, B11);
      AddFaceProductDiag(Nfq, Np, Np, 2.0 * tau, T1, w, T1, B11);
      continue;
    }
    {
      const RefElement *rnb  = dg->blocks[mesh->elem_block[nb]].ref;
      const PetscInt    Npnb = rnb->Np;
      PetscInt          col0;
      for (PetscInt t = 0; t < Nfq * Npnb; t++) T2[t] = G2[t] = 0;
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt m = dg->vmapP[dg->elem_fnode[e] + off + a] - dg->elem_node[nb];
        DGDiscNodeBasisGradients(dg, nb, m, gn);
        for (PetscInt g = 0; g < Nfq; g++) {
          const PetscReal Ig = If[g * Nfp + a];
          T2[g * Npnb + m] += Ig;
          for (PetscInt j = 0; j < Npnb; j++) {
            PetscReal t = 0;
            for (PetscInt x = 0; x < dim; x++) t += fq[g * (dim + 1) + x] * gn[j * dim + x];
            G2[g * Npnb + j] += Ig * t;
          }
        }
      }
      AddFaceProductDiag(Nfq, Np, Np, -0.5, T1, w, G1, B11);
      AddFaceProductDiag(Nfq, Np, Np, -0.5, G1, w, T1, B11);
      AddFaceProductDiag(Nfq, Np, Np, tau, T1, w, T1, B11);
      for (PetscInt t = 0; t < Np * Npnb; t++) B12[t] = 0;
      AddFaceProductDiag(Nfq, Np, Npnb, -0.5, T1, w, G2, B12);
      AddFaceProductDiag(Nfq, Np, Npnb, 0.5, G1, w, T2, B12);
      AddFaceProductDiag(Nfq, Np, Npnb, -tau, T1, w, T2, B12);
      PetscCall(PetscSectionGetOffset(gsec, mesh->elem_cell[nb], &col0));
      if (col0 < 0) col0 = -(col0 + 1); /* halo cell: owned elsewhere */
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt j = 0; j < Npnb; j++, (*ncoo)++) {
          coo_i[*ncoo] = row0 + i;
          coo_j[*ncoo] = col0 + j;
          vals[*ncoo]  = B12[i * Npnb + j];
        }
    }
  }
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++, (*ncoo)++) {
      coo_i[*ncoo] = row0 + i;
      coo_j[*ncoo] = row0 + j;
      vals[*ncoo]  = B11[i * Np + j];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The triplets of the SIPDG bilinear form
 *   a(u,v) = sum_E (grad v, grad u) + lambda (v,u) - sum_F ( {{grad u}}.[[v]] + {{grad v}}.[[u]] - tau [[u]].[[v]] )
 * from element and face matrices, independently of the matrix-free path (eq. 28). Each rank
 * assembles the rows of its own elements, visiting every face from both sides. Dirichlet faces
 * carry the mirror-state penalty 2 tau, as the matrix-free operator does. Without interior_faces
 * only the volume and Dirichlet-face terms: the form restricted to fields without jumps
 * (IPDGOperatorAssembleTriplets). */
PetscErrorCode IPDGOperatorAssembleTriplets(Mat A, PetscBool interior_faces, PetscCount *ncoo_out, PetscInt **coo_i_out, PetscInt **coo_j_out, PetscScalar **vals_out)
{
  IPDGContext  *ctx;
  const DGDisc *dg;
  const Mesh   *mesh;
  PetscInt      dim, NpMax = 0, NfpMax = 0, *coo_i, *coo_j;
  PetscCount    ncoo = 0, cap = 0;
  PetscSection  gsec;
  PetscReal    *Dx[3], *Dx2[3], *B11, *B12, *T1, *T2, *G1, *G2, *Mf, *tmp, *vals;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  dg   = ctx->dg;
  mesh = dg->mesh;
  dim  = dg->dim;
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    NpMax  = PetscMax(NpMax, dg->blocks[b].Np);
    NfpMax = PetscMax(NfpMax, dg->blocks[b].ref->NfpMax);
    if (dg->blocks[b].curved) NfpMax = PetscMax(NfpMax, dg->blocks[b].cv->NfqMax); /* face points */
  }
  PetscCall(DMGetGlobalSection(dg->dm, &gsec));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt Np = dg->elem_node[e + 1] - dg->elem_node[e];
    cap += Np * Np;
    for (PetscInt f = mesh->face_slot[e]; f < mesh->face_slot[e + 1] && interior_faces; f++)
      if (mesh->face_elem[f] >= 0) cap += Np * (dg->elem_node[mesh->face_elem[f] + 1] - dg->elem_node[mesh->face_elem[f]]);
  }
  PetscCall(PetscMalloc3(cap, &coo_i, cap, &coo_j, cap, &vals));
  for (PetscInt d = 0; d < dim; d++) PetscCall(PetscMalloc2(NpMax * NpMax, &Dx[d], NpMax * NpMax, &Dx2[d]));
  PetscCall(PetscMalloc3(NpMax * NpMax, &B11, NpMax * NpMax, &B12, NpMax * NpMax, &tmp));
  PetscCall(PetscMalloc5(NfpMax * NpMax, &T1, NfpMax * NpMax, &T2, NfpMax * NpMax, &G1, NfpMax * NpMax, &G2, NfpMax * NfpMax, &Mf));

  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefElement *ref = dg->blocks[mesh->elem_block[e]].ref;
    const PetscInt    Np = ref->Np, cell = mesh->elem_cell[e];
    const PetscReal  *g = mesh->geo + e * HOFLOW_GEO_SIZE(dim), J = g[HOFLOW_GEO_J(dim)];
    PetscInt          row0, col0;

    PetscCall(PetscSectionGetOffset(gsec, cell, &row0));
    if (dg->blocks[mesh->elem_block[e]].curved) {
      PetscCall(AssembleCurvedElement(ctx, e, interior_faces, gsec, row0, Dx, B11, B12, T1, T2, G1, G2, coo_i, coo_j, vals, &ncoo));
      continue;
    }
    ElementDerivatives(ref, g, Dx);
    /* volume: J sum_j Dx_j^T M Dx_j + lambda J M */
    for (PetscInt k = 0; k < Np * Np; k++) B11[k] = 0;
    for (PetscInt j = 0; j < dim; j++) {
      DenseMatMult(Np, Np, Np, ref->M, Dx[j], tmp);
      for (PetscInt a = 0; a < Np; a++)
        for (PetscInt b = 0; b < Np; b++) {
          PetscReal s = 0;
          for (PetscInt k = 0; k < Np; k++) s += Dx[j][k * Np + a] * tmp[k * Np + b];
          B11[a * Np + b] += J * (s + (j == 0 ? ctx->lambda * ref->M[a * Np + b] : 0.0));
        }
    }
    for (PetscInt f = 0; f < ref->Nfaces; f++) {
      const PetscInt   slot = mesh->face_slot[e] + f, Nfp = ref->Nfp[f], off = ref->face_offset[f];
      const PetscReal *sg = dg->sgeo + slot * HOFLOW_SGEO_SIZE(dim), tau = sg[HOFLOW_SGEO_TAU(dim)], sJ = sg[HOFLOW_SGEO_SJ_OVER_J(dim)] * J;
      const PetscInt   type = ctx->face_type[slot], nb = mesh->face_elem[slot];

      if (type == HOFLOW_FACE_NEUMANN || (!interior_faces && type != HOFLOW_FACE_DIRICHLET)) continue;
      for (PetscInt k = 0; k < Nfp * Nfp; k++) Mf[k] = sJ * ref->Mface[ref->face_mass_offset[f] + k];
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt m = ref->face_nodes[off + a];
        for (PetscInt j = 0; j < Np; j++) {
          PetscReal gn = 0;
          for (PetscInt x = 0; x < dim; x++) gn += sg[x] * Dx[x][m * Np + j];
          T1[a * Np + j] = (j == m);
          G1[a * Np + j] = gn;
        }
      }
      if (type == HOFLOW_FACE_DIRICHLET) {
        AddFaceProduct(Nfp, Np, Np, -1.0, T1, Mf, G1, B11);
        AddFaceProduct(Nfp, Np, Np, -1.0, G1, Mf, T1, B11);
        AddFaceProduct(Nfp, Np, Np, 2.0 * tau, T1, Mf, T1, B11);
        continue;
      }
      { /* interior: jump j = [T1, -T2], average a = [G1, G2]/2, normal out of this element */
        const RefElement *rnb  = dg->blocks[mesh->elem_block[nb]].ref;
        const PetscInt    Npnb = rnb->Np;
        const PetscBool   cnb  = dg->blocks[mesh->elem_block[nb]].curved;
        if (!cnb) ElementDerivatives(rnb, mesh->geo + nb * HOFLOW_GEO_SIZE(dim), Dx2);
        for (PetscInt a = 0; a < Nfp; a++) {
          const PetscInt m = dg->vmapP[dg->elem_fnode[e] + off + a] - dg->elem_node[nb];
          if (cnb) DGDiscNodeBasisGradients(dg, nb, m, tmp); /* a curved neighbour: its metric at node m */
          for (PetscInt j = 0; j < Npnb; j++) {
            PetscReal gn = 0;
            for (PetscInt x = 0; x < dim; x++) gn += sg[x] * (cnb ? tmp[j * dim + x] : Dx2[x][m * Npnb + j]);
            T2[a * Npnb + j] = (j == m);
            G2[a * Npnb + j] = gn;
          }
        }
        AddFaceProduct(Nfp, Np, Np, -0.5, T1, Mf, G1, B11);
        AddFaceProduct(Nfp, Np, Np, -0.5, G1, Mf, T1, B11);
        AddFaceProduct(Nfp, Np, Np, tau, T1, Mf, T1, B11);
        for (PetscInt k = 0; k < Np * Npnb; k++) B12[k] = 0;
        AddFaceProduct(Nfp, Np, Npnb, -0.5, T1, Mf, G2, B12);
        AddFaceProduct(Nfp, Np, Npnb, 0.5, G1, Mf, T2, B12);
        AddFaceProduct(Nfp, Np, Npnb, -tau, T1, Mf, T2, B12);
        PetscCall(PetscSectionGetOffset(gsec, mesh->elem_cell[nb], &col0));
        if (col0 < 0) col0 = -(col0 + 1); /* halo cell: owned elsewhere */
        for (PetscInt i = 0; i < Np; i++)
          for (PetscInt j = 0; j < Npnb; j++, ncoo++) {
            coo_i[ncoo] = row0 + i;
            coo_j[ncoo] = col0 + j;
            vals[ncoo]  = B12[i * Npnb + j];
          }
      }
    }
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < Np; j++, ncoo++) {
        coo_i[ncoo] = row0 + i;
        coo_j[ncoo] = row0 + j;
        vals[ncoo]  = B11[i * Np + j];
      }
  }
  for (PetscInt d = 0; d < dim; d++) PetscCall(PetscFree2(Dx[d], Dx2[d]));
  PetscCall(PetscFree3(B11, B12, tmp));
  PetscCall(PetscFree5(T1, T2, G1, G2, Mf));
  *ncoo_out  = ncoo;
  *coo_i_out = coo_i;
  *coo_j_out = coo_j;
  *vals_out  = vals;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorAssemble(Mat A, Mat *assembled)
{
  DGDisc      *dg;
  PetscInt    *coo_i, *coo_j;
  PetscScalar *vals;
  PetscCount   ncoo;
  MatNullSpace nullsp;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGAssemble, 0, 0, 0, 0));
  PetscCall(IPDGOperatorGetDisc(A, &dg));
  PetscCall(IPDGOperatorAssembleTriplets(A, PETSC_TRUE, &ncoo, &coo_i, &coo_j, &vals));
  PetscCall(HoflowMatCreateFromTriplets(dg->dm, "ipdg_assembled_", dg->nodes, ncoo, coo_i, coo_j, vals, assembled));
  PetscCall(PetscObjectSetName((PetscObject)*assembled, "assembled SIPDG"));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) PetscCall(MatSetNullSpace(*assembled, nullsp));
  PetscCall(PetscFree3(coo_i, coo_j, vals));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local triplets (rows this rank owns) to a CSR matrix: rows counted and scattered in O(ncoo), each
 * row's few columns sorted and duplicates summed. PETSc's COO preallocation sorts all ncoo triplets
 * and keeps maps of two PetscCount per triplet (the SIPDG order-1 matrix of 688 k triangles: 25 M
 * triplets, 1.6 s of its 2.6 s assembly on the H100 machine's host). hoflow's assemblies (SIPDG,
 * LOR) put entries on their own rows only. The CSR goes to PETSc without a copy on one rank
 * (HoflowMatCreateFromCSR, op/aij.c). */
PetscErrorCode HoflowMatCreateFromTriplets(DM dm, const char prefix[], PetscInt n, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[], const PetscScalar v[], Mat *B)
{
  PetscBool    cuda, local = PETSC_TRUE;
  PetscInt     rstart, *rowptr, *fill, *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(HoflowDMIsCUDA(dm, &cuda));
  PetscCallMPI(MPI_Scan(&n, &rstart, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)dm)));
  rstart -= n; /* the first row of this rank (PETSc's layout of the local sizes n) */
  for (PetscCount k = 0; k < ncoo && local; k++) local = (PetscBool)(coo_i[k] >= rstart && coo_i[k] < rstart + n && coo_j[k] >= 0);
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &local, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)dm)));
  PetscCheck(local, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "An assembly put a matrix entry on a row of another rank or a negative column");
  PetscCheck(ncoo <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscCount_FMT " matrix entries on one rank exceed PetscInt: use more ranks or a 64-bit-index PETSc", ncoo);
  PetscCall(PetscCalloc1(n + 1, &rowptr));
  PetscCall(PetscCalloc1(n + 1, &fill));
  PetscCall(PetscMalloc1(ncoo, &cols));
  PetscCall(PetscMalloc1(ncoo, &vals));
  for (PetscCount k = 0; k < ncoo; k++) rowptr[coo_i[k] - rstart + 1]++;
  for (PetscInt r = 0; r < n; r++) rowptr[r + 1] += rowptr[r];
  for (PetscCount k = 0; k < ncoo; k++) {
    const PetscInt r = coo_i[k] - rstart, at = rowptr[r] + fill[r]++;
    cols[at] = coo_j[k];
    vals[at] = v[k];
  }
  PetscCall(PetscFree(fill));
  { /* sort each row, sum duplicates, compact in place */
    PetscInt out = 0;
    for (PetscInt r = 0; r < n; r++) {
      const PetscInt b = rowptr[r], e = rowptr[r + 1], start = out;
      PetscCall(PetscSortIntWithScalarArray(e - b, cols + b, vals + b));
      for (PetscInt k = b; k < e; k++) {
        if (out > start && cols[out - 1] == cols[k])
          vals[out - 1] += vals[k];
        else {
          cols[out] = cols[k];
          vals[out] = vals[k];
          out++;
        }
      }
      rowptr[r] = start;
    }
    rowptr[n] = out;
    /* the matrix keeps these arrays on one rank: no more than its nonzeros */
    PetscCall(PetscRealloc(sizeof(PetscInt) * PetscMax(out, 1), &cols));
    PetscCall(PetscRealloc(sizeof(PetscScalar) * PetscMax(out, 1), &vals));
  }
  PetscCall(HoflowMatCreateFromCSR(PetscObjectComm((PetscObject)dm), cuda, prefix, n, n, &rowptr, &cols, &vals, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
