/* Element routines of the incompressible flow operators (INSKernelData, hoflow/kernels/ins.h), for
 * the host kernels (src/kernels/ins.c); the CUDA kernels (cuda/ins.cu) share the pointwise physics
 * (hoflow/pointwise/ins.h) and the face data. 2D: velocity (u, v). PETSc-free. */
#pragma once

#include <hoflow/kernels/ins.h>
#include <hoflow/pointwise/ins.h>

#if !defined(__CUDACC__)
/* Host-only element routines (the CUDA kernels stage the same steps in shared memory). */

/* Advection on owned element e (INSAdvectionHost). Arrays au..c1 are local. */
static inline __attribute__((always_inline)) void INSAdvectionElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, const int Nc, const int Nfq, int e, const double *HOFLOW_RESTRICT au, const double *HOFLOW_RESTRICT av, const double *HOFLOW_RESTRICT c0, const double *HOFLOW_RESTRICT c1, double lambda_scale, double bc_scale, double *HOFLOW_RESTRICT out0, double *HOFLOW_RESTRICT out1)
{
  const int     base = d->node0 + e * Np;
  const double *g    = d->geo + e * INS_GEO;
  const double  rx = g[INS_RX], sx = g[INS_SX], ry = g[INS_RY], sy = g[INS_SY], J = g[INS_J];
  const int     nbq = d->K * Nfaces * Nfq;
  double        Fr0[Nc], Fs0[Nc], Fr1[Nc], Fs1[Nc]; /* sized by the instantiation's constants */
  double        R0[Np], R1[Np];

  /* volume: fluxes at the cubature points in contravariant form, F_r = rx F_x + ry F_y, F_s = sx F_x + sy F_y */
  for (int q = 0; q < Nc; q++) {
    double a = 0, b = 0, w0 = 0, w1 = 0;
    for (int j = 0; j < Np; j++) {
      const double I = d->Ic[q * Np + j];
      a += I * au[base + j];
      b += I * av[base + j];
      w0 += I * c0[base + j];
      w1 += I * c1[base + j];
    }
    Fr0[q] = (rx * a + ry * b) * w0;
    Fs0[q] = (sx * a + sy * b) * w0;
    Fr1[q] = (rx * a + ry * b) * w1;
    Fs1[q] = (sx * a + sy * b) * w1;
  }
  for (int i = 0; i < Np; i++) {
    double r0 = 0, r1 = 0;
    for (int q = 0; q < Nc; q++) {
      r0 += d->DW[0][i * Nc + q] * Fr0[q] + d->DW[1][i * Nc + q] * Fs0[q];
      r1 += d->DW[0][i * Nc + q] * Fr1[q] + d->DW[1][i * Nc + q] * Fs1[q];
    }
    R0[i] = -J * r0;
    R1[i] = -J * r1;
  }
  /* faces: traces interpolated to the Gauss points, LLF flux, lifted onto the face nodes */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg   = d->sgeo + (e * Nfaces + f) * INS_SGEO;
    const double  sJ   = sg[INS_SJ] * J;
    const int     type = d->face_type[e * Nfaces + f];
    const int    *vP   = d->vmapP + (e * Nfaces + f) * Nfp;
    double        fl0[Nfq], fl1[Nfq];
    for (int q = 0; q < Nfq; q++) {
      double aM[2] = {0, 0}, cM[2] = {0, 0}, aP[2] = {0, 0}, cP[2] = {0, 0}, fl[2];
      for (int a = 0; a < Nfp; a++) {
        const double I = d->If[q * Nfp + a];
        const int    m = base + d->face_nodes[f * Nfp + a];
        aM[0] += I * au[m];
        aM[1] += I * av[m];
        cM[0] += I * c0[m];
        cM[1] += I * c1[m];
        if (type == HOFLOW_FACE_INTERIOR) {
          const int p = vP[a];
          aP[0] += I * au[p];
          aP[1] += I * av[p];
          cP[0] += I * c0[p];
          cP[1] += I * c1[p];
        }
      }
      if (type != HOFLOW_FACE_INTERIOR) {
        const int    k     = (e * Nfaces + f) * Nfq + q;
        const double bc[2] = {bc_scale * d->bcq[k], bc_scale * d->bcq[nbq + k]};
        INSAdvectionExterior(2, 2, type, sg, bc, aM, cM, aP, cP);
      }
      INSAdvectionFlux(2, 2, sg, lambda_scale, aM, cM, aP, cP, fl);
      fl0[q] = fl[0];
      fl1[q] = fl[1];
    }
    for (int a = 0; a < Nfp; a++) {
      double s0 = 0, s1 = 0;
      for (int q = 0; q < Nfq; q++) {
        s0 += d->LIFTf[a * Nfq + q] * fl0[q];
        s1 += d->LIFTf[a * Nfq + q] * fl1[q];
      }
      R0[d->face_nodes[f * Nfp + a]] += sJ * s0;
      R1[d->face_nodes[f * Nfp + a]] += sJ * s1;
    }
  }
  /* out = (J M)^{-1} R */
  for (int i = 0; i < Np; i++) {
    double a = 0, b = 0;
    for (int j = 0; j < Np; j++) {
      a += d->Minv[i * Np + j] * R0[j];
      b += d->Minv[i * Np + j] * R1[j];
    }
    out0[i] = a / J;
    out1[i] = b / J;
  }
}

