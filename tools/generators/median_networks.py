"""Generates kernels/generated/median_networks.cuh (the CUDA kernels' networks): straight-line
median selection networks, and the window masks they serve.

Padded sizes: the 3D windows without a tiled network (median3d_padded.cu) gather their n keys
and pad them to the next of PADDED_SIZES with as many keys below every key as above (n is odd
for every centred window, so the pad is even), whose median is the window's.

Masks: ImageJ's circles (RankFilters' "line radii") of radius 4 to 6, each as rows of centred
runs; smaller circles use the sorted-column networks of median_column_networks.py and squares
the tiled networks of median_tiled.py. For each pixel count n it runs Batcher's odd-even merge
sort on n wires symbolically (networks.select_network) and keeps only what the median (rank m = (n-1)/2) needs:
- every value carries the inputs known to be <= it and >= it; a value with at least m+2 inputs
  below it cannot be the median and never decides it, so it becomes +inf (with at least n-m+1
  above it, -inf), and compare-exchanges against +-inf cost nothing (Adams 2021's pruning);
- only operations that the median wire depends on are written.
Ties do not break this: the network then selects the rank-m element of a multiset whose
elements above (below) the median were only moved further up (down). Every network is checked
against sorting on random, tie-heavy inputs before it is written. The code calls L::lo / L::hi,
so one network serves 32-bit keys and packed u16x2 lanes.
"""
from .networks import check_selection, emit_selection, select_network
from .output import ROOT, header, write_file
from .windows import imagej_circle

NAME = "median_networks"
CIRCLE_RADII = (4, 4.5, 5, 5.5, 6)  # ImageJ masks of 57 to 121 pixels
# Sizes the padded 3D kernel pads to: a window of n keys runs the first size >= n. The circles'
# sizes, which the header holds anyway, two smaller steps so that small windows pad little (box
# 3x3x3 is 27 keys, box 5x3x3 45) and two larger ones; at 169 keys a thread takes 229 registers
# (u16, sm_90) without spilling, near the 255 it may have.
PADDED_SIZES = (27, 45, 57, 69, 89, 97, 121, 145, 169)


def masks():
    """(name, half widths) of every mask the network kernel serves."""
    return [(f"Circle{str(r).replace('.', 'p')}", imagej_circle(r)) for r in CIRCLE_RADII]


def emit(n, ops, result):
    return emit_selection(
        f"// Median (rank {(n - 1) // 2}) of {n} keys: {len(ops)} min/max operations.",
        ["template <class L>",
         f"__device__ __forceinline__ std::uint32_t median_of_{n}(const std::uint32_t (&v)[{n}]) {{"],
        "std::uint32_t", ops, result)


def emit_masks(all_masks):
    lines = ["// The window masks: rows of centred runs, row dy covering dx in [-half, +half]."]
    for name, half in all_masks:
        lines += [f"struct {name} {{",
                  f"    static constexpr int kRadius = {len(half) // 2};",
                  f"    static constexpr int kCount = {sum(2 * h + 1 for h in half)};",
                  "    __host__ __device__ static constexpr int half_width(int row) {",
                  "        return " + " : ".join(f"row == {r} ? {h}" for r, h in enumerate(half[:-1]))
                  + (" : " if len(half) > 1 else "") + f"{half[-1]};",
                  "    }",
                  "};"]
    lines += ["", "// Calls visit(Mask{}) for mask `index` (as find_network_mask numbers them).",
              "template <class Visit>",
              "auto visit_network_mask(int index, Visit&& visit) {",
              "    switch (index) {"]
    for i, (name, _) in enumerate(all_masks[:-1]):
        lines.append(f"        case {i}: return visit({name}{{}});")
    lines += [f"        default: return visit({all_masks[-1][0]}{{}});", "    }", "}", "",
              "// The index of the mask with these half widths, or -1.",
              "inline int find_network_mask(const int* half_width, int rows) {"]
    for i, (name, half) in enumerate(all_masks):
        cond = " && ".join(f"half_width[{r}] == {h}" for r, h in enumerate(half))
        lines.append(f"    if (rows == {len(half)} && {cond}) return {i};  // {name}")
    lines += ["    return -1;", "}", ""]
    return "\n".join(lines)


def main(args, check):
    out = header(NAME) + [
        "// Median selection networks on order keys (L supplies lo/hi, min/max, for the lane",
        "// layout: 32-bit keys or packed u16x2) and the window masks they serve.",
        "#pragma once", "", "#include <cstdint>", "", "namespace fastmedian::kernels {", ""]
    all_masks = masks()
    sizes = sorted({sum(2 * h + 1 for h in half) for _, half in all_masks} | set(PADDED_SIZES))
    for n in sizes:
        ops, result = select_network(n)
        check_selection(n, ops, result)
        out.append(emit(n, ops, result))
        print(f"n={n}: {len(ops)} min/max operations")
    out.append("// The network for n keys.")
    out.append("template <int N, class L>")
    out.append("__device__ __forceinline__ std::uint32_t median_of(const std::uint32_t (&v)[N]) {")
    for i, n in enumerate(sizes):
        kw = "if" if i == 0 else "else if"
        out.append(f"    {kw} constexpr (N == {n}) return median_of_{n}<L>(v);")
    out.append("    else static_assert(N < 0, \"no network for this many keys\");")
    out += ["}", ""]
    out += ["// The sizes the padded 3D kernel pads a window's keys to, ascending.",
            "constexpr int kPaddedSizes[] = {" + ", ".join(map(str, PADDED_SIZES)) + "};", ""]
    out.append(emit_masks(all_masks))
    out.append("}  // namespace fastmedian::kernels")
    text = "\n".join(out) + "\n"
    write_file(ROOT / "kernels" / "generated" / "median_networks.cuh", text, check, NAME)
