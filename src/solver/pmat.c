/* The preconditioning matrix of a SIPDG solve, chosen with -[prefix]pmat:
 *   shell      the matrix-free operator itself (Jacobi, Chebyshev, inverse_mass, pmg)
 *   assembled  the assembled SIPDG matrix (full AMG: -pc_type hypre or gamg on it)
 *   lor        the low-order-refined matrix (LOR-AMG: -pc_type hypre or gamg on it)
 * so every solver stack is a KSP with PETSc's own PC on the right matrix. An operator of another
 * discretization brings its own low-order-refined matrix: it composes "HoflowOperatorAssembleLOR_C",
 * PetscErrorCode (*)(Mat A, Mat *P) (continuous spectral elements: op/sem.c). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/dg.h>
#include <hoflow/solver.h>

const char *const HoflowPmatTypes[] = {"shell", "assembled", "lor", "HoflowPmatType", "HOFLOW_PMAT_", NULL};

PetscErrorCode HoflowKSPSetOperators(KSP ksp, Mat A)
{
  HoflowPmatType type                        = HOFLOW_PMAT_SHELL;
  PetscErrorCode (*assemble_lor)(Mat, Mat *) = NULL;
  const char *prefix;
  Mat         P = NULL;

  PetscFunctionBeginUser;
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
  PetscOptionsBegin(PetscObjectComm((PetscObject)ksp), prefix, "hoflow preconditioning matrix", NULL);
  PetscCall(PetscOptionsEnum("-pmat", "Preconditioning matrix: matrix-free operator, assembled SIPDG matrix, or low-order-refined matrix", NULL, HoflowPmatTypes, (PetscEnum)type, (PetscEnum *)&type, NULL));
  PetscOptionsEnd();
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "HoflowOperatorAssembleLOR_C", &assemble_lor));
  if (type == HOFLOW_PMAT_SHELL) {
    PetscCall(KSPSetOperators(ksp, A, A));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (assemble_lor) {
    const char *name;
    PetscCall(PetscObjectGetName((PetscObject)A, &name));
    PetscCheck(type == HOFLOW_PMAT_LOR, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "-pmat %s: the %s operator has no assembled high-order matrix; use -pmat lor (LOR-AMG) or -pmat shell (Jacobi)", HoflowPmatTypes[type], name);
    PetscCall(assemble_lor(A, &P));
  } else
    switch (type) {
    case HOFLOW_PMAT_SHELL:
      break;
    case HOFLOW_PMAT_ASSEMBLED:
      PetscCall(IPDGOperatorAssemble(A, &P));
      break;
    case HOFLOW_PMAT_LOR:
      PetscCall(LOROperatorAssemble(A, &P));
      break;
    }
  PetscCall(KSPSetOperators(ksp, A, P));
  PetscCall(MatDestroy(&P));
  { /* BoomerAMG on P: hoflow's defaults (solver/hypre.c), read again if the PC took its options already */
    DGDisc   *dg;
    PC        pc;
    PetscBool device = PETSC_FALSE, boomer;
    if (!assemble_lor) {
      PetscCall(IPDGOperatorGetDisc(A, &dg));
      PetscCall(HoflowDMIsCUDA(dg->dm, &device));
    } else { /* another discretization's operator: its DM, when it has one */
      DM dm;
      PetscCall(MatGetDM(A, &dm));
      if (dm) PetscCall(HoflowDMIsCUDA(dm, &device));
    }
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(HoflowHypreSetDefaults(pc, 0.0, device, &boomer));
    if (boomer) PetscCall(PCSetFromOptions(pc));
    PetscCall(HoflowHypreSetDeviceMPI(pc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
