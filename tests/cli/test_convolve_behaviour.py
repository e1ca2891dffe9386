"""What `fastmedian convolve` promises besides the numbers, as `median` does: usage errors exit 2
in one line naming the option (a mask file that is not a mask included), a mask file that
cannot be read exits 1, the input is never overwritten and the output is written completely or
not at all; --float writes float32, the mask's orientation is true convolution's."""
import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, listing, small_file_limit


@pytest.fixture
def image(tmp_path):
    """A 10x12 u16 image and a 3x3 mask file in a directory of their own."""
    path = tmp_path / "in.tif"
    tifffile.imwrite(path, (np.arange(10 * 12, dtype=np.uint16).reshape(10, 12) * 7),
                     photometric="minisblack")
    (tmp_path / "m.txt").write_text("0 1 0\n1 -4 1\n0 1 0\n")
    return path


def mask_file(directory, text, name="bad.txt"):
    (directory / name).write_text(text)
    return name


USAGE_ERRORS = [
    ([], "convolve needs exactly one of --kernel MASK.txt or --gaussian SIGMA"),
    (["--kernel", "m.txt", "--gaussian", "2"], "convolve needs exactly one of"),
    (["--gaussian", "0"], "--gaussian must be a number above 0 and at most 127, got 0"),
    (["--gaussian", "-1"], "--gaussian must be a number above 0 and at most 127, got -1"),
    (["--gaussian", "128"], "--gaussian must be a number above 0 and at most 127, got 128"),
    (["--gaussian", "nan"], "--gaussian must be a number above 0 and at most 127, got nan"),
    (["--gaussian", "x"], "--gaussian must be a number above 0 and at most 127, got x"),
    (["--gaussian", ""], "--gaussian must be a number above 0 and at most 127, got ''"),
    (["--gaussian"], "--gaussian needs a value"),
    (["--gaussian", "2", "--normalize"], "--normalize applies only to --kernel"),
    (["--gaussian", "2", "--normalize=yes"], "--normalize takes no value"),
    (["--gaussian", "2", "--float", "--float"], "--float is given twice"),
    (["--gaussian", "2", "--border", "nearest2"], "--border must be one of"),
    (["--gaussian", "2", "--cval", "3"], "--cval applies only to --border constant"),
    (["--gaussian", "2", "--border", "constant", "--cval", "x"], "--cval must be a number, got x"),
    (["--gaussian", "2", "--border", "constant", "--cval", "nan"], "--cval must be finite for u16"),
    (["--gaussian", "2", "--backend", "gpu"], "--backend must be one of auto, cpu, cuda; got 'gpu'"),
    (["--gaussian", "2", "--size", "3"], "unknown option --size"),
    (["--kernel", "m.txt", "--kernel", "m.txt"], "--kernel is given twice"),
]


@pytest.mark.parametrize("args,message", USAGE_ERRORS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_usage_errors_exit_2_and_write_nothing(fastmedian, image, args, message):
    d = image.parent
    before = image.read_bytes()
    r = fastmedian("convolve", "in.tif", "out.tif", *args, cwd=d)
    assert_one_line_error(r, 2, message)
    assert listing(d) == ["in.tif", "m.txt"] and image.read_bytes() == before


BAD_MASKS = [
    ("", "--kernel bad.txt: holds no numbers"),
    ("\n  \n", "--kernel bad.txt: holds no numbers"),
    ("1 2\n3 4\n", "the mask is 2 wide and 2 high; both must be odd, from 1 to 63"),
    ("1 2 3\n4 5 6\n", "the mask is 3 wide and 2 high"),
    ("1 2 3\n4 5\n6 7 8\n", "line 2 has 2 numbers but line 1 has 3; every row needs the same count"),
    ("1 x 3\n", "line 1: 'x' is not a number"),
    ("1 2,5 3\n", "line 1: '2,5' is not a number"),
    ("1 nan 3\n", "line 1: nan is not a finite float"),
    ("1 1e39 3\n", "line 1: 1e39 is out of a float's range (at most 3.4e38 in magnitude)"),
    ("1 1e400 3\n", "line 1: 1e400 is out of a float's range"),
    ("1 -1e400 3\n", "line 1: -1e400 is out of a float's range"),
    ("1 inf 3\n", "line 1: inf is not a finite float"),
    ("1 +-1 3\n", "line 1: '+-1' is not a number"),
    ("1 ++1 3\n", "line 1: '++1' is not a number"),
    ("1 2\x003 4\n", "line 1: '2\\x003' is not a number"),
    ("1 \u2013 3\n", "line 1: '\\xE2\\x80\\x93' is not a number"),  # an en dash
    (" ".join(["1"] * 65) + "\n", "the mask is 65 wide"),
    ("1\n" * 65, "more than 63 high"),
]


@pytest.mark.parametrize("text,message", BAD_MASKS, ids=range(len(BAD_MASKS)))
def test_bad_mask_files_are_usage_errors(fastmedian, image, text, message):
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", mask_file(d, text), cwd=d)
    assert_one_line_error(r, 2, message)
    assert "out.tif" not in listing(d)


def test_normalize_refuses_a_mask_summing_to_zero(fastmedian, image):
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", "m.txt", "--normalize", cwd=d)
    assert_one_line_error(r, 2, "--normalize needs a mask whose sum is not 0; m.txt sums to 0")
    assert listing(d) == ["in.tif", "m.txt"]


def test_missing_mask_file_is_a_runtime_error(fastmedian, image):
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", "absent.txt", cwd=d)
    assert_one_line_error(r, 1, "--kernel: cannot open absent.txt: No such file")
    assert listing(d) == ["in.tif", "m.txt"]


def test_mask_files_in_imagej_form(fastmedian, image):
    """Tabs, several spaces, a leading '+', CRLF line ends, blank lines and a missing final
    newline all read; the result is true convolution (the mask flipped)."""
    d = image.parent
    mask_file(d, "\r\n0\t0  0\r\n\r\n+1 0 0\r\n0 0 0", "m2.txt")
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", "m2.txt", "--backend", "cpu",
                   cwd=d)
    assert r.returncode == 0, r.stderr
    src = tifffile.imread(image)
    got = tifffile.imread(d / "out.tif")
    # mask[1][0] = 1 multiplies in(x + 1 - 0, y + 1 - 1): each pixel takes its right neighbour.
    assert np.array_equal(got[:, :-1], src[:, 1:]) and np.array_equal(got[:, -1], src[:, -1])


