// The bodies of the CUDA kernels of flux reconstruction (cuda/fr.cu, between its "host-checked kernels" markers)
// compiled as host C++ and run one thread a block (blockDim 1: every loop of a thread runs whole and the barriers are
// no-ops), against the host twins (FRVolumeHost, FRFaceHost) on hoflow's -disc fr data: checks the kernels' indexing
// (groups of E elements, shared-memory offsets, partial last groups, the per-order instantiations, the face kernel on
// -fr_exchange's subsets: interior elements, then those with a halo neighbour) on machines
// without a GPU. It cannot see races between threads, launch limits or the warp reductions: the GPU tests do.
// Built and run by scripts/check-fr-cuda-host.sh; takes hoflow's options; prints one line per E and fails (exit 1)
// unless both instantiations equal the host twins exactly (the same compiler and arithmetic).
#define restrict __restrict
#include <algorithm>
#include <cmath>
#include <vector>
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>
using std::min;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(x)
#define __grid_constant__
#define __restrict__ __restrict
#define __shared__
#define FR_THREADS 256
struct Dim3 {
  unsigned x;
};
static Dim3 threadIdx = {0}, blockIdx = {0}, blockDim = {1};
static void __syncthreads()
{
}
double sm[1 << 22], jump[1 << 22]; // the kernels' dynamic shared memory
#include "fr_sizes.h"              // FRSizesFor (cuda/fr_sizes.h)
#include "fr_kernels.inc"

// max |host - kernel| / max |host rhs| over the volume part, the traces and the face-corrected rhs (NaN: infinity)
template <int DIM, int N1>
static double Emulate(const Mesh *mesh, const FRKernelData *kh, int E, const double *u, const double *ul)
{
  const size_t        s = (size_t)kh->nv * kh->Np, t = (size_t)2 * kh->nv * kh->Nfaces * kh->nfp;
  std::vector<double> rh(kh->K * s), th(mesh->Klocal * t), sc(kh->dim * s), rd(kh->K * s, NAN), td(mesh->Klocal * t, NAN);
  double              worst = 0, m = 0;
  auto                diff = [&](const std::vector<double> &a, const std::vector<double> &b) {
    for (size_t i = 0; i < a.size(); i++) worst = std::isnan(b[i]) ? INFINITY : std::max(worst, std::fabs(a[i] - b[i]));
  };
  FRVolumeHost(kh, u, rh.data(), sc.data(), th.data());
  for (int b = 0; b < (kh->K + E - 1) / E; b++) {
    blockIdx.x = b;
    FRVolumeKernel<DIM, N1>(*kh, E, u, rd.data(), td.data());
  }
  for (double v : rh) m = std::max(m, std::fabs(v));
  diff(rh, rd);
  diff(std::vector<double>(th.begin(), th.begin() + kh->K * t), std::vector<double>(td.begin(), td.begin() + kh->K * t)); // the owned traces
  if (kh->halo_traces) { // -fr_halo traces: the halo elements' slots as the exchange fills them (u- on every face point: the
    const FRSizes z = FRSizesOf(kh); // owner's FRTracePoint interpolates the same line of the same values)
    for (int l = kh->K; l < (int)mesh->Klocal; l++)
      for (int p = 0; p < z.Nfaces * z.nfp; p++) {
        const int f = p / z.nfp;
        double    w[EULER_NV_MAX];
        FRLineEnd(kh, z, ul + (size_t)l * s, kh->line[p], FRStride(z, kh->dir[f]), kh->side[f], w);
        for (int k = 0; k < z.nv; k++) th[(size_t)l * t + (size_t)k * z.Nfaces * z.nfp + p] = w[k];
      }
  }
  const std::vector<double> rv = rh; // the volume part
  FRFaceHost(kh, ul, th.data(), sc.data(), rh.data());
  for (int b = 0; b < (kh->K + E - 1) / E; b++) {
    blockIdx.x = b;
    FRFaceKernel<DIM, N1>(*kh, E, ul, th.data(), rd.data());
  }
  diff(rh, rd);
  rd = rv; // -fr_exchange overlap|split: the interior elements of every block (no local array), then those with a halo neighbour
  for (FRFaceSet set : {FR_FACES_INTERIOR, FR_FACES_HALO})
    for (PetscInt k = 0; k < mesh->nblocks; k++) {
      FRKernelData ks = *kh;
      FRExchangeFaceRange(&mesh->blocks[k], set, &ks.face_subset, &ks.face_begin, &ks.face_end);
      ks.face_begin += (int)mesh->blocks[k].start;
      ks.face_end += (int)mesh->blocks[k].start;
      for (int b = 0; b < (FRFaceCount(&ks) + E - 1) / E; b++) {
        blockIdx.x = b;
        FRFaceKernel<DIM, N1>(ks, E, set == FR_FACES_INTERIOR || kh->halo_traces ? nullptr : ul, th.data(), rd.data());
      }
    }
  diff(rh, rd);
  return worst / std::max(m, 1e-300);
}

