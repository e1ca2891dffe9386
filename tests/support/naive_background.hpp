// An independent background for tests: the naive 2D median (naive_median.hpp) or two naive 1D
// medians (separable), then the output step of naive_temporal.hpp.
#pragma once

#include "support/naive_median.hpp"
#include "support/naive_temporal.hpp"

namespace fmtest {

// 1D median of 2r+1 along y (columns) or x (rows), each window sorted with float_less.
template <class T>
void naive_median_1d(Stack& src, Stack& dst, int r, bool columns, fastmedian::Border border,
                     double cval) {
    std::vector<T> v;
    for (std::int64_t z = 0; z < src.planes; ++z)
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                v.clear();
                for (int d = -r; d <= r; ++d) {
                    const std::int64_t sy = columns ? fold(y + d, src.height, border) : y;
                    const std::int64_t sx = columns ? x : fold(x + d, src.width, border);
                    v.push_back(sy < 0 || sx < 0 ? cval_as<T>(cval) : src.at<T>(z, sy, sx));
                }
                if constexpr (std::is_same_v<T, float>) std::sort(v.begin(), v.end(), float_less);
                else std::sort(v.begin(), v.end());
                dst.at<T>(z, y, x) = v[r];
            }
}

template <class T>
void naive_background_typed(Stack& src, Stack& dst, const fastmedian::BackgroundOptions& o) {
    Stack bg(src.type, src.width, src.height, src.planes, 0, 0);
    if (o.method == fastmedian::BackgroundMethod::separable) {
        Stack mid(src.type, src.width, src.height, src.planes, 0, 0);
        naive_median_1d<T>(src, mid, o.window.size / 2, true, o.border, o.cval);
        naive_median_1d<T>(mid, bg, o.window.size / 2, false, o.border, o.cval);
    } else {
        naive_median(src, bg, o.window, o.border, o.cval);
    }
    const bool subtract = o.output == fastmedian::BackgroundOutput::subtract;
    for (std::int64_t z = 0; z < src.planes; ++z)
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x)
                dst.at<T>(z, y, x) = naive_output<T>(src.at<T>(z, y, x), bg.at<T>(z, y, x), subtract, o.offset);
}

inline void naive_background(Stack& src, Stack& dst, const fastmedian::BackgroundOptions& o) {
    switch (src.type) {
        case fastmedian::PixelType::u8: naive_background_typed<std::uint8_t>(src, dst, o); break;
        case fastmedian::PixelType::u16: naive_background_typed<std::uint16_t>(src, dst, o); break;
        case fastmedian::PixelType::f32: naive_background_typed<float>(src, dst, o); break;
    }
}

// Every border, both methods, both outputs, several sizes (including windows larger than the
// image) on `backend` (or the references) equals the naive background; the input is untouched.
inline void expect_background_equals_naive(fastmedian::Backend backend, bool reference) {
    namespace fm = fastmedian;
    struct Shape { std::int64_t w, h, planes; int k; };
    // u8 from k 15 takes the separable median's histograms, shorter windows sorted ones.
    const Shape shapes[] = {{37, 23, 2, 3}, {41, 29, 1, 9}, {45, 33, 1, 31}, {70, 12, 1, 65},
                            {20, 13, 1, 65}, {31, 17, 1, 15}};
    for (fm::PixelType type : kAllTypes)
        for (const Shape& s : shapes)
            for (fm::Border border : kAllBorders)
                for (int variant = 0; variant < 4; ++variant) {
                    Stack src(type, s.w, s.h, s.planes);
                    fill_random(src, 7u * s.k + variant, variant == 3 ? 5 : 0);
                    if (type == fm::PixelType::f32) add_specials(src, 3u + variant, 0.05);
                    fm::BackgroundOptions o;
                    o.window = fm::Window::square(s.k);
                    o.method = variant % 2 ? fm::BackgroundMethod::separable : fm::BackgroundMethod::exact;
                    o.output = variant < 2 ? fm::BackgroundOutput::subtract : fm::BackgroundOutput::background;
                    o.offset = variant == 0 ? 20.4 : -3.5;
                    o.border = border;
                    o.cval = 7.0;
                    o.backend = backend;
                    o.reference = reference;
                    Stack want(type, s.w, s.h, s.planes, 0, 0), got(type, s.w, s.h, s.planes, 3, 1);
                    std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
                    const auto before = src.bytes;
                    naive_background(src, want, o);
                    fm::background(src.cview(), got.view(), o);
                    ASSERT_EQ(first_difference(want, got), "")
                        << fm::pixel_type_name(type) << " k=" << s.k << " " << fm::border_name(border)
                        << " " << fm::background_method_name(o.method) << " "
                        << fm::background_output_name(o.output);
                    ASSERT_EQ(src.bytes, before) << "input changed";
                }
}

}  // namespace fmtest
