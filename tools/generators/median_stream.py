"""Generates kernels/generated/median_stream/: the networks of the streaming 5x5 and 7x7
medians (kernels/median_stream.cuh), where a lane walks down the image four output columns wide
and the lanes of a warp share their sorted columns and merged pairs of columns by shuffle.

The networks, all Batcher merges (networks.Graph) with what no output needs left out:
  - the columns: a lane sorts each of its columns' k rows for two output rows at a time, the
    k - 1 rows both share once (from sorted pairs carried from the last steps and a new pair),
    then each output row's last value inserted;
  - pair: two sorted columns merged. A lane merges pairs of its own columns (and, for 5x5, its
    column 3 with the right lane's column 0); the lanes beside it take those it shares;
  - the row: the four medians of output columns 0..3 from the sorted columns and the pairs, by
    hierarchical tiling along the row (the tiled generator's, with the columns given sorted):
    the four outputs share the columns in the middle, each half of them a further pair, each
    output one more column. 5x5: 112 min/max for four outputs, 53 an output pair with the
    columns and pairs, against 554 / 8 = 69 for the tiled kernel's 4x2 tile; 7x7: 300, 118
    against 148.
Every network is checked against sorting on random, tie-heavy inputs before it is written.
"""
import random
import sys

from .networks import Graph, fma_maxes, keep_median_ranks
from .output import ROOT, header, write_folder

NAME = "median_stream"
OUT = ROOT / "kernels" / "generated" / "median_stream"
TW = 4       # output columns of a lane: one word of four pixels
# The share of exchanges whose max the packed lanes take to the FMA pipe (as
# median_tiled.FMA_SHARES): 5x5 ran faster at half; 7x7 lost at half and at a quarter
# (docs/notebook/gpu-median-h100-2026-11-27-fma.md).
FMA_SHARES = {5: 0.5, 7: 0}
# Window -> the pairs of columns (tile indices, the lane's own columns at k // 2 .. k // 2 + 3)
# the row network takes merged, by name.
PAIRS = {5: {"p12": (1, 2), "p34": (3, 4), "p56": (5, 6)},
         7: {"p12": (1, 2), "p34": (3, 4), "p56": (5, 6), "p78": (7, 8)}}


