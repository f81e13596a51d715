static const char help[] = "Continuous spectral elements, the Stokes pieces (-disc sem, Q_N / Q_{N-2}): the vector Laplacian\n"
                           "against the scalar operator component by component; the discrete divergence B of the interpolant\n"
                           "of an exactly divergence-free polynomial field (zero to round-off when Q_N holds it), of the\n"
                           "position field (sum(B x) = dim |Omega|), B^T against the transpose of B, and the gradient of a\n"
                           "constant pressure vanishing at the velocity nodes off the boundary (B_0 with the boundary\n"
                           "velocity dofs left out: B_0^T 1 = 0 everywhere). Takes hoflow's options (a\n"
                           "quadrilateral or hexahedral mesh, -order N >= 2); prints one line 'sem_stokes: ...'. With -dm_vec_type\n"
                           "cuda it applies B and B^T (with and without the boundary velocity dofs), the consistent Taylor-Hood\n"
                           "pressure mass and the unsteady Stokes block operator [A + M, B0^T; B0, 0] (a MatNest) to random vectors on\n"
                           "the GPU and on the host and prints 'sem_stokes_device: ...' (relative, max norm) instead.\n";

#include <hoflow/compat.h>
#include <hoflow/physics.h>
#include <hoflow/device.h>
#include <hoflow/sem.h>
#include <hoflow/solver.h>
#include "device_vec.h" /* DeviceVersusHost */

/* The CUDA kernels of cuda/sem_stokes.cu (and the vector Laplacian's) against the host kernels on the same random
 * input: B, B^T with every boundary velocity dof left out and with none, the consistent pressure mass (Taylor-Hood),
 * and the unsteady Stokes block operator [A + M, B0^T; B0, 0] as the Stokes system builds it (solver/blockmat.c on
 * the DM's vector type), with its own MatMult (block) and PETSc's MatNest one (block_nest). */
