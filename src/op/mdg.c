/* Modal DG operators of the Euler equations (hoflow/mdg.h): the right-hand side M^{-1} R(u) as
 * volume, face and lift kernels around the halo exchange (-mdg_halo traces: the partition faces'
 * traces after the volume kernel, the interior elements' face terms while they are in flight;
 * MDGEulerRHS), the largest wave speed for the CFL step, and the Barth–Jespersen limiter; on the
 * host or, for CUDA vectors, on the device (OpShell). Registered as -disc mdg in op/register.c. */
#include <hoflow/compat.h>
#include <hoflow/conslaw.h>
#include <hoflow/log.h>
#include <hoflow/mdg.h>
#include <hoflow/kernels/device.h>
#include <hoflow/kernels/mdg_viscous.h>
#include <hoflow/ref.h>
#include <petscsf.h>

PetscErrorCode MDGSetEuler(MDGDisc *mdg, PetscReal gamma, PetscInt flux)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    mdg->blocks[b].kd.gamma    = gamma;
    mdg->blocks[b].kd.flux     = (int)flux;
    mdg->blocks[b].kd.bc_point = mdg->bc_point;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* BR2 reads the halo elements' modes (their gradients and the liftings of the partition faces): the element exchange.
 * -mdg_halo traces (the default) becomes elements; given explicitly on several ranks it is refused. The halo
 * neighbours' face records lose their trace slots (fi[6]), so the Euler face terms evaluate the halo modes again. */
