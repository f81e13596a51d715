/* A run: the problem from -problem, its mesh with the boundary types of its physics, the
 * discretization from -disc and -order; AppRun hands it to the physics. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/physics.h>
#include <hoflow/registry.h>
#include <hoflow/solver.h>

PetscFunctionList PhysicsList = NULL;

PetscErrorCode PhysicsRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (PhysicsList) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFunctionListAdd(&PhysicsList, "elliptic", PhysicsInfo_Elliptic));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "heat", PhysicsInfo_Heat));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "ins", PhysicsInfo_INS));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "euler", PhysicsInfo_Euler));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "navier_stokes", PhysicsInfo_NavierStokes));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "advection", PhysicsInfo_Advection));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "stokes", PhysicsInfo_Stokes));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "sem_ns", PhysicsInfo_SEMNS));
  PetscCall(PetscFunctionListAdd(&PhysicsList, "stokes_dirk", PhysicsInfo_StokesDIRK));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemStateFunction(PetscInt dim, const PetscReal x[], PetscReal u[], void *ctx)
{
  const ProblemState *ps = (const ProblemState *)ctx;

  PetscFunctionBeginUser;
  PetscCall(ps->f(dim, ps->t, x, ps->nv, u, NULL, ps->problem->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemPointFunction(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx)
{
  const ProblemPoint *pp = (const ProblemPoint *)ctx;
  PetscReal           v[8], g[24];

  PetscFunctionBeginUser;
  PetscCheck(pp->nv <= 8, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many components");
  PetscCall(pp->f(pp->dim, pp->time, x, pp->nv, v, grad ? g : NULL, pp->problem->ctx));
  *value = v[pp->comp];
  if (grad)
    for (PetscInt d = 0; d < pp->dim; d++) grad[d] = g[pp->comp * pp->dim + d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The closed form of a ProblemPoint, where its problem gives one for the function (one component, exact
 * solution or forcing; time-independent forms only). */
