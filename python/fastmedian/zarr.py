"""Filtering Zarr arrays on disk chunk by chunk, through fastmedian.dask: a volume larger than
memory streams through, on the current dask scheduler (a dask.distributed Client when one is
active, else threads in this process). Worker processes filter on one CPU thread per call, as
fastmedian.dask says.

OME-Zarr images (NGFF 0.4, https://ngff.openmicroscopy.org/0.4/: a Zarr v2 group whose
attributes hold "multiscales") are read and written here without ome-zarr-py: read_metadata
checks an image's metadata, and median_filter filters its full-resolution array into a new
OME-Zarr image that carries the source's axes, units, scale and channel ("omero") metadata."""
import math
import numbers
import os
import re

import dask.array as da
import zarr

from . import dask as fmdask
from ._params import _shown

NGFF_VERSION = "0.4"
# The axis types in the order NGFF 0.4 requires, one letter each: an optional time axis, an
# optional channel (or custom, or untyped) axis, then 2 or 3 space axes.
_AXES_ORDER = re.compile(r"T?C?S{2,3}")


def median_filter(source, target, size=None, radius=None, mode="nearest", cval=0.0,
                  backend="auto", device=0, overwrite=False):
    """Writes the median of the Zarr array `source` into a new Zarr array `target` with the same
    shape, dtype and chunks. source and target: paths, URLs or zarr arrays (as
    dask.array.from_zarr and to_zarr take them); other parameters as fastmedian.median_filter.

    An OME-Zarr image (NGFF 0.4) as source (a path, URL or store of its group, or a zarr.Group;
    checked as read_metadata does) gives an OME-Zarr image as target (a path, URL or store,
    or an empty zarr.Group): its full-resolution array (the first of "datasets") filtered
    into the array "0" of the same shape, dtype, chunks and compressor (chunk files nested,
    "/", as NGFF lays them out), and the source's "multiscales" metadata ("name", "axes" with
    their units, the first dataset's coordinateTransformations and any shared ones) and
    "omero" (channels) carried over. The target lists that one dataset only: lower
    resolutions are not computed (build the pyramid afterwards if a viewer needs one).
    size and radius name the space axes only, each time point and channel being filtered on
    its own, so channels and time points are never mixed: for (y, x), k, (k, k) or radius r;
    for (z, y, x), (1, k, k) or radius r for each z plane, or (kz, ky, kx) or (rz, ry, rx)
    for the 3D median (a plain k is refused, as fastmedian.median_filter refuses it on a 3D
    array). Bad arguments raise before anything is written."""
    opened = _opened(source, "source")
    _refuse_overlap(opened, target)
    args = dict(size=size, radius=radius, mode=mode, cval=cval, backend=backend,
                device=device)
    if isinstance(opened, zarr.Group):
        _ome_median(opened, target, args, overwrite)
        return
    image = da.from_zarr(source)
    result = fmdask.median_filter(image, **args)
    da.to_zarr(result, target, overwrite=overwrite)


def read_metadata(image):
    """The metadata of the OME-Zarr image `image` (NGFF 0.4: a path, URL or store of its
    group, or a zarr.Group), checked: a dict with
      "name": the image's name, or None;
      "axes": its axes as the file lists them (dicts with "name", and "type" and "unit" where
          given), time first, then channel, then 2 or 3 space axes;
      "path": the path of the full-resolution array in the group (the first of "datasets");
      "scale": that array's pixel size along each axis, in the axes' units (its scale
          transformation, times the scale shared by all datasets if the image has one);
      "translation": its origin along each axis likewise, or None when none is given.
    Of the "multiscales" list the first image is read (as NGFF advises). Raises ValueError
    naming what is wrong: not a group, no "multiscales", a version other than 0.4, axes of a
    wrong count, names or order, datasets or transformations missing or of the wrong length,
    the array missing or of another number of dimensions."""
    group = _opened(image, "image")
    if not isinstance(group, zarr.Group):
        raise ValueError(f"image {_shown(image)} is a Zarr array, not an OME-Zarr image (a "
                         f"group whose attributes hold 'multiscales')")
    multiscale, array = _checked_image(group, "image")
    scale, translation = _scale_and_translation(multiscale)
    return {"name": multiscale.get("name"), "axes": [dict(a) for a in multiscale["axes"]],
            "path": multiscale["datasets"][0]["path"], "scale": scale,
            "translation": translation}


