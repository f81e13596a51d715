/* p-multigrid with an algebraic coarse solve (pMG-AMG, seed 000 §3), registered as -pc_type pmg.
 *
 * The fine levels are hoflow's matrix-free SIPDG operators at orders N = N_0 > N_1 > ... > N_L = 1
 * on the same mesh (-pc_pmg_orders, or -pc_pmg_coarsen halving|minus1), connected by matrix-free
 * nodal interpolation (DGTransferCreate) and its transpose; each is smoothed by Chebyshev/Jacobi
 * (-pc_pmg_chebyshev_degree; every pmg of a run starts from -pc_pmg_chebyshev_degree_default, 2
 * unless given; the diagonal from the operator) with one fused vector kernel per
 * iteration (-ksp_type chebyjacobi, solver/chebyjacobi.c). The coarse level (-pc_pmg_coarse_space) is
 * cg1 (the default): below the smoothed order-1 DG level, the continuous order-1 space of the mesh
 * (op/cg1.c: one unknown per vertex, the injection into DG order 1, the matrix P^T A_1 P); or dg1:
 * the order-1 SIPDG operator itself, assembled. Either matrix (AIJCUSPARSE for CUDA vectors) is
 * solved by one BoomerAMG V-cycle (GAMG where PETSc has no hypre; -pmg_mg_coarse_pc_type gather:
 * the same, gathered onto every rank, solver/pc_gather.c). Everything is a PETSc PCMG underneath, with options prefix
 * <prefix>pmg_: -pmg_mg_levels_ksp_max_it, -pmg_mg_coarse_pc_type gamg, -pmg_pc_mg_log, ...
 * The smoothers and transfers run on the backend of the vectors (CUDA kernels for CUDA vectors). */
#include <petsc/private/pcimpl.h>
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/log.h>
#include <hoflow/dg.h>
#include <hoflow/solver.h>

static const char *const PMGCoarsenings[] = {"halving", "minus1", "auto", "PMGCoarsening", "PMG_", NULL};
typedef enum {
  PMG_HALVING,
  PMG_MINUS1,
  PMG_AUTO /* minus1 on tetrahedra and prisms, halving on everything else */
} PMGCoarsening;

static const char *const PMGCoarseSpaces[] = {"dg1", "cg1", "PMGCoarseSpace", "PMG_COARSE_", NULL};
typedef enum {
  PMG_COARSE_DG1, /* the order-1 SIPDG matrix is the coarse level */
  PMG_COARSE_CG1  /* the order-1 DG level is smoothed matrix-free; below it the continuous order-1 space (op/cg1.c) */
} PMGCoarseSpace;

static const char *const PMGCG1Transfers[] = {"auto", "gathered", "aij", "PMGCG1Transfer", "PMG_CG1_TRANSFER_", NULL};
typedef enum {
  PMG_CG1_TRANSFER_AUTO,     /* gathered where the coarse PC is gather on more than one rank, else aij */
  PMG_CG1_TRANSFER_GATHERED, /* op/cg1_transfer.c: through the gather PC's full vectors */
  PMG_CG1_TRANSFER_AIJ       /* the AIJ injection itself (MatMultTranspose, MatMultAdd with their scatters) */
} PMGCG1Transfer;

/* A[l]: the matrix-free operator of DG level l; P[l]: level l+1 to level l, P[nlevels-1] the continuous
 * order-1 space to DG order 1 with cg1; Acoarse: the assembled coarse matrix (order-1 SIPDG or CG1). */
