/* A sparse matrix from a CSR this rank built (HoflowMatCreateFromCSR, hoflow/dg.h): the assembled
 * matrices of hoflow (the order-1 SIPDG and CG1 coarse matrices, the LOR matrix, pMG's CG1 injection)
 * are built row by row in hoflow already, sorted and without duplicates.
 *
 * PETSc's MatSeqAIJSetPreallocationCSR copies such a CSR one row at a time (a MatSetValues call per row,
 * with its search for each column): at 4.8 M DOFs (N = 6 triangles) 28 ms for the CG1 injection's
 * 1.03 M rows of one entry, about as much as hoflow's own triplet sort. On one rank the arrays become
 * the matrix's (MatCreateSeqAIJWithArrays; a container composed on the matrix frees them with it), and
 * for CUDA vectors the matrix is converted in place to AIJCUSPARSE (the host arrays kept, copied to the
 * device at the first product as before). On several ranks, or when the options give the matrix a type
 * of their own (-<prefix>mat_type), PETSc's CSR preallocation as before. The matrix is the same. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/dg.h>

typedef struct {
  PetscInt    *rowptr, *cols;
  PetscScalar *vals;
} CSRArrays;

static PetscErrorCode CSRArraysDestroy(void *ptr)
{
  CSRArrays *csr = (CSRArrays *)ptr;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(csr->rowptr));
  PetscCall(PetscFree(csr->cols));
  PetscCall(PetscFree(csr->vals));
  PetscCall(PetscFree(csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowMatCreateFromCSR(MPI_Comm comm, PetscBool cuda, const char prefix[], PetscInt m, PetscInt n, PetscInt **rowptr, PetscInt **cols, PetscScalar **vals, Mat *B)
{
  PetscMPIInt size;
  PetscBool   typed = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsHasName(NULL, prefix, "-mat_type", &typed));
  if (size == 1 && !typed) {
    CSRArrays     *csr;
    PetscContainer container;
    PetscCall(MatCreateSeqAIJWithArrays(comm, m, n, *rowptr, *cols, *vals, B));
    PetscCall(PetscNew(&csr));
    csr->rowptr = *rowptr;
    csr->cols   = *cols;
    csr->vals   = *vals;
    PetscCall(PetscContainerCreate(comm, &container));
    PetscCall(PetscContainerSetPointer(container, csr));
    PetscCall(PetscContainerSetUserDestroy(container, CSRArraysDestroy));
    PetscCall(PetscObjectCompose((PetscObject)*B, "hoflow_csr_arrays", (PetscObject)container));
    PetscCall(PetscContainerDestroy(&container));
    if (cuda) PetscCall(MatConvert(*B, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, B));
    PetscCall(MatSetOptionsPrefix(*B, prefix));
  } else {
    PetscCall(MatCreate(comm, B));
    PetscCall(MatSetSizes(*B, m, n, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetType(*B, cuda ? MATAIJCUSPARSE : MATAIJ));
    PetscCall(MatSetOptionsPrefix(*B, prefix));
    PetscCall(MatSetFromOptions(*B));
    PetscCall(MatSeqAIJSetPreallocationCSR(*B, *rowptr, *cols, *vals));
    PetscCall(MatMPIAIJSetPreallocationCSR(*B, *rowptr, *cols, *vals));
    PetscCall(PetscFree(*rowptr));
    PetscCall(PetscFree(*cols));
    PetscCall(PetscFree(*vals));
  }
  *rowptr = NULL;
  *cols   = NULL;
  *vals   = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
