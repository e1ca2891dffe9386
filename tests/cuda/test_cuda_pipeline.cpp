// The host-memory path of the plane-wise filters (the plane pipeline): stacks of more planes
// than it has slots, pageable and pinned (cudaMallocHost'd, cudaHostRegister'd) sources and
// destinations in every combination, padded strides, calls after calls reusing its buffers, a
// float destination for an 8-bit source, planes larger than the device memory allowed (bands of
// rows, every border mode), several devices, and the temporal and 3D medians in bands of rows
// of every plane; every result equal to the CPU's. Skipped without a GPU (the several-device
// test without two).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>
#include <memory>

#include "fastmedian/fastmedian.hpp"
#include "support/memory_limit.hpp"
#include "support/naive_median3d.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllTypes;
using fmtest::MemoryLimit;
using fmtest::Stack;

namespace {

// A Stack's bytes page-locked for as long as it lives (the caller's pinned memory).
class Registered {
public:
    explicit Registered(Stack& s) : p_(s.bytes.data()) {
        EXPECT_EQ(cudaHostRegister(p_, s.bytes.size(), cudaHostRegisterDefault), cudaSuccess);
    }
    ~Registered() { cudaHostUnregister(p_); }

private:
    void* p_;
};

// The CPU's result of `filter(options)` and the GPU's under each memory limit (0: none), on
// pageable and pinned memory: all equal.
template <class Options, class Filter>
void expect_bands_equal_the_cpu(Stack& src, fm::PixelType out_type, Options o, Filter filter,
                                const std::string& what,
                                std::initializer_list<std::int64_t> limits = {0, 60000, 9000, 1}) {
    Stack want(out_type, src.width, src.height, src.planes);
    o.backend = fm::Backend::cpu;
    filter(src.cview(), want.view(), o);
    o.backend = fm::Backend::cuda;
    for (bool pinned : {false, true})
        for (std::int64_t limit : limits) {
            Stack got(out_type, src.width, src.height, src.planes, 2, 1);
            std::unique_ptr<Registered> a, b;
            if (pinned) {
                a = std::make_unique<Registered>(src);
                b = std::make_unique<Registered>(got);
            }
            std::unique_ptr<MemoryLimit> m;
            if (limit > 0) m = std::make_unique<MemoryLimit>(limit);
            filter(src.cview(), got.view(), o);
            EXPECT_EQ(fmtest::first_difference(want, got), "")
                << what << ", limit " << limit << (pinned ? ", pinned" : ", pageable");
        }
}

class CudaPipeline : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

}  // namespace

TEST_F(CudaPipeline, MedianEqualsTheCpuForPageableAndPinnedMemory) {
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (bool pin_src : {false, true})
            for (bool pin_dst : {false, true})
                for (std::int64_t planes : {1, 2, 7}) {
                    Stack src(t, 301, 97, planes, 5, 2), want(t, 301, 97, planes);
                    Stack got(t, 301, 97, planes, 3, 1);
                    fmtest::fill_random(src, seed++);
                    std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
                    fm::MedianOptions o;
                    o.window = fm::Window::square(5);
                    o.border = fm::Border::reflect;
                    o.backend = fm::Backend::cpu;
                    fm::median2d(src.cview(), want.view(), o);
                    const auto before = src.bytes;
                    std::unique_ptr<Registered> a, b;
                    if (pin_src) a = std::make_unique<Registered>(src);
                    if (pin_dst) b = std::make_unique<Registered>(got);
                    o.backend = fm::Backend::cuda;
                    fm::ImageView out = got.view();
                    if (planes == 1) out.plane_stride = 0;  // a single plane's stride is free
                    fm::median2d(src.cview(), out, o);
                    EXPECT_EQ(fmtest::first_difference(want, got), "")
                        << fm::pixel_type_name(t) << " planes " << planes
                        << (pin_src ? " pinned src" : "") << (pin_dst ? " pinned dst" : "");
                    EXPECT_EQ(src.bytes, before);
                }
}

TEST_F(CudaPipeline, CallsOfOtherSizesReuseAndGrowTheBuffers) {
    std::uint32_t seed = 50;
    const std::pair<int, int> shapes[] = {{64, 40}, {1500, 300}, {33, 1200}, {64, 40}, {2100, 900}};
    for (auto [w, h] : shapes)
        for (fm::PixelType t : {fm::PixelType::u8, fm::PixelType::f32}) {
            Stack src(t, w, h, 5), want(t, w, h, 5), got(t, w, h, 5);
            fmtest::fill_random(src, seed++);
            fm::MedianOptions o;
            o.window = fm::Window::circle(2);
            o.backend = fm::Backend::cpu;
            fm::median2d(src.cview(), want.view(), o);
            o.backend = fm::Backend::cuda;
            fm::median2d(src.cview(), got.view(), o);
            EXPECT_EQ(fmtest::first_difference(want, got), "") << w << "x" << h;
        }
}

