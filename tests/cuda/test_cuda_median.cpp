// The CUDA backend gives the CPU reference's bits: random data, ties, constant images, float
// specials, odd sizes, padded strides, every border and window. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {


class CudaMedian : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }

    // Runs the CPU reference and the CUDA backend on `src` (outputs poisoned differently) and
    // expects identical bytes.
    static void expect_cuda_equals_cpu(Stack& src, fm::Window w, fm::Border b, double cval,
                                       const std::string& what) {
        Stack cpu(src.type, src.width, src.height, src.planes, 1, 0);
        Stack gpu(src.type, src.width, src.height, src.planes, 5, 3);
        std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
        const auto before = src.bytes;
        fm::MedianOptions o;
        o.window = w;
        o.border = b;
        o.cval = cval;
        o.reference = true;  // the simple sort-based reference
        fm::median2d(src.cview(), cpu.view(), o);
        o.reference = false;
        o.backend = fm::Backend::cuda;
        const fm::RunInfo info = fm::median2d(src.cview(), gpu.view(), o);
        ASSERT_EQ(info.backend, fm::Backend::cuda);
        EXPECT_EQ(fmtest::first_difference(cpu, gpu), "") << what;
        EXPECT_EQ(src.bytes, before) << what << ": input changed";
    }

    // The same against the CPU backend (itself checked against the reference in the CPU
    // tests), for windows whose reference sort would take minutes.
    static void expect_cuda_equals_cpu_backend(Stack& src, fm::Window w, fm::Border b, double cval,
                                               const std::string& what) {
        Stack cpu(src.type, src.width, src.height, src.planes, 1, 0);
        Stack gpu(src.type, src.width, src.height, src.planes, 5, 3);
        std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
        fm::MedianOptions o;
        o.window = w;
        o.border = b;
        o.cval = cval;
        o.backend = fm::Backend::cpu;
        fm::median2d(src.cview(), cpu.view(), o);
        o.backend = fm::Backend::cuda;
        fm::median2d(src.cview(), gpu.view(), o);
        EXPECT_EQ(fmtest::first_difference(cpu, gpu), "") << what;
    }
};

std::string label(fm::PixelType t, fm::Border b, const fm::Window& w) {
    return std::string(fm::pixel_type_name(t)) + " " + fm::border_name(b) +
           (w.shape == fm::Window::Shape::square ? " k=" + std::to_string(w.size)
                                                 : " r=" + std::to_string(w.radius));
}

// Values that keep a float image off the 16-bit keys of whole numbers 0..65535.
const float kNotWholeNumbers[] = {0.5f, -0.0f, 65536.0f, 65535.5f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(), 1e-40f};

// A whole number 0..65535 or, with `others`, one time in 3000 one of kNotWholeNumbers.
float whole_number_or_other(std::mt19937& rng, bool others) {
    float v = static_cast<float>(rng() % 65536);
    if (others && rng() % 3000 == 0) v = kNotWholeNumbers[rng() % std::size(kNotWholeNumbers)];
    return v;
}

}  // namespace

TEST_F(CudaMedian, RandomEveryTypeBorderAndWindow) {
    const fm::Window windows[] = {fm::Window::square(1),  fm::Window::square(3),
                                  fm::Window::square(5),  fm::Window::square(7),
                                  fm::Window::square(9),  fm::Window::square(11),
                                  fm::Window::square(15), fm::Window::square(21),
                                  fm::Window::circle(0.5), fm::Window::circle(1),
                                  fm::Window::circle(1.5), fm::Window::circle(2),
                                  fm::Window::circle(3),   fm::Window::circle(3.5),
                                  fm::Window::circle(4),   fm::Window::circle(4.5),
                                  fm::Window::circle(2.5), fm::Window::circle(5),
                                  fm::Window::circle(5.5), fm::Window::circle(6),
                                  fm::Window::circle(10)};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window& w : windows) {
                Stack src(t, 67, 45, 2);
                fmtest::fill_random(src, seed++);
                expect_cuda_equals_cpu(src, w, b, 11.0, label(t, b, w));
            }
}

