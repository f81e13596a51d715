/* A 2 x 2 block operator [A00, A01; A10, A11] on one vector whose first rows (on every rank) are field 0's and
 * the rest field 1's: a MatNest, so that PCFIELDSPLIT finds its blocks and index sets, whose MatMult is hoflow's
 * own. PETSc's MatMult_Nest takes a subvector of x and of y per block and call (VecGetSubVector: new Vec objects,
 * offload-mask bookkeeping of the parent) and applies every block by MatMultAdd (a MatShell without its own
 * MatMultAdd applies into a cached work vector and adds it). Here each field is a wrapper vector made once per
 * backend, placed on x's and y's arrays (device arrays for CUDA vectors: VecCUDAPlaceArray), and the blocks run
 * MatMult for the first block of a row and MatMultAdd (y = y + A x, the shells' own) for the others: no copies,
 * no new objects per call. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/solver.h>

typedef struct {
  Mat      blocks[4];
  PetscInt n[2], N[2];
  Vec      wx[2][2], wy[2][2]; /* [backend: 0 host, 1 device][field] */
} BlockMat;

static PetscErrorCode BlockMatDestroyContext(void *ctx)
{
  BlockMat *bm = (BlockMat *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < 2; b++)
    for (PetscInt f = 0; f < 2; f++) {
      PetscCall(VecDestroy(&bm->wx[b][f]));
      PetscCall(VecDestroy(&bm->wy[b][f]));
    }
  PetscCall(PetscFree(bm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The wrapper of field f on backend `device` (no array of its own: placed on the caller's for each call). */
static PetscErrorCode BlockMatWrapper(MPI_Comm comm, BlockMat *bm, PetscBool device, PetscInt f, Vec *w)
{
  PetscFunctionBeginUser;
  if (device) {
#if defined(PETSC_HAVE_CUDA)
    PetscCall(VecCreateMPICUDAWithArray(comm, 1, bm->n[f], bm->N[f], NULL, w));
#else
    SETERRQ(comm, PETSC_ERR_SUP, "a block operator on device vectors needs a PETSc built with CUDA");
#endif
  } else PetscCall(VecCreateMPIWithArray(comm, 1, bm->n[f], bm->N[f], NULL, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BlockMatPlace(Vec w, PetscBool device, const PetscScalar *a)
{
  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_CUDA)
  if (device) {
    PetscCall(VecCUDAPlaceArray(w, a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(VecPlaceArray(w, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BlockMatReset(Vec w, PetscBool device)
{
  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_CUDA)
  if (device) {
    PetscCall(VecCUDAResetArray(w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(VecResetArray(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_BlockMat(Mat K, Vec x, Vec y)
{
  PetscContainer     c;
  BlockMat          *bm;
  PetscBool          device;
  const PetscScalar *xa;
  PetscScalar       *ya;
  Vec               *wx, *wy;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery((PetscObject)K, "HoflowBlockMat", (PetscObject *)&c));
  PetscCheck(c, PetscObjectComm((PetscObject)K), PETSC_ERR_PLIB, "block operator without its context");
  PetscCall(PetscContainerGetPointer(c, (void **)&bm));
  PetscCall(HoflowVecIsCUDA(x, &device));
  wx = bm->wx[device], wy = bm->wy[device];
  for (PetscInt f = 0; f < 2; f++) {
    if (!wx[f]) PetscCall(BlockMatWrapper(PetscObjectComm((PetscObject)K), bm, device, f, &wx[f]));
    if (!wy[f]) PetscCall(BlockMatWrapper(PetscObjectComm((PetscObject)K), bm, device, f, &wy[f]));
  }
#if defined(PETSC_HAVE_CUDA)
  if (device) {
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    PetscCall(VecCUDAGetArrayWrite(y, &ya));
  } else
#endif
  {
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(y, &ya));
  }
  PetscCall(BlockMatPlace(wx[0], device, xa));
  PetscCall(BlockMatPlace(wx[1], device, xa + bm->n[0]));
  PetscCall(BlockMatPlace(wy[0], device, ya));
  PetscCall(BlockMatPlace(wy[1], device, ya + bm->n[0]));
  for (PetscInt i = 0; i < 2; i++) {
    PetscBool first = PETSC_TRUE;
    for (PetscInt j = 0; j < 2; j++) {
      Mat B = bm->blocks[2 * i + j];
      if (!B) continue;
      if (first) PetscCall(MatMult(B, wx[j], wy[i]));
      else PetscCall(MatMultAdd(B, wx[j], wy[i], wy[i]));
      first = PETSC_FALSE;
    }
    if (first) PetscCall(VecZeroEntries(wy[i]));
  }
  for (PetscInt f = 0; f < 2; f++) {
    PetscCall(BlockMatReset(wx[f], device));
    PetscCall(BlockMatReset(wy[f], device));
  }
#if defined(PETSC_HAVE_CUDA)
  if (device) {
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
    PetscCall(VecCUDARestoreArrayWrite(y, &ya));
  } else
#endif
  {
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArrayWrite(y, &ya));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowBlockMatCreate(MPI_Comm comm, Mat blocks[4], VecType vtype, PetscBool fused, Mat *K)
{
  BlockMat      *bm;
  PetscContainer c;

  PetscFunctionBeginUser;
  PetscCall(MatCreateNest(comm, 2, NULL, 2, NULL, blocks, K)); /* its index sets: field 0's rows, then field 1's, on each rank */
  PetscCall(MatNestSetVecType(*K, vtype));
  if (!fused) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&bm));
  for (PetscInt k = 0; k < 4; k++) bm->blocks[k] = blocks[k]; /* the MatNest holds the references */
  for (PetscInt f = 0; f < 2; f++) {
    Mat B = blocks[3 * f] ? blocks[3 * f] : (f == 0 ? blocks[1] : blocks[2]); /* a block of field f's rows */
    PetscCheck(B, comm, PETSC_ERR_ARG_WRONG, "block operator: field %" PetscInt_FMT " has no block in its rows", f);
    PetscCall(MatGetLocalSize(B, &bm->n[f], NULL));
    PetscCall(MatGetSize(B, &bm->N[f], NULL));
  }
  PetscCall(PetscContainerCreate(comm, &c));
  PetscCall(PetscContainerSetPointer(c, bm));
  PetscCall(PetscContainerSetUserDestroy(c, BlockMatDestroyContext));
  PetscCall(PetscObjectCompose((PetscObject)*K, "HoflowBlockMat", (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(MatSetOperation(*K, MATOP_MULT, (void (*)(void))MatMult_BlockMat));
  PetscFunctionReturn(PETSC_SUCCESS);
}
