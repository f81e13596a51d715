static const char help[] = "Continuous spectral elements, the flow kernels of the velocity-correction scheme (hoflow/sem_flow.h)\n"
                           "on polynomial fields that Q_N holds (affine meshes, N >= 4): the collocated convection against\n"
                           "-(u.grad)u at the nodes, the over-integrated one against the collocated one (both exact there),\n"
                           "the rotational term (-curl curl u*, grad q) against (F, grad q) with F = -curl curl u* given,\n"
                           "the weak gradient of a linear pressure against M grad p, and the collocated divergence of a\n"
                           "divergence-free field. Takes hoflow's options (-order N, a box mesh); prints one line 'sem_flow: ...'\n"
                           "of errors relative to the fields' size. With -dm_vec_type cuda the same runs on the GPU, and each\n"
                           "operation (convection collocated and over-integrated, pressure and velocity right-hand sides,\n"
                           "divergence, enstrophy) is also applied to random fields on the device and on host copies: one line\n"
                           "'sem_flow_device: ...' of relative max-norm differences (any mesh, curved or not).\n";

#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/physics.h>
#include <hoflow/sem_flow.h>

/* u = (2x^2 y z, -2x y^2 z, 0) (z = 1 in 2D): divergence-free; -(u.grad)u = -(4x^3 y^2 z^2, 4x^2 y^3 z^2, 0);
 * curl curl u = -Laplace u = (-4yz, 4xz, 0). */
static PetscErrorCode Solenoidal(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt  dim = *(PetscInt *)ctx;
  const PetscReal z   = dim == 3 ? x[2] : 1.0;

  u[0] = 2 * x[0] * x[0] * x[1] * z;
  u[1] = -2 * x[0] * x[1] * x[1] * z;
  if (dim == 3) u[2] = 0;
  return PETSC_SUCCESS;
}

static PetscErrorCode Convection(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt  dim = *(PetscInt *)ctx;
  const PetscReal z   = dim == 3 ? x[2] : 1.0;

  u[0] = -4 * x[0] * x[0] * x[0] * x[1] * x[1] * z * z;
  u[1] = -4 * x[0] * x[0] * x[1] * x[1] * x[1] * z * z;
  if (dim == 3) u[2] = 0;
  return PETSC_SUCCESS;
}

static PetscErrorCode MinusCurlCurl(const PetscReal x[], PetscReal u[], void *ctx)
{
  const PetscInt  dim = *(PetscInt *)ctx;
  const PetscReal z   = dim == 3 ? x[2] : 1.0;

  u[0] = 4 * x[1] * z;
  u[1] = -4 * x[0] * z;
  if (dim == 3) u[2] = 0;
  return PETSC_SUCCESS;
}

/* p = 1 + x + 2y + 3z and its gradient */
static PetscErrorCode Linear(const PetscReal x[], PetscReal p[], void *ctx)
{
  const PetscInt dim = *(PetscInt *)ctx;
  p[0]               = 1 + x[0] + 2 * x[1] + (dim == 3 ? 3 * x[2] : 0);
  return PETSC_SUCCESS;
}

static PetscErrorCode LinearGradient(const PetscReal x[], PetscReal g[], void *ctx)
{
  const PetscInt dim = *(PetscInt *)ctx;
  for (PetscInt d = 0; d < dim; d++) g[d] = d + 1;
  return PETSC_SUCCESS;
}

/* |a - b|_inf / |b|_inf */
static PetscErrorCode RelativeDifference(Vec a, Vec b, PetscReal *r)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, b, a));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *r = nd / nb;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A host (VECMPI) copy of x (any backend). */
static PetscErrorCode HostCopy(Vec x, Vec *h)
{
  PetscInt           n;
  const PetscScalar *a;
  PetscScalar       *c;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)x), n, PETSC_DETERMINE, h));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayWrite(*h, &c));
  PetscCall(PetscArraycpy(c, a, n));
  PetscCall(VecRestoreArrayWrite(*h, &c));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |d - h| / max |h| of a device and a host vector */
