/* hoflow meshes: a distributed DMPlex of any dimension (2 or 3) and any mix of supported shapes,
 * with its elements numbered the way every kernel stores them.
 *
 * Elements are the local cells in storage order: first the owned cells, grouped by shape (one
 * MeshBlock per shape present) and within a block those whose face neighbours are all owned
 * first ("interior": their work needs no halo data), then the halo cells (the face neighbours
 * owned by other ranks), grouped by shape in the same block order. Element l is DMPlex cell
 * elem_cell[l]. Every per-element array is in this order: owned elements 0..K-1, halo K..Klocal-1.
 *
 * Each element keeps its vertices in the reference order of its shape (hoflow/shape.h), so
 * face f of the element is the reference face f. Vertex coordinates are the element's own: on a
 * periodic mesh an element across the periodic boundary keeps its true shape, so its neighbour across
 * a periodic face sees that face one period away. Faces of owned elements are numbered in
 * "face slots": face f of owned element e is slot face_slot[e] + f.
 *
 * Elements are of two kinds. Affine elements (the straight-sided map from their vertices is affine)
 * carry constant metric terms in geo. Curved elements (a face on a curved boundary, non-affine
 * vertices such as trapezoids, or the high-order nodes of a Gmsh mesh off the affine map) carry their
 * geometry: the coordinates of the nodes of the order-Ng reference element geom_ref[shape], so that
 * any discretization of any order evaluates x(r) and dx/dr by interpolation (isoparametric when its
 * order is Ng, superparametric when lower). The mesh makes one block per (shape, kind), affine blocks
 * first, so a kernel sees one kind; a mesh of affine elements is numbered as if curved elements did
 * not exist. Sources of curved geometry (mesh/curved.c): a Gmsh high-order file (order 2 or 3 nodes,
 * read through PETSc's coordinate field), boundary groups projected onto an analytic circle, cylinder
 * or sphere (-curve_<group> ...), and non-affine quadrilaterals, prisms and hexahedra (Ng = 1). */
#pragma once

#include <petscdmplex.h>
#include <hoflow/ref.h>
#include <hoflow/kernels/common.h> /* HOFLOW_FACE_* boundary types */

typedef struct {
  RefShape  shape;
  PetscBool curved; /* the block's elements are curved (geometry nodes), else affine */
  PetscInt  nverts, nfaces;
  PetscInt  start, interior_end, end; /* owned elements [start, end); [start, interior_end) have only owned face neighbours */
  PetscInt  halo_start, halo_end;     /* halo elements of this shape */
} MeshBlock;

#define MESH_MAX_BLOCKS (2 * REF_NUM_SHAPES)

typedef struct _n_MeshCurve *MeshCurve; /* where curved geometry comes from (mesh/curved.c) */

typedef struct {
  DM         dm; /* distributed DMPlex, one-cell face-adjacent overlap */
  PetscInt   dim;
  PetscInt   nblocks;
  MeshBlock  blocks[MESH_MAX_BLOCKS];
  PetscInt   Klocal, K; /* local elements (owned + halo), owned elements */
  PetscInt   Kglobal;
  PetscInt  *elem_cell;  /* [Klocal] DMPlex cell of element l */
  PetscInt  *cell_elem;  /* [cells of the chart] element of a DMPlex cell */
  PetscInt  *elem_block; /* [Klocal] block of element l */
  PetscReal *vertices;   /* [Klocal*HOFLOW_VERTS_MAX*dim] vertex coordinates in reference order */
  PetscInt  *vertex_gid; /* [Klocal*HOFLOW_VERTS_MAX] global numbers of the vertices, reference order */
  PetscReal *geo;        /* [Klocal*HOFLOW_GEO_SIZE(dim)] affine metric terms and Jacobian (hoflow/geom.h); curved
                            elements: those of the affine map through their vertices (an approximation) */
  PetscReal *measure;    /* [Klocal] area or volume (curved elements: by cubature) */
  PetscInt  *face_point; /* [Klocal*HOFLOW_FACES_MAX] DMPlex face of element face f */
  PetscInt  *face_slot;  /* [K+1] first face slot of owned element e; nslots = face_slot[K] */
  PetscInt   nslots;
  PetscInt  *face_elem;                  /* [nslots] element across the face, -1 on the boundary */
  PetscInt  *face_face;                  /* [nslots] the face number of that face in the neighbour */
  PetscInt  *face_type;                  /* [nslots] boundary type of the run's physics (MeshSetBoundaryTypes), HOFLOW_FACE_INTERIOR inside */
  PetscReal *face_normal;                /* [nslots*dim] outward unit normal (curved faces: at the face's centre) */
  PetscReal *face_measure;               /* [nslots] length or area |F| (curved faces: by cubature) */
  PetscReal  hmax;                       /* longest edge in the mesh */
  PetscBool  periodic;                   /* a periodic mesh: its periodic faces are interior faces (face_elem >= 0) whose two
                                            elements see them at positions that differ by the periodic translation */
  char       source[PETSC_MAX_PATH_LEN]; /* mesh file or "box" */
  /* curved elements */
  PetscInt    geom_order;               /* Ng of the geometry nodes (0: every element is affine) */
  RefElement *geom_ref[REF_NUM_SHAPES]; /* the order-Ng reference element of each shape with curved elements */
  PetscReal  *geom_nodes;               /* coordinates of the geometry nodes of curved elements, node-major */
  PetscInt   *geom_offset;              /* [Klocal] element l's first entry in geom_nodes, -1 for affine elements */
  char        geom_source[128];         /* where the curved geometry came from, for messages */
  MeshCurve   curve;
} Mesh;

