// The CUDA kernels of the viscous terms of flux reconstruction (cuda/fr_viscous.cu: the fused V1..V3 kernels of tensor
// and dense FR, dense FR's viscous face kernel) and the kernels they work with (cuda/fr.cu's face kernel, which adds
// the viscous common flux, and the element speeds with the diffusive part of both paths) run on the CPU
// (scripts/check-fr-viscous-cuda-emu.sh: the sources with their launches rewritten to EmuLaunch on the stand-in
// tests/emu/cuda_runtime.h) against the host twins (FRViscousHost, FRFaceHost, FRWaveSpeedHost; FRDenseViscous*Host,
// FRDenseWaveSpeedHost) on hoflow's -disc fr data of a Navier–Stokes problem, for 1, 3 and the default elements a
// block. The input is the problem's initial state plus 1e-2 of a random state, mu = -test_mu (default 0.05). Prints one
// line per E and exits 1 unless every array (u_I - u-, the gradients, the right-hand side after V1..V3, the traces, the
// face-corrected right-hand side, the element speeds) equals the host's exactly.
#define restrict __restrict // hoflow's C headers
#include <cuda_runtime.h>
#undef __shared__
#define __shared__
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
using std::min;
double sm[1 << 22], jump[1 << 22], frd_shared[1 << 22], frv_shared[1 << 22]; // the kernels' dynamic shared memory (one block at a time)
#include "fr.cu.emu"
#include "fr_dense.cu.emu"
#include "fr_viscous.cu.emu"
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>

typedef std::vector<double> Array;

// max |a - b| (a NaN in b: infinity)
static double MaxDiff(const Array &a, const Array &b)
{
  double w = 0;
  for (size_t i = 0; i < a.size(); i++) w = std::isnan(b[i]) ? INFINITY : std::max(w, std::fabs(a[i] - b[i]));
  return w;
}

static const char *names[6] = {"state", "gradient", "volume", "trace", "face", "wave_speed"};

// the owned elements' gradient-trace slots NaN (what the kernel must write), the halo elements' kept (received)
static Array OwnedNaN(const Array &gt, const int *gtrace_elem, int K, size_t size_of_element)
{
  Array a = gt;
  for (int e = 0; e < K; e++)
    if (gtrace_elem[e] >= 0) std::fill(a.begin() + gtrace_elem[e], a.begin() + gtrace_elem[e] + size_of_element, NAN);
  return a;
}

