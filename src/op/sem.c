/* Operators of continuous spectral elements (-disc sem, hoflow/sem.h) as MatShells on the host: the
 * diagonal GLL mass and its inverse, -Laplace + lambda by sum factorization (src/kernels/sem.c) with
 * Dirichlet dofs as identity rows and columns, its diagonal (for Jacobi), the boundary data (lifting
 * and Neumann face integrals), and the low-order-refined matrix for -pmat lor: Q1 on the GLL sub-mesh
 * of every element (op/lor.c's sub-cell matrices), assembled into AIJ for BoomerAMG or GAMG. */
#include <hoflow/compat.h>
#include <hoflow/dg.h> /* LORSubCellMatrix */
#include <hoflow/log.h>
#include <hoflow/opshell.h>
#include <hoflow/sem.h>

typedef struct {
  OpShell       shell; /* backend of a call, device copies of kd's arrays */
  SEMDisc      *sem;
  SEMKernelData kd;                          /* the disc's, with lambda and the Dirichlet dofs */
  SEMKernelData kd_device;                   /* the same with device arrays */
  const int    *dirichlet_rows_device;       /* owned Dirichlet rows, local to the global array, on the device */
  PetscInt     *face_type;                   /* [nslots] */
  char         *dirichlet;                   /* [nlocal] local dofs with identity rows and columns */
  PetscInt      ndirichlet, *dirichlet_rows; /* owned Dirichlet rows (global numbers) */
} SEMOperator;

static const char SEM_OPERATOR_KEY[] = "HoflowSEMOperator_C";

/* y = A x: y_I = A_II x_I (x_D read as zero by the kernel), y_D = x_D; on the backend of x. Where the local
 * layout is the global one (one rank) the kernel reads x and adds into y without the exchange. */
