/* The Jacobian of a conservation law's right-hand side d(M^{-1} R)/du by colored finite differences
 * (hoflow/conslaw.h), for any discretization whose element's right-hand side depends on its own values
 * and its face neighbours' (modal DG: also with the BR2 viscous terms, the neighbour's projected gradient
 * being its own). Two kinds:
 *
 *   blocks  the element-diagonal blocks only, with a distance-1 coloring of the element graph
 *           (perturbing mode j of every element of one colour changes each such element's rows by
 *           its own column j alone): element-block Jacobi;
 *   full    the blocks and the neighbour couplings, with a distance-2 coloring (within an element's
 *           closed neighbourhood at most one element has a given colour, so a change of its rows is
 *           that element's column): the whole Jacobian for LU, ILU or AMG.
 *
 * ncolours x max(nv Np) evaluations of the right-hand side per Jacobian. The colouring is global
 * (PETSc's MatColoring of the element graph), so perturbations of neighbours on other ranks never mix;
 * halo elements learn their colour and global dof offset through the state's own halo exchange. */
#include <hoflow/compat.h>
#include <hoflow/conslaw.h>

struct _n_ConsLawJacobian {
  ConsLaw   cl;
  PetscBool full;
  PetscInt  ncolors, maxdof;
  PetscInt *color; /* [Klocal] colour of every local element */
  PetscInt *gdof;  /* [Klocal] global number of every local element's first coefficient */
  PetscInt *nbr;   /* [K*(HOFLOW_FACES_MAX+1)] the closed neighbourhood of every owned element (-1: none) */
  Vec       up, fu, fp;
};

/* a value per owned element (owned[e]) to every local element (all[l]): it rides in the element's first
 * coefficient through the state's halo exchange */
