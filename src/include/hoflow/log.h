/* hoflow log events, declared in one place and registered by HoflowLogRegister (core/log.c).
 * Each operator event logs its flops, so -log_view shows achieved rates per kernel. */
#pragma once

#include <petsclog.h>

PETSC_EXTERN PetscClassId  HOFLOW_CLASSID;
PETSC_EXTERN PetscLogEvent HOFLOW_MeshSetup, HOFLOW_DiscSetup, HOFLOW_IPDGGradient, HOFLOW_IPDGApply, HOFLOW_IPDGDiagonal, HOFLOW_IPDGAssemble, HOFLOW_DGProject, HOFLOW_DGError, HOFLOW_DGMass;

PETSC_EXTERN PetscErrorCode HoflowLogRegister(void);
