/* hoflow nodal discontinuous Galerkin (the family behind -disc ipdg): Np nodes per element, node-major
 * within an element, elements in the mesh's storage order (hoflow/mesh.h), described to PETSc by a
 * PetscSection on a clone of the mesh DM whose storage follows that order. One DGBlock per element
 * shape of the mesh holds its reference element and where its nodes and face nodes start.
 *
 * This is the family interface of nodal DG operators (op/ipdg.c, op/mass.c, op/ins.c, op/lor.c,
 * op/transfer.c) and preconditioners (solver/); everything else uses the generic Disc (hoflow/disc.h). */
#pragma once

#include <hoflow/disc.h>
#include <hoflow/opshell.h>
#include <hoflow/kernels/dg.h>

/* The data of a block of curved elements at this discretization's order (layouts of
 * hoflow/kernels/ipdg_curved.h): metric terms at the nodes, factors at the cubature and face points,
 * and the reference tables they are used with. Built from the mesh's geometry nodes (MeshCurvedElementMap). */
typedef struct {
  PetscInt   Nq;                                                             /* the reference element's cubature (degree 2N+1) */
  PetscReal *Dq[HOFLOW_DIM_MAX];                                             /* [Nq*Np] derivatives of the nodal basis at the cubature points */
  PetscInt   Nfq[HOFLOW_FACES_MAX], fq_offset[HOFLOW_FACES_MAX + 1], NfqMax; /* face cubature points (degree 2N+1) */
  PetscReal *If;                                                             /* face interpolation matrices, face nodes to face points */
  PetscInt   if_offset[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];          /* face f in orientation o at If + if_offset[f][o] */
  PetscReal *Gn;                                                             /* [(K + Khalo)*Np*dim*dim] dr/dx at the nodes, owned then halo elements */
  PetscReal *vq;                                                             /* [K*Nq*(dim(dim+1)/2 + 1)] w J G G^T (upper triangle) and w J at the cubature points */
  PetscReal *wJq;                                                            /* [K*Nq] w J at the cubature points */
  PetscReal *xq;                                                             /* [K*Nq*dim] the cubature points */
  PetscReal *fq;                                                             /* [K*fq_offset[Nfaces]*(dim+1)] unit outward normal and w sJ at the face points */
  PetscInt  *fperm;                                                          /* [K*Nfaces] canonical orientation of each face (MeshFaceOrientation) */
  PetscReal *Minve;                                                          /* [K*Np*Np] inverse element mass matrices, built by the first inverse-mass operator */
} DGCurved;

typedef struct {
  RefElement  *ref;
  PetscBool    curved; /* a block of curved elements (cv holds their data) */
  DGCurved    *cv;
  PetscInt     Np, Nfn, Nfaces;
  PetscInt     node0, halo_node0; /* node index of the block's first owned and first halo element */
  PetscInt     fnode0;            /* face-node slot of the block's first owned element */
  PetscInt     slot0;             /* face slot of the block's first owned element */
  PetscInt    *node_face;         /* [Nfn] face of each face node */
  DGKernelData kd, kd_device;     /* element-wise kernels (mass, integrals, errors) on host and device */
  PetscReal   *tensor1;           /* quadrilaterals and hexahedra: the 1D factors of kd (M1, M1inv, B1, B1T) */
  const void  *closed_Aq_device;  /* closed forms on the device: the affine cubature weights and the block's vertices, */
  const void  *vertices_device;   /* uploaded at the first such call into the shell's registry (freed with it) */
} DGBlock;

typedef struct {
  Disc        disc; /* the generic object this is the data of */
  Mesh       *mesh;
  DM          dm;
  PetscInt    N, dim, nblocks;
  DGBlock     blocks[MESH_MAX_BLOCKS];
  RefElement *ref;                /* the reference element when the mesh has one shape (else NULL) */
  PetscInt    Np;                 /* its nodes (else 0) */
  PetscInt    nodes, nodes_local; /* nodes of owned elements, of all local elements */
  PetscInt   *elem_node;          /* [Klocal+1] first node of element l */
  PetscInt   *elem_fnode;         /* [K+1] first face-node slot of owned element e */
  PetscReal  *x;                  /* [nodes_local*dim] node coordinates; NULL until DGDiscGetNodeCoordinates where no block is curved */
  PetscInt   *vmapP;              /* [elem_fnode[K]] local node of the exterior trace (the node itself on the boundary) */
  PetscReal  *sgeo;               /* [mesh->nslots*HOFLOW_SGEO_SIZE(dim)] n, sJ/J, tau */
  PetscReal   penalty_scale;
  OpShell     shell; /* device copies of the element-wise kernel data, shared by mass, integrals and errors */
} DGDisc;

