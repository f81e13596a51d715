/* Host kernels of incompressible flow on continuous spectral elements (hoflow/kernels/sem_flow.h):
 * element-local derivatives by the 1D passes of hoflow/kernels/tensor.h, the over-integrated
 * convection by the rectangular passes of SEMTensorApply (hoflow/kernels/sem.h); the CUDA twins are in
 * cuda/sem_flow.cu (same operations in the same order, up to fused multiply-adds). Written for any
 * dim = 2, 3 and N at run time: these kernels run once or twice a time step, next to Krylov solves
 * that apply the (instantiated) elliptic kernel tens of times. */
#include <stdlib.h>
#include <hoflow/kernels/sem.h>
#include <hoflow/kernels/sem_flow.h>
#include <hoflow/kernels/tensor.h>

#define SEM_FLOW_NP_MAX ((HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1) * (HOFLOW_NMAX + 1))

/* grad[j*Np + q] = d f / d x_j at the element's nodes: sum_a (D_a f)(q) dr_a/dx_j (q); r: dim*Np work. */
static void ElementGradient(const SEMFlowKernelData *d, const double *g, const double *f, double *r, double *grad)
{
  const int dim = d->dim, Np = d->Np;
  for (int a = 0; a < dim; a++) Pass(d->N1, dim, a, d->D1, d->D1T, f, r + a * Np, 0);
  for (int q = 0; q < Np; q++)
    for (int j = 0; j < dim; j++) {
      double s = 0;
      for (int a = 0; a < dim; a++) s += g[q * dim * dim + j * dim + a] * r[a * Np + q];
      grad[j * Np + q] = s;
    }
}

/* The element's components: ue[c*Np + i] = u[gather[i] + c]. */
static void GatherComponents(int ncomp, int Np, const int *gather, const double *u, double *ue)
{
  for (int c = 0; c < ncomp; c++)
    for (int i = 0; i < Np; i++) ue[c * Np + i] = u[gather[i] + c];
}

/* w = curl u of the element's velocity ue at its nodes (2D: the scalar dv/dx - du/dy in w[0..Np); 3D: three
 * components), accumulated component by component of u (the CUDA twin's order: 0 - a + b = b - a exactly).
 * work: (dim + 1) dim Np doubles. */
static void ElementVorticity(const SEMFlowKernelData *d, const double *g, const double *ue, double *w, double *work)
{
  const int dim = d->dim, Np = d->Np;
  double   *gu = work, *r = gu + dim * Np; /* gu[j*Np + q] = d u_c / dx_j */

  for (int q = 0; q < (dim == 2 ? 1 : 3) * Np; q++) w[q] = 0;
  for (int c = 0; c < dim; c++) {
    ElementGradient(d, g, ue + c * Np, r, gu);
    for (int q = 0; q < Np; q++) {
      if (dim == 2) {
        if (c == 0) w[q] -= gu[Np + q];
        else w[q] += gu[q];
      } else {
        if (c == 0) w[Np + q] += gu[2 * Np + q], w[2 * Np + q] -= gu[Np + q];
        if (c == 1) w[q] -= gu[2 * Np + q], w[2 * Np + q] += gu[q];
        if (c == 2) w[q] += gu[Np + q], w[Np + q] -= gu[q];
      }
    }
  }
}

/* cc[c*Np + q] = (curl curl u)_c of the element's velocity ue, element-locally (the vorticity
 * differentiated again inside the element). work: (6 + (dim + 1) dim) Np doubles. */
static void ElementCurlCurl(const SEMFlowKernelData *d, const double *g, const double *ue, double *cc, double *work)
{
  const int dim = d->dim, Np = d->Np;
  double   *w = work, *gx = w + 3 * Np, *r = gx + 3 * Np;

  ElementVorticity(d, g, ue, w, r);
  if (dim == 2) {
    ElementGradient(d, g, w, r, gx);
    for (int q = 0; q < Np; q++) {
      cc[q]      = gx[Np + q]; /* d omega / dy */
      cc[Np + q] = -gx[q];     /* -d omega / dx */
    }
    return;
  }
  for (int q = 0; q < 3 * Np; q++) cc[q] = 0;
  for (int k = 0; k < 3; k++) { /* curl omega: (dwz/dy - dwy/dz, dwx/dz - dwz/dx, dwy/dx - dwx/dy) */
    ElementGradient(d, g, w + k * Np, r, gx);
    for (int q = 0; q < Np; q++) {
      if (k == 0) cc[Np + q] += gx[2 * Np + q], cc[2 * Np + q] -= gx[Np + q];
      if (k == 1) cc[2 * Np + q] += gx[q], cc[q] -= gx[2 * Np + q];
      if (k == 2) cc[q] += gx[Np + q], cc[Np + q] -= gx[q];
    }
  }
}