// tensor FR: w[6] for E elements a block; on several ranks (-fr_halo traces) the halo elements' trace slots filled as
// the exchange fills them and their gradient traces as a right-hand side's exchange left them (main)
static void CompareTensor(const FRKernelData *kh, const double *h, int Klocal, const double *ua, const double *ula, int E, double w[6])
{
  const size_t s = (size_t)kh->nv * kh->Np, Nfq = (size_t)kh->Nfaces * kh->nfp, K = kh->K, t = 2 * kh->nv * Nfq, gs = (size_t)kh->dim * kh->nv * Nfq;
  Array        rvol(K * s), th(Klocal * t), sc(kh->dim * s), rv, tv, uj(K * kh->nv * Nfq), g(K * kh->dim * s), rf, sh(K), gt;
  FRVolumeHost(kh, ua, rvol.data(), sc.data(), th.data());
  if (kh->halo_traces) {
    const FRSizes z = FRSizesOf(kh);
    for (int l = kh->K; l < Klocal; l++)
      for (int p = 0; p < (int)Nfq; p++) {
        double w[EULER_NV_MAX];
        FRLineEnd(kh, z, ula + l * s, kh->line[p], FRStride(z, kh->dir[p / z.nfp]), kh->side[p / z.nfp], w);
        for (int k = 0; k < z.nv; k++) th[l * t + k * Nfq + p] = w[k];
      }
  }
  rv = rvol, tv = th;
  FRViscousHost(kh, ua, ula, tv.data(), sc.data(), rv.data());
  std::memcpy(uj.data(), kh->ujump, sizeof(double) * uj.size());
  std::memcpy(g.data(), kh->grad, sizeof(double) * g.size());
  if (kh->gtrace_elem) {
    size_t n = 0;
    for (int l = 0; l < Klocal; l++) n = std::max(n, kh->gtrace_elem[l] >= 0 ? (size_t)kh->gtrace_elem[l] + gs : 0);
    FRViscousGradientTraceHost(kh);
    gt.assign(kh->gtrace, kh->gtrace + n);
  }
  rf = rv;
  FRFaceHost(kh, ula, tv.data(), sc.data(), rf.data());
  FRWaveSpeedHost(kh, ua, h, sh.data());
  FRKernelData kd = *kh;
  Array        ujd(uj.size(), NAN), gd(g.size(), NAN), rd = rvol, td = th, sd(K, NAN);
  kd.ujump = ujd.data();
  kd.grad  = gd.data();
  if (FRViscousCUDA(&kd, E, ua, ula, td.data(), rd.data())) w[0] = INFINITY;
  w[0] = std::max(w[0], MaxDiff(uj, ujd));
  w[1] = MaxDiff(g, gd);
  w[2] = MaxDiff(rv, rd);
  w[3] = MaxDiff(tv, td);
  std::copy(g.begin(), g.end(), gd.begin()); // the face kernel on the host's gradients, traces and right-hand side (the same buffers)
  std::copy(rv.begin(), rv.end(), rd.begin());
  Array gtd;
  if (kh->gtrace_elem) { // the gradient traces' kernel on the host's gradients
    gtd       = OwnedNaN(gt, kh->gtrace_elem, kh->K, gs);
    kd.gtrace = gtd.data();
    if (FRViscousGradientTraceCUDA(&kd)) w[1] = INFINITY;
    w[1] = std::max(w[1], MaxDiff(gt, gtd));
  }
  if (FRFaceCUDA(&kd, E, ula, tv.data(), rd.data())) w[4] = INFINITY;
  w[4] = std::max(w[4], MaxDiff(rf, rd));
  if (FRWaveSpeedCUDA(&kd, ua, h, sd.data())) w[5] = INFINITY;
  w[5] = std::max(w[5], MaxDiff(sh, sd));
}

