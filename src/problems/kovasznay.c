/* Kovasznay flow (seed 001 §7.4; Kovasznay 1948): the exact steady solution of the incompressible
 * Navier–Stokes equations behind a periodic array of cylinders,
 *   u = 1 - e^{lambda x} cos(2 pi y),   v = lambda/(2 pi) e^{lambda x} sin(2 pi y),   p = (1 - e^{2 lambda x}) / 2,
 *   lambda = Re/2 - sqrt(Re^2/4 + 4 pi^2),   nu = 1/Re,
 * on the seed's rectangle [-0.5, 1] x [-0.5, 1.5] (3 x 4 quadrilaterals of size 1/2), Re = 40
 * (-kovasznay_re), the exact velocity on every side. The steady state is reached by time marching
 * (-ts_type velcorr of physics sem_ns) from the exact solution's interpolant: what is left is the
 * discretization error, which the run reports (L2 of the velocity, L2_p of the pressure). Monitors: the L2
 * errors of the velocity and the pressure and the L2 norm of div u, on the way to the steady state. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  PetscReal re, lambda;
} KovasznayContext;

static PetscErrorCode KovasznayState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx)
{
  const KovasznayContext *k = (const KovasznayContext *)ctx;
  const PetscReal         e = PetscExpReal(k->lambda * x[0]), c = PetscCosReal(2 * PETSC_PI * x[1]), s = PetscSinReal(2 * PETSC_PI * x[1]);

  PetscFunctionBeginUser;
  PetscCheck(dim == 2 && nv >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Kovasznay flow is two-dimensional: (u, v[, p])");
  values[0] = 1 - e * c;
  values[1] = k->lambda / (2 * PETSC_PI) * e * s;
  if (nv > 2) values[2] = 0.5 * (1 - e * e);
  if (grad) {
    grad[0] = -k->lambda * e * c, grad[1] = 2 * PETSC_PI * e * s;
    grad[2] = k->lambda * k->lambda / (2 * PETSC_PI) * e * s, grad[3] = k->lambda * e * c;
    if (nv > 2) grad[4] = -k->lambda * e * e, grad[5] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Kovasznay(Problem *problem)
{
  KovasznayContext *ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&ctx));
  ctx->re = 40;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Kovasznay flow", NULL);
  PetscCall(PetscOptionsReal("-kovasznay_re", "Reynolds number Re = 1/nu", NULL, ctx->re, &ctx->re, NULL));
  PetscOptionsEnd();
  PetscCheck(ctx->re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-kovasznay_re %g must be positive", (double)ctx->re);
  ctx->lambda = 0.5 * ctx->re - PetscSqrtReal(0.25 * ctx->re * ctx->re + 4 * PETSC_PI * PETSC_PI);
  PetscCall(PetscStrncpy(problem->physics, "sem_ns", sizeof(problem->physics)));
  problem->dim              = 2;
  problem->nu               = 1 / ctx->re;
  problem->ctx              = ctx;
  problem->ctx_destroy      = ProblemFreeContext;
  problem->exact            = KovasznayState;
  problem->velocity_scale   = 1 + PetscExpReal(-0.5 * ctx->lambda); /* max |u| on the rectangle */
  problem->default_dt       = 0.01;
  problem->default_max_time = 4.0;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 3,4 -dm_plex_box_lower -0.5,-0.5 -dm_plex_box_upper 1,1.5", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,bottom,top"));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error_velocity,L2_error_pressure,divergence", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