static PetscErrorCode ConsLawElementExchange(ConsLaw cl, const PetscInt owned[], PetscInt **all)
{
  const Mesh  *mesh = cl->disc->mesh;
  DM           dm   = cl->disc->dm;
  Vec          g, l;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(DMGetGlobalVector(dm, &g));
  PetscCall(DMGetLocalVector(dm, &l));
  PetscCall(VecGetArray(g, &a));
  for (PetscInt e = 0; e < mesh->K; e++) a[cl->elem_dof[e]] = (PetscScalar)owned[e];
  PetscCall(VecRestoreArray(g, &a));
  PetscCall(DMGlobalToLocal(dm, g, INSERT_VALUES, l));
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), all));
  PetscCall(VecGetArray(l, &a));
  for (PetscInt e = 0; e < mesh->Klocal; e++) (*all)[e] = (PetscInt)PetscRealPart(a[cl->elem_dof[e]]);
  PetscCall(VecRestoreArray(l, &a));
  PetscCall(DMRestoreLocalVector(dm, &l));
  PetscCall(DMRestoreGlobalVector(dm, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawJacobianCreate(ConsLaw cl, PetscBool full, ConsLawJacobian *jac, Mat *P)
{
  MPI_Comm               comm = PetscObjectComm((PetscObject)cl->disc->dm);
  const Mesh            *mesh = cl->disc->mesh;
  const PetscInt         NB   = HOFLOW_FACES_MAX + 1;
  ConsLawJacobian        b;
  PetscInt              *gid, *own, *dnnz, *onnz, rstart, nloc, start = 0;
  Mat                    adj;
  MatColoring            mc;
  ISColoring             isc;
  PetscInt               n;
  const ISColoringValue *colors;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&b));
  b->cl   = cl;
  b->full = full;
  PetscCallMPI(MPI_Scan(&mesh->K, &start, 1, MPIU_INT, MPI_SUM, comm));
  start -= mesh->K;
  PetscCall(PetscMalloc1(PetscMax(mesh->K, 1), &own));
  for (PetscInt e = 0; e < mesh->K; e++) own[e] = start + e;
  PetscCall(ConsLawElementExchange(cl, own, &gid));
  PetscCall(PetscMalloc1(PetscMax(mesh->K * NB, 1), &b->nbr));
  /* the element graph, one row per owned element: its face neighbours (mesh->face_elem) */
  PetscCall(MatCreateAIJ(comm, mesh->K, mesh->K, PETSC_DETERMINE, PETSC_DETERMINE, HOFLOW_FACES_MAX + 1, NULL, HOFLOW_FACES_MAX, NULL, &adj));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const PetscInt row = gid[e], nfaces = mesh->face_slot[e + 1] - mesh->face_slot[e];
    PetscInt      *nbr = b->nbr + e * NB;
    PetscCall(MatSetValue(adj, row, row, 1.0, INSERT_VALUES));
    nbr[0] = e;
    for (PetscInt f = 0; f < NB - 1; f++) nbr[1 + f] = -1;
    for (PetscInt f = 0; f < nfaces; f++) {
      const PetscInt nb  = mesh->face_elem[mesh->face_slot[e] + f];
      PetscBool      dup = (PetscBool)(nb == e);
      for (PetscInt g = 0; g < f; g++) dup = (PetscBool)(dup || nbr[1 + g] == nb);
      if (nb >= 0 && !dup) {
        PetscCall(MatSetValue(adj, row, gid[nb], 1.0, INSERT_VALUES));
        nbr[1 + f] = nb;
      }
    }
    b->maxdof = PetscMax(b->maxdof, cl->elem_dof[e + 1] - cl->elem_dof[e]);
  }
  PetscCall(MatAssemblyBegin(adj, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(adj, MAT_FINAL_ASSEMBLY));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &b->maxdof, 1, MPIU_INT, MPI_MAX, comm));
  PetscCall(MatColoringCreate(adj, &mc));
  PetscCall(MatColoringSetType(mc, MATCOLORINGGREEDY));
  PetscCall(MatColoringSetDistance(mc, full ? 2 : 1));
  PetscCall(MatColoringApply(mc, &isc));
  PetscCall(ISColoringGetColors(isc, &n, &b->ncolors, &colors));
  PetscCheck(n == mesh->K, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Coloring of %" PetscInt_FMT " elements for %" PetscInt_FMT, n, mesh->K);
  for (PetscInt e = 0; e < n; e++) own[e] = colors[e];
  PetscCall(ISColoringDestroy(&isc));
  PetscCall(ConsLawElementExchange(cl, own, &b->color));
  PetscCall(MatColoringDestroy(&mc));
  PetscCall(MatDestroy(&adj));
  PetscCall(PetscFree(gid));
  /* the block-diagonal matrix on the state's layout */
  PetscCall(DMCreateGlobalVector(cl->disc->dm, &b->up));
  PetscCall(VecDuplicate(b->up, &b->fu));
  PetscCall(VecDuplicate(b->up, &b->fp));
  PetscCall(VecGetLocalSize(b->up, &nloc));
  PetscCall(VecGetOwnershipRange(b->up, &rstart, NULL));
  for (PetscInt e = 0; e < mesh->K; e++) own[e] = rstart + cl->elem_dof[e];
  PetscCall(ConsLawElementExchange(cl, own, &b->gdof));
  PetscCall(PetscCalloc2(PetscMax(nloc, 1), &dnnz, PetscMax(nloc, 1), &onnz));
  for (PetscInt e = 0; e < mesh->K; e++)
    for (PetscInt k = 0; k < (full ? NB : 1); k++) {
      const PetscInt p = b->nbr[e * NB + k];
      if (p < 0) continue;
      for (PetscInt i = cl->elem_dof[e]; i < cl->elem_dof[e + 1]; i++) {
        if (p < mesh->K)
          dnnz[i] += cl->elem_dof[p + 1] - cl->elem_dof[p];
        else
          onnz[i] += cl->elem_dof[p + 1] - cl->elem_dof[p];
      }
    }
  PetscCall(MatCreateAIJ(comm, nloc, nloc, PETSC_DETERMINE, PETSC_DETERMINE, 0, dnnz, 0, onnz, P));
  PetscCall(MatSetOption(*P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(PetscFree(own));
  *jac = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawJacobianDestroy(ConsLawJacobian *bj)
{
  PetscFunctionBeginUser;
  if (!*bj) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecDestroy(&(*bj)->up));
  PetscCall(VecDestroy(&(*bj)->fu));
  PetscCall(VecDestroy(&(*bj)->fp));
  PetscCall(PetscFree((*bj)->color));
  PetscCall(PetscFree((*bj)->gdof));
  PetscCall(PetscFree((*bj)->nbr));
  PetscCall(PetscFree(*bj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawJacobianCompute(ConsLawJacobian b, Vec u, Mat P)
{
  ConsLaw            cl   = b->cl;
  const Mesh        *mesh = cl->disc->mesh;
  DM                 dm   = cl->disc->dm;
  const PetscScalar *ua, *f0, *f1, *uh;
  PetscScalar       *pa;
  PetscInt           rstart;
  PetscReal         *h;
  Vec                ul;

  PetscFunctionBeginUser;
  PetscCall(ConsLawRHS(cl, u, b->fu));
  PetscCall(DMGetLocalVector(dm, &ul)); /* the halo elements' values: their owners' step sizes */
  PetscCall(DMGlobalToLocal(dm, u, INSERT_VALUES, ul));
  PetscCall(VecGetArrayRead(ul, &uh));
  PetscCall(VecGetOwnershipRange(u, &rstart, NULL));
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &h));
  PetscCall(MatZeroEntries(P));
  for (PetscInt c = 0; c < b->ncolors; c++)
    for (PetscInt j = 0; j < b->maxdof; j++) {
      PetscCall(VecCopy(u, b->up));
      PetscCall(VecGetArrayRead(u, &ua));
      PetscCall(VecGetArray(b->up, &pa));
      for (PetscInt e = 0; e < mesh->K; e++) {
        const PetscInt i0 = cl->elem_dof[e];
        h[e]              = 0;
        if (b->color[e] != c || j >= cl->elem_dof[e + 1] - i0) continue;
        h[e] = 1e-7 * (1 + PetscAbsReal(PetscRealPart(ua[i0 + j])));
        pa[i0 + j] += h[e];
      }
      PetscCall(VecRestoreArray(b->up, &pa));
      PetscCall(VecRestoreArrayRead(u, &ua));
      PetscCall(ConsLawRHS(cl, b->up, b->fp));
      PetscCall(VecGetArrayRead(b->fu, &f0));
      PetscCall(VecGetArrayRead(b->fp, &f1));
      for (PetscInt e = 0; e < mesh->K; e++) {
        const PetscInt i0 = cl->elem_dof[e], nd = cl->elem_dof[e + 1] - i0;
        for (PetscInt k = 0; k < (b->full ? HOFLOW_FACES_MAX + 1 : 1); k++) {
          const PetscInt p = b->nbr[e * (HOFLOW_FACES_MAX + 1) + k];
          PetscReal      hp;
          if (p < 0 || b->color[p] != c || j >= cl->elem_dof[p + 1] - cl->elem_dof[p]) continue;
          hp = p < mesh->K ? h[p] : 1e-7 * (1 + PetscAbsReal(PetscRealPart(uh[cl->elem_dof[p] + j]))); /* the owner's step, from the same state */
          for (PetscInt i = 0; i < nd; i++) PetscCall(MatSetValue(P, rstart + i0 + i, b->gdof[p] + j, PetscRealPart(f1[i0 + i] - f0[i0 + i]) / hp, INSERT_VALUES));
        }
      }
      PetscCall(VecRestoreArrayRead(b->fp, &f1));
      PetscCall(VecRestoreArrayRead(b->fu, &f0));
    }
  PetscCall(PetscFree(h));
  PetscCall(VecRestoreArrayRead(ul, &uh));
  PetscCall(DMRestoreLocalVector(dm, &ul));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
