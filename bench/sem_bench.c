static const char help[] = "Continuous spectral elements (-disc sem): throughput of the matrix-free operators (MatMult) on the mesh\n"
                           "of the usual options at one order, against a bandwidth roofline: the scalar Laplacian, the Helmholtz\n"
                           "operator (lambda = 1), the vector Laplacian (dim interlaced components, one kernel launch) and the\n"
                           "diagonal GLL mass and inverse mass. With -dm_vec_type cuda the CUDA kernels (cuda/sem.cu), else the\n"
                           "host kernels (one core). The roofline is the measured copy bandwidth (read + write) over the bytes\n"
                           "an application must move at least: x read, y zeroed and added to (read + write), the element\n"
                           "restriction (4 bytes a node), the Dirichlet mask (a byte a dof) and the geometric factors (7 doubles\n"
                           "an element where all are affine, 7 a node otherwise); the mass x, d read and y written.\n"
                           "The Stokes coupling of the Taylor-Hood pair (cuda/sem_stokes.cu): the divergence B0 (velocity -> pressure,\n"
                           "u read, the pressure zeroed and added to, both restrictions, the mask, the pressure factors: 1 + dim^2\n"
                           "doubles an element where all are affine, a Gauss point otherwise), the gradient B0^T (p read, the velocity\n"
                           "zeroed and added to) and the unsteady Stokes block operator [A + M, B0^T; B0, 0] (a MatNest as the Stokes\n"
                           "system builds it; roofline the sum of its three kernels' bytes, GDOF/s of velocity + pressure dofs).\n"
                           "Prints one line 'sem_bench: ...' per operator; options: -order N -bench_reps R -bench_csv FILE (appended)\n"
                           "-bench_copy_mib M (MiB per vector of the bandwidth copy, 512) -bench_ops LIST (of laplace, helmholtz, mass,\n"
                           "inverse_mass, vector_laplace, divergence, gradient, stokes; default all). With several ranks (mpiexec) the\n"
                           "host kernels on every rank, the same operators (the issue's CPU comparison).\n\n";

#include <hoflow/compat.h>
#include <hoflow/kernels/device.h>
#include <hoflow/log.h>
#include <hoflow/sem.h>
#include <hoflow/solver.h>
#include "copy_bandwidth.h"

/* Seconds per MatMult (MatMultTranspose with transpose) of A (two untimed applications first), reps applications
 * timed together. */
static PetscErrorCode TimeMatMultAny(Mat A, PetscBool transpose, PetscInt reps, PetscReal *seconds)
{
  Vec            x, y;
  PetscRandom    rnd;
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  if (transpose) PetscCall(MatCreateVecs(A, &y, &x));
  else PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecSetRandom(x, rnd));
  for (PetscInt k = 0; k < 2; k++) PetscCall(transpose ? MatMultTranspose(A, x, y) : MatMult(A, x, y));
#if defined(HOFLOW_HAVE_CUDA)
  PetscCheck(!HoflowDeviceSynchronize(), PETSC_COMM_SELF, PETSC_ERR_LIB, "CUDA synchronize failed");
#endif
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++) PetscCall(transpose ? MatMultTranspose(A, x, y) : MatMult(A, x, y));
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

