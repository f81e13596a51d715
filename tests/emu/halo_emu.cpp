// cuda/halo.cu run on the CPU (tests/emu/run.sh halo: the source with its launches rewritten, on the stand-in
// cuda_runtime.h) against the host kernels of src/kernels/halo.c: the batched halo exchange's pack (gather of n
// arrays' entries at an index list with repeats, interleaved node by node) and unpack (scatter into n arrays at
// distinct indices), n = 1..HALO_NMAX, lists of 0..700 nodes. Both only copy: every difference must be exactly 0.
// Prints "halo_emu: cases <n> worst <max abs difference>".
#include "halo.cu.emu"
#include <cmath>
#include <cstdio>
#include <vector>

static unsigned Random(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

int main()
{
  unsigned state = 4711;
  double   worst = 0;
  int      cases = 0;
  for (int n = 1; n <= HALO_NMAX; n++)
    for (int m : {0, 1, 37, 256, 700}) {
      const int                        len = 900;
      std::vector<std::vector<double>> in(n, std::vector<double>(len)), out_host(n, std::vector<double>(len, -1.0)), out_emu(n, std::vector<double>(len, -1.0));
      std::vector<int>                 gather(m), scatter(m), perm(len);
      std::vector<double>              buf_host(n * m + 1), buf_emu(n * m + 1);
      HaloArrays                       ah = {}, ae = {};
      for (int k = 0; k < n; k++)
        for (auto &v : in[k]) v = (Random(&state) % 100000) / 997.0 - 50;
      for (auto &j : gather) j = (int)(Random(&state) % len); /* repeats: a node sent to several neighbours */
      for (int i = 0; i < len; i++) perm[i] = i;
      for (int i = len - 1; i > 0; i--) std::swap(perm[i], perm[Random(&state) % (i + 1)]);
      for (int j = 0; j < m; j++) scatter[j] = perm[j]; /* distinct ghost nodes */
      for (int k = 0; k < n; k++) {
        ah.in[k] = ae.in[k] = in[k].data();
        ah.out[k]           = out_host[k].data();
        ae.out[k]           = out_emu[k].data();
      }
      HaloGatherHost(n, m, gather.data(), ah, buf_host.data());
      if (HaloGatherCUDA(n, m, gather.data(), ae, buf_emu.data(), nullptr)) return 1;
      for (int t = 0; t < n * m; t++) worst = std::fmax(worst, std::fabs(buf_host[t] - buf_emu[t]));
      HaloScatterHost(n, m, scatter.data(), buf_host.data(), ah);
      if (HaloScatterCUDA(n, m, scatter.data(), buf_host.data(), ae, nullptr)) return 1;
      for (int k = 0; k < n; k++)
        for (int i = 0; i < len; i++) worst = std::fmax(worst, std::fabs(out_host[k][i] - out_emu[k][i]));
      /* the round trip: node gather[j] of array k arrives at scatter[j] */
      for (int j = 0; j < m; j++)
        for (int k = 0; k < n; k++) worst = std::fmax(worst, std::fabs(out_host[k][scatter[j]] - in[k][gather[j]]));
      cases++;
    }
  printf("halo_emu: cases %d worst %.3e\n", cases, worst);
  return 0;
}
