#!/usr/bin/env python3
"""CuPy's median_filter on the volumes fastmedian_bench_median3d wrote with --dump (every kind of
data: the bead stack tiled, f32 with fractions, full-range noise, f32 with every value
distinct), box 3x3x3 and 5x5x5 and the ellipsoids of radius 1 and 2 as footprints, mode
'nearest' (our replicate). Figures are the median of timed runs (CUDA events) after warm-up, in
output Gvox/s.

    python3 bench/gpu/cupy_median3d.py --inputs DUMP_DIR --json cupy3d.json
"""
import argparse
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "common"))
from dumped_inputs import dumped_inputs  # noqa: E402


def ball(r):
    z, y, x = np.mgrid[-r:r + 1, -r:r + 1, -r:r + 1]
    return (x * x + y * y + z * z) / (r * r) <= 1.0


WINDOWS = {"box 3x3x3": np.ones((3, 3, 3), bool), "box 5x5x5": np.ones((5, 5, 5), bool),
           "ellipsoid r1": ball(1), "ellipsoid r2": ball(2)}


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