int main(int argc, char **argv)
{
  App                *app;
  ConsLaw             cl;
  Vec                 u, ul, r;
  ProblemState               ex;
  const FRKernelData *kh;
  const PetscScalar  *ua, *ula;
  double              worst = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetConsLaw(app->disc, "fr_cuda_host", &cl));
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact; /* the initial state (NULL: the exact one at t = 0) */
  ex.t       = 0.0;
  ex.nv      = cl->nv;
  if (cl->nv == 1) cl->velocity[0] = 1, cl->velocity[1] = 0.5, cl->velocity[2] = 0.25;
  for (PetscInt i = 0; i < cl->nbpoints; i++) PetscCall(ProblemStateFunction(cl->dim, cl->bx + i * cl->dim, cl->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(ConsLawSetEquations(cl, 1.4, cl->nv == 1 ? EULER_FLUX_ADVECTION : EULER_FLUX_ROE));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(ConsLawProject(cl, ProblemStateFunction, &ex, u));
  PetscCall(VecDuplicate(u, &r));
  PetscCall(VecSetRandom(r, NULL));
  PetscCall(VecAXPY(u, 1e-2, r));
  PetscCall(VecDestroy(&r));
  PetscCall(DMGetLocalVector(app->disc->dm, &ul));
  PetscCall(DMGlobalToLocal(app->disc->dm, u, INSERT_VALUES, ul));
  PetscCall(FRGetKernelData(app->disc, &kh, NULL, NULL, NULL));
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(ul, &ula));
  {
    const int Np = kh->dim == 2 ? kh->n1 * kh->n1 : kh->n1 * kh->n1 * kh->n1, Es[3] = {1, 3, std::max(1, FR_THREADS / Np)};
    for (int k = 0; k < 3; k++) {
      double w0 = Emulate<0, 0>(app->disc->mesh, kh, Es[k], ua, ula), w1 = 0;
      switch (kh->nv == kh->dim + 2 ? kh->dim * 100 + kh->n1 : 0) { // the instantiations of cuda/fr.cu's FR_DISPATCH
#define FR_CASE(D, N)                       \
  case D * 100 + N:                         \
    w1 = Emulate<D, N>(app->disc->mesh, kh, Es[k], ua, ula); \
    break;
        FR_CASE(2, 2)
        FR_CASE(2, 3) FR_CASE(2, 4) FR_CASE(2, 5) FR_CASE(2, 6) FR_CASE(2, 7) FR_CASE(2, 8) FR_CASE(2, 9)
            FR_CASE(3, 2) FR_CASE(3, 3) FR_CASE(3, 4) FR_CASE(3, 5) FR_CASE(3, 6) FR_CASE(3, 7) FR_CASE(3, 8) FR_CASE(3, 9) default : break;
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "fr_cuda_host: K %d elements a block %d run-time sizes %.3e compiled sizes %.3e\n", kh->K, Es[k], w0, w1));
      worst = std::max(worst, std::max(w0, w1));
    }
  }
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscCall(VecRestoreArrayRead(ul, &ula));
  PetscCall(DMRestoreLocalVector(app->disc->dm, &ul));
  PetscCall(VecDestroy(&u));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return worst == 0 ? 0 : 1;
}
