/* hoflow meshes: a distributed DMPlex of triangles or quadrilaterals with affine geometry.
 *
 * Cells are numbered as DMPlex numbers them on this rank (local cells, owned and halo);
 * "elements" are the owned cells in increasing cell order, the rows of every operator.
 * Each cell's vertices are stored counterclockwise, with face f joining vertex f and f+1. */
#pragma once

#include <petscdmplex.h>
#include <hoflow/ref.h>

typedef struct {
  DM         dm; /* distributed DMPlex, one-cell face-adjacent overlap */
  RefShape   shape;
  PetscInt   Nverts;    /* = Nfaces */
  PetscInt   Klocal, K; /* local cells (owned + halo), owned elements */
  PetscInt   Kglobal;
  PetscInt  *elem_cell;                  /* [K] local cell of owned element e */
  PetscInt  *cell_elem;                  /* [Klocal] owned element of a cell, -1 for halo cells */
  PetscReal *vertices;                   /* [Klocal*Nverts*2] counterclockwise vertex coordinates */
  PetscReal *geo;                        /* [Klocal*HOFLOW_GEO_SIZE] rx sx ry sy J (kernels.h) */
  PetscReal *area;                       /* [Klocal] */
  PetscInt  *face_point;                 /* [Klocal*Nfaces] DMPlex edge of each cell face */
  PetscInt  *face_cell;                  /* [K*Nfaces] local cell across each face of an owned element, -1 on the boundary */
  PetscInt  *face_face;                  /* [K*Nfaces] the face number of that face in the neighbour */
  PetscInt  *face_type;                  /* [K*Nfaces] HOFLOW_FACE_* (set by MeshSetBoundaryConditions) */
  PetscReal *face_geo;                   /* [K*Nfaces*3] outward nx, ny and length |F| */
  PetscReal  hmax;                       /* longest edge in the mesh */
  char       source[PETSC_MAX_PATH_LEN]; /* mesh file or "box" */
} Mesh;

/* Create the mesh from the options database (-dm_plex_filename, -dm_plex_box_faces, -dm_refine, ...).
 * `default_options` (may be NULL) are inserted first for options the user did not give. */
PETSC_EXTERN PetscErrorCode MeshCreate(MPI_Comm comm, const char default_options[], Mesh **mesh);
PETSC_EXTERN PetscErrorCode MeshDestroy(Mesh **mesh);
/* Tag every boundary face Dirichlet or Neumann from the named boundary groups (Gmsh physical
 * names; bottom/right/top/left on box meshes). Every boundary face must be in exactly one group. */
/* mask[K*Nfaces]: the boundary faces of owned elements in the named group (an error naming `option`
 * if the mesh has no such group). */
PETSC_EXTERN PetscErrorCode MeshGetGroupFaces(Mesh *mesh, const char option[], const char group[], PetscBool **mask);
PETSC_EXTERN PetscErrorCode MeshSetBoundaryConditions(Mesh *mesh, PetscInt ndirichlet, char *dirichlet[], PetscInt nneumann, char *neumann[]);
