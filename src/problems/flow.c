/* A user's own incompressible flow case, driven by options only (-problem flow): a Gmsh mesh (or a
 * box), a type for every boundary group and the data as expressions of x, y, z, t and the named
 * constants of -const (hoflow/expr.h, muparser):
 *
 *   -bc_<group>_type wall|inflow|outflow    every boundary group of the mesh, no other
 *   -bc_<group>_u, _v, _w EXPR              wall/inflow velocity (default 0); on outflow groups
 *                                           the velocity of backflow (default 0)
 *   -bc_<group>_p EXPR                      outflow pressure (default 0); du/dn = 0 there
 *   -ic_u, -ic_v, -ic_w, -ic_p EXPR         initial state (default 0)
 *   -ic_perturbation A [-ic_seed S]         adds a pseudo-random velocity in [-A, A] (a hash of the
 *                                           position and S: the same on any number of ranks)
 *   -nu NU                                  kinematic viscosity (required)
 *   -body_force_x, _y, _z EXPR              body force per unit mass (default none)
 *   -ref_velocity U -ref_length L           reference scales (divergence detection, coefficients)
 *
 * Walls and inflows are velocity-Dirichlet groups (-bc_dirichlet), outflows Neumann groups
 * (-bc_neumann) of the physics 'ins'. Data that do not use t are evaluated once on the boundary
 * faces; if any boundary expression uses t, all are re-evaluated on the boundary faces whenever the
 * time changes (the face arrays go to the device, never the volume). Slip/symmetry walls need a
 * boundary condition by component in the normal frame, which the splitting's solves do not have
 * yet: the type is an error saying so. Periodic directions come from the mesh (-dm_plex_box_bd or
 * Gmsh periodic entities): their faces are interior and take no type. */
#include <hoflow/compat.h>
#include <hoflow/expr.h>
#include <hoflow/problem.h>

#define FLOW_MAX_GROUPS 16

typedef enum {
  FLOW_WALL,
  FLOW_INFLOW,
  FLOW_OUTFLOW
} FlowType;

typedef struct {
  PetscInt  ngroups;
  char      group[FLOW_MAX_GROUPS][64];
  FlowType  type[FLOW_MAX_GROUPS];
  Expr      u[FLOW_MAX_GROUPS][3], p[FLOW_MAX_GROUPS];
  Expr      ic[4], force[3];
  PetscReal perturbation;
  PetscInt  seed;
} Flow;

static const char *const FlowTypeNames[] = {"wall", "inflow", "outflow"};

