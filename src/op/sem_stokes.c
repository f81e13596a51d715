/* The divergence and gradient of the spectral-element Stokes pairs (hoflow/sem.h) as one MatShell:
 * MatMult is B (velocity -> pressure), (B u)_i = sum_q l_i(x_q) t_q with t_q = w_q J_q sum_j sum_a
 * (dr_a/dx_j)(x_q) (D~_a u_j)(x_q), D~_a the GLL basis differentiated along a and interpolated along the
 * other directions at the Gauss points (sum factorization with rectangular 1D matrices), l_i the pressure
 * basis there: the identity for qn_qn2 (collocated: (B u)_q = t_q), the Q_{N-1} GLL basis for Taylor-Hood
 * (one more tensor pass, Bpq^T, and a scatter through the pressure's gather); MatMultTranspose is the
 * gradient G = B^T, the transposed passes; and the consistent Taylor-Hood pressure mass. The element kernels
 * are hoflow/kernels/sem_stokes.h's: host (src/kernels/sem_stokes.c) for host vectors, CUDA
 * (cuda/sem_stokes.cu) for CUDA vectors, with local vectors on the same backend, so a device solve copies
 * nothing to the host; where the local layout is the global one (one rank) the kernels read and add into
 * the global arrays without the exchange. Velocity Dirichlet dofs (when face types are given) are left out:
 * B ignores them (its columns are zero), G leaves them zero (its rows are). */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/opshell.h>
#include <hoflow/sem.h>

typedef struct {
  SEMPressure        *p;
  OpShell             ushell, pshell; /* the velocity's and the pressure's DM: backend, local vectors; ushell holds the device data */
  SEMStokesKernelData kd, kd_device;
  PetscReal          *work;      /* the host kernels' element arrays */
  char               *dirichlet; /* [nlocal] velocity dofs left out, NULL for none */
} SEMDivergence;

/* The pressure's local layout is its global one: Taylor-Hood on one rank (the continuous layout's own test). */
static PetscBool SEMPressureLocalIsGlobal(const SEMPressure *p)
{
  return (PetscBool)(p->continuous && p->continuous->local_is_global);
}

