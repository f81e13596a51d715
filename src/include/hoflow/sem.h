/* Continuous spectral elements (-disc sem, issue 18): continuous Q_N, N = 1..HOFLOW_NMAX, with the GLL
 * nodes of hoflow/ref.h on quadrilateral and hexahedral meshes, affine or curved.
 *
 * Numbering. The DM is the mesh's DMPlex with a PetscSection of 1 dof per vertex, N-1 per edge,
 * (N-1)^2 per face (3D) and (N-1)^dim per cell, so the global vector, the local (ghosted) vector and
 * their exchange are PETSc's (DMGlobalToLocal / DMLocalToGlobal through the DM's point SF). Each
 * element node (multi-index i0, i1[, i2] of the tensor GLL grid) lies on one point of the cell's
 * closure; its place among that point's dofs is fixed by the point's own frame, made from the global
 * vertex numbers (mesh->vertex_gid) so that every element and every rank sees the same frame: an edge
 * runs from its smaller to its larger vertex number; a face starts at its smallest vertex and runs
 * first towards the smaller of that vertex's two face neighbours. gather[e*Np + i] is the local dof
 * of node i of owned element e (the element restriction).
 *
 * Geometry: x and dx/dr at the GLL nodes, from the affine map of the vertices or the mesh's curved map
 * (MeshCurvedElementMap), give the collocated factors G_ab = w J (dr_a/dx).(dr_b/dx) and wJ
 * (hoflow/kernels/sem.h). The mass matrix is the collocated (diagonal) GLL mass; right-hand sides
 * use the same rule, so DiscProject is the nodal interpolant; L2 errors use a Gauss rule of N + 3
 * points a direction.
 *
 * Boundary conditions (op/sem.c): Dirichlet dofs (the closure of Dirichlet faces, made consistent
 * across ranks) get identity rows and columns, and the boundary data lift them: b_D = g, b_I -= A_ID g;
 * Neumann data enter naturally as the face integral of n.grad g. */
#pragma once

#include <hoflow/disc.h>
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/sem_stokes.h>

typedef struct {
  Mesh             *mesh;
  DM                dm;
  RefElement       *ref; /* the order-N quadrilateral or hexahedron (GLL nodes x1, w1, D1) */
  RefShape          shape;
  PetscInt          dim, N, N1, Np, K;
  PetscInt          ncomp;                                                   /* components per node, interlaced (a velocity: dim); gather gives component 0 */
  PetscInt          nlocal;                                                  /* dofs of the local (ghosted) vector */
  PetscBool         local_is_global;                                         /* on every rank the local layout is the global one (one rank): no exchange */
  PetscInt         *gather;                                                  /* [K*Np] local dof of element node */
  PetscInt         *gdof;                                                    /* [K*Np] global dof of element node */
  PetscReal        *x;                                                       /* [K*Np*dim] coordinates of the element nodes (the output points) */
  PetscInt         *elem_point;                                              /* [K+1] e*Np: element e's first output point */
  PetscReal        *G, *wJ;                                                  /* geometric factors at the element nodes (hoflow/kernels/sem.h) */
  PetscReal        *affine;                                                  /* [K*(npair+1)] per element J, (dr_a/dx).(dr_b/dx) where no element of the rank is curved (the CUDA kernel's); else NULL */
  PetscReal        *D1T;                                                     /* [N1*N1] */
  PetscInt          face_dir[HOFLOW_FACES_MAX], face_side[HOFLOW_FACES_MAX]; /* reference face f is i_dir = side (0 or N) */
  PetscBool         has_curved;                                              /* curved elements on this rank: curved_table holds their map at the GLL nodes */
  MeshGeometryTable curved_table;
  Vec               mass;    /* the diagonal GLL mass, global */
  Vec               work[2]; /* local work vectors */
  SEMKernelData     kd;      /* lambda = 0; operators copy it */
} SEMDisc;

