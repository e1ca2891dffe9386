// Chooses the median kernel for a window and pixel type, and launches it: the one place where
// the CUDA backend's tuning lives (which algorithm for which window, type and architecture).
#pragma once

#include <cuda_runtime_api.h>

#include "core/footprint.hpp"
#include "fastmedian/image.hpp"
#include "median_args.cuh"

namespace fastmedian::detail {

// Enqueues the median of every plane described by `planes` on `stream`; returns the launch's
// error code.
cudaError_t launch_median(const kernels::PlanesArgs& planes, const Footprint& fp, PixelType type,
                          cudaStream_t stream);

}  // namespace fastmedian::detail
