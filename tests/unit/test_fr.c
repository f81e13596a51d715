static const char help[] = "The 1D VCJH correction functions of flux reconstruction (hoflow/fr.h) for N = 1..6 and c = c_DG, c_SD, c_HU,\n"
                           "c_+: the end values g_L(-1) = 1, g_L(1) = 0, g_R(1) = 1, g_R(-1) = 0, and the VCJH condition\n"
                           "int g l' dx = c l^(N) g^(N+1) for l = P_0..P_N (Gauss quadrature of N+2 points, exact; g^(N+1) from the\n"
                           "divided difference of N+2 values, independent of the formula); eta_N against its closed forms for sd and hu.\n";

#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/ref.h>

/* g^(N+1) of a degree-(N+1) polynomial from its values g[n] at n = N+2 points x: (N+1)! f[x_0..x_{N+1}] */
static PetscReal TopDerivative(PetscInt n, const PetscReal x[], const PetscReal g[])
{
  PetscReal dd[HOFLOW_NMAX + 3], f = 1;
  for (PetscInt i = 0; i < n; i++) dd[i] = g[i];
  for (PetscInt k = 1; k < n; k++)
    for (PetscInt i = n - 1; i >= k; i--) dd[i] = (dd[i] - dd[i - 1]) / (x[i] - x[i - k]);
  for (PetscInt k = 2; k < n; k++) f *= k;
  return f * dd[n - 1];
}

int main(int argc, char **argv)
{
  PetscReal worst_end = 0, worst_vcjh = 0, worst_eta = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  for (PetscInt N = 1; N <= 6; N++)
    for (PetscInt t = 0; t < 4; t++) {
      const PetscInt n = N + 2;
      PetscReal      c, x[HOFLOW_NMAX + 3], w[HOFLOW_NMAX + 3], xm[HOFLOW_NMAX + 3], gl[HOFLOW_NMAX + 3], gr[HOFLOW_NMAX + 3], ends[2] = {-1, 1}, ge[2], gem[2], end = 0, vcjh = 0;
      if (t == FR_CORRECTION_PLUS && N == 1) continue; /* no c_+ at N = 1 */
      PetscCall(VCJHParameter((FRCorrection)t, N, &c));
      PetscCall(JacobiGaussQuadrature(0.0, 0.0, n, x, w));
      for (PetscInt i = 0; i < n; i++) xm[i] = -x[i];
      PetscCall(VCJHCorrectionLeft(N, c, n, x, gl, NULL));
      PetscCall(VCJHCorrectionLeft(N, c, n, xm, gr, NULL)); /* g_R(x) = g_L(-x) */
      PetscCall(VCJHCorrectionLeft(N, c, 2, ends, ge, NULL));
      ends[0] = 1;
      ends[1] = -1;
      PetscCall(VCJHCorrectionLeft(N, c, 2, ends, gem, NULL)); /* g_R(-1), g_R(1) */
      ends[0] = -1;
      ends[1] = 1;
      end     = PetscMax(PetscMax(PetscAbsReal(ge[0] - 1), PetscAbsReal(ge[1])), PetscMax(PetscAbsReal(gem[1] - 1), PetscAbsReal(gem[0])));
      for (PetscInt j = 0; j <= N; j++) { /* l = P_j */
        const PetscReal lN = LegendreDerivative(0.0, j, N);
        PetscReal       il = 0, ir = 0;
        for (PetscInt i = 0; i < n; i++) {
          il += w[i] * gl[i] * LegendreDerivative(x[i], j, 1);
          ir += w[i] * gr[i] * LegendreDerivative(x[i], j, 1);
        }
        vcjh = PetscMax(vcjh, PetscAbsReal(il - c * lN * TopDerivative(n, x, gl)));
        vcjh = PetscMax(vcjh, PetscAbsReal(ir - c * lN * TopDerivative(n, x, gr)));
      }
      if (t == FR_CORRECTION_SD || t == FR_CORRECTION_HU) { /* eta_N = c (2N+1) (a_N N!)^2 / 2 = N/(N+1) or (N+1)/N */
        PetscReal aNf = 1;
        for (PetscInt i = N + 1; i <= 2 * N; i++) aNf *= (PetscReal)i / 2;
        worst_eta = PetscMax(worst_eta, PetscAbsReal(c * (2 * N + 1) * aNf * aNf / 2 - (t == FR_CORRECTION_SD ? (PetscReal)N / (N + 1) : (PetscReal)(N + 1) / N)));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "N %" PetscInt_FMT " correction %s c %.6e ends %.2e vcjh %.2e\n", N, FRCorrections[t], (double)c, (double)end, (double)vcjh));
      worst_end  = PetscMax(worst_end, end);
      worst_vcjh = PetscMax(worst_vcjh, vcjh);
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "worst ends %.2e vcjh %.2e eta %.2e\n", (double)worst_end, (double)worst_vcjh, (double)worst_eta));
  PetscCall(PetscFinalize());
  return 0;
}
