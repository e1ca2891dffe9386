// Chooses the median kernel for a window and pixel type, and launches it: the one place where
// the CUDA backend's tuning lives (which algorithm for which window, type and architecture).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/cuda_util.hpp"
#include "fastmedian/image.hpp"
#include "median_args.cuh"
#include "semantics/footprint.hpp"

namespace fastmedian::detail {

// Enqueues the median of every plane described by `planes` on `stream`; returns the launch's
// error code. Large windows on u16 and f32 planes take device memory from `scratch` (throws
// Error(device_error) where there is none).
cudaError_t launch_median(const kernels::PlanesArgs& planes, const Footprint& fp, PixelType type,
                          cudaStream_t stream, ScratchMemory& scratch);

// The kernel family launch_median chooses for planes of width x height on the current device
// under its GPU policy ("stream3", "stream", "tiled", "column_network", "network",
// "histogram_u8", "ranked", "histogram_u16", "bisect"), for tests and logs.
const char* median_kernel_family(const Footprint& fp, PixelType type, int width, int height);

// The scratch launch_median takes for each row of a plane `width` pixels wide (0 for most
// windows), so that the plane pipeline can size its bands.
std::int64_t median_scratch_row_bytes(const Footprint& fp, PixelType type, int width);

}  // namespace fastmedian::detail
