/* Every hoflow problem is registered here by name; adding a problem is one file and one line. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

PetscErrorCode ProblemRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (ProblemList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListAdd(&ProblemList, "poisson", ProblemCreate_Poisson));
  PetscCall(PetscFunctionListAdd(&ProblemList, "helmholtz", ProblemCreate_Helmholtz));
  PetscCall(PetscFunctionListAdd(&ProblemList, "heat", ProblemCreate_Heat));
  PetscCall(PetscFunctionListAdd(&ProblemList, "taylor_vortex", ProblemCreate_TaylorVortex));
  PetscCall(PetscFunctionListAdd(&ProblemList, "square_cylinder", ProblemCreate_SquareCylinder));
  PetscFunctionReturn(PETSC_SUCCESS);
}
