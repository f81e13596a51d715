/* Every hoflow problem is registered here by name; adding a problem is one file and one line. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

PetscFunctionList ProblemList = NULL;

PetscErrorCode ProblemRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (ProblemList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListAdd(&ProblemList, "poisson", ProblemCreate_Poisson));
  PetscCall(PetscFunctionListAdd(&ProblemList, "helmholtz", ProblemCreate_Helmholtz));
  PetscCall(PetscFunctionListAdd(&ProblemList, "poisson_periodic", ProblemCreate_PoissonPeriodic));
  PetscCall(PetscFunctionListAdd(&ProblemList, "annulus", ProblemCreate_Annulus));
  PetscCall(PetscFunctionListAdd(&ProblemList, "linear", ProblemCreate_Linear));
  PetscCall(PetscFunctionListAdd(&ProblemList, "heat", ProblemCreate_Heat));
  PetscCall(PetscFunctionListAdd(&ProblemList, "taylor_vortex", ProblemCreate_TaylorVortex));
  PetscCall(PetscFunctionListAdd(&ProblemList, "square_cylinder", ProblemCreate_SquareCylinder));
  PetscCall(PetscFunctionListAdd(&ProblemList, "isentropic_vortex", ProblemCreate_IsentropicVortex));
  PetscCall(PetscFunctionListAdd(&ProblemList, "supersonic_vortex", ProblemCreate_SupersonicVortex));
  PetscCall(PetscFunctionListAdd(&ProblemList, "sod", ProblemCreate_Sod));
  PetscCall(PetscFunctionListAdd(&ProblemList, "advection", ProblemCreate_Advection));
  PetscCall(PetscFunctionListAdd(&ProblemList, "freestream", ProblemCreate_FreeStream));
  PetscCall(PetscFunctionListAdd(&ProblemList, "double_mach", ProblemCreate_DoubleMach));
  PetscCall(PetscFunctionListAdd(&ProblemList, "couette", ProblemCreate_Couette));
  PetscCall(PetscFunctionListAdd(&ProblemList, "cylinder", ProblemCreate_Cylinder));
  PetscCall(PetscFunctionListAdd(&ProblemList, "sphere", ProblemCreate_Sphere));
  PetscCall(PetscFunctionListAdd(&ProblemList, "naca0012", ProblemCreate_Naca0012));
  PetscCall(PetscFunctionListAdd(&ProblemList, "beltrami", ProblemCreate_Beltrami));
  PetscCall(PetscFunctionListAdd(&ProblemList, "flow", ProblemCreate_Flow));
  PetscCall(PetscFunctionListAdd(&ProblemList, "stokes", ProblemCreate_Stokes));
  PetscCall(PetscFunctionListAdd(&ProblemList, "kovasznay", ProblemCreate_Kovasznay));
  PetscCall(PetscFunctionListAdd(&ProblemList, "taylor_green", ProblemCreate_TaylorGreen));
  PetscCall(PetscFunctionListAdd(&ProblemList, "taylor_green_3d", ProblemCreate_TaylorGreen3D));
  PetscCall(PetscFunctionListAdd(&ProblemList, "taylor_green_compressible", ProblemCreate_TaylorGreenCompressible));
  PetscCall(PetscFunctionListAdd(&ProblemList, "beltrami_sem", ProblemCreate_BeltramiSEM));
  PetscCall(PetscFunctionListAdd(&ProblemList, "stokes_unsteady", ProblemCreate_StokesUnsteady));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemSetBoundaryGroups(Problem *problem, const char type[], const char groups[])
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  while (k < problem->nbc && strcmp(problem->bc[k].type, type)) k++;
  PetscCheck(k < PROBLEM_MAX_BC, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many boundary types");
  if (k == problem->nbc) problem->nbc++;
  PetscCall(PetscStrncpy(problem->bc[k].type, type, sizeof(problem->bc[k].type)));
  PetscCall(PetscStrncpy(problem->bc[k].groups, groups, sizeof(problem->bc[k].groups)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *ProblemGetBoundaryGroups(const Problem *problem, const char type[])
{
  for (PetscInt k = 0; k < problem->nbc; k++)
    if (!strcmp(problem->bc[k].type, type)) return problem->bc[k].groups;
  return "none";
}

PetscErrorCode ProblemFreeStreamState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const ProblemFreeStream *fs = (const ProblemFreeStream *)ctx;
  const PetscReal          a = fs->alpha * PETSC_PI / 180, v[3] = {fs->mach * PetscCosReal(a), fs->mach * PetscSinReal(a), 0};

  PetscFunctionBeginUser;
  u[0] = 1;
  for (PetscInt d = 0; d < dim; d++) u[1 + d] = v[d];
  u[dim + 1] = 1 / (fs->gamma * (fs->gamma - 1)) + 0.5 * fs->mach * fs->mach;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemFreeContext(void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}
