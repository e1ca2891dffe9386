"""fastmedian.zarr.median_filter: a Zarr volume on disk, larger than the memory each worker of
the test cluster is allowed (256 MiB), filtered chunk by chunk into another Zarr array; OME-Zarr
(NGFF 0.4) images filtered into OME-Zarr images with their metadata, each time point and channel
on its own; read_metadata and its checks."""
import dask.array as da
import numpy as np
import pytest
import zarr

import fastmedian
import fastmedian.zarr
from conftest import assert_same_bits


def test_volume_larger_than_a_worker_memory(client, tmp_path):
    source, target = str(tmp_path / "in.zarr"), str(tmp_path / "out.zarr")
    volume = da.random.RandomState(1).randint(0, 4096, size=(72, 1024, 2048), dtype=np.uint16,
                                              chunks=(8, 512, 512))
    assert volume.nbytes > 256 * 2**20
    client.compute(volume.to_zarr(source, compute=False)).result()

    fastmedian.zarr.median_filter(source, target, size=(1, 3, 3), mode="reflect")

    src, out = zarr.open_array(source, mode="r"), zarr.open_array(target, mode="r")
    assert (out.shape, out.dtype, out.chunks) == (src.shape, src.dtype, src.chunks)
    for plane in (0, 37, 71):  # planes are filtered on their own: each one checks exactly
        assert_same_bits(out[plane], fastmedian.median_filter(src[plane], size=3, mode="reflect"))


# OME-Zarr (NGFF 0.4) images, written here by hand as the specification lays them out.
TCZYX_AXES = [{"name": "t", "type": "time", "unit": "second"},
              {"name": "c", "type": "channel"},
              {"name": "z", "type": "space", "unit": "micrometer"},
              {"name": "y", "type": "space", "unit": "micrometer"},
              {"name": "x", "type": "space", "unit": "micrometer"}]
YX_AXES = [{"name": "y", "type": "space", "unit": "nanometer"},
           {"name": "x", "type": "space", "unit": "nanometer"}]
OMERO = {"version": "0.4", "channels": [
    {"label": name, "color": color, "active": True,
     "window": {"min": 0, "max": 4095, "start": 0, "end": 1500}}
    for name, color in (("DAPI", "0000FF"), ("GFP", "00FF00"), ("mCherry", "FF0000"))]}


def write_image(group, data, chunks, axes, scale, path="0", omero=None, **multiscale):
    """An OME-Zarr image in `group`: `data` at `path` and a half-resolution level beside it."""
    half = data[(slice(None),) * (data.ndim - 2) + (slice(None, None, 2),) * 2]
    group.create_dataset(path, data=data, chunks=chunks, dimension_separator="/")
    group.create_dataset(path + "-half", data=half, chunks=chunks, dimension_separator="/")
    half_scale = scale[:-2] + [2 * s for s in scale[-2:]]
    group.attrs["multiscales"] = [{
        "version": "0.4", "axes": axes, **multiscale, "datasets": [
            {"path": path, "coordinateTransformations": [{"type": "scale", "scale": scale}]},
            {"path": path + "-half",
             "coordinateTransformations": [{"type": "scale", "scale": half_scale}]}]}]
    if omero is not None:
        group.attrs["omero"] = omero
    return group


def expected_attrs(source):
    """The source's attributes with only the full-resolution dataset, as "0" (and no pyramid
    "type" or "metadata": they describe levels that are not written)."""
    multiscale = dict(source.attrs["multiscales"][0])
    multiscale.pop("type", None)
    multiscale.pop("metadata", None)
    multiscale["datasets"] = [dict(multiscale["datasets"][0], path="0")]
    return dict(source.attrs.asdict(), multiscales=[multiscale])


@pytest.mark.parametrize("window", [{"size": (1, 3, 3)}, {"radius": 2}, {"size": (3, 3, 3)},
                                    {"radius": (1, 2, 2)}], ids=str)
