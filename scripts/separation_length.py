#!/usr/bin/env python3
"""The recirculation length behind a circular cylinder from hoflow's field output (-output_interval):
where the x-velocity on the wake axis y = 0 turns from negative to positive, measured from the rear of
the cylinder (x = radius), in diameters. Reads the last fields file of OUTPUT_DIR (velocity_x at the
output nodes, linear interpolation between them; nodes shared by elements are averaged).
Usage: scripts/separation_length.py OUTPUT_DIR [--radius 0.5] [--xmax 10]"""
import argparse
import glob
import os
import re
import sys

import h5py
import numpy as np
from scipy.interpolate import LinearNDInterpolator


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output_dir")
    ap.add_argument("--radius", type=float, default=0.5)
    ap.add_argument("--xmax", type=float, default=10.0)
    a = ap.parse_args()
    fields = sorted(f for f in glob.glob(os.path.join(a.output_dir, "*_[0-9]*.h5")) if "_mesh_" not in f)
    meshes = sorted(glob.glob(os.path.join(a.output_dir, "*_mesh_*.h5")))
    if not fields or not meshes:
        sys.exit("%s: no field output (run with -output_interval N)" % a.output_dir)
    with h5py.File(fields[-1], "r") as f:
        if "velocity_x" not in f:
            sys.exit("%s has no velocity_x field (physics navier_stokes or euler writes it when the problem asks for it)" % fields[-1])
        u = np.asarray(f["velocity_x"])
    with h5py.File(meshes[-1], "r") as f:
        x = np.asarray(f["geometry"])[:, :2]
    key = np.round(x / 1e-9).astype(np.int64)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.ravel()
    xs = np.zeros((len(uniq), 2))
    us = np.zeros(len(uniq))
    cnt = np.bincount(inv)
    for d in range(2):
        xs[:, d] = np.bincount(inv, weights=x[:, d]) / cnt
    us = np.bincount(inv, weights=u) / cnt
    near = (np.abs(xs[:, 1]) < 2.0) & (xs[:, 0] > -1) & (xs[:, 0] < a.xmax + 1)
    f = LinearNDInterpolator(xs[near], us[near])
    xa = np.linspace(a.radius * 1.001, a.xmax, 20001)
    ua = f(xa, np.zeros_like(xa))
    neg = np.where(ua < 0)[0]
    if len(neg) == 0:
        print("separation_length 0 (no reversed flow on the axis) file %s" % fields[-1])
        return
    i = neg[-1]
    if i + 1 >= len(xa) or np.isnan(ua[i + 1]):
        sys.exit("reversed flow reaches x = %g: raise --xmax" % a.xmax)
    x0 = xa[i] - ua[i] * (xa[i + 1] - xa[i]) / (ua[i + 1] - ua[i])
    print("separation_length %.4f diameters (x = %.4f, reattachment on the axis) file %s" % ((x0 - a.radius) / (2 * a.radius), x0, os.path.basename(fields[-1])))


if __name__ == "__main__":
    main()
