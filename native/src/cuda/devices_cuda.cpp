// Device queries through the CUDA runtime. A missing driver or GPU is an answer, not an error.
#include "cuda/devices_cuda.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "fastmedian/devices.hpp"
#include "gpu_policy.hpp"

namespace fastmedian {

bool cuda_compiled() noexcept { return true; }

const char* cuda_architectures() noexcept { return FASTMEDIAN_CUDA_ARCHITECTURES; }

namespace {

// Why this build cannot filter on a GPU of compute capability major.minor ("" where it can).
std::string unsupported_reason(int major, int minor) {
    const std::string cc = std::to_string(major) + "." + std::to_string(minor);
    if (kernels::policy_for(major, minor) == nullptr)
        return "compute capability " + cc + " is older than Turing (7.5), the oldest GPU fastmedian supports";
    if (!detail::architectures_run_on(cuda_architectures(), major, minor))
        return std::string("this build holds GPU code for ") + cuda_architectures() +
               " only, none of which runs on compute capability " + cc +
               ": use a release build, or rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(major) +
               std::to_string(minor) + " (README, \"GPUs\")";
    return "";
}

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
        d.unsupported = unsupported_reason(prop.major, prop.minor);
        devices.push_back(d);
    }
    return devices;
}

}  // namespace

// Queried once per process: devices do not come and go under a running CUDA runtime, and every
// filter call asks. The policy is named on each call, as tests force one.
std::vector<DeviceInfo> cuda_devices() {
    static const std::vector<DeviceInfo> devices = query_devices();
    std::vector<DeviceInfo> named = devices;
    const kernels::GpuPolicy* forced = kernels::forced_gpu_policy();
    for (DeviceInfo& d : named) {
        const kernels::GpuPolicy* own = kernels::policy_for(d.compute_major, d.compute_minor);
        d.policy = forced != nullptr ? forced->name : own != nullptr ? own->name : "";
    }
    return named;
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
        const std::string absent = detail::cuda_absence_reason(e, count, driver, runtime);
        if (!absent.empty()) return absent;
        // GPUs this build cannot use: the first one's reason.
        std::string unusable;
        for (const DeviceInfo& d : cuda_devices()) {
            if (d.unsupported.empty()) return std::string();
            if (unusable.empty()) unusable = "device " + std::to_string(d.index) + " (" + d.name + "): " + d.unsupported;
        }
        return unusable;
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

bool architectures_run_on(const std::string& architectures, int major, int minor) {
    const int device = 10 * major + minor;
    std::size_t at = 0;
    while (at <= architectures.size()) {
        std::size_t end = architectures.find_first_of(";,", at);
        if (end == std::string::npos) end = architectures.size();
        const std::string entry = architectures.substr(at, end - at);
        at = end + 1;
        if (entry.empty()) continue;
        std::size_t digits = 0;
        while (digits < entry.size() && entry[digits] >= '0' && entry[digits] <= '9') ++digits;
        if (digits == 0) return true;  // "all", "all-major", "native": CMake chose, for this machine or all
        const int arch = std::stoi(entry.substr(0, digits));
        const std::string suffix = entry.substr(digits);
        const bool specific = !suffix.empty() && suffix[0] != '-';  // "90a": that very GPU alone
        const bool machine = suffix.find("-virtual") == std::string::npos;
        const bool ptx = suffix.find("-real") == std::string::npos && !specific;
        if (machine && (specific ? arch == device : arch / 10 == major && arch <= device)) return true;
        if (ptx && arch <= device) return true;
    }
    return false;
}

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
