#include "core/backend_choice.hpp"

#include <string>
#include <vector>

#include "cpu/parallel.hpp"
#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian::detail {

RunInfo cpu_run_info() {
    RunInfo info;
    info.device_name = "CPU";
    return info;
}

namespace {

// The CPU backend's run: FASTMEDIAN_CPU_THREADS is checked here, on every call, and not only
// by the calls large enough to use the thread pool.
RunInfo cpu_choice() {
    (void)cpu_threads();
    return cpu_run_info();
}

}  // namespace

RunInfo choose_backend(Backend backend, int device, Memory memory,
                       const std::vector<int>& devices) {
    if (backend == Backend::cpu) return cpu_choice();
    const std::vector<DeviceInfo> present = cuda_devices();
    const std::vector<int> wanted =
        devices.empty() || memory == Memory::cuda ? std::vector<int>{device} : devices;
    std::string why;  // why a wanted device cannot serve
    for (const int d : wanted) {
        if (d >= static_cast<int>(present.size())) {
            why = present.empty() ? cuda_unavailable_reason()
                                  : "device " + std::to_string(d) + " does not exist (" +
                                        std::to_string(present.size()) + " CUDA devices)";
            break;
        }
        const DeviceInfo& info = present[static_cast<std::size_t>(d)];
        if (!info.unsupported.empty()) {
            why = "device " + std::to_string(d) + " (" + info.name + "): " + info.unsupported;
            break;
        }
    }
    if (why.empty()) {
        RunInfo info;
        info.backend = Backend::cuda;
        info.device = wanted.front();
        info.devices = wanted;
        info.device_name = present[static_cast<std::size_t>(info.device)].name;
        return info;
    }
    if (backend == Backend::cuda || memory == Memory::cuda)
        throw Error(ErrorCode::backend_unavailable, "backend cuda is not available: " + why);
    return cpu_choice();
}

}  // namespace fastmedian::detail
