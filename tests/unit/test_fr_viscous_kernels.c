static const char help[] = "The viscous terms of flux reconstruction (the corrected gradient, physics navier_stokes) on the GPU: in CUDA\n"
                           "builds the fused V1..V3 kernel (u_I - u-, the corrected gradients, the viscous volume part and traces; tensor\n"
                           "FR cuda/fr_viscous.cu FRViscousCUDA, dense FR FRDenseViscousCUDA for every mesh block), the face kernel with the\n"
                           "viscous common flux (tensor: cuda/fr.cu's, dense: FRDenseViscousFaceCUDA) and the element speeds with the\n"
                           "diffusive part against their host twins on the same input, for 1, 3 and the default elements a thread block, and\n"
                           "the whole right-hand side (ConsLawRHS) and the element speeds on CUDA vectors against host vectors (one rank).\n"
                           "The input is the problem's initial state plus 1e-2 of a random state; mu = -test_mu (default 0.05). Takes\n"
                           "hoflow's options (a problem of the Navier-Stokes state: -problem couette) and -test_flux rusanov|roe|hllc.\n"
                           "Prints SKIPPED for the device part when hoflow is built without CUDA.\n";

#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>
#if defined(HOFLOW_HAVE_CUDA)
#  include <hoflow/kernels/device.h>
#  include <hoflow/kernels/fr_dense_viscous.h>
#  include "device_vec.h"

#  define NW 6 /* state, gradient, volume, trace, face, wave_speed */

