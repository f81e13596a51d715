/* hoflow problems: one file per case in src/problems, registered by name (-problem NAME). A problem
 * is a small description: which physics solves it, pointwise data (exact solution, initial state,
 * forcing, boundary data) as functions of position and time, parameters, default mesh and boundary
 * groups, and the monitors and derived fields it wants by name (the physics provides them). It
 * knows nothing of meshes, discretizations or kernels. */
#pragma once

#include <petscsys.h>
#include <hoflow/pointwise/closed_form.h>

/* Values of a state of nv components at x[dim] and time t, and, when grad is not NULL, their
 * gradients grad[v*dim + d]. */
typedef PetscErrorCode (*ProblemFunction)(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal values[], PetscReal grad[], void *ctx);

#define PROBLEM_MAX_BC 12

typedef struct {
  char            name[64];
  char            physics[64]; /* the physics that solves it: elliptic, heat, ins */
  ProblemFunction exact;       /* the exact solution (NULL: none) */
  ProblemFunction exact_dt;    /* its time derivative (NULL: none; DIRK Stokes integrates the Dirichlet data with it) */
  ProblemFunction initial;     /* the initial state (NULL: the exact solution at t = 0) */
  ProblemFunction forcing;     /* the right-hand side f (NULL: none) */
  ProblemFunction boundary;    /* boundary data where they are not the exact solution's trace (NULL: the exact
                                  solution), e.g. data given on a curved boundary that a straight-sided mesh misses, or the
                                  states of compressible inflow and far-field boundaries */
  /* closed forms of exact and forcing that kernels evaluate on the host and the device (kind NONE: none;
   * hoflow/pointwise/closed_form.h); where given, the same functions as exact and forcing */
  HoflowClosedForm exact_closed_form, forcing_closed_form;
  void            *ctx; /* passed to the functions */
  PetscErrorCode (*ctx_destroy)(void *ctx);
  /* parameters */
  PetscReal lambda;                       /* screening constant of -Laplace u + lambda u = f */
  PetscReal nu;                           /* diffusivity or kinematic viscosity */
  PetscReal velocity_scale;               /* a reference speed (divergence detection, force coefficients) */
  PetscReal length_scale;                 /* a reference length (force coefficients; in 3D an area) */
  PetscReal flow_direction[3];            /* the free stream's unit direction: drag along it, lift along it turned by
                                             +90 degrees about z (zero: x, lift y) */
  PetscReal gamma;                        /* ratio of specific heats of compressible flow (0: 1.4) */
  PetscReal mu, prandtl;                  /* compressible Navier–Stokes: dynamic viscosity and Prandtl number (0: from options) */
  PetscBool boundary_time_dependent;      /* compressible flow: the boundary data (boundary, else exact) change in time */
  PetscReal default_dt, default_max_time; /* the problem's -ts_dt and -ts_max_time when the user gives none (0: the driver's) */
  PetscInt  dim;                          /* the dimension the problem is written for (0: any) */
  /* incompressible flow: the spatial part of the boundary data at a boundary point x with outward normal n,
   * 2 dim + 1 values (u_D[dim], du/dn[dim], p_D) (hoflow/insops.h; in 2D (u_D, v_D, du/dn, dv/dn, p_D)),
   * and its time factor (field 0 velocity, 1 pressure; NULL: 1) */
  PetscErrorCode (*ins_boundary)(const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx);
  PetscReal (*ins_time_factor)(PetscReal t, PetscInt field, void *ctx);
  /* or boundary data that differ by boundary group and may depend on time in any way: the values at
   * time t of a point of group `group` (an index into the comma-separated ins_groups), evaluated on
   * the boundary faces once, or whenever t changes when ins_boundary_time is set (then no time factor) */
  PetscErrorCode (*ins_boundary_group)(PetscInt dim, PetscInt group, PetscReal t, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx);
  char      ins_groups[512];
  PetscBool ins_boundary_time;
  PetscBool forcing_time; /* the forcing depends on time (otherwise it is projected once) */
  /* called with the mesh's boundary groups (comma-separated) before its boundary types are set (NULL: none) */
  PetscErrorCode (*mesh_groups)(void *ctx, const char groups[]);
  /* defaults */
  char     mesh_options[PETSC_MAX_PATH_LEN]; /* default mesh options, used where the user gives none */
  PetscInt nbc;                              /* default boundary groups per boundary type of the physics */
  struct {
    char type[32], groups[128];
  } bc[PROBLEM_MAX_BC];
  char monitors[1024];  /* comma-separated monitors of the physics, written to monitors.csv every step */
  char derived[128];    /* comma-separated derived fields of the physics, written with the state */
  char force_group[64]; /* the boundary group whose force the drag and lift monitors measure */
  /* "key value" pairs for the summary line from the monitors' records (NULL: none): nrec times t[],
   * values[m][k] of monitor names[m] */
  PetscErrorCode (*summary)(void *ctx, PetscInt nrec, const PetscReal t[], PetscInt nmon, const char *const names[], PetscReal *const values[], char summary[], size_t len);
} Problem;

/* The uniform free stream of external compressible flows, in units rho = 1, p = 1/gamma (speed of sound
 * 1): Mach number mach along (cos alpha, sin alpha, 0), alpha in degrees. */
typedef struct {
  PetscReal gamma, mach, alpha;
} ProblemFreeStream;
/* Its conservative state at any point (a ProblemFunction; ctx: a ProblemFreeStream, or a struct that starts
 * with one). */
PETSC_EXTERN PetscErrorCode ProblemFreeStreamState(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx);
/* A problem context that is one PetscMalloc'd block: its ctx_destroy. */
PETSC_EXTERN PetscErrorCode ProblemFreeContext(void *ctx);
/* Record the default groups of a boundary type. */
PETSC_EXTERN PetscErrorCode ProblemSetBoundaryGroups(Problem *problem, const char type[], const char groups[]);
/* The default groups of a boundary type ("none" when the problem gives none). */
PETSC_EXTERN const char *ProblemGetBoundaryGroups(const Problem *problem, const char type[]);

typedef PetscErrorCode (*ProblemCreateFunction)(Problem *problem);

PETSC_EXTERN PetscFunctionList ProblemList;
PETSC_EXTERN PetscErrorCode    ProblemRegisterAll(void);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Poisson(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Helmholtz(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_PoissonPeriodic(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Annulus(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Linear(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Heat(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_TaylorVortex(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_SquareCylinder(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_IsentropicVortex(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_SupersonicVortex(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Sod(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Advection(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_FreeStream(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_DoubleMach(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Couette(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Cylinder(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Sphere(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Naca0012(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Beltrami(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Flow(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Stokes(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_Kovasznay(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_TaylorGreen(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_TaylorGreen3D(Problem *problem);
PETSC_EXTERN PetscErrorCode    ProblemCreate_TaylorGreenCompressible(Problem *problem);
/* The Taylor–Green vortex's summary (a Problem summary): the peaks of 2 nu eps (monitor enstrophy_dissipation) and of
 * -dE/dt by central differences of the mean kinetic energy (monitor energy, else kinetic_energy) */
PETSC_EXTERN PetscErrorCode ProblemTaylorGreenSummary(void *ctx, PetscInt nrec, const PetscReal t[], PetscInt nmon, const char *const names[], PetscReal *const values[], char summary[], size_t len);
PETSC_EXTERN PetscErrorCode ProblemCreate_BeltramiSEM(Problem *problem);
PETSC_EXTERN PetscErrorCode ProblemCreate_StokesUnsteady(Problem *problem);
