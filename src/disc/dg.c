/* hoflow nodal DG discretization: node coordinates, trace maps, face factors with the SIPDG
 * penalty (seed 000 eq. 14), projections and errors by cubature. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/disc.h>
#include <hoflow/kernels.h>
#include <hoflow/log.h>

/* Affine map of reference point (r,s) into cell: exact for triangles and parallelograms. */
static void DGMapPoint(const Mesh *mesh, PetscInt cell, PetscReal r, PetscReal s, PetscReal x[2])
{
  const PetscInt   nv = mesh->Nverts;
  const PetscReal *xy = mesh->vertices + cell * nv * 2;
  for (PetscInt d = 0; d < 2; d++) x[d] = xy[d] + 0.5 * (1 + r) * (xy[2 + d] - xy[d]) + 0.5 * (1 + s) * (xy[2 * (nv - 1) + d] - xy[d]);
}

/* vmapP by matching node coordinates across each interior face (robust to either orientation). */
static PetscErrorCode DGDiscBuildTraceMaps(DGDisc *disc)
{
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;
  const PetscInt    Np = ref->Np, Nfp = ref->Nfp[0], Nf = ref->Nfaces;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(mesh->K * Nf * Nfp, &disc->vmapP));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt cell = mesh->elem_cell[e];
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt  nb = mesh->face_cell[e * Nf + f], g = mesh->face_face[e * Nf + f];
      const PetscReal tol = 1e-8 * mesh->face_geo[(e * Nf + f) * 3 + 2];
      for (PetscInt i = 0; i < Nfp; i++) {
        const PetscInt idM = cell * Np + ref->face_nodes[f * Nfp + i];
        PetscInt       idP = idM;
        if (nb >= 0) {
          PetscReal best = PETSC_MAX_REAL;
          for (PetscInt j = 0; j < Nfp; j++) {
            const PetscInt  id = nb * Np + ref->face_nodes[g * Nfp + j];
            const PetscReal d  = PetscSqrtReal(PetscSqr(disc->x[id] - disc->x[idM]) + PetscSqr(disc->y[id] - disc->y[idM]));
            if (d < best) {
              best = d;
              idP  = id;
            }
          }
          PetscCheck(best < tol, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: face node (%g, %g) of cell %" PetscInt_FMT " has no matching node in neighbour cell %" PetscInt_FMT " (distance %g); the mesh is not conforming", mesh->source, (double)disc->x[idM], (double)disc->y[idM], cell, nb, (double)best);
        }
        disc->vmapP[(e * Nf + f) * Nfp + i] = idP;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscCreate(Mesh *mesh, PetscInt N, DGDisc **disc_out)
{
  DGDisc      *disc;
  PetscSection section, gsection;
  PetscInt     pStart, pEnd, Np, Nf, rstart;
  PetscReal    cN;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DiscSetup, 0, 0, 0, 0));
  PetscCall(PetscNew(&disc));
  disc->mesh = mesh;
  disc->N    = N;
  PetscCall(RefElementCreate(mesh->shape, N, &disc->ref));
  Np = disc->Np = disc->ref->Np;
  Nf            = disc->ref->Nfaces;

  /* Np dofs on every cell */
  PetscCall(DMClone(mesh->dm, &disc->dm));
  PetscCall(PetscSectionCreate(PetscObjectComm((PetscObject)mesh->dm), &section));
  PetscCall(DMPlexGetChart(disc->dm, &pStart, &pEnd));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  for (PetscInt c = 0; c < mesh->Klocal; c++) PetscCall(PetscSectionSetDof(section, c, Np));
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(disc->dm, section));
  PetscCall(PetscSectionDestroy(&section));
  /* kernels write owned element e at e*Np of the global array: check the section agrees */
  PetscCall(DMGetGlobalSection(disc->dm, &gsection));
  PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[0], &rstart));
  for (PetscInt e = 0; e < mesh->K; e++) {
    PetscInt off;
    PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[e], &off));
    PetscCheck(off == rstart + e * Np, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Global DG layout is not in owned-cell order");
  }

  PetscCall(PetscMalloc2(mesh->Klocal * Np, &disc->x, mesh->Klocal * Np, &disc->y));
  for (PetscInt c = 0; c < mesh->Klocal; c++)
    for (PetscInt i = 0; i < Np; i++) {
      PetscReal x[2];
      DGMapPoint(mesh, c, disc->ref->xi[2 * i], disc->ref->xi[2 * i + 1], x);
      disc->x[c * Np + i] = x[0];
      disc->y[c * Np + i] = x[1];
    }
  PetscCall(DGDiscBuildTraceMaps(disc));

  /* eq. (14): tau = C_N max(|F|/|E-|, |F|/|E+|), C_N the trace-inverse constant of the element:
   * (N+1)(N+2)/2 on triangles (Shahbazi 2005), (N+1)^2 on quadrilaterals (tensor product). */
  disc->penalty_scale = 1.0;
  PetscOptionsBegin(PetscObjectComm((PetscObject)mesh->dm), NULL, "SIPDG discretization", NULL);
  PetscCall(PetscOptionsReal("-ipdg_penalty_scale", "Multiplier of the SIPDG penalty of eq. (14)", NULL, disc->penalty_scale, &disc->penalty_scale, NULL));
  PetscOptionsEnd();
  PetscCheck(disc->penalty_scale >= 1.0, PetscObjectComm((PetscObject)mesh->dm), PETSC_ERR_ARG_OUTOFRANGE, "-ipdg_penalty_scale %g must be >= 1: a smaller penalty does not guarantee a positive definite operator", (double)disc->penalty_scale);
  cN = mesh->shape == REF_TRIANGLE ? 0.5 * (N + 1) * (N + 2) : (PetscReal)(N + 1) * (N + 1);
  PetscCall(PetscMalloc1(mesh->K * Nf * HOFLOW_SGEO_SIZE, &disc->sgeo));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt  cell = mesh->elem_cell[e];
    const PetscReal J    = mesh->geo[cell * HOFLOW_GEO_SIZE + HOFLOW_GEO_J];
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscReal *fg   = mesh->face_geo + (e * Nf + f) * 3;
      const PetscInt   nb   = mesh->face_cell[e * Nf + f];
      PetscReal       *sg   = disc->sgeo + (e * Nf + f) * HOFLOW_SGEO_SIZE;
      PetscReal        hinv = fg[2] / mesh->area[cell];
      if (nb >= 0) hinv = PetscMax(hinv, fg[2] / mesh->area[nb]);
      sg[HOFLOW_SGEO_NX]        = fg[0];
      sg[HOFLOW_SGEO_NY]        = fg[1];
      sg[HOFLOW_SGEO_SJ_OVER_J] = 0.5 * fg[2] / J;
      sg[HOFLOW_SGEO_TAU]       = disc->penalty_scale * cN * hinv;
    }
  }
  disc->kd.N         = (int)N;
  disc->kd.Np        = (int)Np;
  disc->kd.Nq        = (int)disc->ref->Nq;
  disc->kd.Nfaces    = (int)Nf;
  disc->kd.K         = (int)mesh->K;
  disc->kd.elem_cell = (const int *)mesh->elem_cell;
  disc->kd.geo       = mesh->geo;
  disc->kd.M         = disc->ref->M;
  disc->kd.Minv      = disc->ref->Minv;
  disc->kd.Iq        = disc->ref->Iq;
  disc->kd.wq        = disc->ref->wq;
  PetscCall(PetscLogEventEnd(HOFLOW_DiscSetup, 0, 0, 0, 0));
  *disc_out = disc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscDestroy(DGDisc **disc)
{
  PetscFunctionBeginUser;
  if (!*disc) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < 6; k++)
    if ((*disc)->device_arrays[k]) PetscCall(HoflowDeviceFreeChecked((*disc)->device_arrays[k]));
  PetscCall(RefElementDestroy(&(*disc)->ref));
  PetscCall(DMDestroy(&(*disc)->dm));
  PetscCall(PetscFree2((*disc)->x, (*disc)->y));
  PetscCall(PetscFree((*disc)->vmapP));
  PetscCall(PetscFree((*disc)->sgeo));
  PetscCall(PetscFree(*disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscDeviceSetUp(DGDisc *disc)
{
  const DGKernelData *h   = &disc->kd;
  DGKernelData       *d   = &disc->kd_device;
  const size_t        np2 = (size_t)h->Np * h->Np;

  PetscFunctionBeginUser;
  if (disc->device_ready) PetscFunctionReturn(PETSC_SUCCESS);
  *d = *h;
  PetscCall(HoflowDeviceUploadChecked(h->elem_cell, sizeof(int) * h->K, &disc->device_arrays[0]));
  PetscCall(HoflowDeviceUploadChecked(h->geo, sizeof(double) * disc->mesh->Klocal * HOFLOW_GEO_SIZE, &disc->device_arrays[1]));
  PetscCall(HoflowDeviceUploadChecked(h->M, sizeof(double) * np2, &disc->device_arrays[2]));
  PetscCall(HoflowDeviceUploadChecked(h->Minv, sizeof(double) * np2, &disc->device_arrays[3]));
  PetscCall(HoflowDeviceUploadChecked(h->Iq, sizeof(double) * h->Nq * h->Np, &disc->device_arrays[4]));
  PetscCall(HoflowDeviceUploadChecked(h->wq, sizeof(double) * h->Nq, &disc->device_arrays[5]));
  d->elem_cell       = (const int *)disc->device_arrays[0];
  d->geo             = (const double *)disc->device_arrays[1];
  d->M               = (const double *)disc->device_arrays[2];
  d->Minv            = (const double *)disc->device_arrays[3];
  d->Iq              = (const double *)disc->device_arrays[4];
  d->wq              = (const double *)disc->device_arrays[5];
  disc->device_ready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f at the cubature points of every owned element: [K*Nq]. */
static PetscErrorCode DGDiscEvaluateAtCubature(DGDisc *disc, PointFunction f, void *ctx, PetscReal **fq)
{
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(mesh->K * ref->Nq, fq));
  for (PetscInt e = 0; e < mesh->K; e++)
    for (PetscInt q = 0; q < ref->Nq; q++) {
      PetscReal x[2];
      DGMapPoint(mesh, mesh->elem_cell[e], ref->xiq[2 * q], ref->xiq[2 * q + 1], x);
      PetscCall(f(x, &(*fq)[e * ref->Nq + q], NULL, ctx));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscAddWeightedIntegral(DGDisc *disc, PointFunction f, void *ctx, Vec b)
{
  PetscReal   *fq;
  PetscScalar *ba;
  PetscBool    on_device;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscCall(DGDiscEvaluateAtCubature(disc, f, ctx, &fq));
  PetscCall(HoflowVecIsCUDA(b, &on_device));
  if (!on_device) {
    PetscCall(VecGetArray(b, &ba));
    DGWeightedIntegralHost(&disc->kd, fq, ba);
    PetscCall(VecRestoreArray(b, &ba));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    void        *d_fq;
    PetscMemType mtype;
    int          err;
    PetscCall(DGDiscDeviceSetUp(disc));
    PetscCall(HoflowDeviceUploadChecked(fq, sizeof(double) * disc->kd.K * disc->kd.Nq, &d_fq));
    PetscCall(HoflowGetCUDAStream(&disc->kd_device.stream));
    PetscCall(VecGetArrayAndMemType(b, &ba, &mtype));
    err = DGWeightedIntegralCUDA(&disc->kd_device, (const double *)d_fq, ba);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA right-hand-side kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayAndMemType(b, &ba));
    PetscCall(HoflowDeviceFreeChecked(d_fq)); /* cudaFree waits for the kernel */
#endif
  }
  PetscCall(PetscFree(fq));
  PetscCall(PetscLogFlops(3.0 * disc->kd.K * disc->kd.Nq * disc->kd.Np));
  PetscCall(PetscLogEventEnd(HOFLOW_DGProject, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscL2Error(DGDisc *disc, Vec u, PointFunction exact, void *ctx, PetscReal *error)
{
  PetscReal         *eq, *err2, sum = 0;
  const PetscScalar *ua;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_DGError, 0, 0, 0, 0));
  PetscCall(DGDiscEvaluateAtCubature(disc, exact, ctx, &eq));
  PetscCall(PetscMalloc1(disc->kd.K, &err2));
  PetscCall(HoflowVecIsCUDA(u, &on_device));
  if (!on_device) {
    PetscCall(VecGetArrayRead(u, &ua));
    DGErrorHost(&disc->kd, ua, eq, err2);
    PetscCall(VecRestoreArrayRead(u, &ua));
  } else {
#if defined(HOFLOW_HAVE_CUDA)
    void        *d_eq, *d_err2;
    PetscMemType mtype;
    int          err;
    PetscCall(DGDiscDeviceSetUp(disc));
    PetscCall(HoflowDeviceUploadChecked(eq, sizeof(double) * disc->kd.K * disc->kd.Nq, &d_eq));
    PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * disc->kd.K, &d_err2));
    PetscCall(HoflowGetCUDAStream(&disc->kd_device.stream));
    PetscCall(VecGetArrayReadAndMemType(u, &ua, &mtype));
    err = DGErrorCUDA(&disc->kd_device, ua, (const double *)d_eq, (double *)d_err2);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA error kernel failed: %s", HoflowDeviceErrorString(err));
    PetscCall(VecRestoreArrayReadAndMemType(u, &ua));
    err = HoflowDeviceDownload(err2, d_err2, sizeof(double) * disc->kd.K, disc->kd_device.stream); /* K numbers, after the solve */
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Copying element errors from the GPU failed: %s", HoflowDeviceErrorString(err));
    PetscCall(HoflowDeviceFreeChecked(d_eq));
    PetscCall(HoflowDeviceFreeChecked(d_err2));
#endif
  }
  for (PetscInt e = 0; e < disc->kd.K; e++) sum += err2[e];
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &sum, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)disc->dm)));
  *error = PetscSqrtReal(sum);
  PetscCall(PetscFree(eq));
  PetscCall(PetscFree(err2));
  PetscCall(PetscLogFlops((2.0 * disc->kd.Np + 4.0) * disc->kd.K * disc->kd.Nq));
  PetscCall(PetscLogEventEnd(HOFLOW_DGError, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscBoundaryData(DGDisc *disc, const PetscInt face_type[], PointFunction exact, void *ctx, PetscReal **bc_data)
{
  const Mesh       *mesh = disc->mesh;
  const RefElement *ref  = disc->ref;
  const PetscInt    Nf = ref->Nfaces, Nfp = ref->Nfp[0];

  PetscFunctionBeginUser;
  if (!face_type) face_type = mesh->face_type;
  PetscCall(PetscCalloc1(mesh->K * Nf * Nfp, bc_data));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt cell = mesh->elem_cell[e];
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt   type = face_type[e * Nf + f];
      const PetscReal *fg   = mesh->face_geo + (e * Nf + f) * 3;
      if (type == HOFLOW_FACE_INTERIOR) continue;
      for (PetscInt i = 0; i < Nfp; i++) {
        const PetscInt  id   = cell * disc->Np + ref->face_nodes[f * Nfp + i];
        const PetscReal x[2] = {disc->x[id], disc->y[id]};
        PetscReal       u, grad[2];
        PetscCall(exact(x, &u, grad, ctx));
        (*bc_data)[(e * Nf + f) * Nfp + i] = type == HOFLOW_FACE_DIRICHLET ? u : fg[0] * grad[0] + fg[1] * grad[1];
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
