/* hoflow reference elements: polynomials, node sets, cubature and operator matrices on every
 * reference shape of hoflow/shape.h.
 *
 * Symbols used throughout hoflow:
 *   N      polynomial order (1..HOFLOW_NMAX)
 *   dim    dimension of the shape (1, 2, 3)
 *   Np     nodes per element (RefShapeNumNodes)
 *   Nfaces faces per element; Nfp[f] nodes on face f (all equal except on prisms)
 *   Nfn    face nodes of all faces together, sum_f Nfp[f]
 *   Nq     cubature points per element (exact to degree 2N+1)
 *   r, s, t reference coordinates; points are stored interleaved, pts[i*dim + d]
 *
 * Dense matrices are row-major: A[i*ncols + j].
 * Face operators use the mass matrix of the face's own reference shape (segment, triangle or
 * quadrilateral, hoflow/shape.h); a physical face of measure |F| has the surface Jacobian
 * sJ = |F| / |F_ref|, so the physical lift is (sJ/J) LIFT.
 */
#pragma once

#include <petscsys.h>
#include <hoflow/shape.h>

extern const char *const RefShapes[]; /* shape names in RefShape order */

/* What differs between shapes, one implementation per shape (ref/<shape>.c), found through
 * RefShapeGetOps. Everything else about a reference element is built from these generically. */
typedef struct {
  /* the order-N nodal set: Np points [Np*dim] */
  PetscErrorCode (*nodes)(PetscInt N, PetscReal xi[]);
  /* the orthonormal modal basis (Np modes) at n points pts[n*dim]: P[q*Np + m] and its derivatives
   * dP[d][q*Np + m]; P, dP and any dP[d] may be NULL */
  PetscErrorCode (*basis)(PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[]);
  /* a cubature rule exact to polynomial degree `degree`: nq points [nq*dim] and weights summing to
   * the shape's measure, PetscMalloc'd */
  PetscErrorCode (*cubature)(PetscInt degree, PetscInt *nq, PetscReal **pts, PetscReal **w);
  /* the sub-cells of the order-N node lattice, cells of the same shape: cells[c*nverts + v] are node
   * numbers in the shape's vertex order, nsub of them (N^dim), PetscMalloc'd */
  PetscErrorCode (*subcells)(PetscInt N, PetscInt *nsub, PetscInt **cells);
} RefShapeOps;

PETSC_EXTERN PetscErrorCode RefShapeGetOps(RefShape shape, const RefShapeOps **ops);

typedef struct {
  RefShape   shape;
  PetscInt   dim, N, Np, Nfaces, Nverts;
  PetscInt   Nfp[HOFLOW_FACES_MAX];             /* nodes on face f */
  PetscInt   face_offset[HOFLOW_FACES_MAX + 1]; /* first entry of face f in face-node arrays */
  PetscInt   Nfn;                               /* face nodes of all faces, face_offset[Nfaces] */
  PetscInt   NfpMax;                            /* the largest Nfp[f] */
  PetscReal *xi;                                /* [Np*dim] node coordinates */
  PetscInt  *face_nodes;                        /* [Nfn] node of face node i of face f: face_nodes[face_offset[f] + i] */
  PetscReal *face_xi;                           /* [Nfn*(dim-1)] face coordinates of the face nodes (dim >= 2) */
  PetscReal *V, *Vinv;                          /* [Np*Np] orthonormal modal basis at nodes (V_ij = phi_j(x_i)) and inverse */
  PetscReal *D[HOFLOW_DIM_MAX];                 /* [Np*Np] nodal derivative matrices d/dr, d/ds, d/dt */
  PetscReal *M, *Minv;                          /* [Np*Np] exact mass matrix (V V^T)^{-1} and its inverse V V^T */
  PetscReal *Mface;                             /* exact mass matrices of the faces' nodes on their reference shapes:
                                                   face f's [Nfp[f]*Nfp[f]] block starts at Mface + face_mass_offset[f] */
  PetscInt   face_mass_offset[HOFLOW_FACES_MAX];
  PetscReal *LIFT; /* [Np*Nfn] M^{-1} E, E the face mass matrices embedded */
  PetscInt   Nq;   /* cubature points */
  PetscReal *xiq;  /* [Nq*dim] cubature points */
  PetscReal *wq;   /* [Nq] weights (sum: the reference measure) */
  PetscReal *Iq;   /* [Nq*Np] interpolation from nodes to cubature points */
  /* The one-dimensional factor of shapes that are tensor products with a segment (segments,
   * quadrilaterals, hexahedra in every direction; prisms in the extruded direction t), for
   * sum-factorized kernels; N1 = 0 and NULL arrays on triangles and tetrahedra. The nodes of
   * such a shape are products of the N1 = N+1 GLL points x1 (r fastest; on prisms the triangle
   * node fastest, node m + Ntri k at t = x1[k]), so that, with I the identity,
   *   hexahedron: D[0] = I (x) I (x) D1, D[1] = I (x) D1 (x) I, D[2] = D1 (x) I (x) I,
   *               M = M1 (x) M1 (x) M1,
   *   quadrilateral: D[0] = I (x) D1, D[1] = D1 (x) I, M = M1 (x) M1,
   *   prism: D[2] = D1 (x) I_tri, M = M1 (x) M_tri,
   * A (x) B the Kronecker product (A's index the slower one), up to rounding. */
  PetscInt   N1; /* N + 1 */
  PetscReal *x1; /* [N1] GLL nodes, ascending */
  PetscReal *w1; /* [N1] GLL weights */
  PetscReal *D1; /* [N1*N1] nodal derivative on the GLL nodes, D1[i*N1 + j] = l_j'(x1_i) */
  PetscReal *M1; /* [N1*N1] exact mass matrix int l_i l_j of the GLL nodal basis (not the diagonal GLL quadrature w1) */
} RefElement;

