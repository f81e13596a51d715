/* hoflow expressions: user data (boundary values, initial states, body forces) given in options as
 * expressions of the position x, y, z, the time t and named constants, parsed and evaluated by
 * muparser (a maintained library with a C interface; hoflow writes no parser of its own).
 *
 *   -const "Um=1.5, H=0.41, U=2*Um/3"        named constants, each may use the ones before it
 *   -bc_inlet_u "4*Um*y*(H-y)/H^2"            an expression option (read by the caller)
 *
 * The syntax is muparser's: + - * / ^, comparisons and ?: , sin cos tan asin acos atan atan2 sinh
 * cosh tanh exp log ln log10 sqrt abs sign rint min max sum avg, the constants _pi and _e.
 * Errors name the option, quote the expression and point at the position; a value that is not
 * finite at a point (a division by zero there) is an error naming the option and the point. */
#pragma once

#include <petscsys.h>

typedef struct _n_Expr *Expr;

/* Parse text, the value of option (the name used in messages), with the variables x, y, z, t and the
 * constants of -const. */
PETSC_EXTERN PetscErrorCode ExprCreate(MPI_Comm comm, const char option[], const char text[], Expr *expr);
/* Read option from the options database: *expr is NULL when the option is not set. */
PETSC_EXTERN PetscErrorCode ExprCreateFromOptions(MPI_Comm comm, const char option[], Expr *expr);
PETSC_EXTERN PetscErrorCode ExprDestroy(Expr *expr);
/* The value at x[dim] (the missing coordinates are 0) and time t. */
PETSC_EXTERN PetscErrorCode ExprEvaluate(Expr expr, PetscInt dim, const PetscReal x[], PetscReal t, PetscReal *value);
/* Values at n points x[i*dim + d], written to values[i*stride]. */
PETSC_EXTERN PetscErrorCode ExprEvaluatePoints(Expr expr, PetscInt n, PetscInt dim, const PetscReal x[], PetscReal t, PetscInt stride, PetscReal values[]);
/* Whether the expression uses t (time-independent data are evaluated once), or any of x, y, z. */
PETSC_EXTERN PetscErrorCode ExprDependsOnTime(Expr expr, PetscBool *depends);
PETSC_EXTERN PetscErrorCode ExprDependsOnSpace(Expr expr, PetscBool *depends);
PETSC_EXTERN const char    *ExprGetText(Expr expr);
/* The value of constant name of -const; *found is PETSC_FALSE when -const does not define it. */
PETSC_EXTERN PetscErrorCode ExprGetConstant(MPI_Comm comm, const char name[], PetscReal *value, PetscBool *found);
