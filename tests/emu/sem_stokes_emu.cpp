// cuda/sem_stokes.cu run on the CPU (tests/emu/run.sh sem_stokes: the source with its launches rewritten, on the
// stand-in cuda_runtime.h) against the host kernels of src/kernels/sem_stokes.c on synthetic data: random velocity
// restriction with shared and repeated dofs (dim interlaced components), a Dirichlet mask, random 1D matrices
// (Bgl, Dgl, Bpq), weights and factors (per point, or affine: J and g per element with wJ = (w_q J) formed as the
// host setup forms it); Taylor-Hood (random pressure gather with shared dofs) and qn_qn2 (the element's own
// values), quadrilaterals and hexahedra N = 2..8: the divergence, the gradient and (Taylor-Hood) the consistent
// pressure mass. Prints one line per case and "sem_stokes_emu: worst <relative max-norm difference>".
#include "sem_stokes.cu.emu"
#include <cmath>
#include <cstdio>
#include <vector>

static double Random(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return (*state >> 8) / 16777216.0;
}

static double Relative(const std::vector<double> &a, const std::vector<double> &b)
{
  double diff = 0, scale = 0;
  for (size_t k = 0; k < a.size(); k++) {
    diff  = std::fmax(diff, std::fabs(a[k] - b[k]));
    scale = std::fmax(scale, std::fabs(a[k]));
  }
  return scale > 0 ? diff / scale : diff;
}

int main()
{
  unsigned state = 4711;
  double   worst = 0;
  int      cases = 0;
  for (int dim = 2; dim <= 3; dim++)
    for (int N = 2; N <= 8; N++)
      for (int th = 0; th < 2; th++)
        for (int affine = 0; affine < 2; affine++) {
          const int N1 = N + 1, Ng = th ? N1 : N - 1, Np1 = th ? N : Ng, K = 23;
          const int Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, Npp = dim == 2 ? Ng * Ng : Ng * Ng * Ng, Npe = dim == 2 ? Np1 * Np1 : Np1 * Np1 * Np1;
          const int nu = K * Np / 2 + 1, np = th ? K * Npe / 2 + 1 : K * Npp, ngeo = 1 + dim * dim;
          std::vector<int>    gather(K * Np), pgather(K * Npe), poffset(K);
          std::vector<double> Bgl(Ng * N1), Dgl(Ng * N1), BglT(N1 * Ng), DglT(N1 * Ng), Bpq(Ng * Np1), BpqT(Np1 * Ng), wg(Ng), wJ(K * Npp), g(K * Npp * dim * dim), aff(K * ngeo);
          std::vector<double> u(nu * dim), p(np);
          std::vector<char>   mask(nu * dim);
          for (auto &v : gather) v = dim * (int)(Random(&state) * nu);
          for (auto &v : pgather) v = (int)(Random(&state) * np);
          for (int e = 0; e < K; e++) poffset[e] = e * Npp;
          for (int i = 0; i < Ng; i++) {
            wg[i] = 0.1 + Random(&state);
            for (int k = 0; k < N1; k++) {
              Bgl[i * N1 + k] = 2 * Random(&state) - 1;
              Dgl[i * N1 + k] = 2 * Random(&state) - 1;
            }
            for (int k = 0; k < Np1; k++) Bpq[i * Np1 + k] = 2 * Random(&state) - 1;
          }
          for (int i = 0; i < Ng; i++) {
            for (int k = 0; k < N1; k++) {
              BglT[k * Ng + i] = Bgl[i * N1 + k];
              DglT[k * Ng + i] = Dgl[i * N1 + k];
            }
            for (int k = 0; k < Np1; k++) BpqT[k * Ng + i] = Bpq[i * Np1 + k];
          }
          for (auto &v : u) v = 2 * Random(&state) - 1;
          for (auto &v : p) v = 2 * Random(&state) - 1;
          for (auto &m : mask) m = Random(&state) < 0.1;
          for (int e = 0; e < K; e++) {
            double *a = &aff[e * ngeo];
            a[0]      = 0.5 + Random(&state);
            for (int k = 1; k < ngeo; k++) a[k] = 2 * Random(&state) - 1;
            for (int q = 0; q < Npp; q++) {
              const int ix[3] = {q % Ng, (q / Ng) % Ng, q / (Ng * Ng)};
              double    w     = 1;
              for (int x = 0; x < dim; x++) w *= wg[ix[x]];
              wJ[e * Npp + q] = affine ? w * a[0] : 0.5 + Random(&state);
              for (int k = 0; k < dim * dim; k++) g[(e * Npp + q) * dim * dim + k] = affine ? a[1 + k] : 2 * Random(&state) - 1;
            }
          }
          SEMStokesKernelData kd = {dim, N1, Ng, Np1, Np, Npp, Npe, K, gather.data(), th ? pgather.data() : nullptr, th ? nullptr : poffset.data(), Bgl.data(), Dgl.data(), BglT.data(), DglT.data(), th ? Bpq.data() : nullptr, th ? BpqT.data() : nullptr, wJ.data(), g.data(), mask.data(), nullptr, nullptr};
          SEMStokesKernelData kc = kd;
          if (affine) {
            kc.affine = aff.data();
            kc.wg     = wg.data();
            kc.wJ = kc.g = nullptr;
          }
          std::vector<double> work(SEMStokesWorkSize(&kd));
          std::vector<double> bh(np, 0.0), bd(np, 0.0), gh(nu * dim, 0.0), gd(nu * dim, 0.0), mh(np, 0.0), md(np, 0.0);
          SEMDivergenceHost(&kd, u.data(), bh.data(), work.data());
          const int    e1 = SEMDivergenceCUDA(&kc, u.data(), bd.data(), nullptr);
          const double rb = e1 ? 1.0 : Relative(bh, bd);
          SEMGradientHost(&kd, p.data(), gh.data(), work.data());
          const int    e2 = SEMGradientCUDA(&kc, p.data(), gd.data(), nullptr);
          const double rg = e2 ? 1.0 : Relative(gh, gd);
          double       rm = 0;
          int          e3 = 0;
          if (th) {
            SEMPressureMassHost(&kd, p.data(), mh.data(), work.data());
            e3 = SEMPressureMassCUDA(&kc, p.data(), md.data(), nullptr);
            rm = e3 ? 1.0 : Relative(mh, md);
          }
          worst = std::fmax(worst, std::fmax(rb, std::fmax(rg, rm)));
          cases++;
          std::printf("dim %d N %d %-11s %s: error %d %d %d relative divergence %.2e gradient %.2e mass %.2e\n", dim, N, th ? "taylor_hood" : "qn_qn2", affine ? "affine" : "stored", e1, e2, e3, rb, rg, rm);
        }
  std::printf("sem_stokes_emu: %d cases, worst %.3e\n", cases, worst);
  return 0;
}
