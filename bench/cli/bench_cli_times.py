#!/usr/bin/python3
"""Where a CLI run's time goes on a large stack: runs each given fastmedian executable in turn,
RUNS times, on one stack, and prints the median of each time its summary line gives (wall,
read, filter, write, fsync+rename) and of the process's own wall time, in ms. Runs alternate
between the executables, so a machine that gets busier or quieter affects them alike. An
executable from before the line had its parts gives only its filter time (then "in F ms").

    /usr/bin/python3 bench/cli/bench_cli_times.py build-cpu/native/src/cli/fastmedian \\
        [OTHER_FASTMEDIAN ...] [--runs 5] [--stack /tmp/fastmedian-bench-cli/stack.tif] \\
        [-- median --size 5 --backend cpu]

The stack, made when missing, is 48 planes of 2048 x 2048 u16 (403 MB: a smooth pattern and
noise); it and the outputs stay in the stack's folder, outside the source tree."""
import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import time

import numpy as np
import tifffile

PARTS = re.compile(r" in (?P<wall>[\d.]+) ms: (?:CUDA start-up (?P<startup>[\d.]+), )?"
                   r"read (?P<read>[\d.]+), filter (?P<filter>[\d.]+), write (?P<write>[\d.]+), "
                   r"fsync\+rename (?P<sync>[\d.]+) ms -> ")
FILTER_ONLY = re.compile(r" in (?P<filter>[\d.]+) ms( \(\+ [\d.]+ ms CUDA start-up\))? -> ")
COLUMNS = ["process", "wall", "read", "filter", "write", "sync"]


def make_stack(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:2048, 0:2048]
    base = 20000 + 10000 * np.sin(x / 97.0) * np.cos(y / 131.0)
    with tifffile.TiffWriter(path) as w:
        for z in range(48):
            plane = base + rng.normal(0, 800, base.shape) + 50 * z
            w.write(plane.clip(0, 65535).astype(np.uint16), photometric="minisblack",
                    contiguous=True)


def run_once(cli, command, stack, out):
    start = time.perf_counter()
    r = subprocess.run([cli, command[0], stack, out, *command[1:]], capture_output=True,
                       text=True, check=True)
    times = {"process": (time.perf_counter() - start) * 1000}
    m = PARTS.search(r.stdout) or FILTER_ONLY.search(r.stdout)
    times.update({k: float(v) for k, v in m.groupdict().items() if v and k in COLUMNS})
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cli", nargs="+", help="fastmedian executables to compare")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--stack", type=pathlib.Path,
                   default=pathlib.Path("/tmp/fastmedian-bench-cli/stack.tif"))
    # After "--": the command and its options, which argparse would take for its own.
    args = sys.argv[1:]
    split = args.index("--") if "--" in args else len(args)
    a = p.parse_args(args[:split])
    command = args[split + 1:] or ["median", "--size", "5", "--backend", "cpu"]
    if not a.stack.exists():
        make_stack(a.stack)
    runs = {cli: [] for cli in a.cli}
    for _ in range(a.runs):
        for i, cli in enumerate(a.cli):
            runs[cli].append(run_once(cli, command, a.stack, a.stack.with_name(f"out{i}.tif")))
    print(f"{a.stack} ({a.stack.stat().st_size / 1e6:.0f} MB), {' '.join(command)}, "
          f"median of {a.runs} runs, ms")
    print("| executable | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for cli, times in runs.items():
        cells = [f"{statistics.median(t[c] for t in times):.0f}" if c in times[0] else "-"
                 for c in COLUMNS]
        print(f"| {cli} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
