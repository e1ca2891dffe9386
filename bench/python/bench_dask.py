"""Dask benchmark for fastmedian's Python package (a program, not a test), the 3x3x3 median
(size=(3, 3, 3)) on u16 volumes:

1. overhead: the time Dask adds over the direct call, on a volume that fits in memory
   (dask.array.from_array of a NumPy array), with chunks of 256^3 voxels: compute() of the lazy
   result, and the result written into an array by the tasks (output=), each on Dask's
   synchronous and threaded schedulers, the latter also with one CPU thread per call
   (FASTMEDIAN_CPU_THREADS=1);
2. scaling: a volume in Zarr (4 GiB by default) filtered Zarr to Zarr by 1 and then 2 Dask
   worker processes of one thread each (fastmedian.zarr.median_filter on a LocalCluster), each
   worker allowed less memory than the volume; voxels/s, speed-up and efficiency. The workers
   filter on one CPU thread per call (fastmedian.dask sets FASTMEDIAN_CPU_THREADS=1 there).

Results go to a Markdown file, with the load average before each part (other work on the
machine slows it).

Run from the repository root after the build (PYTHONPATH as ctest sets it):
    PYTHONPATH=build-cpu/python /usr/bin/python3 bench/python/bench_dask.py \
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

SIZE = (3, 3, 3)
CHUNK = 256


def seconds(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def overhead(backend, shape, rounds):
    """Rows of (what, seconds, Gvox/s, % over direct) on a u16 volume of `shape`: the best of
    `rounds` rounds, each timing every run once in turn."""
    volume = np.random.default_rng(0).integers(0, 4096, shape, dtype=np.uint16)
    chunked = da.from_array(volume, chunks=CHUNK)
    lazy = fastmedian.dask.median_filter(chunked, size=SIZE, backend=backend)
    fastmedian.median_filter(volume[:2], size=SIZE, backend=backend)  # warm-up (CUDA context)

    def into_output():
        # A new array each time, as the direct call makes its own result.
        fastmedian.dask.median_filter(chunked, size=SIZE, backend=backend,
                                      output=np.empty_like(volume))

    def one_cpu_thread_per_call(run):
        def runner():
            os.environ["FASTMEDIAN_CPU_THREADS"] = "1"  # the library reads it at every call
            try:
                run()
            finally:
                del os.environ["FASTMEDIAN_CPU_THREADS"]
        return runner

    def scheduler(name, run):
        def runner():
            with dask.config.set(scheduler=name, num_workers=2):
                run()
        return runner

    runs = [("direct call", lambda: fastmedian.median_filter(volume, size=SIZE, backend=backend)),
            ("dask, compute(), synchronous scheduler",
             scheduler("synchronous", lambda: lazy.compute())),
            ("dask, compute(), threaded scheduler (2)",
             scheduler("threads", lambda: lazy.compute())),
            ("dask, compute(), threaded scheduler (2), 1 CPU thread per call",
             one_cpu_thread_per_call(scheduler("threads", lambda: lazy.compute()))),
            ("dask, output=, synchronous scheduler", scheduler("synchronous", into_output)),
            ("dask, output=, threaded scheduler (2)", scheduler("threads", into_output)),
            ("dask, output=, threaded scheduler (2), 1 CPU thread per call",
             one_cpu_thread_per_call(scheduler("threads", into_output)))]
    # Round after round, so that other work on the machine slows every run alike.
    table = [[seconds(run) for _, run in runs] for _ in range(rounds)]
    times = [min(column) for column in zip(*table)]
    return [(name, t, volume.size / t / 1e9, 100 * (t / times[0] - 1))
            for (name, _), t in zip(runs, times)]


def scaling(shape, workdir, backend, memory_limit):
    """Rows of (workers, load before, seconds, Gvox/s, speed-up, efficiency) filtering a Zarr
    volume."""
    source = os.path.join(workdir, "in.zarr")
    with distributed.Client(n_workers=2, threads_per_worker=1, dashboard_address=None):
        volume = da.random.RandomState(0).randint(0, 4096, size=shape, dtype=np.uint16,
                                                  chunks=CHUNK)
        volume.to_zarr(source, overwrite=True)
    times, loads = {}, {}
    for workers in (1, 2):
        loads[workers] = "{:.2f}".format(os.getloadavg()[0])
        with distributed.Client(n_workers=workers, threads_per_worker=1,
                                memory_limit=memory_limit, dashboard_address=None):
            target = os.path.join(workdir, "out.zarr")
            times[workers] = seconds(lambda: fastmedian.zarr.median_filter(
                source, target, size=SIZE, backend=backend, overwrite=True))
    voxels = np.prod(shape)
    return [(w, loads[w], t, voxels / t / 1e9, times[1] / t, times[1] / (t * w))
            for w, t in times.items()]


def load():
    return "load average {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg())


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    gpus = ", ".join(d["name"] for d in fastmedian.devices()) or \
        f"none ({fastmedian.cuda_unavailable_reason()})"
    return (f"{os.cpu_count()} cores ({cpu}); GPUs: {gpus}; Python {platform.python_version()}, "
            f"dask {dask.__version__}, distributed {distributed.__version__}, "
            f"fastmedian {fastmedian.__version__}")


def scaling_section(args):
    shape = (args.planes, 2048, 2048)
    nbytes = np.prod(shape) * 2
    lines = [f"## Scaling: Zarr to Zarr, u16 {'x'.join(map(str, shape))} "
             f"({nbytes / 2**30:.2f} GiB), chunks {CHUNK}^3, workers of 1 thread and "
             f"{args.memory_limit}", ""]
    workdir = tempfile.mkdtemp(dir=args.workdir, prefix="fastmedian-bench-")
    lines += [f"Zarr volumes under {os.path.dirname(workdir)}.", ""]
    try:
        rows = scaling(shape, workdir, args.backend, args.memory_limit)
    finally:
        shutil.rmtree(workdir)
    lines += ["| workers | 1-min load before | s | Gvox/s | speed-up | efficiency |",
              "|---|---|---|---|---|---|"]
    lines += [f"| {w} | {before} | {t:.1f} | {rate:.4f} | {up:.2f}x | {eff:.2f} |"
              for w, before, t, rate, up, eff in rows]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--planes", type=int, default=512,
                        help="planes of 2048x2048 in the Zarr volume (512: 4 GiB)")
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    parser.add_argument("--memory-limit", default="1GiB", help="memory per worker")
    parser.add_argument("--workdir", default=None, help="where the Zarr volumes go (temp)")
    parser.add_argument("--rounds", type=int, default=7, help="overhead: rounds of every run")
    parser.add_argument("--parts", nargs="+", default=["overhead", "scaling"],
                        choices=["overhead", "scaling"])
    parser.add_argument("--out", default="bench/python/results.md")
    args = parser.parse_args()

    lines = [f"# fastmedian + Dask, backend {args.backend}", "", machine(), "",
             "Window: the 3x3x3 median (size=(3, 3, 3)).", ""]
    if "overhead" in args.parts:
        shape = (256, 512, 512)
        lines += [f"## Overhead: Dask over the direct call (u16 {'x'.join(map(str, shape))}, "
                  f"chunks {CHUNK}^3), the best of {args.rounds} rounds", "",
                  f"Before: {load()}.", "",
                  "| run | ms | Gvox/s | over direct |", "|---|---|---|---|"]
        lines += [f"| {name} | {1e3 * t:.1f} | {rate:.3f} | {pct:+.1f}% |"
                  for name, t, rate, pct in overhead(args.backend, shape, args.rounds)]
        lines += ["", f"After: {load()}.", ""]
    if "scaling" in args.parts:
        lines += scaling_section(args)
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
