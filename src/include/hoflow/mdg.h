/* hoflow modal discontinuous Galerkin (-disc mdg, seed 002): nv components per element, each expanded
 * in the orthonormal modal basis of the element's shape (Proriol–Koornwinder–Dubiner on triangles and
 * tetrahedra, tensor Legendre on quadrilaterals and hexahedra; hoflow/ref.h), orders N = 0..MDG_NMAX.
 * Element e stores c[k*Np + m] (component k, mode m) at elem_dof[e], elements in the mesh's storage
 * order, described to PETSc by a PetscSection on a clone of the mesh DM (so global vectors, the halo
 * exchange and checkpoints work unchanged).
 *
 * Integrals use cubature of degree 2N+1 (on curved meshes raised by dim (Ng-1) on every face and on
 * curved elements; -mdg_quadrature_degree sets one degree everywhere), with the geometry at every
 * point: affine elements their constant metric, curved elements the mesh's geometry nodes
 * (isoparametric or superparametric), so curved walls are exact to the geometry's order. Faces are integrated at the same physical points from both sides (the face's
 * canonical frame), periodic faces included. The kernels (hoflow/kernels/mdg.h) evaluate the Euler
 * right-hand side; this header is the family's own interface (its unit tests use it), and the Euler physics
 * reaches it through the conservation-law table it fills (hoflow/conslaw.h, disc/mdg_conslaw.c). */
#pragma once

#include <hoflow/conslaw.h>
#include <hoflow/fr.h> /* FRHaloType and the trace star forest (disc/fr_trace.c), shared with flux reconstruction */
#include <hoflow/opshell.h>
#include <hoflow/kernels/mdg.h>

typedef struct {
  RefShape      shape;
  PetscBool     curved;
  PetscInt      Np, Nq, Nfaces, K, Kh;
  PetscReal    *xiq, *wq;    /* volume cubature */
  PetscReal    *Pq, *dPq;    /* modes and their derivatives at the volume points */
  int          *lin, nlin;   /* the modes of the order-1 space */
  int          *top, ntop;   /* the modes of degree N (outside the order N-1 space) */
  PetscReal    *vgeo, *fgeo; /* kernel geometry (hoflow/kernels/mdg.h) */
  PetscReal    *Minv, *Jinv; /* inverse element mass matrices (curved) or 1/J (affine) */
  PetscReal    *xq;          /* [K*Nq*dim] the physical volume points of owned elements */
  PetscReal    *h;           /* [K] element size for the CFL step: dim |E| / |dE| */
  int          *face_info;   /* [K*Nfaces*MDG_FACE_INFO] */
  int          *nb_elem;     /* [K*Nfaces] local neighbour element, -1 on the boundary */
  MDGKernelData kd, kd_device;
  const double *h_device; /* device copies of h and nb_elem */
  const int    *nb_device;
} MDGBlock;

typedef struct {
  Disc       disc;
  Mesh      *mesh;
  DM         dm;
  PetscInt   N, dim, nv, degree, nblocks; /* degree: of the face cubature and of curved elements' volume cubature */
  PetscBool  degree_given;                /* -mdg_quadrature_degree: also the affine elements' */
  PetscBool  view_cost;                   /* -mdg_view_cost: MDGViewCost when the equations are set */
  MDGBlock   blocks[MESH_MAX_BLOCKS];
  PetscInt  *elem_dof; /* [Klocal+1] */
  PetscInt   ndof, ndof_local;
  PetscReal *Pf; /* face basis tables of every shape, face and orientation */
  PetscInt   pf_offset[REF_NUM_SHAPES][HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];
  PetscInt   npf;
  PetscInt   fq_off[REF_NUM_SHAPES][HOFLOW_FACES_MAX + 1]; /* each shape's face points: face f's first */
  PetscInt   trace_start[MESH_MAX_BLOCKS + 1];             /* block b's first trace point (owned elements, block by block) */
  PetscInt  *trace_elem;                                   /* [Klocal] local element l's first trace point: owned as above, halo elements' slots after them (-mdg_halo traces) */
  PetscInt   ntrace;                                       /* trace points of the owned elements and (-mdg_halo traces on several ranks) of the halo elements' slots */
  PetscReal *trace;                                        /* host trace [ntrace*nv] (hoflow/kernels/mdg.h), made at the first host right-hand side */
  FRHaloType halo;                                         /* -mdg_halo: what the right-hand side's exchange sends on several ranks (op/mdg.c) ... */
  PetscBool  halo_given;                                   /* ... given on the command line (BR2 then refuses traces instead of taking elements) */
  PetscSF    trace_sf;                                     /* -mdg_halo traces on several ranks: the owners' traces into the halo elements' slots (NULL: one rank or elements) */
  PetscBool  view_halo;                                    /* -mdg_view_halo: print the bytes a right-hand side receives (at the first one, then cleared) */
  PetscInt   nbpoints;                                     /* boundary face points of owned elements ... */
  PetscReal *bx, *bn;                                      /* ... their positions and unit outward normals [nbpoints*dim] */
  PetscInt  *btype;                                        /* ... and boundary types [nbpoints] */
  PetscReal *bc_point;                                     /* [nbpoints*EULER_BC_DATA] their data (MDGSetEuler) */
  PetscReal *xdof;                                         /* [ndof*dim] each coefficient's point: its element's centroid (checkpoint keys) */
  OpShell    shell;
  /* device scratch of the limiter and the CFL step */
  Vec            means_local;        /* [Klocal*nv] cell means of owned and halo elements (sequential) */
  Vec            wall_host;          /* MDGWallSamples of a device state: its host copy */
  Vec            intw[EULER_NV_MAX]; /* MDGIntegrate: the integral of component v is u . intw[v] (on u's backend) */
  Vec            speed, limited;     /* [K] (|v| + c) / h and the limiter's flags of the owned elements */
  PetscInt       nlimited;           /* elements limited by the last MDGLimit */
  PetscLogDouble flops_volume, flops_face, flops_lift;
  /* Navier–Stokes (MDGSetViscous) */
  PetscBool  viscous;
  PetscReal *imass;                 /* inverse masses of every local element (hoflow/kernels/mdg.h) */
  int       *imass_info;            /* [2*Klocal] */
  PetscReal *grad, *Q;              /* [dim*ndof_local] projected and lifted gradients */
  PetscReal *fstate, *fjw, *flift;  /* face scratch of every block (hoflow/kernels/mdg.h) ... */
  PetscInt   nfstate, nfjw, nflift; /* ... and its sizes */
} MDGDisc;

