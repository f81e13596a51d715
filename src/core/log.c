/* hoflow log events: registered once, before any hoflow object is created. */
#include <hoflow/compat.h>
#include <hoflow/log.h>

PetscClassId  HOFLOW_CLASSID;
PetscLogEvent HOFLOW_MeshSetup, HOFLOW_DiscSetup, HOFLOW_IPDGGradient, HOFLOW_IPDGApply, HOFLOW_IPDGDiagonal, HOFLOW_IPDGAssemble, HOFLOW_DGProject, HOFLOW_DGError, HOFLOW_DGMass, HOFLOW_DGTransfer, HOFLOW_LORAssemble, HOFLOW_PMGSetUp, HOFLOW_GatherComm, HOFLOW_INSAdvection, HOFLOW_INSGradient, HOFLOW_INSDivergence, HOFLOW_INSFaceData, HOFLOW_ChebyshevUpdate, HOFLOW_MDGVolume, HOFLOW_MDGFace, HOFLOW_MDGLift, HOFLOW_MDGLimit, HOFLOW_MDGViscous, HOFLOW_SEMApply, HOFLOW_SEMDiagonal, HOFLOW_SEMDivergence;
PetscLogEvent HOFLOW_CG1Assemble, HOFLOW_CG1Transfer;
PetscLogEvent HOFLOW_DeviceInit, HOFLOW_MeshRead, HOFLOW_MeshDistribute, HOFLOW_MeshGeometry, HOFLOW_MeshFaces, HOFLOW_DGLayout, HOFLOW_DGTraceMaps, HOFLOW_EllipticOperator, HOFLOW_EllipticRHS, HOFLOW_Output, HOFLOW_TimeLoop;
PetscLogEvent HOFLOW_StepPre, HOFLOW_StepPost, HOFLOW_StepMonitor;
PetscLogEvent HOFLOW_PMGLevels, HOFLOW_EigEstimate;
PetscLogEvent HOFLOW_SEMConvection;
PetscLogEvent HOFLOW_FRVolume, HOFLOW_FRFace, HOFLOW_FRViscous;

