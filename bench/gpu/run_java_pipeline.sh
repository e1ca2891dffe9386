#!/usr/bin/env bash
# The Java end-to-end figure of issue 8 on the GPU machine, which has no JVM: a minimal Java
# runtime (jlink, java.base only), the binding's classes, the JNI library and the bench travel
# in build-java-bench/ (34 + 19 MB):
#   here:   mvn -B -q -DskipTests package && bench/gpu/run_java_pipeline.sh prepare
#   device: bench/gpu/run_java_pipeline.sh          (carry: build-java-bench)
# Runs bench/java/JavaPipelineBench.java (the bridge hands the arrays themselves to the
# pipeline); compare with bench/gpu/bench_pipeline.cpp's transfer limit.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=build-java-bench

if [ "${1:-}" = prepare ]; then
  rm -rf "$dir"
  jlink --add-modules java.base --strip-debug --no-man-pages --no-header-files --compress=2 \
    --output "$dir/jre"
  mkdir -p "$dir/classes"
  cp -r java/target/classes/org "$dir/classes/"
  cp build/native/jni/libfastmedian_jni.so "$dir/"
  javac -d "$dir/classes" -cp "$dir/classes" bench/java/JavaPipelineBench.java
  du -sh "$dir"
  exit 0
fi

java=("$dir/jre/bin/java" -Xmx8g "-Dfastmedian.library=$PWD/$dir/libfastmedian_jni.so" -cp "$dir/classes")
"${java[@]}" JavaPipelineBench "$@"
