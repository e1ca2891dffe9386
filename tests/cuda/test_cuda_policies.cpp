// Every GPU policy (kernels/gpu_policies.cpp), forced on the GPU at hand: each filter gives the
// CPU backend's bits under each architecture's limits and crossovers, on the window sizes at
// each kernel family's limits, every type (floats with fractions and specials, and whole
// numbers, which take the packed networks) and the borders. A kernel whose blocks need more
// shared memory than the forced policy allows must give way to one that fits; where none
// does, the call fails and names the limit, and so does this test. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/median_dispatch.hpp"
#include "fastmedian/fastmedian.hpp"
#include "gpu_policy.hpp"
#include "semantics/footprint.hpp"
#include "support/naive_median3d.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
namespace kernels = fastmedian::kernels;
namespace fd = fastmedian::detail;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

std::vector<std::string> policy_names() {
    std::vector<std::string> names;
    const kernels::GpuPolicies all = kernels::gpu_policies();
    for (int i = 0; i < all.count; ++i) names.emplace_back(all.first[i].name);
    return names;
}

class CudaPolicies : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
        const kernels::GpuPolicy* p = kernels::policy_named(GetParam());
        ASSERT_NE(p, nullptr) << GetParam();
        kernels::force_gpu_policy(p);
        ASSERT_EQ(fm::cuda_devices()[0].policy, GetParam());
    }
    void TearDown() override { kernels::force_gpu_policy(nullptr); }
};

// Data of each kind: u8/u16 full range, f32 with fractions and specials (kind 0) or whole
// numbers 0..65535 (kind 1: the tiled networks' 16-bit keys), or whole numbers but for
// fractions in row 19 (kind 2: blocks of the 16-bit launch that write their outputs beside
// blocks that leave theirs to the 32-bit launch; under the smaller policies a 32-bit block
// spans several of them, the first whole and a later one not, as at 21x21 rows 6 to 11 under
// sm_75 and rows 0 to 11 under sm_80, at 11x11 and 15x15 rows 0 to 15 under sm_86), ties in
// every kind.
void fill(Stack& s, std::uint32_t seed, int kind) {
    fmtest::fill_random(s, seed, seed % 3 == 0 ? 5 : 0);
    if (s.type != fm::PixelType::f32) return;
    if (kind == 0) {
        fmtest::add_specials(s, seed, 0.02);
        return;
    }
    std::mt19937 rng(seed);
    for (std::int64_t z = 0; z < s.planes; ++z)
        for (std::int64_t y = 0; y < s.height; ++y)
            for (std::int64_t x = 0; x < s.width; ++x)
                s.at<float>(z, y, x) = static_cast<float>(rng() % 65536) + (kind == 2 && y == 19 && x % 50 == 7 ? 0.5f : 0.0f);
}

template <class Options, class Filter>
void expect_cuda_equals_cpu(Stack& src, Options o, Filter filter, const std::string& what) {
    Stack cpu(src.type, src.width, src.height, src.planes, 1, 0);
    Stack gpu(src.type, src.width, src.height, src.planes, 5, 3);
    std::fill(gpu.bytes.begin(), gpu.bytes.end(), 0x5A);
    o.backend = fm::Backend::cpu;
    filter(src.cview(), cpu.view(), o);
    o.backend = fm::Backend::cuda;
    try {
        EXPECT_EQ(filter(src.cview(), gpu.view(), o).backend, fm::Backend::cuda) << what;
    } catch (const fm::Error& e) {
        ADD_FAILURE() << what << ": " << e.what();
        return;
    }
    EXPECT_EQ(fmtest::first_difference(cpu, gpu), "") << what;
}

std::string label(fm::PixelType t, const std::string& what, int kind) {
    const char* kinds[] = {" ", " whole ", " mostly whole "};
    return std::string(fm::pixel_type_name(t)) + (t == fm::PixelType::f32 ? kinds[kind] : " ") + what;
}

const auto kMedian = [](const fm::ConstImageView& s, const fm::ImageView& d, const fm::MedianOptions& o) {
    return fm::median2d(s, d, o);
};

}  // namespace

