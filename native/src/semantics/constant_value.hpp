// The outside value of Border::constant in the image's pixel type: integer types round to
// nearest and clamp to their range, floats take the nearest float.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "fastmedian/image.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::detail {

template <class T>
T constant_value(double cval) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(cval);
    } else {
        const double hi = static_cast<double>(std::numeric_limits<T>::max());
        const double r = std::round(cval);
        return static_cast<T>(r < 0.0 ? 0.0 : (r > hi ? hi : r));
    }
}

// The order key (semantics/order_key.hpp) of that value, for kernels that compare keys.
inline std::uint32_t outside_key(PixelType type, double cval) {
    switch (type) {
        case PixelType::u8: return kernels::OrderKey<std::uint8_t>::to_key(constant_value<std::uint8_t>(cval));
        case PixelType::u16: return kernels::OrderKey<std::uint16_t>::to_key(constant_value<std::uint16_t>(cval));
        case PixelType::f32: return kernels::OrderKey<float>::to_key(constant_value<float>(cval));
    }
    return 0;
}

}  // namespace fastmedian::detail
