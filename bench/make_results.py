#!/usr/bin/env python3
"""Writes bench/RESULTS.md, the current benchmark tables, from the JSON of the last full runs.

    python3 bench/make_results.py           # write bench/RESULTS.md
    python3 bench/make_results.py --check   # fail if bench/RESULTS.md differs (a CTest)

Each table reads the JSON files named in RUNS below (in bench/results/) and prints every
figure as the file holds it: no rounding, no ratios. What the JSON does not record (machine,
date, data, command, library commit) is written in RUNS from the run's notebook entry in
docs/notebook/, which the table cites. The published methods' figures (Adams 2021, the 2D
wavelet matrix) are read from docs/design.md's "Fastest published medians" table.

After a new full run: copy its JSON from the GPU machine's $OUT (bench/gpu/run.sh writes
gpu-median.json and gpu-median-cupy.json there, run_background.sh background.json and
background-cupy.json) into bench/results/ as <family>-<gpu>-<date>[-topic].json, point the
run's entry in RUNS at it (with its date, machine, data and command), move the JSON it replaces
to docs/notebook/ with git mv, and run this script.
"""
import argparse
import json
import pathlib
import re
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUTPUT = ROOT / "bench" / "RESULTS.md"
DESIGN = ROOT / "docs" / "design.md"
TYPES = ("u8", "u16", "f32")

KINDS = ("the four kinds of data of `docs/performance.md` side by side: the shared images (u8 "
         "`embryos_grey`, u16 the 48 `cancer_cell_migration` frames as a mosaic, f32 `BPAE_actin`, "
         "whose values are whole numbers) mirror-tiled to 4096^2; f32 with fractions (that f32 "
         "image divided by a flat field falling to 0.55 in the corners, plus Gaussian noise of a "
         "hundredth of its range); full-range noise (u8, u16); f32 with every value distinct "
         "(`bench/common/data_kinds.hpp`)")
SHARED = ("the shared images (u8 `embryos_grey`, u16 the 48 `cancer_cell_migration` frames as a "
          "mosaic, f32 `BPAE_actin`, whose values are whole numbers), mirror-tiled to 4096^2")
DATA_NAMES = {"images": "shared image", "flat": "f32 fractions", "noise": "noise", "walk": "walk"}

