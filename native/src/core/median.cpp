// median2d: validate, choose the backend, run.
#include "fastmedian/median.hpp"

#include <string>

#include "core/footprint.hpp"
#include "core/validate.hpp"
#include "cpu/median_reference.hpp"
#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"
#ifdef FASTMEDIAN_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace fastmedian {

namespace {

// The CUDA device a call should use, or -1 for the CPU. Throws when CUDA was asked for by name
// and cannot serve.
RunInfo choose_backend(const MedianOptions& o) {
    RunInfo info;
    if (o.backend == Backend::cpu) {
        info.device_name = "CPU";
        return info;
    }
    const std::vector<DeviceInfo> devices = cuda_devices();
    if (o.device < static_cast<int>(devices.size())) {
        info.backend = Backend::cuda;
        info.device = o.device;
        info.device_name = devices[o.device].name;
        return info;
    }
    if (o.backend == Backend::cuda) {
        const std::string why = devices.empty()
            ? cuda_unavailable_reason()
            : "device " + std::to_string(o.device) + " does not exist (" +
                  std::to_string(devices.size()) + " CUDA devices)";
        throw Error(ErrorCode::backend_unavailable, "backend cuda is not available: " + why);
    }
    info.device_name = "CPU";
    return info;
}

}  // namespace

RunInfo median2d(const ConstImageView& src, const ImageView& dst, const MedianOptions& options) {
    detail::validate_median(src, dst, options);
    const detail::Footprint fp = detail::make_footprint(options.window);
    const RunInfo info = choose_backend(options);
#ifdef FASTMEDIAN_HAVE_CUDA
    if (info.backend == Backend::cuda) {
        detail::median2d_cuda(src, dst, fp, options.border, options.cval, info.device);
        return info;
    }
#endif
    detail::median2d_reference(src, dst, fp, options.border, options.cval);
    return info;
}

}  // namespace fastmedian
