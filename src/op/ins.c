/* The operators of incompressible flow on a nodal DG discretization (seed 000 §2.1, §5.3):
 * advection N(u) and its subcycling form N~(a, c) with cubature and the local Lax–Friedrichs
 * flux, the gradient G and divergence D with central fluxes, and the face data of the velocity
 * and pressure solves. Inputs are global DG vectors: the interior elements run while their halo
 * exchange is in flight, the elements next to other ranks after it; each call runs the host
 * kernel (src/kernels/ins.c) or its CUDA twin (cuda/ins.cu), chosen by the vectors' type (OpShell). */
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet */
#include <hoflow/compat.h>
#include <hoflow/insops.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/halo.h>
#include <hoflow/kernels/ins.h>
#include <hoflow/log.h>

/* Local slots of the halo exchanges: a call's inputs from 0 (at most 2 dim = 6), the past velocities of the
 * subcycles' advecting velocity (levels x components; no other call writes these slots, so their halos stay
 * valid between calls) and that velocity formed on the local vectors. */
#define INS_HISTORY_MAX 9
#define INS_SLOT_HISTORY 6
#define INS_SLOT_ABAR (INS_SLOT_HISTORY + INS_HISTORY_MAX)

struct _n_INSOps {
  OpShell       op;
  DGDisc       *dg;
  RefElement   *ref;
  INSKernelData kd, kd_device;
  PetscInt      Kint; /* elements [0, Kint) have owned neighbours only */
  PetscInt     *face_type;
  PetscInt      dim;
  PetscReal    *Ic, *DW[3], *If, *LIFTf, *bcq, *bcn;
  double       *IfT, *LIFTfT; /* face-by-face transposes for the device */
  /* new boundary data after the first device use: the boundary faces (e Nfaces + f), their data
   * packed face by face on the host and the device */
  PetscInt      nbface;
  int          *bface;
  double       *pack;
  const int    *bface_device;
  double       *pack_device;
  PetscBool     has_data;
  /* the past velocities of INSOpsAdvectionExtrapolated, whose halos are in local slots INS_SLOT_HISTORY + i
   * while the vector (id) is unchanged (state) and on the same backend */
  PetscObjectId    hist_id[INS_HISTORY_MAX];
  PetscObjectState hist_state[INS_HISTORY_MAX];
  PetscBool        hist_device[INS_HISTORY_MAX];
};

/* Reference tables: cubature of degree 3N with interpolation and weighted derivatives; on each
 * face, cubature of degree 3N on the face's shape with interpolation from the face nodes and the
 * face lift. In 2D the face nodes are the GLL points of the segment, in 3D those of the reference
 * element's faces (face_xi), interpolated through the face shape's modal basis. */
