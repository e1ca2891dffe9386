"""CuPy arrays against NumPy arrays through fastmedian's Python functions (a program, not a test),
on one GPU: the same filter called with a CuPy array (filtered on the GPU in place, no
transfer) and with a NumPy array (copied to the GPU and back by the library), 4096 x 4096, on
the four kinds of data of DESIGN.md. Times are medians of CUDA-event timings of calls in a row
(up to 20, about 5 ms) after a warm-up, in Gpix/s; the identity (a CuPy copy of the image) is
the floor of a device-resident call.

Run on the GPU machine with the package importable (pip install . or PYTHONPATH):
    python3 bench/python/bench_cuda_arrays.py [--image PATH.tif]
"""
import argparse
import statistics

import cupy as cp
import numpy as np

import fastmedian

SIDE = 4096
REPEATS = 7


def kinds(shared):
    """The four kinds of data: the shared image (u16 as it is, f32 as its whole numbers), f32
    with fractions (divided by a smooth flat field, Gaussian noise added), u16 over the full
    range and f32 uniform noise (every value distinct)."""
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:SIDE, 0:SIDE] / SIDE
    flat = (0.6 + 0.4 * np.exp(-((x - 0.5) ** 2 + (y - 0.4) ** 2) * 3)).astype(np.float32)
    return {
        "shared u16": shared,
        "shared f32 (whole numbers)": shared.astype(np.float32),
        "f32 fractions": (shared / flat + rng.normal(0, 3, shared.shape)).astype(np.float32),
        "u16 full-range noise": rng.integers(0, 65536, shared.shape, dtype=np.uint16),
        "f32 uniform noise": rng.random(shared.shape, dtype=np.float32),
    }


def shared_image(path):
    if path is None:  # a smooth image with a few thousand values, as microscopy images hold
        y, x = np.mgrid[0:SIDE, 0:SIDE]
        return (2000 + 1500 * np.sin(x / 97.0) * np.cos(y / 61.0)).astype(np.uint16)
    import tifffile
    image = tifffile.imread(path)
    while image.ndim > 2:
        image = image[0]
    reps = (-(-SIDE // image.shape[0]), -(-SIDE // image.shape[1]))
    return np.tile(image, reps)[:SIDE, :SIDE].astype(np.uint16)


def events_ms(call, count):
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(count):
        call()
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(start, end) / count


def gpu_ms(call):
    """Median CUDA-event time of one call() on the current stream, after a warm-up: each sample
    times calls in a row (as many as take about 5 ms, at most 20), as a loop over images makes
    them; a single short call's time would be mostly the host's jitter."""
    call()
    batch = max(1, min(20, int(5.0 / events_ms(call, 1))))
    return statistics.median(events_ms(call, batch) for _ in range(REPEATS))


FILTERS = {
    "median 5x5": lambda a, **k: fastmedian.median_filter(a, size=5, **k),
    "median 11x11": lambda a, **k: fastmedian.median_filter(a, size=11, **k),
    "background 65": lambda a, **k: fastmedian.background(a, size=65, **k),
    "gaussian 3": lambda a, **k: fastmedian.gaussian_filter(a, sigma=3, **k),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--image", help="a TIFF tiled to 4096 x 4096 as the shared image")
    args = parser.parse_args()
    print(f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, fastmedian "
          f"{fastmedian.__version__}, CuPy {cp.__version__}; Gpix/s, {SIDE} x {SIDE}")
    pixels = SIDE * SIDE
    print("| filter | data | CuPy array | NumPy array | CuPy identity (copy) |")
    print("|---|---|---|---|---|")
    for name, call in FILTERS.items():
        for kind, host in kinds(shared_image(args.image)).items():
            device = cp.asarray(host)
            into = cp.empty_like(device)
            on_gpu = gpu_ms(lambda: call(device, output=into))
            host_out = np.empty_like(host)
            on_host = gpu_ms(lambda: call(host, output=host_out, backend="cuda"))
            identity = gpu_ms(lambda: cp.copyto(into, device))
            print(f"| {name} | {kind} | {pixels / on_gpu / 1e6:.2f} | "
                  f"{pixels / on_host / 1e6:.2f} | {pixels / identity / 1e6:.0f} |", flush=True)


if __name__ == "__main__":
    main()
