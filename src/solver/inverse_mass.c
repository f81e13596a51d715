/* The block (element) inverse-mass preconditioner of seed 000 §3, registered as a PETSc PC type:
 * -pc_type inverse_mass. For the screened Poisson operator -Laplace + lambda with lambda = 1/(nu dt)
 * large, A is dominated by lambda M and M^{-1} is an excellent, matrix-free preconditioner; it runs
 * on the backend of the vectors (CUDA kernels for CUDA vectors). */
#include <petsc/private/pcimpl.h>
#include <hoflow/compat.h>
#include <hoflow/dg.h>
#include <hoflow/solver.h>

typedef struct {
  Mat Minv;
} PC_InverseMass;

static PetscErrorCode PCSetUp_InverseMass(PC pc)
{
  PC_InverseMass *im = (PC_InverseMass *)pc->data;
  DGDisc         *disc;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetDisc(pc->pmat, &disc));
  PetscCall(MatDestroy(&im->Minv));
  PetscCall(DGMassOperatorCreate(disc, PETSC_TRUE, &im->Minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_InverseMass(PC pc, Vec x, Vec y)
{
  PC_InverseMass *im = (PC_InverseMass *)pc->data;

  PetscFunctionBeginUser;
  PetscCall(MatMult(im->Minv, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_InverseMass(PC pc)
{
  PC_InverseMass *im = (PC_InverseMass *)pc->data;

  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&im->Minv));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_InverseMass(PC pc, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (ascii) PetscCall(PetscViewerASCIIPrintf(viewer, "  hoflow element-wise inverse DG mass matrix (matrix-free)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCCreate_InverseMass(PC pc)
{
  PC_InverseMass *im;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&im));
  pc->data         = im;
  pc->ops->setup   = PCSetUp_InverseMass;
  pc->ops->apply   = PCApply_InverseMass;
  pc->ops->destroy = PCDestroy_InverseMass;
  pc->ops->view    = PCView_InverseMass;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowSolverRegisterAll(void)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(PCRegister("inverse_mass", PCCreate_InverseMass));
  PetscCall(PCRegister("pmg", PCCreate_PMG));
  PetscCall(PCRegister(PCGATHER, PCCreate_Gather));
  PetscCall(KSPRegister(KSPCHEBYJACOBI, KSPCreate_ChebyJacobi));
  PetscCall(KSPGuessRegister(KSPGUESSPROJECTION, KSPGuessCreate_Projection));
  PetscFunctionReturn(PETSC_SUCCESS);
}
