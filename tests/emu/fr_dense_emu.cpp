// cuda/fr_dense.cu run on the CPU (scripts/check-fr-dense-cuda-emu.sh: the whole source, launchers and dispatch
// included, with its launches rewritten to EmuLaunch on the stand-in tests/emu/cuda_runtime.h: every thread of a block
// an OS thread, __syncthreads a barrier, the warp shuffles exchanges over it) against the host twins
// (FRDenseVolumeHost, FRDenseFaceHost, FRDenseWaveSpeedHost) on hoflow's -disc fr data of any mesh (every block), for
// 1, 3 and the default elements a block, and the face kernel on the exchange strategies' two subsets of elements
// (interior, then those with a halo neighbour: -fr_exchange overlap|split). The input is the problem's initial state plus 1e-2 of a random state. Takes
// hoflow's options and -test_flux rusanov|roe|hllc; prints one line per E and exits 1 unless every array equals the
// host's exactly (the same compiler and arithmetic: no fused multiply-adds on x86-64 without -mfma).
#define restrict __restrict // hoflow's C headers
#include <cuda_runtime.h>
#undef __shared__
#define __shared__
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
using std::min;
double frd_shared[1 << 22]; // the kernels' dynamic shared memory (one block at a time)
#include "fr_dense.cu.emu"
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>

// max |a - b| over n values (a NaN in b: infinity)
static double MaxDiff(const std::vector<double> &a, const std::vector<double> &b)
{
  double w = 0;
  for (size_t i = 0; i < a.size(); i++) w = std::isnan(b[i]) ? INFINITY : std::max(w, std::fabs(a[i] - b[i]));
  return w;
}

