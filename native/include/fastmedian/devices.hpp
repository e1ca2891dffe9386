// Which compute devices this build and this machine offer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fastmedian {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    std::uint64_t memory_bytes = 0;
    // The GPU policy its kernels follow (its architecture's tuning and limits, "sm_86"), or the
    // one FASTMEDIAN_GPU_POLICY forces for tests; "" where none serves it.
    std::string policy;
    // Why this build cannot filter on it, "" where it can: a GPU older than Turing (compute
    // capability 7.5), or a build without code for its architecture. Backend::automatic passes
    // such a device over for the CPU; Backend::cuda refuses with this reason.
    std::string unsupported;
};

// True when the library was compiled with its CUDA backend.
bool cuda_compiled() noexcept;

// The CUDA devices present; empty without a driver or a GPU (never throws for that). Those this
// build cannot use say why in `unsupported`.
std::vector<DeviceInfo> cuda_devices();

// The GPU architectures this build holds code for, as CMAKE_CUDA_ARCHITECTURES named them
// ("75-real;...;120"); "" without the CUDA backend.
const char* cuda_architectures() noexcept;

// One line saying why CUDA is not usable ("" when at least one device is), for logs and skips:
// no NVIDIA driver, a driver too old for this build, no NVIDIA GPU, the first GPU's
// DeviceInfo::unsupported where none can be used, or the CUDA runtime's words.
std::string cuda_unavailable_reason();

// The library's version, "MAJOR.MINOR.PATCH".
const char* version() noexcept;

}  // namespace fastmedian
