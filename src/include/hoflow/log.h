/* hoflow log events, declared in one place and registered by HoflowLogRegister (core/log.c).
 * Each operator event logs its flops, so -log_view shows achieved rates per kernel. */
#pragma once

#include <petsclog.h>

PETSC_EXTERN PetscClassId  HOFLOW_CLASSID;
PETSC_EXTERN PetscLogEvent HOFLOW_MeshSetup, HOFLOW_DiscSetup, HOFLOW_IPDGGradient, HOFLOW_IPDGApply, HOFLOW_IPDGDiagonal, HOFLOW_IPDGAssemble, HOFLOW_DGProject, HOFLOW_DGError, HOFLOW_DGMass, HOFLOW_DGTransfer, HOFLOW_LORAssemble, HOFLOW_PMGSetUp, HOFLOW_GatherComm, HOFLOW_INSAdvection, HOFLOW_INSGradient, HOFLOW_INSDivergence, HOFLOW_INSFaceData, HOFLOW_ChebyshevUpdate, HOFLOW_MDGVolume, HOFLOW_MDGFace, HOFLOW_MDGLift, HOFLOW_MDGLimit, HOFLOW_MDGViscous, HOFLOW_SEMApply, HOFLOW_SEMDiagonal, HOFLOW_SEMDivergence;
PETSC_EXTERN PetscLogEvent HOFLOW_SEMConvection;                             /* incompressible flow on -disc sem (op/sem_flow.c) */
PETSC_EXTERN PetscLogEvent HOFLOW_FRVolume, HOFLOW_FRFace, HOFLOW_FRViscous; /* flux reconstruction's right-hand side (disc/fr.c, disc/fr_dense.c; FRViscous: V1..V3 of the viscous terms) */
/* the continuous order-1 coarse space of pMG (op/cg1.c) */
PETSC_EXTERN PetscLogEvent HOFLOW_CG1Assemble;
/* its transfer through the gathered coarse vector (op/cg1_transfer.c; the exchange inside: GatherAllgather) */
PETSC_EXTERN PetscLogEvent HOFLOW_CG1Transfer;
/* The whole run's budget (-log_view, issue 13): start-up (the GPU's initialization), the mesh's pieces
 * inside MeshSetup (reading and serial refinement, distribution, hoflow's geometry and faces), the DG
 * layout inside DGSetup, and the elliptic physics' phases (operator, right-hand side, output); PCSetUp,
 * KSPSolve and DGL2Error are PETSc's and hoflow's events already. */
PETSC_EXTERN PetscLogEvent HOFLOW_DeviceInit, HOFLOW_MeshRead, HOFLOW_MeshDistribute, HOFLOW_MeshGeometry, HOFLOW_MeshFaces, HOFLOW_DGLayout, HOFLOW_DGTraceMaps, HOFLOW_EllipticOperator, HOFLOW_EllipticRHS, HOFLOW_Output, HOFLOW_TimeLoop;
/* inside PMGSetUp: the p-levels (their discretizations, operators, transfers) and the lambda_max estimates */
PETSC_EXTERN PetscLogEvent HOFLOW_PMGLevels, HOFLOW_EigEstimate;
/* the time loop's work between steps (outside TSStep): the physics' pre- and post-step (explicit steps: the CFL step's
 * wave speeds, local steps, the state's check) and hoflow's monitor (monitors, output, checkpoints, progress) */
PETSC_EXTERN PetscLogEvent HOFLOW_StepPre, HOFLOW_StepPost, HOFLOW_StepMonitor;

PETSC_EXTERN PetscErrorCode HoflowLogRegister(void);
/* The log stage of this name, registered on first use (stages split -log_view by phase). */
PETSC_EXTERN PetscErrorCode HoflowLogStageGet(const char name[], PetscLogStage *stage);
/* Memory in use by this process: live heap bytes on the host (every library's mallocs) and, in
 * CUDA builds, device memory in use; differences give what a setup step holds (core/memory.c). */
PETSC_EXTERN PetscErrorCode HoflowMemoryInUse(PetscLogDouble *host, PetscLogDouble *device);
