/* The operators of incompressible flow on a nodal DG discretization (seed 000 §2.1, §5.3):
 * advection N(u) and its subcycling form N~(a, c) with cubature and the local Lax–Friedrichs
 * flux, the gradient G and divergence D with central fluxes, and the face data of the velocity
 * and pressure solves. Inputs are global DG vectors: the interior elements run while their halo
 * exchange is in flight, the elements next to other ranks after it; each call runs the host
 * kernel (src/kernels/ins.c) or its CUDA twin (cuda/ins.cu), chosen by the vectors' type (OpShell). */
#include <hoflow/compat.h>
#include <hoflow/insops.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/ins.h>
#include <hoflow/log.h>

struct _n_INSOps {
  OpShell       op;
  DGDisc       *dg;
  RefElement   *ref;
  INSKernelData kd, kd_device;
  PetscInt      Kint; /* elements [0, Kint) have owned neighbours only */
  PetscInt     *face_type;
  PetscReal    *Ic, *DW[2], *If, *LIFTf, *bcq, *bcn;
  PetscBool     has_data;
};

/* Lagrange basis of the nodes xi[0..n-1] at x. */
static PetscReal Lagrange1D(PetscInt n, const PetscReal xi[], PetscInt a, PetscReal x)
{
  PetscReal l = 1;
  for (PetscInt b = 0; b < n; b++)
    if (b != a) l *= (x - xi[b]) / (xi[a] - xi[b]);
  return l;
}

/* Reference tables: cubature of degree 3N with interpolation and weighted derivatives, face Gauss
 * points with interpolation from the face nodes (GLL points of the face) and the face lift. */
static PetscErrorCode INSOpsBuildTables(INSOps ops)
{
  const RefElement *ref = ops->ref;
  const PetscInt    Np = ref->Np, Nfp = ref->Nfp[0], N = ref->N;
  PetscInt          Nc, Nfq = (3 * N) / 2 + 1;
  PetscReal        *pc, *wc, *xi, *wxi, *xg, *wg, *dl[3] = {NULL, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCall(RefElementCubature(ref->shape, 3 * N, &Nc, &pc, &wc));
  PetscCheck(Nc <= HOFLOW_NCUB_MAX && Nfq <= HOFLOW_NFQ_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cubature larger than the kernels' bounds");
  PetscCall(PetscMalloc3(Nc * Np, &ops->Ic, Np * Nc, &ops->DW[0], Np * Nc, &ops->DW[1]));
  PetscCall(RefElementInterpolationMatrix(ref, Nc, pc, ops->Ic));
  PetscCall(PetscMalloc2(Nc * Np, &dl[0], Nc * Np, &dl[1]));
  PetscCall(RefElementDerivativeMatrices(ref, Nc, pc, dl));
  /* DW_d[i][q] = w_q dl_i/dr_d (x_q) */
  for (PetscInt q = 0; q < Nc; q++)
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt d = 0; d < 2; d++) ops->DW[d][i * Nc + q] = wc[q] * dl[d][q * Np + i];
  PetscCall(PetscFree2(dl[0], dl[1]));
  PetscCall(PetscFree2(pc, wc));
  PetscCall(PetscMalloc4(Nfp, &xi, Nfp, &wxi, Nfq, &xg, Nfq, &wg));
  PetscCall(GaussLobattoLegendre(Nfp, xi, wxi));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, Nfq, xg, wg));
  PetscCall(PetscMalloc2(Nfq * Nfp, &ops->If, Nfp * Nfq, &ops->LIFTf));
  for (PetscInt q = 0; q < Nfq; q++)
    for (PetscInt a = 0; a < Nfp; a++) {
      const PetscReal l       = Lagrange1D(Nfp, xi, a, xg[q]);
      ops->If[q * Nfp + a]    = l;
      ops->LIFTf[a * Nfq + q] = wg[q] * l;
    }
  PetscCall(PetscFree4(xi, wxi, xg, wg));
  ops->kd.Nc  = (int)Nc;
  ops->kd.Nfq = (int)Nfq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload the kernel data and column-major copies of the reference matrices once. */
