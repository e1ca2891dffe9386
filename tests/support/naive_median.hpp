// An independent median for tests: pad by folding indices step by step, sort the window with
// a float-aware comparator, take the middle. Shares no code with the library's backends.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fmtest {

// Folds i into [0, n) one reflection (or wrap) at a time; -1 for the constant border.
inline std::int64_t fold(std::int64_t i, std::int64_t n, fastmedian::Border b) {
    using fastmedian::Border;
    while (i < 0 || i >= n) {
        switch (b) {
            case Border::replicate: return i < 0 ? 0 : n - 1;
            case Border::constant: return -1;
            case Border::wrap: i = i < 0 ? i + n : i - n; break;
            case Border::reflect: i = i < 0 ? -i - 1 : 2 * n - 1 - i; break;
            case Border::mirror:
                if (n == 1) return 0;
                i = i < 0 ? -i : 2 * n - 2 - i;
                break;
        }
    }
    return i;
}

// Total order used by the library: numbers by value with -0 < +0, every NaN above +Inf.
inline bool float_less(float a, float b) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    if (a == b) return std::signbit(a) && !std::signbit(b);
    return a < b;
}

template <class T>
T cval_as(double cval) {
    if constexpr (std::is_same_v<T, float>) return static_cast<float>(cval);
    else return static_cast<T>(std::clamp(std::round(cval), 0.0, double(std::numeric_limits<T>::max())));
}

// The window's middle value (rank floor((n-1)/2)) by a full sort; a NaN as 0x7FC00000.
template <class T>
T naive_middle(std::vector<T>& values) {
    if constexpr (std::is_same_v<T, float>)
        std::sort(values.begin(), values.end(), float_less);
    else
        std::sort(values.begin(), values.end());
    T m = values[(values.size() - 1) / 2];
    if constexpr (std::is_same_v<T, float>)
        if (std::isnan(m)) {
            const std::uint32_t quiet = 0x7FC00000u;
            std::memcpy(&m, &quiet, sizeof m);
        }
    return m;
}

template <class T>
void naive_median_typed(Stack& src, Stack& dst, const fastmedian::Window& w,
                        fastmedian::Border border, double cval) {
    const std::vector<int> hw = fastmedian::window_half_widths(w);
    const int ry = static_cast<int>(hw.size() / 2);
    std::vector<T> values;
    for (std::int64_t z = 0; z < src.planes; ++z)
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                values.clear();
                for (int dy = -ry; dy <= ry; ++dy)
                    for (int dx = -hw[dy + ry]; dx <= hw[dy + ry]; ++dx) {
                        const auto sy = fold(y + dy, src.height, border);
                        const auto sx = fold(x + dx, src.width, border);
                        values.push_back(sy < 0 || sx < 0 ? cval_as<T>(cval)
                                                          : src.at<T>(z, sy, sx));
                    }
                dst.at<T>(z, y, x) = naive_middle(values);
            }
}

inline void naive_median(Stack& src, Stack& dst, const fastmedian::Window& w,
                         fastmedian::Border border, double cval = 0.0) {
    switch (src.type) {
        case fastmedian::PixelType::u8:
            naive_median_typed<std::uint8_t>(src, dst, w, border, cval);
            break;
        case fastmedian::PixelType::u16:
            naive_median_typed<std::uint16_t>(src, dst, w, border, cval);
            break;
        case fastmedian::PixelType::f32:
            naive_median_typed<float>(src, dst, w, border, cval);
            break;
    }
}

}  // namespace fmtest
