"""Fixtures for the fastmedian CLI tests: the executable (FASTMEDIAN_CLI), the shared real
images (FASTMEDIAN_SHARED_DATA) and a runner. ctest sets both variables."""
import os
import pathlib
import resource
import signal
import subprocess
import sys

import numpy as np
import pytest
import tifffile

# The tests' ImageJ circle comes from tools/generators/windows.py, the one Python definition.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from generators.windows import imagej_circle_mask  # noqa: E402


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("FASTMEDIAN_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("FASTMEDIAN_CLI must name the fastmedian executable (ctest sets it)")
    return path


@pytest.fixture(scope="session")
def shared_data():
    d = pathlib.Path(os.environ.get("FASTMEDIAN_SHARED_DATA", ""))
    if not (d / "embryos_grey.tif").is_file():
        pytest.skip(f"the shared test images are not in '{d}' (set FASTMEDIAN_SHARED_DATA)")
    return d


@pytest.fixture(scope="session")
def fastmedian(cli):
    """fastmedian(*args, **subprocess_kwargs) -> CompletedProcess with text output."""
    def run(*args, **kwargs):
        return subprocess.run([cli, *map(str, args)], capture_output=True, text=True,
                              timeout=300, **kwargs)
    return run


@pytest.fixture
def small_input(tmp_path):
    """A 2-plane u8 stack in a directory of its own."""
    img = np.arange(2 * 20 * 30, dtype=np.uint8).reshape(2, 20, 30)
    path = tmp_path / "in.tif"
    tifffile.imwrite(path, img, photometric="minisblack")
    return path


@pytest.fixture
def refused_input(tmp_path_factory):
    """A TIFF every command refuses (16-bit signed integers), outside the test's tmp_path."""
    path = tmp_path_factory.mktemp("refused") / "signed.tif"
    tifffile.imwrite(path, np.zeros((2, 8, 6), np.int16), photometric="minisblack")
    return path


REFUSED_MESSAGE = "signed.tif: 16-bit signed integer pixels; only 8/16-bit unsigned integer"


@pytest.fixture(scope="session")
def cli_is_sanitized(cli):
    """Whether the executable is built with AddressSanitizer (the sanitize preset)."""
    r = subprocess.run(["ldd", cli], capture_output=True, text=True)
    return "libasan" in r.stdout


@pytest.fixture(scope="session")
def cuda_devices(fastmedian):
    """The 'CUDA device N: ...' lines of `fastmedian info`."""
    r = fastmedian("info")
    assert r.returncode == 0, r.stderr
    return [line for line in r.stdout.splitlines() if line.startswith("CUDA device ")]


def assert_same_bits(got, want):
    """Equal shape, type and bytes (so -0.0 differs from 0.0 and NaN equals NaN)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    g = np.ascontiguousarray(got).reshape(-1).view(np.uint8).reshape(got.size, -1)
    w = np.ascontiguousarray(want).reshape(-1).view(np.uint8).reshape(want.size, -1)
    diff = np.flatnonzero((g != w).any(axis=1))
    assert diff.size == 0, (f"{diff.size} of {got.size} pixels differ; first at flat index "
                            f"{diff[0]}: got {got.reshape(-1)[diff[0]]}, want "
                            f"{want.reshape(-1)[diff[0]]}")


def assert_one_line_error(r, code, *fragments):
    """Exit status `code` and one line on stderr holding every fragment."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("fastmedian: ") and r.stderr.count("\n") == 1, r.stderr
    for f in fragments:
        assert f in r.stderr


def listing(directory):
    return sorted(p.name for p in pathlib.Path(directory).iterdir())


def small_file_limit():
    """Run in the child: writes past 64 KiB fail with EFBIG, as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # SIG_IGN survives exec
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))


def circle_footprint(radius):
    """ImageJ's RankFilters circle of `radius` as a footprint for scipy."""
    return np.array(imagej_circle_mask(radius))