static PetscErrorCode TimeMatMult(Mat A, PetscInt reps, PetscReal *seconds)
{
  PetscFunctionBeginUser;
  PetscCall(TimeMatMultAny(A, PETSC_FALSE, reps, seconds));
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

/* The least bytes of the Stokes coupling (divergence: u read, the pressure zeroed and added to; gradient: p read, the
 * velocity zeroed and added to), both restrictions, the velocity mask and the pressure factors, summed over ranks. */
static PetscErrorCode CouplingBytes(SEMPressure *p, PetscBool on_device, PetscBool gradient, PetscReal *bytes)
{
  SEMDisc  *u = p->velocity;
  PetscInt  np;
  Vec       vp;
  PetscReal b, factors = 1.0 + u->dim * u->dim;

  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(p->dm, &vp));
  PetscCall(VecGetLocalSize(vp, &np));
  PetscCall(DMRestoreLocalVector(p->dm, &vp));
  b = sizeof(PetscScalar) * (gradient ? np + 3.0 * u->nlocal : u->nlocal + 3.0 * np) + 4.0 * u->K * (u->Np + p->Npe) + 1.0 * u->nlocal;
  b += sizeof(PetscReal) * factors * (on_device && p->affine ? (PetscReal)u->K : (PetscReal)u->K * p->Npp);
  PetscCallMPI(MPIU_Allreduce(&b, bytes, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)u->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One line and one CSV row: n DOFs an application (sem's global size when n < 0). */
static PetscErrorCode Report(FILE *csv, const char device[], PetscBool on_device, SEMDisc *sem, const char op[], PetscInt n, PetscReal seconds, PetscReal bytes, PetscReal bandwidth, PetscInt reps)
{
  PetscReal gdofs, roof;

  PetscFunctionBeginUser;
  if (n < 0) PetscCall(VecGetSize(sem->mass, &n));
  gdofs = n / seconds * 1e-9;
  roof  = n / (bytes / bandwidth) * 1e-9;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_bench: %s N %" PetscInt_FMT " elements %" PetscInt_FMT " dofs %" PetscInt_FMT " factors %s op %-14s reps %" PetscInt_FMT " seconds %.4e GDOF/s %.4g bytes/dof %.1f roofline %.4g GDOF/s (%.0f %%)\n", RefShapeTable[sem->shape].name, sem->N, sem->mesh->Kglobal, n,
                        AffineFactors(sem, on_device) ? "affine" : "stored", op, reps, (double)seconds, (double)gdofs, (double)(bytes / n), (double)roof, (double)(100 * gdofs / roof)));
  if (csv) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%s,%.6e,%.4f,%.2f,%.4f\n", device, RefShapeTable[sem->shape].name, sem->N, sem->mesh->Kglobal, n, AffineFactors(sem, on_device) ? "affine" : "stored", op, (double)seconds, (double)gdofs, (double)(bytes / n), (double)roof));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether op is an item of the comma-separated list (-bench_ops). */
static PetscBool Wanted(const char list[], const char op[])
{
  const size_t n = strlen(op);
  for (const char *c = list; *c; c++)
    if ((c == list || c[-1] == ',') && !strncmp(c, op, n) && (c[n] == ',' || c[n] == 0)) return PETSC_TRUE;
  return PETSC_FALSE;
}

int main(int argc, char **argv)
{
  Mesh          *mesh;
  Disc           disc = NULL, vdisc = NULL;
  SEMDisc       *sem, *vsem;
  Mat            A;
  PetscInt       order = 4, reps = 20, copy_mib = 512;
  char           csvname[PETSC_MAX_PATH_LEN] = "", device[256] = "CPU (one core)", ops[PETSC_MAX_PATH_LEN] = "laplace,helmholtz,mass,inverse_mass,vector_laplace,divergence,gradient,stokes";
  FILE          *csv       = NULL;
  PetscReal      bandwidth = 0, seconds = 0, bytes = 0;
  PetscBool      on_device = PETSC_FALSE, exists;
  VecType        vtype;
  PetscMPIInt    size;
  PetscLogDouble t0, t1;
  const char    *known[] = {"laplace", "helmholtz", "mass", "inverse_mass", "vector_laplace", "divergence", "gradient", "stokes"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(HoflowLogRegister());
  PetscCall(DiscRegisterAll());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "-disc sem operator benchmark", NULL);
  PetscCall(PetscOptionsInt("-order", "Polynomial order N", NULL, order, &order, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Applications timed per operator", NULL, reps, &reps, NULL));
  PetscCall(PetscOptionsString("-bench_csv", "CSV file the rows are appended to", NULL, csvname, csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsInt("-bench_copy_mib", "MiB per vector of the copy that measures the bandwidth (far above the caches)", NULL, copy_mib, &copy_mib, NULL));
  PetscCall(PetscOptionsString("-bench_ops", "Operators timed (comma-separated): laplace, helmholtz, mass, inverse_mass, vector_laplace, divergence, gradient, stokes", NULL, ops, ops, sizeof(ops), NULL));
  PetscOptionsEnd();
  PetscCheck(copy_mib >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_copy_mib %" PetscInt_FMT " must be >= 1 (MiB per vector)", copy_mib);
  PetscCheck(reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-bench_reps %" PetscInt_FMT " must be >= 1", reps);
  {
    PetscInt nfound = 0;
    for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) nfound += Wanted(ops, known[k]);
    PetscCheck(nfound >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-bench_ops %s names no operator: use a comma-separated list of laplace, helmholtz, mass, inverse_mass, vector_laplace, divergence, gradient, stokes", ops);
  }
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) PetscCall(PetscSNPrintf(device, sizeof(device), "CPU (%d ranks)", (int)size));

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
  if (size > 1) bandwidth *= size; /* every rank copies at once: the machine's aggregate (measured one rank at a time; an upper bound) */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device: %s\ncopy bandwidth: %.1f GB/s (read + write)\n", device, (double)(bandwidth * 1e-9)));
  if (csvname[0]) {
    PetscCall(PetscTestFile(csvname, 'r', &exists));
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csvname, "a", &csv));
    if (!exists) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, csv, "device,shape,N,elements,dofs,factors,operator,seconds,gdofs,bytes_per_dof,roofline_gdofs\n"));
  }

  if (Wanted(ops, "laplace") || Wanted(ops, "helmholtz") || Wanted(ops, "mass") || Wanted(ops, "inverse_mass")) {
    PetscCall(PetscTime(&t0));
    PetscCall(DiscCreate(mesh, "sem", order, &disc));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "setup: scalar layout %.2f s\n", (double)(t1 - t0)));
    PetscCall(DiscGetSEM(disc, "the -disc sem benchmark", &sem));
    PetscCall(EllipticBytes(sem, on_device, &bytes));
    for (PetscInt k = 0; k < 2; k++) { /* -Laplace, -Laplace + 1 */
      if (!Wanted(ops, k ? "helmholtz" : "laplace")) continue;
      PetscCall(DiscCreateElliptic(disc, (PetscReal)k, NULL, &A));
      PetscCall(TimeMatMult(A, reps, &seconds));
      PetscCall(Report(csv, device, on_device, sem, k ? "helmholtz" : "laplace", -1, seconds, bytes, bandwidth, reps));
      PetscCall(MatDestroy(&A));
    }
    for (PetscInt k = 0; k < 2; k++) { /* the diagonal mass and its inverse: x, d read, y written */
      PetscInt n;
      if (!Wanted(ops, k ? "inverse_mass" : "mass")) continue;
      PetscCall(DiscCreateMass(disc, (PetscBool)k, &A));
      PetscCall(TimeMatMult(A, reps, &seconds));
      PetscCall(VecGetSize(sem->mass, &n));
      PetscCall(Report(csv, device, on_device, sem, k ? "inverse_mass" : "mass", -1, seconds, 3.0 * sizeof(PetscScalar) * n, bandwidth, reps));
      PetscCall(MatDestroy(&A));
    }
    PetscCall(DiscDestroy(&disc));
  }
  if (Wanted(ops, "vector_laplace") || Wanted(ops, "divergence") || Wanted(ops, "gradient") || Wanted(ops, "stokes")) {
    PetscCall(PetscTime(&t0));
    PetscCall(DiscCreateComponents(mesh, "sem", order, mesh->dim, &vdisc));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "setup: velocity layout (%" PetscInt_FMT " components) %.2f s\n", mesh->dim, (double)(t1 - t0)));
    PetscCall(DiscGetSEM(vdisc, "the -disc sem benchmark", &vsem));
  }
  if (Wanted(ops, "vector_laplace")) { /* the vector Laplacian, dim components */
    PetscCall(EllipticBytes(vsem, on_device, &bytes));
    PetscCall(DiscCreateElliptic(vdisc, 0.0, NULL, &A));
    PetscCall(TimeMatMult(A, reps, &seconds));
    PetscCall(Report(csv, device, on_device, vsem, "vector_laplace", -1, seconds, bytes, bandwidth, reps));
    PetscCall(MatDestroy(&A));
  }
  if (Wanted(ops, "divergence") || Wanted(ops, "gradient") || Wanted(ops, "stokes")) { /* the Taylor-Hood coupling and the unsteady Stokes block operator */
    SEMPressure *p;
    Mat          B0, BT, Av, K, blocks[4];
    PetscInt     nu, np;
    PetscReal    bdiv, bgrad, ba;
    PetscCall(PetscTime(&t0));
    PetscCall(SEMPressureCreate(vsem, SEM_STOKES_TAYLOR_HOOD, &p));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "setup: Taylor-Hood pressure (layout of order %" PetscInt_FMT ", geometry at %" PetscInt_FMT "^%" PetscInt_FMT " Gauss points) %.2f s\n", order - 1, p->Ng, mesh->dim, (double)(t1 - t0)));
    PetscCall(SEMDivergenceCreate(p, mesh->face_type, &B0));
    PetscCall(MatGetSize(B0, &np, &nu));
    PetscCall(CouplingBytes(p, on_device, PETSC_FALSE, &bdiv));
    PetscCall(CouplingBytes(p, on_device, PETSC_TRUE, &bgrad));
    if (Wanted(ops, "divergence")) {
      PetscCall(TimeMatMultAny(B0, PETSC_FALSE, reps, &seconds));
      PetscCall(Report(csv, device, on_device, vsem, "divergence", nu, seconds, bdiv, bandwidth, reps));
    }
    if (Wanted(ops, "gradient")) {
      PetscCall(TimeMatMultAny(B0, PETSC_TRUE, reps, &seconds));
      PetscCall(Report(csv, device, on_device, vsem, "gradient", nu, seconds, bgrad, bandwidth, reps));
    }
    if (Wanted(ops, "stokes")) {
      PetscCall(SEMOperatorCreate(vsem, 1.0, mesh->face_type, &Av)); /* A + lambda M of a DIRK stage */
      PetscCall(MatCreateTranspose(B0, &BT));
      blocks[0] = Av, blocks[1] = BT, blocks[2] = B0, blocks[3] = NULL;
      PetscCall(EllipticBytes(vsem, on_device, &ba));
      for (PetscInt fused = 1; fused >= 0; fused--) { /* hoflow's block MatMult (the Stokes systems'), then PETSc's MatNest one */
        PetscCall(HoflowBlockMatCreate(PETSC_COMM_WORLD, blocks, vtype, (PetscBool)fused, &K));
        PetscCall(TimeMatMult(K, reps, &seconds));
        PetscCall(Report(csv, device, on_device, vsem, fused ? "stokes" : "stokes_nest", nu + np, seconds, ba + bdiv + bgrad, bandwidth, reps));
        PetscCall(MatDestroy(&K));
      }
      PetscCall(MatDestroy(&BT));
      PetscCall(MatDestroy(&Av));
    }
    PetscCall(MatDestroy(&B0));
    PetscCall(SEMPressureDestroy(&p));
  }
  PetscCall(DiscDestroy(&vdisc));
  if (csv) PetscCall(PetscFClose(PETSC_COMM_WORLD, csv));
  PetscCall(MeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
