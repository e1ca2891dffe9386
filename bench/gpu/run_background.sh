#!/usr/bin/env bash
# The large-window benchmark on the GPU machine (device tool; carry bench/gpu/images): builds
# the library and fastmedian_bench_background there, runs it (ours exact and separable,
# identity, NPP) on every kind of data (--data all by default; the inputs are dumped for the
# peer), then CuPy's median_filter on the same inputs where it finishes in reasonable time
# (k 31 and 65 on a 1024^2 crop), and prints the table last. Logs and the JSON (background.json,
# background-cupy.json: what bench/make_results.py reads, once copied into bench/results/) in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-background}
work=/tmp/fastmedian-background
mkdir -p "$out" "$work"
rm -rf "$work/inputs"
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
  -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1
cmake --build build-bench --target fastmedian_bench_background >>"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
timeout 420 build-bench/bench/fastmedian_bench_background --images bench/gpu/images \
  --json "$out/background.json" --dump "$work/inputs" "$@" >"$out/background.log" 2>&1
status=$?
echo "== CuPy median_filter, 1024^2 crop (mode nearest):" | tee "$out/cupy.log"
timeout 180 python3 bench/gpu/cupy_peer.py --inputs "$work/inputs" --json "$out/background-cupy.json" \
  --k 31,65 --size 1024 --runs 3 >>"$out/cupy.log" 2>&1 || echo "CuPy peer failed or timed out" >>"$out/cupy.log"
cat "$out/cupy.log"
grep -v "^  " "$out/background.log"
exit $status