static PetscErrorCode INSOpsDeviceSetUp(void *ptr)
{
  INSOps               ops = (INSOps)ptr;
  const INSKernelData *h   = &ops->kd;
  INSKernelData       *d   = &ops->kd_device;
  HoflowDeviceArrays  *a   = &ops->op.device;
  const size_t         nf = (size_t)h->K * h->Nfaces, np2 = (size_t)h->Np * h->Np, nfn = (size_t)h->Nfaces * h->Nfp;

  PetscFunctionBeginUser;
  *d = *h;
  PetscCall(HoflowDeviceArraysUpload(a, h->geo, sizeof(double) * h->K * INS_GEO, (const void **)&d->geo));
  PetscCall(HoflowDeviceArraysUpload(a, h->sgeo, sizeof(double) * nf * INS_SGEO, (const void **)&d->sgeo));
  PetscCall(HoflowDeviceArraysUpload(a, h->face_type, sizeof(int) * nf, (const void **)&d->face_type));
  PetscCall(HoflowDeviceArraysUpload(a, h->vmapP, sizeof(int) * nf * h->Nfp, (const void **)&d->vmapP));
  PetscCall(HoflowDeviceArraysUpload(a, h->face_nodes, sizeof(int) * nfn, (const void **)&d->face_nodes));
  PetscCall(HoflowDeviceArraysUpload(a, h->bcq, sizeof(double) * 2 * nf * h->Nfq, (const void **)&d->bcq));
  PetscCall(HoflowDeviceArraysUpload(a, h->bcn, sizeof(double) * 3 * nf * h->Nfp, (const void **)&d->bcn));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Nc, h->Np, h->Ic, &d->IcT));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Nc, h->DW[k], &d->DWT[k]));
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, h->D[k], &d->DT[k]));
    d->D[k] = d->DW[k] = NULL;
  }
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, h->Minv, &d->MinvT));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Nfq, h->Nfp, h->If, &d->IfT));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Nfp, h->Nfq, h->LIFTf, &d->LIFTfT));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, (PetscInt)nfn, h->LIFT, &d->LIFTT));
  d->Ic = d->Minv = d->If = d->LIFTf = d->LIFT = NULL; /* the CUDA kernels read the transposes */
  (void)np2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsCreate(DGDisc *dg, const PetscInt face_type[], INSOps *ops_out)
{
  INSOps           ops;
  const Mesh      *mesh = dg->mesh;
  const MeshBlock *mb   = &mesh->blocks[0];
  INSKernelData   *kd;

  PetscFunctionBeginUser;
  PetscCheck(dg->dim == 2, PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "Mesh %s is %" PetscInt_FMT "-dimensional; hoflow's incompressible flow operators are 2D", mesh->source, dg->dim);
  {
    PetscBool curved;
    PetscCall(MeshHasCurved(mesh, &curved));
    PetscCheck(!curved, PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "Mesh %s has curved or non-affine elements (geometry from %s); hoflow's incompressible flow operators need affine elements: use a straight-sided mesh of triangles or parallelogram quadrilaterals for flow problems", mesh->source, mesh->geom_source);
  }
  PetscCall(PetscNew(&ops));
  ops->dg = dg;
  PetscCall(DGDiscGetUniformRef(dg, "incompressible flow", &ops->ref));
  PetscCall(OpShellInit(&ops->op, "incompressible flow operators", dg->dm, INSOpsDeviceSetUp, ops));
  PetscCall(OpShellCreateLocal(&ops->op, 4));
  ops->Kint = mb->interior_end - mb->start;
  PetscCall(PetscMalloc1(mesh->nslots, &ops->face_type));
  for (PetscInt k = 0; k < mesh->nslots; k++) {
    ops->face_type[k] = face_type ? face_type[k] : mesh->face_type[k];
    PetscCheck(ops->face_type[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call MeshSetBoundaryTypes() before creating operators");
  }
  kd             = &ops->kd;
  kd->shape      = ops->ref->shape;
  kd->dim        = 2;
  kd->N          = (int)dg->N;
  kd->Np         = (int)ops->ref->Np;
  kd->Nfp        = (int)ops->ref->Nfp[0];
  kd->Nfaces     = (int)ops->ref->Nfaces;
  kd->K          = (int)mesh->K;
  kd->node0      = 0;
  kd->geo        = mesh->geo;
  kd->sgeo       = dg->sgeo;
  kd->face_type  = (const int *)ops->face_type;
  kd->vmapP      = (const int *)dg->vmapP;
  kd->face_nodes = (const int *)ops->ref->face_nodes;
  kd->D[0]       = ops->ref->D[0];
  kd->D[1]       = ops->ref->D[1];
  kd->LIFT       = ops->ref->LIFT;
  kd->Minv       = ops->ref->Minv;
  PetscCall(INSOpsBuildTables(ops));
  kd->Ic    = ops->Ic;
  kd->DW[0] = ops->DW[0];
  kd->DW[1] = ops->DW[1];
  kd->If    = ops->If;
  kd->LIFTf = ops->LIFTf;
  PetscCall(PetscCalloc2(2 * mesh->K * kd->Nfaces * kd->Nfq, &ops->bcq, 3 * mesh->K * kd->Nfaces * kd->Nfp, &ops->bcn));
  kd->bcq  = ops->bcq;
  kd->bcn  = ops->bcn;
  *ops_out = ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsDestroy(INSOps *ops)
{
  PetscFunctionBeginUser;
  if (!*ops) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OpShellDestroy(&(*ops)->op));
  PetscCall(PetscFree((*ops)->face_type));
  PetscCall(PetscFree3((*ops)->Ic, (*ops)->DW[0], (*ops)->DW[1]));
  PetscCall(PetscFree2((*ops)->If, (*ops)->LIFTf));
  PetscCall(PetscFree2((*ops)->bcq, (*ops)->bcn));
  PetscCall(PetscFree(*ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsGetFaceTypes(INSOps ops, const PetscInt **face_type)
{
  PetscFunctionBeginUser;
  *face_type = ops->face_type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsSetBoundaryData(INSOps ops, INSBoundaryFunction bc, void *ctx)
{
  DGDisc           *dg   = ops->dg;
  const Mesh       *mesh = dg->mesh;
  const RefElement *ref  = ops->ref;
  const PetscInt    Nf = ref->Nfaces, Nfp = ref->Nfp[0], Nfq = ops->kd.Nfq, nbn = mesh->K * Nf * Nfp, nbq = mesh->K * Nf * Nfq;
  PetscReal        *xg, *wg;

  PetscFunctionBeginUser;
  PetscCheck(!ops->op.device_ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Set the boundary data before the first use on the device");
  PetscCall(PetscMalloc2(Nfq, &xg, Nfq, &wg));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, Nfq, xg, wg));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscReal *vx = mesh->vertices + e * HOFLOW_VERTS_MAX * 2;
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt   slot = mesh->face_slot[e] + f, type = ops->face_type[slot];
      const PetscReal *n  = mesh->face_normal + slot * 2;
      const PetscReal *v0 = vx + 2 * RefShapeTable[ref->shape].face_verts[f][0], *v1 = vx + 2 * RefShapeTable[ref->shape].face_verts[f][1];
      PetscReal        val[5];
      if (type == HOFLOW_FACE_INTERIOR) continue;
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt id = dg->elem_node[e] + ref->face_nodes[f * Nfp + a], k = (e * Nf + f) * Nfp + a;
        PetscCall(bc(dg->x + 2 * id, n, val, ctx));
        ops->bcn[k]           = type == HOFLOW_FACE_DIRICHLET ? val[0] : val[2];
        ops->bcn[nbn + k]     = type == HOFLOW_FACE_DIRICHLET ? val[1] : val[3];
        ops->bcn[2 * nbn + k] = type == HOFLOW_FACE_NEUMANN ? val[4] : 0.0;
      }
      for (PetscInt q = 0; q < Nfq; q++) {
        const PetscInt  k    = (e * Nf + f) * Nfq + q;
        const PetscReal x[2] = {0.5 * (1 - xg[q]) * v0[0] + 0.5 * (1 + xg[q]) * v1[0], 0.5 * (1 - xg[q]) * v0[1] + 0.5 * (1 + xg[q]) * v1[1]};
        PetscCall(bc(x, n, val, ctx));
        ops->bcq[k]       = val[0]; /* outflow faces too: the data of backflow */
        ops->bcq[nbq + k] = val[1];
      }
    }
  }
  PetscCall(PetscFree2(xg, wg));
  ops->has_data = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernel data of the call's backend. */
static const INSKernelData *INSOpsKernelData(INSOps ops)
{
  if (!ops->op.on_device) return &ops->kd;
  ops->kd_device.stream = ops->op.stream;
  return &ops->kd_device;
}

/* The halo exchange of n inputs (a vector given twice is exchanged once): begin, with the owned
 * arrays for the interior elements; end, with the local arrays for the rest. */
static PetscErrorCode INSOpsInputsBegin(INSOps ops, PetscInt n, Vec in[], const PetscScalar *owned[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt same = -1;
    for (PetscInt j = 0; j < k; j++)
      if (in[j] == in[k]) same = j;
    if (same >= 0)
      owned[k] = owned[same];
    else {
      PetscCall(OpShellHaloBegin(&ops->op, k, in[k]));
      PetscCall(OpShellGetArrayRead(&ops->op, in[k], &owned[k]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsInputsEnd(INSOps ops, PetscInt n, Vec in[], const PetscScalar *local[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt same = -1;
    for (PetscInt j = 0; j < k; j++)
      if (in[j] == in[k]) same = j;
    if (same >= 0)
      local[k] = local[same];
    else
      PetscCall(OpShellHaloEnd(&ops->op, k, in[k], &local[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsInputsRestore(INSOps ops, PetscInt n, Vec in[], const PetscScalar *owned[], const PetscScalar *local[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscBool same = PETSC_FALSE;
    for (PetscInt j = 0; j < k; j++) same = (PetscBool)(same || in[j] == in[k]);
    if (same) continue;
    PetscCall(OpShellHaloRestore(&ops->op, k, &local[k]));
    PetscCall(OpShellRestoreArrayRead(&ops->op, in[k], &owned[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSAdvectionRun(INSOps ops, int e0, int e1, const PetscScalar *a[4], double lambda_scale, double bc_scale, PetscScalar *o[2])
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSAdvectionCUDA(kd, e0, e1, a[0], a[1], a[2], a[3], lambda_scale, bc_scale, o[0], o[1]));
  INSAdvectionHost(kd, e0, e1, a[0], a[1], a[2], a[3], lambda_scale, bc_scale, o[0], o[1]);
  return 0;
}

PetscErrorCode INSOpsAdvection(INSOps ops, Vec au, Vec av, Vec cu, Vec cv, PetscReal lambda_scale, PetscReal bc_scale, Vec out_u, Vec out_v)
{
  Vec                in[4] = {au, av, cu, cv};
  const PetscScalar *ga[4], *la[4];
  PetscScalar       *o[2];
  const double       flops = ops->kd.K * INSAdvectionFlopsPerElement(ops->kd.Np, ops->kd.Nc, ops->kd.Nfaces, ops->kd.Nfp, ops->kd.Nfq);

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&ops->op, au, NULL));
  PetscCall(INSOpsInputsBegin(ops, 4, in, ga));
  PetscCall(OpShellGetArrayWrite(&ops->op, out_u, &o[0]));
  PetscCall(OpShellGetArrayWrite(&ops->op, out_v, &o[1]));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSAdvection));
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, 0, (int)ops->Kint, ga, lambda_scale, bc_scale, o), "advection"));
  PetscCall(INSOpsInputsEnd(ops, 4, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, (int)ops->Kint, ops->kd.K, la, lambda_scale, bc_scale, o), "advection"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSAdvection, flops));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, out_v, &o[1]));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, out_u, &o[0]));
  PetscCall(INSOpsInputsRestore(ops, 4, in, ga, la));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSGradientRun(INSOps ops, int e0, int e1, const PetscScalar *p, const PetscScalar *t, double trace_scale, double bc_scale, PetscScalar *o[2])
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSGradientCUDA(kd, e0, e1, p, t, trace_scale, bc_scale, o[0], o[1]));
  INSGradientHost(kd, e0, e1, p, t, trace_scale, bc_scale, o[0], o[1]);
  return 0;
}

PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, Vec gx, Vec gy)
{
  Vec                in[1] = {p};
  const PetscScalar *ga[1], *la[1], *t = NULL;
  PetscScalar       *o[2];
  const double       flops = ops->kd.K * INSGradientFlopsPerElement(ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&ops->op, p, NULL));
  PetscCall(INSOpsInputsBegin(ops, 1, in, ga));
  if (ptrace) PetscCall(OpShellGetArrayRead(&ops->op, ptrace, &t));
  PetscCall(OpShellGetArrayWrite(&ops->op, gx, &o[0]));
  PetscCall(OpShellGetArrayWrite(&ops->op, gy, &o[1]));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSGradient));
  PetscCall(OpShellCheckKernel(&ops->op, INSGradientRun(ops, 0, (int)ops->Kint, ga[0], t, trace_scale, bc_scale, o), "gradient"));
  PetscCall(INSOpsInputsEnd(ops, 1, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSGradientRun(ops, (int)ops->Kint, ops->kd.K, la[0], t, trace_scale, bc_scale, o), "gradient"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSGradient, flops));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, gy, &o[1]));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, gx, &o[0]));
  if (ptrace) PetscCall(OpShellRestoreArrayRead(&ops->op, ptrace, &t));
  PetscCall(INSOpsInputsRestore(ops, 1, in, ga, la));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSDivergenceRun(INSOps ops, int e0, int e1, const PetscScalar *a[2], double bc_scale, PetscScalar *o)
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSDivergenceCUDA(kd, e0, e1, a[0], a[1], bc_scale, o));
  INSDivergenceHost(kd, e0, e1, a[0], a[1], bc_scale, o);
  return 0;
}