static PetscErrorCode DeviceHostDifference(Vec d, Vec h, PetscReal *r)
{
  Vec dh;

  PetscFunctionBeginUser;
  PetscCall(HostCopy(d, &dh));
  PetscCall(RelativeDifference(dh, h, r));
  PetscCall(VecDestroy(&dh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The flow operations on random device vectors (u's DM makes CUDA vectors) against the same on host copies. The
 * convection divides by the velocity's mass, which is a device vector: its host call gets a host copy. */
static PetscErrorCode FlowDeviceVersusHost(SEMDisc *u, SEMDisc *p, SEMFlow *flow, SEMFlow *flow_dealias)
{
  Vec         ud, Fd, pd, vd, bd, uh, Fh, ph, vh, bh, mass_device = u->mass, mass_host;
  PetscRandom rnd;
  PetscReal   rel[6], ed, eh;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(DMCreateGlobalVector(u->dm, &ud));
  PetscCall(VecDuplicate(ud, &Fd));
  PetscCall(VecDuplicate(ud, &vd));
  PetscCall(DMCreateGlobalVector(p->dm, &pd));
  PetscCall(VecDuplicate(pd, &bd));
  PetscCall(VecSetRandom(ud, rnd));
  PetscCall(VecSetRandom(Fd, rnd));
  PetscCall(VecSetRandom(pd, rnd));
  PetscCall(HostCopy(ud, &uh));
  PetscCall(HostCopy(Fd, &Fh));
  PetscCall(HostCopy(pd, &ph));
  PetscCall(VecDuplicate(uh, &vh));
  PetscCall(VecDuplicate(ph, &bh));
  PetscCall(HostCopy(mass_device, &mass_host));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(SEMFlowConvection(k ? flow_dealias : flow, ud, vd));
    u->mass = mass_host;
    PetscCall(SEMFlowConvection(k ? flow_dealias : flow, uh, vh));
    u->mass = mass_device;
    PetscCall(DeviceHostDifference(vd, vh, &rel[k]));
  }
  PetscCall(SEMFlowPressureRHS(flow, 0.37, Fd, ud, bd));
  PetscCall(SEMFlowPressureRHS(flow, 0.37, Fh, uh, bh));
  PetscCall(DeviceHostDifference(bd, bh, &rel[2]));
  PetscCall(SEMFlowVelocityRHS(flow, 0.37, Fd, pd, vd));
  PetscCall(SEMFlowVelocityRHS(flow, 0.37, Fh, ph, vh));
  PetscCall(DeviceHostDifference(vd, vh, &rel[3]));
  PetscCall(SEMFlowDivergence(flow, ud, bd));
  PetscCall(SEMFlowDivergence(flow, uh, bh));
  PetscCall(DeviceHostDifference(bd, bh, &rel[4]));
  PetscCall(SEMFlowEnstrophy(flow, ud, &ed));
  PetscCall(SEMFlowEnstrophy(flow, uh, &eh));
  rel[5] = PetscAbsReal(ed - eh) / eh;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_flow_device: convection %.3e dealias %.3e pressure %.3e velocity %.3e divergence %.3e enstrophy %.3e\n", (double)rel[0], (double)rel[1], (double)rel[2], (double)rel[3], (double)rel[4], (double)rel[5]));
  {
    Vec *v[] = {&ud, &Fd, &pd, &vd, &bd, &uh, &Fh, &ph, &vh, &bh, &mass_host};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) PetscCall(VecDestroy(v[k]));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  App      *app;
  Disc      vdisc, pdisc;
  SEMDisc  *u, *p;
  SEMFlow  *flow, *flow_dealias;
  Vec       vu, vw, vx, vy, zero, pb, pc, pp;
  PetscInt  dim;
  PetscReal convection, dealias, curlcurl, gradient, divergence, scale;
  PetscBool set;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-disc", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-disc", "sem"));
  PetscCall(AppCreate(PETSC_COMM_WORLD, &app));
  dim = app->mesh->dim;
  PetscCall(DiscCreateComponents(app->mesh, "sem", app->order, dim, &vdisc));
  PetscCall(DiscCreate(app->mesh, "sem", app->order, &pdisc));
  PetscCall(DiscGetSEM(vdisc, "the flow test", &u));
  PetscCall(DiscGetSEM(pdisc, "the flow test", &p));
  PetscCall(SEMFlowCreate(u, p, PETSC_FALSE, &flow));
  PetscCall(SEMFlowCreate(u, p, PETSC_TRUE, &flow_dealias));
  PetscCall(DMCreateGlobalVector(u->dm, &vu));
  PetscCall(VecDuplicate(vu, &vw));
  PetscCall(VecDuplicate(vu, &vx));
  PetscCall(VecDuplicate(vu, &vy));
  PetscCall(VecDuplicate(vu, &zero));
  PetscCall(VecZeroEntries(zero));
  PetscCall(DMCreateGlobalVector(p->dm, &pb));
  PetscCall(VecDuplicate(pb, &pc));
  PetscCall(VecDuplicate(pb, &pp));
  /* convection: collocated = -(u.grad)u at the nodes; over-integrated = collocated (both exact for N >= 4) */
  PetscCall(SEMDiscInterpolate(u, Solenoidal, &dim, vu));
  PetscCall(SEMDiscInterpolate(u, Convection, &dim, vx));
  PetscCall(SEMFlowConvection(flow, vu, vw));
  PetscCall(RelativeDifference(vw, vx, &convection));
  PetscCall(SEMFlowConvection(flow_dealias, vu, vy));
  PetscCall(RelativeDifference(vy, vw, &dealias));
  /* (-nu curl curl u*, grad q) with nu = 1 against (F, grad q) with F = -curl curl u* */
  PetscCall(SEMFlowPressureRHS(flow, 1.0, zero, vu, pb));
  PetscCall(SEMDiscInterpolate(u, MinusCurlCurl, &dim, vx));
  PetscCall(SEMFlowPressureRHS(flow, 0.0, vx, zero, pc));
  PetscCall(RelativeDifference(pb, pc, &curlcurl));
  /* the weak gradient: (0 - grad p, phi) / 1 = -M grad p */
  PetscCall(SEMDiscInterpolate(p, Linear, &dim, pp));
  PetscCall(SEMFlowVelocityRHS(flow, 1.0, zero, pp, vw));
  PetscCall(SEMDiscInterpolate(u, LinearGradient, &dim, vx));
  PetscCall(VecPointwiseMult(vx, vx, u->mass));
  PetscCall(VecScale(vx, -1.0));
  PetscCall(RelativeDifference(vw, vx, &gradient));
  /* the divergence of the divergence-free field, relative to |u| times the mass's scale */
  PetscCall(SEMFlowDivergence(flow, vu, pb));
  PetscCall(VecNorm(pb, NORM_INFINITY, &divergence));
  PetscCall(VecNorm(p->mass, NORM_INFINITY, &scale));
  divergence /= scale;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "sem_flow: dim %" PetscInt_FMT " order %" PetscInt_FMT " convection %.3e dealias %.3e curlcurl %.3e gradient %.3e divergence %.3e\n", dim, app->order, (double)convection, (double)dealias, (double)curlcurl, (double)gradient, (double)divergence));
  {
    PetscBool cuda;
    PetscCall(HoflowDMIsCUDA(u->dm, &cuda));
    if (cuda) PetscCall(FlowDeviceVersusHost(u, p, flow, flow_dealias));
  }
  PetscCall(VecDestroy(&vu));
  PetscCall(VecDestroy(&vw));
  PetscCall(VecDestroy(&vx));
  PetscCall(VecDestroy(&vy));
  PetscCall(VecDestroy(&zero));
  PetscCall(VecDestroy(&pb));
  PetscCall(VecDestroy(&pc));
  PetscCall(VecDestroy(&pp));
  PetscCall(SEMFlowDestroy(&flow));
  PetscCall(SEMFlowDestroy(&flow_dealias));
  PetscCall(DiscDestroy(&vdisc));
  PetscCall(DiscDestroy(&pdisc));
  PetscCall(AppDestroy(&app));
  PetscCall(PetscFinalize());
  return 0;
}
