"""scripts/demo.py, the README's first command after the build: it runs, its median equals
scipy's, and it writes a PNG picture."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_demo_script_filters_the_movie_and_writes_a_picture(cli, tmp_path):
    r = subprocess.run([sys.executable, ROOT / "scripts" / "demo.py", "--cli", cli, "--out",
                        tmp_path, "--backend", "cpu"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "identical: yes" in r.stdout
    assert "scipy.ndimage.median_filter" in r.stdout
    png = (tmp_path / "before_after.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" in png[-12:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["before_after.png", "flattened.tif",
                                                           "median.tif"]