// dense FR, every block: w[6] for E elements a block
static void CompareDense(PetscInt nb, const FRDenseKernelData *kh, const double *h, PetscInt nown, const double *ua, const double *ula, int E, double w[6])
{
  size_t ntrace = 1, nscratch = 1, ngt = 0, nown_trace;
  int    K = 0, dim = kh[0].dim;
  for (PetscInt b = 0; b < nb; b++) {
    ntrace   = std::max(ntrace, (size_t)kh[b].trace0 + (size_t)kh[b].K * kh[b].nfpt * 2 * kh[b].nv);
    nscratch = std::max(nscratch, (size_t)kh[b].nv * std::max(kh[b].dim * kh[b].Np, kh[b].nfpt));
    K += kh[b].K;
  }
  nown_trace = ntrace; // the owned elements' traces (then the halo elements' slots)
  for (PetscInt b = 0; b < nb; b++) // several ranks: the halo elements' trace slots (as a right-hand side's exchange left them) and gradient traces
    for (int e = 0; e < kh[b].K; e++) {
      if (kh[b].gtrace_elem && kh[b].gtrace_elem[kh[b].e0 + e] >= 0) ngt = std::max(ngt, (size_t)kh[b].gtrace_elem[kh[b].e0 + e] + (size_t)kh[b].nfpt * dim * kh[b].nv);
      for (int f = 0; f < kh[b].Nfaces; f++) {
        const int *fi = kh[b].face_info + ((size_t)e * kh[b].Nfaces + f) * FRD_FACE_INFO;
        const int  nf = kh[b].fp_off[f + 1] - kh[b].fp_off[f];
        if (fi[1] >= K && fi[6] >= 0) ntrace = std::max(ntrace, (size_t)fi[6] + (size_t)nf * 2 * kh[b].nv);
        if (kh[b].gtrace_face && kh[b].gtrace_face[(size_t)e * kh[b].Nfaces + f] >= 0) ngt = std::max(ngt, (size_t)kh[b].gtrace_face[(size_t)e * kh[b].Nfaces + f] + (size_t)nf * dim * kh[b].nv);
      }
    }
  Array              rvol(nown), sc(nscratch), th(ntrace), rv, tv(ntrace), g((size_t)dim * nown), gf(nown_trace / (2 * kh[0].nv) * dim * kh[0].nv), rf, sh(K);
  std::vector<Array> uj(nb);
  for (PetscInt b = 0; b < nb; b++) FRDenseVolumeHost(&kh[b], ua, rvol.data(), sc.data());
  std::memcpy(th.data(), kh[0].trace, sizeof(double) * ntrace);
  rv = rvol;
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousStateHost(&kh[b], ula);
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousGradientHost(&kh[b], ua);
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousVolumeHost(&kh[b], ua, rv.data(), sc.data());
  std::memcpy(tv.data(), kh[0].trace, sizeof(double) * ntrace);
  std::memcpy(g.data(), kh[0].grad, sizeof(double) * g.size());
  std::memcpy(gf.data(), kh[0].grad_trace, sizeof(double) * gf.size());
  Array gt, gtd;
  if (ngt) {
    for (PetscInt b = 0; b < nb; b++) FRDenseViscousGradientTraceHost(&kh[b]);
    gt.assign(kh[0].gtrace, kh[0].gtrace + ngt);
    gtd = gt;
    for (PetscInt b = 0; b < nb; b++)
      for (int e = 0; e < kh[b].K; e++)
        if (kh[b].gtrace_elem[kh[b].e0 + e] >= 0) std::fill(gtd.begin() + kh[b].gtrace_elem[kh[b].e0 + e], gtd.begin() + kh[b].gtrace_elem[kh[b].e0 + e] + (size_t)kh[b].nfpt * dim * kh[b].nv, NAN);
  }
  for (PetscInt b = 0; b < nb; b++) {
    uj[b].resize(std::max((size_t)kh[b].K * kh[b].nfpt * kh[b].nv, (size_t)1));
    std::memcpy(uj[b].data(), kh[b].ujump, sizeof(double) * kh[b].K * kh[b].nfpt * kh[b].nv);
  }
  rf = rv;
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousFaceHost(&kh[b], ula, rf.data(), sc.data());
  for (PetscInt b = 0; b < nb; b++) FRDenseWaveSpeedHost(&kh[b], ua, h, sh.data());
  std::vector<FRDenseKernelData> kd(kh, kh + nb);
  std::vector<Array>             ujd(nb);
  Array                          gd(g.size(), NAN), gfd(gf.size(), NAN), td = th, rd = rvol, sd(K, NAN);
  for (PetscInt b = 0; b < nb; b++) {
    ujd[b].assign(uj[b].size(), NAN);
    kd[b].ujump      = ujd[b].data();
    kd[b].grad       = gd.data();
    kd[b].grad_trace = gfd.data();
    kd[b].trace      = td.data();
  }
  for (PetscInt b = 0; b < nb; b++)
    if (FRDenseViscousCUDA(&kd[b], E, ua, ula, rd.data())) w[0] = INFINITY;
  for (PetscInt b = 0; b < nb; b++) w[0] = std::max(w[0], MaxDiff(uj[b], ujd[b]));
  w[1] = std::max(MaxDiff(g, gd), MaxDiff(gf, gfd)); // the gradients and the gradient traces
  w[2] = MaxDiff(rv, rd);
  w[3] = MaxDiff(tv, td);
  std::copy(g.begin(), g.end(), gd.begin()); // the face kernels on the host's gradients, gradient traces, traces and right-hand side (the same buffers)
  std::copy(gf.begin(), gf.end(), gfd.begin());
  std::copy(tv.begin(), tv.end(), td.begin());
  std::copy(rv.begin(), rv.end(), rd.begin());
  if (ngt) { // the gradient traces' kernels on the host's gradients
    for (PetscInt b = 0; b < nb; b++) {
      kd[b].gtrace = gtd.data();
      if (FRDenseViscousGradientTraceCUDA(&kd[b])) w[1] = INFINITY;
    }
    w[1] = std::max(w[1], MaxDiff(gt, gtd));
  }
  for (PetscInt b = 0; b < nb; b++)
    if (FRDenseViscousFaceCUDA(&kd[b], E, ula, rd.data())) w[4] = INFINITY;
  w[4] = std::max(w[4], MaxDiff(rf, rd));
  for (PetscInt b = 0; b < nb; b++)
    if (FRDenseWaveSpeedCUDA(&kd[b], ua, h, sd.data())) w[5] = INFINITY;
  w[5] = std::max(w[5], MaxDiff(sh, sd));
}

