/* Manufactured screened-Poisson problems -Laplace u + lambda u = f on the unit square:
 *   poisson    lambda = 0
 *   helmholtz  lambda > 0 (-helmholtz_lambda, default 10; in the flow solvers lambda = 1/(nu dt))
 * and, for curved geometry,
 *   annulus    Poisson on the quarter annulus (2D) or the octant of the spherical shell (3D) 1 <= r <= 2 with
 *              u = 0 on the circles (spheres) and the cuts: the data belong to the true boundary, so a straight-sided mesh, whose boundary
 *              misses the circles by O(h^2), makes a geometric error that curved elements remove
 *   linear     u = 1 + 0.3 x - 0.7 y (+ 0.5 z), f = 0: reproduced to round-off by any order N >= 1 on
 *              affine and on curved elements of geometry order <= N (consistency of the SIPDG form)
 *
 * with the smooth exact solution u = sin(a x + p) cos(b y + q), chosen with no symmetry so
 * Dirichlet and Neumann sides both exercise the boundary terms; on a 3D mesh it is multiplied by
 * cos(c z + r). Default boundary conditions are mixed: Neumann on top, Dirichlet elsewhere
 * (-bc_dirichlet, -bc_neumann).
 *   poisson_periodic  lambda = 0 with the periodic solution u = exp(sin(2 pi x + 0.3) cos(2 pi y + 0.7))
 *                     (the argument times cos(2 pi z + 0.2) in 3D) of the unit box, by default on a
 *                     fully periodic box (no boundary groups: the operator has the constants as null
 *                     space, the solution is fixed up to a constant, matched to the exact mean); with
 *                     walls (-dm_plex_box_bd periodic,none -bc_dirichlet bottom,top) the same solution
 *                     gives their data. A mesh named on the command line replaces the default box
 *                     with its periodicity: name -dm_plex_box_bd too. */
#include <hoflow/compat.h>
#include <hoflow/problem.h>

static const PetscReal ka = 1.3 * PETSC_PI, kb = 0.9 * PETSC_PI, kc = 0.7 * PETSC_PI, pa = 0.4, pb = 0.2, pc = 0.3;

static PetscErrorCode ManufacturedExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  const PetscReal sa = PetscSinReal(ka * x[0] + pa), ca = PetscCosReal(ka * x[0] + pa), sb = PetscSinReal(kb * x[1] + pb), cb = PetscCosReal(kb * x[1] + pb);
  const PetscReal sc = dim == 3 ? PetscSinReal(kc * x[2] + pc) : 0.0, cc = dim == 3 ? PetscCosReal(kc * x[2] + pc) : 1.0;

  PetscFunctionBeginUser;
  u[0] = sa * cb * cc;
  if (grad) {
    grad[0] = ka * ca * cb * cc;
    grad[1] = -kb * sa * sb * cc;
    if (dim == 3) grad[2] = -kc * sa * cb * sc;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ManufacturedForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  const Problem *problem = (const Problem *)ctx;
  PetscReal      u;

  PetscFunctionBeginUser;
  PetscCall(ManufacturedExact(dim, t, x, 1, &u, NULL, NULL));
  f[0] = (ka * ka + kb * kb + (dim == 3 ? kc * kc : 0.0) + problem->lambda) * u;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProblemSetManufactured(Problem *problem, PetscReal lambda)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(problem->physics, "elliptic", sizeof(problem->physics)));
  problem->lambda  = lambda;
  problem->exact   = ManufacturedExact;
  problem->forcing = ManufacturedForcing;
  problem->ctx     = problem;
  /* the same functions in closed form, for the kernels (the dimension is the points') */
  problem->exact_closed_form   = (HoflowClosedForm){HOFLOW_CLOSED_FORM_SINCOS, 0, 0, {ka, kb, kc}, {pa, pb, pc}, lambda};
  problem->forcing_closed_form = (HoflowClosedForm){HOFLOW_CLOSED_FORM_SINCOS, 0, 1, {ka, kb, kc}, {pa, pb, pc}, lambda};
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,front,back,bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "top"));
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

/* u = exp(phi), phi = sin(k x + 0.3) cos(k y + 0.7) [cos(k z + 0.2)], k = 2 pi: periodic on the unit box, with
 * every Fourier mode and no symmetry, so neither the discrete solution nor the Krylov space of a uniform
 * mesh collapses to a few modes (a single mode sin(k x) cos(k y) is nearly an eigenvector of the discrete
 * operator: CG converged in 6 iterations whatever the mesh). */
static const PetscReal kp = 2 * PETSC_PI, qa = 0.3, qb = 0.7, qc = 0.2;