@pytest.mark.parametrize("out", ["in.tif", "./in.tif", "link.tif"])
def test_output_equal_to_input_is_refused(fastmedian, image, out):
    d = image.parent
    (d / "link.tif").symlink_to(image)
    before = image.read_bytes()
    r = fastmedian("convolve", "in.tif", out, "--gaussian", 1, cwd=d)
    assert_one_line_error(r, 2, "is the same file as input", "refusing to overwrite the input")
    assert image.read_bytes() == before


def test_full_disk_leaves_no_partial_output(fastmedian, shared_data, tmp_path):
    src = shared_data / "cancer_cell_migration_crop.tif"  # 1.6 MB of output
    out = tmp_path / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("convolve", src, out, "--gaussian", 2, "--backend", "cpu",
                   preexec_fn=small_file_limit)
    assert_one_line_error(r, 1, f"{out}", "cannot write")
    assert listing(tmp_path) == ["out.tif"] and out.read_bytes() == b"previous result"


def test_cuda_unavailable_is_a_runtime_error(fastmedian, cuda_devices, image):
    if cuda_devices:
        pytest.skip("fastmedian info lists a CUDA device: " + cuda_devices[0])
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--gaussian", 1, "--backend", "cuda", cwd=d)
    assert_one_line_error(r, 1, "backend cuda is not available: ")
    assert listing(d) == ["in.tif", "m.txt"]


def test_float_output_and_summary(fastmedian, image):
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", "m.txt", "--float",
                   "--border", "constant", "--cval", "-5", "--backend", "cpu", cwd=d)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.startswith("convolve 3x3 constant -5, float output on cpu (CPU): 12x10x1 u16")
    out = tifffile.imread(d / "out.tif")
    assert out.dtype == np.float32 and out.shape == (10, 12)
    # The Laplacian of a linear ramp is 0 inside; at the border the constant (-5 clamped to 0
    # for u16) shows: 7 + 84 at the top-left corner, 826 + 749 - 4 * 833 at the bottom-right.
    assert np.all(out[1:-1, 1:-1] == 0) and out[0, 0] == 91 and out[-1, -1] == -1757
    assert listing(d) == ["in.tif", "m.txt", "out.tif"]


@pytest.mark.parametrize("args", [["--help"], ["convolve", "--help"], ["convolve", "-h"]])
def test_help_describes_convolve(fastmedian, args):
    r = fastmedian(*args)
    assert r.returncode == 0 and r.stderr == ""
    assert "fastmedian convolve IN.tif OUT.tif (--kernel MASK.txt | --gaussian SIGMA)" in r.stdout
    for option in ("--kernel FILE", "--gaussian S", "--normalize", "--float"):
        assert option in r.stdout


@pytest.mark.parametrize("sigma", ["1e-300", "0.1"])
def test_tiny_gaussian_is_the_identity(fastmedian, image, sigma):
    # Below sigma 0.125 scipy's mask is the single tap 1 (radius int(4 sigma + 0.5) = 0); at
    # 1e-300 sigma^2 underflows, which once made the mask NaN ("row_mask[0] is -nan").
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--gaussian", sigma, "--backend", "cpu",
                   cwd=d)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(d / "out.tif"), tifffile.imread(image))


@pytest.mark.parametrize("path,message", [
    ("/dev/zero", "--kernel /dev/zero is larger than 1 MiB"),
    (".", "--kernel . is a directory, not a mask file"),
])
def test_mask_files_are_read_within_their_limit(fastmedian, image, path, message):
    # /dev/zero reports no size: it was read until memory ran out.
    d = image.parent
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", path, cwd=d)
    assert_one_line_error(r, 2, message)
    assert listing(d) == ["in.tif", "m.txt"]


def test_mask_file_with_byte_order_mark_and_underflow(fastmedian, image):
    # Windows editors start UTF-8 text with a byte-order mark; 1e-400 is 0 in a float.
    d = image.parent
    (d / "bom.txt").write_bytes(b"\xef\xbb\xbf0 0 0\n0 1 1e-400\n0 0 0\n")
    r = fastmedian("convolve", "in.tif", "out.tif", "--kernel", "bom.txt", "--backend", "cpu",
                   cwd=d)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(d / "out.tif"), tifffile.imread(image))
