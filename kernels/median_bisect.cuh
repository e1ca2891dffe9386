// The generic CUDA median: one thread per output pixel finds the window's middle value by
// bisection over order keys (count keys <= mid, halve the key range). Exact for every window,
// type and border, and memory-free, but slow: log2(key range) passes over the window. The
// dispatcher uses it where no faster kernel applies.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "median_args.cuh"

namespace fastmedian::kernels {

cudaError_t launch_median_bisect_u8(const PlanesArgs& planes, const RunsWindow& window,
                                    cudaStream_t stream);
cudaError_t launch_median_bisect_u16(const PlanesArgs& planes, const RunsWindow& window,
                                     cudaStream_t stream);
// `ranked` (device memory, or nullptr): the ranked path's {distinct values, ...}
// (median_ranks.cuh); the kernel then runs only on a plane the ranks could not serve.
cudaError_t launch_median_bisect_f32(const PlanesArgs& planes, const RunsWindow& window,
                                     cudaStream_t stream, const std::uint32_t* ranked = nullptr);

}  // namespace fastmedian::kernels