int main(int argc, char **argv)
{
  App               *app;
  ConsLaw            cl;
  Vec                u, ul, r;
  ProblemState       ex;
  const PetscScalar *ua, *ula;
  PetscInt           nown;
  PetscReal          mu    = 0.05;
  PetscBool          dense = PETSC_FALSE;
  double             worst = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-test_mu", &mu, NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetConsLaw(app->disc, "fr_viscous_emu", &cl));
  PetscCheck(cl->nv == cl->dim + 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "fr_viscous_emu: give a problem of the Navier-Stokes state (-problem couette)");
  for (PetscInt b = 0; b < app->mesh->nblocks; b++) dense = (PetscBool)(dense || !RefShapeTable[app->mesh->blocks[b].shape].tensor);
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact;
  ex.t       = 0.0;
  ex.nv      = cl->nv;
  for (PetscInt i = 0; i < cl->nbpoints; i++) PetscCall(ProblemStateFunction(cl->dim, cl->bx + i * cl->dim, cl->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(ConsLawSetEquations(cl, 1.4, EULER_FLUX_ROE));
  {
    const NSViscosity vis = {mu, 1.4 / 0.4 / 0.72, 0, 0};
    PetscCall(ConsLawSetViscous(cl, &vis, 0));
  }
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(ConsLawProject(cl, ProblemStateFunction, &ex, u));
  PetscCall(VecDuplicate(u, &r));
  PetscCall(VecSetRandom(r, NULL));
  PetscCall(VecAXPY(u, 1e-2, r));
  PetscCall(VecDestroy(&r));
  PetscCall(DMGetLocalVector(app->disc->dm, &ul));
  PetscCall(DMGlobalToLocal(app->disc->dm, u, INSERT_VALUES, ul));
  { /* several ranks: one right-hand side fills the halo elements' gradient traces (and dense FR's trace slots) by the exchange */
    Vec f;
    PetscCall(VecDuplicate(u, &f));
    PetscCall(ConsLawRHS(cl, u, f));
    PetscCall(VecDestroy(&f));
  }
  PetscCall(VecGetLocalSize(u, &nown));
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(ul, &ula));
  for (int k = 0; k < 3; k++) {
    double w[6] = {0, 0, 0, 0, 0, 0};
    int    E    = k == 0 ? 1 : 3;
    if (!dense) {
      const FRKernelData *kh;
      const PetscReal    *h;
      PetscCall(FRGetKernelData(app->disc, &kh, NULL, &h, NULL));
      if (k == 2) E = FRCUDAElementsPerBlock(kh->dim, kh->n1);
      CompareTensor(kh, h, (int)app->mesh->Klocal, ua, ula, E, w);
    } else {
      const FRDenseKernelData *kh;
      const PetscReal         *h;
      PetscInt                 nb;
      int                      Npmax = 1;
      PetscCall(FRDenseGetKernelData(app->disc, &nb, &kh, NULL, &h, NULL));
      for (PetscInt b = 0; b < nb; b++) Npmax = std::max(Npmax, kh[b].Np);
      if (k == 2) E = FRDenseCUDAElementsPerBlock(Npmax);
      CompareDense(nb, kh, h, nown, ua, ula, E, w);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "fr_viscous_emu: %s elements a block %d", dense ? "dense" : "tensor", E));
    for (int j = 0; j < 6; j++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %s %.3e", names[j], w[j]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    for (double v : w) worst = std::max(worst, v);
  }
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscCall(VecRestoreArrayRead(ul, &ula));
  PetscCall(DMRestoreLocalVector(app->disc->dm, &ul));
  PetscCall(VecDestroy(&u));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return worst == 0 ? 0 : 1;
}
