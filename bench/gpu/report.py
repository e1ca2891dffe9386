#!/usr/bin/env python3
"""Merges the GPU benchmark's JSON files into one markdown table: ours beside the identity
kernel, NPP, CuPy (all measured in the same device run), the published figures of
docs/design.md (Adams 2021, measured on the same machine kind), and issue 14's targets.

    python3 bench/gpu/report.py ours.json cupy.json > results.md
"""
import json
import sys

# docs/design.md, "Fastest published medians" (H100, 4096^2, Gpix/s): Adams 2021.
ADAMS = {3: (178, 176, 178), 5: (150, 162, 161), 7: (63, 69, 69), 11: (28, 25, 22),
         15: (12.9, 12.1, 12.4), 21: (4.0, 3.5, 3.2)}
# Issue 14's targets (H100, device-resident, Gpix/s).
TARGET = {3: (1000, 450, 240), 5: (400, 350, 240), 7: (150, 150, 140), 11: (60, 55, 45),
          15: (30, 30, 25), 21: (10, 10, 7)}
TYPES = ("u8", "u16", "f32")


def main() -> None:
    rows = [r for path in sys.argv[1:] for r in json.load(open(path))]
    fig = {(r["type"], r["method"], r["k"]): r for r in rows}
    ks = sorted({r["k"] for r in rows if r["method"] == "fastmedian"})
    print("| type | k | fastmedian | exact | identity | NPP | CuPy | Adams 2021 | target | "
          "vs NPP | vs CuPy | vs Adams | vs target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t in TYPES:
        ident = fig.get((t, "identity", 0), {}).get("gpix_per_s")
        for k in ks:
            ours = fig.get((t, "fastmedian", k))
            if ours is None:
                continue
            g = ours["gpix_per_s"]
            npp = fig.get((t, "npp", k), {}).get("gpix_per_s")
            cupy = fig.get((t, "cupy", k), {}).get("gpix_per_s")
            adams = ADAMS.get(k, (None,) * 3)[TYPES.index(t)]
            target = TARGET.get(k, (None,) * 3)[TYPES.index(t)]

            def f(v):
                return "-" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")

            def ratio(v):
                return "-" if not v else f"{g / v:.2f}x"
            print(f"| {t} | {k} | {f(g)} | {'yes' if ours['exact'] else 'NO'} | {f(ident)} | "
                  f"{f(npp)} | {f(cupy)} | {f(adams)} | {f(target)} | {ratio(npp)} | "
                  f"{ratio(cupy)} | {ratio(adams)} | {ratio(target)} |")


if __name__ == "__main__":
    main()
