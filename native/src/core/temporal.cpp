// temporal_median: validate, choose the backend, run.
#include "fastmedian/temporal.hpp"

#include "core/backend_choice.hpp"
#include "core/validate.hpp"
#include "cpu/temporal_cpu.hpp"
#include "cpu/temporal_reference.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/errors.hpp"
#include "semantics/output_mode.hpp"
#include "semantics/temporal_window.hpp"

namespace fastmedian {

const char* temporal_mode_name(TemporalMode mode) noexcept {
    switch (mode) {
        case TemporalMode::median: return "median";
        case TemporalMode::subtract: return "subtract";
    }
    return "unknown";
}

TemporalMode parse_temporal_mode(const std::string& name, const char* parameter) {
    if (name == "median") return TemporalMode::median;
    if (name == "subtract") return TemporalMode::subtract;
    throw Error(ErrorCode::invalid_argument,
                std::string(parameter) + " must be median or subtract; got '" + name + "'");
}

std::int64_t temporal_window_start(std::int64_t t, std::int64_t frames, int window) noexcept {
    return kernels::temporal_start(t, frames, window);
}

RunInfo temporal_median(const ConstImageView& src, const ImageView& dst,
                        const TemporalOptions& options) {
    detail::validate_temporal(src, dst, options);
    const kernels::OutputMode offset = detail::output_mode(options.mode == TemporalMode::subtract, options.offset);
    if (options.reference) {
        detail::temporal_median_reference(src, dst, options.window, offset);
        return detail::cpu_run_info();
    }
    const RunInfo info = detail::choose_backend(options.backend, options.device, src.memory);
    if (info.backend == Backend::cuda) {
        detail::temporal_median_cuda(src, dst, options.window, offset, info.device,
                                     options.cuda_stream);
        return info;
    }
    detail::temporal_median_cpu(src, dst, options.window, offset);
    return info;
}

}  // namespace fastmedian
