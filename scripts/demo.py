#!/usr/bin/python3
"""What fastmedian is for, on a real noisy time-lapse (data/cancer_cell_migration_crop.tif, 48
frames of 130 x 130 u16): the `fastmedian` command removes the noise with an exact 5x5 median and
the uneven background with a 31x31 median, the median's time is printed beside
scipy.ndimage.median_filter's on the same stack (and the two results compared bit for bit), and
a before/after picture of one frame is written as a PNG.

    scripts/demo.py [--cli build/native/src/cli/fastmedian] [--out DIR] [--backend auto|cpu|cuda]

Runs on Debian's /usr/bin/python3 (numpy, scipy, tifffile: scripts/install-deps.sh)."""
import argparse
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
import scipy.ndimage
import tifffile

ROOT = pathlib.Path(__file__).resolve().parent.parent
STACK = ROOT / "data" / "cancer_cell_migration_crop.tif"
FRAME = 24  # the frame the picture shows
SCALE = 3   # each pixel as SCALE x SCALE in the picture, so that 130 pixels are seen


def run_cli(cli, *args):
    """Runs the command; returns its summary line and the filter's time in ms."""
    r = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"demo: {' '.join(map(str, args[:1]))} failed: {r.stderr.strip()}")
    line = r.stdout.strip().splitlines()[0]
    ms = float(re.search(r" in ([0-9.]+) ms", line).group(1))
    return line, ms


def write_png(path, grey):
    """An 8-bit greyscale PNG, with nothing but the standard library."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    h, w = grey.shape
    rows = b"".join(b"\0" + grey[y].tobytes() for y in range(h))  # filter type 0 a row
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    pathlib.Path(path).write_bytes(png)


def to_grey(frame, low, high):
    scaled = (frame.astype(np.float64) - low) / max(high - low, 1) * 255
    return np.clip(scaled, 0, 255).astype(np.uint8)


def picture(path, panels):
    """The panels side by side, each stretched to its own 0.5..99.5 percentiles."""
    gap = np.full((panels[0].shape[0], 4), 255, np.uint8)
    tiles = []
    for p in panels:
        low, high = np.percentile(p, [0.5, 99.5])
        tiles += [to_grey(p, low, high), gap]
    grey = np.hstack(tiles[:-1])
    write_png(path, np.kron(grey, np.ones((SCALE, SCALE), np.uint8)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=ROOT / "build" / "native" / "src" / "cli" / "fastmedian")
    ap.add_argument("--out", default=pathlib.Path(tempfile.gettempdir()) / "fastmedian-demo")
    ap.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)

    stack = tifffile.imread(STACK)
    print(f"fastmedian demo: {stack.shape[0]} frames of {stack.shape[2]} x {stack.shape[1]} "
          f"{stack.dtype} (migrating cancer cells, {STACK.relative_to(ROOT)})")

    median_line, median_ms = run_cli(a.cli, "median", STACK, out / "median.tif", "--size", 5,
                                     "--backend", a.backend)
    background_line, background_ms = run_cli(a.cli, "background", out / "median.tif",
                                             out / "flattened.tif", "--size", 31,
                                             "--backend", a.backend)
    start = time.perf_counter()
    want = scipy.ndimage.median_filter(stack, size=(1, 5, 5), mode="nearest")
    scipy_ms = (time.perf_counter() - start) * 1e3
    median = tifffile.imread(out / "median.tif")
    flattened = tifffile.imread(out / "flattened.tif")
    same = np.array_equal(median, want)

    picture(out / "before_after.png", [stack[FRAME], median[FRAME], flattened[FRAME]])
    print(f"  {median_line}")
    print(f"  {background_line}")
    print(f"  5x5 median of the stack: fastmedian {median_ms:.1f} ms, "
          f"scipy.ndimage.median_filter {scipy_ms:.0f} ms ({scipy_ms / median_ms:.0f}x); "
          f"identical: {'yes' if same else 'NO'}")
    print(f"  then its 31x31 median background subtracted: {background_ms:.1f} ms")
    print(f"  frame {FRAME} before, denoised, and flattened: {out / 'before_after.png'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
