"""What `fastmedian background` promises besides the numbers, as `median` and `temporal` do:
usage errors exit 2 in one line naming the option, runtime errors exit 1, the input is never
overwritten and the output is written completely or not at all."""
import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, listing, small_file_limit, REFUSED_MESSAGE


@pytest.fixture
def stack(tmp_path):
    """A 2-plane u16 stack in a directory of its own."""
    img = (np.arange(2 * 20 * 30, dtype=np.uint16).reshape(2, 20, 30) * 31) % 4000
    path = tmp_path / "in.tif"
    tifffile.imwrite(path, img, photometric="minisblack")
    return path


USAGE_ERRORS = [
    ([], "background needs exactly one of --size K (square) or --radius R (circle)"),
    (["--size", "65", "--radius", "30"], "background needs exactly one of --size"),
    (["--output", "background"], "background needs exactly one of --size"),
    (["--size", "64"], "--size must be an odd integer from 1 to 1023, got 64"),
    (["--size", "0"], "--size must be an odd integer from 1 to 1023, got 0"),
    (["--size", "1025"], "--size must be an odd integer from 1 to 1023, got 1025"),
    (["--size", "65x"], "--size must be an odd integer from 1 to 1023, got 65x"),
    (["--size", ""], "--size must be an odd integer from 1 to 1023, got ''"),
    (["--size"], "--size needs a value"),
    (["--size", "3", "--size", "5"], "--size is given twice"),
    (["--radius", "-1"], "--radius must be a number from 0 to 511, got -1"),
    (["--radius", "nan"], "--radius must be a number from 0 to 511, got nan"),
    (["--size", "65", "--method", "mean"], "--method must be exact or separable; got 'mean'"),
    (["--size", "65", "--method", ""], "--method must be exact or separable; got ''"),
    (["--radius", "30", "--method", "separable"],
     "--method separable needs --size K (a square window), not --radius"),
    (["--size", "65", "--output", "divide"],
     "--output must be subtract or background; got 'divide'"),
    (["--size", "65", "--output", "background", "--offset", "5"],
     "--offset applies only to --output subtract"),
    (["--size", "65", "--offset", "x"], "--offset must be a number from -1e9 to 1e9, got x"),
    (["--size", "65", "--offset", ""], "--offset must be a number from -1e9 to 1e9, got ''"),
    (["--size", "65", "--offset", "nan"], "--offset must be a number from -1e9 to 1e9, got nan"),
    (["--size", "65", "--offset", "-inf"],
     "--offset must be a number from -1e9 to 1e9, got -inf"),
    (["--size", "65", "--offset", "1e10"],
     "--offset must be a number from -1e9 to 1e9, got 1e10"),
    (["--size", "65", "--border", "edge"], "--border must be one of replicate (nearest), reflect"),
    (["--size", "65", "--cval", "5"], "--cval applies only to --border constant"),
    (["--size", "65", "--border", "constant", "--cval", "5x"], "--cval must be a number, got 5x"),
    (["--size", "65", "--border", "constant", "--cval", "nan"],
     "--cval must be finite for u16 images, got nan"),
    (["--size", "65", "--backend", "gpu"],
     "--backend must be one of auto, cpu, cuda; got 'gpu'"),
    (["--size", "65", "--window", "3"], "unknown option --window"),
    (["--size", "65", "--mode", "subtract"], "unknown option --mode"),
]


