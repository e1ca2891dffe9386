#!/usr/bin/env bash
# Fresh machine to every test: install what is missing, build, run the native suites (CTest:
# GoogleTest, the CLI-versus-scipy pytest, the CMake package check) and the Java suites
# (Maven: the binding's JUnit tests and the Fiji macro tests in ImageJ under Xvfb).
# GPU tests skip with their reason where no GPU is usable.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
mvn -B test
