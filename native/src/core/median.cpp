// median2d: validate, choose the backend, run.
#include "fastmedian/median.hpp"

#include <string>

#include "core/footprint.hpp"
#include "core/validate.hpp"
#include "cpu/median_cpu.hpp"
#include "cpu/median_reference.hpp"
#include "fastmedian/devices.hpp"
#include "fastmedian/errors.hpp"
#ifdef FASTMEDIAN_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace fastmedian {

namespace {

// The backend and device a call runs on. Throws when CUDA is required (asked for by name, or
// the views are in CUDA memory) and cannot serve.
RunInfo choose_backend(const MedianOptions& o, Memory memory) {
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
    if (o.backend == Backend::cuda || memory == Memory::cuda) {
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
    if (options.reference) {
        detail::median2d_reference(src, dst, fp, options.border, options.cval);
        RunInfo info;
        info.device_name = "CPU";
        return info;
    }
    const RunInfo info = choose_backend(options, src.memory);
#ifdef FASTMEDIAN_HAVE_CUDA
    if (info.backend == Backend::cuda) {
        detail::median2d_cuda(src, dst, fp, options.border, options.cval, info.device,
                              options.cuda_stream);
        return info;
    }
#endif
    detail::median2d_cpu(src, dst, fp, options.border, options.cval);
    return info;
}

}  // namespace fastmedian