@pytest.mark.parametrize("args,message", USAGE_ERRORS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_usage_errors_exit_2_and_write_nothing(fastmedian, stack, args, message):
    d = stack.parent
    before = stack.read_bytes()
    r = fastmedian("background", stack, d / "out.tif", *args)
    assert_one_line_error(r, 2, message)
    assert listing(d) == ["in.tif"] and stack.read_bytes() == before


@pytest.mark.parametrize("args", [["--size", "64"], ["--size", "9", "--method", "median"],
                                  ["--size", "9", "--border", "constant", "--cval", "inf"]])
def test_usage_error_keeps_the_previous_output(fastmedian, stack, args):
    out = stack.parent / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("background", stack, out, *args)
    assert r.returncode == 2
    assert listing(stack.parent) == ["in.tif", "out.tif"]
    assert out.read_bytes() == b"previous result"


@pytest.mark.parametrize("args,message", [
    (["background", "in.tif", "--size", "9"], "background needs IN.tif and OUT.tif, got 1 paths"),
    (["background", "a.tif", "b.tif", "c.tif", "--size", "9"], "got 3 paths"),
])
def test_command_line_shape_errors(fastmedian, tmp_path, args, message):
    assert_one_line_error(fastmedian(*args, cwd=tmp_path), 2, message, "(see fastmedian --help)")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("out", ["in.tif", "./in.tif", "link.tif"])
def test_output_equal_to_input_is_refused(fastmedian, stack, out):
    d = stack.parent
    (d / "link.tif").symlink_to(stack)
    before = stack.read_bytes()
    r = fastmedian("background", "in.tif", out, "--size", 9, cwd=d)
    assert_one_line_error(r, 2, "is the same file as input", "refusing to overwrite the input")
    assert stack.read_bytes() == before


def test_missing_input(fastmedian, tmp_path):
    r = fastmedian("background", tmp_path / "absent.tif", tmp_path / "out.tif", "--size", 9)
    assert_one_line_error(r, 1, f"cannot open {tmp_path / 'absent.tif'}: No such file")
    assert listing(tmp_path) == []


def test_refused_input_leaves_no_output(fastmedian, refused_input, tmp_path):
    r = fastmedian("background", refused_input, tmp_path / "out.tif",
                   "--size", 9)
    assert_one_line_error(r, 1, REFUSED_MESSAGE)
    assert listing(tmp_path) == []


def test_full_disk_leaves_no_partial_output(fastmedian, shared_data, tmp_path):
    src = shared_data / "cancer_cell_migration_crop.tif"  # 1.6 MB of output
    out = tmp_path / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("background", src, out, "--size", 31, "--method", "separable", "--backend",
                   "cpu", preexec_fn=small_file_limit)
    assert_one_line_error(r, 1, f"{out}", "cannot write")
    assert listing(tmp_path) == ["out.tif"] and out.read_bytes() == b"previous result"


def test_cuda_unavailable_is_a_runtime_error(fastmedian, cuda_devices, stack):
    if cuda_devices:
        pytest.skip("fastmedian info lists a CUDA device: " + cuda_devices[0])
    d = stack.parent
    r = fastmedian("background", stack, d / "out.tif", "--size", 9, "--backend", "cuda")
    assert_one_line_error(r, 1, "backend cuda is not available: ")
    assert listing(d) == ["in.tif"]


def test_success_writes_only_the_output(fastmedian, stack):
    d = stack.parent
    before = stack.read_bytes()
    r = fastmedian("background", stack, d / "out.tif", "--size=9", "--method=separable",
                   "--offset=-5", "--border=constant", "--cval=-5", "--backend=cpu")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.startswith("background separable 9x9 constant -5, subtract offset -5 on cpu "
                               "(CPU): 30x20x2 u16 in "), r.stdout
    assert r.stdout.endswith(f" ms -> {d / 'out.tif'}\n") and r.stdout.count("\n") == 1
    assert listing(d) == ["in.tif", "out.tif"] and stack.read_bytes() == before
    assert tifffile.imread(d / "out.tif").shape == (2, 20, 30)


def test_summary_of_output_background(fastmedian, stack):
    r = fastmedian("background", stack, stack.parent / "out.tif", "--radius", 2.5, "--output",
                   "background", "--border", "wrap", "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("background exact radius 2.5 wrap, background on cpu (CPU): "
                               "30x20x2 u16 in "), r.stdout


@pytest.mark.parametrize("args", [["--help"], ["background", "--help"], ["background", "-h"]])
def test_help_describes_background(fastmedian, args):
    r = fastmedian(*args)
    assert r.returncode == 0 and r.stderr == ""
    assert "fastmedian background IN.tif OUT.tif (--size K | --radius R)" in r.stdout
    for option in ("--method M", "--output O", "--offset V"):
        assert option in r.stdout
