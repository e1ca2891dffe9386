// How the streaming medians (median3x3_stream.cu, median_stream_kernel.cuh) split a plane:
// blocks side by side, Win::kBlockCols output columns each (median_stream_kernel.cuh: a block's
// warps side by side, 120 columns each, lanes 1..30 four columns a lane), and rows of blocks
// down strips: `head` rows of blocks with strips of `first` rows, then rows of blocks with
// strips of `last` rows. A block takes two strips, one below the other: median_stream_kernel.cuh
// walks them at once, one in each half of its packed keys; median3x3_stream.cu as one strip.
// Blocks start in order, so the short strips run last and the GPU's last blocks end close
// together (median_stream_kernel.cuh starts its grid with the plane's very last strips, whose
// rows reach through the border). A window type (Win) gives kWarps, kBlockCols, kMinBlocks
// (blocks an SM), kMinStrip, kLastStrip and kLongStrip.
#pragma once

#include <algorithm>
#include <cstdint>

#include "median_args.cuh"

namespace fastmedian::kernels::stream {

constexpr int kWarpCols = 4 * 30;  // output columns of a warp of median_stream_kernel.cuh
constexpr int kWaves = 8;          // waves of blocks the grid aims at
// The grid's last 20% of rows of blocks in shorter strips, faster at 5x5, 7x7 and u8 3x3 than
// one strip height throughout (docs/notebook/gpu-median-h100-2026-11-26-overlap.md).
constexpr float kLastShare = 0.2f;
// Waves of blocks a grid keeps where its first strips are lengthened (Win::kLongStrip): u8 3x3
// strips of 6 rather than 4 rows ran faster at 4096^2 (3.9 waves) and slower at 2048^2, one
// wave so (docs/notebook/gpu-median-h100-2026-11-27-fma.md).
constexpr int kLongWaves = 3;

struct Strips {
    int first, head, last;  // rows (even)
    int rows;               // rows of blocks in all

    // Rows of a strip of the blocks' row `by`, and its first row.
    __device__ int rows_of(int by) const { return by < head ? first : last; }
    __device__ int first_row(int by) const {
        return by < head ? 2 * by * first : 2 * (head * first + (by - head) * last);
    }
};

// Blocks side by side across a plane, Win::kBlockCols output columns each.
template <class Win>
std::int64_t block_columns(const PlanesArgs& a) {
    return (a.width + Win::kBlockCols - 1) / Win::kBlockCols;
}

// The strips for planes of this height: a grid of about kWaves waves of the GPU's resident
// blocks, its last rows of blocks (kLastShare of the rows, at most 16384 rows of blocks) with
// strips of Win::kLastStrip rows; first strips lengthened up to Win::kLongStrip rows while the
// grid keeps kLongWaves waves.
template <class Win>
Strips strips_for(const PlanesArgs& a, int sms) {
    const std::int64_t resident = std::int64_t{sms} * Win::kMinBlocks, across = block_columns<Win>(a) * a.planes;
    const std::int64_t slots = std::max<std::int64_t>(1, resident * kWaves / across);
    Strips s{};
    s.last = Win::kLastStrip;
    const int last_rows = std::min(static_cast<int>(a.height * kLastShare), 16384 * 2 * s.last) / (2 * s.last) * (2 * s.last);
    auto with_first = [&](int first) {
        s.first = first;
        s.head = (a.height - last_rows + 2 * s.first - 1) / (2 * s.first);
        s.rows = s.head + std::max(0, (a.height - 2 * s.head * s.first + 2 * s.last - 1) / (2 * s.last));
    };
    const std::int64_t first = std::max<std::int64_t>(Win::kMinStrip, (a.height + 2 * slots - 1) / (2 * slots));
    with_first(static_cast<int>(first + first % 2));
    while (s.first < Win::kLongStrip) {
        const Strips shorter = s;
        with_first(s.first + 2);
        if (s.rows * across < kLongWaves * resident) {
            s = shorter;
            break;
        }
    }
    return s;
}

}  // namespace fastmedian::kernels::stream