PETSC_EXTERN PetscErrorCode DiscCreate_ModalDG(Disc disc);
/* The modal DG's conservation-law table (hoflow/conslaw.h): disc->conslaw (disc/mdg_conslaw.c). */
PETSC_EXTERN PetscErrorCode MDGConsLawCreate(MDGDisc *mdg);
/* The modal DG data of a Disc; an error naming `what` for any other type. */
PETSC_EXTERN PetscErrorCode DiscGetMDG(Disc disc, const char what[], MDGDisc **mdg);
/* u = the L2 projection of f element by element. */
PETSC_EXTERN PetscErrorCode MDGProject(MDGDisc *mdg, ConsLawStateFunction f, void *ctx, Vec u);
/* err[k] = ||u_k - f_k||_L2 for every component (f NULL: the norms of u). */
PETSC_EXTERN PetscErrorCode MDGL2Error(MDGDisc *mdg, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[]);
/* the same in L1 (discontinuous solutions) */
PETSC_EXTERN PetscErrorCode MDGL1Error(MDGDisc *mdg, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[]);
/* total[k] = int u_k over the domain (conservation). */
PETSC_EXTERN PetscErrorCode MDGIntegrate(MDGDisc *mdg, Vec u, PetscReal total[]);
/* The Euler equations' constants for the kernels: gamma, numerical flux, and the boundary data at every
 * boundary face point (mdg->bc_point, [nbpoints*EULER_BC_DATA], filled by the physics from bx, bn, btype). */
PETSC_EXTERN PetscErrorCode MDGSetEuler(MDGDisc *mdg, PetscReal gamma, PetscInt flux);
/* Minv = the inverse mass matrix of element k (owned or halo) of a curved block, from its volume points. */
PETSC_EXTERN PetscErrorCode MDGBlockInverseMass(const MDGBlock *blk, PetscInt dim, PetscInt k, PetscReal Minv[]);
/* The viscous terms of the compressible Navier–Stokes equations by BR2 with penalty eta
 * (hoflow/kernels/mdg_viscous.h): after MDGSetEuler, before the first device call. */
PETSC_EXTERN PetscErrorCode MDGSetViscous(MDGDisc *mdg, const NSViscosity *vis, PetscReal eta);
/* The no-slip walls' face points on this rank, CONSLAW_WALL_ROW doubles each (PetscFree the rows), the
 * viscous traction from the BR2 face gradient (ConsLawWallForces sums them). */
PETSC_EXTERN PetscErrorCode MDGWallSamples(MDGDisc *mdg, Vec u, PetscInt *nrows, PetscReal **rows);
/* After the physics changed mdg->bc_point (time-dependent boundary data): refresh the device copies. */
PETSC_EXTERN PetscErrorCode MDGUpdateBoundaryData(MDGDisc *mdg);
/* What MDGLimit does: Barth–Jespersen, then the positivity bounds (density and pressure >= eps). */
PETSC_EXTERN PetscErrorCode MDGSetLimiter(MDGDisc *mdg, PetscBool barth, PetscBool positivity, PetscReal eps);
/* Barth–Jespersen only on troubled cells (N >= 2): where the density's modes of degree N hold more than
 * kappa / N^4 of its modal energy (Persson & Peraire's sensor); kappa = 0: every cell (the default). */
PETSC_EXTERN PetscErrorCode MDGSetLimiterSensor(MDGDisc *mdg, PetscReal kappa);
/* f = the Euler right-hand side M^{-1} R(u) (op/mdg.c), on the backend of u. */
PETSC_EXTERN PetscErrorCode MDGEulerRHS(MDGDisc *mdg, Vec u, Vec f);
/* Per block: the flops and the least bytes of one volume, face and lift application (the figures of
 * -log_view's MDG events and of bench/mdg_bench.py's roofline); printed by -mdg_view_cost. */
PETSC_EXTERN PetscErrorCode MDGViewCost(MDGDisc *mdg, PetscViewer viewer);
/* The largest (|v| + c) / h over the owned elements of every rank; a negative density or pressure (or NaN)
 * gives *speed < 0 and, in *bad_cell, a DMPlex cell where it happens (-1 if none on this rank). */
PETSC_EXTERN PetscErrorCode MDGMaxWaveSpeed(MDGDisc *mdg, Vec u, PetscReal *speed, PetscInt *bad_cell);
/* Limiting of u in place (MDGSetLimiter); *nlimited elements limited (all ranks). */
PETSC_EXTERN PetscErrorCode MDGLimit(MDGDisc *mdg, Vec u, PetscInt *nlimited);
