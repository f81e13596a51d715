/* hoflow flux reconstruction (-disc fr, hoflow/fr.h): the data (Gauss solution points, the 1D tables, the
 * face points' lines and their neighbours' lines, the metric at every solution and face point of affine and
 * non-affine (bilinear, trilinear) quadrilaterals and hexahedra, the boundary points), the conservation-law table
 * the Euler and advection physics call (hoflow/conslaw.h), and the
 * element-wise operations (projection by interpolation at the solution points, errors by cubature of
 * degree 2N+1 as modal DG's, integrals by the Gauss weights). The right-hand side and the wave speeds run on the
 * host or, for CUDA vectors, on the device (cuda/fr.cu; the kernel data uploaded at the first device call). No
 * limiter. The viscous terms of physics navier_stokes (the corrected gradient, hoflow/kernels/fr.h's FRViscous*
 * routines, set up by disc/fr_viscous.c; their CUDA twin cuda/fr_viscous.cu) run on any number of ranks. On several
 * ranks the halo elements' traces (and with the viscous terms their gradient traces) come from their owners (-fr_halo
 * traces, disc/fr_trace.c): the trace array holds a slot for every local element, owned first.
 *
 * Face points: a face's points are its solution-point lines' ends, at the 1D Gauss points on the face. The
 * point of the neighbour at the same physical position is found in the face's canonical frame
 * (MeshFaceOrientation, MeshFaceCubature: the face-shape Gauss cubature of degree 2N has the same N+1
 * points per direction), so periodic faces need no coordinates. */
#include <hoflow/compat.h>
#include <hoflow/device.h>
#include <hoflow/fr.h>
#include <hoflow/geom.h>
#include <hoflow/kernels/fr.h>
#include <hoflow/log.h>

static PetscErrorCode FRDestroy(Disc);

typedef struct {
  Disc         disc;
  Mesh        *mesh;
  DM           dm;
  RefShape     shape;
  PetscInt     N, n1, Np, dim, nv, Nfaces, nfp, K;
  FRCorrection correction;
  PetscReal    c;                     /* the VCJH parameter */
  PetscBool    c_given;               /* ... from -fr_c, not from the correction's name */
  PetscReal   *x1, *w1;               /* [n1] the 1D Gauss points and weights */
  PetscReal   *D, *lL, *lR, *gL, *gR; /* the 1D tables (hoflow/kernels/fr.h) */
  PetscReal   *W1;                    /* [n1*n1] the 1D VCJH norm's matrix M + c K at the Gauss points (FREnergy) */
  int         *line, *face_info, *nb_line;
  PetscReal   *geo, *fgeo, *h; /* [K*Np*gs] per solution point, [K*Nfaces*nfp*(dim+1)] per face point, [K] element size dim |E| / |dE| */
  PetscReal   *xs;             /* [K*Np*dim] the physical solution points */
  PetscInt    *elem_dof;       /* [Klocal+1] */
  PetscInt     nbpoints;
  PetscReal   *bx, *bn, *bc_point;
  PetscInt    *btype;
  PetscReal   *xdof;            /* [ndof*dim] every value's point (checkpoint keys) */
  PetscReal   *scratch, *trace; /* the right-hand side's scratch: one element's fluxes, every owned element's trace */
  FRKernelData kd;
  OpShell      shell;
  Vec          speed; /* [K] the element speeds of the last max_wave_speed */
  /* the device (cuda/fr.cu): the kernel data's device copy, the element sizes and traces there, elements a block */
  FRKernelData  kd_device;
  const double *h_device;
  double       *trace_device;
  PetscInt      elements_per_block;
  FRExchange    exchange; /* -fr_exchange (hoflow/fr.h) */
  /* Navier–Stokes (set_viscous): the faces' 1/h, u_I - u- at the face points, the corrected gradients; on several ranks
   * the gradient traces of the elements on partition faces (hoflow/kernels/fr.h) and their device copy */
  PetscReal *face_scale, *ujump, *grad, *gtrace;
  int       *gtrace_elem;
  PetscInt   ngtrace; /* elements with a gradient-trace slot */
  double    *gtrace_device;
} FRDisc;

/* the direction and side of face f of a tensor shape: its vertices share r_dir = side */
static void FRFaceDirection(RefShape shape, PetscInt f, int *dir, int *side)
{
  const RefShapeInfo *info = &RefShapeTable[shape];
  for (int d = 0; d < info->dim; d++) {
    const double v    = info->verts[info->face_verts[f][0]][d];
    int          same = 1;
    for (int k = 1; k < info->face_nverts[f]; k++) same = same && info->verts[info->face_verts[f][k]][d] == v;
    if (same) {
      *dir  = d;
      *side = v > 0 ? 1 : -1;
      return;
    }
  }
}

/* the 1D index of coordinate r among the Gauss points (r is one of them) */
static PetscInt FRPointIndex(const FRDisc *fr, PetscReal r)
{
  PetscInt best = 0;
  for (PetscInt m = 1; m < fr->n1; m++)
    if (PetscAbsReal(r - fr->x1[m]) < PetscAbsReal(r - fr->x1[best])) best = m;
  return best;
}

/* point q of face f (natural order) in reference coordinates, and the solution point starting its line */
static void FRFacePoint(const FRDisc *fr, PetscInt f, PetscInt q, PetscReal xi[], PetscInt *start)
{
  PetscInt t = q, stride = 1;
  *start = 0;
  for (PetscInt d = 0; d < fr->dim; d++, stride *= fr->n1) {
    if (d == fr->kd.dir[f]) {
      xi[d] = fr->kd.side[f];
      continue;
    }
    xi[d] = fr->x1[t % fr->n1];
    *start += (t % fr->n1) * stride;
    t /= fr->n1;
  }
}