static PetscErrorCode MDGViscousHalo(MDGDisc *mdg)
{
  const Mesh *mesh = mdg->mesh;

  PetscFunctionBeginUser;
  if (mdg->halo == FR_HALO_ELEMENTS) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!mdg->trace_sf || !mdg->halo_given, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_SUP,
             "-mdg_halo traces with physics navier_stokes on several ranks: the BR2 viscous terms read the modes of the %" PetscInt_FMT " halo elements (their gradients and liftings), which only -mdg_halo elements (the default with the viscous terms) sends", mesh->Klocal - mesh->K);
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    for (PetscInt i = 0; i < blk->K * blk->Nfaces; i++) {
      int *fi = blk->face_info + i * MDG_FACE_INFO;
      if (fi[5] >= mesh->K) fi[6] = -1;
    }
  }
  for (PetscInt l = mesh->K; l < mesh->Klocal; l++) mdg->trace_elem[l] = -1;
  PetscCall(PetscSFDestroy(&mdg->trace_sf));
  mdg->halo = FR_HALO_ELEMENTS;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGSetViscous(MDGDisc *mdg, const NSViscosity *vis, PetscReal eta)
{
  const PetscInt dim = mdg->dim, gs = dim * dim + 1, Kl = mdg->mesh->Klocal;
  PetscInt       n = 0;

  PetscFunctionBeginUser;
  PetscCheck(eta > 0, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_ARG_OUTOFRANGE, "The BR2 penalty %g must be positive", (double)eta);
  PetscCheck(!mdg->shell.device_ready, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_ORDER, "MDGSetViscous after the first device call: set the viscous terms up first");
  PetscCall(MDGViscousHalo(mdg));
  /* the inverse mass of every local element, owned and halo: 1/J (affine) or M^{-1} from the volume points */
  for (PetscInt b = 0; b < mdg->nblocks; b++) n += (mdg->blocks[b].K + mdg->blocks[b].Kh) * (mdg->blocks[b].curved ? mdg->blocks[b].Np * mdg->blocks[b].Np : 1);
  PetscCall(PetscFree4(mdg->imass, mdg->imass_info, mdg->grad, mdg->Q));
  PetscCall(PetscMalloc4(PetscMax(n, 1), &mdg->imass, 2 * PetscMax(Kl, 1), &mdg->imass_info, PetscMax(dim * mdg->ndof_local, 1), &mdg->grad, PetscMax(dim * mdg->ndof_local, 1), &mdg->Q));
  n = 0;
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock      *blk = &mdg->blocks[b];
    const PetscInt Np = blk->Np, Nq = blk->Nq;
    for (PetscInt k = 0; k < blk->K + blk->Kh; k++) {
      int            l;
      const PetscInt q0 = 0;
      (void)MDGElementOffset(&blk->kd, (int)k, &l);
      mdg->imass_info[2 * l]     = (int)n;
      mdg->imass_info[2 * l + 1] = blk->curved ? 1 : 0;
      if (!blk->curved) {
        mdg->imass[n++] = blk->wq[q0] / blk->vgeo[(k * Nq + q0) * gs + dim * dim]; /* w / (w J) */
      } else {
        PetscCall(MDGBlockInverseMass(blk, dim, k, mdg->imass + n));
        n += Np * Np;
      }
    }
  }
  { /* the face scratch of every block: states, lifting integrands and liftings per face point */
    PetscInt ns = 0, nj = 0, nl = 0;
    for (PetscInt b = 0; b < mdg->nblocks; b++) {
      const MDGBlock *blk = &mdg->blocks[b];
      ns += blk->K * blk->kd.nfq * (2 * mdg->nv + 1);
      nj += blk->K * blk->kd.nfq * dim * mdg->nv;
      nl += blk->K * blk->kd.nfq * 2 * dim * mdg->nv;
    }
    PetscCall(PetscFree3(mdg->fstate, mdg->fjw, mdg->flift));
    PetscCall(PetscCalloc3(PetscMax(ns, 1), &mdg->fstate, PetscMax(nj, 1), &mdg->fjw, PetscMax(nl, 1), &mdg->flift));
    mdg->nfstate = ns;
    mdg->nfjw    = nj;
    mdg->nflift  = nl;
    ns = nj = nl = 0;
    for (PetscInt b = 0; b < mdg->nblocks; b++) {
      MDGBlock *blk  = &mdg->blocks[b];
      blk->kd.fstate = mdg->fstate + ns;
      blk->kd.fjw    = mdg->fjw + nj;
      blk->kd.flift  = mdg->flift + nl;
      ns += blk->K * blk->kd.nfq * (2 * mdg->nv + 1);
      nj += blk->K * blk->kd.nfq * dim * mdg->nv;
      nl += blk->K * blk->kd.nfq * 2 * dim * mdg->nv;
    }
  }
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGKernelData *kd = &mdg->blocks[b].kd;
    kd->viscous       = 1;
    kd->vis           = *vis;
    kd->eta           = eta;
    kd->visc_dt       = 2.0 * mdg->N + 1;
    kd->grad          = mdg->grad;
    kd->Q             = mdg->Q;
    kd->imass         = mdg->imass;
    kd->imass_info    = mdg->imass_info;
  }
  mdg->viscous = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGSetLimiter(MDGDisc *mdg, PetscBool barth, PetscBool positivity, PetscReal eps)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    mdg->blocks[b].kd.barth             = barth ? 1 : 0;
    mdg->blocks[b].kd.positivity        = positivity ? 1 : 0;
    mdg->blocks[b].kd.eps               = eps;
    mdg->blocks[b].kd_device.barth      = barth ? 1 : 0; /* the device copy is made once: keep it in step */
    mdg->blocks[b].kd_device.positivity = positivity ? 1 : 0;
    mdg->blocks[b].kd_device.eps        = eps;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGSetLimiterSensor(MDGDisc *mdg, PetscReal kappa)
{
  const PetscReal N4 = PetscPowReal((PetscReal)PetscMax(mdg->N, 1), 4);

  PetscFunctionBeginUser;
  PetscCheck(kappa >= 0, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_ARG_OUTOFRANGE, "The troubled-cell sensor's threshold %g must be >= 0 (0: limit every cell)", (double)kappa);
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    const double tol                = mdg->N >= 2 ? (double)(kappa / N4) : 0.0; /* N <= 1: the limiter acts on every cell */
    mdg->blocks[b].kd.sensor        = tol;
    mdg->blocks[b].kd_device.sensor = tol;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGUpdateBoundaryData(MDGDisc *mdg)
{
  PetscFunctionBeginUser;
  if (!mdg->shell.device_ready) PetscFunctionReturn(PETSC_SUCCESS); /* uploaded with the rest at the first device call */
  for (PetscInt b = 0; b < mdg->nblocks; b++)
    PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(HoflowDeviceCopyTo((void *)mdg->blocks[b].kd_device.bc_point, mdg->bc_point, sizeof(double) * PetscMax(mdg->nbpoints, 1) * EULER_BC_DATA, mdg->shell.stream)), "copy of the boundary data"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one application per element of a block (volume: evaluation, flux, d/dr accumulation; face:
 * two evaluations, about 60 flops of numerical flux and the accumulation per point; lift) */
static void MDGFlops(const MDGBlock *blk, PetscInt nv, PetscInt dim, PetscLogDouble *fv, PetscLogDouble *ff, PetscLogDouble *fl)
{
  const PetscLogDouble Np = blk->Np, Nq = blk->Nq, nfq = blk->kd.nfq;
  *fv = blk->K * (Nq * (2.0 * nv * Np + 30 + dim * (2.0 * nv * dim + 2.0 * nv * Np)) + nfq * 2.0 * nv * Np); /* and the trace */
  *ff = blk->K * nfq * (60 + 2.0 * nv * Np);
  *fl = blk->K * (blk->curved ? 2.0 * nv * Np * Np : nv * Np);
}

/* bytes of one application per block at the least memory traffic (tables in cache; every element's
 * modes read once by each kernel that needs them): volume reads u and G, w J at the points and writes
 * rhs and the trace; face reads its own and its neighbours' traces, n and w sJ, the face records, and
 * reads and writes rhs; lift reads and writes rhs and 1/J (or the curved M^-1). */
static void MDGBytes(const MDGBlock *blk, PetscInt nv, PetscInt dim, PetscLogDouble *bv, PetscLogDouble *bf, PetscLogDouble *bl)
{
  const PetscLogDouble Np = blk->Np, Nq = blk->Nq, nfq = blk->kd.nfq, K = blk->K, Nf = blk->Nfaces, m = nv * Np;
  *bv = K * 8.0 * (2.0 * m + Nq * (dim * dim + 1) + nfq * nv);
  *bf = K * (8.0 * (2.0 * m + nfq * (2.0 * nv + dim + 1)) + 4.0 * Nf * MDG_FACE_INFO);
  *bl = K * 8.0 * (2.0 * m + (blk->curved ? Np * Np : 1.0));
}

PetscErrorCode MDGViewCost(MDGDisc *mdg, PetscViewer viewer)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    const MDGBlock *blk = &mdg->blocks[b];
    PetscLogDouble  fv, ff, fl, bv, bf, bl;
    MDGFlops(blk, mdg->nv, mdg->dim, &fv, &ff, &fl);
    MDGBytes(blk, mdg->nv, mdg->dim, &bv, &bf, &bl);
    PetscCall(PetscViewerASCIIPrintf(viewer, "mdg cost: block %" PetscInt_FMT " shape %s K %" PetscInt_FMT " Np %" PetscInt_FMT " Nq %" PetscInt_FMT " nfq %d nv %" PetscInt_FMT " curved %d flops volume %.6e face %.6e lift %.6e bytes volume %.6e face %.6e lift %.6e\n", b, RefShapes[blk->shape], blk->K, blk->Np, blk->Nq, blk->kd.nfq, mdg->nv, (int)blk->curved, fv, ff, fl, bv, bf, bl));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* BR2 (hoflow/kernels/mdg_viscous.h): gradients of owned and halo elements, face states, face liftings,
 * lifted gradients, then the viscous volume and face terms into fa; ul the local state (after the halo
 * exchange). With fa NULL, the stages up to the liftings (the wall data need no more). */
static PetscErrorCode MDGViscousTerms(MDGDisc *mdg, PetscBool on_device, const PetscScalar *ul, PetscScalar *fa)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellEventBegin(&mdg->shell, HOFLOW_MDGViscous));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGGradientHost(&blk->kd, ul, mdg->grad);
    else {
      blk->kd_device.stream = mdg->shell.stream;
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGGradientCUDA(&blk->kd_device, ul, (double *)blk->kd_device.grad)), "modal DG viscous gradient"));
    }
  }
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGFaceStatesHost(&blk->kd, ul);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGFaceStatesCUDA(&blk->kd_device, ul)), "modal DG viscous face states"));
  }
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGFaceLiftingsHost(&blk->kd);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGFaceLiftingsCUDA(&blk->kd_device)), "modal DG viscous liftings"));
  }
  for (PetscInt b = 0; b < mdg->nblocks && fa; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGLiftedGradientHost(&blk->kd);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGLiftedGradientCUDA(&blk->kd_device)), "modal DG viscous lifted gradient"));
  }
  for (PetscInt b = 0; b < mdg->nblocks && fa; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device) {
      MDGViscousVolumeHost(&blk->kd, ul, fa);
      MDGViscousFaceHost(&blk->kd, fa);
    } else {
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGViscousVolumeCUDA(&blk->kd_device, ul, fa)), "modal DG viscous volume"));
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGViscousFaceCUDA(&blk->kd_device, fa)), "modal DG viscous face"));
    }
  }
  PetscCall(OpShellEventEnd(&mdg->shell, HOFLOW_MDGViscous, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mdg_view_halo on several ranks, at the first right-hand side (the viscous terms may have changed -mdg_halo): what
 * this rank receives a right-hand side, and what the halo elements' values would be */
static PetscErrorCode MDGHaloView(MDGDisc *mdg)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)mdg->dm);
  PetscMPIInt size, rank;
  PetscInt    nleaves = 0, elements = (mdg->ndof_local - mdg->ndof) * (PetscInt)sizeof(PetscScalar);

  PetscFunctionBeginUser;
  mdg->view_halo = PETSC_FALSE;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  if (mdg->trace_sf) PetscCall(PetscSFGetGraph(mdg->trace_sf, NULL, &nleaves, NULL, NULL));
  PetscCall(PetscSynchronizedPrintf(comm, "mdg halo: rank %d, -mdg_halo %s, receives %" PetscInt_FMT " bytes a right-hand side; the halo elements' values are %" PetscInt_FMT " bytes (%" PetscInt_FMT " halo elements)\n", rank, FRHaloTypes[mdg->halo],
                                    mdg->halo == FR_HALO_TRACES ? nleaves * (PetscInt)sizeof(PetscScalar) : elements, elements, mdg->mesh->Klocal - mdg->mesh->K));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The volume terms and traces of one set of elements (FRFaceSet: all, the interior ones, those with a halo neighbour) of
 * every block. */
