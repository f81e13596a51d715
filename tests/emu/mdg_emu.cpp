// cuda/mdg.cu's Euler right-hand side kernels run on the CPU (scripts/check-mdg-cuda-emu.sh: the whole source, launchers
// included, its launches rewritten to EmuLaunch on the stand-in tests/emu/cuda_runtime.h: every thread of a block an OS
// thread, __syncthreads a barrier) against the host: the volume kernel (its rhs and the owned elements' traces) on all
// elements and on the two element ranges of a right-hand side on several ranks against MDGVolumeHost, and the face kernels on the two element ranges of a right-hand side on several ranks (the interior
// elements, then those with a halo neighbour: MeshBlock's interior_end) and on all elements, each followed by the lift,
// against MDGEulerRHS on the host. The halo elements' trace slots (-mdg_halo traces) are those the host right-hand side's
// exchange filled; with -mdg_halo elements the face kernel reads the halo modes from the local vector. The input is the
// problem's initial state plus 1e-2 of a random state. Takes hoflow's options and -test_flux rusanov|roe|hllc; prints
// one line and exits 1 unless every array equals the host's exactly (the same compiler and arithmetic: no fused
// multiply-adds on x86-64 without -mfma).
#define restrict __restrict // hoflow's C headers
#include <cuda_runtime.h>
#undef __shared__
#define __shared__
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>
using std::min;
double sm[1 << 22], W[1 << 22]; // the kernels' dynamic shared memory (one block at a time)
#include "mdg.cu.emu"
#include <hoflow/compat.h>
#include <hoflow/mdg.h>
#include <hoflow/physics.h>

// max |a - b| (a NaN in b: infinity)
static double MaxDiff(const double *a, const double *b, size_t n)
{
  double w = 0;
  for (size_t i = 0; i < n; i++) w = std::isnan(b[i]) ? INFINITY : std::max(w, std::fabs(a[i] - b[i]));
  return w;
}

