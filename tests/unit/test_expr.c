/* Evaluates the expression option -e at the points of -x x0,y0[,z0],x1,y1,... (dimension -dim,
 * default 2) and time -t, printing one "value <v>" line per point and whether the expression
 * depends on time and space; errors (syntax, unknown names, non-finite values) end the program
 * with hoflow's message. Driven by tests/suite_expr.py. */
#include <hoflow/compat.h>
#include <hoflow/expr.h>

int main(int argc, char **argv)
{
  Expr      e;
  PetscReal x[300], *v, t = 0;
  PetscInt  nx = 300, dim = 2;
  PetscBool time, space;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-t", &t, NULL));
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-x", x, &nx, NULL));
  PetscCheck(dim >= 1 && dim <= 3 && nx % dim == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-x needs a multiple of -dim coordinates");
  PetscCall(ExprCreateFromOptions(PETSC_COMM_WORLD, "-e", &e));
  PetscCheck(e, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-e EXPRESSION is required");
  PetscCall(ExprDependsOnTime(e, &time));
  PetscCall(ExprDependsOnSpace(e, &space));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time %d space %d\n", (int)time, (int)space));
  PetscCall(PetscMalloc1(nx / dim + 1, &v));
  PetscCall(ExprEvaluatePoints(e, nx / dim, dim, x, t, 1, v));
  for (PetscInt i = 0; i < nx / dim; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "value %.17g\n", (double)v[i]));
  PetscCall(PetscFree(v));
  PetscCall(ExprDestroy(&e));
  PetscCall(PetscFinalize());
  return 0;
}
