/* hoflow's side of the CUDA backend (see hoflow/device.h). */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/kernels/device.h>
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

PetscErrorCode HoflowDeviceArraysUpload(HoflowDeviceArrays *arrays, const void *host, size_t bytes, const void **device)
{
  void *ptr;

  PetscFunctionBeginUser;
  if (arrays->n == arrays->size) {
    void **grown;
    PetscCall(PetscMalloc1(2 * arrays->size + 16, &grown));
    if (arrays->n) PetscCall(PetscArraycpy(grown, arrays->ptr, arrays->n));
    PetscCall(PetscFree(arrays->ptr));
    arrays->ptr  = grown;
    arrays->size = 2 * arrays->size + 16;
  }
  PetscCall(HoflowDeviceUploadChecked(host, bytes, &ptr));
  arrays->ptr[arrays->n++] = ptr;
  *device                  = ptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceArraysUploadTranspose(HoflowDeviceArrays *arrays, PetscInt rows, PetscInt cols, const PetscReal A[], const double **device)
{
  PetscReal *AT;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(rows * cols, &AT));
  for (PetscInt i = 0; i < rows; i++)
    for (PetscInt j = 0; j < cols; j++) AT[j * rows + i] = A[i * cols + j];
  PetscCall(HoflowDeviceArraysUpload(arrays, AT, sizeof(double) * rows * cols, (const void **)device));
  PetscCall(PetscFree(AT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceArraysFree(HoflowDeviceArrays *arrays)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < arrays->n; k++) PetscCall(HoflowDeviceFreeChecked(arrays->ptr[k]));
  PetscCall(PetscFree(arrays->ptr));
  arrays->n = arrays->size = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