/* The SEM data of a Disc of type sem (disc/sem.c); DiscCreate_SEM (op/sem.c) adds its operators. */
PETSC_EXTERN PetscErrorCode SEMDiscSetUp(Disc disc);
PETSC_EXTERN PetscErrorCode DiscCreate_SEM(Disc disc);
/* The SEM data of a Disc, or an error naming `what` for another discretization. */
PETSC_EXTERN PetscErrorCode DiscGetSEM(Disc disc, const char what[], SEMDisc **sem);
/* The element map at a set of points: x[n*dim] and dx/dr (jac[(q*dim + i)*dim + d] = dx_i/dr_d; either may be
 * NULL) of owned element e at the reference points xi[n*dim]: the mesh's curved map through tab (a
 * MeshGeometryTableCreate of the same points; read on curved elements only, NULL where the mesh has none) or
 * the affine map of the element's vertices. One map for the GLL nodes, the Stokes pair's Gauss points and the
 * error's Gauss rule. */
PETSC_EXTERN PetscErrorCode SEMElementMap(const SEMDisc *sem, const MeshGeometryTable *tab, PetscInt n, const PetscReal xi[], PetscInt e, PetscReal x[], PetscReal jac[]);
/* The same at the element's GLL nodes (the table the SEMDisc holds). */
PETSC_EXTERN PetscErrorCode SEMDiscElementGeometry(SEMDisc *sem, PetscInt e, PetscReal x[], PetscReal jac[]);
/* mask[nlocal] (PetscMalloc'd): 1 at the local dofs on faces of type HOFLOW_FACE_DIRICHLET in
 * face_type[nslots], on every rank that holds them; and the owned ones as global rows (rows, n). */
PETSC_EXTERN PetscErrorCode SEMDiscDirichletDofs(SEMDisc *sem, const PetscInt face_type[], char **mask, PetscInt *n, PetscInt **rows);

/* u = the nodal interpolant of a function of ncomp components f(x, values[ncomp], ctx). */
typedef PetscErrorCode (*SEMVectorFunction)(const PetscReal x[], PetscReal values[], void *ctx);
PETSC_EXTERN PetscErrorCode SEMDiscInterpolate(SEMDisc *sem, SEMVectorFunction f, void *ctx, Vec u);

/* The pressure space of a Stokes pair (disc/sem_pressure.c; N >= 2), -stokes_pair:
 *  taylor_hood  continuous Q_{N-1} on its own GLL nodes (a scalar SEM layout of order N - 1 on the same
 *               mesh, `space`), the pair of seed 001 (velocity rate N + 1, pressure N); the divergence is
 *               integrated with Nq = N + 1 Gauss points a direction, exact for q div v on affine,
 *               bilinear and trilinear cells (so B^T 1 vanishes off the boundary there);
 *  qn_qn2       discontinuous Q_{N-2} whose (N-1)^dim nodes are the tensor Gauss points of each element
 *               (dofs of the cells of its own DM), collocated: Nq = N - 1 (velocity rate N, pressure N - 1).
 * At the Nq^dim quadrature points: wJ and dr/dx (hoflow/geom.h layout g[j*dim + d] = dr_d/dx_j) and x.
 * Bgl, Dgl (Nq x N1) interpolate and differentiate the velocity's GLL basis at the points; Bpq (Nq x Np1,
 * Taylor–Hood only) interpolates the pressure's GLL basis there. */
