// Device queries through the CUDA runtime. A missing driver or GPU is an answer, not an error.
#include <cuda_runtime_api.h>

#include "fastmedian/devices.hpp"

namespace fastmedian {

bool cuda_compiled() noexcept { return true; }

namespace {

std::vector<DeviceInfo> query_devices() {
    std::vector<DeviceInfo> devices;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free error so later calls start clean
        return devices;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        DeviceInfo d;
        d.index = i;
        d.name = prop.name;
        d.compute_major = prop.major;
        d.compute_minor = prop.minor;
        d.memory_bytes = prop.totalGlobalMem;
        devices.push_back(d);
    }
    return devices;
}

}  // namespace

// Queried once per process: devices do not come and go under a running CUDA runtime, and every
// filter call asks.
std::vector<DeviceInfo> cuda_devices() {
    static const std::vector<DeviceInfo> devices = query_devices();
    return devices;
}

std::string cuda_unavailable_reason() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return std::string("CUDA runtime reports: ") + cudaGetErrorString(e);
    }
    if (count == 0) return "no CUDA device found";
    return "";
}

}  // namespace fastmedian
