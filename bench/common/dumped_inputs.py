"""The inputs a C++ benchmark wrote with --dump DIR (data_kinds.cpp, dump_input), for the peers
in Python to measure on the same data: files <kind>_<type>_<W>x<H>[x<D>].raw, dense and
little-endian.
"""
import pathlib

import numpy as np

DTYPES = {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}
KIND_ORDER = ("images", "flat", "noise", "walk")
TYPE_ORDER = tuple(DTYPES)


def dumped_inputs(folder):
    """Yields (kind, type name, array) for every dumped input in `folder`, by type then kind;
    arrays are (H, W) planes or (D, H, W) volumes."""
    found = []
    for path in pathlib.Path(folder).glob("*_*_*.raw"):
        kind, name, shape = path.stem.split("_")
        dims = [int(v) for v in shape.split("x")]
        found.append((TYPE_ORDER.index(name), KIND_ORDER.index(kind), kind, name, dims[::-1], path))
    if not found:
        raise SystemExit(f"no dumped inputs in {folder} (run the C++ benchmark with --dump)")
    for _, _, kind, name, shape, path in sorted(found):
        dtype = np.dtype(DTYPES[name]).newbyteorder("<")
        yield kind, name, np.fromfile(path, dtype=dtype).reshape(shape).astype(DTYPES[name])
