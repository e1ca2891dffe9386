// The temporal mode and offset in the form the kernels use (kernels/temporal_mode.cuh).
#pragma once

#include <cmath>

#include "fastmedian/temporal.hpp"
#include "temporal_mode.cuh"

namespace fastmedian::detail {

inline kernels::TemporalOffset temporal_offset(TemporalMode mode, double offset) {
    kernels::TemporalOffset o;
    o.subtract = mode == TemporalMode::subtract;
    const double limit = 1 << 24;
    const double r = std::round(offset);
    o.integer = static_cast<std::int32_t>(r < -limit ? -limit : (r > limit ? limit : r));
    o.real = static_cast<float>(offset);
    return o;
}

}  // namespace fastmedian::detail
