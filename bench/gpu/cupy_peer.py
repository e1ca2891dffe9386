#!/usr/bin/env python3
"""CuPy's median_filter on the inputs fastmedian_bench_gpu (or fastmedian_bench_background) wrote
with --dump: the same images of every kind of data (the GPU machine's python3 has CuPy). Mode
'nearest' is our replicate border; figures are the median of timed runs (CUDA events) after
warm-up, in output Gpix/s. --size crops each input's top-left corner (large windows, where
CuPy takes minutes on the whole image).

    python3 bench/gpu/cupy_peer.py --inputs DUMP_DIR --json cupy.json [--k 3,5] [--size 1024]
"""
import argparse
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "common"))
from dumped_inputs import dumped_inputs  # noqa: E402


def time_ms(call, runs: int) -> float:
    import cupy as cp
    for _ in range(2):
        call()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    call()
    stop.record()
    stop.synchronize()
    one = cp.cuda.get_elapsed_time(start, stop)
    if one > 200:
        runs = min(runs, 3)
    times = []
    for _ in range(runs):
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--size", type=int, default=0, help="crop to size x size (0: whole)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--k", default="3,5,7,9,11,15,21")
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    import cupy as cp
    from cupyx.scipy import ndimage

    rows = []
    for kind, name, host in dumped_inputs(args.inputs):
        if args.size:
            host = np.ascontiguousarray(host[:args.size, :args.size])
        src = cp.asarray(host)
        dst = cp.empty_like(src)
        for k in map(int, args.k.split(",")):
            ms = time_ms(lambda: ndimage.median_filter(src, size=k, mode="nearest", output=dst), args.runs)
            rows.append({"type": name, "data": kind, "method": "cupy", "k": k,
                         "gpix_per_s": src.size / ms / 1e6, "exact": True})
            print(f"cupy {name} {kind} k={k}: {rows[-1]['gpix_per_s']:.3f} Gpix/s", flush=True)
    pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