# The runs the tables come from. files: in bench/results/; notebook: in docs/notebook/.
RUNS = {
    "median": {
        "title": "2D median, squares 3 to 21, four kinds of data (GPU, device-resident)",
        "files": ["gpu-median-h200-2026-11-29-kinds.json", "gpu-median-h200-2026-11-29-kinds-cupy.json"],
        "date": "2026-11-29", "device": "H200", "data": KINDS,
        "command": "`bench/gpu/run.sh` (15 runs), main of 2026-11-29",
        "notebook": "four-kinds-h200-2026-11-29.md",
        "later": "Adams 2021 is the published H100 figure; this run is on an H200 (its identity "
                 "kernel copies about 1.4x faster than the H100's): compare ours with the peers "
                 "of the same run.",
    },
    "large": {
        "title": "Large squares, exact and separable, four kinds of data (GPU, device-resident)",
        "files": ["background-h200-2026-11-30-dense-spans.json", "background-h200-2026-11-30-dense-spans-cupy.json"],
        "date": "2026-11-30", "device": "H200", "data": KINDS,
        "command": "`fastmedian_bench_background` with `bench/gpu/run_background.sh`'s arguments (7 "
                   "runs; NPP for k <= 65; CuPy for k 31 and 65 on the inputs' 1024^2 corner), "
                   "compiled on the GPU machine against an sm_90 library built here, main of "
                   "2026-11-30 with the tile ranks for u16 and f32 windows to 157, the dense "
                   "ranks' moving spans, and f32 whole numbers on the dense ranks",
        "notebook": "tile-ranks-h200-2026-11-30.md",
        "later": "The 2D wavelet matrix is the published H100 figure on the shared images; it "
                 "costs the same on any data (issue 49 reran it on noise: u16 0.57-0.62, f32 "
                 "0.32-0.33 Gpix/s). Windows of 255 keep the dense ranks (u16, f32) and their "
                 "dependence on the data; 129 runs on tiles of 32768 slots, one block an SM, below "
                 "the issue's targets on noise and fractions (issue 49); the shared images (whole "
                 "numbers) keep the dense ranks there.",
    },
    "median3d": {
        "title": "3D median, four kinds of data (GPU, device-resident)",
        "files": ["median3d-h200-2026-11-29-padded.json", "median3d-h200-2026-11-29-padded-cupy.json"],
        "date": "2026-11-29", "device": "H200",
        "data": "the shared bead stack (u8; u16 = value x 257, f32 = value / 255) mirror-tiled to "
                "512 x 512 x 256, and from it f32 with fractions and full-range noise (f32: every "
                "value distinct) (`bench/common/data_kinds.hpp`)",
        "command": "`BENCH_BUILD=build bash bench/gpu/run_median3d.sh` (an sm_90 build; 15 runs; "
                   "CuPy 7 runs), main of 2026-11-29 with tiled networks for every box k x k x kz "
                   "and ellipsoid r, r, rz up to 7 and radius 3, and padded networks for other "
                   "windows of up to 169 voxels",
        "notebook": "median3d-networks-h200-2026-11-29.md",
        "later": "Windows of more than 169 voxels outside the tiled families (box 9x5x5 here) "
                 "take the GPU's radix selection, about CuPy's speed on f32 images; the padded "
                 "windows run below the tiled ones that contain them (ellipsoid 1.5 against box "
                 "3x3x3) (issue 50).",
    },
    "separable": {
        "title": "Separable median smoother (background, GPU, device-resident)",
        "files": ["separable-h100-2026-11-24b.json"],
        "date": "2026-11-24", "device": "H100", "data": SHARED,
        "command": "`fastmedian_bench_background --types u8,u16,f32 --k 3,7,15,31,65,129,255 "
                   "--methods separable --runs 11 --npp 0`",
        "notebook": "separable-h100-2026-11-24b.md",
    },
    "policies": {
        "title": "2D median under each GPU policy, forced on the GPU machine (GPU, device-resident)",
        "files": [f"policies-h200-2026-11-29-split-{p}.json" for p in ("own", "sm_80", "sm_86", "sm_75")],
        "date": "2026-11-29", "device": "H200", "data": "the shared images and f32 with fractions",
        "command": "`BENCH_BUILD=build bench/gpu/run_policies.sh --k 5,9,11,15,21 --data images,flat` (15 runs)",
        "notebook": "gpu-policies-h200-2026-11-29.md",
        "later": "Each policy's limits forced on the H200 (FASTMEDIAN_GPU_POLICY): its shared memory "
                 "a block, and through the carveout an SM, so that an SM holds as many blocks as "
                 "that card's would; not its registers, warps an SM or clocks. What a card of that "
                 "architecture's shared memory costs the kernels (tiled blocks of fewer warps, fewer "
                 "blocks an SM), measured here, not on such a card. sm_86 stands for sm_89 and "
                 "sm_120 (the same 99 KB a block, 100 KB an SM), own (sm_90) for sm_100.",
    },
    "pipeline": {
        "title": "Host memory through the plane pipeline (GPU; one, two and four devices)",
        "files": ["pipeline-h200x4-2026-11-29.json"],
        "date": "2026-11-29", "device": "4 x H200 (one host, 64 cores)",
        "data": "a synthetic u16 stack of random-walk texture, 2048 x 2048 x 200 (not the shared images)",
        "command": "`fastmedian_bench_pipeline --size 2048x2048x200 --runs 5 --devices 4` (bda7e4c)",
        "notebook": "pipeline-devices-h200x4-2026-11-29.md",
    },
}

