/* hoflow flux reconstruction with dense operator matrices (-disc fr on meshes with triangles, tetrahedra or prisms,
 * alone or mixed with quadrilaterals and hexahedra; hoflow/fr.h): the energy-stable FR family (ESFR) written as a
 * filtered DG scheme, for the Euler equations and linear advection through the conservation-law table
 * (hoflow/conslaw.h). The kernels are hoflow/kernels/fr_dense.h. Meshes of quadrilaterals or hexahedra only take
 * the tensor-product path (disc/fr.c), which DiscCreate_FR chooses.
 *
 * Solution points: the nodes of hoflow's RefElement of the shape (warp & blend on triangles and tetrahedra,
 * the tetrahedron's face set times GLL on prisms, GLL on quadrilaterals and hexahedra). Flux points: the face
 * cubature of degree 2N on every face (MeshFaceCubature in the face's canonical orientation, as modal DG's face
 * points, so the neighbours' points match without coordinates, periodic faces and faces between shapes included).
 *
 * Corrections (Castonguay, Vincent & Jameson 2012, J Sci Comput 51:224-256, triangles; Williams & Jameson 2014,
 * J Sci Comput 59:721-759, tetrahedra; in the filtered-DG form of Zwanenburg & Nadarajah 2016, J Comput Phys
 * 306:343-369, and Allaneau & Jameson 2011): the divergence of the correction field of flux point q is the column
 * q of C = (M + K)^{-1} E, E[i, q] = int_face l_i delta_q (the face cubature), M the reference mass matrix and
 *
 *   K = c/2 sum_alpha w_alpha (D^alpha)^T M (D^alpha),
 *
 * alpha running over the derivatives of order N in each simplex factor of the shape with multinomial weights:
 * triangles alpha = (N-v, v), w = binom(N, v) (Castonguay et al.'s norm), tetrahedra alpha = (N-v, v-w, w),
 * w = N! / ((N-v)! (v-w)! w!) (Williams & Jameson's), prisms alpha = (N-v, v, N) (order N in the triangle and in
 * the extrusion direction), quadrilaterals and hexahedra alpha = (N, N[, N]); in 1D this is the VCJH scheme of
 * hoflow/ref.h (K_ij = c l_i^(N) l_j^(N)). Every alpha has order >= N in every factor, so K annihilates the
 * reference derivatives of the discrete space; for linear advection on affine elements (M + K) J du/dt is then
 * modal DG's right-hand side, and the energy u^T J (M + K) u does not grow with an upwind flux, for every c >= 0
 * (FREnergy). c = 0 is nodal DG: with the same nodes, fluxes and exact integration it equals -disc mdg to
 * round-off (tests/suite_fr.py). The prisms' and the mixed hexahedra's K are hoflow's choice (the smallest K
 * with that property), not a published family. -fr_correction sd|hu|plus on meshes of triangles only or of
 * tetrahedra only take the literature's named values as HiFiLES tabulates them (VCJHSimplexParameter, ref/vcjh.c,
 * converted to this norm); elsewhere they are refused and -fr_c gives c.
 *
 * The initial state is the L2 projection (cubature of degree 2N+1, modal DG's), so FR with c = 0 starts where
 * modal DG does; errors, integrals and means use that cubature too. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/fr.h>
#include <hoflow/geom.h>
#include <hoflow/kernels/fr_dense.h>
#include <hoflow/kernels/fr_dense_viscous.h>
#include <hoflow/log.h>

static PetscErrorCode FRDDestroy(Disc);

typedef struct {
  RefElement *ref;                                               /* nodes, D, M and the cubature of degree 2N+1 */
  PetscInt    fp_off[HOFLOW_FACES_MAX + 1];                      /* flux points of face f: fp_off[f] .. fp_off[f+1]-1 */
  PetscInt    table[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS]; /* face f, orientation o: L and C at this offset */
  PetscReal   nref[HOFLOW_FACES_MAX][3];
  PetscReal  *D; /* [dim*Np*Np] */
  PetscReal  *W; /* [Np*Np] M + K, the norm of the energy */
} FRDShape;

typedef struct {
  Disc              disc;
  Mesh             *mesh;
  DM                dm;
  PetscInt          N, dim, nv, K;
  PetscReal         c;
  FRDShape          shapes[REF_NUM_SHAPES];
  PetscReal        *L, *C; /* every shape's face tables */
  PetscInt          ntab;
  PetscInt         *elem_dof; /* [Klocal+1] */
  int              *dof;      /* the same as int, for the kernels */
  FRDenseKernelData kd[MESH_MAX_BLOCKS];
  PetscReal        *geo[MESH_MAX_BLOCKS], *fgeo[MESH_MAX_BLOCKS];
  int              *face_info[MESH_MAX_BLOCKS];
  PetscReal        *trace;     /* every owned element's trace (all blocks), then (-fr_halo traces) the halo elements' */
  PetscInt         *trace_off; /* [Klocal+1] element l's trace at trace + trace_off[l] */
  PetscReal        *h;         /* [K] element size dim |E| / |dE| */
  PetscReal        *xs;        /* [elem_dof[K]/nv*dim] the physical solution points */
  PetscReal        *scratch;
  PetscInt          nbpoints;
  PetscReal        *bx, *bn, *bc_point;
  PetscInt         *btype;
  PetscReal        *xdof;
  PetscReal        *int_weight; /* [elem_dof[K] / nv] each solution point's Lagrange function integrated over its element (FRDIntegrate) */
  OpShell           shell;
  Vec               speed;
  /* the device (cuda/fr_dense.cu): the kernel data's device copies, the element sizes, elements a block */
  FRDenseKernelData kd_device[MESH_MAX_BLOCKS];
  const double     *h_device;
  PetscInt          elements_per_block;
  FRExchange        exchange; /* -fr_exchange (hoflow/fr.h) */
  /* Navier–Stokes (set_viscous): per block the faces' 1/h and u_I - u- at the flux points; the corrected gradients */
  PetscReal *face_scale[MESH_MAX_BLOCKS], *ujump[MESH_MAX_BLOCKS], *grad;
  PetscReal *grad_trace; /* every owned element's gradient trace (hoflow/kernels/fr_dense.h) */
  /* ... on several ranks: the gradient traces of the elements on partition faces (hoflow/kernels/fr_dense.h) */
  PetscReal *gtrace;
  int       *gtrace_elem, *gtrace_face[MESH_MAX_BLOCKS];
  PetscInt   ngtrace;
  double    *gtrace_device;
} FRDDisc;

