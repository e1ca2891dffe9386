// The host-memory path of the plane-wise filters (the plane pipeline): stacks of more planes
// than it has slots, pageable and pinned (cudaMallocHost'd, cudaHostRegister'd) sources and
// destinations in every combination, padded strides, calls after calls reusing its buffers, a
// float destination for an 8-bit source; every result equal to the CPU's. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllTypes;
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

class CudaPipeline : public ::testing::Test {
protected:
    void SetUp() override {
        if (fm::cuda_devices().empty())
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
                    fm::median2d(src.cview(), got.view(), o);
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
