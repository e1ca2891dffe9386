// The fast CPU backend against the sort-based reference (MedianOptions::reference), bit for
// bit: every window path (networks, sliding histograms, float ranks), border, type and shape.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "fastmedian/fastmedian.hpp"
#include "support/cpu_threads.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

std::string describe(const Stack& s, const fm::Window& w, fm::Border b) {
    const std::string window = w.shape == fm::Window::Shape::square
        ? "square " + std::to_string(w.size)
        : "circle " + std::to_string(w.radius);
    return std::string(fm::pixel_type_name(s.type)) + " " + std::to_string(s.width) + "x" +
           std::to_string(s.height) + "x" + std::to_string(s.planes) + " " + window + " " +
           fm::border_name(b);
}

// Runs the fast CPU backend and the reference on `src`; expects the same bytes and an
// untouched input.
void expect_matches_reference(Stack& src, const fm::Window& w, fm::Border b, double cval = 3.0) {
    fm::MedianOptions o;
    o.window = w;
    o.border = b;
    o.cval = cval;
    o.backend = fm::Backend::cpu;
    Stack got(src.type, src.width, src.height, src.planes, 5, 1);
    Stack want(src.type, src.width, src.height, src.planes, 2, 3);
    const std::vector<std::uint8_t> before = src.bytes;
    EXPECT_EQ(fm::median2d(src.cview(), got.view(), o).backend, fm::Backend::cpu);
    o.reference = true;
    fm::median2d(src.cview(), want.view(), o);
    EXPECT_EQ(fmtest::first_difference(got, want), "") << describe(src, w, b);
    EXPECT_EQ(src.bytes, before) << describe(src, w, b) << ": input changed";
}

// Runs the fast CPU backend into rows whose stride is a multiple of 32 bytes and whose first
// pixel lies `offset` bytes past a 64-byte boundary, for each offset: the network kernels then
// write the vector-aligned middle of every row straight to it (streamed when the output is
// large). Expects the reference's bytes, and the poison around and between the rows untouched.
void expect_direct_rows_match_reference(Stack& src, const fm::Window& w,
                                        const std::vector<std::int64_t>& offsets) {
    fm::MedianOptions o;
    o.window = w;
    o.border = fm::Border::reflect;
    o.backend = fm::Backend::cpu;
    o.reference = true;
    Stack want(src.type, src.width, src.height);
    fm::median2d(src.cview(), want.view(), o);
    o.reference = false;
    const std::int64_t row_bytes = src.width * static_cast<std::int64_t>(fm::pixel_size(src.type));
    const std::int64_t stride = (row_bytes + 32) / 32 * 32;
    for (std::int64_t offset : offsets) {
        std::vector<std::uint8_t> buffer(static_cast<std::size_t>(64 + offset + stride * src.height), 0xA5);
        const auto misalign = reinterpret_cast<std::uintptr_t>(buffer.data()) % 64;
        std::uint8_t* base = buffer.data() + (64 - misalign) % 64 + offset;
        fm::ImageView got;
        got.data = base;
        got.type = src.type;
        got.width = src.width;
        got.height = src.height;
        got.row_stride = stride;
        got.plane_stride = stride * src.height;
        fm::median2d(src.cview(), got, o);
        const std::string what = describe(src, w, o.border) + " at offset " + std::to_string(offset);
        for (std::int64_t y = 0; y < src.height; ++y) {
            const std::uint8_t* row = base + y * stride;
            ASSERT_EQ(std::memcmp(row, want.bytes.data() + y * want.row_stride, static_cast<std::size_t>(row_bytes)), 0)
                << what << ", row " << y;
            for (std::int64_t i = row_bytes; i < stride; ++i) ASSERT_EQ(row[i], 0xA5) << what << ", row " << y;
        }
        for (const std::uint8_t* p = buffer.data(); p < base; ++p) ASSERT_EQ(*p, 0xA5) << what;
    }
}

// Byte offsets 0, step, 2 * step, ... below 32.
std::vector<std::int64_t> offsets_below_32(std::int64_t step) {
    std::vector<std::int64_t> offsets;
    for (std::int64_t offset = 0; offset < 32; offset += step) offsets.push_back(offset);
    return offsets;
}

const double kCircleRadii[] = {0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 4.5, 5.0, 5.5, 6.0, 10.0};

}  // namespace