typedef enum {
  SEM_STOKES_TAYLOR_HOOD,
  SEM_STOKES_QN_QN2
} SEMStokesPair;
PETSC_EXTERN const char *const SEMStokesPairNames[];
typedef struct {
  SEMDisc      *velocity;
  SEMStokesPair pair;
  Disc          space;      /* Taylor–Hood: the continuous scalar Q_{N-1} field (its SEMDisc is `continuous`) */
  SEMDisc      *continuous; /* NULL for qn_qn2 */
  DM            dm;         /* the pressure's layout */
  PetscInt      Ng, Npp;    /* quadrature points a direction and per cell (Nq and Nq^dim) */
  PetscInt      Np1, Npe;   /* pressure nodes a direction and per cell (Np1 = Ng for qn_qn2) */
  PetscInt     *offset;     /* qn_qn2: [K] local offset of element e's pressure values */
  PetscReal    *xg, *wg;    /* [Ng] Gauss-Legendre points and weights */
  PetscReal    *xp;         /* [Np1] the pressure's 1D nodes (xg, or the GLL nodes of order N - 1) */
  PetscReal    *Bgl, *Dgl, *BglT, *DglT;
  PetscReal    *Bpq, *BpqT; /* [Ng*Np1] Taylor–Hood; NULL for qn_qn2 (collocated) */
  PetscReal    *wJ, *g;     /* [K*Npp], [K*Npp*dim*dim] */
  PetscReal    *x;          /* [K*Npp*dim] the points */
  PetscReal    *affine;     /* [K*(1 + dim*dim)] J and g of each element where the velocity's factors are affine (the CUDA kernels'); else NULL */
  SEMStokesKernelData kd;   /* the host kernels' data (hoflow/kernels/sem_stokes.h) */
} SEMPressure;
/* -stokes_pair (taylor_hood, the default, or qn_qn2), checked with a message naming the option. */
PETSC_EXTERN PetscErrorCode SEMStokesPairFromOptions(MPI_Comm comm, SEMStokesPair *pair);
PETSC_EXTERN PetscErrorCode SEMPressureCreate(SEMDisc *velocity, SEMStokesPair pair, SEMPressure **p);
PETSC_EXTERN PetscErrorCode SEMPressureDestroy(SEMPressure **p);
/* The diagonal pressure mass (global vector of p->dm): w J at the Gauss nodes (qn_qn2) or the GLL mass of
 * the Q_{N-1} layout (Taylor–Hood), both spectrally equivalent to the exact mass (seed 001 §5.1). */
PETSC_EXTERN PetscErrorCode SEMPressureMass(SEMPressure *p, Vec mass);
/* The pressure values of element e (Npe of them, the pressure's tensor node order) from a local array. */
PETSC_EXTERN void SEMPressureElementValues(const SEMPressure *p, const PetscScalar *local, PetscInt e, PetscReal pe[]);
/* The divergence B: velocity (a SEMDisc of dim components) -> pressure, (B u)_i = sum_q l_i(x_q) w_q J_q
 * (div u)(x_q) (the Gauss rule of the pair; l_i = delta_iq for qn_qn2), as a MatShell with MatMultTranspose the gradient G = B^T
 * (op/sem_stokes.c). With face_type[nslots] (NULL: none), the velocity dofs of its Dirichlet faces are left
 * out: columns of B, rows of G, as the Stokes system on the free velocity dofs needs. Both run on the backend of
 * their vectors (CUDA vectors: cuda/sem_stokes.cu, no copy to the host). */
PETSC_EXTERN PetscErrorCode SEMDivergenceCreate(SEMPressure *p, const PetscInt face_type[], Mat *B);
/* The consistent mass of the Taylor-Hood pressure (Q_{N-1} on its GLL nodes) under the pair's N + 1 Gauss
 * points, as a MatShell (op/sem_stokes.c): what the lumped GLL mass (SEMPressureMass) approximates. */
PETSC_EXTERN PetscErrorCode SEMPressureMassCreate(SEMPressure *p, Mat *M);

/* L2 errors (disc/sem_norms.c) with the Gauss rule of N + 3 points a direction: of a velocity of ncomp
 * components against f (sqrt of the sum over components), and of a pressure against the first value of
 * f, with the means of both removed when mean_free (a pressure fixed up to a constant). */
PETSC_EXTERN PetscErrorCode SEMDiscL2ErrorVector(SEMDisc *sem, Vec u, SEMVectorFunction f, void *ctx, PetscReal *error);
PETSC_EXTERN PetscErrorCode SEMPressureL2Error(SEMPressure *p, Vec ph, SEMVectorFunction f, void *ctx, PetscBool mean_free, PetscReal *error);

/* Operators (op/sem.c): the MatShells of create_mass and create_elliptic (on ncomp components: the
 * vector Laplacian, component by component), and -pmat lor for them:
 * Q1 on the GLL sub-mesh of every element, assembled (AIJ), Dirichlet rows and columns identity. */
PETSC_EXTERN PetscErrorCode SEMOperatorCreate(SEMDisc *sem, PetscReal lambda, const PetscInt face_type[], Mat *A);
PETSC_EXTERN PetscErrorCode SEMOperatorAssembleLOR(Mat A, Mat *P);
