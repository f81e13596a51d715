// Groups of elements a thread block for kernels that keep per-element data in dynamic shared memory (cuda/fr.cu,
// cuda/fr_dense.cu): E elements a block (E <= 0: E_default), at most K, fewer while a group passes 96 KiB (two blocks
// an SM); a group above 48 KiB opts in to the device's larger shared memory.
#pragma once
#include <cuda_runtime.h>

// Returns 0 or a cudaError_t (cudaErrorInvalidConfiguration: one element does not fit the device's shared memory).
static inline int HoflowElementGroup(const void *kernel, int K, int E, int E_default, size_t per_element, int *Eg, size_t *shared)
{
  static int optin = -1;
  if (optin < 0) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) optin = 48 * 1024;
  }
  if (E <= 0) E = E_default;
  E = E < K ? E : K;
  while (E > 1 && E * per_element * sizeof(double) > 96 * 1024) E--;
  *Eg     = E;
  *shared = E * per_element * sizeof(double);
  if (*shared > (size_t)optin) return (int)cudaErrorInvalidConfiguration;
  if (*shared > 48 * 1024) return (int)cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*shared);
  return 0;
}
