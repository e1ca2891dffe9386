// median3d: validate, choose the backend, run.
#include "fastmedian/median3d.hpp"

#include "core/backend_choice.hpp"
#include "core/validate.hpp"
#include "cpu/median3d_cpu.hpp"
#include "cuda/cuda_backend.hpp"
#include "semantics/footprint3d.hpp"

namespace fastmedian {

RunInfo median3d(const ConstImageView& src, const ImageView& dst, const Median3DOptions& options) {
    detail::validate_median3d(src, dst, options);
    const detail::Footprint3D fp = detail::make_footprint3d(options.window);
    const Origin origin = options.origin.value_or(Origin{});
    if (options.reference) {
        detail::median3d_cpu(src, dst, fp, options.border, options.cval, origin, true);
        return detail::cpu_run_info();
    }
    const RunInfo info = detail::choose_backend(options.backend, options.device, src.memory);
    if (info.backend == Backend::cuda) {
        detail::median3d_cuda(src, dst, fp, options.border, options.cval, info.device,
                              options.cuda_stream, origin);
        return info;
    }
    detail::median3d_cpu(src, dst, fp, options.border, options.cval, origin, false);
    return info;
}

}  // namespace fastmedian
