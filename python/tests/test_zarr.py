"""fastmedian.zarr.median_filter: a Zarr volume on disk, larger than the memory each worker of
the test cluster is allowed (256 MiB), filtered chunk by chunk into another Zarr array."""
import dask.array as da
import numpy as np
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
