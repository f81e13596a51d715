/* The hexahedron [-1,1]^3: tensor GLL nodes, tensor Legendre modes, tensor Gauss cubature, the
 * N^3 sub-hexahedra of the GLL grid. Index i + (N+1) j + (N+1)^2 k (r fastest) for nodes and
 * modes alike. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

/* Node i + (N+1) j + (N+1)^2 k at (x_i, x_j, x_k), x the N+1 GLL points. */
static PetscErrorCode HexahedronNodes(PetscInt N, PetscReal xi[])
{
  const PetscInt n = N + 1;
  PetscReal     *x, *w;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n, &x, n, &w));
  PetscCall(GaussLobattoLegendre(n, x, w));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) {
        const PetscInt m = i + n * (j + n * k);

        xi[3 * m]     = x[i];
        xi[3 * m + 1] = x[j];
        xi[3 * m + 2] = x[k];
      }
  PetscCall(PetscFree2(x, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* phi_{i + (N+1) j + (N+1)^2 k}(r,s,t) = P_i(r) P_j(s) P_k(t), P the orthonormal Legendre
 * polynomials; the 1D values and derivatives are computed once per point and direction. */
static PetscErrorCode HexahedronBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  const PetscInt n1 = N + 1, Np = n1 * n1 * n1;
  PetscReal     *Pr = dP ? dP[0] : NULL, *Ps = dP ? dP[1] : NULL, *Pt = dP ? dP[2] : NULL;
  PetscReal     *L, *dL; /* [3*n1]: direction d, degree i at d*n1 + i */

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(3 * n1, &L, 3 * n1, &dL));
  for (PetscInt q = 0; q < n; q++) {
    for (PetscInt d = 0; d < 3; d++)
      for (PetscInt i = 0; i < n1; i++) {
        L[d * n1 + i]  = JacobiP(pts[3 * q + d], 0.0, 0.0, i);
        dL[d * n1 + i] = JacobiPDerivative(pts[3 * q + d], 0.0, 0.0, i);
      }
    for (PetscInt k = 0; k < n1; k++)
      for (PetscInt j = 0; j < n1; j++)
        for (PetscInt i = 0; i < n1; i++) {
          const PetscInt  m  = q * Np + i + n1 * (j + n1 * k);
          const PetscReal lr = L[i], ls = L[n1 + j], lt = L[2 * n1 + k];

          if (P) P[m] = lr * ls * lt;
          if (Pr) Pr[m] = dL[i] * ls * lt;
          if (Ps) Ps[m] = lr * dL[n1 + j] * lt;
          if (Pt) Pt[m] = lr * ls * dL[2 * n1 + k];
        }
  }
  PetscCall(PetscFree2(L, dL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tensor n-point Gauss–Legendre, n = degree/2 + 1: exact to 2n-1 >= degree in each variable
 * (more than total degree). Point i + n j + n^2 k. */
static PetscErrorCode HexahedronCubature(PetscInt degree, PetscInt *nq_out, PetscReal **pts, PetscReal **w)
{
  const PetscInt n = degree / 2 + 1;
  PetscReal     *x, *wx;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n, &x, n, &wx));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, n, x, wx));
  *nq_out = n * n * n;
  PetscCall(PetscMalloc1(3 * n * n * n, pts));
  PetscCall(PetscMalloc1(n * n * n, w));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) {
        const PetscInt q = i + n * (j + n * k);

        (*pts)[3 * q]     = x[i];
        (*pts)[3 * q + 1] = x[j];
        (*pts)[3 * q + 2] = x[k];
        (*w)[q]           = wx[i] * wx[j] * wx[k];
      }
  PetscCall(PetscFree2(x, wx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* N^3 sub-hexahedra of the GLL grid in the shape's vertex order: the bottom face
 * counterclockwise, then the top face above it. */
static PetscErrorCode HexahedronSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  const PetscInt n1 = N + 1;
  PetscInt      *c, n = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(8 * N * N * N, &c));
  for (PetscInt k = 0; k < N; k++)
    for (PetscInt j = 0; j < N; j++)
      for (PetscInt i = 0; i < N; i++)
        for (PetscInt l = 0; l < 2; l++) {
          const PetscInt base = i + n1 * (j + n1 * (k + l));

          c[n++] = base;
          c[n++] = base + 1;
          c[n++] = base + 1 + n1;
          c[n++] = base + n1;
        }
  *nsub  = N * N * N;
  *cells = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Hexahedron = {HexahedronNodes, HexahedronBasis, HexahedronCubature, HexahedronSubCells};