/* x[n*dim] (may be NULL) and the metric geo[n*gs] of owned or halo element e at the reference points xi[n*dim] */
static PetscErrorCode FRDGeometry(const Mesh *mesh, RefShape shape, PetscInt e, PetscInt n, const PetscReal xi[], PetscReal x[], PetscReal geo[])
{
  const PetscInt dim = mesh->dim, gs = dim * dim + 1;

  PetscFunctionBeginUser;
  if (!MeshElementIsCurved(mesh, e)) {
    for (PetscInt p = 0; p < n; p++) {
      if (x) GeomAffineMap(shape, (int)dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, xi + p * dim, x + p * dim);
      for (PetscInt j = 0; j < gs; j++) geo[p * gs + j] = mesh->geo[e * HOFLOW_GEO_SIZE(dim) + j];
    }
  } else {
    MeshGeometryTable tab;
    PetscReal        *jac;
    PetscCall(MeshGeometryTableCreate(mesh, shape, n, xi, &tab));
    PetscCall(PetscMalloc1(n * dim * dim, &jac));
    MeshCurvedElementMap(mesh, &tab, e, x, jac);
    for (PetscInt p = 0; p < n; p++) (void)GeomMetricFromJacobian((int)dim, jac + p * dim * dim, geo + p * gs);
    PetscCall(PetscFree(jac));
    PetscCall(MeshGeometryTableDestroy(&tab));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* K += w (D^alpha)^T M D^alpha for the derivative alpha[dim] (nodal derivative matrices applied alpha_d times) */
static PetscErrorCode FRDAddNormTerm(const RefElement *ref, const PetscInt alpha[], PetscReal w, PetscReal K[])
{
  const PetscInt Np = ref->Np;
  PetscReal     *A, *T, *MA;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(Np * Np, &A, Np * Np, &T, Np * Np, &MA));
  for (PetscInt i = 0; i < Np * Np; i++) A[i] = (i / Np == i % Np);
  for (PetscInt d = 0; d < ref->dim; d++)
    for (PetscInt k = 0; k < alpha[d]; k++) {
      DenseMatMult(Np, Np, Np, ref->D[d], A, T);
      PetscCall(PetscArraycpy(A, T, Np * Np));
    }
  DenseMatMult(Np, Np, Np, ref->M, A, MA);
  for (PetscInt i = 0; i < Np; i++)
    for (PetscInt j = 0; j < Np; j++) {
      PetscReal s = 0;
      for (PetscInt m = 0; m < Np; m++) s += A[m * Np + i] * MA[m * Np + j];
      K[i * Np + j] += w * s;
    }
  PetscCall(PetscFree3(A, T, MA));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal FRDFactorial(PetscInt n)
{
  PetscReal f = 1;
  for (PetscInt i = 2; i <= n; i++) f *= i;
  return f;
}

/* W = M + K (the header's K) */
static PetscErrorCode FRDNorm(const RefElement *ref, PetscInt N, PetscReal c, PetscReal W[])
{
  const PetscInt Np       = ref->Np;
  PetscInt       alpha[3] = {0, 0, 0};
  PetscReal     *K;

  PetscFunctionBeginUser;
  PetscCall(PetscArraycpy(W, ref->M, Np * Np));
  if (c == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1(Np * Np, &K));
  switch (ref->shape) {
  case REF_TRIANGLE:
  case REF_PRISM: /* (N-v, v) in the triangle; N along t on prisms */
    for (PetscInt v = 0; v <= N; v++) {
      alpha[0] = N - v;
      alpha[1] = v;
      alpha[2] = ref->shape == REF_PRISM ? N : 0;
      PetscCall(FRDAddNormTerm(ref, alpha, FRDFactorial(N) / (FRDFactorial(N - v) * FRDFactorial(v)), K));
    }
    break;
  case REF_TETRAHEDRON:
    for (PetscInt v = 0; v <= N; v++)
      for (PetscInt w = 0; w <= v; w++) {
        alpha[0] = N - v;
        alpha[1] = v - w;
        alpha[2] = w;
        PetscCall(FRDAddNormTerm(ref, alpha, FRDFactorial(N) / (FRDFactorial(N - v) * FRDFactorial(v - w) * FRDFactorial(w)), K));
      }
    break;
  default: /* quadrilaterals, hexahedra */
    for (PetscInt d = 0; d < ref->dim; d++) alpha[d] = N;
    PetscCall(FRDAddNormTerm(ref, alpha, 1, K));
  }
  for (PetscInt i = 0; i < Np * Np; i++) W[i] += 0.5 * c * 0.5 * (K[i] + K[(i % Np) * Np + i / Np]); /* symmetric to round-off */
  PetscCall(PetscFree(K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The tables of one shape: derivatives, the norm, and for every face and orientation the interpolation to the
 * flux points and the correction field's divergence C = (M + K)^{-1} E */
static PetscErrorCode FRDShapeSetUp(FRDDisc *fr, RefShape shape)
{
  FRDShape           *sh   = &fr->shapes[shape];
  const RefShapeInfo *info = &RefShapeTable[shape];
  PetscInt            Np;
  PetscReal          *Winv;

  PetscFunctionBeginUser;
  if (sh->ref) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RefElementCreate(shape, fr->N, &sh->ref));
  Np = sh->ref->Np;
  PetscCall(PetscMalloc2(fr->dim * Np * Np, &sh->D, Np * Np, &sh->W));
  PetscCall(PetscMalloc1(Np * Np, &Winv));
  for (PetscInt d = 0; d < fr->dim; d++) PetscCall(PetscArraycpy(sh->D + d * Np * Np, sh->ref->D[d], Np * Np));
  PetscCall(FRDNorm(sh->ref, fr->N, fr->c, sh->W));
  PetscCall(DenseInvert(Np, sh->W, Winv));
  sh->fp_off[0] = 0;
  for (PetscInt f = 0; f < info->nfaces; f++) {
    PetscReal ratio;
    GeomReferenceFace(shape, (int)f, sh->nref[f], &ratio);
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscInt   n;
      PetscReal *xi, *w, *E;
      PetscCall(MeshFaceCubature(shape, f, o, 2 * fr->N, &n, &xi, &w));
      sh->fp_off[f + 1] = sh->fp_off[f] + n;
      PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->ntab + n * Np), &fr->L));
      PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->ntab + n * Np), &fr->C));
      sh->table[f][o] = fr->ntab;
      PetscCall(RefElementInterpolationMatrix(sh->ref, n, xi, fr->L + fr->ntab));
      PetscCall(PetscMalloc1(Np * n, &E));
      for (PetscInt i = 0; i < Np; i++)
        for (PetscInt q = 0; q < n; q++) E[i * n + q] = w[q] * ratio * fr->L[fr->ntab + q * Np + i];
      DenseMatMult(Np, Np, n, Winv, E, fr->C + fr->ntab);
      fr->ntab += n * Np;
      PetscCall(PetscFree(E));
      PetscCall(PetscFree(xi));
      PetscCall(PetscFree(w));
    }
  }
  PetscCall(PetscFree(Winv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solution points' geometry, the flux points' normals, the neighbours and the boundary points of block b */
static PetscErrorCode FRDBlockSetUp(FRDDisc *fr, PetscInt b)
{
  Mesh               *mesh = fr->mesh;
  const MeshBlock    *mb   = &mesh->blocks[b];
  const RefShapeInfo *info = &RefShapeTable[mb->shape];
  FRDShape           *sh   = &fr->shapes[mb->shape];
  const PetscInt      dim = fr->dim, gs = dim * dim + 1, Np = sh->ref->Np, K = mb->end - mb->start, nfpt = sh->fp_off[info->nfaces];
  FRDenseKernelData  *kd = &fr->kd[b];
  PetscReal          *xf, *gf, *fxi[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS], *fw[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(PetscMax(K, 1) * Np * gs, &fr->geo[b], PetscMax(K, 1) * nfpt * (dim + 1), &fr->fgeo[b], PetscMax(K, 1) * info->nfaces * FRD_FACE_INFO, &fr->face_info[b]));
  PetscCall(PetscMalloc2(nfpt * dim, &xf, nfpt * gs, &gf));
  for (PetscInt f = 0; f < info->nfaces; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscInt n;
      PetscCall(MeshFaceCubature(mb->shape, f, o, 2 * fr->N, &n, &fxi[f][o], &fw[f][o]));
    }
  for (PetscInt k = 0; k < K; k++) {
    const PetscInt l         = mb->start + k;
    PetscReal      perimeter = 0;
    PetscCall(FRDGeometry(mesh, mb->shape, l, Np, sh->ref->xi, fr->xs + fr->elem_dof[l] / fr->nv * dim, fr->geo[b] + k * Np * gs));
    for (PetscInt i = 0; i < Np; i++) PetscCheck(fr->geo[b][(k * Np + i) * gs + dim * dim] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-disc fr: cell %" PetscInt_FMT " of mesh %s has Jacobian %g <= 0 at a solution point", mesh->elem_cell[l], mesh->source, (double)fr->geo[b][(k * Np + i) * gs + dim * dim]);
    for (PetscInt f = 0; f < info->nfaces; f++) {
      const PetscInt slot = mesh->face_slot[l] + f, nb = mesh->face_elem[slot], o = MeshFaceOrientation(mesh, l, f), nf = sh->fp_off[f + 1] - sh->fp_off[f];
      int           *fi = fr->face_info[b] + (k * info->nfaces + f) * FRD_FACE_INFO;
      perimeter += mesh->face_measure[slot];
      PetscCall(FRDGeometry(mesh, mb->shape, l, nf, fxi[f][o], xf, gf));
      for (PetscInt q = 0; q < nf; q++) { /* Nanson: n = G nr / |G nr|, dA / dA_ref = J |G nr| */
        const PetscReal *g  = gf + q * gs;
        PetscReal       *fg = fr->fgeo[b] + (k * nfpt + sh->fp_off[f] + q) * (dim + 1), v[3], norm = 0;
        for (PetscInt j = 0; j < dim; j++) {
          v[j] = 0;
          for (PetscInt d = 0; d < dim; d++) v[j] += g[j * dim + d] * sh->nref[f][d];
          norm += v[j] * v[j];
        }
        norm = PetscSqrtReal(norm);
        for (PetscInt j = 0; j < dim; j++) fg[j] = v[j] / norm;
        fg[dim] = g[dim * dim] * norm;
      }
      fi[0] = (int)sh->table[f][o];
      fi[5] = (int)mesh->face_type[slot];
      if (nb >= 0) {
        const PetscInt g2 = mesh->face_face[slot], o2 = MeshFaceOrientation(mesh, nb, g2);
        const RefShape s2 = MeshElementShape(mesh, nb);
        fi[1]             = (int)nb;
        fi[2]             = (int)fr->elem_dof[nb];
        fi[3]             = (int)fr->shapes[s2].ref->Np;
        fi[4]             = (int)fr->shapes[s2].table[g2][o2];
        fi[6]             = nb < mesh->K || fr->exchange.halo == FR_HALO_TRACES ? (int)(fr->trace_off[nb] + fr->shapes[s2].fp_off[g2] * 2 * fr->nv) : -1; /* its trace (a halo element's: received) */
      } else {
        PetscCheck(mesh->face_type[slot] >= EULER_BC_SLIP_WALL && mesh->face_type[slot] < EULER_BC_END, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: boundary face %" PetscInt_FMT " of cell %" PetscInt_FMT " has no boundary type of the Euler equations (-bc_slip_wall, -bc_supersonic_inflow, ...): -disc fr discretizes the Euler equations, or linear advection on periodic meshes", mesh->source, f, mesh->elem_cell[l]);
        fi[1] = -1;
        fi[2] = -1;
        fi[3] = (int)Np;
        fi[4] = (int)fr->nbpoints;
        fi[6] = -1;
        PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->nbpoints + nf) * dim, &fr->bx));
        PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->nbpoints + nf) * dim, &fr->bn));
        PetscCall(PetscRealloc(sizeof(PetscInt) * (fr->nbpoints + nf), &fr->btype));
        for (PetscInt q = 0; q < nf; q++, fr->nbpoints++) {
          for (PetscInt j = 0; j < dim; j++) {
            fr->bx[fr->nbpoints * dim + j] = xf[q * dim + j];
            fr->bn[fr->nbpoints * dim + j] = fr->fgeo[b][(k * nfpt + sh->fp_off[f] + q) * (dim + 1) + j];
          }
          fr->btype[fr->nbpoints] = mesh->face_type[slot];
        }
      }
    }
    fr->h[l] = dim * mesh->measure[l] / perimeter;
  }
  for (PetscInt f = 0; f < info->nfaces; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(info->face_shape[f]); o++) {
      PetscCall(PetscFree(fxi[f][o]));
      PetscCall(PetscFree(fw[f][o]));
    }
  PetscCall(PetscFree2(xf, gf));
  kd->dim    = (int)dim;
  kd->nv     = (int)fr->nv;
  kd->Np     = (int)Np;
  kd->Nfaces = info->nfaces;
  kd->nfpt   = (int)nfpt;
  kd->K      = (int)K;
  kd->e0     = (int)mb->start;
  for (PetscInt f = 0; f <= info->nfaces; f++) kd->fp_off[f] = (int)sh->fp_off[f];
  for (PetscInt f = 0; f < info->nfaces; f++)
    for (PetscInt d = 0; d < 3; d++) kd->nref[f][d] = d < dim ? sh->nref[f][d] : 0;
  kd->D         = sh->D;
  kd->dof       = fr->dof;
  kd->geo       = fr->geo[b];
  kd->fgeo      = fr->fgeo[b];
  kd->face_info = fr->face_info[b];
  kd->trace     = fr->trace;
  kd->trace0    = (int)fr->trace_off[mb->start];
  kd->gamma     = 1.4;
  kd->flux      = EULER_FLUX_RUSANOV;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the conservation-law table */
