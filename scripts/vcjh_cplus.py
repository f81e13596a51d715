#!/usr/bin/env python3
"""c_+ of the VCJH flux-reconstruction schemes (Vincent, Castonguay & Jameson 2011): the correction
parameter c that allows the largest explicit time step, here for the classical 4-stage RK (RK44) and
1D linear advection u_t + u_x = 0 with the upwind flux, Gauss-Legendre solution points.

Bloch-wave analysis: on elements of width 2 the semi-discrete operator of element j is
    du_j/dt = -D u_j + g_L' (l_L . u_j - exp(-i theta) l_R . u_j)            (theta in [0, 2 pi))
(the right face's correction vanishes for the upwind flux). The stable step dt(c) is the largest
dt with dt*lambda in RK44's stability region for every eigenvalue lambda of every theta; c_+ maximizes
dt(c) (golden-section search in log c). Prints the table that src/ref/vcjh.c holds (VCJHCPlus)."""
import math
import numpy as np
from numpy.polynomial import legendre as L


def leg(k):
    c = np.zeros(k + 1)
    c[k] = 1
    return L.Legendre(c)


def operator_blocks(N, c):
    x, _ = L.leggauss(N + 1)
    aN = math.factorial(2 * N) / (2 ** N * math.factorial(N) ** 2)
    eta = c * (2 * N + 1) * (aN * math.factorial(N)) ** 2 / 2
    gL = (-1) ** N / 2 * (leg(N) - (eta * leg(N - 1) + leg(N + 1)) / (1 + eta))
    n = N + 1
    D = np.zeros((n, n))
    lL, lR = np.zeros(n), np.zeros(n)
    for j in range(n):  # Lagrange polynomial j at the Gauss points
        others = np.delete(x, j)
        lj = np.poly1d(np.poly(others) / np.prod(x[j] - others))
        D[:, j] = lj.deriv()(x)
        lL[j], lR[j] = lj(-1), lj(1)
    return -D + np.outer(gL.deriv()(x), lL), -np.outer(gL.deriv()(x), lR)


def rk44_ok(z):
    return abs(1 + z + z * z / 2 + z ** 3 / 6 + z ** 4 / 24) <= 1 + 1e-12


def max_dt(N, c, nth=256):
    A0, A1 = operator_blocks(N, c)
    lams = np.concatenate([np.linalg.eigvals(A0 + np.exp(-1j * t) * A1) for t in np.linspace(0, 2 * np.pi, nth, endpoint=False)])
    dt = 10.0
    for lam in lams:
        if abs(lam) < 1e-12:
            continue
        lo, hi = 0.0, dt  # the first exit of the ray r*lam from the region (star-shaped in practice)
        if rk44_ok(hi * lam):
            continue
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if rk44_ok(mid * lam):
                lo = mid
            else:
                hi = mid
        dt = lo
    return dt


def cplus(N):
    # scan log c, then golden-section refinement around the best
    cs = np.logspace(-12, 1, 131)
    dts = [max_dt(N, c) for c in cs]
    k = int(np.argmax(dts))
    a, b = math.log(cs[max(k - 1, 0)]), math.log(cs[min(k + 1, len(cs) - 1)])
    g = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        c1, c2 = b - g * (b - a), a + g * (b - a)
        if max_dt(N, math.exp(c1)) > max_dt(N, math.exp(c2)):
            b = c2
        else:
            a = c1
    c = math.exp(0.5 * (a + b))
    return c, max_dt(N, c), max_dt(N, 0.0)


if __name__ == "__main__":
    for N in range(1, 7):
        c, dt, dt0 = cplus(N)
        print("N %d c_plus %.4e dt %.4f (c_DG: %.4f, ratio %.3f)" % (N, c, dt, dt0, dt / dt0), flush=True)