TEST_F(CudaMedian, OddShapesAndWindowsLargerThanTheImage) {
    const std::pair<int, int> shapes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 3}, {33, 1}, {257, 3}};
    std::uint32_t seed = 500;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (auto [w, h] : shapes)
                for (int k : {3, 5, 7, 9, 15, 65}) {
                    Stack src(t, w, h, 1);
                    fmtest::fill_random(src, seed++);
                    expect_cuda_equals_cpu(src, fm::Window::square(k), b, 3.0,
                                           label(t, b, fm::Window::square(k)) + " on " +
                                               std::to_string(w) + "x" + std::to_string(h));
                }
}

TEST_F(CudaMedian, TiesConstantsAndFloatSpecials) {
    std::uint32_t seed = 900;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders) {
            Stack ties(t, 129, 70, 1);
            fmtest::fill_random(ties, seed++, 2);
            expect_cuda_equals_cpu(ties, fm::Window::square(5), b, 1.0, "ties");
            Stack flat(t, 40, 33, 1);
            fmtest::fill_random(flat, seed++, 1);
            expect_cuda_equals_cpu(flat, fm::Window::circle(3), b, 0.0, "constant image");
        }
    for (fm::Border b : kAllBorders)
        for (double fraction : {0.05, 0.5, 0.95}) {
            Stack src(fm::PixelType::f32, 97, 61, 2);
            fmtest::fill_random(src, seed++);
            fmtest::add_specials(src, seed++, fraction);
            expect_cuda_equals_cpu(src, fm::Window::square(7), b,
                                   std::numeric_limits<double>::quiet_NaN(), "float specials");
        }
    // Every square of the tiled networks: ties, and float specials.
    for (int k : {5, 7, 9, 11, 15, 21}) {
        for (fm::PixelType t : kAllTypes) {
            Stack ties(t, 150, 41, 1);
            fmtest::fill_random(ties, seed++, 3);
            expect_cuda_equals_cpu(ties, fm::Window::square(k), fm::Border::mirror, 0.0,
                                   label(t, fm::Border::mirror, fm::Window::square(k)) + " ties");
        }
        Stack src(fm::PixelType::f32, 150, 41, 1);
        fmtest::fill_random(src, seed++);
        fmtest::add_specials(src, seed++, 0.3);
        expect_cuda_equals_cpu(src, fm::Window::square(k), fm::Border::constant,
                               -std::numeric_limits<double>::infinity(),
                               "float specials k=" + std::to_string(k));
    }
}

TEST_F(CudaMedian, LargerImageAcrossManyBlocks) {
    for (fm::PixelType t : kAllTypes)
        for (int k : {3, 5, 7, 9, 11, 15, 21}) {
            Stack src(t, 1031, 517, 1);
            fmtest::fill_random(src, 77);
            expect_cuda_equals_cpu(src, fm::Window::square(k), fm::Border::reflect, 0.0,
                                   std::string("1031x517 ") + fm::pixel_type_name(t) + " k=" +
                                       std::to_string(k));
        }
}