static PetscErrorCode FRDSetEquations(ConsLaw cl, PetscReal gamma, PetscInt flux)
{
  FRDDisc *fr = (FRDDisc *)cl->data;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    fr->kd[b].gamma = gamma;
    fr->kd[b].flux  = (int)flux;
    for (PetscInt j = 0; j < 3; j++) fr->kd[b].velocity[j] = cl->velocity[j];
    fr->kd_device[b].gamma = gamma; /* the device copies are made once, at the first device call: keep them in step */
    fr->kd_device[b].flux  = (int)flux;
    for (PetscInt j = 0; j < 3; j++) fr->kd_device[b].velocity[j] = cl->velocity[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one right-hand side (log events, estimates): the volume part (the flux, about 30 flops a point and its
 * transform, the dense divergence, the trace's interpolations) and the face part (the numerical flux, about 60 flops a
 * flux point, the dense corrections, the scaling) */
static void FRDFlops(const FRDDisc *fr, PetscLogDouble *fv, PetscLogDouble *ff)
{
  *fv = *ff = 0;
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    const FRDenseKernelData *kd = &fr->kd[b];
    const PetscLogDouble     K = kd->K, Np = kd->Np, nv = kd->nv, dim = kd->dim, nfpt = kd->nfpt;
    *fv += K * (Np * (30 + 2 * dim * dim * nv + 2 * dim * nv * Np) + nfpt * 2 * nv * Np * (dim + 1));
    *ff += K * (nfpt * (60 + 3 * nv) + Np * nv * (2 * nfpt + 1));
  }
}

/* the trace layout of dense FR (FRTraceLayout): face f's points of element l's shape */
static void FRDTraceFacePoints(const void *ctx, PetscInt l, PetscInt f, PetscInt *begin, PetscInt *end)
{
  const FRDDisc  *fr = (const FRDDisc *)ctx;
  const FRDShape *sh = &fr->shapes[MeshElementShape(fr->mesh, l)];
  *begin             = sh->fp_off[f];
  *end               = sh->fp_off[f + 1];
}

/* the gradient traces' length: the owned elements' traces' (nfpt 2 nv doubles an element) with dim nv values a flux
 * point (FRDenseGradientTraceAt) */
static PetscInt FRDGradientTraceSize(const FRDDisc *fr)
{
  return fr->trace_off[fr->K] / (2 * fr->nv) * fr->dim * fr->nv;
}

/* Navier–Stokes on several ranks: the gradient traces (every halo element; the owned elements with a halo neighbour),
 * every block's faces' offsets of their halo neighbours' and the star forest */
static PetscErrorCode FRDGradientTraceSetUp(FRDDisc *fr)
{
  const Mesh    *mesh   = fr->mesh;
  const PetscInt nc     = fr->dim * fr->nv;
  FRTraceLayout  layout = {nc, 1, nc, FRDTraceFacePoints, fr};
  PetscInt      *off;
  PetscMPIInt    size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)fr->dm), &size));
  if (size == 1 || fr->gtrace_elem) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &off));
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &fr->gtrace_elem));
  fr->ngtrace = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    const RefShape  shape     = MeshElementShape(mesh, l);
    const PetscBool partition = FRTraceOnPartition(mesh, l);
    off[l]                    = partition ? fr->ngtrace : -1;
    if (partition) fr->ngtrace += fr->shapes[shape].fp_off[RefShapeTable[shape].nfaces] * nc;
    fr->gtrace_elem[l] = (int)off[l];
  }
  PetscCall(PetscMalloc1(PetscMax(fr->ngtrace, 1), &fr->gtrace));
  PetscCall(FRTraceSFCreate(mesh, off, PetscMax(fr->ngtrace, 1), &layout, "gradient traces", &fr->exchange.grad_sf));
  PetscCall(PetscFree(off));
  for (PetscInt b = 0; b < mesh->nblocks; b++) {
    FRDenseKernelData *kd = &fr->kd[b];
    PetscCall(PetscMalloc1(PetscMax(kd->K * kd->Nfaces, 1), &fr->gtrace_face[b]));
    for (PetscInt k = 0; k < kd->K; k++)
      for (PetscInt f = 0; f < kd->Nfaces; f++) {
        const PetscInt slot = mesh->face_slot[kd->e0 + k] + f, nb = mesh->face_elem[slot];
        fr->gtrace_face[b][k * kd->Nfaces + f] = nb >= mesh->K ? (int)(fr->gtrace_elem[nb] + fr->shapes[MeshElementShape(mesh, nb)].fp_off[mesh->face_face[slot]] * nc) : -1;
      }
    kd->gtrace_elem = fr->gtrace_elem;
    kd->gtrace_face = fr->gtrace_face[b];
    kd->gtrace      = fr->gtrace;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes: the corrected-gradient viscous terms (hoflow/kernels/fr_dense_viscous.h); eta is modal DG's BR2 penalty */
static PetscErrorCode FRDSetViscous(ConsLaw cl, const NSViscosity *vis, PetscReal eta)
{
  FRDDisc *fr = (FRDDisc *)cl->data;
  NSLDG    ldg;

  PetscFunctionBeginUser;
  (void)eta;
  PetscCheck(fr->nv == fr->dim + 2, PetscObjectComm((PetscObject)fr->dm), PETSC_ERR_ARG_WRONG, "-disc fr: viscous terms need the Navier-Stokes state (%" PetscInt_FMT " components), not %" PetscInt_FMT, fr->dim + 2, fr->nv);
  PetscCall(FRViscousSetUp(fr->disc, vis, fr->exchange.halo, &ldg));
  PetscCheck(!fr->shell.device_ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "-disc fr: the viscous terms must be set before the first device call (their arrays are uploaded with the kernel data)");
  if (!fr->grad) PetscCall(PetscMalloc2(PetscMax(fr->dim * fr->elem_dof[fr->K], 1), &fr->grad, PetscMax(FRDGradientTraceSize(fr), 1), &fr->grad_trace));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    FRDenseKernelData *kd = &fr->kd[b];
    if (!fr->face_scale[b]) PetscCall(PetscMalloc2(PetscMax(kd->K * kd->Nfaces, 1), &fr->face_scale[b], PetscMax(kd->K * kd->nfpt * fr->nv, 1), &fr->ujump[b]));
    for (PetscInt k = 0; k < kd->K; k++)
      for (PetscInt f = 0; f < kd->Nfaces; f++) fr->face_scale[b][k * kd->Nfaces + f] = FRViscousFaceScale(fr->mesh, kd->e0 + k, f);
    kd->ldg        = ldg;
    kd->face_scale = fr->face_scale[b];
    kd->ujump      = fr->ujump[b];
    kd->grad       = fr->grad;
    kd->grad_trace = fr->grad_trace;
  }
  PetscCall(FRDGradientTraceSetUp(fr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes (FRDSetViscous sets every block's ldg) */
static PetscBool FRDViscous(const FRDDisc *fr)
{
  return fr->mesh->nblocks > 0 && fr->kd[0].ldg.on ? PETSC_TRUE : PETSC_FALSE;
}

/* The volume step of every block (FRExchangeOps; every block's before any face step: the faces read the neighbours'
 * traces, a tetrahedron's face a prism's trace on mixed meshes) */
static PetscErrorCode FRDVolumeStep(void *ctx, void *stream, const PetscScalar u[], PetscScalar f[])
{
  FRDDisc *fr = (FRDDisc *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    if (!fr->shell.on_device)
      FRDenseVolumeHost(&fr->kd[b], u, f, fr->scratch);
    else {
      fr->kd_device[b].stream = stream;
      PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseVolumeCUDA(&fr->kd_device[b], (int)fr->elements_per_block, u, f)), "flux reconstruction (dense) volume"));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes (FRExchangeOps, after the traces' exchange): every block's states, then gradients, then viscous volume
 * parts (the face step reads the neighbours' gradients); on several ranks then the gradient traces that the second
 * exchange sends */
static PetscErrorCode FRDViscousStep(void *ctx, void *stream, const PetscScalar u[], const PetscScalar ul[], PetscScalar f[])
{
  FRDDisc *fr = (FRDDisc *)ctx;

  PetscFunctionBeginUser;
  if (!fr->shell.on_device) {
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) FRDenseViscousStateHost(&fr->kd[b], ul);
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) FRDenseViscousGradientHost(&fr->kd[b], u);
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) FRDenseViscousVolumeHost(&fr->kd[b], u, f, fr->scratch);
    for (PetscInt b = 0; b < fr->mesh->nblocks && fr->gtrace_elem; b++) FRDenseViscousGradientTraceHost(&fr->kd[b]);
  } else {
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) { /* the device fuses the three per block */
      fr->kd_device[b].stream = stream;
      PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseViscousCUDA(&fr->kd_device[b], (int)fr->elements_per_block, u, ul, f)), "flux reconstruction (dense) viscous terms"));
    }
    for (PetscInt b = 0; b < fr->mesh->nblocks && fr->gtrace_elem; b++) PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseViscousGradientTraceCUDA(&fr->kd_device[b])), "flux reconstruction (dense) gradient traces"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face step of the elements of `set` in every block (FRExchangeOps); Navier–Stokes: all elements, with the viscous
 * common flux */
