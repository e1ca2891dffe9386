// Sums over the lanes of a warp that keep one output together (the sliding histograms of
// median_histogram.cu and the tile ranks of median_tile_ranks.cu: kLanes consecutive lanes an
// output, every lane of the warp calling).
#pragma once

namespace fastmedian::kernels {

// The sum of v over the lanes of this thread's output.
template <int kLanes>
__device__ __forceinline__ int lanes_sum(int v) {
    for (int s = 1; s < kLanes; s <<= 1) v += __shfl_xor_sync(~0u, v, s);
    return v;
}

// The sum of v over this lane and the lanes of its output before it.
template <int kLanes>
__device__ __forceinline__ int lanes_prefix(int v, int lane) {
    for (int d = 1; d < kLanes; d <<= 1) {
        const int t = __shfl_up_sync(~0u, v, d, kLanes);
        if (lane >= d) v += t;
    }
    return v;
}

}  // namespace fastmedian::kernels
