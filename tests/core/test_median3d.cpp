// The 3D median's window, validation, and CPU backend and reference against an independent
// naive median: random volumes, ties, float specials, odd sizes, every border and window shape.
// The CPU tests also run on the portable kernels (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_median3d.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

// Runs median3d (CPU backend or reference) and the naive median; expects identical bytes.
void expect_matches_naive(Stack& src, const fm::Window3D& w, fm::Border b, double cval,
                          bool reference, const std::string& what) {
    Stack got(src.type, src.width, src.height, src.planes, 2, 1);
    Stack want(src.type, src.width, src.height, src.planes, 2, 1);
    const std::vector<std::uint8_t> before = src.bytes;
    fm::Median3DOptions o;
    o.window = w;
    o.border = b;
    o.cval = cval;
    o.backend = fm::Backend::cpu;
    o.reference = reference;
    const fm::RunInfo info = fm::median3d(src.cview(), got.view(), o);
    EXPECT_EQ(info.backend, fm::Backend::cpu);
    fmtest::naive_median3d(src, want, w, b, cval);
    EXPECT_EQ(fmtest::first_difference(got, want), "") << what;
    EXPECT_EQ(src.bytes, before) << what << ": input changed";
}

std::string label(fm::PixelType t, fm::Border b, const fm::Window3D& w) {
    return std::string(fm::pixel_type_name(t)) + " " + fm::border_name(b) + " " +
           fmtest::window3d_label(w);
}

}  // namespace

TEST(Window3D, EllipsoidsAreImageJsMask) {
    // Voxel counts of ImageJ's Filters3D kernels (radius 1: the centre and its 6 faces).
    EXPECT_EQ(fm::window3d_runs(fm::Window3D::ellipsoid(1)).count, 7);
    EXPECT_EQ(fm::window3d_runs(fm::Window3D::ellipsoid(2)).count, 33);
    EXPECT_EQ(fm::window3d_runs(fm::Window3D::ellipsoid(1, 1, 0)).count, 5);
    EXPECT_EQ(fm::window3d_runs(fm::Window3D::ellipsoid(0, 0, 0)).count, 1);
    EXPECT_EQ(fm::window3d_runs(fm::Window3D::box(3, 5, 1)).count, 15);
    for (const fm::Window3D& w :
         {fm::Window3D::ellipsoid(1.5), fm::Window3D::ellipsoid(2, 2, 1),
          fm::Window3D::ellipsoid(3.2, 1.7, 0.5), fm::Window3D::ellipsoid(5), fm::Window3D::box(5)}) {
        const fm::WindowRuns3D runs = fm::window3d_runs(w);
        const auto offsets = fmtest::window3d_offsets(w);
        EXPECT_EQ(runs.count, static_cast<std::int64_t>(offsets.size())) << fmtest::window3d_label(w);
        // Every offset of the definition lies in its row's run, and the runs hold no others.
        const int rows = 2 * runs.radius_y + 1;
        for (const auto& o : offsets) {
            ASSERT_LE(std::abs(o.dz), runs.radius_z);
            ASSERT_LE(std::abs(o.dy), runs.radius_y);
            EXPECT_LE(std::abs(o.dx),
                      runs.half_width[(o.dz + runs.radius_z) * rows + o.dy + runs.radius_y]);
        }
    }
}

