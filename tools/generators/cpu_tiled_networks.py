"""Generates native/src/cpu/generated/tiled_networks.hpp: the tiled networks of the mid-sized
windows (squares 9 to 15, ImageJ circles of radius 4 to 6) for the CPU backend, which runs
them with a vector lane per output column (cpu/network_kernel.hpp). The squares' networks are
median_tiled.py's on one-column tiles, written as host code; the circles' are median3d_tiled.py's
set-based tiling over a flat window. Only the CPU backend includes the file, so it lies beside
the CPU code.
"""
from . import median3d_tiled, median_tiled
from .output import ROOT, header, write_file
from .windows import imagej_circle

NAME = "cpu_tiled_networks"
OUT = ROOT / "native" / "src" / "cpu" / "generated" / "tiled_networks.hpp"

# Window size -> the CPU's tile: one output column per vector lane, so 1 wide and shared along
# y only; for the sizes past the CPU's sorted-column networks (median_column_networks.hpp, up to
# 7x7). Min/max per output for 1x1, 1x2, 1x4, 1x8 tiles: 9x9 1270, 604, 403, 382; 11x11 2304,
# 1127, 662, 577. 1x4 takes most of the sharing at half the live values of 1x8. Squares 13 and
# 15 (1031 and 1464 per output) run 5x to 20x faster than the histograms they replace, on
# every kind of data (bench/cpu/results-build-2core.md). Squares 17 to 21 would gain 3x to 6x
# too (2570, 3410, 4476 per output), but their 1.7 MB of code took each kernel build from about
# 2 to about 7 minutes on 2 cores, which every CI build pays; they stay with the histograms.
CPU_TILES = {9: (1, 4), 11: (1, 4), 13: (1, 4), 15: (1, 4)}
# ImageJ circle radii whose masks the CPU runs the same way, on 1x4 tiles: those past the
# sorted-column networks' (radius 3.5) up to 6 (radius 4: 57 pixels, 1194 min/max per tile;
# radius 5: 89 pixels, 1954).
CPU_CIRCLE_RADII = [4.0, 4.5, 5.0, 5.5, 6.0]
CPU_CIRCLE_TILE = (1, 4)


def circle_struct_name(half_widths, tw, th):
    return f"TiledCircle{sum(2 * w + 1 for w in half_widths)}Tile{tw}x{th}"


def emit_circle(radius, tw, th):
    """A circle's CPU network, by the set-based tiling of the 3D generator over a flat window."""
    half_widths = imagej_circle(radius)
    kr = len(half_widths) // 2
    offsets = [(dx, dy - kr, 0) for dy, w in enumerate(half_widths) for dx in range(-w, w + 1)]
    g, outputs3, window, _ = median3d_tiled.tiled_network(offsets, (tw, th, 1))
    name = circle_struct_name(half_widths, tw, th)
    median3d_tiled.check(name, (tw, th, 1), g, outputs3, window)
    outputs = [(ox, oy, ("in", v[1], v[2]) if v[0] == "in" else v) for (ox, oy, _), v in outputs3]
    for op in range(len(g.ops)):  # inputs (c, r, 0) of the flat window as (c, r)
        kind, a, b = g.ops[op]
        g.ops[op] = (kind, *[("in", v[1], v[2]) if v[0] == "in" else v for v in (a, b)])
    return median_tiled.emit_graph(g, outputs, name,
                                   f"ImageJ circle radius {radius} ({len(offsets)} pixels) medians",
                                   2 * kr + 1, half_widths, tw, th, host=True)


def generate():
    out = header(NAME) + [
        "// The tiled networks the CPU backend runs (cpu/network_kernel.hpp) with a vector lane per",
        "// output column, and the dispatch by window.",
        "#pragma once",
        "",
        "#include <algorithm>",
        "",
        "namespace fastmedian::kernels::tiled {",
        "",
    ]
    structs = []
    for k, tile in CPU_TILES.items():
        out += median_tiled.emit(k, *tile, host=True)
        structs.append(median_tiled.struct_name(k, *tile))
    for radius in CPU_CIRCLE_RADII:
        out += emit_circle(radius, *CPU_CIRCLE_TILE)
        structs.append(circle_struct_name(imagej_circle(radius), *CPU_CIRCLE_TILE))
    out += ["// Calls f(Net{}) with the CPU's network for the window of these half widths (one per row,",
            "// semantics/footprint.hpp) and returns true, or returns false if none serves it.",
            "template <class F>",
            "bool with_cpu_network(const int* half_width, int rows, F&& f) {",
            "    auto is = [&](const int* want, int n) { return n == rows && std::equal(want, want + n, half_width); };"]
    out += [f"    if (is({name}::kHalfWidth, {name}::kSize)) return f({name}{{}}), true;" for name in structs]
    out += ["    return false;", "}", "", "}  // namespace fastmedian::kernels::tiled", ""]
    return "\n".join(out)


def main(args, check):
    write_file(OUT, generate(), check, NAME)
