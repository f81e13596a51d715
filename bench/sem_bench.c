static const char help[] = "Continuous spectral elements (-disc sem): throughput of the matrix-free operators (MatMult) on the mesh\n"
                           "of the usual options at one order, against a bandwidth roofline: the scalar Laplacian, the Helmholtz\n"
                           "operator (lambda = 1), the vector Laplacian (dim interlaced components, one kernel launch) and the\n"
                           "diagonal GLL mass and inverse mass. With -dm_vec_type cuda the CUDA kernels (cuda/sem.cu), else the\n"
                           "host kernels (one core). The roofline is the measured copy bandwidth (read + write) over the bytes\n"
                           "an application must move at least: x read, y zeroed and added to (read + write), the element\n"
                           "restriction (4 bytes a node), the Dirichlet mask (a byte a dof) and the geometric factors (7 doubles\n"
                           "an element where all are affine, 7 a node otherwise); the mass x, d read and y written.\n"
                           "Prints one line 'sem_bench: ...' per operator; options: -order N -bench_reps R -bench_csv FILE (appended)\n"
                           "-bench_copy_mib M (MiB per vector of the bandwidth copy, 512).\n\n";

#include <hoflow/compat.h>
#include <hoflow/kernels/device.h>
#include <hoflow/log.h>
#include <hoflow/sem.h>
#include "copy_bandwidth.h"

/* Seconds per MatMult of A (two untimed applications first), reps applications timed together. */
static PetscErrorCode TimeMatMult(Mat A, PetscInt reps, PetscReal *seconds)
{
  Vec            x, y;
  PetscRandom    rnd;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  for (PetscInt k = 0; k < 2; k++) PetscCall(MatMult(A, x, y));
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
#endif
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(MatMult(A, x, y));
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
#endif
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t1));
  *seconds = (PetscReal)(t1 - t0) / reps;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the kernel forms the factors from the element's (the CUDA kernel on an affine mesh) or reads them per node. */
static PetscBool AffineFactors(SEMDisc *sem, PetscBool on_device)
{
  return (PetscBool)(on_device && sem->affine);
}

