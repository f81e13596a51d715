/* The discretization registry and the generic Disc calls (hoflow/disc.h). The built-in
 * discretizations are registered by DiscRegisterAll (op/register.c), where their operators are. */
#include <hoflow/compat.h>
#include <hoflow/conslaw.h>
#include <hoflow/registry.h>

PetscFunctionList DiscList = NULL;

/* The PointFunctions with closed forms: few (the problems' point adaptor), so a short table. */
#define POINT_FUNCTION_CLOSED_FORMS_MAX 8
static struct {
  PointFunction                 f;
  PointFunctionClosedFormGetter get;
} closed_forms[POINT_FUNCTION_CLOSED_FORMS_MAX];
static PetscInt num_closed_forms = 0;

PetscErrorCode PointFunctionRegisterClosedForm(PointFunction f, PointFunctionClosedFormGetter get)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < num_closed_forms; k++)
    if (closed_forms[k].f == f) {
      closed_forms[k].get = get;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  PetscCheck(num_closed_forms < POINT_FUNCTION_CLOSED_FORMS_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most %d point functions with closed forms", POINT_FUNCTION_CLOSED_FORMS_MAX);
  closed_forms[num_closed_forms].f     = f;
  closed_forms[num_closed_forms++].get = get;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PointFunctionGetClosedForm(PointFunction f, void *ctx, HoflowClosedForm *cf)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cf, sizeof(*cf)));
  for (PetscInt k = 0; k < num_closed_forms; k++)
    if (closed_forms[k].f == f && closed_forms[k].get) PetscCall(closed_forms[k].get(ctx, cf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscRegister(const char name[], DiscCreateFunction create)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListAdd(&DiscList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate(Mesh *mesh, const char type[], PetscInt order, Disc *disc)
{
  PetscFunctionBeginUser;
  PetscCall(DiscCreateComponents(mesh, type, order, 1, disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreateComponents(Mesh *mesh, const char type[], PetscInt order, PetscInt ncomp, Disc *disc)
{
  DiscCreateFunction create = NULL;

  PetscFunctionBeginUser;
  PetscCall(HoflowRegistryFind(PetscObjectComm((PetscObject)mesh->dm), DiscList, "-disc", type, (void (**)(void)) & create));
  PetscCall(PetscNew(disc));
  PetscCall(PetscStrncpy((*disc)->type, type, sizeof((*disc)->type)));
  (*disc)->mesh  = mesh;
  (*disc)->order = order;
  (*disc)->ncomp = ncomp;
  PetscCall(create(*disc));
  if ((*disc)->dm) { /* the DM knows its Disc, so a vector knows how its values lie (DiscFromVec); unset by DiscDestroy */
    PetscContainer container;
    PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)(*disc)->dm), &container));
    PetscCall(PetscContainerSetPointer(container, *disc));
    PetscCall(PetscObjectCompose((PetscObject)(*disc)->dm, "hoflow_disc", (PetscObject)container));
    PetscCall(PetscContainerDestroy(&container));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscDestroy(Disc *disc)
{
  PetscFunctionBeginUser;
  if (!*disc) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*disc)->dm) PetscCall(PetscObjectCompose((PetscObject)(*disc)->dm, "hoflow_disc", NULL));
  PetscCall(ConsLawDestroy(&(*disc)->conslaw));
  if ((*disc)->ops.destroy) PetscCall((*disc)->ops.destroy(*disc));
  PetscCall(DMDestroy(&(*disc)->dm));
  PetscCall(PetscFree(*disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define DISC_CALL(disc, op, what, ...)                                                                                                                      \
  do {                                                                                                                                                      \
    PetscCheck((disc)->ops.op, PetscObjectComm((PetscObject)(disc)->dm), PETSC_ERR_SUP, "Discretization -disc %s does not provide %s", (disc)->type, what); \
    PetscCall((disc)->ops.op(disc, __VA_ARGS__));                                                                                                           \
  } while (0)

PetscErrorCode DiscIntegrate(Disc disc, PointFunction f, void *ctx, Vec b)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, integrate, "integrals against its basis", f, ctx, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscL2Error(Disc disc, Vec u, PointFunction f, void *ctx, PetscReal *error)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, l2_error, "L2 errors", u, f, ctx, error);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscProject(Disc disc, PointFunction f, void *ctx, Vec u)
{
  Mat Minv;
  Vec b;

  PetscFunctionBeginUser;
  PetscCall(DiscCreateMass(disc, PETSC_TRUE, &Minv));
  PetscCall(VecDuplicate(u, &b));
  PetscCall(VecZeroEntries(b));
  PetscCall(DiscIntegrate(disc, f, ctx, b));
  PetscCall(MatMult(Minv, b, u));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&Minv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreateMass(Disc disc, PetscBool inverse, Mat *M)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, create_mass, "a mass matrix", inverse, M);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreateMassElliptic(Disc disc, const PetscInt face_type[], Mat *M)
{
  PetscFunctionBeginUser;
  if (!disc->ops.create_mass_elliptic)
    PetscCall(DiscCreateMass(disc, PETSC_FALSE, M));
  else
    PetscCall(disc->ops.create_mass_elliptic(disc, face_type, M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreateElliptic(Disc disc, PetscReal lambda, const PetscInt face_type[], Mat *A)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, create_elliptic, "an elliptic operator", lambda, face_type, A);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscEllipticBoundaryData(Disc disc, Mat A, PointFunction f, void *ctx, Vec b)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, elliptic_boundary_data, "elliptic boundary data", A, f, ctx, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, get_points, "its points", n, x, elem_point);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscGetSubCells(Disc disc, PetscInt *ncells, PetscInt *nverts, PetscInt **cells)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, get_subcells, "output sub-cells", ncells, nverts, cells);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscProjectElements(Disc disc, PetscInt src_order, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, project_elements, "projections from another order or a coarser mesh", src_order, src_vertices, n, src, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscHasPointValues(Disc disc, PetscBool *has)
{
  PetscFunctionBeginUser;
  *has = disc->ops.point_values ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscPointValues(Disc disc, Vec u, Vec ue, ScatterMode mode)
{
  PetscFunctionBeginUser;
  DISC_CALL(disc, point_values, "point values of its vectors", u, ue, mode);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscFromVec(Vec v, Disc *disc)
{
  DM             dm        = NULL;
  PetscContainer container = NULL;

  PetscFunctionBeginUser;
  *disc = NULL;
  PetscCall(VecGetDM(v, &dm));
  if (dm) PetscCall(PetscObjectQuery((PetscObject)dm, "hoflow_disc", (PetscObject *)&container));
  if (container) PetscCall(PetscContainerGetPointer(container, (void **)disc));
  PetscFunctionReturn(PETSC_SUCCESS);
}
