#!/usr/bin/env python3
"""Plot the wall's pressure and skin-friction coefficients from hoflow's -ns_surface_file CSV (x, y, p,
tau_x, tau_y, Cp, Cf at every face point of the no-slip walls).

  python3 scripts/plot_surface.py SURFACE.csv OUT.png [--body airfoil|cylinder] [--title TEXT]

--body airfoil (default): Cp (axis reversed, as usual for airfoils) and Cf against x/c, upper (y > 0)
and lower (y < 0) surfaces. hoflow's Cf is the shear along t = (-n_y, n_x) with n out of the fluid,
which points downstream on the upper surface and upstream on the lower one: the lower surface's sign
is flipped here, so that attached flow has Cf > 0 on both and Cf < 0 marks separated (reversed) flow.
--body cylinder: Cp and Cf of the upper surface against the angle from the front stagnation point
(the cylinder centred at the origin, the flow along +x)."""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("surface")
    ap.add_argument("png")
    ap.add_argument("--body", choices=("airfoil", "cylinder"), default="airfoil")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(a.surface))]
    fig, (axp, axf) = plt.subplots(1, 2, figsize=(10, 4))
    if a.body == "airfoil":
        for name, sign, style in (("upper", 1, dict(ls="-", lw=1.5)), ("lower", -1, dict(ls="none", marker="o", ms=3, mfc="none", markevery=3))):
            side = sorted((r["x"], r["Cp"], sign * r["Cf"]) for r in rows if sign * r["y"] > 0 or (r["y"] == 0 and sign > 0))
            axp.plot([s[0] for s in side], [s[1] for s in side], label=name, **style)
            axf.plot([s[0] for s in side], [s[2] for s in side], label=name, **style)
            # separation: where Cf turns negative for good (downstream of the leading edge's stagnation point)
            after = [s for s in side if s[0] > 0.05]
            neg = [i for i in range(1, len(after)) if after[i][2] < 0 <= after[i - 1][2]]
            sep = 0.5 * (after[neg[-1] - 1][0] + after[neg[-1]][0]) if neg and all(s[2] < 0 for s in after[neg[-1]:]) else None
            cpmin = min(side, key=lambda s: s[1])
            print("%s surface: Cp max %.4f at x = %.4f, Cp min %.4f at x = %.4f, separation (Cf < 0 from there to the trailing edge) %s" % (name, max(s[1] for s in side), max(side, key=lambda s: s[1])[0], cpmin[1], cpmin[0], "x = %.4f" % sep if sep is not None else "none"))
            if sep is not None and sign > 0:
                axf.axvline(sep, color="gray", ls=":", lw=1)
                axf.annotate("separation x/c = %.3f" % sep, (sep, 0), xytext=(-150, 40), textcoords="offset points", arrowprops=dict(arrowstyle="->", color="gray"))
        axp.invert_yaxis()
        for ax in (axp, axf):
            ax.set_xlabel("x / c")
            ax.legend()
    else:
        upper = sorted((math.degrees(math.atan2(r["y"], -r["x"])), r["Cp"], r["Cf"]) for r in rows if r["y"] >= 0)
        axp.plot([u[0] for u in upper], [u[1] for u in upper], "o-", ms=3)
        axf.plot([u[0] for u in upper], [u[2] for u in upper], "o-", ms=3)
        for ax in (axp, axf):
            ax.set_xlabel("angle from the front stagnation point (deg)")
    axp.set_ylabel("Cp")
    axf.set_ylabel("Cf")
    axf.axhline(0, color="k", lw=0.6)
    for ax in (axp, axf):
        ax.grid(True)
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    fig.savefig(a.png, dpi=100)


if __name__ == "__main__":
    main()
