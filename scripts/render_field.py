"""Render one field of a hoflow XDMF series to a PNG with ParaView, and print what ParaView read.

Run with ParaView's Python (Debian package `paraview`; under `xvfb-run -a` on a machine without a
display):

    xvfb-run -a pvbatch scripts/render_field.py output/heat/heat.xmf --field u --out heat_u.png

It prints one line per time step, `pvread: step K time T cells C points P <field> MIN MAX`, for the
timestep it renders (the last by default, `--time` picks another; `--all` reports every one), and
writes the PNG with a colour bar and the time in the title. `--edges` overlays the sub-cell edges,
`--range lo,hi` fixes the colour range and `--view x0,x1,y0,y1` the region shown.
"""
import argparse
import os
import sys

from paraview import simple as pv


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("xdmf", help="XDMF file written by hoflow (-output_interval)")
    ap.add_argument("--field", default="u", help="point field to colour by")
    ap.add_argument("--out", help="PNG to write (none: only report)")
    ap.add_argument("--time", type=float, help="time to render (default: the last)")
    ap.add_argument("--all", action="store_true", help="report every time step")
    ap.add_argument("--size", default="900,800", help="image width,height in pixels")
    ap.add_argument("--edges", action="store_true", help="show the sub-cell edges")
    ap.add_argument("--title", default=None, help="title (default: field and time)")
    ap.add_argument("--range", help="colour range lo,hi (default: the field's range)")
    ap.add_argument("--view", help="region to show x0,x1,y0,y1 (default: the whole domain)")
    opts = ap.parse_args()

    reader = pv.XDMFReader(FileNames=[opts.xdmf])
    reader.UpdatePipelineInformation()
    times = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    if isinstance(reader.TimestepValues, float):
        times = [reader.TimestepValues]
    print("pvread: timesteps %d" % len(times))
    fields = reader.PointData.keys()
    if opts.field not in fields:
        print("render_field: no point field %r in %s (it has: %s)" % (opts.field, opts.xdmf, ", ".join(fields)), file=sys.stderr)
        return 2
    report = range(len(times)) if opts.all else []
    for k in report:
        reader.UpdatePipeline(times[k])
        info = reader.GetDataInformation()
        lo, hi = reader.PointData[opts.field].GetRange()
        print("pvread: step %d time %.17g cells %d points %d %s %.17g %.17g" % (k, times[k], info.GetNumberOfCells(), info.GetNumberOfPoints(), opts.field, lo, hi))
    t = opts.time if opts.time is not None else times[-1]
    reader.UpdatePipeline(t)
    info = reader.GetDataInformation()
    lo, hi = reader.PointData[opts.field].GetRange()
    print("pvread: render time %.17g cells %d points %d %s %.17g %.17g" % (t, info.GetNumberOfCells(), info.GetNumberOfPoints(), opts.field, lo, hi))
    if not opts.out:
        return 0

    width, height = (int(v) for v in opts.size.split(","))
    view = pv.CreateView("RenderView")
    view.ViewSize = [width, height]
    view.ViewTime = t
    view.OrientationAxesVisibility = 0
    view.Background = [1, 1, 1]
    try:  # ParaView >= 5.10 uses a palette unless told otherwise
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    display = pv.Show(reader, view)
    display.Representation = "Surface With Edges" if opts.edges else "Surface"
    pv.ColorBy(display, ("POINTS", opts.field))
    lut = pv.GetColorTransferFunction(opts.field)
    lut.ApplyPreset("Cool to Warm", True)
    if opts.range:
        lo, hi = (float(v) for v in opts.range.split(","))
    lut.RescaleTransferFunction(lo, hi)
    display.SetScalarBarVisibility(view, True)
    bar = pv.GetScalarBar(lut, view)
    bar.Title = opts.field
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]
    title = pv.Text(Text=opts.title or "%s at t = %.4g" % (opts.field, t))
    tdisp = pv.Show(title, view)
    tdisp.Color = [0, 0, 0]
    tdisp.WindowLocation = "Upper Center"
    # look straight down on the x-y plane, the domain (or --view) filling the view; the first render
    # resets the camera, so render once before placing it
    pv.Render(view)
    b = [float(v) for v in opts.view.split(",")] if opts.view else info.GetBounds()
    cx, cy = 0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3])
    view.InteractionMode = "2D"
    view.CameraParallelProjection = 1
    view.CameraFocalPoint = [cx, cy, 0]
    view.CameraPosition = [cx, cy, 10]
    view.CameraViewUp = [0, 1, 0]
    view.CameraParallelScale = 0.56 * max(b[3] - b[2], (b[1] - b[0]) * height / width)
    pv.Render(view)
    pv.SaveScreenshot(opts.out, view, ImageResolution=[width, height])
    print("pvread: wrote %s" % opts.out)
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # ParaView 5.11 under Xvfb fails tearing down its GLX context (X_GLXMakeCurrent) after the
    # image is written; leave without that teardown so the exit code reports the rendering.
    os._exit(code)