// Windows past the tile kernels (squares 25 and 65, circles of radius 20 and 30): u8 on the
// sliding histograms, whose blocks of 32 columns read straight along rows inside the image and
// through a table of border columns elsewhere, in bands of 96 rows (840 rows: bands that start
// and end both in the border rows and among the image's, where u8 squares of 65 load the next
// row's keys ahead, and a short last band); u16 and f32 on the tile ranks, and u16 squares of 65
// on planes of few values (ties, five levels, a constant) on the dense ranks' u16 histogram of
// 512 fine bins. Full-range noise, ties, a ramp down the rows (the u16 median changes
// coarse bin every few rows, and jumps many where the u16 ramp wraps) with a step across it at
// column 77 (the eight outputs of a warp start a band with medians in different coarse bins),
// a constant image, and rows of random levels (the median jumps up and down by thousands a
// row), with two planes, against the CPU backend (itself checked against the reference in the
// CPU tests).
TEST_F(CudaMedian, LargeWindowsEveryBorderAndBand) {
    const fm::Window windows[] = {fm::Window::square(25), fm::Window::square(65), fm::Window::circle(20),
                                  fm::Window::circle(30)};
    std::uint32_t seed = 7000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window& w : windows)
                // Noise, ties, a ramp that moves the median across coarse bins every few rows
                // (with a step across it), a constant image, five levels far apart (u16 ranks
                // close the gaps), and rows of random levels.
                for (int variant = 0; variant < 6; ++variant) {
                    Stack src(t, 150, 840, 2, 5, 1);
                    fmtest::fill_random(src, seed++, variant == 1 ? 3 : variant == 3 ? 1 : variant == 4 ? 5 : 0);
                    std::mt19937 rng(seed);
                    for (std::int64_t z = 0; z < src.planes; ++z)
                        for (std::int64_t y = 0; y < src.height; ++y) {
                            const int level = int(rng() % 60000);
                            for (std::int64_t x = 0; x < src.width; ++x) {
                                const int ramp = int(y) * 199 + int(rng() % 64) + (x >= 77 ? 30000 : 0);
                                const int row = level + int(rng() % 256);
                                if (variant == 5 && t == fm::PixelType::u16) src.at<std::uint16_t>(z, y, x) = std::uint16_t(row);
                                if (variant == 5 && t == fm::PixelType::u8) src.at<std::uint8_t>(z, y, x) = std::uint8_t(row >> 8);
                                if (variant == 5 && t == fm::PixelType::f32) src.at<float>(z, y, x) = float(row) - 30000.0f;
                                if (variant == 2 && t == fm::PixelType::u16) src.at<std::uint16_t>(z, y, x) = std::uint16_t(ramp);
                                if (variant == 2 && t == fm::PixelType::u8) src.at<std::uint8_t>(z, y, x) = std::uint8_t(ramp >> 8);
                                if (variant == 2 && t == fm::PixelType::f32) src.at<float>(z, y, x) = float(ramp) * 0.125f;
                                if (variant == 4 && t == fm::PixelType::u16)
                                    src.at<std::uint16_t>(z, y, x) = std::uint16_t(src.at<std::uint16_t>(z, y, x) * 13001);
                            }
                        }
                    if (t == fm::PixelType::f32 && variant != 3) fmtest::add_specials(src, seed, 0.02);
                    Stack cpu(t, src.width, src.height, src.planes, 1, 0);
                    Stack gpu(t, src.width, src.height, src.planes, 7, 2);
                    std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
                    fm::MedianOptions o;
                    o.window = w;
                    o.border = b;
                    o.cval = variant == 4 ? 20000.0 : 200.0;  // between the levels, or above them
                    o.backend = fm::Backend::cpu;
                    fm::median2d(src.cview(), cpu.view(), o);
                    o.backend = fm::Backend::cuda;
                    fm::median2d(src.cview(), gpu.view(), o);
                    EXPECT_EQ(fmtest::first_difference(cpu, gpu), "")
                        << label(t, b, w) << " variant " << variant;
                }
}

// Windows past the tile ranks (squares over 157, circles over radius 78) on floats go through
// dense ranks where a plane has at most 65536 distinct values; where it has more, through groups
// of 2^s ranks (here s = 2), and the median among its group's values in the window: gathered
// where they are few, by bisection where many (a square of one value). Planes of each kind in
// one call, with float specials, every border.
TEST_F(CudaMedian, LargeWindowsOnFloatPlanesWithMoreValuesThanRanks) {
    std::uint32_t seed = 91;
    for (fm::Border b : kAllBorders)
        for (const fm::Window& w : {fm::Window::square(161), fm::Window::circle(81)}) {
            Stack src(fm::PixelType::f32, 400, 340, 3);  // 136000 pixels a plane
            fmtest::fill_random(src, seed++);
            fmtest::add_specials(src, seed++, 0.01);
            std::mt19937 rng(seed++);
            for (std::int64_t y = 0; y < src.height; ++y)
                for (std::int64_t x = 0; x < src.width; ++x) {
                    src.at<float>(1, y, x) = float(rng() % 1000) - 500.0f;
                    if (x >= 150 && x < 250 && y >= 100 && y < 200) src.at<float>(2, y, x) = 1.0f;
                }
            Stack cpu(fm::PixelType::f32, src.width, src.height, 3), gpu(fm::PixelType::f32, src.width, src.height, 3, 3, 1);
            std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
            fm::MedianOptions o;
            o.window = w;
            o.border = b;
            o.cval = -1e30;
            o.backend = fm::Backend::cpu;
            fm::median2d(src.cview(), cpu.view(), o);
            o.backend = fm::Backend::cuda;
            fm::median2d(src.cview(), gpu.view(), o);
            EXPECT_EQ(fmtest::first_difference(cpu, gpu), "") << label(fm::PixelType::f32, b, w);
        }
}

