#!/usr/bin/env python3
"""Image of the element means written by hoflow's -euler_means_file (2D runs).

The file holds float32 records (x, y, density, pressure) per element, big-endian, no header. The means
are binned onto a uniform pixel grid (the average of the elements whose centroid falls in a pixel; empty
pixels take their nearest filled neighbour along x) and drawn with contour lines, as seed 002 Fig. 9.

  python3 bench/render_means.py dmr.bin --out docs/images/double_mach_density_1M.png \
      --view 0,3,0,1 --pixels 1800,600 --levels 30 --title "..."
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--out", required=True)
    ap.add_argument("--field", choices=("density", "pressure"), default="density")
    ap.add_argument("--view", default="0,3,0,1", help="x0,x1,y0,y1")
    ap.add_argument("--pixels", default="1800,600", help="nx,ny")
    ap.add_argument("--levels", type=int, default=30, help="contour lines (0: none)")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rec = np.fromfile(a.file, dtype=">f4").reshape(-1, 4).astype(np.float64)
    x, y, v = rec[:, 0], rec[:, 1], rec[:, 2 if a.field == "density" else 3]
    x0, x1, y0, y1 = (float(s) for s in a.view.split(","))
    nx, ny = (int(s) for s in a.pixels.split(","))
    keep = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    s, _, _ = np.histogram2d(y[keep], x[keep], bins=(ny, nx), range=((y0, y1), (x0, x1)), weights=v[keep])
    c, _, _ = np.histogram2d(y[keep], x[keep], bins=(ny, nx), range=((y0, y1), (x0, x1)))
    img = np.where(c > 0, s / np.maximum(c, 1), np.nan)
    for row in img:  # fill empty pixels from the nearest filled one in the row
        ok = ~np.isnan(row)
        if ok.any() and not ok.all():
            idx = np.arange(row.size)
            row[~ok] = np.interp(idx[~ok], idx[ok], row[ok])
    print(f"render_means: {len(x)} elements, {a.field} in [{v.min():.4g}, {v.max():.4g}], "
          f"{int((c == 0).sum())} of {nx * ny} pixels empty before filling")
    fig, ax = plt.subplots(figsize=(12, 12 * (y1 - y0) / (x1 - x0) + 1.0))
    im = ax.imshow(img, origin="lower", extent=(x0, x1, y0, y1), cmap="viridis", aspect="equal")
    if a.levels:
        xs, ys = np.linspace(x0, x1, nx), np.linspace(y0, y1, ny)
        ax.contour(xs, ys, img, levels=np.linspace(np.nanmin(img), np.nanmax(img), a.levels), colors="k", linewidths=0.3)
    fig.colorbar(im, ax=ax, shrink=0.8, label=a.field)
    ax.set_title(a.title or f"{a.field}, {len(x)} elements")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)


if __name__ == "__main__":
    main()