TEST_F(CudaPipeline, BackgroundAndConvolutionThroughThePipeline) {
    for (bool pinned : {false, true}) {
        Stack src(fm::PixelType::u16, 700, 130, 6), want(fm::PixelType::u16, 700, 130, 6),
            got(fm::PixelType::u16, 700, 130, 6);
        fmtest::fill_random(src, 7);
        std::unique_ptr<Registered> r;
        if (pinned) r = std::make_unique<Registered>(src);
        for (fm::BackgroundMethod m : {fm::BackgroundMethod::exact, fm::BackgroundMethod::separable}) {
            fm::BackgroundOptions o;
            o.window = fm::Window::square(31);
            o.method = m;
            o.offset = 100;
            o.backend = fm::Backend::cpu;
            fm::background(src.cview(), want.view(), o);
            o.backend = fm::Backend::cuda;
            fm::background(src.cview(), got.view(), o);
            EXPECT_EQ(fmtest::first_difference(want, got), "") << "background, pinned " << pinned;
        }
        Stack u8(fm::PixelType::u8, 513, 77, 4);
        fmtest::fill_random(u8, 9);
        Stack fwant(fm::PixelType::f32, 513, 77, 4), fgot(fm::PixelType::f32, 513, 77, 4, 1, 3);
        fm::ConvolveOptions c = fm::ConvolveOptions::gaussian(2.0);
        c.output = fm::ConvolveOutput::f32;
        c.backend = fm::Backend::cpu;
        fm::convolve(u8.cview(), fwant.view(), c);
        c.backend = fm::Backend::cuda;
        fm::convolve(u8.cview(), fgot.view(), c);
        EXPECT_EQ(fmtest::first_difference(fwant, fgot), "") << "convolve to float, pinned " << pinned;
    }
}

TEST_F(CudaPipeline, PlanesLargerThanTheMemoryAllowsGoThroughInBands) {
    std::uint32_t seed = 100;
    const fm::Window windows[] = {fm::Window::square(3), fm::Window::circle(3.5),
                                  fm::Window::square(21), fm::Window::square(51)};
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window& w : windows)
            for (fm::Border b : fmtest::kAllBorders) {
                Stack src(t, 613, 157, 3);
                // Floats of 4000 levels a band at square 51 (the tile ranks); CudaMedian covers
                // the dense ranks' groups that planes of more than 65536 values take past them.
                const bool many_floats = t == fm::PixelType::f32 && w.size == 51;
                fmtest::fill_random(src, seed, seed % 2 ? 5 : many_floats ? 4000 : 0);
                ++seed;
                if (t == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.02);
                fm::MedianOptions o;
                o.window = w;
                o.border = b;
                o.cval = 7;
                expect_bands_equal_the_cpu(src, t, o, fm::median2d,
                                           std::string("median ") + fm::pixel_type_name(t) + " " +
                                               fm::border_name(b) + " size " + std::to_string(w.size) +
                                               " radius " + std::to_string(w.radius));
            }
}

TEST_F(CudaPipeline, BandsOfImagesShorterThanTheWindowWrapAsTheWholePlane) {
    for (fm::Border b : fmtest::kAllBorders) {  // a 15x15 window over 6 rows: rows repeat
        Stack src(fm::PixelType::u16, 300, 6, 2);
        fmtest::fill_random(src, 77);
        fm::MedianOptions o;
        o.window = fm::Window::square(15);
        o.border = b;
        expect_bands_equal_the_cpu(src, fm::PixelType::u16, o, fm::median2d,
                                   std::string("short image ") + fm::border_name(b));
    }
}