static PetscErrorCode MatMult_SEM(Mat A, Vec x, Vec y)
{
  SEMOperator       *op;
  SEMDisc           *sem;
  Vec                xl = x, yl = y;
  const PetscScalar *xa, *xg;
  PetscScalar       *ya, *yg;
  PetscInt           rstart;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &op));
  sem = op->sem;
  PetscCall(OpShellBegin(&op->shell, x, &on_device));
  PetscCall(OpShellEventBegin(&op->shell, HOFLOW_SEMApply));
  if (!sem->local_is_global) {
    PetscCall(OpShellGetLocal(&op->shell, 0, &xl));
    PetscCall(OpShellGetLocal(&op->shell, 1, &yl));
    PetscCall(DMGlobalToLocal(sem->dm, x, INSERT_VALUES, xl));
  }
  PetscCall(VecZeroEntries(yl));
  PetscCall(OpShellGetArrayRead(&op->shell, xl, &xa));
  PetscCall(OpShellGetArray(&op->shell, yl, &ya));
  if (!on_device)
    for (PetscInt c = 0; c < sem->ncomp; c++) SEMApplyHost(&op->kd, xa + c, ya + c); /* component c: gather + c */
  else
    PetscCall(OpShellCheckKernel(&op->shell, HOFLOW_CUDA(SEMApplyCUDA(&op->kd_device, (int)sem->ncomp, xa, ya, op->shell.stream)), "SEM apply"));
  PetscCall(OpShellRestoreArray(&op->shell, yl, &ya));
  PetscCall(OpShellRestoreArrayRead(&op->shell, xl, &xa));
  if (!sem->local_is_global) {
    PetscCall(VecZeroEntries(y));
    PetscCall(DMLocalToGlobal(sem->dm, yl, ADD_VALUES, y));
  }
  PetscCall(OpShellGetArrayRead(&op->shell, x, &xg));
  PetscCall(OpShellGetArray(&op->shell, y, &yg));
  if (!on_device) {
    PetscCall(VecGetOwnershipRange(y, &rstart, NULL));
    for (PetscInt k = 0; k < op->ndirichlet; k++) yg[op->dirichlet_rows[k] - rstart] = xg[op->dirichlet_rows[k] - rstart];
  } else
    PetscCall(OpShellCheckKernel(&op->shell, HOFLOW_CUDA(SEMCopyRowsCUDA((int)op->ndirichlet, op->dirichlet_rows_device, xg, yg, op->shell.stream)), "Dirichlet rows"));
  PetscCall(OpShellRestoreArray(&op->shell, y, &yg));
  PetscCall(OpShellRestoreArrayRead(&op->shell, x, &xg));
  PetscCall(OpShellEventEnd(&op->shell, HOFLOW_SEMApply, SEMApplyFlopsPerElement((int)sem->dim, (int)sem->N) * sem->K * sem->ncomp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kernel data on the device, at the first call with CUDA vectors (OpShellBegin). */
static PetscErrorCode SEMOperatorDeviceSetUp(void *ctx)
{
  SEMOperator        *op    = (SEMOperator *)ctx;
  SEMDisc            *sem   = op->sem;
  const PetscInt      npair = sem->dim * (sem->dim + 1) / 2, n = sem->K * sem->Np;
  const void         *ptr;
  PetscInt            rstart, *rows;
  HoflowDeviceArrays *dev = &op->shell.device;

  PetscFunctionBeginUser;
  PetscCheck(SEMCUDASupported((int)sem->dim, (int)sem->N), PetscObjectComm((PetscObject)sem->dm), PETSC_ERR_SUP, "-order %" PetscInt_FMT ": no CUDA kernel of -disc sem for this order", sem->N);
  op->kd_device = op->kd;
  PetscCall(HoflowDeviceArraysUpload(dev, op->kd.gather, sizeof(int) * n, &ptr));
  op->kd_device.gather = (const int *)ptr;
  PetscCall(HoflowDeviceArraysUpload(dev, op->kd.D1, sizeof(double) * sem->N1 * sem->N1, &ptr));
  op->kd_device.D1 = (const double *)ptr;
  PetscCall(HoflowDeviceArraysUpload(dev, op->kd.D1T, sizeof(double) * sem->N1 * sem->N1, &ptr));
  op->kd_device.D1T = (const double *)ptr;
  if (op->kd.affine) { /* npair + 1 numbers an element and the GLL weights instead of npair + 1 a node */
    PetscCall(HoflowDeviceArraysUpload(dev, op->kd.affine, sizeof(double) * sem->K * (npair + 1), &ptr));
    op->kd_device.affine = (const double *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, op->kd.w1, sizeof(double) * sem->N1, &ptr));
    op->kd_device.w1 = (const double *)ptr;
    op->kd_device.G  = NULL;
    op->kd_device.wJ = NULL;
  } else {
    PetscCall(HoflowDeviceArraysUpload(dev, op->kd.G, sizeof(double) * n * npair, &ptr));
    op->kd_device.G = (const double *)ptr;
    PetscCall(HoflowDeviceArraysUpload(dev, op->kd.wJ, sizeof(double) * n, &ptr));
    op->kd_device.wJ = (const double *)ptr;
    op->kd_device.w1 = NULL;
  }
  {
    PetscBool any = PETSC_FALSE; /* none (periodic, Neumann): the kernel reads no mask */
    for (PetscInt k = 0; k < sem->nlocal && !any; k++) any = (PetscBool)(op->dirichlet[k] != 0);
    op->kd_device.dirichlet = NULL;
    if (any) {
      PetscCall(HoflowDeviceArraysUpload(dev, op->dirichlet, sizeof(char) * sem->nlocal, &ptr));
      op->kd_device.dirichlet = (const char *)ptr;
    }
  }
  PetscCall(VecGetOwnershipRange(sem->mass, &rstart, NULL));
  PetscCall(PetscMalloc1(PetscMax(op->ndirichlet, 1), &rows));
  for (PetscInt k = 0; k < op->ndirichlet; k++) rows[k] = op->dirichlet_rows[k] - rstart;
  PetscCall(HoflowDeviceArraysUpload(dev, rows, sizeof(int) * PetscMax(op->ndirichlet, 1), &ptr));
  op->dirichlet_rows_device = (const int *)ptr;
  PetscCall(PetscFree(rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal (Jacobi), matrix-free element by element on the backend of d; 1 on the Dirichlet rows. */
static PetscErrorCode MatGetDiagonal_SEM(Mat A, Vec d)
{
  SEMOperator *op;
  SEMDisc     *sem;
  Vec          dl = d;
  PetscScalar *da;
  PetscInt     rstart;
  PetscBool    on_device;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &op));
  sem = op->sem;
  PetscCall(OpShellBegin(&op->shell, d, &on_device));
  PetscCall(OpShellEventBegin(&op->shell, HOFLOW_SEMDiagonal));
  if (!sem->local_is_global) PetscCall(OpShellGetLocal(&op->shell, 1, &dl));
  PetscCall(VecZeroEntries(dl));
  PetscCall(OpShellGetArray(&op->shell, dl, &da));
  if (!on_device)
    for (PetscInt c = 0; c < sem->ncomp; c++) SEMDiagonalHost(&op->kd, da + c);
  else
    PetscCall(OpShellCheckKernel(&op->shell, HOFLOW_CUDA(SEMDiagonalCUDA(&op->kd_device, (int)sem->ncomp, da, op->shell.stream)), "SEM diagonal"));
  PetscCall(OpShellRestoreArray(&op->shell, dl, &da));
  if (!sem->local_is_global) {
    PetscCall(VecZeroEntries(d));
    PetscCall(DMLocalToGlobal(sem->dm, dl, ADD_VALUES, d));
  }
  PetscCall(OpShellGetArray(&op->shell, d, &da));
  if (!on_device) {
    PetscCall(VecGetOwnershipRange(d, &rstart, NULL));
    for (PetscInt k = 0; k < op->ndirichlet; k++) da[op->dirichlet_rows[k] - rstart] = 1;
  } else
    PetscCall(OpShellCheckKernel(&op->shell, HOFLOW_CUDA(SEMCopyRowsCUDA((int)op->ndirichlet, op->dirichlet_rows_device, NULL, da, op->shell.stream)), "Dirichlet rows"));
  PetscCall(OpShellRestoreArray(&op->shell, d, &da));
  PetscCall(OpShellEventEnd(&op->shell, HOFLOW_SEMDiagonal, (3.0 * sem->dim * sem->N1 + 4.0 * sem->dim * (sem->dim - 1) + 2.0) * sem->Np * sem->K * sem->ncomp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEM(Mat A)
{
  SEMOperator *op;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &op));
  PetscCall(OpShellDestroy(&op->shell));
  PetscCall(PetscFree(op->face_type));
  PetscCall(PetscFree(op->dirichlet));
  PetscCall(PetscFree(op->dirichlet_rows));
  PetscCall(PetscFree(op));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, SEM_OPERATOR_KEY, NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "HoflowOperatorAssembleLOR_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator's context, or an error for any other matrix. */
static PetscErrorCode SEMOperatorGet(Mat A, SEMOperator **op)
{
  void (*key)(void) = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, SEM_OPERATOR_KEY, &key));
  PetscCheck(key, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Matrix is not a -disc sem elliptic operator");
  PetscCall(MatShellGetContext(A, op));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode SEMOperatorCreate(SEMDisc *sem, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  const Mesh  *mesh = sem->mesh;
  SEMOperator *op;
  PetscInt     n;

  PetscFunctionBeginUser;
  PetscCheck(lambda >= 0, PetscObjectComm((PetscObject)sem->dm), PETSC_ERR_ARG_OUTOFRANGE, "-disc sem: the Helmholtz coefficient lambda = %g must be >= 0", (double)lambda);
  PetscCall(PetscNew(&op));
  op->sem       = sem;
  op->kd        = sem->kd;
  op->kd.lambda = lambda;
  PetscCall(PetscMalloc1(PetscMax(mesh->nslots, 1), &op->face_type));
  for (PetscInt k = 0; k < mesh->nslots; k++) op->face_type[k] = face_type ? face_type[k] : mesh->face_type[k];
  PetscCall(SEMDiscDirichletDofs(sem, op->face_type, &op->dirichlet, &op->ndirichlet, &op->dirichlet_rows));
  op->kd.dirichlet = op->dirichlet;
  PetscCall(OpShellInit(&op->shell, "SEM elliptic", sem->dm, SEMOperatorDeviceSetUp, op));
  PetscCall(VecGetLocalSize(sem->mass, &n));
  PetscCall(OpShellCreateMat(&op->shell, n, op, (void (*)(void))MatMult_SEM, (void (*)(void))MatDestroy_SEM, A));
  PetscCall(MatShellSetOperation(*A, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SEM)); /* symmetric */
  PetscCall(MatShellSetOperation(*A, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_SEM));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscCall(MatSetDM(*A, sem->dm));
  PetscCall(PetscObjectComposeFunction((PetscObject)*A, SEM_OPERATOR_KEY, (void (*)(void))SEMOperatorGet));
  PetscCall(PetscObjectComposeFunction((PetscObject)*A, "HoflowOperatorAssembleLOR_C", (void (*)(void))SEMOperatorAssembleLOR)); /* -pmat lor (solver/pmat.c) */
  PetscCall(PetscObjectSetName((PetscObject)*A, "SEM elliptic"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Q1 stiffness and lumped mass of one sub-cell (2^dim vertices X[v*3 + i] in the reference vertex
 * order of the quadrilateral or hexahedron) by the vertex (trapezoidal) rule: at each vertex u,
 * w |J(u)| grad N_i(u).grad N_j(u) with w = 2^-dim of the unit cell. Where the Gauss rule of op/lor.c
 * integrates the tangential mass of Q1 exactly (a consistent mass, down to 1/3 of the lumped one),
 * the vertex rule lumps it as the GLL collocation of the spectral element lumps its own, so the two
 * operators stay closer (with LU on P, N = 4: cond(P^-1 A) 5.6 -> 2.7 on quadrilaterals, 20.7 -> 4.8 on
 * hexahedra; docs/design-notes.md). */
static PetscErrorCode SEMSubCellVertexRule(PetscInt dim, const PetscReal X[], PetscReal lambda, PetscReal K[])
{
  const RefShapeInfo *info = &RefShapeTable[dim == 2 ? REF_QUADRILATERAL : REF_HEXAHEDRON];
  const PetscInt      nv   = info->nverts;
  const PetscReal     w    = dim == 2 ? 0.25 : 0.125;
  PetscInt            c[8][3];

  PetscFunctionBeginUser;
  for (PetscInt v = 0; v < nv; v++)
    for (PetscInt d = 0; d < dim; d++) c[v][d] = info->verts[v][d] > 0;
  for (PetscInt k = 0; k < nv * nv; k++) K[k] = 0;
  for (PetscInt u = 0; u < nv; u++) {
    PetscReal dN[8][3], jac[9] = {0}, g[HOFLOW_GEO_SIZE(3)], grad[8][3], J;
    for (PetscInt v = 0; v < nv; v++) /* dN_v/dxi_d at vertex u: nonzero where v agrees with u off d */
      for (PetscInt d = 0; d < dim; d++) {
        PetscReal p = c[v][d] ? 1 : -1;
        for (PetscInt e = 0; e < dim; e++)
          if (e != d && c[v][e] != c[u][e]) p = 0;
        dN[v][d] = p;
      }
    for (PetscInt v = 0; v < nv; v++)
      for (PetscInt i = 0; i < dim; i++)
        for (PetscInt d = 0; d < dim; d++) jac[i * dim + d] += X[v * 3 + i] * dN[v][d];
    J = GeomMetricFromJacobian((int)dim, jac, g);
    PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-disc sem LOR: a GLL sub-cell is inverted at its vertex (Jacobian %g)", (double)J);
    for (PetscInt v = 0; v < nv; v++)
      for (PetscInt j = 0; j < dim; j++) {
        PetscReal s = 0;
        for (PetscInt d = 0; d < dim; d++) s += g[j * dim + d] * dN[v][d];
        grad[v][j] = s;
      }
    for (PetscInt a = 0; a < nv; a++)
      for (PetscInt b = 0; b < nv; b++) {
        PetscReal s = 0;
        for (PetscInt j = 0; j < dim; j++) s += grad[a][j] * grad[b][j];
        K[a * nv + b] += w * J * s;
      }
    K[u * nv + u] += lambda * w * J;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Q1 on the N^dim GLL sub-cells of every owned element (lumped mass for lambda), with global rows and
 * columns; entries that touch a Dirichlet dof are left out and the Dirichlet rows get 1 on the
 * diagonal, as the high-order operator. Entries on rows of other ranks (shared dofs) go there through
 * PETSc's COO assembly. */
PetscErrorCode SEMOperatorAssembleLOR(Mat A, Mat *P)
{
  SEMOperator    *op;
  SEMDisc        *sem;
  const PetscInt *gather;
  PetscInt        nsub, *sub, nv, dim, Np, n, *coo_i, *coo_j;
  PetscCount      ncoo = 0, cap;
  PetscReal      *vals, Ke[64];
  MatNullSpace    nullsp;
  PetscBool       vertex_rule = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(SEMOperatorGet(A, &op));
  sem    = op->sem;
  dim    = sem->dim;
  Np     = sem->Np;
  gather = sem->gather;
  nv     = RefShapeTable[sem->shape].nverts;
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), NULL, "Low-order-refined matrix of -disc sem", NULL);
  PetscCall(PetscOptionsBool("-sem_lor_vertex_rule", "Integrate the Q1 sub-cells of the LOR matrix by the vertex (trapezoidal) rule instead of 2^dim Gauss points", NULL, vertex_rule, &vertex_rule, NULL));
  PetscOptionsEnd();
  PetscCall(PetscLogEventBegin(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscCall(RefElementSubCells(sem->ref, &nsub, &sub));
  cap = (PetscCount)sem->K * nsub * nv * nv * sem->ncomp + op->ndirichlet;
  PetscCall(PetscMalloc3(cap, &coo_i, cap, &coo_j, cap, &vals));
  for (PetscInt e = 0; e < sem->K; e++) {
    const PetscReal *X = sem->x + e * Np * dim;
    const PetscInt  *g = sem->gdof + e * Np, *l = gather + e * Np;
    for (PetscInt c = 0; c < nsub; c++) {
      const PetscInt *v = sub + c * nv;
      PetscReal       xs[8], ys[8], zs[8];
      LORSubCellCoordinates(dim, nv, X, v, xs, ys, zs);
      if (vertex_rule) {
        PetscReal Xs[24];
        for (PetscInt k = 0; k < nv; k++) {
          Xs[3 * k]     = xs[k];
          Xs[3 * k + 1] = ys[k];
          Xs[3 * k + 2] = zs[k];
        }
        PetscCall(SEMSubCellVertexRule(dim, Xs, op->kd.lambda, Ke));
      } else
        LORSubCellMatrix(dim, nv, xs, ys, zs, op->kd.lambda, Ke);
      for (PetscInt i = 0; i < nv; i++) {
        if (op->dirichlet[l[v[i]]]) continue;
        for (PetscInt j = 0; j < nv; j++) {
          if (op->dirichlet[l[v[j]]]) continue;
          for (PetscInt comp = 0; comp < sem->ncomp; comp++, ncoo++) {
            coo_i[ncoo] = g[v[i]] + comp;
            coo_j[ncoo] = g[v[j]] + comp;
            vals[ncoo]  = Ke[i * nv + j];
          }
        }
      }
    }
  }
  for (PetscInt k = 0; k < op->ndirichlet; k++, ncoo++) {
    coo_i[ncoo] = coo_j[ncoo] = op->dirichlet_rows[k];
    vals[ncoo]                = 1;
  }
  PetscCall(VecGetLocalSize(sem->mass, &n));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), P));
  PetscCall(MatSetSizes(*P, n, n, PETSC_DETERMINE, PETSC_DETERMINE));
  {
    PetscBool cuda;
    PetscCall(HoflowDMIsCUDA(sem->dm, &cuda));
    PetscCall(MatSetType(*P, cuda ? MATAIJCUSPARSE : MATAIJ));
  }
  if (sem->ncomp > 1) PetscCall(MatSetBlockSize(*P, sem->ncomp)); /* interlaced components: GAMG's nodal blocks */
  PetscCall(MatSetOptionsPrefix(*P, "lor_assembled_"));
  PetscCall(MatSetFromOptions(*P));
  PetscCall(MatSetPreallocationCOO(*P, ncoo, coo_i, coo_j));
  PetscCall(MatSetValuesCOO(*P, vals, ADD_VALUES));
  PetscCall(MatSetOption(*P, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*P, "SEM LOR"));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) PetscCall(MatSetNullSpace(*P, nullsp));
  PetscCall(PetscFree3(coo_i, coo_j, vals));
  PetscCall(PetscFree(sub));
  PetscCall(PetscLogEventEnd(HOFLOW_LORAssemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mass: the diagonal GLL mass (or its inverse) as a MatShell over a vector. */
static PetscErrorCode MatMult_SEMMass(Mat M, Vec x, Vec y)
{
  Vec d;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &d));
  PetscCall(VecPointwiseMult(y, d, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_SEMMass(Mat M, Vec out)
{
  Vec d;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &d));
  PetscCall(VecCopy(d, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SEMMass(Mat M)
{
  Vec d;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(M, &d));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMCreateMass(Disc disc, PetscBool inverse, Mat *M)
{
  SEMDisc *sem = (SEMDisc *)disc->data;
  Vec      d;
  PetscInt n;
  VecType  vtype;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(sem->mass, &d));
  PetscCall(VecCopy(sem->mass, d));
  if (inverse) PetscCall(VecReciprocal(d));
  PetscCall(VecGetLocalSize(d, &n));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)sem->dm), n, n, PETSC_DETERMINE, PETSC_DETERMINE, d, M));
  PetscCall(DMGetVecType(sem->dm, &vtype));
  PetscCall(MatShellSetVecType(*M, vtype)); /* d's type: VecPointwiseMult runs where the vectors live */
  PetscCall(MatShellSetOperation(*M, MATOP_MULT, (void (*)(void))MatMult_SEMMass));
  PetscCall(MatShellSetOperation(*M, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMult_SEMMass));
  PetscCall(MatShellSetOperation(*M, MATOP_GET_DIAGONAL, (void (*)(void))MatGetDiagonal_SEMMass));
  PetscCall(MatShellSetOperation(*M, MATOP_DESTROY, (void (*)(void))MatDestroy_SEMMass));
  PetscCall(MatSetOption(*M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscObjectSetName((PetscObject)*M, inverse ? "SEM inverse mass" : "SEM mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mass with zero rows at the Dirichlet dofs of face_type (NULL: the mesh's): time-dependent problems
 * pair it with the elliptic operator's identity rows there, so M u_t + nu A u = r holds u_D = g(t) exactly
 * (with the full mass a Dirichlet node lagged its data by (m_D / nu)(f - u_t), O(h^dim)). */
static PetscErrorCode SEMCreateMassElliptic(Disc disc, const PetscInt face_type[], Mat *M)
{
  SEMDisc     *sem  = (SEMDisc *)disc->data;
  const Mesh  *mesh = sem->mesh;
  PetscInt    *types, n, *rows, rstart;
  char        *mask;
  Vec          d;
  PetscScalar *da;

  PetscFunctionBeginUser;
  PetscCall(SEMCreateMass(disc, PETSC_FALSE, M));
  PetscCall(MatShellGetContext(*M, &d));
  PetscCall(PetscMalloc1(PetscMax(mesh->nslots, 1), &types));
  for (PetscInt k = 0; k < mesh->nslots; k++) types[k] = face_type ? face_type[k] : mesh->face_type[k];
  PetscCall(SEMDiscDirichletDofs(sem, types, &mask, &n, &rows));
  PetscCall(VecGetOwnershipRange(d, &rstart, NULL));
  PetscCall(VecGetArray(d, &da)); /* once, at setup */
  for (PetscInt i = 0; i < n; i++) da[rows[i] - rstart] = 0.0;
  PetscCall(VecRestoreArray(d, &da));
  PetscCall(PetscObjectSetName((PetscObject)*M, "SEM mass (Dirichlet rows zero)"));
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree(rows));
  PetscCall(PetscFree(types));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SEMCreateElliptic(Disc disc, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(SEMOperatorCreate((SEMDisc *)disc->data, lambda, face_type, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b += the Neumann face integrals (g = n.grad f, collocated on the face's GLL nodes: w dA from Nanson's
 * formula at the node), then the lifting b_I -= A_ID g_D and b_D = g_D. */
static PetscErrorCode SEMEllipticBoundaryData(Disc disc, Mat A, PointFunction fn, void *ctx, Vec b)
{
  SEMDisc           *sem  = (SEMDisc *)disc->data;
  const Mesh        *mesh = sem->mesh;
  SEMOperator       *op;
  const PetscInt     dim = sem->dim, N1 = sem->N1, Np = sem->Np;
  Vec                gl = sem->work[0], nl = sem->work[1], t, gD;
  PetscScalar       *ga, *na, *ba;
  const PetscScalar *gDa;
  PetscReal         *jac, nref[HOFLOW_FACES_MAX][3], ratio[HOFLOW_FACES_MAX];
  PetscInt           rstart;
  SEMKernelData      kd;

  PetscFunctionBeginUser;
  PetscCall(SEMOperatorGet(A, &op));
  PetscCheck(op->sem == sem, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "-disc sem boundary data: the operator belongs to another discretization");
  PetscCheck(sem->ncomp == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "-disc sem boundary data from a scalar function for a field of %" PetscInt_FMT " components", sem->ncomp);
  for (PetscInt f = 0; f < 2 * dim; f++) GeomReferenceFace(sem->shape, (int)f, nref[f], &ratio[f]);
  PetscCall(PetscMalloc1(Np * dim * dim, &jac));
  PetscCall(VecZeroEntries(gl));
  PetscCall(VecZeroEntries(nl));
  PetscCall(VecGetArray(gl, &ga));
  PetscCall(VecGetArray(nl, &na));
  for (PetscInt e = 0; e < sem->K; e++) {
    const PetscInt *l       = sem->gather + e * Np;
    PetscBool       neumann = PETSC_FALSE;
    for (PetscInt i = 0; i < Np; i++) /* Dirichlet values wherever the dof is Dirichlet */
      if (op->dirichlet[l[i]]) {
        PetscReal v;
        PetscCall(fn(sem->x + (e * Np + i) * dim, &v, NULL, ctx));
        ga[l[i]] = v;
      }
    for (PetscInt f = 0; f < 2 * dim; f++) neumann = (PetscBool)(neumann || op->face_type[mesh->face_slot[e] + f] == HOFLOW_FACE_NEUMANN);
    if (!neumann) continue;
    PetscCall(SEMDiscElementGeometry(sem, e, NULL, jac));
    for (PetscInt f = 0; f < 2 * dim; f++) {
      if (op->face_type[mesh->face_slot[e] + f] != HOFLOW_FACE_NEUMANN) continue;
      for (PetscInt i = 0; i < Np; i++) {
        const PetscInt ix[3] = {i % N1, (i / N1) % N1, i / (N1 * N1)};
        PetscReal      n[3], dA, w = ratio[f], v, grad[3], gn = 0;
        if (ix[sem->face_dir[f]] != sem->face_side[f]) continue;
        for (PetscInt d = 0; d < dim; d++)
          if (d != sem->face_dir[f]) w *= sem->ref->w1[ix[d]];
        dA = GeomFaceNormalFromJacobian((int)dim, jac + i * dim * dim, nref[f], n);
        PetscCall(fn(sem->x + (e * Np + i) * dim, &v, grad, ctx));
        for (PetscInt d = 0; d < dim; d++) gn += n[d] * grad[d];
        na[l[i]] += w * dA * gn;
      }
    }
  }
  PetscCall(VecRestoreArray(nl, &na));
  PetscCall(PetscFree(jac));
  PetscCall(DMLocalToGlobal(sem->dm, nl, ADD_VALUES, b));
  /* lifting: t = A_full g_D (elements only, Dirichlet entries kept) */
  kd           = op->kd;
  kd.dirichlet = NULL; /* g_D itself is what is applied */
  PetscCall(VecZeroEntries(nl));
  PetscCall(VecGetArray(nl, &na));
  SEMApplyHost(&kd, ga, na);
  PetscCall(VecRestoreArray(nl, &na));
  PetscCall(VecRestoreArray(gl, &ga));
  PetscCall(DMGetGlobalVector(sem->dm, &t));
  PetscCall(DMGetGlobalVector(sem->dm, &gD));
  PetscCall(VecZeroEntries(t));
  PetscCall(DMLocalToGlobal(sem->dm, nl, ADD_VALUES, t));
  PetscCall(VecAXPY(b, -1.0, t));
  PetscCall(DMLocalToGlobal(sem->dm, gl, INSERT_VALUES, gD));
  PetscCall(VecGetOwnershipRange(b, &rstart, NULL));
  PetscCall(VecGetArray(b, &ba));
  PetscCall(VecGetArrayRead(gD, &gDa));
  for (PetscInt k = 0; k < op->ndirichlet; k++) ba[op->dirichlet_rows[k] - rstart] = gDa[op->dirichlet_rows[k] - rstart];
  PetscCall(VecRestoreArrayRead(gD, &gDa));
  PetscCall(VecRestoreArray(b, &ba));
  PetscCall(DMRestoreGlobalVector(sem->dm, &t));
  PetscCall(DMRestoreGlobalVector(sem->dm, &gD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate_SEM(Disc disc)
{
  PetscFunctionBeginUser;
  PetscCall(SEMDiscSetUp(disc));
  disc->ops.create_mass            = SEMCreateMass;
  disc->ops.create_mass_elliptic   = SEMCreateMassElliptic;
  disc->ops.create_elliptic        = SEMCreateElliptic;
  disc->ops.elliptic_boundary_data = SEMEllipticBoundaryData;
  PetscFunctionReturn(PETSC_SUCCESS);
}
