"""What `fastmedian temporal` promises besides the numbers, as `median` does: usage errors exit 2
in one line naming the option, runtime errors exit 1, the input is never overwritten and the
output is written completely or not at all."""
import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, listing, small_file_limit, REFUSED_MESSAGE


@pytest.fixture
def movie(tmp_path):
    """A 6-frame u16 stack in a directory of its own."""
    stack = np.arange(6 * 10 * 12, dtype=np.uint16).reshape(6, 10, 12) * 7
    path = tmp_path / "in.tif"
    tifffile.imwrite(path, stack, photometric="minisblack")
    return path


USAGE_ERRORS = [
    ([], "temporal needs --window N, the number of frames in each median"),
    (["--mode", "subtract"], "temporal needs --window N"),
    (["--window", "0"], "--window must be an integer from 1 to 65535, got 0"),
    (["--window", "-3"], "--window must be an integer from 1 to 65535, got -3"),
    (["--window", "65536"], "--window must be an integer from 1 to 65535, got 65536"),
    (["--window", "2.5"], "--window must be an integer from 1 to 65535, got 2.5"),
    (["--window", "5x"], "--window must be an integer from 1 to 65535, got 5x"),
    (["--window", ""], "--window must be an integer from 1 to 65535, got ''"),
    (["--window"], "--window needs a value"),
    (["--window", "3", "--window", "5"], "--window is given twice"),
    (["--window", "7"], "--window 7 is more than the 6 frames of "),
    (["--window", "1000"], "--window 1000 is more than the 6 frames of "),
    (["--window", "3", "--mode", "mean"], "--mode"),
    (["--window", "3", "--mode", ""], "--mode"),
    (["--window", "3", "--mode", "subtract", "--offset", "x"],
     "--offset must be a number from -1e9 to 1e9, got x"),
    (["--window", "3", "--mode", "subtract", "--offset", ""],
     "--offset must be a number from -1e9 to 1e9, got ''"),
    (["--window", "3", "--mode", "subtract", "--offset", "nan"],
     "--offset must be a number from -1e9 to 1e9, got nan"),
    (["--window", "3", "--mode", "subtract", "--offset", "-inf"],
     "--offset must be a number from -1e9 to 1e9, got -inf"),
    (["--window", "3", "--mode", "subtract", "--offset", "1e10"],
     "--offset must be a number from -1e9 to 1e9, got 1e10"),
    (["--window", "3", "--mode", "subtract", "--offset", "5,5"],
     "--offset must be a number from -1e9 to 1e9, got 5,5"),
    (["--window", "3", "--offset", "5"], "--offset applies only to --mode subtract"),
    (["--window", "3", "--mode", "median", "--offset", "5"],
     "--offset applies only to --mode subtract"),
    (["--window", "3", "--backend", "gpu"], "--backend must be one of auto, cpu, cuda; got 'gpu'"),
    (["--window", "3", "--size", "3"], "unknown option --size"),
]


@pytest.mark.parametrize("args,message", USAGE_ERRORS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_usage_errors_exit_2_and_write_nothing(fastmedian, movie, args, message):
    d = movie.parent
    before = movie.read_bytes()
    r = fastmedian("temporal", movie, d / "out.tif", *args)
    assert_one_line_error(r, 2, message)
    assert listing(d) == ["in.tif"] and movie.read_bytes() == before


@pytest.mark.parametrize("args", [["--window", "3", "--mode", "mean"],
                                  ["--window", "7"],
                                  ["--window", "3", "--mode", "subtract", "--offset", "inf"]])
def test_usage_error_keeps_the_previous_output(fastmedian, movie, args):
    out = movie.parent / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("temporal", movie, out, *args)
    assert r.returncode == 2
    assert listing(movie.parent) == ["in.tif", "out.tif"]
    assert out.read_bytes() == b"previous result"


@pytest.mark.parametrize("args,message", [
    (["temporal", "in.tif", "--window", "3"], "temporal needs IN.tif and OUT.tif, got 1 paths"),
    (["temporal", "a.tif", "b.tif", "c.tif", "--window", "3"], "got 3 paths"),
])
def test_command_line_shape_errors(fastmedian, tmp_path, args, message):
    assert_one_line_error(fastmedian(*args, cwd=tmp_path), 2, message, "(see fastmedian --help)")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("out", ["in.tif", "./in.tif", "link.tif"])
def test_output_equal_to_input_is_refused(fastmedian, movie, out):
    d = movie.parent
    (d / "link.tif").symlink_to(movie)
    before = movie.read_bytes()
    r = fastmedian("temporal", "in.tif", out, "--window", 3, cwd=d)
    assert_one_line_error(r, 2, "is the same file as input", "refusing to overwrite the input")
    assert movie.read_bytes() == before


def test_missing_input(fastmedian, tmp_path):
    r = fastmedian("temporal", tmp_path / "absent.tif", tmp_path / "out.tif", "--window", 3)
    assert_one_line_error(r, 1, f"cannot open {tmp_path / 'absent.tif'}: No such file")
    assert listing(tmp_path) == []


def test_refused_input_leaves_no_output(fastmedian, refused_input, tmp_path):
    r = fastmedian("temporal", refused_input, tmp_path / "out.tif",
                   "--window", 1)
    assert_one_line_error(r, 1, REFUSED_MESSAGE)
    assert listing(tmp_path) == []


def test_full_disk_leaves_no_partial_output(fastmedian, shared_data, tmp_path):
    src = shared_data / "cancer_cell_migration_crop.tif"  # 1.6 MB of output
    out = tmp_path / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("temporal", src, out, "--window", 5, "--backend", "cpu",
                   preexec_fn=small_file_limit)
    assert_one_line_error(r, 1, f"{out}", "cannot write")
    assert listing(tmp_path) == ["out.tif"] and out.read_bytes() == b"previous result"


def test_cuda_unavailable_is_a_runtime_error(fastmedian, cuda_devices, movie):
    if cuda_devices:
        pytest.skip("fastmedian info lists a CUDA device: " + cuda_devices[0])
    d = movie.parent
    r = fastmedian("temporal", movie, d / "out.tif", "--window", 3, "--backend", "cuda")
    assert_one_line_error(r, 1, "backend cuda is not available: ")
    assert listing(d) == ["in.tif"]


def test_success_writes_only_the_output(fastmedian, movie):
    d = movie.parent
    before = movie.read_bytes()
    r = fastmedian("temporal", movie, d / "out.tif", "--window", 3, "--mode", "subtract",
                   "--offset", "-5", "--backend", "cpu")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert listing(d) == ["in.tif", "out.tif"] and movie.read_bytes() == before
    assert tifffile.imread(d / "out.tif").shape == (6, 10, 12)


@pytest.mark.parametrize("args", [["--help"], ["temporal", "--help"], ["temporal", "-h"]])
def test_help_describes_temporal(fastmedian, args):
    r = fastmedian(*args)
    assert r.returncode == 0 and r.stderr == ""
    assert "fastmedian temporal IN.tif OUT.tif (--window N | --project)" in r.stdout
    for option in ("--window N", "--project", "--mode M", "--offset V"):
        assert option in r.stdout
