// Test images: owning stacks with padded strides, random/real-looking content, and poisoning.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"

namespace fmtest {

constexpr fastmedian::Border kAllBorders[] = {
    fastmedian::Border::replicate, fastmedian::Border::reflect, fastmedian::Border::mirror,
    fastmedian::Border::constant, fastmedian::Border::wrap};
constexpr fastmedian::PixelType kAllTypes[] = {fastmedian::PixelType::u8,
                                               fastmedian::PixelType::u16,
                                               fastmedian::PixelType::f32};

// An owning stack whose rows and planes carry padding, so stride bugs show.
struct Stack {
    fastmedian::PixelType type = fastmedian::PixelType::u8;
    std::int64_t width = 0, height = 0, planes = 1;
    std::int64_t row_stride = 0, plane_stride = 0;
    std::vector<std::uint8_t> bytes;

    Stack(fastmedian::PixelType t, std::int64_t w, std::int64_t h, std::int64_t p = 1,
          std::int64_t row_pad_pixels = 3, std::int64_t plane_pad_rows = 1)
        : type(t), width(w), height(h), planes(p) {
        const auto px = static_cast<std::int64_t>(fastmedian::pixel_size(t));
        row_stride = (w + row_pad_pixels) * px;
        plane_stride = row_stride * (h + plane_pad_rows);
        bytes.assign(static_cast<std::size_t>(plane_stride * p), 0xA5);  // poison everywhere
    }
    fastmedian::ImageView view() {
        fastmedian::ImageView v;
        v.data = bytes.data();
        v.type = type;
        v.width = width;
        v.height = height;
        v.planes = planes;
        v.row_stride = row_stride;
        v.plane_stride = plane_stride;
        return v;
    }
    fastmedian::ConstImageView cview() { return fastmedian::as_const(view()); }
    template <class T> T& at(std::int64_t z, std::int64_t y, std::int64_t x) {
        return reinterpret_cast<T*>(bytes.data() + z * plane_stride + y * row_stride)[x];
    }
    // Raw bytes of pixel (z, y, x), for bit-exact comparison of any type.
    std::vector<std::uint8_t> pixel_bytes(std::int64_t z, std::int64_t y, std::int64_t x) const {
        const auto px = fastmedian::pixel_size(type);
        const std::uint8_t* p = bytes.data() + z * plane_stride + y * row_stride + x * px;
        return {p, p + px};
    }
};

// Random pixels with many ties (values drawn from `levels` distinct values) or full range.
inline void fill_random(Stack& s, std::uint32_t seed, int levels = 0) {
    std::mt19937 rng(seed);
    for (std::int64_t z = 0; z < s.planes; ++z)
        for (std::int64_t y = 0; y < s.height; ++y)
            for (std::int64_t x = 0; x < s.width; ++x) {
                const std::uint32_t r = rng();
                switch (s.type) {
                    case fastmedian::PixelType::u8:
                        s.at<std::uint8_t>(z, y, x) =
                            static_cast<std::uint8_t>(levels ? r % levels : r);
                        break;
                    case fastmedian::PixelType::u16:
                        s.at<std::uint16_t>(z, y, x) =
                            static_cast<std::uint16_t>(levels ? r % levels : r);
                        break;
                    case fastmedian::PixelType::f32:
                        s.at<float>(z, y, x) = levels
                            ? static_cast<float>(static_cast<int>(r % levels) - levels / 2) * 0.5f
                            : std::ldexp(static_cast<float>(r % 2000001) - 1e6f,
                                         static_cast<int>(rng() % 40) - 20);
                        break;
                }
            }
}

// Sprinkles NaN, +-Inf, +-0 into a float stack.
inline void add_specials(Stack& s, std::uint32_t seed, double fraction) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                              -std::numeric_limits<float>::quiet_NaN(),
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(), 0.0f, -0.0f};
    for (std::int64_t z = 0; z < s.planes; ++z)
        for (std::int64_t y = 0; y < s.height; ++y)
            for (std::int64_t x = 0; x < s.width; ++x)
                if (u(rng) < fraction) s.at<float>(z, y, x) = specials[rng() % 6];
}

// The first pixel whose bytes differ, as "(z, y, x)", or "" when all pixels are equal.
inline std::string first_difference(const Stack& a, const Stack& b) {
    for (std::int64_t z = 0; z < a.planes; ++z)
        for (std::int64_t y = 0; y < a.height; ++y)
            for (std::int64_t x = 0; x < a.width; ++x)
                if (a.pixel_bytes(z, y, x) != b.pixel_bytes(z, y, x))
                    return "(" + std::to_string(z) + ", " + std::to_string(y) + ", " +
                           std::to_string(x) + ")";
    return "";
}

}  // namespace fmtest