// Large u16 and f32 windows rank each block's tile of input on its own and slide bitmaps of
// the ranks (kernels/median_tile_ranks.cuh): the same work on any data, so every kind of data
// is here. Squares from 23 to 157 (the largest whose band keeps 16 rows on 32768 slots; 8192 to
// 32768 slots between), circles;
// planes of one row, one column, of several bands and block columns (150 x 840), with partial
// last ones; full-range noise, fractions over a flat field, every value distinct, three levels
// (ties), a constant plane, and floats with NaN, +-Inf and -0; every border.
TEST_F(CudaMedian, LargeWindowsOnTileRanksOnEveryKindOfData) {
    const fm::Window windows[] = {fm::Window::square(23), fm::Window::square(65), fm::Window::square(97),
                                  fm::Window::square(129), fm::Window::square(157), fm::Window::circle(20),
                                  fm::Window::circle(40), fm::Window::circle(60)};
    const std::pair<int, int> shapes[] = {{150, 840}, {1, 300}, {300, 1}, {61, 129}};
    std::uint32_t seed = 4100;
    for (fm::PixelType t : {fm::PixelType::u16, fm::PixelType::f32})
        for (const fm::Window& w : windows)
            for (const auto& [width, height] : shapes)
                for (int kind = 0; kind < 5; ++kind) {
                    Stack src(t, width, height, 2, 5, 1);
                    fmtest::fill_random(src, seed++, kind == 3 ? 3 : kind == 4 ? 1 : 0);
                    std::mt19937 rng(seed);
                    std::normal_distribution<double> noise(0.0, 30.0);
                    for (std::int64_t z = 0; z < src.planes; ++z)
                        for (std::int64_t y = 0; y < src.height; ++y)
                            for (std::int64_t x = 0; x < src.width; ++x) {
                                const double r2 = double(x) * x + double(y) * y;
                                const double flat = 1.0 - 0.45 * r2 / (width * width + height * height);
                                const double signal = 3000.0 + 1000.0 * std::sin(x * 0.05) * std::cos(y * 0.03);
                                if (kind == 1 && t == fm::PixelType::f32)
                                    src.at<float>(z, y, x) = float(signal / flat + noise(rng));
                                if (kind == 1 && t == fm::PixelType::u16)
                                    src.at<std::uint16_t>(z, y, x) =
                                        std::uint16_t(std::clamp(signal / flat * 8 + noise(rng), 0.0, 65535.0));
                                if (kind == 2 && t == fm::PixelType::f32)
                                    src.at<float>(z, y, x) = float(rng()) * 0x1p-32f;
                            }
                    if (t == fm::PixelType::f32 && kind != 4) fmtest::add_specials(src, seed, 0.02);
                    for (fm::Border b : kAllBorders)
                        expect_cuda_equals_cpu_backend(src, w, b, kind == 3 ? 0.5 : -7.25,
                                                       label(t, b, w) + " kind " + std::to_string(kind) + " on " +
                                                           std::to_string(width) + "x" + std::to_string(height));
                }
}

