#!/usr/bin/env python3
"""Merges the temporal benchmarks' JSON files (fastmedian_bench_temporal_gpu,
fastmedian_bench_temporal_cpu, cupy_temporal_peer.py; any may be missing or empty) into
markdown tables: the GPU beside the identity kernel, the per-pixel sort on the GPU and CuPy;
the host-memory path; the CPU backend beside per-pixel sorting on the same machine; and the
issue's targets (H100: N=50 >= 20 Gpix/s device-resident; CPU >= 5x per-pixel sorting).

    python3 bench/gpu/report_temporal.py gpu.json cpu.json cupy.json > results.md
"""
import json
import pathlib
import sys

# docs/design.md, "Fastest published medians": CuPy's temporal median on the H100
# (cupy.median over frames, one 2048x2048 u16 output frame), Gpix/s.
CUPY_DESIGN = {9: 0.32, 50: 0.055, 500: 0.021}
TARGET_GPU = {50: 20.0}  # u16, device-resident, Gpix/s
TARGET_CPU_SPEEDUP = 5.0  # ours / per-pixel std::sort on the same CPU


def f(v):
    if v is None:
        return "-"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def ratio(a, b):
    return "-" if not a or not b else f"{a / b:.1f}x"


def exact(r):
    if r is None:
        return "-"
    return {True: "yes", False: "**NO**", None: "-"}[r.get("exact")]


def main() -> None:
    rows = []
    for path in sys.argv[1:]:
        p = pathlib.Path(path)
        if p.exists() and p.stat().st_size:
            try:
                rows += json.loads(p.read_text())
            except json.JSONDecodeError as e:
                print(f"(could not read {path}: {e})\n")
    fig = {(r["type"], r["method"], r["n"]): r for r in rows}

    def g(t, m, n):
        r = fig.get((t, m, n))
        return None if r is None else r["gpix_per_s"]

    types = sorted({r["type"] for r in rows}, key=["u8", "u16", "f32"].index)
    gpu_ns = sorted({r["n"] for r in rows if r["method"] == "fastmedian"})
    if gpu_ns:
        any_row = next(r for r in rows if r["method"] == "fastmedian")
        print(f"GPU, device-resident, {any_row['frames']} frames of {any_row['size']}^2, "
              "output Gpix/s:\n")
        print("| type | N | fastmedian | exact | identity | per-pixel sort (GPU) | sort exact | "
              "vs sort | CuPy (this run) | vs CuPy | CuPy (DESIGN.md) | target | met |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for t in types:
            for n in gpu_ns:
                ours = g(t, "fastmedian", n)
                if ours is None:
                    continue
                target = TARGET_GPU.get(n) if t == "u16" else None
                met = "-" if target is None else ("yes" if ours >= target else "**NO**")
                cupy_d = CUPY_DESIGN.get(n) if t == "u16" else None
                print(f"| {t} | {n} | {f(ours)} | {exact(fig.get((t, 'fastmedian', n)))} | "
                      f"{f(g(t, 'identity', 0))} | {f(g(t, 'sort-gpu', n))} | "
                      f"{exact(fig.get((t, 'sort-gpu', n)))} | {ratio(ours, g(t, 'sort-gpu', n))} | "
                      f"{f(g(t, 'cupy', n))} | {ratio(ours, g(t, 'cupy', n))} | {f(cupy_d)} | "
                      f"{f(target)} | {met} |")
        host = [r for r in rows if r["method"].startswith("fastmedian-host-")]
        if host:
            print("\nGPU backend on host-memory stacks (transfers included), output Gpix/s:\n")
            print("| type | N | memory | frames | Gpix/s | exact | device-resident |")
            print("|---|---|---|---|---|---|---|")
            for r in host:
                print(f"| {r['type']} | {r['n']} | {r['method'][len('fastmedian-host-'):]} | "
                      f"{r['frames']} | {f(r['gpix_per_s'])} | {exact(r)} | "
                      f"{f(g(r['type'], 'fastmedian', r['n']))} |")
        sorts = [r for r in rows if r["method"] == "sort-gpu"]
        if sorts:
            print("\nThe per-pixel sort on the GPU is timed on a run of output frames in the middle "
                  "of the movie (" + ", ".join(f"{r['type']} N={r['n']}: {r['timed_frames']} of "
                                             f"{r['frames']}" for r in sorts) + ").")
    cpu_ns = sorted({r["n"] for r in rows if r["method"] == "fastmedian-cpu"})
    if cpu_ns:
        any_row = next(r for r in rows if r["method"] == "fastmedian-cpu")
        base_threads = sorted({r["threads"] for r in rows if r["method"] == "sort-cpu"})
        print(f"\nCPU, {any_row['frames']} frames of {any_row['size']}^2, output Gpix/s; ours on "
              f"the library's {any_row['threads']} threads (the whole movie), per-pixel baselines "
              f"on {', '.join(map(str, base_threads))} std::threads, timed on a sample of the "
              "outputs (the % column) and scaled per output pixel:\n")
        print("| type | N | fastmedian CPU | per-pixel std::sort | % | exact | per-pixel nth_element | "
              "% | exact | vs sort | vs nth_element | target vs sort | met |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")

        def pct(r):
            return "-" if r is None or "sample" not in r else f"{100 * r['sample']:.3g}"
        for t in types:
            for n in cpu_ns:
                ours = g(t, "fastmedian-cpu", n)
                if ours is None:
                    continue
                srt = g(t, "sort-cpu", n)
                rs, rn = fig.get((t, "sort-cpu", n)), fig.get((t, "nth_element-cpu", n))
                met = "-" if not srt else ("yes" if ours / srt >= TARGET_CPU_SPEEDUP else "**NO**")
                print(f"| {t} | {n} | {f(ours)} | {f(srt)} | {pct(rs)} | {exact(rs)} | "
                      f"{f(g(t, 'nth_element-cpu', n))} | {pct(rn)} | {exact(rn)} | "
                      f"{ratio(ours, srt)} | {ratio(ours, g(t, 'nth_element-cpu', n))} | "
                      f"{TARGET_CPU_SPEEDUP:g}x | {met} |")
    if any(r.get("exact") is False for r in rows):
        print("\n**Some outputs differ from the CPU backend: see MISMATCH in the logs.**")


if __name__ == "__main__":
    main()
