/* The 1D VCJH correction functions of flux reconstruction (declared in hoflow/ref.h). */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

const char *const FRCorrections[] = {"dg", "sd", "hu", "plus", "FRCorrection", "FR_CORRECTION_", NULL};

/* a_N N! = (2N)! / (2^N N!), the leading coefficient of P_N times N! */
static PetscReal VCJHLeading(PetscInt N)
{
  PetscReal a = 1;
  for (PetscInt i = N + 1; i <= 2 * N; i++) a *= (PetscReal)i / 2;
  return a;
}

/* c_+ of Vincent, Castonguay & Jameson (2011): the c of the largest stable explicit step (RK44, upwind flux,
 * linear advection), recomputed by scripts/vcjh_cplus.py (Bloch-wave analysis of the 1D scheme;
 * bench/results/cpu_2026-11-26_vcjh_cplus.txt): 1.86e-1, 3.67e-3, 4.79e-5, 4.26e-7 at N = 2..5 (the published
 * values as remembered, not checked against the paper here: 1.86e-1, 3.67e-3, 4.79e-5, 4.24e-7), steps 2.3-2.9
 * times c_DG's. At N = 1 the step grows with c without a maximum in [1e-12, 10] (none is tabulated). */
static const PetscReal VCJHCPlus[FR_CPLUS_NMAX + 1] = {0, 0, 1.8600e-01, 3.6746e-03, 4.7857e-05, 4.2592e-07, 2.7188e-09};

PetscErrorCode VCJHParameter(FRCorrection type, PetscInt N, PetscReal *c)
{
  const PetscReal aN = VCJHLeading(N);

  PetscFunctionBeginUser;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "VCJH correction functions need order N >= 1 (got %" PetscInt_FMT ")", N);
  switch (type) {
  case FR_CORRECTION_DG:
    *c = 0;
    break;
  case FR_CORRECTION_SD:
    *c = 2.0 * N / ((2 * N + 1) * (N + 1) * aN * aN);
    break;
  case FR_CORRECTION_HU:
    *c = 2.0 * (N + 1) / ((2 * N + 1) * N * aN * aN);
    break;
  case FR_CORRECTION_PLUS:
    PetscCheck(N <= FR_CPLUS_NMAX && VCJHCPlus[N] > 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "-fr_correction plus: c_+ is tabulated for N = 2..%d only (got N = %" PetscInt_FMT "; at N = 1 the stable step grows with c without a maximum: give -fr_correction sd or hu)", FR_CPLUS_NMAX, N);
    *c = VCJHCPlus[N];
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown VCJH correction %d", (int)type);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VCJHCorrectionLeft(PetscInt N, PetscReal c, PetscInt n, const PetscReal x[], PetscReal g[], PetscReal dg[])
{
  const PetscReal aN = VCJHLeading(N), eta = c * (2 * N + 1) * aN * aN / 2, sign = (N % 2) ? -0.5 : 0.5;

  PetscFunctionBeginUser;
  PetscCheck(N >= 1 && N <= HOFLOW_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "VCJH correction functions of order %" PetscInt_FMT ": 1..%d", N, HOFLOW_NMAX);
  PetscCheck(c >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The VCJH parameter c = %g must be >= 0", (double)c);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = 0; k < 2; k++) {
      PetscReal *out = k ? dg : g;
      if (!out) continue;
      out[i] = sign * (LegendreDerivative(x[i], N, k) - (eta * LegendreDerivative(x[i], N - 1, k) + LegendreDerivative(x[i], N + 1, k)) / (1 + eta));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The named VCJH parameters on triangles and tetrahedra, from HiFiLES (Castonguay, Williams, Jameson et al.'s
 * FR code, github.com/HiFiLES/HiFiLES-solver, commit 4c55159, src/funcs.cpp compute_filt_matrix_tri and
 * src/eles_tets.cpp compute_filt_matrix_tet), the implementation of Castonguay, Vincent & Jameson 2012 (J Sci
 * Comput 51:224-256, triangles) and Williams & Jameson 2014 (J Sci Comput 59:721-759, tetrahedra): c_+ of the
 * shape (the largest explicit step) is tabulated, and the "SD-like" and "HU-like" values scale it by the 1D ratio,
 * c_SD = c_+ c_SD,1D / c_+,1D, with HiFiLES's 1D c_+ (not hoflow's VCJHCPlus, recomputed for another setting).
 * HiFiLES's norm is u^T (M + K) u with u^T K u = c sum_alpha w_alpha (d^alpha u)^2 (its (1/Np) (D^alpha)^T
 * D^alpha; the N-th derivatives are constant) on the same bi-unit reference shapes with the same multinomial w;
 * hoflow's (disc/fr_dense.c) is c/2 |ref| sum_alpha w_alpha (d^alpha u)^2, so hoflow's c is 2 / |ref| times
 * HiFiLES's: the same on triangles (|ref| = 2), 3/2 of it on tetrahedra (|ref| = 4/3). The published tables
 * themselves could not be read here. */
static const PetscReal VCJHCPlusHiFiLES1D[6] = {0, 0, 0.206, 3.80e-3, 4.67e-5, 4.28e-7};
static const PetscReal VCJHCPlusTriangle[6]  = {0, 0, 3.13e-2, 4.67e-4, 6.55e-6, 0};
static const PetscReal VCJHCPlusTetrahedron[6] = {0, 0, 3.07e-2, 5.44e-4, 9.92e-6, 1.10e-7};

PetscErrorCode VCJHSimplexParameter(RefShape shape, FRCorrection type, PetscInt N, PetscReal *c)
{
  const PetscReal *table = shape == REF_TRIANGLE ? VCJHCPlusTriangle : VCJHCPlusTetrahedron;
  const PetscReal  scale = shape == REF_TRIANGLE ? 1.0 : 1.5; /* 2 / |ref| */
  PetscReal        c1d, cplus;

  PetscFunctionBeginUser;
  PetscCheck(shape == REF_TRIANGLE || shape == REF_TETRAHEDRON, PETSC_COMM_SELF, PETSC_ERR_SUP, "-fr_correction %s: named VCJH parameters exist for triangles and tetrahedra only (got %s)", FRCorrections[type], RefShapeTable[shape].name);
  if (type == FR_CORRECTION_DG) {
    *c = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(N >= 2 && N <= 5 && table[N] > 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "-fr_correction %s on %ss: tabulated (HiFiLES) for N = 2..%d only (got -order %" PetscInt_FMT "); give the parameter with -fr_c", FRCorrections[type], RefShapeTable[shape].name, shape == REF_TRIANGLE ? 4 : 5, N);
  cplus = table[N];
  switch (type) {
  case FR_CORRECTION_PLUS:
    *c = scale * cplus;
    break;
  default: /* sd, hu: the 1D ratio */
    PetscCall(VCJHParameter(type, N, &c1d));
    *c = scale * cplus * c1d / VCJHCPlusHiFiLES1D[N];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
