#!/usr/bin/env bash
# The CPU benchmark end to end, here or on the GPU machine (carry bench/gpu/images, made by
# bench/gpu/prepare_images.py): builds the library (CPU only) and fastmedian_bench_cpu, runs it
# (with OpenCV's C++ medianBlur when it was found at configure time), else OpenCV through
# Python's cv2 when that imports, then ImageJ's RankFilters when java and ImageJ's jar are
# there, and writes the merged table to bench/cpu/results-<machine>.md (and to $OUT if set).
#
#   bench/cpu/run.sh MACHINE [--size 2048] [--runs 7]
set -euo pipefail
cd "$(dirname "$0")/../.."
machine=${1:?usage: bench/cpu/run.sh MACHINE [--size N] [--runs N]}
shift
size=2048
runs=7
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=/tmp/fastmedian-bench-cpu
ij_jar=${IJ_JAR:-/usr/share/java/ij.jar}
mkdir -p "$work"
rm -f "$work"/*.tsv
rm -rf "$work/inputs"

cmake -S . -B build-bench-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DFASTMEDIAN_CUDA=OFF \
  -DFASTMEDIAN_TESTS=OFF -DFASTMEDIAN_JNI=OFF >"$work/build.log" 2>&1
cmake --build build-bench-cpu --target fastmedian_bench_cpu >>"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
build-bench-cpu/bench/cpu/fastmedian_bench_cpu --images bench/gpu/images --size "$size" \
  --runs "$runs" --out "$work/ours.tsv" --dump "$work/inputs" | tee "$work/bench.log"

if ! grep -q "CPU benchmark measures OpenCV" "$work/build.log"; then
  if python3 -c "import cv2" 2>/dev/null; then
    python3 bench/cpu/opencv_peer.py --inputs "$work/inputs" --runs "$runs" \
      --out "$work/opencv.tsv" | tee -a "$work/bench.log"
  else
    echo "OpenCV: neither the C++ library nor Python's cv2 is here; skipped" | tee -a "$work/bench.log"
  fi
fi

if command -v javac >/dev/null && [ -f "$ij_jar" ]; then
  javac -cp "$ij_jar" -d "$work" bench/cpu/ImageJMedianBench.java
  # ImageJ is slow at large radii: 3 runs keep it within minutes.
  java -cp "$ij_jar:$work" ImageJMedianBench "$work/inputs" 3 "$work/imagej.tsv" |
    tee -a "$work/bench.log"
else
  echo "ImageJ: no javac or $ij_jar here; skipped" | tee -a "$work/bench.log"
fi

result=bench/cpu/results-$machine.md
{
  echo "# CPU median throughput on $machine"
  echo
  echo "$(nproc) hardware threads; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)."
  echo "Images ${size}x${size} of every kind of data (bench/common/data_kinds.hpp): the shared images"
  echo "tiled from ../shared/data (bench/gpu/prepare_images.py; f32 holds whole numbers), f32 with"
  echo "fractions (flat field + noise), full-range noise, f32 with every value distinct. Replicate"
  echo "border; Mpix/s, median of $runs runs after warm-up (ImageJ: 3). Ours on ImageJ's circle of"
  echo "radius r = (k-1)/2 beside ImageJ's RankFilters median of radius r (k <= 21)."
  echo "Run: bench/cpu/run.sh $machine"
  echo
  python3 bench/cpu/report.py "$work"/*.tsv
  echo
  echo '```'
  cat "$work/bench.log"
  echo '```'
} >"$result"
cat "$result"
[ -z "${OUT:-}" ] || cp "$result" "$OUT/"
