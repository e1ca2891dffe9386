#!/usr/bin/env bash
# The temporal-median benchmark, end to end on the GPU machine (device tool; carry
# bench/gpu/images, made here by bench/gpu/prepare_images.py; without it the movie is random):
# builds the library and both temporal benchmarks there (build-bench, run.sh's flags), runs
# the GPU benchmark (ours device-resident + identity + per-pixel sort on the GPU, then the
# host-memory path), the CPU benchmark on $THREADS threads (default 16; ours beside per-pixel
# std::sort / nth_element, sampled), and CuPy's temporal median when CuPy imports; prints the
# merged table last. In $OUT (4 files): temporal_gpu.log, temporal_cpu.log, temporal_cupy.log,
# temporal_results.md (tables + the raw JSON); the build log and JSON in /tmp/fastmedian-temporal.
#
#   bench/gpu/run_temporal.sh [--n 9,50,500] [--frames 512] [--size 2048] [--types u16]
#
# Those arguments (and --runs) go to all three; BUILD_DIR overrides the build folder. Each step
# has a time limit (GPU_LIMIT=200, CPU_LIMIT=150, CUPY_LIMIT=70 seconds): with the ~1 minute
# build (16 cores) the whole run stays within 8 minutes, ~4 when nothing is slow.
# Exit status: 1 when a build or a step failed or a result differs from the CPU backend.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-temporal}
work=/tmp/fastmedian-temporal
threads=${THREADS:-16}
build=${BUILD_DIR:-build-bench}
mkdir -p "$out" "$work"
rm -f "$work"/*.json
status=0
start=$(date +%s)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
  -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1 &&
  cmake --build "$build" --target fastmedian_bench_temporal_gpu fastmedian_bench_temporal_cpu \
    >>"$work/build.log" 2>&1 ||
  { echo "build failed:"; tail -40 "$work/build.log"; exit 1; }
echo "built in $(($(date +%s) - start)) s; $(nproc) hardware threads"

step() {  # step NAME LIMIT LOG COMMAND...: runs COMMAND under a time limit, tees to LOG
  local name=$1 limit=$2 log=$3 rc
  shift 3
  echo "== $name ($(($(date +%s) - start)) s elapsed)"
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ]; then
    status=1
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      echo "!!! $name stopped after its limit of $limit s" | tee -a "$log"
    else
      echo "!!! $name exited with status $rc" | tee -a "$log"
    fi
  fi
}

step "GPU benchmark" "${GPU_LIMIT:-200}" "$out/temporal_gpu.log" \
  "$build/bench/fastmedian_bench_temporal_gpu" --images bench/gpu/images \
  --json "$work/gpu.json" "$@"
step "CPU benchmark, $threads threads" "${CPU_LIMIT:-150}" "$out/temporal_cpu.log" \
  "$build/bench/cpu/fastmedian_bench_temporal_cpu" --images bench/gpu/images \
  --threads "$threads" --json "$work/cpu.json" "$@"
if python3 -c "import cupy" 2>/dev/null; then
  step "CuPy peer" "${CUPY_LIMIT:-70}" "$out/temporal_cupy.log" \
    python3 bench/gpu/cupy_temporal_peer.py --images bench/gpu/images --json "$work/cupy.json" "$@"
else
  echo "CuPy does not import here: peer skipped" | tee "$out/temporal_cupy.log"
fi

{
  echo "# Temporal median throughput"
  echo
  echo "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1); $(nproc) CPU" \
    "threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%F)."
  echo "Run: bench/gpu/run_temporal.sh $*"
  echo
  python3 bench/gpu/report_temporal.py "$work/gpu.json" "$work/cpu.json" "$work/cupy.json"
  echo
  echo '```json'
  for j in gpu cpu cupy; do [ -f "$work/$j.json" ] && cat "$work/$j.json"; done
  echo '```'
} >"$out/temporal_results.md"
echo
echo "== results ($(($(date +%s) - start)) s elapsed)"
sed '/^```json/,$d' "$out/temporal_results.md"
exit $status
