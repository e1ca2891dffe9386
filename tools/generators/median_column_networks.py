"""Generates native/src/networks/generated/median_column_networks.hpp: exact selection networks over sorted
columns for small windows, shared by the CPU backend and the CUDA kernels (host-device code).

A window is taken as columns of centred vertical runs. The CPU backend sorts every column once
per output row (shared by all outputs whose window contains it), so each output only has to
select the median from already sorted columns: it sorts each rank row across the columns,
drops the values that provably cannot be the median, and sorts what is left with Batcher's
odd-even merge sort. Throughout, the 0-1 state of every wire is tracked over every input whose
columns are sorted (by the 0-1 principle this covers every real input), so that:
  - comparators that can never swap are left out, and values are dropped only when proven;
  - comparators that do not feed the median wire are left out, and a comparator whose max (or
    min) is unused keeps only its min (or max).
The windows are the squares 1..7 and every ImageJ circle whose radius is at most 3.
"""
import math

from .networks import batcher
from .output import ROOT, header, write_file
from .windows import imagej_circle_r2, square

NAME = "median_column_networks"
OUT = ROOT / "native" / "src" / "networks" / "generated" / "median_column_networks.hpp"


def column_heights(hw):
    """Heights of the centred vertical runs, one per dx; the window must be convex."""
    ry, rx = len(hw) // 2, max(hw)
    heights = []
    for dx in range(-rx, rx + 1):
        dys = [dy for dy in range(-ry, ry + 1) if abs(dx) <= hw[dy + ry]]
        half = max(abs(d) for d in dys)
        assert dys == list(range(-half, half + 1)), "column runs must be centred"
        heights.append(2 * half + 1)
    return heights


