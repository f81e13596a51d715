/* The preconditioning matrix of a SIPDG solve, chosen with -[prefix]pmat:
 *   shell      the matrix-free operator itself (Jacobi, Chebyshev, inverse_mass, pmg)
 *   assembled  the assembled SIPDG matrix (full AMG: -pc_type hypre or gamg on it)
 *   lor        the low-order-refined matrix (LOR-AMG: -pc_type hypre or gamg on it)
 * so every solver stack is a KSP with PETSc's own PC on the right matrix. An operator provides the
 * matrices it has by composing "HoflowOperatorAssemble_C" and "HoflowOperatorAssembleLOR_C",
 * PetscErrorCode (*)(Mat A, Mat *P) (SIPDG: op/ipdg.c, both; continuous spectral elements: op/sem.c,
 * LOR), and its DM (MatSetDM), whose vector type says whether AMG runs on the device. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/solver.h>

const char *const HoflowPmatTypes[] = {"shell", "assembled", "lor", "HoflowPmatType", "HOFLOW_PMAT_", NULL};

PetscErrorCode HoflowKSPSetOperators(KSP ksp, Mat A)
{
  HoflowPmatType type                         = HOFLOW_PMAT_SHELL;
  PetscErrorCode (*assemble)(Mat, Mat *)      = NULL;
  const char *const functions[HOFLOW_PMAT_LOR + 1] = {NULL, "HoflowOperatorAssemble_C", "HoflowOperatorAssembleLOR_C"};
  const char       *prefix, *name;
  Mat               P = NULL;
  DM                dm;

  PetscFunctionBeginUser;
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
  PetscOptionsBegin(PetscObjectComm((PetscObject)ksp), prefix, "hoflow preconditioning matrix", NULL);
  PetscCall(PetscOptionsEnum("-pmat", "Preconditioning matrix: matrix-free operator, assembled SIPDG matrix, or low-order-refined matrix", NULL, HoflowPmatTypes, (PetscEnum)type, (PetscEnum *)&type, NULL));
  PetscOptionsEnd();
  if (type == HOFLOW_PMAT_SHELL) {
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectQueryFunction((PetscObject)A, functions[type], &assemble));
  PetscCall(PetscObjectGetName((PetscObject)A, &name));
  PetscCheck(assemble, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "-%spmat %s: the %s operator has no %s matrix; use %s-pmat shell (Jacobi)", prefix ? prefix : "", HoflowPmatTypes[type], name,
             type == HOFLOW_PMAT_LOR ? "low-order-refined" : "assembled high-order", type == HOFLOW_PMAT_ASSEMBLED ? "-pmat lor (LOR-AMG) or " : "");
  PetscCall(assemble(A, &P));
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(MatDestroy(&P));
  { /* BoomerAMG on P: hoflow's defaults (solver/hypre.c), read again if the PC took its options already */
    PC        pc;
    PetscBool device = PETSC_FALSE, boomer;
    PetscCall(MatGetDM(A, &dm));
    if (dm) PetscCall(HoflowDMIsCUDA(dm, &device));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(HoflowHypreSetDefaults(pc, 0.0, device, &boomer));
    if (boomer) PetscCall(PCSetFromOptions(pc));
    PetscCall(HoflowHypreSetDeviceMPI(pc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
