// Mode subtract's offset in the form the kernels use (semantics/median_output.hpp).
#pragma once

#include <cmath>

#include "semantics/median_output.hpp"

namespace fastmedian::detail {

// subtract: pixel - median + offset; otherwise the median itself.
inline kernels::OutputMode output_mode(bool subtract, double offset) {
    kernels::OutputMode o;
    o.subtract = subtract;
    const double limit = 1 << 24;
    const double r = std::round(offset);
    o.integer = static_cast<std::int32_t>(r < -limit ? -limit : (r > limit ? limit : r));
    o.real = static_cast<float>(offset);
    return o;
}

}  // namespace fastmedian::detail
