/* Restarts of -disc fr at another order (-restart_project, order sequencing: converge N = 1, continue at N = 3), for
 * the tensor (disc/fr.c) and the dense (disc/fr_dense.c) operators alike, on meshes of one or several element shapes.
 *
 * An element's values at the order-Ns solution points of its shape are the nodal basis l_j of that point set; at this
 * run's order-N solution points y_i the function is sum_j l_j(y_i) u_j, with l_j(y) = sum_m phi_m(y) V^{-1}_mj, phi the
 * shape's orthonormal modal basis of order Ns and V_im = phi_m(x_i) at the source points (ref/: RefElementModalBasis).
 * One matrix per shape serves every element of the same mesh (the reference coordinates are the element's own, so a
 * curved element, whose geometry order may differ with the order, maps as its straight-sided self: its values move with
 * the reference point, not the physical one). A field of degree <= Ns is reproduced exactly when N >= Ns; below Ns the
 * result is the interpolant at the order-N points (not an L2 projection: the state is the source's at every point).
 *
 * On a mesh of one shape the checkpoint may also come from the mesh this one refines, or list an element's vertices in
 * another order (src_vertices, each element's source element): the points are then mapped through the two elements'
 * affine maps, for affine elements only (a bilinear or curved element is refused with the option named). */
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/geom.h>

