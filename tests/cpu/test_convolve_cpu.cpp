// Convolution on the CPU: the plain-loop reference against an independent statement of the
// semantics (support/naive_convolve.hpp), the fast backend against the reference bit for bit
// (every mask shape and size class, border, type, output type; odd widths for the vector
// tails; padded strides; float specials), the rounding and clamping rules, the Gaussian mask,
// accuracy against double, and argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_convolve.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

std::string describe(const Stack& s, const fm::ConvolveOptions& o) {
    std::string m = o.mask.empty()
        ? "separable " + std::to_string(o.row_mask.size()) + "/" + std::to_string(o.column_mask.size())
        : "mask " + std::to_string(o.mask_width) + "x" + std::to_string(o.mask_height);
    return std::string(fm::pixel_type_name(s.type)) + " " + std::to_string(s.width) + "x" +
           std::to_string(s.height) + "x" + std::to_string(s.planes) + " " + m + " " +
           fm::border_name(o.border) + (o.output == fm::ConvolveOutput::f32 ? " ->f32" : "") +
           (o.normalize ? " normalized" : "");
}

// Runs `o` (with reference or backend as given) and returns the output.
Stack run(Stack& src, fm::ConvolveOptions o, bool reference) {
    o.reference = reference;
    o.backend = fm::Backend::cpu;
    Stack out(fmtest::output_type(src.type, o.output), src.width, src.height, src.planes, 5, 1);
    fm::convolve(src.cview(), out.view(), o);
    return out;
}

void expect_reference_equals_naive(Stack& src, const fm::ConvolveOptions& o) {
    Stack want(fmtest::output_type(src.type, o.output), src.width, src.height, src.planes, 2, 3);
    fmtest::naive_convolve(src, want, o);
    const Stack got = run(src, o, true);
    EXPECT_EQ(fmtest::first_difference(got, want), "") << describe(src, o);
}

void expect_fast_equals_reference(Stack& src, const fm::ConvolveOptions& o) {
    const std::vector<std::uint8_t> before = src.bytes;
    const Stack want = run(src, o, true);
    const Stack got = run(src, o, false);
    EXPECT_EQ(fmtest::first_difference(got, want), "") << describe(src, o);
    EXPECT_EQ(src.bytes, before) << describe(src, o) << ": input changed";
}

fm::ConvolveOptions generic(int kw, int kh, std::uint32_t seed) {
    return fm::ConvolveOptions::generic(fmtest::test_mask(kw * kh, seed), kw, kh);
}

fm::ConvolveOptions separable(int kw, int kh, std::uint32_t seed) {
    return fm::ConvolveOptions::separable(fmtest::test_mask(kw, seed), fmtest::test_mask(kh, seed + 7));
}

Stack random_image(fm::PixelType t, std::int64_t w, std::int64_t h, std::int64_t p, std::uint32_t seed) {
    Stack s(t, w, h, p);
    fmtest::fill_random(s, seed);
    if (t == fm::PixelType::f32)  // keep magnitudes moderate: random exponents up to 2^20
        for (std::int64_t z = 0; z < p; ++z)
            for (std::int64_t y = 0; y < h; ++y)
                for (std::int64_t x = 0; x < w; ++x) s.at<float>(z, y, x) = std::ldexp(s.at<float>(z, y, x), -10);
    return s;
}

}  // namespace

TEST(ConvolveReference, EqualsNaiveStatement) {
    std::uint32_t seed = 1;
    const int shapes[][2] = {{1, 1}, {3, 3}, {5, 5}, {3, 7}, {9, 1}, {1, 5}, {7, 7}};
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& k : shapes)
                for (int variant = 0; variant < 3; ++variant) {
                    Stack src = random_image(t, 13, 9, 2, seed++);
                    fm::ConvolveOptions o = variant == 2 ? separable(k[0], k[1], seed) : generic(k[0], k[1], seed);
                    o.border = b;
                    o.cval = 7.6;
                    o.normalize = variant == 1;
                    o.output = variant == 1 ? fm::ConvolveOutput::f32 : fm::ConvolveOutput::same;
                    expect_reference_equals_naive(src, o);
                }
}

TEST(ConvolveReference, MasksLargerThanTheImage) {
    std::uint32_t seed = 100;
    for (fm::Border b : kAllBorders)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{4, 2}}) {
            Stack src = random_image(fm::PixelType::u16, w, h, 1, seed++);
            fm::ConvolveOptions o = generic(9, 7, seed);
            o.border = b;
            o.cval = 1000;
            expect_reference_equals_naive(src, o);
            o = separable(11, 5, seed);
            o.border = b;
            expect_reference_equals_naive(src, o);
        }
}