static PetscErrorCode INSOpsBuildTables(INSOps ops)
{
  const RefElement *ref = ops->ref;
  const PetscInt    dim = ref->dim, Np = ref->Np, Nfp = ref->Nfp[0], N = ref->N, Nfaces = ref->Nfaces, nq1 = INS_NQ(N);
  PetscInt          Nc, Nfq = dim == 2 ? nq1 : nq1 * nq1;
  PetscReal        *pc, *wc, *dl[3] = {NULL, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCall(RefElementCubature(ref->shape, 3 * N, &Nc, &pc, &wc));
  PetscCheck(Nc == (dim == 2 ? nq1 * nq1 : nq1 * nq1 * nq1) && Nc <= HOFLOW_NCUB_MAX && Nfq <= HOFLOW_NFQ_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cubature of %" PetscInt_FMT " points does not match the kernels' instantiation", Nc);
  PetscCall(PetscMalloc1(Nc * Np, &ops->Ic));
  PetscCall(RefElementInterpolationMatrix(ref, Nc, pc, ops->Ic));
  for (PetscInt d = 0; d < dim; d++) {
    PetscCall(PetscMalloc1(Np * Nc, &ops->DW[d]));
    PetscCall(PetscMalloc1(Nc * Np, &dl[d]));
  }
  PetscCall(RefElementDerivativeMatrices(ref, Nc, pc, dl));
  /* DW_d[i][q] = w_q dl_i/dr_d (x_q) */
  for (PetscInt q = 0; q < Nc; q++)
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt d = 0; d < dim; d++) ops->DW[d][i * Nc + q] = wc[q] * dl[d][q * Np + i];
  for (PetscInt d = 0; d < dim; d++) PetscCall(PetscFree(dl[d]));
  PetscCall(PetscFree2(pc, wc));
  PetscCall(PetscMalloc2(Nfaces * Nfq * Nfp, &ops->If, Nfaces * Nfp * Nfq, &ops->LIFTf));
  if (dim == 2) {
    PetscReal *xi, *wxi, *xg, *wg, *L;
    PetscCall(PetscMalloc5(Nfp, &xi, Nfp, &wxi, Nfq, &xg, Nfq, &wg, Nfq * Nfp, &L));
    PetscCall(GaussLobattoLegendre(Nfp, xi, wxi));
    PetscCall(JacobiGaussQuadrature(0.0, 0.0, Nfq, xg, wg));
    LagrangeMatrix1D(Nfp, xi, Nfq, xg, L, NULL);
    for (PetscInt f = 0; f < Nfaces; f++)
      for (PetscInt q = 0; q < Nfq; q++)
        for (PetscInt a = 0; a < Nfp; a++) {
          const PetscReal l                   = L[q * Nfp + a];
          ops->If[(f * Nfq + q) * Nfp + a]    = l;
          ops->LIFTf[(f * Nfp + a) * Nfq + q] = wg[q] * l;
        }
    PetscCall(PetscFree5(xi, wxi, xg, wg, L));
  } else {
    for (PetscInt f = 0; f < Nfaces; f++) {
      const RefShape fs = RefShapeTable[ref->shape].face_shape[f];
      PetscInt       nfq;
      PetscReal     *xq, *wq, *V, *Vinv, *P;
      PetscCall(RefElementCubature(fs, 3 * N, &nfq, &xq, &wq));
      PetscCheck(nfq == Nfq && ref->Nfp[f] == Nfp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face %" PetscInt_FMT " of a %s: %" PetscInt_FMT " cubature points and %" PetscInt_FMT " nodes, expected %" PetscInt_FMT " and %" PetscInt_FMT, f, RefShapes[ref->shape], nfq, ref->Nfp[f], Nfq, Nfp);
      PetscCall(PetscMalloc3(Nfp * Nfp, &V, Nfp * Nfp, &Vinv, Nfq * Nfp, &P));
      PetscCall(RefElementModalBasis(fs, N, Nfp, ref->face_xi + ref->face_offset[f] * (dim - 1), V, NULL));
      PetscCall(DenseInvert(Nfp, V, Vinv));
      PetscCall(RefElementModalBasis(fs, N, Nfq, xq, P, NULL));
      DenseMatMult(Nfq, Nfp, Nfp, P, Vinv, ops->If + f * Nfq * Nfp); /* l_a(x_q) = sum_m phi_m(x_q) Vinv[m][a] */
      for (PetscInt q = 0; q < Nfq; q++)
        for (PetscInt a = 0; a < Nfp; a++) ops->LIFTf[(f * Nfp + a) * Nfq + q] = wq[q] * ops->If[(f * Nfq + q) * Nfp + a];
      PetscCall(PetscFree3(V, Vinv, P));
      PetscCall(PetscFree2(xq, wq));
    }
  }
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
  const int            dim = h->dim;
  const size_t         nf = (size_t)h->K * h->Nfaces, nfn = (size_t)h->Nfaces * h->Nfp, nff = (size_t)h->Nfq * h->Nfp;

  PetscFunctionBeginUser;
  *d = *h;
  PetscCall(HoflowDeviceArraysUpload(a, h->geo, sizeof(double) * h->K * INS_GEO(dim), (const void **)&d->geo));
  PetscCall(HoflowDeviceArraysUpload(a, h->sgeo, sizeof(double) * nf * INS_SGEO(dim), (const void **)&d->sgeo));
  PetscCall(HoflowDeviceArraysUpload(a, h->face_type, sizeof(int) * nf, (const void **)&d->face_type));
  PetscCall(HoflowDeviceArraysUpload(a, h->vmapP, sizeof(int) * nf * h->Nfp, (const void **)&d->vmapP));
  PetscCall(HoflowDeviceArraysUpload(a, h->face_nodes, sizeof(int) * nfn, (const void **)&d->face_nodes));
  PetscCall(HoflowDeviceArraysUpload(a, h->bcq, sizeof(double) * dim * nf * h->Nfq, (const void **)&d->bcq));
  PetscCall(HoflowDeviceArraysUpload(a, h->bcn, sizeof(double) * (dim + 1) * nf * h->Nfp, (const void **)&d->bcn));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Nc, h->Np, h->Ic, &d->IcT));
  for (PetscInt k = 0; k < dim; k++) {
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Nc, h->DW[k], &d->DWT[k]));
    PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, h->D[k], &d->DT[k]));
  }
  for (PetscInt k = 0; k < 3; k++) d->D[k] = d->DW[k] = NULL;
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, h->Np, h->Minv, &d->MinvT));
  /* the face tables face by face: IfT[f][a*Nfq + q], LIFTfT[f][q*Nfp + a] */
  PetscCall(PetscMalloc2(h->Nfaces * nff, &ops->IfT, h->Nfaces * nff, &ops->LIFTfT));
  for (PetscInt f = 0; f < h->Nfaces; f++) {
    DenseTranspose(h->Nfq, h->Nfp, h->If + f * nff, ops->IfT + f * nff);
    DenseTranspose(h->Nfp, h->Nfq, h->LIFTf + f * nff, ops->LIFTfT + f * nff);
  }
  PetscCall(HoflowDeviceArraysUpload(a, ops->IfT, sizeof(double) * h->Nfaces * nff, (const void **)&d->IfT));
  PetscCall(HoflowDeviceArraysUpload(a, ops->LIFTfT, sizeof(double) * h->Nfaces * nff, (const void **)&d->LIFTfT));
  PetscCall(HoflowDeviceArraysUploadTranspose(a, h->Np, (PetscInt)nfn, h->LIFT, &d->LIFTT));
  d->Ic = d->Minv = d->If = d->LIFTf = d->LIFT = NULL; /* the CUDA kernels read the transposes */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsCreate(DGDisc *dg, const PetscInt face_type[], INSOps *ops_out)
{
  INSOps           ops;
  const Mesh      *mesh = dg->mesh;
  const MeshBlock *mb   = &mesh->blocks[0];
  INSKernelData   *kd;

  PetscFunctionBeginUser;
  {
    PetscBool curved;
    PetscCall(MeshHasCurved(mesh, &curved));
    PetscCheck(!curved, PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "Mesh %s has curved or non-affine elements (geometry from %s); hoflow's incompressible flow operators need affine elements: use a straight-sided mesh of triangles, parallelogram quadrilaterals, tetrahedra or parallelepiped hexahedra for flow problems", mesh->source, mesh->geom_source);
  }
  PetscCall(PetscNew(&ops));
  ops->dg  = dg;
  ops->dim = dg->dim;
  PetscCall(DGDiscGetUniformRef(dg, "incompressible flow", &ops->ref));
  PetscCheck(ops->ref->shape != REF_PRISM, PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "Mesh %s has prisms; hoflow's incompressible flow operators run on triangles, quadrilaterals, tetrahedra and hexahedra (faces of one shape)", mesh->source);
  PetscCheck(INSKernelsSupported(ops->ref->shape, (int)dg->N), PetscObjectComm((PetscObject)dg->dm), PETSC_ERR_SUP, "-order %" PetscInt_FMT ": hoflow's incompressible flow operators on %s run N = 1..%d", dg->N, RefShapes[ops->ref->shape], ops->dim == 2 ? INS_NMAX_2D : INS_NMAX_3D);
  PetscCall(OpShellInit(&ops->op, "incompressible flow operators", dg->dm, INSOpsDeviceSetUp, ops));
  PetscCall(OpShellCreateLocal(&ops->op, 2 * ops->dim));
  PetscCall(OpShellHaloSetUpBatch(&ops->op)); /* the advection's 2 dim inputs in one exchange (several ranks) */
  ops->Kint = mb->interior_end - mb->start;
  PetscCall(PetscMalloc1(mesh->nslots, &ops->face_type));
  for (PetscInt k = 0; k < mesh->nslots; k++) {
    ops->face_type[k] = face_type ? face_type[k] : mesh->face_type[k];
    PetscCheck(ops->face_type[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call MeshSetBoundaryTypes() before creating operators");
  }
  kd             = &ops->kd;
  kd->shape      = ops->ref->shape;
  kd->dim        = (int)ops->dim;
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
  for (PetscInt d = 0; d < ops->dim; d++) kd->D[d] = ops->ref->D[d];
  kd->LIFT = ops->ref->LIFT;
  kd->Minv = ops->ref->Minv;
  PetscCall(INSOpsBuildTables(ops));
  kd->Ic = ops->Ic;
  for (PetscInt d = 0; d < ops->dim; d++) kd->DW[d] = ops->DW[d];
  kd->If    = ops->If;
  kd->LIFTf = ops->LIFTf;
  PetscCall(PetscCalloc2(ops->dim * mesh->K * kd->Nfaces * kd->Nfq, &ops->bcq, (ops->dim + 1) * mesh->K * kd->Nfaces * kd->Nfp, &ops->bcn));
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
  PetscCall(PetscFree((*ops)->Ic));
  for (PetscInt d = 0; d < 3; d++) PetscCall(PetscFree((*ops)->DW[d]));
  PetscCall(PetscFree2((*ops)->If, (*ops)->LIFTf));
  PetscCall(PetscFree2((*ops)->IfT, (*ops)->LIFTfT));
  PetscCall(PetscFree2((*ops)->bcq, (*ops)->bcn));
  PetscCall(PetscFree((*ops)->bface));
  PetscCall(PetscFree((*ops)->pack));
  PetscCall(PetscFree(*ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsGetFaceTypes(INSOps ops, const PetscInt **face_type)
{
  PetscFunctionBeginUser;
  *face_type = ops->face_type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The point of face f of an element (reference-ordered vertices vx) at face coordinates xi[dim-1]:
 * x = v0 + (1+a)/2 (v1 - v0) + (1+b)/2 (v_last - v0) (hoflow/shape.h; affine faces). */
static void INSFacePoint(RefShape shape, PetscInt dim, const PetscReal vx[], PetscInt f, const PetscReal xi[], PetscReal x[])
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  const PetscReal    *v0 = vx + dim * info->face_verts[f][0], *v1 = vx + dim * info->face_verts[f][1], *vl = vx + dim * info->face_verts[f][info->face_nverts[f] - 1];
  for (PetscInt d = 0; d < dim; d++) x[d] = v0[d] + 0.5 * (1 + xi[0]) * (v1[d] - v0[d]) + 0.5 * (1 + xi[1]) * (vl[d] - v0[d]);
}

/* New boundary data to the device: the boundary faces' values only, packed on the host, copied, and
 * scattered into the device's face arrays (INSScatterFaces). */
static PetscErrorCode INSOpsUploadBoundaryData(INSOps ops)
{
  const INSKernelData *kd  = &ops->kd;
  const int            dim = (int)ops->dim, nbn = kd->K * kd->Nfaces * kd->Nfp, nbq = kd->K * kd->Nfaces * kd->Nfq;
  PetscInt             nb;
  size_t               nn, nq;

  PetscFunctionBeginUser;
  if (!ops->bface) {
    PetscInt k = 0;
    for (PetscInt e = 0; e < kd->K; e++)
      for (PetscInt f = 0; f < kd->Nfaces; f++) k += ops->face_type[ops->dg->mesh->face_slot[e] + f] != HOFLOW_FACE_INTERIOR;
    ops->nbface = k;
    PetscCall(PetscMalloc1(PetscMax(k, 1), &ops->bface));
    k = 0;
    for (PetscInt e = 0; e < kd->K; e++)
      for (PetscInt f = 0; f < kd->Nfaces; f++)
        if (ops->face_type[ops->dg->mesh->face_slot[e] + f] != HOFLOW_FACE_INTERIOR) ops->bface[k++] = (int)(e * kd->Nfaces + f);
    PetscCall(PetscMalloc1(PetscMax((size_t)ops->nbface * ((dim + 1) * kd->Nfp + dim * kd->Nfq), 1), &ops->pack));
    PetscCall(HoflowDeviceArraysUpload(&ops->op.device, ops->bface, sizeof(int) * PetscMax(ops->nbface, 1), (const void **)&ops->bface_device));
    PetscCall(HoflowDeviceArraysUpload(&ops->op.device, NULL, sizeof(double) * PetscMax((size_t)ops->nbface * ((dim + 1) * kd->Nfp + dim * kd->Nfq), 1), (const void **)&ops->pack_device));
  }
  nb = ops->nbface;
  nn = (size_t)nb * (dim + 1) * kd->Nfp;
  nq = (size_t)nb * dim * kd->Nfq;
  if (!nb) PetscFunctionReturn(PETSC_SUCCESS);
  for (int c = 0; c <= dim; c++)
    for (PetscInt b = 0; b < nb; b++)
      for (int j = 0; j < kd->Nfp; j++) ops->pack[((size_t)c * nb + b) * kd->Nfp + j] = ops->bcn[(size_t)c * nbn + (size_t)ops->bface[b] * kd->Nfp + j];
  for (int c = 0; c < dim; c++)
    for (PetscInt b = 0; b < nb; b++)
      for (int j = 0; j < kd->Nfq; j++) ops->pack[nn + ((size_t)c * nb + b) * kd->Nfq + j] = ops->bcq[(size_t)c * nbq + (size_t)ops->bface[b] * kd->Nfq + j];
  PetscCall(HoflowDeviceCopyToChecked(ops->pack_device, ops->pack, sizeof(double) * (nn + nq), ops->op.stream));
  PetscCall(PetscLogCpuToGpu(sizeof(double) * (nn + nq)));
  PetscCall(OpShellCheckKernel(&ops->op, HOFLOW_CUDA(INSScatterFacesCUDA((int)nb, ops->bface_device, kd->Nfp, dim + 1, ops->pack_device, nbn, (double *)ops->kd_device.bcn, ops->op.stream)), "boundary-data scatter"));
  PetscCall(OpShellCheckKernel(&ops->op, HOFLOW_CUDA(INSScatterFacesCUDA((int)nb, ops->bface_device, kd->Nfq, dim, ops->pack_device + nn, nbq, (double *)ops->kd_device.bcq, ops->op.stream)), "boundary-data scatter"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  INSBoundaryFunction bc;
  void               *ctx;
} INSBoundaryPointwise;

static PetscErrorCode INSBoundaryIgnoreSlot(PetscInt slot, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  INSBoundaryPointwise *pw = (INSBoundaryPointwise *)ctx;

  PetscFunctionBeginUser;
  PetscCheck(slot >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face slot %" PetscInt_FMT, slot);
  PetscCall(pw->bc(x, n, values, pw->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsSetBoundaryData(INSOps ops, INSBoundaryFunction bc, void *ctx)
{
  INSBoundaryPointwise pw = {bc, ctx};

  PetscFunctionBeginUser;
  PetscCheck(!ops->op.device_ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Set the boundary data before the first use on the device");
  PetscCall(INSOpsSetBoundaryDataFaces(ops, INSBoundaryIgnoreSlot, &pw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsSetBoundaryDataFaces(INSOps ops, INSBoundaryFaceFunction bc, void *ctx)
{
  DGDisc           *dg   = ops->dg;
  const Mesh       *mesh = dg->mesh;
  const RefElement *ref  = ops->ref;
  const PetscInt    dim = ops->dim, Nf = ref->Nfaces, Nfp = ref->Nfp[0], Nfq = ops->kd.Nfq, nbn = mesh->K * Nf * Nfp, nbq = mesh->K * Nf * Nfq;
  PetscReal        *xg, *wg, *fxq[HOFLOW_FACES_MAX] = {NULL};
  const PetscReal  *xn;

  PetscFunctionBeginUser;
  PetscCall(DGDiscGetNodeCoordinates(dg, &xn));
  PetscCall(PetscMalloc2(Nfq, &xg, Nfq, &wg));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, dim == 2 ? Nfq : INS_NQ(ref->N), xg, wg));
  if (dim == 3)
    for (PetscInt f = 0; f < Nf; f++) { /* the face cubature points of INSOpsBuildTables, in face coordinates */
      PetscInt   nfq;
      PetscReal *w;
      PetscCall(RefElementCubature(RefShapeTable[ref->shape].face_shape[f], 3 * ref->N, &nfq, &fxq[f], &w));
      PetscCall(PetscFree(w));
    }
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscReal *vx = mesh->vertices + e * HOFLOW_VERTS_MAX * dim;
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt   slot = mesh->face_slot[e] + f, type = ops->face_type[slot];
      const PetscReal *n    = mesh->face_normal + slot * dim;
      PetscReal        val[2 * HOFLOW_DIM_MAX + 1];
      if (type == HOFLOW_FACE_INTERIOR) continue;
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt id = dg->elem_node[e] + ref->face_nodes[f * Nfp + a], k = (e * Nf + f) * Nfp + a;
        if (dim == 3) { /* the face coordinates of the face nodes must be those the face tables assume */
          PetscReal x[3], dist = 0;
          INSFacePoint(ref->shape, dim, vx, f, ref->face_xi + (ref->face_offset[f] + a) * (dim - 1), x);
          for (PetscInt d = 0; d < dim; d++) dist = PetscMax(dist, PetscAbsReal(x[d] - xn[dim * id + d]));
          PetscCheck(dist < 1e-8 * (1 + PetscAbsReal(x[0]) + PetscAbsReal(x[1]) + PetscAbsReal(x[2])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element %" PetscInt_FMT " face %" PetscInt_FMT " node %" PetscInt_FMT ": the face coordinates place it %g away from the node", e, f, a, (double)dist);
        }
        PetscCall(bc(slot, xn + dim * id, n, val, ctx));
        for (PetscInt c = 0; c < dim; c++) ops->bcn[c * nbn + k] = type == HOFLOW_FACE_DIRICHLET ? val[c] : val[dim + c];
        ops->bcn[dim * nbn + k] = type == HOFLOW_FACE_NEUMANN ? val[2 * dim] : 0.0;
      }
      for (PetscInt q = 0; q < Nfq; q++) {
        const PetscInt k = (e * Nf + f) * Nfq + q;
        PetscReal      x[3];
        if (dim == 2) {
          const PetscReal *v0 = vx + 2 * RefShapeTable[ref->shape].face_verts[f][0], *v1 = vx + 2 * RefShapeTable[ref->shape].face_verts[f][1];
          x[0]                = 0.5 * (1 - xg[q]) * v0[0] + 0.5 * (1 + xg[q]) * v1[0];
          x[1]                = 0.5 * (1 - xg[q]) * v0[1] + 0.5 * (1 + xg[q]) * v1[1];
        } else INSFacePoint(ref->shape, dim, vx, f, fxq[f] + 2 * q, x);
        PetscCall(bc(slot, x, n, val, ctx));
        for (PetscInt c = 0; c < dim; c++) ops->bcq[c * nbq + k] = val[c]; /* outflow faces too: the data of backflow */
      }
    }
  }
  for (PetscInt f = 0; f < Nf; f++) PetscCall(PetscFree(fxq[f]));
  PetscCall(PetscFree2(xg, wg));
  if (ops->op.device_ready) PetscCall(INSOpsUploadBoundaryData(ops));
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

/* The distinct vectors of n inputs: d[0..m) and input k's index map[k] in them (a vector given twice is
 * exchanged once, e.g. the advection N(u) with a = c = u). */
static void INSOpsDistinctInputs(PetscInt n, const Vec in[], PetscInt *m, Vec d[], PetscInt map[])
{
  *m = 0;
  for (PetscInt k = 0; k < n; k++) {
    map[k] = -1;
    for (PetscInt j = 0; j < *m; j++)
      if (d[j] == in[k]) map[k] = j;
    if (map[k] < 0) map[k] = *m, d[(*m)++] = in[k];
  }
}

/* The halo exchange of n inputs, all of them in one exchange (OpShellHaloBeginMany): begin, with the
 * owned arrays for the interior elements; end, with the local arrays for the rest. */
static PetscErrorCode INSOpsInputsBegin(INSOps ops, PetscInt n, Vec in[], const PetscScalar *owned[])
{
  Vec                d[OPSHELL_NLOCAL] = {NULL};
  const PetscScalar *da[OPSHELL_NLOCAL];
  PetscInt           m, map[OPSHELL_NLOCAL];

  PetscFunctionBeginUser;
  INSOpsDistinctInputs(n, in, &m, d, map);
  PetscCall(OpShellHaloBeginMany(&ops->op, m, NULL, d));
  for (PetscInt j = 0; j < m; j++) PetscCall(OpShellGetArrayRead(&ops->op, d[j], &da[j]));
  for (PetscInt k = 0; k < n; k++) owned[k] = da[map[k]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsInputsEnd(INSOps ops, PetscInt n, Vec in[], const PetscScalar *local[])
{
  Vec                d[OPSHELL_NLOCAL] = {NULL};
  const PetscScalar *la[OPSHELL_NLOCAL];
  PetscInt           m, map[OPSHELL_NLOCAL];

  PetscFunctionBeginUser;
  INSOpsDistinctInputs(n, in, &m, d, map);
  PetscCall(OpShellHaloEndMany(&ops->op, m, NULL, d, la));
  for (PetscInt k = 0; k < n; k++) local[k] = la[map[k]];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsInputsRestore(INSOps ops, PetscInt n, Vec in[], const PetscScalar *owned[], const PetscScalar *local[])
{
  Vec      d[OPSHELL_NLOCAL] = {NULL};
  PetscInt m, map[OPSHELL_NLOCAL];

  PetscFunctionBeginUser;
  INSOpsDistinctInputs(n, in, &m, d, map);
  for (PetscInt k = 0; k < n; k++) {
    PetscBool first = PETSC_TRUE;
    for (PetscInt j = 0; j < k; j++) first = (PetscBool)(first && map[j] != map[k]);
    if (!first) continue;
    PetscCall(OpShellHaloRestore(&ops->op, map[k], &local[k]));
    PetscCall(OpShellRestoreArrayRead(&ops->op, in[k], &owned[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSAdvectionRun(INSOps ops, int e0, int e1, const PetscScalar *const in[], double lambda_scale, double bc_scale, PetscScalar *const o[])
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  const int            dim = kd->dim;
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSAdvectionCUDA(kd, e0, e1, in, in + dim, lambda_scale, bc_scale, o));
  INSAdvectionHost(kd, e0, e1, in, in + dim, lambda_scale, bc_scale, o);
  return 0;
}

PetscErrorCode INSOpsAdvection(INSOps ops, const Vec a[], const Vec c[], PetscReal lambda_scale, PetscReal bc_scale, const Vec out[])
{
  const PetscInt     dim = ops->dim;
  Vec                in[6];
  const PetscScalar *ga[6], *la[6];
  PetscScalar       *o[3] = {NULL, NULL, NULL};
  const double       flops = ops->kd.K * INSAdvectionFlopsPerElement(ops->kd.dim, ops->kd.Np, ops->kd.Nc, ops->kd.Nfaces, ops->kd.Nfp, ops->kd.Nfq);

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < dim; k++) in[k] = a[k], in[dim + k] = c[k];
  PetscCall(OpShellBegin(&ops->op, a[0], NULL));
  PetscCall(INSOpsInputsBegin(ops, 2 * dim, in, ga));
  for (PetscInt k = 0; k < dim; k++) PetscCall(OpShellGetArrayWrite(&ops->op, out[k], &o[k]));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSAdvection));
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, 0, (int)ops->Kint, ga, lambda_scale, bc_scale, o), "advection"));
  PetscCall(INSOpsInputsEnd(ops, 2 * dim, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, (int)ops->Kint, ops->kd.K, la, lambda_scale, bc_scale, o), "advection"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSAdvection, flops));
  for (PetscInt k = dim - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayWrite(&ops->op, out[k], &o[k]));
  PetscCall(INSOpsInputsRestore(ops, 2 * dim, in, ga, la));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsAdvectionExtrapolated(INSOps ops, PetscInt n, const Vec hist[], const PetscReal w[], const Vec c[], PetscReal bc_scale, const Vec out[])
{
  const PetscInt     dim = ops->dim;
  Vec                g[HALO_NMAX], abar[3];
  PetscInt           slot[HALO_NMAX], m = 0, nstale;
  const PetscScalar *la[HALO_NMAX], *aa[3], *ca[3], *cl[3], *in[6];
  PetscScalar       *o[3] = {NULL, NULL, NULL};
  const double       flops = ops->kd.K * INSAdvectionFlopsPerElement(ops->kd.dim, ops->kd.Np, ops->kd.Nc, ops->kd.Nfaces, ops->kd.Nfp, ops->kd.Nfq);

  PetscFunctionBeginUser;
  PetscCheck(n >= 1 && n * dim <= INS_HISTORY_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The advecting velocity from %" PetscInt_FMT " past velocities; 1 to %d", n, INS_HISTORY_MAX / 3);
  PetscCall(OpShellBegin(&ops->op, c[0], NULL));
  /* the past velocities whose halos are not in their slots, and the advected components: one exchange */
  for (PetscInt i = 0; i < n * dim; i++) {
    PetscObjectId    id;
    PetscObjectState state;
    PetscCall(PetscObjectGetId((PetscObject)hist[i], &id));
    PetscCall(PetscObjectStateGet((PetscObject)hist[i], &state));
    if (id == ops->hist_id[i] && state == ops->hist_state[i] && ops->hist_device[i] == ops->op.on_device) continue;
    ops->hist_id[i]     = id;
    ops->hist_state[i]  = state;
    ops->hist_device[i] = ops->op.on_device;
    slot[m]             = INS_SLOT_HISTORY + i;
    g[m++]              = hist[i];
  }
  nstale = m;
  for (PetscInt k = 0; k < dim; k++) slot[m] = k, g[m++] = c[k];
  PetscCall(OpShellHaloBeginMany(&ops->op, m, slot, g));
  if (nstale) { /* the first call of a step: the advecting velocity needs the new halos */
    PetscCall(OpShellHaloEndMany(&ops->op, m, slot, g, la));
    for (PetscInt j = 0; j < nstale; j++) PetscCall(OpShellHaloRestore(&ops->op, slot[j], &la[j]));
    for (PetscInt k = 0; k < dim; k++) cl[k] = la[nstale + k];
  }
  /* a = sum_j w_j a_j on the local vectors, halo included (the same arithmetic as on the owners) */
  for (PetscInt k = 0; k < dim; k++) {
    Vec past[INS_HISTORY_MAX];
    for (PetscInt j = 0; j < n; j++) PetscCall(OpShellGetLocal(&ops->op, INS_SLOT_HISTORY + j * dim + k, &past[j]));
    PetscCall(OpShellGetLocal(&ops->op, INS_SLOT_ABAR + k, &abar[k]));
    PetscCall(VecZeroEntries(abar[k]));
    PetscCall(VecMAXPY(abar[k], n, w, past));
  }
  for (PetscInt k = 0; k < dim; k++) {
    PetscCall(OpShellGetArrayRead(&ops->op, abar[k], &aa[k]));
    PetscCall(OpShellGetArrayRead(&ops->op, c[k], &ca[k]));
    in[k] = aa[k], in[dim + k] = ca[k];
  }
  for (PetscInt k = 0; k < dim; k++) PetscCall(OpShellGetArrayWrite(&ops->op, out[k], &o[k]));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSAdvection));
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, 0, (int)ops->Kint, in, 1.0, bc_scale, o), "advection"));
  if (!nstale) PetscCall(OpShellHaloEndMany(&ops->op, dim, slot, g, cl));
  for (PetscInt k = 0; k < dim; k++) in[dim + k] = cl[k];
  PetscCall(OpShellCheckKernel(&ops->op, INSAdvectionRun(ops, (int)ops->Kint, ops->kd.K, in, 1.0, bc_scale, o), "advection"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSAdvection, flops));
  for (PetscInt k = dim - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayWrite(&ops->op, out[k], &o[k]));
  for (PetscInt k = 0; k < dim; k++) {
    PetscCall(OpShellHaloRestore(&ops->op, k, &cl[k]));
    PetscCall(OpShellRestoreArrayRead(&ops->op, c[k], &ca[k]));
    PetscCall(OpShellRestoreArrayRead(&ops->op, abar[k], &aa[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSGradientRun(INSOps ops, int e0, int e1, const PetscScalar *p, const PetscScalar *t, double trace_scale, double bc_scale, PetscScalar *const o[])
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSGradientCUDA(kd, e0, e1, p, t, trace_scale, bc_scale, o));
  INSGradientHost(kd, e0, e1, p, t, trace_scale, bc_scale, o);
  return 0;
}

PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, const Vec g[])
{
  const PetscInt     dim   = ops->dim;
  Vec                in[1] = {p};
  const PetscScalar *ga[1], *la[1], *t = NULL;
  PetscScalar       *o[3] = {NULL, NULL, NULL};
  const double       flops = ops->kd.K * INSGradientFlopsPerElement(ops->kd.dim, ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&ops->op, p, NULL));
  PetscCall(INSOpsInputsBegin(ops, 1, in, ga));
  if (ptrace) PetscCall(OpShellGetArrayRead(&ops->op, ptrace, &t));
  for (PetscInt k = 0; k < dim; k++) PetscCall(OpShellGetArrayWrite(&ops->op, g[k], &o[k]));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSGradient));
  PetscCall(OpShellCheckKernel(&ops->op, INSGradientRun(ops, 0, (int)ops->Kint, ga[0], t, trace_scale, bc_scale, o), "gradient"));
  PetscCall(INSOpsInputsEnd(ops, 1, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSGradientRun(ops, (int)ops->Kint, ops->kd.K, la[0], t, trace_scale, bc_scale, o), "gradient"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSGradient, flops));
  for (PetscInt k = dim - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayWrite(&ops->op, g[k], &o[k]));
  if (ptrace) PetscCall(OpShellRestoreArrayRead(&ops->op, ptrace, &t));
  PetscCall(INSOpsInputsRestore(ops, 1, in, ga, la));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int INSDivergenceRun(INSOps ops, int e0, int e1, const PetscScalar *const a[], double bc_scale, PetscScalar *o)
{
  const INSKernelData *kd = INSOpsKernelData(ops);
  if (e1 <= e0) return 0;
  if (ops->op.on_device) return HOFLOW_CUDA(INSDivergenceCUDA(kd, e0, e1, a, bc_scale, o));
  INSDivergenceHost(kd, e0, e1, a, bc_scale, o);
  return 0;
}

PetscErrorCode INSOpsDivergence(INSOps ops, const Vec u[], PetscReal bc_scale, Vec div)
{
  const PetscInt     dim = ops->dim;
  Vec                in[3];
  const PetscScalar *ga[3], *la[3];
  PetscScalar       *o;
  const double       flops = ops->kd.K * INSDivergenceFlopsPerElement(ops->kd.dim, ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < dim; k++) in[k] = u[k];
  PetscCall(OpShellBegin(&ops->op, u[0], NULL));
  PetscCall(INSOpsInputsBegin(ops, dim, in, ga));
  PetscCall(OpShellGetArrayWrite(&ops->op, div, &o));
  PetscCall(OpShellEventBegin(&ops->op, HOFLOW_INSDivergence));
  PetscCall(OpShellCheckKernel(&ops->op, INSDivergenceRun(ops, 0, (int)ops->Kint, ga, bc_scale, o), "divergence"));
  PetscCall(INSOpsInputsEnd(ops, dim, in, la));
  PetscCall(OpShellCheckKernel(&ops->op, INSDivergenceRun(ops, (int)ops->Kint, ops->kd.K, la, bc_scale, o), "divergence"));
  PetscCall(OpShellEventEnd(&ops->op, HOFLOW_INSDivergence, flops));
  PetscCall(OpShellRestoreArrayWrite(&ops->op, div, &o));
  PetscCall(INSOpsInputsRestore(ops, dim, in, ga, la));
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
  PetscCheck(component >= 0 && component <= ops->dim, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Face data component %" PetscInt_FMT " is not a velocity component (0..%" PetscInt_FMT ") or the pressure (%" PetscInt_FMT ")", component, ops->dim - 1, ops->dim);
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

/* Element-local derivatives of u at node i of owned element e: g[x] = du/dx_x. */
static void INSNodeGradient(const INSKernelData *kd, PetscInt e, PetscInt i, const PetscScalar *u, PetscReal g[])
{
  const PetscInt   dim = kd->dim;
  const PetscReal *G   = kd->geo + e * INS_GEO(dim);
  PetscReal        ur[3] = {0, 0, 0};
  for (PetscInt j = 0; j < kd->Np; j++)
    for (PetscInt r = 0; r < dim; r++) ur[r] += kd->D[r][i * kd->Np + j] * PetscRealPart(u[e * kd->Np + j]);
  for (PetscInt x = 0; x < dim; x++) {
    g[x] = G[x * dim] * ur[0];
    for (PetscInt r = 1; r < dim; r++) g[x] += G[x * dim + r] * ur[r];
  }
}

PetscErrorCode INSOpsVorticity(INSOps ops, const Vec u[], PetscInt component, Vec omega)
{
  const INSKernelData *kd  = &ops->kd;
  const PetscInt       dim = ops->dim;
  const PetscScalar   *ua[3];
  PetscScalar         *wa;

  PetscFunctionBeginUser;
  PetscCheck(component >= -1 && component < (dim == 3 ? 3 : 0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Vorticity component %" PetscInt_FMT " of a %" PetscInt_FMT "D flow", component, dim);
  for (PetscInt k = 0; k < dim; k++) PetscCall(VecGetArrayRead(u[k], &ua[k]));
  PetscCall(VecGetArrayWrite(omega, &wa));
  for (PetscInt e = 0; e < kd->K; e++)
    for (PetscInt i = 0; i < kd->Np; i++) {
      PetscReal g[3][3]; /* g[k][x] = du_k/dx_x */
      for (PetscInt k = 0; k < dim; k++) INSNodeGradient(kd, e, i, ua[k], g[k]);
      if (dim == 2) wa[e * kd->Np + i] = g[1][0] - g[0][1];
      else {
        const PetscReal w[3] = {g[2][1] - g[1][2], g[0][2] - g[2][0], g[1][0] - g[0][1]};
        wa[e * kd->Np + i]   = component >= 0 ? w[component] : PetscSqrtReal(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      }
    }
  PetscCall(VecRestoreArrayWrite(omega, &wa));
  for (PetscInt k = 0; k < dim; k++) PetscCall(VecRestoreArrayRead(u[k], &ua[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsBoundaryForce(INSOps ops, PetscReal nu, const Vec u[], Vec p, const PetscBool mask[], PetscReal force[])
{
  const INSKernelData *kd  = &ops->kd;
  const RefElement    *ref = ops->ref;
  const PetscInt       dim = ops->dim;
  const PetscScalar   *ua[3], *pa;
  PetscReal            F[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < dim; k++) PetscCall(VecGetArrayRead(u[k], &ua[k]));
  PetscCall(VecGetArrayRead(p, &pa));
  for (PetscInt e = 0; e < kd->K; e++) {
    const PetscReal J = kd->geo[e * INS_GEO(dim) + INS_J(dim)];
    for (PetscInt f = 0; f < kd->Nfaces; f++) {
      const PetscReal *sg = kd->sgeo + (e * kd->Nfaces + f) * INS_SGEO(dim);
      const PetscReal  sJ = sg[INS_SJ(dim)] * J;
      if (!mask[e * kd->Nfaces + f]) continue;
      for (PetscInt a = 0; a < kd->Nfp; a++) {
        const PetscInt i = ref->face_nodes[f * kd->Nfp + a];
        PetscReal      g[3][3], w = 0, pn = PetscRealPart(pa[e * kd->Np + i]);
        for (PetscInt b = 0; b < kd->Nfp; b++) w += ref->Mface[ref->face_mass_offset[f] + a * kd->Nfp + b]; /* int of l_a over the face */
        for (PetscInt k = 0; k < dim; k++) INSNodeGradient(kd, e, i, ua[k], g[k]);
        /* on the body: p n - nu (grad u + grad u^T) n, n the fluid's outward normal */
        for (PetscInt x = 0; x < dim; x++) {
          PetscReal s = (g[x][0] + g[0][x]) * sg[0];
          for (PetscInt y = 1; y < dim; y++) s += (g[x][y] + g[y][x]) * sg[y];
          F[x] += sJ * w * (pn * sg[x] - nu * s);
        }
      }
    }
  }
  PetscCall(VecRestoreArrayRead(p, &pa));
  for (PetscInt k = 0; k < dim; k++) PetscCall(VecRestoreArrayRead(u[k], &ua[k]));
  PetscCall(MPIU_Allreduce(F, force, (PetscMPIInt)dim, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ops->dg->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsTimeKernels(INSOps ops, const Vec u[], PetscInt reps, PetscReal seconds[3])
{
  const PetscInt     dim = ops->dim;
  Vec                in[3], out[3];
  const PetscScalar *ga[3], *la[3], *a6[6];
  PetscScalar       *o[3] = {NULL, NULL, NULL};
  const int          K    = ops->kd.K;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < dim; k++) {
    in[k] = u[k];
    PetscCall(VecDuplicate(u[k], &out[k]));
  }
  PetscCall(INSOpsAdvection(ops, in, in, 2.0, 1.0, out)); /* warm up: device set-up */
  PetscCall(OpShellBegin(&ops->op, u[0], NULL));
  PetscCall(INSOpsInputsBegin(ops, dim, in, ga));
  PetscCall(INSOpsInputsEnd(ops, dim, in, la));
  for (PetscInt k = 0; k < dim; k++) PetscCall(OpShellGetArrayWrite(&ops->op, out[k], &o[k]));
  for (PetscInt k = 0; k < dim; k++) a6[k] = a6[dim + k] = la[k];
  for (PetscInt kernel = 0; kernel < 3; kernel++) {
    PetscLogDouble t0, t1;
    int            err = ops->op.on_device ? HOFLOW_CUDA(HoflowDeviceSynchronize()) : 0;
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps && !err; k++) err = kernel == 0 ? INSAdvectionRun(ops, 0, K, a6, 2.0, 1.0, o) : kernel == 1 ? INSGradientRun(ops, 0, K, la[0], NULL, 0.0, 1.0, o)
                                                                                                                              : INSDivergenceRun(ops, 0, K, la, 1.0, o[0]);
    if (ops->op.on_device && !err) err = HOFLOW_CUDA(HoflowDeviceSynchronize());
    PetscCall(OpShellCheckKernel(&ops->op, err, "incompressible-flow"));
    PetscCall(PetscTime(&t1));
    seconds[kernel] = (t1 - t0) / reps;
  }
  for (PetscInt k = dim - 1; k >= 0; k--) PetscCall(OpShellRestoreArrayWrite(&ops->op, out[k], &o[k]));
  PetscCall(INSOpsInputsRestore(ops, dim, in, ga, la));
  for (PetscInt k = 0; k < dim; k++) PetscCall(VecDestroy(&out[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
