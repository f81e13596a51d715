// Device memory and synchronization helpers for hoflow's C code (no CUDA headers needed there).
#include <cuda_runtime.h>
#include <stdio.h>
#include <hoflow/kernels/device.h>

extern "C" int HoflowDeviceMalloc(void **ptr, size_t bytes)
{
  return (int)cudaMalloc(ptr, bytes ? bytes : 1);
}

extern "C" int HoflowDeviceUpload(void **ptr, const void *host, size_t bytes)
{
  cudaError_t err = cudaMalloc(ptr, bytes ? bytes : 1);
  if (err != cudaSuccess) return (int)err;
  return bytes ? (int)cudaMemcpy(*ptr, host, bytes, cudaMemcpyHostToDevice) : 0;
}

extern "C" int HoflowDeviceDownload(void *host, const void *device, size_t bytes, void *stream)
{
  cudaError_t err = cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, (cudaStream_t)stream);
  return (int)(err == cudaSuccess ? cudaStreamSynchronize((cudaStream_t)stream) : err);
}

extern "C" int HoflowDeviceCopyTo(void *device, const void *host, size_t bytes, void *stream)
{
  cudaError_t err = cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, (cudaStream_t)stream);
  return (int)(err == cudaSuccess ? cudaStreamSynchronize((cudaStream_t)stream) : err);
}

extern "C" int HoflowDeviceCopyOnDevice(void *dst, const void *src, size_t bytes, void *stream)
{
  return bytes ? (int)cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream) : 0;
}

extern "C" int HoflowDeviceFree(void *ptr)
{
  return ptr ? (int)cudaFree(ptr) : 0;
}

extern "C" int HoflowDeviceSynchronize(void)
{
  return (int)cudaDeviceSynchronize();
}

extern "C" const char *HoflowDeviceErrorString(int err)
{
  return cudaGetErrorString((cudaError_t)err);
}

extern "C" int HoflowDeviceProperties(char *name, int len, int *multiprocessors, double *clock_ghz)
{
  int            dev;
  cudaDeviceProp prop;
  cudaError_t    err = cudaGetDevice(&dev);
  if (err == cudaSuccess) err = cudaGetDeviceProperties(&prop, dev);
  if (err != cudaSuccess) return (int)err;
  snprintf(name, (size_t)len, "%s", prop.name);
  *multiprocessors = prop.multiProcessorCount;
  int khz          = 0;
  err              = cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
  *clock_ghz       = khz * 1e-6;
  return (int)err;
}

extern "C" int HoflowDeviceMemoryUsed(size_t *bytes)
{
  size_t      free_bytes = 0, total = 0;
  cudaError_t err = cudaMemGetInfo(&free_bytes, &total);
  *bytes          = total - free_bytes;
  return (int)err;
}

extern "C" int HoflowDeviceCount(int *n)
{
  *n              = 0;
  cudaError_t err = cudaGetDeviceCount(n);
  if (err == cudaErrorNoDevice) {
    *n = 0;
    return 0;
  }
  return (int)err;
}

extern "C" int HoflowDeviceCurrent(int *dev)
{
  return (int)cudaGetDevice(dev);
}

extern "C" int HoflowDeviceBusId(int dev, char *id, int len)
{
  return (int)cudaDeviceGetPCIBusId(id, len, dev);
}

// Streams and events for work beside PETSc's stream (the split exchange of -disc fr, disc/fr_exchange.c)
extern "C" int HoflowDeviceStreamCreate(void **stream)
{
  return (int)cudaStreamCreateWithFlags((cudaStream_t *)stream, cudaStreamNonBlocking);
}

extern "C" int HoflowDeviceStreamCreateHigh(void **stream)
{
  int         least, greatest;
  cudaError_t err = cudaDeviceGetStreamPriorityRange(&least, &greatest);
  return (int)(err == cudaSuccess ? cudaStreamCreateWithPriority((cudaStream_t *)stream, cudaStreamNonBlocking, greatest) : err);
}

extern "C" int HoflowDeviceStreamDestroy(void *stream)
{
  return (int)cudaStreamDestroy((cudaStream_t)stream);
}

extern "C" int HoflowDeviceEventCreate(void **event)
{
  return (int)cudaEventCreateWithFlags((cudaEvent_t *)event, cudaEventDisableTiming);
}

extern "C" int HoflowDeviceEventDestroy(void *event)
{
  return (int)cudaEventDestroy((cudaEvent_t)event);
}

extern "C" int HoflowDeviceEventRecord(void *event, void *stream)
{
  return (int)cudaEventRecord((cudaEvent_t)event, (cudaStream_t)stream);
}

extern "C" int HoflowDeviceStreamWaitEvent(void *stream, void *event)
{
  return (int)cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)event, 0);
}
