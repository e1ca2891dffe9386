"""Generates kernels/generated/median_tiled/: median networks that compute a whole tile of
outputs at once (square windows 3 to 21), sharing the work that neighbouring outputs have in
common, by hierarchical tiling (the idea of Sugy, SIGGRAPH 2025, after Adams 2021). For each window
size: squareK.cuh (its networks), squareK.cu (their launch) and squareK_TYPE.cu (the kernel of
one pixel type at each warp count, a file each so that they, and a release build's
architectures, compile in parallel); squares.cuh (what they export, the dispatch by size, and the
shared memory each architecture's policy allows a block) and sources.cmake.
cpu_tiled_networks.py writes the CPU's networks of the mid-sized squares with emit(host=True).

    python3 tools/generate.py median_tiled --variant K [PWxPH SWxSH BLOCKS] DIR
        # writes DIR/squareK.cu and .cuh, all its kernels in the one file, with other tiles
        # (packed, 32-bit) and blocks per SM (packed, 32-bit: "1,2"), for
        # bench/gpu/run_tile_variants.sh

A thread computes a TW x TH tile of k x k medians. Every output of a set of outputs sees the
set's core, the rectangle of inputs their windows share. The network:
  1. sorts the tile's core (columns sorted by merging halves, then columns merged);
  2. splits the set of outputs in two (along its longer side); each half's core is the parent's
     core plus a strip of inputs; the half sorts its strip (sorted sub-rectangles are shared
     through a memo) and merges it into the parent's list;
  3. after each merge keeps only the ranks that can still be the median: of a sorted list of
     a values out of n still undecided with the median at rank m, index i can be the median
     only if m - (n - a) <= i <= m; the others are dropped and the rank and count adjusted;
  4. recurses down to single outputs, whose list is then the median.
For the sizes in SORTED_COLUMNS the kernel sorts each column's rows that the tile's outputs all
share before the network runs (once for all the threads of a warp that read that column), and
step 1 merges those sorted columns instead of sorting them; for those in GROUPS it also merges
them four by four (quads) and for octets the quads two by two, once per warp, and step 1 starts
from those groups.
A block stacks WARPS' warps (8 where not given) vertically; where that block's shared memory
(its staged tile, and the sorted columns and groups, which grow with the warps) exceeds what a
GPU policy (kernels/gpu_policies.cpp) allows a block, the kernel is also compiled for blocks of
the most warps that fit it, and the launch takes the most that fit the active policy.
Merges are Batcher's odd-even merges; operations that no output depends on are left out, so
a merge whose outputs are mostly dropped costs only what the kept ranks need. The code calls
L::lo / L::hi, so one network serves 32-bit keys and packed u16x2 lanes. Every network is
checked against sorting on random, tie-heavy inputs before it is written.
"""
import functools
import pathlib
import random
import re
import sys

from .networks import Graph, fma_maxes, keep_median_ranks
from .output import ROOT, header, sources_cmake, write_folder
from .windows import square

NAME = "median_tiled"
OUT = ROOT / "kernels" / "generated" / "median_tiled"

