"""`fastmedian background --backend cpu` bit for bit against scipy.ndimage on the real images:
method exact against median_filter(size=K), method separable against median_filter(size=(K, 1))
then median_filter(size=(1, K)) of that, each plane of a stack on its own; output subtract
against its NumPy statement. Float NaN against a NumPy statement of our own order (scipy orders
NaN differently). Large windows make scipy slow, so the K=65 and K=129 cases run on crops."""
import math

import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import QUIET_NAN, assert_same_bits, circle_footprint, from_keys, sort_keys

SCIPY_MODE = {"replicate": "nearest", "reflect": "reflect", "mirror": "mirror",
              "constant": "constant", "wrap": "wrap"}
BORDERS = list(SCIPY_MODE)
# Integer cvals, inside every type's range, so the conversion to the pixel type is exact.
CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}
# Offsets with a fraction (integer images round it; no halves here, see the rounding test).
OFFSET = {np.dtype(np.uint8): 20.4, np.dtype(np.uint16): -300.6, np.dtype(np.float32): 0.1}

# name: (file, crop of the first planes, rows and columns) per window size; the u16 movie's
# first frames. Whole images or large crops for K=31; crops a little larger than the window
# for K=65 and K=129 (scipy's median costs K*K per pixel).
IMAGES = {
    "u8": "embryos_grey.tif",                 # 366x462
    "u16": "cancer_cell_migration_crop.tif",  # 48 frames of 130x130
    "f32": "BPAE_actin.tif",                  # 680x1100
}
CROPS = {
    31: {"u8": np.s_[:, :], "u16": np.s_[:3], "f32": np.s_[200:456, 300:556]},
    65: {"u8": np.s_[100:200, 150:260], "u16": np.s_[:1, 10:110, 5:112],
         "f32": np.s_[300:398, 500:604]},
    129: {"u8": np.s_[120:251, 140:273], "u16": np.s_[:1], "f32": np.s_[250:385, 400:531]},
}
# K=129: a few borders only (one image each), scipy takes seconds per case.
EXACT_CASES = ([(31, image, border) for image in IMAGES for border in BORDERS] +
               [(65, image, border) for image in IMAGES for border in BORDERS] +
               [(129, "u8", "reflect"), (129, "u16", "wrap"), (129, "f32", "constant")])
SEPARABLE_CASES = ([(65, image, border) for image in IMAGES for border in BORDERS] +
                   [(31, image, "mirror") for image in IMAGES] +
                   [(129, image, border) for image, border in
                    [("u8", "constant"), ("u16", "reflect"), ("f32", "wrap")]])
# The separable smoother is cheap in scipy: larger crops than the exact cases.
SEPARABLE_CROPS = {"u8": np.s_[:, :], "u16": np.s_[:6], "f32": np.s_[100:400, 200:600]}


def round_half_away(v):
    return math.copysign(math.floor(abs(v) + 0.5), v)


def quiet_nans(values):
    """Every NaN written as 0x7FC00000, as the library writes them."""
    if values.dtype == np.float32:
        values = values.copy()
        values.view(np.uint32)[np.isnan(values)] = QUIET_NAN
    return values


def subtracted(image, background, offset):
    """Output subtract: integers clip(image - background + round(offset)) with halves away
    from zero; float32 (image - background) + float32(offset) in float32, NaN as 0x7FC00000."""
    if image.dtype == np.float32:
        with np.errstate(invalid="ignore", over="ignore"):
            return quiet_nans((image - background) + np.float32(offset))
    top = np.iinfo(image.dtype).max
    diff = image.astype(np.int64) - background.astype(np.int64) + int(round_half_away(offset))
    return np.clip(diff, 0, top).astype(image.dtype)


def plane_size(img, *sides):
    """size= for scipy: the sides over (y, x), and 1 along the planes of a stack."""
    return sides if img.ndim == 2 else (1, *sides)


def scipy_exact(img, k, border, cval):
    return ndi.median_filter(img, size=plane_size(img, k, k), mode=SCIPY_MODE[border], cval=cval)


def scipy_separable(img, k, border, cval):
    mode = SCIPY_MODE[border]
    columns = ndi.median_filter(img, size=plane_size(img, k, 1), mode=mode, cval=cval)
    return ndi.median_filter(columns, size=plane_size(img, 1, k), mode=mode, cval=cval)


@pytest.fixture(scope="module")
def images(shared_data):
    loaded = {name: tifffile.imread(shared_data / f) for name, f in IMAGES.items()}
    assert loaded["u8"].dtype == np.uint8 and loaded["u16"].dtype == np.uint16
    assert loaded["f32"].dtype == np.float32
    return loaded


def crop_file(images, tmp_path, name, crop):
    img = np.ascontiguousarray(images[name][crop])
    if img.ndim == 3 and img.shape[0] == 1:
        img = img[0]  # one page reads back as a 2D image
    path = tmp_path / f"{name}.tif"
    tifffile.imwrite(path, img, photometric="minisblack")
    return img, path


