// The generic CUDA median: one thread per output pixel finds the window's middle value by
// bisection over order keys (count keys <= mid, halve the key range). Exact for every window,
// type and border, and memory-free, but slow: log2(key range) passes over the window. The
// dispatcher uses it where no faster kernel applies. The same thread-per-output counting also
// finishes the ranked path's floats with more values than ranks (median_refine_f32).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "median_args.cuh"

namespace fastmedian::kernels {

cudaError_t launch_median_bisect_u8(const PlanesArgs& planes, const RunsWindow& window,
                                    cudaStream_t stream);
cudaError_t launch_median_bisect_u16(const PlanesArgs& planes, const RunsWindow& window,
                                     cudaStream_t stream);
cudaError_t launch_median_bisect_f32(const PlanesArgs& planes, const RunsWindow& window,
                                     cudaStream_t stream);

// The ranked path's last step for an f32 plane of more than kMaxRanks distinct values (it does
// nothing on others): `info` = {distinct values D, ...}, `groups` (rows `pitch` bytes apart)
// each output's median group of 2^s ranks (rank_group_shift(D)), `values` the D sorted distinct
// keys (median_ranks.cuh). Each output's median is the key of its rank among the window's keys
// in that group: counted and gathered in one pass over the window where the group holds few of
// them, else by bisection over the group's 2^s values.
cudaError_t launch_median_refine_f32(const PlanesArgs& plane, const RunsWindow& window,
                                     const std::uint32_t* info, const std::uint16_t* groups,
                                     std::int64_t pitch, const std::uint32_t* values,
                                     cudaStream_t stream);

}  // namespace fastmedian::kernels
