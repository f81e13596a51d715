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

PetscErrorCode HoflowDeviceSelect(MPI_Comm comm)
{
  char      vtype[64] = "";
  PetscBool cuda = PETSC_FALSE, shared = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dm_vec_type", vtype, sizeof(vtype), NULL));
  PetscCall(PetscStrendswith(vtype, "cuda", &cuda));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gpu_shared", &shared, NULL));
  if (!cuda) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(HOFLOW_HAVE_CUDA)
  {
    MPI_Comm    local;
    PetscMPIInt lrank, lsize, rank, namelen;
    int         ndev = 0, dev = 0, err;
    PetscInt    select = -1;
    PetscBool   initialized, chosen;
    PetscMPIInt dup[2] = {-1, -1}, anydup;
    char        host[MPI_MAX_PROCESSOR_NAME], bus[32] = "", *all;

    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCallMPI(MPI_Get_processor_name(host, &namelen));
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local));
    PetscCallMPI(MPI_Comm_rank(local, &lrank));
    PetscCallMPI(MPI_Comm_size(local, &lsize));
    err = HoflowDeviceCount(&ndev);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Rank %d on %s: counting GPUs failed: %s", rank, host, HoflowDeviceErrorString(err));
    PetscCheck(ndev > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Rank %d on %s sees no GPU (-dm_vec_type %s; CUDA_VISIBLE_DEVICES=%s): run where a GPU is visible to every rank, or drop -dm_vec_type cuda", rank, host, vtype, getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "(unset)");
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-device_select_cuda", &select, &chosen));
    PetscCheck(!chosen || select < ndev, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-device_select_cuda %" PetscInt_FMT ": rank %d on %s sees %d GPU(s)", select, rank, host, ndev);
    initialized = PetscDeviceInitialized(PETSC_DEVICE_CUDA);
    if (!chosen && !initialized) { /* PETSc picks by global rank: one GPU per rank of this host instead */
      char value[16];
      PetscCall(PetscSNPrintf(value, sizeof(value), "%d", lrank % ndev));
      PetscCall(PetscOptionsSetValue(NULL, "-device_select_cuda", value));
    }
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
    err = HoflowDeviceCurrent(&dev);
    if (!err) err = HoflowDeviceBusId(dev, bus, (int)sizeof(bus));
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Rank %d on %s: querying its GPU failed: %s", rank, host, HoflowDeviceErrorString(err));
    PetscCall(PetscMalloc1(32 * (size_t)lsize, &all));
    PetscCallMPI(MPI_Allgather(bus, 32, MPI_CHAR, all, 32, MPI_CHAR, local));
    for (PetscMPIInt a = 0; a < lsize && dup[0] < 0; a++)
      for (PetscMPIInt b = a + 1; b < lsize; b++)
        if (!strcmp(all + 32 * a, all + 32 * b)) {
          dup[0] = a;
          dup[1] = b;
          break;
        }
    anydup = shared ? 0 : dup[0] >= 0;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &anydup, 1, MPI_INT, MPI_MAX, comm));
    PetscCheck(!anydup || dup[0] < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%d ranks on %s share GPUs: host ranks %d and %d both use the GPU at PCI %s. Run one rank per GPU (mpiexec -n <number of GPUs> per host), or add -gpu_shared to let ranks time-share a GPU (slower)", (int)lsize, host, (int)dup[0], (int)dup[1], all + 32 * dup[0]);
    PetscCheck(!anydup, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Ranks on another host share GPUs (see its message): run one rank per GPU, or add -gpu_shared");
    PetscCall(PetscFree(all));
    PetscCallMPI(MPI_Comm_free(&local));
  }
#endif /* without CUDA, the mesh refuses CUDA vectors with a message naming the build */
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

PetscErrorCode HoflowDeviceCopyToChecked(void *device, const void *host, size_t bytes, void *stream)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    const int err = HoflowDeviceCopyTo(device, host, bytes, stream);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_MEM, "Copying %zu bytes to the GPU failed: %s", bytes, HoflowDeviceErrorString(err));
  }
#else
  (void)device, (void)host, (void)bytes, (void)stream;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "hoflow was built without CUDA (make CUDA=1)");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceSynchronizeChecked(void)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    int n = 0, err = HoflowDeviceCount(&n);
    if (!err && n > 0) err = HoflowDeviceSynchronize();
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Waiting for the GPU failed: %s", HoflowDeviceErrorString(err));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowDeviceCopyOnDeviceChecked(void *dst, const void *src, size_t bytes, void *stream)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    int err;
    if (!stream) PetscCall(HoflowGetCUDAStream(&stream));
    err = HoflowDeviceCopyOnDevice(dst, src, bytes, stream);
    PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_LIB, "Copying %zu bytes on the GPU failed: %s", bytes, HoflowDeviceErrorString(err));
  }
#else
  (void)dst, (void)src, (void)bytes, (void)stream;
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

/* An output that aliases an input: its values made current where its backend computes (a read access of the
 * backend's array: for a CUDA vector whose values are on the host, the copy to the device). */
static PetscErrorCode HoflowVecSyncAliased(Vec w, Vec x, Vec y)
{
  const PetscScalar *a;
  PetscMemType       mtype;

  PetscFunctionBeginUser;
  if (w != x && w != y) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArrayReadAndMemType(w, &a, &mtype));
  PetscCall(VecRestoreArrayReadAndMemType(w, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowVecPointwiseMult(Vec w, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowVecSyncAliased(w, x, y));
  PetscCall(VecPointwiseMult(w, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowVecPointwiseDivide(Vec w, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowVecSyncAliased(w, x, y));
  PetscCall(VecPointwiseDivide(w, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HoflowVecPointwiseMin(Vec w, Vec x, Vec y)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowVecSyncAliased(w, x, y));
  PetscCall(VecPointwiseMin(w, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
