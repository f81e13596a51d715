/* The SIPDG screened-Poisson operator A = -Laplace + lambda (seed 000 eqs. 13, 14, 23, 28) as a
 * PETSc MatShell: MatMult runs the local-gradient and apply kernels of ipdg_kernels.c on a
 * halo-exchanged local vector; MatGetDiagonal uses the element diagonal blocks. An independent
 * assembly of the same bilinear form (IPDGOperatorAssemble) checks it and feeds AMG. */
#include <hoflow/compat.h>
#include <hoflow/kernels.h>
#include <hoflow/log.h>
#include <hoflow/op.h>
#include <hoflow/device.h>

typedef struct {
  DGDisc        *disc;
  PetscInt      *face_type; /* [K*Nfaces] this operator's boundary conditions (HOFLOW_FACE_*) */
  IPDGKernelData kd;
  Vec            xlocal;
  PetscReal     *gx, *gy;                /* [Klocal*Np] local gradient */
  PetscReal     *DrT, *DsT, *LIFTT, *MT; /* transposed reference matrices (coalesced GPU reads) */
  PetscReal     *diag_tables;            /* reference tables of the diagonal (kernels.h) */
#if defined(HOFLOW_HAVE_CUDA)
  /* the CUDA twin: the same kernel data with device pointers, uploaded on first device use */
  PetscBool      device_ready;
  IPDGKernelData kd_device;
  void          *device_arrays[16];
  PetscInt       ndevice_arrays;
  PetscReal     *d_gx, *d_gy;
  Vec            xlocal_device;
#endif
  Vec            bwork; /* boundary-data residual, kept between calls; the type of the last b */
} IPDGContext;

static PetscErrorCode IPDGContextDestroy(void *ptr)
{
  IPDGContext *ctx = (IPDGContext *)ptr;

  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&ctx->xlocal));
  PetscCall(VecDestroy(&ctx->bwork));
  PetscCall(PetscFree(ctx->face_type));
  PetscCall(PetscFree2(ctx->gx, ctx->gy));
  PetscCall(PetscFree4(ctx->DrT, ctx->DsT, ctx->LIFTT, ctx->MT));
  PetscCall(PetscFree(ctx->diag_tables));
#if defined(HOFLOW_HAVE_CUDA)
  for (PetscInt k = 0; k < ctx->ndevice_arrays; k++) PetscCall(HoflowDeviceFreeChecked(ctx->device_arrays[k]));
  PetscCall(VecDestroy(&ctx->xlocal_device));
#endif
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_IPDG(Mat A)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(IPDGContextDestroy(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Au = A(u) on owned elements from the local (halo-filled) array u; bc_data as in kernels.h. */
static PetscErrorCode IPDGApplyLocal(IPDGContext *ctx, const PetscReal *u, const PetscReal *bc_data, PetscReal *Au)
{
  const IPDGKernelData *kd = &ctx->kd;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGGradient, 0, 0, 0, 0));
  IPDGGradientHost(kd, u, ctx->gx, ctx->gy);
  PetscCall(PetscLogFlops(kd->Klocal * IPDGGradientFlopsPerElement(kd->Np)));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGGradient, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGApply, 0, 0, 0, 0));
  IPDGApplyHost(kd, u, ctx->gx, ctx->gy, bc_data, Au);
  PetscCall(PetscLogFlops(kd->K * IPDGApplyFlopsPerElement(kd->Np, kd->Nfaces, kd->Nfp)));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGApply, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(HOFLOW_HAVE_CUDA)