typedef struct {
  PMGCoarseSpace  coarse_space;
  CG1MatrixType   cg1_matrix;                       /* how the continuous coarse matrix is made */
  PMGCG1Transfer  cg1_transfer;                     /* how PCMG moves between DG order 1 and the continuous level */
  PetscInt        order1_degree;                    /* Chebyshev steps of an intermediate order-1 DG level above cg1 */
  PetscInt        orders[HOFLOW_NMAX + 1], norders; /* user schedule (norders = 0: from `coarsen`) */
  PMGCoarsening   coarsen;
  PetscInt        degree_opt;                            /* Chebyshev degree given (0: automatic, 2 in 2D, 3 + max(0, (p-4)/2) in 3D) */
  PetscInt        degree;                                /* Chebyshev degree on the p-levels in use */
  HoflowChebyKind kind;                                  /* its polynomial */
  PetscReal       bounds_opt[2];                         /* targeted [emin, emax] as fractions of the estimate (0: automatic) */
  PetscReal       bounds[2];                             /* in use: [0.1, 1.1] in 1D/2D, [0.05, 1.1] in 3D */
  PetscInt        eigest_its;                            /* CG iterations of the estimate */
  PetscInt        nlevels, level_order[HOFLOW_NMAX + 1]; /* the DG schedule in use, finest first */
  DGDisc         *disc[HOFLOW_NMAX + 1];                 /* the levels' discretizations ([0] is the operator's) */
  Disc            level_disc[HOFLOW_NMAX + 1];           /* [1..nlevels-1]: created here */
  Mat             A[HOFLOW_NMAX + 1], P[HOFLOW_NMAX + 1], Acoarse;
  Mat             Pgathered; /* the gathered transfer that replaces P[nlevels-1] in PCMG (NULL: the AIJ P is used) */
  PC              mg;
} PC_PMG;