def run_background(fastmedian, src, out, *args, backend="cpu"):
    r = fastmedian("background", src, out, *map(str, args), "--backend", backend)
    assert r.returncode == 0, r.stderr
    return tifffile.imread(out), r.stdout


def check_both_outputs(fastmedian, tmp_path, img, src, want_background, k, method, border,
                       backend="cpu"):
    """The CLI's background and its output subtract, against one reference background."""
    cval = CVAL[img.dtype]
    common = ["--size", k, "--method", method, "--border", border]
    if border == "constant":
        common += ["--cval", cval]
    got, stdout = run_background(fastmedian, src, tmp_path / "bg.tif", *common, "--output",
                                 "background", backend=backend)
    assert_same_bits(got, want_background)
    offset = OFFSET[img.dtype]
    got, _ = run_background(fastmedian, src, tmp_path / "sub.tif", *common, "--offset",
                            repr(offset), backend=backend)
    assert_same_bits(got, subtracted(img, want_background, offset))
    return stdout


@pytest.mark.parametrize("k,image,border", EXACT_CASES, ids=lambda v: str(v))
def test_exact_equals_scipy_median_filter(fastmedian, images, tmp_path, k, image, border):
    img, src = crop_file(images, tmp_path, image, CROPS[k][image])
    want = scipy_exact(img, k, border, CVAL[img.dtype])
    stdout = check_both_outputs(fastmedian, tmp_path, img, src, want, k, "exact", border)
    assert stdout.startswith(f"background exact {k}x{k} {border}")


@pytest.mark.parametrize("k,image,border", SEPARABLE_CASES, ids=lambda v: str(v))
def test_separable_equals_two_scipy_1d_medians(fastmedian, images, tmp_path, k, image, border):
    img, src = crop_file(images, tmp_path, image, SEPARABLE_CROPS[image])
    want = scipy_separable(img, k, border, CVAL[img.dtype])
    stdout = check_both_outputs(fastmedian, tmp_path, img, src, want, k, "separable", border)
    assert stdout.startswith(f"background separable {k}x{k} {border}")


def test_circle_window_equals_scipy_footprint(fastmedian, images, tmp_path):
    img, src = crop_file(images, tmp_path, "u16", np.s_[:2])
    want = ndi.median_filter(img, footprint=circle_footprint(2)[None], mode="mirror")
    got, stdout = run_background(fastmedian, src, tmp_path / "out.tif", "--radius", 2,
                                 "--border", "mirror", "--offset", 50)
    assert stdout.startswith("background exact radius 2 mirror, subtract offset 50 on cpu")
    assert_same_bits(got, subtracted(img, want, 50))


# --- Float NaN, infinities and -0.0: a NumPy statement of our order (NaN above +Inf). ---

NUMPY_PAD = {"replicate": "edge", "reflect": "symmetric", "mirror": "reflect", "wrap": "wrap",
             "constant": "constant"}


