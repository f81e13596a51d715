/* The conservation-law interface of a discretization (hoflow/conslaw.h): the calls through its table, and
 * what every discretization shares (the wall forces from the wall samples, element values spread to their
 * rows). The colored finite-difference Jacobian is op/conslaw_jacobian.c. */
#include <hoflow/compat.h>
#include <hoflow/conslaw.h>
#include <hoflow/device.h>

PetscErrorCode DiscGetConsLaw(Disc disc, const char what[], ConsLaw *cl)
{
  PetscFunctionBeginUser;
  PetscCheck(disc->conslaw, PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_SUP, "%s need a discretization of conservation laws (-disc mdg or fr); -disc %s is not one", what, disc->type);
  *cl = disc->conslaw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawCreate(Disc disc, ConsLaw *cl)
{
  PetscFunctionBeginUser;
  PetscCall(PetscNew(cl));
  (*cl)->disc  = disc;
  (*cl)->dim   = disc->mesh->dim;
  (*cl)->nv    = disc->ncomp;
  (*cl)->order = disc->order;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawSetLayout(ConsLaw cl, void *data, PetscInt N, PetscInt nbpoints, const PetscReal bx[], const PetscReal bn[], const PetscInt btype[], PetscReal bc_point[], const PetscInt elem_dof[])
{
  PetscFunctionBeginUser;
  cl->data      = data;
  cl->cfl_scale = 2 * N + 1;
  cl->nbpoints  = nbpoints;
  cl->bx        = bx;
  cl->bn        = bn;
  cl->btype     = btype;
  cl->bc_point  = bc_point;
  cl->elem_dof  = elem_dof;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawDestroy(ConsLaw *cl)
{
  PetscFunctionBeginUser;
  if (!*cl) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecScatterDestroy(&(*cl)->spread));
  PetscCall(PetscFree(*cl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define CONSLAW_CALL(cl, op, what, ...)                                                                                                                           \
  do {                                                                                                                                                            \
    PetscCheck((cl)->ops.op, PetscObjectComm((PetscObject)(cl)->disc->dm), PETSC_ERR_SUP, "Discretization -disc %s does not provide %s", (cl)->disc->type, what); \
    PetscCall((cl)->ops.op(cl, __VA_ARGS__));                                                                                                                     \
  } while (0)

PetscErrorCode ConsLawSetEquations(ConsLaw cl, PetscReal gamma, PetscInt flux)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, set_equations, "the Euler equations' constants", gamma, flux);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawSetViscous(ConsLaw cl, const NSViscosity *vis, PetscReal eta)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, set_viscous, "viscous terms (physics navier_stokes)", vis, eta);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawSetLimiter(ConsLaw cl, PetscBool barth, PetscBool positivity, PetscReal eps, PetscReal sensor)
{
  PetscFunctionBeginUser;
  if (!cl->ops.set_limiter && !barth && !positivity) PetscFunctionReturn(PETSC_SUCCESS); /* none asked of a discretization without one */
  CONSLAW_CALL(cl, set_limiter, "limiters (-euler_limiter, -euler_positivity)", barth, positivity, eps, sensor);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawUpdateBoundaryData(ConsLaw cl)
{
  PetscFunctionBeginUser;
  if (cl->ops.update_boundary_data) PetscCall(cl->ops.update_boundary_data(cl)); /* none: it reads bc_point itself */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawRHS(ConsLaw cl, Vec u, Vec f)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, rhs, "a right-hand side", u, f);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawMaxWaveSpeed(ConsLaw cl, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed)
{
  Vec s;

  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, max_wave_speed, "wave speeds (the CFL step)", u, speed, bad_cell, &s);
  if (element_speed) *element_speed = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawElementVector(Vec u, PetscInt K, Vec *v)
{
  PetscFunctionBeginUser;
  if (*v) { /* made for the other backend: remake */
    PetscBool u_on_device, v_on_device;
    PetscCall(HoflowVecIsCUDA(u, &u_on_device));
    PetscCall(HoflowVecIsCUDA(*v, &v_on_device));
    if (u_on_device != v_on_device) PetscCall(VecDestroy(v));
  }
  if (!*v) {
    VecType type;
    PetscCall(VecGetType(u, &type));
    PetscCall(VecCreate(PetscObjectComm((PetscObject)u), v));
    PetscCall(VecSetSizes(*v, K, PETSC_DETERMINE));
    PetscCall(VecSetType(*v, type));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawElementSpeedsReduce(Vec speeds, const PetscInt elem_cell[], PetscReal *speed, PetscInt *bad_cell)
{
  PetscReal smin;

  PetscFunctionBeginUser;
  PetscCall(VecMax(speeds, NULL, speed));
  PetscCall(VecMin(speeds, NULL, &smin));
  *bad_cell = -1;
  if (smin < 0) {
    const PetscScalar *s;
    PetscInt           K;
    *speed = -1;
    PetscCall(VecGetLocalSize(speeds, &K));
    PetscCall(VecGetArrayRead(speeds, &s));
    for (PetscInt e = 0; e < K && *bad_cell < 0; e++)
      if (s[e] < 0) *bad_cell = elem_cell[e];
    PetscCall(VecRestoreArrayRead(speeds, &s));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawLimit(ConsLaw cl, Vec u, PetscInt *nlimited)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, limit, "limiters (-euler_limiter, -euler_positivity)", u, nlimited);
  cl->nlimited = *nlimited;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawProject(ConsLaw cl, ConsLawStateFunction f, void *ctx, Vec u)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, project, "projections of a state", f, ctx, u);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawErrorNorm(ConsLaw cl, NormType type, Vec u, ConsLawStateFunction f, void *ctx, PetscReal err[])
{
  PetscFunctionBeginUser;
  PetscCheck(type == NORM_1 || type == NORM_2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "ConsLawErrorNorm: L1 (NORM_1) or L2 (NORM_2) errors only");
  CONSLAW_CALL(cl, error_norm, "error norms", type, u, f, ctx, err);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawEnergy(ConsLaw cl, Vec u, PetscReal *energy)
{
  PetscFunctionBeginUser;
  if (cl->ops.energy)
    PetscCall(cl->ops.energy(cl, u, energy));
  else {
    PetscReal norm[EULER_NV_MAX];
    PetscCall(ConsLawErrorNorm(cl, NORM_2, u, NULL, NULL, norm));
    *energy = 0;
    for (PetscInt k = 0; k < cl->nv; k++) *energy += norm[k] * norm[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawIntegrate(ConsLaw cl, Vec u, PetscReal total[])
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, integrate, "integrals of the state", u, total);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawElementMeans(ConsLaw cl, Vec u, PetscReal means[])
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, element_means, "element means (-euler_means_file)", u, means);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawEvaluate(ConsLaw cl, Vec u, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[])
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, evaluate, "the state at reference points (field output)", u, b, n, xi, w);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawWallSamples(ConsLaw cl, Vec u, PetscInt *nrows, PetscReal **rows)
{
  PetscFunctionBeginUser;
  CONSLAW_CALL(cl, wall_samples, "wall data (forces, -ns_surface_file)", u, nrows, rows);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ConsLawWallForces(ConsLaw cl, Vec u, PetscReal Fp[], PetscReal Fv[])
{
  PetscReal *rows, F[6] = {0, 0, 0, 0, 0, 0};
  PetscInt   n;

  PetscFunctionBeginUser;
  PetscCall(ConsLawWallSamples(cl, u, &n, &rows));
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *row = rows + k * CONSLAW_WALL_ROW;
    for (PetscInt i = 0; i < cl->dim; i++) {
      F[i] += row[7] * row[3 + i] * row[6];
      F[3 + i] += row[8 + i] * row[6];
    }
  }
  PetscCall(PetscFree(rows));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, F, 6, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)cl->disc->dm)));
  for (PetscInt i = 0; i < cl->dim; i++) {
    Fp[i] = F[i];
    Fv[i] = F[3 + i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Storage order of the section: the elements in element order, then every other point (so owned elements come
 * first, in the global vector's order, and halo elements follow in a local vector). */
PetscErrorCode ConsLawCreateElementDM(Mesh *mesh, const PetscInt elem_dof[], DM *dm)
{
  PetscSection section, gsection;
  PetscInt     pStart, pEnd, *perm, n = 0, rstart;
  IS           is;

  PetscFunctionBeginUser;
  PetscCall(DMClone(mesh->dm, dm));
  PetscCall(PetscSectionCreate(PetscObjectComm((PetscObject)mesh->dm), &section));
  PetscCall(DMPlexGetChart(*dm, &pStart, &pEnd));
  PetscCall(PetscSectionSetChart(section, pStart, pEnd));
  PetscCall(PetscMalloc1(pEnd - pStart, &perm));
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    PetscCall(PetscSectionSetDof(section, mesh->elem_cell[l], elem_dof[l + 1] - elem_dof[l]));
    perm[n++] = mesh->elem_cell[l];
  }
  for (PetscInt p = pStart; p < pEnd; p++)
    if (p >= mesh->Klocal) perm[n++] = p;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, perm, PETSC_OWN_POINTER, &is));
  PetscCall(PetscSectionSetPermutation(section, is));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscSectionSetUp(section));
  PetscCall(DMSetLocalSection(*dm, section));
  PetscCall(DMGetGlobalSection(*dm, &gsection));
  PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[0], &rstart));
  for (PetscInt e = 0; e < mesh->K; e++) {
    PetscInt off, loff;
    PetscCall(PetscSectionGetOffset(gsection, mesh->elem_cell[e], &off));
    PetscCall(PetscSectionGetOffset(section, mesh->elem_cell[e], &loff));
    PetscCheck(off == rstart + elem_dof[e] && loff == elem_dof[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Element-wise layout is not in element order");
  }
  PetscCall(PetscSectionDestroy(&section));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The scatter is made once from the layout (owned element e's rows elem_dof[e] .. elem_dof[e+1]-1) and runs on
 * the vectors' backend, so device vectors are not copied. */
PetscErrorCode ConsLawSpreadElementValues(ConsLaw cl, Vec element_values, Vec rows)
{
  PetscFunctionBeginUser;
  if (!cl->spread) {
    const PetscInt K = cl->disc->mesh->K;
    PetscInt       n, rstart, srow, *from, *to, k = 0;
    IS             isf, ist;
    PetscCall(VecGetLocalSize(rows, &n));
    PetscCall(VecGetOwnershipRange(rows, &rstart, NULL));
    PetscCall(VecGetOwnershipRange(element_values, &srow, NULL));
    PetscCheck(n == cl->elem_dof[K], PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "ConsLawSpreadElementValues: %" PetscInt_FMT " rows, the layout has %" PetscInt_FMT, n, cl->elem_dof[K]);
    PetscCall(PetscMalloc2(PetscMax(n, 1), &from, PetscMax(n, 1), &to));
    for (PetscInt e = 0; e < K; e++)
      for (PetscInt i = cl->elem_dof[e]; i < cl->elem_dof[e + 1]; i++, k++) {
        from[k] = srow + e;
        to[k]   = rstart + i;
      }
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, k, from, PETSC_COPY_VALUES, &isf));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, k, to, PETSC_COPY_VALUES, &ist));
    PetscCall(VecScatterCreate(element_values, isf, rows, ist, &cl->spread));
    PetscCall(ISDestroy(&isf));
    PetscCall(ISDestroy(&ist));
    PetscCall(PetscFree2(from, to));
  }
  PetscCall(VecScatterBegin(cl->spread, element_values, rows, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(cl->spread, element_values, rows, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}