// f32 wide windows keep the dense ranks, numbered without a sort, where a plane holds whole
// numbers 0..65535 of few enough distinct values (an 8- or 16-bit image made 32-bit), and take
// the tile ranks elsewhere: in one call, planes of 2048 and 2049 whole numbers (k = 49: the
// policy's step; EveryArchitecture/CudaPolicies.WideWindowsChooseDenseOrTileRanksByPlane takes
// every step of u16), and planes of three whole numbers with one of kNotWholeNumbers at one pixel
// in five (numbered as whole numbers, they would come out as others); a constant border of a
// whole number among the planes' values and of a fraction.
TEST_F(CudaMedian, WideF32WindowsKeepDenseRanksOnlyOnFewWholeNumbers) {
    const int others = static_cast<int>(std::size(kNotWholeNumbers));
    std::mt19937 rng(6);
    for (int k : {49, 65})
        for (fm::Border b : kAllBorders)
            for (double cval : {0.0, 0.5}) {
                if (b != fm::Border::constant && cval != 0.0) continue;
                Stack src(fm::PixelType::f32, 200, 230, 2 + others, 5, 1);
                for (std::int64_t z = 0; z < src.planes; ++z)
                    for (std::int64_t y = 0; y < src.height; ++y)
                        for (std::int64_t x = 0; x < src.width; ++x) {
                            const std::uint32_t i = std::uint32_t(y * src.width + x);
                            const std::uint32_t v = i < 2048u + z ? i : rng() % (2048 + z);
                            src.at<float>(z, y, x) = z < 2             ? float(v * 31)
                                                     : rng() % 5 == 0 ? kNotWholeNumbers[z - 2]
                                                                       : float(rng() % 3);
                        }
                expect_cuda_equals_cpu_backend(src, fm::Window::square(k), b, cval,
                                               label(fm::PixelType::f32, b, fm::Window::square(k)) + " cval " +
                                                   std::to_string(cval));
            }
}

// Planes whose tiles' ranks outgrow the scratch of one chunk (128 MiB: here 10 rows of f32
// tiles 4100 pixels wide) are ranked and filtered a chunk of tile rows at a time.
TEST_F(CudaMedian, LargeWindowsOnTileRanksInChunksOfTileRows) {
    Stack src(fm::PixelType::f32, 4100, 1300, 1, 3, 0);
    fmtest::fill_random(src, 77);
    expect_cuda_equals_cpu_backend(src, fm::Window::square(65), fm::Border::reflect, 0.0, "f32 k=65 over two chunks");
}

// Rows whose stride is a multiple of 16 bytes: the interior blocks of the tiled kernels load 4
// pixels at a time, the blocks at the borders one at a time; both must give the same bits.
TEST_F(CudaMedian, AlignedRowsTakeTheVectorLoads) {
    std::uint32_t seed = 4000;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (int k : {3, 5, 7, 9, 11, 15, 21}) {
                Stack src(t, 1031, 37, 2, 1);  // 1032 pixels per row
                fmtest::fill_random(src, seed++, (k / 2) % 2 ? 0 : 3);  // ties at 5, 9, 21
                expect_cuda_equals_cpu(src, fm::Window::square(k), b, 7.0,
                                       label(t, b, fm::Window::square(k)) + " aligned rows");
            }
}

// u8 3x3 on rows aligned to 8 bytes streams down strips of rows, 240 columns a warp, eight
// pixels a lane: at the image's sides the pixel past the edge comes through the border from the
// lane beside it (or the lane gathers, where the width is not a multiple of 8, for the wrapped
// border and below 8 pixels), and rows come through it at the top and bottom: widths either side
// of the warps' and lanes' multiples and of the first block with no border (from 488 pixels),
// heights from one row to many strips, tie-heavy and full-range values, two planes.
TEST_F(CudaMedian, U8Square3StripsAndWordsEveryBorder) {
    const std::pair<int, int> shapes[] = {{4, 1},    {3, 2},    {9, 3},    {239, 5},   {240, 8},   {241, 9},
                                          {247, 12}, {249, 13}, {487, 33}, {488, 34},  {727, 70},  {5, 301},
                                          {256, 7},  {1000, 40}, {969, 171}};
    std::uint32_t seed = 9100;
    for (fm::Border b : kAllBorders)
        for (auto [w, h] : shapes)
            for (int span : {2, 0}) {
                Stack src(fm::PixelType::u8, w, h, 2);
                fmtest::fill_random(src, seed++, span);
                expect_cuda_equals_cpu(src, fm::Window::square(3), b, 9.0,
                                       label(fm::PixelType::u8, b, fm::Window::square(3)) + " on " + std::to_string(w) +
                                           "x" + std::to_string(h) + " span " + std::to_string(span));
            }
}

