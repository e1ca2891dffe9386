"""--out-dir: several inputs in one call, each written into the folder under its own name, as a
shell loop over a folder would, with one bad file reported and the rest still done."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import assert_same_bits, listing


def stacks(folder, names, dtype=np.uint16):
    rng = np.random.default_rng(3)
    folder.mkdir()
    made = {}
    for name in names:
        made[name] = rng.integers(0, 4000, (3, 21, 26)).astype(dtype)
        tifffile.imwrite(folder / name, made[name], photometric="minisblack")
    return made


@pytest.mark.parametrize("command,options,expected", [
    ("median", ["--size", "3"], lambda a: ndi.median_filter(a, size=(1, 3, 3), mode="nearest")),
    ("median", ["--size", "3", "--3d"], lambda a: ndi.median_filter(a, size=3, mode="nearest")),
    ("background", ["--size", "5", "--output", "background"],
     lambda a: ndi.median_filter(a, size=(1, 5, 5), mode="nearest")),
    ("convolve", ["--gaussian", "0.5", "--float"], None),
    ("temporal", ["--window", "3"], lambda a: np.stack([
        np.median(a[[0, 1, 2]], axis=0)] * 3).astype(a.dtype)),
])
def test_every_input_into_the_folder_under_its_own_name(fastmedian, tmp_path, command, options,
                                                        expected):
    made = stacks(tmp_path / "in", ["a.tif", "b.tif", "c.tif"])
    out = tmp_path / "out"
    out.mkdir()
    r = fastmedian(command, *(tmp_path / "in" / n for n in made), "--out-dir", out, *options)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and all(l.endswith(f"-> {out}/{n}") for l, n in zip(lines, made))
    assert listing(out) == sorted(made)
    for name, image in made.items():
        got = tifffile.imread(out / name)
        if expected is not None:
            assert_same_bits(got, expected(image))
        else:
            assert got.dtype == np.float32 and got.shape == image.shape


def test_a_bad_file_is_reported_and_the_others_done(fastmedian, tmp_path):
    made = stacks(tmp_path / "in", ["a.tif", "c.tif"])
    (tmp_path / "in" / "b.tif").write_bytes(b"not a TIFF")
    out = tmp_path / "out"
    out.mkdir()
    inputs = [tmp_path / "in" / n for n in ["a.tif", "b.tif", "c.tif"]]
    r = fastmedian("median", *inputs, "--out-dir", out, "--size", "3")
    assert r.returncode == 1
    errors = r.stderr.splitlines()
    assert len(errors) == 1 and errors[0].startswith("fastmedian: ") and "b.tif" in errors[0]
    assert listing(out) == ["a.tif", "c.tif"]
    for name in made:
        assert_same_bits(tifffile.imread(out / name),
                         ndi.median_filter(made[name], size=(1, 3, 3), mode="nearest"))


def test_outputs_over_their_inputs_are_refused_each(fastmedian, tmp_path):
    made = stacks(tmp_path / "in", ["a.tif", "b.tif"])
    r = fastmedian("median", *(tmp_path / "in" / n for n in made), "--out-dir", tmp_path / "in",
                   "--size", "3")
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 2
    for name, image in made.items():  # untouched
        assert_same_bits(tifffile.imread(tmp_path / "in" / name), image)


@pytest.mark.parametrize("setup,args,message", [
    (None, ["--out-dir", "{tmp}/absent"], "--out-dir {tmp}/absent is not an existing folder"),
    (None, ["--out-dir", "{tmp}/in/a.tif"], "is not an existing folder"),
    (None, ["--out-dir", ""], "--out-dir '' is not an existing folder"),
    ("same-name", ["--out-dir", "{tmp}/out"], "would both be written to {tmp}/out/a.tif"),
    ("no-inputs", ["--out-dir", "{tmp}/out"], "median --out-dir needs at least one input file"),
])
def test_bad_out_dir_calls_are_usage_errors_before_any_file(fastmedian, tmp_path, setup, args,
                                                            message):
    stacks(tmp_path / "in", ["a.tif"])
    (tmp_path / "out").mkdir()
    inputs = [tmp_path / "in" / "a.tif"]
    if setup == "same-name":
        (tmp_path / "other").mkdir()
        tifffile.imwrite(tmp_path / "other" / "a.tif", np.zeros((4, 4), np.uint8))
        inputs.append(tmp_path / "other" / "a.tif")
    if setup == "no-inputs":
        inputs = []
    r = fastmedian("median", *inputs, *[a.format(tmp=tmp_path) for a in args], "--size", "3")
    assert r.returncode == 2, r.stderr
    assert message.format(tmp=tmp_path) in r.stderr
    assert listing(tmp_path / "out") == []
