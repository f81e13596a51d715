/* The mean kinetic energy of a compressible state on -disc fr (quadrilaterals and hexahedra: the Gauss solution points
 * are the cubature points), E = (1/|Omega|) int rho |v|^2 / 2 = (1/|Omega|) sum_e sum_i w_i J_i |m_i|^2 / (2 rho_i),
 * by vector operations of the state's own type: on CUDA vectors the components are gathered by a scatter (PetscSF on
 * the device), the point values formed by pointwise products and the sum by a dot product with the weights, so that
 * only the scalar comes to the host (the Taylor–Green monitors every few steps, physics/euler.c). The work vectors are
 * made at the first call (again when the state's type changes) and kept with the DM. */
#include <hoflow/compat.h>
#include <hoflow/fr.h>
#include <hoflow/kernels/fr.h>
#include <hoflow/ref.h>

typedef struct {
  char       type[64];         /* the states' vector type the work vectors are made for ("": none yet) */
  Vec        w, comp[4], work; /* [K*Np] the weights w_i J_i, density and momentum at the points, scratch */
  VecScatter scatter[4];       /* the state's component k of every element to comp[k] */
  PetscReal  volume;
  PetscInt   dim;
} FRKinetic;

static PetscErrorCode FRKineticReset(FRKinetic *k)
{
  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&k->w));
  PetscCall(VecDestroy(&k->work));
  for (PetscInt c = 0; c < 4; c++) {
    PetscCall(VecDestroy(&k->comp[c]));
    PetscCall(VecScatterDestroy(&k->scatter[c]));
  }
  k->type[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRKineticDestroy(void *ctx)
{
  FRKinetic *k = (FRKinetic *)ctx;

  PetscFunctionBeginUser;
  PetscCall(FRKineticReset(k));
  PetscCall(PetscFree(k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the work vectors for states of u's type */
static PetscErrorCode FRKineticSetUp(Disc disc, Vec u, FRKinetic *k)
{
  const FRKernelData *kd;
  MPI_Comm            comm = PetscObjectComm((PetscObject)u);
  PetscInt            K, Np, nv, dim, n1, rstart, *idx;
  PetscReal          *x1, *w1;
  PetscScalar        *w;
  VecType             type;

  PetscFunctionBeginUser;
  PetscCall(VecGetType(u, &type));
  PetscCall(FRKineticReset(k));
  for (PetscInt b = 0; b < disc->mesh->nblocks; b++)
    PetscCheck(RefShapeTable[disc->mesh->blocks[b].shape].tensor, comm, PETSC_ERR_SUP, "The kinetic energy monitor runs on -disc fr on quadrilaterals or hexahedra (Gauss solution points); mesh %s has %s elements", disc->mesh->source, RefShapes[disc->mesh->blocks[b].shape]);
  PetscCall(FRGetKernelData(disc, &kd, NULL, NULL, NULL));
  K = kd->K, Np = kd->Np, nv = kd->nv, dim = kd->dim, n1 = kd->n1;
  PetscCheck(nv == dim + 2, comm, PETSC_ERR_ARG_WRONG, "The kinetic energy monitor needs the compressible state (%" PetscInt_FMT " components), not %" PetscInt_FMT, dim + 2, nv);
  PetscCall(VecCreate(comm, &k->w));
  PetscCall(VecSetSizes(k->w, K * Np, PETSC_DETERMINE));
  PetscCall(VecSetType(k->w, type));
  PetscCall(VecDuplicate(k->w, &k->work));
  for (PetscInt c = 0; c < 4; c++) PetscCall(VecDuplicate(k->w, &k->comp[c]));
  PetscCall(PetscMalloc2(n1, &x1, n1, &w1));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, n1, x1, w1));
  PetscCall(VecGetArrayWrite(k->w, &w));
  for (PetscInt e = 0; e < K; e++)
    for (PetscInt i = 0; i < Np; i++) {
      PetscReal wi = kd->geo[(e * Np + i) * (dim * dim + 1) + dim * dim]; /* J */
      for (PetscInt d = 0, t = i; d < dim; d++, t /= n1) wi *= w1[t % n1];
      w[e * Np + i] = wi;
    }
  PetscCall(VecRestoreArrayWrite(k->w, &w));
  PetscCall(PetscFree2(x1, w1));
  PetscCall(VecSum(k->w, &k->volume));
  PetscCall(VecGetOwnershipRange(u, &rstart, NULL));
  PetscCall(PetscMalloc1(PetscMax(K, 1), &idx));
  for (PetscInt c = 0; c < PetscMin(dim + 1, 4); c++) { /* density, momentum */
    IS is;
    for (PetscInt e = 0; e < K; e++) idx[e] = rstart / Np + e * nv + c; /* blocks of Np: element e's component c */
    PetscCall(ISCreateBlock(comm, Np, K, idx, PETSC_COPY_VALUES, &is));
    PetscCall(VecScatterCreate(u, is, k->comp[c], NULL, &k->scatter[c]));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscFree(idx));
  PetscCall(PetscStrncpy(k->type, type, sizeof(k->type)));
  k->dim = dim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRKineticEnergy(Disc disc, Vec u, PetscReal *energy)
{
  PetscContainer container;
  FRKinetic     *k;
  VecType        type;
  PetscBool      same;
  PetscScalar    s;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery((PetscObject)disc->dm, "hoflow_fr_kinetic", (PetscObject *)&container));
  if (!container) {
    PetscCall(PetscNew(&k));
    PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)disc->dm), &container));
    PetscCall(PetscContainerSetPointer(container, k));
    PetscCall(PetscContainerSetUserDestroy(container, FRKineticDestroy));
    PetscCall(PetscObjectCompose((PetscObject)disc->dm, "hoflow_fr_kinetic", (PetscObject)container));
    PetscCall(PetscContainerDestroy(&container));
  } else
    PetscCall(PetscContainerGetPointer(container, (void **)&k));
  PetscCall(VecGetType(u, &type));
  PetscCall(PetscStrcmp(type, k->type, &same));
  if (!same) PetscCall(FRKineticSetUp(disc, u, k));
  for (PetscInt c = 0; c < k->dim + 1; c++) {
    PetscCall(VecScatterBegin(k->scatter[c], u, k->comp[c], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(k->scatter[c], u, k->comp[c], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscCall(VecPointwiseMult(k->work, k->comp[1], k->comp[1])); /* |m|^2 */
  for (PetscInt d = 1; d < k->dim; d++) {
    PetscCall(VecPointwiseMult(k->comp[1 + d], k->comp[1 + d], k->comp[1 + d]));
    PetscCall(VecAXPY(k->work, 1.0, k->comp[1 + d]));
  }
  PetscCall(VecPointwiseDivide(k->work, k->work, k->comp[0])); /* |m|^2 / rho */
  PetscCall(VecDot(k->work, k->w, &s));
  *energy = 0.5 * PetscRealPart(s) / k->volume;
  PetscFunctionReturn(PETSC_SUCCESS);
}