/* G p on owned element e (INSGradientHost). */
static inline __attribute__((always_inline)) void INSGradientElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, const double *HOFLOW_RESTRICT p, const double *HOFLOW_RESTRICT ptrace, double trace_scale, double bc_scale, double *HOFLOW_RESTRICT gx, double *HOFLOW_RESTRICT gy)
{
  const int     NfNfp = Nfaces * Nfp, base = d->node0 + e * Np;
  const double *g  = d->geo + e * INS_GEO;
  const double  rx = g[INS_RX], sx = g[INS_SX], ry = g[INS_RY], sy = g[INS_SY];
  const double *pD = d->bcn + 2 * d->K * NfNfp;
  double        wx[Nfaces * Nfp], wy[Nfaces * Nfp];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * INS_SGEO;
    const double  nx = sg[0], ny = sg[1], sj = sg[INS_SJ];
    const int     type = d->face_type[e * Nfaces + f];
    for (int a = 0; a < Nfp; a++) {
      const int    n = f * Nfp + a, m = d->face_nodes[n];
      const double pM   = p[base + m];
      double       jump = 0; /* p* - p^- */
      if (type == HOFLOW_FACE_INTERIOR)
        jump = 0.5 * (p[d->vmapP[e * NfNfp + n]] - pM);
      else if (type == HOFLOW_FACE_NEUMANN)
        jump = bc_scale * pD[e * NfNfp + n] + (ptrace ? trace_scale * ptrace[base + m] : 0.0) - pM;
      wx[n] = sj * nx * jump;
      wy[n] = sj * ny * jump;
    }
  }
  for (int i = 0; i < Np; i++) {
    double pr = 0, ps = 0, lx = 0, ly = 0;
    for (int j = 0; j < Np; j++) {
      pr += d->D[0][i * Np + j] * p[base + j];
      ps += d->D[1][i * Np + j] * p[base + j];
    }
    for (int n = 0; n < NfNfp; n++) {
      lx += d->LIFT[i * NfNfp + n] * wx[n];
      ly += d->LIFT[i * NfNfp + n] * wy[n];
    }
    gx[i] = rx * pr + sx * ps + lx;
    gy[i] = ry * pr + sy * ps + ly;
  }
}

/* D u on owned element e (INSDivergenceHost). */
static inline __attribute__((always_inline)) void INSDivergenceElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT v, double bc_scale, double *HOFLOW_RESTRICT out)
{
  const int     NfNfp = Nfaces * Nfp, base = d->node0 + e * Np;
  const double *g  = d->geo + e * INS_GEO;
  const double  rx = g[INS_RX], sx = g[INS_SX], ry = g[INS_RY], sy = g[INS_SY];
  const double *gu = d->bcn, *gv = d->bcn + d->K * NfNfp;
  double        w[Nfaces * Nfp];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * INS_SGEO;
    const double  nx = sg[0], ny = sg[1], sj = sg[INS_SJ];
    const int     type = d->face_type[e * Nfaces + f];
    for (int a = 0; a < Nfp; a++) {
      const int n = f * Nfp + a, m = base + d->face_nodes[n];
      double    ju = 0, jv = 0; /* u* - u^- */
      if (type == HOFLOW_FACE_INTERIOR) {
        const int p = d->vmapP[e * NfNfp + n];
        ju          = 0.5 * (u[p] - u[m]);
        jv          = 0.5 * (v[p] - v[m]);
      } else if (type == HOFLOW_FACE_DIRICHLET) {
        ju = bc_scale * gu[e * NfNfp + n] - u[m];
        jv = bc_scale * gv[e * NfNfp + n] - v[m];
      }
      w[n] = sj * (nx * ju + ny * jv);
    }
  }
  for (int i = 0; i < Np; i++) {
    double ur = 0, us = 0, vr = 0, vs = 0, l = 0;
    for (int j = 0; j < Np; j++) {
      ur += d->D[0][i * Np + j] * u[base + j];
      us += d->D[1][i * Np + j] * u[base + j];
      vr += d->D[0][i * Np + j] * v[base + j];
      vs += d->D[1][i * Np + j] * v[base + j];
    }
    for (int n = 0; n < NfNfp; n++) l += d->LIFT[i * NfNfp + n] * w[n];
    out[i] = rx * ur + sx * us + ry * vr + sy * vs + l;
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
