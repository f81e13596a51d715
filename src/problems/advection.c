/* Linear advection (physics advection, physics/euler.c): u_t + div(a u) = 0 on the periodic unit square or cube,
 *
 *   advection   u(x, t) = prod_d sin(2 pi k (x_d - a_d t)), a smooth periodic wave carried by the constant velocity
 *               a = -advection_velocity (default (1, 0.5, 0.25), the first dim components), k = -advection_wavenumber
 *               (default 1; a larger k on a coarse mesh gives the high modes weight); exact at every t.
 *
 * The velocity is the problem's velocity_scale |a| times its flow_direction a / |a|, which the physics reads. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static PetscErrorCode AdvectionWave(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const PetscReal *a = (const PetscReal *)ctx, k = a[3]; /* ctx: a[3], k */

  PetscFunctionBeginUser;
  u[0] = 1;
  for (PetscInt d = 0; d < dim; d++) u[0] *= PetscSinReal(2 * PETSC_PI * k * (x[d] - a[d] * t));
  if (grad)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal g = 2 * PETSC_PI * k * PetscCosReal(2 * PETSC_PI * k * (x[d] - a[d] * t));
      for (PetscInt j = 0; j < dim; j++)
        if (j != d) g *= PetscSinReal(2 * PETSC_PI * k * (x[j] - a[j] * t));
      grad[d] = g;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Advection(Problem *problem)
{
  PetscReal *a;
  PetscInt   n = 3;
  PetscReal  len;
  PetscInt   k = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4, &a));
  a[0] = 1;
  a[1] = 0.5;
  a[2] = 0.25;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Linear advection", NULL);
  PetscCall(PetscOptionsRealArray("-advection_velocity", "The constant velocity a (a_x,a_y[,a_z])", NULL, a, &n, NULL));
  PetscCall(PetscOptionsInt("-advection_wavenumber", "The wave's number of periods k across the unit box in each direction", NULL, k, &k, NULL));
  PetscOptionsEnd();
  PetscCheck(k >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advection_wavenumber %" PetscInt_FMT " must be >= 1 (the box is periodic)", k);
  a[3] = (PetscReal)k;
  len  = PetscSqrtReal(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  PetscCheck(len > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-advection_velocity: the velocity must not be zero");
  PetscCall(PetscStrncpy(problem->physics, "advection", sizeof(problem->physics)));
  problem->exact          = AdvectionWave;
  problem->ctx            = a;
  problem->ctx_destroy    = ProblemFreeContext;
  problem->velocity_scale = len;
  for (PetscInt d = 0; d < 3; d++) problem->flow_direction[d] = a[d] / len;
  problem->default_max_time = 0.5;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 8,8 -dm_plex_box_bd periodic,periodic", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->monitors, "L2_error,mass,energy_norm,energy_l2", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "u", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
