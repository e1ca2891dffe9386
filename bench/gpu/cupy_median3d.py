#!/usr/bin/env python3
"""CuPy's median_filter on the volumes fastmedian_bench_median3d wrote with --dump (every kind of
data: the bead stack tiled, f32 with fractions, full-range noise, f32 with every value
distinct), the same boxes and ImageJ ellipsoids as footprints, mode
'nearest' (our replicate). Figures are the median of timed runs (CUDA events) after warm-up, in
output Gvox/s.

    python3 bench/gpu/cupy_median3d.py --inputs DUMP_DIR --json cupy3d.json
"""
import argparse
import json
import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "common"))
from dumped_inputs import dumped_inputs  # noqa: E402


def ellipsoid(rx, ry, rz):
    """ImageJ's ellipsoid (semantics/footprint3d.cpp; radii whose squares floats hold exactly),
    as a (z, y, x) footprint over ceil(r) each way; a radius 0 is one plane (or row) deep."""
    vz, vy, vx = (math.ceil(r) for r in (rz, ry, rx))
    z, y, x = np.mgrid[-vz:vz + 1, -vy:vy + 1, -vx:vx + 1]

    def term(v, r):
        return v * v * (1.0 / (r * r)) if r else np.zeros(v.shape)
    return term(x, rx) + term(y, ry) + term(z, rz) <= 1.0


WINDOWS = {"box 3x3x3": np.ones((3, 3, 3), bool), "box 5x5x5": np.ones((5, 5, 5), bool),
           "box 5x5x3": np.ones((3, 5, 5), bool), "box 7x7x3": np.ones((3, 7, 7), bool),
           "box 7x7x7": np.ones((7, 7, 7), bool), "box 3x3x5": np.ones((5, 3, 3), bool),
           "box 7x7x5": np.ones((5, 7, 7), bool),
           "ellipsoid r1": ellipsoid(1, 1, 1), "ellipsoid r2": ellipsoid(2, 2, 2),
           "ellipsoid r3": ellipsoid(3, 3, 3), "ellipsoid 2,2,3": ellipsoid(2, 2, 3),
           "box 5x5x1": np.ones((1, 5, 5), bool), "ellipsoid 2,2,0": ellipsoid(2, 2, 0),
           "ellipsoid 2,2,1": ellipsoid(2, 2, 1), "ellipsoid 3,3,1": ellipsoid(3, 3, 1),
           "ellipsoid 3,3,2": ellipsoid(3, 3, 2), "box 5x3x3": np.ones((3, 3, 5), bool),
           "box 7x5x3": np.ones((3, 5, 7), bool), "box 3x3x9": np.ones((9, 3, 3), bool),
           "box 9x5x3": np.ones((3, 5, 9), bool), "ellipsoid 1.5": ellipsoid(1.5, 1.5, 1.5),
           "ellipsoid 2.5,2.5,1": ellipsoid(2.5, 2.5, 1), "box 9x5x5": np.ones((5, 5, 9), bool)}


def time_ms(call, runs):
    import cupy as cp
    for _ in range(2):
        call()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(runs):
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    import cupy as cp
    from cupyx.scipy import ndimage

    rows = []
    for kind, name, host in dumped_inputs(args.inputs):
        src = cp.asarray(host)
        dst = cp.empty_like(src)
        for window, footprint in WINDOWS.items():
            fp = cp.asarray(footprint)
            ms = time_ms(lambda: ndimage.median_filter(src, footprint=fp, mode="nearest", output=dst),
                         args.runs)
            rows.append({"type": name, "data": kind, "method": window, "gvox_per_s": src.size / ms / 1e6})
            print(f"cupy {name} {kind} {window}: {rows[-1]['gvox_per_s']:.3f} Gvox/s", flush=True)
    pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
