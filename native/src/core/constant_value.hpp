// The outside value of Border::constant in the image's pixel type: integer types round to
// nearest and clamp to their range, floats take the nearest float.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

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

}  // namespace fastmedian::detail
