"""What the CLI does with the output path (README; docs/cli.md): regular files are replaced
whole, keeping their permissions; symbolic links are followed to the file they name; folders,
devices, FIFOs and links to nothing are refused; a bad output is found before the input is
read; a signal while the output is written leaves no temporary file."""
import os
import signal
import stat
import subprocess
import time

import numpy as np
import pytest
import tifffile

from conftest import assert_one_line_error, listing


def test_device_output_is_refused_and_left_alone(fastmedian, small_input):
    d = small_input.parent
    try:
        os.mknod(d / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root (CI runs as root)")
    r = fastmedian("median", "in.tif", "null", "--size", 3, cwd=d)
    assert_one_line_error(r, 2, "cannot write null: it is a character device",
                          "TIFF files are written to regular files only")
    assert stat.S_ISCHR(os.lstat(d / "null").st_mode)
    assert listing(d) == ["in.tif", "null"]


def test_fifo_output_is_refused_and_left_alone(fastmedian, small_input):
    d = small_input.parent
    os.mkfifo(d / "pipe")
    r = fastmedian("median", "in.tif", "pipe", "--size", 3, cwd=d)
    assert_one_line_error(r, 2, "cannot write pipe: it is a FIFO")
    assert stat.S_ISFIFO(os.lstat(d / "pipe").st_mode)


def test_symlink_output_replaces_the_file_it_names(fastmedian, small_input):
    d = small_input.parent
    (d / "old").mkdir()
    (d / "old" / "target.tif").write_bytes(b"previous result")
    (d / "link.tif").symlink_to("old/target.tif")
    r = fastmedian("median", "in.tif", "link.tif", "--size", 3, "--backend", "cpu", cwd=d)
    assert r.returncode == 0, r.stderr
    assert (d / "link.tif").is_symlink() and os.readlink(d / "link.tif") == "old/target.tif"
    assert tifffile.imread(d / "old" / "target.tif").shape == (2, 20, 30)
    assert listing(d / "old") == ["target.tif"]


def test_dangling_symlink_output_is_refused(fastmedian, small_input):
    d = small_input.parent
    (d / "link.tif").symlink_to("nowhere/target.tif")
    r = fastmedian("median", "in.tif", "link.tif", "--size", 3, cwd=d)
    assert_one_line_error(r, 2, "cannot write link.tif: it is a symbolic link to nothing")
    assert (d / "link.tif").is_symlink()


def test_replaced_output_keeps_its_permissions(fastmedian, small_input):
    d = small_input.parent
    out = d / "out.tif"
    out.write_bytes(b"previous result")
    os.chmod(out, 0o640)
    r = fastmedian("median", "in.tif", "out.tif", "--size", 3, "--backend", "cpu", cwd=d)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640
    assert tifffile.imread(out).shape == (2, 20, 30)


@pytest.mark.parametrize("out,code,message", [
    ("", 2, "the output path is empty"),
    (".", 2, "cannot write .: it is a folder"),
    ("missing/out.tif", 1, "cannot write missing/out.tif (its folder missing): No such file"),
    ("in.tif/out.tif", 2, "cannot write in.tif/out.tif: in.tif is not a folder"),
])
def test_bad_output_is_found_before_the_input_is_read(fastmedian, tmp_path, out, code, message):
    # The input does not exist: the error about the output shows that it was checked first
    # (a 3D filter used to run for minutes before "No such file or directory").
    (tmp_path / "in.tif").write_bytes(b"not read")
    r = fastmedian("median", "absent.tif", out, "--size", 3, cwd=tmp_path)
    assert_one_line_error(r, code, message)
    assert listing(tmp_path) == ["in.tif"]


def test_output_names_up_to_the_folder_limit(fastmedian, small_input):
    # The temporary name once added about 25 characters to the output's: names of 231 to 255
    # characters failed.
    d = small_input.parent
    name = "o" * 251 + ".tif"
    r = fastmedian("median", "in.tif", name, "--size", 3, "--backend", "cpu", cwd=d)
    assert r.returncode == 0, r.stderr
    assert listing(d) == sorted(["in.tif", name])
    r = fastmedian("median", "in.tif", "o" + name, "--size", 3, cwd=d)
    assert_one_line_error(r, 2, "its name is 256 bytes long, more than the 255 its folder allows")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_while_writing_leaves_no_temporary_file(cli, tmp_path, sig):
    # 64 MiB of output: the temporary file exists for long enough to be seen and signalled.
    stack = np.random.default_rng(1).integers(0, 65535, (16, 1024, 2048), dtype=np.uint16)
    tifffile.imwrite(tmp_path / "in.tif", stack, photometric="minisblack")
    signalled = 0
    for attempt in range(5):
        p = subprocess.Popen([cli, "median", "in.tif", "out.tif", "--size", "1", "--backend",
                              "cpu"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if any(n.endswith(".tmp") for n in listing(tmp_path)):
                p.send_signal(sig)
                signalled += 1
                break
        p.wait(timeout=60)
        if p.returncode == -sig:
            assert listing(tmp_path) == ["in.tif"], f"attempt {attempt}"
        else:  # finished before the signal landed
            assert p.returncode == 0 and listing(tmp_path) == ["in.tif", "out.tif"]
            os.remove(tmp_path / "out.tif")
        if signalled >= 2:
            break
    assert signalled >= 1, "the temporary file was never seen"


def test_stdout_to_a_pipe_is_refused(cli, small_input):
    # /dev/stdout is a link to the pipe the caller reads: it used to be replaced by a file.
    d = small_input.parent
    r = subprocess.run([cli, "median", "in.tif", "/dev/stdout", "--size", "3"], cwd=d,
                       capture_output=True)
    assert r.returncode == 2 and r.stdout == b""
    assert b"cannot write /dev/stdout: it is a FIFO" in r.stderr
    assert listing(d) == ["in.tif"]
