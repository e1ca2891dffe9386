"""Generates native/src/networks/generated/temporal_networks.hpp: straight-line median selection networks for
the temporal median's small windows, N = 2..10 frames (rank (N-1)//2, the lower middle for even
N), shared by the CUDA kernel and the CPU backend.

Each network is the smallest of several candidates after pruning to what the rank-(N-1)//2
output needs (networks.select_network: values known to lie above or below the median become
+-inf, dead operations are dropped): Batcher's odd-even merge sort, and for
N = 5, 7, 9 the known minimal median networks (5 and 7 as in N. Devillard, "Fast median search:
an ANSI C implementation", 1998; 9 from A. Paeth, Graphics Gems, 1990: 7, 13 and 19
compare-exchanges). Each is checked against sorting on random, tie-heavy inputs before it is
written. The code calls L::lo / L::hi on values of type V, so one
network serves 32-bit keys on the GPU and vector lanes on the CPU.
"""
from .networks import check_selection, emit_selection, select_network
from .output import ROOT, header, write_file

NAME = "temporal_networks"
SIZES = range(2, 11)
MAX_NETWORK = SIZES[-1]
# Known median networks: compare-exchanges (i, j), min to wire i and max to wire j; the median
# ends on wire (n-1)//2.
KNOWN = {
    5: [(0, 1), (3, 4), (0, 3), (1, 4), (1, 2), (2, 3), (1, 2)],
    7: [(0, 5), (0, 3), (1, 6), (2, 4), (0, 1), (3, 5), (2, 6), (2, 3), (3, 6), (4, 5), (1, 4),
        (1, 3), (3, 4)],
    9: [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3), (5, 8),
        (4, 7), (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)],
}


def smallest_network(n):
    """The candidate network with the fewest min/max operations once pruned."""
    candidates = [select_network(n)]
    if n in KNOWN:
        candidates.append(select_network(n, KNOWN[n]))
    return min(candidates, key=lambda c: len(c[0]))


def emit(n, ops, result):
    return emit_selection(f"// Rank {(n - 1) // 2} of {n} values: {len(ops)} min/max operations.",
                          ["template <class L, class V>", f"FM_HD V median_of_frames_{n}(const V (&v)[{n}]) {{"],
                          "V", ops, result)


def main(args, check):
    out = header(NAME) + [
        "// Median selection networks for temporal windows of 2..10 frames (L supplies lo/hi,",
        "// min/max, on values of type V: GPU keys or CPU vector lanes).",
        "#pragma once", "", '#include "semantics/fm_hd.hpp"', "", "namespace fastmedian::kernels {", "",
        f"constexpr int kMaxFrameNetwork = {MAX_NETWORK};", ""]
    for n in SIZES:
        ops, result = smallest_network(n)
        check_selection(n, ops, result)
        out.append(emit(n, ops, result))
        print(f"n={n}: {len(ops)} min/max operations")
    out += ["// The network for N values.", "template <int N, class L, class V>",
            "FM_HD V median_of_frames(const V (&v)[N]) {"]
    for i, n in enumerate(SIZES):
        kw = "if" if i == 0 else "else if"
        out.append(f"    {kw} constexpr (N == {n}) return median_of_frames_{n}<L>(v);")
    out += ["    else return v[0];  // N == 1", "}", "", "}  // namespace fastmedian::kernels"]
    text = "\n".join(out) + "\n"
    write_file(ROOT / "native" / "src" / "networks" / "generated" / "temporal_networks.hpp", text, check, NAME)
