static const char help[] = "Continuous spectral elements (-disc sem): the elliptic operator A (-Laplace + lambda of the run's\n"
                           "problem) made explicit column by column, its symmetry, its matrix-free diagonal against the explicit\n"
                           "one, the LOR matrix (-pmat lor) symmetric and, at order 1, equal to A (both are the vertex rule on\n"
                           "the element), and the diagonal mass summing to the mesh's measure. Takes hoflow's options; prints\n"
                           "one line 'sem: ...'. With -dm_vec_type cuda it applies A, the vector Laplacian (dim components) and\n"
                           "the mass to one random vector each and takes the diagonals of A and the vector Laplacian, on the GPU\n"
                           "and on the host, and prints 'sem_device: device_vs_host ... vector_device_vs_host ... mass_device_vs_host\n"
                           "... diagonal_device_vs_host ... vector_diagonal_device_vs_host ... factors affine|stored' (relative, max\n"
                           "norm) instead.\n";

#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/physics.h>
#include <hoflow/sem.h>
#include "device_vec.h" /* DeviceVersusHost */

/* ||X - X^T||_F / ||X||_F */
static PetscErrorCode RelativeAsymmetry(Mat X, PetscReal *asym)
{
  Mat       T;
  PetscReal nx, nd;

  PetscFunctionBeginUser;
  PetscCall(MatTranspose(X, MAT_INITIAL_MATRIX, &T));
  PetscCall(MatNorm(X, NORM_FROBENIUS, &nx));
  PetscCall(MatAYPX(T, -1.0, X, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(T, NORM_FROBENIUS, &nd));
  *asym = nd / nx;
  PetscCall(MatDestroy(&T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same for MatGetDiagonal: on a device vector (the CUDA kernel) and on a host vector (the host kernel). */
static PetscErrorCode DiagonalDeviceVersusHost(Mat A, PetscReal *rel)
{
  Vec                dd, dh;
  PetscInt           n;
  const PetscScalar *a, *b;
  PetscReal          diff = 0, scale = 0;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &dd, NULL));
  PetscCall(VecGetLocalSize(dd, &n));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE, &dh));
  PetscCall(MatGetDiagonal(A, dd));
  PetscCall(MatGetDiagonal(A, dh));
  PetscCall(VecGetArrayRead(dd, &a));
  PetscCall(VecGetArrayRead(dh, &b));
  for (PetscInt k = 0; k < n; k++) {
    diff  = PetscMax(diff, PetscAbsScalar(a[k] - b[k]));
    scale = PetscMax(scale, PetscAbsScalar(b[k]));
  }
  PetscCall(VecRestoreArrayRead(dh, &b));
  PetscCall(VecRestoreArrayRead(dd, &a));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &diff, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &scale, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  *rel = diff / scale;
  PetscCall(VecDestroy(&dd));
  PetscCall(VecDestroy(&dh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  App      *app;
  Mat       A, Ae, P, M;
  Vec       d, de, one, Mone;
  PetscReal sym, diag, lor_sym, lor_diff = -1, nd, na, measure, expected = 0;
  PetscBool set;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-disc", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-disc", "sem"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-problem", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-problem", "helmholtz"));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscCreateElliptic(app->disc, app->problem.lambda, NULL, &A));
  {
    PetscBool cuda;
    PetscCall(HoflowDMIsCUDA(app->disc->dm, &cuda));
    if (cuda) { /* the CUDA kernels against the host kernels on the same input */
      Disc      vdisc;
      Mat       Av, Ms;
      SEMDisc  *sem;
      PetscReal rel, rel_vector, rel_mass, rel_diagonal, rel_vector_diagonal;
      PetscCall(DiscGetSEM(app->disc, "the -disc sem test", &sem));
      PetscCall(DeviceVersusHost(A, A, PETSC_FALSE, &rel));
      PetscCall(DiagonalDeviceVersusHost(A, &rel_diagonal));
      /* the vector Laplacian (dim interlaced components, one launch) and the diagonal mass */
      PetscCall(DiscCreateComponents(app->mesh, "sem", app->order, app->mesh->dim, &vdisc));
      PetscCall(DiscCreateElliptic(vdisc, app->problem.lambda, NULL, &Av));
      PetscCall(DeviceVersusHost(Av, Av, PETSC_FALSE, &rel_vector));
      PetscCall(DiagonalDeviceVersusHost(Av, &rel_vector_diagonal));
      PetscCall(DiscCreateMass(app->disc, PETSC_FALSE, &Ms));
      PetscCall(DeviceVersusHost(Ms, Ms, PETSC_FALSE, &rel_mass));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_device: device_vs_host %.3e vector_device_vs_host %.3e mass_device_vs_host %.3e diagonal_device_vs_host %.3e vector_diagonal_device_vs_host %.3e factors %s\n", (double)rel, (double)rel_vector, (double)rel_mass, (double)rel_diagonal, (double)rel_vector_diagonal,
                            sem->affine ? "affine" : "stored"));
      PetscCall(MatDestroy(&Av));
      PetscCall(MatDestroy(&Ms));
      PetscCall(DiscDestroy(&vdisc));
      PetscCall(MatDestroy(&A));
      PetscCall(AppDestroy(&app));
      PetscCall(PetscFinalize());
      return 0;
    }
  }
  PetscCall(MatComputeOperator(A, MATAIJ, &Ae));
  PetscCall(RelativeAsymmetry(Ae, &sym));
  /* the matrix-free diagonal against the explicit operator's */
  PetscCall(MatCreateVecs(A, &d, &de));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(MatGetDiagonal(Ae, de));
  PetscCall(VecNorm(de, NORM_INFINITY, &nd));
  PetscCall(VecAXPY(d, -1.0, de));
  PetscCall(VecNorm(d, NORM_INFINITY, &diag));
  diag /= nd;
  /* the LOR matrix */
  PetscCall(SEMOperatorAssembleLOR(A, &P));
  PetscCall(RelativeAsymmetry(P, &lor_sym));
  if (app->disc->order == 1) {
    PetscCall(MatNorm(Ae, NORM_FROBENIUS, &na));
    PetscCall(MatAXPY(P, -1.0, Ae, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatNorm(P, NORM_FROBENIUS, &lor_diff));
    lor_diff /= na;
  }
  /* sum(M 1) against the mesh's measure */
  PetscCall(DiscCreateMass(app->disc, PETSC_FALSE, &M));
  PetscCall(VecDuplicate(d, &one));
  PetscCall(VecDuplicate(d, &Mone));
  PetscCall(VecSet(one, 1.0));
  PetscCall(MatMult(M, one, Mone));
  PetscCall(VecSum(Mone, &measure));
  for (PetscInt e = 0; e < app->mesh->K; e++) expected += app->mesh->measure[e];
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &expected, 1, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem: symmetry %.3e diagonal %.3e lor_symmetry %.3e lor_minus_A %.3e measure %.12e expected %.12e\n", (double)sym, (double)diag, (double)lor_sym, (double)lor_diff, (double)measure, (double)expected));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&de));
  PetscCall(VecDestroy(&one));
  PetscCall(VecDestroy(&Mone));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Ae));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&M));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