static PetscErrorCode FRDFaceStep(void *ctx, void *stream, FRFaceSet set, const PetscScalar ul[], PetscScalar f[])
{
  FRDDisc *fr = (FRDDisc *)ctx;

  PetscFunctionBeginUser;
  if (FRDViscous(fr)) {
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
      if (!fr->shell.on_device)
        FRDenseViscousFaceHost(&fr->kd[b], ul, f, fr->scratch);
      else {
        fr->kd_device[b].stream = stream;
        PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseViscousFaceCUDA(&fr->kd_device[b], (int)fr->elements_per_block, ul, f)), "flux reconstruction (dense) viscous face"));
      }
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    FRDenseKernelData kd = fr->shell.on_device ? fr->kd_device[b] : fr->kd[b];
    FRExchangeFaceRange(&fr->mesh->blocks[b], set, &kd.face_subset, &kd.face_begin, &kd.face_end);
    if (!fr->shell.on_device)
      FRDenseFaceHost(&kd, ul, f, fr->scratch);
    else {
      kd.stream = stream;
      PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseFaceCUDA(&kd, (int)fr->elements_per_block, ul, f)), "flux reconstruction (dense) face"));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDRHS(ConsLaw cl, Vec u, Vec f)
{
  FRDDisc      *fr  = (FRDDisc *)cl->data;
  FRExchangeOps ops = {FRDVolumeStep, FRDFaceStep, FRDViscous(fr) ? FRDViscousStep : NULL, NULL, NULL, 0, 0};

  PetscFunctionBeginUser;
  FRDFlops(fr, &ops.volume_flops, &ops.face_flops);
  PetscCall(OpShellBegin(&fr->shell, u, NULL)); /* the steps read fr->shell.on_device */
  ops.trace      = fr->shell.on_device ? (fr->mesh->nblocks ? fr->kd_device[0].trace : NULL) : fr->trace;
  ops.grad_trace = fr->shell.on_device ? fr->gtrace_device : fr->gtrace;
  PetscCall(FRExchangeRHS(&fr->exchange, &fr->shell, u, f, &ops, fr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDMaxWaveSpeed(ConsLaw cl, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed)
{
  FRDDisc           *fr = (FRDDisc *)cl->data;
  const PetscScalar *ua;
  PetscScalar       *sa;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&fr->shell, u, &on_device));
  PetscCall(ConsLawElementVector(u, fr->K, &fr->speed));
  PetscCall(OpShellGetArrayRead(&fr->shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(&fr->shell, fr->speed, &sa));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    if (!on_device)
      FRDenseWaveSpeedHost(&fr->kd[b], ua, fr->h, sa);
    else {
      fr->kd_device[b].stream = fr->shell.stream;
      PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRDenseWaveSpeedCUDA(&fr->kd_device[b], ua, fr->h_device, sa)), "flux reconstruction (dense) wave speed"));
    }
  }
  PetscCall(OpShellRestoreArrayWrite(&fr->shell, fr->speed, &sa));
  PetscCall(OpShellRestoreArrayRead(&fr->shell, u, &ua));
  PetscCall(ConsLawElementSpeedsReduce(fr->speed, fr->mesh->elem_cell, speed, bad_cell));
  *element_speed = fr->speed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the cubature of degree 2N+1 on owned element e: its physical points xq[Nq*dim] and w J at them */
