#!/usr/bin/env python3
"""CuPy's temporal median as a peer of fastmedian_bench_temporal_gpu: cupy.median over the
frame axis of each output frame's window (the N frames [s, s + N), s as temporal.hpp's
temporal_window_start), on a device-resident movie made like the C++ benchmark's (the real
plane of bench/gpu/images mirror-tiled, drifting a few pixels per frame, plus noise and rare
bright spots; the noise comes from CuPy's generator, so the pixels are not the C++ ones).

Figures are output Gpix/s: output frames are timed in a run in the middle of the movie (as many
as fit in --budget-ms), median of --runs timed passes (CUDA events) after warm-up. cupy.median
returns float64 for integer types and, for even N, the mean of the two middle values, not our lower middle: the
rows are marked exact = null. Skips itself (writes []) when CuPy does not import.

    python3 bench/gpu/cupy_temporal_peer.py --json cupy_temporal.json [--n 9,50,500]
        [--frames 512] [--size 2048] [--types u16] [--runs 3] [--budget-ms 600]
"""
import argparse
import json
import math
import pathlib
import sys

TYPES = {"u8": "uint8", "u16": "uint16", "f32": "float32"}
MARGIN = 16  # temporal_stack.hpp's kStackMargin


def load_base(images: pathlib.Path, name: str, side: int, rng):
    paths = sorted(images.glob(f"{name}_*.raw"))
    if not paths:
        print(f"no {name}_WxH.raw in {images}: random base plane")
        if name == "f32":
            return rng.random((side, side), dtype=np.float32)
        return rng.integers(0, np.iinfo(TYPES[name]).max + 1, (side, side)).astype(TYPES[name])
    path = paths[0]
    width, height = map(int, path.stem.split("_")[1].split("x"))
    plane = np.fromfile(path, dtype=np.dtype(TYPES[name]).newbyteorder("<")).reshape(height, width)
    reps = (-(-side // height) + 1, -(-side // width) + 1)
    tiled = np.pad(plane, ((0, height * (reps[0] - 1)), (0, width * (reps[1] - 1))), mode="symmetric")
    return np.ascontiguousarray(tiled[:side, :side].astype(TYPES[name]))


def make_stack(cp, base, name: str, size: int, frames: int):
    b = cp.asarray(base)
    stack = cp.empty((frames, size, size), dtype=TYPES[name])
    rs = cp.random.RandomState(1234)
    a = MARGIN // 2
    for z in range(frames):
        dx = int(round(a * math.sin(0.07 * z)))
        dy = int(round(a * math.sin(0.05 * z + 1.0)))
        win = b[MARGIN + dy:MARGIN + dy + size, MARGIN + dx:MARGIN + dx + size]
        blink = rs.randint(0, 256, (size, size)) == 0
        if name == "f32":
            u = rs.random_sample((size, size), dtype=cp.float32) - 0.5
            v = win + u * 0.02 * (cp.abs(win) + 1)
            stack[z] = cp.where(blink, v * 2 + 1, v)
        else:
            amp, spot, top = (4, 100, 255) if name == "u8" else (64, 2000, 65535)
            v = win.astype(cp.int32) + rs.randint(-amp, amp + 1, (size, size)) + blink * spot
            stack[z] = cp.clip(v, 0, top).astype(TYPES[name])
    return stack


def window_start(t: int, frames: int, n: int) -> int:
    return max(0, min(t - n // 2, frames - n))


def time_ms(cp, call, runs: int) -> float:
    call()  # warm-up
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(runs):
        start.record()
        call()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main() -> None:
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", default=str(here / "images"))
    parser.add_argument("--n", default="9,50,500")
    parser.add_argument("--frames", type=int, default=512)
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--types", default="u16")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget-ms", type=float, default=600.0)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    try:
        global np
        import numpy as np
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # no CuPy or no GPU: nothing to compare with
        print(f"CuPy not usable here ({type(e).__name__}: {e}); skipped")
        pathlib.Path(args.json).write_text("[]\n")
        return
    device = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"CuPy {cp.__version__} on {device}: temporal median (cupy.median over frames), "
          f"{args.frames} frames of {args.size}x{args.size}")
    rows = []
    rng = np.random.default_rng(1)
    for name in args.types.split(","):
        base = load_base(pathlib.Path(args.images), name, args.size + 2 * MARGIN, rng)
        stack = make_stack(cp, base, name, args.size, args.frames)
        cp.cuda.Device().synchronize()
        T = args.frames
        for n in map(int, args.n.split(",")):
            if n > T:
                print(f"  N={n} > {T} frames: skipped")
                continue

            def frames_call(t0: int, t1: int):
                def call():
                    for t in range(t0, t1):
                        s = window_start(t, T, n)
                        cp.median(stack[s:s + n], axis=0)
                return call

            mid = T // 2
            one = time_ms(cp, frames_call(mid, mid + 1), 1)
            f = max(1, min(T, int(args.budget_ms / max(one, 1e-3))))
            t0 = max(0, min(mid - f // 2, T - f))
            ms = time_ms(cp, frames_call(t0, t0 + f), args.runs)
            gpix = args.size * args.size * f / ms / 1e6
            note = (f"cupy.median per output frame, timed on {f} of {T} output frames; " +
                    ("float64 result, " if name != "f32" else "") +
                    ("mean of the two middles (even N)" if n % 2 == 0 else "odd N: the exact median"))
            rows.append({"type": name, "method": "cupy", "n": n, "frames": T, "timed_frames": f,
                         "size": args.size, "gpix_per_s": gpix, "exact": None, "note": note})
            print(f"  cupy {name} N={n}: {gpix:.4f} Gpix/s ({note})", flush=True)
        del stack
        cp.get_default_memory_pool().free_all_blocks()
    pathlib.Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