/* Create the mesh from the options database (-dm_plex_filename, -dm_plex_box_faces, -dm_plex_dim, -dm_refine, ...).
 * `default_options` (may be NULL) are inserted first for options the user did not give. */
PETSC_EXTERN PetscErrorCode MeshCreate(MPI_Comm comm, const char default_options[], Mesh **mesh);
PETSC_EXTERN PetscErrorCode MeshDestroy(Mesh **mesh);
/* The shape of element l. */
PETSC_EXTERN RefShape MeshElementShape(const Mesh *mesh, PetscInt l);
/* The shape shared by all elements of the mesh on every rank; an error naming `what` (the feature that needs one
 * shape) when the mesh mixes shapes. */
PETSC_EXTERN PetscErrorCode MeshGetUniformShape(const Mesh *mesh, const char what[], RefShape *shape);

/* A boundary-condition type of a physics: faces of the groups named by the option -bc_<name> get `code`
 * (a HOFLOW_FACE_* value or the physics' own code), `groups` the default group list ("none": none). */
typedef struct {
  const char *name;
  PetscInt    code;
  const char *groups;
  const char *help;
} MeshBoundaryType;
/* Set mesh->face_type from the options -bc_<type> (comma-separated groups: Gmsh physical names; on box meshes
 * left/right/bottom/top and, in 3D, front/back). Every boundary face must be in the groups of exactly one type;
 * errors name the face, the options and the mesh's groups. */
PETSC_EXTERN PetscErrorCode MeshSetBoundaryTypes(Mesh *mesh, PetscInt ntypes, const MeshBoundaryType types[]);
/* mask[nslots]: the boundary face slots of owned elements in the named group (an error naming `option`
 * if the mesh has no such group). */
/* The named groups with boundary faces (on any rank), comma-separated, in the mesh's label order. */
PETSC_EXTERN PetscErrorCode MeshGetBoundaryGroups(Mesh *mesh, char groups[], size_t len);
PETSC_EXTERN PetscErrorCode MeshGetGroupFaces(Mesh *mesh, const char option[], const char group[], PetscBool **mask);
/* Centroid of element l (the mean of its vertices). */
PETSC_EXTERN void MeshElementCentroid(const Mesh *mesh, PetscInt l, PetscReal c[]);
/* For boundary face f of owned element e: another element's boundary face (*e2, *f2) on which the
 * face's centroid lies (a non-conforming interface), or -1 (mesh/conform.c). */
PETSC_EXTERN PetscErrorCode MeshFindOverlappingFace(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt *e2, PetscInt *f2);
/* "(x, y)" or "(x, y, z)" for messages; returns buf. */
PETSC_EXTERN const char *MeshFormatPoint(PetscInt dim, const PetscReal x[], char buf[], size_t len);
/* Whether element l is curved (in a curved block); whether any element on any rank is. */
PETSC_EXTERN PetscBool      MeshElementIsCurved(const Mesh *mesh, PetscInt l);
PETSC_EXTERN PetscErrorCode MeshHasCurved(const Mesh *mesh, PetscBool *curved);

/* The geometry of curved elements of one shape at n fixed reference points xi[n*dim]: interpolation
 * interp[n*Npg] from the geometry nodes and its derivatives dinterp[d][n*Npg] (Npg nodes of geom_ref[shape]),
 * PetscMalloc'd (MeshGeometryTableDestroy). */
