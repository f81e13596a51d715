/* The three-dimensional Taylor–Green vortex at Re = 1600 (seed 001 §7.5; case C3.5 of the International
 * Workshop on High-Order CFD Methods): the triply periodic box [0, 2 pi]^3 (L = 1, V0 = 1) from
 *   u = sin x cos y cos z,   v = -cos x sin y cos z,   w = 0,
 *   p = p0 + (cos 2x + cos 2y)(cos 2z + 2) / 16,
 * nu = 1 / Re (-taylor_green_reynolds), to t = 20, where the vortex breaks down into turbulence (the peak of
 * the dissipation rate near t = 9). No exact solution: the monitors are the mean kinetic energy E, its
 * dissipation rate -dE/dt (difference of successive monitor evaluations) and the enstrophy form 2 nu eps,
 * eps = (1/|Omega|) int |omega|^2 / 2, all reductions of device vectors (monitors.csv, -monitor_interval);
 * the summary gives the peak of each (the time of the largest 2 nu eps and of -dE/dt by central differences
 * of E). scripts/tgv_compare.py compares the monitors with the 512^3 spectral DNS
 * (bench/reference/spectral_Re1600_512.gdiag). Physics sem_ns (-disc sem, velocity correction). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static PetscErrorCode TaylorGreen3DState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  PetscCheck(dim == 3 && nv >= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "-problem taylor_green_3d is three-dimensional: (u, v, w[, p]) on a hexahedral mesh");
  values[0] = PetscSinReal(x[0]) * PetscCosReal(x[1]) * PetscCosReal(x[2]);
  values[1] = -PetscCosReal(x[0]) * PetscSinReal(x[1]) * PetscCosReal(x[2]);
  values[2] = 0;
  if (nv > 3) values[3] = (PetscCosReal(2 * x[0]) + PetscCosReal(2 * x[1])) * (PetscCosReal(2 * x[2]) + 2) / 16; /* p0 = 0 */
  PetscCheck(!grad, PETSC_COMM_SELF, PETSC_ERR_SUP, "-problem taylor_green_3d: the initial state has no gradient here");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The monitor's column, or -1. */
static PetscInt TaylorGreen3DColumn(PetscInt nmon, const char *const names[], const char name[])
{
  for (PetscInt m = 0; m < nmon; m++)
    if (!strcmp(names[m], name)) return m;
  return -1;
}

/* peak_enstrophy_dissipation V at T, peak_dissipation V at T (-dE/dt by central differences of the energy
 * record: the monitor energy of physics sem_ns, kinetic_energy of the compressible case taylor_green_compressible),
 * from the monitors' records. */
PetscErrorCode ProblemTaylorGreenSummary(void *ctx, PetscInt nrec, const PetscReal t[], PetscInt nmon, const char *const names[], PetscReal *const values[], char summary[], size_t len)
{
  const PetscInt me = TaylorGreen3DColumn(nmon, names, "energy") >= 0 ? TaylorGreen3DColumn(nmon, names, "energy") : TaylorGreen3DColumn(nmon, names, "kinetic_energy"), mz = TaylorGreen3DColumn(nmon, names, "enstrophy_dissipation");
  PetscReal      zmax = -1, tz = 0, dmax = -1, td = 0;

  PetscFunctionBeginUser;
  summary[0] = 0;
  if (mz >= 0)
    for (PetscInt k = 0; k < nrec; k++)
      if (values[mz][k] > zmax) zmax = values[mz][k], tz = t[k];
  if (me >= 0)
    for (PetscInt k = 1; k + 1 < nrec; k++) {
      const PetscReal d = -(values[me][k + 1] - values[me][k - 1]) / (t[k + 1] - t[k - 1]);
      if (t[k + 1] > t[k - 1] && d > dmax) dmax = d, td = t[k];
    }
  PetscCall(PetscSNPrintf(summary, len, "peak_enstrophy_dissipation %.6e at %.4f peak_dissipation %.6e at %.4f", (double)zmax, (double)tz, (double)dmax, (double)td));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_TaylorGreen3D(Problem *problem)
{
  PetscReal Re = 1600;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Taylor–Green vortex (3D, Re = 1600)", NULL);
  PetscCall(PetscOptionsReal("-taylor_green_reynolds", "Reynolds number V0 L / nu (V0 = L = 1)", NULL, Re, &Re, NULL));
  PetscOptionsEnd();
  PetscCheck(Re > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-taylor_green_reynolds %g must be positive", (double)Re);
  PetscCall(PetscStrncpy(problem->physics, "sem_ns", sizeof(problem->physics)));
  problem->nu               = 1.0 / Re;
  problem->dim              = 3;
  problem->ctx              = problem;
  problem->initial          = TaylorGreen3DState;
  problem->summary          = ProblemTaylorGreenSummary;
  problem->velocity_scale   = 1.0;
  problem->default_dt       = 0.01;
  problem->default_max_time = 20;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 4,4,4 -dm_plex_box_lower 0,0,0 -dm_plex_box_upper 6.283185307179586,6.283185307179586,6.283185307179586 -dm_plex_box_bd periodic,periodic,periodic", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "none"));
  PetscCall(PetscStrncpy(problem->monitors, "energy,dissipation,enstrophy_dissipation,divergence", sizeof(problem->monitors)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