# Benchmarks whose last full run kept no JSON: their latest table is in a notebook entry (or,
# for the CPU, in a file its script writes whole).
WITHOUT_JSON = [
    ("temporal median (GPU and CPU)", "`bench/gpu/run_temporal.sh`",
     "docs/notebook/temporal-h100-2026-11-22-final.md", "its JSON is inside that file"),
    ("convolution (GPU)", "`bench/gpu/run_convolve.sh`", "docs/notebook/convolve-h100-2026-11-23.md", ""),
    ("several devices, Java arrays (GPU)", "`fastmedian_bench_pipeline --devices 2`, "
     "`bench/gpu/run_java_pipeline.sh`", "docs/notebook/pipeline-devices-java-2026-11-23.md",
     "Java arrays on 1 x H100; the devices' rows are older than the pipeline table above"),
    ("2D median on random walks (GPU)", "`--data walk`",
     "docs/notebook/data-dependence-h100-2026-11-24.md", "k = 21 and large windows only"),
    ("2D median (CPU)", "`bench/cpu/run.sh MACHINE`",
     "bench/cpu/results-build-2core.md, bench/cpu/results-gpu-16core.md",
     "current tables, written whole by the script"),
    ("large squares (CPU)", "`fastmedian_bench_cpu --k 65`", "docs/notebook/cpu-large-windows-build-2core.md", ""),
    ("3D median (CPU)", "`fastmedian_bench_median3d_cpu`", "docs/notebook/cpu-median3d-build-2core.md", ""),
    ("Dask and Zarr (CPU)", "`bench/python/bench_dask.py`", "bench/python/results-cpu.md",
     "written whole by the script"),
]


def load(name: str):
    # Numbers stay the text the JSON holds, so nothing is rounded on the way.
    return json.loads((RESULTS / name).read_text(), parse_float=str, parse_int=str)


def figures(run: dict) -> dict:
    """(type, data, method, k) -> the row's JSON fields, over every file of the run; the identity
    kernel's data is "-", and runs before the data kinds were on the shared images."""
    rows = [r for name in run["files"] for r in load(name)]
    return {(r["type"], r.get("data", "images"), r["method"], int(r.get("k", 0))): r for r in rows}


def kinds_of(f: dict) -> list:
    return [d for d in DATA_NAMES if any(key[1] == d for key in f)]


def published() -> dict:
    """docs/design.md's "Fastest published medians": {method column: {(type, k): text}}."""
    text = DESIGN.read_text()
    start = text.index("### Fastest published medians")
    lines = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break  # the first table after the heading ends here
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {h: {} for h in header[1:]}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        k = int(re.match(r"(\d+)x\d+$", cells[0]).group(1))
        for h, cell in zip(header[1:], cells[1:]):
            if cell != "-":
                for t, v in zip(TYPES, cell.split(" / ")):
                    out[h][(t, k)] = v
    return out


def column(pub: dict, prefix: str) -> dict:
    return next(v for h, v in pub.items() if h.startswith(prefix))


def para(text: str) -> list:
    return textwrap.wrap(text, width=96, break_long_words=False, break_on_hyphens=False)


def source(run: dict) -> list:
    files = ", ".join(f"`bench/results/{f}`" for f in run["files"])
    lines = para(f"Source: {files}. {run['date']}, {run['device']}. Data: {run['data']}. "
                 f"Run: {run['command']}. Notes: `docs/notebook/{run['notebook']}`.")
    if run.get("later"):
        lines += [""] + para(run["later"])
    return lines