def test_ome_tczyx_each_time_point_and_channel_on_its_own(client, tmp_path, window):
    data = np.random.default_rng(3).integers(0, 4096, size=(2, 3, 5, 40, 45), dtype=np.uint16)
    source = write_image(zarr.open_group(str(tmp_path / "in.zarr"), mode="w"), data,
                         (1, 2, 2, 16, 32), TCZYX_AXES, [30.0, 1.0, 2.0, 0.25, 0.25],
                         name="embryo", type="gaussian", omero=OMERO,
                         coordinateTransformations=[{"type": "scale",
                                                     "scale": [2.0, 1, 1, 1, 1]}])
    target = str(tmp_path / "out.zarr")

    fastmedian.zarr.median_filter(str(tmp_path / "in.zarr"), target, **window, mode="reflect")

    out = zarr.open_group(target, mode="r")
    assert out.attrs.asdict() == expected_attrs(source)
    assert list(out) == ["0"]  # no lower resolutions
    src, got = source["0"], out["0"]
    assert (got.shape, got.dtype, got.chunks) == (src.shape, src.dtype, src.chunks)
    assert got.compressor == src.compressor and got._dimension_separator == "/"
    for t in range(2):
        for c in range(3):
            assert_same_bits(got[t, c], fastmedian.median_filter(data[t, c], **window,
                                                                 mode="reflect"))
    assert fastmedian.zarr.read_metadata(target) == {
        "name": "embryo", "axes": TCZYX_AXES, "path": "0",
        "scale": [60.0, 1.0, 2.0, 0.25, 0.25], "translation": None}


def test_ome_yx_groups_in_and_out(tmp_path):
    data = np.random.default_rng(4).random((60, 70), dtype=np.float32)
    source = write_image(zarr.open_group(str(tmp_path / "in.zarr"), mode="w"), data, (32, 32),
                         YX_AXES, [100.0, 50.0], path="s0")
    target = zarr.open_group(str(tmp_path / "out.zarr"), mode="w")

    fastmedian.zarr.median_filter(source, target, size=5)

    assert target.attrs.asdict() == expected_attrs(source)
    assert_same_bits(target["0"][:], fastmedian.median_filter(data, size=5))
    metadata = fastmedian.zarr.read_metadata(source)
    assert (metadata["name"], metadata["path"], metadata["scale"]) == (None, "s0", [100.0, 50.0])
    assert metadata["axes"] == YX_AXES
    with pytest.raises(ValueError, match="not empty"):
        fastmedian.zarr.median_filter(source, target, size=3)
    fastmedian.zarr.median_filter(source, target, size=3, overwrite=True)
    assert_same_bits(target["0"][:], fastmedian.median_filter(data, size=3))


def test_ome_translation_composed_with_the_shared_scale(tmp_path):
    group = write_image(zarr.open_group(str(tmp_path / "in.zarr"), mode="w"),
                        np.zeros((2, 8, 8), np.uint8), (1, 8, 8), TCZYX_AXES[1:][:1] + YX_AXES,
                        [1.0, 0.5, 0.5])
    multiscales = group.attrs["multiscales"]
    multiscales[0]["datasets"][0]["coordinateTransformations"].append(
        {"type": "translation", "translation": [0.0, 10.0, 20.0]})
    multiscales[0]["coordinateTransformations"] = [{"type": "scale", "scale": [1.0, 2.0, 2.0]},
                                                   {"type": "translation",
                                                    "translation": [0.0, 1.0, 1.0]}]
    group.attrs["multiscales"] = multiscales
    metadata = fastmedian.zarr.read_metadata(group)
    assert metadata["scale"] == [1.0, 1.0, 1.0]
    assert metadata["translation"] == [0.0, 21.0, 41.0]


def test_plain_array_stays_a_plain_array(tmp_path):
    data = np.random.default_rng(5).integers(0, 256, size=(3, 30, 40), dtype=np.uint8)
    source, target = str(tmp_path / "in.zarr"), str(tmp_path / "out.zarr")
    zarr.open_array(source, mode="w", shape=data.shape, chunks=(1, 16, 16), dtype=data.dtype)[:] \
        = data
    fastmedian.zarr.median_filter(source, target, size=(1, 3, 3))
    out = zarr.open(target, mode="r")
    assert isinstance(out, zarr.Array) and dict(out.attrs) == {}
    assert out.chunks == (1, 16, 16)
    assert_same_bits(out[:], fastmedian.median_filter(data, size=(1, 3, 3)))


@pytest.mark.parametrize("where", ["same", "inside", "holding", "same group"])
def test_target_over_the_source_is_refused(tmp_path, where):
    # With overwrite=True, zarr would first remove the target: the source with it.
    data = np.arange(2 * 8 * 8, dtype=np.uint16).reshape(2, 8, 8)
    source = tmp_path / "in.zarr"
    zarr.open_array(str(source), mode="w", shape=data.shape, chunks=(1, 8, 8),
                    dtype=data.dtype)[:] = data
    target = {"same": str(source), "inside": str(source / "out"), "holding": str(tmp_path),
              "same group": zarr.open(str(source), mode="r+")}[where]
    with pytest.raises(ValueError, match="refusing to write over the source"):
        fastmedian.zarr.median_filter(str(source), target, size=(1, 3, 3), overwrite=True)
    np.testing.assert_array_equal(zarr.open(str(source), mode="r")[:], data)