# Window size -> (tile width, tile height) in outputs per thread, for packed u16x2 lanes (u8,
# u16) and for 32-bit lanes (f32), chosen by operation count, registers and measurement: wider
# tiles share more but keep more values alive (15x15 and 21x21 spilled at 8x2 and run faster
# at 4x2); for 3x3 the 4x4 tile amortises the staging, which costs more there than the
# network; packed lanes take 8x4 there (4 blocks per SM: u8 +8%, u16 +6% over 4x4 at 6). The
# tile's inputs are read from shared memory as needed. The min/max count does not predict the
# large sizes, whose speed follows where ptxas puts their spills
# (docs/notebook/tiles-h100-2026-11-24.md): 15x15 at 4x2 beat 5x2, 3x4, 4x3, 6x2 and 2x6; packed
# 21x21 at 2x4 ran u16 faster through the library, but the f32 kernel compiled beside it then
# ran slower, so 21x21 keeps 4x2 until that is understood.
PACKED_TILES = {3: (8, 4), 5: (4, 2), 7: (4, 2), 9: (8, 2), 11: (8, 2), 15: (4, 2), 21: (4, 2)}
SCALAR_TILES = {3: (4, 4), 5: (4, 2), 7: (4, 2), 9: (8, 2), 11: (8, 2), 15: (4, 2), 21: (4, 2)}
# Window size -> blocks per SM the kernel is compiled for (__launch_bounds__), for packed and
# for 32-bit lanes, as measured (docs/notebook/gpu-median-h100-2026-11-24-blocks.md): the fewer
# registers this leaves cost a few spilled bytes and paid in occupancy up to 9x9 and for f32 at
# 11x11 and 15x15. Packed 11x11 and 15x15 need their registers (much slower at 2 blocks); so
# does 21x21.
MIN_BLOCKS = {3: (4, 6), 5: (5, 5), 7: (4, 4), 9: (2, 2), 11: (1, 2), 15: (1, 2), 21: (1, 1)}
# Window size -> warps of a block (stacked vertically), where not 8: 21x21's octets take 127.5 KB of
# shared memory a block at 6 warps, with its sorted columns and tile 222.5 of the 227 KB a block may
# have (8 would not fit). Its network is fetch-bound (ncu: 2.9 of 5.7 cycles between a warp's issues
# waiting for an instruction at 4 warps), so each warp more an SM pays: 6 warps ran u16 / f32
# 21x21 faster than 4 warps (quads kept between the jobs) and than 2 warps, 2 blocks an SM
# (docs/notebook/gpu-median-h100-2026-11-26-groups.md).
WARPS = {21: 6}
# The GPU policies' table, whose entries' shared memory a block (limits.shared_per_block) decides
# the warps a block of each network may have there.
POLICIES = ROOT / "kernels" / "gpu_policies.cpp"
# Window sizes whose networks take sorted columns: the kernel first sorts, once for each warp's
# TH output rows, the K - TH + 1 rows of every staged column that those rows' windows share
# (col(c, i): the i-th smallest), and the network merges those instead of sorting the columns
# of its tile itself. Min/max per output, sorts included (each about 1/TH of a column's sort an
# output), against the tile's own: 7x7 118 + 12 against 148, 9x9 194 + 19 against 232, 11x11
# 278 + 31 against 348, 15x15 630 + 53 against 868, 21x21 1425 + 97 against 2007. Faster with
# them from 9x9 to 21x21 at 4096^2 and at 7x7 at 2048^2, most at 15x15 and 21x21
# (docs/notebook/gpu-median-h100-2026-11-26-sorted-columns.md); 5x5 (59 + 6 against 69) ran a
# little slower at 2048^2 and stays out.
# For packed lanes (u8, u16, f32 of whole numbers) and for 32-bit lanes (f32): 11x11's 32-bit
# blocks, 2 an SM, would not both fit in shared memory with their sorted columns (122 KB a
# block), and 1 an SM ran slower on fractions.
SORTED_COLUMNS = ({7, 9, 11, 15, 21}, {7, 9, 15, 21})
# Window size -> the size of the column groups its network starts from (of SORTED_COLUMNS, 4 wide
# tiles), for packed and 32-bit lanes. The kernel merges, once per warp, the sorted columns four by
# four into quads, or eight by eight into octets (two quads merged); group(c, i) is the i-th
# smallest of those rows of the group from column c, and the network's core merges fewer, longer
# lists. Min/max per output, sorts included: 15x15 630 + 53 -> 444 + 53 + 69 with quads; 21x21
# 1425 + 97 -> 1022 + 97 + 114 with quads (which lost: spills grew from 1260 to 1952 bytes) and
# 792 + 97 + 346 with octets, whose core merges hold fewer values at once: 80 bytes spilled, and
# the speed no longer follows where the driver puts code and local memory (the spilling network
# ran much slower after other kernels than when the first of its process). Faster with groups
# at 15x15 and 21x21 (docs/notebook/gpu-median-h100-2026-11-26-groups.md). 32-bit lanes take
# none: 15x15's blocks, 2 an SM, would not fit in shared memory with quads (157 KB a block), and
# 21x21's octets ran f32 of fractions slower than without (4 warps; their sort jobs serve half
# the outputs that packed lanes' do).
GROUPS = ({15: 4, 21: 8}, {})
# f32 squares from this size up try the packed networks on whole numbers 0..65535 first
# (median_tiled_kernel.cuh, launch_whole_floats); the smallest packed block bounds the marks.
WHOLE_FLOATS_FROM = 5
HEADER = header(NAME)


# Of the exchanges whose min and max a device network both needs, the share whose max the packed
# lanes compute as a + b - min on the FMA pipe (L::hi_given_lo, kernels/median_lanes.cuh), beside
# the ALU pipe that runs every min/max. At half of them 9x9 and 15x15 ran faster; 11x11 and
# u16 21x21 lost (more at two thirds, still at a quarter), so those keep every min/max on the
# ALU (docs/notebook/gpu-median-h100-2026-11-27-fma.md).
FMA_SHARES = {9: 0.5, 15: 0.5}