static PetscErrorCode Up(const void *host, size_t bytes, void **device)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowDeviceUploadChecked(host, bytes, device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Down(const void *device, size_t bytes, void *stream, void *host)
{
  PetscFunctionBeginUser;
  PetscCheck(!HoflowDeviceDownload(host, device, bytes, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "test_fr_viscous_kernels: a download from the device failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CopyTo(void *device, const void *host, size_t bytes, void *stream)
{
  PetscFunctionBeginUser;
  PetscCall(HoflowDeviceCopyToChecked(device, host, bytes, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the largest relative difference of n values of b (downloaded from the device) from a into worst */
static PetscErrorCode Compare(size_t n, const PetscReal a[], const void *b_device, void *stream, PetscReal scale, PetscReal *worst)
{
  PetscReal *b, rel;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(PetscMax(n, 1), &b));
  PetscCall(Down(b_device, sizeof(double) * n, stream, b));
  PetscCall(RelativeArrays((PetscInt)n, a, b, scale, &rel));
  *worst = PetscMax(*worst, rel);
  PetscCall(PetscFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* tensor FR: the kernels on the device against the host's, E elements a block */
static PetscErrorCode CompareTensor(const FRKernelData *kh, const FRKernelData *kd, const PetscReal *h, const PetscReal *h_dev, const PetscScalar *ua, const PetscScalar *ula, PetscInt nl, PetscReal scale, PetscInt E, PetscReal w[NW])
{
  const size_t K = (size_t)kh->K, s = (size_t)kh->nv * kh->Np, Nfq = (size_t)kh->Nfaces * kh->nfp, nt = K * 2 * kh->nv * Nfq, nj = K * kh->nv * Nfq, ng = K * kh->dim * s;
  PetscReal   *rvol, *rv, *th, *tv, *rf, *sh, *sc;
  void        *u_dev, *ul_dev, *r_dev, *t_dev, *s_dev;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(K * s, &rvol, K * s, &rv, nt, &th, nt, &tv, K * s, &rf, K, &sh));
  PetscCall(PetscMalloc1(kh->dim * s, &sc));
  FRVolumeHost(kh, ua, rvol, sc, th);
  PetscCall(PetscArraycpy(rv, rvol, K * s));
  PetscCall(PetscArraycpy(tv, th, nt));
  FRViscousHost(kh, ua, ula, tv, sc, rv);
  PetscCall(PetscArraycpy(rf, rv, K * s));
  FRFaceHost(kh, ula, tv, sc, rf);
  FRWaveSpeedHost(kh, ua, h, sh);
  PetscCall(Up(ua, sizeof(double) * K * s, &u_dev));
  PetscCall(Up(ula, sizeof(double) * PetscMax(nl, 1), &ul_dev));
  PetscCall(Up(rvol, sizeof(double) * K * s, &r_dev));
  PetscCall(Up(th, sizeof(double) * nt, &t_dev));
  PetscCall(Up(NULL, sizeof(double) * K, &s_dev));
  PetscCheck(!FRViscousCUDA(kd, (int)E, (const double *)u_dev, (const double *)ul_dev, (double *)t_dev, (double *)r_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRViscousCUDA failed (%" PetscInt_FMT " elements a block)", E);
  PetscCall(Compare(nj, kh->ujump, kd->ujump, kd->stream, 0, &w[0]));
  PetscCall(Compare(ng, kh->grad, kd->grad, kd->stream, 0, &w[1]));
  PetscCall(Compare(K * s, rv, r_dev, kd->stream, scale, &w[2]));
  PetscCall(Compare(nt, tv, t_dev, kd->stream, 0, &w[3]));
  /* the face kernel on the host's gradients, traces and right-hand side */
  PetscCall(CopyTo(kd->grad, kh->grad, sizeof(double) * ng, kd->stream));
  PetscCall(CopyTo(t_dev, tv, sizeof(double) * nt, kd->stream));
  PetscCall(CopyTo(r_dev, rv, sizeof(double) * K * s, kd->stream));
  PetscCheck(!FRFaceCUDA(kd, (int)E, (const double *)ul_dev, (const double *)t_dev, (double *)r_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRFaceCUDA failed");
  PetscCall(Compare(K * s, rf, r_dev, kd->stream, scale, &w[4]));
  PetscCheck(!FRWaveSpeedCUDA(kd, (const double *)u_dev, h_dev, (double *)s_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRWaveSpeedCUDA failed");
  PetscCall(Compare(K, sh, s_dev, kd->stream, 0, &w[5]));
  PetscCall(HoflowDeviceFreeChecked(u_dev));
  PetscCall(HoflowDeviceFreeChecked(ul_dev));
  PetscCall(HoflowDeviceFreeChecked(r_dev));
  PetscCall(HoflowDeviceFreeChecked(t_dev));
  PetscCall(HoflowDeviceFreeChecked(s_dev));
  PetscCall(PetscFree6(rvol, rv, th, tv, rf, sh));
  PetscCall(PetscFree(sc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dense FR, every block: the kernels on the device against the host's, E elements a block */
static PetscErrorCode CompareDense(PetscInt nb, const FRDenseKernelData *kh, const FRDenseKernelData *kd, const PetscReal *h, const PetscReal *h_dev, const PetscScalar *ua, const PetscScalar *ula, PetscInt nown, PetscInt nl, PetscReal scale, PetscInt E,
                                   PetscReal w[NW])
{
  size_t     nt = 1, nsc = 1, K = 0;
  const int  dim = kh[0].dim;
  PetscReal *rvol, *rv, *th, *tv, *rf, *sh, *sc;
  void      *u_dev, *ul_dev, *r_dev, *s_dev, *stream = kd[0].stream;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < nb; b++) {
    nt  = PetscMax(nt, (size_t)kh[b].trace0 + (size_t)kh[b].K * kh[b].nfpt * 2 * kh[b].nv);
    nsc = PetscMax(nsc, (size_t)kh[b].nv * PetscMax(kh[b].dim * kh[b].Np, kh[b].nfpt));
    K += kh[b].K;
  }
  PetscCall(PetscMalloc6(nown, &rvol, nown, &rv, nt, &th, nt, &tv, nown, &rf, PetscMax(K, 1), &sh));
  PetscCall(PetscMalloc1(nsc, &sc));
  for (PetscInt b = 0; b < nb; b++) FRDenseVolumeHost(&kh[b], ua, rvol, sc);
  PetscCall(PetscArraycpy(th, kh[0].trace, nt));
  PetscCall(PetscArraycpy(rv, rvol, nown));
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousStateHost(&kh[b], ula);
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousGradientHost(&kh[b], ua);
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousVolumeHost(&kh[b], ua, rv, sc);
  PetscCall(PetscArraycpy(tv, kh[0].trace, nt));
  PetscCall(PetscArraycpy(rf, rv, nown));
  for (PetscInt b = 0; b < nb; b++) FRDenseViscousFaceHost(&kh[b], ula, rf, sc);
  for (PetscInt b = 0; b < nb; b++) FRDenseWaveSpeedHost(&kh[b], ua, h, sh);
  PetscCall(Up(ua, sizeof(double) * nown, &u_dev));
  PetscCall(Up(ula, sizeof(double) * PetscMax(nl, 1), &ul_dev));
  PetscCall(Up(rvol, sizeof(double) * nown, &r_dev));
  PetscCall(Up(NULL, sizeof(double) * PetscMax(K, 1), &s_dev));
  PetscCall(CopyTo(kd[0].trace, th, sizeof(double) * nt, stream));
  for (PetscInt b = 0; b < nb; b++)
    PetscCheck(!FRDenseViscousCUDA(&kd[b], (int)E, (const double *)u_dev, (const double *)ul_dev, (double *)r_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseViscousCUDA failed (block %" PetscInt_FMT ", %" PetscInt_FMT " elements a block)", b, E);
  for (PetscInt b = 0; b < nb; b++) PetscCall(Compare((size_t)kh[b].K * kh[b].nfpt * kh[b].nv, kh[b].ujump, kd[b].ujump, stream, 0, &w[0]));
  PetscCall(Compare((size_t)dim * nown, kh[0].grad, kd[0].grad, stream, 0, &w[1]));
  PetscCall(Compare(nt / (2 * kh[0].nv) * dim * kh[0].nv, kh[0].grad_trace, kd[0].grad_trace, stream, 0, &w[1])); /* the gradient traces */
  PetscCall(Compare(nown, rv, r_dev, stream, scale, &w[2]));
  PetscCall(Compare(nt, tv, kd[0].trace, stream, 0, &w[3]));
  /* the face kernels on the host's gradients, gradient traces, traces and right-hand side */
  PetscCall(CopyTo(kd[0].grad, kh[0].grad, sizeof(double) * dim * nown, stream));
  PetscCall(CopyTo(kd[0].grad_trace, kh[0].grad_trace, sizeof(double) * (nt / (2 * kh[0].nv) * dim * kh[0].nv), stream));
  PetscCall(CopyTo(kd[0].trace, tv, sizeof(double) * nt, stream));
  PetscCall(CopyTo(r_dev, rv, sizeof(double) * nown, stream));
  for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseViscousFaceCUDA(&kd[b], (int)E, (const double *)ul_dev, (double *)r_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseViscousFaceCUDA failed (block %" PetscInt_FMT ")", b);
  PetscCall(Compare(nown, rf, r_dev, stream, scale, &w[4]));
  for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseWaveSpeedCUDA(&kd[b], (const double *)u_dev, h_dev, (double *)s_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseWaveSpeedCUDA failed");
  PetscCall(Compare(K, sh, s_dev, stream, 0, &w[5]));
  PetscCall(HoflowDeviceFreeChecked(u_dev));
  PetscCall(HoflowDeviceFreeChecked(ul_dev));
  PetscCall(HoflowDeviceFreeChecked(r_dev));
  PetscCall(HoflowDeviceFreeChecked(s_dev));
  PetscCall(PetscFree6(rvol, rv, th, tv, rf, sh));
  PetscCall(PetscFree(sc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  App         *app;
  ConsLaw      cl;
  Vec          u, uh, f, speed_h, es;
  PetscReal    norm, speed, umax, mu = 0.05;
  PetscInt     cell, flux = EULER_FLUX_ROE;
  PetscBool    dense = PETSC_FALSE;
  ProblemState ex;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetConsLaw(app->disc, "test_fr_viscous_kernels", &cl));
  PetscCheck(cl->nv == cl->dim + 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "test_fr_viscous_kernels: give a problem of the Navier-Stokes state (-problem couette), not one of %" PetscInt_FMT " components", cl->nv);
  {
    const char *const fluxes[] = {"rusanov", "roe", "hllc"};
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-test_flux", fluxes, 3, &flux, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-test_mu", &mu, NULL));
  }
  for (PetscInt b = 0; b < app->mesh->nblocks; b++) dense = (PetscBool)(dense || !RefShapeTable[app->mesh->blocks[b].shape].tensor);
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact; /* the initial state (NULL: the exact one at t = 0) */
  ex.t       = 0.0;
  ex.nv      = cl->nv;
  for (PetscInt i = 0; i < cl->nbpoints; i++) PetscCall(ProblemStateFunction(cl->dim, cl->bx + i * cl->dim, cl->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(ConsLawSetEquations(cl, 1.4, flux));
  {
    const NSViscosity vis = {mu, 1.4 / 0.4 / 0.72, 0, 0};
    PetscCall(ConsLawSetViscous(cl, &vis, 0));
  }
  PetscCall(ConsLawUpdateBoundaryData(cl));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(VecDuplicate(u, &uh));
  PetscCall(VecDuplicate(u, &f));
  PetscCall(ConsLawProject(cl, ProblemStateFunction, &ex, u));
  PetscCall(VecSetRandom(uh, NULL)); /* a perturbed state, so that every branch works */
  PetscCall(VecAYPX(uh, 1e-2, u));
  PetscCall(ConsLawRHS(cl, uh, f));
  PetscCall(VecNorm(f, NORM_INFINITY, &norm));
  PetscCall(ConsLawMaxWaveSpeed(cl, uh, &speed, &cell, &es));
  PetscCall(VecDuplicate(es, &speed_h));
  PetscCall(VecCopy(es, speed_h));
  PetscCall(VecNorm(uh, NORM_INFINITY, &umax));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "host rhs_max %.6e max_speed_over_h %.6e (%s FR)\n", (double)norm, (double)speed, dense ? "dense" : "tensor"));
#if defined(HOFLOW_HAVE_CUDA)
  {
    Vec                ud, fd, ul;
    PetscReal          rel_rhs, rel_speed, speed_d, w[NW] = {0, 0, 0, 0, 0, 0}, scale = speed * umax; /* the fluxes' divergence ~ max speed / h max |u| */
    PetscInt           cd, E[3] = {1, 3, 0}, nown, nl;
    const PetscScalar *ua, *ula;
    PetscCall(DuplicateOnDevice(uh, &ud));
    PetscCall(DuplicateOnDevice(f, &fd));
    PetscCall(VecSet(fd, NAN));
    PetscCall(ConsLawRHS(cl, ud, fd)); /* the first device call uploads the kernel data */
    PetscCall(RelativeVecs(f, fd, scale, &rel_rhs));
    PetscCall(ConsLawMaxWaveSpeed(cl, ud, &speed_d, &cd, &es));
    PetscCall(RelativeVecs(speed_h, es, 0, &rel_speed));
    rel_speed = PetscMax(rel_speed, PetscAbsReal(speed_d - speed) / speed);
    PetscCall(DMGetLocalVector(app->disc->dm, &ul));
    PetscCall(DMGlobalToLocal(app->disc->dm, uh, INSERT_VALUES, ul));
    PetscCall(VecGetLocalSize(uh, &nown));
    PetscCall(VecGetLocalSize(ul, &nl));
    PetscCall(VecGetArrayRead(uh, &ua));
    PetscCall(VecGetArrayRead(ul, &ula));
    for (PetscInt k = 0; k < 3; k++) {
      if (!dense) {
        const FRKernelData *kh, *kd;
        const PetscReal    *h, *h_dev;
        PetscCall(FRGetKernelData(app->disc, &kh, &kd, &h, &h_dev));
        PetscCheck(kd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "test_fr_viscous_kernels: no device data after a device call");
        PetscCall(CompareTensor(kh, kd, h, h_dev, ua, ula, nl, scale, E[k], w));
      } else {
        const FRDenseKernelData *kh, *kd;
        const PetscReal         *h, *h_dev;
        PetscInt                 nb;
        PetscCall(FRDenseGetKernelData(app->disc, &nb, &kh, &kd, &h, &h_dev));
        PetscCheck(kd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "test_fr_viscous_kernels: no device data after a device call");
        PetscCall(CompareDense(nb, kh, kd, h, h_dev, ua, ula, nown, nl, scale, E[k], w));
      }
    }
    w[5] = PetscMax(w[5], rel_speed);
    PetscCall(VecRestoreArrayRead(ul, &ula));
    PetscCall(VecRestoreArrayRead(uh, &ua));
    PetscCall(DMRestoreLocalVector(app->disc->dm, &ul));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu state %.3e gradient %.3e volume %.3e trace %.3e face %.3e wave_speed %.3e rhs %.3e (elements a block 1, 3 and the default)\n", (double)w[0], (double)w[1], (double)w[2], (double)w[3], (double)w[4], (double)w[5],
                          (double)rel_rhs));
    PetscCall(VecDestroy(&ud));
    PetscCall(VecDestroy(&fd));
  }
#else
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu: SKIPPED (hoflow built without CUDA=1)\n"));
#endif
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&uh));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&speed_h));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