TEST(ConvolveCpu, EqualsReferenceEveryShapeTypeBorderAndOutput) {
    std::uint32_t seed = 1000;
    // Widths around the AVX2 steps (8 and 32 outputs) exercise every tail.
    const int widths[] = {1, 7, 8, 33, 71};
    const int shapes[][2] = {{1, 1}, {3, 3}, {5, 5}, {9, 9}, {3, 11}, {15, 1}, {1, 9}, {31, 31}};
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const auto& k : shapes)
                for (int w : widths) {
                    const bool big = k[0] * k[1] > 200;
                    if (big && w != 71) continue;
                    Stack src = random_image(t, w, big ? 12 : 37, 2, seed++);
                    for (int variant = 0; variant < 3; ++variant) {
                        fm::ConvolveOptions o = variant == 2 ? separable(k[0], k[1], seed) : generic(k[0], k[1], seed);
                        o.border = b;
                        o.cval = 250.0;
                        o.normalize = variant == 1;
                        o.output = variant == 1 ? fm::ConvolveOutput::f32 : fm::ConvolveOutput::same;
                        expect_fast_equals_reference(src, o);
                    }
                }
}

TEST(ConvolveCpu, LongSeparableMasksAndGaussians) {
    std::uint32_t seed = 5000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders) {
            Stack src = random_image(t, 45, 30, 1, seed++);
            for (double sigma : {0.5, 1.0, 3.0, 10.0}) {
                fm::ConvolveOptions o = fm::ConvolveOptions::gaussian(sigma);
                o.border = b;
                o.cval = 17;
                expect_fast_equals_reference(src, o);
            }
            fm::ConvolveOptions o = separable(131, 3, seed);
            o.border = b;
            expect_fast_equals_reference(src, o);
        }
}

TEST(ConvolveCpu, FloatSpecialsPropagate) {
    std::uint32_t seed = 7000;
    for (fm::Border b : kAllBorders) {
        Stack src = random_image(fm::PixelType::f32, 40, 17, 1, seed++);
        fmtest::add_specials(src, seed, 0.02);
        for (int variant = 0; variant < 2; ++variant) {
            fm::ConvolveOptions o = variant == 0 ? generic(5, 3, seed) : separable(7, 5, seed);
            o.border = b;
            o.cval = std::numeric_limits<double>::quiet_NaN();
            expect_fast_equals_reference(src, o);
            expect_reference_equals_naive(src, o);
        }
    }
    // A NaN under a zero weight still makes the output NaN (0 * NaN), written as 0x7FC00000.
    std::vector<float> in = {1.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f}, out(3, 0.0f);
    fm::ConvolveOptions o = fm::ConvolveOptions::generic({1.0f, 0.0f, 1.0f}, 3, 1);
    o.backend = fm::Backend::cpu;
    fm::convolve(fm::view(static_cast<const float*>(in.data()), 3, 1), fm::view(out.data(), 3, 1), o);
    std::uint32_t bits;
    std::memcpy(&bits, &out[0], 4);
    EXPECT_EQ(bits, 0x7FC00000u);
    std::memcpy(&bits, &out[1], 4);
    EXPECT_EQ(bits, 0x7FC00000u);  // 0 * NaN
    std::memcpy(&bits, &out[2], 4);
    EXPECT_EQ(bits, 0x7FC00000u);
}

TEST(ConvolveCpu, PaddedStridesAndPlanes) {
    for (fm::PixelType t : kAllTypes) {
        Stack src(t, 50, 21, 3, 9, 4);
        fmtest::fill_random(src, 77);
        for (int variant = 0; variant < 2; ++variant) {
            fm::ConvolveOptions o = variant == 0 ? generic(7, 5, 3) : separable(9, 3, 4);
            o.border = fm::Border::reflect;
            expect_fast_equals_reference(src, o);
        }
    }
}

