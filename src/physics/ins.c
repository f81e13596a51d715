/* Incompressible Navier–Stokes on nodal DG (seed 000): the physics "ins" of the time-dependent
 * driver, in 2D and 3D. The state is the VecNest (u, v, p) or (u, v, w, p) of DG fields; -ts_type insplit (src/ts/insplit.c)
 * advances it by BDF/EXT algebraic splitting with optional subcycling, composing the operators
 * built here:
 *   advection, gradient G, divergence D   INSOps (op/ins.c), boundary data of the problem
 *   velocity solves (-L + lambda)         SIPDG with the velocity's boundary types, KSP prefix vel_
 *   pressure increment (-L)               SIPDG with the complementary types, KSP prefix pres_
 * Boundary groups: -bc_dirichlet lists the velocity-Dirichlet groups (inflow, walls), where the
 * pressure increment is Neumann; -bc_neumann the outflow groups (nu du/dn given, pressure given).
 * Solvers are PETSc options: by default CG with the inverse mass matrix for the velocity and CG
 * with p-multigrid + AMG for the pressure (-vel_pc_type, -pres_pc_type, -pres_pmat, ...). */
#include <hoflow/compat.h>
#include <hoflow/insops.h>
#include <hoflow/log.h>
#include <hoflow/solver.h>
#include <hoflow/ts.h>
#include <hoflow/unsteady.h>

typedef struct {
  App         *app;
  Unsteady    *un;
  Problem     *problem;
  DGDisc      *dg;
  INSOps       ops;
  PetscInt     dim;         /* velocity components */
  PetscBool   *force_faces; /* the force monitors' group (problem->force_group) */
  PetscInt    *pres_face_type;
  Mat          Avel, Apres, M;
  PetscReal    vel_lambda;
  KSP          kvel, kpres;
  Vec          face;
  MatNullSpace pres_null;
  Vec          sub[4];
  PetscBool    exact_history;
  PetscBool    pres_ready;
  /* "INS setup": operator and preconditioner setup (p-multigrid levels, eigenvalue bounds, AMG),
   * at the first step and when the screening constant changes (start-up orders, a new dt), kept
   * out of the step's stages so that these time the solves alone */
  PetscLogStage stage_setup;
} INS;

static PetscReal INSTimeFactor(INS *ins, PetscReal t, PetscInt field)
{
  return ins->problem->ins_time_factor ? ins->problem->ins_time_factor(t, field, ins->problem->ctx) : 1.0;
}

