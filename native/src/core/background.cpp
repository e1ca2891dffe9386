// background and median_separable: validate, choose the backend, run. Method exact is median2d
// into a scratch plane, then the output step; method separable runs its own passes.
#include "fastmedian/background.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/backend_choice.hpp"
#include "core/validate.hpp"
#include "cpu/median_cpu.hpp"
#include "cpu/median_reference.hpp"
#include "cpu/separable_median.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/errors.hpp"
#include "semantics/footprint.hpp"
#include "semantics/order_key.hpp"
#include "semantics/output_mode.hpp"

namespace fastmedian {

const char* background_method_name(BackgroundMethod method) noexcept {
    switch (method) {
        case BackgroundMethod::exact: return "exact";
        case BackgroundMethod::separable: return "separable";
    }
    return "unknown";
}

BackgroundMethod parse_background_method(const std::string& name, const char* parameter) {
    if (name == "exact") return BackgroundMethod::exact;
    if (name == "separable") return BackgroundMethod::separable;
    throw Error(ErrorCode::invalid_argument,
                std::string(parameter) + " must be exact or separable; got '" + name + "'");
}

const char* background_output_name(BackgroundOutput output) noexcept {
    switch (output) {
        case BackgroundOutput::subtract: return "subtract";
        case BackgroundOutput::background: return "background";
    }
    return "unknown";
}

BackgroundOutput parse_background_output(const std::string& name, const char* parameter) {
    if (name == "subtract") return BackgroundOutput::subtract;
    if (name == "background") return BackgroundOutput::background;
    throw Error(ErrorCode::invalid_argument,
                std::string(parameter) + " must be subtract or background; got '" + name + "'");
}

namespace {

using kernels::OrderKey;

// Method exact on the CPU: the median of each plane into a scratch plane, then the output step.
template <class T>
void exact_cpu(const ConstImageView& src, const ImageView& dst, const detail::Footprint& fp,
               const BackgroundOptions& o, const kernels::OutputMode& mode) {
    std::vector<T> scratch(static_cast<std::size_t>(src.width * src.height));
    const ImageView plane_bg = view(scratch.data(), src.width, src.height);
    for (std::int64_t z = 0; z < src.planes; ++z) {
        ConstImageView plane = src;
        plane.data = src.plane(z);
        plane.planes = 1;
        if (o.reference) detail::median2d_reference(plane, plane_bg, fp, o.border, o.cval, {});
        else detail::median2d_cpu(plane, plane_bg, fp, o.border, o.cval, {});
        for (std::int64_t y = 0; y < src.height; ++y) {
            const T* in = reinterpret_cast<const T*>(src.row(z, y));
            T* out = reinterpret_cast<T*>(dst.row(z, y));
            const T* bg = scratch.data() + y * src.width;
            for (std::int64_t x = 0; x < src.width; ++x)
                out[x] = kernels::median_output<T>(in[x], OrderKey<T>::to_key(bg[x]), mode);
        }
    }
}

void validate_background(const ConstImageView& src, const ImageView& dst, const BackgroundOptions& o) {
    detail::validate_pair(src, dst);
    detail::validate_window(o.window);
    if (o.method != BackgroundMethod::exact && o.method != BackgroundMethod::separable)
        throw Error(ErrorCode::invalid_argument, "method is not one of exact, separable");
    if (o.method == BackgroundMethod::separable && o.window.shape != Window::Shape::square)
        throw Error(ErrorCode::invalid_argument,
                    "method separable needs a square window (window.shape), not a circle");
    if (o.output != BackgroundOutput::subtract && o.output != BackgroundOutput::background)
        throw Error(ErrorCode::invalid_argument, "output is not one of subtract, background");
    if (!std::isfinite(o.offset) || std::fabs(o.offset) > 1e9)
        throw Error(ErrorCode::invalid_argument,
                    "offset must be finite and within +-1e9, got " + std::to_string(o.offset));
    MedianOptions m;
    m.window = o.window;
    m.border = o.border;
    m.cval = o.cval;
    m.backend = o.backend;
    m.device = o.device;
    m.cuda_stream = o.cuda_stream;
    m.devices = o.devices;
    m.reference = o.reference;
    detail::validate_median(src, dst, m);  // border, cval, backend, memory
}

}  // namespace

RunInfo background(const ConstImageView& src, const ImageView& dst, const BackgroundOptions& o) {
    validate_background(src, dst, o);
    const kernels::OutputMode mode = detail::output_mode(o.output == BackgroundOutput::subtract, o.offset);
    const bool separable = o.method == BackgroundMethod::separable;
    const RunInfo info = o.reference ? detail::cpu_run_info()
                                     : detail::choose_backend(o.backend, o.device, src.memory, o.devices);
    if (info.backend == Backend::cuda) {
        detail::background_cuda(src, dst, detail::make_footprint(o.window), separable, o.border,
                                o.cval, mode, info.devices, o.cuda_stream);
        return info;
    }
    if (separable) {
        const int radius = o.window.size / 2;
        if (o.reference) detail::separable_median_reference(src, dst, radius, o.border, o.cval, mode);
        else detail::separable_median_cpu(src, dst, radius, o.border, o.cval, mode);
        return info;
    }
    const detail::Footprint fp = detail::make_footprint(o.window);
    switch (src.type) {
        case PixelType::u8: exact_cpu<std::uint8_t>(src, dst, fp, o, mode); break;
        case PixelType::u16: exact_cpu<std::uint16_t>(src, dst, fp, o, mode); break;
        case PixelType::f32: exact_cpu<float>(src, dst, fp, o, mode); break;
    }
    return info;
}

RunInfo median_separable(const ConstImageView& src, const ImageView& dst,
                         const MedianOptions& options) {
    BackgroundOptions o;
    o.window = options.window;
    o.method = BackgroundMethod::separable;
    o.output = BackgroundOutput::background;
    o.border = options.border;
    o.cval = options.cval;
    o.backend = options.backend;
    o.device = options.device;
    o.cuda_stream = options.cuda_stream;
    o.reference = options.reference;
    return background(src, dst, o);
}

}  // namespace fastmedian