// u8 and u16 5x5 and 7x7 on word-aligned rows wide enough (from 2048 and 2560 pixels) stream
// down strips of rows (the grid's last ones shorter, its bottom ones first), 120 columns a warp,
// words of four pixels: at the image's sides a lane takes the word beside it through the border
// (or gathers, where the width is not a multiple of 4 and for the wrapped border), and rows
// come through it at the top and bottom: widths either side of the warps' and words'
// multiples, heights from one row to both kinds of strip, tie-heavy and full-range values, two
// planes.
TEST_F(CudaMedian, Square5And7StreamStripsAndWordsEveryBorder) {
    const std::vector<std::pair<int, int>> shapes5 = {{2048, 1}, {2049, 2}, {2051, 3}, {2159, 5}, {2160, 18}, {2281, 101}};
    const std::vector<std::pair<int, int>> shapes7 = {{2560, 1}, {2561, 2}, {2563, 3}, {2639, 5}, {2640, 18}, {2761, 101}};
    std::uint32_t seed = 9300;
    for (int k : {5, 7})
        for (fm::PixelType t : {fm::PixelType::u8, fm::PixelType::u16})
            for (fm::Border b : kAllBorders)
                for (auto [w, h] : k == 5 ? shapes5 : shapes7)
                    for (int span : {2, 0}) {
                        Stack src(t, w, h, 2);
                        fmtest::fill_random(src, seed++, span);
                        expect_cuda_equals_cpu(src, fm::Window::square(k), b, 9.0,
                                               label(t, b, fm::Window::square(k)) + " on " + std::to_string(w) + "x" +
                                                   std::to_string(h) + " span " + std::to_string(span));
                    }
}

// f32 5x5 and 7x7 on the same streaming kernels: warps run on 16-bit keys while their pixels
// are whole numbers 0..65535 and hand the rest of their rows to 32-bit keys from the first
// step that meets another value (a fraction, -0, 65536, a negative, NaN, Inf, a denormal), or a
// constant border that is not such a number: images of whole numbers, with a few others among
// them, with fractions and specials throughout, and with ties.
TEST_F(CudaMedian, F32Square5And7StreamWholeNumbersAndTheRest) {
    // From 2048 and 3584 pixels wide.
    const std::vector<std::pair<int, int>> shapes5 = {{2563, 7}, {2880, 1}, {2883, 3}, {2999, 5}, {3121, 101}};
    const std::vector<std::pair<int, int>> shapes7 = {{3587, 7}, {3600, 1}, {3603, 3}, {3719, 5}, {3841, 101}};
    std::uint32_t seed = 9500;
    for (int k : {5, 7})
        for (fm::Border b : kAllBorders)
            for (auto [w, h] : k == 5 ? shapes5 : shapes7)
                for (int kind = 0; kind < 4; ++kind) {
                    Stack src(fm::PixelType::f32, w, h, 2);
                    std::mt19937 rng(seed++);
                    if (kind < 2) {
                        for (std::int64_t z = 0; z < src.planes; ++z)
                            for (std::int64_t y = 0; y < src.height; ++y)
                                for (std::int64_t x = 0; x < src.width; ++x)
                                    src.at<float>(z, y, x) = whole_number_or_other(rng, kind == 1);
                    } else {
                        fmtest::fill_random(src, seed, kind == 2 ? 0 : 4);
                        if (kind == 2) fmtest::add_specials(src, seed, 0.01);
                    }
                    const double cval = (w + kind) % 2 ? 9.0 : 2.5;
                    expect_cuda_equals_cpu(src, fm::Window::square(k), b, cval,
                                           label(fm::PixelType::f32, b, fm::Window::square(k)) + " on " +
                                               std::to_string(w) + "x" + std::to_string(h) + " kind " +
                                               std::to_string(kind));
                }
}

