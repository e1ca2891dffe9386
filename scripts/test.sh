#!/usr/bin/env bash
# Fresh machine to every test: install what is missing, build, run the native suites (CTest:
# GoogleTest, the CLI-versus-scipy pytest, the Python package, the CMake package check), the
# Python package installed by pip from the checkout and as a wheel into fresh venvs, the
# Java suites (Maven: the binding's JUnit tests and the Fiji macro tests in ImageJ under Xvfb;
# then the Fiji folder mvn package lays out, run in ImageJ),
# then the native suites again, CPU backend only, under AddressSanitizer and
# UndefinedBehaviorSanitizer (the sanitize preset, build-sanitize/), and last the TIFF reader
# under libFuzzer: its corpus, then a minute of fuzzing (build-fuzz/).
# GPU tests skip with their reason where no GPU is usable.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/check-python-install.sh
mvn -B package
scripts/check-fiji-package.sh
cmake --preset sanitize
cmake --build --preset sanitize
ctest --preset sanitize -j "$(nproc)"
scripts/fuzz-tiff.sh 60
