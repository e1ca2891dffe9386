"""Generates 3D median networks that compute a tile of outputs per thread by hierarchical
tiling, for the 3D windows served fast (WINDOWS): the boxes k x k x kz for k, kz in 3, 5, 7 and
ImageJ's ellipsoids r, r, rz for r, rz in 1, 2, 3, and on the GPU r, r, 0 (the CPU: all but
boxes 7x7x7, 5x5x7 and 7x7x5 and ellipsoid 3; it serves windows one plane deep with its 2D
paths). kernels/generated/median3d_tiled/ holds one CUDA source per window (its
GPU networks and their launch), windows.cuh (what they export and the dispatch) and
sources.cmake; native/src/networks/generated/median3d_networks.hpp the CPU's networks (run with
a vector lane per output column) and its dispatch.

    python3 tools/generate.py median3d_tiled --tile box5=2x2x1       # another tile, to measure
    python3 tools/generate.py median3d_tiled --cpu-tile box5=1x2x1   # another CPU tile

The method is that of median_tiled.py (with the same Graph and Batcher merges), over sets of
voxels instead of rectangles, so any window shape works: a set of outputs shares its core, the
voxels all their windows contain; the network sorts the tile's core, then splits the outputs in
two along the tile's longest side, merges each half's extra voxels (sorted by splitting the set
along its longest side) into the parent's list, keeps only the ranks that can still be each
output's median, and recurses to single outputs. Every network is checked against sorting on
random, tie-heavy inputs before it is written.
"""
import random
import sys

from .networks import Graph, keep_median_ranks
from .median_tiled import phase_words
from .output import ROOT, header, sources_cmake, write_file, write_folder
from .windows import box, imagej_ellipsoid

NAME = "median3d_tiled"
OUT = ROOT / "kernels" / "generated" / "median3d_tiled"
# The networks are host-device code the CPU backend shares, so they live outside kernels/.
NETWORKS_OUT = ROOT / "native" / "src" / "networks" / "generated" / "median3d_networks.hpp"
HEADER = header(NAME)


