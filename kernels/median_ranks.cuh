// Large windows on u16 and f32 planes through dense ranks. The distinct values of a plane (and
// the constant border's value) are numbered in order, 0 to D - 1; the plane's numbers are
// filtered by the u16 sliding histogram (median_histogram.cuh) and turned back into values.
// Numbering keeps the order, so the median of the numbers is the number of the median: the
// result is exact. What it buys: the histogram's bins then hold the values the plane has, not
// every value it could have (a time-lapse with 1712 levels spread over 0..65535, floats), so
// the median moves across far fewer bins and the fine histogram is rebuilt far less often.
// u16 planes number their values through a bitmap of the 65536 values (as do f32 planes of whole
// numbers where the tile ranks take the others); f32 planes sort their keys (CUB) and keep the
// distinct ones. An f32 plane with more than kMaxRanks distinct values numbers groups of 2^s
// consecutive ones instead (rank_group_shift): the histogram then finds the median's group, and
// median_refine (median_bisect.cuh) the median among the group's values. The choice is made
// on the device, so that nothing waits for the host.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "median_args.cuh"
#include "median_histogram.cuh"

namespace fastmedian::kernels {

// The device scratch the median of one plane of width x height needs, in bytes.
std::size_t ranked_scratch_bytes_u16(int width, int height);
std::size_t ranked_scratch_bytes_f32(int width, int height);

// Enqueues the median of each plane of `planes` in turn; `scratch` holds the bytes above.
// `fallback` is the window as rows, for median_refine (planes of more than kMaxRanks values).
cudaError_t launch_median_ranked_u16(const PlanesArgs& planes, const ColumnsWindow& window,
                                     void* scratch, cudaStream_t stream);
cudaError_t launch_median_ranked_f32(const PlanesArgs& planes, const ColumnsWindow& window,
                                     const RunsWindow& fallback, void* scratch, cudaStream_t stream);

// Wide windows: the dense ranks where a plane has at most most_dense_values distinct values,
// the tile ranks (median_tile_ranks.cuh) where it has more. The dense ranks' cost grows with
// how far the median moves, which the values' count bounds: the GPU policy's steps (wider
// windows, more values) are where even noise of that many values runs faster on them. f32
// planes keep the dense ranks only where their values are whole numbers 0..65535 (8- and 16-bit
// images made 32-bit), numbered as u16 values are, without a sort. Both paths are enqueued;
// each does nothing where the other serves, so that the choice, made on the device, waits for
// nothing.
//
// The most distinct values a plane may have to keep the dense ranks for `window` (0: none may;
// gpu_policy.hpp, DenseRanksStep).
unsigned most_dense_values(const ColumnsWindow& window);
// The scratch of the launches below.
std::size_t ranked_or_tiles_scratch_bytes(int key_bytes, const ColumnsWindow& window, int width, int height);
// A row's share of that in a tall plane, for the plane pipeline's cuts.
std::size_t ranked_or_tiles_row_bytes(int key_bytes, const ColumnsWindow& window, int width);
cudaError_t launch_median_ranked_or_tiles_u16(const PlanesArgs& planes, const ColumnsWindow& window, void* scratch,
                                              cudaStream_t stream);
cudaError_t launch_median_ranked_or_tiles_f32(const PlanesArgs& planes, const ColumnsWindow& window, void* scratch,
                                              cudaStream_t stream);

}  // namespace fastmedian::kernels