TEST(Median3DValidation, BadWindowsAndViewsNameTheParameter) {
    const std::uint16_t in[8] = {};
    std::uint16_t out[8] = {};
    auto expect_error = [&](const fm::Median3DOptions& o, const std::string& words) {
        try {
            fm::median3d(fm::view(in, 2, 2, 2), fm::view(out, 2, 2, 2), o);
            ADD_FAILURE() << "no error for " << words;
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    fm::Median3DOptions o;
    o.window = fm::Window3D::box(3, 4, 3);
    expect_error(o, "window.size_y");
    o.window = fm::Window3D::box(3, 3, 0);
    expect_error(o, "window.size_z");
    o.window = fm::Window3D::box(255, 255, 255);
    expect_error(o, "voxels");
    o.window = fm::Window3D::ellipsoid(1, std::numeric_limits<double>::quiet_NaN(), 1);
    expect_error(o, "window.radius_y");
    o.window = fm::Window3D::ellipsoid(1, 1, -1);
    expect_error(o, "window.radius_z");
    o.window = fm::Window3D::box(3);
    o.border = fm::Border::constant;
    o.cval = std::numeric_limits<double>::infinity();
    expect_error(o, "cval");
    o = fm::Median3DOptions{};
    try {
        fm::median3d(fm::view(in, 2, 2, 2), fm::view(out, 2, 2, 1), o);
        ADD_FAILURE() << "no error for mismatched planes";
    } catch (const fm::Error& e) {
        EXPECT_NE(std::string(e.what()).find("differs from src size"), std::string::npos);
    }
}

TEST(Median3DCpu, HandExampleBox3Replicate) {
    // A 3x1x3 volume (x by z); with replicate, voxel (x, z) sees rows y = 0 three times.
    const std::uint8_t in[9] = {9, 1, 5,   // z = 0
                                2, 8, 3,   // z = 1
                                7, 4, 6};  // z = 2
    std::uint8_t out[9];
    std::memset(out, 0xEE, sizeof out);
    fm::Median3DOptions o;
    o.backend = fm::Backend::cpu;
    fm::median3d(fm::view(in, 3, 1, 3), fm::view(out, 3, 1, 3), o);
    // Voxel (0, 0): x in {0,0,1}, z in {0,0,1} -> values {9,9,1, 9,9,1, 2,2,8} x3 rows; sorted
    // 1 1 2 2 8 9 9 9 9 (each thrice): the 14th of 27 is 8.
    EXPECT_EQ(out[0], 8);
    // Voxel (1, 1): the whole volume, each value thrice: the median of 1..9 is 5.
    EXPECT_EQ(out[4], 5);
}

TEST(Median3DCpu, RandomEveryTypeBorderAndWindow) {
    const fm::Window3D windows[] = {
        fm::Window3D::box(1),          fm::Window3D::box(3),           fm::Window3D::box(5),
        fm::Window3D::box(3, 5, 1),    fm::Window3D::box(1, 1, 7),     fm::Window3D::ellipsoid(1),
        fm::Window3D::ellipsoid(1.5),  fm::Window3D::ellipsoid(2),     fm::Window3D::ellipsoid(2, 2, 1),
        fm::Window3D::ellipsoid(3, 1.5, 0)};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window3D& w : windows) {
                Stack src(t, 13, 9, 6);
                fmtest::fill_random(src, seed++);
                expect_matches_naive(src, w, b, 11.0, false, label(t, b, w));
            }
}

TEST(Median3DCpu, WindowsOnePlaneDeepTakeThe2DPaths) {
    // z radius 0: the 2D median's paths on every plane (squares on networks and histograms,
    // other shapes on its generic ones), against the naive 3D median.
    const fm::Window3D windows[] = {fm::Window3D::box(1),           fm::Window3D::box(5, 5, 1),
                                    fm::Window3D::box(7, 3, 1),     fm::Window3D::box(21, 21, 1),
                                    fm::Window3D::ellipsoid(2, 2, 0), fm::Window3D::ellipsoid(3, 1.5, 0)};
    std::uint32_t seed = 50;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window3D& w : windows) {
                Stack src(t, 37, 29, 4);
                fmtest::fill_random(src, seed, seed % 3 == 0 ? 3 : 0);
                if (t == fm::PixelType::f32 && seed % 2 == 0) fmtest::add_specials(src, seed, 0.2);
                ++seed;
                expect_matches_naive(src, w, b, 7.0, false, label(t, b, w));
            }
}

