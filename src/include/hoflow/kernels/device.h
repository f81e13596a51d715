/* Device memory and timing helpers (cuda/device.cu), so host C code needs no CUDA headers. Each
 * returns 0 or a cudaError_t. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int         HoflowDeviceMalloc(void **ptr, size_t bytes);
int         HoflowDeviceUpload(void **ptr, const void *host, size_t bytes);                   /* allocate and copy */
int         HoflowDeviceDownload(void *host, const void *device, size_t bytes, void *stream); /* ordered after the stream's work */
int         HoflowDeviceCopyTo(void *device, const void *host, size_t bytes, void *stream);   /* into an existing array, ordered on the stream */
int         HoflowDeviceCopyOnDevice(void *dst, const void *src, size_t bytes, void *stream); /* device to device, asynchronous on the stream */
int         HoflowDeviceFree(void *ptr);
int         HoflowDeviceSynchronize(void);
const char *HoflowDeviceErrorString(int err);
int         HoflowDeviceMemoryUsed(size_t *bytes); /* device memory in use (all processes): total - free */
/* Number of visible devices, make device dev current, PCI bus id of device dev (a string that names
 * one physical GPU whatever CUDA_VISIBLE_DEVICES each process has). */
int HoflowDeviceCount(int *n);
int HoflowDeviceCurrent(int *dev);
int HoflowDeviceBusId(int dev, char *id, int len);
/* Name, multiprocessor count and SM clock of the current device (for the shared-memory bound). */
int HoflowDeviceProperties(char *name, int len, int *multiprocessors, double *clock_ghz);
/* A non-blocking stream and events without timing, to order work on two streams: record an event on one
 * stream, make another wait for it (the split exchange of -disc fr, disc/fr_exchange.c). */
int HoflowDeviceStreamCreate(void **stream);
int HoflowDeviceStreamCreateHigh(void **stream); /* the same at the device's highest priority: its blocks go first */
int HoflowDeviceStreamDestroy(void *stream);
int HoflowDeviceEventCreate(void **event);
int HoflowDeviceEventDestroy(void *event);
int HoflowDeviceEventRecord(void *event, void *stream);
int HoflowDeviceStreamWaitEvent(void *stream, void *event);

#ifdef __cplusplus
}
#endif
