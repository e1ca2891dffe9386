"""The progress line: drawn on a terminal (a pseudo-terminal here) while reading, filtering and
writing, erased at the end and before an error; never in a pipe; --quiet prints nothing but
errors."""
import os
import pty
import subprocess

import numpy as np
import pytest
import tifffile

from conftest import WRITING_COMMANDS

ERASE = "\r\x1b[K"


def on_terminal(cli, *args):
    """Runs the CLI with stderr on a pseudo-terminal; (exit status, stdout, stderr)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([cli, *map(str, args)], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = p.communicate(timeout=300)[0]
    os.close(master)
    return p.returncode, out.decode(), err.decode()


@pytest.fixture
def stack(tmp_path):
    data = np.random.default_rng(1).integers(0, 60000, (120, 40, 30)).astype(np.uint16)
    tifffile.imwrite(tmp_path / "in.tif", data, photometric="minisblack")
    return tmp_path / "in.tif"


@pytest.mark.parametrize("command", WRITING_COMMANDS.values(), ids=WRITING_COMMANDS.keys())
def test_line_on_a_terminal(cli, fastmedian, stack, tmp_path, command):
    rc, out, err = on_terminal(cli, command[0], stack, tmp_path / "tty.tif", *command[1:],
                               "--backend", "cpu")
    assert rc == 0, err
    if "--project" in command:
        # The whole stack at once: reading, filtering and writing, one after another.
        stages = [("reading", 120), ("filtering", 120), ("writing", 1)]
    else:
        # A 2D filter takes the planes in blocks (here of 3), the temporal median frames with
        # those their windows share, the 3D median slabs of slices with those their windows
        # reach, each read, filtered and written: the line counts the planes done.
        stages = [("filtering", 120)]
        assert "reading" not in err and "writing" not in err
    for stage, total in stages:
        assert f"\rin.tif: {stage} 0/{total} plane" in err
        assert f"\rin.tif: {stage} {total}/{total} plane" in err
    assert err.endswith(ERASE) and "planes/s" in err
    assert out.count("\n") == 1 and out.rstrip().endswith("tty.tif")
    # The same file as without a terminal (where the 2D filters take the stack in one run).
    r = fastmedian(command[0], stack, tmp_path / "pipe.tif", *command[1:], "--backend", "cpu")
    assert r.returncode == 0 and r.stderr == ""
    assert (tmp_path / "tty.tif").read_bytes() == (tmp_path / "pipe.tif").read_bytes()


@pytest.mark.parametrize("command", WRITING_COMMANDS.values(), ids=WRITING_COMMANDS.keys())
def test_quiet_prints_nothing(cli, stack, tmp_path, command):
    rc, out, err = on_terminal(cli, command[0], stack, tmp_path / "out.tif", *command[1:],
                               "--backend", "cpu", "--quiet")
    assert (rc, out, err) == (0, "", "")
    assert tifffile.imread(tmp_path / "out.tif").shape[-2:] == (40, 30)


def test_line_is_erased_before_an_error(cli, fastmedian, stack, tmp_path):
    # Our own output lays its planes after every header, so cutting its end cuts the last
    # plane: the error comes while reading.
    assert fastmedian("median", stack, tmp_path / "whole.tif", "--size", "3").returncode == 0
    data = (tmp_path / "whole.tif").read_bytes()
    (tmp_path / "cut.tif").write_bytes(data[:-100])
    rc, out, err = on_terminal(cli, "median", tmp_path / "cut.tif", tmp_path / "out.tif",
                               "--size", "3", "--backend", "cpu")
    assert rc == 1 and out == ""
    assert "\rcut.tif: filtering 0/120 planes" in err
    last = err.rsplit(ERASE, 1)
    assert len(last) == 2 and last[1].startswith("fastmedian: ") and "cut.tif" in last[1]
    assert not (tmp_path / "out.tif").exists()
