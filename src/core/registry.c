/* Looking up a name in a PETSc function list with an error that lists what is registered. */
#include <hoflow/compat.h>
#include <hoflow/registry.h>

PetscErrorCode HoflowRegistryFind(MPI_Comm comm, PetscFunctionList list, const char option[], const char name[], void (**fn)(void))
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListFind(list, name, fn));
  if (!*fn) {
    const char **names;
    int          n;
    char         known[512] = "";
    PetscCall(PetscFunctionListGet(list, &names, &n));
    for (int k = 0; k < n; k++) {
      if (k) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
      PetscCall(PetscStrlcat(known, names[k], sizeof(known)));
    }
    PetscCall(PetscFree(names));
    SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown %s '%s'; known: %s", option, name, known);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