int main(int argc, char **argv)
{
  App                     *app;
  ConsLaw                  cl;
  Vec                      u, ul, r;
  ProblemState                    ex;
  const FRDenseKernelData *kh;
  const PetscReal         *h;
  const PetscScalar       *ua, *ula;
  PetscInt                 nb, nown, flux = EULER_FLUX_ROE;
  double                   worst = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetConsLaw(app->disc, "fr_dense_emu", &cl));
  {
    const char *const fluxes[] = {"rusanov", "roe", "hllc"};
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-test_flux", fluxes, 3, &flux, NULL));
  }
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact; /* the initial state (NULL: the exact one at t = 0) */
  ex.t       = 0.0;
  ex.nv      = cl->nv;
  if (cl->nv == 1) cl->velocity[0] = 1, cl->velocity[1] = 0.5, cl->velocity[2] = 0.25, flux = EULER_FLUX_ADVECTION;
  for (PetscInt i = 0; i < cl->nbpoints; i++) PetscCall(ProblemStateFunction(cl->dim, cl->bx + i * cl->dim, cl->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(ConsLawSetEquations(cl, 1.4, flux));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(ConsLawProject(cl, ProblemStateFunction, &ex, u));
  PetscCall(VecDuplicate(u, &r));
  PetscCall(VecSetRandom(r, NULL));
  PetscCall(VecAXPY(u, 1e-2, r));
  PetscCall(VecDestroy(&r));
  PetscCall(DMGetLocalVector(app->disc->dm, &ul));
  PetscCall(DMGlobalToLocal(app->disc->dm, u, INSERT_VALUES, ul));
  PetscCall(FRDenseGetKernelData(app->disc, &nb, &kh, NULL, &h, NULL));
  PetscCall(VecGetLocalSize(u, &nown));
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(ul, &ula));
  {
    size_t ntrace = 1, nscratch = 1;
    int    K = 0, Npmax = 1;
    for (PetscInt b = 0; b < nb; b++) {
      ntrace   = std::max(ntrace, (size_t)kh[b].trace0 + (size_t)kh[b].K * kh[b].nfpt * 2 * kh[b].nv);
      nscratch = std::max(nscratch, (size_t)kh[b].nv * std::max(kh[b].dim * kh[b].Np, kh[b].nfpt));
      K += kh[b].K;
      Npmax = std::max(Npmax, kh[b].Np);
    }
    const size_t nowned = ntrace;
    for (PetscInt b = 0; b < nb; b++) // -fr_halo traces: the halo elements' slots (fi[6] of a face with a halo neighbour)
      for (int e = 0; e < kh[b].K; e++)
        for (int f = 0; f < kh[b].Nfaces; f++) {
          const int *fi = kh[b].face_info + ((size_t)e * kh[b].Nfaces + f) * FRD_FACE_INFO;
          if (fi[1] >= K && fi[6] >= 0) ntrace = std::max(ntrace, (size_t)fi[6] + (size_t)(kh[b].fp_off[f + 1] - kh[b].fp_off[f]) * 2 * kh[b].nv);
        }
    std::vector<double> rvol(nown), rh(nown), th(ntrace), sh(K), sc(nscratch), speed_h(K);
    // the host twins: the volume parts (every block), then the face parts, the element speeds
    for (PetscInt b = 0; b < nb; b++) FRDenseVolumeHost(&kh[b], ua, rvol.data(), sc.data());
    std::memcpy(th.data(), kh[0].trace, sizeof(double) * nowned);
    for (PetscInt b = 0; b < nb; b++) // the halo slots as the exchange fills them: u- at the face's points, which the owner
      for (int e = 0; e < kh[b].K; e++) // interpolates with the same row of the same values (FRDenseTracePoint)
        for (int f = 0; f < kh[b].Nfaces; f++) {
          const int *fi = kh[b].face_info + ((size_t)e * kh[b].Nfaces + f) * FRD_FACE_INFO;
          if (fi[1] < K || fi[6] < 0) continue;
          for (int q = 0; q < kh[b].fp_off[f + 1] - kh[b].fp_off[f]; q++) FRDenseInterpolate(kh[b].nv, fi[3], kh[b].L + fi[4] + (size_t)q * fi[3], ula + fi[2], th.data() + fi[6] + (size_t)q * 2 * kh[b].nv);
        }
    rh = rvol;
    for (PetscInt b = 0; b < nb; b++) FRDenseFaceHost(&kh[b], ula, rh.data(), sc.data());
    for (PetscInt b = 0; b < nb; b++) FRDenseWaveSpeedHost(&kh[b], ua, h, speed_h.data());
    const int Es[3] = {1, 3, FRDenseCUDAElementsPerBlock(Npmax)};
    for (int k = 0; k < 3; k++) {
      std::vector<double>            rd(nown, NAN), td(ntrace, NAN), sd(K, NAN);
      std::vector<FRDenseKernelData> kd(kh, kh + nb);
      double                         w[5];
      for (auto &d : kd) d.trace = td.data();
      for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseVolumeCUDA(&kd[b], Es[k], ua, rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseVolumeCUDA failed");
      w[0] = MaxDiff(rvol, rd);
      w[1] = MaxDiff(std::vector<double>(th.begin(), th.begin() + nowned), std::vector<double>(td.begin(), td.begin() + nowned));
      td   = th; // the face kernels on the host's traces and volume parts
      rd   = rvol;
      for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseFaceCUDA(&kd[b], Es[k], ula, rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseFaceCUDA failed");
      w[2] = MaxDiff(rh, rd);
      for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseWaveSpeedCUDA(&kd[b], ua, h, sd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseWaveSpeedCUDA failed");
      w[3] = MaxDiff(speed_h, sd);
      rd   = rvol; // -fr_exchange overlap|split: the face kernel on the interior elements (no local array), then on those with a halo neighbour
      for (FRFaceSet set : {FR_FACES_INTERIOR, FR_FACES_HALO})
        for (PetscInt b = 0; b < nb; b++) {
          FRDenseKernelData ks = kd[b];
          FRExchangeFaceRange(&app->disc->mesh->blocks[b], set, &ks.face_subset, &ks.face_begin, &ks.face_end);
          PetscCheck(!FRDenseFaceCUDA(&ks, Es[k], set == FR_FACES_INTERIOR ? NULL : ula, rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseFaceCUDA (a subset) failed");
        }
      w[4] = MaxDiff(rh, rd);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "fr_dense_emu: blocks %d K %d elements a block %d volume %.3e trace %.3e face %.3e wave_speed %.3e face_subsets %.3e\n", (int)nb, K, Es[k], w[0], w[1], w[2], w[3], w[4]));
      for (double v : w) worst = std::max(worst, v);
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
