/* The viscous terms of -disc fr (physics navier_stokes; tensor FR in disc/fr.c and dense FR in disc/fr_dense.c
 * alike): the options of the interface treatment (hoflow/pointwise/ldg.h) and the faces' length scales. The
 * kernels are the FRViscous* routines of hoflow/kernels/fr.h and hoflow/kernels/fr_dense.h. */
#include <hoflow/compat.h>
#include <hoflow/fr.h>

PetscErrorCode FRViscousSetUp(Disc disc, const NSViscosity *vis, FRHaloType halo, NSLDG *ldg)
{
  Mesh     *mesh = disc->mesh;
  MPI_Comm  comm = PetscObjectComm((PetscObject)mesh->dm);
  PetscReal beta = 0, tau = 1;

  PetscFunctionBeginUser;
  PetscOptionsBegin(comm, NULL, "Flux reconstruction: viscous terms", NULL);
  PetscCall(PetscOptionsReal("-fr_viscous_beta", "Navier-Stokes: the LDG switch beta of the common solution and viscous flux (0: central, BR1-type; 0.5: one-sided, LDG)", NULL, beta, &beta, NULL));
  PetscCall(PetscOptionsReal("-fr_viscous_tau", "Navier-Stokes: the penalty tau of the common viscous flux, tau mu / h times the jump of the state (> 0)", NULL, tau, &tau, NULL));
  PetscOptionsEnd();
  PetscCheck(beta >= -0.5 && beta <= 0.5, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fr_viscous_beta %g: give a value in [-0.5, 0.5] (0 central, +-0.5 one-sided)", (double)beta);
  PetscCheck(tau >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fr_viscous_tau %g: the penalty must be >= 0", (double)tau);
  PetscCheck(mesh->Klocal == mesh->K || halo == FR_HALO_TRACES, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "-disc fr with physics navier_stokes on several ranks needs -fr_halo traces (the corrected gradients of the %" PetscInt_FMT " halo elements come as traces of the partition faces; -fr_halo elements sends the halo's values only)", mesh->Klocal - mesh->K);
  ldg->on       = 1;
  ldg->vis      = *vis;
  ldg->beta     = beta;
  ldg->tau      = tau;
  ldg->dt_scale = 2.0 * disc->order + 1;
  PetscCall(PetscInfo(NULL, "-disc fr: viscous terms by the corrected gradient, beta %g, tau %g\n", (double)beta, (double)tau));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal FRViscousFaceScale(const Mesh *mesh, PetscInt e, PetscInt f)
{
  const PetscInt slot = mesh->face_slot[e] + f, nb = mesh->face_elem[slot];
  PetscReal      v = mesh->measure[e];
  if (nb >= 0) v = PetscMin(v, mesh->measure[nb]);
  return mesh->face_measure[slot] / v;
}
