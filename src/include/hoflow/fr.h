/* hoflow flux reconstruction (-disc fr, issue 17, seed 003 §II): Huynh's FR with the Vincent–Castonguay–
 * Jameson–Huynh (VCJH) correction functions, on quadrilaterals and hexahedra (tensor products of the 1D
 * scheme), for the Euler equations through the conservation-law table (hoflow/conslaw.h).
 *
 * Element e stores its nv components at the (N+1)^dim solution points, the tensor product of the N+1
 * Gauss–Legendre points x_i, component-major: u[k*Np + i], i = i_0 + (N+1)(i_1 + (N+1) i_2) (i_0 along r).
 * The flux points of a face are the ends of the solution-point lines that cross it, so they lie at the
 * same 1D points on the face. In reference coordinates (affine elements: J and G = dr/dx constant)
 *
 *   du_i/dt = -(1/J) [ sum_d d/dr_d Fh_d (r_i) + sum_faces (Fh^I - Fh^D) g'(r_i along the face's direction) ]
 *
 * with Fh_d = J sum_j G_jd F_j (the transformed flux), Fh^D the discontinuous transformed flux interpolated
 * to the flux point, Fh^I = s J |grad r_d| F*(u-, u+, n) the common one (s = +-1 the face's side, n = s
 * grad r_d / |grad r_d| the outward normal, F* the numerical flux of hoflow/pointwise/euler.h), and g = g_R
 * (s = +1) or g_L (s = -1) the 1D correction functions. */
#pragma once

#include <hoflow/conslaw.h>
#include <hoflow/opshell.h>
#include <hoflow/kernels/fr.h>
#include <hoflow/kernels/fr_dense.h>

/* The halo exchange strategies of seed 003 §VII (Jacobsen et al.'s three), -fr_exchange none|overlap|split
 * (disc/fr_exchange.c; every strategy gives the same numbers, bit for bit, on a given partition). With -fr_halo traces
 * (below) the volume step writes what is sent, so it comes first:
 *   none     volume of every element; exchange; the face step of every element
 *   overlap  volume; exchange started; the face step of the interior elements (no halo neighbour: MeshBlock's
 *            [start, interior_end)); exchange finished; the face step of the others
 *   split    overlap's steps on two CUDA streams: the interior face kernels on a stream of their own, the exchange
 *            (PETSc's stream) and then the halo elements' face kernel beside them, joined by events; on the host it is
 *            overlap
 * (-fr_halo elements: the exchange starts before the volume step, which overlap and split run beside it.) Navier–Stokes:
 * the face step of every element after both exchanges, whatever the strategy. */
typedef enum {
  FR_EXCHANGE_NONE,
  FR_EXCHANGE_OVERLAP,
  FR_EXCHANGE_SPLIT
} FRExchangeType;
PETSC_EXTERN const char *const FRExchangeTypes[];
/* Which elements a face step runs over */
typedef enum {
  FR_FACES_ALL,
  FR_FACES_INTERIOR,
  FR_FACES_HALO
} FRFaceSet;
/* What the halo exchange sends (-fr_halo, disc/fr_trace.c; seed 003 §VII exchanges the flux-point data of the MPI faces):
 *   traces    the owned side's trace (u- at the flux points) of every partition face, into the ghost element's trace
 *             slot on the other rank, so that the face step reads a ghost neighbour's trace as an owned one's; with the
 *             viscous terms a second exchange of the corrected gradients at the partition faces' flux points
 *   elements  every value of the halo elements (the local vector), from which the face step interpolates the ghost's
 *             trace itself (the earlier scheme; Euler and advection only on several ranks) */
typedef enum {
  FR_HALO_TRACES,
  FR_HALO_ELEMENTS
} FRHaloType;
PETSC_EXTERN const char *const FRHaloTypes[];
typedef struct {
  FRExchangeType type;
  FRHaloType     halo;
  PetscSF        trace_sf, grad_sf;                            /* traces on several ranks: trace -> ghost traces, gradient traces likewise */
  void          *stream, *start, *volume_done, *interior_done; /* split on the device: the second stream and its events */
} FRExchange;
/* A right-hand side's steps, given by each FR path: the volume step of every owned element (u: the owned array),
 * the face step of a set of elements (ul: the local array with the halo; NULL with -fr_halo traces) on the stream given
 * (device); with the viscous terms (viscous != NULL) V1..V3 of every owned element and the gradient traces of the
 * partition faces, after the traces' exchange and before the gradients' */
typedef struct {
  PetscErrorCode (*volume)(void *ctx, void *stream, const PetscScalar u[], PetscScalar f[]);
  PetscErrorCode (*faces)(void *ctx, void *stream, FRFaceSet set, const PetscScalar ul[], PetscScalar f[]);
  PetscErrorCode (*viscous)(void *ctx, void *stream, const PetscScalar u[], const PetscScalar ul[], PetscScalar f[]);
  PetscScalar   *trace, *grad_trace; /* this call's trace and gradient-trace arrays (host or device), the SFs' roots and leaves */
  PetscLogDouble volume_flops, face_flops;
} FRExchangeOps;
/* f = the right-hand side of u by ops' steps in the order of the strategy (-fr_halo elements: the halo exchange of OpShell
 * slot 0; traces: x's star forests on the ops' trace arrays) */
PETSC_EXTERN PetscErrorCode FRExchangeRHS(FRExchange *x, OpShell *shell, Vec u, Vec f, const FRExchangeOps *ops, void *ctx);
PETSC_EXTERN PetscErrorCode FRExchangeDestroy(FRExchange *x);
/* The elements of mesh block mb that face set `set` covers: subset 0 (all), or [begin, end) relative to mb->start */
PETSC_EXTERN void FRExchangeFaceRange(const MeshBlock *mb, FRFaceSet set, int *subset, int *begin, int *end);
/* The layout of a trace array (disc/fr_trace.c): element l's trace at off[l] (-1: none), its face f's points
 * [begin, end) (face_points), component c of point p at off[l] + c*comp_stride + p*point_stride, ncomp components sent */
