"""`fastmedian median --backend cpu` on the real images, bit for bit against
scipy.ndimage.median_filter (each plane of a stack on its own)."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import assert_same_bits, circle_footprint

IMAGES = ["embryos_grey.tif",                # u8 366x462
          "cancer_cell_migration_crop.tif",  # u16 48 planes of 130x130
          "BPAE_actin.tif"]                  # f32 680x1100
SCIPY_MODE = {"replicate": "nearest", "nearest": "nearest", "reflect": "reflect",
              "mirror": "mirror", "constant": "constant", "wrap": "wrap"}
# Integer cvals, inside every type's range, so the conversion to the pixel type is exact.
CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}


def run_median(fastmedian, src, out, *window, border="replicate", cval=None, backend="cpu"):
    args = ["median", src, out, *window, "--border", border, "--backend", backend]
    if cval is not None:
        args += ["--cval", cval]
    r = fastmedian(*args)
    assert r.returncode == 0, r.stderr
    return tifffile.imread(out), r.stdout


def per_plane(footprint_2d, ndim):
    return footprint_2d if ndim == 2 else footprint_2d[None]


@pytest.mark.parametrize("border", list(SCIPY_MODE))
@pytest.mark.parametrize("size", [3, 5, 7])
@pytest.mark.parametrize("image", IMAGES)
def test_square_window(fastmedian, shared_data, tmp_path, image, size, border):
    img = tifffile.imread(shared_data / image)
    cval = CVAL[img.dtype] if border == "constant" else None
    got, _ = run_median(fastmedian, shared_data / image, tmp_path / "out.tif", "--size", size,
                        border=border, cval=cval)
    want = ndi.median_filter(img, footprint=per_plane(np.ones((size, size), bool), img.ndim),
                             mode=SCIPY_MODE[border], cval=cval or 0)
    assert_same_bits(got, want)


@pytest.mark.parametrize("radius,border", [(1.5, "constant"), (2, "replicate"), (3, "mirror")])
@pytest.mark.parametrize("image", IMAGES)
def test_circle_window(fastmedian, shared_data, tmp_path, image, radius, border):
    img = tifffile.imread(shared_data / image)
    cval = CVAL[img.dtype] if border == "constant" else None
    got, _ = run_median(fastmedian, shared_data / image, tmp_path / "out.tif", "--radius",
                        radius, border=border, cval=cval)
    mask = circle_footprint(radius)  # ImageJ's: radius 1.5 is widened to 1.75, as ImageJ does
    want = ndi.median_filter(img, footprint=per_plane(mask, img.ndim), mode=SCIPY_MODE[border],
                             cval=cval or 0)
    assert_same_bits(got, want)


def test_negative_cval_clamps_to_zero(fastmedian, shared_data, tmp_path):
    """'--cval -5' is a value, not an option; for u16 it rounds and clamps to 0."""
    img = tifffile.imread(shared_data / "cancer_cell_migration_crop.tif")
    got, _ = run_median(fastmedian, shared_data / "cancer_cell_migration_crop.tif",
                        tmp_path / "out.tif", "--size", 5, border="constant", cval=-5)
    assert_same_bits(got, ndi.median_filter(img, size=(1, 5, 5), mode="constant", cval=0))


def test_equals_sign_options_and_summary(fastmedian, shared_data, tmp_path):
    out = tmp_path / "out.tif"
    r = fastmedian("median", shared_data / "embryos_grey.tif", out, "--size=5",
                   "--border=reflect", "--backend=cpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("median 5x5 reflect on cpu (CPU): 462x366x1 u8 in ")
    assert r.stdout.endswith(f" ms -> {out}\n")
    img = tifffile.imread(shared_data / "embryos_grey.tif")
    assert_same_bits(tifffile.imread(out), ndi.median_filter(img, size=5, mode="reflect"))


# Windows larger than the image: scipy 1.10 keeps extending periodically (reflect period 2n,
# mirror 2n-2, wrap n), as numpy.pad does, and as our border_index does.
NUMPY_PAD = {"nearest": "edge", "reflect": "symmetric", "mirror": "reflect", "wrap": "wrap",
             "constant": "constant"}


def padded_median(img, size, mode, cval):
    r = size // 2
    kwargs = {"constant_values": cval} if mode == "constant" else {}
    p = np.pad(img, r, mode=NUMPY_PAD[mode], **kwargs)
    windows = np.lib.stride_tricks.sliding_window_view(p, (size, size))
    return np.sort(windows.reshape(*img.shape, -1), axis=-1)[..., (size * size - 1) // 2]


@pytest.mark.parametrize("mode", list(NUMPY_PAD))
@pytest.mark.parametrize("shape", [(3, 4), (1, 5), (2, 1), (1, 1)])
@pytest.mark.parametrize("size", [9, 15])
def test_window_larger_than_image(fastmedian, tmp_path, shape, size, mode):
    img = np.random.default_rng(size).integers(0, 60000, shape).astype(np.uint16)
    tifffile.imwrite(tmp_path / "tiny.tif", img, photometric="minisblack")
    cval = 777 if mode == "constant" else None
    got, _ = run_median(fastmedian, tmp_path / "tiny.tif", tmp_path / "out.tif", "--size", size,
                        border=mode, cval=cval)
    assert_same_bits(got, padded_median(img, size, mode, cval or 0))
    assert_same_bits(got, ndi.median_filter(img, size=size, mode=mode, cval=cval or 0))


@pytest.mark.parametrize("image", IMAGES)
def test_cuda_backend(fastmedian, shared_data, cuda_devices, tmp_path, image):
    if not cuda_devices:
        pytest.skip("fastmedian info lists no CUDA device")
    img = tifffile.imread(shared_data / image)
    for window, footprint in [(("--size", 7), np.ones((7, 7), bool)),
                              (("--radius", 3), circle_footprint(3))]:
        for border in ["replicate", "reflect", "mirror", "constant", "wrap"]:
            cval = CVAL[img.dtype] if border == "constant" else None
            got, stdout = run_median(fastmedian, shared_data / image, tmp_path / "out.tif",
                                     *window, border=border, cval=cval, backend="cuda")
            assert " on cuda:0 (" in stdout
            want = ndi.median_filter(img, footprint=per_plane(footprint, img.ndim),
                                     mode=SCIPY_MODE[border], cval=cval or 0)
            assert_same_bits(got, want)
