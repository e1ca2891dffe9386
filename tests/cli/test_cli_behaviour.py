"""What the fastmedian CLI promises besides the numbers: it never overwrites its input, never
leaves a partial output, says what is wrong in one line naming the parameter, exits 2 for usage
errors and 1 for runtime errors, and its info, demo and help work."""
import ctypes
import os
import pathlib
import re
import shutil

import pytest
import scipy.ndimage as ndi
import tifffile

from conftest import (REFUSED_MESSAGE, RUN_TIMES, assert_one_line_error, assert_same_bits,
                      listing, small_file_limit)

REPO_DATA = pathlib.Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize("spelling", ["same", "dot", "dotdot", "symlink", "hardlink"])
def test_output_equal_to_input_is_refused(fastmedian, small_input, spelling):
    d = small_input.parent
    (d / "sub").mkdir()
    if spelling == "symlink":
        (d / "link.tif").symlink_to(small_input)
    if spelling == "hardlink":
        os.link(small_input, d / "link.tif")
    out = {"same": "in.tif", "dot": "./in.tif", "dotdot": "sub/../in.tif",
           "symlink": "link.tif", "hardlink": "link.tif"}[spelling]
    before = small_input.read_bytes()
    r = fastmedian("median", "in.tif", out, "--size", 3, cwd=d)
    assert_one_line_error(r, 2, "is the same file as input", "refusing to overwrite the input")
    assert small_input.read_bytes() == before


USAGE_ERRORS = [
    (["--size", "4"], "--size must be an odd integer from 1 to 1023, got 4"),
    (["--size", "5x"], "--size must be an odd integer from 1 to 1023, got 5x"),
    (["--size", ""], "--size must be an odd integer from 1 to 1023, got ''"),
    (["--size", "0"], "--size must be an odd integer"),
    (["--size", "1025"], "--size must be an odd integer"),
    (["--size", "-3"], "--size must be an odd integer"),
    (["--size", "3.0"], "--size must be an odd integer"),
    (["--radius", "nan"], "--radius must be a number from 0 to 511, got nan"),
    (["--radius", "inf"], "--radius must be a number from 0 to 511, got inf"),
    (["--radius", "-1"], "--radius must be a number from 0 to 511, got -1"),
    (["--radius", "2.5x"], "--radius must be a number from 0 to 511, got 2.5x"),
    ([], "exactly one of --size K (square) or --radius R (circle)"),
    (["--size", "3", "--radius", "2"], "exactly one of --size"),
    (["--size", "3", "--size", "5"], "--size is given twice"),
    (["--size"], "--size needs a value"),
    (["--sise", "3"], "unknown option --sise"),
    (["--size", "3", "--border", "edge"], "--border must be one of replicate (nearest), reflect"),
    (["--size", "3", "--backend", "gpu"], "--backend must be one of auto, cpu, cuda; got 'gpu'"),
    (["--size", "3", "--cval", "5"], "--cval applies only to --border constant"),
    (["--size", "3", "--border", "constant", "--cval", "5x"], "--cval must be a number, got 5x"),
    (["--size", "3", "--border", "constant", "--cval", "nan"],
     "--cval must be finite for u8 images, got nan"),
    (["--size", "3", "--border", "constant", "--cval", "-inf"],
     "--cval must be finite for u8 images, got -inf"),
    (["--size", "3", "--devices", "0,x"],
     "--devices must be CUDA device indices separated by commas (0,1) or all, got 0,x"),
    (["--size", "3", "--devices", "-1"], "--devices must be CUDA device indices"),
    (["--size", "3", "--devices", ""], "--devices must be CUDA device indices"),
    (["--size", "3", "--devices", "1,0,1"], "--devices lists device 1 twice"),
    (["--size", "3", "--3d", "--devices", "0"], "--devices applies to the 2D median, not --3d"),
    (["--size", "3", "--devices", "7", "--backend", "cpu"],
     "--devices applies to the CUDA backend, not --backend cpu"),
    (["--size", "103", "--3d"], "--size and --zsize with --3d: window has 1092727 voxels, "
     "more than the 1048576 allowed (at most a box of 101 x 101 x 101, an ellipsoid of radius 63)"),
    (["--size", "255", "--3d", "--zsize", "17"], "--size and --zsize with --3d: window has"),
    (["--radius", "64", "--3d"], "--radius and --zradius with --3d: window has 1097917 voxels"),
]