static PetscErrorCode ProblemPointClosedForm(void *ctx, HoflowClosedForm *cf)
{
  const ProblemPoint *pp = (const ProblemPoint *)ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cf, sizeof(*cf)));
  if (pp->nv != 1 || pp->comp != 0 || !pp->f) PetscFunctionReturn(PETSC_SUCCESS);
  if (pp->f == pp->problem->exact)
    *cf = pp->problem->exact_closed_form;
  else if (pp->f == pp->problem->forcing)
    *cf = pp->problem->forcing_closed_form;
  cf->dim = (int)pp->dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ZeroPointFunction(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  *value = 0;
  if (grad) grad[0] = grad[1] = grad[2] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppCreate(MPI_Comm comm, App **app_out)
{
  App                  *app;
  ProblemCreateFunction create_problem = NULL;
  PetscInt              pmg_degree;
  PetscBool             closed_form  = PETSC_TRUE;
  PhysicsInfoFunction   physics_info = NULL;
  DiscCreateFunction    create_disc  = NULL;
  PetscBool             disc_set     = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(HoflowLogRegister());
  PetscCall(ProblemRegisterAll());
  PetscCall(PhysicsRegisterAll());
  PetscCall(DiscRegisterAll());
  PetscCall(HoflowSolverRegisterAll());
  PetscCall(PetscNew(&app));
  app->comm  = comm;
  app->order = 4;
  PetscCall(PetscStrncpy(app->problem_name, "poisson", sizeof(app->problem_name)));
  PetscCall(PetscStrncpy(app->disc_name, "ipdg", sizeof(app->disc_name)));
  PetscOptionsBegin(comm, NULL, "hoflow: high-order matrix-free flow solver", NULL);
  PetscCall(PetscOptionsFList("-problem", "Problem to solve", NULL, ProblemList, app->problem_name, app->problem_name, sizeof(app->problem_name), NULL));
  PetscCall(PetscOptionsFList("-disc", "Spatial discretization", NULL, DiscList, app->disc_name, app->disc_name, sizeof(app->disc_name), &disc_set));
  PetscCall(PetscOptionsInt("-order", "Polynomial order N of the discretization (1..10)", NULL, app->order, &app->order, NULL));
  /* A run-wide setting (options/gpu.yaml sets it for every case): read here for every problem, so it
   * is listed by -help and checked, and it has no effect where no solve uses -pc_type pmg */
  PetscCall(PCPMGGetDefaultChebyshevDegree(NULL, &pmg_degree));
  PetscCall(PetscOptionsInt("-pc_pmg_chebyshev_degree_default", "Chebyshev smoothing degree of every -pc_type pmg of the run (elliptic, velocity, pressure; unset: 2 in 2D; in 3D 3 + max(0, (p - 4)/2) at order p); -[prefix]pc_pmg_chebyshev_degree overrides it per solve", NULL, pmg_degree, &pmg_degree, NULL));
  PetscCall(PetscOptionsBool("-problem_closed_form", "Evaluate the problem's exact solution and forcing in the kernels where it gives their closed forms (host and GPU); 0: through its point functions", NULL, closed_form, &closed_form, NULL));
  PetscOptionsEnd();
  PetscCall(PointFunctionRegisterClosedForm(ProblemPointFunction, closed_form ? ProblemPointClosedForm : NULL));
  PetscCheck(app->order >= (strcmp(app->disc_name, "mdg") ? 1 : 0) && app->order <= HOFLOW_NMAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT " is out of range: hoflow supports polynomial orders 1..%d", app->order, HOFLOW_NMAX);
  PetscCall(HoflowRegistryFind(comm, ProblemList, "-problem", app->problem_name, (void (**)(void)) & create_problem));
  PetscCall(HoflowRegistryFind(comm, DiscList, "-disc", app->disc_name, (void (**)(void)) & create_disc));
  PetscCall(PetscStrncpy(app->problem.name, app->problem_name, sizeof(app->problem.name)));
  PetscCall(create_problem(&app->problem));
  PetscCall(HoflowRegistryFind(comm, PhysicsList, "physics of the problem", app->problem.physics, (void (**)(void)) & physics_info));
  PetscCall(physics_info(&app->physics));
  if (app->physics.disc) { /* a physics of one discretization: its default, and no other */
    PetscCheck(!disc_set || !strcmp(app->disc_name, app->physics.disc), comm, PETSC_ERR_SUP, "Problem %s (physics %s) runs on -disc %s only, not -disc %s", app->problem_name, app->problem.physics, app->physics.disc, app->disc_name);
    PetscCall(PetscStrncpy(app->disc_name, app->physics.disc, sizeof(app->disc_name)));
  }
  for (PetscInt t = 0; t < app->physics.nbc; t++) app->physics.bc[t].groups = ProblemGetBoundaryGroups(&app->problem, app->physics.bc[t].name);

  PetscCall(PetscLogEventBegin(HOFLOW_DeviceInit, 0, 0, 0, 0));
  PetscCall(HoflowDeviceSelect(comm));
  PetscCall(PetscLogEventEnd(HOFLOW_DeviceInit, 0, 0, 0, 0));
  PetscCall(MeshCreate(comm, app->problem.mesh_options, &app->mesh));
  PetscCheck(!app->problem.dim || app->problem.dim == app->mesh->dim, comm, PETSC_ERR_ARG_WRONG, "Problem %s is %" PetscInt_FMT "D but mesh %s is %" PetscInt_FMT "-dimensional: give a %" PetscInt_FMT "D mesh (a box: -dm_plex_dim %" PetscInt_FMT ")", app->problem_name, app->problem.dim, app->mesh->source, app->mesh->dim, app->problem.dim, app->problem.dim);
  if (app->problem.mesh_groups) {
    char groups[1024];
    PetscCall(MeshGetBoundaryGroups(app->mesh, groups, sizeof(groups)));
    PetscCall(app->problem.mesh_groups(app->problem.ctx, groups));
    for (PetscInt t = 0; t < app->physics.nbc; t++) app->physics.bc[t].groups = ProblemGetBoundaryGroups(&app->problem, app->physics.bc[t].name);
  }
  PetscCall(MeshSetBoundaryTypes(app->mesh, app->physics.nbc, app->physics.bc));
  PetscCall(DiscCreateComponents(app->mesh, app->disc_name, app->order, app->physics.num_components ? app->physics.num_components(app->mesh->dim) : 1, &app->disc));
  *app_out = app;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppRun(App *app)
{
  PetscFunctionBeginUser;
  PetscCall(app->physics.run(app));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AppDestroy(App **app)
{
  PetscFunctionBeginUser;
  if (!*app) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*app)->problem.ctx_destroy) PetscCall((*app)->problem.ctx_destroy((*app)->problem.ctx));
  PetscCall(DiscDestroy(&(*app)->disc));
  PetscCall(MeshDestroy(&(*app)->mesh));
  PetscCall(PetscFree(*app));
  PetscFunctionReturn(PETSC_SUCCESS);
}