void SEMFlowConvectionHost(const SEMFlowKernelData *d, const double *u, double *C)
{
  const int dim = d->dim, Np = d->Np, N1 = d->N1, Nq = d->Nq;
  int       Nqp = 1;
  double   *ue, *gu, *r, *ce, *uq, *dq, *cq, *work;

  for (int k = 0; k < dim; k++) Nqp *= Nq ? Nq : 1;
  {
    const int M = Nq > N1 ? Nq : N1, Mp = dim == 2 ? M * M : M * M * M;
    ue   = (double *)malloc(sizeof(double) * (size_t)(3 * Np + 9 * Np + 3 * Np + 3 * Np + 3 * Mp + 9 * Mp + 3 * Mp + 2 * Mp));
    gu   = ue + 3 * Np;
    r    = gu + 9 * Np;
    ce   = r + 3 * Np;
    uq   = ce + 3 * Np;
    dq   = uq + 3 * Mp;
    cq   = dq + 9 * Mp;
    work = cq + 3 * Mp;
  }
  for (int e = 0; e < d->K; e++) {
    const int *gather = d->ugather + (size_t)e * Np;
    GatherComponents(dim, Np, gather, u, ue);
    if (!Nq) { /* collocated at the GLL nodes */
      const double *g = d->g + (size_t)e * Np * dim * dim, *wJ = d->wJ + (size_t)e * Np;
      for (int c = 0; c < dim; c++) ElementGradient(d, g, ue + c * Np, r, gu + c * dim * Np);
      for (int q = 0; q < Np; q++)
        for (int c = 0; c < dim; c++) {
          double s = 0;
          for (int j = 0; j < dim; j++) s += ue[j * Np + q] * gu[(c * dim + j) * Np + q];
          ce[c * Np + q] = wJ[q] * s;
        }
    } else { /* over-integrated at the Nq^dim Gauss points: u.grad u_c = sum_a U_a d u_c / d r_a with the
              * contravariant velocity U_a = sum_j u_j dr_a/dx_j (the CUDA twin's order) */
      const double *g = d->gq + (size_t)e * Nqp * dim * dim, *wJ = d->wJq + (size_t)e * Nqp;
      double       *U = dq, *dc = dq + 3 * Nqp;
      for (int q = 0; q < dim * Nqp; q++) U[q] = 0;
      for (int j = 0; j < dim; j++) {
        SEMTensorInterpolate(dim, N1, Nq, d->B, ue + j * Np, uq, work);
        for (int q = 0; q < Nqp; q++)
          for (int a = 0; a < dim; a++) U[a * Nqp + q] += uq[q] * g[q * dim * dim + j * dim + a];
      }
      for (int c = 0; c < dim; c++) {
        for (int q = 0; q < Nqp; q++) cq[q] = 0;
        for (int a = 0; a < dim; a++) {
          const double *A[3] = {d->B, d->B, d->B};
          A[a]               = d->DB;
          SEMTensorApply(dim, N1, Nq, A, ue + c * Np, dc, work);
          for (int q = 0; q < Nqp; q++) cq[q] += U[a * Nqp + q] * dc[q];
        }
        for (int q = 0; q < Nqp; q++) cq[q] *= wJ[q];
        SEMTensorInterpolate(dim, Nq, N1, d->BT, cq, ce + c * Np, work);
      }
    }
    for (int c = 0; c < dim; c++)
      for (int i = 0; i < Np; i++) C[gather[i] + c] += ce[c * Np + i];
  }
  free(ue);
}

