/* Pointwise physics of the elliptic operator -Laplace u + lambda u: the exterior states at a face
 * point by boundary type (seed 000 §2.1, mirror states). Shared by every discretization's host and
 * CUDA kernels. */
#pragma once

#include <hoflow/kernels/common.h>

/* Jumps [[u]] = u+ - u- and n.[[grad u]] at a face point. Interior faces take the neighbour's traces
 * (uP, gnP); boundary faces the mirror states: Dirichlet u+ = 2g - u-, grad u+ = grad u-; Neumann
 * u+ = u-, n.grad u+ = 2h - n.grad u- (bcv holds g or h). */
HOFLOW_HD void EllipticFaceJumps(int type, double uM, double gnM, double uP, double gnP, double bcv, double *ju, double *jg)
{
  if (type == HOFLOW_FACE_INTERIOR) {
    *ju = uP - uM;
    *jg = gnP - gnM;
  } else if (type == HOFLOW_FACE_DIRICHLET) {
    *ju = 2.0 * (bcv - uM);
    *jg = 0.0;
  } else {
    *ju = 0.0;
    *jg = 2.0 * (bcv - gnM);
  }
}
