/* Incompressible Navier–Stokes on continuous spectral elements (seed 001 §4.2, §5.3): the physics
 * "sem_ns", -disc sem only, in 2D and 3D. Equal-order Q_N velocity (the run's Disc, dim interlaced
 * components) and Q_N pressure (a scalar Disc of the same order: the seed's choice for the projection
 * method, the splitting itself stabilizing the pressure), advanced by -ts_type velcorr (src/ts/velcorr.c,
 * BDF-k / EXT-k velocity correction in rotational form) with the operators built here:
 *
 *   convection, pressure and velocity right-hand sides    SEMFlow (op/sem_flow.c)
 *   pressure Poisson (46)       CG + BoomerAMG on the LOR matrix, KSP prefix pres_; the constants as
 *                               null space (no outflow: velocity data on every boundary), the
 *                               right-hand side projected onto its complement each step
 *   velocity Helmholtz (49)     -Laplace + gamma/(nu dt) on dim components, Dirichlet rows u_D(t), CG +
 *                               BoomerAMG on the vector LOR matrix, KSP prefix vel_
 *
 * The boundary term of (46), -(gamma/dt) <n.u_D, q>, is the collocated face integral at the face's GLL
 * nodes (w dA n from Nanson's formula). Boundary data: the problem's exact solution (or its boundary
 * function) on the -bc_dirichlet groups; periodic meshes need none.
 *
 * With -dm_vec_type cuda every step runs on the device (the flow kernels' CUDA twins, the SEM operator, the LOR
 * matrices as cuSPARSE matrices); only scalars come back, except the Dirichlet data, interpolated on the host
 * and uploaded each step. Monitors (energy, -dE/dt, enstrophy, divergence) are device reductions. */
#include <math.h>
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/sem_flow.h>
#include <hoflow/solver.h>
#include <hoflow/ts.h>
#include <hoflow/unsteady.h>

typedef struct {
  App      *app;
  Unsteady *un;
  Problem  *problem;
  SEMDisc  *u, *p;
  Disc      pdisc;
  SEMFlow  *flow;
  PetscInt  dim;
  PetscReal nu;
  /* solves */
  Mat          Avel, Afree, Apres;
  PetscReal    vel_lambda;
  KSP          kvel, kpres;
  MatNullSpace pres_null;
  PetscBool    pres_ready;
  /* velocity work: the Dirichlet rows (1 there), the boundary data, a right-hand side */
  Vec       mask, gD, t, b;
  PetscBool has_dirichlet; /* any velocity Dirichlet dof on any rank (none: periodic boxes, no lifting) */
  Vec       bp;    /* pressure right-hand side */
  Vec       force; /* the body force (nodal), at force_time */
  PetscReal force_time;
  PetscBool force_ready;
  /* the face nodes of the pressure's boundary term: local pressure dof, coordinates, w dA n */
  PetscInt   nface;
  PetscInt  *face_dof;
  PetscReal *face_x, *face_wn;
  Vec        sub[2];
  PetscBool  exact_history;
  PetscBool  rotational; /* the viscous term -nu curl curl u* in the pressure equation (false: left out, the standard form) */
  /* monitors: |Omega|, a velocity work vector, the last energy and its time (-dE/dt between evaluations) */
  PetscReal volume, last_energy, last_energy_time;
  PetscBool has_last_energy;
  Vec       wu;
} SEMNS;

typedef struct {
  SEMNS    *ns;
  PetscReal t;
} SEMNSPoint;

