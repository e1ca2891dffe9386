#!/usr/bin/env python3
"""OpenCV's medianBlur through Python's cv2, for machines without OpenCV's C++ library (the GPU
machine): the inputs fastmedian_bench_cpu wrote with --dump (every kind of data), the same runs
and output lines as fastmedian_bench_cpu.

    python3 bench/cpu/opencv_peer.py --inputs DUMP_DIR --runs 7 --out FILE
"""
import argparse
import pathlib
import statistics
import sys
import time

import cv2

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "common"))
from dumped_inputs import dumped_inputs  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--k", default="3,5,7,11,13,21,31,65")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    threads = cv2.getNumThreads()
    print(f"OpenCV {cv2.__version__} (Python), {threads} threads")
    with open(args.out, "w") as out:
        for kind, name, image in dumped_inputs(args.inputs):
            for k in map(int, args.k.split(",")):
                if name != "u8" and k > 5:
                    continue  # medianBlur supports only 3 and 5 beyond u8
                cv2.medianBlur(image, k)
                times = []
                for _ in range(args.runs):
                    start = time.perf_counter()
                    cv2.medianBlur(image, k)
                    times.append(time.perf_counter() - start)
                mpix = image.size / 1e6 / statistics.median(times)
                print(f"opencv   {name:4} {kind:7} square{k:<4} {mpix:10.1f} Mpix/s  ({threads} threads)")
                out.write(f"opencv\t{name}\t{kind}\tsquare{k}\t{mpix}\t{threads}\n")


if __name__ == "__main__":
    main()
