#!/usr/bin/env bash
# The Python package installed the way Python users install it, offline: `pip install .` from
# this checkout into a fresh virtual environment of Debian's /usr/bin/python3, then a wheel
# built the same way (`pip wheel .`) into another. The whole Python suite runs against the
# wheel's install, the package tests against the first, both outside the source tree. The venvs
# see Debian's NumPy, SciPy, Dask, Zarr and pytest (--system-site-packages); each checks that
# `import fastmedian` finds its own copy. The build is CPU-only (the CUDA code is the same CMake,
# built and tested in build/), in a temporary build tree that both pip calls share, so the wheel
# only repacks it.
set -euo pipefail
cd "$(dirname "$0")/.."
source=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1 FASTMEDIAN_SHARED_DATA="$source/../shared/data"
pip_options=(--no-index --config-settings "build-dir=$work/build"
             --config-settings "cmake-args=-DFASTMEDIAN_CUDA=OFF")
own_copy='import sys, fastmedian
assert fastmedian.__file__.startswith(sys.prefix + "/"), fastmedian.__file__
print("check-python-install:", fastmedian.__version__, "from", fastmedian.__file__)'

/usr/bin/python3 -m venv --system-site-packages "$work/checkout-venv"
"$work/checkout-venv/bin/pip" install -q "${pip_options[@]}" "$source"
(cd "$work" && checkout-venv/bin/python -c "$own_copy" &&
 checkout-venv/bin/python -m pytest -q -p no:cacheprovider "$source/python/tests/test_package.py")

"$work/checkout-venv/bin/pip" wheel -q --no-deps -w "$work/dist" "${pip_options[@]}" "$source"
/usr/bin/python3 -m venv --system-site-packages "$work/wheel-venv"
"$work/wheel-venv/bin/pip" install -q --no-index "$work"/dist/fastmedian-*.whl
(cd "$work" && wheel-venv/bin/python -c "$own_copy" &&
 wheel-venv/bin/python -m pytest -q -p no:cacheprovider "$source/python/tests")
