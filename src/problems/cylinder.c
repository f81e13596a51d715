/* Compressible viscous flow past a circular cylinder (seed 004 §3.1.2), a case of the Navier–Stokes
 * physics (-disc mdg): diameter d = 1, free stream Ma 0.2 (-cylinder_mach) along x, Re = rho U d / mu = 40
 * (-cylinder_reynolds), adiabatic no-slip wall, characteristic far field, in units rho_inf = 1,
 * p_inf = 1/gamma (c_inf = 1, U = Ma). Starts from the free stream. Monitors: the drag coefficient and
 * its pressure and viscous parts, the lift coefficient (2 F / (rho U^2 d)). Default mesh: quadrilaterals
 * around the wall, triangles outside (examples/meshes/cylinder_re40.geo), the wall curved by projection
 * onto its circle. Steady: run it with -ts_type pseudo (options/cylinder_re40.yaml). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

PetscErrorCode ProblemCreate_Cylinder(Problem *problem)
{
  ProblemFreeStream *c;
  PetscReal          re = 40;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  c->gamma = 1.4;
  c->mach  = 0.2;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Cylinder flow", NULL);
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, c->gamma, &c->gamma, NULL));
  PetscCall(PetscOptionsReal("-cylinder_mach", "Free-stream Mach number", NULL, c->mach, &c->mach, NULL));
  PetscCall(PetscOptionsReal("-cylinder_reynolds", "Reynolds number rho U d / mu", NULL, re, &re, NULL));
  PetscOptionsEnd();
  PetscCheck(c->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)c->gamma);
  PetscCheck(re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cylinder_reynolds %g must be positive", (double)re);
  PetscCheck(c->mach > 0 && c->mach < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cylinder_mach %g must be in (0, 1) (subsonic far field)", (double)c->mach);
  PetscCall(PetscStrncpy(problem->physics, "navier_stokes", sizeof(problem->physics)));
  problem->gamma             = c->gamma;
  problem->mu                = c->mach / re;
  problem->initial           = ProblemFreeStreamState;
  problem->boundary          = ProblemFreeStreamState;
  problem->velocity_scale    = c->mach;
  problem->length_scale      = 1;
  problem->flow_direction[0] = 1;
  problem->default_max_time  = 100;
  problem->ctx               = c;
  problem->ctx_destroy       = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/cylinder_re40.msh -curve_wall circle -curve_wall_radius 0.5", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "no_slip_adiabatic", "wall"));
  PetscCall(ProblemSetBoundaryGroups(problem, "farfield", "farfield"));
  PetscCall(PetscStrncpy(problem->monitors, "residual,drag,drag_pressure,drag_viscous,lift,mass", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "density,pressure,mach,velocity_x,velocity_y", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
