/* The compressible Euler equations (seed 002) by a discretization of conservation laws in space (through
 * its ConsLaw table, hoflow/conslaw.h: modal DG, -disc mdg, today) and an explicit PETSc TS
 * in time: TSSSP (-ts_ssp_type rks2, rks3, rk104; the default SSP-RK3) or TSRK, the right-hand side
 * M^{-1} R(u) as the TS RHSFunction. With -cfl C > 0 the step is set before every step from the current
 * state, dt = C min_e h_e / ((2N+1) max (|v| + c)), h_e = dim |E| / |dE|; otherwise -ts_dt.
 *
 * Limiting (-euler_limiter barth_jespersen): the Barth–Jespersen limiter of the linear part (seed 002
 * §4.3.5), then (-euler_positivity, on by default with a limiter) Zhang & Shu's scaling that keeps density and
 * pressure >= -euler_positivity_eps at every volume and face cubature point, applied to the argument of every right-hand-side evaluation (each stage state) and to the
 * state after every step; it keeps the cell means, so the scheme stays conservative.
 *
 * Boundary types (-bc_<type> groups): slip_wall, supersonic_inflow (the state from -bc_supersonic_inflow_state
 * rho,v..,p or the problem's exact solution at t = 0), supersonic_outflow, farfield (the free stream from
 * -bc_farfield_mach, _angle (degrees), _pressure, _density, or the problem's exact solution), subsonic_inflow
 * (-bc_subsonic_inflow_total_pressure, _total_temperature, _direction) and pressure_outflow
 * (-bc_pressure_outflow_pressure).
 *
 * A step that leaves a non-physical state (density or pressure <= 0 or not finite at a volume point)
 * is undone: the run stops with the cell and the time, the last good state kept and written (output,
 * checkpoint). Monitors: L2_error_density, mass, momentum_x, energy, limited_cells, residual (|| M^{-1} R(u) ||_2).
 *
 * The compressible Navier–Stokes equations (physics navier_stokes, seed 004) are the same run with the
 * BR2 viscous terms (hoflow/kernels/mdg_viscous.h): -ns_viscosity mu_0 (default the problem's),
 * -ns_prandtl (0.72), Sutherland's law with -ns_sutherland_constant S > 0 and -ns_sutherland_temperature,
 * -ns_br2_eta (default: the most faces of an element), and two more boundary types: no_slip_isothermal
 * (the wall temperature and velocity from the problem's exact state, else -bc_wall_temperature and
 * -bc_wall_velocity) and no_slip_adiabatic (the exact state's wall velocity, else -bc_wall_velocity, default 0).
 * -bc_farfield_correction source|oseen (2D and 3D, Navier-Stokes with no-slip walls only: refused without a body):
 * the data of the far-field types farfield and freestream become the free stream plus the body's far-field
 * disturbance, a source of the drag (volume flux D / (rho U)), in 2D a vortex of the lift (Thomas & Salas 1986),
 * with oseen also the Oseen wake downstream (EulerFarfieldDisturbed in hoflow/pointwise/euler.h); their
 * strengths follow the wall force, lagged by a step (from the step where it settled:
 * -bc_farfield_correction_settle; every -bc_farfield_correction_interval steps), or are fixed by
 * -bc_farfield_correction_cd/_cl; the centre is -bc_farfield_correction_center (default the walls' centroid).
 * The CFL step adds the diffusive limit: dt = C / ((2N+1) max ((|v| + c)/h + (2N+1) D / h^2)).
 *
 * Linear advection (physics advection): u_t + div(a u) = 0 of one scalar, the same run with the flux type
 * EULER_FLUX_ADVECTION (hoflow/pointwise/advection.h: upwind flux), a = the problem's velocity_scale times its
 * flow_direction, periodic meshes only (no boundary types), no limiter; the summary prints L2_u and the
 * discretization's energy (ConsLawEnergy: -disc fr's VCJH norm), the monitor energy_norm its history.
 *
 * Implicit integrators (-ts_type pseudo for steady states by pseudo-transient continuation, or beuler,
 * cn, theta, bdf) solve each step by Newton-Krylov: the operator matrix-free (SNES's finite
 * differences of the residual), GMRES preconditioned by the Jacobian assembled by colored finite
 * differences (op/conslaw_jacobian.c; -euler_jacobian_full 0: its element blocks only; -euler_jacobian_lag L:
 * a new one every L steps, shifted every step) with any PETSc PC (LU or ILU on one rank, block
 * Jacobi/ILU by default on several). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/conslaw.h>
#include <hoflow/dg.h>
#include <hoflow/fr.h>
#include <hoflow/log.h>
#include <hoflow/ts.h>
#include <hoflow/unsteady.h>

typedef struct {
  App            *app;
  ConsLaw         cl; /* the discretization (hoflow/conslaw.h) */
  PetscReal       gamma, cfl;
  PetscInt        flux;
  PetscBool       limit, positivity, viscous;
  PetscBool       advection; /* physics advection: linear advection of one scalar (EULER_FLUX_ADVECTION) */
  PetscBool       pseudo;    /* -ts_type pseudo: pseudo-transient continuation to the steady state */
  ConsLawJacobian bj;        /* implicit steps: the Jacobian by colored finite differences (the preconditioner) */
  Mat             Pj, J0;    /* shift I - J, and J itself (kept for -euler_jacobian_lag) */
  PetscInt        jac_lag, jac_calls;
  PetscReal       Fp[3], Fv[3];    /* the wall forces ... */
  PetscReal       forces_time;     /* ... of the state at this time (monitors) */
  PetscReal       kinetic_last[2]; /* the monitor dissipation: the last kinetic energy and its time (time -1: none) */
  Vec             last_good, limited_stage;
  PetscBool       local_dt; /* -euler_local_time_step: explicit steps to a steady state, each element at its own CFL step */
  Vec             lts;      /* ... the factor max speed / the element's speed on every row */
  PetscReal       lts_ratio; /* -euler_local_time_step_ratio: the factor's cap (0: none) */
  Vec             lts_cap;   /* ... as a vector (VecPointwiseMin) */
  Vec             residual_work;
  PetscReal       steady_rtol; /* -euler_steady_rtol: explicit runs stop when || M^{-1} R(u) || falls by this factor */
  PetscReal       residual0;   /* ... the first step's residual */
  PetscInt        steady_interval;
  Disc            output;           /* nodal DG of order max(N, 1): the points of the output (-output_interval) */
  PetscBool      *row_from_problem; /* [nbpoints] boundary rows set by the problem's function (refreshed in time) */
  PetscReal       bc_time;          /* the time of those rows */
  PetscReal       last_good_time, total0[EULER_NV_MAX];
  PetscInt        last_good_step, nlimited_total;
  char            failure[512];
  char            means_file[PETSC_MAX_PATH_LEN];   /* -euler_means_file: element means written at the end ("" none) */
  char            surface_file[PETSC_MAX_PATH_LEN]; /* -ns_surface_file: wall pressure and shear written at the end ("" none) */
  NSViscosity     vis;                              /* the viscosity law (Navier-Stokes) */
  /* -bc_farfield_correction: the far-field data of types farfield and freestream are the free stream plus the
   * body's far-field disturbance (EulerFarfieldDisturbed in hoflow/pointwise/euler.h), its strength from the wall forces, lagged */
  PetscInt   ff_type;  /* EULER_FF_* */
  PetscReal *ff_base;  /* [nbpoints*EULER_BC_DATA] the rows as set from the free stream (far-field rows used) */
  PetscReal  ff_x0[3]; /* the body's centre (-bc_farfield_correction_center, default the walls' centroid) */
  PetscBool  ff_fixed; /* strengths from -bc_farfield_correction_cd/_cl instead of the wall forces */
  PetscReal  ff_cd, ff_cl, ff_settle;
  PetscReal  ff_freeze; /* the strength stops following the force once it changes by less than this fraction */
  PetscBool  ff_frozen;
  PetscInt   ff_interval; /* steps between the strength's updates */
  PetscBool  ff_on;       /* the correction applied (from the first step whose force is within ff_settle of the last) */
  PetscReal  ff_F[3];     /* the force in use (wall forces), and the last one measured before it is on */
  PetscBool  ff_have_prev;
} Euler;

/* -bc_farfield_correction types */
enum {
  EULER_FF_NONE   = 0,
  EULER_FF_SOURCE = 1,
  EULER_FF_OSEEN  = 2
};
static const char *const EulerFarfieldCorrections[] = {"none", "source", "oseen", "EulerFarfieldCorrection", "EULER_FF_", NULL};

static const char *const EulerFluxTypes[] = {"rusanov", "roe", "hllc", "EulerFluxType", "EULER_FLUX_", NULL};
static const char *const EulerLimiters[]  = {"none", "barth_jespersen", "EulerLimiter", "EULER_LIMITER_", NULL};

