#include "core/backend_choice.hpp"

#include <string>
#include <vector>

#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"

namespace fastmedian::detail {

RunInfo cpu_run_info() {
    RunInfo info;
    info.device_name = "CPU";
    return info;
}

RunInfo choose_backend(Backend backend, int device, Memory memory) {
    if (backend == Backend::cpu) return cpu_run_info();
    const std::vector<DeviceInfo> devices = cuda_devices();
    if (device < static_cast<int>(devices.size())) {
        RunInfo info;
        info.backend = Backend::cuda;
        info.device = device;
        info.device_name = devices[device].name;
        return info;
    }
    if (backend == Backend::cuda || memory == Memory::cuda) {
        const std::string why = devices.empty()
            ? cuda_unavailable_reason()
            : "device " + std::to_string(device) + " does not exist (" +
                  std::to_string(devices.size()) + " CUDA devices)";
        throw Error(ErrorCode::backend_unavailable, "backend cuda is not available: " + why);
    }
    return cpu_run_info();
}

}  // namespace fastmedian::detail
