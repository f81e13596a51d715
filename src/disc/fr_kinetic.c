/* The mean kinetic energy of a compressible state on -disc fr (quadrilaterals and hexahedra: the Gauss solution points
 * are the cubature points), E = (1/|Omega|) int rho |v|^2 / 2 = (1/|Omega|) sum_e sum_i w_i J_i |m_i|^2 / (2 rho_i), and
 * in 3D with the viscous terms the enstrophy eps = (1/|Omega|) int rho |omega|^2 / 2 from the corrected gradients of
 * a right-hand side at the state (rho omega_x = d_y m_z - d_z m_y - (v_z d_y rho - v_y d_z rho), and so on),
 * by vector operations of the state's own type: on CUDA vectors the components are gathered by a scatter (PetscSF on
 * the device), the point values formed by pointwise products and the sum by a dot product with the weights, so that
 * only the scalar comes to the host (the Taylor–Green monitors every few steps, physics/euler.c). The work vectors are
 * made at the first call (again when the state's type changes) and kept with the DM. */
#include <hoflow/compat.h>
#include <hoflow/conslaw.h>
#include <hoflow/device.h>
#include <hoflow/fr.h>
#include <hoflow/kernels/fr.h>
#include <hoflow/ref.h>

typedef struct {
  char       type[64];         /* the states' vector type the work vectors are made for ("": none yet) */
  Vec        w, comp[4], work; /* [K*Np] the weights w_i J_i, density and momentum at the points, scratch */
  VecScatter scatter[4];       /* the state's component k of every element to comp[k] */
  PetscReal  volume;
  PetscInt   dim;
  /* the enstrophy: a right-hand side, the corrected gradients (the kernel data's array) as a vector, d_j rho and d_j m_k
   * (j, k = 0..2) at the points (9 vectors [K*Np]) and the scatters to them */
  Vec        f, grad, g[3][4];
  VecScatter gscatter[3][4];
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
  PetscCall(VecDestroy(&k->f));
  PetscCall(VecDestroy(&k->grad));
  for (PetscInt j = 0; j < 3; j++)
    for (PetscInt c = 0; c < 4; c++) {
      PetscCall(VecDestroy(&k->g[j][c]));
      PetscCall(VecScatterDestroy(&k->gscatter[j][c]));
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

/* the cache kept with the DM, set up for states of u's type */
static PetscErrorCode FRKineticGet(Disc disc, Vec u, FRKinetic **kk)
{
  PetscContainer container;
  FRKinetic     *k;
  VecType        type;
  PetscBool      same;

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
  *kk = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* density and momentum of u at the points into comp[0..dim] */
static PetscErrorCode FRKineticGather(FRKinetic *k, Vec u)
{
  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < k->dim + 1; c++) {
    PetscCall(VecScatterBegin(k->scatter[c], u, k->comp[c], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(k->scatter[c], u, k->comp[c], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRKineticEnergy(Disc disc, Vec u, PetscReal *energy)
{
  FRKinetic  *k;
  PetscScalar s;

  PetscFunctionBeginUser;
  PetscCall(FRKineticGet(disc, u, &k));
  PetscCall(FRKineticGather(k, u));
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

PetscErrorCode FREnstrophy(ConsLaw cl, Vec u, PetscReal *enstrophy)
{
  Disc                disc = cl->disc;
  MPI_Comm            comm = PetscObjectComm((PetscObject)u);
  FRKinetic          *k;
  const FRKernelData *kh, *kd;
  PetscScalar         s;
  PetscBool           cuda;
  Vec                 o[3];

  PetscFunctionBeginUser;
  PetscCall(FRKineticGet(disc, u, &k));
  PetscCall(FRGetKernelData(disc, &kh, NULL, NULL, NULL));
  PetscCheck(kh->dim == 3 && kh->ldg.on, comm, PETSC_ERR_SUP, "The enstrophy monitor needs the 3D Navier-Stokes equations (physics navier_stokes) on -disc fr");
  if (!k->f) PetscCall(VecDuplicate(u, &k->f));
  PetscCall(ConsLawRHS(cl, u, k->f)); /* the corrected gradients of u (V2) */
  if (!k->grad) {                     /* the gradients' array as a vector, then its components at the points */
    const PetscInt K = kh->K, Np = kh->Np, nv = kh->nv, n = K * 3 * nv * Np;
    PetscInt       rstart, *idx;
    PetscCall(HoflowVecIsCUDA(u, &cuda));
    PetscCall(FRGetKernelData(disc, NULL, &kd, NULL, NULL));
    if (!cuda)
      PetscCall(VecCreateMPIWithArray(comm, 1, n, PETSC_DETERMINE, kh->grad, &k->grad));
    else {
#if defined(HOFLOW_HAVE_CUDA)
      PetscCall(VecCreateMPICUDAWithArray(comm, 1, n, PETSC_DETERMINE, kd->grad, &k->grad));
#else
      SETERRQ(comm, PETSC_ERR_SUP, "CUDA vectors need a hoflow built with CUDA");
#endif
    }
    PetscCall(VecGetOwnershipRange(k->grad, &rstart, NULL));
    PetscCall(PetscMalloc1(PetscMax(K, 1), &idx));
    for (PetscInt j = 0; j < 3; j++)
      for (PetscInt c = 0; c < 4; c++) {
        IS is;
        for (PetscInt e = 0; e < K; e++) idx[e] = rstart / Np + (e * 3 + j) * nv + c; /* [(j*nv + c)*Np + i] of element e */
        PetscCall(ISCreateBlock(comm, Np, K, idx, PETSC_COPY_VALUES, &is));
        PetscCall(VecDuplicate(k->w, &k->g[j][c]));
        PetscCall(VecScatterCreate(k->grad, is, k->g[j][c], NULL, &k->gscatter[j][c]));
        PetscCall(ISDestroy(&is));
      }
    PetscCall(PetscFree(idx));
  }
  for (PetscInt j = 0; j < 3; j++)
    for (PetscInt c = 0; c < 4; c++) {
      PetscCall(VecScatterBegin(k->gscatter[j][c], k->grad, k->g[j][c], INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(k->gscatter[j][c], k->grad, k->g[j][c], INSERT_VALUES, SCATTER_FORWARD));
    }
  PetscCall(FRKineticGather(k, u));
  for (PetscInt c = 1; c < 4; c++) PetscCall(VecPointwiseDivide(k->comp[c], k->comp[c], k->comp[0])); /* v */
  for (PetscInt j = 0; j < 3; j++)                                                                    /* g[j][c] = d_j m_c - v_c d_j rho = rho d_j v_c */
    for (PetscInt c = 1; c < 4; c++) {
      if (c - 1 == j) continue;
      PetscCall(VecPointwiseMult(k->work, k->comp[c], k->g[j][0]));
      PetscCall(VecAXPY(k->g[j][c], -1.0, k->work));
    }
  for (PetscInt a = 0; a < 3; a++) { /* rho omega_a = rho (d_b v_c - d_c v_b), (a, b, c) cyclic */
    const PetscInt b = (a + 1) % 3, c = (a + 2) % 3;
    o[a] = k->g[b][1 + c];
    PetscCall(VecAXPY(o[a], -1.0, k->g[c][1 + b]));
  }
  PetscCall(VecPointwiseMult(k->work, o[0], o[0]));
  for (PetscInt a = 1; a < 3; a++) {
    PetscCall(VecPointwiseMult(o[a], o[a], o[a]));
    PetscCall(VecAXPY(k->work, 1.0, o[a]));
  }
  PetscCall(VecPointwiseDivide(k->work, k->work, k->comp[0])); /* rho |omega|^2 */
  PetscCall(VecDot(k->work, k->w, &s));
  *enstrophy = 0.5 * PetscRealPart(s) / k->volume;
  PetscFunctionReturn(PETSC_SUCCESS);
}
