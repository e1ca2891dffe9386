"""Fixtures for the fastmedian CLI tests: the executable (FASTMEDIAN_CLI), the shared real
images (FASTMEDIAN_SHARED_DATA) and a runner. ctest sets both variables."""
import os
import pathlib
import re
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


# Every command that writes a file, in each of its ways through a stack, with small options.
WRITING_COMMANDS = {
    "median": ["median", "--size", "3"],
    "median --3d": ["median", "--size", "3", "--3d"],
    "temporal": ["temporal", "--window", "3"],
    "temporal --project": ["temporal", "--project"],
    "background": ["background", "--size", "5"],
    "convolve": ["convolve", "--gaussian", "1"],
}

# The summary line's times: "in WALL ms: [CUDA start-up S, ]read R, filter F, write W,
# fsync+rename Y ms -> OUT".
RUN_TIMES = re.compile(r" in (?P<wall>\d+\.\d) ms: (?:CUDA start-up (?P<startup>\d+\.\d), )?"
                       r"read (?P<read>\d+\.\d), filter (?P<filter>\d+\.\d), "
                       r"write (?P<write>\d+\.\d), fsync\+rename (?P<sync>\d+\.\d) ms -> ")


def run_times(line):
    """The times of a summary line, in ms, by name (startup 0 for runs on the CPU)."""
    m = RUN_TIMES.search(line)
    assert m, line
    return {k: float(v or 0) for k, v in m.groupdict().items()}


def listing(directory):
    return sorted(p.name for p in pathlib.Path(directory).iterdir())


def small_file_limit():
    """Run in the child: writes past 64 KiB fail with EFBIG, as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # SIG_IGN survives exec
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))


def circle_footprint(radius):
    """ImageJ's RankFilters circle of `radius` as a footprint for scipy."""
    return np.array(imagej_circle_mask(radius))


QUIET_NAN = np.uint32(0x7FC00000)


def sort_keys(values):
    """Keys whose integer order is the library's float order, -Inf < ... < -0 < +0 < ... <
    +Inf < NaN (every NaN alike)."""
    bits = values.view(np.int32).copy()
    bits[np.isnan(values)] = QUIET_NAN.view(np.int32)
    return bits ^ ((bits >> 31) & 0x7FFFFFFF)


def from_keys(keys):
    return (keys ^ ((keys >> 31) & 0x7FFFFFFF)).view(np.float32)


def ellipsoid(rx, ry, rz):
    """ImageJ's createKernelEllipsoid: float radii squared in float, tested in double."""
    v = [int(np.ceil(np.float32(r))) for r in (rx, ry, rz)]
    inv = [1.0 / float(np.float32(r) * np.float32(r)) if r else 0.0 for r in (rx, ry, rz)]
    z, y, x = np.mgrid[-v[2]:v[2] + 1, -v[1]:v[1] + 1, -v[0]:v[0] + 1]
    return x * x * inv[0] + y * y * inv[1] + z * z * inv[2] <= 1.0
