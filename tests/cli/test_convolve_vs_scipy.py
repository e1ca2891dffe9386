"""`fastmedian convolve --backend cpu` on the shared images against scipy.ndimage computed in
float64: convolve for the 3x3, 5x5, 9x9 and 31x31 masks, gaussian_filter (truncate 4.0, the
library's mask) for sigma 1, 3 and 10, every border mode, each plane of a stack on its own.
Float output: within 1e-5 of the float64 result, relative to the sum of |weight x pixel| under
the mask (for masks of positive weights that is |result| itself; for masks with negative weights
a result near 0 can be the difference of large terms, whose float rounding is what the bound
measures). Integer output: within 1 of the float64 result clamped to the type's range."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

IMAGES = ["embryos_grey.tif",                # u8 366x462
          "cancer_cell_migration_crop.tif",  # u16 48 planes of 130x130
          "BPAE_actin.tif"]                  # f32 680x1100
SCIPY_MODE = {"replicate": "nearest", "reflect": "reflect", "mirror": "mirror",
              "constant": "constant", "wrap": "wrap"}
CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}


def masks():
    rng = np.random.default_rng(6)
    cone = np.array([[max(0.0, 5.0 - np.hypot(x - 4, y - 4)) for x in range(9)] for y in range(9)])
    return {
        "3x3": np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float64),      # sharpen
        "5x5": np.round(rng.uniform(-1, 2, (5, 5)), 3),                          # mixed signs
        "9x9": cone,                                                            # smoothing
        "31x31": np.round(rng.uniform(0, 1, (31, 31)), 4),
    }


MASKS = masks()


def write_mask(path, mask):
    path.write_text("\n".join(" ".join(repr(float(v)) for v in row) for row in mask) + "\n")
    return path


def run(fastmedian, *args):
    r = fastmedian("convolve", *map(str, args), "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    return r


def per_plane(weights, ndim):
    return weights if ndim == 2 else weights[None]


def check(got, want, scale, dtype, floats):
    """got: our output; want and scale: float64 result and sum of |terms|."""
    if floats:
        assert got.dtype == np.float32
        err = np.abs(got.astype(np.float64) - want)
        bad = err > 1e-5 * scale + 1e-30
        assert not bad.any(), (f"{bad.sum()} pixels off; worst relative error "
                               f"{(err / np.maximum(scale, 1e-30)).max():.3g}")
    else:
        assert got.dtype == dtype
        info = np.iinfo(dtype)
        err = np.abs(got.astype(np.float64) - np.clip(want, info.min, info.max))
        assert err.max() <= 1.0, f"{(err > 1).sum()} pixels off by more than 1; worst {err.max()}"


@pytest.mark.parametrize("border", list(SCIPY_MODE))
@pytest.mark.parametrize("name", list(MASKS))
@pytest.mark.parametrize("image", IMAGES)
def test_mask(fastmedian, shared_data, tmp_path, image, name, border):
    img = tifffile.imread(shared_data / image)
    mask = MASKS[name]
    # The 31x31 mask is normalised by the CLI (--normalize); scipy gets the same division.
    normalize = name == "31x31"
    weights = mask / mask.sum() if normalize else mask
    floats = img.dtype == np.float32 or name == "5x5"  # integer images also with --float
    cval = CVAL[img.dtype] if border == "constant" else None
    args = [shared_data / image, tmp_path / "out.tif", "--kernel", write_mask(tmp_path / "m.txt", mask),
            "--border", border]
    if normalize:
        args.append("--normalize")
    if floats and img.dtype != np.float32:
        args.append("--float")
    if cval is not None:
        args += ["--cval", cval]
    run(fastmedian, *args)
    got = tifffile.imread(tmp_path / "out.tif")
    x = img.astype(np.float64)
    mode = SCIPY_MODE[border]
    want = ndi.convolve(x, per_plane(weights, img.ndim), mode=mode, cval=cval or 0)
    scale = ndi.convolve(np.abs(x), per_plane(np.abs(weights), img.ndim), mode=mode,
                         cval=abs(cval or 0))
    check(got, want, scale, img.dtype, floats)


@pytest.mark.parametrize("border", list(SCIPY_MODE))
@pytest.mark.parametrize("sigma", [1, 3, 10])
@pytest.mark.parametrize("image", IMAGES)
def test_gaussian(fastmedian, shared_data, tmp_path, image, sigma, border):
    img = tifffile.imread(shared_data / image)
    floats = img.dtype == np.float32 or sigma == 3
    cval = CVAL[img.dtype] if border == "constant" else None
    args = [shared_data / image, tmp_path / "out.tif", "--gaussian", sigma, "--border", border]
    if floats and img.dtype != np.float32:
        args.append("--float")
    if cval is not None:
        args += ["--cval", cval]
    r = run(fastmedian, *args)
    radius = int(4 * sigma + 0.5)
    assert f"({2 * radius + 1}x{2 * radius + 1} separable)" in r.stdout
    got = tifffile.imread(tmp_path / "out.tif")
    x = img.astype(np.float64)
    sigmas = sigma if img.ndim == 2 else (0, sigma, sigma)
    mode = SCIPY_MODE[border]
    want = ndi.gaussian_filter(x, sigmas, mode=mode, cval=cval or 0, truncate=4.0)
    scale = ndi.gaussian_filter(np.abs(x), sigmas, mode=mode, cval=abs(cval or 0), truncate=4.0)
    check(got, want, scale, img.dtype, floats)


def test_gaussian_equals_convolve_with_the_outer_product(fastmedian, shared_data, tmp_path):
    """The separable pass order is the library's own, but the result is the 2D convolution with
    the outer product of scipy's 1D mask."""
    img = tifffile.imread(shared_data / "embryos_grey.tif")
    run(fastmedian, shared_data / "embryos_grey.tif", tmp_path / "out.tif", "--gaussian", 1.5,
        "--float", "--border", "mirror")
    x = np.arange(-6, 7)
    k = np.exp(-0.5 / 1.5 ** 2 * x ** 2)
    k /= k.sum()
    want = ndi.convolve(img.astype(np.float64), np.outer(k, k), mode="mirror")
    check(tifffile.imread(tmp_path / "out.tif"), want, np.abs(want), img.dtype, True)