/* The least bytes an application of the elliptic operator of sem moves (per rank, summed over ranks). */
static PetscErrorCode EllipticBytes(SEMDisc *sem, PetscBool on_device, PetscReal *bytes)
{
  const PetscReal npair = sem->dim * (sem->dim + 1) / 2, nodes = (PetscReal)sem->K * sem->Np;
  PetscReal       b;

  PetscFunctionBeginUser;
  b = 3.0 * sizeof(PetscScalar) * sem->nlocal + 4.0 * nodes + 1.0 * sem->nlocal / sem->ncomp;
  b += sizeof(PetscReal) * (npair + 1) * (AffineFactors(sem, on_device) ? (PetscReal)sem->K : nodes);
  PetscCallMPI(MPIU_Allreduce(&b, bytes, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)sem->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(FILE *csv, const char device[], PetscBool on_device, SEMDisc *sem, const char op[], PetscReal seconds, PetscReal bytes, PetscReal bandwidth, PetscInt reps)
{
  PetscInt  n;
  PetscReal gdofs, roof;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(sem->mass, &n));
  gdofs = n / seconds * 1e-9;
  roof  = n / (bytes / bandwidth) * 1e-9;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_bench: %s N %" PetscInt_FMT " elements %" PetscInt_FMT " dofs %" PetscInt_FMT " factors %s op %-14s reps %" PetscInt_FMT " seconds %.4e GDOF/s %.2f bytes/dof %.1f roofline %.1f GDOF/s (%.0f %%)\n", RefShapeTable[sem->shape].name, sem->N, sem->mesh->Kglobal, n,
                        AffineFactors(sem, on_device) ? "affine" : "stored", op, reps, (double)seconds, (double)gdofs, (double)(bytes / n), (double)roof, (double)(100 * gdofs / roof)));
  if (csv) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%s,%.6e,%.4f,%.2f,%.4f\n", device, RefShapeTable[sem->shape].name, sem->N, sem->mesh->Kglobal, n, AffineFactors(sem, on_device) ? "affine" : "stored", op, (double)seconds, (double)gdofs, (double)(bytes / n), (double)roof));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mesh     *mesh;
  Disc      disc, vdisc;
  SEMDisc  *sem, *vsem;
  Mat       A;
  PetscInt  order = 4, reps = 20, copy_mib = 512;
  char      csvname[PETSC_MAX_PATH_LEN] = "", device[256] = "CPU (one core)";
  FILE     *csv       = NULL;
  PetscReal bandwidth = 0, seconds = 0, bytes = 0;
  PetscBool on_device = PETSC_FALSE, exists;
  VecType   vtype;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(HoflowLogRegister());
  PetscCall(DiscRegisterAll());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "-disc sem operator benchmark", NULL);
  PetscCall(PetscOptionsInt("-order", "Polynomial order N", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Applications timed per operator", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsString("-bench_csv", "CSV file the rows are appended to", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsInt("-bench_copy_mib", "MiB per vector of the copy that measures the bandwidth (far above the caches)", NULL, copy_mib, &copy_mib, NULL));
  PetscOptionsEnd();
  PetscCheck(copy_mib >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_copy_mib %" PetscInt_FMT " must be >= 1 (MiB per vector)", copy_mib);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);

  PetscCall(MeshCreate(PETSC_COMM_WORLD, NULL, &mesh));
  {
    const MeshBoundaryType dirichlet = {"dirichlet", HOFLOW_FACE_DIRICHLET, mesh->dim == 3 ? "bottom,right,top,left,front,back" : "bottom,right,top,left", "Dirichlet data"};
    PetscCall(MeshSetBoundaryTypes(mesh, 1, &dirichlet));
  }
  PetscCall(DMGetVecType(mesh->dm, &vtype));
  PetscCall(PetscStrbeginswith(vtype, "cuda", &on_device));
#if defined(HOFLOW_HAVE_CUDA)
  if (on_device) {
    int    sms;
    double ghz;
    PetscCheck(!HoflowDeviceProperties(device, sizeof(device), &sms, &ghz), PETSC_COMM_SELF, PETSC_ERR_LIB, "cudaGetDeviceProperties failed");
  }
#endif
  PetscCall(MeasureCopyBandwidth(mesh->dm, copy_mib, &bandwidth));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device: %s\ncopy bandwidth: %.1f GB/s (read + write)\n", device, (double)(bandwidth * 1e-9)));
  if (csvname[0]) {
    PetscCall(PetscTestFile(csvname, 'r', &exists));
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "a", &csv));
    if (!exists) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "device,shape,N,elements,dofs,factors,operator,seconds,gdofs,bytes_per_dof,roofline_gdofs\n"));
  }

  PetscCall(DiscCreate(mesh, "sem", order, &disc));
  PetscCall(DiscGetSEM(disc, "the -disc sem benchmark", &sem));
  PetscCall(EllipticBytes(sem, on_device, &bytes));
  for (PetscInt k = 0; k < 2; k++) { /* -Laplace, -Laplace + 1 */
    PetscCall(DiscCreateElliptic(disc, (PetscReal)k, NULL, &A));
    PetscCall(TimeMatMult(A, reps, &seconds));
    PetscCall(Report(csv, device, on_device, sem, k ? "helmholtz" : "laplace", seconds, bytes, bandwidth, reps));
    PetscCall(MatDestroy(&A));
  }
  for (PetscInt k = 0; k < 2; k++) { /* the diagonal mass and its inverse: x, d read, y written */
    PetscInt n;
    PetscCall(DiscCreateMass(disc, (PetscBool)k, &A));
    PetscCall(TimeMatMult(A, reps, &seconds));
    PetscCall(VecGetSize(sem->mass, &n));
    PetscCall(Report(csv, device, on_device, sem, k ? "inverse_mass" : "mass", seconds, 3.0 * sizeof(PetscScalar) * n, bandwidth, reps));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(DiscDestroy(&disc));
  /* the vector Laplacian, dim components */
  PetscCall(DiscCreateComponents(mesh, "sem", order, mesh->dim, &vdisc));
  PetscCall(DiscGetSEM(vdisc, "the -disc sem benchmark", &vsem));
  PetscCall(EllipticBytes(vsem, on_device, &bytes));
  PetscCall(DiscCreateElliptic(vdisc, 0.0, NULL, &A));
  PetscCall(TimeMatMult(A, reps, &seconds));
  PetscCall(Report(csv, device, on_device, vsem, "vector_laplace", seconds, bytes, bandwidth, reps));
  PetscCall(MatDestroy(&A));
  PetscCall(DiscDestroy(&vdisc));
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  PetscCall(MeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
