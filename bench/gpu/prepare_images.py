#!/usr/bin/python3
"""Writes one plane of each shared real image as a raw file for the GPU benchmark.

The GPU machine has no libtiff and no tifffile, so the benchmark reads raw planes made here
(and small enough to travel with the working tree), then tiles them itself:
    /usr/bin/python3 bench/gpu/prepare_images.py        # -> bench/gpu/images/
Files are named <type>_<width>x<height>.raw (row-major, little-endian): u8 from
embryos_grey.tif, u16 from the 48 frames of cancer_cell_migration_crop.tif laid out as a 6 x 8
mosaic, f32 from BPAE_actin.tif; and the bead stack (Bead_Image1_crop.tif, u8, 41 planes of
150x150) whole, as volume_u8_150x150x41.raw, for the 3D median benchmark.
"""
import argparse
import pathlib

import numpy as np
import tifffile

SOURCES = {
    "u8": ("embryos_grey.tif", np.uint8),
    "u16": ("cancer_cell_migration_crop.tif", np.uint16),
    "f32": ("BPAE_actin.tif", np.float32),
}


def main() -> None:
    here = pathlib.Path(__file__).resolve()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default=str(here.parents[3] / "shared" / "data"))
    parser.add_argument("--out", default=str(here.parent / "images"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, (file, dtype) in SOURCES.items():
        image = tifffile.imread(pathlib.Path(args.data) / file)
        if image.ndim == 3:  # a time-lapse: a mosaic of its frames, 6 rows of 8
            t, h, w = image.shape
            image = image.reshape(6, t // 6, h, w).transpose(0, 2, 1, 3).reshape(6 * h, -1)
        plane = np.ascontiguousarray(image.astype(dtype))
        target = out / f"{name}_{plane.shape[1]}x{plane.shape[0]}.raw"
        plane.astype(plane.dtype.newbyteorder("<")).tofile(target)
        print(f"{target}: {file} plane {plane.shape} {plane.dtype}")
    volume = tifffile.imread(pathlib.Path(args.data) / "Bead_Image1_crop.tif")
    d, h, w = volume.shape
    target = out / f"volume_u8_{w}x{h}x{d}.raw"
    np.ascontiguousarray(volume.astype(np.uint8)).tofile(target)
    print(f"{target}: Bead_Image1_crop.tif volume {volume.shape} uint8")


if __name__ == "__main__":
    main()
