/* The modal DG's conservation-law table (hoflow/conslaw.h): what the Euler and Navier–Stokes physics calls,
 * each entry the modal DG function of today (disc/mdg.c, op/mdg.c) on the MDGDisc behind the ConsLaw. */
#include <hoflow/compat.h>
#include <hoflow/mdg.h>

static PetscErrorCode MDGConsLawSetEquations(ConsLaw cl, PetscReal gamma, PetscInt flux)
{
  MDGDisc *mdg = (MDGDisc *)cl->data;

  PetscFunctionBeginUser;
  PetscCall(MDGSetEuler(mdg, gamma, flux));
  for (PetscInt b = 0; b < mdg->nblocks; b++)
    for (PetscInt j = 0; j < 3; j++) mdg->blocks[b].kd.velocity[j] = cl->velocity[j];
  if (mdg->view_cost) PetscCall(MDGViewCost(mdg, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)mdg->dm))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawSetViscous(ConsLaw cl, const NSViscosity *vis, PetscReal eta)
{
  PetscFunctionBeginUser;
  PetscCall(MDGSetViscous((MDGDisc *)cl->data, vis, eta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawSetLimiter(ConsLaw cl, PetscBool barth, PetscBool positivity, PetscReal eps, PetscReal sensor)
{
  PetscFunctionBeginUser;
  PetscCall(MDGSetLimiter((MDGDisc *)cl->data, barth, positivity, eps));
  PetscCall(MDGSetLimiterSensor((MDGDisc *)cl->data, sensor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawUpdateBoundaryData(ConsLaw cl)
{
  PetscFunctionBeginUser;
  PetscCall(MDGUpdateBoundaryData((MDGDisc *)cl->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawRHS(ConsLaw cl, Vec u, Vec f)
{
  PetscFunctionBeginUser;
  PetscCall(MDGEulerRHS((MDGDisc *)cl->data, u, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawMaxWaveSpeed(ConsLaw cl, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed)
{
  MDGDisc *mdg = (MDGDisc *)cl->data;

  PetscFunctionBeginUser;
  PetscCall(MDGMaxWaveSpeed(mdg, u, speed, bad_cell));
  *element_speed = mdg->speed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawLimit(ConsLaw cl, Vec u, PetscInt *nlimited)
{
  PetscFunctionBeginUser;
  PetscCall(MDGLimit((MDGDisc *)cl->data, u, nlimited));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawProject(ConsLaw cl, ConsLawStateFunction f, void *ctx, Vec u)
{
  PetscFunctionBeginUser;
  PetscCall(MDGProject((MDGDisc *)cl->data, f, ctx, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawErrorNorm(ConsLaw cl, NormType type, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[])
{
  PetscFunctionBeginUser;
  if (type == NORM_1)
    PetscCall(MDGL1Error((MDGDisc *)cl->data, u, f, ctx, err));
  else
    PetscCall(MDGL2Error((MDGDisc *)cl->data, u, f, ctx, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawIntegrate(ConsLaw cl, Vec u, PetscReal total[])
{
  PetscFunctionBeginUser;
  PetscCall(MDGIntegrate((MDGDisc *)cl->data, u, total));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* w J-weighted over the volume points (MDGMeansElement): exact on curved elements */
static PetscErrorCode MDGConsLawElementMeans(ConsLaw cl, Vec uvec, PetscReal means[])
{
  MDGDisc           *mdg = (MDGDisc *)cl->data;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt b = 0; b < mdg->nblocks; b++)
    for (PetscInt k = 0; k < mdg->blocks[b].K; k++) {
      const PetscInt e = mdg->mesh->blocks[b].start + k;
      MDGMeansElement(&mdg->blocks[b].kd, (int)k, u + mdg->elem_dof[e], means + e * mdg->nv);
    }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawEvaluate(ConsLaw cl, Vec uvec, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[])
{
  MDGDisc           *mdg = (MDGDisc *)cl->data;
  const MDGBlock    *blk = &mdg->blocks[b];
  const PetscInt     nv  = mdg->nv;
  const PetscScalar *u;
  PetscReal         *P;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * blk->Np, &P));
  PetscCall(RefElementModalBasis(blk->shape, mdg->N, n, xi, P, NULL));
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt k = 0; k < blk->K; k++) {
    const PetscInt e = mdg->mesh->blocks[b].start + k;
    for (PetscInt i = 0; i < n; i++) MDGEvaluate((int)nv, (int)blk->Np, P + i * blk->Np, u + mdg->elem_dof[e], w + (k * n + i) * nv);
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(PetscFree(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MDGConsLawWallSamples(ConsLaw cl, Vec u, PetscInt *nrows, PetscReal **rows)
{
  PetscFunctionBeginUser;
  PetscCall(MDGWallSamples((MDGDisc *)cl->data, u, nrows, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGConsLawCreate(MDGDisc *mdg)
{
  ConsLaw cl;

  PetscFunctionBeginUser;
  PetscCall(ConsLawCreate(mdg->disc, &cl));
  PetscCall(ConsLawSetLayout(cl, mdg, mdg->N, mdg->nbpoints, mdg->bx, mdg->bn, mdg->btype, mdg->bc_point, mdg->elem_dof));
  cl->ops.set_equations        = MDGConsLawSetEquations;
  cl->ops.set_viscous          = MDGConsLawSetViscous;
  cl->ops.set_limiter          = MDGConsLawSetLimiter;
  cl->ops.update_boundary_data = MDGConsLawUpdateBoundaryData;
  cl->ops.rhs                  = MDGConsLawRHS;
  cl->ops.max_wave_speed       = MDGConsLawMaxWaveSpeed;
  cl->ops.limit                = MDGConsLawLimit;
  cl->ops.project              = MDGConsLawProject;
  cl->ops.error_norm           = MDGConsLawErrorNorm;
  cl->ops.integrate            = MDGConsLawIntegrate;
  cl->ops.element_means        = MDGConsLawElementMeans;
  cl->ops.evaluate             = MDGConsLawEvaluate;
  cl->ops.wall_samples         = MDGConsLawWallSamples;
  mdg->disc->conslaw           = cl;
  PetscFunctionReturn(PETSC_SUCCESS);
}
