/* hoflow's BoomerAMG defaults, one place for every solver stack that ends in BoomerAMG: the coarse
 * solve of pMG-AMG (-pc_type pmg), full AMG (-pmat assembled -pc_type hypre) and LOR-AMG
 * (-pmat lor -pc_type hypre).
 *
 *   coarsening      PMIS where hypre runs on the GPU, HMIS on the host. HMIS starts with a
 *                   Ruge-Stueben pass that hypre's device setup does not have: on two GPU ranks
 *                   hypre 2.32's BoomerAMG setup never returned (nvidia-h100-x2, 2026-11-25, N = 6
 *                   pMG-AMG at 0.3 M DOFs), with PMIS it ran. So any other coarsening is refused on
 *                   more than one GPU rank, naming the option.
 *   interpolation   extended+i, at most 4 entries per row (P_max): small hierarchies, on both.
 *   strong threshold the caller's (pMG-AMG: 0.25 in 2D, 0.7 in 3D), or hypre's 0.25 when it passes 0.
 *
 * The defaults go into the options database under the PC's own prefix, only where the user gave
 * none and only when the PC is (or will be, by its options) BoomerAMG: nothing else would read
 * them, and -options_left would report them unused. */
#include <hoflow/compat.h>
#include <hoflow/solver.h>
#if defined(PETSC_HAVE_HYPRE_DEVICE)
#  include <petsc/private/petscimpl.h> /* use_gpu_aware_mpi */
#  include <HYPRE_utilities.h>
#endif

PetscErrorCode HoflowHypreSetDefaults(PC pc, PetscReal strong_threshold, PetscBool device, PetscBool *is_boomeramg)
{
  PetscFunctionBeginUser;
  *is_boomeramg = PETSC_FALSE;
#if defined(PETSC_HAVE_HYPRE)
  const char *cprefix, *ctype;
  char        type[64] = "", hypre_type[64] = "boomeramg", name[PETSC_MAX_OPTION_NAME], coarsen[64];
  PetscBool   set, is_hypre, boomer;
  PetscMPIInt size;

  PetscCall(PCGetOptionsPrefix(pc, &cprefix));
  PetscCall(PCGetType(pc, &ctype));
  if (ctype) PetscCall(PetscStrncpy(type, ctype, sizeof(type)));
  PetscCall(PetscOptionsGetString(NULL, cprefix, "-pc_type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetString(NULL, cprefix, "-pc_hypre_type", hypre_type, sizeof(hypre_type), NULL));
  PetscCall(PetscStrcmp(type, PCHYPRE, &is_hypre));
  PetscCall(PetscStrcasecmp(hypre_type, "boomeramg", &boomer));
  if (!is_hypre || !boomer) PetscFunctionReturn(PETSC_SUCCESS);
  *is_boomeramg = PETSC_TRUE;
  {
    char              theta[32];
    const char *const defaults[][2] = {{"coarsen_type", device ? "PMIS" : "HMIS"}, {"interp_type", "ext+i"}, {"P_max", "4"}, {"strong_threshold", theta}};
    PetscCall(PetscSNPrintf(theta, sizeof(theta), "%g", (double)strong_threshold));
    for (size_t k = 0; k < sizeof(defaults) / sizeof(defaults[0]) - (strong_threshold > 0 ? 0 : 1); k++) {
      PetscCall(PetscSNPrintf(name, sizeof(name), "-%spc_hypre_boomeramg_%s", cprefix ? cprefix : "", defaults[k][0]));
      PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
      if (!set) PetscCall(PetscOptionsSetValue(NULL, name, defaults[k][1]));
    }
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%spc_hypre_boomeramg_coarsen_type", cprefix ? cprefix : ""));
  PetscCall(PetscOptionsGetString(NULL, NULL, name, coarsen, sizeof(coarsen), &set));
  if (device && size > 1 && set) {
    PetscBool pmis;
    PetscCall(PetscStrcasecmp(coarsen, "PMIS", &pmis));
    PetscCheck(pmis, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP,
               "%s %s: BoomerAMG on the GPU with %d ranks needs PMIS coarsening (hypre's device setup has no %s; with HMIS it never returns on 2 GPUs); give %s PMIS or leave it out",
               name, coarsen, (int)size, coarsen, name);
  }
#else
  (void)pc;
  (void)strong_threshold;
  (void)device;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hypre's device V-cycle hands device buffers to MPI when PETSc does (-use_gpu_aware_mpi 1, with a
 * CUDA-aware MPI): PETSc does not tell hypre, and hypre 2.32 built without --enable-gpu-aware-mpi
 * otherwise copies every halo of every AMG level through the host (on 2 H100s the coarse V-cycle
 * of the N = 6 pMG-AMG solve at 19.3 M DOFs took 7.9 ms against 2.0 ms on one). The switch is
 * hypre's, process-wide; pc must already be PCHYPRE (hypre initialized). */
PetscErrorCode HoflowHypreSetDeviceMPI(PC pc)
{
  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_HYPRE_DEVICE)
  PetscBool is_hypre;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCHYPRE, &is_hypre));
  if (is_hypre) PetscCallExternal(HYPRE_SetGpuAwareMPI, use_gpu_aware_mpi ? 1 : 0);
#else
  (void)pc;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* BoomerAMG with the defaults above on pc, or GAMG where PETSc has no hypre or where hypre runs on the GPU
 * only (a CUDA build of hypre takes device vectors) and this solve is on the host (device false). */
PetscErrorCode HoflowAMGSetDefault(PC pc, PetscReal strong_threshold, PetscBool device)
{
  PetscBool use_hypre = PETSC_FALSE, boomer;

  PetscFunctionBeginUser;
#if defined(PETSC_HAVE_HYPRE)
  use_hypre = PETSC_TRUE;
#  if defined(PETSC_HAVE_HYPRE_DEVICE)
  use_hypre = device;
#  endif
#endif
  if (use_hypre) {
    PetscCall(PCSetType(pc, PCHYPRE));
    PetscCall(PCHYPRESetType(pc, "boomeramg"));
    PetscCall(HoflowHypreSetDefaults(pc, strong_threshold, device, &boomer));
  } else
    PetscCall(PCSetType(pc, PCGAMG));
  PetscFunctionReturn(PETSC_SUCCESS);
}
