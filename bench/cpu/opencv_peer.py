#!/usr/bin/env python3
"""OpenCV's medianBlur through Python's cv2, for machines without OpenCV's C++ library (the GPU
machine): the same images, tiling, runs and output lines as fastmedian_bench_cpu.

    python3 bench/cpu/opencv_peer.py --images bench/gpu/images --size 2048 --runs 7 --out FILE
"""
import argparse
import pathlib
import statistics
import time

import cv2
import numpy as np

DTYPES = {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}


def tiled(images, name, size):
    path = next(pathlib.Path(images).glob(f"{name}_*x*.raw"))
    w, h = (int(v) for v in path.stem.split("_")[1].split("x"))
    plane = np.fromfile(path, dtype=np.dtype(DTYPES[name]).newbyteorder("<")).reshape(h, w)
    # Mirror tiling (d c b a | a b c d), as raw_image.cpp's tile().
    ys = np.arange(size) % (2 * h)
    xs = np.arange(size) % (2 * w)
    ys = np.where(ys < h, ys, 2 * h - 1 - ys)
    xs = np.where(xs < w, xs, 2 * w - 1 - xs)
    return np.ascontiguousarray(plane[np.ix_(ys, xs)].astype(DTYPES[name]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", default="bench/gpu/images")
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    threads = cv2.getNumThreads()
    print(f"OpenCV {cv2.__version__} (Python), {threads} threads")
    with open(args.out, "w") as out:
        for name in ("u8", "u16", "f32"):
            image = tiled(args.images, name, args.size)
            for k in (3, 5, 7, 11, 21):
                if name != "u8" and k > 5:
                    continue  # medianBlur supports only 3 and 5 beyond u8
                cv2.medianBlur(image, k)
                times = []
                for _ in range(args.runs):
                    start = time.perf_counter()
                    cv2.medianBlur(image, k)
                    times.append(time.perf_counter() - start)
                mpix = args.size * args.size / 1e6 / statistics.median(times)
                print(f"opencv   {name:4} square{k:<4} {mpix:10.1f} Mpix/s  ({threads} threads)")
                out.write(f"opencv\t{name}\tsquare{k}\t{mpix}\t{threads}\n")


if __name__ == "__main__":
    main()
