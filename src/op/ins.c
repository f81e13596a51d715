/* The operators of incompressible flow on a nodal DG discretization (seed 000 §2.1, §5.3):
 * advection N(u) and its subcycling form N~(a, c) with cubature and the local Lax–Friedrichs
 * flux, the gradient G and divergence D with central fluxes, and the face data of the velocity
 * and pressure solves. Inputs are global DG vectors (halo exchange inside); each call runs the
 * host kernel (ins_kernels.c) or its CUDA twin (cuda/ins.cu), chosen by the vectors' type. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/op.h>

#define INS_NLOCAL 4

struct _n_INSOps {
  DGDisc       *disc;
  INSKernelData kd;
  PetscInt     *face_type;
  PetscReal    *Ic, *DrW, *DsW, *If, *LIFTf, *bcq, *bcn;
  Vec           local[INS_NLOCAL];
  PetscBool     has_data;
#if defined(HOFLOW_HAVE_CUDA)
  PetscBool     device_ready;
  INSKernelData kd_device;
  void         *device_arrays[32];
  PetscInt      ndevice_arrays;
  Vec           local_device[INS_NLOCAL];
#endif
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
  const RefElement *ref = ops->disc->ref;
  const PetscInt    Np = ref->Np, Nfp = ref->Nfp[0], N = ref->N;
  PetscInt          Nc, Nfq = (3 * N) / 2 + 1;
  PetscReal        *pc, *wc, *P, *Pr, *Ps, *xi, *wxi, *xg, *wg;

  PetscFunctionBeginUser;
  PetscCall(RefElementCubature(ref->shape, 3 * N, &Nc, &pc, &wc));
  PetscCheck(Nc <= HOFLOW_NCUB_MAX && Nfq <= HOFLOW_NFQ_MAX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cubature larger than the kernels' bounds");
  PetscCall(PetscMalloc3(Nc * Np, &ops->Ic, Np * Nc, &ops->DrW, Np * Nc, &ops->DsW));
  PetscCall(RefElementInterpolationMatrix(ref, Nc, pc, ops->Ic));
  PetscCall(PetscMalloc3(Nc * Np, &P, Nc * Np, &Pr, Nc * Np, &Ps));
  {
    PetscReal *dP[3] = {Pr, Ps, NULL};
    PetscCall(RefElementModalBasis(ref->shape, N, Nc, pc, P, dP));
  }
  /* dl_i/dr (x_q) = sum_k dphi_k/dr (x_q) Vinv[k][i] (the nodal basis l_i = sum_k phi_k Vinv[k][i]) */
  for (PetscInt q = 0; q < Nc; q++)
    for (PetscInt i = 0; i < Np; i++) {
      PetscReal dr = 0, ds = 0;
      for (PetscInt k = 0; k < Np; k++) {
        dr += Pr[q * Np + k] * ref->Vinv[k * Np + i];
        ds += Ps[q * Np + k] * ref->Vinv[k * Np + i];
      }
      ops->DrW[i * Nc + q] = wc[q] * dr;
      ops->DsW[i * Nc + q] = wc[q] * ds;
    }
  PetscCall(PetscFree3(P, Pr, Ps));
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