static PetscErrorCode FlowEval(Expr e, PetscInt dim, const PetscReal x[], PetscReal t, PetscReal *v)
{
  PetscFunctionBeginUser;
  *v = 0;
  if (e) PetscCall(ExprEvaluate(e, dim, x, t, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pseudo-random number in [-1, 1] from the position, the component and the seed (splitmix64 of
 * the coordinates' bits): reproducible, independent of the partition. */
static PetscReal FlowHash(PetscInt dim, const PetscReal x[], PetscInt comp, PetscInt seed)
{
  uint64_t h = 0x9E3779B97F4A7C15ULL * (uint64_t)(seed + 1) + (uint64_t)comp;
  for (PetscInt d = 0; d < dim; d++) {
    uint64_t bits;
    double   v = (double)x[d];
    memcpy(&bits, &v, sizeof(bits));
    h ^= bits + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h += 0x9E3779B97F4A7C15ULL;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
  }
  return 2.0 * (PetscReal)(h >> 11) / 9007199254740992.0 - 1.0;
}

static PetscErrorCode FlowInitial(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal uvp[], PetscReal grad[], void *ctx)
{
  Flow *flow = (Flow *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < dim; c++) {
    PetscCall(FlowEval(flow->ic[c], dim, x, t, &uvp[c]));
    if (flow->perturbation > 0) uvp[c] += flow->perturbation * FlowHash(dim, x, c, flow->seed);
  }
  PetscCall(FlowEval(flow->ic[3], dim, x, t, &uvp[dim]));
  if (grad)
    for (PetscInt c = 0; c < nv * dim; c++) grad[c] = 0; /* not used by the flow solver */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowForcing(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt nv, PetscReal f[], PetscReal grad[], void *ctx)
{
  Flow *flow = (Flow *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < nv; c++) f[c] = 0;
  for (PetscInt c = 0; c < dim; c++) PetscCall(FlowEval(flow->force[c], dim, x, t, &f[c]));
  if (grad)
    for (PetscInt c = 0; c < nv * dim; c++) grad[c] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (u_D, du/dn, p_D) at a point of group g: the velocity of walls and inflows (of backflow on
 * outflows), du/dn = 0 and the pressure on outflows. */
static PetscErrorCode FlowBoundary(PetscInt dim, PetscInt g, PetscReal t, const PetscReal x[], const PetscReal n[], PetscReal values[], void *ctx)
{
  Flow *flow = (Flow *)ctx;

  PetscFunctionBeginUser;
  PetscCheck(g >= 0 && g < flow->ngroups, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Boundary point of no typed group");
  for (PetscInt c = 0; c < dim; c++) {
    PetscCall(FlowEval(flow->u[g][c], dim, x, t, &values[c]));
    values[dim + c] = 0;
  }
  PetscCall(FlowEval(flow->p[g], dim, x, t, &values[2 * dim]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool FlowInList(const char list[], const char name[])
{
  const size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char  *comma = strchr(p, ',');
    const size_t len   = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return PETSC_TRUE;
    p = comma ? comma + 1 : NULL;
  }
  return PETSC_FALSE;
}

/* Every boundary group of the mesh has a type, every typed group is in the mesh. */
static PetscErrorCode FlowCheckGroups(void *ctx, const char mesh_groups[])
{
  Flow *flow = (Flow *)ctx;
  char  typed[1024] = "", missing[1024] = "", extra[1024] = "";

  PetscFunctionBeginUser;
  for (PetscInt g = 0; g < flow->ngroups; g++) {
    if (typed[0]) PetscCall(PetscStrlcat(typed, ",", sizeof(typed)));
    PetscCall(PetscStrlcat(typed, flow->group[g], sizeof(typed)));
    if (!FlowInList(mesh_groups, flow->group[g])) {
      if (extra[0]) PetscCall(PetscStrlcat(extra, ",", sizeof(extra)));
      PetscCall(PetscStrlcat(extra, flow->group[g], sizeof(extra)));
    }
  }
  for (const char *p = mesh_groups; p && *p;) {
    const char *comma = strchr(p, ',');
    char        name[64];
    PetscCall(PetscStrncpy(name, p, PetscMin(sizeof(name), comma ? (size_t)(comma - p) + 1 : sizeof(name))));
    if (!FlowInList(typed, name)) {
      if (missing[0]) PetscCall(PetscStrlcat(missing, ",", sizeof(missing)));
      PetscCall(PetscStrlcat(missing, name, sizeof(missing)));
    }
    p = comma ? comma + 1 : NULL;
  }
  PetscCheck(!missing[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem flow: boundary group(s) %s of the mesh have no type: give -bc_<group>_type wall|inflow|outflow for each. The mesh's boundary groups: %s; the groups with a type: %s", missing, mesh_groups[0] ? mesh_groups : "(none)", typed[0] ? typed : "(none)");
  PetscCheck(!extra[0], PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem flow: -bc_<group>_type names group(s) %s that the mesh lacks. The mesh's boundary groups: %s; the groups with a type: %s", extra, mesh_groups[0] ? mesh_groups : "(none)", typed);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FlowDestroy(void *ctx)
{
  Flow *flow = (Flow *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt g = 0; g < flow->ngroups; g++) {
    for (PetscInt c = 0; c < 3; c++) PetscCall(ExprDestroy(&flow->u[g][c]));
    PetscCall(ExprDestroy(&flow->p[g]));
  }
  for (PetscInt c = 0; c < 4; c++) PetscCall(ExprDestroy(&flow->ic[c]));
  for (PetscInt c = 0; c < 3; c++) PetscCall(ExprDestroy(&flow->force[c]));
  PetscCall(PetscFree(flow));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether e uses t (NULL: no). */
static PetscErrorCode FlowUsesTime(Expr e, PetscBool *uses)
{
  PetscBool dep = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (e) PetscCall(ExprDependsOnTime(e, &dep));
  *uses = (PetscBool)(*uses || dep);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The groups of the options -bc_<group>_type, in the options' order. */
static PetscErrorCode FlowReadTypes(Flow *flow)
{
  char *all, *tok;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetAll(NULL, &all));
  for (tok = strtok(all, " "); tok; tok = strtok(NULL, " ")) {
    size_t len = strlen(tok);
    char   option[128], value[64];
    if (strncmp(tok, "-bc_", 4) || len <= 9 || strcmp(tok + len - 5, "_type")) continue;
    PetscCheck(len - 9 < sizeof(flow->group[0]), PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "%s: group name too long", tok);
    PetscCheck(flow->ngroups < FLOW_MAX_GROUPS, PETSC_COMM_WORLD, PETSC_ERR_ARG_SIZ, "-problem flow: at most %d boundary groups", FLOW_MAX_GROUPS);
    PetscCall(PetscStrncpy(flow->group[flow->ngroups], tok + 4, len - 8));
    PetscCall(PetscStrncpy(option, tok, sizeof(option)));
    {
      PetscBool dup = PETSC_FALSE;
      for (PetscInt g = 0; g < flow->ngroups; g++) dup = (PetscBool)(dup || !strcmp(flow->group[g], flow->group[flow->ngroups]));
      if (dup) continue;
    }
    PetscCall(PetscOptionsGetString(NULL, NULL, option, value, sizeof(value), NULL));
    if (!strcmp(value, "wall")) flow->type[flow->ngroups] = FLOW_WALL;
    else if (!strcmp(value, "inflow")) flow->type[flow->ngroups] = FLOW_INFLOW;
    else if (!strcmp(value, "outflow")) flow->type[flow->ngroups] = FLOW_OUTFLOW;
    else if (!strcmp(value, "slip") || !strcmp(value, "symmetry"))
      SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_SUP, "%s %s: slip/symmetry boundaries are not available yet (they need the normal velocity given and the tangential stress free, a condition by component in the normal frame that the splitting's velocity solves do not have); use wall, inflow or outflow", option, value);
    else if (!strcmp(value, "periodic"))
      SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s periodic: periodic directions come from the mesh (-dm_plex_box_bd periodic,... or Gmsh periodic entities); their faces are interior and take no type", option);
    else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s '%s': the boundary types are wall, inflow and outflow", option, value);
    flow->ngroups++;
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode ProblemCreate_Flow(Problem *problem)
{
  Flow     *flow;
  char      dirichlet[512] = "", neumann[512] = "";
  PetscBool time = PETSC_FALSE, nu_set, force = PETSC_FALSE;
  const char comp[4] = {'u', 'v', 'w', 'p'};

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&flow));
  problem->ctx         = flow;
  problem->ctx_destroy = FlowDestroy;
  PetscCall(FlowReadTypes(flow));
  PetscCheck(flow->ngroups, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem flow: no boundary types; give -bc_<group>_type wall|inflow|outflow for every boundary group of the mesh");
  for (PetscInt g = 0; g < flow->ngroups; g++) {
    char *list = flow->type[g] == FLOW_OUTFLOW ? neumann : dirichlet, option[128];
    for (PetscInt c = 0; c < 3; c++) {
      PetscCall(PetscSNPrintf(option, sizeof(option), "-bc_%s_%c", flow->group[g], comp[c]));
      PetscCall(ExprCreateFromOptions(PETSC_COMM_WORLD, option, &flow->u[g][c]));
      PetscCall(FlowUsesTime(flow->u[g][c], &time));
    }
    PetscCall(PetscSNPrintf(option, sizeof(option), "-bc_%s_p", flow->group[g]));
    PetscCall(ExprCreateFromOptions(PETSC_COMM_WORLD, option, &flow->p[g]));
    PetscCheck(!flow->p[g] || flow->type[g] == FLOW_OUTFLOW, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "%s: the pressure is given on outflow groups only; group %s is of type %s", option, flow->group[g], FlowTypeNames[flow->type[g]]);
    PetscCall(FlowUsesTime(flow->p[g], &time));
    if (list[0]) PetscCall(PetscStrlcat(list, ",", 512));
    PetscCall(PetscStrlcat(list, flow->group[g], 512));
    if (g) PetscCall(PetscStrlcat(problem->ins_groups, ",", sizeof(problem->ins_groups)));
    PetscCall(PetscStrlcat(problem->ins_groups, flow->group[g], sizeof(problem->ins_groups)));
  }
  for (PetscInt c = 0; c < 4; c++) {
    char option[16];
    PetscCall(PetscSNPrintf(option, sizeof(option), "-ic_%c", comp[c]));
    PetscCall(ExprCreateFromOptions(PETSC_COMM_WORLD, option, &flow->ic[c]));
  }
  for (PetscInt c = 0; c < 3; c++) {
    char option[32];
    PetscCall(PetscSNPrintf(option, sizeof(option), "-body_force_%c", "xyz"[c]));
    PetscCall(ExprCreateFromOptions(PETSC_COMM_WORLD, option, &flow->force[c]));
    force = (PetscBool)(force || flow->force[c]);
    PetscCall(FlowUsesTime(flow->force[c], &problem->forcing_time));
  }
  problem->velocity_scale = 1.0;
  problem->length_scale   = 1.0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Flow case from options", NULL);
  PetscCall(PetscOptionsReal("-nu", "Kinematic viscosity", NULL, problem->nu, &problem->nu, &nu_set));
  PetscCall(PetscOptionsReal("-ic_perturbation", "Amplitude of a pseudo-random velocity added to the initial state", NULL, flow->perturbation, &flow->perturbation, NULL));
  PetscCall(PetscOptionsInt("-ic_seed", "Seed of the initial perturbation", NULL, flow->seed, &flow->seed, NULL));
  PetscCall(PetscOptionsReal("-ref_velocity", "Reference velocity (divergence detection, force coefficients)", NULL, problem->velocity_scale, &problem->velocity_scale, NULL));
  PetscCall(PetscOptionsReal("-ref_length", "Reference length (force coefficients)", NULL, problem->length_scale, &problem->length_scale, NULL));
  PetscOptionsEnd();
  PetscCheck(nu_set && problem->nu > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem flow needs the kinematic viscosity -nu > 0%s", nu_set ? " (it is not positive)" : "");
  PetscCheck(flow->perturbation >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-ic_perturbation %g must be >= 0", (double)flow->perturbation);
  PetscCall(PetscStrncpy(problem->physics, "ins", sizeof(problem->physics)));
  problem->initial            = FlowInitial;
  problem->forcing            = force ? FlowForcing : NULL;
  problem->ins_boundary_group = FlowBoundary;
  problem->ins_boundary_time  = time;
  problem->mesh_groups        = FlowCheckGroups;
  PetscCall(ProblemSetBoundaryGroups(problem, "dirichlet", dirichlet[0] ? dirichlet : "none"));
  PetscCall(ProblemSetBoundaryGroups(problem, "neumann", neumann[0] ? neumann : "none"));
  PetscCall(PetscStrncpy(problem->monitors, "kinetic_energy", sizeof(problem->monitors)));
  PetscCall(PetscStrncpy(problem->derived, "vorticity", sizeof(problem->derived)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