def _ome_median(group, target, args, overwrite):
    """median_filter of the OME-Zarr image `group` into the OME-Zarr image `target`."""
    multiscale, array = _checked_image(group, "source")
    image = da.from_zarr(array)
    leading = sum(a.get("type") != "space" for a in multiscale["axes"])  # time, channel
    if 0 in image.shape[:leading]:
        raise ValueError(f"source image is empty (shape {image.shape})")
    # The filter's own checks run on the first plane's call, before the target is touched.
    result = _each_leading(image, leading, lambda part: fmdask.median_filter(part, **args))
    result = result.rechunk(image.chunks)  # stacking left one time point, channel a chunk
    out, store, component = _target_group(target, overwrite)
    # Data first, then the attributes: an interrupted run leaves no image that looks finished.
    da.to_zarr(result, store, component=component, compressor=array.compressor,
               filters=array.filters, dimension_separator="/")
    carried = {"version": NGFF_VERSION}
    if "name" in multiscale:
        carried["name"] = multiscale["name"]
    carried["axes"] = multiscale["axes"]
    carried["datasets"] = [{"path": "0", "coordinateTransformations":
                            multiscale["datasets"][0]["coordinateTransformations"]}]
    if "coordinateTransformations" in multiscale:
        carried["coordinateTransformations"] = multiscale["coordinateTransformations"]
    attrs = {"multiscales": [carried]}
    if "omero" in group.attrs:
        attrs["omero"] = group.attrs["omero"]
    out.attrs.update(attrs)


def _each_leading(image, leading, filter_space):
    """filter_space applied to each (space axes) part of `image` past its first `leading` axes,
    the results stacked back along them."""
    if leading == 0:
        return filter_space(image)
    return da.stack([_each_leading(image[i], leading - 1, filter_space)
                     for i in range(image.shape[0])])


def _target_group(target, overwrite):
    """The new group at `target`, and the store and path to write its array "0" at (through
    zarr's store, which makes the nested chunk folders, where fsspec's mapper of a local path
    would not)."""
    if isinstance(target, zarr.Group):
        if overwrite:
            target = zarr.open_group(target.store, mode="w", path=target.path)
        elif len(target) or len(target.attrs):
            raise ValueError(f"target group '{_location(target)}' is not empty (give "
                             f"overwrite=True to replace its contents)")
    else:
        target = zarr.open_group(target, mode="w" if overwrite else "w-")
    return target, target.store, f"{target.path}/0" if target.path else "0"


def _local_folder(where):
    """The real folder of a local Zarr array or group (a path, or a zarr object on a local
    store), or None for anything else (URLs, memory stores)."""
    if isinstance(where, (zarr.Array, zarr.Group)):
        store = getattr(where.store, "path", None)
        if not isinstance(store, str):
            return None
        where = os.path.join(store, where.path) if where.path else store
    if isinstance(where, (str, os.PathLike)) and "://" not in str(where):
        return os.path.realpath(where)
    return None


def _refuse_overlap(source, target):
    """Raises ValueError when `target` is `source`, or a folder holding it or held in it:
    writing it (with overwrite=True, its removal first) would destroy the source."""
    src, dst = _local_folder(source), _local_folder(target)
    if src is None or dst is None:
        return
    if src == dst or src.startswith(dst + os.sep) or dst.startswith(src + os.sep):
        raise ValueError(f"target {_shown(target)} is or holds (or lies in) the source "
                         f"'{src}'; refusing to write over the source")


def _opened(source, name):
    """`source` as a zarr.Array or zarr.Group (opened read-only from a path, URL or store)."""
    if isinstance(source, (zarr.Array, zarr.Group)):
        return source
    try:
        return zarr.open(source, mode="r")
    except zarr.errors.PathNotFoundError:
        raise ValueError(f"{name} {_shown(source)}: no Zarr array or group there") from None


