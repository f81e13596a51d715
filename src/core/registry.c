/* hoflow registries: problems by name (filled by src/problems/register.c). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

PetscFunctionList ProblemList = NULL;