# Window name -> offsets: every 3D window served by a network. Stacks whose z step is coarser
# than their pixel take a z side shorter than x and y, and others longer; the generic paths
# sort (CPU) or bisect (GPU) every window, 8x to 45x slower than a network.
WINDOWS = {
    "box3": box(3),
    "box5": box(5),
    "ellipsoid1": imagej_ellipsoid(1),
    "ellipsoid2": imagej_ellipsoid(2),
    "box5x5x3": box(5, 5, 3),
    "box7x7x3": box(7, 7, 3),
    "ellipsoid2x2x1": imagej_ellipsoid(2, 2, 1),
    "ellipsoid3x3x1": imagej_ellipsoid(3, 3, 1),
    "ellipsoid3x3x2": imagej_ellipsoid(3, 3, 2),
    "box7": box(7),
    "ellipsoid3": imagej_ellipsoid(3),
    "box3x3x5": box(3, 3, 5),
    "box3x3x7": box(3, 3, 7),
    "box5x5x7": box(5, 5, 7),
    "box7x7x5": box(7, 7, 5),
    "ellipsoid1x1x2": imagej_ellipsoid(1, 1, 2),
    "ellipsoid1x1x3": imagej_ellipsoid(1, 1, 3),
    "ellipsoid2x2x3": imagej_ellipsoid(2, 2, 3),
    "ellipsoid1x1x0": imagej_ellipsoid(1, 1, 0),
    "ellipsoid2x2x0": imagej_ellipsoid(2, 2, 0),
    "ellipsoid3x3x0": imagej_ellipsoid(3, 3, 0),
}
# Window name -> the GPU's tile (x, y, z) for packed u16x2 lanes and for 32-bit lanes, chosen
# by measurement (docs/notebook/median3d-h100-2026-11-23.md): box3 4x2x2 beat 2x2x2 and 2x2x4;
# box5 2x2x2 (255 registers) beat 2x2x1, 2x1x2 and 1x2x2 (fewer registers, 16% more min/max);
# ellipsoid2 2x1x2 beat 2x2x2. The others take a tile of few min/max an output among those
# that keep under 255 registers or spill little (ptxas -v, sm_90): those shorter in z 4x2x1
# (box 7x7x5: 2x2x1, as box7: 4x2x1 would need 2 warps for 48 KB of staged inputs, 2x2x2
# spills), those longer 2x2x2 or 2x1x2 (ellipsoids: within 6% of 2x2x2's count, 8 warps).
# Ellipsoids r, r, 0 (one plane deep; the 2D paths serve the other such windows) take 4x2x1:
# within 3% of the fewest min/max of the tiles tried, and 8 outputs to share the staging.
GPU_TILES = {
    "box3": ((4, 2, 2), (4, 2, 2)),
    "box5": ((2, 2, 2), (2, 2, 2)),
    "ellipsoid1": ((2, 2, 2), (2, 2, 2)),
    "ellipsoid2": ((2, 1, 2), (2, 1, 2)),
    "box5x5x3": ((4, 2, 1), (4, 2, 1)),
    "box7x7x3": ((4, 2, 1), (4, 2, 1)),
    "ellipsoid2x2x1": ((4, 2, 1), (4, 2, 1)),
    "ellipsoid3x3x1": ((4, 2, 1), (4, 2, 1)),
    "ellipsoid3x3x2": ((4, 2, 1), (4, 2, 1)),
    "box7": ((2, 2, 1), (2, 2, 1)),
    "ellipsoid3": ((2, 2, 1), (2, 2, 1)),
    "box3x3x5": ((2, 2, 2), (2, 2, 2)),
    "box3x3x7": ((2, 2, 2), (2, 2, 2)),
    "box5x5x7": ((2, 2, 2), (2, 2, 2)),
    "box7x7x5": ((2, 2, 1), (2, 2, 1)),
    "ellipsoid1x1x2": ((2, 1, 2), (2, 1, 2)),
    "ellipsoid1x1x3": ((2, 1, 2), (2, 1, 2)),
    "ellipsoid2x2x3": ((2, 1, 2), (2, 1, 2)),
    "ellipsoid1x1x0": ((4, 2, 1), (4, 2, 1)),
    "ellipsoid2x2x0": ((4, 2, 1), (4, 2, 1)),
    "ellipsoid3x3x0": ((4, 2, 1), (4, 2, 1)),
}
# Window name -> warps of a block, where not the most whose padded staged inputs fit 48 KB (see
# block_warps): box 7x7x7 at 8 warps (its staging writes conflicting) ran 1.32x as fast as at 6
# (u16, H200: one block of 255 registers a thread an SM, so more warps hide more latency), while
# ellipsoid 3 (168 registers) and 3,3,2 (164), two or three blocks an SM at 6 or 4 warps, ran 3%
# to 9% slower at 8 and 6 (docs/notebook/median3d-networks-h200-2026-11-29.md). Box 5x5x7 holds
# 255 registers too.
BLOCK_WARPS = {"box7": 8, "box5x5x7": 8}
# Window name -> the CPU's tile: one output column per vector lane, so 1 wide, shared along y
# and z only. Chosen by measurement on a 2-core AVX2 build machine (bench_median3d_cpu,
# 256x256x64): over 1x1x1, box5 1x2x2 ran 2.5-3x and ellipsoid2 1x2x2 1.5-1.8x as fast; box3
# and ellipsoid1 1x1x2 ran 1.2-1.6x, 1x2x2 no faster (1x2x1 was slower than 1x1x2 throughout;
# the machine was shared, so figures within 20% count as ties). The anisotropic windows take
# the one of 1x2x2, 1x2x1 and 1x1x2 with fewer min/max an output (box 5x5x3 590 and 604; box
# 7x7x3 1500 and 1539; ellipsoid 2,2,1 109 and 71; 3,3,1 333 and 174; 3,3,2 655 and 637; box
# 3x3x5 215, 329 and 278; 3x3x7 324, 542, 457; ellipsoid 1,1,2 33, 43, 33; 1,1,3 42, 63, 42;
# 2,2,3 304, 429, 376). Box 7x7x7, 5x5x7, 7x7x5 and ellipsoid 3 have none on the CPU (their
# networks would take 4 to 13 thousand min/max a tile, and minutes to compile for each ISA):
# u8 and u16 slide a histogram, f32 sorts, and none is slower than a window that contains it.
CPU_TILES = {
    "box3": (1, 1, 2),
    "box5": (1, 2, 2),
    "ellipsoid1": (1, 1, 2),
    "ellipsoid2": (1, 2, 2),
    "box5x5x3": (1, 2, 2),
    "box7x7x3": (1, 2, 2),
    "ellipsoid2x2x1": (1, 2, 1),
    "ellipsoid3x3x1": (1, 2, 1),
    "ellipsoid3x3x2": (1, 2, 1),
    "box3x3x5": (1, 2, 2),
    "box3x3x7": (1, 2, 2),
    "ellipsoid1x1x2": (1, 1, 2),
    "ellipsoid1x1x3": (1, 1, 2),
    "ellipsoid2x2x3": (1, 2, 2),
}


