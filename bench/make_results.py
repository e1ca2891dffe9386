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

SHARED = ("the shared images (u8 `embryos_grey`, u16 the 48 `cancer_cell_migration` frames as a "
          "mosaic, f32 `BPAE_actin`, whose values are whole numbers), mirror-tiled to 4096^2")

# The runs the tables come from. files: in bench/results/; notebook: in docs/notebook/.
RUNS = {
    "median_small": {
        "title": "2D median, squares 3 to 7 (GPU, device-resident)",
        "files": ["gpu-median-h100-2026-11-27-edges.json", "gpu-median-h100-2026-11-27-edges-cupy.json"],
        "date": "2026-11-27", "device": "H100", "data": SHARED,
        "command": "`bench/gpu/run.sh --k 3,5,7` (15 runs), the library of the entry's final step",
        "notebook": "gpu-median-h100-2026-11-27-edges.md",
    },
    "median_large": {
        "title": "2D median, squares 9 to 21 (GPU, device-resident)",
        "files": ["gpu-median-h100-2026-11-27-lanes8-large.json",
                  "gpu-median-h100-2026-11-27-lanes8-large-cupy.json"],
        "date": "2026-11-27", "device": "H100", "data": SHARED,
        "command": "`bench/gpu/run.sh --k 9,11,15,21` (15 runs); the kernels of these windows "
                   "did not change in the later run above",
        "notebook": "gpu-median-h100-2026-11-27-lanes8.md",
    },
    "exact_large": {
        "title": "Exact median, large squares (GPU, device-resident)",
        "files": ["separable-h100-2026-11-24.json"],
        "date": "2026-11-24", "device": "H100", "data": SHARED,
        "command": "`fastmedian_bench_background`, k 31 to 255, without NPP (the entry gives no "
                   "command line for this run; its exact kernels are those of "
                   "`docs/notebook/exact-large-h100-2026-11-24c.md`)",
        "notebook": "separable-h100-2026-11-24.md",
        "later": "The exact large-window kernels changed after this run: float planes of more than "
                 "65536 values (66e6f81) and the u16 rebuild (a1d0236), measured only on "
                 "k = 31 and 65 in `docs/notebook/data-dependence-h100-2026-11-24.md`. The run "
                 "also timed the separable smoother, superseded by the separable smoother's table "
                 "below (not shown here).",
    },
    "npp_large": {
        "title": "NPP median at large squares (GPU, device-resident)",
        "files": ["separable-h100-2026-11-23.json"],
        "date": "2026-11-23", "device": "H100", "data": SHARED,
        "command": "`fastmedian_bench_background --types u8,u16,f32 --k 31,65,129,255 --runs 7` "
                   "with NPP (k <= 65; a call takes seconds, so it runs once)",
        "notebook": "separable-h100-2026-11-23.md",
        "later": "The last run with NPP at these windows. Our figures of that run are older than "
                 "the tables above and are not shown; compare within a run only. CuPy at these "
                 "windows ran on a 1024^2 crop and kept no JSON (see the entry).",
    },
    "separable": {
        "title": "Separable median smoother (background, GPU, device-resident)",
        "files": ["separable-h100-2026-11-24b.json"],
        "date": "2026-11-24", "device": "H100", "data": SHARED,
        "command": "`fastmedian_bench_background --types u8,u16,f32 --k 3,7,15,31,65,129,255 "
                   "--methods separable --runs 11 --npp 0`",
        "notebook": "separable-h100-2026-11-24b.md",
    },
    "pipeline": {
        "title": "Host memory through the plane pipeline (GPU, one device)",
        "files": ["pipeline-h100-2026-11-24-median3d-B.json"],
        "date": "2026-11-24", "device": "H100",
        "data": "a synthetic u16 stack of random-walk texture, 2048 x 2048 x 100 (not the shared images)",
        "command": "`fastmedian_bench_pipeline --size 2048x2048x100 --runs 5`, library B of the "
                   "entry (d3cfd62)",
        "notebook": "pipeline-h100-2026-11-24-median3d.md",
    },
}