TEST(Convolve, IntegerOutputsRoundHalvesAwayFromZeroAndClamp) {
    std::vector<std::uint8_t> in = {1, 3, 5, 7, 200, 0}, out(6, 9);
    fm::ConvolveOptions o = fm::ConvolveOptions::generic({0.5f}, 1, 1);
    for (bool reference : {false, true}) {
        o.reference = reference;
        o.backend = fm::Backend::cpu;
        fm::convolve(fm::view(static_cast<const std::uint8_t*>(in.data()), 6, 1), fm::view(out.data(), 6, 1), o);
        EXPECT_EQ(out, (std::vector<std::uint8_t>{1, 2, 3, 4, 100, 0}));  // 0.5 -> 1, 1.5 -> 2
    }
    o.mask = {-1.0f};
    fm::convolve(fm::view(static_cast<const std::uint8_t*>(in.data()), 6, 1), fm::view(out.data(), 6, 1), o);
    EXPECT_EQ(out, (std::vector<std::uint8_t>(6, 0)));
    o.mask = {300.0f};
    fm::convolve(fm::view(static_cast<const std::uint8_t*>(in.data()), 6, 1), fm::view(out.data(), 6, 1), o);
    EXPECT_EQ(out, (std::vector<std::uint8_t>{255, 255, 255, 255, 255, 0}));
    // Terms that overflow to +Inf and -Inf sum to NaN, which becomes 0; +Inf alone the maximum.
    // The flipped mask is {-3e38, 3e38, 3e38}: pixel 0 reads the constant 0 under -3e38.
    std::vector<std::uint16_t> in16 = {60000, 60000, 60000}, out16(3, 9);
    o = fm::ConvolveOptions::generic({3e38f, 3e38f, -3e38f}, 3, 1);
    o.border = fm::Border::constant;
    o.cval = 0;
    o.backend = fm::Backend::cpu;
    fm::convolve(fm::view(static_cast<const std::uint16_t*>(in16.data()), 3, 1), fm::view(out16.data(), 3, 1), o);
    EXPECT_EQ(out16, (std::vector<std::uint16_t>{65535, 0, 0}));
}

TEST(Convolve, FloatOutputOfIntegerImages) {
    std::vector<std::uint16_t> in = {10, 20, 30, 40};
    std::vector<float> out(4, 0.0f);
    fm::ConvolveOptions o = fm::ConvolveOptions::separable({1.0f, 2.0f, 3.0f}, {1.0f});
    o.output = fm::ConvolveOutput::f32;
    o.normalize = true;
    o.backend = fm::Backend::cpu;
    fm::convolve(fm::view(static_cast<const std::uint16_t*>(in.data()), 4, 1), fm::view(out.data(), 4, 1), o);
    // True convolution: out(x) = (3 in(x-1) + 2 in(x) + 1 in(x+1)) / 6, replicate border.
    const float sixth[] = {1.0f / 6, 2.0f / 6, 3.0f / 6};
    for (int x = 0; x < 4; ++x) {
        const float l = in[x > 0 ? x - 1 : 0], c = in[x], r = in[x < 3 ? x + 1 : 3];
        EXPECT_NEAR(out[x], sixth[2] * l + sixth[1] * c + sixth[0] * r, 1e-4) << x;
    }
}

TEST(Convolve, AccurateAgainstDouble) {
    // 31x31 and Gaussian sigma 3 on a real-looking u16 image, float output: within 1e-5 of the
    // float64 sum relative to the sum of |terms|.
    Stack src(fm::PixelType::u16, 60, 50, 1);
    fmtest::fill_random(src, 9);
    for (int variant = 0; variant < 2; ++variant) {
        fm::ConvolveOptions o = variant == 0 ? generic(31, 31, 5) : fm::ConvolveOptions::gaussian(3.0);
        o.output = fm::ConvolveOutput::f32;
        Stack got = run(src, o, false);
        const int kw = variant == 0 ? 31 : static_cast<int>(o.row_mask.size());
        const int kh = variant == 0 ? 31 : static_cast<int>(o.column_mask.size());
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                double sum = 0.0, magnitude = 0.0;
                for (int j = 0; j < kh; ++j)
                    for (int i = 0; i < kw; ++i) {
                        const double w = variant == 0 ? double(o.mask[j * kw + i])
                                                      : double(o.row_mask[i]) * double(o.column_mask[j]);
                        const double v = src.at<std::uint16_t>(0, fmtest::fold(y + kh / 2 - j, src.height, o.border),
                                                                fmtest::fold(x + kw / 2 - i, src.width, o.border));
                        sum += w * v;
                        magnitude += std::fabs(w * v);
                    }
                const float g = got.at<float>(0, y, x);
                ASSERT_LE(std::fabs(g - sum), 1e-5 * magnitude) << x << "," << y;
            }
    }
}

