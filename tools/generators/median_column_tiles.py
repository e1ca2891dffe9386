"""Generates kernels/generated/median_column_tiles.cuh: networks that compute T consecutive 1D
medians of a column at once for the separable median smoother (median_1d.cu), by the
hierarchical tiling of median_tiled.py (with the same Graph and Batcher merges) in one
dimension.

A network serves every odd window k from T - 1 to N. Output j (0 <= j < T) of a tile sees
slots j .. j + N - 1 of the tile's N + T - 1 input slots:
  - slots 0 .. T - 2: rows y0 - r .. y0 + T - 2 - r (below the outputs' shared rows);
  - slots T - 1 .. N - 1, the core that every output sees: first the k - T + 1 rows
    y0 + T - 1 - r .. y0 + r, then N - k pads, the smallest key for the first half and the
    largest for the second, which leave the median of the k rows at the window's middle rank;
  - slots N .. N + T - 2: rows y0 + r + 1 .. y0 + r + T - 1.
The network sorts the core, splits the outputs in halves, merges each half's extra slots
(sorted) into its parent's list, keeps the ranks that can still be the median, and recurses to
single outputs. A window of 65 with T = 32 costs 51 min/max an output, where keeping one sorted
window of 65 keys and sliding it a row costs about 260. Each network is checked against sorting
for every k it serves, on random, tie-heavy inputs, before it is written.
"""
import random
import sys

from .networks import Graph, keep_median_ranks
from .output import ROOT, header, write_file

NAME = "median_column_tiles"
OUT = ROOT / "kernels" / "generated" / "median_column_tiles.cuh"
# (window N, outputs T) of the networks, median_1d.cu choosing the smallest that serves k.
# Min/max an output: 1x1 0 (k = 1: the pixel), 7x4 9.5, 15x8 19.2, 33x16 34.6, 65x32 50.8,
# 129x32 93.7. For 65: 16 outputs cost 66.5 with half the live values and ran slower
# (docs/notebook/separable-h100-2026-11-24b.md); 64 outputs would cost 46.5 with twice as many.
NETWORKS = [(1, 1), (7, 4), (15, 8), (33, 16), (65, 32), (129, 32)]


def column_network(n, t):
    """The graph and the outputs [(j, value)] of a tile of t medians of windows of n slots."""
    g = Graph()
    memo = {}

    def sort(s0, s1):
        """Sorted list of slots s0..s1."""
        if s0 > s1:
            return []
        if (s0, s1) not in memo:
            if s0 == s1:
                memo[(s0, s1)] = [("in", s0, 0)]
            else:
                mid = (s0 + s1) // 2
                memo[(s0, s1)] = g.merge(sort(s0, mid), sort(mid + 1, s1))
        return memo[(s0, s1)]

    outputs = []

    def descend(j0, j1, values, count, m):
        # Outputs j0..j1, whose core is slots j1 .. j0 + n - 1.
        values, count, m = keep_median_ranks(values, count, m)
        if j0 == j1:
            assert len(values) == 1 and count == 1
            outputs.append((j0, values[0]))
            return
        mid = (j0 + j1) // 2
        descend(j0, mid, g.merge(values, sort(mid, j1 - 1)), count, m)  # slots below the core
        descend(mid + 1, j1, g.merge(values, sort(j0 + n, mid + n)), count, m)  # slots above

    descend(0, t - 1, sort(t - 1, n - 1), n, (n - 1) // 2)
    return g, outputs


def slots(n, t, k, rows, low, high):
    """The slots of a tile for window k over rows[0 .. k + t - 2], pads low and high."""
    x = {}
    for s in range(n + t - 1):
        if s < t - 1:
            x[s] = rows[s]
        elif s >= n:
            x[s] = rows[k + s - n]
        else:
            i = s - (t - 1)
            x[s] = rows[i + t - 1] if i < k - t + 1 else (low if i - (k - t + 1) < (n - k) // 2 else high)
    return x


def check(n, t, g, outputs, trials=60):
    """Runs the network for every k it serves on random inputs (many ties, wide ranges)."""
    rng = random.Random(n * 1000 + t)
    need = sorted(g.needed([v for _, v in outputs]))
    for k in range(t - 1 if t % 2 == 0 else t, n + 1, 2):
        for trial in range(trials):
            span = (2, 4, 1000)[trial % 3]
            rows = [rng.randrange(span) for _ in range(k + t - 1)]
            x = slots(n, t, k, rows, -1, span)
            get = g.evaluate(need, lambda v: x[v[1]])
            for j, v in outputs:
                if get(v) != sorted(rows[j:j + k])[(k - 1) // 2]:
                    sys.exit(f"window {n}, tile {t}, k = {k}: output {j} is wrong")


def emit(n, t):
    g, outputs = column_network(n, t)
    check(n, t, g, outputs)
    need = sorted(g.needed([v for _, v in outputs]))
    names, body = {}, []

    def name(v):
        if v[0] == "op":
            return names[v[1]]
        if v not in names:
            names[v] = f"x{v[1]}"
            body.append(f"        const std::uint32_t {names[v]} = in({v[1]});")
        return names[v]

    for i in need:
        kind, a, b = g.ops[i]
        sa, sb = name(a), name(b)
        names[i] = f"t{len(names)}"
        body.append(f"        const std::uint32_t {names[i]} = L::{kind}({sa}, {sb});")
    for j, v in outputs:
        body.append(f"        out({j}, {name(v)});")
    return [
        f"// {t} median{'s' * (t > 1)} of windows of up to {n} row{'s' * (n > 1)}: {len(need)} min/max "
        f"({len(need) / t:.1f} an output).",
        f"struct ColumnTile{n}x{t} {{",
        f"    static constexpr int kWindow = {n};",
        f"    static constexpr int kTile = {t};",
        "    // in(s): the key of slot s (0 <= s < kWindow + kTile - 1; see the generator);",
        "    // out(j, key): the median of output j.",
        "    template <class L, class In, class Out>",
        "    __device__ __forceinline__ static void run(const In& in, const Out& out) {",
        *body,
        "    }",
        "};",
        "",
    ]


def generate():
    out = header(NAME) + [
        "// Tiles of 1D medians down a column for the separable median smoother (median_1d.cu).",
        "#pragma once",
        "",
        "#include <cstdint>",
        "",
        "namespace fastmedian::kernels {",
        "",
    ]
    for n, t in NETWORKS:
        out += emit(n, t)
    out += ["}  // namespace fastmedian::kernels", ""]
    return "\n".join(out)


def main(args, check):
    write_file(OUT, generate(), check, NAME)