TEST(MedianFast, EverySquareUpTo21EveryTypeAndBorder) {
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (int k = 1; k <= 21; k += 2) {
                Stack src(t, 45, 23, 2);
                fmtest::fill_random(src, seed++);
                expect_matches_reference(src, fm::Window::square(k), b);
            }
}

TEST(MedianFast, CirclesEveryTypeAndBorder) {
    std::uint32_t seed = 1000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (double r : kCircleRadii) {
                Stack src(t, 41, 27);
                fmtest::fill_random(src, seed++);
                expect_matches_reference(src, fm::Window::circle(r), b);
            }
}

TEST(MedianFast, LargeWindows) {
    std::uint32_t seed = 2000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : {fm::Border::replicate, fm::Border::reflect, fm::Border::constant})
            for (const fm::Window& w : {fm::Window::square(31), fm::Window::square(65),
                                        fm::Window::circle(20.0)}) {
                Stack src(t, 70, 50);
                fmtest::fill_random(src, seed++);
                expect_matches_reference(src, w, b);
            }
}

// u8 squares take the constant-time column histograms (blocks of 256 rows): against the
// reference on images of several blocks, every border, noise, ties and a constant image.
TEST(MedianFast, ConstantTimeU8SquaresAcrossBlocks) {
    std::uint32_t seed = 2500;
    for (fm::Border b : kAllBorders)
        for (int k : {17, 31})
            for (int levels : {0, 3, 1}) {
                Stack src(fm::PixelType::u8, 45, 560, 2);
                fmtest::fill_random(src, seed++, levels);
                expect_matches_reference(src, fm::Window::square(k), b, 250.0);
            }
}

// u16 and f32 squares take the constant-time column histograms over the ranks of each block's
// keys while a block holds at most 512 x k distinct keys (else Huang's sliding histogram),
// in blocks of 4 x k rows (64 to 256) and in strips of columns whose counts (a byte a key and
// column) fit 1 MiB. Against the reference on images of 2 to 5 blocks, every border: few keys
// (one strip), and enough keys for strips of 64 to 173 outputs (2^13 u16 levels at k = 31,
// 2^14 at k = 65, f32 keys of 5000 levels with NaN, infinities and signed zeros at k = 31).
// One thread, so that the bands (two a thread) hold several blocks.
TEST(MedianFast, ConstantTimeRankedSquaresAcrossBlocksAndStrips) {
    const fmtest::CpuThreads one_thread(1);
    struct Case {
        fm::PixelType type;
        int k, levels;
        std::int64_t width;
    };
    const Case cases[] = {{fm::PixelType::u16, 31, 1 << 13, 200}, {fm::PixelType::u16, 65, 1 << 14, 140},
                          {fm::PixelType::u16, 31, 3, 70}, {fm::PixelType::f32, 31, 5000, 200},
                          {fm::PixelType::f32, 17, 2, 40}};
    std::uint32_t seed = 2700;
    for (const Case& c : cases)
        for (fm::Border b : kAllBorders) {
            Stack src(c.type, c.width, 300);
            fmtest::fill_random(src, seed++, c.levels);
            if (c.type == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.02);
            expect_matches_reference(src, fm::Window::square(c.k), b, 1.0);
        }
}

// u16 and f32 squares whose blocks hold more than 512 x k distinct keys (and at most 2^16) take
// Huang's histogram over 4 output rows at once (RowGroupHistogram). Against the reference on
// images of several blocks whose row counts leave groups of 1 to 3 rows, every border: full-range
// noise (f32 with NaN, infinities and signed zeros), and a ramp across the row plus noise, whose
// median walks over many coarse bins from one pixel to the next.
TEST(MedianFast, RowGroupHistogramOnManyDistinctKeys) {
    // One thread, so that bands (two a thread) are tall enough for blocks of that many keys.
    const fmtest::CpuThreads one_thread(1);
    std::uint32_t seed = 2800;
    for (fm::PixelType t : {fm::PixelType::u16, fm::PixelType::f32})
        for (int k : {21, 31})
            for (int variant = 0; variant < 2; ++variant)
                for (fm::Border b : kAllBorders) {
                    if (k == 31 && b != fm::Border::reflect && b != fm::Border::constant) continue;
                    Stack src(t, k == 21 ? 150 : 230, 181);
                    fmtest::fill_random(src, seed++);
                    std::mt19937 rng(seed);
                    for (std::int64_t y = 0; y < src.height && variant == 1; ++y)
                        for (std::int64_t x = 0; x < src.width; ++x) {
                            const auto ramp = static_cast<std::uint32_t>(x * 431 + y * 37 + rng() % 4000);
                            if (t == fm::PixelType::f32)
                                src.at<float>(0, y, x) = static_cast<float>(ramp) * 0.37f;
                            else
                                src.at<std::uint16_t>(0, y, x) = static_cast<std::uint16_t>(ramp);
                        }
                    if (t == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.02);
                    expect_matches_reference(src, fm::Window::square(k), b, 1234.0);
                }
}

