// An independent convolution for tests, written from convolve.hpp's statement with the mask as
// given (not flipped): out(x, y) = sum over j, i of mask[j][i] * in(x + rx - i, y + ry - j),
// accumulated with std::fma from 0 over the input rows top to bottom (j from kh - 1 down) and
// within a row left to right (i from kw - 1 down); separable: the column pass into t first.
// Borders by folding (naive_median.hpp). Shares no code with the library's backends.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_median.hpp"
#include "support/test_images.hpp"

namespace fmtest {

// The mask divided by its sum in double, rounded to float (or unchanged without normalize).
inline std::vector<float> naive_normalized(const std::vector<float>& mask, bool normalize) {
    if (!normalize) return mask;
    double sum = 0.0;
    for (float w : mask) sum += w;
    std::vector<float> out;
    for (float w : mask) out.push_back(static_cast<float>(w / sum));
    return out;
}

template <class T>
float naive_pixel(Stack& s, std::int64_t z, std::int64_t x, std::int64_t y,
                  fastmedian::Border border, double cval) {
    const std::int64_t sx = fold(x, s.width, border), sy = fold(y, s.height, border);
    if (sx < 0 || sy < 0) return static_cast<float>(cval_as<T>(cval));
    return static_cast<float>(s.at<T>(z, sy, sx));
}

// Clamp (NaN to 0), then std::round (halves away from zero); floats: NaN as 0x7FC00000.
template <class Out>
Out naive_output(float v) {
    if constexpr (std::is_same_v<Out, float>) {
        if (std::isnan(v)) {
            const std::uint32_t quiet = 0x7FC00000u;
            std::memcpy(&v, &quiet, sizeof v);
        }
        return v;
    } else {
        if (std::isnan(v)) return 0;
        const double top = std::numeric_limits<Out>::max();
        return static_cast<Out>(std::round(std::min(std::max(static_cast<double>(v), 0.0), top)));
    }
}

template <class T, class Out>
void naive_convolve_typed(Stack& src, Stack& dst, const fastmedian::ConvolveOptions& o) {
    const bool separable = o.mask.empty();
    const int kw = separable ? static_cast<int>(o.row_mask.size()) : o.mask_width;
    const int kh = separable ? static_cast<int>(o.column_mask.size()) : o.mask_height;
    const int rx = kw / 2, ry = kh / 2;
    const std::vector<float> mask = naive_normalized(o.mask, o.normalize);
    const std::vector<float> row = naive_normalized(o.row_mask, o.normalize);
    const std::vector<float> column = naive_normalized(o.column_mask, o.normalize);
    for (std::int64_t z = 0; z < src.planes; ++z)
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                float sum = 0.0f;
                for (int j = kh - 1; !separable && j >= 0; --j)
                    for (int i = kw - 1; i >= 0; --i)
                        sum = std::fma(mask[j * kw + i],
                                       naive_pixel<T>(src, z, x + rx - i, y + ry - j, o.border, o.cval), sum);
                for (int i = kw - 1; separable && i >= 0; --i) {
                    float t = 0.0f;
                    for (int j = kh - 1; j >= 0; --j)
                        t = std::fma(column[j], naive_pixel<T>(src, z, x + rx - i, y + ry - j, o.border, o.cval), t);
                    sum = std::fma(row[i], t, sum);
                }
                dst.at<Out>(z, y, x) = naive_output<Out>(sum);
            }
}

// dst must have the output's type (src's, or f32).
inline void naive_convolve(Stack& src, Stack& dst, const fastmedian::ConvolveOptions& o) {
    using fastmedian::PixelType;
    const bool f = dst.type == PixelType::f32;
    switch (src.type) {
        case PixelType::u8:
            if (f) naive_convolve_typed<std::uint8_t, float>(src, dst, o);
            else naive_convolve_typed<std::uint8_t, std::uint8_t>(src, dst, o);
            break;
        case PixelType::u16:
            if (f) naive_convolve_typed<std::uint16_t, float>(src, dst, o);
            else naive_convolve_typed<std::uint16_t, std::uint16_t>(src, dst, o);
            break;
        case PixelType::f32: naive_convolve_typed<float, float>(src, dst, o); break;
    }
}

// The output type of a call.
inline fastmedian::PixelType output_type(fastmedian::PixelType in, fastmedian::ConvolveOutput out) {
    return out == fastmedian::ConvolveOutput::f32 ? fastmedian::PixelType::f32 : in;
}

// A mask of n values with varied weights, positive and negative (sum not 0), from `seed`.
inline std::vector<float> test_mask(int n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<float> m(static_cast<std::size_t>(n));
    for (float& w : m) w = static_cast<float>(static_cast<int>(rng() % 2001) - 600) / 997.0f;
    return m;
}

}  // namespace fmtest
