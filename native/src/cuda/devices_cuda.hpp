// Why no CUDA device can be used, in the words a user acts on.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace fastmedian::detail {

// From cudaGetDeviceCount's result and count, cudaDriverGetVersion's version (0 without a
// driver) and cudaRuntimeGetVersion's: "" where a device is there; else no driver, a driver too
// old for this build (both versions named), no GPU, or the runtime's own words.
std::string cuda_absence_reason(cudaError_t count_error, int count, int driver_version,
                                int runtime_version);

}  // namespace fastmedian::detail
