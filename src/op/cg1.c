/* The continuous order-1 (vertex) space of the mesh as the coarse space below order-1 SIPDG (issue 13:
 * pMG-AMG with -pc_pmg_coarse_space cg1, solver/pmg.c).
 *
 * Space. One unknown per mesh vertex: P1 on triangles and tetrahedra, Q1 on quadrilaterals and
 * hexahedra, P1 x Q1 on prisms, i.e. exactly the order-1 DG space of each element with its values at
 * the vertices shared. Rows are numbered by DMPlex's vertex numbering (DMPlexGetVertexNumbering: a
 * global section on the depth-0 points through the point SF), so each vertex is owned by one rank, rank
 * r owning a contiguous range in rank order. On periodic meshes the identified vertices are one DMPlex
 * point, so the space is periodic like the DG problem; an element that meets itself across a periodic
 * boundary (one cell in a periodic direction: two of its vertices are one point) is refused.
 *
 * Prolongation P: the injection of the continuous field into DG order 1, each DG node taking its
 * vertex's value (the order-1 DG nodes of every shape are its vertices). Restriction is P^T. P is an
 * AIJ matrix with one 1 per row (AIJCUSPARSE for CUDA vectors: PETSc's own MatMult/MatMultTranspose on
 * the device, with the halo of vertex values through the matrix's scatter).
 *
 * Matrix. For a conforming mesh (hoflow refuses others) the order-1 traces of a continuous field agree
 * on both sides of every interior face, so every interior-face term of the SIPDG form (eq. 28) vanishes
 * on P's range and
 *   P^T A_dg1 P = sum_E P_E^T (K_E + lambda M_E + Dirichlet-face terms of E) P_E,
 * the continuous stiffness with the SIPDG (Nitsche, penalty 2 tau) Dirichlet terms, Neumann faces
 * natural. CG1_MATRIX_DIRECT assembles exactly that from the DG assembly's element and Dirichlet-face
 * matrices (IPDGOperatorAssembleTriplets without interior faces): the Galerkin coarse operator of the
 * DG problem, including curved elements (the same quadrature), mixed shapes, the screening lambda and
 * the DG problem's boundary conditions, without assembling the DG matrix (about 6x fewer triplets on
 * triangles, 5x on tetrahedra than the order-1 SIPDG assembly, no face loop over interior faces).
 * CG1_MATRIX_GALERKIN forms the product with PETSc (the assembled order-1 SIPDG matrix, MatPtAP): the
 * same matrix up to rounding, kept as the check of the direct one and for a DG operator whose faces
 * would not cancel. Strong Dirichlet rows would not be the Galerkin operator of the weakly imposed
 * DG problem (the DG boundary values are not the data), hence the Nitsche terms.
 *
 * Parallel assembly: each rank assembles its owned elements; an element's vertex may be owned by
 * another rank (a vertex on the partition boundary), and the rank's face-adjacent overlap does not hold
 * every element around such a vertex, so those triplets go to the vertex's owner (one MPI_Alltoallv,
 * partition-boundary vertices only) and HoflowMatCreateFromTriplets sums them there. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/dg.h>
#include <hoflow/log.h>

const char *const CG1MatrixTypes[] = {"direct", "galerkin", "CG1MatrixType", "CG1_MATRIX_", NULL};

/* For each block: node i of its order-1 reference element is reference vertex vmap[b][i]. */
static PetscErrorCode CG1NodeVertexMap(const DGDisc *dg, PetscInt vmap[MESH_MAX_BLOCKS][HOFLOW_VERTS_MAX])
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < dg->nblocks; b++) {
    const RefElement   *ref  = dg->blocks[b].ref;
    const RefShapeInfo *info = &RefShapeTable[ref->shape];
    PetscCheck(ref->Np == info->nverts, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Order-1 %s with %" PetscInt_FMT " nodes, not one per vertex (%d)", info->name, ref->Np, info->nverts);
    for (PetscInt i = 0; i < ref->Np; i++) {
      vmap[b][i] = -1;
      for (PetscInt v = 0; v < info->nverts; v++) {
        PetscReal d2 = 0;
        for (PetscInt d = 0; d < ref->dim; d++) d2 += PetscSqr(ref->xi[i * ref->dim + d] - info->verts[v][d]);
        if (d2 < 1e-20) vmap[b][i] = v;
      }
      PetscCheck(vmap[b][i] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Node %" PetscInt_FMT " of the order-1 %s is not a vertex", i, info->name);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The vertex layout (owned count nv, first row vstart) and, for each owned DG node (local row), the global
 * number of its vertex: node_vertex[dg->nodes]. */
static PetscErrorCode CG1NodeVertices(const DGDisc *dg, PetscInt *nv, PetscInt *vstart, PetscInt *node_vertex[])
{
  const Mesh     *mesh = dg->mesh;
  MPI_Comm        comm = PetscObjectComm((PetscObject)dg->dm);
  PetscInt        vmap[MESH_MAX_BLOCKS][HOFLOW_VERTS_MAX], vStart, vEnd, n = 0, lo = PETSC_MAX_INT, hi = -1, rstart;
  PetscSection    gsec;
  IS              vnum;
  const PetscInt *gnum;

  PetscFunctionBeginUser;
  PetscCall(CG1NodeVertexMap(dg, vmap));
  PetscCall(DMPlexGetDepthStratum(mesh->dm, 0, &vStart, &vEnd));
  PetscCall(DMPlexGetVertexNumbering(mesh->dm, &vnum));
  PetscCall(ISGetIndices(vnum, &gnum));
  for (PetscInt v = 0; v < vEnd - vStart; v++)
    if (gnum[v] >= 0) {
      n++;
      lo = PetscMin(lo, gnum[v]);
      hi = PetscMax(hi, gnum[v]);
    }
  PetscCall(ISRestoreIndices(vnum, &gnum));
  PetscCallMPI(MPI_Scan(&n, vstart, 1, MPIU_INT, MPI_SUM, comm));
  *vstart -= n;
  *nv = n;
  /* the numbering must be the layout of the owned counts (DMPlex numbers owned points in rank order) */
  PetscCheck(n == 0 || (lo == *vstart && hi == *vstart + n - 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "DMPlex's vertex numbering [%" PetscInt_FMT ", %" PetscInt_FMT "] is not this rank's range [%" PetscInt_FMT ", %" PetscInt_FMT ")", lo, hi, *vstart, *vstart + n);

  PetscCallMPI(MPI_Scan(&dg->nodes, &rstart, 1, MPIU_INT, MPI_SUM, comm));
  rstart -= dg->nodes;
  PetscCall(DMGetGlobalSection(dg->dm, &gsec));
  PetscCall(PetscMalloc1(dg->nodes, node_vertex));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt      b = mesh->elem_block[e], Np = dg->blocks[b].Np, *gid = mesh->vertex_gid + e * HOFLOW_VERTS_MAX;
    const RefShapeInfo *info = &RefShapeTable[dg->blocks[b].ref->shape];
    PetscInt            row0;
    for (PetscInt a = 0; a < info->nverts; a++)
      for (PetscInt c = a + 1; c < info->nverts; c++)
        PetscCheck(gid[a] != gid[c], PETSC_COMM_SELF, PETSC_ERR_SUP, "Mesh %s: %s cell %" PetscInt_FMT " has vertices %d and %d at the same mesh vertex (a periodic direction with one cell); -pc_pmg_coarse_space cg1 needs distinct vertices: refine the mesh or use -pc_pmg_coarse_space dg1", mesh->source, info->name, mesh->elem_cell[e], (int)a, (int)c);
    PetscCall(PetscSectionGetOffset(gsec, mesh->elem_cell[e], &row0));
    for (PetscInt i = 0; i < Np; i++) (*node_vertex)[row0 - rstart + i] = gid[vmap[b][i]];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P: DG rows (n) x vertex columns (nv), one 1 per row, in CSR; the column array is node_vertex, taken. */
static PetscErrorCode CG1Prolongation(const DGDisc *dg, PetscInt nv, PetscInt **node_vertex, Mat *P)
{
  PetscBool    cuda;
  PetscInt     n = dg->nodes, *rowptr;
  PetscScalar *ones;

  PetscFunctionBeginUser;
  PetscCall(HoflowDMIsCUDA(dg->dm, &cuda));
  PetscCall(PetscMalloc1(n + 1, &rowptr));
  PetscCall(PetscMalloc1(n, &ones));
  for (PetscInt i = 0; i <= n; i++) rowptr[i] = i;
  for (PetscInt i = 0; i < n; i++) ones[i] = 1.0;
  PetscCall(HoflowMatCreateFromCSR(PetscObjectComm((PetscObject)dg->dm), cuda, "cg1_interp_", n, nv, &rowptr, node_vertex, &ones, P));
  PetscCall(PetscObjectSetName((PetscObject)*P, "CG1 to DG1 injection"));
  if (cuda) { /* AIJCUSPARSE copies the matrix to the device in its first product: do both products in the set-up, not in the first cycle */
    Vec x, y;
    PetscCall(MatCreateVecs(*P, &x, &y));
    PetscCall(VecSet(x, 0.0));
    PetscCall(MatMult(*P, x, y));
    PetscCall(MatMultTranspose(*P, y, x));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send the triplets whose row another rank owns (layout `map`) to that rank; on return this rank's
 * arrays hold its own rows only (reallocated with PetscMalloc3). */
static PetscErrorCode CG1TripletsToOwners(PetscLayout map, PetscCount *ncoo, PetscInt **coo_i, PetscInt **coo_j, PetscScalar **vals)
{
  MPI_Comm     comm = map->comm;
  PetscMPIInt  size, rank, *scount, *rcount, *sdisp, *rdisp, owner;
  PetscInt     rstart = map->rstart, rend = map->rend, *si, *sj, *ni, *nj;
  PetscScalar *sv, *nv;
  PetscCount   nlocal = 0, nsend = 0, nrecv = 0, m = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscCalloc4(size, &scount, size, &rcount, size + 1, &sdisp, size + 1, &rdisp));
  for (PetscCount k = 0; k < *ncoo; k++) {
    const PetscInt r = (*coo_i)[k];
    if (r >= rstart && r < rend)
      nlocal++;
    else {
      PetscCall(PetscLayoutFindOwner(map, r, &owner));
      scount[owner]++;
    }
  }
  PetscCallMPI(MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    sdisp[r + 1] = sdisp[r] + scount[r];
    rdisp[r + 1] = rdisp[r] + rcount[r];
  }
  nsend = sdisp[size];
  nrecv = rdisp[size];
  PetscCall(PetscMalloc3(nsend, &si, nsend, &sj, nsend, &sv));
  for (PetscMPIInt r = 0; r < size; r++) scount[r] = 0;
  for (PetscCount k = 0; k < *ncoo; k++) {
    const PetscInt r = (*coo_i)[k];
    if (r >= rstart && r < rend) continue;
    PetscCall(PetscLayoutFindOwner(map, r, &owner));
    {
      const PetscCount at = sdisp[owner] + scount[owner]++;
      si[at]              = r;
      sj[at]              = (*coo_j)[k];
      sv[at]              = (*vals)[k];
    }
  }
  PetscCall(PetscMalloc3(nlocal + nrecv, &ni, nlocal + nrecv, &nj, nlocal + nrecv, &nv));
  for (PetscCount k = 0; k < *ncoo; k++) {
    const PetscInt r = (*coo_i)[k];
    if (r < rstart || r >= rend) continue;
    ni[m]   = r;
    nj[m]   = (*coo_j)[k];
    nv[m++] = (*vals)[k];
  }
  PetscCallMPI(MPI_Alltoallv(si, scount, sdisp, MPIU_INT, ni + nlocal, rcount, rdisp, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(sj, scount, sdisp, MPIU_INT, nj + nlocal, rcount, rdisp, MPIU_INT, comm));
  PetscCallMPI(MPI_Alltoallv(sv, scount, sdisp, MPIU_SCALAR, nv + nlocal, rcount, rdisp, MPIU_SCALAR, comm));
  PetscCall(PetscFree3(si, sj, sv));
  PetscCall(PetscFree4(scount, rcount, sdisp, rdisp));
  PetscCall(PetscFree3(*coo_i, *coo_j, *vals));
  *ncoo  = nlocal + nrecv;
  *coo_i = ni;
  *coo_j = nj;
  *vals  = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CG1CoarseSpaceCreate(Mat A, CG1MatrixType type, Mat *P, Mat *Acg)
{
  DGDisc      *dg;
  PetscInt     nv = 0, vstart = 0, *node_vertex = NULL, rstart;
  MatNullSpace nullsp;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_CG1Assemble, 0, 0, 0, 0));
  PetscCall(IPDGOperatorGetDisc(A, &dg));
  PetscCheck(dg->N == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "The continuous order-1 coarse space lies below an order-1 SIPDG operator, not order %" PetscInt_FMT, dg->N);
  PetscCall(CG1NodeVertices(dg, &nv, &vstart, &node_vertex));
  if (type == CG1_MATRIX_GALERKIN) {
    Mat Adg;
    PetscCall(CG1Prolongation(dg, nv, &node_vertex, P));
    PetscCall(IPDGOperatorAssemble(A, &Adg));
    PetscCall(MatPtAP(Adg, *P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, Acg));
    PetscCall(MatDestroy(&Adg));
  } else {
    PetscInt    *coo_i, *coo_j;
    PetscScalar *vals;
    PetscCount   ncoo;
    PetscLayout  map;
    PetscCall(IPDGOperatorAssembleTriplets(A, PETSC_FALSE, &ncoo, &coo_i, &coo_j, &vals));
    PetscCallMPI(MPI_Scan(&dg->nodes, &rstart, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
    rstart -= dg->nodes;
    for (PetscCount k = 0; k < ncoo; k++) { /* element rows and columns: this rank's DG nodes */
      coo_i[k] = node_vertex[coo_i[k] - rstart];
      coo_j[k] = node_vertex[coo_j[k] - rstart];
    }
    PetscCall(PetscLayoutCreateFromSizes(PetscObjectComm((PetscObject)A), nv, PETSC_DETERMINE, 1, &map));
    PetscCall(CG1TripletsToOwners(map, &ncoo, &coo_i, &coo_j, &vals));
    PetscCall(PetscLayoutDestroy(&map));
    PetscCall(HoflowMatCreateFromTriplets(dg->dm, "cg1_", nv, ncoo, coo_i, coo_j, vals, Acg));
    PetscCall(PetscFree3(coo_i, coo_j, vals));
    PetscCall(CG1Prolongation(dg, nv, &node_vertex, P)); /* takes node_vertex */
  }
  PetscCall(PetscObjectSetName((PetscObject)*Acg, "CG1 coarse operator"));
  PetscCall(MatSetOption(*Acg, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatGetNullSpace(A, &nullsp));
  if (nullsp) { /* the constant: the same on the continuous space */
    PetscBool  has_const;
    PetscInt   nvecs;
    const Vec *vecs;
    PetscCall(MatNullSpaceGetVecs(nullsp, &has_const, &nvecs, &vecs));
    PetscCheck(has_const && nvecs == 0, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "The continuous order-1 coarse space carries the constant null space only");
    PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &nullsp));
    PetscCall(MatSetNullSpace(*Acg, nullsp));
    PetscCall(MatNullSpaceDestroy(&nullsp));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_CG1Assemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