// 2D medians: the streaming kernels on rows wide enough for them (5x5 and 7x7, f32 7x7 from
// 3584), every tiled square on narrow rows, the circles of the column and whole-window
// networks, the sliding histograms and ranks, and bisection (over 65535 pixels).
TEST_P(CudaPolicies, Median2D) {
    struct Case { fm::Window w; int width, height; };
    const Case cases[] = {
        {fm::Window::square(3), 3600, 9},   {fm::Window::square(5), 3600, 9},   {fm::Window::square(7), 3600, 9},
        {fm::Window::square(3), 131, 37},   {fm::Window::square(5), 131, 37},   {fm::Window::square(7), 131, 37},
        {fm::Window::square(9), 131, 37},   {fm::Window::square(11), 131, 37},  {fm::Window::square(13), 131, 37},
        {fm::Window::square(15), 131, 37},  {fm::Window::square(17), 131, 37},  {fm::Window::square(21), 131, 37},
        {fm::Window::square(23), 131, 37},  {fm::Window::circle(1.5), 131, 37}, {fm::Window::circle(3.5), 131, 37},
        {fm::Window::circle(4), 131, 37},   {fm::Window::circle(6), 131, 37},   {fm::Window::circle(10), 131, 37},
        {fm::Window::square(65), 150, 70},  {fm::Window::square(89), 150, 70},  {fm::Window::square(105), 150, 40},
        {fm::Window::square(107), 150, 40}, {fm::Window::square(157), 170, 30}, {fm::Window::square(159), 170, 30},
        {fm::Window::square(257), 280, 20}};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (int kind : {0, 1, 2}) {
            if (kind != 0 && t != fm::PixelType::f32) continue;
            for (const Case& c : cases) {
                Stack src(t, c.width, c.height, 2);
                fill(src, seed++, kind);
                fm::MedianOptions o;
                o.window = c.w;
                for (fm::Border b : kAllBorders) {
                    if (c.w.size > 100 && b != fm::Border::reflect) continue;  // the slowest CPU case, once
                    o.border = b;
                    o.cval = 77.0;
                    const std::string what = c.w.shape == fm::Window::Shape::square
                                                 ? "k=" + std::to_string(c.w.size)
                                                 : "r=" + std::to_string(c.w.radius);
                    expect_cuda_equals_cpu(src, o, kMedian,
                                           label(t, what + " " + std::to_string(c.width) + " wide " +
                                                        fm::border_name(b), kind));
                }
            }
        }
}

// Large u16 and f32 windows take the tile ranks where a band of 16 rows fits the slots the
// policy's shared memory holds (bitmaps of 5 bytes a slot: 32768 slots from 160 KB a block,
// squares to 157; 16384 on 99 KB, to 105; 12288 on sm_75's 64 KB, to 87), else the plane's
// dense ranks; u8 keeps its sliding histogram. The Median2D cases above cover both sides of
// each policy's limit.
TEST_P(CudaPolicies, LargeWindowsTakeTileRanksWhereTheyFit) {
    const std::size_t shared = kernels::active_policy().limits.shared_per_block;
    const int widest = shared >= 160 * 1024 ? 157 : shared >= 80 * 1024 ? 105 : 87;
    for (fm::PixelType t : {fm::PixelType::u16, fm::PixelType::f32}) {
        auto family = [&](const fm::Window& w) {
            return std::string(fd::median_kernel_family(fd::make_footprint(w), t, 1000, 1000));
        };
        EXPECT_EQ(family(fm::Window::square(23)), "tile_ranks");
        EXPECT_EQ(family(fm::Window::square(65)), "tile_ranks");
        EXPECT_EQ(family(fm::Window::circle(30)), "tile_ranks");
        EXPECT_EQ(family(fm::Window::square(widest)), "tile_ranks") << widest;
        EXPECT_EQ(family(fm::Window::square(widest + 2)), "ranked") << widest + 2;
    }
    EXPECT_STREQ(fd::median_kernel_family(fd::make_footprint(fm::Window::square(65)), fm::PixelType::u8, 1000, 1000),
                 "histogram_u8");
}

// Wide windows keep a plane's dense ranks where it has at most the policy's number of distinct
// values for the window (dense_ranks) and take the tile ranks where it has more: chosen on the
// device for each plane, so at each step planes of that many values and one more in one call
// (and a third of noise) take one path each (the constant border's value, 0, is among them).
// Past the first values the planes are noise of their values, whose medians hover about one
// rank: the dense ranks' spans move both ways.
TEST_P(CudaPolicies, WideWindowsChooseDenseOrTileRanksByPlane) {
    std::mt19937 rng(5);
    for (const kernels::DenseRanksStep& step : kernels::active_policy().median.dense_ranks) {
        if (step.most_values >= 65536) continue;  // every u16 plane
        const int k = step.min_width | 1;
        const std::uint32_t most = step.most_values;
        for (fm::Border b : kAllBorders) {
            Stack src(fm::PixelType::u16, 200, 230, 3, 5, 1);
            for (std::int64_t z = 0; z < src.planes; ++z)
                for (std::int64_t y = 0; y < src.height; ++y)
                    for (std::int64_t x = 0; x < src.width; ++x) {
                        const std::uint32_t i = std::uint32_t(y * src.width + x);
                        // Every one of the plane's values at least once, spread over the range.
                        const std::uint32_t v = i < most + z ? i : rng() % (most + z);
                        src.at<std::uint16_t>(z, y, x) = std::uint16_t(z == 2 ? rng() : v * (65535 / (most + 1)));
                    }
            fm::MedianOptions o;
            o.window = fm::Window::square(k);
            o.border = b;
            o.cval = 0.0;
            expect_cuda_equals_cpu(src, o, kMedian,
                                   "u16 k=" + std::to_string(k) + " " + fm::border_name(b) + ", " +
                                       std::to_string(most) + " values and one more");
        }
    }
}

