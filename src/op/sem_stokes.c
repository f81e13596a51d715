/* The divergence and gradient of the spectral-element Stokes pairs (hoflow/sem.h) as one MatShell:
 * MatMult is B (velocity -> pressure), (B u)_i = sum_q l_i(x_q) t_q with t_q = w_q J_q sum_j sum_a
 * (dr_a/dx_j)(x_q) (D~_a u_j)(x_q), D~_a the GLL basis differentiated along a and interpolated along the
 * other directions at the Gauss points (sum factorization with rectangular 1D matrices, SEMTensorApply),
 * l_i the pressure basis there: the identity for qn_qn2 (collocated: (B u)_q = t_q), the Q_{N-1} GLL
 * basis for Taylor-Hood (one more tensor pass, Bpq^T, and a scatter through the pressure's gather);
 * MatMultTranspose is the gradient G = B^T, the transposed passes. Host only. Velocity Dirichlet dofs (when face types are given)
 * are left out: B ignores them (its columns are zero), G leaves them zero (its rows are). */
#include <hoflow/compat.h>
#include <hoflow/log.h>
#include <hoflow/sem.h>

typedef struct {
  SEMPressure *p;
  PetscReal   *work;      /* element arrays */
  char        *dirichlet; /* [nlocal] velocity dofs left out, NULL for none */
} SEMDivergence;

