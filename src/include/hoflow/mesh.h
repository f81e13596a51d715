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
 * "face slots": face f of owned element e is slot face_slot[e] + f. */
#pragma once

#include <petscdmplex.h>
#include <hoflow/ref.h>
#include <hoflow/kernels/common.h> /* HOFLOW_FACE_* boundary types */

typedef struct {
  RefShape shape;
  PetscInt nverts, nfaces;
  PetscInt start, interior_end, end; /* owned elements [start, end); [start, interior_end) have only owned face neighbours */
  PetscInt halo_start, halo_end;     /* halo elements of this shape */
} MeshBlock;

typedef struct {
  DM         dm; /* distributed DMPlex, one-cell face-adjacent overlap */
  PetscInt   dim;
  PetscInt   nblocks;
  MeshBlock  blocks[REF_NUM_SHAPES];
  PetscInt   Klocal, K; /* local elements (owned + halo), owned elements */
  PetscInt   Kglobal;
  PetscInt  *elem_cell;  /* [Klocal] DMPlex cell of element l */
  PetscInt  *cell_elem;  /* [cells of the chart] element of a DMPlex cell */
  PetscInt  *elem_block; /* [Klocal] block of element l */
  PetscReal *vertices;   /* [Klocal*HOFLOW_VERTS_MAX*dim] vertex coordinates in reference order */
  PetscReal *geo;        /* [Klocal*HOFLOW_GEO_SIZE(dim)] affine metric terms and Jacobian (hoflow/geom.h) */
  PetscReal *measure;    /* [Klocal] area or volume */
  PetscInt  *face_point; /* [Klocal*HOFLOW_FACES_MAX] DMPlex face of element face f */
  PetscInt  *face_slot;  /* [K+1] first face slot of owned element e; nslots = face_slot[K] */
  PetscInt   nslots;
  PetscInt  *face_elem;            /* [nslots] element across the face, -1 on the boundary */
  PetscInt  *face_face;            /* [nslots] the face number of that face in the neighbour */
  PetscInt  *face_type;            /* [nslots] boundary type of the run's physics (MeshSetBoundaryTypes), HOFLOW_FACE_INTERIOR inside */
  PetscReal *face_normal;          /* [nslots*dim] outward unit normal */
  PetscReal *face_measure;         /* [nslots] length or area |F| */
  PetscReal  hmax;                 /* longest edge in the mesh */
  PetscBool  periodic;             /* a periodic mesh: its periodic faces are interior faces (face_elem >= 0) whose two
                                      elements see them at positions that differ by the periodic translation */
  char source[PETSC_MAX_PATH_LEN]; /* mesh file or "box" */
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
PETSC_EXTERN PetscErrorCode MeshGetGroupFaces(Mesh *mesh, const char option[], const char group[], PetscBool **mask);
/* Centroid of element l (the mean of its vertices). */
PETSC_EXTERN void MeshElementCentroid(const Mesh *mesh, PetscInt l, PetscReal c[]);
/* For boundary face f of owned element e: another element's boundary face (*e2, *f2) on which the
 * face's centroid lies (a non-conforming interface), or -1 (mesh/conform.c). */
PETSC_EXTERN PetscErrorCode MeshFindOverlappingFace(const Mesh *mesh, PetscInt e, PetscInt f, PetscInt *e2, PetscInt *f2);
/* "(x, y)" or "(x, y, z)" in buf, for messages; returns buf. */
PETSC_EXTERN const char *MeshFormatPoint(PetscInt dim, const PetscReal x[], char buf[], size_t size);