// 3D medians: the tiled boxes and ellipsoids (blocks of 8, 6 and 4 warps), and the generic
// kernel on windows without a network.
TEST_P(CudaPolicies, Median3D) {
    const fm::Window3D windows[] = {fm::Window3D::box(3),        fm::Window3D::box(5),
                                    fm::Window3D::box(7),        fm::Window3D::ellipsoid(2),
                                    fm::Window3D::box(5, 5, 3),  fm::Window3D::ellipsoid(3, 3, 2),
                                    fm::Window3D::ellipsoid(1.5), fm::Window3D::box(3, 5, 3)};
    std::uint32_t seed = 100;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window3D& w : windows)
            for (fm::Border b : {fm::Border::reflect, fm::Border::constant}) {
                Stack src(t, 70, 21, 9);
                fill(src, seed++, 0);
                fm::Median3DOptions o;
                o.window = w;
                o.border = b;
                o.cval = 5.0;
                expect_cuda_equals_cpu(
                    src, o,
                    [](const fm::ConstImageView& s, const fm::ImageView& d, const fm::Median3DOptions& x) {
                        return fm::median3d(s, d, x);
                    },
                    label(t, fmtest::window3d_label(w) + " " + fm::border_name(b), 0));
            }
}

// Temporal medians: the networks, the sliding median with its windows in shared memory, and
// (600 f32 frames: 75 KB for 32 pixels, past a 64 KB block) read from the frames.
TEST_P(CudaPolicies, Temporal) {
    std::uint32_t seed = 200;
    for (fm::PixelType t : kAllTypes)
        for (int window : {5, 11, 60, 600}) {
            Stack src(t, 37, 3, window + 20);
            fill(src, seed++, 0);
            fm::TemporalOptions o;
            o.window = window;
            expect_cuda_equals_cpu(
                src, o,
                [](const fm::ConstImageView& s, const fm::ImageView& d, const fm::TemporalOptions& x) {
                    return fm::temporal_median(s, d, x);
                },
                label(t, "window " + std::to_string(window), 0));
        }
}

// Background: the exact median at a large window, and the separable smoother's 1D medians
// from the tiled networks to the longest sorted windows (k = 1023: 4 KB a thread for f32).
TEST_P(CudaPolicies, Background) {
    struct Case { int k; bool separable; int width, height; };
    const Case cases[] = {{65, false, 150, 90}, {21, true, 150, 90}, {129, true, 150, 300},
                          {301, true, 90, 700}, {1023, true, 70, 1100}};
    std::uint32_t seed = 300;
    for (fm::PixelType t : kAllTypes)
        for (const Case& c : cases) {
            Stack src(t, c.width, c.height, 1);
            fill(src, seed++, 0);
            fm::BackgroundOptions o;
            o.window = fm::Window::square(c.k);
            o.method = c.separable ? fm::BackgroundMethod::separable : fm::BackgroundMethod::exact;
            o.output = seed % 2 ? fm::BackgroundOutput::subtract : fm::BackgroundOutput::background;
            o.offset = 10.0;
            o.border = fm::Border::reflect;
            expect_cuda_equals_cpu(
                src, o,
                [](const fm::ConstImageView& s, const fm::ImageView& d, const fm::BackgroundOptions& x) {
                    return fm::background(s, d, x);
                },
                label(t, (c.separable ? "separable k=" : "exact k=") + std::to_string(c.k), 0));
        }
}

