/* Element routines of the incompressible flow operators (INSKernelData, hoflow/kernels/ins.h), for
 * the host kernels (src/kernels/ins.c); the CUDA kernels (cuda/ins.cu) share the pointwise physics
 * (hoflow/pointwise/ins.h) and the face data. Velocity of dim components (u, v[, w]). PETSc-free. */
#pragma once

#include <hoflow/kernels/ins.h>
#include <hoflow/pointwise/ins.h>

#if !defined(__CUDACC__)
/* Host-only element routines (the CUDA kernels stage the same steps in shared memory). DIM, Np, ...
 * are the instantiation's constants (src/kernels/ins.c), so loops have constant bounds. Sums over
 * dimensions start with their first term, so in 2D every value is formed exactly as the 2D-only
 * routines did (rx a + ry b, rx ur + sx us + ry vr + sy vs, ...). */

/* Advection on owned element e (INSAdvectionHost). Arrays a[], c[] are local. */
static inline __attribute__((always_inline)) void INSAdvectionElement(const INSKernelData *d, const int DIM, const int Np, const int Nfp, const int Nfaces, const int Nc, const int Nfq, int e, const double *const a[], const double *const c[], double lambda_scale, double bc_scale, double *const out[])
{
  const int     base = d->node0 + e * Np;
  const double *G    = d->geo + e * INS_GEO(DIM);
  const double  J    = G[INS_J(DIM)];
  const int     nbq  = d->K * Nfaces * Nfq;
  double        F[DIM * DIM * Nc]; /* F[(r*DIM + k)*Nc + q]: contravariant flux of component k along r_r; sized by the instantiation's constants */
  double        R[DIM * Np];

  /* volume: fluxes at the cubature points in contravariant form, F_r = (sum_j G[j][r] a_j) c_k */
  for (int q = 0; q < Nc; q++) {
    double av[DIM], cv[DIM];
    for (int k = 0; k < DIM; k++) av[k] = cv[k] = 0;
    for (int j = 0; j < Np; j++) {
      const double I = d->Ic[q * Np + j];
      for (int k = 0; k < DIM; k++) av[k] += I * a[k][base + j];
      for (int k = 0; k < DIM; k++) cv[k] += I * c[k][base + j];
    }
    for (int r = 0; r < DIM; r++) {
      double A = G[r] * av[0];
      for (int j = 1; j < DIM; j++) A += G[j * DIM + r] * av[j];
      for (int k = 0; k < DIM; k++) F[(r * DIM + k) * Nc + q] = A * cv[k];
    }
  }
  for (int i = 0; i < Np; i++) {
    double rk[DIM];
    for (int k = 0; k < DIM; k++) rk[k] = 0;
    for (int q = 0; q < Nc; q++)
      for (int k = 0; k < DIM; k++) {
        double s = d->DW[0][i * Nc + q] * F[k * Nc + q];
        for (int r = 1; r < DIM; r++) s += d->DW[r][i * Nc + q] * F[(r * DIM + k) * Nc + q];
        rk[k] += s;
      }
    for (int k = 0; k < DIM; k++) R[k * Np + i] = -J * rk[k];
  }
  /* faces: traces interpolated to the cubature points, LLF flux, lifted onto the face nodes */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg    = d->sgeo + (e * Nfaces + f) * INS_SGEO(DIM);
    const double  sJ    = sg[INS_SJ(DIM)] * J;
    const int     type  = d->face_type[e * Nfaces + f];
    const int    *vP    = d->vmapP + (e * Nfaces + f) * Nfp;
    const double *If    = d->If + f * Nfq * Nfp;
    const double *LIFTf = d->LIFTf + f * Nfp * Nfq;
    double        fl[DIM * Nfq];
    for (int q = 0; q < Nfq; q++) {
      double aM[DIM], cM[DIM], aP[DIM], cP[DIM], flq[DIM];
      for (int k = 0; k < DIM; k++) aM[k] = cM[k] = aP[k] = cP[k] = 0;
      for (int n = 0; n < Nfp; n++) {
        const double I = If[q * Nfp + n];
        const int    m = base + d->face_nodes[f * Nfp + n];
        for (int k = 0; k < DIM; k++) aM[k] += I * a[k][m];
        for (int k = 0; k < DIM; k++) cM[k] += I * c[k][m];
        if (type == HOFLOW_FACE_INTERIOR) {
          const int p = vP[n];
          for (int k = 0; k < DIM; k++) aP[k] += I * a[k][p];
          for (int k = 0; k < DIM; k++) cP[k] += I * c[k][p];
        }
      }
      if (type != HOFLOW_FACE_INTERIOR) {
        const int k0 = (e * Nfaces + f) * Nfq + q;
        double    bc[DIM];
        for (int k = 0; k < DIM; k++) bc[k] = bc_scale * d->bcq[k * nbq + k0];
        INSAdvectionExterior(DIM, DIM, type, sg, bc, aM, cM, aP, cP);
      }
      INSAdvectionFlux(DIM, DIM, sg, lambda_scale, aM, cM, aP, cP, flq);
      for (int k = 0; k < DIM; k++) fl[k * Nfq + q] = flq[k];
    }
    for (int n = 0; n < Nfp; n++) {
      double s[DIM];
      for (int k = 0; k < DIM; k++) s[k] = 0;
      for (int q = 0; q < Nfq; q++)
        for (int k = 0; k < DIM; k++) s[k] += LIFTf[n * Nfq + q] * fl[k * Nfq + q];
      for (int k = 0; k < DIM; k++) R[k * Np + d->face_nodes[f * Nfp + n]] += sJ * s[k];
    }
  }
  /* out = (J M)^{-1} R */
  for (int i = 0; i < Np; i++) {
    double o[DIM];
    for (int k = 0; k < DIM; k++) o[k] = 0;
    for (int j = 0; j < Np; j++)
      for (int k = 0; k < DIM; k++) o[k] += d->Minv[i * Np + j] * R[k * Np + j];
    for (int k = 0; k < DIM; k++) out[k][i] = o[k] / J;
  }
}

