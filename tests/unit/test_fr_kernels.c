static const char help[] = "Flux-reconstruction kernels (-disc fr, hoflow/kernels/fr.h): in CUDA builds every CUDA kernel (volume: the\n"
                           "divergence and the traces; face: the corrected right-hand side; wave speed) against its host twin on the same\n"
                           "input, for several elements a thread block, and the whole right-hand side (ConsLawRHS: both kernels around the\n"
                           "halo exchange) and the element speeds on CUDA vectors against host vectors, on any number of ranks. The input is\n"
                           "the problem's exact (or initial) state plus 1e-2 of a random state, so that every flux branch works. Takes\n"
                           "hoflow's options (-problem, -disc fr, -order, mesh) and -test_flux rusanov|roe|hllc (Euler; default roe).\n"
                           "Prints SKIPPED for the device part when hoflow is built without CUDA.\n";

#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>
#if defined(HOFLOW_HAVE_CUDA)
#  include <hoflow/kernels/device.h>
#endif

#if defined(HOFLOW_HAVE_CUDA)
#include "device_vec.h"

static PetscErrorCode Download(const void *device, size_t bytes, void *stream, void *host)
{
  PetscFunctionBeginUser;
  PetscCheck(!HoflowDeviceDownload(host, device, bytes, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "test_fr_kernels: a download from the device failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The volume and face kernels of the device against the host's on the same input (the face kernel's input: the
 * host's traces and volume part), E elements a block; the largest relative differences in worst[3] (volume part of
 * rhs, traces, face-corrected rhs). */
static PetscErrorCode CompareKernels(const FRKernelData *kh, const FRKernelData *kd, DM dm, Vec uh, PetscReal scale, PetscInt E, PetscReal worst[3])
{
  const size_t       s = (size_t)kh->nv * kh->Np, t = (size_t)2 * kh->nv * kh->Nfaces * kh->nfp, K1 = (size_t)PetscMax(kh->K, 1), nrhs = K1 * s;
  const PetscScalar *ua, *ula;
  PetscReal         *rhs_h, *tr_h, *scratch, *rhs_d, *tr_d, rel;
  void              *u_dev, *ul_dev, *rhs_dev, *tr_dev;
  Vec                ul;
  PetscInt           nl;
  size_t             ntr; /* the traces of every local element (-fr_halo traces: the halo elements' slots after the owned) */

  PetscFunctionBeginUser;
  PetscCall(DMGetLocalVector(dm, &ul));
  PetscCall(VecGetLocalSize(ul, &nl));
  PetscCall(DMRestoreLocalVector(dm, &ul));
  ntr = PetscMax((size_t)nl / s, K1) * t;
  PetscCall(PetscMalloc5(nrhs, &rhs_h, ntr, &tr_h, (size_t)kh->dim * s, &scratch, nrhs, &rhs_d, ntr, &tr_d));
  PetscCall(VecGetArrayRead(uh, &ua));
  FRVolumeHost(kh, ua, rhs_h, scratch, tr_h);
  PetscCall(HoflowDeviceUploadChecked(ua, sizeof(double) * nrhs, &u_dev));
  PetscCall(VecRestoreArrayRead(uh, &ua));
  PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * nrhs, &rhs_dev));
  PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * ntr, &tr_dev));
  PetscCheck(!FRVolumeCUDA(kd, (int)E, (const double *)u_dev, (double *)rhs_dev, (double *)tr_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRVolumeCUDA failed");
  PetscCall(Download(rhs_dev, sizeof(double) * nrhs, kd->stream, rhs_d));
  PetscCall(Download(tr_dev, sizeof(double) * ntr, kd->stream, tr_d));
  PetscCall(RelativeArrays((PetscInt)(kh->K * s), rhs_h, rhs_d, scale, &rel));
  worst[0] = PetscMax(worst[0], rel);
  PetscCall(RelativeArrays((PetscInt)(kh->K * t), tr_h, tr_d, 0, &rel));
  worst[1] = PetscMax(worst[1], rel);
  /* the face kernel on the host's traces and volume part, and the local state (owned and halo elements) */
  PetscCall(DMGetLocalVector(dm, &ul));
  PetscCall(DMGlobalToLocalBegin(dm, uh, INSERT_VALUES, ul));
  PetscCall(DMGlobalToLocalEnd(dm, uh, INSERT_VALUES, ul));
  PetscCall(VecGetLocalSize(ul, &nl));
  PetscCall(VecGetArrayRead(ul, &ula));
  PetscCall(HoflowDeviceUploadChecked(ula, sizeof(double) * PetscMax(nl, 1), &ul_dev));
  if (kh->halo_traces) { /* the halo elements' slots as the exchange fills them (u- on every face point: the owner's
                            FRTracePoint interpolates the same line of the same values) */
    const FRSizes z = FRSizesOf(kh);
    for (size_t l = kh->K; l < (size_t)nl / s; l++)
      for (int p = 0; p < z.Nfaces * z.nfp; p++) {
        double w[EULER_NV_MAX];
        FRLineEnd(kh, z, ula + l * s, kh->line[p], FRStride(z, kh->dir[p / z.nfp]), kh->side[p / z.nfp], w);
        for (int k = 0; k < z.nv; k++) tr_h[l * t + (size_t)k * z.Nfaces * z.nfp + p] = w[k];
      }
  }
  PetscCall(HoflowDeviceCopyToChecked(tr_dev, tr_h, sizeof(double) * ntr, kd->stream));
  PetscCall(HoflowDeviceCopyToChecked(rhs_dev, rhs_h, sizeof(double) * nrhs, kd->stream));
  FRFaceHost(kh, ula, tr_h, scratch, rhs_h);
  PetscCall(VecRestoreArrayRead(ul, &ula));
  PetscCall(DMRestoreLocalVector(dm, &ul));
  PetscCheck(!FRFaceCUDA(kd, (int)E, (const double *)ul_dev, (const double *)tr_dev, (double *)rhs_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRFaceCUDA failed");
  PetscCall(Download(rhs_dev, sizeof(double) * nrhs, kd->stream, rhs_d));
  PetscCall(RelativeArrays((PetscInt)(kh->K * s), rhs_h, rhs_d, scale, &rel));
  worst[2] = PetscMax(worst[2], rel);
  PetscCall(HoflowDeviceFreeChecked(u_dev));
  PetscCall(HoflowDeviceFreeChecked(ul_dev));
  PetscCall(HoflowDeviceFreeChecked(rhs_dev));
  PetscCall(HoflowDeviceFreeChecked(tr_dev));
  PetscCall(PetscFree5(rhs_h, tr_h, scratch, rhs_d, tr_d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

int main(int argc, char **argv)
{
  App      *app;
  ConsLaw   cl;
  Vec       u, uh, f, speed_h, es;
  PetscReal norm, speed, umax;
  PetscInt  cell, flux = EULER_FLUX_ROE;
  ProblemState     ex;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetConsLaw(app->disc, "test_fr_kernels", &cl));
  {
    const char *const fluxes[] = {"rusanov", "roe", "hllc"};
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-test_flux", fluxes, 3, &flux, NULL));
  }
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact; /* the initial state (NULL: the exact one at t = 0) */
  ex.t       = 0.0;
  ex.nv      = cl->nv;
  if (cl->nv == 1) { /* linear advection */
    const PetscReal a[3] = {1, 0.5, 0.25};
    for (PetscInt j = 0; j < 3; j++) cl->velocity[j] = a[j];
    flux = EULER_FLUX_ADVECTION;
  }
  for (PetscInt i = 0; i < cl->nbpoints; i++) PetscCall(ProblemStateFunction(cl->dim, cl->bx + i * cl->dim, cl->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(ConsLawSetEquations(cl, app->problem.gamma > 0 ? app->problem.gamma : 1.4, flux));
  PetscCall(ConsLawUpdateBoundaryData(cl));
  PetscCall(DMCreateGlobalVector(app->disc->dm, &u));
  PetscCall(VecDuplicate(u, &uh));
  PetscCall(VecDuplicate(u, &f));
  PetscCall(ConsLawProject(cl, ProblemStateFunction, &ex, u));
  PetscCall(VecSetRandom(uh, NULL)); /* a perturbed state, so that every flux branch works */
  PetscCall(VecAYPX(uh, 1e-2, u));
  PetscCall(ConsLawRHS(cl, uh, f));
  PetscCall(VecNorm(f, NORM_INFINITY, &norm));
  PetscCall(ConsLawMaxWaveSpeed(cl, uh, &speed, &cell, &es));
  PetscCall(VecDuplicate(es, &speed_h));
  PetscCall(VecCopy(es, speed_h));
  PetscCall(VecNorm(uh, NORM_INFINITY, &umax));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "host rhs_max %.6e max_speed_over_h %.6e\n", (double)norm, (double)speed));
#if defined(HOFLOW_HAVE_CUDA)
  {
    const FRKernelData *kh, *kd;
    Vec                 ud, fd;
    PetscReal           rel_rhs, rel_speed, speed_d, worst[3] = {0, 0, 0}, scale = speed * umax; /* the fluxes' divergence ~ max (|v|+c)/h max |u| */
    PetscInt            cd, E[3] = {1, 3, 0};
    PetscCall(DuplicateOnDevice(uh, &ud));
    PetscCall(DuplicateOnDevice(f, &fd));
    PetscCall(VecSet(fd, NAN));
    PetscCall(ConsLawRHS(cl, ud, fd)); /* the first device call uploads the kernel data */
    PetscCall(RelativeVecs(f, fd, scale, &rel_rhs));
    PetscCall(ConsLawMaxWaveSpeed(cl, ud, &speed_d, &cd, &es));
    PetscCall(RelativeVecs(speed_h, es, 0, &rel_speed));
    rel_speed = PetscMax(rel_speed, PetscAbsReal(speed_d - speed) / speed);
    PetscCall(FRGetKernelData(app->disc, &kh, &kd, NULL, NULL));
    PetscCheck(kd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "test_fr_kernels: no device data after a device call");
    for (PetscInt k = 0; k < 3; k++) PetscCall(CompareKernels(kh, kd, app->disc->dm, uh, scale, E[k], worst));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu volume %.3e trace %.3e face %.3e wave_speed %.3e rhs %.3e (elements a block 1, 3 and %d)\n", (double)worst[0], (double)worst[1], (double)worst[2], (double)rel_speed, (double)rel_rhs, FRCUDAElementsPerBlock(kh->dim, kh->n1)));
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
