/* hoflow expressions over muparser's C interface (hoflow/expr.h). One parser per expression: the
 * variables x, y, z, t are bound to the Expr's own storage, the constants of -const are defined as
 * parser constants (folded into the byte code), and every value is checked to be finite. */
#include <ctype.h>
#include <muParserDLL.h>
#include <hoflow/compat.h>
#include <hoflow/expr.h>

#define EXPR_MAX_CONST 64

struct _n_Expr {
  MPI_Comm         comm;
  muParserHandle_t parser;
  char             option[128];
  char            *text;
  double           var[4]; /* x, y, z, t */
  PetscBool        uses_time, uses_space;
};

typedef struct {
  PetscInt n;
  char     name[EXPR_MAX_CONST][64];
  double   value[EXPR_MAX_CONST];
} ExprConstants;

/* A message for a muparser error in text (the value of option): the parser's message, the expression
 * and a caret under the position. */
static PetscErrorCode ExprParserError(MPI_Comm comm, muParserHandle_t parser, const char option[], const char text[])
{
  const char *msg = mupGetErrorMsg(parser);
  int         pos = mupGetErrorPos(parser);
  char        caret[PETSC_MAX_PATH_LEN];
  size_t      len = strlen(text);

  PetscFunctionBeginUser;
  if (pos < 0) pos = 0;
  if ((size_t)pos > len) pos = (int)len;
  if ((size_t)pos + 2 >= sizeof(caret)) pos = (int)sizeof(caret) - 3;
  for (int i = 0; i < pos; i++) caret[i] = ' ';
  caret[pos]     = '^';
  caret[pos + 1] = 0;
  mupErrorReset(parser);
  SETERRQ(comm, PETSC_ERR_ARG_WRONG, "%s: cannot evaluate the expression \"%s\": %s\n    %s\n    %s\n(the variables are x, y, z and t; named constants come from -const \"name=value, ...\")", option, text, msg, text, caret);
}

static PetscBool ExprNameValid(const char name[])
{
  if (!name[0] || !(isalpha((unsigned char)name[0]) || name[0] == '_')) return PETSC_FALSE;
  for (const char *c = name; *c; c++)
    if (!(isalnum((unsigned char)*c) || *c == '_')) return PETSC_FALSE;
  return PETSC_TRUE;
}

static void ExprTrim(char *s)
{
  size_t n = strlen(s), i = 0;
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  while (isspace((unsigned char)s[i])) i++;
  if (i) memmove(s, s + i, n - i + 1);
}

/* The constants of -const "a=1, b=2*a": items separated by commas outside parentheses, each
 * "name=expression" (or "name expression"), evaluated in order. */
