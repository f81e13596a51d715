// cuda/sem.cu run on the CPU (tests/emu/run.sh: the source with its launches rewritten, on the stand-in
// cuda_runtime.h) against the host kernel SEMApplyHost on synthetic data: random element restriction with
// shared (and repeated) dofs, random 1D matrix, weights, factors (stored per node, or affine: J and s per
// element with G = (w J) s formed as the host setup forms them), Dirichlet mask, lambda; quadrilaterals and
// hexahedra N = 1..HOFLOW_NMAX, ncomp = 1 and 3 (interlaced); the diagonal (SEMDiagonalCUDA) likewise. Prints one line per case and
// "sem_emu: worst <relative max-norm difference>".
#include "sem.cu.emu"
#include <cmath>
#include <cstdio>
#include <cstdlib>

static double Random(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return (*state >> 8) / 16777216.0;
}

int main()
{
  unsigned state = 12345;
  double   worst = 0;
  for (int dim = 2; dim <= 3; dim++)
    for (int N = 1; N <= HOFLOW_NMAX; N++)
      for (int affine = 0; affine < 2; affine++)
        for (int ncomp = 1; ncomp <= 3; ncomp += 2) {
          const int           N1 = N + 1, Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, npair = dim * (dim + 1) / 2, K = 37, ndof = K * Np / 2 + 1;
          std::vector<int>    gather(K * Np);
          std::vector<double> D1(N1 * N1), D1T(N1 * N1), w1(N1), G(K * Np * npair), wJ(K * Np), aff(K * (npair + 1)), u(ndof * ncomp), yh(ndof * ncomp, 0.0), yd(ndof * ncomp, 0.0);
          std::vector<char>   mask(ndof * ncomp);
          for (auto &g : gather) g = ncomp * (int)(Random(&state) * ndof);
          for (int i = 0; i < N1; i++) {
            w1[i] = 0.1 + Random(&state);
            for (int j = 0; j < N1; j++) D1[i * N1 + j] = 2 * Random(&state) - 1;
          }
          for (int i = 0; i < N1; i++)
            for (int j = 0; j < N1; j++) D1T[i * N1 + j] = D1[j * N1 + i];
          for (auto &v : u) v = 2 * Random(&state) - 1;
          for (auto &m : mask) m = Random(&state) < 0.1;
          for (int e = 0; e < K; e++) {
            double *a = &aff[e * (npair + 1)];
            a[0]      = 0.5 + Random(&state);
            for (int q = 0; q < npair; q++) a[1 + q] = 2 * Random(&state) - 1;
            for (int q = 0; q < Np; q++) {
              const int ix[3] = {q % N1, (q / N1) % N1, q / (N1 * N1)};
              double    w     = 1;
              for (int d = 0; d < dim; d++) w *= w1[ix[d]];
              for (int k = 0; k < npair; k++) G[(e * Np + q) * npair + k] = affine ? w * a[0] * a[1 + k] : 2 * Random(&state) - 1;
              wJ[e * Np + q] = affine ? w * a[0] : 0.5 + Random(&state);
            }
          }
          SEMKernelData kd = {dim, N, N1, Np, K, gather.data(), D1.data(), D1T.data(), G.data(), wJ.data(), 0.7, mask.data(), nullptr, nullptr};
          for (int c = 0; c < ncomp; c++) SEMApplyHost(&kd, u.data() + c, yh.data() + c);
          SEMKernelData kc = kd;
          if (affine) {
            kc.affine = aff.data();
            kc.w1     = w1.data();
            kc.G = kc.wJ = nullptr;
          }
          const int err  = SEMApplyCUDA(&kc, ncomp, u.data(), yd.data(), nullptr);
          double    diff = 0, scale = 0;
          for (size_t k = 0; k < yh.size(); k++) {
            diff  = std::fmax(diff, std::fabs(yd[k] - yh[k]));
            scale = std::fmax(scale, std::fabs(yh[k]));
          }
          const double rel = err ? 1.0 : diff / scale;
          /* the diagonal */
          std::vector<double> dh(ndof * ncomp, 0.0), dd(ndof * ncomp, 0.0);
          for (int c = 0; c < ncomp; c++) SEMDiagonalHost(&kd, dh.data() + c);
          const int derr = SEMDiagonalCUDA(&kc, ncomp, dd.data(), nullptr);
          diff = scale = 0;
          for (size_t k = 0; k < dh.size(); k++) {
            diff  = std::fmax(diff, std::fabs(dd[k] - dh[k]));
            scale = std::fmax(scale, std::fabs(dh[k]));
          }
          const double drel = derr ? 1.0 : diff / scale;
          worst             = std::fmax(worst, std::fmax(rel, drel));
          std::printf("dim %d N %2d %s ncomp %d: error %d %d relative apply %.2e diagonal %.2e\n", dim, N, affine ? "affine" : "stored", ncomp, err, derr, rel, drel);
        }
  std::printf("sem_emu: worst %.3e\n", worst);
  return 0;
}
