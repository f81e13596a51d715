/* Closed forms of problem data that kernels evaluate themselves, on the host and on the device: the
 * right-hand side and the L2 error of a solve at 19.3 M DOFs evaluate 32 M cubature points, which took
 * 1-1.6 s each on the GPU host through the per-point PointFunction (issue 13). A problem gives the
 * closed form of its exact solution and forcing (hoflow/problem.h); the DG layer takes it when a
 * PointFunction has one (PointFunctionGetClosedForm, hoflow/disc.h), else calls the function. */
#pragma once

#include <math.h>
#include <hoflow/kernels/common.h>

typedef enum {
  HOFLOW_CLOSED_FORM_NONE = 0,
  /* the manufactured solution of problems/elliptic.c: u = sin(k0 x + p0) cos(k1 y + p1) [cos(k2 z + p2) in 3D];
   * its forcing -Laplace u + lambda u = (k0^2 + k1^2 [+ k2^2] + lambda) u */
  HOFLOW_CLOSED_FORM_SINCOS = 1
} HoflowClosedFormKind;

typedef struct {
  int    kind;    /* HoflowClosedFormKind */
  int    dim;     /* of the points it is evaluated at (set where it is taken, from the PointFunction's context) */
  int    forcing; /* 1: -Laplace u + lambda u, 0: u */
  double k[3], p[3], lambda;
} HoflowClosedForm;

HOFLOW_HD double HoflowClosedFormValue(const HoflowClosedForm *cf, const double x[])
{
  double u = 0, factor = 1;
  switch (cf->kind) {
  case HOFLOW_CLOSED_FORM_SINCOS:
    u = sin(cf->k[0] * x[0] + cf->p[0]) * cos(cf->k[1] * x[1] + cf->p[1]) * (cf->dim == 3 ? cos(cf->k[2] * x[2] + cf->p[2]) : 1.0);
    if (cf->forcing) factor = cf->k[0] * cf->k[0] + cf->k[1] * cf->k[1] + (cf->dim == 3 ? cf->k[2] * cf->k[2] : 0.0) + cf->lambda;
    break;
  default:
    break;
  }
  return factor * u;
}
