// The background on the CPU: references and the fast backend against the naive background
// (exact and separable, subtract and background, every border, windows larger than the
// image, ties and float specials), the separable smoother alone, and argument errors.
#include <gtest/gtest.h>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_background.hpp"

namespace fm = fastmedian;
using fmtest::Stack;

namespace {

TEST(Background, ReferencesEqualNaive) { fmtest::expect_background_equals_naive(fm::Backend::cpu, true); }

TEST(Background, CpuBackendEqualsNaive) { fmtest::expect_background_equals_naive(fm::Backend::cpu, false); }

TEST(Background, SeparableSmootherIsTheTwo1DMedians) {
    Stack src(fm::PixelType::u16, 50, 31, 1);
    fmtest::fill_random(src, 3);
    Stack want(fm::PixelType::u16, 50, 31, 1, 0, 0), mid(fm::PixelType::u16, 50, 31, 1, 0, 0);
    fmtest::naive_median_1d<std::uint16_t>(src, mid, 7, true, fm::Border::reflect, 0.0);
    fmtest::naive_median_1d<std::uint16_t>(mid, want, 7, false, fm::Border::reflect, 0.0);
    Stack got(fm::PixelType::u16, 50, 31, 1);
    fm::MedianOptions o;
    o.window = fm::Window::square(15);
    o.border = fm::Border::reflect;
    o.backend = fm::Backend::cpu;
    fm::median_separable(src.cview(), got.view(), o);
    EXPECT_EQ(fmtest::first_difference(want, got), "");
}

TEST(Background, SubtractClampsAndOffsets) {
    // A flat background of 100 under one bright and one dark pixel.
    std::vector<std::uint8_t> in(9 * 9, 100), out(in.size());
    in[40] = 250;
    in[41] = 10;
    fm::BackgroundOptions o;
    o.window = fm::Window::square(5);
    o.offset = 20.0;
    o.backend = fm::Backend::cpu;
    fm::background(fm::as_const(fm::view(in.data(), 9, 9)), fm::view(out.data(), 9, 9), o);
    EXPECT_EQ(out[0], 20);
    EXPECT_EQ(out[40], 170);
    EXPECT_EQ(out[41], 0);  // 10 - 100 + 20 clamps
    o.output = fm::BackgroundOutput::background;
    fm::background(fm::as_const(fm::view(in.data(), 9, 9)), fm::view(out.data(), 9, 9), o);
    EXPECT_EQ(out[40], 100);
}

std::string error_of(const fm::BackgroundOptions& o) {
    std::vector<float> in(20 * 10, 1.0f), out(in.size());
    try {
        fm::background(fm::as_const(fm::view(in.data(), 20, 10)), fm::view(out.data(), 20, 10), o);
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
        EXPECT_EQ(in, std::vector<float>(in.size(), 1.0f));
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(Background, BadArgumentsNameTheParameter) {
    fm::BackgroundOptions o;
    o.window = fm::Window::square(64);
    EXPECT_NE(error_of(o).find("window.size"), std::string::npos);
    o.window = fm::Window::circle(20);
    o.method = fm::BackgroundMethod::separable;
    EXPECT_NE(error_of(o).find("square"), std::string::npos);
    o.method = fm::BackgroundMethod::exact;
    o.offset = INFINITY;
    EXPECT_NE(error_of(o).find("offset"), std::string::npos);
    o.offset = 0;
    o.output = static_cast<fm::BackgroundOutput>(9);
    EXPECT_NE(error_of(o).find("output"), std::string::npos);
    EXPECT_EQ(fm::parse_background_method("separable"), fm::BackgroundMethod::separable);
    EXPECT_THROW(fm::parse_background_output("foreground"), fm::Error);
}

}  // namespace
