"""The summary line's times: the wall time of each run that writes a file and its parts
(reading, filtering, writing, the output's fsync and rename), which add up to no more than it."""
import numpy as np
import pytest
import tifffile

from conftest import WRITING_COMMANDS, run_times

# Each time is rounded to 0.1 ms: five of them may each be 0.05 ms over.
ROUNDING_MS = 0.25


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """16 planes of 300 x 200 u16."""
    path = tmp_path_factory.mktemp("times") / "in.tif"
    data = np.random.default_rng(7).integers(0, 65535, (16, 200, 300)).astype(np.uint16)
    tifffile.imwrite(path, data, photometric="minisblack")
    return path


def assert_parts_fit(times):
    parts = ("startup", "read", "filter", "write", "sync")
    assert sum(times[p] for p in parts) <= times["wall"] + ROUNDING_MS, times
    assert times["read"] > 0 and times["write"] > 0, times


@pytest.mark.parametrize("memory", ["whole", "blocks"])
@pytest.mark.parametrize("command", WRITING_COMMANDS.values(), ids=WRITING_COMMANDS.keys())
def test_parts_add_up_to_no_more_than_the_wall_time(fastmedian, stack, tmp_path, command, memory):
    # A plane is 117 KiB in and out: 1M holds blocks of 2 planes, or of 2 frames with the 2
    # a temporal window of 3 shares; --project takes the stack whole (16 planes in, 1 out).
    limit = ["--max-memory", "2M" if command[-1] == "--project" else "1M"]
    r = fastmedian(command[0], stack, tmp_path / "out.tif", *command[1:], "--backend", "cpu",
                   *(limit if memory == "blocks" else []))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") == 1 and r.stdout.endswith(f" ms -> {tmp_path / 'out.tif'}\n")
    assert_parts_fit(run_times(r.stdout))


def test_every_file_of_a_folder_has_its_times(fastmedian, stack, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    other = tmp_path / "other.tif"
    other.write_bytes(stack.read_bytes())
    r = fastmedian("median", stack, other, "--out-dir", out, "--size", "3", "--backend", "cpu")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert_parts_fit(run_times(line))
