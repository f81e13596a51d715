/* The trace exchange of flux reconstruction on several ranks (-fr_halo traces, hoflow/fr.h; seed 003 §VII sends the
 * flux-point data of the MPI faces, not whole elements): one star forest per trace array, written once for tensor FR
 * (disc/fr.c: traces [2 nv][Nfq] an element) and dense FR (disc/fr_dense.c: [nfpt][2 nv]), which describe their layout
 * (FRTraceLayout).
 *
 * Every trace array holds a slot for each ghost element beside the owned elements' traces. A partition face (owned
 * element e, face f; its neighbour a ghost l, face g of l) needs l's trace on face g: the owner of l computes exactly
 * that in its volume step (l is owned there, g is its face g), so the leaves are the entries of l's slot on face g
 * and the roots the same entries of l's trace on its owner, at the same offsets within the element (the two ranks
 * store an element of a shape alike). The face step then reads a ghost's trace as it reads an owned neighbour's: the
 * same points in the same order (the face frames are partition-independent, MeshFaceOrientation), the same bits as on
 * one rank. Where the owner keeps l's trace comes from the owner: a broadcast over the mesh's point star forest (the
 * ghost cells are its leaves), once at set-up. */
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <petscsf.h>

const char *const FRHaloTypes[] = {"traces", "elements", "FRHaloType", "FR_HALO_", NULL};

PetscErrorCode FRTraceSFCreate(const Mesh *mesh, const PetscInt off[], PetscInt nroots, const FRTraceLayout *layout, const char what[], PetscSF *sf)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)mesh->dm);
  PetscSF            point_sf;
  PetscInt           pStart, pEnd, npoint_roots, npoint_leaves, n = 0, view_bytes;
  const PetscInt    *point_ilocal;
  const PetscSFNode *point_iremote;
  PetscInt          *root_off, *leaf_off, *owner, *ilocal;
  PetscSFNode       *iremote;
  PetscMPIInt        size, rank;
  PetscBool          view = PETSC_FALSE;

  PetscFunctionBeginUser;
  *sf = NULL;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fr_view", &view, NULL));
  PetscCall(DMPlexGetChart(mesh->dm, &pStart, &pEnd));
  PetscCall(DMGetPointSF(mesh->dm, &point_sf));
  PetscCall(PetscSFGetGraph(point_sf, &npoint_roots, &npoint_leaves, &point_ilocal, &point_iremote));
  PetscCheck(npoint_roots == pEnd - pStart, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FR trace exchange: the point star forest has %" PetscInt_FMT " roots, the chart %" PetscInt_FMT " points", npoint_roots, pEnd - pStart);
  PetscCall(PetscMalloc3(pEnd - pStart, &root_off, pEnd - pStart, &leaf_off, pEnd - pStart, &owner));
  for (PetscInt p = 0; p < pEnd - pStart; p++) root_off[p] = leaf_off[p] = owner[p] = -1;
  for (PetscInt e = 0; e < mesh->K; e++) root_off[mesh->elem_cell[e] - pStart] = off[e];
  for (PetscInt i = 0; i < npoint_leaves; i++) owner[(point_ilocal ? point_ilocal[i] : i) - pStart] = point_iremote[i].rank;
  PetscCall(PetscSFBcastBegin(point_sf, MPIU_INT, root_off, leaf_off, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(point_sf, MPIU_INT, root_off, leaf_off, MPI_REPLACE));
  for (PetscInt pass = 0; pass < 2; pass++) { /* count, then fill */
    n = 0;
    for (PetscInt e = 0; e < mesh->K; e++)
      for (PetscInt f = 0; f < mesh->face_slot[e + 1] - mesh->face_slot[e]; f++) {
        const PetscInt slot = mesh->face_slot[e] + f, l = mesh->face_elem[slot], g = mesh->face_face[slot], cell = mesh->elem_cell[PetscMax(l, 0)] - pStart;
        PetscInt       begin, end;
        if (l < mesh->K) continue; /* owned neighbour or boundary */
        PetscCheck(off[l] >= 0 && leaf_off[cell] >= 0 && owner[cell] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FR trace exchange (%s): halo element %" PetscInt_FMT " (cell %" PetscInt_FMT ") has no trace slot here (%" PetscInt_FMT ") or on its owner (%" PetscInt_FMT ", rank %" PetscInt_FMT ")", what, l, cell + pStart, off[l], leaf_off[cell], owner[cell]);
        layout->face_points(layout->ctx, l, g, &begin, &end);
        for (PetscInt p = begin; p < end; p++)
          for (PetscInt c = 0; c < layout->ncomp; c++, n++) {
            const PetscInt at = c * layout->comp_stride + p * layout->point_stride;
            if (!pass) continue;
            ilocal[n]        = off[l] + at;
            iremote[n].rank  = owner[cell];
            iremote[n].index = leaf_off[cell] + at;
          }
      }
    if (!pass) {
      PetscCall(PetscMalloc1(n, &ilocal));
      PetscCall(PetscMalloc1(n, &iremote));
    }
  }
  PetscCall(PetscFree3(root_off, leaf_off, owner));
  PetscCall(PetscSFCreate(comm, sf));
  PetscCall(PetscSFSetGraph(*sf, nroots, n, ilocal, PETSC_OWN_POINTER, iremote, PETSC_OWN_POINTER));
  PetscCall(PetscSFSetUp(*sf));
  view_bytes = n * (PetscInt)sizeof(PetscScalar);
  PetscCall(PetscInfo(NULL, "-fr_halo traces: %s, %" PetscInt_FMT " bytes received a right-hand side on rank %d\n", what, view_bytes, rank));
  if (view) {
    PetscCall(PetscSynchronizedPrintf(comm, "fr halo: rank %d receives %" PetscInt_FMT " bytes of %s a right-hand side (%" PetscInt_FMT " halo elements)\n", rank, view_bytes, what, mesh->Klocal - mesh->K));
    PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool FRTraceOnPartition(const Mesh *mesh, PetscInt l)
{
  if (l >= mesh->K) return PETSC_TRUE;
  for (PetscInt slot = mesh->face_slot[l]; slot < mesh->face_slot[l + 1]; slot++)
    if (mesh->face_elem[slot] >= mesh->K) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode FRHaloView(const Mesh *mesh, FRHaloType halo, PetscInt halo_values)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)mesh->dm);
  PetscMPIInt size, rank;
  PetscBool   view = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fr_view", &view, NULL));
  if (size == 1 || !view) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSynchronizedPrintf(comm, "fr halo: rank %d, -fr_halo %s; the halo elements' values are %" PetscInt_FMT " bytes a right-hand side (%" PetscInt_FMT " halo elements)\n", rank, FRHaloTypes[halo], halo_values * (PetscInt)sizeof(PetscScalar), mesh->Klocal - mesh->K));
  PetscCall(PetscSynchronizedFlush(comm, PETSC_STDOUT));
  PetscFunctionReturn(PETSC_SUCCESS);
}
