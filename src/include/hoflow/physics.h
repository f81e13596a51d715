/* hoflow physics: what solves a problem. A run (App) is a problem, a mesh with the boundary types of
 * the problem's physics, and a discretization chosen with -disc; the physics registered under the
 * problem's physics name (PhysicsList, physics/register.c) takes it from there: the steady elliptic
 * solve (physics/elliptic.c) or a time-dependent physics run by the TS driver (physics/unsteady.c,
 * hoflow/unsteady.h). Adding a physics is one file and one line in PhysicsRegisterAll. */
#pragma once

#include <petscksp.h>
#include <hoflow/disc.h>
#include <hoflow/problem.h>

typedef struct App App;

/* What the registry knows of a physics: its boundary types (the options -bc_<name>) and how it runs. */
#define PHYSICS_MAX_BC 12
typedef struct {
  PetscInt         nbc;
  MeshBoundaryType bc[PHYSICS_MAX_BC]; /* groups: filled from the problem's defaults */
  PetscErrorCode (*run)(App *app);     /* solve and print the summary line */
  PetscInt (*num_components)(PetscInt dim); /* components of the state in dim dimensions (NULL: 1) */
  const char *disc;                         /* the only discretization it runs on, its default (NULL: any, default -disc ipdg) */
} PhysicsInfo;
typedef PetscErrorCode (*PhysicsInfoFunction)(PhysicsInfo *info);

struct App {
  MPI_Comm    comm;
  char        problem_name[64], disc_name[64];
  PetscInt    order;
  Problem     problem;
  PhysicsInfo physics;
  Mesh       *mesh;
  Disc        disc;
};

PETSC_EXTERN PetscFunctionList PhysicsList;
PETSC_EXTERN PetscErrorCode    PhysicsRegisterAll(void);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_Elliptic(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_Heat(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_INS(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_Euler(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_NavierStokes(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_Advection(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_Stokes(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_SEMNS(PhysicsInfo *info);
PETSC_EXTERN PetscErrorCode    PhysicsInfo_StokesDIRK(PhysicsInfo *info);

/* The run from the options database: -problem, -disc, -order, the mesh options and -bc_<type>. */
PETSC_EXTERN PetscErrorCode AppCreate(MPI_Comm comm, App **app);
/* Solve with the problem's physics and print the summary line. */
PETSC_EXTERN PetscErrorCode AppRun(App *app);
PETSC_EXTERN PetscErrorCode AppDestroy(App **app);

/* Component `comp` of a problem function at time `time` as a PointFunction (hoflow/disc.h), for
 * projections, errors and boundary data: ctx is a ProblemPoint. */
typedef struct {
  const Problem  *problem;
  ProblemFunction f;
  PetscInt        dim, nv, comp;
  PetscReal       time;
} ProblemPoint;
PETSC_EXTERN PetscErrorCode ProblemPointFunction(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx);
/* All nv components of a problem function (its exact or initial state) at time t, as the state function of
 * ConsLawProject and the conservation-law errors: ctx is a ProblemState. */
typedef struct {
  const Problem  *problem;
  ProblemFunction f;
  PetscReal       t;
  PetscInt        nv;
} ProblemState;
PETSC_EXTERN PetscErrorCode ProblemStateFunction(PetscInt dim, const PetscReal x[], PetscReal u[], void *ctx);
/* Zero, as a PointFunction (L2 norms through L2 errors). */
PETSC_EXTERN PetscErrorCode ZeroPointFunction(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx);