TEST(Median3DCpu, NetworkWindowsEveryTypeBorderAndVectorTail) {
    // The windows with a network run it on 32, 16 or 8 columns at a time (u8, u16, f32 keys
    // with AVX2; 1 portable): widths around those steps, a single column, volumes smaller than
    // the window, and one large enough to be split among threads.
    const fm::Window3D windows[] = {fm::Window3D::box(3),           fm::Window3D::box(5),
                                    fm::Window3D::ellipsoid(1),      fm::Window3D::ellipsoid(2),
                                    fm::Window3D::box(5, 5, 3),      fm::Window3D::box(7, 7, 3),
                                    fm::Window3D::ellipsoid(2, 2, 1), fm::Window3D::ellipsoid(3, 3, 1),
                                    fm::Window3D::ellipsoid(3, 3, 2), fm::Window3D::box(3, 3, 5),
                                    fm::Window3D::box(3, 3, 7),       fm::Window3D::ellipsoid(1, 1, 2),
                                    fm::Window3D::ellipsoid(1, 1, 3), fm::Window3D::ellipsoid(2, 2, 3)};
    const std::int64_t sizes[][3] = {{1, 1, 1},  {1, 5, 3},  {2, 2, 2},  {7, 3, 2},  {8, 2, 3},
                                     {9, 5, 1},  {15, 1, 2}, {16, 3, 3}, {17, 2, 5}, {31, 4, 2},
                                     {32, 1, 1}, {33, 3, 4}, {47, 2, 3}, {71, 37, 9}};
    std::uint32_t seed = 100;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (const fm::Window3D& w : windows)
                for (const auto& size : sizes) {
                    Stack src(t, size[0], size[1], size[2]);
                    fmtest::fill_random(src, seed, seed % 3 == 0 ? 3 : 0);  // a third tie-heavy
                    if (t == fm::PixelType::f32 && seed % 2 == 0) fmtest::add_specials(src, seed, 0.2);
                    ++seed;
                    expect_matches_naive(src, w, b, 7.0, false,
                                         label(t, b, w) + " " + std::to_string(size[0]) + "x" +
                                             std::to_string(size[1]) + "x" + std::to_string(size[2]));
                }
}

TEST(Median3DCpu, ReferenceMatchesNaive) {
    std::uint32_t seed = 300;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders) {
            Stack src(t, 11, 7, 5);
            fmtest::fill_random(src, seed++);
            expect_matches_naive(src, fm::Window3D::ellipsoid(2, 1, 1), b, 5.0, true, label(t, b, fm::Window3D::ellipsoid(2, 1, 1)));
        }
}

TEST(Median3DCpu, TiesSpecialsAndWindowsLargerThanTheVolume) {
    std::uint32_t seed = 600;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders) {
            Stack ties(t, 17, 10, 7);
            fmtest::fill_random(ties, seed++, 2);
            expect_matches_naive(ties, fm::Window3D::box(3), b, 1.0, false, "ties");
            Stack tiny(t, 2, 3, 2);
            fmtest::fill_random(tiny, seed++);
            expect_matches_naive(tiny, fm::Window3D::box(7, 5, 9), b, 3.0, false, "tiny volume");
        }
    for (fm::Border b : kAllBorders)
        for (double fraction : {0.05, 0.5, 0.95}) {
            Stack src(fm::PixelType::f32, 12, 8, 5);
            fmtest::fill_random(src, seed++);
            fmtest::add_specials(src, seed++, fraction);
            expect_matches_naive(src, fm::Window3D::box(3), b,
                                 std::numeric_limits<double>::quiet_NaN(), false, "float specials");
        }
}

TEST(Median3DCpu, WindowsWithoutANetworkOnFullRangeIntegersWithFarJumps) {
    // u8 and u16 windows without a network take a sliding histogram along the rows: blocks of
    // alternating extremes make its median jump across whole coarse bins, and ties and wide
    // windows (box 7, ellipsoid 3) keep many rows in it.
    std::uint32_t seed = 700;
    for (fm::PixelType t : {fm::PixelType::u8, fm::PixelType::u16})
        for (const fm::Window3D& w : {fm::Window3D::box(7), fm::Window3D::ellipsoid(3), fm::Window3D::box(9, 3, 5)})
            for (fm::Border b : {fm::Border::replicate, fm::Border::wrap, fm::Border::constant}) {
                Stack src(t, 23, 11, 9);
                std::mt19937 rng(seed++);
                const std::uint32_t top = t == fm::PixelType::u8 ? 255 : 65535;
                for (std::int64_t z = 0; z < src.planes; ++z)
                    for (std::int64_t y = 0; y < src.height; ++y)
                        for (std::int64_t x = 0; x < src.width; ++x) {
                            const bool high = ((x / 3) + (y / 2) + z) % 2 == 1;
                            const std::uint32_t v = high ? top - rng() % 3 : rng() % 3;
                            if (t == fm::PixelType::u8) src.at<std::uint8_t>(z, y, x) = static_cast<std::uint8_t>(v);
                            else src.at<std::uint16_t>(z, y, x) = static_cast<std::uint16_t>(v);
                        }
                expect_matches_naive(src, w, b, top / 2.0, false, label(t, b, w));
            }
}

