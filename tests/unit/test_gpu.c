static const char help[] = "Compares every CUDA kernel with its host twin on the same operator and input:\n"
                           "SIPDG apply (gradient + apply), diagonal, mass, inverse mass, right-hand side, L2 error, the\n"
                           "p-multigrid transfer (prolongation, restriction) and Chebyshev/Jacobi smoother, and the\n"
                           "incompressible-flow operators (advection in both forms, gradient with and without the\n"
                           "increment's trace, divergence, face data).\n"
                           "Takes hoflow's options. Prints SKIPPED when hoflow is built without CUDA.\n";

#include <hoflow/compat.h>
#include <hoflow/insops.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/gather.h>
#include <hoflow/kernels/ins.h>
#include <hoflow/physics.h>
#include <hoflow/solver.h>

#if defined(HOFLOW_HAVE_CUDA)
#include "device_vec.h"

/* ||yd - yh|| / ||yh||, infinite if yd holds a NaN (an unwritten entry of the poisoned output). */
static PetscErrorCode RelativeDifference(Vec yh, Vec yd, PetscReal *rel)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          s[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(yh, &n));
  PetscCall(VecGetArrayRead(yh, &a));
  PetscCall(VecGetArrayRead(yd, &b));
  for (PetscInt i = 0; i < n; i++) {
    s[0] += PetscSqr(PetscRealPart(b[i] - a[i]));
    s[1] += PetscSqr(PetscRealPart(a[i]));
    if (PetscIsNanReal(PetscRealPart(b[i]))) s[0] = PETSC_INFINITY;
  }
  PetscCall(VecRestoreArrayRead(yh, &a));
  PetscCall(VecRestoreArrayRead(yd, &b));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, s, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)yh)));
  *rel = PetscSqrtReal(s[0] / s[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (or A^T x) on the host and on the device (twice, to catch races); relative difference and
 * repeat difference. */
static PetscErrorCode CompareMultOrTranspose(Mat A, PetscBool transpose, Vec x, PetscReal *rel, PetscReal *repeat)
{
  Vec yh, xd, yd, yd2;

  PetscFunctionBeginUser;
  if (transpose)
    PetscCall(MatCreateVecs(A, &yh, NULL));
  else
    PetscCall(MatCreateVecs(A, NULL, &yh));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, x, yh));
  PetscCall(DuplicateOnDevice(x, &xd));
  PetscCall(DuplicateOnDevice(yh, &yd));
  PetscCall(VecDuplicate(yd, &yd2));
  PetscCall(VecSet(yd, NAN));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, xd, yd));
  PetscCall((transpose ? MatMultTranspose : MatMult)(A, xd, yd2));
  PetscCall(RelativeDifference(yh, yd, rel));
  PetscCall(VecAXPY(yd2, -1.0, yd));
  PetscCall(VecNorm(yd2, NORM_INFINITY, repeat));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&xd));
  PetscCall(VecDestroy(&yd));
  PetscCall(VecDestroy(&yd2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareMult(Mat A, Vec x, PetscReal *rel, PetscReal *repeat)
{
  PetscFunctionBeginUser;
  PetscCall(CompareMultOrTranspose(A, PETSC_FALSE, x, rel, repeat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* p-multigrid transfer between order N and N/2 (N > 1): prolongation and restriction kernels. */
static PetscErrorCode CompareTransfer(App *app, PetscRandom rnd, PetscReal *prolong, PetscReal *restrict_, PetscReal *repeat)
{
  Disc      coarse;
  DGDisc   *dgc, *dgf;
  Mat       P;
  Vec       xc, xf;
  PetscReal rep[2];

  PetscFunctionBeginUser;
  PetscCall(DGDiscCreate(app->mesh, PetscMax(1, app->order / 2), &coarse));
  PetscCall(DiscGetDG(coarse, "the transfer test", &dgc));
  PetscCall(DiscGetDG(app->disc, "the transfer test", &dgf));
  PetscCall(DGTransferCreate(dgc, dgf, &P));
  PetscCall(MatCreateVecs(P, &xc, &xf));
  PetscCall(VecSetRandom(xc, rnd));
  PetscCall(VecSetRandom(xf, rnd));
  PetscCall(CompareMultOrTranspose(P, PETSC_FALSE, xc, prolong, &rep[0]));
  PetscCall(CompareMultOrTranspose(P, PETSC_TRUE, xf, restrict_, &rep[1]));
  *repeat = PetscMax(rep[0], rep[1]);
  PetscCall(VecDestroy(&xc));
  PetscCall(VecDestroy(&xf));
  PetscCall(MatDestroy(&P));
  PetscCall(DiscDestroy(&coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Smooth made-up boundary data, every entry non-zero: u_D[dim], du/dn[dim], p_D (dim from the context). */
static PetscErrorCode INSTestBoundary(const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  const PetscInt  dim = *(const PetscInt *)ctx;
  const PetscReal z   = dim == 3 ? x[2] : 0.0;

  PetscFunctionBeginUser;
  values[0] = 1.0 + PetscSinReal(2.0 * x[0]) * PetscCosReal(x[1]) + 0.1 * z;
  values[1] = 0.5 + x[0] * x[1] - 0.2 * z;
  if (dim == 3) values[2] = 0.3 - x[1] * z + 0.5 * x[0];
  values[dim]     = PetscCosReal(3.0 * x[1]) + 0.25 * n[0];
  values[dim + 1] = PetscSinReal(x[0] + x[1] + z) - 0.25 * n[1];
  if (dim == 3) values[5] = PetscCosReal(x[0] - z) + 0.25 * n[2];
  values[2 * dim] = 2.0 + x[0] - x[1] * x[1] + z * z;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Different data per face slot (the boundary data of -problem flow differ by group and time). */
static PetscErrorCode INSTestBoundaryFaces(PetscInt slot, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  const PetscInt dim = *(const PetscInt *)ctx;

  PetscFunctionBeginUser;
  PetscCall(INSTestBoundary(x, n, values, ctx));
  for (PetscInt c = 0; c <= 2 * dim; c++) values[c] = values[c] * (0.5 + 0.1 * (PetscReal)(slot % 7)) - 0.3;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One incompressible-flow operation of the test on inputs in[2 dim + 1] (velocity u[dim]; a second
 * velocity a[dim]; pressure p), outputs out[dim] (face vectors for the face data). */
typedef enum {
  INS_ADVECTION,          /* N(u): a = c = u, lambda_scale 2 */
  INS_SUBCYCLE,           /* N~(a; c): a != c = u, lambda_scale 1 */
  INS_GRADIENT,           /* G p */
  INS_GRADIENT_INCREMENT, /* G p with the outflow data plus a multiple of the trace of u (the increment's form) */
  INS_DIVERGENCE,         /* D u */
  INS_FACEDATA,           /* face data: every boundary face (u data) and outflow faces (p data + trace of a) */
  INS_NOPS
} INSTestOp;

static PetscErrorCode INSTestApply(INSOps ops, PetscInt dim, INSTestOp op, Vec in[7], Vec out[3])
{
  PetscFunctionBeginUser;
  switch (op) {
  case INS_ADVECTION:
    PetscCall(INSOpsAdvection(ops, in, in, 2.0, 1.3, out));
    break;
  case INS_SUBCYCLE:
    PetscCall(INSOpsAdvection(ops, in + dim, in, 1.0, 0.7, out));
    break;
  case INS_GRADIENT:
    PetscCall(INSOpsGradient(ops, in[2 * dim], NULL, 0.0, 1.2, out));
    break;
  case INS_GRADIENT_INCREMENT:
    PetscCall(INSOpsGradient(ops, in[2 * dim], in[0], -0.8, 0.9, out));
    break;
  case INS_DIVERGENCE:
    PetscCall(INSOpsDivergence(ops, in, 1.1, out[0]));
    break;
  default:
    PetscCall(INSOpsFaceData(ops, -1, 0, 1.5, 0.0, NULL, out[0]));
    PetscCall(INSOpsFaceData(ops, HOFLOW_FACE_NEUMANN, dim, 0.8, -0.6, in[dim], out[1]));
    if (dim == 3) PetscCall(INSOpsFaceData(ops, HOFLOW_FACE_DIRICHLET, 2, -0.7, 0.3, in[1], out[2]));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operation on host vectors and twice on CUDA copies: largest relative difference over its
 * outputs, and the largest difference between the two device runs (races). */
static PetscErrorCode INSTestCompare(INSOps ops, PetscInt dim, INSTestOp op, Vec in[7], Vec in_device[7], PetscInt nface, PetscReal *rel, PetscReal *repeat)
{
  const PetscInt nout = op == INS_DIVERGENCE ? 1 : dim;
  Vec            yh[3], yd[3], yd2[3];

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nout; k++) {
    if (op == INS_FACEDATA) { /* sequential face vectors, of the type asked for (not the DM's) */
      PetscCall(VecCreate(PETSC_COMM_SELF, &yh[k]));
      PetscCall(VecSetSizes(yh[k], nface, PETSC_DECIDE));
      PetscCall(VecSetType(yh[k], VECSEQ));
      PetscCall(VecCreate(PETSC_COMM_SELF, &yd[k]));
      PetscCall(VecSetSizes(yd[k], nface, PETSC_DECIDE));
      PetscCall(VecSetType(yd[k], VECSEQCUDA));
    } else {
      PetscCall(VecDuplicate(in[0], &yh[k]));
      PetscCall(DuplicateOnDevice(in[0], &yd[k]));
    }
    PetscCall(VecDuplicate(yd[k], &yd2[k]));
    PetscCall(VecSet(yh[k], NAN));
    PetscCall(VecSet(yd[k], NAN));
    PetscCall(VecSet(yd2[k], NAN));
  }
  PetscCall(INSTestApply(ops, dim, op, in, yh));
  PetscCall(INSTestApply(ops, dim, op, in_device, yd));
  PetscCall(INSTestApply(ops, dim, op, in_device, yd2));
  *rel = *repeat = 0;
  for (PetscInt k = 0; k < nout; k++) {
    PetscReal r = 0, rep = 0;
    PetscCall(RelativeDifference(yh[k], yd[k], &r));
    PetscCall(VecAXPY(yd2[k], -1.0, yd[k]));
    PetscCall(VecNorm(yd2[k], NORM_INFINITY, &rep));
    *rel    = PetscIsNanReal(r) || PetscIsNanReal(*rel) ? NAN : PetscMax(*rel, r);
    *repeat = PetscIsNanReal(rep) || PetscIsNanReal(*repeat) ? NAN : PetscMax(*repeat, rep);
    PetscCall(VecDestroy(&yh[k]));
    PetscCall(VecDestroy(&yd[k]));
    PetscCall(VecDestroy(&yd2[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Incompressible-flow operators on the app's discretization and boundary conditions (the mesh must
 * have Dirichlet and outflow faces), host against CUDA. */
static PetscErrorCode CompareINS(App *app, Mat A, PetscRandom rnd)
{
  INSOps          ops;
  DGDisc         *dg;
  const PetscInt *face_type;
  PetscInt        count[2] = {0, 0}, nface, dim = app->mesh->dim;
  Vec             in[7], in_device[7];
  PetscReal       rel[INS_NOPS], repeat = 0, newdata = 0;

  PetscFunctionBeginUser;
  {
    PetscBool curved;
    PetscCall(MeshHasCurved(app->mesh, &curved));
    if (curved) { /* the flow operators refuse curved elements */
      PetscCall(PetscPrintf(app->comm, "gpu-ins: skipped (curved elements)\n"));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(DiscGetDG(app->disc, "the incompressible-flow test", &dg));
  if (app->mesh->nblocks != 1 || !INSKernelsSupported(app->mesh->blocks[0].shape, (int)dg->N)) { /* triangles, quadrilaterals, tetrahedra, hexahedra */
    PetscCall(PetscPrintf(app->comm, "gpu-ins: skipped (%s N = %" PetscInt_FMT ")\n", app->mesh->nblocks != 1 ? "mixed mesh" : RefShapes[app->mesh->blocks[0].shape], dg->N));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  nface = dg->elem_fnode[app->mesh->K];
  PetscCall(INSOpsCreate(dg, NULL, &ops));
  PetscCall(INSOpsSetBoundaryData(ops, INSTestBoundary, &dim));
  PetscCall(INSOpsGetFaceTypes(ops, &face_type));
  for (PetscInt k = 0; k < app->mesh->nslots; k++) {
    if (face_type[k] == HOFLOW_FACE_DIRICHLET) count[0]++;
    if (face_type[k] == HOFLOW_FACE_NEUMANN) count[1]++;
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, count, 2, MPIU_INT, MPI_SUM, app->comm));
  PetscCheck(count[0] && count[1], app->comm, PETSC_ERR_USER_INPUT, "The incompressible-flow comparison needs Dirichlet and outflow faces; the mesh has %" PetscInt_FMT " and %" PetscInt_FMT " (use -bc_dirichlet and -bc_neumann)", count[0], count[1]);
  for (PetscInt k = 0; k < 2 * dim + 1; k++) {
    PetscCall(MatCreateVecs(A, &in[k], NULL));
    PetscCall(VecSetRandom(in[k], rnd));
    PetscCall(VecShift(in[k], -0.5)); /* velocities of both signs: flow leaving and entering every face */
    PetscCall(DuplicateOnDevice(in[k], &in_device[k]));
  }
  for (PetscInt op = 0; op < INS_NOPS; op++) {
    PetscReal rep = 0;
    PetscCall(INSTestCompare(ops, dim, (INSTestOp)op, in, in_device, nface, &rel[op], &rep));
    repeat = PetscIsNanReal(rep) || PetscIsNanReal(repeat) ? NAN : PetscMax(repeat, rep);
  }
  /* new boundary data after the device's first use (time-dependent data): the boundary faces'
   * values packed, copied and scattered on the device (INSScatterFacesCUDA) must reproduce the host's */
  PetscCall(INSOpsSetBoundaryDataFaces(ops, INSTestBoundaryFaces, &dim));
  for (PetscInt op = 0; op < INS_NOPS; op++) {
    PetscReal rep = 0, r;
    PetscCall(INSTestCompare(ops, dim, (INSTestOp)op, in, in_device, nface, &r, &rep));
    newdata = PetscMax(newdata, r);
  }
  PetscCall(PetscPrintf(app->comm, "gpu-ins: advection %.3e subcycle %.3e gradient %.3e gradient_increment %.3e divergence %.3e facedata %.3e newdata %.3e ins_repeat %.3e\n", (double)rel[INS_ADVECTION], (double)rel[INS_SUBCYCLE], (double)rel[INS_GRADIENT], (double)rel[INS_GRADIENT_INCREMENT], (double)rel[INS_DIVERGENCE], (double)rel[INS_FACEDATA], (double)newdata, (double)repeat));
  for (PetscInt k = 0; k < 2 * dim + 1; k++) {
    PetscCall(VecDestroy(&in[k]));
    PetscCall(VecDestroy(&in_device[k]));
  }
  PetscCall(INSOpsDestroy(&ops));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

#if defined(HOFLOW_HAVE_CUDA)
/* The Chebyshev/Jacobi smoother (-ksp_type chebyjacobi, degree 3) on host vectors and on CUDA copies,
 * from a zero and from a nonzero initial guess: relative differences of the results; rel[2]: the
 * eigenvalue estimate's right-hand side written on the device against the host's (bit for bit: 0). */
static PetscErrorCode CompareChebyshev(Mat A, PetscRandom rnd, PetscReal rel[3])
{
  Vec       b, x0;
  PetscReal emax;

  PetscFunctionBeginUser;
  PetscCall(HoflowSolverRegisterAll());
  PetscCall(MatCreateVecs(A, &x0, &b));
  {
    Vec h, d;
    PetscCall(VecDuplicate(b, &h));
    PetscCall(HoflowEigenEstimateRHS(h));
    PetscCall(DuplicateOnDevice(b, &d));
    PetscCall(HoflowEigenEstimateRHS(d));
    PetscCall(RelativeDifference(h, d, &rel[2]));
    PetscCall(VecDestroy(&h));
    PetscCall(VecDestroy(&d));
  }
  PetscCall(VecSetRandom(b, rnd));
  PetscCall(VecSetRandom(x0, rnd));
  PetscCall(HoflowEstimateMaxEigenvalue(A, 10, NULL, &emax));
  for (PetscInt guess = 0; guess < 2; guess++) {
    Vec x[2], bb[2];
    for (PetscInt dev = 0; dev < 2; dev++) {
      KSP ksp;
      PC  pc;
      if (dev) {
        PetscCall(DuplicateOnDevice(b, &bb[1]));
        PetscCall(DuplicateOnDevice(x0, &x[1]));
      } else {
        PetscCall(VecDuplicate(b, &bb[0]));
        PetscCall(VecCopy(b, bb[0]));
        PetscCall(VecDuplicate(x0, &x[0]));
        PetscCall(VecCopy(x0, x[0]));
      }
      PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
      PetscCall(KSPSetType(ksp, KSPCHEBYJACOBI));
      PetscCall(KSPSetOperators(ksp, A, A));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, PCNONE));
      PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 3));
      PetscCall(KSPChebyshevSetEigenvalues(ksp, 1.1 * emax, 0.1 * emax));
      PetscCall(KSPSetInitialGuessNonzero(ksp, guess ? PETSC_TRUE : PETSC_FALSE));
      PetscCall(KSPSolve(ksp, bb[dev], x[dev]));
      PetscCall(KSPDestroy(&ksp));
    }
    PetscCall(RelativeDifference(x[0], x[1], &rel[guess]));
    for (PetscInt dev = 0; dev < 2; dev++) {
      PetscCall(VecDestroy(&x[dev]));
      PetscCall(VecDestroy(&bb[dev]));
    }
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The gathered CG1 transfer's kernels (hoflow/kernels/gather.h) on random data: a CSR gather-sum with rows of 0..6
 * entries (repeated indices), the indexed add with y, without y, and in place (w = y). Both sum in the index
 * list's order: max |CUDA - host| is 0, not a tolerance. */
static PetscErrorCode CompareGatherKernels(PetscRandom rnd, PetscReal diff[2])
{
  const int    n = 1000, m = 700; /* output entries, source entries */
  int         *ptr, *idx, nnz = 0;
  double      *src, *y, *h, *d;
  void        *dptr, *didx, *dsrc, *dy, *dout;
  void        *stream;
  PetscScalar  v;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &ptr, 6 * n, &idx));
  PetscCall(PetscMalloc4(m, &src, n, &y, n, &h, n, &d));
  ptr[0] = 0;
  for (int i = 0; i < n; i++) {
    PetscCall(PetscRandomGetValue(rnd, &v));
    for (int k = 0; k < (int)(7 * PetscRealPart(v)) && k < 6; k++) {
      PetscCall(PetscRandomGetValue(rnd, &v));
      idx[nnz++] = PetscMin((int)(m * PetscRealPart(v)), m - 1);
    }
    ptr[i + 1] = nnz;
  }
  for (int j = 0; j < m; j++) {
    PetscCall(PetscRandomGetValue(rnd, &v));
    src[j] = 2 * PetscRealPart(v) - 1;
  }
  for (int i = 0; i < n; i++) {
    PetscCall(PetscRandomGetValue(rnd, &v));
    y[i] = 2 * PetscRealPart(v) - 1;
  }
  PetscCall(HoflowGetCUDAStream(&stream));
  PetscCall(HoflowDeviceUploadChecked(ptr, sizeof(int) * (n + 1), &dptr));
  PetscCall(HoflowDeviceUploadChecked(idx, sizeof(int) * PetscMax(nnz, 1), &didx));
  PetscCall(HoflowDeviceUploadChecked(src, sizeof(double) * m, &dsrc));
  PetscCall(HoflowDeviceUploadChecked(y, sizeof(double) * n, &dy));
  PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * n, &dout));
  diff[0] = diff[1] = 0;
  /* the sum */
  GatherSumHost(n, ptr, idx, src, h);
  PetscCheck(!GatherSumCUDA(n, (const int *)dptr, (const int *)didx, (const double *)dsrc, (double *)dout, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "GatherSumCUDA failed");
  PetscCheck(!HoflowDeviceDownload(d, dout, sizeof(double) * n, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "download failed");
  for (int i = 0; i < n; i++) diff[0] = PetscMax(diff[0], PetscIsNanReal(d[i]) ? PETSC_INFINITY : PetscAbsReal(d[i] - h[i]));
  /* the add: the first n of idx as the map (within m), with y, without, in place */
  for (int mode = 0; mode < 3; mode++) {
    int *map = idx; /* nnz >= n with 3 entries a row on average; else the rows' first entries repeat */
    PetscCheck(nnz >= n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "too few random indices");
    GatherAddHost(n, map, src, mode == 1 ? NULL : y, h);
    if (mode == 2) {
      PetscCheck(!HoflowDeviceCopyTo(dout, y, sizeof(double) * n, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "copy failed");
      PetscCheck(!GatherAddCUDA(n, (const int *)didx, (const double *)dsrc, (const double *)dout, (double *)dout, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "GatherAddCUDA failed");
    } else
      PetscCheck(!GatherAddCUDA(n, (const int *)didx, (const double *)dsrc, mode == 1 ? NULL : (const double *)dy, (double *)dout, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "GatherAddCUDA failed");
    PetscCheck(!HoflowDeviceDownload(d, dout, sizeof(double) * n, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "download failed");
    for (int i = 0; i < n; i++) diff[1] = PetscMax(diff[1], PetscIsNanReal(d[i]) ? PETSC_INFINITY : PetscAbsReal(d[i] - h[i]));
  }
  PetscCall(HoflowDeviceFreeChecked(dptr));
  PetscCall(HoflowDeviceFreeChecked(didx));
  PetscCall(HoflowDeviceFreeChecked(dsrc));
  PetscCall(HoflowDeviceFreeChecked(dy));
  PetscCall(HoflowDeviceFreeChecked(dout));
  PetscCall(PetscFree2(ptr, idx));
  PetscCall(PetscFree4(src, y, h, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  App *app;
  Mat  A;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  { /* host and device must run the same algorithm: -ipdg_kernel auto would pair the host's sum-factorized
     * kernels with the dense CUDA ones on quadrilaterals and hexahedra, so the default here is dense */
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ipdg_kernel", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-ipdg_kernel", "dense"));
  }
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscCreateElliptic(app->disc, app->problem.lambda, NULL, &A));
#if !defined(HOFLOW_HAVE_CUDA)
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: SKIPPED (hoflow built without CUDA=1)\n"));
#else
  {
    Vec          x, xd, dh, dd, bh, bd;
    Mat          M, Minv;
    PetscRandom  rnd;
    PetscReal    apply = 0, repeat = 0, diag = 0, mass = 0, mass_repeat = 0, inv = 0, inv_repeat = 0, rhs = 0, eh = 0, ed = 0, prolong = 0, restrict_ = 0, transfer_repeat = 0, cheb[3] = {0, 0, 0}, gather[2] = {0, 0};
    ProblemPoint exact = {&app->problem, app->problem.exact, app->mesh->dim, 1, 0, 0.0}, source = {&app->problem, app->problem.forcing, app->mesh->dim, 1, 0, 0.0};

    PetscCall(MatCreateVecs(A, &x, NULL));
    PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
    PetscCall(VecSetRandom(x, rnd));
    /* SIPDG operator: gradient and apply kernels */
    PetscCall(CompareMult(A, x, &apply, &repeat));
    /* diagonal */
    PetscCall(VecDuplicate(x, &dh));
    PetscCall(MatGetDiagonal(A, dh));
    PetscCall(DuplicateOnDevice(x, &dd));
    PetscCall(VecSet(dd, NAN));
    PetscCall(MatGetDiagonal(A, dd));
    PetscCall(RelativeDifference(dh, dd, &diag));
    /* mass and inverse mass */
    PetscCall(DiscCreateMass(app->disc, PETSC_FALSE, &M));
    PetscCall(DiscCreateMass(app->disc, PETSC_TRUE, &Minv));
    PetscCall(CompareMult(M, x, &mass, &mass_repeat));
    PetscCall(CompareMult(Minv, x, &inv, &inv_repeat));
    /* right-hand side (l_i, f) */
    PetscCall(VecDuplicate(x, &bh));
    PetscCall(VecZeroEntries(bh));
    PetscCall(DiscIntegrate(app->disc, ProblemPointFunction, &source, bh));
    PetscCall(DuplicateOnDevice(x, &bd));
    PetscCall(VecZeroEntries(bd));
    PetscCall(DiscIntegrate(app->disc, ProblemPointFunction, &source, bd));
    PetscCall(RelativeDifference(bh, bd, &rhs));
    /* L2 error of the random field against the exact solution */
    PetscCall(DiscL2Error(app->disc, x, ProblemPointFunction, &exact, &eh));
    PetscCall(DuplicateOnDevice(x, &xd));
    PetscCall(DiscL2Error(app->disc, xd, ProblemPointFunction, &exact, &ed));
    PetscCall(CompareTransfer(app, rnd, &prolong, &restrict_, &transfer_repeat));
    PetscCall(CompareINS(app, A, rnd));
    PetscCall(CompareChebyshev(A, rnd, cheb));
    PetscCall(CompareGatherKernels(rnd, gather));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: apply_relative_difference %.3e repeat_difference %.3e\n", (double)apply, (double)repeat));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: diagonal %.3e mass %.3e inverse_mass %.3e rhs %.3e error %.3e mass_repeat %.3e\n", (double)diag, (double)mass, (double)inv, (double)rhs, (double)(PetscAbsReal(ed - eh) / eh), (double)PetscMax(mass_repeat, inv_repeat)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu-transfer: prolong %.3e restrict %.3e transfer_repeat %.3e\n", (double)prolong, (double)restrict_, (double)transfer_repeat));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu-chebyshev: zero_guess %.3e nonzero_guess %.3e eigest_rhs %.3e\n", (double)cheb[0], (double)cheb[1], (double)cheb[2]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu-gather: sum %.3e add %.3e\n", (double)gather[0], (double)gather[1]));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(MatDestroy(&M));
    PetscCall(MatDestroy(&Minv));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&xd));
    PetscCall(VecDestroy(&dh));
    PetscCall(VecDestroy(&dd));
    PetscCall(VecDestroy(&bh));
    PetscCall(VecDestroy(&bd));
  }
#endif
  PetscCall(MatDestroy(&A));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