static PetscErrorCode MDGVolumes(MDGDisc *mdg, PetscBool on_device, FRFaceSet set, const PetscScalar *ua, PetscScalar *fa, PetscLogDouble flops)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellEventBegin(&mdg->shell, HOFLOW_MDGVolume));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGKernelData kd;
    mdg->blocks[b].kd_device.stream = mdg->shell.stream;
    kd                              = on_device ? mdg->blocks[b].kd_device : mdg->blocks[b].kd;
    FRExchangeFaceRange(&mdg->mesh->blocks[b], set, &kd.subset, &kd.range_begin, &kd.range_end);
    if (!on_device)
      MDGVolumeHost(&kd, ua, fa);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGVolumeCUDA(&kd, ua, fa)), "modal DG volume"));
  }
  PetscCall(OpShellEventEnd(&mdg->shell, HOFLOW_MDGVolume, flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face terms of one set of elements (FRFaceSet: all, the interior ones, those with a halo neighbour; MeshBlock's
 * interior_end) of every block; ul the local array (-mdg_halo elements, halo faces) or NULL. */
static PetscErrorCode MDGFaces(MDGDisc *mdg, PetscBool on_device, FRFaceSet set, const PetscScalar *ul, PetscScalar *fa, PetscLogDouble flops)
{
  PetscFunctionBeginUser;
  PetscCall(OpShellEventBegin(&mdg->shell, HOFLOW_MDGFace));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGKernelData kd = on_device ? mdg->blocks[b].kd_device : mdg->blocks[b].kd;
    FRExchangeFaceRange(&mdg->mesh->blocks[b], set, &kd.subset, &kd.range_begin, &kd.range_end);
    if (!on_device)
      MDGFaceHost(&kd, ul, fa);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGFaceCUDA(&kd, ul, fa)), "modal DG face"));
  }
  PetscCall(OpShellEventEnd(&mdg->shell, HOFLOW_MDGFace, flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One right-hand side. The volume kernel writes the elements' traces, so with -mdg_halo traces the exchange (the owners'
 * traces on the partition faces into the halo elements' slots, PetscSF on the host or device arrays) follows the volume
 * kernel of the elements with a halo neighbour (seed 003's listing 4 order); the interior elements' volume and face
 * terms run while the traces are in flight, the face terms of those with a halo neighbour after:
 *   traces    volume of the halo-adjacent elements; exchange begun; volume of the interior elements; interior faces;
 *             exchange ended; halo faces; (BR2 never: elements); lift  (one rank: volume; faces; lift)
 *   elements  exchange of the halo elements' modes begun; volume; interior faces; exchange ended; halo faces; BR2; lift
 * (-halo_overlap 0: each exchange ends where it begins.) Every element's arithmetic is the same in both: the same bits. */
PetscErrorCode MDGEulerRHS(MDGDisc *mdg, Vec u, Vec f)
{
  const PetscScalar *ua, *ul = NULL;
  PetscScalar       *fa, *trace;
  PetscBool          on_device;
  const PetscBool    traces = (PetscBool)(mdg->halo == FR_HALO_TRACES);
  PetscLogDouble     fv = 0, ff = 0, fl = 0;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    PetscLogDouble a, c, d;
    MDGFlops(&mdg->blocks[b], mdg->nv, mdg->dim, &a, &c, &d);
    fv += a;
    ff += c;
    fl += d;
  }
  if (mdg->view_halo) PetscCall(MDGHaloView(mdg));
  PetscCall(OpShellBegin(&mdg->shell, u, &on_device));
  if (!on_device && !mdg->trace) {
    PetscCall(PetscMalloc1(PetscMax(mdg->ntrace * mdg->nv, 1), &mdg->trace));
    for (PetscInt b = 0; b < mdg->nblocks; b++) mdg->blocks[b].kd.trace = mdg->trace;
  }
  trace = on_device ? mdg->blocks[0].kd_device.trace : mdg->trace;
  if (!traces) PetscCall(OpShellHaloBegin(&mdg->shell, 0, u));
  PetscCall(OpShellGetArrayRead(&mdg->shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(&mdg->shell, f, &fa));
  if (traces && mdg->trace_sf) { /* the traces to send first, then the interior elements' volume terms beside the exchange */
    PetscCall(MDGVolumes(mdg, on_device, FR_FACES_HALO, ua, fa, 0));
    PetscCall(PetscSFBcastBegin(mdg->trace_sf, MPIU_SCALAR, trace, trace, MPI_REPLACE));
    if (!mdg->shell.overlap) PetscCall(PetscSFBcastEnd(mdg->trace_sf, MPIU_SCALAR, trace, trace, MPI_REPLACE));
    PetscCall(MDGVolumes(mdg, on_device, FR_FACES_INTERIOR, ua, fa, fv));
  } else
    PetscCall(MDGVolumes(mdg, on_device, FR_FACES_ALL, ua, fa, fv));
  PetscCall(MDGFaces(mdg, on_device, FR_FACES_INTERIOR, NULL, fa, 0)); /* while the halo's data are in flight */
  if (traces && mdg->trace_sf && mdg->shell.overlap) PetscCall(PetscSFBcastEnd(mdg->trace_sf, MPIU_SCALAR, trace, trace, MPI_REPLACE));
  if (!traces) PetscCall(OpShellHaloEnd(&mdg->shell, 0, u, &ul));
  PetscCall(MDGFaces(mdg, on_device, FR_FACES_HALO, ul, fa, ff));
  if (mdg->viscous) PetscCall(MDGViscousTerms(mdg, on_device, ul, fa));
  if (!traces) PetscCall(OpShellHaloRestore(&mdg->shell, 0, &ul));
  PetscCall(OpShellEventBegin(&mdg->shell, HOFLOW_MDGLift));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGLiftHost(&blk->kd, fa);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGLiftCUDA(&blk->kd_device, fa)), "modal DG lift"));
  }
  PetscCall(OpShellEventEnd(&mdg->shell, HOFLOW_MDGLift, fl));
  PetscCall(OpShellRestoreArrayWrite(&mdg->shell, f, &fa));
  PetscCall(OpShellRestoreArrayRead(&mdg->shell, u, &ua));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the work vectors of the CFL step and the limiter, on u's backend */