def tiled_network(k, tw, th, sorted_columns=False, group=0):
    """The graph and the outputs [(x, y, value)] of a tw x th tile of k x k medians. Output
    (x, y) sees inputs (columns x..x+k-1, rows y..y+k-1) of the tile's (tw+k-1) x (th+k-1).
    With sorted_columns, each column's rows th-1..k-1 (those all outputs share) come sorted, as
    values ("col", c, i), and a column's list that holds them merges the others into them.
    With a group size too (4 or 8, tw a multiple of 4), so do those rows of the `group` columns
    from each c = tw-1 + group j, as values ("group", c, i), and column ranges split at their edges."""
    assert not group or (sorted_columns and tw % 4 == 0 and group in (4, 8))
    g = Graph()
    memo = {}
    shared = (th - 1, k - 1)

    def rect(c0, c1, r0, r1):
        """Sorted list of the inputs in columns c0..c1 and rows r0..r1."""
        if c0 > c1 or r0 > r1:
            return []
        key = (c0, c1, r0, r1)
        if key not in memo:
            covers = sorted_columns and r0 <= shared[0] and shared[1] <= r1
            if c0 == c1 and r0 == r1:
                memo[key] = [("in", c0, r0)]
            elif covers and (c0 == c1 or (group and c1 - c0 == group - 1 and (c0 - tw + 1) % group == 0)):
                memo[key] = [("col" if c0 == c1 else "group", c0, i) for i in range((c1 - c0 + 1) * (k - th + 1))]
                memo[key] = g.merge(g.merge(memo[key], rect(c0, c1, r0, shared[0] - 1)),
                                    rect(c0, c1, shared[1] + 1, r1))
            elif c0 == c1:
                mid = (r0 + r1) // 2
                memo[key] = g.merge(rect(c0, c1, r0, mid), rect(c0, c1, mid + 1, r1))
            else:
                mid = (c0 + c1) // 2
                edges = [c for c in range(c0, c1) if (c - tw + 2) % group == 0] if group and covers else []
                if edges:  # the groups' edge nearest the middle
                    mid = min(edges, key=lambda c: abs(c - mid))
                memo[key] = g.merge(rect(c0, mid, r0, r1), rect(mid + 1, c1, r0, r1))
        return memo[key]

    outputs = []

    def descend(x0, x1, y0, y1, values, n, m):
        values, n, m = keep_median_ranks(values, n, m)
        if x0 == x1 and y0 == y1:
            assert len(values) == 1 and n == 1
            outputs.append((x0, y0, values[0]))
            return
        core = (x1, x0 + k - 1, y1, y0 + k - 1)
        if x1 - x0 >= y1 - y0:
            mid = (x0 + x1) // 2
            halves = [(x0, mid, y0, y1), (mid + 1, x1, y0, y1)]
        else:
            mid = (y0 + y1) // 2
            halves = [(x0, x1, y0, mid), (x0, x1, mid + 1, y1)]
        for hx0, hx1, hy0, hy1 in halves:
            c0, c1, r0, r1 = hx1, hx0 + k - 1, hy1, hy0 + k - 1
            if c0 < core[0]:
                strip = rect(c0, core[0] - 1, r0, r1)
            elif c1 > core[1]:
                strip = rect(core[1] + 1, c1, r0, r1)
            elif r0 < core[2]:
                strip = rect(c0, c1, r0, core[2] - 1)
            else:
                strip = rect(c0, c1, core[3] + 1, r1)
            descend(hx0, hx1, hy0, hy1, g.merge(values, strip), n, m)

    descend(0, tw - 1, 0, th - 1, rect(tw - 1, k - 1, th - 1, k - 1), k * k, (k * k - 1) // 2)
    return g, outputs


def check(k, tw, th, g, outputs, group=0, trials=200):
    """Runs the network on random inputs (many ties, and wide ranges) against sorting."""
    rng = random.Random(k)
    need = sorted(g.needed([v for _, _, v in outputs]))
    for trial in range(trials):
        span = (2, 4, 1000)[trial % 3]
        x = {(c, r): rng.randrange(span) for c in range(tw + k - 1) for r in range(th + k - 1)}
        shared = {(kind, c): sorted(x[(c + j, r)] for j in range(span) for r in range(th - 1, k))
                  for kind, span in (("col", 1), ("group", group or 1)) for c in range(tw + k - span)}
        get = g.evaluate(need, lambda v: x[(v[1], v[2])] if v[0] == "in" else shared[v[:2]][v[2]])
        for ox, oy, v in outputs:
            window = sorted(x[(c, r)] for c in range(ox, ox + k) for r in range(oy, oy + k))
            if get(v) != window[(k * k - 1) // 2]:
                sys.exit(f"{k}x{k} tile {tw}x{th}: output ({ox}, {oy}) is wrong")


def struct_name(k, tw, th, sorted_columns=False, group=0):
    return (f"TiledSquare{k}Tile{tw}x{th}" + ("SortedColumns" if sorted_columns else "") +
            {0: "", 4: "Quads", 8: "Octets"}[group])


@functools.lru_cache(maxsize=None)
def checked_network(k, tw, th, sorted_columns=False, group=0):
    """tiled_network's graph and outputs, checked against sorting."""
    g, outputs = tiled_network(k, tw, th, sorted_columns, group)
    check(k, tw, th, g, outputs, group)
    return g, outputs


def read_groups(g, outputs):
    """The first columns c of the groups ("group", c, i) that the network reads, ascending."""
    values = [v for _, _, v in outputs] + [v for i in g.needed([v for _, _, v in outputs]) for v in g.ops[i][1:]]
    return sorted({v[1] for v in values if v[0] == "group"})


def emit(k, tw, th, host=False, sorted_columns=False, group=0):
    """The network's struct: device code over 32-bit keys and packed lanes, or (host) CPU code
    over any vector type."""
    g, outputs = checked_network(k, tw, th, sorted_columns, group)
    return emit_graph(g, outputs, struct_name(k, tw, th, sorted_columns, group), f"{k}x{k} medians", k,
                      square(k), tw, th, host, None if host else MIN_BLOCKS[k], k - th + 1 if sorted_columns else 0,
                      group, None if host else WARPS.get(k, 8))


def sorting_network(n, runs=None):
    """The graph of Batcher's merge sort of n inputs ("in", 0, i), and its sorted list; with runs,
    of n inputs that come as that many sorted runs of n / runs (a power of two), merged."""
    g = Graph()

    def sort(i0, i1):
        if i0 == i1 or (runs and i1 - i0 + 1 == n // runs):
            return [("in", 0, i) for i in range(i0, i1 + 1)]
        mid = (i0 + i1) // 2
        return g.merge(sort(i0, mid), sort(mid + 1, i1))

    values = sort(0, n - 1)
    rng = random.Random(n)
    for trial in range(200):
        x = [rng.randrange((2, 4, 1000)[trial % 3]) for _ in range(n)]
        if runs:
            x = [v for r in range(runs) for v in sorted(x[r * n // runs:(r + 1) * n // runs])]
        get = g.evaluate(range(len(g.ops)), lambda v: x[v[2]])
        if [get(v) for v in values] != sorted(x):
            sys.exit(f"the sorting network of {n} ({runs} runs) is wrong")
    return g, values


def emit_sort(function, n, what, runs=None):
    """The device code of a network's `function`, sorting_network(n, runs) on v[n] in place."""
    g, values = sorting_network(n, runs)
    body = []
    name = lambda v: f"v[{v[2]}]" if v[0] == "in" else f"t{v[1]}"  # noqa: E731
    for i in sorted(g.needed(values)):
        kind, a, b = g.ops[i]
        body.append(f"        const std::uint32_t t{i} = L::{kind}({name(a)}, {name(b)});")
    body += [f"        v[{i}] = {name(v)};" for i, v in enumerate(values)]
    return [
        f"    // {what}: {len(body) - n} min/max.",
        "    template <class L>",
        f"    __device__ __forceinline__ static void {function}(std::uint32_t (&v)[{n}]) {{",
        *body,
        "    }",
    ]


def emit_graph(g, outputs, struct, what, size, half_widths, tw, th, host, min_blocks=None, sorted_rows=0, group=0,
               warps=None):
    """The struct of a tile network's graph (see emit); min_blocks (packed, scalar) for the device;
    sorted_rows: the rows of each column that come sorted (col(c, i)), 0 for none; those of
    `group` columns together (group(c, i)) where the graph reads them; warps: a block's, for the device."""
    need = sorted(g.needed([v for _, _, v in outputs]))
    names, body = {}, []
    value_type = "auto" if host else "std::uint32_t"

    def name(v):
        if v[0] == "op":
            return names[v[1]]
        key = (v[0], v[1], v[2])
        if key not in names:
            names[key] = f"{dict(col='s', group='g').get(v[0], 'x')}{v[1]}_{v[2]}"
            body.append(f"        const {value_type} {names[key]} = {v[0]}({v[1]}, {v[2]});")
        return names[key]

    on_fma = set() if host else fma_maxes(g, need, FMA_SHARES.get(size, 0))
    for i in need:
        kind, a, b = g.ops[i]
        sa, sb = name(a), name(b)
        names[i] = f"t{len(names)}"
        value = f"L::hi_given_lo({sa}, {sb}, {names[i - 1]})" if i in on_fma else f"L::{kind}({sa}, {sb})"
        body.append(f"        const {value_type} {names[i]} = {value};")
    for ox, oy, v in outputs:
        body.append(f"        out({ox}, {oy}, {name(v)});")
    count = tw * th
    inputs = len([key for key in names if isinstance(key, tuple)])
    groups = read_groups(g, outputs)
    assert groups == list(range(tw - 1, tw - 1 + group * len(groups), group or 1))
    return [
        f"// {what}, a {tw}x{th} tile of outputs: {len(need)} min/max "
        f"({len(need) / count:.1f} per output) over {inputs} inputs.",
        f"struct {struct} {{",
        f"    static constexpr int kSize = {size};",
        f"    static constexpr int kTileW = {tw};",
        f"    static constexpr int kTileH = {th};",
        *([f"    // Blocks per SM to fit for packed and 32-bit lanes (__launch_bounds__).",
           f"    static constexpr int kMinBlocksPacked = {min_blocks[0]};",
           f"    static constexpr int kMinBlocksScalar = {min_blocks[1]};"] if min_blocks else []),
        *([f"    static constexpr int kHalfWidth[{size}] = {{{', '.join(map(str, half_widths))}}};"] if host else []),
        *([] if host else [
            f"    // Rows of each column that come sorted: rows {th - 1}..{size - 1} of the tile's inputs." if sorted_rows else
            "    // Rows of each column that come sorted: none.",
            f"    static constexpr int kSortedRows = {sorted_rows};"]),
        *(emit_sort("sort_column", sorted_rows, f"Sorts the {sorted_rows} keys of a column's shared rows")
          if sorted_rows else []),
        *([f"    // Groups: those rows of columns c..c+kGroup-1, sorted together, for c = {tw - 1} + kGroup j,",
           "    // j < kGroups; octets merge two quads (four columns each).",
           f"    static constexpr int kGroup = {group};",
           f"    static constexpr int kGroups = {len(groups)};",
           f"    static constexpr int kFirstGroup = {tw - 1};",
           *emit_sort("sort_quad", 4 * sorted_rows, "Merges a quad's four sorted columns", runs=4),
           *(emit_sort("sort_octet", 8 * sorted_rows, "Merges an octet's two sorted quads", runs=2)
             if group == 8 else [])] if groups else
          [] if host else ["    // Groups: none.", "    static constexpr int kGroup = 0, kGroups = 0;"]),
        *([f"    static constexpr int kWarps = {warps};  // a block's, stacked vertically"] if warps else []),
        "    // in(c, r): the key at column c, row r of the tile's inputs; out(x, y, key): the",
        "    // median of output (x, y), whose window lies in columns x..x+size-1, rows y..y+size-1." if host else
        "    // median of output (x, y), whose window is columns x..x+k-1, rows y..y+k-1.",
        *(["    // col(c, i): the i-th smallest key of column c's sorted rows; group(c, i): of group c's.",
           "    template <class L, class In, class Col, class Group, class Out>",
           "    __device__ __forceinline__ static void run(const In& in, const Col& col, const Group& group,",
           "                                               const Out& out) {"]
          if groups else
          ["    // col(c, i): the i-th smallest key of column c's sorted rows.",
           "    template <class L, class In, class Col, class Out>",
           "    __device__ __forceinline__ static void run(const In& in, const Col& col, const Out& out) {"]
          if sorted_rows else
          ["    template <class L, class In, class Out>",
           "    static void run(const In& in, const Out& out) {" if host else
           "    __device__ __forceinline__ static void run(const In& in, const Out& out) {"]),
        *body,
        "    }",
        "};",
        "",
    ]


def policy_limits():
    """[(arch, shared memory a block in bytes)] of the GPU policies' entries, oldest first."""
    found = re.findall(r'\{"sm_\d+", (\d+), \{(\d+) \* kKiB[,}]', POLICIES.read_text())
    if not found:
        sys.exit(f"{POLICIES}: no entry {{\"sm_NN\", NN, {{N * kKiB, ...}}, ...}} found")
    return sorted((int(arch), int(kib) * 1024) for arch, kib in found)


def shared_limits():
    """The shared memory a block (bytes) of the GPU policies' entries, distinct, largest first."""
    return sorted({limit for _, limit in policy_limits()}, reverse=True)


def phase_words(cols, tw):
    """median_tiled_kernel.cuh's phase_words."""
    q = (cols + tw - 1) // tw
    while q % 32 != (32 // tw) % 32:
        q += 1
    return q


def block_bytes(k, tw, th, warps, sorted_columns, group):
    """Shared memory of a block of `warps` warps of the network (TileShape's kBlockBytes, which
    the generated code asserts equal): its staged tile, sorted columns and groups."""
    r = k // 2
    lead = (r + 3) // 4 * 4
    q = phase_words((lead + 32 * tw + r + 3) // 4 * 4, tw)
    sorted_rows = k - th + 1 if sorted_columns else 0
    tile = 4 * (warps * th + k - 1) * tw * q
    columns = 4 * warps * sorted_rows * tw * q
    groups = len(read_groups(*checked_network(k, tw, th, sorted_columns, group))) if group else 0
    slots = 31 * tw // 4 + (groups - 1) * group // 4 + 1 if group else 0
    return tile + columns + 4 * warps * group * sorted_rows * slots


def warp_counts(k, tw, th, sorted_columns, group):
    """The warps a block of the network takes under each policy, most first: for each policy's
    shared memory a block, the most (up to WARPS', else 8) whose block fits. Sorted columns and
    groups take shared memory in proportion to the warps, so fewer fit smaller GPUs."""
    most, counts = WARPS.get(k, 8), []
    for limit in shared_limits():
        fitting = [w for w in range(most, 0, -1) if block_bytes(k, tw, th, w, sorted_columns, group) <= limit]
        if not fitting:
            sys.exit(f"{k}x{k} tile {tw}x{th}: not even a block of one warp fits {limit // 1024} KB")
        if fitting[0] not in counts:
            counts.append(fitting[0])
    return counts


@functools.lru_cache(maxsize=None)
def square_networks(k):
    """For packed and 32-bit lanes: (struct name, tile, sorted columns, group, warp counts)."""
    out = []
    for tiles, sorted_ks, groups in ((PACKED_TILES, SORTED_COLUMNS[0], GROUPS[0]),
                                     (SCALAR_TILES, SORTED_COLUMNS[1], GROUPS[1])):
        tile, columns, group = tiles[k], k in sorted_ks, groups.get(k, 0)
        out.append((struct_name(k, *tile, columns, group), tile, columns, group,
                    warp_counts(k, *tile, columns, group)))
    return out


def min_packed_block():
    """The smallest block (outputs wide, high) of any packed network at any of its warp counts:
    the f32 marks' size (whole_marks_bytes)."""
    blocks = [(64 * tile[0], min(counts) * tile[1]) for k in PACKED_TILES for _, tile, _, _, counts in square_networks(k)[:1]]
    return min(w for w, _ in blocks), min(h for _, h in blocks)


# The kernels of each square, one file each: (file name suffix, what, pixel type, lanes, packed).
# Packed f32 is launch_whole_floats' 16-bit launch, from WHOLE_FLOATS_FROM up.
KERNEL_FILES = (("u8", "u8", "std::uint8_t", "PackedLanes", True),
                ("u16", "u16", "std::uint16_t", "PackedLanes", True),
                ("f32_whole", "f32 of whole numbers (packed lanes)", "float", "PackedAluLanes", True),
                ("f32", "f32 on 32-bit keys", "float", "SignedLanes", False))


def kernel_files(k):
    """[(file name suffix, what, [TiledKernel instantiations])] of the k x k square's kernels."""
    (packed, *_, packed_warps), (scalar, *_, scalar_warps) = square_networks(k)
    out = []
    for suffix, what, pixel, lanes, is_packed in KERNEL_FILES:
        if suffix == "f32_whole" and k < WHOLE_FLOATS_FROM:
            continue
        net, counts = (packed, packed_warps) if is_packed else (scalar, scalar_warps)
        out.append((suffix, what, [f"template struct TiledKernel<Warps<square{k}::{net}, {w}>, {pixel}, {lanes}>;"
                                   for w in counts]))
    return out


def square_header(k, kernels_apart=True):
    """squareK.cuh: the networks, in namespace squareK, and the warps of their blocks; with
    kernels_apart, the kernels' launches declared as compiled in squareK_*.cu."""
    (packed, packed_tile, sorted_packed, group_packed, packed_warps), \
        (scalar, scalar_tile, sorted_scalar, group_scalar, scalar_warps) = square_networks(k)
    networks = emit(k, *packed_tile, sorted_columns=sorted_packed, group=group_packed)
    if scalar != packed:
        networks += emit(k, *scalar_tile, sorted_columns=sorted_scalar, group=group_scalar)
    limits = ", ".join(f"{n // 1024}" for n in shared_limits())
    asserts = [f"static_assert(TileShape<Warps<{name}, {w}>>::kBlockBytes == {block_bytes(k, *tile, w, columns, group)});"
               for name, tile, columns, group, counts in ((packed, packed_tile, sorted_packed, group_packed, packed_warps),
                                                          (scalar, scalar_tile, sorted_scalar, group_scalar, scalar_warps))
               for w in counts]
    ladders = ["// The warps a block takes, most first: the most that fit each policy's shared memory a block",
               f"// ({limits} KB, kernels/gpu_policies.cpp), for packed and 32-bit lanes.",
               f"using PackedWarps = WarpCounts<{', '.join(map(str, packed_warps))}>;",
               f"using ScalarWarps = WarpCounts<{', '.join(map(str, scalar_warps))}>;",
               *dict.fromkeys(asserts), ""]
    apart = ["namespace fastmedian::kernels::tiled {", "",
             *[line for suffix, _, instances in kernel_files(k)
               for line in [f"// square{k}_{suffix}.cu", *[f"extern {i}" for i in instances]]],
             "", "}  // namespace fastmedian::kernels::tiled", ""]
    return "\n".join(HEADER + [
        f"// The {k}x{k} median's networks (median_tiled_kernel.cuh), launched by square{k}.cu" +
        (";" if kernels_apart else "."),
        *([f"// each of square{k}_*.cu compiles the kernel of one pixel type at each of its warp counts, so",
           "// that the kernels (and the architectures of a release build) compile in parallel."]
          if kernels_apart else []),
        "#pragma once",
        "",
        "#include \"generated/median_tiled/squares.cuh\"",
        "#include \"median_tiled_kernel.cuh\"",
        "",
        f"namespace fastmedian::kernels::tiled::square{k} {{",
        "",
        *networks,
        *ladders,
        f"}}  // namespace fastmedian::kernels::tiled::square{k}",
        "",
        *(apart if kernels_apart else []),
    ])


def square_source(k):
    """squareK.cu: the launch of the k x k median (its networks: squareK.cuh, beside it)."""
    (packed, *_), (scalar, *_) = square_networks(k)
    nets = f"square{k}::{packed}, square{k}::{scalar}, square{k}::PackedWarps, square{k}::ScalarWarps"
    return "\n".join(HEADER + [
        f"// The {k}x{k} median's launch (median_tiled_kernel.cuh), over the networks of square{k}.cuh.",
        f"#include \"square{k}.cuh\"",
        "",
        "namespace fastmedian::kernels::tiled {",
        "",
        f"bool fits_square{k}(PixelType type, int height) {{",
        f"    return fits<{nets}>(type, height);",
        "}",
        "",
        f"cudaError_t launch_square{k}(PixelType type, const PlanesArgs& a, std::uint8_t* whole_marks,",
        f"                            cudaStream_t stream) {{",
        f"    return launch<{nets}>(type, a, whole_marks, stream);",
        "}",
        "",
        "}  // namespace fastmedian::kernels::tiled",
        "",
    ])


def kernel_source(k, suffix, what, instances):
    """squareK_SUFFIX.cu: one pixel type's kernel of the k x k median at each of its warp counts."""
    return "\n".join(HEADER + [
        f"// The {k}x{k} median's kernel for {what}, at each warp count of its blocks (square{k}.cuh).",
        f"#include \"square{k}.cuh\"",
        "",
        "namespace fastmedian::kernels::tiled {",
        "",
        *instances,
        "",
        "}  // namespace fastmedian::kernels::tiled",
        "",
    ])


def arch_shared_lines():
    """kArchSharedPerBlock: the shared memory a block of the architecture the device code compiles
    for (__CUDA_ARCH__) may have under its policy, the newest entry at or below it (policy_for)."""
    entries = policy_limits()
    chain = [f"__CUDA_ARCH__ >= {10 * arch} ? {limit // 1024} * 1024" for arch, limit in reversed(entries[1:])]
    return ["#ifdef __CUDA_ARCH__",
            "// The shared memory a block may have under the policy of the architecture this device code",
            "// compiles for (kernels/gpu_policies.cpp; the newest entry at or below it, as policy_for). A",
            "// kernel whose block needs more is compiled without code here (median_tiled_kernel.cuh): no",
            "// GPU that runs this code launches it (TiledKernel::compiled_limit).",
            "constexpr std::size_t kArchSharedPerBlock =",
            *[f"    {c} :" for c in chain],
            f"    {entries[0][1] // 1024} * 1024;",
            "#endif",
            ""]


def squares_header():
    out = HEADER + [
        "// The square sizes with a tiled network (squareK.cu), and the dispatch by size.",
        "#pragma once",
        "",
        "#include <cstddef>",
        "#include <cstdint>",
        "",
        "#include <cuda_runtime_api.h>",
        "",
        "#include \"fastmedian/image.hpp\"",
        "#include \"median_args.cuh\"",
        "",
        "namespace fastmedian::kernels::tiled {",
        "",
        *arch_shared_lines(),
        f"// f32 squares from {WHOLE_FLOATS_FROM} up run the packed networks first on the blocks whose values all",
        "// are whole numbers 0..65535, marking each block of that launch in `whole_marks`; below, the",
        "// 32-bit keys alone (f32 3x3 runs near the identity kernel's speed, which 16-bit keys do not raise).",
        f"constexpr int kWholeFloatsFrom = {WHOLE_FLOATS_FROM};",
        "constexpr int kWholeMarkW = {}, kWholeMarkH = {};  // the smallest packed block".format(*min_packed_block()),
        "inline bool takes_whole_marks(int k, PixelType type) { return type == PixelType::f32 && k >= kWholeFloatsFrom; }",
        "inline std::size_t whole_marks_bytes(const PlanesArgs& a) {",
        "    return static_cast<std::size_t>((a.width + kWholeMarkW - 1) / kWholeMarkW) *",
        "           static_cast<std::size_t>((a.height + kWholeMarkH - 1) / kWholeMarkH) * static_cast<std::size_t>(a.planes);",
        "}",
        "",
    ]
    for k in PACKED_TILES:
        out += [f"bool fits_square{k}(PixelType type, int height);",
                f"cudaError_t launch_square{k}(PixelType type, const PlanesArgs& a, std::uint8_t* whole_marks,",
                f"                            cudaStream_t stream);"]
    out += ["", "// Whether a network serves the k x k square of `type` on planes of this height, its blocks",
            "// within the shared memory the GPU's policy allows.",
            "inline bool serves_square(int k, PixelType type, int height) {", "    switch (k) {"]
    out += [f"        case {k}: return fits_square{k}(type, height);" for k in PACKED_TILES]
    out += ["        default: return false;", "    }", "}", "",
            "// whole_marks: whole_marks_bytes(a) bytes of device memory where takes_whole_marks(k, type).",
            "inline cudaError_t launch_square(int k, PixelType type, const PlanesArgs& a, std::uint8_t* whole_marks,",
            "                                 cudaStream_t stream) {", "    switch (k) {"]
    out += [f"        case {k}: return launch_square{k}(type, a, whole_marks, stream);" for k in PACKED_TILES]
    out += ["        default: return cudaErrorInvalidValue;", "    }", "}", "",
            "}  // namespace fastmedian::kernels::tiled", ""]
    return "\n".join(out)


def generate():
    """{file name: text} of everything in OUT."""
    files, sources = {}, []
    for k in PACKED_TILES:
        files[f"square{k}.cuh"] = square_header(k)
        files[f"square{k}.cu"] = square_source(k)
        sources.append(f"square{k}.cu")
        for suffix, what, instances in kernel_files(k):
            files[f"square{k}_{suffix}.cu"] = kernel_source(k, suffix, what, instances)
            sources.append(f"square{k}_{suffix}.cu")
    files["squares.cuh"] = squares_header()
    files["sources.cmake"] = sources_cmake(NAME, "FASTMEDIAN_TILED_SOURCES", sources)
    return files


def write_variant(args):
    """--variant K [PWxPH SWxSH P,S] DIR: writes DIR/squareK.cu and DIR/squareK.cuh, the k x k
    median with its kernels in the one file, with those tiles and blocks per SM in place of the
    tables' (without them, the tables')."""
    def pair(name, text, sep):
        parts = text.split(sep)
        if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
            sys.exit(f"--variant: {name} must be two positive integers joined by '{sep}', not '{text}'")
        return tuple(map(int, parts))

    if len(args) not in (2, 5):
        sys.exit("usage: --variant K [PWxPH SWxSH P,S] DIR")
    k, *tiles, out = args
    if not k.isdigit() or int(k) not in PACKED_TILES:
        sys.exit(f"--variant: K must be one of {sorted(PACKED_TILES)}, not '{k}'")
    k = int(k)
    if tiles:
        packed, scalar, blocks = tiles
        PACKED_TILES[k] = pair("the packed tile", packed, "x")
        SCALAR_TILES[k] = pair("the 32-bit tile", scalar, "x")
        MIN_BLOCKS[k] = pair("the blocks per SM", blocks, ",")
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"square{k}.cuh").write_text(square_header(k, kernels_apart=False))
    (out / f"square{k}.cu").write_text(square_source(k))


def main(args, check):
    if args[:1] == ["--variant"]:
        write_variant(args[1:])
        return
    write_folder(OUT, generate(), check, NAME)