typedef struct {
  PetscInt ncomp, comp_stride, point_stride;
  void (*face_points)(const void *ctx, PetscInt l, PetscInt f, PetscInt *begin, PetscInt *end);
  const void *ctx;
} FRTraceLayout;
/* The star forest of a trace exchange (nroots: the trace array's length on this rank): a leaf for every component of every
 * point of every ghost element's face that an owned element shares, its root the same entry of the owner's trace;
 * NULL on one rank. `what` names the data in -fr_view's line (the bytes a right-hand side receives). */
PETSC_EXTERN PetscErrorCode FRTraceSFCreate(const Mesh *mesh, const PetscInt off[], PetscInt nroots, const FRTraceLayout *layout, const char what[], PetscSF *sf);
/* -fr_view on several ranks: the bytes of the halo elements' values (what -fr_halo elements sends a right-hand side) */
/* whether local element l has a gradient-trace slot on several ranks: a halo element, or an owned one with a halo
 * neighbour (the elements whose gradients cross a partition face) */
PETSC_EXTERN PetscBool FRTraceOnPartition(const Mesh *mesh, PetscInt l);
PETSC_EXTERN PetscErrorCode FRHaloView(const Mesh *mesh, FRHaloType halo, PetscInt halo_values);

PETSC_EXTERN PetscErrorCode DiscCreate_FR(Disc disc);
/* -disc fr on meshes with simplices or prisms (dense operators, disc/fr_dense.c), chosen by DiscCreate_FR with its
 * options: the correction's name, or c itself (c_given), and the CUDA kernels' elements a thread block (0: by order) */
PETSC_EXTERN PetscErrorCode DiscCreate_FRDense(Disc disc, FRCorrection correction, PetscReal c, PetscBool c_given, PetscInt elements_per_block, FRExchangeType exchange, FRHaloType halo);
/* The solution points of -disc fr on a shape at order N: *Np points xi[Np*dim] (PetscMalloc'd, the caller frees), in
 * the order of the discretization's vectors (tensor: disc/fr.c, dense: disc/fr_dense.c) */
typedef PetscErrorCode (*FRSolutionPointsFunction)(RefShape shape, PetscInt N, PetscInt *Np, PetscReal **xi);
/* The Disc op project_elements of -disc fr, tensor and dense alike (disc/fr_project.c): every owned element's order-Ns
 * values (src[k], the elements' blocks one after another, each nv * Np(shape, Ns) wide) interpolated at this run's
 * solution points (elem_dof: each element's first value in u[k]) */
PETSC_EXTERN PetscErrorCode FRProjectElements(Disc disc, FRSolutionPointsFunction points, const PetscInt elem_dof[], PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[]);
/* Navier–Stokes with -disc fr (tensor and dense alike, disc/fr_viscous.c): ldg from the physics' viscosity law and
 * the options -fr_viscous_beta, -fr_viscous_tau (hoflow/pointwise/ldg.h), dt_scale 2N + 1; on several ranks with
 * -fr_halo traces only (the corrected gradients at the partition faces are exchanged as traces) */
PETSC_EXTERN PetscErrorCode FRViscousSetUp(Disc disc, const NSViscosity *vis, FRHaloType halo, NSLDG *ldg);
/* 1/h = |F| / min(|E-|, |E+|) of face f of owned element e (the penalty's length scale; the same from both sides) */
PETSC_EXTERN PetscReal FRViscousFaceScale(const Mesh *mesh, PetscInt e, PetscInt f);
/* For tests of the kernels (tests/unit/test_fr_kernels.c): the kernel data of -disc fr on the host and on the
 * device (NULL before the first device call), and the element sizes h [K] of the wave speeds on both. */
/* The same for -disc fr with dense operators (tests/unit/test_fr_dense_kernels.c): nblocks kernel data, one a mesh
 * block, on the host and the device (NULL before the first device call), and the element sizes h [K]. */
/* The no-slip walls' samples (ConsLawWallSamples, hoflow/conslaw.h) of dense FR from one right-hand side at u (disc/fr_wall.c) */
PETSC_EXTERN PetscErrorCode FRDenseWallSamples(ConsLaw cl, Vec u, PetscInt *nrows, PetscReal **rows);
PETSC_EXTERN PetscErrorCode FRDenseGetKernelData(Disc disc, PetscInt *nblocks, const FRDenseKernelData **host, const FRDenseKernelData **device, const PetscReal **h, const PetscReal **h_device);
/* The mean kinetic energy (1/|Omega|) int rho |v|^2 / 2 of a compressible state by vector operations of its type (device
 * reductions on CUDA vectors; disc/fr_kinetic.c); -disc fr on quadrilaterals and hexahedra */
PETSC_EXTERN PetscErrorCode FRKineticEnergy(Disc disc, Vec u, PetscReal *energy);
/* ... and the enstrophy (1/|Omega|) int rho |omega|^2 / 2 of the 3D Navier-Stokes equations, from the corrected gradients
 * of a right-hand side at u (ConsLawRHS into a work vector) */
PETSC_EXTERN PetscErrorCode FREnstrophy(ConsLaw cl, Vec u, PetscReal *enstrophy);
PETSC_EXTERN PetscErrorCode FRGetKernelData(Disc disc, const FRKernelData **host, const FRKernelData **device, const PetscReal **h, const PetscReal **h_device);
