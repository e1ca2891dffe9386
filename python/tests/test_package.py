"""The package as users import it."""
import subprocess
import sys

import numpy as np
import scipy.ndimage as ndi


def run_python(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dask_and_zarr_are_there_after_import_fastmedian():
    # A fresh interpreter, so that no other test's `import fastmedian.dask` counts.
    out = run_python(
        "import sys, fastmedian\n"
        "print('fastmedian.dask' in sys.modules)\n"
        "import numpy as np, dask.array as da\n"
        "a = da.from_array(np.arange(64, dtype=np.uint8).reshape(8, 8), chunks=4)\n"
        "print(fastmedian.dask.median_filter(a, size=3).compute().sum())\n"
        "print(callable(fastmedian.zarr.median_filter), 'dask' in dir(fastmedian))\n")
    want = ndi.median_filter(np.arange(64, dtype=np.uint8).reshape(8, 8), size=3, mode="nearest")
    want = int(want.sum())
    assert out.split() == ["False", str(want), "True", "True"]


def test_an_unknown_name_is_still_an_attribute_error():
    out = run_python(
        "import fastmedian\n"
        "try:\n"
        "    fastmedian.median_filterr\n"
        "except AttributeError as e:\n"
        "    print(e)\n")
    assert out.strip() == "module 'fastmedian' has no attribute 'median_filterr'"
