#!/usr/bin/env bash
# ImageJ's Median, our Fiji command, the Java API and the CLI side by side on one stack, the
# CPU backend (issue 50; the GPU has its own figure: run_java_pipeline.sh). The stack: the
# shared u16 time-lapse (cancer_cell_migration_crop, 48 frames) scaled to SIZE x SIZE
# (bilinear), as a TIFF. Each way's median of RUNS timed runs after a warm-up run, wall clock:
#   - ImageJ's "Median..." and "Median (fastmedian)..." on a duplicate of the stack (batch mode,
#     Debian's ImageJ under Xvfb, the plugin from fiji-plugin/target/fiji as Fiji users have it);
#   - FastMedian.median on the stack as one array, and slice by slice (JavaStackBench.java);
#   - the CLI's filter time (its summary line), and its whole run (read, filter, write).
#   mvn -B -q -DskipTests package && bench/java/run_fiji_side_by_side.sh [RADIUS] [SIZE] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
radius=${1:-2}
size=${2:-2048}
runs=${3:-3}
work=/tmp/fastmedian-fiji-bench
site=fiji-plugin/target/fiji
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
binding=$site/jars/fastmedian-$version.jar
cli=build/native/src/cli/fastmedian
[ -f "$binding" ] || { echo "no $binding: run mvn -B -q -DskipTests package first" >&2; exit 1; }
mkdir -p "$work"
data=$(readlink -f ../shared/data/cancer_cell_migration_crop.tif)
stack=$work/stack-$size.tif
imagej=(xvfb-run -a java -Xmx12g -Dplugins.dir="$(readlink -f "$site")" -cp "/usr/share/java/ij.jar:$binding"
        ij.ImageJ -batch)

if [ ! -f "$stack" ]; then
  cat >"$work/make.ijm" <<IJM
setBatchMode(true);
open("$data");
run("Size...", "width=$size height=$size depth=" + nSlices + " interpolation=Bilinear");
saveAs("Tiff", "$stack");
IJM
  "${imagej[@]}" "$work/make.ijm" >"$work/make.log" 2>&1 || { cat "$work/make.log"; exit 1; }
fi

cat >"$work/imagej.ijm" <<IJM
setBatchMode(true);
open("$stack");
id = getImageID();
commands = newArray("Median...", "Median (fastmedian)...");
for (c = 0; c < commands.length; c++) {
  times = newArray($runs);
  for (i = 0; i <= $runs; i++) {
    selectImage(id);
    run("Duplicate...", "duplicate title=copy");
    start = getTime();
    run(commands[c], "radius=$radius stack");
    if (i > 0) times[i - 1] = getTime() - start;
    close();
  }
  Array.sort(times);
  print("imagej " + commands[c] + " " + times[floor($runs / 2)] + " ms");
}
IJM
"${imagej[@]}" "$work/imagej.ijm" >"$work/imagej.log" 2>&1 || { cat "$work/imagej.log"; exit 1; }

javac -cp "/usr/share/java/ij.jar:$binding" -d "$work/classes" bench/java/JavaStackBench.java
java -Xmx12g -cp "/usr/share/java/ij.jar:$binding:$work/classes" JavaStackBench "$stack" "$radius" "$runs" \
  >"$work/java.log" 2>&1 || { cat "$work/java.log"; exit 1; }

for i in $(seq 0 "$runs"); do
  start=$(date +%s%N)
  "$cli" median "$stack" "$work/out.tif" --radius "$radius" --backend cpu >"$work/cli-$i.log"
  echo "$(( ($(date +%s%N) - start) / 1000000 ))" >>"$work/cli-$i.log"
done

echo "2D median radius $radius, ${size}x${size}x48 u16, CPU backend, $(nproc) cores; median of $runs runs (ms):"
sed -n 's/^imagej \(.*\) \([0-9.]*\) ms$/\1|\2/p' "$work/imagej.log" | while IFS='|' read -r what ms; do
  printf '%-40s %8.0f\n' "$what" "$ms"; done
sed -n 's/^\(java api.*\) \+\([0-9]*\) ms .*/\1|\2/p' "$work/java.log" | while IFS='|' read -r what ms; do
  printf '%-40s %8.0f\n' "$what" "$ms"; done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf '%-40s %8.0f\n' "CLI, filter" "$(for i in $(seq 1 "$runs"); do
  sed -n "s/.*, filter \([0-9.]*\), .*/\1/p" "$work/cli-$i.log"; done | median)"
printf '%-40s %8.0f\n' "CLI, whole run (read, filter, write)" "$(for i in $(seq 1 "$runs"); do
  tail -1 "$work/cli-$i.log"; done | median)"