void SEMFlowPressureRHSHost(const SEMFlowKernelData *d, double nu, const double *F, const double *ustar, double *b)
{
  const int dim = d->dim, Np = d->Np, N1 = d->N1;
  double   *fe = (double *)malloc(sizeof(double) * (size_t)(3 * Np + 3 * Np + 3 * Np + 3 * Np + 18 * Np + Np));
  double   *se = fe + 3 * Np, *cc = se + 3 * Np, *t = cc + 3 * Np, *work = t + 3 * Np, *out = work + 18 * Np;

  for (int e = 0; e < d->K; e++) {
    const int    *gather = d->ugather + (size_t)e * Np, *pg = d->pgather + (size_t)e * Np;
    const double *g = d->g + (size_t)e * Np * dim * dim, *wJ = d->wJ + (size_t)e * Np;
    GatherComponents(dim, Np, gather, F, fe);
    GatherComponents(dim, Np, gather, ustar, se);
    ElementCurlCurl(d, g, se, cc, work);
    /* t_a = wJ sum_j (dr_a/dx_j) (F - nu curl curl u*)_j, then sum_a D_a^T t_a */
    for (int q = 0; q < Np; q++)
      for (int a = 0; a < dim; a++) {
        double s = 0;
        for (int j = 0; j < dim; j++) s += g[q * dim * dim + j * dim + a] * (fe[j * Np + q] - nu * cc[j * Np + q]);
        t[a * Np + q] = wJ[q] * s;
      }
    for (int a = 0; a < dim; a++) Pass(N1, dim, a, d->D1T, d->D1, t + a * Np, out, a > 0);
    for (int i = 0; i < Np; i++) b[pg[i]] += out[i];
  }
  free(fe);
}

void SEMFlowVelocityRHSHost(const SEMFlowKernelData *d, double nu, const double *F, const double *p, double *b)
{
  const int dim = d->dim, Np = d->Np;
  double   *pe = (double *)malloc(sizeof(double) * (size_t)(Np + 3 * Np + 3 * Np));
  double   *gp = pe + Np, *r = gp + 3 * Np;

  for (int e = 0; e < d->K; e++) {
    const int    *gather = d->ugather + (size_t)e * Np, *pg = d->pgather + (size_t)e * Np;
    const double *g = d->g + (size_t)e * Np * dim * dim, *wJ = d->wJ + (size_t)e * Np;
    for (int i = 0; i < Np; i++) pe[i] = p[pg[i]];
    ElementGradient(d, g, pe, r, gp);
    for (int c = 0; c < dim; c++)
      for (int i = 0; i < Np; i++) b[gather[i] + c] += wJ[i] * (F[gather[i] + c] - gp[c * Np + i]) / nu;
  }
  free(pe);
}

void SEMFlowDivergenceHost(const SEMFlowKernelData *d, const double *u, double *div)
{
  const int dim = d->dim, Np = d->Np;
  double   *ue = (double *)malloc(sizeof(double) * (size_t)(3 * Np + Np + 3 * Np + 3 * Np));
  double   *de = ue + 3 * Np, *gu = de + Np, *r = gu + 3 * Np;

  for (int e = 0; e < d->K; e++) {
    const int    *gather = d->ugather + (size_t)e * Np, *pg = d->pgather + (size_t)e * Np;
    const double *g = d->g + (size_t)e * Np * dim * dim, *wJ = d->wJ + (size_t)e * Np;
    GatherComponents(dim, Np, gather, u, ue);
    for (int i = 0; i < Np; i++) de[i] = 0;
    for (int c = 0; c < dim; c++) {
      ElementGradient(d, g, ue + c * Np, r, gu); /* d u_c / dx_j at gu[j*Np + i] */
      for (int i = 0; i < Np; i++) de[i] += gu[c * Np + i];
    }
    for (int i = 0; i < Np; i++) div[pg[i]] += wJ[i] * de[i];
  }
  free(ue);
}

void SEMFlowEnstrophyHost(const SEMFlowKernelData *d, const double *u, double *elem)
{
  const int dim = d->dim, Np = d->Np, nw = dim == 2 ? 1 : 3;
  double   *ue = (double *)malloc(sizeof(double) * (size_t)(3 * Np + 3 * Np + 12 * Np));
  double   *w = ue + 3 * Np, *work = w + 3 * Np;

  for (int e = 0; e < d->K; e++) {
    const int    *gather = d->ugather + (size_t)e * Np;
    const double *g = d->g + (size_t)e * Np * dim * dim, *wJ = d->wJ + (size_t)e * Np;
    double        s = 0;
    GatherComponents(dim, Np, gather, u, ue);
    ElementVorticity(d, g, ue, w, work);
    for (int q = 0; q < Np; q++) {
      double w2 = 0;
      for (int k = 0; k < nw; k++) w2 += w[k * Np + q] * w[k * Np + q];
      s += wJ[q] * w2;
    }
    elem[e] = s;
  }
  free(ue);
}
