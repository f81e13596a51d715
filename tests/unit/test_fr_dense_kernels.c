static const char help[] = "Flux-reconstruction kernels with dense operators (-disc fr on triangles, tetrahedra, prisms, mixed meshes;\n"
                           "hoflow/kernels/fr_dense.h): in CUDA builds every CUDA kernel of every mesh block (volume: the divergence and the\n"
                           "traces; face: the corrected right-hand side; wave speed) against its host twin on the same input, for 1, 3 and\n"
                           "the default elements a thread block, and the whole right-hand side (ConsLawRHS) and the element speeds on CUDA\n"
                           "vectors against host vectors, on any number of ranks. The input is the problem's initial state plus 1e-2 of a\n"
                           "random state. Takes hoflow's options and -test_flux rusanov|roe|hllc (Euler; default roe). Prints SKIPPED for the\n"
                           "device part when hoflow is built without CUDA.\n";

#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/physics.h>
#if defined(HOFLOW_HAVE_CUDA)
#  include <hoflow/kernels/device.h>
#endif

#if defined(HOFLOW_HAVE_CUDA)
#  include "device_vec.h"

static PetscErrorCode Download(const void *device, size_t bytes, void *stream, void *host)
{
  PetscFunctionBeginUser;
  PetscCheck(!HoflowDeviceDownload(host, device, bytes, stream), PETSC_COMM_SELF, PETSC_ERR_LIB, "test_fr_dense_kernels: a download from the device failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every block's kernels on the device against the host's on the same input (the face kernels' input: the host's traces
 * and volume parts), E elements a block; the largest relative differences in worst[4] (volume part of rhs, traces,
 * face-corrected rhs, element speeds). */
static PetscErrorCode CompareKernels(PetscInt nb, const FRDenseKernelData *kh, const FRDenseKernelData *kd, const PetscReal *h, const PetscReal *h_dev, DM dm, Vec uh, PetscReal scale, PetscInt E, PetscReal worst[4])
{
  const PetscScalar *ua, *ula;
  PetscReal         *rvol, *rh, *th, *sh, *rd, *td, *sd, *scratch, rel;
  void              *u_dev, *ul_dev, *rhs_dev, *speed_dev;
  size_t             ntrace = 1, nscratch = 1, nowned;
  PetscInt           nown, nl, K = 0;
  Vec                ul;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < nb; b++) {
    ntrace   = PetscMax(ntrace, (size_t)kh[b].trace0 + (size_t)kh[b].K * kh[b].nfpt * 2 * kh[b].nv);
    nscratch = PetscMax(nscratch, (size_t)kh[b].nv * PetscMax(kh[b].dim * kh[b].Np, kh[b].nfpt));
    K += kh[b].K;
  }
  nowned = ntrace;
  for (PetscInt b = 0; b < nb; b++) /* -fr_halo traces on several ranks: the halo elements' slots (fi[6] of a face with a halo neighbour) */
    for (PetscInt e = 0; e < kh[b].K; e++)
      for (PetscInt f = 0; f < kh[b].Nfaces; f++) {
        const int *fi = kh[b].face_info + ((size_t)e * kh[b].Nfaces + f) * FRD_FACE_INFO;
        if (fi[1] >= K && fi[6] >= 0) ntrace = PetscMax(ntrace, (size_t)fi[6] + (size_t)(kh[b].fp_off[f + 1] - kh[b].fp_off[f]) * 2 * kh[b].nv);
      }
  PetscCall(VecGetLocalSize(uh, &nown));
  PetscCall(PetscMalloc4(PetscMax(nown, 1), &rvol, PetscMax(nown, 1), &rh, ntrace, &th, PetscMax(K, 1), &sh));
  PetscCall(PetscMalloc4(PetscMax(nown, 1), &rd, ntrace, &td, PetscMax(K, 1), &sd, nscratch, &scratch));
  PetscCall(DMGetLocalVector(dm, &ul));
  PetscCall(DMGlobalToLocalBegin(dm, uh, INSERT_VALUES, ul));
  PetscCall(DMGlobalToLocalEnd(dm, uh, INSERT_VALUES, ul));
  PetscCall(VecGetLocalSize(ul, &nl));
  PetscCall(VecGetArrayRead(uh, &ua));
  PetscCall(VecGetArrayRead(ul, &ula));
  /* the host twins */
  for (PetscInt b = 0; b < nb; b++) FRDenseVolumeHost(&kh[b], ua, rvol, scratch);
  for (PetscInt b = 0; b < nb; b++) /* the halo slots as the exchange fills them: u- at the face's points, which the owner */
    for (PetscInt e = 0; e < kh[b].K; e++) /* interpolates with the same row of the same values (FRDenseTracePoint) */
      for (PetscInt f = 0; f < kh[b].Nfaces; f++) {
        const int *fi = kh[b].face_info + ((size_t)e * kh[b].Nfaces + f) * FRD_FACE_INFO;
        if (fi[1] < K || fi[6] < 0) continue;
        for (int q = 0; q < kh[b].fp_off[f + 1] - kh[b].fp_off[f]; q++) FRDenseInterpolate(kh[b].nv, fi[3], kh[b].L + fi[4] + (size_t)q * fi[3], ula + fi[2], kh[0].trace + fi[6] + (size_t)q * 2 * kh[b].nv);
      }
  PetscCall(PetscArraycpy(th, kh[0].trace, ntrace));
  PetscCall(PetscArraycpy(rh, rvol, nown));
  for (PetscInt b = 0; b < nb; b++) FRDenseFaceHost(&kh[b], ula, rh, scratch);
  for (PetscInt b = 0; b < nb; b++) FRDenseWaveSpeedHost(&kh[b], ua, h, sh);
  /* the device: the volume kernels of every block (into the device copy's trace array), then the face kernels */
  PetscCall(HoflowDeviceUploadChecked(ua, sizeof(double) * PetscMax(nown, 1), &u_dev));
  PetscCall(HoflowDeviceUploadChecked(ula, sizeof(double) * PetscMax(nl, 1), &ul_dev));
  PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * PetscMax(nown, 1), &rhs_dev));
  PetscCall(HoflowDeviceUploadChecked(NULL, sizeof(double) * PetscMax(K, 1), &speed_dev));
  for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseVolumeCUDA(&kd[b], (int)E, (const double *)u_dev, (double *)rhs_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseVolumeCUDA failed (block %" PetscInt_FMT ", %" PetscInt_FMT " elements a block)", b, E);
  PetscCall(Download(rhs_dev, sizeof(double) * nown, kd[0].stream, rd));
  PetscCall(Download(kd[0].trace, sizeof(double) * ntrace, kd[0].stream, td));
  PetscCall(RelativeArrays(nown, rvol, rd, scale, &rel));
  worst[0] = PetscMax(worst[0], rel);
  PetscCall(RelativeArrays((PetscInt)nowned, th, td, 0, &rel)); /* the owned traces */
  worst[1] = PetscMax(worst[1], rel);
  PetscCall(HoflowDeviceCopyToChecked(kd[0].trace, th, sizeof(double) * ntrace, kd[0].stream));
  PetscCall(HoflowDeviceCopyToChecked(rhs_dev, rvol, sizeof(double) * PetscMax(nown, 1), kd[0].stream));
  for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseFaceCUDA(&kd[b], (int)E, (const double *)ul_dev, (double *)rhs_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseFaceCUDA failed (block %" PetscInt_FMT ", %" PetscInt_FMT " elements a block)", b, E);
  PetscCall(Download(rhs_dev, sizeof(double) * nown, kd[0].stream, rd));
  PetscCall(RelativeArrays(nown, rh, rd, scale, &rel));
  worst[2] = PetscMax(worst[2], rel);
  for (PetscInt b = 0; b < nb; b++) PetscCheck(!FRDenseWaveSpeedCUDA(&kd[b], (const double *)u_dev, h_dev, (double *)speed_dev), PETSC_COMM_SELF, PETSC_ERR_LIB, "FRDenseWaveSpeedCUDA failed");
  PetscCall(Download(speed_dev, sizeof(double) * K, kd[0].stream, sd));
  PetscCall(RelativeArrays(K, sh, sd, 0, &rel));
  worst[3] = PetscMax(worst[3], rel);
  PetscCall(VecRestoreArrayRead(ul, &ula));
  PetscCall(VecRestoreArrayRead(uh, &ua));
  PetscCall(DMRestoreLocalVector(dm, &ul));
  PetscCall(HoflowDeviceFreeChecked(u_dev));
  PetscCall(HoflowDeviceFreeChecked(ul_dev));
  PetscCall(HoflowDeviceFreeChecked(rhs_dev));
  PetscCall(HoflowDeviceFreeChecked(speed_dev));
  PetscCall(PetscFree4(rvol, rh, th, sh));
  PetscCall(PetscFree4(rd, td, sd, scratch));
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
  PetscCall(DiscGetConsLaw(app->disc, "test_fr_dense_kernels", &cl));
  PetscCall(FRDenseGetKernelData(app->disc, NULL, NULL, NULL, NULL, NULL)); /* a clear error on meshes of the tensor path */
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
  PetscCall(ConsLawSetEquations(cl, 1.4, flux));
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
    const FRDenseKernelData *kh, *kd;
    const PetscReal         *h, *h_dev;
    Vec                      ud, fd;
    PetscReal                rel_rhs, rel_speed, speed_d, worst[4] = {0, 0, 0, 0}, scale = speed * umax; /* the fluxes' divergence ~ max (|v|+c)/h max |u| */
    PetscInt                 cd, nb, E[3] = {1, 3, 0}, Npmax = 1;
    PetscCall(DuplicateOnDevice(uh, &ud));
    PetscCall(DuplicateOnDevice(f, &fd));
    PetscCall(VecSet(fd, NAN));
    PetscCall(ConsLawRHS(cl, ud, fd)); /* the first device call uploads the kernel data */
    PetscCall(RelativeVecs(f, fd, scale, &rel_rhs));
    PetscCall(ConsLawMaxWaveSpeed(cl, ud, &speed_d, &cd, &es));
    PetscCall(RelativeVecs(speed_h, es, 0, &rel_speed));
    rel_speed = PetscMax(rel_speed, PetscAbsReal(speed_d - speed) / speed);
    PetscCall(FRDenseGetKernelData(app->disc, &nb, &kh, &kd, &h, &h_dev));
    PetscCheck(kd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "test_fr_dense_kernels: no device data after a device call");
    for (PetscInt k = 0; k < 3; k++) PetscCall(CompareKernels(nb, kh, kd, h, h_dev, app->disc->dm, uh, scale, E[k], worst));
    worst[3] = PetscMax(worst[3], rel_speed);
    for (PetscInt b = 0; b < nb; b++) Npmax = PetscMax(Npmax, kh[b].Np);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gpu volume %.3e trace %.3e face %.3e wave_speed %.3e rhs %.3e (blocks %" PetscInt_FMT ", elements a block 1, 3 and %d)\n", (double)worst[0], (double)worst[1], (double)worst[2], (double)worst[3], (double)rel_rhs, nb,
                          FRDenseCUDAElementsPerBlock((int)Npmax)));
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