/* Create the order-N reference element of the given shape; error for N outside 1..HOFLOW_NMAX. */
PETSC_EXTERN PetscErrorCode RefElementCreate(RefShape shape, PetscInt N, RefElement **ref);
PETSC_EXTERN PetscErrorCode RefElementDestroy(RefElement **ref);
/* interp[i*Np+j] = l_j(pts_i): interpolation from the element's nodes to n points [n*dim]. */
PETSC_EXTERN PetscErrorCode RefElementInterpolationMatrix(const RefElement *ref, PetscInt n, const PetscReal pts[], PetscReal interp[]);
/* dinterp[d][i*Np+j] = d l_j/d r_d (pts_i): derivatives of the nodal basis at n points (entries may be NULL). */
PETSC_EXTERN PetscErrorCode RefElementDerivativeMatrices(const RefElement *ref, PetscInt n, const PetscReal pts[], PetscReal *dinterp[]);
/* The sub-cells through the element's nodes (RefShapeOps.subcells): for output on sub-cells and
 * low-order-refined operators. Returns nsub and a PetscMalloc'd array the caller frees. */
PETSC_EXTERN PetscErrorCode RefElementSubCells(const RefElement *ref, PetscInt *nsub, PetscInt **cells);
/* Cubature on a reference shape exact to polynomial degree `degree`: nq points [nq*dim] and
 * weights, PetscMalloc'd arrays the caller frees. */
PETSC_EXTERN PetscErrorCode RefElementCubature(RefShape shape, PetscInt degree, PetscInt *nq, PetscReal **pts, PetscReal **wq);
/* The orthonormal modal basis of a shape (and its derivatives; any output may be NULL) at n points: [n*Np]. */
PETSC_EXTERN PetscErrorCode RefElementModalBasis(RefShape shape, PetscInt N, PetscInt n, const PetscReal pts[], PetscReal P[], PetscReal *dP[]);
/* Lebesgue constant of the nodal set, estimated on a lattice of the reference shape (for tests). */
PETSC_EXTERN PetscErrorCode RefElementLebesgueConstant(const RefElement *ref, PetscReal *lebesgue);

/* ---- polynomials (polynomials.c) ---- */
/* Orthonormal Jacobi polynomial P_n^{(alpha,beta)} on [-1,1] w.r.t. the weight (1-x)^alpha (1+x)^beta. */
PETSC_EXTERN PetscReal JacobiP(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n);
PETSC_EXTERN PetscReal JacobiPDerivative(PetscReal x, PetscReal alpha, PetscReal beta, PetscInt n);
/* The k-th derivative of the Legendre polynomial P_n (P_n(1) = 1) at x. */
PETSC_EXTERN PetscReal LegendreDerivative(PetscReal x, PetscInt n, PetscInt k);
/* n-point Gauss–Jacobi points and weights (exact to degree 2n-1), ascending. */
PETSC_EXTERN PetscErrorCode JacobiGaussQuadrature(PetscReal alpha, PetscReal beta, PetscInt n, PetscReal x[], PetscReal w[]);
/* n-point Gauss–Lobatto–Legendre points and weights (exact to degree 2n-3), ascending, n >= 2. */
PETSC_EXTERN PetscErrorCode GaussLobattoLegendre(PetscInt n, PetscReal x[], PetscReal w[]);
/* The 1D Lagrange basis of the nodes xn[n] at the points xp[m]: L[i*n + j] = l_j(xp[i]) and its derivative
 * dL[i*n + j] = l_j'(xp[i]), either may be NULL (row-major m x n: the interpolation from the nodes to the
 * points). */
PETSC_EXTERN void LagrangeMatrix1D(PetscInt n, const PetscReal xn[], PetscInt m, const PetscReal xp[], PetscReal L[], PetscReal dL[]);

