#!/usr/bin/env python3
"""Merges the GPU benchmark's JSON files into markdown tables: ours on every kind of data beside
the identity kernel, NPP, CuPy (all measured in the same device run), the published figures of
docs/design.md (Adams 2021, measured on the same machine kind, data-independent), and the
targets; then each case's worst kind of data.

    python3 bench/gpu/report.py ours.json cupy.json > results.md
"""
import json
import sys

# docs/design.md, "Fastest published medians" (H100, 4096^2, Gpix/s): Adams 2021.
ADAMS = {3: (178, 176, 178), 5: (150, 162, 161), 7: (63, 69, 69), 11: (28, 25, 22),
         15: (12.9, 12.1, 12.4), 21: (4.0, 3.5, 3.2)}
# Issue 14's targets (H100, device-resident, Gpix/s), on the shared images.
TARGET = {3: (1000, 450, 240), 5: (400, 350, 240), 7: (150, 150, 140), 11: (60, 55, 45),
          15: (30, 30, 25), 21: (10, 10, 7)}
# Issue 49's targets for f32 with fractions (2x Adams).
TARGET_FLAT = {5: 320, 7: 140, 11: 45, 15: 25, 21: 6.5}
TYPES = ("u8", "u16", "f32")
KINDS = ("images", "flat", "noise", "walk")
KIND_NAMES = {"images": "shared image", "flat": "fractions (flat field + noise)",
              "noise": "noise", "walk": "walk"}


def f(v):
    return "-" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")


def main() -> None:
    rows = [r for path in sys.argv[1:] for r in json.load(open(path))]
    fig = {(r["type"], r.get("data", "images"), r["method"], r["k"]): r for r in rows}
    ident = {r["type"]: r["gpix_per_s"] for r in rows if r["method"] == "identity"}
    ks = sorted({r["k"] for r in rows if r["method"] == "fastmedian"})
    kinds = [d for d in KINDS if any(r.get("data") == d for r in rows)]
    print("| type | k | data | fastmedian | exact | identity | NPP | CuPy | Adams 2021 | target | "
          "vs NPP | vs CuPy | vs Adams | vs target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = {}
    for t in TYPES:
        for k in ks:
            for d in kinds:
                ours = fig.get((t, d, "fastmedian", k))
                if ours is None:
                    continue
                g = ours["gpix_per_s"]
                if (t, k) not in worst or g < worst[(t, k)][0]:
                    worst[(t, k)] = (g, d)
                npp = fig.get((t, d, "npp", k), {}).get("gpix_per_s")
                cupy = fig.get((t, d, "cupy", k), {}).get("gpix_per_s")
                adams = ADAMS.get(k, (None,) * 3)[TYPES.index(t)]
                target = (TARGET_FLAT.get(k) if d == "flat" else
                          TARGET.get(k, (None,) * 3)[TYPES.index(t)] if d == "images" else None)

                def ratio(v):
                    return "-" if not v else f"{g / v:.2f}x"
                print(f"| {t} | {k} | {KIND_NAMES[d]} | {f(g)} | {'yes' if ours['exact'] else 'NO'} | "
                      f"{f(ident.get(t))} | {f(npp)} | {f(cupy)} | {f(adams)} | {f(target)} | "
                      f"{ratio(npp)} | {ratio(cupy)} | {ratio(adams)} | {ratio(target)} |")
    print()
    print("Worst kind of data per case (what a user's image may get):")
    print()
    print("| type | k | " + " | ".join(KIND_NAMES[d] for d in kinds) + " | worst | Adams 2021 | worst / Adams |")
    print("|---|---|" + "---|" * len(kinds) + "---|---|---|")
    for t in TYPES:
        for k in ks:
            if (t, k) not in worst:
                continue
            g, d = worst[(t, k)]
            adams = ADAMS.get(k, (None,) * 3)[TYPES.index(t)]
            cells = " | ".join(f(fig.get((t, kd, "fastmedian", k), {}).get("gpix_per_s")) for kd in kinds)
            print(f"| {t} | {k} | {cells} | {f(g)} ({d}) | {f(adams)} | "
                  f"{'-' if not adams else f'{g / adams:.2f}x'} |")


if __name__ == "__main__":
    main()
