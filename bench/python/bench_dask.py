"""Dask benchmark for fastmedian's Python package (a program, not a test):

1. overhead: the time Dask adds over the direct call, on a u16 volume that fits in memory, with
   chunks of 256^3 voxels, Dask's synchronous and threaded schedulers;
2. scaling: a u16 volume in Zarr filtered Zarr to Zarr by 1 and then 2 Dask worker processes of
   one thread each (fastmedian.zarr.median_filter on a LocalCluster); voxels/s and efficiency.

The window is the 2D median 3x3 on every plane (size=(1, 3, 3)): the 3x3x3 median the issue
asks for comes with the 3D median. Results go to a Markdown file.

Run from the repository root after the build (PYTHONPATH as ctest sets it):
    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench_dask.py --gib 1 \
        --out bench/python/results-cpu.md
"""
import argparse
import os
import platform
import shutil
import tempfile
import time

import dask
import dask.array as da
import distributed
import numpy as np

import fastmedian
import fastmedian.dask
import fastmedian.zarr

SIZE = (1, 3, 3)


def seconds(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def overhead(backend):
    """Rows of (what, seconds, Gvox/s, % over direct) on a 256 x 512 x 512 u16 volume."""
    volume = np.random.default_rng(0).integers(0, 4096, (256, 512, 512), dtype=np.uint16)
    lazy = fastmedian.dask.median_filter(da.from_array(volume, chunks=(256, 256, 256)),
                                         size=SIZE, backend=backend)
    fastmedian.median_filter(volume[:2], size=SIZE, backend=backend)  # warm-up (CUDA context)
    runs = [("direct call", lambda: fastmedian.median_filter(volume, size=SIZE, backend=backend)),
            ("dask, synchronous scheduler", lambda: lazy.compute(scheduler="synchronous")),
            ("dask, threaded scheduler (2)",
             lambda: lazy.compute(scheduler="threads", num_workers=2))]
    times = [(name, min(seconds(run) for _ in range(2))) for name, run in runs]
    direct = times[0][1]
    return [(name, t, volume.size / t / 1e9, 100 * (t / direct - 1)) for name, t in times]


def scaling(gib, workdir, backend, memory_limit):
    """Rows of (workers, seconds, Gvox/s, efficiency) filtering a `gib` GiB Zarr volume."""
    planes = int(gib * 512)
    source = os.path.join(workdir, "in.zarr")
    with distributed.Client(n_workers=2, threads_per_worker=1, dashboard_address=None):
        volume = da.random.RandomState(0).randint(0, 4096, size=(planes, 1024, 1024),
                                                  dtype=np.uint16, chunks=(64, 512, 512))
        volume.to_zarr(source, overwrite=True)
    times = {}
    for workers in (1, 2):
        with distributed.Client(n_workers=workers, threads_per_worker=1,
                                memory_limit=memory_limit, dashboard_address=None):
            target = os.path.join(workdir, f"out{workers}.zarr")
            times[workers] = seconds(lambda: fastmedian.zarr.median_filter(
                source, target, size=SIZE, backend=backend, overwrite=True))
    voxels = planes * 1024 * 1024
    return voxels * 2, [(w, t, voxels / t / 1e9, times[1] / (t * w)) for w, t in times.items()]


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    gpus = ", ".join(d["name"] for d in fastmedian.devices()) or \
        f"none ({fastmedian.cuda_unavailable_reason()})"
    return (f"{os.cpu_count()} cores ({cpu}); GPUs: {gpus}; Python {platform.python_version()}, "
            f"dask {dask.__version__}, distributed {distributed.__version__}, "
            f"fastmedian {fastmedian.__version__}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gib", type=float, default=1.0, help="Zarr volume size (GiB)")
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    parser.add_argument("--memory-limit", default="768MiB", help="memory per worker")
    parser.add_argument("--workdir", default=None, help="where the Zarr volumes go (temp)")
    parser.add_argument("--out", default="bench/python/results.md")
    args = parser.parse_args()

    lines = [f"# fastmedian + Dask, backend {args.backend}", "", machine(), "",
             "Window: the 2D 3x3 median on every plane (size=(1, 3, 3)); the 3x3x3 median comes "
             "with the 3D median.", "",
             "## Overhead: Dask over the direct call (u16 256x512x512, chunks 256^3)", "",
             "| run | s | Gvox/s | over direct |", "|---|---|---|---|"]
    lines += [f"| {name} | {t:.2f} | {rate:.4f} | {pct:+.1f}% |"
              for name, t, rate, pct in overhead(args.backend)]
    workdir = tempfile.mkdtemp(dir=args.workdir, prefix="fastmedian-bench-")
    try:
        nbytes, rows = scaling(args.gib, workdir, args.backend, args.memory_limit)
    finally:
        shutil.rmtree(workdir)
    lines += ["", f"## Scaling: Zarr to Zarr, u16 {nbytes / 2**30:.2f} GiB (planes of 1024x1024, "
              f"chunks 64x512x512), workers of 1 thread and {args.memory_limit}", "",
              f"Zarr volumes under {os.path.dirname(workdir)}.", "",
              "| workers | s | Gvox/s | efficiency |", "|---|---|---|---|"]
    lines += [f"| {w} | {t:.1f} | {rate:.4f} | {eff:.2f} |" for w, t, rate, eff in rows]
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
