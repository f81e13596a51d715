/* Compressible viscous flow past a body in a uniform free stream, cases of the Navier–Stokes physics: the free
 * stream Ma along x (rho_inf = 1, p_inf = 1/gamma, c_inf = 1, U = Ma), Re = rho U d / mu on the body's diameter
 * d = 1, adiabatic no-slip wall (group "wall"), far field (group "farfield"); starts from the free stream.
 * Monitors: the drag coefficient and its pressure and viscous parts, the lift coefficient (F / (rho U^2 A / 2), A
 * the problem's reference area: d in 2D, pi d^2 / 4 in 3D), the residual. One creator, the cases' defaults below:
 *
 *   cylinder  seed 004 §3.1.2: Re 40 (-cylinder_reynolds), Ma 0.2 (-cylinder_mach); quadrilaterals around the wall,
 *             triangles outside (examples/meshes/cylinder_re40.geo), the wall curved onto its circle. Steady by
 *             -ts_type pseudo (options/cylinder_re40.yaml).
 *   sphere    seed 003 §VIII.A: Re 118 (-sphere_reynolds), Ma 0.2 (-sphere_mach); prisms in a boundary layer,
 *             tetrahedra outside, far field at 20 d (examples/meshes/sphere_re118.geo), the wall curved onto the
 *             sphere. Steady by explicit local time steps with -disc fr (options/sphere_re118.yaml). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

typedef struct {
  const char *name, *title;   /* the options' prefix (-<name>_reynolds, -<name>_mach) */
  PetscReal   reynolds, area; /* the default Re; the reference area of the coefficients (d = 1) */
  const char *mesh_options, *derived;
} ProblemBody;

static PetscErrorCode ProblemCreateBody(Problem *problem, const ProblemBody *body)
{
  ProblemFreeStream *c;
  PetscReal          re = body->reynolds;
  char               opt_mach[64], opt_re[64];

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->gamma = 1.4;
  c->mach  = 0.2;
  PetscCall(PetscSNPrintf(opt_mach, sizeof(opt_mach), "-%s_mach", body->name));
  PetscCall(PetscSNPrintf(opt_re, sizeof(opt_re), "-%s_reynolds", body->name));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, body->title, NULL);
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, c->gamma, &c->gamma, NULL));
  PetscCall(PetscOptionsReal(opt_mach, "Free-stream Mach number", NULL, c->mach, &c->mach, NULL));
  PetscCall(PetscOptionsReal(opt_re, "Reynolds number rho U d / mu", NULL, re, &re, NULL));
  PetscOptionsEnd();
  PetscCheck(c->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)c->gamma);
  PetscCheck(re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "%s %g must be positive", opt_re, (double)re);
  PetscCheck(c->mach > 0 && c->mach < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "%s %g must be in (0, 1) (subsonic far field)", opt_mach, (double)c->mach);
  PetscCall(PetscStrncpy(problem->physics, "navier_stokes", sizeof(problem->physics)));
  problem->gamma             = c->gamma;
  problem->mu                = c->mach / re;
  problem->initial           = ProblemFreeStreamState;
  problem->boundary          = ProblemFreeStreamState;
  problem->velocity_scale    = c->mach;
  problem->length_scale      = body->area;
  problem->flow_direction[0] = 1;
  problem->default_max_time  = 100;
  problem->ctx               = c;
  problem->ctx_destroy       = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, body->mesh_options, sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "no_slip_adiabatic", "wall"));
  PetscCall(ProblemSetBoundaryGroups(problem, "farfield", "farfield"));
  PetscCall(PetscStrncpy(problem->monitors, "residual,drag,drag_pressure,drag_viscous,lift,mass", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, body->derived, sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Cylinder(Problem *problem)
{
  const ProblemBody body = {"cylinder", "Cylinder flow", 40, 1, "-dm_plex_filename examples/meshes/cylinder_re40.msh -curve_wall circle -curve_wall_radius 0.5", "density,pressure,mach,velocity_x,velocity_y"};

  PetscFunctionBeginUser;
  PetscCall(ProblemCreateBody(problem, &body));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Sphere(Problem *problem)
{
  const ProblemBody body = {"sphere", "Sphere flow", 118, PETSC_PI / 4, "-dm_plex_filename examples/meshes/sphere_re118.msh -curve_wall sphere -curve_wall_radius 0.5 -curve_farfield sphere -curve_farfield_radius 20",
                            "density,pressure,mach,velocity_x,velocity_y,velocity_z"};

  PetscFunctionBeginUser;
  PetscCall(ProblemCreateBody(problem, &body));
  PetscFunctionReturn(PETSC_SUCCESS);
}
