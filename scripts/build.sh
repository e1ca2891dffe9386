#!/usr/bin/env bash
# Builds the native library, CLI, JNI bridge and tests (build/), then the Java modules.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default
cmake --build --preset default
mvn -B -q -DskipTests package
