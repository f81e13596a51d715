/* Wall data of flux reconstruction with dense operators (-disc fr on triangles, tetrahedra, prisms and mixed meshes):
 * the rows of ConsLawWallSamples (hoflow/conslaw.h; the same rows as modal DG's MDGWallSamples) at every flux point of
 * a no-slip wall, from which the physics takes the forces (drag, lift monitors), -ns_surface_file and the far-field
 * correction's strength.
 *
 * A row needs the state and the corrected gradient at the wall's flux points, which a right-hand side leaves in the
 * kernel data: the trace (u- at every flux point) and the gradient trace (the corrected gradients at every flux point,
 * hoflow/kernels/fr_dense_viscous.h). So the samples evaluate one right-hand side at u (into a work vector) and read
 * them; on CUDA vectors the device's trace and gradient trace are copied to the host arrays first (a monitor's work:
 * called every monitor interval, not every stage; one right-hand side and the copies, (2 + dim) nv nfpt doubles an
 * element).
 *
 *   x      the flux point (the boundary data's position)
 *   n      the element's outward unit normal there (out of the fluid)
 *   w sJ   the face cubature's weight times the surface Jacobian: w_q ratio_f J |G nr_f| (the weights that make C_f)
 *   p      the pressure of u- (the element's own state at the wall)
 *   -tau n the viscous force density: minus the momentum part of the scheme's common viscous flux F_v^I . n
 *          (FRDenseViscousFacePointFlux: F_v(u_b, q-) . n with the penalty on the momentum, the flux the right-hand
 *          side uses, so the forces are the momentum that the scheme takes out through the wall) */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/fr.h>
#include <hoflow/geom.h>
#include <hoflow/kernels/fr_dense_viscous.h>
#include <hoflow/mesh.h>
#if defined(HOFLOW_HAVE_CUDA)
#  include <petscdevice.h>
#endif

/* host[0 .. n) = the device array d (a CUDA vector's values), after the device's work on PETSc's stream */
static PetscErrorCode FRWallCopyToHost(const double *d, size_t n, double *host)
{
  PetscFunctionBeginUser;
#if defined(HOFLOW_HAVE_CUDA)
  {
    Vec                v;
    const PetscScalar *a;
    PetscCall(VecCreateSeqCUDAWithArray(PETSC_COMM_SELF, 1, (PetscInt)n, (const PetscScalar *)d, &v));
    PetscCall(VecGetArrayRead(v, &a));
    PetscCall(PetscArraycpy(host, a, n));
    PetscCall(VecRestoreArrayRead(v, &a));
    PetscCall(VecDestroy(&v));
  }
#else
  (void)d, (void)n, (void)host;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "CUDA vectors need a hoflow built with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRDenseWallSamples(ConsLaw cl, Vec u, PetscInt *nrows, PetscReal **rows)
{
  Disc                     disc = cl->disc;
  const Mesh              *mesh = disc->mesh;
  const PetscInt           dim = cl->dim, nv = cl->nv;
  const FRDenseKernelData *kd, *kdd;
  PetscInt                 nblocks, n = 0;
  PetscBool                cuda;
  Vec                      f;

  PetscFunctionBeginUser;
  PetscCall(FRDenseGetKernelData(disc, &nblocks, &kd, &kdd, NULL, NULL));
  PetscCheck(nblocks > 0 && kd[0].ldg.on, PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_ARG_WRONGSTATE, "-disc fr: wall forces (drag, lift, -ns_surface_file) need the viscous terms (physics navier_stokes)");
  PetscCall(VecDuplicate(u, &f)); /* the right-hand side leaves the trace and the gradient traces in the kernel data */
  PetscCall(ConsLawRHS(cl, u, f));
  PetscCall(VecDestroy(&f));
  PetscCall(HoflowVecIsCUDA(u, &cuda));
  if (cuda) { /* the device's trace and gradient traces of the owned elements to the host arrays (a wall point's flux reads
               * its own element's only) */
    const FRDenseKernelData *last   = &kd[nblocks - 1];
    const size_t             ntrace = (size_t)last->trace0 + (size_t)last->K * last->nfpt * 2 * nv;
    PetscCheck(kdd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-disc fr: no device kernel data after a right-hand side on CUDA vectors");
#if defined(HOFLOW_HAVE_CUDA)
    {
      PetscDeviceContext dctx;
      PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
      PetscCall(PetscDeviceContextSynchronize(dctx));
    }
#endif
    PetscCall(FRWallCopyToHost(kdd[0].trace, ntrace, kd[0].trace));
    PetscCall(FRWallCopyToHost(kdd[0].grad_trace, ntrace / (2 * nv) * dim * nv, kd[0].grad_trace));
  }
  PetscCall(PetscMalloc1(PetscMax(cl->nbpoints, 1) * CONSLAW_WALL_ROW, rows)); /* the walls are some of the boundary points */
  for (PetscInt b = 0; b < nblocks; b++) {
    const FRDenseKernelData *d     = &kd[b];
    const FRDenseSizes       z     = FRDenseSizesOf(d);
    const RefShape           shape = mesh->blocks[b].shape;
    for (int e = 0; e < d->K; e++)
      for (int fc = 0; fc < d->Nfaces; fc++) {
        const int *fi = d->face_info + ((size_t)e * d->Nfaces + fc) * FRD_FACE_INFO;
        PetscInt   nq;
        PetscReal *xi, *w, nref[3], ratio;
        if (fi[1] >= 0 || (fi[5] != EULER_BC_NOSLIP_ISOTHERMAL && fi[5] != EULER_BC_NOSLIP_ADIABATIC)) continue;
        GeomReferenceFace(shape, fc, nref, &ratio);
        PetscCall(MeshFaceCubature(shape, fc, MeshFaceOrientation(mesh, d->e0 + e, fc), 2 * cl->order, &nq, &xi, &w));
        PetscCheck(nq == d->fp_off[fc + 1] - d->fp_off[fc], PETSC_COMM_SELF, PETSC_ERR_PLIB, "-disc fr: face %d has %" PetscInt_FMT " cubature points, the kernel data %d", fc, nq, d->fp_off[fc + 1] - d->fp_off[fc]);
        for (int q = 0; q < (int)nq; q++) {
          const int     p  = d->fp_off[fc] + q;
          const double *uM = FRDenseTrace(d, e) + (size_t)p * 2 * nv, *fg = d->fgeo + ((size_t)e * d->nfpt + p) * (dim + 1);
          double        uP[EULER_NV_MAX], Fv[EULER_NV_MAX];
          PetscReal    *row = *rows + n++ * CONSLAW_WALL_ROW;
          FRDenseViscousFacePointOther(d, z, e, fc, q, NULL, uM, fg, uP); /* the boundary state (no array read) */
          FRDenseViscousFacePointFlux(d, e, fc, q, uM, uP, fg, Fv);
          for (int i = 0; i < CONSLAW_WALL_ROW; i++) row[i] = 0;
          for (int i = 0; i < dim; i++) {
            row[i]     = cl->bx[(size_t)(fi[4] + q) * dim + i];
            row[3 + i] = fg[i];
            row[8 + i] = -Fv[1 + i];
          }
          row[6] = w[q] * ratio * fg[dim];
          row[7] = EulerPressure((int)dim, d->gamma, uM);
        }
        PetscCall(PetscFree(xi));
        PetscCall(PetscFree(w));
      }
  }
  *nrows = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
