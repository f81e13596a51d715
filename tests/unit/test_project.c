static const char help[] = "Restart projection onto another order and a refined mesh (-restart_project): writes a checkpoint\n"
                           "of polynomials of degree Ns on a mesh at order Ns (-test_source_order, -test_source_refine), reads it\n"
                           "back through CheckpointSetDiscProjection at the run's -order on the mesh with -dm_refine, and\n"
                           "compares with the polynomials: nodal values when -order >= Ns (the projection is then exact), the\n"
                           "L2 projection by DiscProject otherwise (exact when Ns <= order + 1). Takes hoflow's options and\n"
                           "-test_dir DIR.\n";

#include <hoflow/compat.h>
#include <hoflow/io.h>
#include <hoflow/physics.h>

typedef struct {
  PetscInt  N, dim;
  PetscReal scale;
} Poly;

/* A polynomial of total degree N in 2D or 3D, times scale (two different vectors). */
static PetscErrorCode PolynomialPoint(const PetscReal x[], PetscReal *value, PetscReal grad[], void *ctx)
{
  const Poly     *p = (const Poly *)ctx;
  const PetscReal z = p->dim == 3 ? x[2] : 0.0;

  *value = p->scale * (PetscPowRealInt(0.5 + 0.7 * x[0] - 0.4 * x[1] + 0.3 * z, p->N) + 0.3 * PetscPowRealInt(x[1] - 0.2 * z, p->N) - 0.2 * x[0]);
  if (grad) grad[0] = grad[1] = grad[2] = 0;
  return PETSC_SUCCESS;
}

/* The run's App with -order and -dm_refine set to the given values. */
static PetscErrorCode CreateApp(PetscInt order, PetscInt refine, App **app)
{
  char value[32];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, order));
  PetscCall(PetscOptionsSetValue(NULL, "-order", value));
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, refine));
  PetscCall(PetscOptionsSetValue(NULL, "-dm_refine", value));
  PetscCall(AppCreate(PETSC_COMM_WORLD, app));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  App       *src, *dst;
  Checkpoint ckpt;
  Vec        u[2], v[2], ref;
  Poly       poly[2];
  char       dir[PETSC_MAX_PATH_LEN] = "output/test_project", path[PETSC_MAX_PATH_LEN + 32];
  PetscInt   Ns = 3, rs = 0, N = 4, rt = 0, step;
  PetscReal  t, dt, error = 0, norm = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-test_dir", dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_source_order", &Ns, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_source_refine", &rs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-order", &N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dm_refine", &rt, NULL));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/checkpoint.h5", dir));
  PetscCall(IOMakeDirectory(PETSC_COMM_WORLD, dir));

  /* the source: polynomials of degree Ns, represented exactly at order Ns */
  PetscCall(CreateApp(Ns, rs, &src));
  for (PetscInt k = 0; k < 2; k++) {
    poly[k] = (Poly){Ns, src->mesh->dim, k ? -2.5 : 1.0};
    PetscCall(DMCreateGlobalVector(src->disc->dm, &u[k]));
    PetscCall(DiscProject(src->disc, PolynomialPoint, &poly[k], u[k]));
  }
  PetscCall(CheckpointCreateDisc(src->disc, "-checkpoint_interval", &ckpt));
  PetscCall(CheckpointAddVector(ckpt, "u", u[0]));
  PetscCall(CheckpointAddVector(ckpt, "w", u[1]));
  PetscCall(CheckpointWrite(ckpt, path, 3, 0.5, 0.25));
  PetscCall(CheckpointDestroy(&ckpt));

  /* the target: read with the projection */
  PetscCall(CreateApp(N, rt, &dst));
  PetscCall(CheckpointCreateDisc(dst->disc, "-restart", &ckpt));
  PetscCall(CheckpointSetDiscProjection(ckpt, dst->disc, "-restart_project", PETSC_TRUE));
  for (PetscInt k = 0; k < 2; k++) PetscCall(DMCreateGlobalVector(dst->disc->dm, &v[k]));
  PetscCall(CheckpointAddVector(ckpt, "u", v[0]));
  PetscCall(CheckpointAddVector(ckpt, "w", v[1]));
  PetscCall(CheckpointRead(ckpt, path, &step, &t, &dt));
  PetscCheck(step == 3 && t == 0.5 && dt == 0.25, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "step/time/dt read back as %" PetscInt_FMT " %g %g", step, (double)t, (double)dt);
  PetscCall(CheckpointDestroy(&ckpt));

  /* the expected values: the polynomial's L2 projection at this order (its nodal values when N >= Ns) */
  PetscCall(VecDuplicate(v[0], &ref));
  for (PetscInt k = 0; k < 2; k++) {
    PetscReal e, n;
    PetscCall(DiscProject(dst->disc, PolynomialPoint, &poly[k], ref));
    PetscCall(VecNorm(ref, NORM_INFINITY, &n));
    PetscCall(VecAXPY(ref, -1.0, v[k]));
    PetscCall(VecNorm(ref, NORM_INFINITY, &e));
    error = PetscMax(error, e);
    norm  = PetscMax(norm, n);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "project: shape %s source_order %" PetscInt_FMT " source_elements %" PetscInt_FMT " order %" PetscInt_FMT " elements %" PetscInt_FMT " max_error %.3e max_value %.3e\n", RefShapes[dst->mesh->blocks[0].shape], Ns, src->mesh->Kglobal, N, dst->mesh->Kglobal, (double)error, (double)norm));

  PetscCall(VecDestroy(&ref));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&u[k]));
    PetscCall(VecDestroy(&v[k]));
  }
  PetscCall(AppDestroy(&src));
  PetscCall(AppDestroy(&dst));
  PetscCall(PetscFinalize());
  return 0;
}