// Convolutions: the generic kernels' widest bucket (63 columns: 92 KB a block on the H100's
// tiles) and the separable kernels' last bucket and loop (1023 taps).
TEST_P(CudaPolicies, Convolve) {
    std::uint32_t seed = 400;
    auto mask = [&](int n) {
        std::vector<float> m(static_cast<std::size_t>(n));
        std::mt19937 rng(seed++);
        for (float& v : m) v = static_cast<float>(static_cast<int>(rng() % 17) - 8) / 64.0f;
        return m;
    };
    const auto filter = [](const fm::ConstImageView& s, const fm::ImageView& d, const fm::ConvolveOptions& x) {
        return fm::convolve(s, d, x);
    };
    for (fm::PixelType t : kAllTypes) {
        for (const auto& k : {std::pair{31, 31}, std::pair{63, 63}, std::pair{63, 9}}) {
            Stack src(t, 150, 80, 1);
            fill(src, seed++, 0);
            fm::ConvolveOptions o = fm::ConvolveOptions::generic(mask(k.first * k.second), k.first, k.second);
            o.border = fm::Border::mirror;
            expect_cuda_equals_cpu(src, o, filter,
                                   label(t, "generic " + std::to_string(k.first) + "x" + std::to_string(k.second), 0));
        }
        for (int n : {129, 1023}) {
            Stack src(t, 160, 90, 1);
            fill(src, seed++, 0);
            fm::ConvolveOptions o = fm::ConvolveOptions::separable(mask(n), mask(n));
            o.border = fm::Border::wrap;
            expect_cuda_equals_cpu(src, o, filter, label(t, "separable " + std::to_string(n), 0));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryArchitecture, CudaPolicies, ::testing::ValuesIn(policy_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The table itself: every GPU from Turing maps to a policy, older ones to none, newer ones to
// the newest, and a device's limits are never taken above the policy's.
TEST(GpuPolicies, EveryComputeCapabilityFindsItsPolicy) {
    EXPECT_EQ(kernels::policy_for(6, 1), nullptr);
    EXPECT_EQ(kernels::policy_for(7, 0), nullptr);
    const std::pair<std::pair<int, int>, std::string> expected[] = {
        {{7, 5}, "sm_75"}, {{8, 0}, "sm_80"},  {{8, 6}, "sm_86"},   {{8, 7}, "sm_86"},  {{8, 9}, "sm_89"},
        {{9, 0}, "sm_90"}, {{10, 0}, "sm_100"}, {{10, 3}, "sm_100"}, {{12, 0}, "sm_120"}, {{13, 0}, "sm_120"}};
    for (const auto& [cc, name] : expected) {
        const kernels::GpuPolicy* p = kernels::policy_for(cc.first, cc.second);
        ASSERT_NE(p, nullptr) << cc.first << "." << cc.second;
        EXPECT_EQ(p->name, name) << cc.first << "." << cc.second;
    }
    EXPECT_EQ(kernels::policy_named("86"), kernels::policy_named("sm_86"));
    EXPECT_EQ(kernels::policy_named("sm_70"), nullptr);
    EXPECT_EQ(kernels::policy_named("sm_75")->limits.shared_per_block, 64u * 1024u);
    EXPECT_EQ(kernels::policy_named("sm_120")->limits.shared_per_block, 99u * 1024u);
    EXPECT_EQ(kernels::policy_named("sm_86")->limits.shared_per_sm, 100u * 1024u);
    EXPECT_EQ(kernels::policy_named("sm_90")->limits.shared_per_sm, 228u * 1024u);
}

// A forced policy asks for its architecture's shared memory an SM as the carveout (so that the
// H100 holds as few blocks an SM as that GPU); the device's own leaves it to the driver.
TEST_P(CudaPolicies, CarveoutHoldsTheSharedMemoryOfAnSm) {
    int device = 0, most = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device), cudaSuccess);
    const std::size_t sm = std::min<std::size_t>(kernels::policy_named(GetParam())->limits.shared_per_sm, most);
    const int percent = kernels::active_shared_carveout();
    EXPECT_GE(percent * static_cast<std::size_t>(most), 100 * sm);
    EXPECT_LT((percent - 1) * static_cast<std::size_t>(most), 100 * sm);
    kernels::force_gpu_policy(nullptr);
    EXPECT_EQ(kernels::active_shared_carveout(), cudaSharedmemCarveoutDefault);
}

// The kernel the dispatcher takes: every policy keeps every tiled square (u16 and f32 to 21,
// u8 to 15; u8 3x3 streams on aligned rows), in blocks of fewer warps where the H100's do not
// fit, as before there were policies (bench/RESULTS.md's speeds depend on it).
TEST_P(CudaPolicies, KernelChoice) {
    for (fm::PixelType t : kAllTypes)
        for (int k : {3, 5, 7, 9, 11, 15, 21})
            EXPECT_STREQ(fd::median_kernel_family(fd::make_footprint(fm::Window::square(k)), t, 1000, 1000),
                         t == fm::PixelType::u8 && k == 3    ? "stream3"
                         : t == fm::PixelType::u8 && k == 21 ? "histogram_u8"
                                                             : "tiled")
                << fm::pixel_type_name(t) << " k=" << k;
}