PetscErrorCode INSOpsCreate(DGDisc *disc, const PetscInt face_type[], INSOps *ops_out)
{
  INSOps            ops;
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;
  INSKernelData    *kd;

  PetscFunctionBeginUser;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscReal) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow kernels need PETSc built with 32-bit indices and double precision reals");
  PetscCall(PetscNew(&ops));
  ops->disc = disc;
  PetscCall(PetscMalloc1(mesh->K * ref->Nfaces, &ops->face_type));
  for (PetscInt k = 0; k < mesh->K * ref->Nfaces; k++) {
    ops->face_type[k] = face_type ? face_type[k] : mesh->face_type[k];
    PetscCheck(ops->face_type[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call MeshSetBoundaryConditions() before creating operators");
  }
  kd             = &ops->kd;
  kd->N          = (int)disc->N;
  kd->Np         = (int)ref->Np;
  kd->Nfp        = (int)ref->Nfp[0];
  kd->Nfaces     = (int)ref->Nfaces;
  kd->K          = (int)mesh->K;
  kd->Klocal     = (int)mesh->Klocal;
  kd->elem_cell  = (const int *)mesh->elem_cell;
  kd->geo        = mesh->geo;
  kd->sgeo       = disc->sgeo;
  kd->face_type  = (const int *)ops->face_type;
  kd->vmapP      = (const int *)disc->vmapP;
  kd->face_nodes = (const int *)ref->face_nodes;
  kd->Dr         = ref->D[0];
  kd->Ds         = ref->D[1];
  kd->LIFT       = ref->LIFT;
  kd->Minv       = ref->Minv;
  PetscCall(INSOpsBuildTables(ops));
  kd->Ic    = ops->Ic;
  kd->DrW   = ops->DrW;
  kd->DsW   = ops->DsW;
  kd->If    = ops->If;
  kd->LIFTf = ops->LIFTf;
  PetscCall(PetscCalloc2(2 * mesh->K * ref->Nfaces * kd->Nfq, &ops->bcq, 3 * mesh->K * ref->Nfaces * ref->Nfp[0], &ops->bcn));
  kd->bcq = ops->bcq;
  kd->bcn = ops->bcn;
  for (PetscInt k = 0; k < INS_NLOCAL; k++) PetscCall(DMCreateLocalVector(disc->dm, &ops->local[k]));
  *ops_out = ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsDestroy(INSOps *ops)
{
  PetscFunctionBeginUser;
  if (!*ops) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*ops)->face_type));
  PetscCall(PetscFree3((*ops)->Ic, (*ops)->DrW, (*ops)->DsW));
  PetscCall(PetscFree2((*ops)->If, (*ops)->LIFTf));
  PetscCall(PetscFree2((*ops)->bcq, (*ops)->bcn));
  for (PetscInt k = 0; k < INS_NLOCAL; k++) PetscCall(VecDestroy(&(*ops)->local[k]));
#if defined(HOFLOW_HAVE_CUDA)
  for (PetscInt k = 0; k < (*ops)->ndevice_arrays; k++) PetscCall(HoflowDeviceFreeChecked((*ops)->device_arrays[k]));
  for (PetscInt k = 0; k < INS_NLOCAL; k++) PetscCall(VecDestroy(&(*ops)->local_device[k]));
