#!/usr/bin/env bash
# Builds the native library, CLI, JNI bridge, Python package and tests (build/), installs the
# Python package for /usr/bin/python3, then builds the Java modules.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default
cmake --build --preset default
# The Python package, where Debian's /usr/bin/python3 finds it (/usr/local/lib/python3.11/dist-packages).
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo cmake --install build --component python
mvn -B -q -DskipTests package