/* [A + M, B0^T; B0, 0] on the velocity and pressure vectors of the DM's type. */
static PetscErrorCode StokesBlockOperator(SEMDisc *u, Mat B0, const PetscInt face_type[], PetscBool fused, Mat *K)
{
  Mat     Av, BT, blocks[4];
  VecType vtype;

  PetscFunctionBeginUser;
  PetscCall(SEMOperatorCreate(u, 1.0, face_type, &Av));
  PetscCall(MatCreateTranspose(B0, &BT));
  blocks[0] = Av, blocks[1] = BT, blocks[2] = B0, blocks[3] = NULL;
  PetscCall(DMGetVecType(u->dm, &vtype));
  PetscCall(HoflowBlockMatCreate(PETSC_COMM_WORLD, blocks, vtype, fused, K));
  PetscCall(MatDestroy(&Av));
  PetscCall(MatDestroy(&BT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StokesDeviceVersusHost(App *app, SEMDisc *u, SEMPressure *p, Mat B)
{
  Mat       B0, K, Kh, Mc;
  PetscInt *face_type;
  PetscReal div, grad, div0, grad0, mass = 0, block, block_nest;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(PetscMax(app->mesh->nslots, 1), &face_type));
  for (PetscInt k = 0; k < app->mesh->nslots; k++) face_type[k] = app->mesh->face_elem[k] < 0 ? HOFLOW_FACE_DIRICHLET : HOFLOW_FACE_INTERIOR;
  PetscCall(SEMDivergenceCreate(p, face_type, &B0));
  PetscCall(DeviceVersusHost(B, B, PETSC_FALSE, &div));
  PetscCall(DeviceVersusHost(B, B, PETSC_TRUE, &grad));
  PetscCall(DeviceVersusHost(B0, B0, PETSC_FALSE, &div0));
  PetscCall(DeviceVersusHost(B0, B0, PETSC_TRUE, &grad0));
  if (p->continuous) {
    PetscCall(SEMPressureMassCreate(p, &Mc));
    PetscCall(DeviceVersusHost(Mc, Mc, PETSC_FALSE, &mass));
    PetscCall(MatDestroy(&Mc));
  }
  PetscCall(StokesBlockOperator(u, B0, face_type, PETSC_TRUE, &K));
  PetscCall(StokesBlockOperator(u, B0, face_type, PETSC_TRUE, &Kh)); /* its blocks' work vectors on the host */
  PetscCall(DeviceVersusHost(K, Kh, PETSC_FALSE, &block));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&Kh));
  PetscCall(StokesBlockOperator(u, B0, face_type, PETSC_FALSE, &K));
  PetscCall(StokesBlockOperator(u, B0, face_type, PETSC_FALSE, &Kh));
  PetscCall(DeviceVersusHost(K, Kh, PETSC_FALSE, &block_nest));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_stokes_device: divergence %.3e gradient %.3e divergence_free %.3e gradient_free %.3e pressure_mass %.3e block %.3e block_nest %.3e pair %s factors %s\n", (double)div, (double)grad, (double)div0, (double)grad0, (double)mass, (double)block, (double)block_nest, SEMStokesPairNames[p->pair],
                        p->affine ? "affine" : "stored"));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&Kh));
  PetscCall(MatDestroy(&B0));
  PetscCall(PetscFree(face_type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u = curl-like field of psi = x^2 y^2 (2D) or psi = x^2 y^2 z (3D): (d psi/dy, -d psi/dx[, 0]),
 * divergence-free, of degree 3 (2D) or 4 (3D) in each coordinate. */
static PetscErrorCode Solenoidal(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt  dim = *(PetscInt *)ctx;
  const PetscReal z   = dim == 3 ? x[2] : 1.0;

  u[0] = 2 * x[0] * x[0] * x[1] * z;
  u[1] = -2 * x[0] * x[1] * x[1] * z;
  if (dim == 3) u[2] = 0;
  return PETSC_SUCCESS;
}

/* A field with divergence: (sin x cos y, ...), to scale the solenoidal field's result. */
static PetscErrorCode Smooth(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt dim = *(PetscInt *)ctx;
  for (PetscInt d = 0; d < dim; d++) u[d] = PetscSinReal(1 + x[d]) * PetscCosReal(x[(d + 1) % dim]);
  return PETSC_SUCCESS;
}

static PetscErrorCode Position(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt dim = *(PetscInt *)ctx;
  for (PetscInt d = 0; d < dim; d++) u[d] = x[d];
  return PETSC_SUCCESS;
}

int main(int argc, char **argv)
{
  App          *app;
  Disc          vdisc;
  SEMDisc      *u;
  SEMPressure  *p;
  Mat           B, A, Av;
  Vec           vu, vp, w, ws, wp, Gp, one, As;
  PetscInt      dim, n, nb;
  PetscReal     div_solenoidal, div_smooth, sum_div, measure = 0, lhs, rhs, adjoint, grad_interior, grad_scale, lap, lap_scale, lor;
  char         *mask;
  PetscInt     *rows, *face_type;
  PetscBool     set;
  PetscRandom   rnd;
  SEMStokesPair pair;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-disc", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-disc", "sem"));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  dim = app->mesh->dim;
  PetscCall(DiscCreateComponents(app->mesh, "sem", app->order, dim, &vdisc));
  PetscCall(DiscGetSEM(vdisc, "the Stokes test", &u));
  PetscCall(SEMStokesPairFromOptions(PETSC_COMM_WORLD, &pair));
  PetscCall(SEMPressureCreate(u, pair, &p));
  PetscCall(SEMDivergenceCreate(p, NULL, &B));
  {
    PetscBool cuda;
    PetscCall(HoflowDMIsCUDA(u->dm, &cuda));
    if (cuda) {
      PetscCall(StokesDeviceVersusHost(app, u, p, B));
      PetscCall(MatDestroy(&B));
      PetscCall(SEMPressureDestroy(&p));
      PetscCall(DiscDestroy(&vdisc));
      PetscCall(AppDestroy(&app));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  PetscCall(MatCreateVecs(B, &vu, &vp));
  PetscCall(VecDuplicate(vu, &w));
  PetscCall(VecDuplicate(vp, &wp));
  /* divergence of a divergence-free field, relative to that of a smooth one */
  PetscCall(SEMDiscInterpolate(u, Smooth, &dim, vu));
  PetscCall(MatMult(B, vu, vp));
  PetscCall(VecNorm(vp, NORM_INFINITY, &div_smooth));
  PetscCall(SEMDiscInterpolate(u, Solenoidal, &dim, vu));
  PetscCall(MatMult(B, vu, vp));
  PetscCall(VecNorm(vp, NORM_INFINITY, &div_solenoidal));
  div_solenoidal /= div_smooth;
  /* sum(B x) = int div x = dim |Omega| */
  PetscCall(SEMDiscInterpolate(u, Position, &dim, vu));
  PetscCall(MatMult(B, vu, vp));
  PetscCall(VecSum(vp, &sum_div));
  for (PetscInt e = 0; e < app->mesh->K; e++) measure += app->mesh->measure[e];
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &measure, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  /* p.(B w) = (B^T p).w for random w, p */
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetFromOptions(rnd));
  PetscCall(VecSetRandom(w, rnd));
  PetscCall(VecSetRandom(wp, rnd));
  PetscCall(MatMult(B, w, vp));
  PetscCall(VecDot(wp, vp, &lhs));
  PetscCall(VecDuplicate(vu, &Gp));
  PetscCall(MatMultTranspose(B, wp, Gp));
  PetscCall(VecDot(Gp, w, &rhs));
  adjoint = PetscAbsReal(lhs - rhs) / PetscAbsReal(lhs);
  /* G 1 vanishes off the boundary: (1, div phi) = boundary terms only */
  PetscCall(VecDuplicate(vp, &one));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMultTranspose(B, one, Gp));
  PetscCall(VecNorm(Gp, NORM_INFINITY, &grad_scale));
  PetscCall(PetscMalloc1(PetscMax(app->mesh->nslots, 1), &face_type));
  for (PetscInt k = 0; k < app->mesh->nslots; k++) face_type[k] = app->mesh->face_elem[k] < 0 ? HOFLOW_FACE_DIRICHLET : HOFLOW_FACE_INTERIOR;
  PetscCall(SEMDiscDirichletDofs(u, face_type, &mask, &nb, &rows));
  {
    PetscScalar *ga;
    PetscInt     rstart;
    PetscCall(VecGetOwnershipRange(Gp, &rstart, NULL));
    PetscCall(VecGetArray(Gp, &ga));
    for (PetscInt k = 0; k < nb; k++) ga[rows[k] - rstart] = 0; /* boundary dofs */
    PetscCall(VecRestoreArray(Gp, &ga));
  }
  PetscCall(VecNorm(Gp, NORM_INFINITY, &grad_interior));
  grad_interior /= grad_scale;
  { /* the same through B_0, the divergence with every boundary velocity dof left out */
    Mat       B0;
    PetscReal g0;
    PetscCall(SEMDivergenceCreate(p, face_type, &B0));
    PetscCall(MatMultTranspose(B0, one, Gp));
    PetscCall(VecNorm(Gp, NORM_INFINITY, &g0));
    grad_interior = PetscMax(grad_interior, g0 / grad_scale);
    PetscCall(MatDestroy(&B0));
  }
  /* the vector Laplacian, component by component equal to the scalar one (interlaced components) */
  PetscCall(DiscCreateElliptic(app->disc, 1.0, NULL, &A));
  PetscCall(DiscCreateElliptic(vdisc, 1.0, NULL, &Av));
  PetscCall(VecSetRandom(w, rnd));
  PetscCall(MatMult(Av, w, vu));
  PetscCall(MatCreateVecs(A, &ws, &As));
  PetscCall(VecGetLocalSize(ws, &n));
  lap = lap_scale = 0;
  for (PetscInt c = 0; c < dim; c++) {
    const PetscScalar *wa, *va;
    PetscScalar       *sa;
    PetscReal          diff, nrm;
    PetscCall(VecGetArrayRead(w, &wa));
    PetscCall(VecGetArray(ws, &sa));
    for (PetscInt k = 0; k < n; k++) sa[k] = wa[dim * k + c];
    PetscCall(VecRestoreArray(ws, &sa));
    PetscCall(VecRestoreArrayRead(w, &wa));
    PetscCall(MatMult(A, ws, As));
    PetscCall(VecGetArrayRead(vu, &va));
    PetscCall(VecGetArray(As, &sa));
    for (PetscInt k = 0; k < n; k++) sa[k] -= va[dim * k + c];
    PetscCall(VecRestoreArray(As, &sa));
    PetscCall(VecRestoreArrayRead(vu, &va));
    PetscCall(VecNorm(As, NORM_INFINITY, &diff));
    PetscCall(VecNorm(vu, NORM_INFINITY, &nrm));
    lap       = PetscMax(lap, diff);
    lap_scale = PetscMax(lap_scale, nrm);
  }
  lap /= lap_scale;
  { /* the vector LOR matrix: the scalar one per component, ||Pv||_F^2 = dim ||Ps||_F^2 */
    Mat       Ps, Pv;
    PetscReal ns, nv;
    PetscCall(SEMOperatorAssembleLOR(A, &Ps));
    PetscCall(SEMOperatorAssembleLOR(Av, &Pv));
    PetscCall(MatNorm(Ps, NORM_FROBENIUS, &ns));
    PetscCall(MatNorm(Pv, NORM_FROBENIUS, &nv));
    lor = PetscAbsReal(nv * nv / (dim * ns * ns) - 1);
    PetscCall(MatDestroy(&Ps));
    PetscCall(MatDestroy(&Pv));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_stokes: div_solenoidal %.3e sum_div %.12e expected %.12e adjoint %.3e grad_const_interior %.3e vector_laplacian %.3e vector_lor %.3e\n", (double)div_solenoidal, (double)sum_div, (double)(dim * measure), (double)adjoint, (double)grad_interior, (double)lap, (double)lor));
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree(rows));
  PetscCall(PetscFree(face_type));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&vu));
  PetscCall(VecDestroy(&vp));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&wp));
  PetscCall(VecDestroy(&Gp));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&ws));
  PetscCall(VecDestroy(&As));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Av));
  PetscCall(MatDestroy(&B));
  PetscCall(SEMPressureDestroy(&p));
  PetscCall(DiscDestroy(&vdisc));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
