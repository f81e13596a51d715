/* The segment [-1, 1]: GLL nodes, orthonormal Legendre modes, Gauss cubature. The faces of 2D
 * elements and the factors of tensor-product shapes. */
#include <hoflow/compat.h>
#include <hoflow/ref.h>

static PetscErrorCode SegmentNodes(PetscInt N, PetscReal xi[])
{
  PetscReal *w;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N + 1, &w));
  PetscCall(GaussLobattoLegendre(N + 1, xi, w));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* phi_i(r) = P_i^{(0,0)}(r), orthonormal on [-1, 1]. */
static PetscErrorCode SegmentBasis(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[])
{
  PetscFunctionBeginUser;
  for (PetscInt q = 0; q < n; q++)
    for (PetscInt i = 0; i <= N; i++) {
      if (P) P[q * (N + 1) + i] = JacobiP(pts[q], 0.0, 0.0, i);
      if (dP && dP[0]) dP[0][q * (N + 1) + i] = JacobiPDerivative(pts[q], 0.0, 0.0, i);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n-point Gauss–Legendre, n = degree/2 + 1 (exact to 2n - 1 >= degree). */
static PetscErrorCode SegmentCubature(PetscInt degree, PetscInt *nq, PetscReal **pts, PetscReal **w)
{
  PetscFunctionBeginUser;
  *nq = degree / 2 + 1;
  PetscCall(PetscMalloc1(*nq, pts));
  PetscCall(PetscMalloc1(*nq, w));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, *nq, *pts, *w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SegmentSubCells(PetscInt N, PetscInt *nsub, PetscInt **cells)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * N, cells));
  for (PetscInt i = 0; i < N; i++) {
    (*cells)[2 * i]     = i;
    (*cells)[2 * i + 1] = i + 1;
  }
  *nsub = N;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const RefShapeOps RefShapeOps_Segment = {SegmentNodes, SegmentBasis, SegmentCubature, SegmentSubCells};