static PetscErrorCode FRDElementCubature(const FRDDisc *fr, PetscInt e, PetscReal xq[], PetscReal wJ[], PetscReal gq[])
{
  const RefShape    shape = MeshElementShape(fr->mesh, e);
  const RefElement *ref   = fr->shapes[shape].ref;
  const PetscInt    gs    = fr->dim * fr->dim + 1;

  PetscFunctionBeginUser;
  PetscCall(FRDGeometry(fr->mesh, shape, e, ref->Nq, ref->xiq, xq, gq));
  for (PetscInt q = 0; q < ref->Nq; q++) wJ[q] = ref->wq[q] * gq[q * gs + gs - 1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the largest cubature and solution-point counts over the shapes present */
static void FRDSizes(const FRDDisc *fr, PetscInt *nq, PetscInt *np)
{
  *nq = *np = 1;
  for (PetscInt s = 0; s < REF_NUM_SHAPES; s++)
    if (fr->shapes[s].ref) {
      *nq = PetscMax(*nq, fr->shapes[s].ref->Nq);
      *np = PetscMax(*np, fr->shapes[s].ref->Np);
    }
}

/* the L2 projection of f by the cubature of degree 2N+1: (sum_q w J l_i l_j) u = sum_q w J l_i f */
static PetscErrorCode FRDProject(ConsLaw cl, ConsLawStateFunction fn, void *ctx, Vec uvec)
{
  FRDDisc       *fr  = (FRDDisc *)cl->data;
  const PetscInt dim = fr->dim, nv = fr->nv;
  PetscInt       nqm, npm;
  PetscScalar   *u;
  PetscReal     *xq, *wJ, *gq, *fq, *Mj, *Mi, *rhs;

  PetscFunctionBeginUser;
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc7(nqm * dim, &xq, nqm, &wJ, nqm * (dim * dim + 1), &gq, nqm * nv, &fq, npm * npm, &Mj, npm * npm, &Mi, npm * nv, &rhs));
  PetscCall(VecGetArrayWrite(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    const RefElement *ref = fr->shapes[MeshElementShape(fr->mesh, e)].ref;
    const PetscInt    Np = ref->Np, Nq = ref->Nq;
    PetscCall(FRDElementCubature(fr, e, xq, wJ, gq));
    for (PetscInt q = 0; q < Nq; q++) PetscCall(fn(dim, xq + q * dim, fq + q * nv, ctx));
    for (PetscInt i = 0; i < Np; i++) {
      for (PetscInt j = 0; j < Np; j++) {
        PetscReal s = 0;
        for (PetscInt q = 0; q < Nq; q++) s += wJ[q] * ref->Iq[q * Np + i] * ref->Iq[q * Np + j];
        Mj[i * Np + j] = s;
      }
      for (PetscInt k = 0; k < nv; k++) {
        PetscReal s = 0;
        for (PetscInt q = 0; q < Nq; q++) s += wJ[q] * ref->Iq[q * Np + i] * fq[q * nv + k];
        rhs[k * Np + i] = s;
      }
    }
    PetscCall(DenseInvert(Np, Mj, Mi));
    for (PetscInt k = 0; k < nv; k++)
      for (PetscInt i = 0; i < Np; i++) {
        PetscReal s = 0;
        for (PetscInt j = 0; j < Np; j++) s += Mi[i * Np + j] * rhs[k * Np + j];
        u[fr->elem_dof[e] + k * Np + i] = s;
      }
  }
  PetscCall(VecRestoreArrayWrite(uvec, &u));
  PetscCall(PetscFree7(xq, wJ, gq, fq, Mj, Mi, rhs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* err[k], the Lp norm (p = 1, 2) of u_k - f_k (f NULL: of u_k) by the cubature of degree 2N+1 */
static PetscErrorCode FRDIntegrateError(FRDDisc *fr, PetscInt p, Vec uvec, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  const PetscInt     dim = fr->dim, nv = fr->nv;
  PetscInt           nqm, npm;
  const PetscScalar *u;
  PetscReal         *xq, *wJ, *gq;

  PetscFunctionBeginUser;
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc3(nqm * dim, &xq, nqm, &wJ, nqm * (dim * dim + 1), &gq));
  for (PetscInt k = 0; k < nv; k++) err[k] = 0;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    const RefElement *ref = fr->shapes[MeshElementShape(fr->mesh, e)].ref;
    PetscCall(FRDElementCubature(fr, e, xq, wJ, gq));
    for (PetscInt q = 0; q < ref->Nq; q++) {
      PetscReal uq[EULER_NV_MAX], fq[EULER_NV_MAX] = {0, 0, 0, 0, 0};
      if (fn) PetscCall(fn(dim, xq + q * dim, fq, ctx));
      FRDenseInterpolate((int)nv, (int)ref->Np, ref->Iq + q * ref->Np, u + fr->elem_dof[e], uq);
      for (PetscInt k = 0; k < nv; k++) err[k] += wJ[q] * (p == 1 ? PetscAbsReal(uq[k] - fq[k]) : PetscSqr(uq[k] - fq[k]));
    }
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, (PetscMPIInt)nv, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  if (p == 2)
    for (PetscInt k = 0; k < nv; k++) err[k] = PetscSqrtReal(err[k]);
  PetscCall(PetscFree3(xq, wJ, gq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDErrorNorm(ConsLaw cl, NormType type, Vec u, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  PetscFunctionBeginUser;
  PetscCall(FRDIntegrateError((FRDDisc *)cl->data, type == NORM_1 ? 1 : 2, u, fn, ctx, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integral of u_k is linear in its solution-point values: int_E u_k = sum_i W_i u_k,i with W_i the integral of
 * solution point i's Lagrange function over E (the cubature of degree 2N+1, exact for the degree-N polynomial of an
 * affine element, as accurate as the cubature itself on a curved one). The weights are computed once; each call is
 * then a weighted sum, not a cubature with the curved elements' maps (a monitor evaluation took about 1 s on the
 * GPU host for the medium sphere at N = 3, as long as a hundred steps). */
static PetscErrorCode FRDIntegrationWeights(FRDDisc *fr)
{
  const PetscInt dim = fr->dim, nv = fr->nv;
  PetscInt       nqm, npm;
  PetscReal     *xq, *wJ, *gq;

  PetscFunctionBeginUser;
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc3(nqm * dim, &xq, nqm, &wJ, nqm * (dim * dim + 1), &gq));
  PetscCall(PetscMalloc1(fr->elem_dof[fr->K] / nv + 1, &fr->int_weight));
  for (PetscInt e = 0; e < fr->K; e++) {
    const RefElement *ref = fr->shapes[MeshElementShape(fr->mesh, e)].ref;
    PetscReal        *W   = fr->int_weight + fr->elem_dof[e] / nv;
    PetscCall(FRDElementCubature(fr, e, xq, wJ, gq));
    for (PetscInt i = 0; i < ref->Np; i++) {
      PetscReal w = 0;
      for (PetscInt q = 0; q < ref->Nq; q++) w += wJ[q] * ref->Iq[q * ref->Np + i];
      W[i] = w;
    }
  }
  PetscCall(PetscFree3(xq, wJ, gq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDIntegrate(ConsLaw cl, Vec uvec, PetscReal total[])
{
  FRDDisc           *fr = (FRDDisc *)cl->data;
  const PetscInt     nv = fr->nv;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  if (!fr->int_weight) PetscCall(FRDIntegrationWeights(fr));
  for (PetscInt k = 0; k < nv; k++) total[k] = 0;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    const PetscInt   Np = (fr->elem_dof[e + 1] - fr->elem_dof[e]) / nv;
    const PetscReal *W  = fr->int_weight + fr->elem_dof[e] / nv;
    for (PetscInt k = 0; k < nv; k++) {
      const PetscScalar *uk = u + fr->elem_dof[e] + k * Np;
      PetscReal          s  = 0;
      for (PetscInt i = 0; i < Np; i++) s += W[i] * uk[i];
      total[k] += s;
    }
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, total, (PetscMPIInt)nv, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ESFR energy: sum over elements and components of v^T (M + K) v, v_i = J_i^(1/2) u_i (affine: J u^T (M + K) u,
 * which linear advection with an upwind flux does not increase; the header) */
static PetscErrorCode FRDEnergy(ConsLaw cl, Vec uvec, PetscReal *energy)
{
  FRDDisc           *fr = (FRDDisc *)cl->data;
  const PetscInt     nv = fr->nv, gs = fr->dim * fr->dim + 1;
  const PetscScalar *u;
  PetscInt           nqm, npm;
  PetscReal          E = 0, *v;

  PetscFunctionBeginUser;
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc1(npm, &v));
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    const FRDenseKernelData *kd = &fr->kd[b];
    const PetscReal         *W  = fr->shapes[fr->mesh->blocks[b].shape].W;
    const PetscInt           Np = kd->Np;
    for (PetscInt k = 0; k < kd->K; k++)
      for (PetscInt c = 0; c < nv; c++) {
        const PetscScalar *ue = u + fr->elem_dof[kd->e0 + k] + c * Np;
        for (PetscInt i = 0; i < Np; i++) v[i] = PetscSqrtReal(kd->geo[(k * Np + i) * gs + gs - 1]) * ue[i];
        for (PetscInt i = 0; i < Np; i++)
          for (PetscInt j = 0; j < Np; j++) E += v[i] * W[i * Np + j] * v[j];
      }
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(PetscFree(v));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &E, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  *energy = E;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDElementMeans(ConsLaw cl, Vec uvec, PetscReal means[])
{
  FRDDisc           *fr = (FRDDisc *)cl->data;
  const PetscInt     nv = fr->nv, dim = fr->dim;
  PetscInt           nqm, npm;
  const PetscScalar *u;
  PetscReal         *xq, *wJ, *gq;

  PetscFunctionBeginUser;
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc3(nqm * dim, &xq, nqm, &wJ, nqm * (dim * dim + 1), &gq));
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    const RefElement *ref = fr->shapes[MeshElementShape(fr->mesh, e)].ref;
    PetscReal         vol = 0;
    PetscCall(FRDElementCubature(fr, e, xq, wJ, gq));
    for (PetscInt k = 0; k < nv; k++) means[e * nv + k] = 0;
    for (PetscInt q = 0; q < ref->Nq; q++) {
      PetscReal uq[EULER_NV_MAX];
      FRDenseInterpolate((int)nv, (int)ref->Np, ref->Iq + q * ref->Np, u + fr->elem_dof[e], uq);
      for (PetscInt k = 0; k < nv; k++) means[e * nv + k] += wJ[q] * uq[k];
      vol += wJ[q];
    }
    for (PetscInt k = 0; k < nv; k++) means[e * nv + k] /= vol;
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(PetscFree3(xq, wJ, gq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDEvaluate(ConsLaw cl, Vec uvec, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[])
{
  FRDDisc           *fr  = (FRDDisc *)cl->data;
  const MeshBlock   *mb  = &fr->mesh->blocks[b];
  const RefElement  *ref = fr->shapes[mb->shape].ref;
  const PetscScalar *u;
  PetscReal         *interp;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * ref->Np, &interp));
  PetscCall(RefElementInterpolationMatrix(ref, n, xi, interp));
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = mb->start; e < mb->end; e++)
    for (PetscInt j = 0; j < n; j++) FRDenseInterpolate((int)fr->nv, (int)ref->Np, interp + j * ref->Np, u + fr->elem_dof[e], w + ((e - mb->start) * n + j) * fr->nv);
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(PetscFree(interp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the device (cuda/fr_dense.cu) */
/* Upload the kernel data at the first device call (OpShellBegin): the shapes' matrices, the face tables, the element
 * offsets, every block's metric and face records, the boundary data and the element sizes; the traces are device
 * scratch. */
static PetscErrorCode FRDDeviceSetUp(void *ctx)
{
  FRDDisc            *fr  = (FRDDisc *)ctx;
  HoflowDeviceArrays *a   = &fr->shell.device;
  const size_t        dim = (size_t)fr->dim, gs = dim * dim + 1;
  const double       *D[REF_NUM_SHAPES] = {NULL}, *L, *C, *bc_point, *trace;
  const int          *dof;

  PetscFunctionBeginUser;
  for (PetscInt s = 0; s < REF_NUM_SHAPES; s++)
    if (fr->shapes[s].ref) PetscCall(HoflowDeviceArraysUpload(a, fr->shapes[s].D, sizeof(double) * dim * fr->shapes[s].ref->Np * fr->shapes[s].ref->Np, (const void **)&D[s]));
  PetscCall(HoflowDeviceArraysUpload(a, fr->L, sizeof(double) * PetscMax(fr->ntab, 1), (const void **)&L));
  PetscCall(HoflowDeviceArraysUpload(a, fr->C, sizeof(double) * PetscMax(fr->ntab, 1), (const void **)&C));
  PetscCall(HoflowDeviceArraysUpload(a, fr->dof, sizeof(int) * (fr->mesh->Klocal + 1), (const void **)&dof));
  PetscCall(HoflowDeviceArraysUpload(a, fr->bc_point, sizeof(double) * PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, (const void **)&bc_point));
  PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * PetscMax(fr->trace_off[fr->mesh->Klocal], 1), (const void **)&trace)); /* owned and halo elements */
  if (fr->gtrace_elem) PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * PetscMax(fr->ngtrace, 1), (const void **)&fr->gtrace_device));
  PetscCall(HoflowDeviceArraysUpload(a, fr->h, sizeof(double) * PetscMax(fr->K, 1), (const void **)&fr->h_device));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
    const FRDenseKernelData *h = &fr->kd[b];
    FRDenseKernelData       *d = &fr->kd_device[b];
    const size_t             K = (size_t)PetscMax(h->K, 1);
    *d                         = *h;
    d->D                       = D[fr->mesh->blocks[b].shape];
    d->L                       = L;
    d->C                       = C;
    d->dof                     = dof;
    d->bc_point                = bc_point;
    d->trace                   = (double *)trace;
    PetscCall(HoflowDeviceArraysUpload(a, h->geo, sizeof(double) * K * h->Np * gs, (const void **)&d->geo));
    PetscCall(HoflowDeviceArraysUpload(a, h->fgeo, sizeof(double) * K * h->nfpt * (dim + 1), (const void **)&d->fgeo));
    PetscCall(HoflowDeviceArraysUpload(a, h->face_info, sizeof(int) * K * h->Nfaces * FRD_FACE_INFO, (const void **)&d->face_info));
    if (h->ldg.on) { /* Navier–Stokes: the faces' 1/h; u_I - u- device scratch; the gradients of every block (below) */
      PetscCall(HoflowDeviceArraysUpload(a, h->face_scale, sizeof(double) * K * h->Nfaces, (const void **)&d->face_scale));
      PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * K * h->nfpt * h->nv, (const void **)&d->ujump));
    }
    if (h->gtrace_elem) { /* several ranks: the gradient traces' offsets; the traces are device scratch */
      PetscCall(HoflowDeviceArraysUpload(a, fr->gtrace_elem, sizeof(int) * (size_t)PetscMax(fr->mesh->Klocal, 1), (const void **)&d->gtrace_elem));
      PetscCall(HoflowDeviceArraysUpload(a, h->gtrace_face, sizeof(int) * K * h->Nfaces, (const void **)&d->gtrace_face));
      d->gtrace = fr->gtrace_device;
    }
  }
  if (FRDViscous(fr)) {
    const double *grad, *grad_trace;
    PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * PetscMax(dim * fr->elem_dof[fr->K], 1), (const void **)&grad));
    PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * PetscMax(FRDGradientTraceSize(fr), 1), (const void **)&grad_trace));
    for (PetscInt b = 0; b < fr->mesh->nblocks; b++) {
      fr->kd_device[b].grad       = (double *)grad;
      fr->kd_device[b].grad_trace = (double *)grad_trace;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after the physics changed bc_point: its device copy (uploaded with the rest at the first device call) */
static PetscErrorCode FRDUpdateBoundaryData(ConsLaw cl)
{
  FRDDisc *fr = (FRDDisc *)cl->data;

  PetscFunctionBeginUser;
  if (!fr->shell.device_ready || fr->mesh->nblocks == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HoflowDeviceCopyToChecked((void *)fr->kd_device[0].bc_point, fr->bc_point, sizeof(double) * PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, fr->shell.stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRDenseGetKernelData(Disc disc, PetscInt *nblocks, const FRDenseKernelData **host, const FRDenseKernelData **device, const PetscReal **h, const PetscReal **h_device)
{
  FRDDisc *fr = (FRDDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCheck(disc->ops.destroy == FRDDestroy, PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_ARG_WRONG, "FRDenseGetKernelData needs -disc fr on a mesh with triangles, tetrahedra or prisms (got -disc %s%s)", disc->type,
             disc->ops.destroy ? ", or a mesh of quadrilaterals or hexahedra only: FRGetKernelData" : "");
  if (nblocks) *nblocks = fr->mesh->nblocks;
  if (host) *host = fr->kd;
  if (device) *device = fr->shell.device_ready ? fr->kd_device : NULL;
  if (h) *h = fr->h;
  if (h_device) *h_device = fr->shell.device_ready ? fr->h_device : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the Disc */
static PetscErrorCode FRDGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  FRDDisc       *fr  = (FRDDisc *)disc->data;
  const PetscInt dim = fr->dim, nv = fr->nv;

  PetscFunctionBeginUser;
  if (!fr->xdof) {
    PetscCall(PetscMalloc1(PetscMax(fr->elem_dof[fr->K] * dim, 1), &fr->xdof));
    for (PetscInt e = 0; e < fr->K; e++) {
      const PetscInt Np = (fr->elem_dof[e + 1] - fr->elem_dof[e]) / nv;
      for (PetscInt k = 0; k < nv; k++)
        for (PetscInt i = 0; i < Np; i++)
          for (PetscInt d = 0; d < dim; d++) fr->xdof[(fr->elem_dof[e] + k * Np + i) * dim + d] = fr->xs[(fr->elem_dof[e] / nv + i) * dim + d];
    }
  }
  *n = fr->elem_dof[fr->K];
  if (x) *x = fr->xdof;
  if (elem_point) *elem_point = fr->elem_dof;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solution points of order N: the nodes of hoflow's RefElement of the shape */
static PetscErrorCode FRDSolutionPoints(RefShape shape, PetscInt N, PetscInt *Np, PetscReal **xi)
{
  RefElement *ref;

  PetscFunctionBeginUser;
  PetscCall(RefElementCreate(shape, N, &ref));
  *Np = ref->Np;
  PetscCall(PetscMalloc1(ref->Np * ref->dim, xi));
  PetscCall(PetscArraycpy(*xi, ref->xi, ref->Np * ref->dim));
  PetscCall(RefElementDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -restart_project: the checkpoint's order-Ns values at this run's nodes, each element by its own shape (disc/fr_project.c) */
static PetscErrorCode FRDProjectElements(Disc disc, PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  PetscFunctionBeginUser;
  PetscCall(FRProjectElements(disc, FRDSolutionPoints, ((FRDDisc *)disc->data)->elem_dof, Ns, src_vertices, n, src, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDDestroy(Disc disc)
{
  FRDDisc *fr = (FRDDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCall(OpShellDestroy(&fr->shell));
  PetscCall(FRExchangeDestroy(&fr->exchange));
  PetscCall(VecDestroy(&fr->speed));
  for (PetscInt s = 0; s < REF_NUM_SHAPES; s++)
    if (fr->shapes[s].ref) {
      PetscCall(RefElementDestroy(&fr->shapes[s].ref));
      PetscCall(PetscFree2(fr->shapes[s].D, fr->shapes[s].W));
    }
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) PetscCall(PetscFree3(fr->geo[b], fr->fgeo[b], fr->face_info[b]));
  PetscCall(PetscFree(fr->trace));
  PetscCall(PetscFree(fr->trace_off));
  PetscCall(PetscFree(fr->int_weight));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) PetscCall(PetscFree2(fr->face_scale[b], fr->ujump[b]));
  for (PetscInt b = 0; b < fr->mesh->nblocks; b++) PetscCall(PetscFree(fr->gtrace_face[b]));
  PetscCall(PetscFree(fr->gtrace));
  PetscCall(PetscFree(fr->gtrace_elem));
  PetscCall(PetscFree2(fr->grad, fr->grad_trace));
  PetscCall(PetscFree(fr->L));
  PetscCall(PetscFree(fr->C));
  PetscCall(PetscFree2(fr->elem_dof, fr->dof));
  PetscCall(PetscFree3(fr->h, fr->xs, fr->scratch));
  PetscCall(PetscFree(fr->bx));
  PetscCall(PetscFree(fr->bn));
  PetscCall(PetscFree(fr->btype));
  PetscCall(PetscFree(fr->bc_point));
  PetscCall(PetscFree(fr->xdof));
  PetscCall(PetscFree(fr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate_FRDense(Disc disc, FRCorrection correction, PetscReal c, PetscBool c_given, PetscInt elements_per_block, FRExchangeType exchange, FRHaloType halo)
{
  Mesh          *mesh = disc->mesh;
  MPI_Comm       comm = PetscObjectComm((PetscObject)mesh->dm);
  const PetscInt dim  = mesh->dim;
  FRDDisc       *fr;
  ConsLaw        cl;
  PetscInt       npm = 1, nqm, nfptm = 1;

  PetscFunctionBeginUser;
  if (!c_given && correction != FR_CORRECTION_DG) { /* named parameters: meshes of triangles or of tetrahedra only */
    RefShape simplex     = mesh->blocks[0].shape;
    char     shapes[128] = "";
    for (PetscInt b = 0; b < mesh->nblocks; b++) {
      if (!strstr(shapes, RefShapeTable[mesh->blocks[b].shape].name)) {
        PetscCall(PetscStrlcat(shapes, shapes[0] ? ", " : "", sizeof(shapes)));
        PetscCall(PetscStrlcat(shapes, RefShapeTable[mesh->blocks[b].shape].name, sizeof(shapes)));
      }
      if (mesh->blocks[b].shape != simplex) simplex = REF_NUM_SHAPES;
    }
    PetscCheck(simplex == REF_TRIANGLE || simplex == REF_TETRAHEDRON, comm, PETSC_ERR_SUP,
               "-fr_correction %s: mesh %s has %s elements; the named parameters of hoflow's simplex FR (energy-stable family in filtered-DG form, disc/fr_dense.c) exist for meshes of triangles only or of tetrahedra only (Castonguay et al. 2012, Williams & Jameson 2014, as tabulated by HiFiLES); prisms and mixed meshes have none: give -fr_correction dg or the parameter itself with -fr_c (>= 0)",
               FRCorrections[correction], mesh->source, shapes);
    PetscCall(VCJHSimplexParameter(simplex, correction, disc->order, &c));
  } else if (!c_given)
    c = 0;
  PetscCall(PetscNew(&fr));
  disc->data = fr;
  fr->disc   = disc;
  fr->mesh   = mesh;
  fr->N      = disc->order;
  fr->dim    = dim;
  fr->nv     = disc->ncomp;
  fr->K      = mesh->K;
  fr->c      = c;

  fr->elements_per_block = elements_per_block;
  fr->exchange.type      = exchange;
  fr->exchange.halo      = halo;
  for (PetscInt l = 0; l < mesh->Klocal; l++) PetscCall(FRDShapeSetUp(fr, MeshElementShape(mesh, l)));
  for (PetscInt b = 0; b < mesh->nblocks; b++) PetscCall(FRDShapeSetUp(fr, mesh->blocks[b].shape)); /* a rank's empty blocks too (was a crash on 2 ranks of cube_mixed.msh) */
  PetscCall(PetscMalloc2(mesh->Klocal + 1, &fr->elem_dof, mesh->Klocal + 1, &fr->dof));
  fr->elem_dof[0] = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) fr->elem_dof[l + 1] = fr->elem_dof[l] + fr->nv * fr->shapes[MeshElementShape(mesh, l)].ref->Np;
  for (PetscInt l = 0; l <= mesh->Klocal; l++) fr->dof[l] = (int)fr->elem_dof[l];
  FRDSizes(fr, &nqm, &npm);
  PetscCall(PetscMalloc1(mesh->Klocal + 1, &fr->trace_off));
  fr->trace_off[0] = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) { /* the halo elements' slots after the owned (-fr_halo traces) */
    const RefShape shape = MeshElementShape(mesh, l);
    const PetscInt nfpt  = fr->shapes[shape].fp_off[RefShapeTable[shape].nfaces];
    fr->trace_off[l + 1] = fr->trace_off[l] + nfpt * 2 * fr->nv;
    nfptm                = PetscMax(nfptm, nfpt);
  }
  PetscCall(PetscMalloc1(PetscMax(fr->trace_off[mesh->Klocal], 1), &fr->trace));
  PetscCall(PetscMalloc3(PetscMax(fr->K, 1), &fr->h, PetscMax(fr->elem_dof[fr->K] / fr->nv, 1) * dim, &fr->xs, PetscMax(dim * npm, nfptm) * fr->nv, &fr->scratch));
  for (PetscInt b = 0; b < mesh->nblocks; b++) PetscCall(FRDBlockSetUp(fr, b));
  for (PetscInt b = 0; b < mesh->nblocks; b++) { /* the tables are complete now */
    fr->kd[b].L = fr->L;
    fr->kd[b].C = fr->C;
  }
  PetscCall(PetscCalloc1(PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, &fr->bc_point));
  for (PetscInt b = 0; b < mesh->nblocks; b++) fr->kd[b].bc_point = fr->bc_point;
  PetscCall(FRHaloView(mesh, halo, fr->elem_dof[mesh->Klocal] - fr->elem_dof[mesh->K]));
  if (halo == FR_HALO_TRACES) {
    FRTraceLayout layout = {fr->nv, 1, 2 * fr->nv, FRDTraceFacePoints, fr};
    PetscCall(FRTraceSFCreate(mesh, fr->trace_off, PetscMax(fr->trace_off[mesh->Klocal], 1), &layout, "traces", &fr->exchange.trace_sf));
  }
  PetscCall(ConsLawCreateElementDM(mesh, fr->elem_dof, &fr->dm));
  disc->dm = fr->dm;
  PetscCall(OpShellInit(&fr->shell, "flux reconstruction (dense) right-hand side", fr->dm, FRDDeviceSetUp, fr));
  PetscCall(OpShellCreateLocal(&fr->shell, 1));
  disc->ops.destroy          = FRDDestroy;
  disc->ops.get_points       = FRDGetPoints;
  disc->ops.project_elements = FRDProjectElements;

  PetscCall(ConsLawCreate(disc, &cl));
  PetscCall(ConsLawSetLayout(cl, fr, fr->N, fr->nbpoints, fr->bx, fr->bn, fr->btype, fr->bc_point, fr->elem_dof));
  cl->ops.set_equations  = FRDSetEquations;
  cl->ops.set_viscous    = FRDSetViscous;
  cl->ops.rhs            = FRDRHS;
  cl->ops.max_wave_speed = FRDMaxWaveSpeed;
  cl->ops.project        = FRDProject;
  cl->ops.error_norm     = FRDErrorNorm;
  cl->ops.integrate      = FRDIntegrate;
  cl->ops.element_means  = FRDElementMeans;
  cl->ops.evaluate       = FRDEvaluate;
  cl->ops.energy         = FRDEnergy;
  cl->ops.wall_samples   = FRDenseWallSamples; /* disc/fr_wall.c */
  disc->conslaw          = cl;

  cl->ops.update_boundary_data = FRDUpdateBoundaryData; /* the device's copy of bc_point (cuda/fr_dense.cu) */
  PetscCall(PetscInfo(NULL, "-disc fr (dense operators): N = %" PetscInt_FMT ", c = %g\n", fr->N, (double)fr->c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
