#!/usr/bin/env bash
# The 3D median benchmark on the GPU machine (device tool; carry bench/gpu/images, made here by
# bench/gpu/prepare_images.py): builds the library and fastmedian_bench_median3d there, runs
# ours + identity on every kind of data (--data all by default; the volumes are dumped for the
# peer), then CuPy's median_filter on the same volumes, and prints one table (Gvox/s, ours /
# CuPy). With BENCH_BUILD=build it takes the benchmark built there (here, for sm_90: carry
# build/bench/fastmedian_bench_median3d and build/native/src). Logs, the JSON and results.md
# land in $OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-bench3d}
work=/tmp/fastmedian-bench3d
mkdir -p "$out" "$work"
rm -rf "$work/inputs"
build=${BENCH_BUILD:-}
if [ -z "$build" ]; then
  build=build-bench
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
    -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1
  cmake --build build-bench --target fastmedian_bench_median3d >>"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; exit 1; }
fi
export LD_LIBRARY_PATH=$PWD/$build/native/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$build"/bench/fastmedian_bench_median3d --images bench/gpu/images --json "$out/median3d.json" \
  --dump "$work/inputs" "$@" | tee "$out/bench.log"
python3 bench/gpu/cupy_median3d.py --inputs "$work/inputs" --json "$out/median3d-cupy.json" >"$out/cupy.log" 2>&1 ||
  { echo "CuPy peer failed:"; tail -5 "$out/cupy.log"; echo '[]' >"$out/median3d-cupy.json"; }
python3 - "$out/median3d.json" "$out/median3d-cupy.json" <<'PY' | tee "$out/results.md"
import json, sys
ours, cupy = (json.load(open(p)) for p in sys.argv[1:3])
peer = {(r["type"], r["data"], r["method"]): r["gvox_per_s"] for r in cupy}
ident = {r["type"]: r["gvox_per_s"] for r in ours if r["method"] == "identity"}
print("| type | window | data | fastmedian Gvox/s | exact | CuPy Gvox/s | ours / CuPy | identity Gvox/s |")
print("|---|---|---|---|---|---|---|---|")
for r in sorted((r for r in ours if r["method"] != "identity"), key=lambda r: (r["type"], r["method"])):
    g = r["gvox_per_s"]
    c = peer.get((r["type"], r["data"], r["method"]))
    peer_cell, ratio = (f"{c:.3f}", f"{g / c:.0f}x") if c else ("-", "-")
    print(f"| {r['type']} | {r['method']} | {r['data']} | {g:.2f} | {'yes' if r['exact'] else 'NO'} | "
          f"{peer_cell} | {ratio} | {ident[r['type']]:.0f} |")
PY
