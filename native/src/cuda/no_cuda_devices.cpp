// Device queries in a build without CUDA (no_cuda_backend.cpp holds the filters' entry points).
#include "fastmedian/devices.hpp"

namespace fastmedian {

bool cuda_compiled() noexcept { return false; }
std::vector<DeviceInfo> cuda_devices() { return {}; }
const char* cuda_architectures() noexcept { return ""; }
std::string cuda_unavailable_reason() { return "this build of fastmedian has no CUDA backend"; }

}  // namespace fastmedian
