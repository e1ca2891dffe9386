#!/usr/bin/env bash
# The 2D median under each GPU policy (kernels/gpu_policies.cpp), forced on the GPU machine
# with FASTMEDIAN_GPU_POLICY (device tool; carry bench/gpu/images): the device's own policy,
# then those of smaller cards, whose limits send the larger tiled squares to the next kernel
# that fits. Forced here they show what the fallbacks cost on this GPU, not the speed on those
# cards. Builds the benchmark as run.sh does, or with BENCH_BUILD=build takes the one built
# there (here, for sm_90: carry build/bench/fastmedian_bench_gpu and build/native/src); arguments
# go to every run (default --k 3..21 on the shared images and floats with fractions). JSON per
# policy and policies.md land in $OUT.
#   python3 bench/gpu/report_policies.py OUT/policy-*.json [--baseline bench/results/...json]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/fastmedian-bench}
work=/tmp/fastmedian-bench
mkdir -p "$out" "$work"
build=${BENCH_BUILD:-}
if [ -z "$build" ]; then
  build=build-bench
  cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_TESTS=OFF \
    -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1
  cmake --build build-bench --target fastmedian_bench_gpu >>"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; exit 1; }
fi
export LD_LIBRARY_PATH=$PWD/$build/native/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ $# -gt 0 ] || set -- --data images,flat
for policy in own sm_80 sm_86 sm_75; do
  FASTMEDIAN_GPU_POLICY=${policy#own} "$build/bench/fastmedian_bench_gpu" --images bench/gpu/images \
    --json "$out/policy-$policy.json" "$@" >"$work/policy-$policy.log" 2>&1 ||
    { tail -5 "$work/policy-$policy.log"; exit 1; }
done
python3 bench/gpu/report_policies.py "$out"/policy-*.json \
  --baseline bench/results/gpu-median-h200-2026-11-29-kinds.json | tee "$out/policies.md"