// Mostly NaN (ordered above +Inf) with many distinct other keys: the row groups serve the blocks
// and the median often sits in the last coarse bin of the ranks, which may be partial.
TEST(MedianFast, RowGroupHistogramWithTheMedianInTheLastCoarseBin) {
    const fmtest::CpuThreads one_thread(1);
    std::mt19937 rng(2950);
    for (fm::Border b : {fm::Border::replicate, fm::Border::constant}) {
        Stack src(fm::PixelType::f32, 400, 181);
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x)
                src.at<float>(0, y, x) = rng() % 10 < 6 ? std::numeric_limits<float>::quiet_NaN()
                                                        : static_cast<float>(rng() % 1000000) * 0.125f;
        expect_matches_reference(src, fm::Window::square(21), b, 7.0);
    }
}

// Float squares whose blocks hold more than 2^16 distinct keys go in strips of columns that each
// hold at most that many, ranked on their own (one thread, k = 21: blocks of 84 rows whose 104 x
// 720 input keys are nearly all distinct; strips of 610 outputs, so 700 columns leave a partial
// one). Against the reference with NaN, infinities and signed zeros.
TEST(MedianFast, RowGroupHistogramInStripsOfColumns) {
    const fmtest::CpuThreads one_thread(1);
    std::uint32_t seed = 2900;
    for (fm::Border b : {fm::Border::reflect, fm::Border::constant, fm::Border::wrap}) {
        Stack src(fm::PixelType::f32, 700, 200);
        fmtest::fill_random(src, seed++);
        fmtest::add_specials(src, seed, 0.01);
        expect_matches_reference(src, fm::Window::square(21), b, -2.5);
    }
}

// Windows too large for the reference in a test: the u8 constant-time path against the same
// pixels as u16 (the constant-time path over ranks, code of its own), and against u16 pixels
// of 256 x the u8 value plus a random low byte, whose medians' high bytes must be the u8
// medians (the median commutes with the order-keeping map to the high byte). On random u8
// pixels those hold more than 512 x 65 distinct keys in a block of 256 rows, so at k = 65
// the row groups (RowGroupHistogram) serve that block. Up to 255 x 255, the largest whose
// counts fit the 16-bit bins, and a ramp down the rows that moves the median across coarse
// bins. One thread, so that the bands hold blocks of 256 rows.
TEST(MedianFast, ConstantTimeU8SquaresEqualTheU16Paths) {
    const fmtest::CpuThreads one_thread(1);
    std::uint32_t seed = 2600;
    for (fm::Border b : kAllBorders)
        for (int k : {65, 255})
            for (int variant = 0; variant < 3; ++variant) {
                Stack u8(fm::PixelType::u8, 200, 300, 1);
                fmtest::fill_random(u8, seed++, variant == 1 ? 4 : 0);
                Stack u16(fm::PixelType::u16, u8.width, u8.height, 1), spread = u16;
                std::mt19937 rng(seed);
                for (std::int64_t y = 0; y < u8.height; ++y)
                    for (std::int64_t x = 0; x < u8.width; ++x) {
                        if (variant == 2) u8.at<std::uint8_t>(0, y, x) = static_cast<std::uint8_t>(y * 255 / u8.height + x % 3);
                        const std::uint8_t v = u8.at<std::uint8_t>(0, y, x);
                        u16.at<std::uint16_t>(0, y, x) = v;
                        spread.at<std::uint16_t>(0, y, x) = static_cast<std::uint16_t>(v * 256 + rng() % 256);
                    }
                fm::MedianOptions o;
                o.window = fm::Window::square(k);
                o.border = b;
                o.backend = fm::Backend::cpu;
                Stack got8(fm::PixelType::u8, u8.width, u8.height, 1), got16 = u16, got_spread = u16;
                o.cval = 77.0;
                fm::median2d(u8.cview(), got8.view(), o);
                fm::median2d(u16.cview(), got16.view(), o);
                o.cval = 77.0 * 256 + 5;
                fm::median2d(spread.cview(), got_spread.view(), o);
                for (std::int64_t y = 0; y < u8.height; ++y)
                    for (std::int64_t x = 0; x < u8.width; ++x) {
                        const int want = got8.at<std::uint8_t>(0, y, x);
                        ASSERT_EQ(want, got16.at<std::uint16_t>(0, y, x))
                            << describe(u8, o.window, b) << " variant " << variant << " at " << x << "," << y;
                        ASSERT_EQ(want, got_spread.at<std::uint16_t>(0, y, x) >> 8)
                            << describe(u8, o.window, b) << " variant " << variant << " spread, at " << x << "," << y;
                    }
            }
}

