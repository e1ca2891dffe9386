"""What the network generators share: ImageJ's circular masks, Batcher's sorting network, and
writing (or with --check, checking) a generated file."""
import math
import sys


def imagej_circle_r2(r2):
    """Half widths, top row first, of ImageJ's RankFilters mask for r2 = int(radius^2) + 1."""
    k = int(math.sqrt(r2 + 1e-10))
    half = [0] * (2 * k + 1)
    half[k] = k
    for y in range(1, k + 1):
        half[k - y] = half[k + y] = int(math.sqrt(r2 - y * y + 1e-10))
    return half


def imagej_circle(radius):
    """ImageJ's mask for `radius` (RankFilters.makeLineRadii, with its two radius adjustments)."""
    if 1.5 <= radius < 1.75:
        radius = 1.75
    elif 2.5 <= radius < 2.85:
        radius = 2.85
    return imagej_circle_r2(int(radius * radius) + 1)


def batcher(n):
    """Compare-exchanges (i, j), i < j, of Batcher's odd-even merge sort on n wires (any n)."""
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        yield i + j, i + j + k
            k //= 2
        p *= 2


def write_or_check_file(path, text):
    """Writes text as the file at path, or with --check on the command line fails unless the file
    already holds exactly that."""
    if "--check" in sys.argv[1:]:
        if not path.exists() or path.read_text() != text:
            sys.exit(f"{path} is out of date: run python3 {sys.argv[0]}")
        return
    path.write_text(text)
