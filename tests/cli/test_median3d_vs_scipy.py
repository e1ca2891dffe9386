"""`fastmedian median --3d` on real volumes, bit for bit against scipy.ndimage.median_filter
with the 3D footprint (a box, or ImageJ's Filters3D ellipsoid written out here)."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import assert_same_bits, ellipsoid

SCIPY_MODE = {"replicate": "nearest", "reflect": "reflect", "mirror": "mirror",
              "constant": "constant", "wrap": "wrap"}
CVAL = {np.dtype(np.uint8): 200, np.dtype(np.uint16): 1000, np.dtype(np.float32): 3}


@pytest.fixture(scope="module")
def volumes(shared_data, tmp_path_factory):
    """name -> (path, array): the bead stack (u8), the cell stack (u16) and the bead stack as
    float32 with negative values and +-Inf."""
    folder = tmp_path_factory.mktemp("volumes")
    beads = tifffile.imread(shared_data / "Bead_Image1_crop.tif")[:, 40:110, 30:120]
    cells = tifffile.imread(shared_data / "cancer_cell_migration_crop.tif")[:24]
    floats = (beads.astype(np.float32) - 60.0) / 7.0
    floats[5, 10, 10:14] = [np.inf, -np.inf, np.inf, 0.0]
    out = {}
    for name, arr in [("u8", beads), ("u16", cells), ("f32", floats)]:
        path = folder / f"{name}.tif"
        tifffile.imwrite(path, arr, photometric="minisblack")
        out[name] = (path, arr)
    return out


def run_3d(fastmedian, src, out, *window, border="replicate", cval=None, backend="cpu"):
    args = ["median", src, out, *window, "--3d", "--border", border, "--backend", backend]
    if cval is not None:
        args += ["--cval", cval]
    r = fastmedian(*args)
    assert r.returncode == 0, r.stderr
    return tifffile.imread(out), r.stdout


@pytest.mark.parametrize("border", list(SCIPY_MODE))
@pytest.mark.parametrize("size", [3, 5])
@pytest.mark.parametrize("name", ["u8", "u16", "f32"])
def test_box(fastmedian, volumes, tmp_path, name, size, border):
    path, img = volumes[name]
    cval = CVAL[img.dtype] if border == "constant" else None
    got, stdout = run_3d(fastmedian, path, tmp_path / "out.tif", "--size", size, border=border,
                         cval=cval)
    assert stdout.startswith(f"median {size}x{size}x{size} {border}")
    want = ndi.median_filter(img, size=size, mode=SCIPY_MODE[border], cval=cval or 0)
    assert_same_bits(got, want)


@pytest.mark.parametrize("window,radii", [(("--radius", 1), (1, 1, 1)),
                                          (("--radius", 2), (2, 2, 2)),
                                          (("--radius", 2, "--zradius", 1), (2, 2, 1)),
                                          (("--radius", 1.5, "--zradius", 0), (1.5, 1.5, 0))])
@pytest.mark.parametrize("name", ["u8", "u16", "f32"])
def test_ellipsoid(fastmedian, volumes, tmp_path, name, window, radii):
    path, img = volumes[name]
    got, _ = run_3d(fastmedian, path, tmp_path / "out.tif", *window, border="mirror")
    assert_same_bits(got, ndi.median_filter(img, footprint=ellipsoid(*radii), mode="mirror"))


def test_zsize_one_is_the_2d_median(fastmedian, volumes, tmp_path):
    path, img = volumes["u16"]
    got, _ = run_3d(fastmedian, path, tmp_path / "out.tif", "--size", 5, "--zsize", 1)
    assert_same_bits(got, ndi.median_filter(img, size=(1, 5, 5), mode="nearest"))


@pytest.mark.parametrize("name", ["u8", "u16", "f32"])
def test_cuda_backend(fastmedian, volumes, cuda_devices, tmp_path, name):
    if not cuda_devices:
        pytest.skip("fastmedian info lists no CUDA device")
    path, img = volumes[name]
    for window, footprint in [(("--size", 3), np.ones((3, 3, 3), bool)),
                              (("--size", 5), np.ones((5, 5, 5), bool)),
                              (("--radius", 2), ellipsoid(2, 2, 2)),
                              (("--radius", 3, "--zradius", 1), ellipsoid(3, 3, 1))]:
        for border in SCIPY_MODE:
            cval = CVAL[img.dtype] if border == "constant" else None
            got, stdout = run_3d(fastmedian, path, tmp_path / "out.tif", *window, border=border,
                                 cval=cval, backend="cuda")
            assert " on cuda:0 (" in stdout
            want = ndi.median_filter(img, footprint=footprint, mode=SCIPY_MODE[border],
                                     cval=cval or 0)
            assert_same_bits(got, want)


@pytest.mark.parametrize("args,words", [
    (["--size", 3, "--zsize", 3], "--zsize and --zradius apply only with --3d"),
    (["--size", 3, "--3d", "--zradius", 1], "--zradius applies to --radius"),
    (["--radius", 2, "--3d", "--zsize", 3], "--zsize applies to --size"),
    (["--size", 3, "--3d", "--zsize", 4], "--zsize must be an odd integer"),
    (["--radius", 2, "--3d", "--zradius", "nan"], "--zradius must be a number"),
    (["--size", 301, "--3d"], "--size must be at most 255 with --3d"),
    (["--size", 3, "--3d=yes"], "--3d takes no value"),
    (["--size", 3, "--3d", "--3d"], "--3d is given twice"),
])
def test_bad_3d_options(fastmedian, volumes, tmp_path, args, words):
    path, img = volumes["u8"]
    out = tmp_path / "out.tif"
    r = fastmedian("median", path, out, *args)
    assert r.returncode == 2, r.stdout
    assert words in r.stderr
    assert not out.exists()