/* The nodal DG data of a Disc; an error naming `what` (the operation that needs nodal DG) for any other type. */
PETSC_EXTERN PetscErrorCode DiscGetDG(Disc disc, const char what[], DGDisc **dg);
/* The nodal DG data of a Disc of type ipdg (disc/dg.c); DiscCreate_NodalDG (op/nodal_dg.c) adds its operators. */
PETSC_EXTERN PetscErrorCode DGDiscSetUp(Disc disc);
PETSC_EXTERN PetscErrorCode DiscCreate_NodalDG(Disc disc);
/* A nodal DG discretization of another order on the same mesh (p-multigrid levels), standalone. */
PETSC_EXTERN PetscErrorCode DGDiscCreate(Mesh *mesh, PetscInt N, Disc *disc);
/* The node coordinates [nodes_local*dim] (dg->x), built on first use on meshes without curved blocks. */
PETSC_EXTERN PetscErrorCode DGDiscGetNodeCoordinates(DGDisc *dg, const PetscReal **x);
/* The single reference element of a one-shape mesh; an error naming `what` when the mesh mixes shapes. */
PETSC_EXTERN PetscErrorCode DGDiscGetUniformRef(DGDisc *dg, const char what[], RefElement **ref);
/* Boundary data at face nodes [elem_fnode[K]]: f's value on Dirichlet faces, n.grad f on Neumann faces
 * (face_type: [nslots] HOFLOW_FACE_*; NULL: the mesh's). */
PETSC_EXTERN PetscErrorCode DGDiscBoundaryData(DGDisc *dg, const PetscInt face_type[], PointFunction f, void *ctx, PetscReal **bc_data);
/* The inverse element mass matrices of the curved blocks (DGCurved.Minve), built once. */
PETSC_EXTERN PetscErrorCode DGDiscCurvedInverseMass(DGDisc *dg);
/* grad l_j at node m of local element l (affine or curved): g[j*dim + x] for the Np basis functions j. */
PETSC_EXTERN void DGDiscNodeBasisGradients(const DGDisc *dg, PetscInt l, PetscInt m, PetscReal g[]);
/* The SIPDG penalty constant C_N of a shape (eq. 14: the trace-inverse constant). */
PETSC_EXTERN PetscReal DGPenaltyConstant(RefShape shape, PetscInt N);

/* ---- nodal DG operators (src/op) ---- */
/* The DG mass matrix (block diagonal, J M per element) or its inverse as a MatShell. */
PETSC_EXTERN PetscErrorCode DGMassOperatorCreate(DGDisc *dg, PetscBool inverse, Mat *M);
/* The SIPDG operator A = -Laplace + lambda of seed 000, eqs. (23), (28), with the boundary conditions of
 * each face slot given per operator (face_type[nslots], HOFLOW_FACE_*; NULL: the mesh's), e.g. the pressure
 * of incompressible flow, Dirichlet where the velocity is Neumann. The array is copied. */
PETSC_EXTERN PetscErrorCode IPDGOperatorCreate(DGDisc *dg, PetscReal lambda, const PetscInt face_type[], Mat *A);
/* The boundary conditions of a SIPDG operator: [nslots] HOFLOW_FACE_* (owned by the operator). */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetFaceTypes(Mat A, const PetscInt **face_type);
/* The discretization behind a SIPDG operator; error if A is not one (names what it is). */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetDisc(Mat A, DGDisc **dg);
/* b -= A_bc(bc): boundary data at face nodes [elem_fnode[K]] (DGDiscBoundaryData) moved to the right-hand side. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAddBoundaryData(Mat A, const PetscReal bc_data[], Vec b);
/* The same with the face data in a sequential vector ([elem_fnode[K]], e.g. INSOpsCreateFaceVector) on the
 * backend of b: the boundary data of a solve moved to the right-hand side without leaving the device. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAddBoundaryDataVec(Mat A, Vec bc, Vec b);
/* Seconds per application of the gradient and apply kernels, averaged over reps, on the backend x lives on. */
PETSC_EXTERN PetscErrorCode IPDGOperatorTimeKernels(Mat A, Vec x, PetscInt reps, PetscReal *t_gradient, PetscReal *t_apply);
/* Time reps halo exchanges alone (each followed by a device synchronization) and reps products back to back
 * (one synchronization at the end), in seconds a call on this rank (halo_bench). */
PETSC_EXTERN PetscErrorCode IPDGOperatorTimeExchange(Mat A, Vec x, PetscInt reps, PetscReal *t_exchange, PetscReal *t_mult);
/* The screening constant lambda of a SIPDG operator. */
PETSC_EXTERN PetscErrorCode IPDGOperatorGetLambda(Mat A, PetscReal *lambda);
/* The same operator assembled independently from the SIPDG bilinear form (MatSetValuesCOO) into an AIJ
 * matrix, AIJCUSPARSE when the vectors are CUDA vectors; options prefix ipdg_assembled_. The operator's
 * null space, if any, is attached to it. */
PETSC_EXTERN PetscErrorCode IPDGOperatorAssemble(Mat A, Mat *assembled);
/* The triplets (global row, global column, value; rows of this rank's elements, PetscFree3 them) of that
 * assembly; without interior_faces only the volume and Dirichlet-face terms, which are the whole form on
 * fields without jumps (the continuous order-1 space of op/cg1.c). */
