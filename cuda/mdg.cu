// CUDA twins of the modal DG Euler kernels (src/kernels/mdg.c): the same element routines
// (hoflow/kernels/mdg.h), one element per thread. Straightforward, not yet tuned (no shared-memory
// staging of the basis tables); tests/unit/test_gpu_mdg.c compares each with its host twin.
#include <cuda_runtime.h>
#include <hoflow/kernels/mdg.h>

__global__ void MDGVolumeKernel(const MDGKernelData d, const double *u, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGVolumeElement(&d, e, u + d.dof0 + e * s, rhs + d.dof0 + e * s);
}

__global__ void MDGFaceKernel(const MDGKernelData d, const double *u, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGFaceElement(&d, e, u, rhs + d.dof0 + e * s);
}

__global__ void MDGLiftKernel(const MDGKernelData d, double *rhs)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) MDGLiftElement(&d, e, rhs + d.dof0 + e * s);
}

__global__ void MDGMeansKernel(const MDGKernelData d, const double *u, double *means)
{
  const int    k = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (k < d.K + d.Kh) {
    const int l = k < d.K ? d.e0 + k : d.halo_e0 + (k - d.K);
    MDGMeansElement(&d, k, u + (k < d.K ? d.dof0 + k * s : d.halo_dof0 + (k - d.K) * s), means + (size_t)l * d.nv);
  }
}

__global__ void MDGWaveSpeedKernel(const MDGKernelData d, const double *u, const double *h, double *speed)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) speed[e] = MDGWaveSpeedElement(&d, e, u + d.dof0 + e * s, h[e]);
}

__global__ void MDGLimitKernel(const MDGKernelData d, const double *means_local, const int *nb_elem, double *u, double *limited)
{
  const int    e = blockIdx.x * blockDim.x + threadIdx.x;
  const size_t s = (size_t)d.nv * d.Np;
  if (e < d.K) limited[e] = MDGLimitElement(&d, e, means_local, nb_elem, u + d.dof0 + e * s);
}

static int MDGBlocks(int n)
{
  return (n + 127) / 128;
}

extern "C" int MDGVolumeCUDA(const MDGKernelData *d, const double *u, double *rhs)
{
  if (d->K) MDGVolumeKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGFaceCUDA(const MDGKernelData *d, const double *u, double *rhs)
{
  if (d->K) MDGFaceKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGLiftCUDA(const MDGKernelData *d, double *rhs)
{
  if (d->K) MDGLiftKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, rhs);
  return (int)cudaGetLastError();
}

extern "C" int MDGMeansCUDA(const MDGKernelData *d, const double *u, double *means)
{
  if (d->K + d->Kh) MDGMeansKernel<<<MDGBlocks(d->K + d->Kh), 128, 0, (cudaStream_t)d->stream>>>(*d, u, means);
  return (int)cudaGetLastError();
}

extern "C" int MDGWaveSpeedCUDA(const MDGKernelData *d, const double *u, const double *h, double *speed)
{
  if (d->K) MDGWaveSpeedKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, u, h, speed);
  return (int)cudaGetLastError();
}

extern "C" int MDGLimitCUDA(const MDGKernelData *d, const double *means_local, const int *nb_elem, double *u, double *limited)
{
  if (d->K) MDGLimitKernel<<<MDGBlocks(d->K), 128, 0, (cudaStream_t)d->stream>>>(*d, means_local, nb_elem, u, limited);
  return (int)cudaGetLastError();
}
