// The CPU backend against hand-made answers and an independent naive median.
#include <gtest/gtest.h>

#include <cstring>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_median.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {


fm::MedianOptions cpu_options(fm::Window w, fm::Border b, double cval = 7.0) {
    fm::MedianOptions o;
    o.window = w;
    o.border = b;
    o.cval = cval;
    o.backend = fm::Backend::cpu;
    return o;
}

// Runs the CPU backend and the naive median on `src` and expects identical bytes.
void expect_matches_naive(Stack& src, const fm::MedianOptions& o, const std::string& what) {
    Stack got(src.type, src.width, src.height, src.planes, 2, 2);
    Stack want(src.type, src.width, src.height, src.planes, 2, 2);
    const std::vector<std::uint8_t> before = src.bytes;
    const fm::RunInfo info = fm::median2d(src.cview(), got.view(), o);
    EXPECT_EQ(info.backend, fm::Backend::cpu);
    fmtest::naive_median(src, want, o.window, o.border, o.cval);
    EXPECT_EQ(fmtest::first_difference(got, want), "") << what;
    EXPECT_EQ(src.bytes, before) << what << ": input changed";
}

}  // namespace

TEST(MedianCpu, HandExample3x3Replicate) {
    // 4x3 image; each output computed by hand with edge pixels replicated.
    const std::uint8_t in[12] = {1, 9, 2, 8,
                                 3, 7, 4, 6,
                                 5, 5, 0, 9};
    const std::uint8_t want[12] = {3, 3, 7, 6,
                                   5, 4, 6, 6,
                                   5, 5, 5, 6};
    std::uint8_t out[12];
    std::memset(out, 0xEE, sizeof out);
    fm::median2d(fm::view(in, 4, 3), fm::view(out, 4, 3),
                 cpu_options(fm::Window::square(3), fm::Border::replicate));
    for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], want[i]) << "pixel " << i;
}

TEST(MedianCpu, RandomImagesEveryTypeBorderAndWindow) {
    const fm::Window windows[] = {fm::Window::square(1), fm::Window::square(3),
                                  fm::Window::square(5), fm::Window::square(7),
                                  fm::Window::circle(0.5), fm::Window::circle(1.5),
                                  fm::Window::circle(2.5), fm::Window::circle(3)};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window& w : windows) {
                Stack src(t, 13, 9, 2);
                fmtest::fill_random(src, seed++);
                expect_matches_naive(src, cpu_options(w, b),
                                     std::string(fm::pixel_type_name(t)) + " " +
                                         fm::border_name(b) + " seed " + std::to_string(seed));
            }
}

TEST(MedianCpu, OddShapesAndWindowsLargerThanTheImage) {
    const std::pair<int, int> shapes[] = {{1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 2}, {5, 4}};
    std::uint32_t seed = 100;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (auto [w, h] : shapes)
                for (int k : {3, 9, 15}) {
                    Stack src(t, w, h);
                    fmtest::fill_random(src, seed++);
                    expect_matches_naive(src, cpu_options(fm::Window::square(k), b),
                                         std::to_string(w) + "x" + std::to_string(h) + " k" +
                                             std::to_string(k) + " " + fm::border_name(b));
                }
}

TEST(MedianCpu, TiesAndConstantImages) {
    std::uint32_t seed = 200;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders) {
            Stack ties(t, 31, 17, 1);
            fmtest::fill_random(ties, seed++, 3);
            expect_matches_naive(ties, cpu_options(fm::Window::square(5), b, 1.0), "ties");

            Stack flat(t, 19, 11, 1);
            fmtest::fill_random(flat, seed++, 1);
            Stack out(t, 19, 11, 1);
            fm::median2d(flat.cview(), out.view(), cpu_options(fm::Window::square(7), b, 0.0));
            EXPECT_EQ(fmtest::first_difference(flat, out), "") << "constant image changed";
        }
}

TEST(MedianCpu, FloatSpecialsFollowTheDocumentedOrder) {
    std::uint32_t seed = 300;
    for (fm::Border b : kAllBorders)
        for (double fraction : {0.1, 0.5, 0.9}) {
            Stack src(fm::PixelType::f32, 23, 14, 2);
            fmtest::fill_random(src, seed++);
            fmtest::add_specials(src, seed++, fraction);
            expect_matches_naive(src, cpu_options(fm::Window::square(3), b), "specials");
            expect_matches_naive(src, cpu_options(fm::Window::circle(2), b,
                                                  std::numeric_limits<double>::quiet_NaN()),
                                 "specials, NaN cval");
        }
}

TEST(MedianCpu, NaNResultIsTheQuietNaN) {
    const float nan_neg = -std::numeric_limits<float>::quiet_NaN();
    float in[9], out[9];
    for (float& v : in) v = nan_neg;
    in[4] = 1.0f;
    fm::median2d(fm::view(static_cast<const float*>(in), 3, 3), fm::view(out, 3, 3),
                 cpu_options(fm::Window::square(3), fm::Border::replicate));
    std::uint32_t bits;
    std::memcpy(&bits, &out[4], 4);
    EXPECT_EQ(bits, 0x7FC00000u);
}

TEST(MedianCpu, IntegerCvalIsRoundedAndClamped) {
    // A 1x1 image with a 3x3 window: 8 outside values and 1 inside; the median is the outside.
    const std::uint8_t in[1] = {10};
    std::uint8_t out[1];
    fm::median2d(fm::view(in, 1, 1), fm::view(out, 1, 1),
                 cpu_options(fm::Window::square(3), fm::Border::constant, 300.0));
    EXPECT_EQ(out[0], 255);
    fm::median2d(fm::view(in, 1, 1), fm::view(out, 1, 1),
                 cpu_options(fm::Window::square(3), fm::Border::constant, 2.6));
    EXPECT_EQ(out[0], 3);
    fm::median2d(fm::view(in, 1, 1), fm::view(out, 1, 1),
                 cpu_options(fm::Window::square(3), fm::Border::constant, -4.0));
    EXPECT_EQ(out[0], 0);
}