PETSC_EXTERN PetscErrorCode IPDGOperatorAssembleTriplets(Mat A, PetscBool interior_faces, PetscCount *ncoo, PetscInt **coo_i, PetscInt **coo_j, PetscScalar **vals);
/* The continuous order-1 space of the mesh (op/cg1.c; pMG's -pc_pmg_coarse_space cg1): one unknown per
 * mesh vertex (P1 on simplices, Q1 on quadrilaterals and hexahedra, P1 x Q1 on prisms), owned by the
 * vertex's owner in the DMPlex point SF. For an order-1 SIPDG operator A: P, the injection into its DG
 * space (each DG node takes its vertex's value; DG rows x vertex columns, AIJ or AIJCUSPARSE by vector
 * type), and Acg = P^T A P, assembled from element and Dirichlet-face matrices (CG1_MATRIX_DIRECT) or
 * as the product of the assembled A (CG1_MATRIX_GALERKIN, MatPtAP); options prefix cg1_. */
typedef enum {
  CG1_MATRIX_DIRECT,
  CG1_MATRIX_GALERKIN
} CG1MatrixType;
PETSC_EXTERN const char *const CG1MatrixTypes[];
PETSC_EXTERN PetscErrorCode    CG1CoarseSpaceCreate(Mat A, CG1MatrixType type, Mat *P, Mat *Acg);
/* P's replacement at PCMG's coarsest interpolation when the coarse level is solved gathered on several ranks
 * (op/cg1_transfer.c): the restriction sums into the gather PC's full input vector with one broadcast of partial
 * sums (CUDA IPC where taken), the interpolation reads its full output, no communication; P (referenced) does
 * anything else. The coarse solve is reached through these callbacks (pc: referenced; solver/pc_gather.c's
 * PCGatherGetFullVectors, PCGatherSetInputGathered, PCGatherGetOutput, called with pc as a PC). */
typedef struct {
  PetscObject pc;
  PetscErrorCode (*full_vectors)(PetscObject pc, Vec *xfull, Vec *yfull);
  PetscErrorCode (*set_input_gathered)(PetscObject pc, Vec b);
  PetscErrorCode (*get_output)(PetscObject pc, Vec x, Vec *yfull);
} CG1GatheredSolve;
PETSC_EXTERN PetscErrorCode CG1TransferCreate(Mat P, const CG1GatheredSolve *solve, Mat *S);
/* one line: what the transfer does and how often each path ran (rank 0's: restrictions gathered / by P,
 * interpolations gathered / by P) */
PETSC_EXTERN PetscErrorCode CG1TransferView(Mat S, PetscViewer viewer);
/* The low-order-refined operator of the same problem (op/lor.c), assembled like IPDGOperatorAssemble
 * (options prefix lor_assembled_). */
PETSC_EXTERN PetscErrorCode LOROperatorAssemble(Mat A, Mat *assembled);
/* The coordinates of a sub-cell's nv vertices v[] among the element's nodes X[dim per node], split by
 * direction (z = 0 in 2D), as LORSubCellMatrix takes them. */
PETSC_EXTERN void LORSubCellCoordinates(PetscInt dim, PetscInt nv, const PetscReal X[], const PetscInt v[], PetscReal x[], PetscReal y[], PetscReal z[]);
/* The lowest-order stiffness + lambda lumped mass of one LOR sub-cell (op/lor.c): P1 triangles, Q1
 * quadrilaterals (dim 2, nv 3 or 4), P1 tetrahedra, P1 x Q1 wedges, Q1 hexahedra (dim 3, nv 4, 6, 8)
 * with vertex coordinates x, y, z[nv] in RefElementSubCells' vertex order; K[nv*nv]. Shared by the
 * LOR matrices of every discretization (SIPDG here, continuous spectral elements in op/sem.c). */
PETSC_EXTERN void LORSubCellMatrix(PetscInt dim, PetscInt nv, const PetscReal *x, const PetscReal *y, const PetscReal *z, PetscReal lambda, PetscReal K[]);
/* A sparse matrix from triplets (row, col global; rows owned by this rank; repeated entries add) on the
 * communicator of dm, AIJ or AIJCUSPARSE by the DM's vector type, with options prefix `prefix`. */
PETSC_EXTERN PetscErrorCode HoflowMatCreateFromTriplets(DM dm, const char prefix[], PetscInt n, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[], const PetscScalar v[], Mat *B);
/* A sparse matrix of m local rows and n local columns from this rank's CSR (rows sorted, no duplicates; column
 * indices global; each array from PetscMalloc1), AIJ or AIJCUSPARSE (cuda), options prefix `prefix`. The arrays are
 * taken (set to NULL): on one rank they become the matrix's, without PETSc's per-row copy (op/aij.c). */
PETSC_EXTERN PetscErrorCode HoflowMatCreateFromCSR(MPI_Comm comm, PetscBool cuda, const char prefix[], PetscInt m, PetscInt n, PetscInt **rowptr, PetscInt **cols, PetscScalar **vals, Mat *B);
/* p-multigrid transfer (op/transfer.c): prolongation from the order of `coarse` to the order of `fine` on the
 * same mesh by nodal interpolation; MatMultTranspose restricts. */
PETSC_EXTERN PetscErrorCode DGTransferCreate(DGDisc *coarse, DGDisc *fine, Mat *P);
