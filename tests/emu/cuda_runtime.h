/* A host stand-in for the CUDA runtime, enough to run a kernel source of cuda/ on the CPU (tests/emu/
 * run.sh): every thread of a block is an OS thread, __shared__ arrays are static (one block runs at a
 * time), __syncthreads is a barrier of the block's threads, atomicAdd takes a lock. The <<<...>>>
 * launches are rewritten to EmuLaunch(...) by run.sh; the warp shuffles are exchanges over the block's barrier.
 * Dynamic shared memory (extern __shared__) is the harness's: it defines __shared__ empty and the array. For checking a kernel's indexing and barriers
 * without a GPU, not for speed. */
#pragma once
#include <barrier>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1)
      : x(x_), y(y_), z(z_)
  {
  }
};
#define HOFLOW_EMU 1 /* kernels' dynamic shared memory becomes a static array (cuda/sem_flow.cu) */
typedef int                 cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum { cudaSuccess                   = 0,
       cudaErrorInvalidValue         = 1,
       cudaErrorInvalidConfiguration = 9 };
inline cudaError_t cudaGetLastError()
{
  return cudaSuccess;
}
/* What launchers ask of the device: one device with 227 KiB of shared memory a block on opt-in */
#define __grid_constant__
enum cudaDeviceAttr { cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
inline cudaError_t cudaGetDevice(int *device)
{
  *device = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr, int)
{
  *value = 227 * 1024; /* an H100's opt-in limit a block */
  return cudaSuccess;
}
template <class F>
cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int)
{
  return cudaSuccess;
}

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static

inline thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
inline std::barrier<>   *emu_barrier;
inline std::mutex        emu_atomic;

inline void __syncthreads()
{
  emu_barrier->arrive_and_wait();
}
inline double atomicAdd(double *a, double v)
{
  std::lock_guard<std::mutex> lock(emu_atomic);
  const double                old = *a;
  *a += v;
  return old;
}

/* Warp functions over the block's barrier: every thread of the block must call them (no early returns) */
inline int EmuThreadInBlock()
{
  return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
inline double __shfl_xor_sync(unsigned, double v, int lane_mask)
{
  static double slot[1024];
  const int     t = EmuThreadInBlock();
  double        r;
  slot[t] = v;
  emu_barrier->arrive_and_wait();
  r = slot[t ^ lane_mask];
  emu_barrier->arrive_and_wait();
  return r;
}
inline int __any_sync(unsigned, int predicate)
{
  static int slot[1024];
  const int  t = EmuThreadInBlock(), w = t - t % 32;
  int        r = 0;
  slot[t]      = predicate;
  emu_barrier->arrive_and_wait();
  for (int l = 0; l < 32; l++) r = r || slot[w + l];
  emu_barrier->arrive_and_wait();
  return r;
}

/* kernel<<<grid, block, shared, stream>>>(args): the blocks one after another, each by block.x y z threads */
template <class... P, class... A>
void EmuLaunch(dim3 grid, dim3 block, size_t, cudaStream_t, void (*kernel)(P...), A... args)
{
  const unsigned           nt = block.x * block.y * block.z;
  std::barrier<>           bar((std::ptrdiff_t)nt);
  std::vector<std::thread> threads;
  emu_barrier = &bar;
  for (unsigned t = 0; t < nt; t++)
    threads.emplace_back([&, t] {
      threadIdx = dim3(t % block.x, (t / block.x) % block.y, t / (block.x * block.y));
      blockDim  = block;
      gridDim   = grid;
      for (unsigned b = 0; b < grid.x * grid.y * grid.z; b++) {
        blockIdx = dim3(b % grid.x, (b / grid.x) % grid.y, b / (grid.x * grid.y));
        kernel(args...);
        bar.arrive_and_wait(); /* the next block reuses the static shared arrays */
      }
    });
  for (auto &t : threads) t.join();
}
