/* hoflow reference elements: polynomials, node sets, quadrature and operator matrices.
 *
 * Symbols used throughout hoflow:
 *   N      polynomial order (1..HOFLOW_NMAX)
 *   Np     nodes per element: (N+1)(N+2)/2 on the triangle, (N+1)^2 on the quadrilateral
 *   Nfp    nodes per face: N+1
 *   Nfaces faces per element: 3 (triangle), 4 (quadrilateral)
 *   Nq     cubature points per element (exact to degree 2N+1)
 *   r, s   reference coordinates
 *
 * Reference elements: the bi-unit triangle {r,s >= -1, r+s <= 0} with vertices
 * (-1,-1), (1,-1), (-1,1); the bi-unit square [-1,1]^2 with vertices (-1,-1), (1,-1),
 * (1,1), (-1,1). Faces are numbered by their first vertex (face f joins vertex f and
 * vertex f+1 mod Nverts), and face nodes are listed in that direction (counterclockwise).
 *
 * Dense matrices are row-major: A[i*ncols + j].
 * Face operators use the 1D mass matrix of the face on [-1,1]; a physical face of length
 * |F| has surface Jacobian sJ = |F|/2, so the physical lift is (sJ/J) LIFT.
 */
#pragma once

#include <petscsys.h>
#include <hoflow/kernels.h> /* HOFLOW_NMAX */

typedef enum {
  REF_TRIANGLE      = 0,
  REF_QUADRILATERAL = 1
} RefShape;

extern const char *const RefShapes[]; /* "triangle", "quadrilateral" */

typedef struct {
  RefShape   shape;
  PetscInt   N, Np, Nfp, Nfaces, Nverts;
  PetscReal *r, *s;        /* [Np] node coordinates */
  PetscInt  *face_nodes;   /* [Nfaces*Nfp] node index of face node i of face f: face_nodes[f*Nfp+i] */
  PetscReal *V, *Vinv;     /* [Np*Np] orthonormal modal basis at nodes (V_ij = phi_j(x_i)) and inverse */
  PetscReal *Dr, *Ds;      /* [Np*Np] nodal derivative matrices */
  PetscReal *M, *Minv;     /* [Np*Np] exact mass matrix (V V^T)^{-1} and its inverse V V^T */
  PetscReal *Mface;        /* [Nfp*Nfp] exact 1D mass matrix of the face nodes on [-1,1] */
  PetscReal *LIFT;         /* [Np*(Nfaces*Nfp)] M^{-1} E, E the face mass matrices embedded */
  PetscInt   Nq;           /* cubature points */
  PetscReal *rq, *sq, *wq; /* [Nq] cubature points and weights (weights sum to the area: 2 or 4) */
  PetscReal *Iq;           /* [Nq*Np] interpolation from nodes to cubature points */
} RefElement;

/* Create the order-N reference element of the given shape; error for N outside 1..HOFLOW_NMAX. */
PETSC_EXTERN PetscErrorCode RefElementCreate(RefShape shape, PetscInt N, RefElement **ref);
PETSC_EXTERN PetscErrorCode RefElementDestroy(RefElement **ref);
/* interp[i*Np+j] = l_j(rp_i, sp_i): interpolation from the element's nodes to n arbitrary points. */
PETSC_EXTERN PetscErrorCode RefElementInterpolationMatrix(const RefElement *ref, PetscInt n, const PetscReal rp[], const PetscReal sp[], PetscReal interp[]);
/* The sub-cells through the element's nodes: N^2 sub-triangles (the node lattice of the
 * triangle) or N^2 sub-quadrilaterals (the GLL tensor grid), each listed by its node indices
 * counterclockwise: cells[c*Nverts + v]. For output on sub-cells and low-order-refined operators.
 * Returns nsub and a PetscMalloc'd array the caller frees. */
PETSC_EXTERN PetscErrorCode RefElementSubCells(const RefElement *ref, PetscInt *nsub, PetscInt **cells);
/* Cubature on the reference shape exact to polynomial degree `degree` (collapsed Gauss–Jacobi on the
 * triangle, tensor Gauss on the square): nq points and weights, PetscMalloc'd arrays the caller frees. */
PETSC_EXTERN PetscErrorCode RefElementCubature(RefShape shape, PetscInt degree, PetscInt *nq, PetscReal **rq, PetscReal **sq, PetscReal **wq);
/* Evaluate the orthonormal modal basis (and its r,s derivatives; any output may be NULL) at n points: [n*Np]. */
PETSC_EXTERN PetscErrorCode RefElementModalBasis(RefShape shape, PetscInt N, PetscInt n, const PetscReal rp[], const PetscReal sp[], PetscReal P[], PetscReal Pr[], PetscReal Ps[]);

/* ---- polynomials (polynomials.c) ---- */
/* Orthonormal Jacobi polynomial P_n^{(alpha,beta)} on [-1,1] w.r.t. the weight (1-x)^alpha (1+x)^beta. */
PETSC_EXTERN PetscReal JacobiP(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n);
PETSC_EXTERN PetscReal JacobiPDerivative(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n);
/* n-point Gauss–Jacobi points and weights (exact to degree 2n-1), ascending. */
PETSC_EXTERN PetscErrorCode JacobiGaussQuadrature(PetscReal alpha, PetscReal beta, PetscInt n, PetscReal x[], PetscReal w[]);
/* n-point Gauss–Lobatto–Legendre points and weights (exact to degree 2n-3), ascending, n >= 2. */
PETSC_EXTERN PetscErrorCode GaussLobattoLegendre(PetscInt n, PetscReal x[], PetscReal w[]);

/* ---- node sets (nodes.c) ---- */
/* Warp & blend nodes on the bi-unit triangle (Hesthaven & Warburton, alpha-optimized), [Np]. */
PETSC_EXTERN PetscErrorCode NodesTriangleWarpBlend(PetscInt N, PetscReal r[], PetscReal s[]);
/* Warp & blend nodes on the bi-unit tetrahedron {r,s,t >= -1, r+s+t <= -1}, [(N+1)(N+2)(N+3)/6]. */
PETSC_EXTERN PetscErrorCode NodesTetrahedronWarpBlend(PetscInt N, PetscReal r[], PetscReal s[], PetscReal t[]);
/* Tensor GLL nodes on the square, r fastest: node i + (N+1) j at (x_i, x_j), [(N+1)^2]. */
PETSC_EXTERN PetscErrorCode NodesQuadrilateralGLL(PetscInt N, PetscReal r[], PetscReal s[]);
/* Lebesgue constant of the nodal set, estimated on a fine lattice (for tests). */
PETSC_EXTERN PetscErrorCode RefElementLebesgueConstant(const RefElement *ref, PetscReal *lebesgue);

/* ---- dense linear algebra (dense.c) ---- */
/* Ainv = A^{-1} (n x n, row-major), Gauss–Jordan with partial pivoting; error if singular. */
PETSC_EXTERN PetscErrorCode DenseInvert(PetscInt n, const PetscReal A[], PetscReal Ainv[]);
/* C = A B, A is m x k, B is k x n. C may not alias A or B. */
PETSC_EXTERN void DenseMatMult(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[]);
/* AT[j*rows + i] = A[i*cols + j]: the transpose of the row-major rows x cols matrix A. */
PETSC_EXTERN void DenseTranspose(PetscInt rows, PetscInt cols, const PetscReal A[], PetscReal AT[]);
/* C = A B^T, A is m x k, B is n x k. */
PETSC_EXTERN void DenseMatMultTranspose(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[]);
