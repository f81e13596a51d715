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
  /* boundary data by group (problem->ins_boundary_group): the group index of each face slot, the
   * time of the data now in the operators */
  PetscInt *slot_group;
  PetscReal bc_time;
  /* body force (problem->forcing): its projection, at forcing_t (time-independent: once) */
  Vec       force[3];
  PetscReal forcing_t;
  PetscBool forcing_ready;
  /* monitors of any group and point (-monitor_force_groups, -probe_points) */
  char       monitor_names[2048];
  PetscInt   nforce_groups, nprobes;
  char       force_groups[8][64];
  PetscBool *group_faces[8];
  PetscReal  probe_x[16][3];
  PetscInt   probe_elem[16]; /* owned element holding the probe (-1: none on this rank) */
  PetscReal *probe_row[16];  /* its basis at the probe */
  PetscReal  ref_length, ref_velocity, ref_density;
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
  if (ins->problem->ins_boundary_group) return 1.0; /* data at t (INSBoundaryAt) */
  return ins->problem->ins_time_factor ? ins->problem->ins_time_factor(t, field, ins->problem->ctx) : 1.0;
}

static PetscErrorCode INSFaceBoundary(PetscInt slot, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(ins->problem->ins_boundary_group(ins->dim, ins->slot_group[slot], ins->bc_time, x, n, values, ins->problem->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Time-dependent boundary data of the groups: evaluated on the boundary faces at t (host) when t
 * differs from the data's time; the operators copy the face arrays to the device. */
static PetscErrorCode INSBoundaryAt(INS *ins, PetscReal t)
{
  PetscFunctionBeginUser;
  if (!ins->problem->ins_boundary_group || !ins->problem->ins_boundary_time || t == ins->bc_time) PetscFunctionReturn(PETSC_SUCCESS);
  ins->bc_time = t;
  PetscCall(INSOpsSetBoundaryDataFaces(ins->ops, INSFaceBoundary, ins));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSAdvection(void *ctx, PetscReal t, const Vec a[], const Vec c[], PetscReal lambda_scale, const Vec out[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSBoundaryAt(ins, t));
  PetscCall(INSOpsAdvection(ins->ops, a, c, lambda_scale, INSTimeFactor(ins, t, 0), out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSAdvectionExtrapolated(void *ctx, PetscReal t, PetscInt n, const Vec hist[], const PetscReal w[], const Vec c[], const Vec out[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSBoundaryAt(ins, t));
  PetscCall(INSOpsAdvectionExtrapolated(ins->ops, n, hist, w, c, INSTimeFactor(ins, t, 0), out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode INSGradient(void *ctx, PetscReal t, Vec p, Vec pstar, const Vec g[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSBoundaryAt(ins, t));
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
  PetscCall(INSBoundaryAt(ins, t));
  PetscCall(INSOpsDivergence(ins->ops, u, INSTimeFactor(ins, t, 0), div));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The body force f(t): the L2 projection of the problem's forcing (velocity components), once when
 * it does not depend on time. */
static PetscErrorCode INSForcing(void *ctx, PetscReal t, const Vec f[])
{
  INS *ins = (INS *)ctx;

  PetscFunctionBeginUser;
  if (!ins->forcing_ready || (ins->problem->forcing_time && t != ins->forcing_t)) {
    for (PetscInt c = 0; c < ins->dim; c++) {
      ProblemPoint comp = {ins->problem, ins->problem->forcing, ins->dim, ins->dim + 1, c, t};
      if (!ins->force[c]) PetscCall(VecDuplicate(f[c], &ins->force[c]));
      PetscCall(DiscProject(ins->app->disc, ProblemPointFunction, &comp, ins->force[c]));
    }
    ins->forcing_t     = t;
    ins->forcing_ready = PETSC_TRUE;
  }
  for (PetscInt c = 0; c < ins->dim; c++) PetscCall(VecCopy(ins->force[c], f[c]));
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
  PetscCall(INSBoundaryAt(ins, t));
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
  PetscCall(INSBoundaryAt(ins, t));
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
  PetscCall(PetscFree(ins->slot_group));
  for (PetscInt k = 0; k < 3; k++) PetscCall(VecDestroy(&ins->force[k]));
  for (PetscInt k = 0; k < ins->nforce_groups; k++) PetscCall(PetscFree(ins->group_faces[k]));
  for (PetscInt k = 0; k < ins->nprobes; k++) PetscCall(PetscFree(ins->probe_row[k]));
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

/* The pressure at probe k: the DG polynomial of the owned element holding it (the first one found;
 * a point on an element boundary takes one side, averaged over ranks that both hold it). */
static PetscErrorCode INSProbePressure(INS *ins, PetscInt k, PetscReal *value)
{
  PetscReal          local[2] = {0, 0}, global[2];
  const PetscScalar *pa;

  PetscFunctionBeginUser;
  PetscCheck(k >= 0 && k < ins->nprobes, ins->un->comm, PETSC_ERR_ARG_OUTOFRANGE, "Pressure probe %" PetscInt_FMT ": -probe_points gives %" PetscInt_FMT, k + 1, ins->nprobes);
  if (ins->probe_elem[k] >= 0) {
    const PetscInt Np = ins->dg->ref->Np, e = ins->probe_elem[k];
    PetscCall(VecGetArrayRead(ins->un->fields[ins->dim], &pa));
    for (PetscInt i = 0; i < Np; i++) local[0] += ins->probe_row[k][i] * PetscRealPart(pa[ins->dg->elem_node[e] + i]);
    PetscCall(VecRestoreArrayRead(ins->un->fields[ins->dim], &pa));
    local[1] = 1;
  }
  PetscCall(MPIU_Allreduce(local, global, 2, MPIU_REAL, MPIU_SUM, ins->un->comm));
  *value = global[0] / global[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The owned element holding x (affine elements: the reference coordinates from the vertices) and
 * the nodal basis there; -1 when none on this rank. */
static PetscErrorCode INSLocateProbe(INS *ins, const PetscReal x[], PetscInt *elem, PetscReal **row)
{
  const Mesh         *mesh = ins->app->mesh;
  const RefElement   *ref  = ins->dg->ref;
  const PetscInt      dim  = ins->dim;
  const RefShapeInfo *info = &RefShapeTable[ref->shape];
  const PetscBool     simplex = (PetscBool)(ref->shape == REF_TRIANGLE || ref->shape == REF_TETRAHEDRON);
  PetscInt            vd[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  *elem = -1;
  *row  = NULL;
  /* reference vertex vd[d] lies at +1 in direction d and -1 in the others (vertex 0 at -1 in all) */
  for (PetscInt d = 0; d < dim; d++)
    for (PetscInt v = 1; v < info->nverts; v++) {
      PetscBool ok = PETSC_TRUE;
      for (PetscInt j = 0; j < dim; j++) ok = (PetscBool)(ok && PetscAbsReal(info->verts[v][j] - (j == d ? 1.0 : -1.0)) < 1e-12);
      if (ok) vd[d] = v;
    }
  for (PetscInt e = 0; e < mesh->K && *elem < 0; e++) {
    const PetscReal *vx = mesh->vertices + e * HOFLOW_VERTS_MAX * dim;
    PetscReal        A[9], Ainv[9], r[3], sum = 0;
    PetscBool        inside = PETSC_TRUE;
    for (PetscInt i = 0; i < dim; i++)
      for (PetscInt d = 0; d < dim; d++) A[i * dim + d] = 0.5 * (vx[vd[d] * dim + i] - vx[i]);
    PetscCall(DenseInvert(dim, A, Ainv));
    for (PetscInt d = 0; d < dim; d++) {
      r[d] = -1;
      for (PetscInt i = 0; i < dim; i++) r[d] += Ainv[d * dim + i] * (x[i] - vx[i]);
      inside = (PetscBool)(inside && r[d] >= -1 - 1e-10 && r[d] <= 1 + 1e-10);
      sum += r[d] + 1;
    }
    if (simplex) inside = (PetscBool)(inside && sum <= 2 + 1e-10);
    if (!inside) continue;
    *elem = e;
    PetscCall(PetscMalloc1(ref->Np, row));
    PetscCall(RefElementInterpolationMatrix(ref, 1, r, *row));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -monitor_force_groups, -probe_points, -ref_*: monitors of any boundary group and point, added to the
 * problem's monitors and to the physics' list. Per group g: drag_coefficient:g, lift_coefficient:g
 * (2 F / (rho U^2 L^(dim-1))), force_x:g, force_pressure_x:g, force_viscous_x:g (and y, z); per probe
 * pressure_probe_k (k from 1); with two or more probes pressure_difference (probe 1 minus probe 2). */
static PetscErrorCode INSMonitorsFromOptions(INS *ins)
{
  Unsteady *un = ins->un;
  Problem  *problem = ins->problem;
  char      groups[512] = "", points[1024] = "", extra[2048] = "";
  PetscBool set;

  PetscFunctionBeginUser;
  ins->ref_length   = problem->length_scale > 0 ? problem->length_scale : 1.0;
  ins->ref_velocity = problem->velocity_scale > 0 ? problem->velocity_scale : 1.0;
  ins->ref_density  = 1.0;
  PetscOptionsBegin(un->comm, NULL, "Incompressible flow monitors", NULL);
  PetscCall(PetscOptionsString("-monitor_force_groups", "Comma-separated boundary groups whose forces (pressure and viscous parts, drag and lift coefficients) go to monitors.csv", NULL, groups, groups, sizeof(groups), NULL));
  PetscCall(PetscOptionsString("-probe_points", "Points whose pressure goes to monitors.csv: x,y[,z];x,y[,z];...", NULL, points, points, sizeof(points), &set));
  PetscCall(PetscOptionsReal("-ref_length", "Reference length L of the force coefficients 2 F / (rho U^2 L^(dim-1))", NULL, ins->ref_length, &ins->ref_length, NULL));
  PetscCall(PetscOptionsReal("-ref_velocity", "Reference velocity U of the force coefficients", NULL, ins->ref_velocity, &ins->ref_velocity, NULL));
  PetscCall(PetscOptionsReal("-ref_density", "Density rho: the pressure and viscosity are kinematic, forces are rho times theirs", NULL, ins->ref_density, &ins->ref_density, NULL));
  PetscOptionsEnd();
  PetscCheck(ins->ref_length > 0 && ins->ref_velocity > 0 && ins->ref_density > 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ref_length %g, -ref_velocity %g and -ref_density %g must be positive", (double)ins->ref_length, (double)ins->ref_velocity, (double)ins->ref_density);
  if (groups[0]) {
    for (char *tok = strtok(groups, ","); tok; tok = strtok(NULL, ",")) {
      static const char *const xyz[3] = {"x", "y", "z"};
      PetscBool               *mask;
      PetscCheck(ins->nforce_groups < 8, un->comm, PETSC_ERR_ARG_SIZ, "-monitor_force_groups: at most 8 groups");
      PetscCall(MeshGetGroupFaces(ins->app->mesh, "-monitor_force_groups", tok, &mask)); /* an error naming the mesh's groups if it lacks it */
      ins->group_faces[ins->nforce_groups] = mask;
      PetscCall(PetscStrncpy(ins->force_groups[ins->nforce_groups++], tok, sizeof(ins->force_groups[0])));
      for (PetscInt q = 0; q < 2; q++) {
        char one[256];
        PetscCall(PetscSNPrintf(one, sizeof(one), ",%s_coefficient:%s", q ? "lift" : "drag", tok));
        PetscCall(PetscStrlcat(extra, one, sizeof(extra)));
      }
      for (PetscInt d = 0; d < ins->dim; d++) {
        char one[256];
        PetscCall(PetscSNPrintf(one, sizeof(one), ",force_%s:%s,force_pressure_%s:%s,force_viscous_%s:%s", xyz[d], tok, xyz[d], tok, xyz[d], tok));
        PetscCall(PetscStrlcat(extra, one, sizeof(extra)));
      }
    }
  }
  if (points[0]) {
    for (char *tok = strtok(points, ";"); tok; tok = strtok(NULL, ";")) {
      PetscInt  n = 0, found, gfound;
      char     *c = tok, one[64];
      PetscCheck(ins->nprobes < 16, un->comm, PETSC_ERR_ARG_SIZ, "-probe_points: at most 16 points");
      for (PetscInt d = 0; d < 3; d++) ins->probe_x[ins->nprobes][d] = 0;
      while (c && *c) {
        char *end;
        PetscCheck(n < ins->dim, un->comm, PETSC_ERR_ARG_WRONG, "-probe_points: point %" PetscInt_FMT " \"%s\" has more than %" PetscInt_FMT " coordinates", ins->nprobes + 1, tok, ins->dim);
        ins->probe_x[ins->nprobes][n++] = (PetscReal)strtod(c, &end);
        PetscCheck(end != c && (*end == ',' || *end == 0 || *end == ' '), un->comm, PETSC_ERR_ARG_WRONG, "-probe_points: point %" PetscInt_FMT " \"%s\" is not %" PetscInt_FMT " comma-separated numbers", ins->nprobes + 1, tok, ins->dim);
        c = *end == ',' ? end + 1 : NULL;
      }
      PetscCheck(n == ins->dim, un->comm, PETSC_ERR_ARG_WRONG, "-probe_points: point %" PetscInt_FMT " \"%s\" has %" PetscInt_FMT " coordinates, expected %" PetscInt_FMT, ins->nprobes + 1, tok, n, ins->dim);
      PetscCall(INSLocateProbe(ins, ins->probe_x[ins->nprobes], &ins->probe_elem[ins->nprobes], &ins->probe_row[ins->nprobes]));
      found = ins->probe_elem[ins->nprobes] >= 0;
      PetscCall(MPIU_Allreduce(&found, &gfound, 1, MPIU_INT, MPI_SUM, un->comm));
      PetscCheck(gfound, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-probe_points: point %" PetscInt_FMT " (%s) is in no element of mesh %s", ins->nprobes + 1, tok, ins->app->mesh->source);
      PetscCall(PetscSNPrintf(one, sizeof(one), ",pressure_probe_%" PetscInt_FMT, ++ins->nprobes));
      PetscCall(PetscStrlcat(extra, one, sizeof(extra)));
    }
    if (ins->nprobes >= 2) PetscCall(PetscStrlcat(extra, ",pressure_difference", sizeof(extra)));
  }
  PetscCall(PetscStrlcat(ins->monitor_names, extra, sizeof(ins->monitor_names)));
  if (extra[0]) {
    PetscCheck(strlen(problem->monitors) + strlen(extra) < sizeof(problem->monitors), un->comm, PETSC_ERR_ARG_SIZ, "Too many monitors: at most %zu characters of names", sizeof(problem->monitors));
    PetscCall(PetscStrlcat(problem->monitors, problem->monitors[0] ? extra : extra + 1, sizeof(problem->monitors)));
  }
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
  } else if (!strncmp(name, "pressure_probe_", 15) || !strcmp(name, "pressure_difference")) {
    if (name[9] == 'p') {
      PetscInt k;
      PetscCall(PetscOptionsStringToInt(name + 15, &k));
      PetscCall(INSProbePressure(ins, k - 1, value));
    } else {
      PetscReal p2;
      PetscCall(INSProbePressure(ins, 0, value));
      PetscCall(INSProbePressure(ins, 1, &p2));
      *value -= p2;
    }
  } else if (strchr(name, ':')) { /* quantity:group of -monitor_force_groups */
    const char     *group = strchr(name, ':') + 1;
    const PetscReal U = ins->ref_velocity, L = ins->ref_length, rho = ins->ref_density;
    PetscInt        g = 0, comp;
    PetscReal       Fp[3], Fv[3];
    while (g < ins->nforce_groups && strcmp(ins->force_groups[g], group)) g++;
    PetscCheck(g < ins->nforce_groups, un->comm, PETSC_ERR_PLIB, "Monitor %s: no such force group", name);
    if (!ins->group_faces[g]) PetscCall(MeshGetGroupFaces(un->app->mesh, "-monitor_force_groups", group, &ins->group_faces[g]));
    PetscCall(INSOpsBoundaryForce(ins->ops, 0.0, un->fields, un->fields[dim], ins->group_faces[g], Fp));
    PetscCall(INSOpsBoundaryForce(ins->ops, ins->problem->nu, un->fields, un->fields[dim], ins->group_faces[g], Fv));
    for (PetscInt d = 0; d < dim; d++) Fv[d] -= Fp[d], Fp[d] *= rho, Fv[d] *= rho; /* kinematic pressure and viscosity: forces per density */
    comp = name[strlen(name) - strlen(group) - 2] - 'x';
    if (!strncmp(name, "drag_coefficient:", 17) || !strncmp(name, "lift_coefficient:", 17)) {
      comp   = name[0] == 'd' ? 0 : 1;
      *value = 2.0 * (Fp[comp] + Fv[comp]) / (rho * U * U * PetscPowRealInt(L, dim - 1));
    } else if (!strncmp(name, "force_pressure_", 15)) *value = Fp[comp];
    else if (!strncmp(name, "force_viscous_", 14)) *value = Fv[comp];
    else *value = Fp[comp] + Fv[comp]; /* force_x:group */
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
  PetscCheck((app->problem.exact || app->problem.initial) && (app->problem.ins_boundary || app->problem.ins_boundary_group) && app->problem.nu > 0, un->comm, PETSC_ERR_ARG_WRONG, "Problem %s names physics 'ins' but gives no state, boundary data or viscosity", app->problem_name);
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
  PetscCall(PetscStrncpy(ins->monitor_names, "L2_error_velocity,L2_error_pressure,kinetic_energy,drag_coefficient,lift_coefficient", sizeof(ins->monitor_names)));
  un->monitor_names   = ins->monitor_names;
  un->derived_names   = ins->dim == 2 ? "vorticity" : "vorticity,vorticity_x,vorticity_y,vorticity_z";
  un->physics_monitor = INSMonitor;
  un->physics_derived = INSDerived;
  PetscCall(HoflowLogStageGet("INS setup", &ins->stage_setup));

  /* operators: the velocity's boundary types are the mesh's (-bc_dirichlet / -bc_neumann) */
  PetscCall(INSOpsCreate(ins->dg, NULL, &ins->ops));
  if (app->problem.ins_boundary_group) { /* data by group: the group of every boundary face slot */
    char     list[sizeof(app->problem.ins_groups)];
    PetscInt g = 0;
    PetscCall(PetscMalloc1(mesh->nslots, &ins->slot_group));
    for (PetscInt k = 0; k < mesh->nslots; k++) ins->slot_group[k] = -1;
    PetscCall(PetscStrncpy(list, app->problem.ins_groups, sizeof(list)));
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","), g++) {
      PetscBool *mask;
      PetscCall(MeshGetGroupFaces(mesh, "the problem's boundary groups", tok, &mask));
      for (PetscInt k = 0; k < mesh->nslots; k++)
        if (mask[k] && ins->slot_group[k] < 0) ins->slot_group[k] = g;
      PetscCall(PetscFree(mask));
    }
    ins->bc_time = 0.0;
    PetscCall(INSOpsSetBoundaryDataFaces(ins->ops, INSFaceBoundary, ins));
  } else PetscCall(INSOpsSetBoundaryData(ins->ops, app->problem.ins_boundary, app->problem.ctx));
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
  ops.advection_extrapolated = INSAdvectionExtrapolated;
  ops.velocity_solve = INSVelocitySolve;
  ops.pressure_solve = INSPressureSolve;
  ops.gradient       = INSGradient;
  ops.divergence     = INSDivergence;
  ops.mass           = INSMass;
  ops.forcing        = app->problem.forcing ? INSForcing : NULL;
  PetscCall(TSInsplitSetOps(un->ts, &ops));
  PetscOptionsBegin(un->comm, NULL, "Incompressible flow", NULL);
  PetscCall(PetscOptionsBool("-ins_exact_history", "Start with the past levels from the exact solution (full order from the first step; problems with an exact solution)", NULL, ins->exact_history, &ins->exact_history, NULL));
  PetscOptionsEnd();
  PetscCheck(!ins->exact_history || app->problem.exact, un->comm, PETSC_ERR_ARG_WRONG, "-ins_exact_history: problem %s has no exact solution", app->problem_name);
  PetscCall(INSMonitorsFromOptions(ins));
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