static PetscErrorCode PCReset_PMG(PC pc)
{
  PC_PMG *pmg = (PC_PMG *)pc->data;

  PetscFunctionBeginUser;
  PetscCall(PCDestroy(&pmg->mg));
  PetscCall(MatDestroy(&pmg->Acoarse));
  PetscCall(MatDestroy(&pmg->Pgathered));
  for (PetscInt l = 0; l < pmg->nlevels; l++) {
    PetscCall(MatDestroy(&pmg->P[l]));
    if (l > 0) {
      PetscCall(MatDestroy(&pmg->A[l]));
      PetscCall(DiscDestroy(&pmg->level_disc[l]));
    }
  }
  pmg->nlevels = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The order schedule for a fine operator of order N: the user's, checked, or the coarsening rule. */
static PetscErrorCode PMGSchedule(PC pc, PetscInt N, RefShape shape)
{
  PC_PMG  *pmg  = (PC_PMG *)pc->data;
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBeginUser;
  if (pmg->norders) {
    char list[256] = "", item[16];
    for (PetscInt k = 0; k < pmg->norders; k++) {
      PetscCall(PetscSNPrintf(item, sizeof(item), k ? ",%" PetscInt_FMT : "%" PetscInt_FMT, pmg->orders[k]));
      PetscCall(PetscStrlcat(list, item, sizeof(list)));
    }
    PetscCheck(pmg->orders[0] == N, comm, PETSC_ERR_ARG_WRONG, "-pc_pmg_orders %s must start at the operator's order %" PetscInt_FMT, list, N);
    PetscCheck(pmg->orders[pmg->norders - 1] == 1, comm, PETSC_ERR_ARG_WRONG, "-pc_pmg_orders %s must end at order 1 (the assembled coarse level)", list);
    for (PetscInt k = 1; k < pmg->norders; k++) PetscCheck(pmg->orders[k] < pmg->orders[k - 1], comm, PETSC_ERR_ARG_WRONG, "-pc_pmg_orders %s must decrease strictly", list);
    pmg->nlevels = pmg->norders;
    for (PetscInt k = 0; k < pmg->norders; k++) pmg->level_order[k] = pmg->orders[k];
  } else {
    /* auto: 3D simplicial shapes need every order (tetrahedra, 390 cells, Chebyshev(3): N = 6 takes
     * 39 iterations with N -> N/2, 22 with N -> N-1); hexahedra do well with halving (4^3 cells:
     * 7-13 iterations for N = 3..8, with a seventh of the setup memory of minus1 at N = 8) */
    const PMGCoarsening rule         = pmg->coarsen == PMG_AUTO ? (shape == REF_TETRAHEDRON || shape == REF_PRISM ? PMG_MINUS1 : PMG_HALVING) : pmg->coarsen;
    PetscInt            k            = N;
    pmg->nlevels                     = 0;
    pmg->level_order[pmg->nlevels++] = k;
    while (k > 1) {
      k                                = rule == PMG_HALVING ? k / 2 : k - 1;
      pmg->level_order[pmg->nlevels++] = k;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A constant null space on every level when the fine operator has one (pure Neumann Poisson). */
static PetscErrorCode PMGNullSpace(Mat fine, Mat A)
{
  MatNullSpace ns, cns;
  PetscBool    has_const;
  PetscInt     nvecs;
  const Vec   *vecs;

  PetscFunctionBeginUser;
  PetscCall(MatGetNullSpace(fine, &ns));
  if (!ns) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatNullSpaceGetVecs(ns, &has_const, &nvecs, &vecs));
  PetscCheck(has_const && nvecs == 0, PetscObjectComm((PetscObject)fine), PETSC_ERR_SUP, "-pc_type pmg handles the constant null space only");
  PetscCall(MatNullSpaceCreate(PetscObjectComm((PetscObject)A), PETSC_TRUE, 0, NULL, &cns));
  PetscCall(MatSetNullSpace(A, cns));
  PetscCall(MatNullSpaceDestroy(&cns));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The gather PC's side of the gathered CG1 transfer (op/cg1_transfer.c reaches it through these). */
static PetscErrorCode PMGGatherFullVectors(PetscObject pc, Vec *xfull, Vec *yfull)
{
  PetscFunctionBeginUser;
  PetscCall(PCGatherGetFullVectors((PC)pc, xfull, yfull));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PMGGatherSetInput(PetscObject pc, Vec b)
{
  PetscFunctionBeginUser;
  PetscCall(PCGatherSetInputGathered((PC)pc, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PMGGatherGetOutput(PetscObject pc, Vec x, Vec *yfull)
{
  PetscFunctionBeginUser;
  PetscCall(PCGatherGetOutput((PC)pc, x, yfull));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_PMG(PC pc)
{
  PC_PMG         *pmg  = (PC_PMG *)pc->data;
  MPI_Comm        comm = PetscObjectComm((PetscObject)pc);
  DGDisc         *fine;
  PetscReal       lambda;
  const char     *prefix;
  char            mgprefix[256];
  KSP             ksp;
  PC              cpc;
  PetscInt        L, Lmg;
  const PetscInt *face_type;
  RefElement     *fine_ref;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(HOFLOW_PMGSetUp, pc, 0, 0, 0));
  PetscCall(PCReset_PMG(pc));
  PetscCall(IPDGOperatorGetDisc(pc->pmat, &fine));
  PetscCall(IPDGOperatorGetLambda(pc->pmat, &lambda));
  PetscCall(IPDGOperatorGetFaceTypes(pc->pmat, &face_type));
  PetscCall(DGDiscGetUniformRef(fine, "p-multigrid", &fine_ref));
  PetscCall(PMGSchedule(pc, fine->N, fine_ref->shape));
  /* 3D (measured on tetrahedra, see docs/design-notes.md): stronger smoothing, a wider interval */
  pmg->degree    = pmg->degree_opt ? pmg->degree_opt : (fine->dim == 3 ? 3 : 2); /* 3D: more at orders >= 6 */
  pmg->bounds[0] = pmg->bounds_opt[0] > 0 ? pmg->bounds_opt[0] : (fine->dim == 3 ? 0.05 : 0.1);
  pmg->bounds[1] = pmg->bounds_opt[0] > 0 ? pmg->bounds_opt[1] : 1.1;
  L              = pmg->nlevels;
  pmg->disc[0]   = fine;
  pmg->A[0]      = pc->pmat;
  PetscCall(PetscLogEventBegin(HOFLOW_PMGLevels, pc, 0, 0, 0));
  for (PetscInt l = 1; l < L; l++) {
    PetscCall(DGDiscCreate(fine->mesh, pmg->level_order[l], &pmg->level_disc[l]));
    PetscCall(DiscGetDG(pmg->level_disc[l], "p-multigrid", &pmg->disc[l]));
    PetscCall(IPDGOperatorCreate(pmg->disc[l], lambda, face_type, &pmg->A[l]));
    PetscCall(PMGNullSpace(pc->pmat, pmg->A[l]));
    PetscCall(DGTransferCreate(pmg->disc[l], pmg->disc[l - 1], &pmg->P[l - 1]));
  }
  PetscCall(PetscLogEventEnd(HOFLOW_PMGLevels, pc, 0, 0, 0));
  if (pmg->coarse_space == PMG_COARSE_CG1) { /* order 1 stays a smoothed matrix-free level */
    PetscCall(CG1CoarseSpaceCreate(pmg->A[L - 1], pmg->cg1_matrix, &pmg->P[L - 1], &pmg->Acoarse));
    Lmg = L + 1;
  } else {
    PetscCall(IPDGOperatorAssemble(pmg->A[L - 1], &pmg->Acoarse));
    PetscCall(PMGNullSpace(pc->pmat, pmg->Acoarse));
    if (L > 1) { /* the assembled matrix replaces the order-1 operator (the transfer keeps its own table) */
      PetscCall(MatDestroy(&pmg->A[L - 1]));
      PetscCall(DiscDestroy(&pmg->level_disc[L - 1]));
    }
    Lmg = L;
  }

  /* PCMG numbers levels from the coarsest (0) to the finest (L-1) */
  PetscCall(PCCreate(comm, &pmg->mg));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(PetscSNPrintf(mgprefix, sizeof(mgprefix), "%spmg_", prefix ? prefix : ""));
  PetscCall(PCSetOptionsPrefix(pmg->mg, mgprefix));
  PetscCall(PCSetType(pmg->mg, PCMG));
  PetscCall(PCMGSetLevels(pmg->mg, Lmg, NULL));
  PetscCall(PCMGSetType(pmg->mg, PC_MG_MULTIPLICATIVE));
  PetscCall(PCMGSetCycleType(pmg->mg, PC_MG_CYCLE_V));
  PetscCall(PCMGSetGalerkin(pmg->mg, PC_MG_GALERKIN_NONE));
  for (PetscInt l = 0; l < Lmg; l++) {
    const PetscInt lev = Lmg - 1 - l;
    if (l < Lmg - 1) {
      PC spc;
      PetscCall(PCMGSetInterpolation(pmg->mg, lev, pmg->P[l]));
      PetscCall(PCMGGetSmoother(pmg->mg, lev, &ksp));
      PetscCall(KSPSetOperators(ksp, pmg->A[l], pmg->A[l]));
      /* hoflow's fused Chebyshev/Jacobi (-ksp_type chebyjacobi, no PC of its own); PETSc's
       * -pmg_mg_levels_ksp_type chebyshev gets PCJACOBI unless a -pc_type is given */
      PetscCall(KSPSetType(ksp, KSPCHEBYJACOBI));
      /* 3D without a given degree: 3 + max(0, (p - 4) / 2) on the level of order p (3 up to p = 5, 4 at
       * p = 6, 7, 5 at p = 8): Jacobi on the nodal basis smooths less per step as p grows (tetrahedra,
       * 101 and 808 cells: N = 7 17/26 iterations with 3, 17/20 with 4; N = 8 21/27 with 4, 20/24 with 5) */
      {
        PetscInt degree = pmg->degree + (!pmg->degree_opt && fine->dim == 3 ? PetscMax(0, (pmg->level_order[l] - 4) / 2) : 0);
        /* The order-1 DG level between higher orders and the continuous coarse space: one step (-pc_pmg_order1_degree).
         * Its smoothing adds nothing there: the same iterations with 1 as with 2 (2D) or 3 (3D) steps, N = 2..8 on
         * triangles, quadrilaterals, tetrahedra and hexahedra (19 -> 18 at N = 6 and 23 -> 22 at N = 8 on triangles,
         * 2026-11-27), while it costs 3 of the level's 5 products a cycle, products that latency bounds on GPUs (on
         * 2 H200s the level's smoothing took as long as on one). Where order 1 is the finest level it keeps the degree
         * (N = 1: 13 iterations with one step, 7 with two). */
        if (pmg->coarse_space == PMG_COARSE_CG1 && l == L - 1 && l > 0) degree = pmg->order1_degree;
        PetscCall(KSPSetTolerances(ksp, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, degree));
      }
      PetscCall(KSPChebyJacobiSetKind(ksp, pmg->kind));
      PetscCall(KSPGetPC(ksp, &spc));
      PetscCall(PCSetType(spc, PCNONE));
      PetscCall(KSPSetFromOptions(ksp));
      {
        PetscBool   fused, pc_given;
        const char *kprefix;
        PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPCHEBYJACOBI, &fused));
        PetscCall(KSPGetOptionsPrefix(ksp, &kprefix));
        PetscCall(PetscOptionsHasName(NULL, kprefix, "-pc_type", &pc_given));
        if (!fused && !pc_given) PetscCall(PCSetType(spc, PCJACOBI));
      }
      { /* target [0.1, 1.1] lambda_max: PETSc's default transform of the estimate. Estimated here,
         * with a KSP destroyed afterwards: a Chebyshev that estimates for itself keeps that KSP and
         * its vectors (about 2 kB per element at N = 6). The inverse diagonal is computed once, for the
         * estimate's Jacobi preconditioner and the fused smoother (before, each computed its own) */
        PetscReal emax;
        Vec       dinv;
        PetscCall(MatCreateVecs(pmg->A[l], &dinv, NULL));
        PetscCall(MatGetDiagonal(pmg->A[l], dinv));
        PetscCall(VecReciprocal(dinv));
        PetscCall(HoflowEstimateMaxEigenvalue(pmg->A[l], pmg->eigest_its, dinv, &emax));
        PetscCall(KSPChebyJacobiSetInverseDiagonal(ksp, pmg->A[l], dinv));
        PetscCall(VecDestroy(&dinv));
        PetscCall(KSPChebyshevSetEigenvalues(ksp, pmg->bounds[1] * emax, pmg->bounds[0] * emax));
        PetscCall(KSPChebyshevEstEigSet(ksp, 0, 0, 0, 0));
      }
    }
  }
  PetscCall(PCMGGetCoarseSolve(pmg->mg, &ksp));
  PetscCall(KSPSetOperators(ksp, pmg->Acoarse, pmg->Acoarse));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &cpc));
  {
    /* BoomerAMG by default (GAMG where this PETSc's hypre cannot serve the solve), with the defaults of
     * solver/hypre.c under the coarse PC's prefix (pmg_mg_coarse_, or pmg_mg_levels_0_ when order 1 is
     * the only level); strong threshold: hypre's 0.25 in 2D; 0.7 in 3D, where the order-1 SIPDG matrix
     * has more and weaker off-diagonal couplings (tetrahedra, order 1 alone, one V-cycle: 19/26/28 CG
     * iterations on three refinements with 0.25, 13/18/21 with 0.7; 0.5, 0.8 and 0.9 do no better).
     * On several GPUs the coarse problem is gathered by default (solver/pc_gather.c): hypre's distributed
     * V-cycle is latency-bound there (2 H200s, 19.3 M DOFs: 7.9 ms a cycle against 1.9 ms gathered). The
     * coarse PC's -pc_type is read here because the gather PC needs its threshold before its setup. */
    const PetscReal theta     = fine->dim == 3 ? 0.7 : 0.25;
    char            ctype[64] = "";
    const char     *cprefix;
    PetscBool       device, gather, given, gathered_transfer;
    PetscMPIInt     size;
    PetscCall(HoflowDMIsCUDA(fine->dm, &device));
    PetscCall(PCGetOptionsPrefix(cpc, &cprefix));
    PetscCall(PetscOptionsGetString(NULL, cprefix, "-pc_type", ctype, sizeof(ctype), &given));
    PetscCall(PetscStrcmp(ctype, PCGATHER, &gather));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)cpc), &size));
#if defined(PETSC_HAVE_HYPRE)
    if (!given && device && size > 1) gather = PETSC_TRUE;
#endif
    if (gather) {
      PetscCall(PCSetType(cpc, PCGATHER));
      PetscCall(PCGatherSetHypreStrongThreshold(cpc, theta));
    } else
      PetscCall(HoflowAMGSetDefault(cpc, theta, device));
    /* The continuous level's transfer through the gather PC's full vectors (op/cg1_transfer.c): the restriction
     * sums straight into the gathered input (one exchange instead of P^T's reverse scatter and the allgather),
     * the interpolation reads the gathered solution (no exchange instead of P's forward scatter) */
    if (pmg->cg1_transfer == PMG_CG1_TRANSFER_GATHERED)
      PetscCheck(pmg->coarse_space == PMG_COARSE_CG1 && gather && size > 1, comm, PETSC_ERR_ARG_INCOMP, "-pc_pmg_cg1_transfer gathered needs the continuous coarse space (-pc_pmg_coarse_space cg1, here %s) solved by -%spc_type gather (here %s) on more than one rank (here %d): use -pc_pmg_cg1_transfer auto or aij", PMGCoarseSpaces[pmg->coarse_space], cprefix ? cprefix : "", gather ? PCGATHER : (given ? ctype : "the AMG default"), (int)size);
    gathered_transfer = (PetscBool)(pmg->coarse_space == PMG_COARSE_CG1 && pmg->cg1_transfer != PMG_CG1_TRANSFER_AIJ && gather && size > 1);
    if (gathered_transfer) {
      /* A coarse matrix with the constant null space (pure Neumann, periodic: the incompressible pressure; the only
       * null space op/cg1.c gives the continuous level): KSPSolve would hand the coarse PC a copy of the right-hand
       * side with the constant removed and remove it from the output, so neither handshake would hold. The gather
       * PC removes the constant itself instead, from the full input and output vectors it holds on every rank (the
       * same projections, no communication), and the coarse KSP is not told of the null space. */
      const CG1GatheredSolve solve = {(PetscObject)cpc, PMGGatherFullVectors, PMGGatherSetInput, PMGGatherGetOutput};
      MatNullSpace           ns    = NULL;
      PetscCall(MatGetNullSpace(pmg->Acoarse, &ns));
      if (ns) {
        PetscCall(PCGatherSetRemoveConstant(cpc, PETSC_TRUE));
        PetscCall(MatSetNullSpace(pmg->Acoarse, NULL));
        PetscCall(MatSetTransposeNullSpace(pmg->Acoarse, NULL));
      }
      PetscCall(CG1TransferCreate(pmg->P[L - 1], &solve, &pmg->Pgathered));
      PetscCall(PCMGSetInterpolation(pmg->mg, 1, pmg->Pgathered)); /* level 1: between the continuous level (0) and DG order 1 */
    }
  }
  PetscCall(PCSetOperators(pmg->mg, pc->mat, pc->pmat));
  PetscCall(PCSetFromOptions(pmg->mg));
  PetscCall(HoflowHypreSetDeviceMPI(cpc)); /* the coarse PC as the options left it */
  PetscCall(PCSetUp(pmg->mg));
  PetscCall(PetscLogEventEnd(HOFLOW_PMGSetUp, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_PMG(PC pc, Vec x, Vec y)
{
  PC_PMG *pmg = (PC_PMG *)pc->data;

  PetscFunctionBeginUser;
  PetscCall(PCApply(pmg->mg, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_PMG(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_PMG   *pmg = (PC_PMG *)pc->data;
  PetscInt  n   = HOFLOW_NMAX + 1;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, "hoflow p-multigrid (pMG-AMG)");
  PetscCall(PetscOptionsEnum("-pc_pmg_coarse_space", "Coarse space of the AMG solve: dg1 (the order-1 SIPDG matrix) or cg1 (continuous order 1 below a smoothed order-1 DG level)", NULL, PMGCoarseSpaces, (PetscEnum)pmg->coarse_space, (PetscEnum *)&pmg->coarse_space, NULL));
  PetscCall(PetscOptionsInt("-pc_pmg_order1_degree", "With cg1 below an order-1 DG level that is not the finest: its Chebyshev smoothing steps", NULL, pmg->order1_degree, &pmg->order1_degree, &set));
  PetscCheck(!set || pmg->order1_degree >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_pmg_order1_degree %" PetscInt_FMT " must be >= 1", pmg->order1_degree);
  PetscCall(PetscOptionsEnum("-pc_pmg_cg1_transfer", "With cg1: the transfer to and from the continuous level: through the gather PC's full vectors (gathered; where the coarse PC is gather on several ranks), the AIJ injection (aij), or gathered where it can (auto)", NULL, PMGCG1Transfers, (PetscEnum)pmg->cg1_transfer, (PetscEnum *)&pmg->cg1_transfer, NULL));
  PetscCall(PetscOptionsEnum("-pc_pmg_cg1_matrix", "With cg1: the coarse matrix assembled directly (direct) or as P^T A_dg1 P from the assembled order-1 SIPDG matrix (galerkin); the same matrix", NULL, CG1MatrixTypes, (PetscEnum)pmg->cg1_matrix, (PetscEnum *)&pmg->cg1_matrix, NULL));
  PetscCall(PetscOptionsIntArray("-pc_pmg_orders", "Orders of the levels, finest first, ending at 1 (e.g. 8,4,2,1)", NULL, pmg->orders, &n, &set));
  pmg->norders = set ? n : 0;
  PetscCall(PetscOptionsEnum("-pc_pmg_coarsen", "Order coarsening when -pc_pmg_orders is not given (auto: minus1 on tetrahedra and prisms, halving otherwise)", NULL, PMGCoarsenings, (PetscEnum)pmg->coarsen, (PetscEnum *)&pmg->coarsen, NULL));
  PetscCall(PetscOptionsInt("-pc_pmg_chebyshev_degree", "Chebyshev smoothing steps on each p-level (pre and post; unset: 2 in 2D; in 3D 3 + max(0, (p - 4)/2) at order p)", NULL, pmg->degree_opt, &pmg->degree_opt, &set));
  PetscCheck(!set || pmg->degree_opt >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_pmg_chebyshev_degree %" PetscInt_FMT " must be >= 1", pmg->degree_opt);
  PetscCall(PetscOptionsEnum("-pc_pmg_chebyshev_kind", "Chebyshev smoother polynomial: first or fourth kind", NULL, HoflowChebyKinds, (PetscEnum)pmg->kind, (PetscEnum *)&pmg->kind, NULL));
  n = 2;
  PetscCall(PetscOptionsRealArray("-pc_pmg_chebyshev_bounds", "Smoothed interval [emin, emax] as fractions of the estimated lambda_max of D^{-1} A (default 0.1,1.1 in 2D, 0.05,1.1 in 3D)", NULL, pmg->bounds_opt, &n, &set));
  PetscCheck(!set || (n == 2 && pmg->bounds_opt[0] > 0 && pmg->bounds_opt[1] > pmg->bounds_opt[0]), PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_pmg_chebyshev_bounds needs two fractions 0 < lo < hi of the estimated lambda_max, got %g,%g (%" PetscInt_FMT " given)", (double)pmg->bounds_opt[0], (double)(n > 1 ? pmg->bounds_opt[1] : 0), n);
  PetscCall(PetscOptionsInt("-pc_pmg_eigest_its", "CG/Jacobi iterations of the lambda_max estimate on each p-level", NULL, pmg->eigest_its, &pmg->eigest_its, NULL));
  PetscCheck(pmg->eigest_its >= 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_pmg_eigest_its %" PetscInt_FMT " must be >= 2", pmg->eigest_its);
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_PMG(PC pc, PetscViewer viewer)
{
  PC_PMG   *pmg = (PC_PMG *)pc->data;
  PetscBool ascii;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  hoflow p-multigrid, orders"));
  for (PetscInt l = 0; l < pmg->nlevels; l++) PetscCall(PetscViewerASCIIPrintf(viewer, " %" PetscInt_FMT, pmg->level_order[l]));
  if (pmg->coarse_space == PMG_COARSE_CG1) PetscCall(PetscViewerASCIIPrintf(viewer, ", then continuous order 1 (%s matrix)", CG1MatrixTypes[pmg->cg1_matrix]));
  if (pmg->coarse_space == PMG_COARSE_CG1 && pmg->nlevels > 1) PetscCall(PetscViewerASCIIPrintf(viewer, "; order-1 DG level smoothed by %" PetscInt_FMT " step%s", pmg->order1_degree, pmg->order1_degree == 1 ? "" : "s"));
  PetscCall(PetscViewerASCIIPrintf(viewer, " (matrix-free p-levels, Chebyshev(%" PetscInt_FMT "%s)/Jacobi on [%g, %g] lambda_max; %s assembled)\n", pmg->degree, pmg->degree_opt || !pmg->disc[0] || pmg->disc[0]->dim != 3 ? "" : ", +1 per 2 orders above 4", (double)pmg->bounds[0], (double)pmg->bounds[1], pmg->coarse_space == PMG_COARSE_CG1 ? "continuous order 1" : "order 1"));
  if (pmg->coarse_space == PMG_COARSE_CG1 && pmg->mg) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    if (pmg->Pgathered)
      PetscCall(CG1TransferView(pmg->Pgathered, viewer));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "CG1 <-> DG1 transfer: aij (the injection's MatMultTranspose and MatMultAdd)\n"));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  if (pmg->mg) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PCView(pmg->mg, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_PMG(PC pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCReset_PMG(pc));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCPMGGetDefaultChebyshevDegree(PetscOptions options, PetscInt *degree)
{
  PetscBool set;

  PetscFunctionBeginUser;
  *degree = 0;
  PetscCall(PetscOptionsGetInt(options, NULL, "-pc_pmg_chebyshev_degree_default", degree, &set));
  PetscCheck(!set || *degree >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-pc_pmg_chebyshev_degree_default %" PetscInt_FMT " must be >= 1", *degree);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PCCreate_PMG(PC pc)
{
  PC_PMG *pmg;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&pmg));
  pmg->coarsen      = PMG_AUTO;
  pmg->coarse_space = PMG_COARSE_CG1; /* as many iterations as dg1 or fewer, an AMG problem 6x smaller (docs/design-notes.md) */
  pmg->kind         = HOFLOW_CHEBY_FIRST;
  pmg->eigest_its   = 10;
  pmg->order1_degree = 1;
  PetscCall(PCPMGGetDefaultChebyshevDegree(((PetscObject)pc)->options, &pmg->degree_opt));
  pc->data                = pmg;
  pc->ops->setup          = PCSetUp_PMG;
  pc->ops->apply          = PCApply_PMG;
  pc->ops->reset          = PCReset_PMG;
  pc->ops->destroy        = PCDestroy_PMG;
  pc->ops->view           = PCView_PMG;
  pc->ops->setfromoptions = PCSetFromOptions_PMG;
  PetscFunctionReturn(PETSC_SUCCESS);
}