static PetscErrorCode ExprConstantsGet(MPI_Comm comm, ExprConstants *c)
{
  char             text[4096], item[1024];
  PetscBool        set;
  size_t           len, start = 0;
  int              depth = 0;
  muParserHandle_t parser;

  PetscFunctionBeginUser;
  c->n = 0;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-const", text, sizeof(text), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  len    = strlen(text);
  parser = mupCreate(muBASETYPE_FLOAT);
  mupDefineConst(parser, "pi", PETSC_PI);
  for (size_t i = 0; i <= len; i++) {
    char  *sep, *name, *value;
    double v;

    if (i < len && text[i] == '(') depth++;
    if (i < len && text[i] == ')') depth--;
    if (i < len && (text[i] != ',' || depth > 0)) continue;
    PetscCheck(i - start < sizeof(item), comm, PETSC_ERR_ARG_OUTOFRANGE, "-const: item \"%.40s...\" is too long", text + start);
    memcpy(item, text + start, i - start);
    item[i - start] = 0;
    start           = i + 1;
    ExprTrim(item);
    if (!item[0]) continue;
    sep = strpbrk(item, "=:");
    if (!sep) sep = strpbrk(item, " \t");
    PetscCheck(sep, comm, PETSC_ERR_ARG_WRONG, "-const: item \"%s\" is not name=value (e.g. -const \"Um=1.5, H=0.41\")", item);
    *sep  = 0;
    name  = item;
    value = sep + 1;
    ExprTrim(name);
    ExprTrim(value);
    PetscCheck(ExprNameValid(name), comm, PETSC_ERR_ARG_WRONG, "-const: \"%s\" is not a name (letters, digits and _, not starting with a digit)", name);
    PetscCheck(strcmp(name, "x") && strcmp(name, "y") && strcmp(name, "z") && strcmp(name, "t"), comm, PETSC_ERR_ARG_WRONG, "-const: %s is a variable (x, y, z, t), not a constant name", name);
    for (PetscInt k = 0; k < c->n; k++) PetscCheck(strcmp(c->name[k], name), comm, PETSC_ERR_ARG_WRONG, "-const: %s is defined twice", name);
    PetscCheck(c->n < EXPR_MAX_CONST, comm, PETSC_ERR_ARG_OUTOFRANGE, "-const: more than %d constants", EXPR_MAX_CONST);
    mupSetExpr(parser, value);
    v = mupEval(parser);
    if (mupError(parser)) {
      char option[96];
      PetscCall(PetscSNPrintf(option, sizeof(option), "-const %s", name));
      PetscCall(ExprParserError(comm, parser, option, value));
    }
    PetscCheck(PetscIsNormalReal(v) || v == 0.0, comm, PETSC_ERR_ARG_WRONG, "-const: %s = %s is not a finite number (%g)", name, value, v);
    PetscCall(PetscStrncpy(c->name[c->n], name, sizeof(c->name[0])));
    c->value[c->n] = v;
    mupDefineConst(parser, c->name[c->n], v);
    c->n++;
  }
  mupRelease(parser);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprGetConstant(MPI_Comm comm, const char name[], PetscReal *value, PetscBool *found)
{
  ExprConstants *c;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&c));
  PetscCall(ExprConstantsGet(comm, c));
  *found = PETSC_FALSE;
  for (PetscInt k = 0; k < c->n; k++)
    if (!strcmp(c->name[k], name)) {
      *value = c->value[k];
      *found = PETSC_TRUE;
    }
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprCreate(MPI_Comm comm, const char option[], const char text[], Expr *expr)
{
  Expr           e;
  ExprConstants *c;
  const char    *vars[4] = {"x", "y", "z", "t"};
  int            nused;

  PetscFunctionBeginUser;
  PetscCheck(text && text[0], comm, PETSC_ERR_ARG_WRONG, "%s: empty expression", option);
  PetscCall(PetscNew(&e));
  e->comm = comm;
  PetscCall(PetscStrncpy(e->option, option, sizeof(e->option)));
  PetscCall(PetscStrallocpy(text, &e->text));
  PetscCall(PetscNew(&c));
  PetscCall(ExprConstantsGet(comm, c));
  e->parser = mupCreate(muBASETYPE_FLOAT);
  mupDefineConst(e->parser, "pi", PETSC_PI);
  for (PetscInt k = 0; k < c->n; k++) mupDefineConst(e->parser, c->name[k], c->value[k]);
  PetscCall(PetscFree(c));
  for (int v = 0; v < 4; v++) mupDefineVar(e->parser, vars[v], &e->var[v]);
  mupSetExpr(e->parser, e->text);
  /* muparser parses on the first evaluation: a syntax error or an unknown name shows here */
  (void)mupEval(e->parser);
  if (mupError(e->parser)) {
    PetscErrorCode ierr = ExprParserError(comm, e->parser, option, text);
    mupRelease(e->parser);
    PetscCall(PetscFree(e->text));
    PetscCall(PetscFree(e));
    PetscCall(ierr);
  }
  PetscCheck(mupGetExprVarNum(e->parser) >= 0, comm, PETSC_ERR_LIB, "%s: muparser lists no variables", option);
  nused = mupGetExprVarNum(e->parser);
  for (int i = 0; i < nused; i++) {
    const char *name;
    double     *ptr;
    mupGetExprVar(e->parser, (unsigned)i, &name, &ptr);
    if (!strcmp(name, "t"))
      e->uses_time = PETSC_TRUE;
    else
      e->uses_space = PETSC_TRUE;
  }
  *expr = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprCreateFromOptions(MPI_Comm comm, const char option[], Expr *expr)
{
  char      text[4096];
  PetscBool set;

  PetscFunctionBeginUser;
  *expr = NULL;
  PetscCall(PetscOptionsGetString(NULL, NULL, option, text, sizeof(text), &set));
  if (set) PetscCall(ExprCreate(comm, option, text, expr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprDestroy(Expr *expr)
{
  PetscFunctionBeginUser;
  if (!*expr) PetscFunctionReturn(PETSC_SUCCESS);
  mupRelease((*expr)->parser);
  PetscCall(PetscFree((*expr)->text));
  PetscCall(PetscFree(*expr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprEvaluatePoints(Expr e, PetscInt n, PetscInt dim, const PetscReal x[], PetscReal t, PetscInt stride, PetscReal values[])
{
  PetscFunctionBeginUser;
  PetscCheck(dim >= 0 && dim <= 3, e->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: dimension %" PetscInt_FMT " not in 0..3", e->option, dim);
  e->var[0] = e->var[1] = e->var[2] = 0;
  e->var[3]                         = t;
  for (PetscInt i = 0; i < n; i++) {
    double v;
    for (PetscInt d = 0; d < dim; d++) e->var[d] = x[i * dim + d];
    v = mupEval(e->parser);
    if (mupError(e->parser)) PetscCall(ExprParserError(e->comm, e->parser, e->option, e->text));
    if (!(PetscIsNormalReal(v) || v == 0.0)) {
      SETERRQ(e->comm, PETSC_ERR_FP, "%s: the expression \"%s\" is not finite (%g) at x = (%g, %g, %g), t = %g (a division by zero or a function outside its domain there?)", e->option, e->text, v, e->var[0], e->var[1], e->var[2], (double)t);
    }
    values[i * stride] = v;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprEvaluate(Expr e, PetscInt dim, const PetscReal x[], PetscReal t, PetscReal *value)
{
  PetscFunctionBeginUser;
  PetscCall(ExprEvaluatePoints(e, 1, dim, x, t, 1, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprDependsOnTime(Expr e, PetscBool *depends)
{
  PetscFunctionBeginUser;
  *depends = e->uses_time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ExprDependsOnSpace(Expr e, PetscBool *depends)
{
  PetscFunctionBeginUser;
  *depends = e->uses_space;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *ExprGetText(Expr e)
{
  return e->text;
}
