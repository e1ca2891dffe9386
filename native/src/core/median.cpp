// median2d: validate, choose the backend, run.
#include "fastmedian/median.hpp"

#include "core/backend_choice.hpp"
#include "core/validate.hpp"
#include "cpu/median_cpu.hpp"
#include "cpu/median_reference.hpp"
#include "cuda/cuda_backend.hpp"
#include "semantics/footprint.hpp"

namespace fastmedian {

RunInfo median2d(const ConstImageView& src, const ImageView& dst, const MedianOptions& options) {
    detail::validate_median(src, dst, options);
    const detail::Footprint fp = detail::make_footprint(options.window);
    const Origin origin = options.origin.value_or(Origin{});
    if (options.reference) {
        detail::median2d_reference(src, dst, fp, options.border, options.cval, origin);
        return detail::cpu_run_info();
    }
    const RunInfo info = detail::choose_backend(options.backend, options.device, src.memory, options.devices);
    if (info.backend == Backend::cuda) {
        detail::median2d_cuda(src, dst, fp, options.border, options.cval, info.devices,
                              options.cuda_stream, origin);
        return info;
    }
    detail::median2d_cpu(src, dst, fp, options.border, options.cval, origin);
    return info;
}

}  // namespace fastmedian