/* The element work: dim*dim arrays of Npp for the derivatives, Np for a gathered component, scratch. */
static PetscInt SEMDivergenceWorkSize(const SEMPressure *p)
{
  const SEMDisc *u = p->velocity;
  const PetscInt m = PetscMax(u->Np, p->Npp);
  return u->dim * u->dim * p->Npp + 8 * m;
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

static PetscErrorCode MatMult_SEMDivergence(Mat B, Vec x, Vec y)
{
  SEMDivergence     *ctx;
  SEMPressure       *p;
  SEMDisc           *u;
  PetscInt           dim, Np, Npp, N1, Ng;
  Vec                pl;
  const PetscScalar *ua;
  PetscScalar       *pa;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  p   = ctx->p;
  u   = p->velocity;
  dim = u->dim, Np = u->Np, Npp = p->Npp, N1 = u->N1, Ng = p->Ng;
  PetscCall(PetscLogEventBegin(HOFLOW_SEMDivergence, B, x, y, 0));
  PetscCall(DMGlobalToLocal(u->dm, x, INSERT_VALUES, u->work[0]));
  PetscCall(DMGetLocalVector(p->dm, &pl));
  PetscCall(VecZeroEntries(pl));
  PetscCall(VecGetArrayRead(u->work[0], &ua));
  PetscCall(VecGetArray(pl, &pa));
  for (PetscInt e = 0; e < u->K; e++) {
    PetscReal *T = ctx->work, *ue = T + dim * dim * Npp, *scratch = ue + PetscMax(Np, Npp);
    for (PetscInt j = 0; j < dim; j++) {
      for (PetscInt i = 0; i < Np; i++) {
        const PetscInt k = u->gather[e * Np + i] + j;
        ue[i]            = ctx->dirichlet && ctx->dirichlet[k] ? 0.0 : ua[k];
      }
      for (PetscInt a = 0; a < dim; a++) {
        const double *A[3];
        for (PetscInt d = 0; d < dim; d++) A[d] = d == a ? p->Dgl : p->Bgl;
        SEMTensorApply((int)dim, (int)N1, (int)Ng, A, ue, T + (j * dim + a) * Npp, scratch);
      }
    }
    for (PetscInt q = 0; q < Npp; q++) {
      const PetscReal *g   = p->g + (e * Npp + q) * dim * dim;
      PetscReal        div = 0;
      for (PetscInt j = 0; j < dim; j++)
        for (PetscInt a = 0; a < dim; a++) div += g[j * dim + a] * T[(j * dim + a) * Npp + q];
      if (p->continuous)
        ue[q] = p->wJ[e * Npp + q] * div; /* t_q, tested against the Q_{N-1} basis below */
      else
        pa[p->offset[e] + q] = p->wJ[e * Npp + q] * div;
    }
    if (p->continuous) {
      PetscReal      *r  = scratch + 2 * PetscMax(Np, Npp);
      const PetscInt *gp = p->continuous->gather + e * p->Npe;
      SEMTensorInterpolate((int)dim, (int)Ng, (int)p->Np1, p->BpqT, ue, r, scratch);
      for (PetscInt i = 0; i < p->Npe; i++) pa[gp[i]] += r[i];
    }
  }
  PetscCall(VecRestoreArray(pl, &pa));
  PetscCall(VecRestoreArrayRead(u->work[0], &ua));
  if (p->continuous) PetscCall(VecZeroEntries(y));
  PetscCall(DMLocalToGlobal(p->dm, pl, p->continuous ? ADD_VALUES : INSERT_VALUES, y));
  PetscCall(DMRestoreLocalVector(p->dm, &pl));
  PetscCall(PetscLogFlops(SEMDivergenceFlopsPerElement(p) * u->K));
  PetscCall(PetscLogEventEnd(HOFLOW_SEMDivergence, B, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SEMDivergence(Mat B, Vec x, Vec y)
{
  SEMDivergence     *ctx;
  SEMPressure       *p;
  SEMDisc           *u;
  PetscInt           dim, Np, Npp, N1, Ng;
  Vec                pl;
  const PetscScalar *pa;
  PetscScalar       *ya;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  p   = ctx->p;
  u   = p->velocity;
  dim = u->dim, Np = u->Np, Npp = p->Npp, N1 = u->N1, Ng = p->Ng;
  PetscCall(PetscLogEventBegin(HOFLOW_SEMDivergence, B, x, y, 0));
  PetscCall(DMGetLocalVector(p->dm, &pl));
  PetscCall(DMGlobalToLocal(p->dm, x, INSERT_VALUES, pl));
  PetscCall(VecZeroEntries(u->work[1]));
  PetscCall(VecGetArrayRead(pl, &pa));
  PetscCall(VecGetArray(u->work[1], &ya));
  for (PetscInt e = 0; e < u->K; e++) {
    PetscReal *t = ctx->work, *s = t + Npp, *out = s + Npp, *acc = out + Np, *scratch = acc + Np;
    if (p->continuous) { /* the pressure at the Gauss points */
      PetscReal *pe = scratch + 2 * PetscMax(Np, Npp);
      SEMPressureElementValues(p, pa, e, pe);
      SEMTensorInterpolate((int)dim, (int)p->Np1, (int)Ng, p->Bpq, pe, t, scratch);
      for (PetscInt q = 0; q < Npp; q++) t[q] *= p->wJ[e * Npp + q];
    } else
      for (PetscInt q = 0; q < Npp; q++) t[q] = p->wJ[e * Npp + q] * pa[p->offset[e] + q];
    for (PetscInt j = 0; j < dim; j++) { /* (G p)_j = sum_a D~_a^T (g_ja t) */
      for (PetscInt i = 0; i < Np; i++) acc[i] = 0;
      for (PetscInt a = 0; a < dim; a++) {
        const double *A[3];
        for (PetscInt q = 0; q < Npp; q++) s[q] = p->g[(e * Npp + q) * dim * dim + j * dim + a] * t[q];
        for (PetscInt d = 0; d < dim; d++) A[d] = d == a ? p->DglT : p->BglT;
        SEMTensorApply((int)dim, (int)Ng, (int)N1, A, s, out, scratch);
        for (PetscInt i = 0; i < Np; i++) acc[i] += out[i];
      }
      for (PetscInt i = 0; i < Np; i++) {
        const PetscInt k = u->gather[e * Np + i] + j;
        if (!ctx->dirichlet || !ctx->dirichlet[k]) ya[k] += acc[i];
      }
    }
  }
  PetscCall(VecRestoreArray(u->work[1], &ya));
  PetscCall(VecRestoreArrayRead(pl, &pa));
  PetscCall(DMRestoreLocalVector(p->dm, &pl));
  PetscCall(VecZeroEntries(y));
  PetscCall(DMLocalToGlobal(u->dm, u->work[1], ADD_VALUES, y));
  PetscCall(PetscLogFlops((SEMDivergenceFlopsPerElement(p) + 2.0 * u->dim * Np) * u->K));
  PetscCall(PetscLogEventEnd(HOFLOW_SEMDivergence, B, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEMDivergence(Mat B)
{
  SEMDivergence *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(B, &ctx));
  PetscCall(PetscFree(ctx->work));
  PetscCall(PetscFree(ctx->dirichlet));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMDivergenceCreate(SEMPressure *p, const PetscInt face_type[], Mat *B)
{
  SEMDivergence *ctx;
  PetscInt       nu, np;
  Vec            vu, vp;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ctx));
  ctx->p = p;
  PetscCall(PetscMalloc1(SEMDivergenceWorkSize(p), &ctx->work));
  if (face_type) {
    PetscInt n, *rows;
    PetscCall(SEMDiscDirichletDofs(p->velocity, face_type, &ctx->dirichlet, &n, &rows));
    PetscCall(PetscFree(rows));
  }
  PetscCall(DMGetGlobalVector(p->velocity->dm, &vu));
  PetscCall(DMGetGlobalVector(p->dm, &vp));
  PetscCall(VecGetLocalSize(vu, &nu));
  PetscCall(VecGetLocalSize(vp, &np));
  PetscCall(DMRestoreGlobalVector(p->velocity->dm, &vu));
  PetscCall(DMRestoreGlobalVector(p->dm, &vp));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)p->dm), np, nu, PETSC_DETERMINE, PETSC_DETERMINE, ctx, B));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT, (void (*)(void))MatMult_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_SEMDivergence));
  PetscCall(MatShellSetOperation(*B, MATOP_DESTROY, (void (*)(void))MatDestroy_SEMDivergence));
  PetscCall(PetscObjectSetName((PetscObject)*B, "SEM divergence"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The consistent pressure mass of the Taylor-Hood pair, (M_c p)_i = sum_q l_i(x_q) w_q J_q p(x_q) with the
 * pair's N + 1 Gauss points (exact for q p J on affine, bilinear and trilinear cells): Bpq, the weights
 * and Bpq^T a direction at a time. */
typedef struct {
  SEMPressure *p;
  PetscReal   *work;
} SEMPressureMassCtx;

static PetscErrorCode MatMult_SEMPressureMass(Mat M, Vec x, Vec y)
{
  SEMPressureMassCtx *ctx;
  SEMPressure        *p;
  PetscInt            dim, Npp, K;
  Vec                 xl, yl;
  const PetscScalar  *xa;
  PetscScalar        *ya;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &ctx));
  p = ctx->p, dim = p->velocity->dim, Npp = p->Npp, K = p->velocity->K;
  PetscCall(DMGetLocalVector(p->dm, &xl));
  PetscCall(DMGetLocalVector(p->dm, &yl));
  PetscCall(DMGlobalToLocal(p->dm, x, INSERT_VALUES, xl));
  PetscCall(VecZeroEntries(yl));
  PetscCall(VecGetArrayRead(xl, &xa));
  PetscCall(VecGetArray(yl, &ya));
  for (PetscInt e = 0; e < K; e++) {
    const PetscInt *gp = p->continuous->gather + e * p->Npe;
    PetscReal      *pe = ctx->work, *t = pe + Npp, *r = t + Npp, *scratch = r + Npp;
    SEMPressureElementValues(p, xa, e, pe);
    SEMTensorInterpolate((int)dim, (int)p->Np1, (int)p->Ng, p->Bpq, pe, t, scratch);
    for (PetscInt q = 0; q < Npp; q++) t[q] *= p->wJ[e * Npp + q];
    SEMTensorInterpolate((int)dim, (int)p->Ng, (int)p->Np1, p->BpqT, t, r, scratch);
    for (PetscInt i = 0; i < p->Npe; i++) ya[gp[i]] += r[i];
  }
  PetscCall(VecRestoreArray(yl, &ya));
  PetscCall(VecRestoreArrayRead(xl, &xa));
  PetscCall(VecZeroEntries(y));
  PetscCall(DMLocalToGlobal(p->dm, yl, ADD_VALUES, y));
  PetscCall(DMRestoreLocalVector(p->dm, &xl));
  PetscCall(DMRestoreLocalVector(p->dm, &yl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEMPressureMass(Mat M)
{
  SEMPressureMassCtx *ctx;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &ctx));
  PetscCall(PetscFree(ctx->work));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMPressureMassCreate(SEMPressure *p, Mat *M)
{
  SEMPressureMassCtx *ctx;
  PetscInt            np;
  Vec                 vp;

  PetscFunctionBeginUser;
  PetscCheck(p->continuous, PetscObjectComm((PetscObject)p->dm), PETSC_ERR_SUP, "-stokes_pair %s: the consistent pressure mass is that of the continuous Taylor-Hood pressure (the Q_{N-2} pressure's Gauss-point mass is exact already)", SEMStokesPairNames[p->pair]);
  PetscCall(PetscNew(&ctx));
  ctx->p = p;
  PetscCall(PetscMalloc1(5 * p->Npp, &ctx->work)); /* pe, t, r (Npe <= Npp) and the passes' 2 Npp */
  PetscCall(DMGetGlobalVector(p->dm, &vp));
  PetscCall(VecGetLocalSize(vp, &np));
  PetscCall(DMRestoreGlobalVector(p->dm, &vp));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)p->dm), np, np, PETSC_DETERMINE, PETSC_DETERMINE, ctx, M));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))MatMult_SEMPressureMass));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SEMPressureMass));
  PetscCall(MatShellSetOperation(*M, MATOP_DESTROY, (void (*)(void))MatDestroy_SEMPressureMass));
  PetscCall(MatSetOption(*M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, "SEM consistent pressure mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
