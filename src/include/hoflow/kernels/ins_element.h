/* Element routines of the incompressible flow operators (INSKernelData, hoflow/kernels.h), shared by
 * the host kernels (src/op/ins_kernels.c) and the CUDA kernels (cuda/ins.cu). PETSc-free. */
#pragma once

#include <math.h>
#include <hoflow/kernels/element.h>

/* The exterior state of the advection at a boundary face Gauss point with outward normal n: the
 * velocity data (bu, bv) on Dirichlet faces; on outflow faces the interior state where the flow
 * leaves (n.a^- >= 0) and the data where it enters (backflow: with the interior state there the
 * flux would carry the interior's own value in, and the transport gains energy, which makes the
 * subcycled advection unstable). */
HOFLOW_HD void INSAdvectionExterior(int type, double nx, double ny, double bu, double bv, double *aP, double *bP, double *c0P, double *c1P, double aM, double bM, double c0M, double c1M)
{
  if (type == HOFLOW_FACE_DIRICHLET || (type == HOFLOW_FACE_NEUMANN && nx * aM + ny * bM < 0)) {
    *aP = bu, *bP = bv, *c0P = bu, *c1P = bv;
  } else if (type == HOFLOW_FACE_NEUMANN) {
    *aP = aM, *bP = bM, *c0P = c0M, *c1P = c1M;
  }
}

/* Local Lax–Friedrichs flux n.F* of the two components at a face point (kernels.h). */
HOFLOW_HD void INSAdvectionFlux(double nx, double ny, double lambda_scale, double aM, double bM, double c0M, double c1M, double aP, double bP, double c0P, double c1P, double *f0, double *f1)
{
  const double unM = nx * aM + ny * bM, unP = nx * aP + ny * bP;
  const double L = lambda_scale * fmax(fabs(unM), fabs(unP));
  *f0            = 0.5 * (unM * c0M + unP * c0P) + 0.5 * L * (c0M - c0P);
  *f1            = 0.5 * (unM * c1M + unP * c1P) + 0.5 * L * (c1M - c1P);
}