typedef struct {
  PetscInt   n, Npg, dim;
  PetscReal *interp, *dinterp[HOFLOW_DIM_MAX];
} MeshGeometryTable;
PETSC_EXTERN PetscErrorCode MeshGeometryTableCreate(const Mesh *mesh, RefShape shape, PetscInt n, const PetscReal xi[], MeshGeometryTable *tab);
PETSC_EXTERN PetscErrorCode MeshGeometryTableDestroy(MeshGeometryTable *tab);
/* x[n*dim] and dx/dr jac[n*dim*dim] (jac[(p*dim + i)*dim + d] = dx_i/dr_d; either may be NULL) of curved
 * element l at the table's points. */
PETSC_EXTERN void MeshCurvedElementMap(const Mesh *mesh, const MeshGeometryTable *tab, PetscInt l, PetscReal x[], PetscReal jac[]);
/* The reference coordinates [n*dim] of the points of a face-shape cubature of degree `degree` on face f
 * of a shape, in the frame of orientation o (GeomFaceOrientationPerm), and their weights on the face
 * shape's reference; PetscMalloc'd. The two elements of a face find the same physical points when each
 * uses the face's canonical orientation (MeshFaceOrientation). */
PETSC_EXTERN PetscErrorCode MeshFaceCubature(RefShape shape, PetscInt f, PetscInt o, PetscInt degree, PetscInt *n, PetscReal **xi, PetscReal **w);
/* The canonical orientation (GeomCanonicalFaceOrientation) of face f of element l. */
PETSC_EXTERN PetscInt MeshFaceOrientation(const Mesh *mesh, PetscInt l, PetscInt f);

/* ---- mesh-layer internals (mesh.c and curved.c) ---- */
/* Before PETSc reads a Gmsh file: refuse high-order meshes of mixed cell types or of prisms (PETSc 3.18). */
PETSC_EXTERN PetscErrorCode MeshCurveCheckFile(MPI_Comm comm, const char filename[]);
/* Curved geometry sources from the options and the mesh file, before distribution: -curve_<group>
 * projections (marking the groups' faces and edges), -curve_order, high-order coordinates. */
PETSC_EXTERN PetscErrorCode MeshCurveCreate(Mesh *mesh, DM dm);
/* `levels` uniform refinements of a straight-sided 2D triangle/quadrilateral mesh on one rank by hoflow's
 * arrays (refine.c: PETSc's refine_regular mesh up to numbering, several times faster) in a new DM *rdm;
 * *rdm NULL for any other mesh, which PETSc refines. */
PETSC_EXTERN PetscErrorCode MeshRefineUniform(DM dm, PetscInt levels, DM *rdm);
/* Whether the options curve any boundary group (-curve_<group> ...), before a mesh exists. */
PETSC_EXTERN PetscErrorCode MeshCurveOptionsGiven(PetscBool *given);
/* After distribution: vertex coordinates of a high-order mesh (NULL for straight-sided coordinates). */
PETSC_EXTERN PetscErrorCode MeshCurveVertexCoordinates(Mesh *mesh, const PetscReal **vcoord, PetscInt *vStart);
/* The geometry nodes xg[Npg*dim] of cell `cell` with reference-ordered vertex points cv and coordinates
 * X, and whether the cell is curved (its map is not the affine map of its vertices). */
PETSC_EXTERN PetscErrorCode MeshCurveCell(Mesh *mesh, PetscInt cell, RefShape shape, const PetscInt cv[], const PetscReal X[], PetscReal diam, PetscBool *curved, PetscReal xg[]);
/* Geometry nodes per shape (Npg) of the mesh's geometry order (0 when nothing is curved). */
PETSC_EXTERN PetscInt MeshCurveNumNodes(Mesh *mesh, RefShape shape);
/* After numbering: Jacobian checks, measures, face measures and normals of curved elements. */
PETSC_EXTERN PetscErrorCode MeshCurveFinish(Mesh *mesh);
PETSC_EXTERN PetscErrorCode MeshCurveDestroy(Mesh *mesh);
/* The element shapes of this rank's blocks, "+"-separated (e.g. "tetrahedron+prism+hexahedron"), for summaries. */
PETSC_EXTERN PetscErrorCode MeshGetShapeNames(const Mesh *mesh, char names[], size_t len);
