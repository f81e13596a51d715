/* hoflow problems: one file per case in src/problems, registered by name (-problem NAME). */
#pragma once

#include <hoflow/op.h>

typedef struct {
  char          name[64];
  PetscReal     lambda;  /* screening constant (0: Poisson) */
  PointFunction exact;   /* exact solution and gradient */
  PointFunction forcing; /* right-hand side f of -Laplace u + lambda u = f */
  void         *ctx;
  PetscErrorCode (*ctx_destroy)(void *ctx); /* frees ctx when it is not the Problem itself (NULL: nothing to free) */
  char mesh_options[PETSC_MAX_PATH_LEN];    /* default mesh options, used where the user gives none */
  char dirichlet[256], neumann[256];        /* default boundary groups, comma-separated ("none": empty) */
  /* time-dependent problems */
  char      physics[64];                  /* unsteady physics run by the time-dependent driver ("heat"); empty: the steady elliptic solve */
  PetscReal nu;                           /* diffusivity */
  PetscReal time;                         /* the time at which exact, forcing and boundary data are evaluated (set by the driver) */
  PetscReal default_dt, default_max_time; /* the problem's -ts_dt and -ts_max_time when the user gives none (0: the driver's) */
  PetscInt  nmonitors;                    /* scalar monitors written to CSV every step */
  struct {
    char name[32];
    PetscErrorCode (*evaluate)(DGDisc *disc, const Vec fields[], PetscReal time, PetscReal *value, void *ctx); /* fields: the state's (u; or u, v, p) */
  } monitors[8];
  PetscInt nderived; /* derived point fields written with the solution (-output_interval) */
  struct {
    char name[32];
    PetscErrorCode (*evaluate)(DGDisc *disc, const Vec fields[], PetscReal time, Vec field, void *ctx);
  } derived[4];
  /* incompressible flow (physics "ins"): velocity (u, v) and pressure p */
  INSBoundaryFunction ins_boundary;                                                           /* spatial part of the boundary data (op.h) */
  PetscReal (*ins_time_factor)(PetscReal t, PetscInt field, void *ctx);                       /* its time factor: field 0 velocity, 1 pressure; NULL: 1 */
  PetscErrorCode (*ins_state)(const PetscReal x[], PetscReal t, PetscReal uvp[3], void *ctx); /* initial state (exact solution if ins_exact) */
  PetscBool ins_exact;                                                                        /* ins_state is the exact solution at every t: errors are reported */
  PetscReal velocity_scale;                                                                   /* reference speed (divergence detection) */
  PetscErrorCode (*ins_summary)(void *ctx, char summary[], size_t len);                       /* "key value" pairs for the summary line (e.g. the Strouhal number) */
} Problem;

typedef PetscErrorCode (*ProblemCreateFunction)(Problem *problem);

PETSC_EXTERN PetscFunctionList ProblemList;
PETSC_EXTERN PetscErrorCode    ProblemRegisterAll(void);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Poisson(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Helmholtz(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Heat(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_TaylorVortex(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_SquareCylinder(Problem *problem);
