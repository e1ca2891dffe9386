// convolve: validate, plan the masks, choose the backend, run; and the Gaussian mask.
#include "fastmedian/convolve.hpp"

#include <cmath>
#include <sstream>
#include <utility>

#include "core/backend_choice.hpp"
#include "core/convolve_validate.hpp"
#include "cpu/convolve_cpu.hpp"
#include "cpu/convolve_reference.hpp"
#include "cuda/convolve_cuda.hpp"
#include "fastmedian/errors.hpp"
#include "semantics/convolve_plan.hpp"

namespace fastmedian {

ConvolveOptions ConvolveOptions::generic(std::vector<float> values, int width, int height) {
    ConvolveOptions o;
    o.mask = std::move(values);
    o.mask_width = width;
    o.mask_height = height;
    return o;
}

ConvolveOptions ConvolveOptions::separable(std::vector<float> row, std::vector<float> column) {
    ConvolveOptions o;
    o.row_mask = std::move(row);
    o.column_mask = std::move(column);
    return o;
}

ConvolveOptions ConvolveOptions::gaussian(double sigma) {
    std::vector<float> mask = gaussian_mask(sigma);
    return separable(mask, mask);
}

std::vector<float> gaussian_mask(double sigma) {
    if (!std::isfinite(sigma) || sigma <= 0.0 || sigma > kMaxGaussianSigma) {
        std::ostringstream s;
        s << "sigma must be a number above 0 and at most " << kMaxGaussianSigma << ", got " << sigma;
        throw Error(ErrorCode::invalid_argument, s.str());
    }
    // scipy.ndimage._filters._gaussian_kernel1d with truncate 4.0, in double.
    const int radius = static_cast<int>(4.0 * sigma + 0.5);
    // Below sigma 0.125 the mask is the one tap at x = 0, weight 1; computing it would take
    // -0.5 / sigma^2, which is -inf once sigma^2 underflows (sigma 1e-300), times 0: NaN.
    if (radius == 0) return {1.0f};
    const double scale = -0.5 / (sigma * sigma);
    std::vector<double> phi(static_cast<std::size_t>(2 * radius + 1));
    double sum = 0.0;
    for (int x = -radius; x <= radius; ++x) {
        phi[static_cast<std::size_t>(x + radius)] = std::exp(scale * static_cast<double>(x * x));
        sum += phi[static_cast<std::size_t>(x + radius)];
    }
    std::vector<float> mask(phi.size());
    for (std::size_t i = 0; i < phi.size(); ++i) mask[i] = static_cast<float>(phi[i] / sum);
    return mask;
}

RunInfo convolve(const ConstImageView& src, const ImageView& dst, const ConvolveOptions& options) {
    detail::validate_convolve(src, dst, options);
    const detail::ConvolvePlan plan = detail::make_convolve_plan(options, src.type);
    if (options.reference) {
        detail::convolve_reference(src, dst, plan, options.border);
        return detail::cpu_run_info();
    }
    const RunInfo info = detail::choose_backend(options.backend, options.device, src.memory, options.devices);
    if (info.backend == Backend::cuda) {
        detail::convolve_cuda(src, dst, plan, options.border, info.devices, options.cuda_stream);
        return info;
    }
    detail::convolve_cpu(src, dst, plan, options.border);
    return info;
}

}  // namespace fastmedian