def _checked_image(group, name):
    """The first "multiscales" entry of `group`, checked against NGFF 0.4, and its
    full-resolution array."""
    where = f"{name} '{_location(group)}'"
    multiscales = group.attrs.get("multiscales")
    if multiscales is None:
        raise ValueError(f"{where} has no 'multiscales' attribute: not an OME-Zarr image")
    if not isinstance(multiscales, list) or not multiscales or \
            not all(isinstance(m, dict) for m in multiscales):
        raise ValueError(f"{where}: 'multiscales' must be a non-empty list of objects, got "
                         f"{_shown(multiscales)}")
    multiscale = multiscales[0]
    # NGFF 0.4 says "version" SHOULD be there: one that is there must be 0.4.
    version = multiscale.get("version", NGFF_VERSION)
    if version != NGFF_VERSION:
        raise ValueError(f"{where}: multiscales version {version!r} is not supported (only "
                         f"OME-Zarr {NGFF_VERSION})")
    axes = _checked_axes(multiscale.get("axes"), where)
    datasets = multiscale.get("datasets")
    if not isinstance(datasets, list) or not datasets or \
            not all(isinstance(d, dict) and isinstance(d.get("path"), str) for d in datasets):
        raise ValueError(f"{where}: multiscales 'datasets' must be a non-empty list of "
                         f"objects with a 'path', got {_shown(datasets)}")
    for i, d in enumerate(datasets):
        _checked_transformations(d.get("coordinateTransformations"), len(axes),
                                 f"{where}: datasets[{i}]", required=True)
    _checked_transformations(multiscale.get("coordinateTransformations"), len(axes),
                             f"{where}: multiscales", required=False)
    path = datasets[0]["path"]
    array = group.get(path)
    if not isinstance(array, zarr.Array):
        raise ValueError(f"{where}: datasets[0] path {path!r} is not an array in the group")
    if array.ndim != len(axes):
        raise ValueError(f"{where}: array {path!r} has {array.ndim} dimensions (shape "
                         f"{array.shape}) but the image has {len(axes)} axes")
    return multiscale, array


def _location(group):
    """Where `group` is, for error messages: its store's folder or URL and its path in it."""
    store = getattr(group.store, "path", None) or type(group.store).__name__
    return f"{store}/{group.path}" if group.path else str(store)


def _checked_axes(axes, where):
    if not isinstance(axes, list) or not 2 <= len(axes) <= 5 or \
            not all(isinstance(a, dict) for a in axes):
        raise ValueError(f"{where}: multiscales 'axes' must be a list of 2 to 5 objects, got "
                         f"{_shown(axes)}")
    names = [a.get("name") for a in axes]
    if not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
        raise ValueError(f"{where}: every axis needs a 'name', each name once, got names "
                         f"{names}")
    types = "".join({"time": "T", "space": "S"}.get(a.get("type"), "C") for a in axes)
    if not _AXES_ORDER.fullmatch(types):
        shown = ", ".join(f"{a['name']} ({a.get('type', 'no type')})" for a in axes)
        raise ValueError(f"{where}: axes out of order for OME-Zarr {NGFF_VERSION}, which wants "
                         f"an optional time axis, an optional channel axis, then 2 or 3 space "
                         f"axes (e.g. t, c, z, y, x); got {shown}")
    return axes


def _checked_transformations(transformations, ndim, where, required):
    """NGFF 0.4's coordinateTransformations: one scale, then at most one translation, each a
    list of `ndim` finite numbers (the binary "path" form is not read)."""
    if transformations is None and not required:
        return
    types = [t.get("type") if isinstance(t, dict) else None
             for t in transformations] if isinstance(transformations, list) else None
    if types not in (["scale"], ["scale", "translation"]):
        raise ValueError(f"{where}: 'coordinateTransformations' must be one scale, then "
                         f"optionally one translation, got {_shown(transformations)}")
    for t in transformations:
        values = t.get(t["type"])
        if not isinstance(values, list) or len(values) != ndim or not all(
                isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)
                for v in values):
            raise ValueError(f"{where}: the {t['type']} must be a list of {ndim} finite "
                             f"numbers (one per axis), got {_shown(values)}")


def _scale_and_translation(multiscale):
    """The full-resolution array's pixel size and origin: its own transformations, then the
    shared ones (NGFF applies them in that order)."""
    ndim = len(multiscale["axes"])
    scale, translation = [1.0] * ndim, None
    for transformations in (multiscale["datasets"][0]["coordinateTransformations"],
                            multiscale.get("coordinateTransformations", [])):
        for t in transformations:
            if t["type"] == "scale":
                scale = [s * f for s, f in zip(scale, t["scale"])]
                if translation is not None:
                    translation = [o * f for o, f in zip(translation, t["scale"])]
            else:
                translation = [o + v for o, v in
                               zip(translation or [0.0] * ndim, t["translation"])]
    return scale, translation
