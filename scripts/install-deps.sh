#!/usr/bin/env bash
# Installs the Debian 12 packages fastmedian builds and tests with, only those missing.
# The CUDA toolkit is expected in /usr/local/cuda; without it the library builds CPU-only.
set -euo pipefail

packages=(
  # native build and tests
  build-essential cmake ninja-build pkg-config libgtest-dev libtiff-dev
  # the TIFF reader's fuzzer: clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # Java binding and Fiji plugin, built offline against Debian's Maven repository
  openjdk-17-jdk-headless maven junit5 libsurefire-java libmaven-compiler-plugin-java
  libmaven-jar-plugin-java libmaven-resources-plugin-java libmaven-install-plugin-java
  # ImageJ run headless under Xvfb for the macro-level tests
  imagej xvfb xauth
  # CLI-versus-scipy tests and the Python package (with Dask and Zarr), on Debian's /usr/bin/python3
  python3-numpy python3-scipy python3-tifffile python3-pytest
  python3-dev pybind11-dev python3-dask python3-distributed python3-zarr
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
