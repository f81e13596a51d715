/* Memory in use, for the cost of a preconditioner (hoflow/log.h). */
#include <hoflow/compat.h>
#include <hoflow/kernels/device.h>
#include <hoflow/log.h>
#if defined(__GLIBC__)
#  include <malloc.h>
#endif

PetscErrorCode HoflowMemoryInUse(PetscLogDouble *host, PetscLogDouble *device)
{
  PetscFunctionBeginUser;
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
  {
    /* live heap bytes: arena allocations plus mmap'd blocks, whoever allocated them (PETSc,
     * hypre, MPI); unlike the resident set size it falls when memory is freed */
    const struct mallinfo2 mi = mallinfo2();
    *host                     = (PetscLogDouble)mi.uordblks + (PetscLogDouble)mi.hblkhd;
  }
#else
  PetscCall(PetscMemoryGetCurrentUsage(host));
#endif
  *device = 0;
#if defined(HOFLOW_HAVE_CUDA)
  {
    size_t used = 0;
    PetscCheck(!HoflowDeviceMemoryUsed(&used), PETSC_COMM_SELF, PETSC_ERR_LIB, "cudaMemGetInfo failed");
    *device = (PetscLogDouble)used;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
