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


def box(kx, ky=None, kz=None):
    """Offsets (dx, dy, dz) of the kx x ky x kz box (k x k x k for box(k))."""
    rx = kx // 2
    ry = (kx if ky is None else ky) // 2
    rz = (kx if kz is None else kz) // 2
    return [(dx, dy, dz) for dz in range(-rz, rz + 1) for dy in range(-ry, ry + 1) for dx in range(-rx, rx + 1)]


def imagej_ellipsoid(rx, ry=None, rz=None):
    """Offsets (dx, dy, dz) of ImageJ's createKernelEllipsoid for whole radii rx, ry, rz (r on
    every axis for imagej_ellipsoid(r)): dx^2 / rx^2 + dy^2 / ry^2 + dz^2 / rz^2 <= 1, as
    semantics/footprint3d.cpp has it (whole radii: float and double agree on these sums; a
    radius 0 drops its term, and the window is one voxel deep along it)."""
    radii = (rx, rx if ry is None else ry, rx if rz is None else rz)
    assert all(r == int(r) and r >= 0 for r in radii), "whole radii"
    vx, vy, vz = (int(r) for r in radii)
    ix, iy, iz = (1.0 / (r * r) if r else 0.0 for r in radii)  # radius 0: one plane (row) deep
    return [(dx, dy, dz) for dz in range(-vz, vz + 1) for dy in range(-vy, vy + 1) for dx in range(-vx, vx + 1)
            if dx * dx * ix + dy * dy * iy + dz * dz * iz <= 1.0]
