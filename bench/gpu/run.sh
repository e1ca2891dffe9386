#!/usr/bin/env bash
# The GPU benchmark, end to end on the GPU machine (device tool; carry bench/gpu/images, made
# here by bench/gpu/prepare_images.py): builds the library and the benchmark there (the machine
# has nvcc, CMake and NPP), runs ours + identity + NPP on every kind of data (--data all by
# default; the inputs are dumped for the peers), then CuPy on the same inputs, and prints the
# merged table. Arguments (--k 3,5 --runs N --size S --data K) go to ours; --k and --runs to CuPy
# too. bench.log, results.md and the JSON (gpu-median.json, gpu-median-cupy.json: what
# bench/make_results.py reads, once copied into bench/results/) land in $OUT; the rest in
# /tmp/fastmedian-bench.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-bench}
work=/tmp/fastmedian-bench
mkdir -p "$out" "$work"
rm -rf "$work/inputs"
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
  -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1
cmake --build build-bench --target fastmedian_bench_gpu >>"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
grep -E "GPU benchmark" "$work/build.log" || true
build-bench/bench/fastmedian_bench_gpu --images bench/gpu/images --json "$out/gpu-median.json" \
  --dump "$work/inputs" "$@" | tee "$out/bench.log"
peer_args=()
while [ $# -gt 0 ]; do
  case "$1" in --k|--runs) peer_args+=("$1" "$2") ;; esac
  shift 2
done
python3 bench/gpu/cupy_peer.py --inputs "$work/inputs" --json "$out/gpu-median-cupy.json" \
  "${peer_args[@]}" >"$work/cupy.log" 2>&1 ||
  { echo "CuPy peer failed:"; tail -5 "$work/cupy.log"; echo '[]' >"$out/gpu-median-cupy.json"; }
python3 bench/gpu/report.py "$out/gpu-median.json" "$out/gpu-median-cupy.json" | tee "$out/results.md"
