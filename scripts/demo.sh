#!/usr/bin/env bash
# Fresh machine to demo: install what is missing, build, then filter a real noisy time-lapse
# (median and background, beside scipy) and write a before/after picture (scripts/demo.py).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh
/usr/bin/python3 scripts/demo.py "$@"