/* G p on owned element e (INSGradientHost). */
static inline __attribute__((always_inline)) void INSGradientElement(const INSKernelData *d, const int DIM, const int Np, const int Nfp, const int Nfaces, int e, const double *HOFLOW_RESTRICT p, const double *HOFLOW_RESTRICT ptrace, double trace_scale, double bc_scale, double *const g[])
{
  const int     NfNfp = Nfaces * Nfp, base = d->node0 + e * Np;
  const double *G  = d->geo + e * INS_GEO(DIM);
  const double *pD = d->bcn + DIM * d->K * NfNfp;
  double        w[DIM * Nfaces * Nfp];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * INS_SGEO(DIM);
    const double  sj   = sg[INS_SJ(DIM)];
    const int     type = d->face_type[e * Nfaces + f];
    for (int a = 0; a < Nfp; a++) {
      const int    n = f * Nfp + a, m = d->face_nodes[n];
      const double pM   = p[base + m];
      double       jump = 0; /* p* - p^- */
      if (type == HOFLOW_FACE_INTERIOR)
        jump = 0.5 * (p[d->vmapP[e * NfNfp + n]] - pM);
      else if (type == HOFLOW_FACE_NEUMANN)
        jump = bc_scale * pD[e * NfNfp + n] + (ptrace ? trace_scale * ptrace[base + m] : 0.0) - pM;
      for (int x = 0; x < DIM; x++) w[x * NfNfp + n] = sj * sg[x] * jump;
    }
  }
  for (int i = 0; i < Np; i++) {
    double pr[DIM], l[DIM];
    for (int x = 0; x < DIM; x++) pr[x] = l[x] = 0;
    for (int j = 0; j < Np; j++)
      for (int r = 0; r < DIM; r++) pr[r] += d->D[r][i * Np + j] * p[base + j];
    for (int n = 0; n < NfNfp; n++)
      for (int x = 0; x < DIM; x++) l[x] += d->LIFT[i * NfNfp + n] * w[x * NfNfp + n];
    for (int x = 0; x < DIM; x++) {
      double v = G[x * DIM] * pr[0];
      for (int r = 1; r < DIM; r++) v += G[x * DIM + r] * pr[r];
      g[x][i] = v + l[x];
    }
  }
}

/* D u on owned element e (INSDivergenceHost). */
static inline __attribute__((always_inline)) void INSDivergenceElement(const INSKernelData *d, const int DIM, const int Np, const int Nfp, const int Nfaces, int e, const double *const u[], double bc_scale, double *HOFLOW_RESTRICT out)
{
  const int     NfNfp = Nfaces * Nfp, base = d->node0 + e * Np;
  const double *G = d->geo + e * INS_GEO(DIM);
  double        w[Nfaces * Nfp];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * INS_SGEO(DIM);
    const double  sj   = sg[INS_SJ(DIM)];
    const int     type = d->face_type[e * Nfaces + f];
    for (int a = 0; a < Nfp; a++) {
      const int n = f * Nfp + a, m = base + d->face_nodes[n];
      double    jmp[DIM], s; /* u* - u^- */
      for (int x = 0; x < DIM; x++) jmp[x] = 0;
      if (type == HOFLOW_FACE_INTERIOR) {
        const int p = d->vmapP[e * NfNfp + n];
        for (int x = 0; x < DIM; x++) jmp[x] = 0.5 * (u[x][p] - u[x][m]);
      } else if (type == HOFLOW_FACE_DIRICHLET) {
        for (int x = 0; x < DIM; x++) jmp[x] = bc_scale * d->bcn[x * d->K * NfNfp + e * NfNfp + n] - u[x][m];
      }
      s = sg[0] * jmp[0];
      for (int x = 1; x < DIM; x++) s += sg[x] * jmp[x];
      w[n] = sj * s;
    }
  }
  for (int i = 0; i < Np; i++) {
    double ur[DIM * DIM], l = 0, v;
    for (int k = 0; k < DIM * DIM; k++) ur[k] = 0;
    for (int j = 0; j < Np; j++)
      for (int x = 0; x < DIM; x++)
        for (int r = 0; r < DIM; r++) ur[x * DIM + r] += d->D[r][i * Np + j] * u[x][base + j];
    for (int n = 0; n < NfNfp; n++) l += d->LIFT[i * NfNfp + n] * w[n];
    v = G[0] * ur[0];
    for (int k = 1; k < DIM * DIM; k++) v += G[k] * ur[k];
    out[i] = v + l;
  }
}

#endif

/* Face data on owned element e, face f, node a (INSFaceDataHost): x is an owned array. */
HOFLOW_HD double INSFaceDataNode(const INSKernelData *d, int type, int component, double alpha, double beta, const double *HOFLOW_RESTRICT x, int e, int f, int a)
{
  const int NfNfp = d->Nfaces * d->Nfp, ft = d->face_type[e * d->Nfaces + f], n = f * d->Nfp + a;
  if (ft == HOFLOW_FACE_INTERIOR || (type >= 0 && ft != type)) return 0.0;
  return alpha * d->bcn[component * d->K * NfNfp + e * NfNfp + n] + (x ? beta * x[d->node0 + e * d->Np + d->face_nodes[n]] : 0.0);
}