def tiled_network(offsets, tile):
    """The graph and outputs [((x, y, z), value)] of a tile of medians. Inputs are numbered by
    their position in the tile's input box: output o sees inputs o + offset + radius."""
    radius = [max(abs(o[a]) for o in offsets) for a in range(3)]
    window = [tuple(o[a] + radius[a] for a in range(3)) for o in offsets]
    n_window, rank = len(window), (len(window) - 1) // 2
    g = Graph()
    memo = {}

    def sort_set(voxels):
        """Sorted list of a set of inputs, split along its longest extent."""
        if not voxels:
            return []
        key = frozenset(voxels)
        if key not in memo:
            if len(key) == 1:
                (v,) = key
                memo[key] = [("in",) + v]
            else:
                lo = [min(v[a] for v in key) for a in range(3)]
                hi = [max(v[a] for v in key) for a in range(3)]
                axis = max(range(3), key=lambda a: (hi[a] - lo[a], -a))
                mid = (lo[axis] + hi[axis]) // 2
                first = [v for v in key if v[axis] <= mid]
                second = [v for v in key if v[axis] > mid]
                memo[key] = g.merge(sort_set(first), sort_set(second))
        return memo[key]

    def core(o0, o1):
        """The inputs every output of the box o0..o1 sees."""
        sets = None
        for ox in range(o0[0], o1[0] + 1):
            for oy in range(o0[1], o1[1] + 1):
                for oz in range(o0[2], o1[2] + 1):
                    s = {(w[0] + ox, w[1] + oy, w[2] + oz) for w in window}
                    sets = s if sets is None else sets & s
        return sets

    outputs = []

    def descend(o0, o1, parent_core, values, n, m):
        values, n, m = keep_median_ranks(values, n, m)
        if o0 == o1:
            assert len(values) == 1 and n == 1
            outputs.append((o0, values[0]))
            return
        axis = max(range(3), key=lambda d: (o1[d] - o0[d], -d))
        mid = (o0[axis] + o1[axis]) // 2
        halves = [(o0, tuple(mid if d == axis else o1[d] for d in range(3))),
                  (tuple(mid + 1 if d == axis else o0[d] for d in range(3)), o1)]
        for h0, h1 in halves:
            half_core = core(h0, h1)
            descend(h0, h1, half_core, g.merge(values, sort_set(half_core - parent_core)), n, m)

    top = core((0, 0, 0), tuple(t - 1 for t in tile))
    descend((0, 0, 0), tuple(t - 1 for t in tile), top, sort_set(top), n_window, rank)
    return g, outputs, window, radius


