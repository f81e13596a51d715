// cuda/sem_flow.cu run on the CPU (tests/emu/run.sh: the source with its launches rewritten, on the stand-in
// cuda_runtime.h) against the host kernels of src/kernels/sem_flow.c on synthetic data: random element
// restrictions with shared (and repeated) dofs, random 1D matrices, geometry (dr/dx, w J at the nodes and at the
// Gauss points), fields; quadrilaterals and hexahedra N = 2..8; the collocated and over-integrated convection,
// the pressure and velocity right-hand sides, the divergence, the enstrophy of each element. Prints one line per
// case and "sem_flow_emu: worst <relative max-norm difference>".
#include "sem_flow.cu.emu"
#include <cmath>
#include <cstdio>
#include <vector>

static double Random(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return (*state >> 8) / 16777216.0;
}

static double Relative(const std::vector<double> &a, const std::vector<double> &b, int err)
{
  double diff = 0, scale = 0;
  for (size_t k = 0; k < a.size(); k++) {
    diff  = std::fmax(diff, std::fabs(a[k] - b[k]));
    scale = std::fmax(scale, std::fabs(b[k]));
  }
  return err ? 1.0 : diff / scale;
}

int main()
{
  unsigned state = 2718;
  double   worst = 0;
  for (int dim = 2; dim <= 3; dim++)
    for (int N = 2; N <= 8; N++) {
      const int N1 = N + 1, Np = dim == 2 ? N1 * N1 : N1 * N1 * N1, Nq = 3 * N / 2 + 1, Nqp = dim == 2 ? Nq * Nq : Nq * Nq * Nq, K = dim == 2 ? 7 : 3;
      const int nu_nodes = K * Np / 2 + 1, np_dofs = K * Np / 2 + 1, dd = dim * dim;
      std::vector<int>    ug(K * Np), pg(K * Np);
      std::vector<double> D1(N1 * N1), D1T(N1 * N1), B(Nq * N1), DB(Nq * N1), BT(Nq * N1), g(K * Np * dd), wJ(K * Np), gq(K * Nqp * dd), wJq(K * Nqp);
      std::vector<double> u(nu_nodes * dim), F(nu_nodes * dim), p(np_dofs);
      for (auto &x : ug) x = dim * (int)(Random(&state) * nu_nodes);
      for (auto &x : pg) x = (int)(Random(&state) * np_dofs);
      for (int i = 0; i < N1 * N1; i++) D1[i] = 2 * Random(&state) - 1;
      for (int i = 0; i < N1; i++)
        for (int j = 0; j < N1; j++) D1T[i * N1 + j] = D1[j * N1 + i];
      for (int i = 0; i < Nq * N1; i++) B[i] = 2 * Random(&state) - 1, DB[i] = 2 * Random(&state) - 1;
      for (int i = 0; i < Nq; i++)
        for (int j = 0; j < N1; j++) BT[j * Nq + i] = B[i * N1 + j];
      for (auto *v : {&g, &gq, &u, &F, &p})
        for (auto &x : *v) x = 2 * Random(&state) - 1;
      for (auto *v : {&wJ, &wJq})
        for (auto &x : *v) x = 0.1 + Random(&state);
      SEMFlowKernelData kd = {dim, N1, Np, K, ug.data(), pg.data(), D1.data(), D1T.data(), g.data(), wJ.data(), 0, nullptr, nullptr, nullptr, nullptr, nullptr};
      SEMFlowKernelData ko = kd;
      ko.Nq = Nq, ko.B = B.data(), ko.DB = DB.data(), ko.BT = BT.data(), ko.gq = gq.data(), ko.wJq = wJq.data();
      double rel[6];
      {
        std::vector<double> h(u.size(), 0.0), c(u.size(), 0.0);
        SEMFlowConvectionHost(&kd, u.data(), h.data());
        rel[0] = Relative(c, h, SEMFlowConvectionCUDA(&kd, u.data(), c.data(), nullptr));
      }
      {
        std::vector<double> h(u.size(), 0.0), c(u.size(), 0.0);
        SEMFlowConvectionHost(&ko, u.data(), h.data());
        rel[1] = Relative(c, h, SEMFlowConvectionCUDA(&ko, u.data(), c.data(), nullptr));
      }
      {
        std::vector<double> h(p.size(), 0.0), c(p.size(), 0.0);
        SEMFlowPressureRHSHost(&kd, 0.37, F.data(), u.data(), h.data());
        rel[2] = Relative(c, h, SEMFlowPressureRHSCUDA(&kd, 0.37, F.data(), u.data(), c.data(), nullptr));
      }
      {
        std::vector<double> h(u.size(), 0.0), c(u.size(), 0.0);
        SEMFlowVelocityRHSHost(&kd, 0.37, F.data(), p.data(), h.data());
        rel[3] = Relative(c, h, SEMFlowVelocityRHSCUDA(&kd, 0.37, F.data(), p.data(), c.data(), nullptr));
      }
      {
        std::vector<double> h(p.size(), 0.0), c(p.size(), 0.0);
        SEMFlowDivergenceHost(&kd, u.data(), h.data());
        rel[4] = Relative(c, h, SEMFlowDivergenceCUDA(&kd, u.data(), c.data(), nullptr));
      }
      {
        std::vector<double> h(K, 0.0), c(K, 0.0);
        SEMFlowEnstrophyHost(&kd, u.data(), h.data());
        rel[5] = Relative(c, h, SEMFlowEnstrophyCUDA(&kd, u.data(), c.data(), nullptr));
      }
      for (double r : rel) worst = std::fmax(worst, r);
      std::printf("dim %d N %d: relative convection %.2e dealias %.2e pressure %.2e velocity %.2e divergence %.2e enstrophy %.2e\n", dim, N, rel[0], rel[1], rel[2], rel[3], rel[4], rel[5]);
    }
  std::printf("sem_flow_emu: worst %.3e\n", worst);
  return 0;
}
