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

// Whether code built for `architectures` (CMAKE_CUDA_ARCHITECTURES, `;` or `,` between
// entries: "75-real,86-real,120",
// "90", "90a-real", "all") runs on a GPU of compute capability major.minor: machine code for
// an architecture of the same major version at or below it (an arch-specific "90a" for that
// GPU alone), or PTX at or below it, which the driver compiles.
bool architectures_run_on(const std::string& architectures, int major, int minor);

}  // namespace fastmedian::detail