@pytest.mark.parametrize("args,message", USAGE_ERRORS, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_usage_errors_exit_2_and_write_nothing(fastmedian, small_input, args, message):
    d = small_input.parent
    r = fastmedian("median", small_input, d / "out.tif", *args)
    assert_one_line_error(r, 2, message)
    assert listing(d) == ["in.tif"]


@pytest.mark.parametrize("args,message", [
    (["median", "in.tif", "--size", "3"], "median needs IN.tif and OUT.tif, got 1 paths"),
    (["median", "a.tif", "b.tif", "c.tif", "--size", "3"], "got 3 paths"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    ([], "no command given"),
    (["info", "extra"], "info takes no arguments"),
    (["demo", "out.tif"], "demo takes no paths; use --out PATH"),
])
def test_command_line_shape_errors(fastmedian, tmp_path, args, message):
    assert_one_line_error(fastmedian(*args, cwd=tmp_path), 2, message, "(see fastmedian --help)")
    assert listing(tmp_path) == []


def test_refused_input_leaves_no_output(fastmedian, refused_input, tmp_path):
    r = fastmedian("median", refused_input, tmp_path / "out.tif", "--size", 3)
    assert_one_line_error(r, 1, REFUSED_MESSAGE)
    assert listing(tmp_path) == []


def test_missing_input(fastmedian, tmp_path):
    r = fastmedian("median", tmp_path / "absent.tif", tmp_path / "out.tif", "--size", 3)
    assert_one_line_error(r, 1, f"cannot open {tmp_path / 'absent.tif'}: No such file")
    assert listing(tmp_path) == []


def test_failed_run_keeps_the_previous_output(fastmedian, refused_input, tmp_path):
    out = tmp_path / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("median", refused_input, out, "--size", 3)
    assert r.returncode == 1
    assert listing(tmp_path) == ["out.tif"] and out.read_bytes() == b"previous result"


def test_full_disk_leaves_no_partial_output(fastmedian, shared_data, tmp_path):
    src = shared_data / "cancer_cell_migration_crop.tif"  # 1.6 MB of output
    out = tmp_path / "out.tif"
    out.write_bytes(b"previous result")
    r = fastmedian("median", src, out, "--size", 3, preexec_fn=small_file_limit)
    assert_one_line_error(r, 1, f"{out}", "cannot write")
    assert listing(tmp_path) == ["out.tif"] and out.read_bytes() == b"previous result"


def test_cuda_unavailable_is_a_runtime_error(fastmedian, cuda_devices, small_input):
    if cuda_devices:
        pytest.skip("fastmedian info lists a CUDA device: " + cuda_devices[0])
    d = small_input.parent
    r = fastmedian("median", small_input, d / "out.tif", "--size", 3, "--backend", "cuda")
    assert_one_line_error(r, 1, "backend cuda is not available: ")
    assert listing(d) == ["in.tif"]


def test_devices_spread_the_pages_with_the_same_result(fastmedian, cuda_devices, shared_data, tmp_path):
    src = shared_data / "cancer_cell_migration_crop.tif"
    one, every = tmp_path / "one.tif", tmp_path / "every.tif"
    r = fastmedian("median", src, one, "--size", 5)
    assert r.returncode == 0, r.stderr
    r = fastmedian("median", src, every, "--size", 5, "--devices", "all")
    assert r.returncode == 0, r.stderr
    assert one.read_bytes() == every.read_bytes()
    if cuda_devices:  # "on cuda:0,1 (...)" for two devices
        listed = ",".join(str(i) for i in range(len(cuda_devices)))
        assert f" on cuda:{listed} (" in r.stdout, r.stdout
    else:
        assert " on cpu (CPU)" in r.stdout, r.stdout


def test_info(fastmedian, cuda_devices):
    r = fastmedian("info")
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert re.fullmatch(r"fastmedian \d+\.\d+\.\d+", lines[0])
    assert re.fullmatch(r"CUDA backend: (compiled for GPU architectures [\w,-]+|not compiled)", lines[1])
    if cuda_devices:
        assert re.fullmatch(r"CUDA device 0: .+, compute capability \d+\.\d+, [\d.]+ GiB, "
                            r"(policy sm_\d+|not usable: .+)", cuda_devices[0])
    else:
        assert re.fullmatch(r"CUDA devices: none \(.+\)", lines[2])


def test_info_says_a_forced_gpu_policy_names_none(fastmedian):
    """FASTMEDIAN_GPU_POLICY (the tests' switch) naming no policy is said, not ignored."""
    r = fastmedian("info", env={**os.environ, "FASTMEDIAN_GPU_POLICY": "sm_99"})
    assert r.returncode == 0, r.stderr
    if "CUDA backend: compiled" not in r.stdout:
        pytest.skip("this build has no CUDA backend")
    assert r.stderr == ("fastmedian: FASTMEDIAN_GPU_POLICY=sm_99 names no GPU policy (sm_75, sm_80, sm_86, "
                        "sm_89, sm_90, sm_100, sm_120); each device's own applies\n")


def test_demo_writes_where_it_says(fastmedian, tmp_path):
    out = tmp_path / "demo.tif"
    r = fastmedian("demo", "--out", out)
    assert r.returncode == 0, r.stderr
    assert re.search(r"median 5x5 replicate on (cpu \(CPU\)|cuda:\d+ \(.+\)): 462x366x1 u8"
                     + RUN_TIMES.pattern + re.escape(str(out)), r.stdout), r.stdout
    assert f"wrote {out}\n" in r.stdout
    img = tifffile.imread(REPO_DATA / "embryos_grey.tif")
    assert_same_bits(tifffile.imread(out), ndi.median_filter(img, size=5, mode="nearest"))


def test_demo_default_output_is_in_the_temporary_directory(fastmedian, tmp_path):
    r = fastmedian("demo", "--backend", "cpu", env={**os.environ, "TMPDIR": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert f"wrote {tmp_path / 'fastmedian-demo.tif'}\n" in r.stdout
    assert listing(tmp_path) == ["fastmedian-demo.tif"]


def test_demo_data_dir_override(fastmedian, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "FASTMEDIAN_DATA_DIR": str(data)}
    r = fastmedian("demo", "--out", tmp_path / "demo.tif", env=env)
    assert_one_line_error(r, 1, f"demo image {data / 'embryos_grey.tif'} not found",
                          "FASTMEDIAN_DATA_DIR")
    shutil.copy(REPO_DATA / "embryos_grey.tif", data)
    r = fastmedian("demo", "--out", tmp_path / "demo.tif", env=env)
    assert r.returncode == 0 and str(data / "embryos_grey.tif") in r.stdout


@pytest.mark.parametrize("args", [["--help"], ["help"], ["-h"], ["median", "--help"]])
def test_help(fastmedian, args):
    r = fastmedian(*args)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("usage:\n  fastmedian median IN.tif OUT.tif")
    for command in ("fastmedian info", "fastmedian demo", "--border", "--cval", "--backend"):
        assert command in r.stdout
    # An example for every command that filters.
    for command in ("median", "temporal", "background", "convolve"):
        assert re.search(rf"\n      e\.g\. fastmedian {command} \S+\.tif \S+\.tif --", r.stdout), command


def test_version(fastmedian):
    r = fastmedian("--version")
    assert r.returncode == 0 and r.stderr == ""
    assert re.fullmatch(r"fastmedian \d+\.\d+\.\d+\n", r.stdout), r.stdout
    assert_one_line_error(fastmedian("--version", "x"), 2, "--version takes nothing else")


def test_info_says_there_is_no_driver_where_there_is_none(fastmedian):
    """Without libcuda.so.1 the CUDA runtime says the driver is "insufficient"; users have none."""
    r = fastmedian("info")
    assert r.returncode == 0, r.stderr
    if "CUDA backend: compiled" not in r.stdout:  # "compiled for GPU architectures ..."
        pytest.skip("this build has no CUDA backend")
    try:
        ctypes.CDLL("libcuda.so.1")  # as the CUDA runtime looks for the driver
        pytest.skip("this machine has an NVIDIA driver (libcuda.so.1)")
    except OSError:
        pass
    assert "CUDA devices: none (no NVIDIA driver is installed (libcuda.so.1 was not found))" in r.stdout
    assert "insufficient" not in r.stdout
