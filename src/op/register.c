/* The discretizations hoflow builds, registered by name for -disc: each is its data (src/disc) plus
 * its operators (src/op). Adding one is its files and one line here. */
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/fr.h>
#include <hoflow/mdg.h>
#include <hoflow/sem.h>

PetscErrorCode DiscRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DiscList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DiscRegister("ipdg", DiscCreate_NodalDG));
  PetscCall(DiscRegister("fr", DiscCreate_FR));
  PetscCall(DiscRegister("mdg", DiscCreate_ModalDG));
  PetscCall(DiscRegister("sem", DiscCreate_SEM));
  PetscFunctionReturn(PETSC_SUCCESS);
}