TEST(MedianFast, ImagesSplitIntoBandsAndBlocksOnAllThreads) {
    // Big enough for several threads, bands and 64-row blocks per band.
    std::uint32_t seed = 3000;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(5),
                                    fm::Window::square(7), fm::Window::square(9),
                                    fm::Window::circle(2.0), fm::Window::circle(6.0)}) {
            Stack src(t, 301, 203, 2);
            fmtest::fill_random(src, seed++);
            expect_matches_reference(src, w, fm::Border::mirror);
        }
}

TEST(MedianFast, OutputsOfAtLeast8MiBAreStreamedOutAlike) {
    // Outputs this large go out with streaming stores (floats converted in place first); the
    // rows of `got` (5 pixels of padding) start at every alignment.
    std::uint32_t seed = 3100;
    for (fm::PixelType t : kAllTypes) {
        const std::int64_t width = t == fm::PixelType::u8 ? 2903 : 1501;
        Stack src(t, width, (std::int64_t{8} << 20) / (width * static_cast<std::int64_t>(fm::pixel_size(t))) + 1);
        fmtest::fill_random(src, seed++, 9);
        if (t == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.01);
        expect_matches_reference(src, fm::Window::square(3), fm::Border::reflect);
    }
}

TEST(MedianFast, RowsWrittenStraightToTheOutputAtEveryAlignment) {
    // Odd and even heights cover the 3x3 kernel's pairs of rows and its last single row, and
    // the tiled networks' (squares 9 to 15, circles 4 to 6) partial tiles of rows; square 17
    // takes the histograms.
    std::uint32_t seed = 3200;
    for (fm::PixelType t : kAllTypes)
        for (std::int64_t width : {5, 16, 17, 40, 70, 129})
            for (std::int64_t height : {1, 2, 7})
                for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(5), fm::Window::circle(2.0),
                                            fm::Window::square(9), fm::Window::square(11),
                                            fm::Window::square(13), fm::Window::square(15),
                                            fm::Window::square(17), fm::Window::circle(4.0),
                                            fm::Window::circle(6.0)}) {
                    Stack src(t, width, height);
                    fmtest::fill_random(src, seed++);
                    expect_direct_rows_match_reference(src, w, offsets_below_32(fm::pixel_size(t)));
                }
}

TEST(MedianFast, LargeOutputsStreamedStraightToTheOutputAtEveryAlignment) {
    std::uint32_t seed = 3300;
    for (fm::PixelType t : kAllTypes) {
        const auto px = static_cast<std::int64_t>(fm::pixel_size(t));
        const std::int64_t width = 1031;
        Stack src(t, width, (std::int64_t{8} << 20) / (width * px) + 2);
        fmtest::fill_random(src, seed++, 9);
        if (t == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.01);
        expect_direct_rows_match_reference(src, fm::Window::square(3), offsets_below_32(px));
    }
}

TEST(MedianFast, EveryWidthAroundTheVectorWidths) {
    // Widths 1..70 cover partial vectors of 32 u8, 16 u16 and 8 u32 lanes (AVX2) and of 64, 32
    // and 16 (AVX-512) on every path.
    std::uint32_t seed = 4000;
    for (fm::PixelType t : kAllTypes)
        for (int width = 1; width <= 70; ++width)
            for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(7),
                                        fm::Window::circle(3.0), fm::Window::square(11),
                                        fm::Window::square(13), fm::Window::square(15)}) {
                Stack src(t, width, 6);
                fmtest::fill_random(src, seed++);
                expect_matches_reference(src, w, kAllBorders[seed % 5]);
            }
}