def check(name, tile, g, outputs, window, trials=150):
    """Runs the network on random inputs (many ties, and wide ranges) against sorting."""
    rng = random.Random(name)
    need = sorted(g.needed([v for _, v in outputs]))
    extent = [tile[a] + max(w[a] for w in window) for a in range(3)]
    for trial in range(trials):
        span = (2, 4, 1000)[trial % 3]
        x = {(i, j, k): rng.randrange(span) for i in range(extent[0]) for j in range(extent[1])
             for k in range(extent[2])}
        get = g.evaluate(need, lambda v: x[v[1:]])
        for (ox, oy, oz), v in outputs:
            values = sorted(x[(w[0] + ox, w[1] + oy, w[2] + oz)] for w in window)
            if get(v) != values[(len(values) - 1) // 2]:
                sys.exit(f"{name} tile {tile}: output ({ox}, {oy}, {oz}) is wrong")


def struct_name(name, tile):
    return f"Tiled{name.capitalize()}Tile{tile[0]}x{tile[1]}x{tile[2]}"


def emit(name, offsets, tile):
    g, outputs, window, radius = tiled_network(offsets, tile)
    check(name, tile, g, outputs, window)
    need = sorted(g.needed([v for _, v in outputs]))
    names, body = {}, []

    def value(v):
        if v[0] == "op":
            return names[v[1]]
        if v not in names:
            names[v] = "x{}_{}_{}".format(*v[1:])
            body.append("        const auto {} = in({}, {}, {});".format(names[v], *v[1:]))
        return names[v]

    for i in need:
        kind, a, b = g.ops[i]
        sa, sb = value(a), value(b)
        names[i] = f"t{len(names)}"
        body.append(f"        const auto {names[i]} = L::{kind}({sa}, {sb});")
    for (ox, oy, oz), v in outputs:
        body.append(f"        out({ox}, {oy}, {oz}, {value(v)});")
    count = tile[0] * tile[1] * tile[2]
    inputs = len({v for v in names if isinstance(v, tuple)})
    return [
        f"// {name} ({len(window)} voxels), a {tile[0]}x{tile[1]}x{tile[2]} tile of outputs: "
        f"{len(need)} min/max ({len(need) / count:.1f} per output) over {inputs} inputs.",
        f"struct {struct_name(name, tile)} {{",
        f"    static constexpr int kRadiusX = {radius[0]}, kRadiusY = {radius[1]}, kRadiusZ = {radius[2]};",
        f"    static constexpr int kTileW = {tile[0]}, kTileH = {tile[1]}, kTileD = {tile[2]};",
        "    // in(c, r, p): the keys at column c, row r, plane p of the tile's inputs (the box from",
        "    // the first output's window corner); out(x, y, z, keys): the median of output (x, y, z).",
        "    template <class L, class In, class Out>",
        "    FM_HD static void run(const In& in, const Out& out) {",
        *body,
        "    }",
        "};",
        "",
    ]


def staged_bytes(offsets, tile, warps, padded):
    """Shared memory of median3d_tiled_kernel.cuh's staged inputs: phase rows padded (a warp's
    staging writes hit 32 banks) or not."""
    radius = [max(abs(o[a]) for o in offsets) for a in range(3)]
    cols = 32 * tile[0] + 2 * radius[0]
    q = phase_words(cols, tile[0]) if padded else (cols + tile[0] - 1) // tile[0]
    return 4 * (tile[2] + 2 * radius[2]) * (warps * tile[1] + 2 * radius[1]) * tile[0] * q


def block_warps(name, tile):
    """Warps of a block (stacked vertically): BLOCK_WARPS' where given, else 8 or the most whose
    padded staged inputs fit the 48 KB of static shared memory a block may have. The kernel pads
    the phase rows where they fit, as this assumes."""
    offsets = WINDOWS[name]
    if name in BLOCK_WARPS:
        warps = BLOCK_WARPS[name]
        assert staged_bytes(offsets, tile, warps, padded=False) <= 48 * 1024, name
        return warps
    warps = 8
    while staged_bytes(offsets, tile, warps, padded=True) > 48 * 1024:
        warps -= 1
    return warps


def window_source(name):
    """The window's GPU networks, and its launch for them."""
    packed_tile, scalar_tile = GPU_TILES[name]
    packed, scalar = struct_name(name, packed_tile), struct_name(name, scalar_tile)
    offsets = WINDOWS[name]
    networks = emit(name, offsets, packed_tile)
    if scalar_tile != packed_tile:
        networks += emit(name, offsets, scalar_tile)
    return "\n".join(HEADER + [
        f"// The {name} 3D median's networks and their launch (median3d_tiled_kernel.cuh).",
        "#include \"generated/median3d_tiled/windows.cuh\"",
        "#include \"median3d_tiled_kernel.cuh\"",
        "#include \"semantics/fm_hd.hpp\"",
        "",
        "namespace fastmedian::kernels::tiled3d {",
        "",
        *networks,
        f"cudaError_t launch_{name}(PixelType type, const VolumeArgs& a, cudaStream_t stream) {{",
        f"    return launch<{packed}, {block_warps(name, packed_tile)}, {scalar}, "
        f"{block_warps(name, scalar_tile)}>(type, a, stream);",
        "}",
        "",
        "}  // namespace fastmedian::kernels::tiled3d",
        "",
    ])


def runs_of(offsets):
    """The window as (radius_z, radius_y, half widths by (dz, dy)), as semantics/footprint3d.hpp
    has it, -1 for an empty row."""
    rx, ry, rz = (max(abs(o[a]) for o in offsets) for a in range(3))
    runs = []
    for dz in range(-rz, rz + 1):
        for dy in range(-ry, ry + 1):
            xs = [o[0] for o in offsets if o[1] == dy and o[2] == dz]
            runs.append(max(xs) if xs else -1)
    return rz, ry, runs


def runs_match(offsets, indent):
    """C++ lines testing the arguments radius_z, radius_y, half_width, entries against a
    window's runs; the statement to run on a match follows them."""
    rz, ry, runs = runs_of(offsets)
    return [f"{indent}static constexpr int kRuns[] = {{{', '.join(map(str, runs))}}};",
            f"{indent}if (radius_z == {rz} && radius_y == {ry} && entries == {len(runs)} &&",
            f"{indent}    std::equal(kRuns, kRuns + {len(runs)}, half_width))"]


def networks_header():
    out = HEADER + [
        "// The CPU backend's tiled 3D median networks (cpu/median3d_network_kernel.hpp runs them with",
        "// a vector lane per output column), and its network by window. The GPU's are in",
        "// kernels/generated/median3d_tiled/<window>.cu.",
        "#pragma once",
        "",
        "#include <algorithm>",
        "",
        "#include \"semantics/fm_hd.hpp\"",
        "",
        "namespace fastmedian::kernels::tiled3d {",
        "",
    ]
    cpu_networks = [(name, WINDOWS[name], tile) for name, tile in CPU_TILES.items()]
    for name, offsets, tile in cpu_networks:
        out += emit(name, offsets, tile)
    out += ["// Calls f(Net{}) with the CPU's network for a window given as runs (semantics/footprint3d.hpp)",
            "// and returns true, or returns false if none serves it.",
            "template <class F>",
            "bool with_cpu_network(int radius_z, int radius_y, const int* half_width, int entries, F&& f) {"]
    for name, offsets, tile in cpu_networks:
        out += [f"    {{  // {name}", *runs_match(offsets, "        "),
                f"            return f({struct_name(name, tile)}{{}}), true;", "    }"]
    out += ["    return false;", "}", "", "}  // namespace fastmedian::kernels::tiled3d", ""]
    return "\n".join(out)


def windows_header():
    out = HEADER + [
        "// The 3D windows with a tiled network (<window>.cu), and the dispatch by window runs.",
        "#pragma once",
        "",
        "#include <cuda_runtime_api.h>",
        "",
        "#include \"fastmedian/image.hpp\"",
        "#include \"median3d_args.cuh\"",
        "",
        "namespace fastmedian::kernels::tiled3d {",
        "",
    ]
    for name in GPU_TILES:
        out.append(f"cudaError_t launch_{name}(PixelType type, const VolumeArgs& a, cudaStream_t stream);")
    out += ["", "// The launch for a window given as runs (semantics/footprint3d.hpp), nullptr if none serves it.",
            "using Launch = cudaError_t (*)(PixelType, const VolumeArgs&, cudaStream_t);",
            "inline Launch launch_for(int radius_z, int radius_y, const int* half_width, int entries) {"]
    for name in GPU_TILES:
        out += [f"    {{  // {name}", *runs_match(WINDOWS[name], "        "),
                f"            return launch_{name};", "    }"]
    out += ["    return nullptr;", "}", "", "}  // namespace fastmedian::kernels::tiled3d", ""]
    out.insert(out.index("#include <cuda_runtime_api.h>"), "#include <algorithm>\n")
    return "\n".join(out)


def generate():
    """{file name: text} of everything in OUT (the networks header apart)."""
    files = {f"{name}.cu": window_source(name) for name in GPU_TILES}
    files["windows.cuh"] = windows_header()
    files["sources.cmake"] = sources_cmake(NAME, "FASTMEDIAN_TILED3D_SOURCES",
                                           [f"{name}.cu" for name in GPU_TILES])
    return files


def main(args, check):
    cpu = False  # whether the NAME=WxHxD that follows sets the CPU's tile
    for arg in args:
        flag, _, rest = arg.partition("=")
        if flag in ("--tile", "--cpu-tile"):
            cpu, arg = flag == "--cpu-tile", rest
        if "=" in arg and not arg.startswith("--"):  # NAME=WxHxD: the CPU's, or both lane kinds'
            name, tile = arg.split("=")
            tile = tuple(int(t) for t in tile.split("x"))
            if cpu:
                assert tile[0] == 1, "a CPU tile is one column wide"
                CPU_TILES[name] = tile
            else:
                GPU_TILES[name] = (tile, tile)
    write_folder(OUT, generate(), check, NAME)
    write_file(NETWORKS_OUT, networks_header(), check, NAME)
