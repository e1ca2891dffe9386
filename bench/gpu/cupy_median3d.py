#!/usr/bin/env python3
"""CuPy's median_filter on the volume fastmedian_bench_median3d measures (the bead stack
mirror-tiled to 512x512x256; u16 = value * 257, f32 = value / 255), box 3x3x3 and 5x5x5 and
the ellipsoids of radius 1 and 2 as footprints, mode 'nearest' (our replicate). Figures are the
median of timed runs (CUDA events) after warm-up, in output Gvox/s.

    python3 bench/gpu/cupy_median3d.py --images bench/gpu/images --json cupy3d.json
"""
import argparse
import json
import pathlib

import numpy as np


def ball(r):
    z, y, x = np.mgrid[-r:r + 1, -r:r + 1, -r:r + 1]
    return (x * x + y * y + z * z) / (r * r) <= 1.0


WINDOWS = {"box 3x3x3": np.ones((3, 3, 3), bool), "box 5x5x5": np.ones((5, 5, 5), bool),
           "ellipsoid r1": ball(1), "ellipsoid r2": ball(2)}


def volume(images: pathlib.Path, shape):
    beads = np.fromfile(images / "volume_u8_150x150x41.raw", np.uint8).reshape(41, 150, 150)
    reps = [-(-n // m) + 1 for n, m in zip(shape, beads.shape)]
    tiled = np.pad(beads, [(0, m * (r - 1)) for m, r in zip(beads.shape, reps)], mode="symmetric")
    return np.ascontiguousarray(tiled[:shape[0], :shape[1], :shape[2]])


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
    parser.add_argument("--images", default="bench/gpu/images")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    import cupy as cp
    from cupyx.scipy import ndimage

    beads = volume(pathlib.Path(args.images), (256, 512, 512))
    rows = []
    for name, host in [("u8", beads), ("u16", beads.astype(np.uint16) * 257),
                       ("f32", beads.astype(np.float32) / np.float32(255))]:
        src = cp.asarray(host)
        dst = cp.empty_like(src)
        for window, footprint in WINDOWS.items():
            fp = cp.asarray(footprint)
            ms = time_ms(lambda: ndimage.median_filter(src, footprint=fp, mode="nearest", output=dst),
                         args.runs)
            rows.append({"type": name, "method": window, "gvox_per_s": src.size / ms / 1e6})
            print(f"cupy {name} {window}: {rows[-1]['gvox_per_s']:.3f} Gvox/s", flush=True)
    pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
