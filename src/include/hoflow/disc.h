/* hoflow discretizations: the interface every spatial discretization implements (nodal DG today;
 * modal DG, flux reconstruction and continuous spectral elements register the same way), chosen by
 * name with -disc from the registry DiscList (disc/disc.c).
 *
 * A Disc owns its field layout (a DM with a PetscSection, so DMCreateGlobalVector, the halo exchange
 * and VecView work unchanged) and produces what the physics compose: operators as MatShells,
 * right-hand sides, projections and errors against pointwise functions, and the points and sub-cells
 * the output layer writes. A physics that needs more of one family (the incompressible operators of
 * nodal DG) asks for that family's object (DiscGetDG) and gets a clear error from any other. */
#pragma once

#include <petscmat.h>
#include <hoflow/mesh.h>
#include <hoflow/pointwise/closed_form.h>

/* A pointwise function of position: value and (when grad is not NULL) gradient [dim]. */
typedef PetscErrorCode (*PointFunction)(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx);
/* Its closed form with the context ctx, where it has one (kind HOFLOW_CLOSED_FORM_NONE where not): kernels
 * evaluate a closed form at cubature points themselves, where the vector lies (hoflow/pointwise/closed_form.h). */
typedef PetscErrorCode (*PointFunctionClosedFormGetter)(void *ctx, HoflowClosedForm *cf);
PETSC_EXTERN PetscErrorCode PointFunctionRegisterClosedForm(PointFunction f, PointFunctionClosedFormGetter get);
/* The closed form of f with ctx (kind NONE: none). */
PETSC_EXTERN PetscErrorCode PointFunctionGetClosedForm(PointFunction f, void *ctx, HoflowClosedForm *cf);

typedef struct _n_Disc    *Disc;
typedef struct _n_ConsLaw *ConsLaw; /* hoflow/conslaw.h */

/* What a discretization implements; an entry left NULL is an operation it does not provide. */
typedef struct {
  PetscErrorCode (*destroy)(Disc);
  /* b_i += (phi_i, f) */
  PetscErrorCode (*integrate)(Disc, PointFunction, void *, Vec b);
  /* ||u - f||_L2 */
  PetscErrorCode (*l2_error)(Disc, Vec u, PointFunction, void *, PetscReal *);
  /* the mass matrix or its inverse */
  PetscErrorCode (*create_mass)(Disc, PetscBool inverse, Mat *);
  /* the mass matrix that time-dependent problems pair with create_elliptic's operator of the same face
   * types: its rows of dofs that the elliptic operator fixes (strong Dirichlet rows) are zero; NULL: the
   * discretization fixes none (weak boundary conditions), and create_mass serves */
  PetscErrorCode (*create_mass_elliptic)(Disc, const PetscInt face_type[], Mat *);
  /* -Laplace + lambda with boundary types face_type[nslots] (hoflow/mesh.h; NULL: the mesh's) */
  PetscErrorCode (*create_elliptic)(Disc, PetscReal lambda, const PetscInt face_type[], Mat *);
  /* b -= A_bc(g): the boundary data of A's solve (value on Dirichlet faces, n.grad on Neumann faces, from f's gradient) */
  PetscErrorCode (*elliptic_boundary_data)(Disc, Mat A, PointFunction f, void *, Vec b);
  /* the field's points (nodes) of owned elements [n*dim] in vector order, and each element's first point [K+1] */
  PetscErrorCode (*get_points)(Disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point);
  /* sub-cells over the points of owned elements, for output: ncells cells of nverts local point numbers;
   * on a mesh of several shapes nverts = 0 and each cell is (shape, its local point numbers) in turn */
  PetscErrorCode (*get_subcells)(Disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells);
  /* restarts onto another order or a refined mesh: u[k] = the projection of n element-wise functions of
   * order src_order (src[k], [K][values of an order-src_order element], as this discretization stores
   * them) given on each owned element (src_vertices NULL) or on an element containing it, with
   * vertices src_vertices[e*nverts*dim] in the shape's reference order */
  PetscErrorCode (*project_elements)(Disc, PetscInt src_order, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[]);
  /* continuous discretizations, whose global vectors share the dofs of neighbouring elements (NULL for
   * element-wise ones, whose global vectors are their point values as they stand): SCATTER_FORWARD sets
   * ue (local size npoints * ncomp, the components of a point together) to the values of the global
   * vector u at get_points' points; SCATTER_REVERSE sets u from ue, every shared dof from one of the
   * elements that hold it (exact where their copies agree, as ue from SCATTER_FORWARD does) */
  PetscErrorCode (*point_values)(Disc, Vec u, Vec ue, ScatterMode mode);
} DiscOps;