/* The problem's state (velocity: values 0..dim-1; pressure: value dim) at x and time t. */
static PetscErrorCode SEMNSState(SEMNS *ns, ProblemFunction f, PetscReal t, const PetscReal x[], PetscReal v[])
{
  PetscFunctionBeginUser;
  PetscCall(f(ns->dim, t, x, ns->dim + 1, v, NULL, ns->problem->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static ProblemFunction SEMNSStateFunction(SEMNS *ns)
{
  return ns->problem->exact ? ns->problem->exact : ns->problem->initial;
}

/* SEMVectorFunctions of a SEMNSPoint: the velocity of the state, the boundary data, the pressure, the force */
static PetscErrorCode SEMNSVelocity(const PetscReal x[], PetscReal v[], void *ctx)
{
  SEMNSPoint *pt = (SEMNSPoint *)ctx;
  PetscReal   w[4];

  PetscFunctionBeginUser;
  PetscCall(SEMNSState(pt->ns, SEMNSStateFunction(pt->ns), pt->t, x, w));
  for (PetscInt d = 0; d < pt->ns->dim; d++) v[d] = w[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSBoundaryVelocity(const PetscReal x[], PetscReal v[], void *ctx)
{
  SEMNSPoint *pt = (SEMNSPoint *)ctx;
  SEMNS      *ns = pt->ns;
  PetscReal   w[4];

  PetscFunctionBeginUser;
  PetscCall(SEMNSState(ns, ns->problem->boundary ? ns->problem->boundary : SEMNSStateFunction(ns), pt->t, x, w));
  for (PetscInt d = 0; d < ns->dim; d++) v[d] = w[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSPressure(const PetscReal x[], PetscReal v[], void *ctx)
{
  SEMNSPoint *pt = (SEMNSPoint *)ctx;
  PetscReal   w[4];

  PetscFunctionBeginUser;
  PetscCall(SEMNSState(pt->ns, SEMNSStateFunction(pt->ns), pt->t, x, w));
  v[0] = w[pt->ns->dim];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSForce(const PetscReal x[], PetscReal v[], void *ctx)
{
  SEMNSPoint *pt = (SEMNSPoint *)ctx;

  PetscFunctionBeginUser;
  PetscCall(pt->ns->problem->forcing(pt->ns->dim, pt->t, x, pt->ns->dim, v, NULL, pt->ns->problem->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSConvection(void *ctx, PetscReal t, Vec u, Vec Nu)
{
  SEMNS *ns = (SEMNS *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowConvection(ns->flow, u, Nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSForcing(void *ctx, PetscReal t, Vec f)
{
  SEMNS *ns = (SEMNS *)ctx;

  PetscFunctionBeginUser;
  if (!ns->force_ready || (ns->problem->forcing_time && t != ns->force_time)) {
    SEMNSPoint pt = {ns, t};
    if (!ns->force) PetscCall(VecDuplicate(f, &ns->force));
    PetscCall(SEMDiscInterpolate(ns->u, SEMNSForce, &pt, ns->force));
    ns->force_time  = t;
    ns->force_ready = PETSC_TRUE;
  }
  PetscCall(VecCopy(ns->force, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Stop with a message naming the solve when a Krylov solve fails. */
static PetscErrorCode SEMNSCheckSolve(KSP ksp, const char *what, PetscReal t, PetscInt *its)
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

/* (46): (grad p, grad q) = (F - nu curl curl u*, grad q) - gamma_dt <n.u_D(t), q> */
static PetscErrorCode SEMNSPressureSolve(void *ctx, PetscReal t, PetscReal gamma_dt, Vec F, Vec ustar, Vec p, PetscInt *its)
{
  SEMNS       *ns = (SEMNS *)ctx;
  SEMNSPoint   pt = {ns, t};
  Vec          bl;
  PetscScalar *ba;

  PetscFunctionBeginUser;
  PetscCall(SEMFlowPressureRHS(ns->flow, ns->rotational ? ns->nu : 0.0, F, ustar, ns->bp));
  if (ns->nface) {
    PetscInt n;
    PetscCall(DMGetLocalVector(ns->p->dm, &bl));
    PetscCall(VecGetLocalSize(bl, &n));
    PetscCall(VecGetArrayWrite(bl, &ba)); /* host values, no copy from a device vector */
    PetscCall(PetscArrayzero(ba, n));
    for (PetscInt k = 0; k < ns->nface; k++) {
      PetscReal g[3], s = 0;
      PetscCall(SEMNSBoundaryVelocity(ns->face_x + k * ns->dim, g, &pt));
      for (PetscInt d = 0; d < ns->dim; d++) s += ns->face_wn[k * ns->dim + d] * g[d];
      ba[ns->face_dof[k]] -= gamma_dt * s;
    }
    PetscCall(VecRestoreArrayWrite(bl, &ba));
    PetscCall(DMLocalToGlobal(ns->p->dm, bl, ADD_VALUES, ns->bp));
    PetscCall(DMRestoreLocalVector(ns->p->dm, &bl));
  }
  PetscCall(MatNullSpaceRemove(ns->pres_null, ns->bp)); /* (48): consistent with the constants */
  if (!ns->pres_ready) {
    PetscCall(KSPSetUp(ns->kpres));
    ns->pres_ready = PETSC_TRUE;
  }
  PetscCall(KSPSolve(ns->kpres, ns->bp, p));
  PetscCall(SEMNSCheckSolve(ns->kpres, "pressure", t, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (49): (-Laplace + lambda) u = (F - grad p) / nu, u = u_D(t) on the Dirichlet rows (lifted: b_I -= A_ID u_D). */
static PetscErrorCode SEMNSVelocitySolve(void *ctx, PetscReal t, PetscReal lambda, Vec F, Vec p, Vec u, PetscInt *its)
{
  SEMNS     *ns = (SEMNS *)ctx;
  SEMNSPoint pt = {ns, t};

  PetscFunctionBeginUser;
  if (lambda != ns->vel_lambda || !ns->Avel) { /* a new screening constant (start-up orders, a new dt) */
    PetscInt *free_faces;
    PetscCall(MatDestroy(&ns->Avel));
    PetscCall(MatDestroy(&ns->Afree));
    PetscCall(SEMOperatorCreate(ns->u, lambda, NULL, &ns->Avel));
    PetscCall(PetscObjectSetName((PetscObject)ns->Avel, "SEM velocity Helmholtz"));
    PetscCall(PetscCalloc1(PetscMax(ns->app->mesh->nslots, 1), &free_faces)); /* HOFLOW_FACE_INTERIOR: no Dirichlet rows */
    PetscCall(SEMOperatorCreate(ns->u, lambda, free_faces, &ns->Afree));
    PetscCall(PetscFree(free_faces));
    PetscCall(HoflowKSPSetOperators(ns->kvel, ns->Avel));
    PetscCall(KSPSetUp(ns->kvel));
    ns->vel_lambda = lambda;
  }
  PetscCall(SEMFlowVelocityRHS(ns->flow, ns->nu, F, p, ns->b));
  if (ns->has_dirichlet) {
    PetscCall(SEMDiscInterpolate(ns->u, SEMNSBoundaryVelocity, &pt, ns->gD));
    PetscCall(HoflowVecPointwiseMult(ns->gD, ns->gD, ns->mask));
    PetscCall(MatMult(ns->Afree, ns->gD, ns->t));
    PetscCall(VecAXPY(ns->b, -1.0, ns->t));
    PetscCall(VecPointwiseMult(ns->t, ns->b, ns->mask)); /* b_D = u_D */
    PetscCall(VecAXPY(ns->b, -1.0, ns->t));
    PetscCall(VecAXPY(ns->b, 1.0, ns->gD));
  }
  PetscCall(KSPSolve(ns->kvel, ns->b, u));
  PetscCall(SEMNSCheckSolve(ns->kvel, "velocity", t, its));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSFillHistory(void *ctx, PetscReal t, Vec u)
{
  SEMNS     *ns = (SEMNS *)ctx;
  SEMNSPoint pt = {ns, t};

  PetscFunctionBeginUser;
  PetscCall(SEMDiscInterpolate(ns->u, SEMNSVelocity, &pt, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The L2 errors at time t: the velocity, and the pressure against the exact mean (the pressure is fixed
 * up to a constant). */
static PetscErrorCode SEMNSErrorsAt(SEMNS *ns, PetscReal t, PetscReal *eu, PetscReal *ep)
{
  SEMNSPoint   pt   = {ns, t};
  ProblemPoint comp = {ns->problem, ns->problem->exact, ns->dim, ns->dim + 1, ns->dim, t};
  Vec          x, ex;
  PetscReal    area, mean_h, mean_exact;

  PetscFunctionBeginUser;
  if (eu) PetscCall(SEMDiscL2ErrorVector(ns->u, ns->sub[0], SEMNSVelocity, &pt, eu));
  if (!ep) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDuplicate(ns->sub[1], &x));
  PetscCall(VecDuplicate(ns->sub[1], &ex));
  PetscCall(VecSum(ns->p->mass, &area));
  PetscCall(VecDot(ns->p->mass, ns->sub[1], &mean_h));
  PetscCall(VecZeroEntries(ex));
  PetscCall(DiscIntegrate(ns->pdisc, ProblemPointFunction, &comp, ex));
  PetscCall(VecSum(ex, &mean_exact));
  PetscCall(VecCopy(ns->sub[1], x));
  PetscCall(VecShift(x, (mean_exact - mean_h) / area));
  PetscCall(DiscL2Error(ns->pdisc, x, ProblemPointFunction, &comp, ep));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ex));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||div u||_L2 with the collocated rule: the weak divergence d_i = (div u, phi_i), sqrt(sum d_i^2 / m_i). */
static PetscErrorCode SEMNSDivergenceNorm(SEMNS *ns, PetscReal *norm)
{
  Vec d, w;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(ns->sub[1], &d));
  PetscCall(VecDuplicate(ns->sub[1], &w));
  PetscCall(SEMFlowDivergence(ns->flow, ns->sub[0], d));
  PetscCall(VecPointwiseDivide(w, d, ns->p->mass));
  PetscCall(VecDot(w, d, norm));
  *norm = PetscSqrtReal(*norm);
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSErrors(Unsteady *un, char summary[], size_t len)
{
  SEMNS    *ns = (SEMNS *)un->physics;
  PetscReal t, eu = 0, ep = 0, div;
  PetscInt  pits, vits;

  PetscFunctionBeginUser;
  summary[0] = 0;
  PetscCall(TSGetTime(un->ts, &t));
  PetscCall(SEMNSDivergenceNorm(ns, &div));
  PetscCall(TSVelCorrGetIterations(un->ts, &pits, &vits));
  if (ns->problem->exact) PetscCall(SEMNSErrorsAt(ns, t, &eu, &ep));
  un->l2_error = eu;
  PetscCall(PetscSNPrintf(summary, len, "L2_p %.6e div %.3e pressure_its %" PetscInt_FMT " velocity_its %" PetscInt_FMT " viscosity %g", (double)ep, (double)div, pits, vits, (double)ns->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1/2 u^T M u with the collocated (diagonal) mass, on the velocity's backend */
static PetscErrorCode SEMNSKineticEnergy(SEMNS *ns, PetscReal *e)
{
  PetscScalar d;

  PetscFunctionBeginUser;
  PetscCall(VecPointwiseMult(ns->wu, ns->u->mass, ns->sub[0]));
  PetscCall(VecDot(ns->wu, ns->sub[0], &d));
  *e = 0.5 * PetscRealPart(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSMonitor(Unsteady *un, const char name[], PetscReal time, PetscReal *value)
{
  SEMNS *ns = (SEMNS *)un->physics;

  PetscFunctionBeginUser;
  if (!strcmp(name, "L2_error_velocity") || !strcmp(name, "L2_error_pressure")) {
    const PetscBool velocity = (PetscBool)!strcmp(name, "L2_error_velocity");
    PetscCheck(ns->problem->exact, un->comm, PETSC_ERR_ARG_WRONG, "Monitor %s: problem %s has no exact solution", name, ns->problem->name);
    PetscCall(SEMNSErrorsAt(ns, time, velocity ? value : NULL, velocity ? NULL : value));
  } else if (!strcmp(name, "kinetic_energy") || !strcmp(name, "energy")) {
    PetscCall(SEMNSKineticEnergy(ns, value));
    if (!strcmp(name, "energy")) *value /= ns->volume;
  } else if (!strcmp(name, "dissipation")) { /* -dE/dt since the last evaluation (NaN at the first) */
    PetscReal e;
    PetscCall(SEMNSKineticEnergy(ns, &e));
    e /= ns->volume;
    if (!ns->has_last_energy) *value = (PetscReal)NAN;
    else if (time > ns->last_energy_time) *value = -(e - ns->last_energy) / (time - ns->last_energy_time);
    else *value = (PetscReal)NAN;
    ns->last_energy      = e;
    ns->last_energy_time = time;
    ns->has_last_energy  = PETSC_TRUE;
  } else if (!strcmp(name, "enstrophy_dissipation") || !strcmp(name, "enstrophy")) { /* eps = int |omega|^2 / (2 |Omega|) */
    PetscReal w2;
    PetscCall(SEMFlowEnstrophy(ns->flow, ns->sub[0], &w2));
    *value = 0.5 * w2 / ns->volume;
    if (!strcmp(name, "enstrophy_dissipation")) *value *= 2 * ns->nu;
  } else if (!strcmp(name, "divergence"))
    PetscCall(SEMNSDivergenceNorm(ns, value));
  else
    SETERRQ(un->comm, PETSC_ERR_ARG_WRONG, "Monitor %s: not a monitor of physics sem_ns", name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSSetUp(Unsteady *un)
{
  SEMNS *ns = (SEMNS *)un->physics;

  PetscFunctionBeginUser;
  if (ns->exact_history && !un->restart_file[0]) PetscCall(TSVelCorrSetHistory(un->ts, SEMNSFillHistory, ns));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSFailure(Unsteady *un, const char **message)
{
  PetscFunctionBeginUser;
  PetscCall(TSVelCorrGetFailure(un->ts, message));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSDestroy(void **ptr)
{
  SEMNS *ns = (SEMNS *)*ptr;

  PetscFunctionBeginUser;
  if (!ns) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SEMFlowDestroy(&ns->flow));
  PetscCall(MatDestroy(&ns->Avel));
  PetscCall(MatDestroy(&ns->Afree));
  PetscCall(MatDestroy(&ns->Apres));
  PetscCall(KSPDestroy(&ns->kvel));
  PetscCall(KSPDestroy(&ns->kpres));
  PetscCall(MatNullSpaceDestroy(&ns->pres_null));
  {
    Vec *v[] = {&ns->mask, &ns->gD, &ns->t, &ns->b, &ns->bp, &ns->force, &ns->sub[0], &ns->sub[1], &ns->wu};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) PetscCall(VecDestroy(v[k]));
  }
  PetscCall(PetscFree3(ns->face_dof, ns->face_x, ns->face_wn));
  PetscCall(DiscDestroy(&ns->pdisc));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An option of the solves, set only where the user gave none. */
static PetscErrorCode SEMNSDefaultOption(const char prefix[], const char name[], const char value[])
{
  char      option[PETSC_MAX_OPTION_NAME];
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(option, sizeof(option), "-%s%s", prefix, name));
  PetscCall(PetscOptionsHasName(NULL, NULL, option, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, option, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG + BoomerAMG on the LOR matrix by default (options/lor_amg.yaml's stack), all changeable. The tolerance is
 * relative to the right-hand side in the unpreconditioned norm, ||b - A x|| <= rtol ||b||: with a nonzero initial
 * guess PETSc's default (preconditioned) norm needs ||B b||, one more preconditioner application (a V-cycle) and a
 * vector allocated every solve, 15-20 % of a pressure solve of 5-6 iterations; CG then takes the same iterations
 * (3D Taylor-Green, 6^3 cells N = 5 at t = 8.1-9.3: 10.2 against 10.1 a step at rtol 1e-8). */
static PetscErrorCode SEMNSCreateKSP(MPI_Comm comm, const char prefix[], PetscReal rtol, KSP *ksp)
{
  PetscFunctionBeginUser;
  PetscCall(SEMNSDefaultOption(prefix, "ksp_type", "cg"));
  PetscCall(SEMNSDefaultOption(prefix, "ksp_norm_type", "unpreconditioned"));
  PetscCall(SEMNSDefaultOption(prefix, "pmat", "lor"));
  PetscCall(SEMNSDefaultOption(prefix, "pc_type", "hypre"));
  PetscCall(KSPCreate(comm, ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscCall(KSPSetInitialGuessNonzero(*ksp, PETSC_TRUE));
  PetscCall(KSPSetTolerances(*ksp, rtol, 1e-14, 1e12, 5000)); /* the last step's solution as initial guess */
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face nodes of the Dirichlet faces (the pressure's boundary term): local pressure dof, coordinates
 * and w dA n (collocated on the face's GLL nodes, dA and n from Nanson's formula at the node). */
static PetscErrorCode SEMNSBoundaryNodes(SEMNS *ns)
{
  SEMDisc       *u    = ns->u;
  const Mesh    *mesh = u->mesh;
  const PetscInt dim = u->dim, N1 = u->N1, Np = u->Np;
  PetscReal     *jac, nref[HOFLOW_FACES_MAX][3], ratio[HOFLOW_FACES_MAX];
  PetscInt       n = 0;

  PetscFunctionBeginUser;
  for (PetscInt e = 0; e < u->K; e++)
    for (PetscInt f = 0; f < 2 * dim; f++) n += mesh->face_type[mesh->face_slot[e] + f] == HOFLOW_FACE_DIRICHLET ? (dim == 2 ? N1 : N1 * N1) : 0;
  PetscCall(PetscMalloc3(PetscMax(n, 1), &ns->face_dof, PetscMax(n, 1) * dim, &ns->face_x, PetscMax(n, 1) * dim, &ns->face_wn));
  for (PetscInt f = 0; f < 2 * dim; f++) GeomReferenceFace(u->shape, (int)f, nref[f], &ratio[f]);
  PetscCall(PetscMalloc1(Np * dim * dim, &jac));
  for (PetscInt e = 0; e < u->K; e++) {
    PetscBool any = PETSC_FALSE;
    for (PetscInt f = 0; f < 2 * dim; f++) any = (PetscBool)(any || mesh->face_type[mesh->face_slot[e] + f] == HOFLOW_FACE_DIRICHLET);
    if (!any) continue;
    PetscCall(SEMDiscElementGeometry(u, e, NULL, jac));
    for (PetscInt f = 0; f < 2 * dim; f++) {
      if (mesh->face_type[mesh->face_slot[e] + f] != HOFLOW_FACE_DIRICHLET) continue;
      for (PetscInt i = 0; i < Np; i++) {
        const PetscInt ix[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)};
        PetscReal      nrm[3], w = ratio[f], dA;
        if (ix[u->face_dir[f]] != u->face_side[f]) continue;
        for (PetscInt d = 0; d < dim; d++)
          if (d != u->face_dir[f]) w *= u->ref->w1[ix[d]];
        dA                      = GeomFaceNormalFromJacobian((int)dim, jac + i * dim * dim, nref[f], nrm);
        ns->face_dof[ns->nface] = ns->p->gather[e * Np + i];
        for (PetscInt d = 0; d < dim; d++) {
          ns->face_x[ns->nface * dim + d]  = u->x[(e * Np + i) * dim + d];
          ns->face_wn[ns->nface * dim + d] = w * dA * nrm[d];
        }
        ns->nface++;
      }
    }
  }
  PetscCall(PetscFree(jac));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSCreate(Unsteady *un)
{
  App         *app  = un->app;
  Mesh        *mesh = app->mesh;
  SEMNS       *ns;
  TSVelCorrOps ops;
  PetscBool    dealias = PETSC_FALSE;
  SEMNSPoint   pt;

  PetscFunctionBeginUser;
  PetscCheck((app->problem.exact || app->problem.initial) && app->problem.nu > 0, un->comm, PETSC_ERR_ARG_WRONG, "Problem %s names physics 'sem_ns' but gives no state (exact solution or initial state) or no viscosity", app->problem_name);
  PetscCall(HoflowTSRegisterAll());
  PetscCall(PetscNew(&ns));
  ns->app        = app;
  ns->un         = un;
  ns->problem    = &app->problem;
  ns->nu         = app->problem.nu;
  ns->rotational = PETSC_TRUE;
  PetscCall(DiscGetSEM(app->disc, "Incompressible flow by velocity correction (physics sem_ns)", &ns->u));
  ns->dim             = ns->u->dim;
  un->physics         = ns;
  un->physics_destroy = SEMNSDestroy;
  un->physics_errors  = SEMNSErrors;
  un->physics_failure = SEMNSFailure;
  un->physics_setup   = SEMNSSetUp;
  un->monitor_names   = "L2_error_velocity,L2_error_pressure,kinetic_energy,divergence,energy,dissipation,enstrophy,enstrophy_dissipation";
  un->physics_monitor = SEMNSMonitor;
  un->own_solver      = PETSC_TRUE;
  PetscCheck(app->order >= 2, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT ": the velocity-correction scheme on -disc sem needs N >= 2 (equal-order Q_N velocity and pressure; the rotational boundary term takes second derivatives of the velocity)", app->order);
  PetscOptionsBegin(un->comm, NULL, "Incompressible flow on -disc sem (velocity correction)", NULL);
  PetscCall(PetscOptionsBool("-sem_ns_dealias", "Over-integrate the convection with the 3/2 rule (3N/2 + 1 Gauss points a direction) instead of collocating it at the GLL nodes", NULL, dealias, &dealias, NULL));
  PetscCall(PetscOptionsBool("-sem_ns_rotational", "Keep the viscous term -nu curl curl u* of the rotational form in the pressure equation and its boundary condition (false: the standard form, at most first order in time with walls)", NULL, ns->rotational, &ns->rotational, NULL));
  PetscCall(PetscOptionsBool("-sem_ns_exact_history", "Start with the past levels from the exact solution (full order from the first step; problems with an exact solution)", NULL, ns->exact_history, &ns->exact_history, NULL));
  PetscOptionsEnd();
  PetscCheck(!ns->exact_history || app->problem.exact, un->comm, PETSC_ERR_ARG_WRONG, "-sem_ns_exact_history: problem %s has no exact solution", app->problem_name);

  /* the equal-order pressure and the flow operators */
  PetscCall(DiscCreate(mesh, "sem", app->order, &ns->pdisc));
  PetscCall(DiscGetSEM(ns->pdisc, "the pressure of physics sem_ns", &ns->p));
  PetscCall(SEMFlowCreate(ns->u, ns->p, dealias, &ns->flow));
  PetscCall(SEMNSBoundaryNodes(ns));

  /* pressure Poisson: no Dirichlet rows, the constants as null space (also of its LOR matrix) */
  {
    PetscInt *free_faces;
    PetscCall(PetscCalloc1(PetscMax(mesh->nslots, 1), &free_faces));
    PetscCall(SEMOperatorCreate(ns->p, 0.0, free_faces, &ns->Apres));
    PetscCall(PetscFree(free_faces));
  }
  PetscCall(PetscObjectSetName((PetscObject)ns->Apres, "SEM pressure Poisson"));
  PetscCall(MatNullSpaceCreate(un->comm, PETSC_TRUE, 0, NULL, &ns->pres_null));
  PetscCall(MatSetNullSpace(ns->Apres, ns->pres_null));
  PetscCall(SEMNSCreateKSP(un->comm, "pres_", 1e-10, &ns->kpres));
  PetscCall(HoflowKSPSetOperators(ns->kpres, ns->Apres));
  /* the velocity's right-hand side is O(u / (nu dt)): a relative tolerance leaves an error of rtol |u| in
   * every step, whatever dt, which BDF3 reached at dt = 1e-3 on the Beltrami flow (N = 7: 6.1e-9 at 1e-10,
   * 3.2e-10 at 1e-12); the screened operator is well conditioned, 1e-12 costs about 3 more iterations */
  PetscCall(SEMNSCreateKSP(un->comm, "vel_", 1e-12, &ns->kvel));

  /* velocity work vectors and the Dirichlet rows */
  {
    char    *mask;
    PetscInt nrows, *rows;
    PetscCall(DMCreateGlobalVector(ns->u->dm, &ns->mask));
    PetscCall(SEMDiscDirichletDofs(ns->u, mesh->face_type, &mask, &nrows, &rows));
    PetscCall(VecZeroEntries(ns->mask));
    for (PetscInt k = 0; k < nrows; k++) PetscCall(VecSetValue(ns->mask, rows[k], 1.0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(ns->mask));
    PetscCall(VecAssemblyEnd(ns->mask));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nrows, 1, MPIU_INT, MPI_SUM, un->comm));
    ns->has_dirichlet = (PetscBool)(nrows > 0);
    PetscCall(PetscFree(mask));
    PetscCall(PetscFree(rows));
  }
  PetscCall(VecDuplicate(ns->mask, &ns->gD));
  PetscCall(VecDuplicate(ns->mask, &ns->t));
  PetscCall(VecDuplicate(ns->mask, &ns->b));
  PetscCall(VecDuplicate(ns->mask, &ns->wu));
  {
    PetscScalar v;
    PetscCall(VecSum(ns->p->mass, &v));
    ns->volume = PetscRealPart(v);
  }

  /* the state (u, p) at t = 0: the problem's state interpolated at the nodes */
  PetscCall(DMCreateGlobalVector(ns->u->dm, &ns->sub[0]));
  PetscCall(DMCreateGlobalVector(ns->p->dm, &ns->sub[1]));
  PetscCall(VecDuplicate(ns->sub[1], &ns->bp));
  PetscCall(PetscObjectSetName((PetscObject)ns->sub[0], "velocity"));
  PetscCall(PetscObjectSetName((PetscObject)ns->sub[1], "p"));
  pt = (SEMNSPoint){ns, 0.0};
  PetscCall(SEMDiscInterpolate(ns->u, SEMNSVelocity, &pt, ns->sub[0]));
  PetscCall(SEMDiscInterpolate(ns->p, SEMNSPressure, &pt, ns->sub[1]));
  un->fields[0]      = ns->sub[0];
  un->fields[1]      = ns->sub[1];
  un->field_names[0] = "velocity";
  un->field_names[1] = "p";
  un->nfields        = 2;
  PetscCall(VecCreateNest(un->comm, 2, NULL, ns->sub, &un->state));
  PetscCall(PetscObjectSetName((PetscObject)un->state, "velocity_p"));

  /* the time integrator */
  PetscCall(TSSetType(un->ts, TSVELCORR));
  un->required_ts_type = TSVELCORR;
  PetscCall(TSSetExactFinalTime(un->ts, TS_EXACTFINALTIME_STEPOVER));
  if (app->problem.default_dt > 0) PetscCall(TSSetTimeStep(un->ts, app->problem.default_dt));
  if (app->problem.default_max_time > 0) PetscCall(TSSetMaxTime(un->ts, app->problem.default_max_time));
  ops.ctx            = ns;
  ops.nu             = ns->nu;
  ops.velocity_scale = app->problem.velocity_scale > 0 ? app->problem.velocity_scale : 1.0;
  ops.convection     = SEMNSConvection;
  ops.forcing        = app->problem.forcing ? SEMNSForcing : NULL;
  ops.pressure_solve = SEMNSPressureSolve;
  ops.velocity_solve = SEMNSVelocitySolve;
  ops.pressure_ksp   = ns->kpres;
  ops.velocity_ksp   = ns->kvel;
  PetscCall(TSVelCorrSetOps(un->ts, &ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMNSRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, SEMNSCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt SEMNSComponents(PetscInt dim)
{
  return dim; /* the velocity; the pressure is a Disc of its own */
}

/* Boundary types: the velocity given (walls, inflow). Outflow (natural) boundaries are not done yet. */
PetscErrorCode PhysicsInfo_SEMNS(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc            = 1;
  info->bc[0]          = (MeshBoundaryType){"dirichlet", HOFLOW_FACE_DIRICHLET, NULL, "the velocity given (walls, inflow)"};
  info->run            = SEMNSRun;
  info->num_components = SEMNSComponents;
  info->disc           = "sem";
  PetscFunctionReturn(PETSC_SUCCESS);
}