/* canon[q] = the canonical index (MeshFaceCubature's order in orientation o) of natural point q of face f */
static PetscErrorCode FRCanonicalOrder(const FRDisc *fr, PetscInt f, PetscInt o, PetscInt canon[])
{
  PetscInt   n;
  PetscReal *xi, *w;

  PetscFunctionBeginUser;
  PetscCall(MeshFaceCubature(fr->shape, f, o, 2 * fr->N, &n, &xi, &w));
  PetscCheck(n == fr->nfp, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face cubature of degree 2N has %" PetscInt_FMT " points, expected %" PetscInt_FMT, n, fr->nfp);
  for (PetscInt c = 0; c < n; c++) {
    PetscInt q = 0, stride = 1;
    for (PetscInt d = 0; d < fr->dim; d++) {
      if (d == fr->kd.dir[f]) continue;
      q += FRPointIndex(fr, xi[c * fr->dim + d]) * stride;
      stride *= fr->n1;
    }
    canon[q] = c;
  }
  PetscCall(PetscFree(xi));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the 1D tables: Lagrange derivatives and ends at the Gauss points, the VCJH corrections' derivatives */
static PetscErrorCode FRTables(FRDisc *fr)
{
  const PetscInt n1      = fr->n1;
  PetscReal      ends[2] = {-1, 1}, E[2 * HOFLOW_NMAX + 2], *xm;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc7(n1, &fr->x1, n1, &fr->w1, n1 * n1, &fr->D, n1, &fr->lL, n1, &fr->lR, n1, &fr->gL, n1, &fr->gR));
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, n1, fr->x1, fr->w1));
  LagrangeMatrix1D(n1, fr->x1, n1, fr->x1, NULL, fr->D);
  LagrangeMatrix1D(n1, fr->x1, 2, ends, E, NULL);
  for (PetscInt m = 0; m < n1; m++) {
    fr->lL[m] = E[m];
    fr->lR[m] = E[n1 + m];
  }
  if (!fr->c_given) PetscCall(VCJHParameter(fr->correction, fr->N, &fr->c));
  PetscCall(VCJHCorrectionLeft(fr->N, fr->c, n1, fr->x1, NULL, fr->gL));
  PetscCall(PetscMalloc1(n1, &xm));
  for (PetscInt i = 0; i < n1; i++) xm[i] = -fr->x1[i];
  PetscCall(VCJHCorrectionLeft(fr->N, fr->c, n1, xm, NULL, fr->gR)); /* g_R'(x) = -g_L'(-x) */
  for (PetscInt i = 0; i < n1; i++) fr->gR[i] = -fr->gR[i];
  PetscCall(PetscFree(xm));
  { /* the VCJH norm of Vincent, Castonguay & Jameson (2011) on [-1, 1]: ||u||^2 = int u^2 + c/2 (u^(N))^2 dr = u^T (M + c K) u,
     * M = diag(w) (Gauss: exact for degree 2N), K_ij = l_i^(N) l_j^(N) (the N-th derivatives of the Lagrange polynomials:
     * constants, N! / prod_{m != i} (x_i - x_m); int_{-1}^{1} dr = 2 cancels the 1/2) */
    PetscReal lN[HOFLOW_NMAX + 1];
    PetscCall(PetscMalloc1(n1 * n1, &fr->W1));
    for (PetscInt i = 0; i < n1; i++) {
      lN[i] = 1;
      for (PetscInt m = 1; m <= fr->N; m++) lN[i] *= m;
      for (PetscInt m = 0; m < n1; m++)
        if (m != i) lN[i] /= fr->x1[i] - fr->x1[m];
    }
    for (PetscInt i = 0; i < n1; i++)
      for (PetscInt j = 0; j < n1; j++) fr->W1[i * n1 + j] = (i == j ? fr->w1[i] : 0) + fr->c * lN[i] * lN[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x[n*dim] (may be NULL) and the metric geo[n*gs] (G and J, GeomMetricFromJacobian) of owned element e at the reference
 * points xi[n*dim]: the affine map's constants, or a non-affine element's (bi/trilinear) map at every point */
static PetscErrorCode FRElementGeometry(const FRDisc *fr, PetscInt e, PetscInt n, const PetscReal xi[], PetscReal x[], PetscReal geo[])
{
  const Mesh    *mesh = fr->mesh;
  const PetscInt dim = fr->dim, gs = dim * dim + 1;

  PetscFunctionBeginUser;
  if (!MeshElementIsCurved(mesh, e)) {
    for (PetscInt p = 0; p < n; p++) {
      if (x) GeomAffineMap(fr->shape, (int)dim, mesh->vertices + e * HOFLOW_VERTS_MAX * dim, xi + p * dim, x + p * dim);
      for (PetscInt j = 0; j < gs; j++) geo[p * gs + j] = mesh->geo[e * HOFLOW_GEO_SIZE(dim) + j];
    }
  } else {
    MeshGeometryTable tab;
    PetscReal        *jac;
    PetscCall(MeshGeometryTableCreate(mesh, fr->shape, n, xi, &tab));
    PetscCall(PetscMalloc1(n * dim * dim, &jac));
    MeshCurvedElementMap(mesh, &tab, e, x, jac);
    for (PetscInt p = 0; p < n; p++) (void)GeomMetricFromJacobian((int)dim, jac + p * dim * dim, geo + p * gs);
    PetscCall(PetscFree(jac));
    PetscCall(MeshGeometryTableDestroy(&tab));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solution points of order N on a quadrilateral or hexahedron: the tensor Gauss points, r fastest */
static PetscErrorCode FRSolutionPoints(RefShape shape, PetscInt N, PetscInt *Np, PetscReal **xi)
{
  const PetscInt dim = RefShapeTable[shape].dim, n1 = N + 1;
  PetscReal      x1[HOFLOW_NMAX + 1], w1[HOFLOW_NMAX + 1];

  PetscFunctionBeginUser;
  PetscCheck(RefShapeTable[shape].tensor && N >= 1 && N <= HOFLOW_NMAX, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-disc fr's tensor solution points: a quadrilateral or hexahedron of order 1..%d, not a %s of order %" PetscInt_FMT, HOFLOW_NMAX, RefShapes[shape], N);
  PetscCall(JacobiGaussQuadrature(0.0, 0.0, n1, x1, w1));
  *Np = RefShapeNumNodes(shape, (int)N);
  PetscCall(PetscMalloc1(*Np * dim, xi));
  for (PetscInt i = 0; i < *Np; i++)
    for (PetscInt d = 0, t = i; d < dim; d++, t /= n1) (*xi)[i * dim + d] = x1[t % n1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the geometry, neighbours and boundary points of the owned elements */
static PetscErrorCode FRSetUpElements(FRDisc *fr)
{
  Mesh          *mesh = fr->mesh;
  const PetscInt dim = fr->dim, gs = dim * dim + 1, Nf = fr->Nfaces, nfp = fr->nfp, K = fr->K;
  PetscInt      *canon[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS], *natural[HOFLOW_FACES_MAX][HOFLOW_FACE_ORIENTATIONS];
  PetscReal     *xis, *xif, *gf; /* the solution points, one face's points (reference) and their metric */
  PetscInt       np;

  PetscFunctionBeginUser;
  for (PetscInt f = 0; f < Nf; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(RefShapeTable[fr->shape].face_shape[f]); o++) {
      PetscCall(PetscMalloc2(nfp, &canon[f][o], nfp, &natural[f][o]));
      PetscCall(FRCanonicalOrder(fr, f, o, canon[f][o]));
      for (PetscInt q = 0; q < nfp; q++) natural[f][o][canon[f][o][q]] = q;
    }
  PetscCall(PetscMalloc1(Nf * nfp, &fr->line));
  for (PetscInt f = 0; f < Nf; f++)
    for (PetscInt q = 0; q < nfp; q++) {
      PetscReal xi[3];
      PetscInt  start;
      FRFacePoint(fr, f, q, xi, &start);
      fr->line[f * nfp + q] = (int)start;
    }
  PetscCall(PetscMalloc4(PetscMax(K, 1) * fr->Np * gs, &fr->geo, PetscMax(K, 1) * Nf * nfp * (dim + 1), &fr->fgeo, PetscMax(K, 1), &fr->h, PetscMax(K, 1) * fr->Np * dim, &fr->xs));
  PetscCall(PetscMalloc2(nfp * dim, &xif, nfp * gs, &gf));
  PetscCall(FRSolutionPoints(fr->shape, fr->N, &np, &xis));
  PetscCall(PetscMalloc2(PetscMax(K, 1) * Nf * FR_FACE_INFO, &fr->face_info, PetscMax(K, 1) * Nf * nfp, &fr->nb_line));
  for (PetscInt e = 0; e < K; e++) {
    PetscReal perimeter = 0;
    PetscCall(FRElementGeometry(fr, e, fr->Np, xis, fr->xs + e * fr->Np * dim, fr->geo + e * fr->Np * gs));
    for (PetscInt i = 0; i < fr->Np; i++) PetscCheck(fr->geo[(e * fr->Np + i) * gs + dim * dim] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-disc fr: cell %" PetscInt_FMT " of mesh %s has Jacobian %g <= 0 at a solution point", mesh->elem_cell[e], mesh->source, (double)fr->geo[(e * fr->Np + i) * gs + dim * dim]);
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt slot = mesh->face_slot[e] + f, nb = mesh->face_elem[slot], rd = fr->kd.dir[f];
      int           *fi = fr->face_info + (e * Nf + f) * FR_FACE_INFO;
      PetscReal      xf[3 * (HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1)];
      perimeter += mesh->face_measure[slot];
      for (PetscInt q = 0; q < nfp; q++) {
        PetscInt start;
        FRFacePoint(fr, f, q, xif + q * dim, &start);
      }
      PetscCall(FRElementGeometry(fr, e, nfp, xif, xf, gf));
      for (PetscInt q = 0; q < nfp; q++) { /* at every face point (Nanson): n = s grad r_d / |grad r_d|, and J |grad r_d| */
        const PetscReal *g  = gf + q * gs;
        PetscReal       *fg = fr->fgeo + ((e * Nf + f) * nfp + q) * (dim + 1), norm = 0;
        for (PetscInt j = 0; j < dim; j++) norm += g[j * dim + rd] * g[j * dim + rd];
        norm = PetscSqrtReal(norm);
        for (PetscInt j = 0; j < dim; j++) fg[j] = fr->kd.side[f] * g[j * dim + rd] / norm;
        fg[dim] = g[dim * dim] * norm;
      }
      if (nb >= 0) {
        const PetscInt g2 = mesh->face_face[slot], o = MeshFaceOrientation(mesh, e, f), o2 = MeshFaceOrientation(mesh, nb, g2);
        fi[0] = (int)nb;
        fi[1] = (int)g2;
        fi[2] = -1;
        for (PetscInt q = 0; q < nfp; q++) fr->nb_line[(e * Nf + f) * nfp + q] = fr->line[g2 * nfp + natural[g2][o2][canon[f][o][q]]];
      } else {
        PetscCheck(mesh->face_type[slot] >= EULER_BC_SLIP_WALL && mesh->face_type[slot] < EULER_BC_END, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh %s: boundary face %" PetscInt_FMT " of cell %" PetscInt_FMT " has no boundary type of the Euler equations (-bc_slip_wall, -bc_supersonic_inflow, ...): -disc fr discretizes the Euler equations, or linear advection on periodic meshes", mesh->source, f, mesh->elem_cell[e]);
        fi[0] = -1;
        fi[1] = (int)mesh->face_type[slot];
        fi[2] = (int)fr->nbpoints;
        PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->nbpoints + nfp) * dim, &fr->bx));
        PetscCall(PetscRealloc(sizeof(PetscReal) * (fr->nbpoints + nfp) * dim, &fr->bn));
        PetscCall(PetscRealloc(sizeof(PetscInt) * (fr->nbpoints + nfp), &fr->btype));
        for (PetscInt q = 0; q < nfp; q++, fr->nbpoints++) {
          for (PetscInt j = 0; j < dim; j++) {
            fr->bx[fr->nbpoints * dim + j] = xf[q * dim + j];
            fr->bn[fr->nbpoints * dim + j] = fr->fgeo[((e * Nf + f) * nfp + q) * (dim + 1) + j];
          }
          fr->btype[fr->nbpoints] = mesh->face_type[slot];
        }
      }
    }
    fr->h[e] = dim * mesh->measure[e] / perimeter;
  }
  for (PetscInt f = 0; f < Nf; f++)
    for (PetscInt o = 0; o < GeomFaceOrientations(RefShapeTable[fr->shape].face_shape[f]); o++) PetscCall(PetscFree2(canon[f][o], natural[f][o]));
  PetscCall(PetscFree(xis));
  PetscCall(PetscFree2(xif, gf));
  PetscCall(PetscCalloc1(PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, &fr->bc_point));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the conservation-law table */
static PetscErrorCode FRSetEquations(ConsLaw cl, PetscReal gamma, PetscInt flux)
{
  FRDisc *fr = (FRDisc *)cl->data;

  PetscFunctionBeginUser;
  fr->kd.gamma = gamma;
  fr->kd.flux  = (int)flux;
  for (PetscInt j = 0; j < 3; j++) fr->kd.velocity[j] = cl->velocity[j];
  fr->kd_device.gamma = gamma; /* the device copy is made once, at the first device call: keep it in step */
  fr->kd_device.flux  = (int)flux;
  for (PetscInt j = 0; j < 3; j++) fr->kd_device.velocity[j] = cl->velocity[j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the trace layout of tensor FR (FRTraceLayout): face f's points f*nfp .. (f+1)*nfp - 1 */
static void FRTraceFacePoints(const void *ctx, PetscInt l, PetscInt f, PetscInt *begin, PetscInt *end)
{
  const FRDisc *fr = (const FRDisc *)ctx;
  (void)l;
  *begin = f * fr->nfp;
  *end   = (f + 1) * fr->nfp;
}

/* -fr_halo traces on several ranks: the star forest of the traces (u- of every element, ghosts' slots after the owned) */
static PetscErrorCode FRTraceSetUp(FRDisc *fr)
{
  const Mesh    *mesh = fr->mesh;
  const PetscInt Nfq = fr->Nfaces * fr->nfp, t = 2 * fr->nv * Nfq;
  FRTraceLayout  layout = {fr->nv, Nfq, 1, FRTraceFacePoints, fr};
  PetscInt      *off;

  PetscFunctionBeginUser;
  PetscCall(FRHaloView(mesh, fr->exchange.halo, (mesh->Klocal - mesh->K) * fr->nv * fr->Np));
  fr->kd.halo_traces = fr->exchange.halo == FR_HALO_TRACES;
  if (fr->exchange.halo != FR_HALO_TRACES) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(mesh->Klocal, &off));
  for (PetscInt l = 0; l < mesh->Klocal; l++) off[l] = l * t;
  PetscCall(FRTraceSFCreate(mesh, off, PetscMax(mesh->Klocal, 1) * t, &layout, "traces", &fr->exchange.trace_sf));
  PetscCall(PetscFree(off));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes on several ranks: the gradient traces (every halo element; the owned elements with a halo neighbour) and
 * their star forest */
static PetscErrorCode FRGradientTraceSetUp(FRDisc *fr)
{
  const Mesh    *mesh = fr->mesh;
  const PetscInt Nfq = fr->Nfaces * fr->nfp, nc = fr->dim * fr->nv;
  FRTraceLayout  layout = {nc, Nfq, 1, FRTraceFacePoints, fr};
  PetscInt      *off;
  PetscMPIInt    size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)fr->dm), &size));
  if (size == 1 || fr->gtrace_elem) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(mesh->Klocal, &off));
  PetscCall(PetscMalloc1(PetscMax(mesh->Klocal, 1), &fr->gtrace_elem));
  fr->ngtrace = 0;
  for (PetscInt l = 0; l < mesh->Klocal; l++) {
    off[l]             = FRTraceOnPartition(mesh, l) ? (fr->ngtrace++) * nc * Nfq : -1;
    fr->gtrace_elem[l] = (int)off[l];
  }
  PetscCall(PetscMalloc1(PetscMax(fr->ngtrace, 1) * nc * Nfq, &fr->gtrace));
  PetscCall(FRTraceSFCreate(mesh, off, PetscMax(fr->ngtrace, 1) * nc * Nfq, &layout, "gradient traces", &fr->exchange.grad_sf));
  PetscCall(PetscFree(off));
  fr->kd.gtrace_elem = fr->gtrace_elem;
  fr->kd.gtrace      = fr->gtrace;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes: the corrected-gradient viscous terms (hoflow/kernels/fr.h); eta (BR2's penalty) is modal DG's */
static PetscErrorCode FRSetViscous(ConsLaw cl, const NSViscosity *vis, PetscReal eta)
{
  FRDisc        *fr = (FRDisc *)cl->data;
  const PetscInt K = PetscMax(fr->K, 1), Nfq = fr->Nfaces * fr->nfp;

  PetscFunctionBeginUser;
  (void)eta;
  PetscCheck(fr->nv == fr->dim + 2, PetscObjectComm((PetscObject)fr->dm), PETSC_ERR_ARG_WRONG, "-disc fr: viscous terms need the Navier-Stokes state (%" PetscInt_FMT " components), not %" PetscInt_FMT, fr->dim + 2, fr->nv);
  PetscCall(FRViscousSetUp(fr->disc, vis, fr->exchange.halo, &fr->kd.ldg));
  if (!fr->face_scale) PetscCall(PetscMalloc3(K * fr->Nfaces, &fr->face_scale, K * fr->nv * Nfq, &fr->ujump, K * fr->dim * fr->nv * fr->Np, &fr->grad));
  for (PetscInt e = 0; e < fr->K; e++)
    for (PetscInt f = 0; f < fr->Nfaces; f++) fr->face_scale[e * fr->Nfaces + f] = FRViscousFaceScale(fr->mesh, e, f);
  fr->kd.face_scale = fr->face_scale;
  fr->kd.ujump      = fr->ujump;
  fr->kd.grad       = fr->grad;
  PetscCall(FRGradientTraceSetUp(fr));
  PetscCheck(!fr->shell.device_ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "-disc fr: the viscous terms must be set before the first device call (their arrays are uploaded with the kernel data)");
  fr->kd_device.ldg = fr->kd.ldg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* flops of one right-hand side (log events): the volume part (the flux, about 30 flops a point, its transform, the
 * divergence along the lines, the trace) and the face part (the numerical flux, about 60 flops a face point, the
 * jumps, the corrections and the scaling) */
static void FRFlops(const FRDisc *fr, PetscLogDouble *fv, PetscLogDouble *ff)
{
  const PetscLogDouble K = fr->K, Np = fr->Np, nv = fr->nv, dim = fr->dim, n1 = fr->n1, Nfq = fr->Nfaces * fr->nfp;
  *fv = K * (Np * (30 + 2 * dim * dim * nv + 2 * dim * nv * n1) + Nfq * 4 * nv * n1);
  *ff = K * (Nfq * (60 + 3 * nv) + Np * nv * (2 * fr->Nfaces + 1));
}

/* The volume step of every owned element (FRExchangeOps) */
static PetscErrorCode FRVolumeStep(void *ctx, void *stream, const PetscScalar u[], PetscScalar f[])
{
  FRDisc *fr = (FRDisc *)ctx;

  PetscFunctionBeginUser;
  if (!fr->shell.on_device)
    FRVolumeHost(&fr->kd, u, f, fr->scratch, fr->trace);
  else {
    fr->kd_device.stream = stream;
    PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRVolumeCUDA(&fr->kd_device, (int)fr->elements_per_block, u, f, fr->trace_device)), "flux reconstruction volume"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Navier–Stokes (FRExchangeOps, after the traces' exchange): V1..V3 (the states, the corrected gradients, the viscous
 * volume part) of every owned element; on several ranks then the gradient traces that the second exchange sends */
static PetscErrorCode FRViscousStep(void *ctx, void *stream, const PetscScalar u[], const PetscScalar ul[], PetscScalar f[])
{
  FRDisc *fr = (FRDisc *)ctx;

  PetscFunctionBeginUser;
  if (!fr->shell.on_device) {
    FRViscousHost(&fr->kd, u, ul, fr->trace, fr->scratch, f);
    if (fr->gtrace_elem) FRViscousGradientTraceHost(&fr->kd);
  } else {
    fr->kd_device.stream = stream;
    PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRViscousCUDA(&fr->kd_device, (int)fr->elements_per_block, u, ul, fr->trace_device, f)), "flux reconstruction viscous terms"));
    if (fr->gtrace_elem) PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRViscousGradientTraceCUDA(&fr->kd_device)), "flux reconstruction gradient traces"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face step of the elements of `set` (FRExchangeOps), one call a mesh block (affine and curved elements are
 * blocks of their own, each with its interior elements first) */
static PetscErrorCode FRFaceStep(void *ctx, void *stream, FRFaceSet set, const PetscScalar ul[], PetscScalar f[])
{
  FRDisc *fr = (FRDisc *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < (set == FR_FACES_ALL ? 1 : fr->mesh->nblocks); b++) {
    FRKernelData kd = fr->shell.on_device ? fr->kd_device : fr->kd;
    if (set != FR_FACES_ALL) {
      FRExchangeFaceRange(&fr->mesh->blocks[b], set, &kd.face_subset, &kd.face_begin, &kd.face_end);
      kd.face_begin += (int)fr->mesh->blocks[b].start;
      kd.face_end += (int)fr->mesh->blocks[b].start;
    }
    if (!fr->shell.on_device)
      FRFaceHost(&kd, ul, fr->trace, fr->scratch, f);
    else {
      kd.stream = stream;
      PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRFaceCUDA(&kd, (int)fr->elements_per_block, ul, fr->trace_device, f)), "flux reconstruction face"));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRRHS(ConsLaw cl, Vec u, Vec f)
{
  FRDisc       *fr  = (FRDisc *)cl->data;
  FRExchangeOps ops = {FRVolumeStep, FRFaceStep, fr->kd.ldg.on ? FRViscousStep : NULL, NULL, NULL, 0, 0};

  PetscFunctionBeginUser;
  FRFlops(fr, &ops.volume_flops, &ops.face_flops);
  PetscCall(OpShellBegin(&fr->shell, u, NULL)); /* the steps read fr->shell.on_device */
  ops.trace      = fr->shell.on_device ? fr->trace_device : fr->trace;
  ops.grad_trace = fr->shell.on_device ? fr->gtrace_device : fr->gtrace;
  PetscCall(FRExchangeRHS(&fr->exchange, &fr->shell, u, f, &ops, fr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRMaxWaveSpeed(ConsLaw cl, Vec u, PetscReal *speed, PetscInt *bad_cell, Vec *element_speed)
{
  FRDisc            *fr = (FRDisc *)cl->data;
  const PetscScalar *ua;
  PetscScalar       *sa;
  PetscBool          on_device;

  PetscFunctionBeginUser;
  PetscCall(OpShellBegin(&fr->shell, u, &on_device));
  PetscCall(ConsLawElementVector(u, fr->K, &fr->speed));
  PetscCall(OpShellGetArrayRead(&fr->shell, u, &ua));
  PetscCall(OpShellGetArrayWrite(&fr->shell, fr->speed, &sa));
  if (!on_device)
    FRWaveSpeedHost(&fr->kd, ua, fr->h, sa);
  else {
    fr->kd_device.stream = fr->shell.stream;
    PetscCall(OpShellCheckKernel(&fr->shell, HOFLOW_CUDA(FRWaveSpeedCUDA(&fr->kd_device, ua, fr->h_device, sa)), "flux reconstruction wave speed"));
  }
  PetscCall(OpShellRestoreArrayWrite(&fr->shell, fr->speed, &sa));
  PetscCall(OpShellRestoreArrayRead(&fr->shell, u, &ua));
  PetscCall(ConsLawElementSpeedsReduce(fr->speed, fr->mesh->elem_cell, speed, bad_cell));
  *element_speed = fr->speed;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solution points' values of f (FR's initial state is its interpolant) */
static PetscErrorCode FRProject(ConsLaw cl, ConsLawStateFunction fn, void *ctx, Vec uvec)
{
  FRDisc        *fr = (FRDisc *)cl->data;
  const PetscInt Np = fr->Np, nv = fr->nv;
  PetscScalar   *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++)
    for (PetscInt i = 0; i < Np; i++) {
      PetscReal w[EULER_NV_MAX];
      PetscCall(fn(fr->dim, fr->xs + (e * Np + i) * fr->dim, w, ctx));
      for (PetscInt k = 0; k < nv; k++) u[e * nv * Np + k * Np + i] = w[k];
    }
  PetscCall(VecRestoreArrayWrite(uvec, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* interp[j*Np + i] = the tensor Lagrange polynomial of solution point i at reference point xi_j */
static PetscErrorCode FRInterpolation(const FRDisc *fr, PetscInt n, const PetscReal xi[], PetscReal interp[])
{
  PetscReal L[3][HOFLOW_NMAX + 1];

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt d = 0; d < fr->dim; d++) LagrangeMatrix1D(fr->n1, fr->x1, 1, xi + j * fr->dim + d, L[d], NULL);
    for (PetscInt i = 0; i < fr->Np; i++) {
      PetscReal v = 1;
      for (PetscInt d = 0, t = i; d < fr->dim; d++, t /= fr->n1) v *= L[d][t % fr->n1];
      interp[j * fr->Np + i] = v;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRErrorNorm(ConsLaw cl, NormType type, Vec uvec, ConsLawStateFunction fn, void *ctx, PetscReal err[])
{
  FRDisc            *fr  = (FRDisc *)cl->data;
  const PetscInt     dim = fr->dim, nv = fr->nv, Np = fr->Np;
  const PetscScalar *u;
  PetscInt           nq;
  PetscReal         *xiq, *wq, *interp, *xq, *gq;

  PetscFunctionBeginUser;
  /* modal DG's cubature (degree 2N+1: on tensor cells the Gauss points, FR's solution points), so the two
   * discretizations' errors are the same functional (equal for linear advection with c_DG: tests/suite_fr.py) */
  PetscCall(RefElementCubature(fr->shape, 2 * fr->N + 1, &nq, &xiq, &wq));
  PetscCall(PetscMalloc3(nq * Np, &interp, nq * dim, &xq, nq * (dim * dim + 1), &gq));
  PetscCall(FRInterpolation(fr, nq, xiq, interp));
  for (PetscInt k = 0; k < nv; k++) err[k] = 0;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    PetscCall(FRElementGeometry(fr, e, nq, xiq, xq, gq));
    for (PetscInt q = 0; q < nq; q++) {
      PetscReal uq[EULER_NV_MAX], fq[EULER_NV_MAX] = {0, 0, 0, 0, 0};
      if (fn) PetscCall(fn(dim, xq + q * dim, fq, ctx));
      for (PetscInt k = 0; k < nv; k++) {
        PetscReal s = 0;
        for (PetscInt i = 0; i < Np; i++) s += interp[q * Np + i] * u[e * nv * Np + k * Np + i];
        uq[k] = s;
        err[k] += wq[q] * gq[q * (dim * dim + 1) + dim * dim] * (type == NORM_1 ? PetscAbsReal(uq[k] - fq[k]) : PetscSqr(uq[k] - fq[k]));
      }
    }
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, (PetscMPIInt)nv, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  if (type == NORM_2)
    for (PetscInt k = 0; k < nv; k++) err[k] = PetscSqrtReal(err[k]);
  PetscCall(PetscFree3(interp, xq, gq));
  PetscCall(PetscFree(xiq));
  PetscCall(PetscFree(wq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the Gauss weights at the solution points integrate the degree-N interpolant exactly */
static PetscReal FRWeight(const FRDisc *fr, PetscInt i)
{
  PetscReal w = 1;
  for (PetscInt d = 0, t = i; d < fr->dim; d++, t /= fr->n1) w *= fr->w1[t % fr->n1];
  return w;
}

/* The integral over element e of one variable's solution-point values v (Gauss weights times J), or of 1
 * (v NULL: the element's volume). */
static PetscReal FRElementIntegral(const FRDisc *fr, PetscInt e, const PetscScalar *v)
{
  const PetscInt Np = fr->Np, gs = fr->dim * fr->dim + 1;
  PetscReal      s = 0;

  for (PetscInt i = 0; i < Np; i++) s += FRWeight(fr, i) * fr->geo[(e * Np + i) * gs + gs - 1] * (v ? v[i] : 1.0);
  return s;
}

static PetscErrorCode FRIntegrate(ConsLaw cl, Vec uvec, PetscReal total[])
{
  FRDisc            *fr = (FRDisc *)cl->data;
  const PetscInt     nv = fr->nv, Np = fr->Np;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nv; k++) total[k] = 0;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++)
    for (PetscInt k = 0; k < nv; k++) total[k] += FRElementIntegral(fr, e, u + (e * nv + k) * Np);
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, total, (PetscMPIInt)nv, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The VCJH energy: sum over elements and components of J u^T (W1 x W1 [x W1]) u, the tensor product of the 1D norms
 * (on affine tensor cells the scheme is a tensor product of 1D schemes along the solution-point lines, each stable
 * in the 1D norm, so the product norm does not grow for linear advection with an upwind flux). Non-affine cells:
 * v^T (W1 x W1) v with v_i = J_i^(1/2) u_i (c = 0: the Gauss rule of int J u^2; no stability statement there) */
static PetscErrorCode FREnergy(ConsLaw cl, Vec uvec, PetscReal *energy)
{
  FRDisc            *fr = (FRDisc *)cl->data;
  const PetscInt     nv = fr->nv, Np = fr->Np, n1 = fr->n1, gs = fr->dim * fr->dim + 1;
  const PetscScalar *u;
  PetscReal          v[2][(HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1)], E = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++)
    for (PetscInt k = 0; k < nv; k++) {
      const PetscScalar *ue = u + e * nv * Np + k * Np;
      PetscInt           a  = 0;
      PetscReal          s  = 0;
      for (PetscInt i = 0; i < Np; i++) v[0][i] = PetscSqrtReal(fr->geo[(e * Np + i) * gs + gs - 1]) * ue[i]; /* affine: J constant */
      for (PetscInt d = 0, stride = 1; d < fr->dim; d++, stride *= n1, a = 1 - a)                             /* v <- W1 along direction d */
        for (PetscInt i = 0; i < Np; i++) {
          const PetscInt id = (i / stride) % n1, start = i - id * stride;
          PetscReal      t = 0;
          for (PetscInt m = 0; m < n1; m++) t += fr->W1[id * n1 + m] * v[a][start + m * stride];
          v[1 - a][i] = t;
        }
      for (PetscInt i = 0; i < Np; i++) s += PetscSqrtReal(fr->geo[(e * Np + i) * gs + gs - 1]) * ue[i] * v[a][i];
      E += s;
    }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(MPIU_Allreduce(&E, energy, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)fr->dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRElementMeans(ConsLaw cl, Vec uvec, PetscReal means[])
{
  FRDisc            *fr = (FRDisc *)cl->data;
  const PetscInt     nv = fr->nv, Np = fr->Np;
  const PetscScalar *u;
  PetscReal          vol;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = 0; e < fr->K; e++) {
    vol = FRElementIntegral(fr, e, NULL);
    for (PetscInt k = 0; k < nv; k++) means[e * nv + k] = FRElementIntegral(fr, e, u + (e * nv + k) * Np) / vol;
  }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FREvaluate(ConsLaw cl, Vec uvec, PetscInt b, PetscInt n, const PetscReal xi[], PetscReal w[])
{
  FRDisc            *fr = (FRDisc *)cl->data;
  const MeshBlock   *mb = &fr->mesh->blocks[b];
  const PetscInt     nv = fr->nv, Np = fr->Np;
  const PetscScalar *u;
  PetscReal         *interp;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n * Np, &interp));
  PetscCall(FRInterpolation(fr, n, xi, interp));
  PetscCall(VecGetArrayRead(uvec, &u));
  for (PetscInt e = mb->start; e < mb->end; e++)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt k = 0; k < nv; k++) {
        PetscReal s = 0;
        for (PetscInt i = 0; i < Np; i++) s += interp[j * Np + i] * u[e * nv * Np + k * Np + i];
        w[((e - mb->start) * n + j) * nv + k] = s;
      }
  PetscCall(VecRestoreArrayRead(uvec, &u));
  PetscCall(PetscFree(interp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the device (cuda/fr.cu) */
/* Upload the kernel data at the first device call (OpShellBegin): the 1D tables, the metric, the face records, the
 * boundary data and the element sizes; the traces are device scratch. */
static PetscErrorCode FRDeviceSetUp(void *ctx)
{
  FRDisc             *fr = (FRDisc *)ctx;
  const FRKernelData *h  = &fr->kd;
  FRKernelData       *d  = &fr->kd_device;
  HoflowDeviceArrays *a  = &fr->shell.device;
  const size_t        K = (size_t)PetscMax(fr->K, 1), n1 = (size_t)fr->n1, Nfq = (size_t)fr->Nfaces * fr->nfp, dim = (size_t)fr->dim;

  PetscFunctionBeginUser;
  *d = *h;
  PetscCall(HoflowDeviceArraysUpload(a, h->D, sizeof(double) * n1 * n1, (const void **)&d->D));
  PetscCall(HoflowDeviceArraysUpload(a, h->lL, sizeof(double) * n1, (const void **)&d->lL));
  PetscCall(HoflowDeviceArraysUpload(a, h->lR, sizeof(double) * n1, (const void **)&d->lR));
  PetscCall(HoflowDeviceArraysUpload(a, h->gL, sizeof(double) * n1, (const void **)&d->gL));
  PetscCall(HoflowDeviceArraysUpload(a, h->gR, sizeof(double) * n1, (const void **)&d->gR));
  PetscCall(HoflowDeviceArraysUpload(a, h->line, sizeof(int) * Nfq, (const void **)&d->line));
  PetscCall(HoflowDeviceArraysUpload(a, h->geo, sizeof(double) * K * fr->Np * (dim * dim + 1), (const void **)&d->geo));
  PetscCall(HoflowDeviceArraysUpload(a, h->fgeo, sizeof(double) * K * Nfq * (dim + 1), (const void **)&d->fgeo));
  PetscCall(HoflowDeviceArraysUpload(a, h->face_info, sizeof(int) * K * fr->Nfaces * FR_FACE_INFO, (const void **)&d->face_info));
  PetscCall(HoflowDeviceArraysUpload(a, h->nb_line, sizeof(int) * K * Nfq, (const void **)&d->nb_line));
  PetscCall(HoflowDeviceArraysUpload(a, h->bc_point, sizeof(double) * PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, (const void **)&d->bc_point));
  PetscCall(HoflowDeviceArraysUpload(a, fr->h, sizeof(double) * K, (const void **)&fr->h_device));
  PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * (size_t)PetscMax(fr->mesh->Klocal, 1) * 2 * fr->nv * Nfq, (const void **)&fr->trace_device)); /* owned and halo elements */
  if (h->ldg.on) { /* Navier–Stokes: the faces' 1/h; u_I - u- and the corrected gradients are device scratch */
    PetscCall(HoflowDeviceArraysUpload(a, h->face_scale, sizeof(double) * K * fr->Nfaces, (const void **)&d->face_scale));
    PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * K * fr->nv * Nfq, (const void **)&d->ujump));
    PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * K * dim * fr->nv * fr->Np, (const void **)&d->grad));
  }
  if (h->gtrace_elem) { /* several ranks: the gradient traces' offsets and the traces (device scratch, the exchange's) */
    PetscCall(HoflowDeviceArraysUpload(a, h->gtrace_elem, sizeof(int) * (size_t)PetscMax(fr->mesh->Klocal, 1), (const void **)&d->gtrace_elem));
    PetscCall(HoflowDeviceArraysUpload(a, NULL, sizeof(double) * (size_t)PetscMax(fr->ngtrace, 1) * dim * fr->nv * Nfq, (const void **)&fr->gtrace_device));
    d->gtrace = fr->gtrace_device;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* after the physics changed bc_point: its device copy (uploaded with the rest at the first device call) */
static PetscErrorCode FRUpdateBoundaryData(ConsLaw cl)
{
  FRDisc *fr = (FRDisc *)cl->data;

  PetscFunctionBeginUser;
  if (!fr->shell.device_ready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(HoflowDeviceCopyToChecked((void *)fr->kd_device.bc_point, fr->bc_point, sizeof(double) * PetscMax(fr->nbpoints, 1) * EULER_BC_DATA, fr->shell.stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode FRGetKernelData(Disc disc, const FRKernelData **host, const FRKernelData **device, const PetscReal **h, const PetscReal **h_device)
{
  FRDisc *fr = (FRDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCheck(disc->ops.destroy == FRDestroy, PetscObjectComm((PetscObject)disc->dm), PETSC_ERR_ARG_WRONG, "FRGetKernelData needs -disc fr (got -disc %s)", disc->type);
  if (host) *host = &fr->kd;
  if (device) *device = fr->shell.device_ready ? &fr->kd_device : NULL;
  if (h) *h = fr->h;
  if (h_device) *h_device = fr->shell.device_ready ? fr->h_device : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the Disc */
/* every value's point: its solution point (checkpoints key elements by them) */
static PetscErrorCode FRGetPoints(Disc disc, PetscInt *n, const PetscReal **x, const PetscInt **elem_point)
{
  FRDisc        *fr  = (FRDisc *)disc->data;
  const PetscInt dim = fr->dim, Np = fr->Np, nv = fr->nv;

  PetscFunctionBeginUser;
  if (!fr->xdof) {
    PetscCall(PetscMalloc1(PetscMax(fr->K * nv * Np * dim, 1), &fr->xdof));
    for (PetscInt e = 0; e < fr->K; e++)
      for (PetscInt k = 0; k < nv; k++)
        for (PetscInt i = 0; i < Np; i++)
          for (PetscInt d = 0; d < dim; d++) fr->xdof[((e * nv + k) * Np + i) * dim + d] = fr->xs[(e * Np + i) * dim + d];
  }
  *n = fr->elem_dof[fr->K];
  if (x) *x = fr->xdof;
  if (elem_point) *elem_point = fr->elem_dof;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -restart_project: the checkpoint's order-Ns values at this run's Gauss points (disc/fr_project.c) */
static PetscErrorCode FRDiscProjectElements(Disc disc, PetscInt Ns, const PetscReal src_vertices[], PetscInt n, const PetscReal *const src[], Vec u[])
{
  PetscFunctionBeginUser;
  PetscCall(FRProjectElements(disc, FRSolutionPoints, ((FRDisc *)disc->data)->elem_dof, Ns, src_vertices, n, src, u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRDestroy(Disc disc)
{
  FRDisc *fr = (FRDisc *)disc->data;

  PetscFunctionBeginUser;
  PetscCall(OpShellDestroy(&fr->shell));
  PetscCall(VecDestroy(&fr->speed));
  PetscCall(PetscFree7(fr->x1, fr->w1, fr->D, fr->lL, fr->lR, fr->gL, fr->gR));
  PetscCall(PetscFree(fr->W1));
  PetscCall(PetscFree(fr->line));
  PetscCall(PetscFree4(fr->geo, fr->fgeo, fr->h, fr->xs));
  PetscCall(PetscFree2(fr->face_info, fr->nb_line));
  PetscCall(PetscFree(fr->bx));
  PetscCall(PetscFree(fr->bn));
  PetscCall(PetscFree(fr->btype));
  PetscCall(PetscFree(fr->bc_point));
  PetscCall(PetscFree(fr->xdof));
  PetscCall(PetscFree(fr->elem_dof));
  PetscCall(PetscFree2(fr->scratch, fr->trace));
  PetscCall(PetscFree3(fr->face_scale, fr->ujump, fr->grad));
  PetscCall(PetscFree(fr->gtrace));
  PetscCall(PetscFree(fr->gtrace_elem));
  PetscCall(FRExchangeDestroy(&fr->exchange));
  PetscCall(PetscFree(fr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DiscCreate_FR(Disc disc)
{
  Mesh          *mesh = disc->mesh;
  MPI_Comm       comm = PetscObjectComm((PetscObject)mesh->dm);
  const PetscInt dim  = mesh->dim;
  FRDisc        *fr;
  ConsLaw        cl;
  PetscInt       correction = FR_CORRECTION_DG;
  FRExchangeType exchange;
  FRHaloType     halo    = FR_HALO_TRACES;
  PetscBool      c_given = PETSC_FALSE, dense = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCheck(disc->order >= 1 && disc->order <= HOFLOW_NMAX, comm, PETSC_ERR_ARG_OUTOFRANGE, "-order %" PetscInt_FMT ": -disc fr supports orders 1..%d", disc->order, HOFLOW_NMAX);
  PetscCheck(disc->ncomp == dim + 2 || disc->ncomp == 1, comm, PETSC_ERR_SUP, "-disc fr discretizes the Euler equations (%" PetscInt_FMT " components in %" PetscInt_FMT "D) or linear advection (1); the problem's physics has %" PetscInt_FMT, dim + 2, dim, disc->ncomp);
  for (PetscInt b = 0; b < mesh->nblocks; b++) dense = (PetscBool)(dense || !RefShapeTable[mesh->blocks[b].shape].tensor); /* simplices, prisms: dense operators (disc/fr_dense.c) */
  for (PetscInt b = 0; b < mesh->nblocks; b++) /* dense FR takes the metric of curved elements at every point (FRDGeometry); the tensor path not yet */
    PetscCheck(dense || !mesh->blocks[b].curved || mesh->geom_order == 1, comm, PETSC_ERR_SUP, "-disc fr on quadrilaterals or hexahedra: affine and non-affine (bilinear, trilinear) elements only so far; mesh %s has curved %s elements of geometry order %" PetscInt_FMT, mesh->source, RefShapes[mesh->blocks[b].shape], mesh->geom_order);
  PetscCall(PetscNew(&fr));
  disc->data = fr;
  fr->disc   = disc;
  fr->mesh   = mesh;
  fr->N      = disc->order;
  fr->n1     = fr->N + 1;
  fr->dim    = dim;
  fr->nv     = disc->ncomp;
  fr->K      = mesh->K;
  fr->shape  = dim == 2 ? REF_QUADRILATERAL : REF_HEXAHEDRON;
  fr->Np     = RefShapeNumNodes(fr->shape, (int)fr->N);
  fr->Nfaces = RefShapeTable[fr->shape].nfaces;
  fr->nfp    = dim == 2 ? fr->n1 : fr->n1 * fr->n1;
  PetscOptionsBegin(comm, NULL, "Flux reconstruction", NULL);
  PetscCall(PetscOptionsEList("-fr_correction", "VCJH correction functions: dg (c = 0, nodal DG), sd (spectral difference), hu (Huynh's g_2), plus (c_+, the largest explicit step; N >= 2); on quadrilaterals and hexahedra; on meshes of all triangles or all tetrahedra the simplex values (N = 2..4 triangles, 2..5 tetrahedra); prisms and mixed meshes: dg, or -fr_c", NULL, FRCorrections, 4, FRCorrections[correction], &correction, NULL));
  fr->c = -1;
  PetscCall(PetscOptionsReal("-fr_c", "The VCJH parameter c given directly (>= 0; overrides -fr_correction)", NULL, fr->c, &fr->c, &c_given));
  PetscCall(PetscOptionsInt("-fr_elements_per_block", "CUDA kernels: elements a thread block (0: by order, about 256 solution points)", NULL, fr->elements_per_block, &fr->elements_per_block, NULL));
  exchange = FR_EXCHANGE_OVERLAP;
  PetscCall(PetscOptionsEnum("-fr_exchange", "Halo exchange strategy (seed 003 section VII): none (exchange, then all the work), overlap (the volume and interior elements' face steps during the exchange), split (overlap on two CUDA streams joined by events; the host runs overlap)", NULL, FRExchangeTypes, (PetscEnum)exchange, (PetscEnum *)&exchange, NULL));
  PetscCall(PetscOptionsEnum("-fr_halo", "What the halo exchange sends on several ranks: traces (the partition faces' flux-point values, seed 003; Navier-Stokes: and the corrected gradients there) or elements (every value of the halo elements; Euler and advection)", NULL, FRHaloTypes, (PetscEnum)halo, (PetscEnum *)&halo, NULL));
  PetscCall(PetscOptionsBool("-fr_view", "Print the bytes of the halo exchange a right-hand side on every rank (several ranks)", NULL, PETSC_FALSE, NULL, NULL));
  PetscOptionsEnd();
  PetscCheck(fr->elements_per_block >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fr_elements_per_block %" PetscInt_FMT ": give 0 (by order) or a positive number", fr->elements_per_block);
  PetscCheck(!c_given || fr->c >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-fr_c %g: the VCJH parameter must be >= 0 (c < 0 is not energy stable)", (double)fr->c);
  fr->correction    = (FRCorrection)correction;
  fr->c_given       = c_given;
  fr->exchange.type = exchange;
  fr->exchange.halo = halo;
  if (dense) {
    const PetscReal c = fr->c;
    const PetscInt  E = fr->elements_per_block;
    PetscCall(PetscFree(fr));
    PetscCall(DiscCreate_FRDense(disc, (FRCorrection)correction, c, c_given, E, exchange, halo));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(FRTables(fr));
  for (PetscInt f = 0; f < fr->Nfaces; f++) FRFaceDirection(fr->shape, f, &fr->kd.dir[f], &fr->kd.side[f]); /* FRSetUpElements reads them */
  PetscCall(FRSetUpElements(fr));
  { /* the kernel's view (gamma and the flux: set_equations) */
    FRKernelData *kd = &fr->kd;
    kd->dim          = (int)dim;
    kd->nv           = (int)fr->nv;
    kd->n1           = (int)fr->n1;
    kd->Np           = (int)fr->Np;
    kd->Nfaces       = (int)fr->Nfaces;
    kd->nfp          = (int)fr->nfp;
    kd->K            = (int)fr->K;
    kd->D            = fr->D;
    kd->lL           = fr->lL;
    kd->lR           = fr->lR;
    kd->gL           = fr->gL;
    kd->gR           = fr->gR;
    kd->line         = fr->line;
    kd->geo          = fr->geo;
    kd->fgeo         = fr->fgeo;
    kd->face_info    = fr->face_info;
    kd->nb_line      = fr->nb_line;
    kd->bc_point     = fr->bc_point;
    kd->gamma        = 1.4;
    kd->flux         = EULER_FLUX_RUSANOV;
  }
  PetscCall(PetscMalloc1(mesh->Klocal + 1, &fr->elem_dof));
  for (PetscInt l = 0; l <= mesh->Klocal; l++) fr->elem_dof[l] = l * fr->nv * fr->Np;
  PetscCall(ConsLawCreateElementDM(mesh, fr->elem_dof, &fr->dm));
  disc->dm = fr->dm;
  PetscCall(PetscMalloc2(dim * fr->nv * fr->Np, &fr->scratch, PetscMax(mesh->Klocal, 1) * fr->Nfaces * fr->nfp * 2 * fr->nv, &fr->trace)); /* owned and halo elements */
  PetscCall(FRTraceSetUp(fr));
  PetscCall(OpShellInit(&fr->shell, "flux reconstruction Euler right-hand side", fr->dm, FRDeviceSetUp, fr));
  PetscCall(OpShellCreateLocal(&fr->shell, 1));
  disc->ops.destroy          = FRDestroy;
  disc->ops.get_points       = FRGetPoints;
  disc->ops.project_elements = FRDiscProjectElements;

  PetscCall(ConsLawCreate(disc, &cl));
  PetscCall(ConsLawSetLayout(cl, fr, fr->N, fr->nbpoints, fr->bx, fr->bn, fr->btype, fr->bc_point, fr->elem_dof));
  cl->ops.set_equations  = FRSetEquations;
  cl->ops.set_viscous    = FRSetViscous;
  cl->ops.rhs            = FRRHS;
  cl->ops.max_wave_speed = FRMaxWaveSpeed;
  cl->ops.project        = FRProject;
  cl->ops.error_norm     = FRErrorNorm;
  cl->ops.integrate      = FRIntegrate;
  cl->ops.element_means  = FRElementMeans;
  cl->ops.evaluate       = FREvaluate;
  cl->ops.energy         = FREnergy;
  disc->conslaw          = cl;

  cl->ops.update_boundary_data = FRUpdateBoundaryData; /* the device's copy of bc_point (cuda/fr.cu) */
  PetscCall(PetscInfo(NULL, "-disc fr: N = %" PetscInt_FMT ", correction %s (c = %g)\n", fr->N, FRCorrections[fr->correction], (double)fr->c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