// The tiled kernels keep floats in +0..+Inf as their own keys: a thread whose values all lie
// there converts nothing, and one with any other value (a negative, -0, NaN of any sign or
// payload) converts its batch. Non-negative images with few such values mix both kinds of
// thread in a block and in a window; with many, medians are NaN and +Inf too.
TEST_F(CudaMedian, NonNegativeFloatsAmongFewSpecials) {
    const std::uint32_t specials[] = {0x80000000u, 0xBF800000u, 0xFF800000u, 0x7FC00001u,
                                      0xFFC00000u, 0x7F800001u, 0x7F800000u, 0x00000000u};
    std::uint32_t seed = 5000;
    for (fm::Border b : kAllBorders)
        for (int k : {3, 5, 7, 9, 11, 15, 21})
            for (double fraction : {0.0, 0.002, 0.3, 0.9}) {
                Stack src(fm::PixelType::f32, 1031, 70, 1, 1);  // 1032 pixels per row: vector loads
                std::mt19937 rng(seed++);
                std::uniform_real_distribution<double> u(0.0, 1.0);
                for (std::int64_t y = 0; y < src.height; ++y)
                    for (std::int64_t x = 0; x < src.width; ++x) {
                        float v = std::ldexp(static_cast<float>(rng() % 1000001), static_cast<int>(rng() % 40) - 20);
                        if (u(rng) < fraction) std::memcpy(&v, &specials[rng() % 8], sizeof v);
                        src.at<float>(0, y, x) = v;
                    }
                expect_cuda_equals_cpu(src, fm::Window::square(k), b, b == fm::Border::constant ? -2.5 : 1.5,
                                       label(fm::PixelType::f32, b, fm::Window::square(k)) + " specials " +
                                           std::to_string(fraction));
            }
}

// f32 blocks whose values are all whole numbers 0..65535 run the packed networks on 16-bit
// keys; a block with any other value (a fraction, -0, 65536, a negative, NaN, Inf, a denormal), or
// under a constant border that is not such a number, is left to a second launch on 32-bit keys.
// Images of whole numbers with a few other values mix both kinds of block; the third kind has
// whole numbers on its left and +0, -0 and 1 on its right, so medians are -0 and +0 there.
TEST_F(CudaMedian, WholeNumberFloatsAndTheOtherValuesAmongThem) {
    std::uint32_t seed = 6000;
    for (fm::Border b : kAllBorders)
        for (int k : {3, 5, 7, 9, 11, 15, 21})
            for (int kind = 0; kind < 4; ++kind) {
                // 1031 pixels and 1 of padding a row: interior blocks load vectors; the last
                // kind's 517 + 3 load one pixel at a time.
                const bool vectors = kind != 3;
                Stack src(fm::PixelType::f32, vectors ? 1031 : 517, 70, 1, vectors ? 1 : 3);
                std::mt19937 rng(seed++);
                for (std::int64_t y = 0; y < src.height; ++y)
                    for (std::int64_t x = 0; x < src.width; ++x) {
                        float v = whole_number_or_other(rng, kind == 1);
                        if (kind == 2 && x >= src.width / 2) v = rng() % 3 == 0 ? 1.0f : (rng() % 2 ? 0.0f : -0.0f);
                        if (kind == 3) v = static_cast<float>(rng() % 4 * 21845);  // ties, and 65535
                        src.at<float>(0, y, x) = v;
                    }
                const double cval = kind % 2 ? 2.5 : 65535.0;
                expect_cuda_equals_cpu(src, fm::Window::square(k), b, cval,
                                       label(fm::PixelType::f32, b, fm::Window::square(k)) + " whole numbers, kind " +
                                           std::to_string(kind));
            }
}