/* Advection on owned element e (INSAdvectionHost). Arrays au..c1 are local [Klocal*Np]. */
HOFLOW_HD void INSAdvectionElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, const int Nc, const int Nfq, int e, const double *HOFLOW_RESTRICT au, const double *HOFLOW_RESTRICT av, const double *HOFLOW_RESTRICT c0, const double *HOFLOW_RESTRICT c1, double lambda_scale, double bc_scale, double *HOFLOW_RESTRICT out0, double *HOFLOW_RESTRICT out1)
{
  const int     cell = d->elem_cell[e], base = cell * Np;
  const double *g  = d->geo + cell * HOFLOW_GEO_SIZE;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY], J = g[HOFLOW_GEO_J];
  const int     nbq = d->K * Nfaces * Nfq;
  double        Fr0[HOFLOW_NCUB_MAX], Fs0[HOFLOW_NCUB_MAX], Fr1[HOFLOW_NCUB_MAX], Fs1[HOFLOW_NCUB_MAX];
  double        R0[HOFLOW_NP_MAX], R1[HOFLOW_NP_MAX];

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
      r0 += d->DrW[i * Nc + q] * Fr0[q] + d->DsW[i * Nc + q] * Fs0[q];
      r1 += d->DrW[i * Nc + q] * Fr1[q] + d->DsW[i * Nc + q] * Fs1[q];
    }
    R0[i] = -J * r0;
    R1[i] = -J * r1;
  }
  /* faces: traces interpolated to the Gauss points, LLF flux, lifted onto the face nodes */
  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sJ = sg[HOFLOW_SGEO_SJ_OVER_J] * J;
    const int     type = d->face_type[e * Nfaces + f];
    const int    *vP   = d->vmapP + (e * Nfaces + f) * Nfp;
    double        fl0[HOFLOW_NFQ_MAX], fl1[HOFLOW_NFQ_MAX];
    for (int q = 0; q < Nfq; q++) {
      double aM = 0, bM = 0, c0M = 0, c1M = 0, aP = 0, bP = 0, c0P = 0, c1P = 0;
      for (int a = 0; a < Nfp; a++) {
        const double I = d->If[q * Nfp + a];
        const int    m = base + d->face_nodes[f * Nfp + a];
        aM += I * au[m];
        bM += I * av[m];
        c0M += I * c0[m];
        c1M += I * c1[m];
        if (type == HOFLOW_FACE_INTERIOR) {
          const int p = vP[a];
          aP += I * au[p];
          bP += I * av[p];
          c0P += I * c0[p];
          c1P += I * c1[p];
        }
      }
      if (type != HOFLOW_FACE_INTERIOR) {
        const int k = (e * Nfaces + f) * Nfq + q;
        INSAdvectionExterior(type, nx, ny, bc_scale * d->bcq[k], bc_scale * d->bcq[nbq + k], &aP, &bP, &c0P, &c1P, aM, bM, c0M, c1M);
      }
      INSAdvectionFlux(nx, ny, lambda_scale, aM, bM, c0M, c1M, aP, bP, c0P, c1P, &fl0[q], &fl1[q]);
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
HOFLOW_HD void INSGradientElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, const double *HOFLOW_RESTRICT p, const double *HOFLOW_RESTRICT ptrace, double trace_scale, double bc_scale, double *HOFLOW_RESTRICT gx, double *HOFLOW_RESTRICT gy)
{
  const int     NfNfp = Nfaces * Nfp, cell = d->elem_cell[e], base = cell * Np;
  const double *g  = d->geo + cell * HOFLOW_GEO_SIZE;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY];
  const double *pD = d->bcn + 2 * d->K * NfNfp;
  double        wx[HOFLOW_NFACE_NODE_MAX], wy[HOFLOW_NFACE_NODE_MAX];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
    const int     type = d->face_type[e * Nfaces + f];
    for (int a = 0; a < Nfp; a++) {
      const int    n = f * Nfp + a, m = d->face_nodes[n];
      const double pM   = p[base + m];
      double       jump = 0; /* p* - p^- */
      if (type == HOFLOW_FACE_INTERIOR)
        jump = 0.5 * (p[d->vmapP[e * NfNfp + n]] - pM);
      else if (type == HOFLOW_FACE_NEUMANN)
        jump = bc_scale * pD[e * NfNfp + n] + (ptrace ? trace_scale * ptrace[e * Np + m] : 0.0) - pM;
      wx[n] = sj * nx * jump;
      wy[n] = sj * ny * jump;
    }
  }
  for (int i = 0; i < Np; i++) {
    double pr = 0, ps = 0, lx = 0, ly = 0;
    for (int j = 0; j < Np; j++) {
      pr += d->Dr[i * Np + j] * p[base + j];
      ps += d->Ds[i * Np + j] * p[base + j];
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
HOFLOW_HD void INSDivergenceElement(const INSKernelData *d, const int Np, const int Nfp, const int Nfaces, int e, const double *HOFLOW_RESTRICT u, const double *HOFLOW_RESTRICT v, double bc_scale, double *HOFLOW_RESTRICT out)
{
  const int     NfNfp = Nfaces * Nfp, cell = d->elem_cell[e], base = cell * Np;
  const double *g  = d->geo + cell * HOFLOW_GEO_SIZE;
  const double  rx = g[HOFLOW_GEO_RX], sx = g[HOFLOW_GEO_SX], ry = g[HOFLOW_GEO_RY], sy = g[HOFLOW_GEO_SY];
  const double *gu = d->bcn, *gv = d->bcn + d->K * NfNfp;
  double        w[HOFLOW_NFACE_NODE_MAX];

  for (int f = 0; f < Nfaces; f++) {
    const double *sg = d->sgeo + (e * Nfaces + f) * HOFLOW_SGEO_SIZE;
    const double  nx = sg[HOFLOW_SGEO_NX], ny = sg[HOFLOW_SGEO_NY], sj = sg[HOFLOW_SGEO_SJ_OVER_J];
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
      ur += d->Dr[i * Np + j] * u[base + j];
      us += d->Ds[i * Np + j] * u[base + j];
      vr += d->Dr[i * Np + j] * v[base + j];
      vs += d->Ds[i * Np + j] * v[base + j];
    }
    for (int n = 0; n < NfNfp; n++) l += d->LIFT[i * NfNfp + n] * w[n];
    out[i] = rx * ur + sx * us + ry * vr + sy * vs + l;
  }
}

/* Face data on owned element e, face f, node a (INSFaceDataHost). */
HOFLOW_HD double INSFaceDataNode(const INSKernelData *d, int type, int component, double alpha, double beta, const double *HOFLOW_RESTRICT x, int e, int f, int a)
{
  const int NfNfp = d->Nfaces * d->Nfp, ft = d->face_type[e * d->Nfaces + f], n = f * d->Nfp + a;
  if (ft == HOFLOW_FACE_INTERIOR || (type >= 0 && ft != type)) return 0.0;
  return alpha * d->bcn[component * d->K * NfNfp + e * NfNfp + n] + (x ? beta * x[e * d->Np + d->face_nodes[n]] : 0.0);
}
