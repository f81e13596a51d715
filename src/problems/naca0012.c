/* Laminar compressible flow past a NACA0012 airfoil (seed 004 §3.1.3), a case of the Navier–Stokes physics
 * (-disc mdg): chord c = 1, free stream Ma 0.5 (-naca_mach) at the angle of attack alpha = 0 degrees
 * (-naca_alpha), Re_c = rho U c / mu = 5000 (-naca_reynolds), adiabatic no-slip wall, characteristic far
 * field, in units rho_inf = 1, p_inf = 1/gamma (c_inf = 1, U = Ma). Starts from the free stream. Monitors:
 * the drag coefficient along the free stream and its pressure and viscous parts, the lift coefficient
 * normal to it (2 F / (rho U^2 c)). Default mesh: the seed's 170 x 30 quadrilateral C-mesh with cubic
 * (Q3) cells curved onto the airfoil, far field 20 chords away (examples/meshes/naca0012.geo). Steady:
 * run it with -ts_type pseudo (options/naca0012.yaml). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

PetscErrorCode ProblemCreate_Naca0012(Problem *problem)
{
  ProblemFreeStream *fs;
  PetscReal          re = 5000, a;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&fs));
  fs->gamma = 1.4;
  fs->mach  = 0.5;
  fs->alpha = 0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "NACA0012 airfoil", NULL);
  PetscCall(PetscOptionsReal("-euler_gamma", "Ratio of specific heats gamma", NULL, fs->gamma, &fs->gamma, NULL));
  PetscCall(PetscOptionsReal("-naca_mach", "Free-stream Mach number", NULL, fs->mach, &fs->mach, NULL));
  PetscCall(PetscOptionsReal("-naca_reynolds", "Reynolds number rho U c / mu of the chord c = 1", NULL, re, &re, NULL));
  PetscCall(PetscOptionsReal("-naca_alpha", "Angle of attack in degrees", NULL, fs->alpha, &fs->alpha, NULL));
  PetscOptionsEnd();
  PetscCheck(fs->gamma > 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-euler_gamma %g must be > 1", (double)fs->gamma);
  PetscCheck(fs->mach > 0 && fs->mach < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-naca_mach %g must be in (0, 1) (subsonic far field)", (double)fs->mach);
  PetscCheck(re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-naca_reynolds %g must be positive", (double)re);
  PetscCheck(fs->alpha > -90 && fs->alpha < 90, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-naca_alpha %g must be in (-90, 90) degrees (the C-mesh's outflow is behind the trailing edge)", (double)fs->alpha);
  a = fs->alpha * PETSC_PI / 180;
  PetscCall(PetscStrncpy(problem->physics, "navier_stokes", sizeof(problem->physics)));
  problem->gamma             = fs->gamma;
  problem->mu                = fs->mach / re;
  problem->initial           = ProblemFreeStreamState;
  problem->boundary          = ProblemFreeStreamState;
  problem->velocity_scale    = fs->mach;
  problem->length_scale      = 1;
  problem->flow_direction[0] = PetscCosReal(a);
  problem->flow_direction[1] = PetscSinReal(a);
  problem->default_max_time  = 100;
  problem->ctx               = fs;
  problem->ctx_destroy       = ProblemFreeContext;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/naca0012.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "no_slip_adiabatic", "wall"));
  PetscCall(ProblemSetBoundaryGroups(problem, "farfield", "farfield"));
  PetscCall(PetscStrncpy(problem->monitors, "residual,drag,drag_pressure,drag_viscous,lift,mass", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "density,pressure,mach,velocity_x,velocity_y", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
