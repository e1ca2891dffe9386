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
};

// True when the library was compiled with its CUDA backend.
bool cuda_compiled() noexcept;

// The CUDA devices usable now; empty without a driver or a GPU (never throws for that).
std::vector<DeviceInfo> cuda_devices();

// One line saying why CUDA is not usable ("" when at least one device is), for logs and skips:
// no NVIDIA driver, a driver too old for this build, no NVIDIA GPU, or the CUDA runtime's words.
std::string cuda_unavailable_reason();

// The library's version, "MAJOR.MINOR.PATCH".
const char* version() noexcept;

}  // namespace fastmedian