/* phi, its gradient and its Laplacian -dim k^2 phi */
static PetscErrorCode PeriodicPhase(PetscInt dim, const PetscReal x[], PetscReal *phi, PetscReal dphi[], PetscReal *lap)
{
  const PetscReal sx = PetscSinReal(kp * x[0] + qa), cx = PetscCosReal(kp * x[0] + qa), sy = PetscSinReal(kp * x[1] + qb), cy = PetscCosReal(kp * x[1] + qb);
  const PetscReal sz = dim == 3 ? PetscSinReal(kp * x[2] + qc) : 0.0, cz = dim == 3 ? PetscCosReal(kp * x[2] + qc) : 1.0;

  PetscFunctionBeginUser;
  *phi    = sx * cy * cz;
  dphi[0] = kp * cx * cy * cz;
  dphi[1] = -kp * sx * sy * cz;
  dphi[2] = dim == 3 ? -kp * sx * cy * sz : 0.0;
  *lap    = -dim * kp * kp * *phi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PeriodicExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  PetscReal phi, dphi[3], lap;

  PetscFunctionBeginUser;
  PetscCall(PeriodicPhase(dim, x, &phi, dphi, &lap));
  u[0] = PetscExpReal(phi);
  if (grad)
    for (PetscInt d = 0; d < dim; d++) grad[d] = u[0] * dphi[d];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f = -Laplace exp(phi) = -exp(phi) (|grad phi|^2 + Laplace phi) */
static PetscErrorCode PeriodicForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  PetscReal phi, dphi[3], lap;

  PetscFunctionBeginUser;
  PetscCall(PeriodicPhase(dim, x, &phi, dphi, &lap));
  f[0] = -PetscExpReal(phi) * (dphi[0] * dphi[0] + dphi[1] * dphi[1] + dphi[2] * dphi[2] + lap);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_PoissonPeriodic(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(problem->physics, "elliptic", sizeof(problem->physics)));
  problem->lambda  = 0.0;
  problem->exact   = PeriodicExact;
  problem->forcing = PeriodicForcing;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_box_faces 4,4 -dm_plex_box_bd periodic,periodic", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "none"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "none"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* The annulus problem: u = S(r) p with S = sin(pi (r - 1)) and p = x y (2D) or x y z (3D): zero on r = 1
 * and r = 2 and on the coordinate planes that cut a quarter annulus or an octant of the shell. p is
 * harmonic and homogeneous of degree d, so x.grad p = d p and Laplace u = p (S'' + (3d - 1) S'/r). */
static PetscErrorCode AnnulusExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  PetscReal r2 = 0, r, S, dS, p = 1;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) {
    r2 += x[d] * x[d];
    p *= x[d];
  }
  r    = PetscSqrtReal(r2);
  S    = PetscSinReal(PETSC_PI * (r - 1.0));
  dS   = PETSC_PI * PetscCosReal(PETSC_PI * (r - 1.0));
  u[0] = S * p;
  if (grad)
    for (PetscInt d = 0; d < dim; d++) {
      PetscReal dp = 1; /* dp/dx_d: the product of the other coordinates */
      for (PetscInt k = 0; k < dim; k++)
        if (k != d) dp *= x[k];
      grad[d] = dS * x[d] / r * p + S * dp;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AnnulusForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  PetscReal r2 = 0, r, p = 1;

  PetscFunctionBeginUser;
  for (PetscInt d = 0; d < dim; d++) {
    r2 += x[d] * x[d];
    p *= x[d];
  }
  r    = PetscSqrtReal(r2);
  f[0] = -p * (-PETSC_PI * PETSC_PI * PetscSinReal(PETSC_PI * (r - 1.0)) + (3 * dim - 1) * PETSC_PI * PetscCosReal(PETSC_PI * (r - 1.0)) / r);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The data of the true problem: u = 0 on every boundary (the circles or spheres and the cuts), wherever the
 * mesh puts its boundary; Neumann data (not the default) from the exact gradient at the point. */
static PetscErrorCode AnnulusBoundary(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(AnnulusExact(dim, t, x, nv, u, grad, ctx));
  u[0] = 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Annulus(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(problem->physics, "elliptic", sizeof(problem->physics)));
  problem->exact    = AnnulusExact;
  problem->forcing  = AnnulusForcing;
  problem->boundary = AnnulusBoundary;
  problem->ctx      = problem;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/annulus.msh -curve_inner circle -curve_inner_radius 1 -curve_outer circle -curve_outer_radius 2", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "inner,outer,left,bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "none"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearExact(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal u[], PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  u[0] = 1.0 + 0.3 * x[0] - 0.7 * x[1] + (dim == 3 ? 0.5 * x[2] : 0.0);
  if (grad) {
    grad[0] = 0.3;
    grad[1] = -0.7;
    if (dim == 3) grad[2] = 0.5;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LinearForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  PetscFunctionBeginUser;
  f[0] = 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Linear(Problem *problem)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(problem->physics, "elliptic", sizeof(problem->physics)));
  problem->exact   = LinearExact;
  problem->forcing = LinearForcing;
  problem->ctx     = problem;
  PetscCall(PetscStrncpy(problem->mesh_options, "-dm_plex_filename examples/meshes/square.msh", sizeof(problem->mesh_options)));
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", "left,right,front,back,bottom"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", "top"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