TEST(Median3DCpu, FloatWindowsWithoutANetworkOverTileRanks) {
    // f32 windows without a network rank the keys of tiles of 32 rows x 256 columns of outputs
    // (every plane and row their windows reach) and slide a histogram over the ranks: volumes
    // over several tiles each way, with a partial last tile, fractions (nearly every value
    // distinct), ties, NaN, +-Inf and -0, every border.
    const fm::Window3D windows[] = {fm::Window3D::box(7), fm::Window3D::ellipsoid(3),
                                    fm::Window3D::box(9, 3, 5), fm::Window3D::ellipsoid(1.5, 2.5, 1.2)};
    const std::int64_t sizes[][3] = {{261, 35, 3}, {5, 67, 4}, {1, 1, 9}};
    std::uint32_t seed = 800;
    for (fm::Border b : kAllBorders)
        for (const fm::Window3D& w : windows)
            for (const auto& size : sizes) {
                Stack src(fm::PixelType::f32, size[0], size[1], size[2]);
                fmtest::fill_random(src, seed, seed % 3 == 0 ? 3 : 0);
                std::mt19937 rng(seed);
                std::uniform_real_distribution<float> fraction(-0.5f, 0.5f);
                if (seed % 3 != 0)
                    for (std::int64_t z = 0; z < src.planes; ++z)
                        for (std::int64_t y = 0; y < src.height; ++y)
                            for (std::int64_t x = 0; x < src.width; ++x) src.at<float>(z, y, x) += fraction(rng);
                if (seed % 2 == 0) fmtest::add_specials(src, seed, 0.1);
                ++seed;
                expect_matches_naive(src, w, b, -0.0, false,
                                     label(src.type, b, w) + " " + std::to_string(size[0]) + "x" +
                                         std::to_string(size[1]) + "x" + std::to_string(size[2]));
            }
}

TEST(Median3DCpu, ThreadsFromTheEnvironment) {
    // FASTMEDIAN_CPU_THREADS sets the CPU backend's threads: every count gives the same bits,
    // and anything but a positive integer is refused, naming the variable. The volume is large
    // enough (over 2^14 voxels) for the network path to ask for threads; the ellipsoid of radius
    // 1.5 takes the gather-and-select path.
    Stack src(fm::PixelType::u16, 40, 33, 17);
    fmtest::fill_random(src, 900);
    for (const char* threads : {"1", "3", "64"})
        for (const fm::Window3D& w : {fm::Window3D::box(3), fm::Window3D::ellipsoid(1.5)}) {
            setenv("FASTMEDIAN_CPU_THREADS", threads, 1);
            expect_matches_naive(src, w, fm::Border::reflect, 0.0, false,
                                 std::string("threads ") + threads + " " + fmtest::window3d_label(w));
        }
    Stack out(src.type, src.width, src.height, src.planes);
    fm::Median3DOptions o;
    o.backend = fm::Backend::cpu;
    for (const char* bad : {"0", "-2", "two", "1x", "99999999999"}) {
        setenv("FASTMEDIAN_CPU_THREADS", bad, 1);
        try {
            fm::median3d(src.cview(), out.view(), o);
            ADD_FAILURE() << "accepted FASTMEDIAN_CPU_THREADS='" << bad << "'";
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
            EXPECT_NE(std::string(e.what()).find("FASTMEDIAN_CPU_THREADS"), std::string::npos);
        }
    }
    unsetenv("FASTMEDIAN_CPU_THREADS");
}
