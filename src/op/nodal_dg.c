/* The nodal DG discretization (-disc ipdg) complete: its data (disc/dg.c, DGDiscSetUp) and the
 * operators of this layer as its Disc operations: mass matrices and the SIPDG elliptic operator with
 * its boundary data. Registered with the other built-in discretizations in op/register.c. */
#include <hoflow/compat.h>
#include <hoflow/dg.h>

static PetscErrorCode DGCreateMass(Disc disc, PetscBool inverse, Mat *M)
{
  PetscFunctionBeginUser;
  PetscCall(DGMassOperatorCreate((DGDisc *)disc->data, inverse, M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGCreateElliptic(Disc disc, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorCreate((DGDisc *)disc->data, lambda, face_type, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DGEllipticBoundaryData(Disc disc, Mat A, PointFunction f, void *ctx, Vec b)
{
  const PetscInt *face_type;
  PetscReal      *bc_data;

  PetscFunctionBeginUser;
  PetscCall(IPDGOperatorGetFaceTypes(A, &face_type));
  PetscCall(DGDiscBoundaryData((DGDisc *)disc->data, face_type, f, ctx, &bc_data));
  PetscCall(IPDGOperatorAddBoundaryData(A, bc_data, b));
  PetscCall(PetscFree(bc_data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate_NodalDG(Disc disc)
{
  PetscFunctionBeginUser;
  PetscCheck(disc->ncomp == 1, PetscObjectComm((PetscObject)disc->mesh->dm), PETSC_ERR_SUP, "-disc ipdg discretizes one scalar field; the problem's physics has %" PetscInt_FMT " components (use -disc mdg)", disc->ncomp);
  PetscCall(DGDiscSetUp(disc));
  disc->ops.create_mass            = DGCreateMass;
  disc->ops.create_elliptic        = DGCreateElliptic;
  disc->ops.elliptic_boundary_data = DGEllipticBoundaryData;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DGDiscCreate(Mesh *mesh, PetscInt N, Disc *disc)
{
  PetscFunctionBeginUser;
  PetscCall(DiscRegisterAll());
  PetscCall(DiscCreate(mesh, "ipdg", N, disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
