// Device queries through the CUDA runtime. A missing driver or GPU is an answer, not an error.
#include "cuda/devices_cuda.hpp"

#include <cuda_runtime_api.h>

#include <string>

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

// Queried once per process, as the devices are.
std::string cuda_unavailable_reason() {
    static const std::string reason = [] {
        int count = 0, driver = 0, runtime = 0;
        const cudaError_t e = cudaGetDeviceCount(&count);
        cudaGetLastError();
        if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
        if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
        cudaGetLastError();
        return detail::cuda_absence_reason(e, count, driver, runtime);
    }();
    return reason;
}

}  // namespace fastmedian

namespace fastmedian::detail {

namespace {

// CUDA's version numbers, 1000 * major + 10 * minor, as "major.minor".
std::string cuda_version(int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

std::string cuda_absence_reason(cudaError_t count_error, int count, int driver_version,
                                int runtime_version) {
    // Without libcuda.so.1 the runtime says its driver is "insufficient", which sends users to
    // update a driver they do not have.
    const bool no_driver = count_error == cudaErrorStubLibrary ||
                           (count_error == cudaErrorInsufficientDriver && driver_version == 0);
    if (no_driver) return "no NVIDIA driver is installed (libcuda.so.1 was not found)";
    if (count_error == cudaErrorInsufficientDriver)
        return "the NVIDIA driver supports CUDA " + cuda_version(driver_version) +
               ", older than the CUDA " + cuda_version(runtime_version) +
               " this build of fastmedian needs: update the NVIDIA driver";
    if (count_error == cudaErrorNoDevice || (count_error == cudaSuccess && count == 0))
        return "no NVIDIA GPU found" +
               (driver_version > 0 ? " (the NVIDIA driver, for CUDA " + cuda_version(driver_version) +
                                         ", is installed)"
                                   : std::string());
    if (count_error != cudaSuccess)
        return std::string("CUDA runtime reports: ") + cudaGetErrorString(count_error);
    return "";
}

}  // namespace fastmedian::detail
