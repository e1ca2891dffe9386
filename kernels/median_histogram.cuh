// Large windows on u8 and u16 images: Huang's sliding histogram, down the columns. Each output
// column has one histogram in shared memory, kept by four threads that split the window's
// columns, for a band of rows: moving one row down removes the top pixel of every window
// column and adds the one below its bottom, and the median is tracked from the last one.
// u16 keys keep the counts below and in a span of 256 or 512 keys that holds the median, and a
// histogram of the span's keys, rebuilt from the window when the median leaves the span (which
// then moves half its length, or a whole one where the median left it the same way last).
// Serves any window of rows of centred runs whose pixel count fits 16-bit counts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "median_args.cuh"
#include "semantics/fm_hd.hpp"

namespace fastmedian::kernels {

// The window by columns: column dx (from -radius_x to radius_x) covers
// dy in [-half_height[dx + radius_x], +half_height[...]].
struct ColumnsWindow {
    static constexpr int kMaxColumns = 1023;
    int radius_x;
    int rank;
    int half_height[kMaxColumns];
};

// Every column of the window as tall?
inline bool columns_square(const ColumnsWindow& w) {
    for (int i = 1; i <= 2 * w.radius_x; ++i)
        if (w.half_height[i] != w.half_height[0]) return false;
    return true;
}

constexpr int kHistogramMaxCount = 65535;
// Dense ranks (median_ranks.cuh) are u16 keys: at most this many distinct values.
constexpr std::uint32_t kMaxRanks = 65536;

// A plane of `count` distinct values numbers groups of 2^shift consecutive ranks (rank >> shift):
// the smallest shift that leaves at most kMaxRanks groups.
FM_HD int rank_group_shift(std::uint32_t count) {
    int shift = 0;
    while (count > 0 && ((count - 1) >> shift) >= kMaxRanks) ++shift;
    return shift;
}

cudaError_t launch_median_histogram_u8(const PlanesArgs& planes, const ColumnsWindow& window,
                                       cudaStream_t stream);
// `ranked` (device memory, or nullptr): {distinct values, rank of the constant border's value,
// nonzero to do nothing} for keys that are dense ranks (or groups of them, median_ranks.cuh);
// the kernel reads the border's key from there.
cudaError_t launch_median_histogram_u16(const PlanesArgs& planes, const ColumnsWindow& window,
                                        cudaStream_t stream, const std::uint32_t* ranked = nullptr);

}  // namespace fastmedian::kernels
