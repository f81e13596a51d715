/* Manufactured screened-Poisson problems -Laplace u + lambda u = f on the unit square:
 *   poisson    lambda = 0
 *   helmholtz  lambda > 0 (-helmholtz_lambda, default 10; in the flow solvers lambda = 1/(nu dt))
 * with the smooth exact solution u = sin(a x + p) cos(b y + q), chosen with no symmetry so
 * Dirichlet and Neumann sides both exercise the boundary terms. Default boundary conditions are
 * mixed: Neumann on top, Dirichlet elsewhere (-bc_dirichlet, -bc_neumann). */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static const PetscReal ka = 1.3 * PETSC_PI, kb = 0.9 * PETSC_PI, pa = 0.4, pb = 0.2;

static PetscErrorCode ManufacturedExact(const PetscReal x[], PetscReal *u, PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  *u = PetscSinReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
  if (grad) {
    grad[0] = ka * PetscCosReal(ka * x[0] + pa) * PetscCosReal(kb * x[1] + pb);
    grad[1] = -kb * PetscSinReal(ka * x[0] + pa) * PetscSinReal(kb * x[1] + pb);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ManufacturedForcing(const PetscReal x[], PetscReal *f, PetscReal grad[], void *ctx)
{
  const Problem *problem = (const Problem *)ctx;
  PetscReal      u;

  PetscFunctionBeginUser;
  PetscCall(ManufacturedExact(x, &u, NULL, NULL));
  *f = (ka * ka + kb * kb + problem->lambda) * u;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProblemSetManufactured(Problem *problem, PetscReal lambda)
{
  PetscFunctionBeginUser;
  problem->lambda  = lambda;
  problem->exact   = ManufacturedExact;
  problem->forcing = ManufacturedForcing;
  problem->ctx     = problem;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square.msh", sizeof(problem->mesh_options)));
  PetscCall(PetscStrncpy(problem->dirichlet, "left,right,bottom", sizeof(problem->dirichlet)));
  PetscCall(PetscStrncpy(problem->neumann, "top", sizeof(problem->neumann)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Poisson(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(ProblemSetManufactured(problem, 0.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Helmholtz(Problem *problem)
{
  PetscReal lambda = 10.0;

  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Helmholtz (screened Poisson) problem", NULL);
  PetscCall(PetscOptionsReal("-helmholtz_lambda", "Screening constant lambda of -Laplace u + lambda u = f", NULL, lambda, &lambda, NULL));
  PetscOptionsEnd();
  PetscCheck(lambda > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-helmholtz_lambda %g must be positive (use -problem poisson for lambda = 0)", (double)lambda);
  PetscCall(ProblemSetManufactured(problem, lambda));
  PetscFunctionReturn(PETSC_SUCCESS);
}