/* The kernel data of p on the device (into the registry of shell), with the velocity mask `dirichlet` (NULL: none). */
static PetscErrorCode SEMStokesDeviceSetUp(SEMPressure *p, const char *dirichlet, OpShell *shell, SEMStokesKernelData *kd)
{
  SEMDisc            *u   = p->velocity;
  const PetscInt      dim = u->dim, ng1 = p->Ng * u->N1, ngp = p->Ng * p->Np1;
  HoflowDeviceArrays *dev = &shell->device;
  const void         *ptr;

  PetscFunctionBeginUser;
  PetscCheck(SEMStokesCUDASupported((int)dim, (int)u->N, p->continuous != NULL), PetscObjectComm((PetscObject)u->dm), PETSC_ERR_SUP, "-order %" PetscInt_FMT ": the CUDA kernels of the -disc sem Stokes coupling are compiled for N = 2..8 (cuda/sem_stokes.cu); run this order on the host (drop -dm_vec_type cuda)", u->N);
  *kd = p->kd;
  PetscCall(HoflowDeviceArraysUpload(dev, p->kd.gather, sizeof(int) * u->K * u->Np, &ptr));
  kd->gather = (const int *)ptr;
  if (p->kd.pgather) {
    PetscCall(HoflowDeviceArraysUpload(dev, p->kd.pgather, sizeof(int) * u->K * p->Npe, &ptr));
    kd->pgather = (const int *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, p->Bpq, sizeof(double) * ngp, &ptr));
    kd->Bpq = (const double *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, p->BpqT, sizeof(double) * ngp, &ptr));
    kd->BpqT = (const double *)ptr;
  } else {
    PetscCall(HoflowDeviceArraysUpload(dev, p->kd.poffset, sizeof(int) * u->K, &ptr));
    kd->poffset = (const int *)ptr;
  }
  PetscCall(HoflowDeviceArraysUpload(dev, p->Bgl, sizeof(double) * ng1, &ptr));
  kd->Bgl = (const double *)ptr;
  PetscCall(HoflowDeviceArraysUpload(dev, p->Dgl, sizeof(double) * ng1, &ptr));
  kd->Dgl = (const double *)ptr;
  PetscCall(HoflowDeviceArraysUpload(dev, p->BglT, sizeof(double) * ng1, &ptr));
  kd->BglT = (const double *)ptr;
  PetscCall(HoflowDeviceArraysUpload(dev, p->DglT, sizeof(double) * ng1, &ptr));
  kd->DglT = (const double *)ptr;
  if (p->affine) { /* 1 + dim^2 numbers an element and the Gauss weights instead of 1 + dim^2 a point */
    PetscCall(HoflowDeviceArraysUpload(dev, p->affine, sizeof(double) * u->K * (1 + dim * dim), &ptr));
    kd->affine = (const double *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, p->wg, sizeof(double) * p->Ng, &ptr));
    kd->wg = (const double *)ptr;
    kd->wJ = kd->g = NULL;
  } else {
    PetscCall(HoflowDeviceArraysUpload(dev, p->wJ, sizeof(double) * u->K * p->Npp, &ptr));
    kd->wJ = (const double *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, p->g, sizeof(double) * u->K * p->Npp * dim * dim, &ptr));
    kd->g      = (const double *)ptr;
    kd->affine = NULL;
    kd->wg     = NULL;
  }
  kd->dirichlet = NULL;
  if (dirichlet) {
    PetscBool any = PETSC_FALSE; /* none (periodic): the kernels read no mask */
    for (PetscInt k = 0; k < u->nlocal && !any; k++) any = (PetscBool)(dirichlet[k] != 0);
    if (any) {
      PetscCall(HoflowDeviceArraysUpload(dev, dirichlet, sizeof(char) * u->nlocal, &ptr));
      kd->dirichlet = (const char *)ptr;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMDivergenceDeviceSetUp(void *ctx)
{
  SEMDivergence *div = (SEMDivergence *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SEMStokesDeviceSetUp(div->p, div->dirichlet, &div->ushell, &div->kd_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Floating-point operations of B (or B^T) on one element: dim^2 tensor applies of dim rectangular passes
 * (N1 <-> Ng points a direction), the metric sums and the weights. */
static PetscLogDouble SEMDivergenceFlopsPerElement(const SEMPressure *p)
{
  const SEMDisc *u    = p->velocity;
  PetscLogDouble pass = 0;
  for (PetscInt dir = 0; dir < u->dim; dir++) {
    PetscLogDouble size = 2.0 * u->N1;
    for (PetscInt d = 0; d <= dir; d++) size *= p->Ng;
    for (PetscInt d = dir + 1; d < u->dim; d++) size *= u->N1;
    pass += size;
  }
  if (p->Bpq) { /* the pressure basis at the points */
    PetscLogDouble size = 0;
    for (PetscInt dir = 0; dir < u->dim; dir++) {
      PetscLogDouble s = 2.0 * p->Ng;
      for (PetscInt d = 0; d <= dir; d++) s *= p->Np1;
      for (PetscInt d = dir + 1; d < u->dim; d++) s *= p->Ng;
      size += s;
    }
    pass += size / (u->dim * u->dim);
  }
  return u->dim * u->dim * pass + (2.0 * u->dim * u->dim + 1) * p->Npp;
}

/* y = B x, or y = z + B x with add (the kernel adds into y where the local layout is the global one; else the local
 * result is added through the exchange: for qn_qn2 every cell's values come from its one owned element, the halo
 * cells' zeros add nothing). */
static PetscErrorCode SEMDivergenceApply(Mat B, Vec x, Vec z, Vec y, PetscBool add)
{
  SEMDivergence     *ctx;
  SEMPressure       *p;
  SEMDisc           *u;
  Vec                ul = x, pl = y;
  const PetscScalar *ua;
  PetscScalar       *pa;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  p = ctx->p;
  u = p->velocity;
  PetscCall(OpShellBegin(&ctx->ushell, x, &on_device));
  PetscCall(OpShellBegin(&ctx->pshell, y, NULL));
  PetscCall(OpShellEventBegin(&ctx->ushell, HOFLOW_SEMDivergence));
  if (add && z != y) PetscCall(VecCopy(z, y));
  if (!u->local_is_global) {
    PetscCall(OpShellGetLocal(&ctx->ushell, 0, &ul));
    PetscCall(DMGlobalToLocal(u->dm, x, INSERT_VALUES, ul));
  }
  if (!SEMPressureLocalIsGlobal(p)) PetscCall(OpShellGetLocal(&ctx->pshell, 0, &pl));
  if (pl != y || !add) PetscCall(VecZeroEntries(pl));
  PetscCall(OpShellGetArrayRead(&ctx->ushell, ul, &ua));
  PetscCall(OpShellGetArray(&ctx->pshell, pl, &pa));
  if (!on_device) SEMDivergenceHost(&ctx->kd, ua, pa, ctx->work);
  else PetscCall(OpShellCheckKernel(&ctx->ushell, HOFLOW_CUDA(SEMDivergenceCUDA(&ctx->kd_device, ua, pa, ctx->ushell.stream)), "SEM divergence"));
  PetscCall(OpShellRestoreArray(&ctx->pshell, pl, &pa));
  PetscCall(OpShellRestoreArrayRead(&ctx->ushell, ul, &ua));
  if (pl != y) {
    if (!add) PetscCall(VecZeroEntries(y));
    PetscCall(DMLocalToGlobal(p->dm, pl, ADD_VALUES, y));
  }
  PetscCall(OpShellEventEnd(&ctx->ushell, HOFLOW_SEMDivergence, SEMDivergenceFlopsPerElement(p) * u->K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SEMDivergence(Mat B, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(SEMDivergenceApply(B, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + B x: the MatNest of the Stokes system applies every block by MatMultAdd (PETSc's shell default would apply
 * B into a work vector, cached in the shell, and add it: two more passes over the pressure). */
static PetscErrorCode MatMultAdd_SEMDivergence(Mat B, Vec x, Vec z, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(SEMDivergenceApply(B, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = B^T x, or y = z + B^T x with add (the kernel adds into y where the local layout is the global one). */
static PetscErrorCode SEMGradientApply(Mat B, Vec x, Vec z, Vec y, PetscBool add)
{
  SEMDivergence     *ctx;
  SEMPressure       *p;
  SEMDisc           *u;
  Vec                pl = x, ul = y;
  const PetscScalar *pa;
  PetscScalar       *ua;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  p = ctx->p;
  u = p->velocity;
  PetscCall(OpShellBegin(&ctx->ushell, y, &on_device));
  PetscCall(OpShellBegin(&ctx->pshell, x, NULL));
  PetscCall(OpShellEventBegin(&ctx->ushell, HOFLOW_SEMDivergence));
  if (add && z != y) PetscCall(VecCopy(z, y));
  if (!SEMPressureLocalIsGlobal(p)) {
    PetscCall(OpShellGetLocal(&ctx->pshell, 0, &pl));
    PetscCall(DMGlobalToLocal(p->dm, x, INSERT_VALUES, pl));
  }
  if (!u->local_is_global) PetscCall(OpShellGetLocal(&ctx->ushell, 1, &ul));
  if (ul != y || !add) PetscCall(VecZeroEntries(ul));
  PetscCall(OpShellGetArrayRead(&ctx->pshell, pl, &pa));
  PetscCall(OpShellGetArray(&ctx->ushell, ul, &ua));
  if (!on_device) SEMGradientHost(&ctx->kd, pa, ua, ctx->work);
  else PetscCall(OpShellCheckKernel(&ctx->ushell, HOFLOW_CUDA(SEMGradientCUDA(&ctx->kd_device, pa, ua, ctx->ushell.stream)), "SEM gradient"));
  PetscCall(OpShellRestoreArray(&ctx->ushell, ul, &ua));
  PetscCall(OpShellRestoreArrayRead(&ctx->pshell, pl, &pa));
  if (ul != y) {
    if (!add) PetscCall(VecZeroEntries(y));
    PetscCall(DMLocalToGlobal(u->dm, ul, ADD_VALUES, y));
  }
  PetscCall(OpShellEventEnd(&ctx->ushell, HOFLOW_SEMDivergence, (SEMDivergenceFlopsPerElement(p) + 2.0 * u->dim * u->Np) * u->K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SEMDivergence(Mat B, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(SEMGradientApply(B, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + B^T x (the MatNest's B0^T block, through MatCreateTranspose). */
static PetscErrorCode MatMultTransposeAdd_SEMDivergence(Mat B, Vec x, Vec z, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(SEMGradientApply(B, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEMDivergence(Mat B)
{
  SEMDivergence *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  PetscCall(OpShellDestroy(&ctx->ushell));
  PetscCall(OpShellDestroy(&ctx->pshell));
  PetscCall(PetscFree(ctx->work));
  PetscCall(PetscFree(ctx->dirichlet));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A MatShell of the pressure's rows and the columns of dm (the velocity's or the pressure's), its vectors of the DM's type. */
static PetscErrorCode SEMStokesCreateShell(SEMPressure *p, DM dm, void *ctx, Mat *M)
{
  PetscInt nu, np;
  Vec      vu, vp;
  VecType  vtype;

  PetscFunctionBeginUser;
  PetscCall(DMGetGlobalVector(dm, &vu));
  PetscCall(DMGetGlobalVector(p->dm, &vp));
  PetscCall(VecGetLocalSize(vu, &nu));
  PetscCall(VecGetLocalSize(vp, &np));
  PetscCall(DMRestoreGlobalVector(dm, &vu));
  PetscCall(DMRestoreGlobalVector(p->dm, &vp));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)p->dm), np, nu, PETSC_DETERMINE, PETSC_DETERMINE, ctx, M));
  PetscCall(DMGetVecType(p->dm, &vtype));
  PetscCall(MatShellSetVecType(*M, vtype)); /* CUDA vectors where the DMs make them: the solver's work vectors on the device */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDivergenceCreate(SEMPressure *p, const PetscInt face_type[], Mat *B)
{
  SEMDivergence *ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ctx));
  ctx->p = p;
  PetscCall(PetscMalloc1(SEMStokesWorkSize(&p->kd), &ctx->work));
  if (face_type) {
    PetscInt n, *rows;
    PetscCall(SEMDiscDirichletDofs(p->velocity, face_type, &ctx->dirichlet, &n, &rows));
    PetscCall(PetscFree(rows));
  }
  ctx->kd           = p->kd;
  ctx->kd.dirichlet = ctx->dirichlet;
  PetscCall(OpShellInit(&ctx->ushell, "SEM divergence", p->velocity->dm, SEMDivergenceDeviceSetUp, ctx));
  PetscCall(OpShellInit(&ctx->pshell, "SEM divergence (pressure)", p->dm, NULL, NULL));
  PetscCall(SEMStokesCreateShell(p, p->velocity->dm, ctx, B));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT, (void (*)(void))MatMult_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_ADD, (void (*)(void))MatMultAdd_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_TRANSPOSE_ADD, (void (*)(void))MatMultTransposeAdd_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_DESTROY, (void (*)(void))MatDestroy_SEMDivergence));
  PetscCall(PetscObjectSetName((PetscObject)*B, "SEM divergence"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The consistent pressure mass of the Taylor-Hood pair, (M_c p)_i = sum_q l_i(x_q) w_q J_q p(x_q) with the
 * pair's N + 1 Gauss points (exact for q p J on affine, bilinear and trilinear cells): Bpq, the weights
 * and Bpq^T a direction at a time (SEMPressureMassHost, SEMPressureMassCUDA). */
typedef struct {
  SEMPressure        *p;
  OpShell             shell;
  SEMStokesKernelData kd_device;
  PetscReal          *work;
} SEMPressureMassCtx;

static PetscErrorCode SEMPressureMassDeviceSetUp(void *ctx)
{
  SEMPressureMassCtx *m = (SEMPressureMassCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SEMStokesDeviceSetUp(m->p, NULL, &m->shell, &m->kd_device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_SEMPressureMass(Mat M, Vec x, Vec y)
{
  SEMPressureMassCtx *ctx;
  SEMPressure        *p;
  Vec                 xl = x, yl = y;
  const PetscScalar  *xa;
  PetscScalar        *ya;
  PetscBool           on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &ctx));
  p = ctx->p;
  PetscCall(OpShellBegin(&ctx->shell, x, &on_device));
  if (!SEMPressureLocalIsGlobal(p)) {
    PetscCall(OpShellGetLocal(&ctx->shell, 0, &xl));
    PetscCall(OpShellGetLocal(&ctx->shell, 1, &yl));
    PetscCall(DMGlobalToLocal(p->dm, x, INSERT_VALUES, xl));
  }
  PetscCall(VecZeroEntries(yl));
  PetscCall(OpShellGetArrayRead(&ctx->shell, xl, &xa));
  PetscCall(OpShellGetArray(&ctx->shell, yl, &ya));
  if (!on_device) SEMPressureMassHost(&p->kd, xa, ya, ctx->work);
  else PetscCall(OpShellCheckKernel(&ctx->shell, HOFLOW_CUDA(SEMPressureMassCUDA(&ctx->kd_device, xa, ya, ctx->shell.stream)), "SEM pressure mass"));
  PetscCall(OpShellRestoreArray(&ctx->shell, yl, &ya));
  PetscCall(OpShellRestoreArrayRead(&ctx->shell, xl, &xa));
  if (yl != y) {
    PetscCall(VecZeroEntries(y));
    PetscCall(DMLocalToGlobal(p->dm, yl, ADD_VALUES, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEMPressureMass(Mat M)
{
  SEMPressureMassCtx *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &ctx));
  PetscCall(OpShellDestroy(&ctx->shell));
  PetscCall(PetscFree(ctx->work));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureMassCreate(SEMPressure *p, Mat *M)
{
  SEMPressureMassCtx *ctx;

  PetscFunctionBeginUser;
  PetscCheck(p->continuous, PetscObjectComm((PetscObject)p->dm), PETSC_ERR_SUP, "-stokes_pair %s: the consistent pressure mass is that of the continuous Taylor-Hood pressure (the Q_{N-2} pressure's Gauss-point mass is exact already)", SEMStokesPairNames[p->pair]);
  PetscCall(PetscNew(&ctx));
  ctx->p = p;
  PetscCall(PetscMalloc1(SEMStokesWorkSize(&p->kd), &ctx->work));
  PetscCall(OpShellInit(&ctx->shell, "SEM consistent pressure mass", p->dm, SEMPressureMassDeviceSetUp, ctx));
  PetscCall(SEMStokesCreateShell(p, p->dm, ctx, M));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))MatMult_SEMPressureMass));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SEMPressureMass));
  PetscCall(MatShellSetOperation(*M, MATOP_DESTROY, (void (*)(void))MatDestroy_SEMPressureMass));
  PetscCall(MatSetOption(*M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, "SEM consistent pressure mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