TEST_F(CudaPipeline, BackgroundAndConvolutionInBands) {
    for (fm::Border b : fmtest::kAllBorders) {
        Stack src(fm::PixelType::u16, 317, 103, 2);
        fmtest::fill_random(src, 31);
        for (fm::BackgroundMethod m : {fm::BackgroundMethod::exact, fm::BackgroundMethod::separable}) {
            fm::BackgroundOptions o;
            o.window = fm::Window::square(31);
            o.method = m;
            o.border = b;
            o.cval = 1000;
            o.offset = 100;
            // Bands of about 20 rows (with the window's 30 halo rows) and of 1.
            expect_bands_equal_the_cpu(src, fm::PixelType::u16, o, fm::background,
                                       std::string("background ") + fm::border_name(b),
                                       {0, 4 * 50 * 4096, 1});
        }
        Stack f(fm::PixelType::f32, 517, 203, 2);  // Gaussian sigma 3: 12 halo rows
        fmtest::fill_random(f, 32);
        fm::ConvolveOptions g = fm::ConvolveOptions::gaussian(3.0);
        g.border = b;
        g.cval = -2;
        expect_bands_equal_the_cpu(f, fm::PixelType::f32, g, fm::convolve,
                                   std::string("gaussian ") + fm::border_name(b), {0, 200000, 1});
        fm::ConvolveOptions c = fm::ConvolveOptions::generic(std::vector<float>(7 * 5, 0.03f), 5, 7);
        c.border = b;
        c.output = fm::ConvolveOutput::f32;
        Stack u8(fm::PixelType::u8, 301, 99, 2);
        fmtest::fill_random(u8, 33);
        expect_bands_equal_the_cpu(u8, fm::PixelType::f32, c, fm::convolve,
                                   std::string("5 wide, 7 tall mask ") + fm::border_name(b));
    }
}

TEST_F(CudaPipeline, SeveralDevicesShareThePlanes) {
    const int count = static_cast<int>(fm::cuda_devices().size());
    if (count < 2) GTEST_SKIP() << "needs two CUDA devices, found " << count;
    for (const std::vector<int>& devices : {std::vector<int>{0, 1}, std::vector<int>{1, 0}}) {
        Stack src(fm::PixelType::u16, 1031, 517, 40), want(fm::PixelType::u16, 1031, 517, 40);
        fmtest::fill_random(src, 5);
        fm::MedianOptions o;
        o.window = fm::Window::square(5);
        o.backend = fm::Backend::cpu;
        fm::median2d(src.cview(), want.view(), o);
        o.backend = fm::Backend::cuda;
        o.devices = devices;
        Stack got(fm::PixelType::u16, 1031, 517, 40);
        const fm::RunInfo info = fm::median2d(src.cview(), got.view(), o);
        EXPECT_EQ(info.devices, devices);
        EXPECT_EQ(info.device, devices.front());
        EXPECT_EQ(fmtest::first_difference(want, got), "") << "median on " << devices.front() << " first";

        fm::BackgroundOptions bo;
        bo.window = fm::Window::square(31);
        bo.method = fm::BackgroundMethod::separable;
        bo.devices = devices;
        expect_bands_equal_the_cpu(src, fm::PixelType::u16, bo, fm::background, "background on two");
        fm::ConvolveOptions c = fm::ConvolveOptions::gaussian(2.0);
        c.devices = devices;
        expect_bands_equal_the_cpu(src, fm::PixelType::u16, c, fm::convolve, "gaussian on two");
    }
}

TEST_F(CudaPipeline, TemporalMedianInBandsOfEveryFrame) {
    std::uint32_t seed = 700;
    for (fm::PixelType t : kAllTypes)
        for (int window : {5, 25}) {
            Stack src(t, 333, 150, 40);
            fmtest::fill_random(src, seed++, window == 5 ? 7 : 0);
            if (t == fm::PixelType::f32) fmtest::add_specials(src, seed, 0.02);
            fm::TemporalOptions o;
            o.window = window;
            o.mode = window == 5 ? fm::TemporalMode::median : fm::TemporalMode::subtract;
            o.offset = 10;
            expect_bands_equal_the_cpu(src, t, o, fm::temporal_median,
                                       std::string("temporal ") + fm::pixel_type_name(t) + " N=" +
                                           std::to_string(window),
                                       {0, 1200000, 400000});
        }
}

TEST_F(CudaPipeline, Median3DInBandsOfRowsOfEveryPlane) {
    // A band's outputs are its rows but the halo rows either side: every plane's go out in one
    // copy (to pinned destinations, or to staging). Tiled networks and the generic selection
    // (3x3x9), whose window table the workers share.
    std::uint32_t seed = 800;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window3D& w : {fm::Window3D::box(3), fm::Window3D::box(5, 5, 3), fm::Window3D::box(3, 3, 9)})
            for (fm::Border b : {fm::Border::constant, fm::Border::mirror}) {
                Stack src(t, 211, 150, 9);
                fmtest::fill_random(src, seed++, seed % 2 ? 5 : 0);
                fm::Median3DOptions o;
                o.window = w;
                o.border = b;
                o.cval = 7;
                expect_bands_equal_the_cpu(src, t, o, fm::median3d,
                                           std::string("median3d ") + fm::pixel_type_name(t) + " " +
                                               fmtest::window3d_label(w) + " " + fm::border_name(b),
                                           {0, 400000, 1});
            }
}
