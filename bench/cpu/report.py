#!/usr/bin/env python3
"""Merges the benchmark's tab-separated lines (impl, type, data, window, Mpix/s, threads) into
the markdown tables of bench/cpu/results-<machine>.md: every kind of data side by side, with
the targets checked: u8 3x3 and 5x5 at least OpenCV's medianBlur and u8 from 13x13 up at least
OpenCV's constant-time medianBlur (issue 50); u16 and f32 at least 2x medianBlur where it
supports them; every size and type at least 5x ImageJ's RankFilters (ours on ImageJ's circle of
the same radius); then the large windows on hard data against the shared image of the type
(issue 49: within 3x at 65x65).

    python3 bench/cpu/report.py LINES.tsv [MORE.tsv ...]
"""
import sys

KINDS = ("images", "flat", "noise")


def main():
    mpix, threads = {}, {}
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                impl, type_, kind, window, value, used = line.rstrip("\n").split("\t")
                mpix[(impl, type_, kind, window)] = float(value)
                threads[impl] = int(used)
    ks = sorted({int(w[6:]) for (_, _, _, w) in mpix if w.startswith("square")})

    def cell(key):
        return f"{mpix[key]:.1f}" if key in mpix else "-"

    def verdict(ours, peer, factor):
        if ours not in mpix or peer not in mpix:
            return "-"
        ratio = mpix[ours] / mpix[peer]
        if factor is None:
            return f"{ratio:.1f}x"
        return f"{ratio:.1f}x {'met' if ratio >= factor else 'MISSED'} (>= {factor:g}x)"

    print("Threads: " + ", ".join(f"{k} {v}" for k, v in sorted(threads.items())) + "\n")
    print("| type | data | k | ours square | OpenCV medianBlur | ours / OpenCV | r | ours circle r "
          "| ImageJ RankFilters r | ours / ImageJ |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for type_ in ("u8", "u16", "f32"):
        for k in ks:
            for kind in KINDS:
                r = (k - 1) // 2
                square, circle = ("ours", type_, kind, f"square{k}"), ("ours", type_, kind, f"circle{r}")
                if square not in mpix:
                    continue
                opencv = ("opencv", type_, kind, f"square{k}")
                factor = (1 if k <= 5 or k >= 13 else None) if type_ == "u8" else (2 if k <= 5 else None)
                print(f"| {type_} | {kind} | {k} | {cell(square)} | {cell(opencv)} | "
                      f"{verdict(square, opencv, factor)} | {r} | {cell(circle)} | "
                      f"{cell(('imagej', type_, kind, f'circle{r}'))} | "
                      f"{verdict(circle, ('imagej', type_, kind, f'circle{r}'), 5)} |")
    print()
    print("Hard data against the shared image of the type (square k; issue 49: within 3x at 65):")
    print()
    print("| type | k | shared image | hard data | shared / hard |")
    print("|---|---|---|---|---|")
    for type_ in ("u8", "u16", "f32"):
        for k in ks:
            shared = mpix.get(("ours", type_, "images", f"square{k}"))
            for kind in ("flat", "noise"):
                hard = mpix.get(("ours", type_, kind, f"square{k}"))
                if shared and hard:
                    print(f"| {type_} | {k} | {shared:.1f} | {hard:.1f} ({kind}) | {shared / hard:.1f}x |")


if __name__ == "__main__":
    main()