def table(header: list, rows: list) -> list:
    return (["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            + ["| " + " | ".join(r) + " |" for r in rows])


def fig(r, key="gpix_per_s") -> str:
    """A figure to 6 significant digits, as the C++ benchmarks print theirs (CuPy's peer writes
    Python's full float)."""
    return "-" if r is None else format(float(r[key]), ".6g")


def exact(r) -> str:
    return "-" if r is None else ("yes" if r["exact"] else "NO")


def median_table(run: dict, adams: dict) -> list:
    f = figures(run)
    ks = sorted({k for (_, _, m, k) in f if m == "fastmedian"})
    rows = []
    for t in TYPES:
        for k in ks:
            for d in kinds_of(f):
                ours = f.get((t, d, "fastmedian", k))
                if ours is None:
                    continue
                rows.append([t, f"{k}x{k}", DATA_NAMES[d], fig(ours), exact(ours),
                             fig(f.get((t, "-", "identity", 0))), fig(f.get((t, d, "npp", k))),
                             fig(f.get((t, d, "cupy", k))), adams.get((t, k), "-")])
    return table(["type", "window", "data", "fastmedian", "equal to CPU", "identity kernel", "NPP",
                  "CuPy", "Adams 2021 (published, H100)"], rows)


def large_table(run: dict, wavelet: dict) -> list:
    f = figures(run)
    ks = sorted({k for (_, _, m, k) in f if m == "exact"})
    rows = []
    for t in TYPES:
        for k in ks:
            for d in kinds_of(f):
                e, s = f.get((t, d, "exact", k)), f.get((t, d, "separable", k))
                if e is None:
                    continue
                rows.append([t, f"{k}x{k}", DATA_NAMES[d], fig(e), exact(e), fig(s), exact(s),
                             fig(f.get((t, "-", "identity", 0))), fig(f.get((t, d, "npp", k))),
                             fig(f.get((t, d, "cupy", k))), wavelet.get((t, k), "-")])
    return table(["type", "window", "data", "exact", "equal to CPU", "separable smoother",
                  "equal to CPU", "identity kernel", "NPP", "CuPy (1024^2 corner)",
                  "2D wavelet matrix 2022 (published, H100)"], rows)


def median3d_table(run: dict) -> list:
    ours_file, peer_file = run["files"]
    ours = figures({"files": [ours_file]})
    peer = figures({"files": [peer_file]})
    windows = list(dict.fromkeys(m for (_, _, m, _) in ours if m != "identity"))
    rows = [[t, w, DATA_NAMES[d], fig(ours[(t, d, w, 0)], "gvox_per_s"), exact(ours[(t, d, w, 0)]),
             fig(ours.get((t, "-", "identity", 0)), "gvox_per_s"),
             fig(peer.get((t, d, w, 0)), "gvox_per_s")]
            for t in TYPES for w in windows for d in kinds_of(ours) if (t, d, w, 0) in ours]
    return table(["type", "window", "data", "fastmedian Gvox/s", "equal to CPU",
                  "identity kernel", "CuPy"], rows)


def separable_table(run: dict) -> list:
    f = figures(run)
    rows = [[t, f"{k}x{k}", fig(f[(t, "images", "separable", k)]), exact(f[(t, "images", "separable", k)]),
             fig(f.get((t, "images", "identity", 0)))]
            for t in TYPES for k in sorted({k for (_, _, m, k) in f if m == "separable"})
            if (t, "images", "separable", k) in f]
    return table(["type", "window", "separable smoother", "equal to CPU", "identity kernel"], rows)


def policies_table(run: dict) -> list:
    runs = [{(r["type"], r["data"], r["k"]): r for r in load(name) if r["method"] == "fastmedian"}
            for name in run["files"]]
    own = runs[0]
    rows = []
    for key in sorted(own, key=lambda t: (TYPES.index(t[0]), t[1], int(t[2]))):
        row = [key[0], DATA_NAMES[key[1]], f"{key[2]}x{key[2]}", fig(own[key])]
        for other in runs[1:]:
            ratio = float(other[key]["gpix_per_s"]) / float(own[key]["gpix_per_s"])
            row.append(f"{fig(other[key])} ({ratio:.2f}x)")
        rows.append(row)
    return table(["type", "data", "window", "own (sm_90)", "sm_80, 163 KB", "sm_86/89/120, 99 KB",
                  "sm_75, 64 KB"], rows)


def pipeline_table(run: dict) -> list:
    (name,) = run["files"]
    data = load(name)
    copy = data["host_copy_gb_per_s"]
    lines = para(f"Transfer limit of one device measured in the same run: {data['limit_gpix_per_s']} "
                 f"Gpix/s (pinned upload {data['h2d_gb_per_s']} GB/s, download {data['d2h_gb_per_s']} "
                 f"GB/s, both at once {data['both_gb_per_s']} GB/s); each row's fraction is of the "
                 f"limit of its devices at once, measured beside it. The host's copy rate (every "
                 f"core, pageable to pageable, streaming stores): {copy} GB/s, so that pageable "
                 f"memory, which the cores copy in and out, cannot pass "
                 f"{float(copy) / 4:.3g} Gpix/s on any number of devices.") + [""]
    one = {(r["case"], r["memory"]): r["gpix_per_s"] for r in data["rows"] if r["devices"] == "1"}
    rows = [[r["case"], r["memory"], r["devices"], r["gpix_per_s"], r["fraction"],
             f"{float(r['gpix_per_s']) / float(one[(r['case'], r['memory'])]):.2f}x"]
            for r in data["rows"]]
    return lines + table(["case (u16)", "host memory", "devices", "Gpix/s (Gvox/s)",
                          "fraction of the transfer limit", "over one device"], rows)


def render() -> str:
    pub = published()
    adams, wavelet = column(pub, "Adams 2021"), column(pub, "2D wavelet matrix")
    out = ["# Benchmark results: the current tables", ""] + para(
        "Generated by `bench/make_results.py` from the JSON of the last full runs in "
        "`bench/results/`; do not edit by hand (`python3 bench/make_results.py` rewrites it, and "
        "the CTest `generated.results_table` fails when it differs). Runs read:") + [""]
    out += [f"- {run['date']}, {run['device']}: " + ", ".join(f"`{f}`" for f in run["files"])
            for run in RUNS.values()]
    out += [""] + para(
        "Figures are printed to 6 significant digits; "
        "throughput counts output pixels (Gpix/s) or voxels (Gvox/s). Ours, the identity kernel "
        "(a 16-byte-load copy, the memory-bound ceiling), NPP and CuPy of one table ran in one "
        "device session; compare figures within a table. Ours filters the whole image with the "
        "replicate border, NPP the valid interior only, CuPy with `mode='nearest'`. \"Equal to "
        "CPU\": the GPU output was compared with the CPU backend's before timing. The published "
        "methods' figures are copied from `docs/design.md` (H100, 2026-11-22, valid interior "
        "only), not measured in these runs. How each benchmark runs: `docs/performance.md`; the "
        "dated experiment logs: `docs/notebook/`.") + [""] + para(
        "Data kind: the 2D, large-window and 3D median tables measure each case on the four kinds "
        "of data of `docs/performance.md` side by side (the shared images, f32 with fractions, "
        "full-range noise, f32 with every value distinct); a float figure on the shared image is "
        "on whole numbers. The separable smoother's table is on the shared images only, and the "
        "host-memory table on a synthetic random walk.")
    sections = [
        ("median", lambda r: median_table(r, adams)),
        ("large", lambda r: large_table(r, wavelet)),
        ("median3d", median3d_table),
        ("separable", separable_table),
        ("policies", policies_table),
        ("pipeline", pipeline_table),
    ]
    for key, make in sections:
        run = RUNS[key]
        out += ["", f"## {run['title']}", ""] + source(run) + [""] + make(run)
    out += ["", "## Benchmarks without a JSON table", ""] + para(
        "Their last full runs kept no JSON here (or write their table whole); the latest "
        "table of each is in the file named.") + [""]
    out += table(["benchmark", "run", "latest table", "note"],
                 [[a, b, ", ".join(f"`{p.strip()}`" for p in c.split(",")), d or "-"]
                  for a, b, c, d in WITHOUT_JSON])
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if bench/RESULTS.md is out of date")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run python3 bench/make_results.py",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