TEST(MedianFast, ThinAndTinyImagesWithWindowsLargerThanTheImage) {
    const std::pair<int, int> shapes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {1, 40}, {40, 1}, {3, 5}};
    std::uint32_t seed = 5000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (auto [width, height] : shapes)
                for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(5),
                                            fm::Window::square(13), fm::Window::circle(2.5)}) {
                    Stack src(t, width, height);
                    fmtest::fill_random(src, seed++);
                    expect_matches_reference(src, w, b, 200.0);
                }
}

TEST(MedianFast, TiesAndConstantImages) {
    std::uint32_t seed = 6000;
    for (fm::PixelType t : kAllTypes)
        for (int levels : {1, 2, 3, 17})
            for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(5),
                                        fm::Window::square(7), fm::Window::square(11),
                                        fm::Window::square(15), fm::Window::square(17),
                                        fm::Window::circle(1.5),
                                        fm::Window::circle(7.0)}) {
                Stack src(t, 67, 31);
                fmtest::fill_random(src, seed++, levels);
                expect_matches_reference(src, w, fm::Border::constant, levels == 1 ? 0.0 : 1.0);
            }
}

TEST(MedianFast, FloatNaNInfinitiesAndSignedZeros) {
    std::uint32_t seed = 7000;
    for (double fraction : {0.05, 0.5, 0.9})
        for (fm::Border b : kAllBorders)
            for (const fm::Window& w : {fm::Window::square(3), fm::Window::square(5),
                                        fm::Window::square(7), fm::Window::square(9),
                                        fm::Window::square(13), fm::Window::square(15),
                                        fm::Window::circle(2.0), fm::Window::circle(5.0)}) {
                Stack src(fm::PixelType::f32, 53, 29);
                fmtest::fill_random(src, seed++, fraction < 0.5 ? 0 : 5);
                fmtest::add_specials(src, seed++, fraction);
                const double cval = fraction > 0.5 ? -0.0 : std::numeric_limits<double>::quiet_NaN();
                expect_matches_reference(src, w, b, cval);
            }
}

TEST(MedianFast, FloatHistogramsWhoseLastCoarseBinIsPartial) {
    // Mostly NaN: the median sits in the last coarse bin of the ranked keys, whose fine bins
    // run past the number of distinct keys (a walk from its end once read past the histogram;
    // valgrind saw it, and Python's median_filter crashed on such a block). Square 17 takes the
    // constant-time histograms over ranks, circle 7 Huang's; square 9 a network.
    std::mt19937 rng(9000);
    for (const fm::Window& w : {fm::Window::square(9), fm::Window::square(17), fm::Window::circle(7.0)})
        for (std::int64_t width : {26, 31, 45})
            for (int repeat = 0; repeat < 6; ++repeat) {
                Stack src(fm::PixelType::f32, width, 2 + repeat % 3);
                for (std::int64_t y = 0; y < src.height; ++y)
                    for (std::int64_t x = 0; x < src.width; ++x)
                        src.at<float>(0, y, x) = rng() % 10 < 7 ? std::numeric_limits<float>::quiet_NaN()
                                                                : static_cast<float>(rng() % 1000) * 0.25f;
                expect_matches_reference(src, w, fm::Border::replicate);
            }
}

TEST(MedianFast, FullRangeIntegersWithFarJumps) {
    // Alternating extremes make the tracked histogram median jump across whole coarse bins.
    for (fm::PixelType t : {fm::PixelType::u8, fm::PixelType::u16}) {
        Stack src(t, 97, 41);
        std::mt19937 rng(8000);
        for (std::int64_t y = 0; y < src.height; ++y)
            for (std::int64_t x = 0; x < src.width; ++x) {
                const bool high = ((x / 7) + (y / 5)) % 2 == 1;
                const std::uint32_t jitter = rng() % 3;
                if (t == fm::PixelType::u8)
                    src.at<std::uint8_t>(0, y, x) = static_cast<std::uint8_t>(high ? 255 - jitter : jitter);
                else
                    src.at<std::uint16_t>(0, y, x) = static_cast<std::uint16_t>(high ? 65535 - jitter : jitter);
            }
        for (const fm::Window& w : {fm::Window::square(5), fm::Window::square(11),
                                    fm::Window::square(25), fm::Window::circle(9.0)})
            expect_matches_reference(src, w, fm::Border::wrap);
    }
}