def repeat_bits(pattern, length, times):
    """`pattern` (length bits) repeated `times` times."""
    return pattern * (((1 << (length * times)) - 1) // ((1 << length) - 1))


def sorted_column_inputs(heights):
    """Per wire, the bitset over all inputs whose columns are sorted 0-1 sequences."""
    total = math.prod(h + 1 for h in heights)
    wires, stride = [], 1
    for h in heights:
        radix = h + 1
        block = stride * radix
        for i in range(h):  # ascending wire i is 1 when the column holds more than h-1-i ones
            ones_needed = h - i
            pattern = ((1 << block) - 1) ^ ((1 << (ones_needed * stride)) - 1)
            wires.append(repeat_bits(pattern, block, total // block))
        stride = block
    return wires, (1 << total) - 1


class Network:
    """Comparators over wires whose 0-1 states (bitsets over all inputs) are tracked, so that a
    comparator that can never swap is left out."""

    def __init__(self, inputs, all_ones):
        self.state, self.ones, self.ops = list(inputs), all_ones, []

    def always_le(self, a, b):
        return self.state[a] & ~self.state[b] & self.ones == 0

    def sort(self, wires):
        """Batcher's network over `wires` (padded with +inf wires); the k-th smallest ends on
        wires[k]."""
        wires = list(wires)
        n = 1 << max(0, (len(wires) - 1).bit_length())
        while len(wires) < n:
            self.state.append(self.ones)
            wires.append(len(self.state) - 1)
        for i, j in batcher(n):
            a, b = wires[i], wires[j]
            if self.always_le(a, b):
                continue
            self.state[a], self.state[b] = self.state[a] & self.state[b], self.state[a] | self.state[b]
            self.ops.append((a, b))

    def eliminate(self, wires, rank):
        """Drops wires that provably sit above or below the wanted rank (each drop is justified
        on the wires left, one at a time); returns the wires left and the rank among them."""
        wires = list(wires)
        changed = True
        while changed:
            changed = False
            for w in list(wires):
                below = sum(1 for v in wires if v != w and self.always_le(v, w))
                above = sum(1 for v in wires if v != w and self.always_le(w, v))
                if below >= rank + 1 or above >= len(wires) - rank:
                    rank -= above >= len(wires) - rank and below < rank + 1
                    wires.remove(w)
                    changed = True
        return wires, rank

    def pruned(self, outputs):
        """The comparators feeding `outputs`, as (i, j, need_min, need_max) in forward order."""
        needed, ops = set(outputs), []
        for i, j in reversed(self.ops):
            need_min, need_max = i in needed, j in needed
            if need_min or need_max:
                needed |= {i, j}
                ops.append((i, j, need_min, need_max))
        ops.reverse()
        return ops


def cost(ops):
    return sum(int(a) + int(b) for _, _, a, b in ops)


def selection_network(heights, align, diagonal_order):
    """Median of sorted columns: sort each rank row across the columns (rows aligned at the
    column centres or bottoms), drop the values that cannot be the median, sort the rest."""
    inputs, ones = sorted_column_inputs(heights)
    net = Network(inputs, ones)
    where, w = {}, 0
    for c, h in enumerate(heights):
        for i in range(h):
            where[w] = (c, i)
            w += 1
    index = {v: k for k, v in where.items()}
    tallest = max(heights)
    for r in range(tallest):
        row = []
        for c, h in enumerate(heights):
            i = r - (tallest - h) // 2 if align == "centre" else r
            if 0 <= i < h:
                row.append(index[(c, i)])
        if len(row) > 1:
            net.sort(row)
    left, rank = net.eliminate(range(w), (w - 1) // 2)
    if diagonal_order:
        left.sort(key=lambda v: (sum(where[v]), where[v]))
    net.sort(left)
    return net.pruned([left[rank]]), left[rank]


def sort_network(h):
    """Full sorting network for h values."""
    inputs = [sum(1 << x for x in range(1 << h) if (x >> w) & 1) for w in range(h)]
    net = Network(inputs, (1 << (1 << h)) - 1)
    net.sort(range(h))
    return net.pruned(range(h))


def emit_sort(h):
    ops = sort_network(h)
    lines = [f"// Sorts {h} values ascending with {len(ops)} compare-exchanges.",
             "template <>", f"struct SortColumn<{h}> {{", "    template <class V>",
             "    FM_HD static void apply(V* v) {"]
    for i, j, _, _ in ops:
        lines.append(f"        {{ const V lo = V::min(v[{i}], v[{j}]); "
                     f"v[{j}] = V::max(v[{i}], v[{j}]); v[{i}] = lo; }}")
    if not ops:
        lines.append("        (void)v;")
    lines += ["    }", "};"]
    return lines


def emit_median(name, hw):
    heights = column_heights(hw)
    n = sum(heights)
    ops, out = min((selection_network(heights, align, diagonal)
                    for align in ("centre", "bottom") for diagonal in (False, True)),
                   key=lambda network: cost(network[0]))
    wire_src = [(c, i) for c, h in enumerate(heights) for i in range(h)]
    current = {}  # wire -> expression name
    body = []

    def value(w):
        if w not in current:
            c, i = wire_src[w]
            current[w] = f"c{c}_{i}"
            body.append(f"        const V c{c}_{i} = in({c}, {i});")
        return current[w]

    for t, (i, j, need_min, need_max) in enumerate(ops):
        a, b = value(i), value(j)
        if need_min:
            body.append(f"        const V lo{t} = V::min({a}, {b});")
        if need_max:
            body.append(f"        const V hi{t} = V::max({a}, {b});")
        if need_min:
            current[i] = f"lo{t}"
        if need_max:
            current[j] = f"hi{t}"
    result = value(out)
    minmax = cost(ops)
    ry, rx = len(hw) // 2, max(hw)
    lines = [
        f"// {n} pixels, half widths {{{', '.join(map(str, hw))}}}: {minmax} min/max per output.",
        f"struct {name} {{",
        f"    static constexpr int kRadiusY = {ry};",
        f"    static constexpr int kRadiusX = {rx};",
        f"    static constexpr int kHalfWidth[{len(hw)}] = {{{', '.join(map(str, hw))}}};",
        f"    static constexpr int kColumnHeight[{len(heights)}] = "
        f"{{{', '.join(map(str, heights))}}};",
        "    // kColumnHeight[c], for device code (which cannot read static member arrays).",
        "    FM_HD static constexpr int column_height([[maybe_unused]] int c) {",
        "        return " + "".join(f"c == {c} ? {h} : " for c, h in enumerate(heights[:-1]))
        + f"{heights[-1]};",
        "    }",
        "    // in(c, i): the i-th smallest value of sorted column c (dx = c - kRadiusX).",
        "    template <class V, class In>",
        "    FM_HD static V median(const In& in) {",
        *body,
        f"        return {result};",
        "    }",
        "};",
    ]
    return lines, heights


def windows():
    seen, result = set(), []
    for k in (1, 3, 5, 7):
        seen.add(tuple(square(k)))
        result.append((f"Square{k}", square(k)))
    for r2 in range(1, 16):  # circles with kRadius <= 3
        hw = imagej_circle_r2(r2)
        if tuple(hw) not in seen:
            seen.add(tuple(hw))
            result.append((f"Circle{sum(2 * w + 1 for w in hw)}", hw))
    return result


def generate():
    out = header(NAME) + [
        "// Sorting networks for columns and pruned median-selection networks over sorted",
        "// columns, written for any lane type V with static V::min and V::max, on the host and",
        "// on CUDA devices.",
        "#pragma once",
        "",
        "#include \"semantics/fm_hd.hpp\"",
        "",
        "namespace fastmedian::kernels::networks {",
        "",
    ]
    medians, heights = [], set()
    for name, hw in windows():
        lines, hs = emit_median(name, hw)
        medians += lines + [""]
        heights |= set(hs)
    out += ["// SortColumn<H>::apply(v) sorts v[0..H) ascending.", "template <int H>",
            "struct SortColumn;", ""]
    for h in sorted(heights):
        out += emit_sort(h) + [""]
    out += medians
    out += [
        "// Calls f(Net{}) with the network for half widths hw[0..rows) and returns true, or",
        "// returns false when no network is generated for that window.",
        "template <class F>",
        "bool with_network(const int* hw, int rows, F&& f) {",
        "    auto same = [&](const int* want, int n) {",
        "        if (n != rows) return false;",
        "        for (int i = 0; i < n; ++i)",
        "            if (hw[i] != want[i]) return false;",
        "        return true;",
        "    };",
    ]
    for name, hw in windows():
        out.append(f"    if (same({name}::kHalfWidth, {len(hw)})) return f({name}{{}}), true;")
    out += ["    return false;", "}", "", "}  // namespace fastmedian::kernels::networks", ""]
    return "\n".join(out)


def main(args, check):
    write_file(OUT, generate(), check, NAME)