/* ---- node sets (nodes.c) ---- */
/* Warp & blend nodes on the bi-unit triangle (Hesthaven & Warburton, alpha-optimized), [Np]. */
PETSC_EXTERN PetscErrorCode NodesTriangleWarpBlend(PetscInt N, PetscReal r[], PetscReal s[]);
/* Warp & blend nodes on the bi-unit tetrahedron {r,s,t >= -1, r+s+t <= -1}, [(N+1)(N+2)(N+3)/6],
 * t slowest, r fastest (the first (N+1)(N+2)/2 are the face t = -1 in triangle order). */
PETSC_EXTERN PetscErrorCode NodesTetrahedronWarpBlend(PetscInt N, PetscReal r[], PetscReal s[], PetscReal t[]);
/* The node set that NodesTetrahedronWarpBlend puts on each face of the tetrahedron, in the
 * coordinates of the bi-unit triangle and in NodesTriangleWarpBlend's order, [(N+1)(N+2)/2]: the
 * triangle construction with the tetrahedron's blending parameter, which differs from the 2D
 * triangle set from N = 4 on. The triangles of prisms carry it, so faces match tetrahedra. */
PETSC_EXTERN PetscErrorCode NodesTetrahedronFaceWarpBlend(PetscInt N, PetscReal r[], PetscReal s[]);
/* Tensor GLL nodes on the square, r fastest: node i + (N+1) j at (x_i, x_j), [(N+1)^2]. */
PETSC_EXTERN PetscErrorCode NodesQuadrilateralGLL(PetscInt N, PetscReal r[], PetscReal s[]);

/* ---- dense linear algebra (dense.c) ---- */
/* Ainv = A^{-1} (n x n, row-major), Gauss–Jordan with partial pivoting; error if singular. */
PETSC_EXTERN PetscErrorCode DenseInvert(PetscInt n, const PetscReal A[], PetscReal Ainv[]);
/* C = A B, A is m x k, B is k x n. C may not alias A or B. */
PETSC_EXTERN void DenseMatMult(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[]);
/* AT[j*rows + i] = A[i*cols + j]: the transpose of the row-major rows x cols matrix A. */
PETSC_EXTERN void DenseTranspose(PetscInt rows, PetscInt cols, const PetscReal A[], PetscReal AT[]);
/* C = A B^T, A is m x k, B is n x k. */
PETSC_EXTERN void DenseMatMultTranspose(PetscInt m, PetscInt k, PetscInt n, const PetscReal A[], const PetscReal B[], PetscReal C[]);

/* The 1D VCJH correction functions (Vincent, Castonguay & Jameson 2011, J Sci Comput 47:50-72; Huynh 2007):
 *   g_L = (-1)^N / 2 [ P_N - (eta_N P_{N-1} + P_{N+1}) / (1 + eta_N) ],   g_R(x) = g_L(-x),
 *   eta_N = c (2N+1) (a_N N!)^2 / 2,   a_N = (2N)! / (2^N (N!)^2),
 * P_k the Legendre polynomials. g_L(-1) = 1, g_L(1) = 0, and for every l of degree <= N
 *   int_{-1}^{1} g_L l' dx = c l^(N) g_L^(N+1)   (the VCJH condition; likewise g_R).
 * c = 0 gives the nodal DG scheme (g_L the right Radau polynomial), c_SD the spectral difference
 * scheme (eta_N = N/(N+1)), c_HU Huynh's g_2 (eta_N = (N+1)/N), c_+ the largest explicit step (tabulated). */
typedef enum {
  FR_CORRECTION_DG,
  FR_CORRECTION_SD,
  FR_CORRECTION_HU,
  FR_CORRECTION_PLUS
} FRCorrection;
PETSC_EXTERN const char *const FRCorrections[];
/* c of a scheme at order N (c_+: N = 1..FR_CPLUS_NMAX) */
#define FR_CPLUS_NMAX 6
PETSC_EXTERN PetscErrorCode VCJHParameter(FRCorrection type, PetscInt N, PetscReal *c);
/* the named c on triangles and tetrahedra in hoflow's simplex norm (disc/fr_dense.c), from HiFiLES's tables: N = 2..4
 * (triangles), 2..5 (tetrahedra); the source and the conversion are in ref/vcjh.c */
PETSC_EXTERN PetscErrorCode VCJHSimplexParameter(RefShape shape, FRCorrection type, PetscInt N, PetscReal *c);
/* g_L and its derivative at n points x (g or dg may be NULL); g_R(x) = g_L(-x), g_R'(x) = -g_L'(-x) */
PETSC_EXTERN PetscErrorCode VCJHCorrectionLeft(PetscInt N, PetscReal c, PetscInt n, const PetscReal x[], PetscReal g[], PetscReal dg[]);