struct _n_Disc {
  char     type[64];
  Mesh    *mesh;
  PetscInt order;
  PetscInt ncomp; /* components of the field (the physics'; 1 unless DiscCreateComponents says otherwise) */
  DM       dm;    /* the mesh's DM with this discretization's section */
  DiscOps  ops;
  ConsLaw  conslaw; /* a discretization of conservation laws: its interface for the physics (hoflow/conslaw.h), else NULL */
  void    *data;    /* the implementation's */
};

typedef PetscErrorCode (*DiscCreateFunction)(Disc);
PETSC_EXTERN PetscFunctionList DiscList;
/* Register the built-in discretizations (idempotent, op/register.c); DiscRegister adds one more.
 * DiscCreate needs the type registered. */
PETSC_EXTERN PetscErrorCode DiscRegisterAll(void);
PETSC_EXTERN PetscErrorCode DiscRegister(const char name[], DiscCreateFunction create);
/* A discretization of the registered type on the mesh, of polynomial order N. */
PETSC_EXTERN PetscErrorCode DiscCreate(Mesh *mesh, const char type[], PetscInt order, Disc *disc);
/* The same for a field of ncomp components (a system such as the Euler equations). */
PETSC_EXTERN PetscErrorCode DiscCreateComponents(Mesh *mesh, const char type[], PetscInt order, PetscInt ncomp, Disc *disc);
PETSC_EXTERN PetscErrorCode DiscDestroy(Disc *disc);
PETSC_EXTERN PetscErrorCode DiscIntegrate(Disc disc, PointFunction f, void *ctx, Vec b);
PETSC_EXTERN PetscErrorCode DiscL2Error(Disc disc, Vec u, PointFunction f, void *ctx, PetscReal *error);
/* u = the L2 projection of f (integrate, then the inverse mass matrix) */
PETSC_EXTERN PetscErrorCode DiscProject(Disc disc, PointFunction f, void *ctx, Vec u);
PETSC_EXTERN PetscErrorCode DiscCreateMass(Disc disc, PetscBool inverse, Mat *M);
/* The mass matrix of M u_t + A u = r with A = DiscCreateElliptic(disc, ., face_type): zero rows where A
 * has strong Dirichlet rows (continuous elements), else DiscCreateMass's. */
PETSC_EXTERN PetscErrorCode DiscCreateMassElliptic(Disc disc, const PetscInt face_type[], Mat *M);
PETSC_EXTERN PetscErrorCode DiscCreateElliptic(Disc disc, PetscReal lambda, const PetscInt face_type[], Mat *A);
PETSC_EXTERN PetscErrorCode DiscEllipticBoundaryData(Disc disc, Mat A, PointFunction f, void *ctx, Vec b);
PETSC_EXTERN PetscErrorCode DiscGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point);
PETSC_EXTERN PetscErrorCode DiscProjectElements(Disc disc, PetscInt src_order, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[]);
PETSC_EXTERN PetscErrorCode DiscGetSubCells(Disc disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells);
/* Whether the discretization's global vectors are point values as they stand (element-wise layouts), or
 * need DiscPointValues (continuous ones). */
PETSC_EXTERN PetscErrorCode DiscHasPointValues(Disc disc, PetscBool *has);
PETSC_EXTERN PetscErrorCode DiscPointValues(Disc disc, Vec u, Vec ue, ScatterMode mode);
/* The Disc whose DM made the vector v (DMCreateGlobalVector, or a VecDuplicate of one), or NULL. */
PETSC_EXTERN PetscErrorCode DiscFromVec(Vec v, Disc *disc);