#endif
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
  DGDisc           *disc = ops->disc;
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;
  const PetscInt    Nf = ref->Nfaces, Nfp = ref->Nfp[0], Nfq = ops->kd.Nfq, nv = mesh->Nverts, nbn = mesh->K * Nf * Nfp, nbq = mesh->K * Nf * Nfq;
  PetscReal        *xg, *wg;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(Nfq, &xg, Nfq, &wg));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, Nfq, xg, wg));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt   cell = mesh->elem_cell[e];
    const PetscReal *vx   = mesh->vertices + cell * nv * 2;
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt   type = ops->face_type[e * Nf + f];
      const PetscReal *fg   = mesh->face_geo + (e * Nf + f) * 3;
      const PetscReal *v0 = vx + 2 * f, *v1 = vx + 2 * ((f + 1) % nv);
      PetscReal        val[5];
      if (type == HOFLOW_FACE_INTERIOR) continue;
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt  id = cell * disc->Np + ref->face_nodes[f * Nfp + a], k = (e * Nf + f) * Nfp + a;
        const PetscReal x[2] = {disc->x[id], disc->y[id]};
        PetscCall(bc(x, fg, val, ctx));
        ops->bcn[k]           = type == HOFLOW_FACE_DIRICHLET ? val[0] : val[2];
        ops->bcn[nbn + k]     = type == HOFLOW_FACE_DIRICHLET ? val[1] : val[3];
        ops->bcn[2 * nbn + k] = type == HOFLOW_FACE_NEUMANN ? val[4] : 0.0;
      }
      for (PetscInt q = 0; q < Nfq; q++) {
        const PetscInt  k    = (e * Nf + f) * Nfq + q;
        const PetscReal x[2] = {0.5 * (1 - xg[q]) * v0[0] + 0.5 * (1 + xg[q]) * v1[0], 0.5 * (1 - xg[q]) * v0[1] + 0.5 * (1 + xg[q]) * v1[1]};
        PetscCall(bc(x, fg, val, ctx));
        ops->bcq[k]       = val[0]; /* outflow faces too: the data of backflow */
        ops->bcq[nbq + k] = val[1];
      }
    }
  }
  PetscCall(PetscFree2(xg, wg));
  ops->has_data = PETSC_TRUE;
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!ops->device_ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Set the boundary data before the first use on the device");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(HOFLOW_HAVE_CUDA)
static PetscErrorCode INSUpload(INSOps ops, const void *host, size_t bytes, const void **device)
{
  void *ptr;

  PetscFunctionBeginUser;
  PetscCheck(ops->ndevice_arrays < (PetscInt)(sizeof(ops->device_arrays) / sizeof(ops->device_arrays[0])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many device arrays");
  PetscCall(HoflowDeviceUploadChecked(host, bytes, &ptr));
  ops->device_arrays[ops->ndevice_arrays++] = ptr;
  *device                                   = ptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsDeviceSetUp(INSOps ops)
{
  const INSKernelData *h  = &ops->kd;
  INSKernelData       *d  = &ops->kd_device;
  const size_t         nf = (size_t)h->K * h->Nfaces, np2 = (size_t)h->Np * h->Np;

  PetscFunctionBeginUser;
  if (ops->device_ready) PetscFunctionReturn(PETSC_SUCCESS);
  *d = *h;
  PetscCall(INSUpload(ops, h->elem_cell, sizeof(int) * h->K, (const void **)&d->elem_cell));
  PetscCall(INSUpload(ops, h->geo, sizeof(double) * h->Klocal * HOFLOW_GEO_SIZE, (const void **)&d->geo));
  PetscCall(INSUpload(ops, h->sgeo, sizeof(double) * nf * HOFLOW_SGEO_SIZE, (const void **)&d->sgeo));
  PetscCall(INSUpload(ops, h->face_type, sizeof(int) * nf, (const void **)&d->face_type));
  PetscCall(INSUpload(ops, h->vmapP, sizeof(int) * nf * h->Nfp, (const void **)&d->vmapP));
  PetscCall(INSUpload(ops, h->face_nodes, sizeof(int) * h->Nfaces * h->Nfp, (const void **)&d->face_nodes));
  PetscCall(INSUpload(ops, h->Dr, sizeof(double) * np2, (const void **)&d->Dr));
  PetscCall(INSUpload(ops, h->Ds, sizeof(double) * np2, (const void **)&d->Ds));
  PetscCall(INSUpload(ops, h->LIFT, sizeof(double) * h->Np * h->Nfaces * h->Nfp, (const void **)&d->LIFT));
  PetscCall(INSUpload(ops, h->Minv, sizeof(double) * np2, (const void **)&d->Minv));
  PetscCall(INSUpload(ops, h->Ic, sizeof(double) * h->Nc * h->Np, (const void **)&d->Ic));
  PetscCall(INSUpload(ops, h->DrW, sizeof(double) * h->Nc * h->Np, (const void **)&d->DrW));
  PetscCall(INSUpload(ops, h->DsW, sizeof(double) * h->Nc * h->Np, (const void **)&d->DsW));
  PetscCall(INSUpload(ops, h->If, sizeof(double) * h->Nfq * h->Nfp, (const void **)&d->If));
  PetscCall(INSUpload(ops, h->LIFTf, sizeof(double) * h->Nfq * h->Nfp, (const void **)&d->LIFTf));
  PetscCall(INSUpload(ops, h->bcq, sizeof(double) * 2 * nf * h->Nfq, (const void **)&d->bcq));
  PetscCall(INSUpload(ops, h->bcn, sizeof(double) * 3 * nf * h->Nfp, (const void **)&d->bcn));
  { /* the kernels' column-major copies of the reference matrices, made once */
    const int nfn = h->Nfaces * h->Nfp;
    struct {
      const double  *A;
      int            rows, cols;
      const double **AT;
    } t[] = {
        {h->Ic, h->Nc, h->Np, &d->IcT},
        {h->DrW, h->Np, h->Nc, &d->DrWT},
        {h->DsW, h->Np, h->Nc, &d->DsWT},
        {h->Minv, h->Np, h->Np, &d->MinvT},
        {h->If, h->Nfq, h->Nfp, &d->IfT},
        {h->LIFTf, h->Nfp, h->Nfq, &d->LIFTfT},
        {h->Dr, h->Np, h->Np, &d->DrT},
        {h->Ds, h->Np, h->Np, &d->DsT},
        {h->LIFT, h->Np, nfn, &d->LIFTT},
    };
    PetscReal *AT;
    PetscCall(PetscMalloc1(h->Np * PetscMax(h->Nc, PetscMax(h->Np, nfn)), &AT));
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
      DenseTranspose(t[k].rows, t[k].cols, t[k].A, AT);
      PetscCall(INSUpload(ops, AT, sizeof(double) * t[k].rows * t[k].cols, (const void **)t[k].AT));
    }
    PetscCall(PetscFree(AT));
  }
  for (PetscInt k = 0; k < INS_NLOCAL; k++) {
    PetscCall(VecCreate(PETSC_COMM_SELF, &ops->local_device[k]));
    PetscCall(VecSetSizes(ops->local_device[k], (PetscInt)h->Klocal * h->Np, PETSC_DECIDE));
    PetscCall(VecSetType(ops->local_device[k], VECSEQCUDA));
  }
  ops->device_ready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* Halo-exchanged local copies of n global vectors on the backend of the first (a vector given twice
 * is exchanged once), their arrays, and whether they live on the device. */
static PetscErrorCode INSOpsGetLocal(INSOps ops, PetscInt n, Vec global[], const PetscScalar *array[], PetscBool *on_device)
{
  Vec *locals = ops->local;

  PetscFunctionBeginUser;
  PetscCall(HoflowVecIsCUDA(global[0], on_device));
#if defined(HOFLOW_HAVE_CUDA)
  if (*on_device) {
    PetscCall(INSOpsDeviceSetUp(ops));
    locals = ops->local_device;
  }
#endif
  for (PetscInt k = 0; k < n; k++) {
    PetscInt     same = -1;
    PetscMemType mtype;
    for (PetscInt j = 0; j < k; j++)
      if (global[j] == global[k]) same = j;
    if (same >= 0) {
      array[k] = array[same];
      continue;
    }
    PetscCall(DMGlobalToLocal(ops->disc->dm, global[k], INSERT_VALUES, locals[k]));
    PetscCall(VecGetArrayReadAndMemType(locals[k], &array[k], &mtype));
    PetscCheck(PetscMemTypeDevice(mtype) == *on_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Incompressible flow operators need all vectors on the same backend");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsRestoreLocal(INSOps ops, PetscInt n, Vec global[], const PetscScalar *array[], PetscBool on_device)
{
  Vec *locals = ops->local;

  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  if (on_device) locals = ops->local_device;
#endif
  for (PetscInt k = 0; k < n; k++) {
    PetscBool same = PETSC_FALSE;
    for (PetscInt j = 0; j < k; j++) same = (PetscBool)(same || global[j] == global[k]);
    if (!same) PetscCall(VecRestoreArrayReadAndMemType(locals[k], &array[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Write access to n outputs on the given backend. */
static PetscErrorCode INSOpsGetOutput(PetscInt n, Vec out[], PetscScalar *array[], PetscBool on_device)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscMemType mtype;
    PetscCall(VecGetArrayWriteAndMemType(out[k], &array[k], &mtype));
    PetscCheck(PetscMemTypeDevice(mtype) == on_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Incompressible flow operators need all vectors on the same backend");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSOpsRestoreOutput(PetscInt n, Vec out[], PetscScalar *array[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) PetscCall(VecRestoreArrayWriteAndMemType(out[k], &array[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(HOFLOW_HAVE_CUDA)
static PetscErrorCode INSCheckCUDA(int err, const char *what)
{
  PetscFunctionBeginUser;
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA %s kernel failed: %s", what, HoflowDeviceErrorString(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* The kernel data of a backend, with PETSc's current stream on the device. */
static PetscErrorCode INSOpsKernelData(INSOps ops, PetscBool on_device, const INSKernelData **kd)
{
  PetscFunctionBeginUser;
  *kd = &ops->kd;
#if defined(HOFLOW_HAVE_CUDA)
  if (on_device) {
    PetscCall(HoflowGetCUDAStream(&ops->kd_device.stream));
    *kd = &ops->kd_device;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsAdvection(INSOps ops, Vec au, Vec av, Vec cu, Vec cv, PetscReal lambda_scale, PetscReal bc_scale, Vec out_u, Vec out_v)
{
  Vec                  in[4] = {au, av, cu, cv}, out[2] = {out_u, out_v};
  const PetscScalar   *a[4];
  PetscScalar         *o[2];
  PetscBool            on_device;
  const INSKernelData *kd;
  const double         flops = ops->kd.K * INSAdvectionFlopsPerElement(ops->kd.Np, ops->kd.Nc, ops->kd.Nfaces, ops->kd.Nfp, ops->kd.Nfq);

  PetscFunctionBeginUser;
  PetscCall(INSOpsGetLocal(ops, 4, in, a, &on_device));
  PetscCall(INSOpsGetOutput(2, out, o, on_device));
  PetscCall(INSOpsKernelData(ops, on_device, &kd));
  PetscCall(PetscLogEventBegin(HOFLOW_INSAdvection, 0, 0, 0, 0));
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(INSCheckCUDA(INSAdvectionCUDA(kd, a[0], a[1], a[2], a[3], lambda_scale, bc_scale, o[0], o[1]), "advection"));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
#endif
  } else {
    INSAdvectionHost(kd, a[0], a[1], a[2], a[3], lambda_scale, bc_scale, o[0], o[1]);
    PetscCall(PetscLogFlops(flops));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_INSAdvection, 0, 0, 0, 0));
  PetscCall(INSOpsRestoreOutput(2, out, o));
  PetscCall(INSOpsRestoreLocal(ops, 4, in, a, on_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsGradient(INSOps ops, Vec p, Vec ptrace, PetscReal trace_scale, PetscReal bc_scale, Vec gx, Vec gy)
{
  Vec                  in[1] = {p}, out[2] = {gx, gy};
  const PetscScalar   *a[1], *t            = NULL;
  PetscScalar         *o[2];
  PetscBool            on_device;
  PetscMemType         mtype;
  const INSKernelData *kd;
  const double         flops = ops->kd.K * INSGradientFlopsPerElement(ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  PetscCall(INSOpsGetLocal(ops, 1, in, a, &on_device));
  if (ptrace) {
    PetscCall(VecGetArrayReadAndMemType(ptrace, &t, &mtype));
    PetscCheck(PetscMemTypeDevice(mtype) == on_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Incompressible flow operators need all vectors on the same backend");
  }
  PetscCall(INSOpsGetOutput(2, out, o, on_device));
  PetscCall(INSOpsKernelData(ops, on_device, &kd));
  PetscCall(PetscLogEventBegin(HOFLOW_INSGradient, 0, 0, 0, 0));
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(INSCheckCUDA(INSGradientCUDA(kd, a[0], t, trace_scale, bc_scale, o[0], o[1]), "gradient"));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
#endif
  } else {
    INSGradientHost(kd, a[0], t, trace_scale, bc_scale, o[0], o[1]);
    PetscCall(PetscLogFlops(flops));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_INSGradient, 0, 0, 0, 0));
  PetscCall(INSOpsRestoreOutput(2, out, o));
  if (ptrace) PetscCall(VecRestoreArrayReadAndMemType(ptrace, &t));
  PetscCall(INSOpsRestoreLocal(ops, 1, in, a, on_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsDivergence(INSOps ops, Vec u, Vec v, PetscReal bc_scale, Vec div)
{
  Vec                  in[2] = {u, v}, out[1] = {div};
  const PetscScalar   *a[2];
  PetscScalar         *o[1];
  PetscBool            on_device;
  const INSKernelData *kd;
  const double         flops = ops->kd.K * INSDivergenceFlopsPerElement(ops->kd.Np, ops->kd.Nfaces, ops->kd.Nfp);

  PetscFunctionBeginUser;
  PetscCall(INSOpsGetLocal(ops, 2, in, a, &on_device));
  PetscCall(INSOpsGetOutput(1, out, o, on_device));
  PetscCall(INSOpsKernelData(ops, on_device, &kd));
  PetscCall(PetscLogEventBegin(HOFLOW_INSDivergence, 0, 0, 0, 0));
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(INSCheckCUDA(INSDivergenceCUDA(kd, a[0], a[1], bc_scale, o[0]), "divergence"));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
#endif
  } else {
    INSDivergenceHost(kd, a[0], a[1], bc_scale, o[0]);
    PetscCall(PetscLogFlops(flops));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_INSDivergence, 0, 0, 0, 0));
  PetscCall(INSOpsRestoreOutput(1, out, o));
  PetscCall(INSOpsRestoreLocal(ops, 2, in, a, on_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsCreateFaceVector(INSOps ops, Vec *face)
{
  PetscBool cuda;

  PetscFunctionBeginUser;
  PetscCall(HoflowDMIsCUDA(ops->disc->dm, &cuda));
  PetscCall(VecCreate(PETSC_COMM_SELF, face));
  PetscCall(VecSetSizes(*face, (PetscInt)ops->kd.K * ops->kd.Nfaces * ops->kd.Nfp, PETSC_DECIDE));
  PetscCall(VecSetType(*face, cuda ? VECSEQCUDA : VECSEQ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode INSOpsFaceData(INSOps ops, PetscInt type, PetscInt component, PetscReal alpha, PetscReal beta, Vec x, Vec face)
{
  const PetscScalar   *xa = NULL;
  PetscScalar         *o[1];
  PetscBool            on_device;
  PetscMemType         mtype;
  const INSKernelData *kd;

  PetscFunctionBeginUser;
  PetscCheck(component >= 0 && component < 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Face data component %" PetscInt_FMT " is not 0 (u), 1 (v) or 2 (p)", component);
  PetscCall(HoflowVecIsCUDA(face, &on_device));
  if (x) {
    PetscCall(VecGetArrayReadAndMemType(x, &xa, &mtype));
    PetscCheck(PetscMemTypeDevice(mtype) == on_device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Incompressible flow operators need all vectors on the same backend");
  }
  PetscCall(INSOpsGetOutput(1, &face, o, on_device));
#if defined(HOFLOW_HAVE_CUDA)
  if (on_device) PetscCall(INSOpsDeviceSetUp(ops));
#endif
  PetscCall(INSOpsKernelData(ops, on_device, &kd));
  PetscCall(PetscLogEventBegin(HOFLOW_INSFaceData, 0, 0, 0, 0));
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscCall(INSCheckCUDA(INSFaceDataCUDA(kd, (int)type, (int)component, alpha, beta, xa, o[0]), "face data"));
#endif
  } else
    INSFaceDataHost(kd, (int)type, (int)component, alpha, beta, xa, o[0]);
  PetscCall(PetscLogEventEnd(HOFLOW_INSFaceData, 0, 0, 0, 0));
  PetscCall(INSOpsRestoreOutput(1, &face, o));
  if (x) PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element-local derivatives of u at node i of owned element e: (du/dx, du/dy). */
static void INSNodeGradient(const INSKernelData *kd, PetscInt e, PetscInt i, const PetscScalar *u, PetscReal g[2])
{
  const PetscReal *geo = kd->geo + kd->elem_cell[e] * HOFLOW_GEO_SIZE;
  PetscReal        ur = 0, us = 0;
  for (PetscInt j = 0; j < kd->Np; j++) {
    ur += kd->Dr[i * kd->Np + j] * PetscRealPart(u[e * kd->Np + j]);
    us += kd->Ds[i * kd->Np + j] * PetscRealPart(u[e * kd->Np + j]);
  }
  g[0] = geo[HOFLOW_GEO_RX] * ur + geo[HOFLOW_GEO_SX] * us;
  g[1] = geo[HOFLOW_GEO_RY] * ur + geo[HOFLOW_GEO_SY] * us;
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
  const RefElement    *ref = ops->disc->ref;
  const PetscScalar   *ua, *va, *pa;
  PetscReal            F[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayRead(p, &pa));
  for (PetscInt e = 0; e < kd->K; e++) {
    const PetscReal J = kd->geo[kd->elem_cell[e] * HOFLOW_GEO_SIZE + HOFLOW_GEO_J];
    for (PetscInt f = 0; f < kd->Nfaces; f++) {
      const PetscReal *sg = kd->sgeo + (e * kd->Nfaces + f) * HOFLOW_SGEO_SIZE;
      const PetscReal  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sJ = sg[HOFLOW_SGEO_SJ_OVER_J] * J;
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
  PetscCall(MPIU_Allreduce(F, force, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ops->disc->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One run of kernel 0 (advection N(u), a = c = (u, v)), 1 (gradient of u) or 2 (divergence of
 * (u, v)) on local arrays a[2] into owned arrays o[2]; 0 or a CUDA error. */
static int INSOpsRunKernel(const INSKernelData *kd, PetscBool on_device, PetscInt kernel, const PetscScalar *a[2], PetscScalar *o[2])
{
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    if (kernel == 0) return INSAdvectionCUDA(kd, a[0], a[1], a[0], a[1], 2.0, 1.0, o[0], o[1]);
    if (kernel == 1) return INSGradientCUDA(kd, a[0], NULL, 0.0, 1.0, o[0], o[1]);
    return INSDivergenceCUDA(kd, a[0], a[1], 1.0, o[0]);
#else
    return -1;
#endif
  }
  if (kernel == 0)
    INSAdvectionHost(kd, a[0], a[1], a[0], a[1], 2.0, 1.0, o[0], o[1]);
  else if (kernel == 1)
    INSGradientHost(kd, a[0], NULL, 0.0, 1.0, o[0], o[1]);
  else
    INSDivergenceHost(kd, a[0], a[1], 1.0, o[0]);
  return 0;
}

PetscErrorCode INSOpsTimeKernels(INSOps ops, Vec u, Vec v, PetscInt reps, PetscReal seconds[3])
{
  Vec                  in[2] = {u, v}, out[2];
  const PetscScalar   *a[2];
  PetscScalar         *o[2];
  PetscBool            on_device;
  const INSKernelData *kd;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(u, &out[0]));
  PetscCall(VecDuplicate(u, &out[1]));
  PetscCall(INSOpsAdvection(ops, u, v, u, v, 2.0, 1.0, out[0], out[1])); /* warm up: device set-up */
  PetscCall(INSOpsGetLocal(ops, 2, in, a, &on_device));
  PetscCall(INSOpsGetOutput(2, out, o, on_device));
  PetscCall(INSOpsKernelData(ops, on_device, &kd));
  for (PetscInt kernel = 0; kernel < 3; kernel++) {
    PetscLogDouble t0, t1;
    int            err = 0;
#if defined(HOFLOW_HAVE_CUDA)
    if (on_device) err = HoflowDeviceSynchronize();
#endif
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps && !err; k++) err = INSOpsRunKernel(kd, on_device, kernel, a, o);
#if defined(HOFLOW_HAVE_CUDA)
    if (on_device && !err) err = HoflowDeviceSynchronize();
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA incompressible-flow kernel %" PetscInt_FMT " failed: %s", kernel, HoflowDeviceErrorString(err));
#endif
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
    PetscCall(PetscTime(&t1));
    seconds[kernel] = (t1 - t0) / reps;
  }
  PetscCall(INSOpsRestoreOutput(2, out, o));
  PetscCall(INSOpsRestoreLocal(ops, 2, in, a, on_device));
  PetscCall(VecDestroy(&out[0]));
  PetscCall(VecDestroy(&out[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