PetscErrorCode HoflowLogRegister(void)
{
  static PetscBool registered = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (registered) PetscFunctionReturn(PETSC_SUCCESS);
  registered = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("hoflow", &HOFLOW_CLASSID));
  PetscCall(PetscLogEventRegister("MeshSetup", HOFLOW_CLASSID, &HOFLOW_MeshSetup));
  PetscCall(PetscLogEventRegister("DeviceInit", HOFLOW_CLASSID, &HOFLOW_DeviceInit));
  PetscCall(PetscLogEventRegister("MeshRead", HOFLOW_CLASSID, &HOFLOW_MeshRead));
  PetscCall(PetscLogEventRegister("MeshDistribute", HOFLOW_CLASSID, &HOFLOW_MeshDistribute));
  PetscCall(PetscLogEventRegister("MeshGeometry", HOFLOW_CLASSID, &HOFLOW_MeshGeometry));
  PetscCall(PetscLogEventRegister("MeshFaces", HOFLOW_CLASSID, &HOFLOW_MeshFaces));
  PetscCall(PetscLogEventRegister("DGSetup", HOFLOW_CLASSID, &HOFLOW_DiscSetup));
  PetscCall(PetscLogEventRegister("DGLayout", HOFLOW_CLASSID, &HOFLOW_DGLayout));
  PetscCall(PetscLogEventRegister("DGTraceMaps", HOFLOW_CLASSID, &HOFLOW_DGTraceMaps));
  PetscCall(PetscLogEventRegister("EllipticOperator", HOFLOW_CLASSID, &HOFLOW_EllipticOperator));
  PetscCall(PetscLogEventRegister("EllipticRHS", HOFLOW_CLASSID, &HOFLOW_EllipticRHS));
  PetscCall(PetscLogEventRegister("Output", HOFLOW_CLASSID, &HOFLOW_Output));
  PetscCall(PetscLogEventRegister("TimeLoop", HOFLOW_CLASSID, &HOFLOW_TimeLoop));
  PetscCall(PetscLogEventRegister("StepPre", HOFLOW_CLASSID, &HOFLOW_StepPre));
  PetscCall(PetscLogEventRegister("StepPost", HOFLOW_CLASSID, &HOFLOW_StepPost));
  PetscCall(PetscLogEventRegister("StepMonitor", HOFLOW_CLASSID, &HOFLOW_StepMonitor));
  PetscCall(PetscLogEventRegister("IPDGGradient", HOFLOW_CLASSID, &HOFLOW_IPDGGradient));
  PetscCall(PetscLogEventRegister("IPDGApply", HOFLOW_CLASSID, &HOFLOW_IPDGApply));
  PetscCall(PetscLogEventRegister("IPDGDiagonal", HOFLOW_CLASSID, &HOFLOW_IPDGDiagonal));
  PetscCall(PetscLogEventRegister("IPDGAssemble", HOFLOW_CLASSID, &HOFLOW_IPDGAssemble));
  PetscCall(PetscLogEventRegister("DGProject", HOFLOW_CLASSID, &HOFLOW_DGProject));
  PetscCall(PetscLogEventRegister("DGL2Error", HOFLOW_CLASSID, &HOFLOW_DGError));
  PetscCall(PetscLogEventRegister("DGMass", HOFLOW_CLASSID, &HOFLOW_DGMass));
  PetscCall(PetscLogEventRegister("DGTransfer", HOFLOW_CLASSID, &HOFLOW_DGTransfer));
  PetscCall(PetscLogEventRegister("LORAssemble", HOFLOW_CLASSID, &HOFLOW_LORAssemble));
  PetscCall(PetscLogEventRegister("PMGSetUp", HOFLOW_CLASSID, &HOFLOW_PMGSetUp));
  PetscCall(PetscLogEventRegister("PMGLevels", HOFLOW_CLASSID, &HOFLOW_PMGLevels));
  PetscCall(PetscLogEventRegister("EigEstimate", HOFLOW_CLASSID, &HOFLOW_EigEstimate));
  PetscCall(PetscLogEventRegister("CG1Assemble", HOFLOW_CLASSID, &HOFLOW_CG1Assemble));
  PetscCall(PetscLogEventRegister("CG1Transfer", HOFLOW_CLASSID, &HOFLOW_CG1Transfer));
  PetscCall(PetscLogEventRegister("GatherAllgather", HOFLOW_CLASSID, &HOFLOW_GatherComm));
  PetscCall(PetscLogEventRegister("INSAdvection", HOFLOW_CLASSID, &HOFLOW_INSAdvection));
  PetscCall(PetscLogEventRegister("INSGradient", HOFLOW_CLASSID, &HOFLOW_INSGradient));
  PetscCall(PetscLogEventRegister("INSDivergence", HOFLOW_CLASSID, &HOFLOW_INSDivergence));
  PetscCall(PetscLogEventRegister("INSFaceData", HOFLOW_CLASSID, &HOFLOW_INSFaceData));
  PetscCall(PetscLogEventRegister("ChebyJacobiUpd", HOFLOW_CLASSID, &HOFLOW_ChebyshevUpdate));
  PetscCall(PetscLogEventRegister("MDGVolume", HOFLOW_CLASSID, &HOFLOW_MDGVolume));
  PetscCall(PetscLogEventRegister("MDGFace", HOFLOW_CLASSID, &HOFLOW_MDGFace));
  PetscCall(PetscLogEventRegister("MDGLift", HOFLOW_CLASSID, &HOFLOW_MDGLift));
  PetscCall(PetscLogEventRegister("MDGViscous", HOFLOW_CLASSID, &HOFLOW_MDGViscous));
  PetscCall(PetscLogEventRegister("MDGLimit", HOFLOW_CLASSID, &HOFLOW_MDGLimit));
  PetscCall(PetscLogEventRegister("SEMApply", HOFLOW_CLASSID, &HOFLOW_SEMApply));
  PetscCall(PetscLogEventRegister("SEMDiagonal", HOFLOW_CLASSID, &HOFLOW_SEMDiagonal));
  PetscCall(PetscLogEventRegister("SEMDivergence", HOFLOW_CLASSID, &HOFLOW_SEMDivergence));
  PetscCall(PetscLogEventRegister("SEMConvection", HOFLOW_CLASSID, &HOFLOW_SEMConvection));
  PetscCall(PetscLogEventRegister("FRVolume", HOFLOW_CLASSID, &HOFLOW_FRVolume));
  PetscCall(PetscLogEventRegister("FRFace", HOFLOW_CLASSID, &HOFLOW_FRFace));
  PetscCall(PetscLogEventRegister("FRViscous", HOFLOW_CLASSID, &HOFLOW_FRViscous));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowLogStageGet(const char name[], PetscLogStage *stage)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogStageGetId(name, stage));
  if (*stage < 0) PetscCall(PetscLogStageRegister(name, stage));
  PetscFunctionReturn(PETSC_SUCCESS);
}
