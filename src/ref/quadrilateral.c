/* The quadrilateral [-1,1]^2: tensor GLL nodes, tensor Legendre modes, tensor Gauss cubature. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

static PetscErrorCode QuadrilateralNodes(PetscInt N, PetscReal xi[])
{
  const PetscInt Np = (N + 1) * (N + 1);
  PetscReal     *r, *s;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(Np, &r, Np, &s));
  PetscCall(NodesQuadrilateralGLL(N, r, s));
  for (PetscInt i = 0; i < Np; i++) {
    xi[2 * i]     = r[i];
    xi[2 * i + 1] = s[i];
  }
  PetscCall(PetscFree2(r, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* phi_{i+(N+1)j}(r,s) = P_i^{(0,0)}(r) P_j^{(0,0)}(s), 0 <= i,j <= N. */
static PetscErrorCode QuadrilateralBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const PetscInt Np = (N + 1) * (N + 1);
  PetscReal     *Pr = dP ? dP[0] : NULL, *Ps = dP ? dP[1] : NULL;

  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < n; q++) {
    const PetscReal r = pts[2 * q], s = pts[2 * q + 1];
    for (PetscInt j = 0; j <= N; j++) {
      const PetscReal ps = JacobiP(s, 0.0, 0.0, j), dps = JacobiPDerivative(s, 0.0, 0.0, j);

      for (PetscInt i = 0; i <= N; i++) {
        const PetscInt  m  = i + (N + 1) * j;
        const PetscReal pr = JacobiP(r, 0.0, 0.0, i), dpr = JacobiPDerivative(r, 0.0, 0.0, i);

        if (P) P[q * Np + m] = pr * ps;
        if (Pr) Pr[q * Np + m] = dpr * ps;
        if (Ps) Ps[q * Np + m] = pr * dps;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tensor n-point Gauss–Legendre, n = ceil((degree+1)/2): exact to 2n-1 per direction. */
static PetscErrorCode QuadrilateralCubature(PetscInt degree, PetscInt *nq_out, PetscReal **pts, PetscReal **w)
{
  const PetscInt nq = degree / 2 + 1;
  PetscReal     *x, *wx;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(nq, &x, nq, &wx));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, nq, x, wx));
  *nq_out = nq * nq;
  PetscCall(PetscMalloc1(2 * nq * nq, pts));
  PetscCall(PetscMalloc1(nq * nq, w));
  for (PetscInt j = 0; j < nq; j++)
    for (PetscInt i = 0; i < nq; i++) {
      const PetscInt q  = i + nq * j;
      (*pts)[2 * q]     = x[i];
      (*pts)[2 * q + 1] = x[j];
      (*w)[q]           = wx[i] * wx[j];
    }
  PetscCall(PetscFree2(x, wx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* N^2 sub-quadrilaterals of the GLL grid, counterclockwise. */
static PetscErrorCode QuadrilateralSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  PetscInt *c, n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(4 * N * N, &c));
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < N; i++) {
      c[n++] = j * (N + 1) + i;
      c[n++] = j * (N + 1) + i + 1;
      c[n++] = (j + 1) * (N + 1) + i + 1;
      c[n++] = (j + 1) * (N + 1) + i;
    }
  *nsub  = N * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Quadrilateral = {QuadrilateralNodes, QuadrilateralBasis, QuadrilateralCubature, QuadrilateralSubCells};