/* Copy one array to the device; remembered for freeing. */
static PetscErrorCode IPDGUpload(IPDGContext *ctx, const void *host, size_t bytes, const void **device)
{
  void *ptr;

  PetscFunctionBeginUser;
  PetscCheck(ctx->ndevice_arrays < (PetscInt)(sizeof(ctx->device_arrays) / sizeof(ctx->device_arrays[0])), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many device arrays");
  PetscCall(HoflowDeviceUploadChecked(host, bytes, &ptr));
  ctx->device_arrays[ctx->ndevice_arrays++] = ptr;
  *device                                   = ptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Upload geometry, trace maps and reference matrices once; allocate the device gradient. */
static PetscErrorCode IPDGDeviceSetUp(IPDGContext *ctx)
{
  const IPDGKernelData *h  = &ctx->kd;
  IPDGKernelData       *d  = &ctx->kd_device;
  const size_t          nf = (size_t)h->K * h->Nfaces, np2 = (size_t)h->Np * h->Np, lift = (size_t)h->Np * h->Nfaces * h->Nfp;

  PetscFunctionBeginUser;
  if (ctx->device_ready) PetscFunctionReturn(PETSC_SUCCESS);
  *d = *h;
  PetscCall(IPDGUpload(ctx, h->elem_cell, sizeof(int) * h->K, (const void **)&d->elem_cell));
  PetscCall(IPDGUpload(ctx, h->geo, sizeof(double) * h->Klocal * HOFLOW_GEO_SIZE, (const void **)&d->geo));
  PetscCall(IPDGUpload(ctx, h->sgeo, sizeof(double) * nf * HOFLOW_SGEO_SIZE, (const void **)&d->sgeo));
  PetscCall(IPDGUpload(ctx, h->face_type, sizeof(int) * nf, (const void **)&d->face_type));
  PetscCall(IPDGUpload(ctx, h->vmapP, sizeof(int) * nf * h->Nfp, (const void **)&d->vmapP));
  PetscCall(IPDGUpload(ctx, h->face_nodes, sizeof(int) * h->Nfaces * h->Nfp, (const void **)&d->face_nodes));
  PetscCall(IPDGUpload(ctx, h->DrT, sizeof(double) * np2, (const void **)&d->DrT));
  PetscCall(IPDGUpload(ctx, h->DsT, sizeof(double) * np2, (const void **)&d->DsT));
  PetscCall(IPDGUpload(ctx, h->LIFTT, sizeof(double) * lift, (const void **)&d->LIFTT));
  PetscCall(IPDGUpload(ctx, h->MT, sizeof(double) * np2, (const void **)&d->MT));
  PetscCall(IPDGUpload(ctx, h->diag_tables, sizeof(double) * IPDGDiagonalTablesSize(h->Np, h->Nfaces, h->Nfp), (const void **)&d->diag_tables));
  d->Dr = d->Ds = d->LIFT = d->M = NULL; /* the CUDA kernels read the transposes */
  PetscCall(IPDGUpload(ctx, NULL, sizeof(double) * h->Klocal * h->Np, (const void **)&ctx->d_gx));
  PetscCall(IPDGUpload(ctx, NULL, sizeof(double) * h->Klocal * h->Np, (const void **)&ctx->d_gy));
  PetscCall(VecCreate(PETSC_COMM_SELF, &ctx->xlocal_device));
  PetscCall(VecSetSizes(ctx->xlocal_device, (PetscInt)h->Klocal * h->Np, PETSC_DECIDE));
  PetscCall(VecSetType(ctx->xlocal_device, VECSEQCUDA));
  ctx->device_ready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x with the CUDA kernels; x and y live on the device, so does everything in between. */
static PetscErrorCode IPDGMultDevice(IPDGContext *ctx, Vec x, Vec y)
{
  const PetscScalar *xl;
  PetscScalar       *ya;
  PetscMemType       mx, my;
  int                err;

  PetscFunctionBeginUser;
  PetscCall(IPDGDeviceSetUp(ctx));
  PetscCall(DMGlobalToLocal(ctx->disc->dm, x, INSERT_VALUES, ctx->xlocal_device));
  PetscCall(HoflowGetCUDAStream(&ctx->kd_device.stream));
  PetscCall(VecGetArrayReadAndMemType(ctx->xlocal_device, &xl, &mx));
  PetscCall(VecGetArrayWriteAndMemType(y, &ya, &my));
  PetscCheck(PetscMemTypeDevice(mx) && PetscMemTypeDevice(my), PETSC_COMM_SELF, PETSC_ERR_PLIB, "SIPDG device apply needs device arrays");
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGGradient, 0, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  err = IPDGGradientCUDA(&ctx->kd_device, xl, ctx->d_gx, ctx->d_gy);
  PetscCall(PetscLogGpuTimeEnd());
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA gradient kernel failed: %s", HoflowDeviceErrorString(err));
  PetscCall(PetscLogGpuFlops(ctx->kd.Klocal * IPDGGradientFlopsPerElement(ctx->kd.Np)));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGGradient, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGApply, 0, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  err = IPDGApplyCUDA(&ctx->kd_device, xl, ctx->d_gx, ctx->d_gy, NULL, ya);
  PetscCall(PetscLogGpuTimeEnd());
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA SIPDG apply kernel failed: %s", HoflowDeviceErrorString(err));
  PetscCall(PetscLogGpuFlops(ctx->kd.K * IPDGApplyFlopsPerElement(ctx->kd.Np, ctx->kd.Nfaces, ctx->kd.Nfp)));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGApply, 0, 0, 0, 0));
  PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
  PetscCall(VecRestoreArrayReadAndMemType(ctx->xlocal_device, &xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode IPDGOperatorTimeKernels(Mat A, Vec x, PetscInt reps, PetscReal *t_gradient, PetscReal *t_apply)
{
  IPDGContext       *ctx;
  const PetscScalar *xl;
  PetscScalar       *ya;
  PetscLogDouble     t0, t1, t2;
  PetscBool          on_device = PETSC_FALSE;
  Vec                y;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(MatMult(A, x, y)); /* warm up; halo exchange and device setup */
  PetscCall(HoflowVecIsCUDA(x, &on_device));
  if (!on_device) {
    PetscCall(VecGetArrayRead(ctx->xlocal, &xl));
    PetscCall(VecGetArrayWrite(y, &ya));
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps; k++) IPDGGradientHost(&ctx->kd, xl, ctx->gx, ctx->gy);
    PetscCall(PetscTime(&t1));
    for (PetscInt k = 0; k < reps; k++) IPDGApplyHost(&ctx->kd, xl, ctx->gx, ctx->gy, NULL, ya);
    PetscCall(PetscTime(&t2));
    PetscCall(VecRestoreArrayWrite(y, &ya));
    PetscCall(VecRestoreArrayRead(ctx->xlocal, &xl));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    PetscMemType mx, my;
    int          err = 0;
    PetscCall(VecGetArrayReadAndMemType(ctx->xlocal_device, &xl, &mx));
    PetscCall(VecGetArrayWriteAndMemType(y, &ya, &my));
    PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
    PetscCall(PetscTime(&t0));
    for (PetscInt k = 0; k < reps && !err; k++) err = IPDGGradientCUDA(&ctx->kd_device, xl, ctx->d_gx, ctx->d_gy);
    if (!err) err = HoflowDeviceSynchronize();
    PetscCall(PetscTime(&t1));
    for (PetscInt k = 0; k < reps && !err; k++) err = IPDGApplyCUDA(&ctx->kd_device, xl, ctx->d_gx, ctx->d_gy, NULL, ya);
    if (!err) err = HoflowDeviceSynchronize();
    PetscCall(PetscTime(&t2));
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA SIPDG kernels failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
    PetscCall(VecRestoreArrayReadAndMemType(ctx->xlocal_device, &xl));
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA");
#endif
  }
  *t_gradient = (t1 - t0) / reps;
  *t_apply    = (t2 - t1) / reps;
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_IPDG(Mat A, Vec x, Vec y)
{
  IPDGContext       *ctx;
  const PetscScalar *xl;
  PetscScalar       *ya;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
#if defined(HOFLOW_HAVE_CUDA)
  {
    PetscBool on_device;
    /* the vector type chooses the backend: -dm_vec_type cuda keeps the whole solve on the GPU */
    PetscCall(HoflowVecIsCUDA(x, &on_device));
    if (on_device) {
      PetscCall(IPDGMultDevice(ctx, x, y));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
#endif
  PetscCall(DMGlobalToLocal(ctx->disc->dm, x, INSERT_VALUES, ctx->xlocal));
  PetscCall(VecGetArrayRead(ctx->xlocal, &xl));
  PetscCall(VecGetArrayWrite(y, &ya));
  PetscCall(IPDGApplyLocal(ctx, xl, NULL, ya));
  PetscCall(VecRestoreArrayWrite(y, &ya));
  PetscCall(VecRestoreArrayRead(ctx->xlocal, &xl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal (Jacobi and Chebyshev setup) from the reference tables: the host kernel for a host
 * vector, its CUDA twin for a device vector. */
static PetscErrorCode MatGetDiagonal_IPDG(Mat A, Vec d)
{
  IPDGContext *ctx;
  PetscScalar *da;
  PetscBool    on_device = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGDiagonal, 0, 0, 0, 0));
  PetscCall(HoflowVecIsCUDA(d, &on_device));
  if (on_device) {
#if defined(HOFLOW_HAVE_CUDA)
    PetscMemType mtype;
    int          err;
    PetscCall(IPDGDeviceSetUp(ctx));
    PetscCall(HoflowGetCUDAStream(&ctx->kd_device.stream));
    PetscCall(VecGetArrayWriteAndMemType(d, &da, &mtype));
    PetscCheck(PetscMemTypeDevice(mtype), PETSC_COMM_SELF, PETSC_ERR_PLIB, "SIPDG device diagonal needs a device array");
    PetscCall(PetscLogGpuTimeBegin());
    err = IPDGDiagonalCUDA(&ctx->kd_device, da);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA SIPDG diagonal kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayWriteAndMemType(d, &da));
    PetscCall(PetscLogGpuFlops(ctx->kd.K * IPDGDiagonalFlopsPerElement(ctx->kd.Np, ctx->kd.Nfaces, ctx->kd.Nfp)));
#endif
  } else {
    PetscCall(VecGetArrayWrite(d, &da));
    IPDGDiagonalHost(&ctx->kd, da);
    PetscCall(VecRestoreArrayWrite(d, &da));
    PetscCall(PetscLogFlops(ctx->kd.K * IPDGDiagonalFlopsPerElement(ctx->kd.Np, ctx->kd.Nfaces, ctx->kd.Nfp)));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGDiagonal, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reference tables of the diagonal (kernels.h): volume stiffness diagonals and face terms. */
static PetscErrorCode IPDGDiagonalTables(const RefElement *ref, PetscReal **tables)
{
  const PetscInt Np = ref->Np, Nfp = ref->Nfp[0], Nf = ref->Nfaces;
  PetscReal     *T, *FDr, *FDs, *Mfd;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(IPDGDiagonalTablesSize((int)Np, (int)Nf, (int)Nfp), &T));
  FDr = T + 4 * Np;
  FDs = FDr + Nf * Nfp;
  Mfd = FDs + Nf * Nfp;
  for (PetscInt i = 0; i < Np; i++) {
    for (PetscInt k = 0; k < Np; k++)
      for (PetscInt l = 0; l < Np; l++) {
        const PetscReal m = ref->M[k * Np + l];
        T[i] += ref->D[0][k * Np + i] * m * ref->D[0][l * Np + i];
        T[Np + i] += ref->D[0][k * Np + i] * m * ref->D[1][l * Np + i];
        T[2 * Np + i] += ref->D[1][k * Np + i] * m * ref->D[1][l * Np + i];
      }
    T[3 * Np + i] = ref->M[i * Np + i];
  }
  for (PetscInt f = 0; f < Nf; f++)
    for (PetscInt a = 0; a < Nfp; a++) {
      const PetscInt m = ref->face_nodes[f * Nfp + a];
      for (PetscInt b = 0; b < Nfp; b++) {
        const PetscInt mb = ref->face_nodes[f * Nfp + b];
        FDr[f * Nfp + a] += ref->Mface[a * Nfp + b] * ref->D[0][mb * Np + m];
        FDs[f * Nfp + a] += ref->Mface[a * Nfp + b] * ref->D[1][mb * Np + m];
      }
    }
  for (PetscInt a = 0; a < Nfp; a++) Mfd[a] = ref->Mface[a * Nfp + a];
  *tables = T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorCreate(DGDisc *disc, PetscReal lambda, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorCreateWithFaceTypes(disc, lambda, NULL, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorCreateWithFaceTypes(DGDisc *disc, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  IPDGContext      *ctx;
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;
  IPDGKernelData   *kd;
  VecType           vtype;
  PetscInt          n = mesh->K * disc->Np;

  PetscFunctionBeginUser;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && sizeof(PetscReal) == sizeof(double), PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow kernels need PETSc built with 32-bit indices and double precision reals");
  PetscCheck(lambda >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The screening constant lambda = %g must be >= 0", (double)lambda);
  if (!face_type) face_type = mesh->face_type;
  for (PetscInt k = 0; k < mesh->K * ref->Nfaces; k++) {
    PetscCheck(face_type[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "Call MeshSetBoundaryConditions() before creating operators");
    PetscCheck((face_type[k] == HOFLOW_FACE_INTERIOR) == (mesh->face_cell[k] >= 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Face %" PetscInt_FMT " of element %" PetscInt_FMT ": boundary type %" PetscInt_FMT " does not match the mesh (interior faces are interior, boundary faces Dirichlet or Neumann)", k % ref->Nfaces, k / ref->Nfaces, face_type[k]);
  }
  PetscCall(PetscNew(&ctx));
  ctx->disc = disc;
  PetscCall(PetscMalloc1(mesh->K * ref->Nfaces, &ctx->face_type));
  PetscCall(PetscArraycpy(ctx->face_type, face_type, mesh->K * ref->Nfaces));
  PetscCall(DMCreateLocalVector(disc->dm, &ctx->xlocal));
  PetscCall(PetscMalloc2(mesh->Klocal * disc->Np, &ctx->gx, mesh->Klocal * disc->Np, &ctx->gy));
  kd             = &ctx->kd;
  kd->N          = (int)disc->N;
  kd->Np         = (int)ref->Np;
  kd->Nfp        = (int)ref->Nfp[0];
  kd->Nfaces     = (int)ref->Nfaces;
  kd->K          = (int)mesh->K;
  kd->Klocal     = (int)mesh->Klocal;
  kd->elem_cell  = (const int *)mesh->elem_cell;
  kd->geo        = mesh->geo;
  kd->sgeo       = disc->sgeo;
  kd->face_type  = (const int *)ctx->face_type;
  kd->vmapP      = (const int *)disc->vmapP;
  kd->face_nodes = (const int *)ref->face_nodes;
  kd->Dr         = ref->D[0];
  kd->Ds         = ref->D[1];
  kd->LIFT       = ref->LIFT;
  kd->M          = ref->M;
  kd->lambda     = lambda;
  PetscCall(IPDGDiagonalTables(ref, &ctx->diag_tables));
  kd->diag_tables = ctx->diag_tables;
  {
    const PetscInt Np = ref->Np, nfn = ref->Nfaces * ref->Nfp[0];
    PetscCall(PetscMalloc4(Np * Np, &ctx->DrT, Np * Np, &ctx->DsT, Np * nfn, &ctx->LIFTT, Np * Np, &ctx->MT));
    DenseTranspose(Np, Np, ref->D[0], ctx->DrT);
    DenseTranspose(Np, Np, ref->D[1], ctx->DsT);
    DenseTranspose(Np, Np, ref->M, ctx->MT);
    DenseTranspose(Np, nfn, ref->LIFT, ctx->LIFTT);
    kd->DrT   = ctx->DrT;
    kd->DsT   = ctx->DsT;
    kd->LIFTT = ctx->LIFTT;
    kd->MT    = ctx->MT;
  }

  {
    PetscInt rows[2] = {0, 0}, per_thread[2] = {0, 0}, n = 2;
    PetscOptionsBegin(PetscObjectComm((PetscObject)disc->dm), NULL, "SIPDG operator", NULL);
    PetscCall(PetscOptionsIntArray("-ipdg_cuda_elements_per_block", "Thread rows (element groups) per CUDA block for the gradient and apply kernels (0: tuned table)", NULL, rows, &n, NULL));
    n = 2;
    PetscCall(PetscOptionsIntArray("-ipdg_cuda_elements_per_thread", "Elements per CUDA thread (1, 2, 4, 8) for the gradient and apply kernels (0: tuned table)", NULL, per_thread, &n, NULL));
    PetscOptionsEnd();
    for (PetscInt k = 0; k < 2; k++) {
      PetscCheck(rows[k] >= 0 && rows[k] <= 1024, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_cuda_elements_per_block %" PetscInt_FMT " must be in 0..1024", rows[k]);
      PetscCheck(per_thread[k] == 0 || per_thread[k] == 1 || per_thread[k] == 2 || per_thread[k] == 4 || per_thread[k] == 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_cuda_elements_per_thread %" PetscInt_FMT " must be 1, 2, 4 or 8 (0: tuned)", per_thread[k]);
      kd->elements_per_block[k]  = (int)rows[k];
      kd->elements_per_thread[k] = (int)per_thread[k];
    }
  }
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)disc->dm), n, n, PETSC_DETERMINE, PETSC_DETERMINE, ctx, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT, (void (*)(void))MatMult_IPDG));
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_IPDG));
  PetscCall(MatShellSetOperation(*A, MATOP_DESTROY, (void (*)(void))MatDestroy_IPDG));
  PetscCall(DMGetVecType(disc->dm, &vtype));
  PetscCall(MatShellSetVecType(*A, vtype));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*A, "SIPDG"));
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

PetscErrorCode IPDGOperatorGetDisc(Mat A, DGDisc **disc)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  *disc = ctx->disc;
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

PetscErrorCode IPDGOperatorAddBoundaryData(Mat A, const PetscReal bc_data[], Vec b)
{
  IPDGContext *ctx;
  PetscReal   *zero, *r;
  PetscScalar *ba;
  PetscInt     n;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  n = ctx->kd.K * ctx->kd.Np;
  PetscCall(PetscCalloc1(ctx->kd.Klocal * ctx->kd.Np, &zero));
  PetscCall(PetscMalloc1(n, &r));
  PetscCall(IPDGApplyLocal(ctx, zero, bc_data, r));
  PetscCall(VecGetArray(b, &ba));
  for (PetscInt i = 0; i < n; i++) ba[i] -= r[i];
  PetscCall(VecRestoreArray(b, &ba));
  PetscCall(PetscFree(zero));
  PetscCall(PetscFree(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorAddBoundaryDataVec(Mat A, Vec bc, Vec b)
{
  IPDGContext *ctx;
  PetscBool    on_device;
  Vec          r;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &ctx));
  PetscCall(HoflowVecIsCUDA(b, &on_device));
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
  if (!on_device) {
    const PetscScalar *bca;
    PetscScalar       *ra;
    PetscCall(VecZeroEntries(ctx->xlocal));
    PetscCall(VecGetArrayRead(bc, &bca));
    PetscCall(VecGetArrayWrite(r, &ra));
    {
      const PetscScalar *zero;
      PetscCall(VecGetArrayRead(ctx->xlocal, &zero));
      PetscCall(IPDGApplyLocal(ctx, zero, bca, ra));
      PetscCall(VecRestoreArrayRead(ctx->xlocal, &zero));
    }
    PetscCall(VecRestoreArrayWrite(r, &ra));
    PetscCall(VecRestoreArrayRead(bc, &bca));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    const PetscScalar *zero, *bca;
    PetscScalar       *ra;
    PetscMemType       m0, m1, m2;
    int                err;
    PetscCall(IPDGDeviceSetUp(ctx));
    PetscCall(VecZeroEntries(ctx->xlocal_device));
    PetscCall(HoflowGetCUDAStream(&ctx->kd_device.stream));
    PetscCall(VecGetArrayReadAndMemType(ctx->xlocal_device, &zero, &m0));
    PetscCall(VecGetArrayReadAndMemType(bc, &bca, &m1));
    PetscCall(VecGetArrayWriteAndMemType(r, &ra, &m2));
    PetscCheck(PetscMemTypeDevice(m0) && PetscMemTypeDevice(m1) && PetscMemTypeDevice(m2), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "SIPDG boundary data on the device needs device vectors");
    PetscCall(PetscLogEventBegin(HOFLOW_IPDGApply, 0, 0, 0, 0));
    PetscCall(PetscLogGpuTimeBegin());
    err = IPDGGradientCUDA(&ctx->kd_device, zero, ctx->d_gx, ctx->d_gy);
    if (!err) err = IPDGApplyCUDA(&ctx->kd_device, zero, ctx->d_gx, ctx->d_gy, bca, ra);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA SIPDG boundary data kernels failed: %s", HoflowDeviceErrorString(err));
    PetscCall(PetscLogEventEnd(HOFLOW_IPDGApply, 0, 0, 0, 0));
    PetscCall(VecRestoreArrayWriteAndMemType(r, &ra));
    PetscCall(VecRestoreArrayReadAndMemType(bc, &bca));
    PetscCall(VecRestoreArrayReadAndMemType(ctx->xlocal_device, &zero));
#endif
  }
  PetscCall(VecAXPY(b, -1.0, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Physical derivative matrices of a cell: Dx = rx Dr + sx Ds, Dy = ry Dr + sy Ds. */
static void CellDerivatives(const RefElement *ref, const PetscReal *g, PetscReal *Dx, PetscReal *Dy)
{
  for (PetscInt k = 0; k < ref->Np * ref->Np; k++) {
    Dx[k] = g[HOFLOW_GEO_RX] * ref->D[0][k] + g[HOFLOW_GEO_SX] * ref->D[1][k];
    Dy[k] = g[HOFLOW_GEO_RY] * ref->D[0][k] + g[HOFLOW_GEO_SY] * ref->D[1][k];
  }
}

/* B += alpha P^T Mf Q for Nfp x Np face operators P, Q. */
static void AddFaceProduct(PetscInt Nfp, PetscInt Np, PetscReal alpha, const PetscReal *P, const PetscReal *Mf, const PetscReal *Q, PetscReal *B)
{
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal s = 0;
      for (PetscInt a = 0; a < Nfp; a++)
        for (PetscInt b = 0; b < Nfp; b++) s += P[a * Np + i] * Mf[a * Nfp + b] * Q[b * Np + j];
      B[i * Np + j] += alpha * s;
    }
}

/* Assemble the SIPDG bilinear form
 *   a(u,v) = sum_E (grad v, grad u) + lambda (v,u) - sum_F ( {{grad u}}.[[v]] + {{grad v}}.[[u]] - tau [[u]].[[v]] )
 * from element and face matrices, independently of the matrix-free path (eq. 28). Each rank
 * assembles the rows of its own elements, visiting every face from both sides. Dirichlet faces
 * carry the mirror-state penalty 2 tau, as the matrix-free operator does. */
PetscErrorCode IPDGOperatorAssemble(Mat A, Mat *assembled)
{
  IPDGContext      *ctx;
  const DGDisc     *disc;
  const Mesh       *mesh;
  const RefElement *ref;
  PetscInt          Np, Nfp, Nf, n, *coo_i, *coo_j;
  PetscCount        ncoo = 0;
  PetscSection      gsec;
  PetscReal        *Dx, *Dy, *Dx2, *Dy2, *B11, *B12, *T1, *T2, *G1, *G2, *Mf, *tmp, *vals;
  MatNullSpace      nullsp;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetDisc(A, (DGDisc **)&disc));
  PetscCall(MatShellGetContext(A, &ctx));
  mesh = disc->mesh;
  ref  = disc->ref;
  Np   = ref->Np;
  Nfp  = ref->Nfp[0];
  Nf   = ref->Nfaces;
  n    = mesh->K * Np;
  PetscCall(PetscLogEventBegin(HOFLOW_IPDGAssemble, 0, 0, 0, 0));
  PetscCall(DMGetGlobalSection(disc->dm, &gsec));
  PetscCall(PetscMalloc3((size_t)n * Np * (Nf + 1), &coo_i, (size_t)n * Np * (Nf + 1), &coo_j, (size_t)n * Np * (Nf + 1), &vals));
  PetscCall(PetscMalloc6(Np * Np, &Dx, Np * Np, &Dy, Np * Np, &Dx2, Np * Np, &Dy2, Np * Np, &B11, Np * Np, &B12));
  PetscCall(PetscMalloc6(Nfp * Np, &T1, Nfp * Np, &T2, Nfp * Np, &G1, Nfp * Np, &G2, Nfp * Nfp, &Mf, Np * Np, &tmp));

  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt   cell = mesh->elem_cell[e];
    const PetscReal *g = mesh->geo + cell * HOFLOW_GEO_SIZE, J = g[HOFLOW_GEO_J];
    PetscInt         row0, col0;

    PetscCall(PetscSectionGetOffset(gsec, cell, &row0));
    CellDerivatives(ref, g, Dx, Dy);
    /* volume: J (Dx^T M Dx + Dy^T M Dy) + lambda J M */
    DenseMatMult(Np, Np, Np, ref->M, Dx, tmp);
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < Np; j++) {
        PetscReal s = 0;
        for (PetscInt k = 0; k < Np; k++) s += Dx[k * Np + i] * tmp[k * Np + j];
        B11[i * Np + j] = J * (s + ctx->kd.lambda * ref->M[i * Np + j]);
      }
    DenseMatMult(Np, Np, Np, ref->M, Dy, tmp);
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < Np; j++) {
        PetscReal s = 0;
        for (PetscInt k = 0; k < Np; k++) s += Dy[k * Np + i] * tmp[k * Np + j];
        B11[i * Np + j] += J * s;
      }
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscReal *sg = disc->sgeo + (e * Nf + f) * HOFLOW_SGEO_SIZE;
      const PetscReal  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], tau = sg[HOFLOW_SGEO_TAU], sJ = sg[HOFLOW_SGEO_SJ_OVER_J] * J;
      const PetscInt   type = ctx->face_type[e * Nf + f], nb = mesh->face_cell[e * Nf + f];

      if (type == HOFLOW_FACE_NEUMANN) continue;
      for (PetscInt k = 0; k < Nfp * Nfp; k++) Mf[k] = sJ * ref->Mface[k];
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt m = ref->face_nodes[f * Nfp + a];
        for (PetscInt j = 0; j < Np; j++) {
          T1[a * Np + j] = (j == m);
          G1[a * Np + j] = nx * Dx[m * Np + j] + ny * Dy[m * Np + j];
        }
      }
      if (type == HOFLOW_FACE_DIRICHLET) {
        AddFaceProduct(Nfp, Np, -1.0, T1, Mf, G1, B11);
        AddFaceProduct(Nfp, Np, -1.0, G1, Mf, T1, B11);
        AddFaceProduct(Nfp, Np, 2.0 * tau, T1, Mf, T1, B11);
        continue;
      }
      /* interior: jump j = [T1, -T2], average a = [G1, G2]/2, normal out of this element */
      CellDerivatives(ref, mesh->geo + nb * HOFLOW_GEO_SIZE, Dx2, Dy2);
      for (PetscInt a = 0; a < Nfp; a++) {
        const PetscInt m = disc->vmapP[(e * Nf + f) * Nfp + a] - nb * Np;
        for (PetscInt j = 0; j < Np; j++) {
          T2[a * Np + j] = (j == m);
          G2[a * Np + j] = nx * Dx2[m * Np + j] + ny * Dy2[m * Np + j];
        }
      }
      AddFaceProduct(Nfp, Np, -0.5, T1, Mf, G1, B11);
      AddFaceProduct(Nfp, Np, -0.5, G1, Mf, T1, B11);
      AddFaceProduct(Nfp, Np, tau, T1, Mf, T1, B11);
      for (PetscInt k = 0; k < Np * Np; k++) B12[k] = 0;
      AddFaceProduct(Nfp, Np, -0.5, T1, Mf, G2, B12);
      AddFaceProduct(Nfp, Np, 0.5, G1, Mf, T2, B12);
      AddFaceProduct(Nfp, Np, -tau, T1, Mf, T2, B12);
      PetscCall(PetscSectionGetOffset(gsec, nb, &col0));
      if (col0 < 0) col0 = -(col0 + 1); /* halo cell: owned elsewhere */
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt j = 0; j < Np; j++, ncoo++) {
          coo_i[ncoo] = row0 + i;
          coo_j[ncoo] = col0 + j;
          vals[ncoo]  = B12[i * Np + j];
        }
    }
    for (PetscInt i = 0; i < Np; i++)
      for (PetscInt j = 0; j < Np; j++, ncoo++) {
        coo_i[ncoo] = row0 + i;
        coo_j[ncoo] = row0 + j;
        vals[ncoo]  = B11[i * Np + j];
      }
  }
  PetscCall(HoflowMatCreateCOO(disc->dm, "ipdg_assembled_", n, ncoo, coo_i, coo_j, vals, assembled));
  PetscCall(PetscObjectSetName((PetscObject)*assembled, "assembled SIPDG"));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) PetscCall(MatSetNullSpace(*assembled, nullsp));
  PetscCall(PetscFree3(coo_i, coo_j, vals));
  PetscCall(PetscFree6(Dx, Dy, Dx2, Dy2, B11, B12));
  PetscCall(PetscFree6(T1, T2, G1, G2, Mf, tmp));
  PetscCall(PetscLogEventEnd(HOFLOW_IPDGAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowMatCreateCOO(DM dm, const char prefix[], PetscInt n, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[], const PetscScalar v[], Mat *B)
{
  PetscBool cuda;

  PetscFunctionBeginUser;
  PetscCall(HoflowDMIsCUDA(dm, &cuda));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)dm), B));
  PetscCall(MatSetSizes(*B, n, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*B, cuda ? MATAIJCUSPARSE : MATAIJ));
  PetscCall(MatSetOptionsPrefix(*B, prefix));
  PetscCall(MatSetFromOptions(*B));
  PetscCall(MatSetPreallocationCOO(*B, ncoo, coo_i, coo_j));
  PetscCall(MatSetValuesCOO(*B, v, INSERT_VALUES));
  { /* the COO maps (two PetscCount per triplet) outweigh the matrix; a copy holds only the matrix */
    Mat copy;
    PetscCall(MatDuplicate(*B, MAT_COPY_VALUES, &copy));
    PetscCall(MatSetOptionsPrefix(copy, prefix));
    PetscCall(MatDestroy(B));
    *B = copy;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode IPDGOperatorGetLambda(Mat A, PetscReal *lambda)
{
  IPDGContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetContext(A, &ctx));
  *lambda = ctx->kd.lambda;
  PetscFunctionReturn(PETSC_SUCCESS);
}