def row_network(K):
    """The graph and outputs [(x, value)] of the row's medians: inputs ("c", col, rank) for the
    sorted columns and ("p", name, rank) for the merged pairs (rectangles of more columns are
    merged from them)."""
    g = Graph()
    by_cols = {cols: name for name, cols in PAIRS[K].items()}
    memo = {}

    def rect(c0, c1):
        if c0 == c1:
            return [("c", c0, r) for r in range(K)]
        if (c0, c1) in by_cols:
            return [("p", by_cols[(c0, c1)], r) for r in range(2 * K)]
        if (c1 - c0) % 2 == 0:
            sys.exit(f"the row network needs columns {c0}..{c1} merged, which no pairs give")
        if (c0, c1) not in memo:
            mid = c0 + (c1 - c0 + 1) // 2 // 2 * 2 - 1
            memo[(c0, c1)] = g.merge(rect(c0, mid), rect(mid + 1, c1))
        return memo[(c0, c1)]

    outputs = []

    def descend(x0, x1, values, n, m):
        values, n, m = keep_median_ranks(values, n, m)
        if x0 == x1:
            assert len(values) == 1 and n == 1
            outputs.append((x0, values[0]))
            return
        core0, core1 = x1, x0 + K - 1
        mid = (x0 + x1) // 2
        for hx0, hx1 in ((x0, mid), (mid + 1, x1)):
            c0, c1 = hx1, hx0 + K - 1
            strip = rect(c0, core0 - 1) if c0 < core0 else rect(core1 + 1, c1)
            descend(hx0, hx1, g.merge(values, strip), n, m)

    descend(0, TW - 1, rect(TW - 1, K - 1), K * K, (K * K - 1) // 2)
    return g, outputs


def check_row(K, g, outputs, trials=300):
    COLS = TW + K - 1
    rng = random.Random(K)
    need = sorted(g.needed([v for _, v in outputs]))
    for trial in range(trials):
        span = (2, 3, 1000)[trial % 3]
        x = [[rng.randrange(span) for _ in range(K)] for _ in range(COLS)]
        inputs = {}
        for c in range(COLS):
            for r, v in enumerate(sorted(x[c])):
                inputs[("c", c, r)] = v
        for name, (c0, c1) in PAIRS[K].items():
            for r, v in enumerate(sorted(x[c0] + x[c1])):
                inputs[("p", name, r)] = v
        get = g.evaluate(need, inputs.__getitem__)
        for ox, v in outputs:
            window = sorted(sum(x[ox:ox + K], []))
            if get(v) != window[(K * K - 1) // 2]:
                sys.exit(f"row network: output {ox} is wrong")


def check_sorts(g, inputs, outputs, trials=300):
    """A sorting network over named inputs: its outputs are the inputs sorted (inputs given as
    lists that must be sorted on entry)."""
    rng = random.Random(len(outputs))
    need = sorted(g.needed(outputs))
    for trial in range(trials):
        span = (2, 3, 1000)[trial % 3]
        given = {}
        for group in inputs:
            for v, s in zip(group, sorted(rng.randrange(span) for _ in group)):
                given[v] = s
        get = g.evaluate(need, given.__getitem__)
        if [get(v) for v in outputs] != sorted(given.values()):
            sys.exit("a column network does not sort")


def function(name, doc, params, g, results, fmt_input, share):
    """A device function computing the graph's results into reference outputs."""
    need = sorted(g.needed([v for _, v in results]))
    names = {}

    def ref(v):
        return names[v[1]] if v[0] == "op" else fmt_input(v)

    body = []
    on_fma = fma_maxes(g, need, share)
    for i in need:
        kind, a, b = g.ops[i]
        names[i] = f"t{len(names)}"
        value = f"L::hi_given_lo({ref(a)}, {ref(b)}, {names[i - 1]})" if i in on_fma else f"L::{kind}({ref(a)}, {ref(b)})"
        body.append(f"        const std::uint32_t {names[i]} = {value};")
    body += [f"        {target} = {ref(v)};" for target, v in results]
    sums = f" ({len(on_fma)} maxes given the min, on the FMA pipe for packed lanes)" if on_fma else ""
    return [f"    // {doc} {len(need)} min/max{sums}.",
            f"    __device__ __forceinline__ static void {name}({params}) {{", *body, "    }", ""]


def merged(name, doc, a, b, out, share):
    """The device function merging the sorted lists a and b, each (name, length; 0 for one
    value passed as a scalar), into the array `out`."""
    g = Graph()
    lists = [[(n, i) for i in range(max(k, 1))] for n, k in (a, b)]
    s = g.merge(*lists)
    check_sorts(g, lists, s)
    scalars = {n for n, k in (a, b) if k == 0}

    def param(n, k):
        return f"std::uint32_t {n}" if k == 0 else f"const std::uint32_t (&{n})[{k}]"

    return function(name, doc, f"{param(*a)}, {param(*b)}, std::uint32_t (&{out})[{len(s)}]",
                    g, [(f"{out}[{i}]", v) for i, v in enumerate(s)],
                    lambda v: v[0] if v[0] in scalars else f"{v[0]}[{v[1]}]", share)


def networks_header(K):
    COLS = TW + K - 1
    share = FMA_SHARES[K]
    out = header(NAME) + [
        f"// The networks of the streaming {K}x{K} median (median{K}x{K}_stream.cu), over packed or 32-bit",
        "// lanes (median_lanes.cuh); see the generator for how they fit together.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        f"namespace fastmedian::kernels::stream{K} {{",
        "",
        "template <class L>",
        "struct Network {",
    ]
    out += merged("sort2", "Rows a, b as a sorted pair:", ("a", 0), ("b", 0), "s", share)
    out += merged("core4", "The sorted pairs p, q merged:", ("p", 2), ("q", 2), "s", share)
    if K == 7:  # the six rows two output rows share: four carried sorted, two new
        out += merged("core6", "The sorted four q and pair p merged:", ("q", 4), ("p", 2), "s", share)
    out += merged("insert", f"v inserted into the sorted {K - 1}:", ("v", 0), ("s", K - 1), "c", share)
    out += merged("pair", "Sorted columns c, d merged:", ("c", K), ("d", K), "p", share)
    # The row's medians.
    g, outputs = row_network(K)
    check_row(K, g, outputs)
    pairs = PAIRS[K]
    pair_params = ", ".join(f"const std::uint32_t (&{name})[{2 * K}]" for name in pairs)
    pair_cols = ", ".join(f"{c0}..{c1}" for c0, c1 in pairs.values())
    out += function("medians", f"The medians of output columns 0..{TW - 1} from the sorted columns c[0..{COLS - 1}] "
                    f"(columns -{K // 2}..{TW + K // 2 - 1}; only those outside the pairs are read) and the pairs "
                    f"{', '.join(pairs)} (columns {pair_cols} of c merged):",
                    f"const std::uint32_t (&c)[{COLS}][{K}], {pair_params}, std::uint32_t (&m)[{TW}]",
                    g, [(f"m[{x}]", v) for x, v in outputs],
                    lambda v: f"c[{v[1]}][{v[2]}]" if v[0] == "c" else f"{v[1]}[{v[2]}]", share)
    out += ["};", "", f"}}  // namespace fastmedian::kernels::stream{K}", ""]
    return "\n".join(out)


def main(args, check):
    write_folder(OUT, {f"network{k}.cuh": networks_header(k) for k in PAIRS}, check, NAME)