TEST(GaussianMask, ScipysTruncationAndNormalisation) {
    for (auto [sigma, radius] : {std::pair{0.1, 0}, std::pair{0.5, 2}, std::pair{1.0, 4},
                                 std::pair{3.0, 12}, std::pair{10.0, 40}, std::pair{127.0, 508}}) {
        const std::vector<float> m = fm::gaussian_mask(sigma);
        ASSERT_EQ(m.size(), static_cast<std::size_t>(2 * radius + 1)) << sigma;
        double sum = 0.0;
        for (std::size_t i = 0; i < m.size(); ++i) {
            sum += m[i];
            EXPECT_EQ(m[i], m[m.size() - 1 - i]);
            const double x = double(i) - radius;
            EXPECT_NEAR(m[i] / m[radius], std::exp(-x * x / (2 * sigma * sigma)), 1e-6);
        }
        EXPECT_NEAR(sum, 1.0, 1e-6) << sigma;
    }
    // scipy: gaussian_filter1d's weights for sigma 1 (scipy.ndimage._filters._gaussian_kernel1d).
    const std::vector<float> m = fm::gaussian_mask(1.0);
    EXPECT_NEAR(m[4], 0.39894346, 1e-7);
    EXPECT_NEAR(m[3], 0.24197144, 1e-7);
    EXPECT_NEAR(m[0], 0.00013383, 1e-8);
    for (double bad : {0.0, -1.0, 127.5, std::nan(""), std::numeric_limits<double>::infinity()}) {
        try {
            fm::gaussian_mask(bad);
            ADD_FAILURE() << bad;
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
            EXPECT_NE(std::string(e.what()).find("sigma"), std::string::npos) << e.what();
        }
    }
}

namespace {

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error thrown";
    return "";
}

}  // namespace

TEST(Convolve, BadArgumentsNameTheParameter) {
    std::vector<std::uint8_t> in(6 * 4, 1), out(in.size(), 0);
    std::vector<float> fout(in.size(), 0.0f);
    const auto src = fm::as_const(fm::view(in.data(), 6, 4));
    const auto dst = fm::view(out.data(), 6, 4);
    auto call = [&](const fm::ConvolveOptions& o) { return error_of([&] { fm::convolve(src, dst, o); }); };
    auto contains = [](const std::string& s, const char* part) { return s.find(part) != std::string::npos; };

    EXPECT_TRUE(contains(call(fm::ConvolveOptions()), "mask is empty"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::generic({1, 2, 3}, 3, 3)), "mask has 3 values but mask_width x mask_height is 3 x 3"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::generic({1, 2}, 2, 1)), "mask_width must be odd"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::generic(std::vector<float>(65, 1.0f), 1, 65)), "mask_height must be odd and in 1..63, got 65"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::generic({1, NAN, 3}, 3, 1)), "mask[1] is nan"));
    fm::ConvolveOptions both = fm::ConvolveOptions::generic({1}, 1, 1);
    both.row_mask = {1};
    EXPECT_TRUE(contains(call(both), "not both"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::separable({1, 1}, {1})), "row_mask has 2 values"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::separable({1}, {})), "column_mask is empty"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::separable({1}, std::vector<float>(1025, 1.0f))), "column_mask has 1025 values"));
    EXPECT_TRUE(contains(call(fm::ConvolveOptions::separable({1}, {INFINITY})), "column_mask[0] is inf"));
    fm::ConvolveOptions o = fm::ConvolveOptions::generic({-1, 2, -1}, 3, 1);
    o.normalize = true;
    EXPECT_TRUE(contains(call(o), "normalize needs a mask whose sum is not 0, but mask sums to 0"));
    o = fm::ConvolveOptions::separable({1}, {1, -1, 0});
    o.normalize = true;
    EXPECT_TRUE(contains(call(o), "column_mask sums to 0"));
    o = fm::ConvolveOptions::generic({1}, 1, 1);
    o.border = fm::Border::constant;
    o.cval = NAN;
    EXPECT_TRUE(contains(call(o), "cval must be finite"));
    o = fm::ConvolveOptions::generic({1}, 1, 1);
    o.output = fm::ConvolveOutput::f32;
    EXPECT_TRUE(contains(call(o), "dst.type (u8) must be f32 for output f32"));
    o.output = fm::ConvolveOutput::same;
    EXPECT_TRUE(contains(error_of([&] { fm::convolve(src, fm::view(fout.data(), 6, 4), o); }),
                         "dst.type (f32) must be u8"));
    EXPECT_TRUE(contains(error_of([&] { fm::convolve(src, fm::view(out.data(), 5, 4), o); }), "dst size"));
    EXPECT_TRUE(contains(error_of([&] { fm::convolve(src, fm::view(in.data(), 6, 4), o); }), "overlaps"));
    o.device = -1;
    EXPECT_TRUE(contains(call(o), "device must be at least 0"));
    o.device = 0;
    o.devices = {2, 2};
    EXPECT_TRUE(contains(call(o), "devices lists device 2 twice"));
    EXPECT_EQ(out, std::vector<std::uint8_t>(out.size(), 0)) << "dst written by a failed call";
}