static PetscErrorCode EulerDestroy(void **ptr)
{
  Euler *eu = (Euler *)*ptr;

  PetscFunctionBeginUser;
  if (!eu) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ConsLawJacobianDestroy(&eu->bj));
  PetscCall(MatDestroy(&eu->Pj));
  PetscCall(MatDestroy(&eu->J0));
  PetscCall(VecDestroy(&eu->last_good));
  PetscCall(VecDestroy(&eu->limited_stage));
  PetscCall(VecDestroy(&eu->lts));
  PetscCall(VecDestroy(&eu->lts_cap));
  PetscCall(VecDestroy(&eu->residual_work));
  PetscCall(PetscFree(eu->row_from_problem));
  PetscCall(PetscFree(eu->ff_base));
  PetscCall(DiscDestroy(&eu->output));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* time-dependent boundary data: the problem's rows at time t */
static PetscErrorCode EulerBoundaryDataAt(Euler *eu, PetscReal t)
{
  const Problem *problem = &eu->app->problem;
  ConsLaw        cl      = eu->cl;

  PetscFunctionBeginUser;
  if (!problem->boundary_time_dependent || t == eu->bc_time) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < cl->nbpoints; i++)
    if (eu->row_from_problem[i]) PetscCall((problem->boundary ? problem->boundary : problem->exact)(cl->dim, t, cl->bx + i * cl->dim, cl->nv, cl->bc_point + i * EULER_BC_DATA, NULL, problem->ctx));
  PetscCall(ConsLawUpdateBoundaryData(cl));
  eu->bc_time = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerRHSFunction(TS ts, PetscReal t, Vec u, Vec f, void *ctx)
{
  Euler   *eu = (Euler *)ctx;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(EulerBoundaryDataAt(eu, t));
  if (eu->limit) { /* limit the stage state's copy: the right-hand side of the limited state */
    if (!eu->limited_stage) PetscCall(VecDuplicate(u, &eu->limited_stage));
    PetscCall(VecCopy(u, eu->limited_stage));
    PetscCall(ConsLawLimit(eu->cl, eu->limited_stage, &n));
    u = eu->limited_stage;
  }
  PetscCall(ConsLawRHS(eu->cl, u, f));
  if (eu->local_dt) PetscCall(HoflowVecPointwiseMult(f, f, eu->lts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local time steps (steady states only: the time is no longer physical): every element advances by its
 * own CFL step C / (cfl_scale s_e), s_e its largest (|v| + c)/h (+ diffusive part), through the global
 * step C / (cfl_scale max s) and the factor max s / s_e on its rows of the right-hand side. The factors come
 * from the element speeds of ConsLawMaxWaveSpeed before every step, spread to the element's rows on the
 * state's backend (ConsLawSpreadElementValues), so a device state is not copied. -euler_local_time_step_ratio caps
 * the factor: where the local steps grow away from a wall (thin prisms, larger tetrahedra outside), sound runs
 * slower near the wall than outside in the local-step clock and waves along the wall are trapped there (refracted
 * back, a whispering gallery): on the coarse sphere the drag swung between -0.8 and 3.3 with a period of about
 * 1 d / c and died out only after about 1500 steps; with the cap 2 it fell smoothly (docs/design-notes.md). */
static PetscErrorCode EulerLocalTimeSteps(Euler *eu, Vec u, Vec element_speed, PetscReal smax)
{
  PetscFunctionBeginUser;
  if (!eu->lts) PetscCall(VecDuplicate(u, &eu->lts));
  PetscCall(ConsLawSpreadElementValues(eu->cl, element_speed, eu->lts));
  PetscCall(VecReciprocal(eu->lts));
  PetscCall(VecScale(eu->lts, smax));
  if (eu->lts_ratio > 0) {
    if (!eu->lts_cap) {
      PetscCall(VecDuplicate(u, &eu->lts_cap));
      PetscCall(VecSet(eu->lts_cap, eu->lts_ratio));
    }
    PetscCall(HoflowVecPointwiseMin(eu->lts, eu->lts, eu->lts_cap));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* || M^{-1} R(u) ||_2 at time t (the residual monitor and -euler_steady_rtol), in a work vector kept */
static PetscErrorCode EulerResidualNorm(Euler *eu, Vec u, PetscReal t, PetscReal *r)
{
  PetscFunctionBeginUser;
  if (!eu->residual_work) PetscCall(VecDuplicate(u, &eu->residual_work));
  PetscCall(EulerBoundaryDataAt(eu, t));
  PetscCall(ConsLawRHS(eu->cl, u, eu->residual_work));
  PetscCall(VecNorm(eu->residual_work, NORM_2, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* implicit steps: F(t, u, u') = u' - M^{-1} R(u); its Jacobian shift I - d(M^{-1} R)/du preconditioned by
 * the element blocks (the operator itself is matrix-free, SNESSetUseMatrixFree) */
static PetscErrorCode EulerIFunction(TS ts, PetscReal t, Vec u, Vec udot, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(EulerRHSFunction(ts, t, u, F, ctx));
  PetscCall(VecAYPX(F, -1.0, udot));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerIJacobian(TS ts, PetscReal t, Vec u, Vec udot, PetscReal shift, Mat A, Mat P, void *ctx)
{
  Euler *eu = (Euler *)ctx;

  PetscFunctionBeginUser;
  PetscCall(EulerBoundaryDataAt(eu, t));
  if (eu->jac_calls++ % eu->jac_lag == 0) { /* a new J every -euler_jacobian_lag calls; the shift every call */
    if (!eu->J0) {
      PetscCall(ConsLawJacobianCompute(eu->bj, u, P));
      PetscCall(MatDuplicate(P, MAT_COPY_VALUES, &eu->J0));
    } else
      PetscCall(ConsLawJacobianCompute(eu->bj, u, eu->J0));
  }
  PetscCall(MatCopy(eu->J0, P, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(P, -1.0));
  PetscCall(MatShift(P, shift));
  if (A != P) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool EulerIsFarfield(PetscInt type)
{
  return (PetscBool)(type == EULER_BC_FARFIELD || type == EULER_BC_FREESTREAM);
}

/* The far-field rows with the disturbance of the current strength (the wall force eu->ff_F, or the fixed
 * coefficients), then the device copies */
static PetscErrorCode EulerFarfieldApply(Euler *eu)
{
  ConsLaw         cl  = eu->cl;
  const Problem  *pb  = &eu->app->problem;
  const PetscInt  dim = cl->dim;
  const PetscReal g   = eu->gamma;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < cl->nbpoints; i++) {
    const PetscReal *ub = eu->ff_base + i * EULER_BC_DATA;
    PetscReal        w[EULER_NV_MAX], U = 0, e[3] = {0, 0, 0}, r[3] = {0, 0, 0}, D = 0, L = 0, nu;
    if (!EulerIsFarfield(cl->btype[i])) continue;
    EulerConservativeToPrimitive((int)dim, g, ub, w);
    for (PetscInt d = 0; d < dim; d++) U += w[1 + d] * w[1 + d];
    U = PetscSqrtReal(U);
    for (PetscInt d = 0; d < dim; d++) e[d] = w[1 + d] / U;
    if (eu->ff_fixed) { /* coefficients on q L, q = rho U^2 / 2 of this free stream, L the problem's length */
      const PetscReal qL = 0.5 * w[0] * U * U * pb->length_scale;
      D                  = eu->ff_cd * qL;
      L                  = eu->ff_cl * qL;
    } else {
      for (PetscInt d = 0; d < dim; d++) D += eu->ff_F[d] * e[d];
      if (dim == 2) L = eu->ff_F[1] * e[0] - eu->ff_F[0] * e[1];
    }
    for (PetscInt d = 0; d < dim; d++) r[d] = cl->bx[i * dim + d] - eu->ff_x0[d];
    nu = NSMu(&eu->vis, w[dim + 1] / w[0]) / w[0];
    EulerFarfieldDisturbed((int)dim, g, ub, r, D, L, nu, eu->ff_type == EULER_FF_OSEEN, cl->bc_point + i * EULER_BC_DATA);
  }
  PetscCall(ConsLawUpdateBoundaryData(cl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a step (every -bc_farfield_correction_interval steps): the wall force of the new state; the correction
 * switches on at the first update whose force differs from the last one's by less than
 * -bc_farfield_correction_settle of its size (the first steps of an impulsive start have forces 100 times the
 * steady ones), and follows the force at every update after. */
static PetscErrorCode EulerFarfieldUpdate(Euler *eu, Vec u, PetscReal t, PetscInt step)
{
  PetscReal F[3] = {0, 0, 0}, dF = 0, nF = 0;

  PetscFunctionBeginUser;
  if (eu->ff_type == EULER_FF_NONE || eu->ff_fixed || eu->ff_frozen || step % eu->ff_interval) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ConsLawWallForces(eu->cl, u, eu->Fp, eu->Fv)); /* shared with the force monitors of this time */
  eu->forces_time = t;
  for (PetscInt d = 0; d < eu->cl->dim; d++) {
    F[d] = eu->Fp[d] + eu->Fv[d];
    dF += PetscSqr(F[d] - eu->ff_F[d]);
    nF += PetscSqr(F[d]);
  }
  if (!eu->ff_on && eu->ff_have_prev && PetscSqrtReal(dF) <= eu->ff_settle * PetscSqrtReal(nF)) {
    eu->ff_on = PETSC_TRUE;
    PetscCall(PetscPrintf(eu->app->comm, "far field: the %s correction on from step %" PetscInt_FMT " (the wall force changed by %.2e of itself)\n", EulerFarfieldCorrections[eu->ff_type], step, (double)(PetscSqrtReal(dF / nF))));
  }
  if (eu->ff_on && PetscSqrtReal(dF) <= eu->ff_freeze * PetscSqrtReal(nF)) {
    /* converged: the data stay those of the last update, so the steady state is reached against fixed data
     * (following the force to the end left the last residual measured against data one step newer) */
    eu->ff_frozen = PETSC_TRUE;
    PetscCall(PetscPrintf(eu->app->comm, "far field: the correction's strength frozen at step %" PetscInt_FMT " (the wall force changed by %.2e of itself)\n", step, (double)(PetscSqrtReal(dF / nF))));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt d = 0; d < 3; d++) eu->ff_F[d] = F[d];
  eu->ff_have_prev = PETSC_TRUE;
  if (eu->ff_on) PetscCall(EulerFarfieldApply(eu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* before a step: keep the state, set the CFL step */
static PetscErrorCode EulerPreStepWork(TS ts)
{
  Unsteady *un;
  Euler    *eu;
  Vec       u;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &un));
  eu = (Euler *)un->physics;
  PetscCall(TSGetSolution(ts, &u));
  if (!eu->last_good) PetscCall(VecDuplicate(u, &eu->last_good));
  PetscCall(VecCopy(u, eu->last_good));
  PetscCall(TSGetTime(ts, &eu->last_good_time));
  PetscCall(TSGetStepNumber(ts, &eu->last_good_step));
  if (eu->cfl > 0 && !eu->pseudo) {
    PetscReal speed;
    PetscInt  cell;
    Vec       element_speed;
    PetscCall(ConsLawMaxWaveSpeed(eu->cl, u, &speed, &cell, &element_speed));
    PetscCheck(speed > 0, un->comm, PETSC_ERR_NOT_CONVERGED, "Non-physical state (density or pressure <= 0) before step %" PetscInt_FMT " at t = %g (cell %" PetscInt_FMT ")", eu->last_good_step, (double)eu->last_good_time, cell);
    {
      PetscReal dt = eu->cfl / (eu->cl->cfl_scale * speed), tmax;
      if (eu->local_dt) PetscCall(EulerLocalTimeSteps(eu, u, element_speed, speed));
      PetscCall(TSGetMaxTime(ts, &tmax));
      if (eu->last_good_time + dt > tmax) dt = PetscMax(tmax - eu->last_good_time, 1e-14 * tmax); /* land on the final time */
      PetscCall(TSSetTimeStep(ts, dt));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after a step: limit, then check the state; a non-physical one is undone and stops the run */
static PetscErrorCode EulerPostStepWork(TS ts)
{
  Unsteady *un;
  Euler    *eu;
  Vec       u;
  PetscReal speed, t;
  PetscInt  cell, n;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &un));
  eu = (Euler *)un->physics;
  PetscCall(TSGetSolution(ts, &u));
  if (eu->limit) {
    PetscCall(ConsLawLimit(eu->cl, u, &n));
    eu->nlimited_total += n;
  }
  PetscCall(ConsLawMaxWaveSpeed(eu->cl, u, &speed, &cell, NULL));
  if (!(speed > 0)) {
    PetscInt cell_min = cell >= 0 ? cell : PETSC_MAX_INT;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cell_min, 1, MPIU_INT, MPI_MIN, un->comm));
    PetscCall(TSGetTime(ts, &t));
    PetscCall(PetscSNPrintf(eu->failure, sizeof(eu->failure), "the step from t = %g to t = %g gave a non-physical state (density or pressure <= 0, or not finite) in cell %" PetscInt_FMT "%s", (double)eu->last_good_time, (double)t, cell_min, eu->limit ? "" : " (no limiter: try -euler_limiter barth_jespersen or a smaller -cfl)"));
    PetscCall(VecCopy(eu->last_good, u));
    PetscCall(TSSetTime(ts, eu->last_good_time));
    PetscCall(TSSetStepNumber(ts, eu->last_good_step));
    PetscCall(TSSetConvergedReason(ts, TS_DIVERGED_STEP_REJECTED));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (eu->ff_type != EULER_FF_NONE) {
    PetscInt step;
    PetscCall(TSGetStepNumber(ts, &step));
    PetscCall(TSGetTime(ts, &t));
    PetscCall(EulerFarfieldUpdate(eu, u, t, step));
  }
  if (eu->steady_rtol > 0) { /* explicit steps to a steady state: stop at the residual's relative fall */
    PetscInt step;
    PetscCall(TSGetStepNumber(ts, &step));
    if (step == 1 || step % eu->steady_interval == 0) {
      PetscReal r;
      PetscCall(TSGetTime(ts, &t));
      PetscCall(EulerResidualNorm(eu, u, t, &r));
      if (step == 1)
        eu->residual0 = r;
      else if (r <= eu->steady_rtol * eu->residual0) {
        PetscCall(PetscPrintf(un->comm, "steady: residual %g fell by %g (-euler_steady_rtol %g) at step %" PetscInt_FMT "\n", (double)r, (double)(eu->residual0 / r), (double)eu->steady_rtol, step));
        PetscCall(TSSetConvergedReason(ts, TS_CONVERGED_USER));
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the pre- and post-step work under their events (StepPre, StepPost: the time loop outside TSStep) */
static PetscErrorCode EulerStepLogged(TS ts, PetscLogEvent event, PetscErrorCode (*work)(TS))
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(event, ts, 0, 0, 0));
  PetscCall(work(ts));
  PetscCall(PetscLogEventEnd(event, ts, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerPreStep(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(EulerStepLogged(ts, HOFLOW_StepPre, EulerPreStepWork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerPostStep(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(EulerStepLogged(ts, HOFLOW_StepPost, EulerPostStepWork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerFailure(Unsteady *un, const char **message)
{
  Euler *eu = (Euler *)un->physics;

  PetscFunctionBeginUser;
  *message = eu->failure;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerMonitor(Unsteady *un, const char name[], PetscReal time, PetscReal *value)
{
  Euler    *eu = (Euler *)un->physics;
  PetscReal v[EULER_NV_MAX];

  PetscFunctionBeginUser;
  if (!strcmp(name, "L2_error_density") || !strcmp(name, "L2_error")) {
    ProblemState ep = {&un->app->problem, un->app->problem.exact, time, eu->cl->nv};
    PetscCheck(ep.f, un->comm, PETSC_ERR_ARG_WRONG, "Problem %s has no exact solution for the monitor %s", un->app->problem_name, name);
    PetscCall(ConsLawErrorNorm(eu->cl, NORM_2, un->state, ProblemStateFunction, &ep, v));
    *value = v[0];
  } else if (!strcmp(name, "limited_cells"))
    *value = eu->cl->nlimited;
  else if (!strcmp(name, "energy_norm"))
    PetscCall(ConsLawEnergy(eu->cl, un->state, value));
  else if (!strcmp(name, "kinetic_energy") || !strcmp(name, "dissipation")) { /* (1/|Omega|) int rho |v|^2 / 2 (device reductions:
                                                                               * disc/fr_kinetic.c), -dE/dt since the last evaluation (NaN at the first) */
    PetscReal e;
    PetscCall(FRKineticEnergy(un->app->disc, un->state, &e));
    if (!strcmp(name, "kinetic_energy"))
      *value = e;
    else {
      *value              = eu->kinetic_last[1] >= 0 && time > eu->kinetic_last[1] ? -(e - eu->kinetic_last[0]) / (time - eu->kinetic_last[1]) : (PetscReal)NAN;
      eu->kinetic_last[0] = e;
      eu->kinetic_last[1] = time;
    }
  } else if (!strcmp(name, "enstrophy") || !strcmp(name, "enstrophy_dissipation")) { /* eps = (1/|Omega|) int rho |omega|^2 / 2; 2 mu0 eps (rho0 = 1) */
    PetscCall(FREnstrophy(eu->cl, un->state, value));
    if (!strcmp(name, "enstrophy_dissipation")) *value *= 2 * eu->vis.mu;
  } else if (!strcmp(name, "energy_l2")) { /* sum_k ||u_k||^2: the L2 part alone of -disc fr's energy_norm */
    PetscCall(ConsLawErrorNorm(eu->cl, NORM_2, un->state, NULL, NULL, v));
    *value = 0;
    for (PetscInt k = 0; k < eu->cl->nv; k++) *value += v[k] * v[k];
  } else if (!strcmp(name, "residual"))
    PetscCall(EulerResidualNorm(eu, un->state, time, value));    /* the steady residual's history */
  else if (!strncmp(name, "drag", 4) || !strcmp(name, "lift")) { /* coefficients on the no-slip walls: force / (rho U^2 L / 2),
                                                                  * rho_inf = 1; drag along the free stream (the problem's
                                                                  * flow_direction, default x), lift along it turned +90 degrees */
    const Problem  *pb   = &un->app->problem;
    const PetscReal q    = 0.5 * pb->velocity_scale * pb->velocity_scale * pb->length_scale;
    PetscReal       e[3] = {pb->flow_direction[0], pb->flow_direction[1], pb->flow_direction[2]}, len, along[2] = {0, 0}, normal[2] = {0, 0};
    PetscCheck(q > 0, un->comm, PETSC_ERR_ARG_WRONG, "Monitor %s: problem %s has no reference speed and length", name, un->app->problem_name);
    len = PetscSqrtReal(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    if (len > 0)
      for (PetscInt d = 0; d < 3; d++) e[d] /= len;
    else
      e[0] = 1;
    if (time != eu->forces_time) { /* the four monitors of one step share one evaluation */
      PetscCall(ConsLawWallForces(eu->cl, un->state, eu->Fp, eu->Fv));
      eu->forces_time = time;
    }
    for (PetscInt d = 0; d < eu->cl->dim; d++) { /* [0] pressure, [1] viscous parts */
      along[0] += eu->Fp[d] * e[d];
      along[1] += eu->Fv[d] * e[d];
    }
    normal[0] = eu->Fp[1] * e[0] - eu->Fp[0] * e[1];
    normal[1] = eu->Fv[1] * e[0] - eu->Fv[0] * e[1];
    *value    = !strcmp(name, "drag") ? (along[0] + along[1]) / q : !strcmp(name, "drag_pressure") ? along[0] / q
                                                                : !strcmp(name, "drag_viscous")    ? along[1] / q
                                                                                                   : (normal[0] + normal[1]) / q;
  } else {
    PetscCall(ConsLawIntegrate(eu->cl, un->state, v));
    *value = !strcmp(name, "mass") ? v[0] : !strcmp(name, "momentum_x") ? v[1]
                                                                        : v[eu->cl->dim + 1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* density, pressure, mach or a velocity component at the nodes of the output discretization: the state
 * evaluated there (ConsLawEvaluate at the reference nodes of each block) */
static PetscErrorCode EulerDerived(Unsteady *un, const char name[], PetscReal time, Vec field)
{
  Euler         *eu   = (Euler *)un->physics;
  ConsLaw        cl   = eu->cl;
  const Mesh    *mesh = un->app->mesh;
  DGDisc        *dg   = (DGDisc *)eu->output->data;
  const PetscInt nv = cl->nv, dim = cl->dim;
  PetscScalar   *out;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(field, &out));
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    const RefElement *ref = dg->blocks[b].ref;
    const PetscInt    K   = mesh->blocks[b].end - mesh->blocks[b].start;
    PetscReal        *w;
    PetscCall(PetscMalloc1(PetscMax(K * ref->Np * nv, 1), &w));
    PetscCall(ConsLawEvaluate(cl, un->state, b, ref->Np, ref->xi, w));
    for (PetscInt k = 0; k < K; k++) {
      const PetscInt e = mesh->blocks[b].start + k;
      for (PetscInt i = 0; i < ref->Np; i++) {
        const PetscReal *wi = w + (k * ref->Np + i) * nv;
        if (!strncmp(name, "velocity_", 9)) { /* velocity_x, _y, _z */
          const PetscInt d          = name[9] - 'x';
          out[dg->elem_node[e] + i] = d >= 0 && d < dim ? wi[1 + d] / wi[0] : 0.0;
        } else
          out[dg->elem_node[e] + i] = !strcmp(name, "density") || !strcmp(name, "u") ? wi[0] : !strcmp(name, "pressure") ? EulerPressure((int)dim, eu->gamma, wi)
                                                                                                                         : EulerMach((int)dim, eu->gamma, wi);
      }
    }
    PetscCall(PetscFree(w));
  }
  PetscCall(VecRestoreArrayWrite(field, &out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -euler_means_file FILE: every element's centroid and its cell means of density and pressure (ConsLawElementMeans),
 * as float32 records (x, y[, z], density,
 * pressure) in the order of the global elements, written by all ranks to one PETSc binary file (no header:
 * raw big-endian floats), for plots of runs whose field output would be large (bench/render_means.py). */
static PetscErrorCode EulerWriteMeans(Euler *eu, Vec state, const char file[])
{
  const Mesh    *mesh = eu->app->mesh;
  const PetscInt dim = eu->cl->dim, nv = eu->cl->nv, nr = dim + 2, K = mesh->K;
  PetscInt       start = 0;
  PetscReal     *means;
  float         *rec;
  PetscViewer    viewer;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(PetscMax(K * nr, 1), &rec, PetscMax(K * nv, 1), &means));
  PetscCall(ConsLawElementMeans(eu->cl, state, means));
  for (PetscInt e = 0; e < K; e++) {
    const PetscReal *mean = means + e * nv;
    PetscReal        c[3];
    MeshElementCentroid(mesh, e, c);
    for (PetscInt d = 0; d < dim; d++) rec[e * nr + d] = (float)c[d];
    rec[e * nr + dim]     = (float)mean[0];
    rec[e * nr + dim + 1] = (float)EulerPressure((int)dim, eu->gamma, mean);
  }
  PetscCallMPI(MPI_Exscan(&K, &start, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)state)));
  PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)state), file, FILE_MODE_WRITE, &viewer));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(PetscViewerBinaryWriteAll(viewer, rec, K * nr, start * nr, mesh->Kglobal * nr, PETSC_FLOAT));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(PetscFree2(rec, means));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)state), "means: wrote %" PetscInt_FMT " element means (x..., density, pressure as float32) to %s\n", mesh->Kglobal, file));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The wall's pressure and shear at every face point (rank 0 writes them all): x, y[, z], p, tau_x, tau_y[, tau_z]
 * (the viscous force density on the wall), Cp = (p - p_ref) / q and Cf = tau . t / q (below), with
 * q = U^2 / 2 (rho_inf = 1, U the problem's reference speed) and p_ref the initial state's pressure at the
 * origin (the free stream of external flows). */
static PetscErrorCode EulerWriteSurface(Euler *eu, Vec state, const char file[])
{
  App           *app = eu->app;
  const PetscInt dim = eu->cl->dim;
  PetscReal     *rows, *all = NULL, pref = 0, q;
  PetscInt       n;
  PetscMPIInt    rank, size, cnt, *counts = NULL, *displs = NULL;

  PetscFunctionBeginUser;
  q = 0.5 * PetscSqr(app->problem.velocity_scale > 0 ? app->problem.velocity_scale : 1.0);
  if (app->problem.initial) {
    PetscReal x0[3] = {0, 0, 0}, u0[EULER_NV_MAX];
    PetscCall(app->problem.initial(dim, 0.0, x0, eu->cl->nv, u0, NULL, app->problem.ctx));
    pref = EulerPressure((int)dim, eu->gamma, u0);
  }
  PetscCall(ConsLawWallSamples(eu->cl, state, &n, &rows));
  PetscCallMPI(MPI_Comm_rank(app->comm, &rank));
  PetscCallMPI(MPI_Comm_size(app->comm, &size));
  cnt = (PetscMPIInt)(n * CONSLAW_WALL_ROW);
  if (rank == 0) PetscCall(PetscMalloc2(size, &counts, size + 1, &displs));
  PetscCallMPI(MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, app->comm));
  if (rank == 0) {
    displs[0] = 0;
    for (PetscMPIInt r = 0; r < size; r++) displs[r + 1] = displs[r] + counts[r];
    PetscCall(PetscMalloc1(PetscMax(displs[size], 1), &all));
  }
  PetscCallMPI(MPI_Gatherv(rows, cnt, MPIU_REAL, all, counts, displs, MPIU_REAL, 0, app->comm));
  if (rank == 0) {
    FILE *fp = fopen(file, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-ns_surface_file %s: cannot open it for writing", file);
    fprintf(fp, dim == 3 ? "x,y,z,p,tau_x,tau_y,tau_z,Cp,Cf\n" : "x,y,p,tau_x,tau_y,Cp,Cf\n");
    for (PetscInt k = 0; k < displs[size] / CONSLAW_WALL_ROW; k++) {
      const PetscReal *row = all + k * CONSLAW_WALL_ROW;
      PetscReal        t2  = 0;
      for (PetscInt i = 0; i < dim; i++) fprintf(fp, "%.10e,", (double)row[i]);
      fprintf(fp, "%.10e,", (double)row[7]);
      for (PetscInt i = 0; i < dim; i++) {
        fprintf(fp, "%.10e,", (double)row[8 + i]);
        t2 += row[8 + i] * row[8 + i];
      }
      /* Cf: in 2D the shear along t = (-n_y, n_x) (n out of the fluid: counterclockwise around a body), so
       * it changes sign where the flow separates; in 3D its magnitude signed by its x component */
      fprintf(fp, "%.10e,%.10e\n", (double)((row[7] - pref) / q), (double)((dim == 2 ? -row[4] * row[8] + row[3] * row[9] : (row[8] < 0 ? -1 : 1) * PetscSqrtReal(t2)) / q));
    }
    fclose(fp);
    PetscCall(PetscFree(all));
    PetscCall(PetscFree2(counts, displs));
  }
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerErrors(Unsteady *un, char summary[], size_t len)
{
  Euler         *eu = (Euler *)un->physics;
  const PetscInt nv = eu->cl->nv;
  PetscReal      time, total[EULER_NV_MAX], drift = 0, err[EULER_NV_MAX], l1[EULER_NV_MAX] = {0, 0, 0, 0, 0};

  PetscFunctionBeginUser;
  PetscCall(TSGetTime(un->ts, &time));
  if (eu->means_file[0]) PetscCall(EulerWriteMeans(eu, un->state, eu->means_file)); /* the end of the run */
  if (eu->surface_file[0]) PetscCall(EulerWriteSurface(eu, un->state, eu->surface_file));
  PetscCall(ConsLawIntegrate(eu->cl, un->state, total));
  for (PetscInt k = 0; k < nv; k++) drift = PetscMax(drift, PetscAbsReal(total[k] - eu->total0[k]) / PetscMax(1.0, PetscAbsReal(eu->total0[k])));
  if (un->app->problem.exact) {
    ProblemState ep = {&un->app->problem, un->app->problem.exact, time, nv};
    PetscCall(ConsLawErrorNorm(eu->cl, NORM_2, un->state, ProblemStateFunction, &ep, err));
    PetscCall(ConsLawErrorNorm(eu->cl, NORM_1, un->state, ProblemStateFunction, &ep, l1));
    un->l2_error = err[0];
  }
  {
    PetscReal speed;
    PetscInt  cell;
    PetscCall(ConsLawMaxWaveSpeed(eu->cl, un->state, &speed, &cell, NULL));
    if (eu->advection) { /* every digit: -disc fr with c_DG and -disc mdg agree to round-off */
      PetscReal energy;
      PetscCall(ConsLawEnergy(eu->cl, un->state, &energy));
      PetscCall(PetscSNPrintf(summary, len, "L2_u %.15e L1_u %.15e conservation %.3e energy %.15e max_speed_over_h %.6e", (double)un->l2_error, (double)l1[0], (double)drift, (double)energy, (double)speed));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscSNPrintf(summary, len, "L2_density %.6e L1_density %.6e conservation %.3e limited %" PetscInt_FMT " max_speed_over_h %.6e", (double)un->l2_error, (double)l1[0], (double)drift, eu->nlimited_total, (double)speed));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of every boundary face point from the options (or the problem's exact solution). */
static PetscErrorCode EulerBoundaryData(Euler *eu)
{
  App            *app = eu->app;
  ConsLaw         cl  = eu->cl;
  const PetscInt  dim = cl->dim, nv = cl->nv;
  const PetscReal g = eu->gamma;
  PetscReal       inflow[EULER_NV_MAX], far_w[EULER_NV_MAX], far_u[EULER_NV_MAX], mach = 0.5, angle = 0, pfar = 1.0 / g, rhofar = 1.0, p0 = -1, T0 = -1, dir[3] = {0, 0, 0}, pout = -1;
  PetscInt        n_in = EULER_NV_MAX, ndir = 3, nvw = 3;
  PetscReal       twall = -1, vwall[3] = {0, 0, 0};
  PetscBool       set_in = PETSC_FALSE, set_far = PETSC_FALSE, flg;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(PetscMax(cl->nbpoints, 1), &eu->row_from_problem));
  PetscOptionsBegin(app->comm, NULL, "Euler boundary data", NULL);
  PetscCall(PetscOptionsRealArray("-bc_supersonic_inflow_state", "Supersonic inflow: rho,v_1..v_dim,p (default: the problem's exact solution)", NULL, inflow, &n_in, &set_in));
  PetscCall(PetscOptionsReal("-bc_farfield_mach", "Far field: free-stream Mach number", NULL, mach, &mach, &flg));
  set_far = (PetscBool)(set_far || flg);
  PetscCall(PetscOptionsReal("-bc_farfield_angle", "Far field: flow angle in degrees from the x axis", NULL, angle, &angle, &flg));
  set_far = (PetscBool)(set_far || flg);
  PetscCall(PetscOptionsReal("-bc_farfield_pressure", "Far field: free-stream pressure (default 1/gamma)", NULL, pfar, &pfar, &flg));
  set_far = (PetscBool)(set_far || flg);
  PetscCall(PetscOptionsReal("-bc_farfield_density", "Far field: free-stream density", NULL, rhofar, &rhofar, &flg));
  set_far = (PetscBool)(set_far || flg);
  PetscCall(PetscOptionsReal("-bc_subsonic_inflow_total_pressure", "Subsonic inflow: total pressure p0", NULL, p0, &p0, NULL));
  PetscCall(PetscOptionsReal("-bc_subsonic_inflow_total_temperature", "Subsonic inflow: total temperature T0 (T = p / rho)", NULL, T0, &T0, NULL));
  PetscCall(PetscOptionsRealArray("-bc_subsonic_inflow_direction", "Subsonic inflow: flow direction (default: against the outward normal)", NULL, dir, &ndir, NULL));
  PetscCall(PetscOptionsReal("-bc_pressure_outflow_pressure", "Pressure outflow: the static pressure", NULL, pout, &pout, NULL));
  if (eu->viscous) {
    PetscCall(PetscOptionsReal("-bc_wall_temperature", "No-slip isothermal walls: the wall temperature (T = p / rho; default: the problem's)", NULL, twall, &twall, NULL));
    PetscCall(PetscOptionsRealArray("-bc_wall_velocity", "No-slip walls: the wall velocity (default 0 or the problem's)", NULL, vwall, &nvw, NULL));
  }
  PetscOptionsEnd();
  if (set_in) {
    PetscCheck(n_in == nv, app->comm, PETSC_ERR_ARG_SIZ, "-bc_supersonic_inflow_state needs %" PetscInt_FMT " values rho,v_1..v_%" PetscInt_FMT ",p; got %" PetscInt_FMT, nv, dim, n_in);
    PetscCheck(inflow[0] > 0 && inflow[nv - 1] > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-bc_supersonic_inflow_state: density %g and pressure %g must be positive", (double)inflow[0], (double)inflow[nv - 1]);
    {
      PetscReal w[EULER_NV_MAX];
      for (PetscInt k = 0; k < nv; k++) w[k] = inflow[k];
      EulerPrimitiveToConservative((int)dim, g, w, inflow);
    }
  }
  PetscCheck(rhofar > 0 && pfar > 0 && mach >= 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "Far field: -bc_farfield_density %g and -bc_farfield_pressure %g must be positive, -bc_farfield_mach %g non-negative", (double)rhofar, (double)pfar, (double)mach);
  far_w[0] = rhofar;
  for (PetscInt d = 0; d < dim; d++) far_w[1 + d] = 0;
  far_w[1] = mach * PetscSqrtReal(g * pfar / rhofar) * PetscCosReal(angle * PETSC_PI / 180);
  if (dim > 1) far_w[2] = mach * PetscSqrtReal(g * pfar / rhofar) * PetscSinReal(angle * PETSC_PI / 180);
  far_w[dim + 1] = pfar;
  EulerPrimitiveToConservative((int)dim, g, far_w, far_u);
  for (PetscInt i = 0; i < cl->nbpoints; i++) {
    PetscReal     *row  = cl->bc_point + i * EULER_BC_DATA;
    const PetscInt type = cl->btype[i];
    if (type == EULER_BC_SUPERSONIC_INFLOW || type == EULER_BC_FARFIELD || type == EULER_BC_FREESTREAM) {
      const PetscBool       from_options = type == EULER_BC_SUPERSONIC_INFLOW ? set_in : set_far;
      const ProblemFunction fp           = app->problem.boundary ? app->problem.boundary : app->problem.exact;
      if (from_options || !fp) {
        PetscCheck(from_options || type != EULER_BC_SUPERSONIC_INFLOW, app->comm, PETSC_ERR_ARG_WRONG, "Boundary type supersonic_inflow needs its state: give -bc_supersonic_inflow_state rho,v..,p (problem %s has no boundary data)", app->problem_name);
        for (PetscInt k = 0; k < nv; k++) row[k] = type == EULER_BC_SUPERSONIC_INFLOW ? inflow[k] : far_u[k];
      } else {
        PetscCall(fp(dim, 0.0, cl->bx + i * dim, nv, row, NULL, app->problem.ctx));
        eu->row_from_problem[i] = PETSC_TRUE;
      }
    } else if (type == EULER_BC_SUBSONIC_INFLOW) {
      PetscCheck(p0 > 0 && T0 > 0, app->comm, PETSC_ERR_ARG_WRONG, "Boundary type subsonic_inflow needs positive -bc_subsonic_inflow_total_pressure and -bc_subsonic_inflow_total_temperature (got %g, %g)", (double)p0, (double)T0);
      row[0] = p0;
      row[1] = T0;
      for (PetscInt d = 0; d < dim; d++) row[2 + d] = dir[d];
    } else if (type == EULER_BC_NOSLIP_ISOTHERMAL || type == EULER_BC_NOSLIP_ADIABATIC) {
      const ProblemFunction fp = app->problem.exact; /* (the boundary function is the far field's) */
      if (fp) {                                      /* the wall's temperature and velocity from the problem's exact state there */
        PetscReal ub[EULER_NV_MAX], w[EULER_NV_MAX];
        PetscCall(fp(dim, 0.0, cl->bx + i * dim, nv, ub, NULL, app->problem.ctx));
        EulerConservativeToPrimitive((int)dim, g, ub, w);
        row[0] = w[dim + 1] / w[0];
        for (PetscInt d = 0; d < dim; d++) row[1 + d] = w[1 + d];
      } else {
        PetscCheck(type == EULER_BC_NOSLIP_ADIABATIC || twall > 0, app->comm, PETSC_ERR_ARG_WRONG, "Boundary type no_slip_isothermal needs the wall's temperature: give -bc_wall_temperature T > 0 (problem %s has no exact state to take it from), or make the wall no_slip_adiabatic", app->problem_name);
        row[0] = twall;
        for (PetscInt d = 0; d < dim; d++) row[1 + d] = d < nvw ? vwall[d] : 0;
      }
    } else if (type == EULER_BC_PRESSURE_OUTFLOW) {
      PetscCheck(pout > 0, app->comm, PETSC_ERR_ARG_WRONG, "Boundary type pressure_outflow needs a positive -bc_pressure_outflow_pressure (got %g)", (double)pout);
      row[0] = pout;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -ns_*: the viscosity law and the BR2 penalty; errors name the option */
static PetscErrorCode EulerViscousOptions(Euler *eu)
{
  App        *app = eu->app;
  NSViscosity vis = {0, 0, 1, 0};
  PetscReal   mu = app->problem.mu, pr = app->problem.prandtl > 0 ? app->problem.prandtl : 0.72, eta = 0;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < app->mesh->nblocks; b++) eta = PetscMax(eta, (PetscReal)app->mesh->blocks[b].nfaces);
  PetscOptionsBegin(app->comm, NULL, "Compressible Navier-Stokes", NULL);
  PetscCall(PetscOptionsReal("-ns_viscosity", "Dynamic viscosity mu_0 (default: the problem's, e.g. from its Reynolds number)", NULL, mu, &mu, NULL));
  PetscCall(PetscOptionsReal("-ns_prandtl", "Prandtl number", NULL, pr, &pr, NULL));
  PetscCall(PetscOptionsReal("-ns_sutherland_constant", "Sutherland's constant S (T = p / rho units; 0: constant viscosity)", NULL, vis.suth_S, &vis.suth_S, NULL));
  PetscCall(PetscOptionsReal("-ns_sutherland_temperature", "Sutherland's reference temperature, where mu = mu_0", NULL, vis.suth_T, &vis.suth_T, NULL));
  PetscCall(PetscOptionsReal("-ns_br2_eta", "BR2 penalty of the face liftings (stable above the number of faces of an element)", NULL, eta, &eta, NULL));
  PetscCall(PetscOptionsString("-ns_surface_file", "At the end, write x, y[, z], p, the wall shear, Cp and Cf at every face point of the no-slip walls to this CSV file", NULL, eu->surface_file, eu->surface_file, sizeof(eu->surface_file), NULL));
  PetscOptionsEnd();
  PetscCheck(mu > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "Navier-Stokes needs a positive viscosity: -ns_viscosity %g (or the problem's Reynolds number, which must be > 0)", (double)mu);
  PetscCheck(pr > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ns_prandtl %g must be positive", (double)pr);
  PetscCheck(vis.suth_S <= 0 || vis.suth_T > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ns_sutherland_temperature %g must be positive", (double)vis.suth_T);
  PetscCheck(eta > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-ns_br2_eta %g must be positive", (double)eta);
  vis.mu    = mu;
  vis.cp_pr = eu->gamma / (eu->gamma - 1) / pr;
  eu->vis   = vis;
  PetscCall(ConsLawSetViscous(eu->cl, &vis, eta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -bc_farfield_correction none|source|oseen: set up after the boundary data and the initial state */
static PetscErrorCode EulerFarfieldSetUp(Euler *eu, Vec u)
{
  App           *app = eu->app;
  ConsLaw        cl  = eu->cl;
  const PetscInt dim = cl->dim;
  PetscInt       nx = 3, counts[2] = {0, 0};
  PetscBool      set_x0 = PETSC_FALSE, set_cd = PETSC_FALSE, set_cl = PETSC_FALSE;

  PetscFunctionBeginUser;
  eu->ff_settle   = 0.1;
  eu->ff_freeze   = 1e-5;
  eu->ff_interval = 1;
  PetscOptionsBegin(app->comm, NULL, "Far-field correction", NULL);
  PetscCall(PetscOptionsEList("-bc_farfield_correction", "Far field (types farfield, freestream) = free stream + the body's far-field disturbance: none, source (the source of the drag and the vortex of the lift, potential flow), oseen (source, vortex and the Oseen wake downstream)", NULL, EulerFarfieldCorrections, 3, EulerFarfieldCorrections[eu->ff_type], &eu->ff_type, NULL));
  PetscCall(PetscOptionsRealArray("-bc_farfield_correction_center", "The body's centre, the origin of the disturbance (default: the walls' centroid)", NULL, eu->ff_x0, &nx, &set_x0));
  PetscCall(PetscOptionsReal("-bc_farfield_correction_cd", "Fixed drag coefficient for the correction's source (on rho U^2 L / 2, L the problem's length; default: the wall force, lagged)", NULL, eu->ff_cd, &eu->ff_cd, &set_cd));
  PetscCall(PetscOptionsReal("-bc_farfield_correction_cl", "Fixed lift coefficient for the correction's vortex (2D; with _cd)", NULL, eu->ff_cl, &eu->ff_cl, &set_cl));
  PetscCall(PetscOptionsReal("-bc_farfield_correction_settle", "The correction follows the wall force from the first step where it changed by less than this fraction", NULL, eu->ff_settle, &eu->ff_settle, NULL));
  PetscCall(PetscOptionsReal("-bc_farfield_correction_freeze", "The strength stops following the wall force once it changes by less than this fraction between updates (0: never)", NULL, eu->ff_freeze, &eu->ff_freeze, NULL));
  PetscCall(PetscOptionsInt("-bc_farfield_correction_interval", "Steps between the updates of the strength from the wall force (explicit runs: the force costs a viscous evaluation)", NULL, eu->ff_interval, &eu->ff_interval, NULL));
  PetscOptionsEnd();
  if (eu->ff_type == EULER_FF_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(eu->ff_interval >= 1, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-bc_farfield_correction_interval %" PetscInt_FMT " must be >= 1", eu->ff_interval);
  PetscCheck(dim >= 2, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction %s: a body's far field needs dimension 2 or 3 (this mesh is %" PetscInt_FMT "D)", EulerFarfieldCorrections[eu->ff_type], dim);
  PetscCheck(eu->viscous, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction %s needs the wall forces of a body: physics navier_stokes with no-slip walls (this run is inviscid)", EulerFarfieldCorrections[eu->ff_type]);
  PetscCheck(!app->problem.boundary_time_dependent, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction %s: problem %s has time-dependent boundary data; the correction is for a steady free stream", EulerFarfieldCorrections[eu->ff_type], app->problem_name);
  PetscCheck(eu->ff_freeze >= 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-bc_farfield_correction_freeze %g must be >= 0", (double)eu->ff_freeze);
  PetscCheck(eu->ff_settle > 0, app->comm, PETSC_ERR_ARG_OUTOFRANGE, "-bc_farfield_correction_settle %g must be positive", (double)eu->ff_settle);
  PetscCheck(!set_x0 || nx == dim, app->comm, PETSC_ERR_ARG_SIZ, "-bc_farfield_correction_center needs %" PetscInt_FMT " coordinates, got %" PetscInt_FMT, dim, nx);
  PetscCheck(!set_cl || set_cd, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction_cl needs -bc_farfield_correction_cd too (fixed strengths), or neither (the wall force)");
  eu->ff_fixed = set_cd;
  PetscCheck(!eu->ff_fixed || app->problem.length_scale > 0, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction_cd: problem %s has no reference length for the coefficient", app->problem_name);
  for (PetscInt i = 0; i < cl->nbpoints; i++) counts[0] += EulerIsFarfield(cl->btype[i]) ? 1 : 0;
  {
    PetscReal *rows, c[4] = {0, 0, 0, 0};
    PetscInt   n;
    PetscCall(ConsLawWallSamples(cl, u, &n, &rows)); /* the walls' face points: their centroid */
    counts[1] = n;
    for (PetscInt k = 0; k < n; k++) {
      for (PetscInt d = 0; d < dim; d++) c[d] += rows[k * CONSLAW_WALL_ROW + d] * rows[k * CONSLAW_WALL_ROW + 6];
      c[3] += rows[k * CONSLAW_WALL_ROW + 6];
    }
    PetscCall(PetscFree(rows));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, c, 4, MPIU_REAL, MPIU_SUM, app->comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, counts, 2, MPIU_INT, MPI_SUM, app->comm));
    PetscCheck(counts[1] > 0, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction %s needs a body: the mesh has no no_slip_isothermal or no_slip_adiabatic wall (the disturbance's strength is the force on the walls)", EulerFarfieldCorrections[eu->ff_type]);
    PetscCheck(counts[0] > 0, app->comm, PETSC_ERR_ARG_WRONG, "-bc_farfield_correction %s: no boundary of type farfield or freestream to correct", EulerFarfieldCorrections[eu->ff_type]);
    if (!set_x0)
      for (PetscInt d = 0; d < dim; d++) eu->ff_x0[d] = c[d] / c[3];
  }
  PetscCall(PetscMalloc1(PetscMax(cl->nbpoints, 1) * EULER_BC_DATA, &eu->ff_base));
  PetscCall(PetscArraycpy(eu->ff_base, cl->bc_point, cl->nbpoints * EULER_BC_DATA));
  PetscCall(PetscPrintf(app->comm, "far field: %s correction about (%g, %g%s), strength from %s\n", EulerFarfieldCorrections[eu->ff_type], (double)eu->ff_x0[0], (double)eu->ff_x0[1], dim == 3 ? ", ..." : "", eu->ff_fixed ? "fixed coefficients" : "the wall force, lagged by a step"));
  if (eu->ff_fixed) {
    eu->ff_on = PETSC_TRUE;
    PetscCall(EulerFarfieldApply(eu));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerCreateAny(Unsteady *un, PetscBool viscous, PetscBool advection)
{
  App      *app = un->app;
  Euler    *eu;
  PetscInt  limiter = 0;
  PetscReal eps, kappa = 0;
  PetscBool flux_set = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&eu));
  eu->app         = app;
  eu->viscous     = viscous;
  eu->advection   = advection;
  eu->forces_time = PETSC_MIN_REAL;
  eu->gamma       = app->problem.gamma > 0 ? app->problem.gamma : 1.4;
  eu->cfl         = 0.5;
  PetscCall(DiscGetConsLaw(app->disc, advection ? "Linear advection" : "The Euler equations", &eu->cl));
  PetscOptionsBegin(un->comm, NULL, "Euler equations", NULL);
  PetscCall(PetscOptionsEList("-euler_flux", "Numerical flux", NULL, EulerFluxTypes, 3, EulerFluxTypes[eu->flux], &eu->flux, &flux_set));
  PetscCall(PetscOptionsReal("-cfl", "CFL number: the step from the current wave speeds before every step (0: -ts_dt)", NULL, eu->cfl, &eu->cfl, NULL));
  PetscCall(PetscOptionsEList("-euler_limiter", "Slope limiter", NULL, EulerLimiters, 2, EulerLimiters[limiter], &limiter, NULL));
  PetscCall(PetscOptionsReal("-euler_limiter_sensor", "N >= 2: limit only troubled cells, where the density's modes of degree N hold more than this / N^4 of its modal energy (Persson-Peraire sensor; 0: every cell)", NULL, kappa, &kappa, NULL));
  eu->positivity = limiter ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-euler_positivity", "Positivity-preserving limiter (Zhang-Shu: density and pressure >= -euler_positivity_eps at every cubature point); default on with a limiter", NULL, eu->positivity, &eu->positivity, NULL));
  eps = 1e-10;
  PetscCall(PetscOptionsReal("-euler_positivity_eps", "Lower bound of density and pressure of the positivity limiter", NULL, eps, &eps, NULL));
  PetscCall(PetscOptionsString("-euler_means_file", "At the end, write every element's centroid and mean density and pressure (float32) to this file", NULL, eu->means_file, eu->means_file, sizeof(eu->means_file), NULL));
  PetscCall(PetscOptionsBool("-euler_local_time_step", "Explicit steps to a steady state: every element at its own CFL step (the time is not physical)", NULL, eu->local_dt, &eu->local_dt, NULL));
  PetscCall(PetscOptionsReal("-euler_local_time_step_ratio", "Local time steps: at most this many times the smallest element's step (0: no cap)", NULL, eu->lts_ratio, &eu->lts_ratio, NULL));
  eu->steady_interval = 10;
  PetscCall(PetscOptionsReal("-euler_steady_rtol", "Explicit steps: stop when the residual || M^-1 R(u) || has fallen by this factor from the first step's (0: never)", NULL, eu->steady_rtol, &eu->steady_rtol, NULL));
  PetscCall(PetscOptionsInt("-euler_steady_interval", "Steps between the residual checks of -euler_steady_rtol", NULL, eu->steady_interval, &eu->steady_interval, NULL));
  PetscOptionsEnd();
  PetscCheck(eps > 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-euler_positivity_eps %g must be positive", (double)eps);
  PetscCheck(eu->cfl >= 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-cfl %g must be >= 0", (double)eu->cfl);
  PetscCheck(eu->lts_ratio == 0 || eu->lts_ratio >= 1, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-euler_local_time_step_ratio %g: give 0 (no cap) or a ratio >= 1", (double)eu->lts_ratio);
  PetscCheck(!eu->local_dt || eu->cfl > 0, un->comm, PETSC_ERR_ARG_WRONG, "-euler_local_time_step needs the CFL step (-cfl > 0)");
  PetscCheck(eu->steady_rtol >= 0 && eu->steady_rtol < 1, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-euler_steady_rtol %g must be in [0, 1)", (double)eu->steady_rtol);
  PetscCheck(eu->steady_interval >= 1, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-euler_steady_interval %" PetscInt_FMT " must be >= 1", eu->steady_interval);
  eu->limit = (limiter || eu->positivity) ? PETSC_TRUE : PETSC_FALSE;
  if (advection) {
    const Problem *pb = &app->problem;
    PetscInt       nb = eu->cl->nbpoints;
    PetscCheck(!eu->limit, un->comm, PETSC_ERR_ARG_WRONG, "Physics advection has no limiter: -euler_limiter and -euler_positivity are for the Euler equations");
    PetscCheck(!flux_set, un->comm, PETSC_ERR_ARG_WRONG, "Physics advection has its own upwind flux: -euler_flux is for the Euler equations");
    PetscCheck(!eu->means_file[0], un->comm, PETSC_ERR_ARG_WRONG, "-euler_means_file writes density and pressure means of the Euler equations; physics advection has one component");
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nb, 1, MPIU_INT, MPI_SUM, un->comm));
    PetscCheck(nb == 0, un->comm, PETSC_ERR_ARG_WRONG, "Physics advection runs on periodic meshes only: mesh %s has boundary faces (give -dm_plex_box_bd periodic,periodic[,periodic])", app->mesh->source);
    for (PetscInt j = 0; j < 3; j++) eu->cl->velocity[j] = pb->velocity_scale * pb->flow_direction[j];
    PetscCheck(pb->velocity_scale > 0, un->comm, PETSC_ERR_ARG_WRONG, "Physics advection: problem %s gives no velocity (velocity_scale and flow_direction)", app->problem_name);
    eu->flux = EULER_FLUX_ADVECTION;
  } else {
    PetscCall(ConsLawSetLimiter(eu->cl, limiter ? PETSC_TRUE : PETSC_FALSE, eu->positivity, eps, kappa));
    PetscCall(EulerBoundaryData(eu));
  }
  PetscCall(ConsLawSetEquations(eu->cl, eu->gamma, eu->flux));
  if (eu->viscous) PetscCall(EulerViscousOptions(eu));

  PetscCall(DMCreateGlobalVector(app->disc->dm, &un->state));
  PetscCall(PetscObjectSetName((PetscObject)un->state, "u"));
  un->nfields         = 1;
  un->field_names[0]  = "u";
  un->fields[0]       = un->state;
  un->physics         = eu;
  un->physics_destroy = EulerDestroy;
  eu->kinetic_last[1] = -1;
  un->monitor_names   = advection ? "L2_error,mass,energy_norm,energy_l2" : viscous ? "L2_error_density,mass,momentum_x,energy,limited_cells,residual,drag,drag_pressure,drag_viscous,lift,kinetic_energy,dissipation,enstrophy,enstrophy_dissipation"
                                                                                    : "L2_error_density,mass,momentum_x,energy,limited_cells,residual";
  un->derived_names   = advection ? "u" : "density,pressure,mach,velocity_x,velocity_y,velocity_z";
  un->physics_derived = EulerDerived;
  {
    PetscInt  interval = 0;
    PetscBool set;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-output_interval", &interval, &set));
    if (set && interval > 0) { /* modal coefficients are no point values: write at the nodes of a nodal DG of the same mesh */
      PetscCall(DGDiscCreate(app->mesh, PetscMax(eu->cl->order, 1), &eu->output));
      un->output_disc = eu->output;
    }
  }
  un->physics_monitor = EulerMonitor;
  un->physics_errors  = EulerErrors;
  un->physics_failure = EulerFailure;
  PetscCall(HoflowTSRegisterAll()); /* -ts_type rk -ts_rk_type lserk4: the low-storage RK of seed 003 (Carpenter & Kennedy) */
  PetscCall(TSSetType(un->ts, TSSSP));
  if (app->problem.default_max_time > 0) PetscCall(TSSetMaxTime(un->ts, app->problem.default_max_time));
  PetscCall(TSSetMaxSteps(un->ts, 1000000));
  PetscCall(TSSetProblemType(un->ts, TS_NONLINEAR));
  { /* implicit integrators: Newton-Krylov, matrix-free operator, element-block Jacobi from colored finite differences */
    char      type[64] = "";
    PetscBool implicit = PETSC_FALSE;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_type", type, sizeof(type), NULL));
    eu->pseudo = (PetscBool)!strcmp(type, TSPSEUDO);
    implicit   = (PetscBool)(eu->pseudo || !strcmp(type, TSBEULER) || !strcmp(type, TSCN) || !strcmp(type, TSTHETA) || !strcmp(type, TSBDF));
    PetscCheck(!(implicit && eu->local_dt), un->comm, PETSC_ERR_ARG_WRONG, "-euler_local_time_step is for explicit steps (-ts_type ssp or rk); implicit steady runs use -ts_type pseudo alone");
    if (implicit) {
      SNES      snes;
      PetscBool full = PETSC_TRUE;
      PetscCall(PetscOptionsGetBool(NULL, NULL, "-euler_jacobian_full", &full, NULL));
      eu->jac_lag = 1;
      PetscCall(PetscOptionsGetInt(NULL, NULL, "-euler_jacobian_lag", &eu->jac_lag, NULL));
      PetscCheck(eu->jac_lag >= 1, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "-euler_jacobian_lag %" PetscInt_FMT " must be >= 1", eu->jac_lag);
      PetscCall(ConsLawJacobianCreate(eu->cl, full, &eu->bj, &eu->Pj));
      PetscCall(TSSetIFunction(un->ts, NULL, EulerIFunction, eu));
      PetscCall(TSSetIJacobian(un->ts, eu->Pj, eu->Pj, EulerIJacobian, eu));
      PetscCall(TSGetSNES(un->ts, &snes));
      PetscCall(SNESSetUseMatrixFree(snes, PETSC_TRUE, PETSC_FALSE));
      {
        KSP ksp;
        PetscCall(SNESGetKSP(snes, &ksp));
        PetscCall(KSPSetType(ksp, KSPGMRES));
        PetscCall(KSPSetTolerances(ksp, 1e-3, PETSC_DEFAULT, PETSC_DEFAULT, 1000));
      }
      un->own_solver = PETSC_TRUE;
      if (eu->pseudo) { /* to the steady state (-ts_pseudo_frtol, -ts_max_steps). The step is capped (-ts_pseudo_max_dt 1e4):
                         * steady states with a free constant (the mass of a closed periodic channel) make the Newton
                         * step singular along it, and past convergence round-off would drift the state along it */
        PetscBool set;
        PetscCall(TSSetMaxTime(un->ts, 1e30));
        PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_pseudo_max_dt", &set)); /* the TS is not TSPSEUDO before TSSetFromOptions */
        if (!set) PetscCall(PetscOptionsSetValue(NULL, "-ts_pseudo_max_dt", "1e4"));
      }
    } else
      PetscCall(TSSetRHSFunction(un->ts, NULL, EulerRHSFunction, eu));
  }
  PetscCall(TSSetApplicationContext(un->ts, un));
  PetscCall(TSSetPreStep(un->ts, EulerPreStep));
  PetscCall(TSSetPostStep(un->ts, EulerPostStep));
  {
    ProblemState ep = {&app->problem, app->problem.initial ? app->problem.initial : app->problem.exact, 0.0, eu->cl->nv};
    PetscCheck(ep.f, un->comm, PETSC_ERR_ARG_WRONG, "Problem %s has no initial state", app->problem_name);
    PetscCall(ConsLawProject(eu->cl, ProblemStateFunction, &ep, un->state));
  }
  if (eu->limit) { /* a discontinuous initial state's projection overshoots: limit it (its means are physical) */
    PetscInt n;
    PetscCall(ConsLawLimit(eu->cl, un->state, &n));
  }
  PetscCall(ConsLawIntegrate(eu->cl, un->state, eu->total0));
  {
    PetscReal speed;
    PetscInt  cell;
    PetscCall(ConsLawMaxWaveSpeed(eu->cl, un->state, &speed, &cell, NULL));
    PetscCheck(speed > 0, un->comm, PETSC_ERR_ARG_OUTOFRANGE, "Problem %s: the initial state is not physical (density or pressure <= 0) in cell %" PetscInt_FMT, app->problem_name, cell);
  }
  PetscCall(EulerFarfieldSetUp(eu, un->state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerCreate(Unsteady *un)
{
  PetscFunctionBeginUser;
  PetscCall(EulerCreateAny(un, PETSC_FALSE, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NavierStokesCreate(Unsteady *un)
{
  PetscFunctionBeginUser;
  PetscCall(EulerCreateAny(un, PETSC_TRUE, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AdvectionCreate(Unsteady *un)
{
  PetscFunctionBeginUser;
  PetscCall(EulerCreateAny(un, PETSC_FALSE, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EulerRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, EulerCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode NavierStokesRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, NavierStokesCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt EulerComponents(PetscInt dim)
{
  return dim + 2;
}

PetscErrorCode PhysicsInfo_Euler(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc            = 7;
  info->bc[0]          = (MeshBoundaryType){"slip_wall", EULER_BC_SLIP_WALL, NULL, "reflecting (slip) wall"};
  info->bc[1]          = (MeshBoundaryType){"supersonic_inflow", EULER_BC_SUPERSONIC_INFLOW, NULL, "supersonic inflow: the state given"};
  info->bc[2]          = (MeshBoundaryType){"supersonic_outflow", EULER_BC_SUPERSONIC_OUTFLOW, NULL, "supersonic outflow: the interior state"};
  info->bc[3]          = (MeshBoundaryType){"farfield", EULER_BC_FARFIELD, NULL, "characteristic far field (Riemann invariants) of a free stream"};
  info->bc[4]          = (MeshBoundaryType){"subsonic_inflow", EULER_BC_SUBSONIC_INFLOW, NULL, "subsonic inflow: total pressure and temperature"};
  info->bc[5]          = (MeshBoundaryType){"pressure_outflow", EULER_BC_PRESSURE_OUTFLOW, NULL, "subsonic outflow: the static pressure"};
  info->bc[6]          = (MeshBoundaryType){"freestream", EULER_BC_FREESTREAM, NULL, "far field by the free stream outside, upwinded by the numerical flux (the -bc_farfield_* state)"};
  info->run            = EulerRun;
  info->num_components = EulerComponents;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PhysicsInfo_NavierStokes(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  PetscCall(PhysicsInfo_Euler(info));
  info->nbc   = 9;
  info->bc[7] = (MeshBoundaryType){"no_slip_isothermal", EULER_BC_NOSLIP_ISOTHERMAL, NULL, "no-slip wall at a given temperature (and velocity)"};
  info->bc[8] = (MeshBoundaryType){"no_slip_adiabatic", EULER_BC_NOSLIP_ADIABATIC, NULL, "no-slip wall without heat flux"};
  info->run   = NavierStokesRun;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AdvectionRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(UnsteadyRun(app, AdvectionCreate));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt AdvectionComponents(PetscInt dim)
{
  (void)dim;
  return 1;
}

/* linear advection of one scalar through the conservation-law interface (periodic meshes: no boundary types) */
PetscErrorCode PhysicsInfo_Advection(PhysicsInfo *info)
{
  PetscFunctionBeginUser;
  info->nbc            = 0;
  info->run            = AdvectionRun;
  info->num_components = AdvectionComponents;
  PetscFunctionReturn(PETSC_SUCCESS);
}