/* P[Np*Nps]: the order-Ns nodal basis of the source points (Vinv, V^{-1}) at n reference points y */
static PetscErrorCode FRProjectMatrix(RefShape shape, PetscInt Ns, PetscInt Nps, const PetscReal Vinv[], PetscInt n, const PetscReal y[], PetscReal P[])
{
  PetscReal *phi;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * Nps, &phi));
  PetscCall(RefElementModalBasis(shape, Ns, n, y, phi, NULL));
  DenseMatMult(n, Nps, Nps, phi, Vinv, P);
  PetscCall(PetscFree(phi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRProjectElements(Disc disc, FRSolutionPointsFunction points, const PetscInt elem_dof[], PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  const Mesh    *mesh = disc->mesh;
  const PetscInt dim = mesh->dim, nv = disc->ncomp;
  PetscInt       Np[REF_NUM_SHAPES] = {0}, Nps[REF_NUM_SHAPES] = {0}, soff = 0, npm = 1, nsm = 1;
  PetscReal     *xi[REF_NUM_SHAPES] = {NULL}, *P[REF_NUM_SHAPES] = {NULL}, *Vinv[REF_NUM_SHAPES] = {NULL}, *Pe, *ye;
  PetscScalar  **ua;

  PetscFunctionBeginUser;
  PetscCheck(Ns >= 1 && Ns <= HOFLOW_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-restart_project: the checkpoint's order %" PetscInt_FMT " is outside 1..%d", Ns, HOFLOW_NMAX);
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefShape s = MeshElementShape(mesh, e);
    PetscReal     *xs, *V;
    if (P[s]) continue;
    PetscCall(points(s, disc->order, &Np[s], &xi[s]));
    PetscCall(points(s, Ns, &Nps[s], &xs));
    PetscCall(PetscMalloc1(Nps[s] * Nps[s], &V));
    PetscCall(PetscMalloc1(Nps[s] * Nps[s], &Vinv[s]));
    PetscCall(PetscMalloc1(Np[s] * Nps[s], &P[s]));
    PetscCall(RefElementModalBasis(s, Ns, Nps[s], xs, V, NULL));
    PetscCall(DenseInvert(Nps[s], V, Vinv[s]));
    PetscCall(FRProjectMatrix(s, Ns, Nps[s], Vinv[s], Np[s], xi[s], P[s]));
    PetscCall(PetscFree(xs));
    PetscCall(PetscFree(V));
    npm = PetscMax(npm, Np[s]);
    nsm = PetscMax(nsm, Nps[s]);
  }
  PetscCall(PetscMalloc2(npm * nsm, &Pe, npm * dim, &ye));
  PetscCall(PetscMalloc1(n, &ua));
  for (PetscInt k = 0; k < n; k++) PetscCall(VecGetArrayWrite(u[k], &ua[k]));
  for (PetscInt e = 0; e < mesh->K; e++) {
    const RefShape   s      = MeshElementShape(mesh, e);
    const PetscInt   nverts = RefShapeTable[s].nverts;
    const PetscReal *A = P[s], *own = mesh->vertices + e * HOFLOW_VERTS_MAX * dim;
    PetscCheck(elem_dof[e + 1] - elem_dof[e] == nv * Np[s], PETSC_COMM_SELF, PETSC_ERR_PLIB, "-restart_project: element %" PetscInt_FMT " has %" PetscInt_FMT " values, expected %" PetscInt_FMT, e, elem_dof[e + 1] - elem_dof[e], nv * Np[s]);
    if (src_vertices) { /* one shape (CheckpointRead): the source element's vertices, nverts a block */
      const PetscReal *sv   = src_vertices + e * nverts * dim;
      PetscReal        size = 0, miss = 0, jac[9];
      for (PetscInt i = 0; i < nverts * dim; i++) size = PetscMax(size, PetscAbsReal(own[i]));
      for (PetscInt i = 0; i < nverts * dim; i++) miss = PetscMax(miss, PetscAbsReal(sv[i] - own[i]));
      if (miss > 1e-12 * PetscMax(size, 1)) { /* another element (a refined mesh) or its vertices in another order */
        const PetscReal out   = GeomAffineJacobian(s, (int)dim, sv, jac);
        PetscReal       scale = 0;
        for (PetscInt q = 0; q < dim * dim; q++) scale = PetscMax(scale, PetscAbsReal(jac[q]));
        PetscCheck(out <= 1e-10 * scale && !MeshElementIsCurved(mesh, e), PETSC_COMM_SELF, PETSC_ERR_SUP,
                   "-restart_project: -disc fr maps a checkpoint's element onto another element of this run (this mesh refines the checkpoint's, or lists the element's vertices in another order) through affine maps only; cell %" PetscInt_FMT " (a %s) is not affine (%s): restart on the checkpoint's mesh, or on an affine mesh",
                   mesh->elem_cell[e], RefShapes[s], out > 1e-10 * scale ? "the checkpoint's element is not an affine image of the reference element" : "this run's element is curved or not affine");
        for (PetscInt p = 0; p < Np[s]; p++) {
          PetscReal x[3];
          GeomAffineMap(s, (int)dim, own, xi[s] + p * dim, x);
          GeomAffineInverseMap(s, (int)dim, sv, x, ye + p * dim);
        }
        PetscCall(FRProjectMatrix(s, Ns, Nps[s], Vinv[s], Np[s], ye, Pe));
        A = Pe;
      }
    }
    for (PetscInt k = 0; k < n; k++)
      for (PetscInt c = 0; c < nv; c++) {
        const PetscReal *in  = src[k] + soff + c * Nps[s];
        PetscScalar     *out = ua[k] + elem_dof[e] + c * Np[s];
        for (PetscInt i = 0; i < Np[s]; i++) {
          PetscReal sum = 0;
          for (PetscInt j = 0; j < Nps[s]; j++) sum += A[i * Nps[s] + j] * in[j];
          out[i] = sum;
        }
      }
    soff += nv * Nps[s];
  }
  for (PetscInt k = 0; k < n; k++) PetscCall(VecRestoreArrayWrite(u[k], &ua[k]));
  PetscCall(PetscFree(ua));
  PetscCall(PetscFree2(Pe, ye));
  for (PetscInt s = 0; s < REF_NUM_SHAPES; s++) {
    PetscCall(PetscFree(xi[s]));
    PetscCall(PetscFree(Vinv[s]));
    PetscCall(PetscFree(P[s]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
