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
  /* time-dependent problems */
  char      physics[64]; /* unsteady physics run by the time-dependent driver ("heat"); empty: the steady elliptic solve */
  PetscReal nu;          /* diffusivity */
  PetscReal time;        /* the time at which exact, forcing and boundary data are evaluated (set by the driver) */
  PetscInt  nmonitors;   /* scalar monitors written to CSV every step */
  struct {
    char name[32];
    PetscErrorCode (*evaluate)(DGDisc *disc, Vec u, PetscReal time, PetscReal *value, void *ctx);
  } monitors[8];
  PetscInt nderived; /* derived point fields written with the solution (-output_interval) */
  struct {
    char name[32];
    PetscErrorCode (*evaluate)(DGDisc *disc, Vec u, PetscReal time, Vec field, void *ctx);
  } derived[4];
} Problem;

typedef PetscErrorCode (*ProblemCreateFunction)(Problem *problem);

PETSC_EXTERN PetscFunctionList ProblemList;
PETSC_EXTERN PetscErrorCode    ProblemRegisterAll(void);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Poisson(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Helmholtz(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Heat(Problem *problem);
