"""The windows the generators write networks for, with the one definition of ImageJ's circle
(RankFilters' mask) on the Python side: the generators and the Python tests (tests/cli,
python/tests, through their conftest.py) take it from here. The library's own is
semantics/footprint.cpp: the generated networks carry the half widths computed here, and the
library serves a window with a network only where its own footprint has those half widths."""
import math


def square(k):
    """Half widths, top row first, of the k x k square."""
    return [k // 2] * k


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


def imagej_circle_mask(radius):
    """ImageJ's mask for `radius` as rows of booleans, the Python tests' scipy footprint."""
    half = imagej_circle(radius)
    k = len(half) // 2
    return [[abs(dx) <= h for dx in range(-k, k + 1)] for h in half]


def box(k):
    """Offsets (dx, dy, dz) of the k x k x k box."""
    r = k // 2
    return [(dx, dy, dz) for dz in range(-r, r + 1) for dy in range(-r, r + 1) for dx in range(-r, r + 1)]


def imagej_ellipsoid(r):
    """Offsets (dx, dy, dz) of ImageJ's createKernelEllipsoid for radius r on every axis
    (integer r: float and double agree on 1 / r^2 <= 1 comparisons here)."""
    v = math.ceil(r)
    inv = 1.0 / (r * r)
    return [(dx, dy, dz) for dz in range(-v, v + 1) for dy in range(-v, v + 1) for dx in range(-v, v + 1)
            if (dx * dx + dy * dy + dz * dz) * inv <= 1.0]