int main(int argc, char **argv)
{
  App               *app;
  MDGDisc           *mdg;
  Vec                u, f, r, ul;
  ProblemState       ex;
  const PetscScalar *ua, *fa, *ula;
  PetscInt           flux = EULER_FLUX_ROE, nown;
  double             w[6] = {0, 0, 0, 0, 0, 0}, worst = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  PetscCall(DiscGetMDG(app->disc, "mdg_emu", &mdg));
  {
    const char *const fluxes[] = {"rusanov", "roe", "hllc"};
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-test_flux", fluxes, 3, &flux, NULL));
  }
  ex.problem = &app->problem;
  ex.f       = app->problem.initial ? app->problem.initial : app->problem.exact;
  ex.t       = 0.0;
  ex.nv      = mdg->nv;
  for (PetscInt i = 0; i < mdg->nbpoints; i++) PetscCall(ProblemStateFunction(mdg->dim, mdg->bx + i * mdg->dim, mdg->bc_point + i * EULER_BC_DATA, &ex));
  PetscCall(MDGSetEuler(mdg, app->problem.gamma > 0 ? app->problem.gamma : 1.4, flux));
  PetscCall(DMCreateGlobalVector(mdg->dm, &u));
  PetscCall(MDGProject(mdg, ProblemStateFunction, &ex, u));
  PetscCall(VecDuplicate(u, &r));
  PetscCall(VecSetRandom(r, NULL));
  PetscCall(VecAXPY(u, 1e-2, r));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDuplicate(u, &f));
  PetscCall(MDGEulerRHS(mdg, u, f)); // the host: volume, the exchange, faces, lift; mdg->trace holds every slot
  PetscCall(DMGetLocalVector(mdg->dm, &ul));
  PetscCall(DMGlobalToLocal(mdg->dm, u, INSERT_VALUES, ul));
  PetscCall(VecGetLocalSize(u, &nown));
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(f, &fa));
  PetscCall(VecGetArrayRead(ul, &ula));
  {
    const size_t               nt = (size_t)PetscMax(mdg->ntrace, 1) * mdg->nv, nowned = (size_t)mdg->trace_start[mdg->nblocks] * mdg->nv;
    std::vector<double>        rvol(nown), th(nt, 0.0), rd(nown, NAN), td(nt, NAN);
    std::vector<MDGKernelData> kh(mdg->nblocks), kd(mdg->nblocks);
    std::vector<double>        PfT(PetscMax(mdg->npf, 1)), PqT;
    for (PetscInt s = 0; s < REF_NUM_SHAPES; s++) { // the transposed tables of the device copy (MDGDeviceSetUp's)
      const PetscInt Np = RefShapeNumNodes((RefShape)s, (int)mdg->N);
      if (mdg->pf_offset[s][0][0] < 0) continue;
      for (PetscInt fc = 0; fc < RefShapeTable[s].nfaces; fc++)
        for (PetscInt o = 0; o < GeomFaceOrientations(RefShapeTable[s].face_shape[fc]); o++) {
          const PetscInt off = mdg->pf_offset[s][fc][o], n = mdg->fq_off[s][fc + 1] - mdg->fq_off[s][fc];
          for (PetscInt q = 0; q < n; q++)
            for (PetscInt m = 0; m < Np; m++) PfT[off + m * n + q] = mdg->Pf[off + q * Np + m];
        }
    }
    for (PetscInt b = 0; b < mdg->nblocks; b++) {
      const MDGKernelData *h  = &mdg->blocks[b].kd;
      const size_t         q0 = PqT.size();
      PqT.resize(q0 + (size_t)h->Nq * h->Np);
      for (int q = 0; q < h->Nq; q++)
        for (int m = 0; m < h->Np; m++) PqT[q0 + (size_t)m * h->Nq + q] = h->Pq[q * h->Np + m];
    }
    for (PetscInt b = 0, q0 = 0; b < mdg->nblocks; q0 += mdg->blocks[b].Nq * mdg->blocks[b].Np, b++) {
      kh[b] = kd[b] = mdg->blocks[b].kd;
      kd[b].PqT     = PqT.data() + q0;
      kd[b].PfT     = PfT.data();
      kh[b].trace   = th.data();
      kd[b].trace   = td.data();
      MDGVolumeHost(&kh[b], ua, rvol.data());
    }
    for (int pass = 0; pass < 2; pass++) { // every element at once, then those with a halo neighbour and the interior ones
      std::fill(rd.begin(), rd.end(), NAN);
      std::fill(td.begin(), td.end(), NAN);
      for (FRFaceSet set : {FR_FACES_ALL, FR_FACES_HALO, FR_FACES_INTERIOR})
        for (PetscInt b = 0; b < mdg->nblocks; b++) {
          MDGKernelData ks = kd[b];
          if ((pass == 0) != (set == FR_FACES_ALL)) continue;
          FRExchangeFaceRange(&mdg->mesh->blocks[b], set, &ks.subset, &ks.range_begin, &ks.range_end);
          PetscCheck(!MDGVolumeCUDA(&ks, ua, rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "MDGVolumeCUDA failed");
        }
      w[2 * pass]     = MaxDiff(rvol.data(), rd.data(), nown);
      w[2 * pass + 1] = MaxDiff(th.data(), td.data(), nowned);
    }
    for (int pass = 0; pass < 2; pass++) {                     // the two ranges of a right-hand side on several ranks, then every element at once
      std::memcpy(td.data(), mdg->trace, sizeof(double) * nt); // the host's traces, the halo slots as its exchange filled them
      rd = rvol;
      for (FRFaceSet set : {FR_FACES_INTERIOR, FR_FACES_HALO, FR_FACES_ALL})
        for (PetscInt b = 0; b < mdg->nblocks; b++) {
          MDGKernelData ks = kd[b];
          if ((pass == 0) == (set == FR_FACES_ALL)) continue;
          FRExchangeFaceRange(&mdg->mesh->blocks[b], set, &ks.subset, &ks.range_begin, &ks.range_end);
          PetscCheck(!MDGFaceCUDA(&ks, set == FR_FACES_INTERIOR ? NULL : ula, rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "MDGFaceCUDA failed");
        }
      for (PetscInt b = 0; b < mdg->nblocks; b++) PetscCheck(!MDGLiftCUDA(&kd[b], rd.data()), PETSC_COMM_SELF, PETSC_ERR_LIB, "MDGLiftCUDA failed");
      w[4 + pass] = MaxDiff(fa, rd.data(), nown);
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "mdg_emu: -mdg_halo %s blocks %d K %d halo %d volume %.3e trace %.3e volume_ranges %.3e trace_ranges %.3e rhs_face_ranges %.3e rhs_all_faces %.3e\n", FRHaloTypes[mdg->halo], (int)mdg->nblocks,
                          (int)mdg->mesh->K, (int)(mdg->mesh->Klocal - mdg->mesh->K), w[0], w[1], w[2], w[3], w[4], w[5]));
    for (double v : w) worst = std::max(worst, v);
  }
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscCall(VecRestoreArrayRead(f, &fa));
  PetscCall(VecRestoreArrayRead(ul, &ula));
  PetscCall(DMRestoreLocalVector(mdg->dm, &ul));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&f));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return worst == 0 ? 0 : 1;
}
