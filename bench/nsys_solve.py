#!/usr/bin/env python3
"""Where a GPU's time goes inside one NVTX range of an Nsight Systems profile (sqlite export of `nsys profile`;
PETSc opens an NVTX range for every logged event when it runs under nsys). For the last range named RANGE
(default KSPSolve): its length, the GPU's busy time (the union of kernels, copies and memsets), the idle time,
the kernels by total time, the peer-to-peer halo kernels' time (their waits for the neighbour included), and
the idle gaps by length and by the kernel pair around them.
Usage: bench/nsys_solve.py PROFILE.sqlite [RANGE]"""
import sqlite3
import sys
from collections import defaultdict


def main():
    db = sqlite3.connect(sys.argv[1])
    want = sys.argv[2] if len(sys.argv) > 2 else "KSPSolve"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    strings = dict(db.execute("SELECT id, value FROM StringIds")) if "StringIds" in tables else {}
    cols = [r[1] for r in db.execute("PRAGMA table_info(NVTX_EVENTS)")]
    text = "COALESCE(text, (SELECT value FROM StringIds WHERE id = textId))" if "textId" in cols else "text"
    ranges = db.execute("SELECT start, end FROM NVTX_EVENTS WHERE %s = ? AND end IS NOT NULL ORDER BY start" % text, (want,)).fetchall()
    if not ranges:
        print("%s: no NVTX range %s" % (sys.argv[1], want))
        return
    t0, t1 = ranges[-1]
    ivals = []  # (start, end, name)
    for r in db.execute("SELECT start, end, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end > ? AND start < ?", (t0, t1)):
        ivals.append((max(r[0], t0), min(r[1], t1), strings.get(r[2], str(r[2]))))
    for tab, label in (("CUPTI_ACTIVITY_KIND_MEMCPY", "[memcpy]"), ("CUPTI_ACTIVITY_KIND_MEMSET", "[memset]")):
        if tab in tables:
            for r in db.execute("SELECT start, end FROM %s WHERE end > ? AND start < ?" % tab, (t0, t1)):
                ivals.append((max(r[0], t0), min(r[1], t1), label))
    ivals.sort()
    busy, gaps, end, prev = 0, [], t0, "[range start]"
    for s, e, n in ivals:
        if s > end:
            gaps.append((s - end, prev, n))
        if e > end:
            busy += e - max(s, end)
            end, prev = e, n
    if t1 > end:
        gaps.append((t1 - end, prev, "[range end]"))
    L = t1 - t0
    print("%s: range %s (%d of them): %.3f ms, GPU busy %.3f ms (%.1f %%), idle %.3f ms; %d kernels/copies" % (sys.argv[1], want, len(ranges), L / 1e6, busy / 1e6, 100.0 * busy / L, (L - busy) / 1e6, len(ivals)))
    tot, cnt = defaultdict(int), defaultdict(int)
    for s, e, n in ivals:
        tot[n] += e - s
        cnt[n] += 1
    print("  kernels by time (ms, count, us each):")
    for n, t in sorted(tot.items(), key=lambda x: -x[1])[:25]:
        print("    %9.3f %6d %8.1f  %s" % (t / 1e6, cnt[n], t / 1e3 / cnt[n], n[:90]))
    halo = sum(t for n, t in tot.items() if "HaloIPC" in n)
    print("  peer-to-peer halo kernels (waits included): %.3f ms" % (halo / 1e6))
    bins = [(0, 2e3), (2e3, 5e3), (5e3, 10e3), (10e3, 20e3), (20e3, 50e3), (50e3, 100e3), (100e3, 1e12)]
    print("  idle gaps by length (us): " + "; ".join("%g-%s: %d, %.3f ms" % (a / 1e3, "%g" % (b / 1e3) if b < 1e12 else "", sum(1 for g in gaps if a <= g[0] < b), sum(g[0] for g in gaps if a <= g[0] < b) / 1e6) for a, b in bins))
    pairs = defaultdict(lambda: [0, 0])
    for g, a, b in gaps:
        if g >= 5e3:
            pairs[(a[:45], b[:45])][0] += g
            pairs[(a[:45], b[:45])][1] += 1
    print("  gaps of 5 us or more by the kernels around them (ms, count):")
    for (a, b), (g, c) in sorted(pairs.items(), key=lambda x: -x[1][0])[:15]:
        print("    %8.3f %5d  %s -> %s" % (g / 1e6, c, a, b))


if __name__ == "__main__":
    main()
