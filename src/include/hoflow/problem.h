/* hoflow problems: one file per case in src/problems, registered by name (-problem NAME). */
#pragma once

#include <hoflow/disc.h>

typedef struct {
  char          name[64];
  PetscReal     lambda;  /* screening constant (0: Poisson) */
  PointFunction exact;   /* exact solution and gradient */
  PointFunction forcing; /* right-hand side f of -Laplace u + lambda u = f */
  void         *ctx;
  char          mesh_options[PETSC_MAX_PATH_LEN]; /* default mesh options, used where the user gives none */
  char          dirichlet[256], neumann[256];     /* default boundary groups, comma-separated ("none": empty) */
} Problem;

typedef PetscErrorCode (*ProblemCreateFunction)(Problem *problem);

PETSC_EXTERN PetscFunctionList ProblemList;
PETSC_EXTERN PetscErrorCode    ProblemRegisterAll(void);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Poisson(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Helmholtz(Problem *problem);