def _edit(key, value):
    def edit(multiscale):
        multiscale[key] = value
    return edit


def _edit_scale(scale):
    def edit(multiscale):
        multiscale["datasets"][0]["coordinateTransformations"] = scale
    return edit


def _four_axes(multiscale):
    multiscale["axes"] = TCZYX_AXES[1:]
    for d in multiscale["datasets"]:
        d["coordinateTransformations"][0]["scale"].pop(0)


BAD_METADATA = [
    (_edit("version", "0.3"), "version '0.3' is not supported"),
    (_edit("axes", YX_AXES[:1]), "2 to 5"),
    (_edit("axes", TCZYX_AXES + [{"name": "w", "type": "space"}]), "2 to 5"),
    (_edit("axes", [TCZYX_AXES[1], TCZYX_AXES[0]] + TCZYX_AXES[2:]), "axes out of order"),
    (_edit("axes", TCZYX_AXES[:2] + [{"name": "z"}] + TCZYX_AXES[3:]), "axes out of order"),
    (_edit("axes", TCZYX_AXES[:2] + [dict(TCZYX_AXES[2], name="y")] + TCZYX_AXES[3:]),
     "each name once"),
    (_four_axes, "array '0' has 5 dimensions"),
    (_edit("datasets", []), "non-empty list"),
    (_edit("datasets", [{"path": "nothing", "coordinateTransformations": [
        {"type": "scale", "scale": [1] * 5}]}]), "'nothing' is not an array"),
    (_edit_scale([]), "one scale"),
    (_edit_scale([{"type": "translation", "translation": [0] * 5},
                  {"type": "scale", "scale": [1] * 5}]), "one scale"),
    (_edit_scale([{"type": "scale", "scale": [1, 1, 1]}]), "list of 5 finite numbers"),
]


@pytest.mark.parametrize("edit, message", BAD_METADATA, ids=[m for _, m in BAD_METADATA])
def test_ome_metadata_checked(tmp_path, edit, message):
    group = write_image(zarr.open_group(str(tmp_path / "in.zarr"), mode="w"),
                        np.zeros((1, 2, 3, 8, 8), np.uint8), (1, 1, 1, 8, 8), TCZYX_AXES,
                        [1.0] * 5)
    multiscales = group.attrs["multiscales"]
    edit(multiscales[0])
    group.attrs["multiscales"] = multiscales
    with pytest.raises(ValueError, match=message):
        fastmedian.zarr.read_metadata(str(tmp_path / "in.zarr"))
    with pytest.raises(ValueError, match=message):  # nothing written
        fastmedian.zarr.median_filter(group, str(tmp_path / "out.zarr"), size=(1, 3, 3))
    assert not (tmp_path / "out.zarr").exists()


def test_not_an_ome_image(tmp_path):
    zarr.open_array(str(tmp_path / "array.zarr"), mode="w", shape=(8, 8), dtype=np.uint8)
    zarr.open_group(str(tmp_path / "group.zarr"), mode="w")
    with pytest.raises(ValueError, match="is a Zarr array, not an OME-Zarr image"):
        fastmedian.zarr.read_metadata(str(tmp_path / "array.zarr"))
    with pytest.raises(ValueError, match="no 'multiscales'"):
        fastmedian.zarr.read_metadata(str(tmp_path / "group.zarr"))
    with pytest.raises(ValueError, match="no 'multiscales'"):
        fastmedian.zarr.median_filter(str(tmp_path / "group.zarr"), str(tmp_path / "out.zarr"),
                                      size=3)
    with pytest.raises(ValueError, match="source .*: no Zarr array or group there"):
        fastmedian.zarr.median_filter(str(tmp_path / "none.zarr"), str(tmp_path / "out.zarr"),
                                      size=3)


def test_ome_bad_window_raises_before_writing(tmp_path):
    group = write_image(zarr.open_group(str(tmp_path / "in.zarr"), mode="w"),
                        np.zeros((2, 3, 8, 8), np.uint8), (1, 1, 8, 8), TCZYX_AXES[1:],
                        [1.0] * 4)
    with pytest.raises(ValueError, match=r"size=3 on a 3D stack is refused"):
        fastmedian.zarr.median_filter(group, str(tmp_path / "out.zarr"), size=3)
    assert not (tmp_path / "out.zarr").exists()
