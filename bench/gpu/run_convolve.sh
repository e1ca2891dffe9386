#!/usr/bin/env bash
# The convolution benchmark, end to end on the GPU machine (device tool; carry
# bench/gpu/images, made here by bench/gpu/prepare_images.py): builds the library and the
# benchmark there (build-bench-conv; the machine has nvcc, CMake and NPP), runs ours beside the
# identity kernel and NPP (nppiFilter, nppiFilterRow + nppiFilterColumn) on 4096 x 4096 u8, u16
# and f32 images (generic 3x3, 5x5, 9x9, 31x31; Gaussian sigma 1, 3, 10), and prints the table
# last. In $OUT (2 files): convolve_gpu.log and convolve_results.md (the table, the issue's
# targets and the raw JSON); the build log in /tmp/fastmedian-convolve.
#
#   bench/gpu/run_convolve.sh [--runs 15] [--size 4096] [--types u8,u16,f32]
#
# BUILD_DIR overrides the build folder; GPU_LIMIT (default 240 s) bounds the benchmark.
# Exit status: 1 when the build or the benchmark failed or a GPU result differs from the CPU's.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-convolve}
work=/tmp/fastmedian-convolve
build=${BUILD_DIR:-build-bench-conv}
mkdir -p "$out" "$work"
start=$(date +%s)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
  -DFASTMEDIAN_JNI=OFF -DFASTMEDIAN_PYTHON=OFF >"$work/build.log" 2>&1 &&
  cmake --build "$build" --target fastmedian_bench_convolve_gpu >>"$work/build.log" 2>&1 ||
  { echo "build failed:"; tail -40 "$work/build.log"; exit 1; }
grep -E "GPU benchmark" "$work/build.log" || echo "NPP not found: the benchmark runs without it"
echo "built in $(($(date +%s) - start)) s"

timeout --kill-after=10 "${GPU_LIMIT:-240}" "$build/bench/fastmedian_bench_convolve_gpu" \
  --images bench/gpu/images --json "$work/convolve.json" "$@" 2>&1 | tee "$out/convolve_gpu.log"
status=${PIPESTATUS[0]}
[ "$status" -eq 124 ] || [ "$status" -eq 137 ] && echo "!!! benchmark stopped after ${GPU_LIMIT:-240} s"

{
  echo "# Convolution throughput"
  echo
  echo "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(date -u +%F)."
  echo "Run: bench/gpu/run_convolve.sh $*. Gpix/s of output pixels, device-resident images;"
  echo "ours filters the whole image (replicate border), NPP the valid interior."
  echo "Targets (issue 6, H100): generic 5x5 f32 >= 60% of the identity kernel, separable"
  echo "Gaussian sigma 3 >= 50%; every case faster than NPP."
  echo
  echo '```'
  sed -n '/^type /,$p' "$out/convolve_gpu.log"
  echo '```'
  echo
  echo '```json'
  [ -f "$work/convolve.json" ] && cat "$work/convolve.json"
  echo '```'
} >"$out/convolve_results.md"
echo "== done in $(($(date +%s) - start)) s"
exit "$status"