static PetscErrorCode INSAdvection(void *ctx, PetscReal t, const Vec a[], const Vec c[], PetscReal lambda_scale, const Vec out[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSOpsAdvection(ins->ops, a, c, lambda_scale, INSTimeFactor(ins, t, 0), out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSGradient(void *ctx, PetscReal t, Vec p, Vec pstar, const Vec g[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  /* On outflow faces the predictor's G P* takes P*'s own trace (no jump: the extrapolated pressure
   * alone, smooth in time), the increment phi the data p_D(t) - P*, so that G P* + G phi = G P^{n+1}
   * with the data p_D(t). Lifting p_D(t) - P* = O(dt) into the predictor instead makes a boundary
   * term that the splitting does not remove: on the Taylor vortex the velocity error is then 30
   * times larger (still second order), and first order if the increment's data are also p_D - P*. */
  if (pstar)
    PetscCall(INSOpsGradient(ins->ops, p, pstar, -1.0, INSTimeFactor(ins, t, 1), g));
  else
    PetscCall(INSOpsGradient(ins->ops, p, p, 1.0, 0.0, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSDivergence(void *ctx, PetscReal t, const Vec u[], Vec div)
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSOpsDivergence(ins->ops, u, INSTimeFactor(ins, t, 0), div));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSMass(void *ctx, Vec x, Vec Mx)
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(ins->M, x, Mx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stop with a message naming the solve when a Krylov solve fails. */
static PetscErrorCode INSCheckSolve(KSP ksp, const char *what, PetscReal t, PetscInt *its)
{
  KSPConvergedReason reason;
  PetscReal          rnorm;
  const char        *prefix;

  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(KSPGetOptionsPrefix(ksp, &prefix));
  PetscCheck(reason > 0, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "The %s solve at t = %g did not converge: KSP reason %s after %" PetscInt_FMT " iterations (residual norm %g). Raise -%sksp_max_it, loosen -%sksp_rtol, choose a stronger -%spc_type, or reduce -ts_dt", what, (double)t, KSPConvergedReasons[reason], *its, (double)rnorm, prefix, prefix, prefix);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSVelocitySolve(void *ctx, PetscReal t, PetscReal lambda, PetscInt comp, Vec b, Vec x, PetscInt *its)
{
  INS            *ins = (INS *)ctx;
  const PetscInt *face_type;

  PetscFunctionBeginUser;
  if (lambda != ins->vel_lambda || !ins->Avel) { /* a new screening constant (start-up orders, a new dt): a new operator */
    PetscCall(PetscLogStagePush(ins->stage_setup));
    PetscCall(MatDestroy(&ins->Avel));
    PetscCall(INSOpsGetFaceTypes(ins->ops, &face_type));
    PetscCall(IPDGOperatorCreate(ins->dg, lambda, face_type, &ins->Avel));
    PetscCall(PetscObjectSetName((PetscObject)ins->Avel, "SIPDG velocity"));
    PetscCall(HoflowKSPSetOperators(ins->kvel, ins->Avel));
    PetscCall(KSPSetUp(ins->kvel));
    PetscCall(PetscLogStagePop());
    ins->vel_lambda = lambda;
  }
  PetscCall(INSOpsFaceData(ins->ops, -1, comp, INSTimeFactor(ins, t, 0), 0.0, NULL, ins->face));
  PetscCall(IPDGOperatorAddBoundaryDataVec(ins->Avel, ins->face, b));
  PetscCall(KSPSolve(ins->kvel, b, x));
  {
    static const char *const what[3] = {"velocity (u)", "velocity (v)", "velocity (w)"};
    PetscCall(INSCheckSolve(ins->kvel, what[comp], t, its));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSPressureSolve(void *ctx, PetscReal t, Vec pstar, Vec b, Vec phi, PetscInt *its)
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  /* the increment's Dirichlet data on outflow faces: p_D(t) - P*; homogeneous Neumann elsewhere */
  PetscCall(INSOpsFaceData(ins->ops, HOFLOW_FACE_NEUMANN, ins->dim, INSTimeFactor(ins, t, 1), -1.0, pstar, ins->face));
  PetscCall(IPDGOperatorAddBoundaryDataVec(ins->Apres, ins->face, b));
  if (ins->pres_null) PetscCall(MatNullSpaceRemove(ins->pres_null, b));
  if (!ins->pres_ready) {
    PetscCall(PetscLogStagePush(ins->stage_setup));
    PetscCall(KSPSetUp(ins->kpres));
    PetscCall(PetscLogStagePop());
    ins->pres_ready = PETSC_TRUE;
  }
  PetscCall(KSPSolve(ins->kpres, b, phi));
  PetscCall(INSCheckSolve(ins->kpres, "pressure", t, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSProjectState(INS *ins, PetscReal t, Vec fields[]);

static PetscErrorCode INSFillHistory(void *ctx, PetscReal t, const Vec u[], Vec p)
{
  INS *ins = (INS *)ctx;
  Vec  fields[4];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < ins->dim; c++) fields[c] = u[c];
  fields[ins->dim] = p;
  PetscCall(INSProjectState((INS *)ctx, t, fields));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem's state function: its exact solution, or the initial state. */
static ProblemFunction INSState(INS *ins)
{
  return ins->problem->exact ? ins->problem->exact : ins->problem->initial;
}

/* fields[k] = the L2 projection of the problem's state at time t. */
static PetscErrorCode INSProjectState(INS *ins, PetscReal t, Vec fields[])
{
  PetscFunctionBeginUser;
  for (PetscInt c = 0; c <= ins->dim; c++) {
    ProblemPoint comp = {ins->problem, INSState(ins), ins->dim, ins->dim + 1, c, t};
    PetscCall(DiscProject(ins->app->disc, ProblemPointFunction, &comp, fields[c]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSErrors(Unsteady *un, char summary[], size_t len)
{
  INS           *ins = (INS *)un->physics;
  const PetscInt dim = ins->dim;
  PetscReal      t, e[4], norm[4], ev = 0;

  PetscFunctionBeginUser;
  summary[0] = 0;
  if (!ins->problem->exact) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TSGetTime(un->ts, &t));
  for (PetscInt c = 0; c <= dim; c++) {
    ProblemPoint comp = {ins->problem, ins->problem->exact, dim, dim + 1, c, t};
    Vec          zero, x = un->fields[c];
    PetscCall(VecDuplicate(un->fields[c], &zero));
    PetscCall(VecZeroEntries(zero));
    if (c == dim && ins->pres_null) { /* pressure up to a constant: compare with the exact mean */
      Vec       one, Mone;
      PetscReal area, mean_p, mean_exact;
      PetscCall(VecDuplicate(zero, &one));
      PetscCall(VecDuplicate(zero, &Mone));
      PetscCall(VecDuplicate(zero, &x));
      PetscCall(VecSet(one, 1.0));
      PetscCall(MatMult(ins->M, one, Mone));
      PetscCall(VecSum(Mone, &area));
      PetscCall(VecDot(Mone, un->fields[dim], &mean_p));
      PetscCall(DiscIntegrate(ins->app->disc, ProblemPointFunction, &comp, zero)); /* sum_i (l_i, p) = (1, p) */
      PetscCall(VecSum(zero, &mean_exact));
      PetscCall(VecZeroEntries(zero));
      PetscCall(VecCopy(un->fields[dim], x));
      PetscCall(VecShift(x, (mean_exact - mean_p) / area));
      PetscCall(VecDestroy(&one));
      PetscCall(VecDestroy(&Mone));
    }
    PetscCall(DiscL2Error(ins->app->disc, x, ProblemPointFunction, &comp, &e[c]));
    PetscCall(DiscL2Error(ins->app->disc, zero, ProblemPointFunction, &comp, &norm[c]));
    if (x != un->fields[c]) PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&zero));
  }
  for (PetscInt c = 0; c < dim; c++) ev += e[c] * e[c];
  un->l2_error = PetscSqrtReal(ev);
  {
    char errors[256];
    if (dim == 2) PetscCall(PetscSNPrintf(errors, sizeof(errors), "L2_u %.6e L2_v %.6e L2_p %.6e rel_u %.6e rel_p %.6e", (double)e[0], (double)e[1], (double)e[2], (double)(e[0] / norm[0]), (double)(e[2] / norm[2])));
    else PetscCall(PetscSNPrintf(errors, sizeof(errors), "L2_u %.6e L2_v %.6e L2_w %.6e L2_p %.6e rel_u %.6e rel_p %.6e", (double)e[0], (double)e[1], (double)e[2], (double)e[3], (double)(e[0] / norm[0]), (double)(e[3] / norm[3])));
    PetscCall(PetscStrlcat(summary, errors, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the TS options and any restart: the exact past levels when asked (and not restarted). */
static PetscErrorCode INSSetUp(Unsteady *un)
{
  INS *ins = (INS *)un->physics;

  PetscFunctionBeginUser;
  if (ins->exact_history && !un->restart_file[0]) PetscCall(TSInsplitSetHistory(un->ts, INSFillHistory, ins));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSFailure(Unsteady *un, const char **message)
{
  PetscFunctionBeginUser;
  PetscCall(TSInsplitGetFailure(un->ts, message));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSDestroy(void **ptr)
{
  INS *ins = (INS *)*ptr;

  PetscFunctionBeginUser;
  if (!ins) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(INSOpsDestroy(&ins->ops));
  PetscCall(PetscFree(ins->force_faces));
  PetscCall(PetscFree(ins->pres_face_type));
  PetscCall(MatDestroy(&ins->Avel));
  PetscCall(MatDestroy(&ins->Apres));
  PetscCall(MatDestroy(&ins->M));
  PetscCall(KSPDestroy(&ins->kvel));
  PetscCall(KSPDestroy(&ins->kpres));
  PetscCall(VecDestroy(&ins->face));
  PetscCall(MatNullSpaceDestroy(&ins->pres_null));
  for (PetscInt k = 0; k < 4; k++) PetscCall(VecDestroy(&ins->sub[k]));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The monitors of incompressible flow: L2 errors (problems with an exact solution), kinetic energy
 * (1/2) int |u|^2, and the drag and lift coefficients 2 F / (U^2 L) of the force on the problem's
 * force group (velocity_scale U, length_scale L). */
static PetscErrorCode INSMonitor(Unsteady *un, const char name[], PetscReal time, PetscReal *value)
{
  INS           *ins = (INS *)un->physics;
  const PetscInt dim = ins->dim;

  PetscFunctionBeginUser;
  if (!strncmp(name, "L2_error_", 9)) {
    const PetscBool velocity = (PetscBool)!strcmp(name, "L2_error_velocity");
    PetscReal       e[4]     = {0, 0, 0, 0}, sum = 0;
    PetscCheck(ins->problem->exact, un->comm, PETSC_ERR_ARG_WRONG, "Monitor %s: problem %s has no exact solution", name, ins->problem->name);
    for (PetscInt c = velocity ? 0 : dim; c < (velocity ? dim : dim + 1); c++) {
      ProblemPoint comp = {ins->problem, ins->problem->exact, dim, dim + 1, c, time};
      PetscCall(DiscL2Error(un->app->disc, un->fields[c], ProblemPointFunction, &comp, &e[c]));
    }
    for (PetscInt c = 0; c < dim; c++) sum += e[c] * e[c];
    *value = velocity ? PetscSqrtReal(sum) : e[dim];
  } else if (!strcmp(name, "kinetic_energy")) {
    Vec       w;
    PetscReal sum = 0;
    PetscCall(VecDuplicate(un->fields[0], &w));
    for (PetscInt c = 0; c < dim; c++) {
      PetscReal a;
      PetscCall(MatMult(ins->M, un->fields[c], w));
      PetscCall(VecDot(w, un->fields[c], &a));
      sum += a;
    }
    *value = 0.5 * sum;
    PetscCall(VecDestroy(&w));
  } else { /* drag_coefficient, lift_coefficient */
    const PetscReal U = ins->problem->velocity_scale > 0 ? ins->problem->velocity_scale : 1.0, L = ins->problem->length_scale > 0 ? ins->problem->length_scale : 1.0;
    PetscReal       F[3];
    PetscCheck(ins->problem->force_group[0], un->comm, PETSC_ERR_ARG_WRONG, "Monitor %s: problem %s names no force group", name, ins->problem->name);
    if (!ins->force_faces) PetscCall(MeshGetGroupFaces(un->app->mesh, "the force monitors' group", ins->problem->force_group, &ins->force_faces));
    PetscCall(INSOpsBoundaryForce(ins->ops, ins->problem->nu, un->fields, un->fields[dim], ins->force_faces, F));
    *value = 2.0 * F[strcmp(name, "drag_coefficient") ? 1 : 0] / (U * U * L);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* vorticity (2D: dv/dx - du/dy; 3D: |curl u|), vorticity_x, _y, _z (3D) */
static PetscErrorCode INSDerived(Unsteady *un, const char name[], PetscReal time, Vec field)
{
  INS *ins = (INS *)un->physics;

  PetscFunctionBeginUser;
  PetscCall(INSOpsVorticity(ins->ops, un->fields, strcmp(name, "vorticity") ? (PetscInt)(name[10] - 'x') : -1, field));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSCreate(Unsteady *un)
{
  App                     *app = un->app;
  INS                     *ins;
  Mesh                    *mesh            = app->mesh;
  PetscInt                 local_dirichlet = 0, pres_dirichlet;
  TSInsplitOps             ops;
  PC                       pc;
  static const char *const names[2][4] = {{"u", "v", "p", NULL}, {"u", "v", "w", "p"}};

  PetscFunctionBeginUser;
  PetscCheck((app->problem.exact || app->problem.initial) && app->problem.ins_boundary && app->problem.nu > 0, un->comm, PETSC_ERR_ARG_WRONG, "Problem %s names physics 'ins' but gives no state, boundary data or viscosity", app->problem_name);
  PetscCall(HoflowTSRegisterAll());
  PetscCall(PetscNew(&ins));
  ins->app     = app;
  ins->un      = un;
  ins->problem = &app->problem;
  PetscCall(DiscGetDG(app->disc, "incompressible flow", &ins->dg));
  ins->dim = ins->dg->dim;
  PetscCheck(ins->dim == 2 || ins->dim == 3, un->comm, PETSC_ERR_SUP, "Mesh %s is %" PetscInt_FMT "-dimensional; incompressible flow runs in 2D and 3D", mesh->source, ins->dim);
  un->physics         = ins;
  un->physics_destroy = INSDestroy;
  un->physics_errors  = INSErrors;
  un->physics_failure = INSFailure;
  un->physics_setup   = INSSetUp;
  un->monitor_names   = "L2_error_velocity,L2_error_pressure,kinetic_energy,drag_coefficient,lift_coefficient";
  un->derived_names   = ins->dim == 2 ? "vorticity" : "vorticity,vorticity_x,vorticity_y,vorticity_z";
  un->physics_monitor = INSMonitor;
  un->physics_derived = INSDerived;
  PetscCall(HoflowLogStageGet("INS setup", &ins->stage_setup));

  /* operators: the velocity's boundary types are the mesh's (-bc_dirichlet / -bc_neumann) */
  PetscCall(INSOpsCreate(ins->dg, NULL, &ins->ops));
  PetscCall(INSOpsSetBoundaryData(ins->ops, app->problem.ins_boundary, app->problem.ctx));
  PetscCall(INSOpsCreateFaceVector(ins->ops, &ins->face));
  PetscCall(DGMassOperatorCreate(ins->dg, PETSC_FALSE, &ins->M));
  PetscCall(PetscMalloc1(mesh->nslots, &ins->pres_face_type));
  for (PetscInt k = 0; k < mesh->nslots; k++) {
    const PetscInt t       = mesh->face_type[k];
    ins->pres_face_type[k] = t == HOFLOW_FACE_DIRICHLET ? HOFLOW_FACE_NEUMANN : t == HOFLOW_FACE_NEUMANN ? HOFLOW_FACE_DIRICHLET
                                                                                                         : t;
    local_dirichlet += ins->pres_face_type[k] == HOFLOW_FACE_DIRICHLET;
  }
  PetscCall(MPIU_Allreduce(&local_dirichlet, &pres_dirichlet, 1, MPIU_INT, MPI_SUM, un->comm));
  PetscCall(IPDGOperatorCreate(ins->dg, 0.0, ins->pres_face_type, &ins->Apres));
  PetscCall(PetscObjectSetName((PetscObject)ins->Apres, "SIPDG pressure"));
  if (!pres_dirichlet) { /* no outflow: the pressure is fixed up to a constant */
    PetscCall(MatNullSpaceCreate(un->comm, PETSC_TRUE, 0, NULL, &ins->pres_null));
    PetscCall(MatSetNullSpace(ins->Apres, ins->pres_null));
  }

  /* solvers: velocity CG + inverse mass, pressure CG + pMG-AMG, both changeable by options */
  PetscCall(KSPCreate(un->comm, &ins->kvel));
  PetscCall(KSPSetOptionsPrefix(ins->kvel, "vel_"));
  PetscCall(KSPSetType(ins->kvel, KSPCG));
  PetscCall(KSPGetPC(ins->kvel, &pc));
  PetscCall(PCSetType(pc, "inverse_mass"));
  PetscCall(KSPSetInitialGuessNonzero(ins->kvel, PETSC_TRUE));
  PetscCall(KSPSetTolerances(ins->kvel, 1e-10, 1e-14, 1e12, 5000)); /* the initial guess (the last step's) may be far from a small right-hand side: not a divergence */
  PetscCall(KSPSetFromOptions(ins->kvel));
  PetscCall(KSPCreate(un->comm, &ins->kpres));
  PetscCall(KSPSetOptionsPrefix(ins->kpres, "pres_"));
  PetscCall(KSPSetType(ins->kpres, KSPCG));
  PetscCall(KSPGetPC(ins->kpres, &pc));
  PetscCall(PCSetType(pc, "pmg"));
  PetscCall(KSPSetInitialGuessNonzero(ins->kpres, PETSC_TRUE));
  PetscCall(KSPSetTolerances(ins->kpres, 1e-10, 1e-14, 1e12, 5000));
  PetscCall(KSPSetFromOptions(ins->kpres));
  PetscCall(HoflowKSPSetOperators(ins->kpres, ins->Apres));

  /* the state (u, v, p) or (u, v, w, p): the projection of the problem's state at t = 0 */
  for (PetscInt k = 0; k <= ins->dim; k++) {
    PetscCall(DMCreateGlobalVector(app->disc->dm, &ins->sub[k]));
    PetscCall(PetscObjectSetName((PetscObject)ins->sub[k], names[ins->dim - 2][k]));
    un->fields[k]      = ins->sub[k];
    un->field_names[k] = names[ins->dim - 2][k];
  }
  un->nfields = ins->dim + 1;
  PetscCall(INSProjectState(ins, 0.0, ins->sub));
  PetscCall(VecCreateNest(un->comm, ins->dim + 1, NULL, ins->sub, &un->state));
  PetscCall(PetscObjectSetName((PetscObject)un->state, ins->dim == 2 ? "u_v_p" : "u_v_w_p"));

  /* the time integrator */
  PetscCall(TSSetType(un->ts, TSINSPLIT));
  un->required_ts_type = TSINSPLIT;
  PetscCall(TSSetExactFinalTime(un->ts, TS_EXACTFINALTIME_STEPOVER));
  if (app->problem.default_dt > 0) PetscCall(TSSetTimeStep(un->ts, app->problem.default_dt));
  if (app->problem.default_max_time > 0) PetscCall(TSSetMaxTime(un->ts, app->problem.default_max_time));
  ops.ctx            = ins;
  ops.nu             = app->problem.nu;
  ops.velocity_scale = app->problem.velocity_scale > 0 ? app->problem.velocity_scale : 1.0;
  ops.advection      = INSAdvection;
  ops.velocity_solve = INSVelocitySolve;
  ops.pressure_solve = INSPressureSolve;
  ops.gradient       = INSGradient;
  ops.divergence     = INSDivergence;
  ops.mass           = INSMass;
  ops.forcing        = NULL;
  PetscCall(TSInsplitSetOps(un->ts, &ops));
  PetscOptionsBegin(un->comm, NULL, "Incompressible flow", NULL);
  PetscCall(PetscOptionsBool("-ins_exact_history", "Start with the past levels from the exact solution (full order from the first step; problems with an exact solution)", NULL, ins->exact_history, &ins->exact_history, NULL));
  PetscOptionsEnd();
  PetscCheck(!ins->exact_history || app->problem.exact, un->comm, PETSC_ERR_ARG_WRONG, "-ins_exact_history: problem %s has no exact solution", app->problem_name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, INSCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Velocity boundary types: Dirichlet (inflow, walls: the velocity given; the pressure increment is
 * Neumann there) and Neumann (outflow: nu du/dn and the pressure given). */
PetscErrorCode PhysicsInfo_INS(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc   = 2;
  info->bc[0] = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "the velocity given (inflow, walls)"};
  info->bc[1] = (MeshBoundaryType){"neumann", HOFLOW_FACE_NEUMANN, NULL, "outflow (the pressure and nu du/dn given)"};
  info->run   = INSRun;
  PetscFunctionReturn(PETSC_SUCCESS);
}
