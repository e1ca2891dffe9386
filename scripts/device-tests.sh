#!/usr/bin/env bash
# Runs the native GPU suites on the device machine (through the device tool), from a build made
# here for sm_90 and carried as build/ (the device machine has no GoogleTest or libtiff):
#   cmake --preset default && cmake --build --preset default
#   device run: scripts/device-tests.sh   (carry: build)
# Logs go to $OUT; a short summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/fastmedian-device}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build/native/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
summary=()
for t in fastmedian_core_tests fastmedian_cuda_tests; do
  build/tests/$t --gtest_brief=1 >"$out/$t.log" 2>&1
  rc=$?
  summary+=("$t rc=$rc: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$t.log" | tr '\n' ' ')")
done
if command -v compute-sanitizer >/dev/null; then
  compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/fastmedian_cuda_tests \
    --gtest_filter='*LargerImage*:*OddShapes*' --gtest_brief=1 >"$out/memcheck.log" 2>&1
  summary+=("memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)")
fi
if [ -x build/native/src/cli/fastmedian ]; then
  build/native/src/cli/fastmedian info >"$out/cli.log" 2>&1
  build/native/src/cli/fastmedian demo --out "$out/demo.tif" >>"$out/cli.log" 2>&1
  summary+=("cli demo rc=$?: $(tail -1 "$out/cli.log")")
fi
printf '%s\n' "${summary[@]}"
