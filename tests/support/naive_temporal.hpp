// An independent temporal median for tests: per pixel, sort the window's values with an
// explicit comparator (NaN above +Inf, -0 below +0) and take rank (N-1)/2; then the mode.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "support/test_images.hpp"

namespace fmtest {

// Orders floats as the library does: -Inf < ... < -0 < +0 < ... < +Inf < every NaN.
inline bool float_before(float a, float b) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    if (a == b) return std::signbit(a) && !std::signbit(b);
    return a < b;
}

template <class T>
T naive_output(T frame, T median, bool subtract, double offset) {
    if constexpr (std::is_same_v<T, float>) {
        float r = subtract ? (frame - median) + static_cast<float>(offset) : median;
        if (std::isnan(r)) {
            const std::uint32_t quiet = 0x7FC00000u;
            std::memcpy(&r, &quiet, sizeof r);
        }
        return r;
    } else {
        if (!subtract) return median;
        const double hi = sizeof(T) == 1 ? 255.0 : 65535.0;
        const double r = double(frame) - double(median) + std::round(offset);
        return static_cast<T>(std::min(hi, std::max(0.0, r)));
    }
}

// Window of output frame t: N frames, centred (one more before t for even N), kept inside.
inline std::int64_t naive_window_start(std::int64_t t, std::int64_t frames, int n) {
    std::int64_t s = t - n / 2;
    if (s + n > frames) s = frames - n;
    return s < 0 ? 0 : s;
}

template <class T>
void naive_temporal_typed(Stack& src, Stack& dst, int n, bool subtract, double offset) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < src.planes; ++t) {
        const std::int64_t s = naive_window_start(t, src.planes, n);
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                for (int i = 0; i < n; ++i) v[i] = src.at<T>(s + i, y, x);
                if constexpr (std::is_same_v<T, float>) std::sort(v.begin(), v.end(), float_before);
                else std::sort(v.begin(), v.end());
                dst.at<T>(t, y, x) = naive_output<T>(src.at<T>(t, y, x), v[(n - 1) / 2], subtract, offset);
            }
    }
}

inline void naive_temporal(Stack& src, Stack& dst, int n, bool subtract, double offset) {
    switch (src.type) {
        case fastmedian::PixelType::u8: naive_temporal_typed<std::uint8_t>(src, dst, n, subtract, offset); break;
        case fastmedian::PixelType::u16: naive_temporal_typed<std::uint16_t>(src, dst, n, subtract, offset); break;
        case fastmedian::PixelType::f32: naive_temporal_typed<float>(src, dst, n, subtract, offset); break;
    }
}

}  // namespace fmtest
