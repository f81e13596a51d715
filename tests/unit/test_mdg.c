static const char help[] = "Modal DG Euler kernels (with the BR2 viscous terms for Navier-Stokes problems): the right-hand side of the\n"
                           "problem's exact (or initial) state (with a perturbation of its modes) on the host, and, in CUDA builds, every CUDA kernel (volume + face + lift, wave speed, cell\n"
                           "means + limiter) against its host twin on the same input. Takes hoflow's options (-problem, -disc mdg,\n"
                           "-order, mesh). Prints SKIPPED for the device part when hoflow is built without CUDA.\n";

#include <hoflow/compat.h>
#include <hoflow/mdg.h>
#include <hoflow/physics.h>

typedef struct {
  const Problem *problem;
  PetscInt       nv;
} Exact;

static PetscErrorCode ExactState(PetscInt dim, const PetscReal x[], PetscReal u[], void *ctx)
{
  const Exact *ex = (const Exact *)ctx;

  PetscFunctionBeginUser;
  PetscCall((ex->problem->exact ? ex->problem->exact : ex->problem->initial)(dim, 0.0, x, ex->nv, u, NULL, ex->problem->ctx)); /* cases without an exact state: their initial state */
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(HOFLOW_HAVE_CUDA)
#include "device_vec.h"

/* max |b - a| / max(max |a|, scale): scale, the size of the terms a sums (a right-hand side that
 * nearly cancels, e.g. a steady state, is compared at the size of its fluxes' divergence) */
static PetscErrorCode Relative(Vec a, Vec b, PetscReal scale, PetscReal *rel)
{
  Vec       d;
  PetscReal na, nd;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecCopy(b, d)); /* to the host type of a */
  PetscCall(VecAXPY(d, -1.0, a));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(a, NORM_INFINITY, &na));
  *rel = nd / PetscMax(na, scale);
  if (PetscIsNanReal(nd)) *rel = PETSC_INFINITY;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  App      *app;
  MDGDisc  *mdg;
  Vec       u, f;
  PetscReal norm, speed;
  PetscInt  cell, nlim;
  Exact     ex;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetMDG(app->disc, "test_mdg", &mdg));
  ex.problem = &app->problem;
  ex.nv      = mdg->nv;
  for (PetscInt i = 0; i < mdg->nbpoints; i++) PetscCall(ExactState(mdg->dim, mdg->bx + i * mdg->dim, mdg->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(MDGSetEuler(mdg, app->problem.gamma > 0 ? app->problem.gamma : 1.4, EULER_FLUX_ROE));
  PetscCall(MDGSetLimiter(mdg, PETSC_TRUE, PETSC_TRUE, 1e-10));
  {
    PetscReal kappa = 0;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-test_sensor", &kappa, NULL)); /* the troubled-cell sensor's branch */
    PetscCall(MDGSetLimiterSensor(mdg, kappa));
  }
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(VecDuplicate(u, &f));
  PetscCall(MDGProject(mdg, ExactState, &ex, u));
  PetscCall(MDGEulerRHS(mdg, u, f));
  PetscCall(VecNorm(f, NORM_INFINITY, &norm));
  PetscCall(MDGMaxWaveSpeed(mdg, u, &speed, &cell));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "host rhs_max %.6e max_speed_over_h %.6e\n", (double)norm, (double)speed));
#if defined(HOFLOW_HAVE_CUDA)
  {
    Vec       ud, fd, uh, ul;
    PetscReal rel, speed_d;
    PetscInt  cd, nd;
    /* a perturbed state, so that every flux branch and the limiter work */
    PetscCall(VecDuplicate(u, &uh));
    PetscCall(VecSetRandom(uh, NULL));
    PetscCall(VecAYPX(uh, 1e-2, u));
    PetscCall(MDGEulerRHS(mdg, uh, f));
    PetscCall(DuplicateOnDevice(uh, &ud));
    PetscCall(DuplicateOnDevice(f, &fd));
    PetscCall(VecSet(fd, NAN));
    PetscCall(MDGEulerRHS(mdg, ud, fd));
    PetscCall(MDGMaxWaveSpeed(mdg, uh, &speed, &cell));
    {
      PetscReal umax;
      PetscCall(VecNorm(uh, NORM_INFINITY, &umax));
      PetscCall(Relative(f, fd, speed * umax, &rel)); /* the fluxes' divergence ~ max (|v|+c)/h max |u| */
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu rhs %.3e\n", (double)rel));
    PetscCall(VecDestroy(&mdg->speed)); /* the work vectors follow the backend */
    PetscCall(VecDestroy(&mdg->limited));
    PetscCall(VecDestroy(&mdg->means_local));
    PetscCall(MDGMaxWaveSpeed(mdg, ud, &speed_d, &cd));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu wave_speed %.3e\n", (double)(PetscAbsReal(speed_d - speed) / speed)));
    PetscCall(VecDuplicate(uh, &ul));
    PetscCall(VecCopy(uh, ul));
    PetscCall(MDGLimit(mdg, ud, &nd));
    PetscCall(VecDestroy(&mdg->speed));
    PetscCall(VecDestroy(&mdg->limited));
    PetscCall(VecDestroy(&mdg->means_local));
    PetscCall(MDGLimit(mdg, ul, &nlim));
    PetscCall(Relative(ul, ud, 0, &rel));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu limiter %.3e limited %" PetscInt_FMT " %" PetscInt_FMT "\n", (double)rel, nlim, nd));
    PetscCall(VecDestroy(&ud));
    PetscCall(VecDestroy(&fd));
    PetscCall(VecDestroy(&uh));
    PetscCall(VecDestroy(&ul));
  }
#else
  PetscCall(MDGLimit(mdg, u, &nlim));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "host limited %" PetscInt_FMT "\n", nlim));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: SKIPPED (hoflow built without CUDA=1)\n"));
#endif
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&f));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