# Benchmarks whose last full run kept no JSON: their latest table is in a notebook entry (or,
# for the CPU, in a file its script writes whole).
WITHOUT_JSON = [
    ("3D median (GPU)", "`bench/gpu/run_median3d.sh`", "docs/notebook/median3d-h100-2026-11-23.md",
     "f32 re-measured in `docs/notebook/median3d-h100-2026-11-24-signed-keys.md`"),
    ("temporal median (GPU and CPU)", "`bench/gpu/run_temporal.sh`",
     "docs/notebook/temporal-h100-2026-11-22-final.md", "its JSON is inside that file"),
    ("convolution (GPU)", "`bench/gpu/run_convolve.sh`", "docs/notebook/convolve-h100-2026-11-23.md", ""),
    ("several devices, Java arrays (GPU)", "`fastmedian_bench_pipeline --devices 2`, "
     "`bench/gpu/run_java_pipeline.sh`", "docs/notebook/pipeline-devices-java-2026-11-23.md",
     "2 x H200; JSON in docs/notebook/, older than the pipeline table above"),
    ("2D median on noise and random walks (GPU)", "`--data walk`, `--data noise`",
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
    """(type, method, k) -> the row's JSON fields, over every file of the run."""
    rows = [r for name in run["files"] for r in load(name)]
    return {(r["type"], r["method"], int(r["k"])): r for r in rows}


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


def fig(r) -> str:
    """A figure to 6 significant digits, as the C++ benchmarks print theirs (CuPy's peer writes
    Python's full float)."""
    return "-" if r is None else format(float(r["gpix_per_s"]), ".6g")


def exact(r) -> str:
    return "-" if r is None else ("yes" if r["exact"] else "NO")


def median_table(run: dict, adams: dict) -> list:
    f = figures(run)
    ks = sorted({k for (_, m, k) in f if m == "fastmedian"})
    rows = []
    for t in TYPES:
        for k in ks:
            ours = f.get((t, "fastmedian", k))
            if ours is None:
                continue
            rows.append([t, f"{k}x{k}", fig(ours), exact(ours), fig(f.get((t, "identity", 0))),
                         fig(f.get((t, "npp", k))), fig(f.get((t, "cupy", k))), adams.get((t, k), "-")])
    return table(["type", "window", "fastmedian", "equal to CPU", "identity kernel", "NPP",
                  "CuPy", "Adams 2021 (published)"], rows)


def exact_table(run: dict, wavelet: dict) -> list:
    f = figures(run)
    ks = sorted({k for (_, m, k) in f if m == "exact"})
    rows = [[t, f"{k}x{k}", fig(f[(t, "exact", k)]), exact(f[(t, "exact", k)]),
             fig(f.get((t, "identity", 0))), wavelet.get((t, k), "-")]
            for t in TYPES for k in ks if (t, "exact", k) in f]
    return table(["type", "window", "fastmedian exact", "equal to CPU", "identity kernel",
                  "2D wavelet matrix 2022 (published)"], rows)


def npp_table(run: dict) -> list:
    f = figures(run)
    rows = [[t, f"{k}x{k}", fig(f[(t, "npp", k)]), fig(f.get((t, "identity", 0)))]
            for t in TYPES for k in sorted({k for (_, m, k) in f if m == "npp"}) if (t, "npp", k) in f]
    return table(["type", "window", "NPP", "identity kernel"], rows)


def separable_table(run: dict) -> list:
    f = figures(run)
    rows = [[t, f"{k}x{k}", fig(f[(t, "separable", k)]), exact(f[(t, "separable", k)]),
             fig(f.get((t, "identity", 0)))]
            for t in TYPES for k in sorted({k for (_, m, k) in f if m == "separable"})
            if (t, "separable", k) in f]
    return table(["type", "window", "separable smoother", "equal to CPU", "identity kernel"], rows)


def pipeline_table(run: dict) -> list:
    (name,) = run["files"]
    data = load(name)
    lines = para(f"Transfer limit measured in the same run: {data['limit_gpix_per_s']} Gpix/s "
                 f"(pinned upload {data['h2d_gb_per_s']} GB/s, download {data['d2h_gb_per_s']} "
                 f"GB/s, both at once {data['both_gb_per_s']} GB/s).") + [""]
    rows = [[r["case"], r["memory"], r["devices"], r["gpix_per_s"], r["fraction"]] for r in data["rows"]]
    return lines + table(["case (u16)", "host memory", "devices", "Gpix/s (Gvox/s)",
                          "fraction of the transfer limit"], rows)


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
        "Data kind: every device-resident table below is on the shared images (the host-memory "
        "table on a synthetic random walk); no JSON kept holds a run on noise or on f32 with fractions (`--data noise`), nor on f32 flat-field data "
        "(no benchmark makes it yet; `docs/performance.md`, \"The four kinds of data\").")
    sections = [
        ("median_small", lambda r: median_table(r, adams)),
        ("median_large", lambda r: median_table(r, adams)),
        ("exact_large", lambda r: exact_table(r, wavelet)),
        ("npp_large", npp_table),
        ("separable", separable_table),
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
