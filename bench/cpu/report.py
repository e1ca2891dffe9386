#!/usr/bin/env python3
"""Merges the benchmark's tab-separated lines (impl, type, window, Mpix/s, threads) into the
markdown table of bench/cpu/results-<machine>.md, with issue 9's targets checked:
u8 3x3 and 5x5 at least OpenCV's medianBlur; u16 and f32 at least 2x medianBlur where it
supports them; every size and type at least 5x ImageJ's RankFilters (ours on ImageJ's circle of
the same radius).

    python3 bench/cpu/report.py LINES.tsv [MORE.tsv ...]
"""
import sys


def main():
    mpix, threads = {}, {}
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                impl, kind, window, value, used = line.rstrip("\n").split("\t")
                mpix[(impl, kind, window)] = float(value)
                threads[impl] = int(used)

    def cell(key):
        return f"{mpix[key]:.1f}" if key in mpix else "-"

    def verdict(ours, peer, factor):
        if ours not in mpix or peer not in mpix:
            return "-"
        ratio = mpix[ours] / mpix[peer]
        return f"{ratio:.1f}x {'met' if ratio >= factor else 'MISSED'} (>= {factor:g}x)"

    print("Threads: " + ", ".join(f"{k} {v}" for k, v in sorted(threads.items())) + "\n")
    print("| type | k | ours square | OpenCV medianBlur | ours / OpenCV | r | ours circle r "
          "| ImageJ RankFilters r | ours / ImageJ |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in ("u8", "u16", "f32"):
        for k in (3, 5, 7, 11, 21):
            r = (k - 1) // 2
            square, circle = f"square{k}", f"circle{r}"
            opencv_factor = 1 if kind == "u8" else 2
            opencv_target = k <= 5
            print(f"| {kind} | {k} | {cell(('ours', kind, square))} | "
                  f"{cell(('opencv', kind, square))} | "
                  f"{verdict(('ours', kind, square), ('opencv', kind, square), opencv_factor) if opencv_target else verdict(('ours', kind, square), ('opencv', kind, square), 0).split(' ')[0]} | "
                  f"{r} | {cell(('ours', kind, circle))} | {cell(('imagej', kind, circle))} | "
                  f"{verdict(('ours', kind, circle), ('imagej', kind, circle), 5)} |")


if __name__ == "__main__":
    main()
