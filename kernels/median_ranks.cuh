// Large windows on u16 and f32 planes through dense ranks. The distinct values of a plane (and
// the constant border's value) are numbered in order, 0 to D - 1; the plane's numbers are
// filtered by the u16 sliding histogram (median_histogram.cuh) and turned back into values.
// Numbering keeps the order, so the median of the numbers is the number of the median: the
// result is exact. What it buys: the histogram's bins then hold the values the plane has, not
// every value it could have (a time-lapse with 1712 levels spread over 0..65535, floats), so
// the median moves across far fewer bins and the fine histogram is rebuilt far less often.
// u16 planes number their values through a bitmap of the 65536 values; f32 planes sort their
// keys (CUB) and keep the distinct ones. An f32 plane with more than kMaxRanks distinct values
// numbers groups of 2^s consecutive ones instead (rank_group_shift): the histogram then finds
// the median's group, and median_refine (median_bisect.cuh) the median among the group's
// values. The choice is made on the device, so that nothing waits for the host.
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
// Wide windows on u16 planes: the dense ranks where a plane has at most 2048 distinct values
// (its median then moves over at most 4 coarse bins of the histogram, and rebuilds are rare), the
// tile ranks (median_tile_ranks.cuh) where it has more. Both are enqueued; each does nothing
// where the other serves, so that the choice, made on the device, waits for nothing. On the
// H200, k = 65: the shared 16-bit image (1712 values) 5.35 Gpix/s on the dense ranks, 3.1 on
// the tile ranks; full-range noise 0.63 and 3.1 (docs/notebook/tile-ranks-h200-2026-11-30.md).
std::size_t ranked_or_tiles_scratch_bytes_u16(const ColumnsWindow& window, int width, int height);
cudaError_t launch_median_ranked_or_tiles_u16(const PlanesArgs& planes, const ColumnsWindow& window, void* scratch,
                                              cudaStream_t stream);
cudaError_t launch_median_ranked_f32(const PlanesArgs& planes, const ColumnsWindow& window,
                                     const RunsWindow& fallback, void* scratch, cudaStream_t stream);

}  // namespace fastmedian::kernels