PetscErrorCode INSOpsDivergence(INSOps ops, Vec u, Vec v, PetscReal bc_scale, Vec div)
{
  Vec                in[2] = {u, v};
  const PetscScalar *ga[2], *la[2];
  PetscScalar       *o;
  const double       flops = ops->kd.K * INSDivergenceFlopsPerElement(ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&ops->op, u, NULL));
  PetscCall(INSOpsInputsBegin(ops, 2, in, ga));
  PetscCall(OpShellGetArrayWrite(&ops->op, div, &o));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSDivergence));
  PetscCall(OpShellCheckKernel(&ops->op, INSDivergenceRun(ops, 0, (int)ops->Kint, ga, bc_scale, o), "divergence"));
  PetscCall(INSOpsInputsEnd(ops, 2, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSDivergenceRun(ops, (int)ops->Kint, ops->kd.K, la, bc_scale, o), "divergence"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSDivergence, flops));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, div, &o));
  PetscCall(INSOpsInputsRestore(ops, 2, in, ga, la));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsCreateFaceVector(INSOps ops, Vec *face)
{
  PetscBool cuda;

  PetscFunctionBeginUser;
  PetscCall(HoflowDMIsCUDA(ops->dg->dm, &cuda));
  PetscCall(VecCreate(PETSC_COMM_SELF, face));
  PetscCall(VecSetSizes(*face, (PetscInt)ops->kd.K * ops->kd.Nfaces * ops->kd.Nfp, PETSC_DECIDE));
  PetscCall(VecSetType(*face, cuda ? VECSEQCUDA : VECSEQ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsFaceData(INSOps ops, PetscInt type, PetscInt component, PetscReal alpha, PetscReal beta, Vec x, Vec face)
{
  const PetscScalar *xa = NULL;
  PetscScalar       *o;

  PetscFunctionBeginUser;
  PetscCheck(component >= 0 && component < 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Face data component %" PetscInt_FMT " is not 0 (u), 1 (v) or 2 (p)", component);
  PetscCall(OpShellBegin(&ops->op, face, NULL));
  if (x) PetscCall(OpShellGetArrayRead(&ops->op, x, &xa));
  PetscCall(OpShellGetArrayWrite(&ops->op, face, &o));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSFaceData));
  if (ops->op.on_device)
    PetscCall(OpShellCheckKernel(&ops->op, HOFLOW_CUDA(INSFaceDataCUDA(INSOpsKernelData(ops), (int)type, (int)component, alpha, beta, xa, o)), "face data"));
  else
    INSFaceDataHost(&ops->kd, (int)type, (int)component, alpha, beta, xa, o);
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSFaceData, 0));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, face, &o));
  if (x) PetscCall(OpShellRestoreArrayRead(&ops->op, x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element-local derivatives of u at node i of owned element e: (du/dx, du/dy). */
static void INSNodeGradient(const INSKernelData *kd, PetscInt e, PetscInt i, const PetscScalar *u, PetscReal g[2])
{
  const PetscReal *geo = kd->geo + e * INS_GEO;
  PetscReal        ur = 0, us = 0;
  for (PetscInt j = 0; j < kd->Np; j++) {
    ur += kd->D[0][i * kd->Np + j] * PetscRealPart(u[e * kd->Np + j]);
    us += kd->D[1][i * kd->Np + j] * PetscRealPart(u[e * kd->Np + j]);
  }
  g[0] = geo[INS_RX] * ur + geo[INS_SX] * us;
  g[1] = geo[INS_RY] * ur + geo[INS_SY] * us;
}

PetscErrorCode INSOpsVorticity(INSOps ops, Vec u, Vec v, Vec omega)
{
  const INSKernelData *kd = &ops->kd;
  const PetscScalar   *ua, *va;
  PetscScalar         *wa;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayWrite(omega, &wa));
  for (PetscInt e = 0; e < kd->K; e++)
    for (PetscInt i = 0; i < kd->Np; i++) {
      PetscReal gu[2], gv[2];
      INSNodeGradient(kd, e, i, ua, gu);
      INSNodeGradient(kd, e, i, va, gv);
      wa[e * kd->Np + i] = gv[0] - gu[1];
    }
  PetscCall(VecRestoreArrayWrite(omega, &wa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsBoundaryForce(INSOps ops, PetscReal nu, Vec u, Vec v, Vec p, const PetscBool mask[], PetscReal force[2])
{
  const INSKernelData *kd  = &ops->kd;
  const RefElement    *ref = ops->ref;
  const PetscScalar   *ua, *va, *pa;
  PetscReal            F[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayRead(p, &pa));
  for (PetscInt e = 0; e < kd->K; e++) {
    const PetscReal J = kd->geo[e * INS_GEO + INS_J];
    for (PetscInt f = 0; f < kd->Nfaces; f++) {
      const PetscReal *sg = kd->sgeo + (e * kd->Nfaces + f) * INS_SGEO;
      const PetscReal  nx = sg[0], ny = sg[1], sJ = sg[INS_SJ] * J;
      if (!mask[e * kd->Nfaces + f]) continue;
      for (PetscInt a = 0; a < kd->Nfp; a++) {
        const PetscInt i = ref->face_nodes[f * kd->Nfp + a];
        PetscReal      gu[2], gv[2], w = 0, pn = PetscRealPart(pa[e * kd->Np + i]);
        for (PetscInt b = 0; b < kd->Nfp; b++) w += ref->Mface[a * kd->Nfp + b]; /* int of l_a over the face */
        INSNodeGradient(kd, e, i, ua, gu);
        INSNodeGradient(kd, e, i, va, gv);
        /* on the body: p n - nu (grad u + grad u^T) n, n the fluid's outward normal */
        F[0] += sJ * w * (pn * nx - nu * (2 * gu[0] * nx + (gu[1] + gv[0]) * ny));
        F[1] += sJ * w * (pn * ny - nu * ((gu[1] + gv[0]) * nx + 2 * gv[1] * ny));
      }
    }
  }
  PetscCall(VecRestoreArrayRead(p, &pa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscCall(MPIU_Allreduce(F, force, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ops->dg->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsTimeKernels(INSOps ops, Vec u, Vec v, PetscInt reps, PetscReal seconds[3])
{
  Vec                in[2] = {u, v}, out[2];
  const PetscScalar *ga[2], *la[2], *a4[4];
  PetscScalar       *o[2];
  const int          K = ops->kd.K;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(u, &out[0]));
  PetscCall(VecDuplicate(u, &out[1]));
  PetscCall(INSOpsAdvection(ops, u, v, u, v, 2.0, 1.0, out[0], out[1])); /* warm up: device set-up */
  PetscCall(OpShellBegin(&ops->op, u, NULL));
  PetscCall(INSOpsInputsBegin(ops, 2, in, ga));
  PetscCall(INSOpsInputsEnd(ops, 2, in, la));
  PetscCall(OpShellGetArrayWrite(&ops->op, out[0], &o[0]));
  PetscCall(OpShellGetArrayWrite(&ops->op, out[1], &o[1]));
  a4[0] = a4[2] = la[0];
  a4[1] = a4[3] = la[1];
  for (PetscInt kernel = 0; kernel < 3; kernel++) {
    PetscLogDouble t0, t1;
    int            err = ops->op.on_device ? HOFLOW_CUDA(HoflowDeviceSynchronize()) : 0;
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps && !err; k++) err = kernel == 0 ? INSAdvectionRun(ops, 0, K, a4, 2.0, 1.0, o) : kernel == 1 ? INSGradientRun(ops, 0, K, la[0], NULL, 0.0, 1.0, o)
                                                                                                                              : INSDivergenceRun(ops, 0, K, la, 1.0, o[0]);
    if (ops->op.on_device && !err) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(OpShellCheckKernel(&ops->op, err, "incompressible-flow"));
    PetscCall(PetscTime(&t1));
    seconds[kernel] = (t1 - t0) / reps;
  }
  PetscCall(OpShellRestoreArrayWrite(&ops->op, out[1], &o[1]));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, out[0], &o[0]));
  PetscCall(INSOpsInputsRestore(ops, 2, in, ga, la));
  PetscCall(VecDestroy(&out[0]));
  PetscCall(VecDestroy(&out[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
