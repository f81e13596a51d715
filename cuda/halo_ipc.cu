// The peer-to-peer halo transport's kernels and CUDA IPC helpers (core/halo_ipc.c, hoflow/kernels/halo.h). Its host
// twin is PetscSF's broadcast: the tests (tests/suite_halo_ipc.py) compare whole runs through both, bit for bit.
// Kept apart from halo.cu, whose pack and unpack also run in the CPU emulation (tests/emu/run.sh halo).
#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>
#include <hoflow/kernels/halo.h>

// The peer-to-peer transport (core/halo_ipc.c). A block (blockIdx.x of side.blocks) of segment blockIdx.y waits
// in one thread for its flag, copies a stride of the segment's entries, and the last block of the segment to
// finish (an arrival counter) signals the peer after a system-wide fence. The fences order every thread's
// writes (push) or reads (pull) before the signal; volatile loads keep the waits reading memory.
__device__ static void HaloIPCWait(unsigned long long *flag, unsigned long long round)
{
  if (threadIdx.x == 0) {
    while (*(volatile unsigned long long *)flag < round) { }
    __threadfence_system();
  }
  __syncthreads();
}

__device__ static void HaloIPCSignal(unsigned int *count, unsigned long long *signal, unsigned long long round)
{
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    if (atomicAdd(count, 1u) == gridDim.x - 1) {
      *count = 0;
      __threadfence_system();
      *(volatile unsigned long long *)signal = round;
    }
  }
}

__global__ static void HaloIPCPushKernel(HaloIPCSide side, int unit, unsigned long long seq, const double *__restrict__ root, double *__restrict__ leaf)
{
  const long stride = (long)gridDim.x * blockDim.x, first = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if ((int)blockIdx.y == side.nseg) { // this rank's own leaves
    for (long t = first; t < (long)side.nself * unit; t += stride) {
      const long e = t / unit, c = t % unit;
      leaf[(long)side.self_leaf[e] * unit + c] = root[(long)side.self_root[e] * unit + c];
    }
    return;
  }
  const HaloIPCSegment s = side.seg[blockIdx.y];
  HaloIPCWait(s.wait, seq - 1); // the receiver has read the previous round
  double *dst = s.buffer + (long)s.offset * unit;
  for (long t = first; t < (long)s.count * unit; t += stride) {
    const long e = t / unit, c = t % unit;
    dst[t] = root[(long)side.index[s.start + e] * unit + c];
  }
  HaloIPCSignal(&side.count[blockIdx.y], s.signal, seq);
}

__global__ static void HaloIPCPullKernel(HaloIPCSide side, int unit, unsigned long long seq, double *__restrict__ leaf)
{
  const long           stride = (long)gridDim.x * blockDim.x, first = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const HaloIPCSegment s      = side.seg[blockIdx.y];
  HaloIPCWait(s.wait, seq); // the sender has written this round
  const double *src = s.buffer + (long)s.offset * unit;
  for (long t = first; t < (long)s.count * unit; t += stride) {
    const long e = t / unit, c = t % unit;
    leaf[(long)side.index[s.start + e] * unit + c] = __ldcg(src + t);
  }
  HaloIPCSignal(&side.count[blockIdx.y], s.signal, seq);
}

extern "C" int HaloIPCAlloc(void **ptr, size_t bytes, unsigned long long check)
{
  cudaError_t err = cudaMalloc(ptr, bytes ? bytes : 8);
  if (err == cudaSuccess) err = cudaMemset(*ptr, 0, bytes ? bytes : 8);
  if (err == cudaSuccess) err = cudaMemcpy(*ptr, &check, sizeof(check), cudaMemcpyHostToDevice);
  // Both may return before the device memory holds the values (a memset of device memory is asynchronous to the
  // host, and so is the end of a copy from pageable memory: the CUDA runtime's "API synchronization behavior").
  // The neighbours read the check word and write the flags as soon as the handle reaches them, so the zeros and
  // the check word are in place first.
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  return (int)err;
}

extern "C" int HaloIPCPeek(const void *ptr, unsigned long long *value)
{
  return (int)cudaMemcpy(value, ptr, sizeof(*value), cudaMemcpyDeviceToHost);
}

// The block ptr lies in: cudaMalloc may carve an allocation out of a larger block, and IPC exports and maps whole
// blocks (the CUDA programming guide, "Interprocess Communication"), so the handle is the block's and the owner
// tells its users where in the block the allocation starts. cuMemGetAddressRange is the driver's, reached through
// the runtime's entry-point query (no link with libcuda).
extern "C" int HaloIPCGetHandle(void *ptr, char handle[HALO_IPC_HANDLE_BYTES], unsigned long long *base, size_t *offset)
{
  typedef CUresult (*AddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
  cudaIpcMemHandle_t              h;
  void                           *fn     = NULL;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  CUdeviceptr                     b      = 0;
  size_t                          size   = 0;
  static_assert(sizeof(h) == HALO_IPC_HANDLE_BYTES, "CUDA IPC handle size");
  cudaError_t err = cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &status);
  if (err == cudaSuccess && (status != cudaDriverEntryPointSuccess || !fn)) err = cudaErrorNotSupported;
  if (err == cudaSuccess && ((AddressRange)fn)(&b, &size, (CUdeviceptr)ptr) != CUDA_SUCCESS) err = cudaErrorInvalidValue;
  if (err == cudaSuccess) err = cudaIpcGetMemHandle(&h, (void *)b);
  if (err == cudaSuccess) {
    memcpy(handle, &h, sizeof(h));
    *base   = (unsigned long long)b;
    *offset = (size_t)((CUdeviceptr)ptr - b);
  } else
    (void)cudaGetLastError();
  return (int)err;
}

extern "C" int HaloIPCOpen(const char handle[HALO_IPC_HANDLE_BYTES], void **ptr)
{
  cudaIpcMemHandle_t h;
  memcpy(&h, handle, sizeof(h));
  cudaError_t err = cudaIpcOpenMemHandle(ptr, h, cudaIpcMemLazyEnablePeerAccess);
  if (err != cudaSuccess) (void)cudaGetLastError(); // a failed mapping (e.g. the peer's GPU not visible here) is reported, not left for the next launch
  return (int)err;
}

extern "C" int HaloIPCClose(void *ptr)
{
  return (int)cudaIpcCloseMemHandle(ptr);
}

extern "C" int HaloIPCPushCUDA(HaloIPCSide side, int unit, unsigned long long seq, const double *root, double *leaf, void *stream)
{
  const int rows = side.nseg + (side.nself ? 1 : 0);
  if (rows) HaloIPCPushKernel<<<dim3((unsigned)side.blocks, (unsigned)rows), 256, 0, (cudaStream_t)stream>>>(side, unit, seq, root, leaf);
  return (int)cudaGetLastError();
}

extern "C" int HaloIPCPullCUDA(HaloIPCSide side, int unit, unsigned long long seq, double *leaf, void *stream)
{
  if (side.nseg) HaloIPCPullKernel<<<dim3((unsigned)side.blocks, (unsigned)side.nseg), 256, 0, (cudaStream_t)stream>>>(side, unit, seq, leaf);
  return (int)cudaGetLastError();
}
