#!/usr/bin/env bash
# Fresh machine to demo: install what is missing, build, run the demo on a real image.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
build/native/src/cli/fastmedian demo