def numpy_median(img, ky, kx, border, cval):
    """The median of every ky x kx window of a 2D float32 image in our order (windows no
    larger than the image: numpy.pad's limit for the mirror modes)."""
    extra = {"constant_values": cval} if border == "constant" else {}
    padded = np.pad(img, ((ky // 2, ky // 2), (kx // 2, kx // 2)), mode=NUMPY_PAD[border],
                    **extra)
    windows = np.lib.stride_tricks.sliding_window_view(sort_keys(padded), (ky, kx))
    keys = np.sort(windows.reshape(*img.shape, -1), axis=-1)[..., (ky * kx - 1) // 2]
    return from_keys(np.ascontiguousarray(keys))


def nan_image(seed, shape=(40, 47)):
    rng = np.random.default_rng(seed)
    img = (rng.standard_normal(shape) * 100).astype(np.float32)
    specials = np.array([0x7FC00000, 0x7FC01234, 0xFFC00000, 0x7F800001, 0x7F800000,
                         0xFF800000, 0x80000000, 0x00000000], np.uint32).view(np.float32)
    mask = rng.random(shape) < 0.15
    img[mask] = rng.choice(specials, int(mask.sum()))
    img[5:30, 10:35] = np.nan  # a block where most windows are mostly NaN
    return img


def test_numpy_statement_on_a_hand_example():
    """The order itself: NaN above +Inf, -0.0 below +0.0."""
    row = np.array([[np.nan, 1, -0.0, 0.0, np.inf]], np.float32)
    # 1x5 windows (replicate): [n n n 1 -0] [n n 1 -0 0] [n 1 -0 0 inf] [1 -0 0 inf inf] ...
    assert numpy_median(row, 1, 5, "replicate", 0).view(np.uint32).tolist()[0] == [
        0x7FC00000, 0x3F800000, 0x3F800000, 0x3F800000, 0x7F800000]
    row = np.array([[-0.0, 0.0, -0.0, np.nan, np.inf]], np.float32)
    # 1x3: [-0 -0 0] [-0 0 -0] [0 -0 n] [-0 n inf] [n inf inf]
    assert numpy_median(row, 1, 3, "replicate", 0).view(np.uint32).tolist()[0] == [
        0x80000000, 0x80000000, 0x00000000, 0x7F800000, 0x7F800000]


@pytest.mark.parametrize("method", ["exact", "separable"])
@pytest.mark.parametrize("border", BORDERS)
def test_float_nan_and_infinities(fastmedian, tmp_path, method, border):
    img = nan_image(len(border) + 7 * (method == "exact"))
    src = tmp_path / "nan.tif"
    tifffile.imwrite(src, img, photometric="minisblack")
    k, cval = 31, -2.5
    if method == "exact":
        want = numpy_median(img, k, k, border, cval)
    else:
        want = numpy_median(numpy_median(img, k, 1, border, cval), 1, k, border, cval)
    args = ["--size", k, "--method", method, "--border", border]
    if border == "constant":
        args += ["--cval", cval]
    got, _ = run_background(fastmedian, src, tmp_path / "bg.tif", *args, "--output",
                            "background")
    assert_same_bits(got, quiet_nans(want))
    assert np.isnan(got).any()
    got, _ = run_background(fastmedian, src, tmp_path / "sub.tif", *args, "--offset", 0.25)
    assert_same_bits(got, subtracted(img, want, 0.25))


def test_nan_cval_for_float_images(fastmedian, tmp_path):
    img = nan_image(3)[:20, :25]
    src = tmp_path / "nan.tif"
    tifffile.imwrite(src, img, photometric="minisblack")
    got, _ = run_background(fastmedian, src, tmp_path / "bg.tif", "--size", 9, "--border",
                            "constant", "--cval", "nan", "--output", "background")
    assert_same_bits(got, quiet_nans(numpy_median(img, 9, 9, "constant", np.nan)))


# --- The integer output step: rounding of the offset and clamping. ---

@pytest.mark.parametrize("offset", [2.5, -2.5, 0.5, -0.5, 1e9, -1e9, 0])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16], ids=["u8", "u16"])
def test_integer_offsets_round_halves_away_from_zero_and_clip(fastmedian, tmp_path, dtype,
                                                              offset):
    top = np.iinfo(dtype).max
    img = np.random.default_rng(5).integers(0, top, (23, 31), endpoint=True).astype(dtype)
    src = tmp_path / "in.tif"
    tifffile.imwrite(src, img, photometric="minisblack")
    got, _ = run_background(fastmedian, src, tmp_path / "out.tif", "--size", 7, "--method",
                            "separable", "--offset", repr(offset))
    want = subtracted(img, scipy_separable(img, 7, "replicate", 0), offset)
    assert_same_bits(got, want)
    if abs(offset) == 1e9:
        assert (got == (top if offset > 0 else 0)).all()


def test_defaults_are_exact_subtract_offset_0_replicate(fastmedian, images, tmp_path):
    img, src = crop_file(images, tmp_path, "u8", np.s_[:120, :150])
    r = fastmedian("background", src, tmp_path / "out.tif", "--size", 31, "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("background exact 31x31 replicate, subtract offset 0 on cpu "
                               "(CPU): 150x120x1 u8 in "), r.stdout
    assert_same_bits(tifffile.imread(tmp_path / "out.tif"),
                     subtracted(img, scipy_exact(img, 31, "replicate", 0), 0))


@pytest.mark.parametrize("image", list(IMAGES))
def test_cuda_backend(fastmedian, images, cuda_devices, tmp_path, image):
    """CUDA against scipy where scipy is quick, else against the CPU (which the tests above
    hold to scipy): every border, both methods, both outputs, K = 31, 65, 129."""
    if not cuda_devices:
        pytest.skip("fastmedian info lists no CUDA device")
    cases = [(31, CROPS[31][image], "exact"), (65, CROPS[65][image], "exact"),
             (129, CROPS[129][image], "exact")] + [
                 (k, SEPARABLE_CROPS[image], "separable") for k in (31, 65, 129)]
    for k, crop, method in cases:
        img, src = crop_file(images, tmp_path, image, crop)
        for border in BORDERS:
            args = ["--size", k, "--method", method, "--border", border]
            if border == "constant":
                args += ["--cval", CVAL[img.dtype]]
            for output in (["--output", "background"], ["--offset", OFFSET[img.dtype]]):
                want, _ = run_background(fastmedian, src, tmp_path / "cpu.tif", *args, *output)
                got, stdout = run_background(fastmedian, src, tmp_path / "cuda.tif", *args,
                                             *output, backend="cuda")
                assert " on cuda:0 (" in stdout
                assert_same_bits(got, want)
    img, src = crop_file(images, tmp_path, image, CROPS[31][image])
    want = scipy_exact(img, 31, "reflect", 0)
    check_both_outputs(fastmedian, tmp_path, img, src, want, 31, "exact", "reflect",
                       backend="cuda")
