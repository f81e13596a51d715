/* hoflow's side of the CUDA backend (see hoflow/device.h). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/kernels.h>
#if defined(HOFLOW_HAVE_CUDA)
#  include <petscdevice.h>
#endif

PetscErrorCode HoflowVecIsCUDA(Vec v, PetscBool *is_cuda)
{
  PetscFunctionBeginUser;
  *is_cuda = PETSC_FALSE;
#if defined(HOFLOW_HAVE_CUDA)
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, is_cuda, VECSEQCUDA, VECMPICUDA, ""));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDMIsCUDA(DM dm, PetscBool *is_cuda)
{
  VecType vtype;

  PetscFunctionBeginUser;
  PetscCall(DMGetVecType(dm, &vtype));
  PetscCall(PetscStrendswith(vtype, "cuda", is_cuda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowGetCUDAStream(void **stream)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    PetscDeviceContext dctx;
    void              *handle;
    PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
    PetscCall(PetscDeviceContextGetStreamHandle(dctx, &handle));
    *stream = *(void **)handle;
  }
#else
  *stream = NULL;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA (make CUDA=1)");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceUploadChecked(const void *host, size_t bytes, void **device)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    const int err = host ? HoflowDeviceUpload(device, host, bytes) : HoflowDeviceMalloc(device, bytes);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_MEM, "Copying %zu bytes to the GPU failed: %s", bytes, HoflowDeviceErrorString(err));
  }
#else
  *device = NULL;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA (make CUDA=1)");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceFreeChecked(void *device)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    const int err = HoflowDeviceFree(device);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Freeing GPU memory failed: %s", HoflowDeviceErrorString(err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