static PetscErrorCode MDGWorkVectors(MDGDisc *mdg, Vec u)
{
  VecType type;

  PetscFunctionBeginUser;
  if (mdg->speed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetType(u, &type));
  PetscCall(VecCreate(PetscObjectComm((PetscObject)u), &mdg->speed));
  PetscCall(VecSetSizes(mdg->speed, mdg->mesh->K, PETSC_DETERMINE));
  PetscCall(VecSetType(mdg->speed, type));
  PetscCall(VecDuplicate(mdg->speed, &mdg->limited));
  PetscCall(VecCreate(PETSC_COMM_SELF, &mdg->means_local));
  PetscCall(VecSetSizes(mdg->means_local, mdg->mesh->Klocal * mdg->nv, PETSC_DETERMINE));
  PetscCall(VecSetType(mdg->means_local, strstr(type, "cuda") ? VECSEQCUDA : VECSEQ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGMaxWaveSpeed(MDGDisc *mdg, Vec u, PetscReal *speed, PetscInt *bad_cell)
{
  const PetscScalar *ua;
  PetscScalar       *sa;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(MDGWorkVectors(mdg, u));
  PetscCall(OpShellBegin(&mdg->shell, u, &on_device));
  PetscCall(OpShellGetArrayRead(&mdg->shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(&mdg->shell, mdg->speed, &sa));
  for (PetscInt b = 0, e0 = 0; b < mdg->nblocks; e0 += mdg->blocks[b].K, b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGWaveSpeedHost(&blk->kd, ua, blk->h, sa + e0);
    else {
      blk->kd_device.stream = mdg->shell.stream;
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGWaveSpeedCUDA(&blk->kd_device, ua, blk->h_device, sa + e0)), "modal DG wave speed"));
    }
  }
  PetscCall(OpShellRestoreArrayWrite(&mdg->shell, mdg->speed, &sa));
  PetscCall(OpShellRestoreArrayRead(&mdg->shell, u, &ua));
  PetscCall(ConsLawElementSpeedsReduce(mdg->speed, mdg->mesh->elem_cell, speed, bad_cell)); /* a non-physical state: its cell (rare: a host copy) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGLimit(MDGDisc *mdg, Vec u, PetscInt *nlimited)
{
  const PetscScalar *ul;
  PetscScalar       *ua, *ma, *la;
  PetscBool          on_device;
  PetscReal          count;

  PetscFunctionBeginUser;
  PetscCall(MDGWorkVectors(mdg, u));
  PetscCall(OpShellBegin(&mdg->shell, u, &on_device));
  PetscCall(OpShellEventBegin(&mdg->shell, HOFLOW_MDGLimit));
  PetscCall(OpShellHaloBegin(&mdg->shell, 0, u));
  PetscCall(OpShellHaloEnd(&mdg->shell, 0, u, &ul));
  PetscCall(OpShellGetArrayWrite(&mdg->shell, mdg->means_local, &ma));
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGMeansHost(&blk->kd, ul, ma);
    else {
      blk->kd_device.stream = mdg->shell.stream;
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGMeansCUDA(&blk->kd_device, ul, ma)), "modal DG cell means"));
    }
  }
  PetscCall(OpShellHaloRestore(&mdg->shell, 0, &ul));
  PetscCall(OpShellGetArray(&mdg->shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(&mdg->shell, mdg->limited, &la));
  for (PetscInt b = 0, e0 = 0; b < mdg->nblocks; e0 += mdg->blocks[b].K, b++) {
    MDGBlock *blk = &mdg->blocks[b];
    if (!on_device)
      MDGLimitHost(&blk->kd, ma, blk->nb_elem, ua, la + e0);
    else
      PetscCall(OpShellCheckKernel(&mdg->shell, HOFLOW_CUDA(MDGLimitCUDA(&blk->kd_device, ma, blk->nb_device, ua, la + e0)), "modal DG limiter"));
  }
  PetscCall(OpShellRestoreArrayWrite(&mdg->shell, mdg->limited, &la));
  PetscCall(OpShellRestoreArray(&mdg->shell, u, &ua));
  PetscCall(OpShellRestoreArrayWrite(&mdg->shell, mdg->means_local, &ma));
  PetscCall(OpShellEventEnd(&mdg->shell, HOFLOW_MDGLimit, 0));
  PetscCall(VecSum(mdg->limited, &count));
  *nlimited     = (PetscInt)count;
  mdg->nlimited = *nlimited;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MDGWallSamples(MDGDisc *mdg, Vec u, PetscInt *nrows, PetscReal **rows)
{
  const PetscInt     dim = mdg->dim, nv = mdg->nv;
  const PetscScalar *ul;
  PetscBool          on_device;
  PetscInt           n  = 0;
  Vec                uh = NULL;

  PetscFunctionBeginUser;
  PetscCheck(mdg->viscous, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_ARG_WRONGSTATE, "Wall forces need the viscous terms (physics navier_stokes)");
  PetscCall(PetscMalloc1(PetscMax(mdg->nbpoints, 1) * CONSLAW_WALL_ROW, rows));
  PetscCall(OpShellBegin(&mdg->shell, u, &on_device));
  if (on_device) {         /* a monitor's work: on a host copy of the state */
    if (!mdg->wall_host) { /* kept: the monitors ask every step */
      PetscInt nl, ng;
      PetscCall(VecGetLocalSize(u, &nl));
      PetscCall(VecGetSize(u, &ng));
      PetscCall(VecCreate(PetscObjectComm((PetscObject)u), &mdg->wall_host));
      PetscCall(VecSetSizes(mdg->wall_host, nl, ng));
      PetscCall(VecSetType(mdg->wall_host, VECSTANDARD));
    }
    uh = mdg->wall_host;
    PetscCall(VecCopy(u, uh));
    u = uh;
    PetscCall(OpShellBegin(&mdg->shell, u, &on_device));
    PetscCheck(!on_device, PetscObjectComm((PetscObject)mdg->dm), PETSC_ERR_PLIB, "The wall data need a host copy of the state");
  }
  PetscCall(OpShellHaloBegin(&mdg->shell, 0, u));
  PetscCall(OpShellHaloEnd(&mdg->shell, 0, u, &ul));
  PetscCall(MDGViscousTerms(mdg, PETSC_FALSE, ul, NULL)); /* gradients, face states and liftings */
  for (PetscInt b = 0; b < mdg->nblocks; b++) {
    const MDGKernelData *d = &mdg->blocks[b].kd;
    for (int e = 0; e < d->K; e++)
      for (int qq = 0; qq < d->nfq; qq++) {
        int           q;
        const int     fc = MDGFaceOfPoint(d, qq, &q);
        const int    *fi = d->face_info + ((size_t)e * d->Nfaces + fc) * MDG_FACE_INFO;
        const double *fg = d->fgeo + ((size_t)e * d->nfq + qq) * (dim + 1);
        PetscReal    *row;
        double        Fvis[3 * EULER_NV_MAX];
        if (fi[1] >= 0 || (fi[3] != EULER_BC_NOSLIP_ISOTHERMAL && fi[3] != EULER_BC_NOSLIP_ADIABATIC)) continue;
        MDGViscousFaceFlux(d, e, qq, Fvis);
        row = *rows + n++ * CONSLAW_WALL_ROW;
        for (int i = 0; i < CONSLAW_WALL_ROW; i++) row[i] = 0;
        for (int i = 0; i < dim; i++) {
          double tn = 0;
          for (int j = 0; j < dim; j++) tn += Fvis[j * nv + 1 + i] * fg[j];
          row[i]     = mdg->bx[(size_t)(fi[2] + q) * dim + i];
          row[3 + i] = fg[i];
          row[8 + i] = -tn;
        }
        row[6] = fg[dim];
        row[7] = EulerPressure((int)dim, d->gamma, d->fstate + ((size_t)e * d->nfq + qq) * (2 * nv + 1));
      }
  }
  PetscCall(OpShellHaloRestore(&mdg->shell, 0, &ul));
  *nrows = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
