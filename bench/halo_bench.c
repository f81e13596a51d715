static const char help[] = "The SIPDG product on several ranks: the halo exchange alone, the product, and its kernels.\n"
                           "Builds the Poisson operator of order -bench_order on the mesh of the usual options and prints,\n"
                           "per rank and as the maximum over ranks, microseconds a call of: the halo exchange alone (the\n"
                           "device idle before each), the product back to back (as in a smoother), and the gradient and\n"
                           "apply kernels on the owned and halo elements without any exchange. -halo_overlap 0|1 and\n"
                           "-halo_local needed|full choose the exchange. Options: -bench_order N -bench_reps R\n\n";

#include <hoflow/dg.h>
#include <hoflow/mesh.h>
#include <hoflow/log.h>
#include <hoflow/device.h>
#include <petscksp.h>

int main(int argc, char **argv)
{
  Mesh       *mesh;
  Disc        disc;
  DGDisc     *dg;
  Mat         A;
  Vec         x;
  PetscRandom rnd;
  PetscInt    order = 6, reps = 200, ndofs;
  PetscReal   t[4], tmax[4], tmin[4];
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(HoflowLogRegister());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_order", &order, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_reps", &reps, NULL));
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);
  PetscCall(HoflowDeviceSelect(PETSC_COMM_WORLD)); /* one GPU a rank of the host, as hoflow does */
  PetscCall(MeshCreate(PETSC_COMM_WORLD, NULL, &mesh));
  {
    const MeshBoundaryType dirichlet = {"dirichlet", HOFLOW_FACE_DIRICHLET, mesh->dim == 3 ? "bottom,right,top,left,front,back" : "bottom,right,top,left", "Dirichlet data"};
    PetscCall(MeshSetBoundaryTypes(mesh, 1, &dirichlet));
  }
  PetscCall(DGDiscCreate(mesh, order, &disc));
  PetscCall(DiscGetDG(disc, "the halo benchmark", &dg));
  PetscCall(IPDGOperatorCreate(dg, 0.0, NULL, &A));
  PetscCall(DMCreateGlobalVector(dg->dm, &x));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecGetSize(x, &ndofs));
  PetscCall(IPDGOperatorTimeExchange(A, x, reps, &t[0], &t[1]));
  if (dg->nblocks == 1)
    PetscCall(IPDGOperatorTimeKernels(A, x, reps, &t[2], &t[3]));
  else
    t[2] = t[3] = 0;
  PetscCallMPI(MPI_Allreduce(t, tmax, 4, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(t, tmin, 4, MPIU_REAL, MPI_MIN, PETSC_COMM_WORLD));
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "rank %d: elements %" PetscInt_FMT " owned + %" PetscInt_FMT " halo, exchange %.1f us, product %.1f us, kernels %.1f + %.1f us\n", rank, mesh->K, mesh->Klocal - mesh->K, 1e6 * t[0], 1e6 * t[1], 1e6 * t[2], 1e6 * t[3]));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "halo_bench: ranks %d order %" PetscInt_FMT " dofs %" PetscInt_FMT " exchange_us %.1f product_us %.1f kernels_us %.1f (max over ranks; min %.1f %.1f %.1f)\n", size, order, ndofs, 1e6 * tmax[0], 1e6 * tmax[1], 1e6 * (tmax[2] + tmax[3]), 1e6 * tmin[0], 1e6 * tmin[1], 1e6 * (tmin[2] + tmin[3])));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&A));
  PetscCall(DiscDestroy(&disc));
  PetscCall(MeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
