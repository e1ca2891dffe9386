#!/usr/bin/env bash
# The TIFF reader under libFuzzer (tests/fuzz/, ASan and UBSan, built with clang in build-fuzz/):
# first every file of the committed corpus once, as a regression, then fuzzing for SECONDS
# (default 60), starting from that corpus. A finding stops it with the input saved as
# build-fuzz/crash-* (or leak-, oom-, timeout-): fix the reader, then add the input to
# tests/fuzz/corpus/ under a name that says what it broke.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++
cmake --build build-fuzz
build-fuzz/tiff_read_fuzzer tests/fuzz/corpus/*
mkdir -p build-fuzz/corpus  # what this machine's runs found, kept for the next run
build-fuzz/tiff_read_fuzzer -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
  -artifact_prefix=build-fuzz/ build-fuzz/corpus tests/fuzz/corpus
