// The CUDA convolution gives the CPU's bits (the CPU backend equals the reference, see
// tests/cpu/test_convolve_cpu.cpp; a few cases here check the reference directly): every
// generic kernel (squares 3..9, the 15/31/63 width buckets), every separable radius bucket and
// the looping kernel, all types, output types, borders, odd sizes, images smaller than the
// mask, aligned and unaligned rows, float specials, host views and device views on callers'
// streams, two launches with different masks at once. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <limits>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/device_copy.hpp"
#include "support/naive_convolve.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

class CudaConvolve : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

std::string describe(const Stack& s, const fm::ConvolveOptions& o) {
    std::string m = o.mask.empty()
        ? "separable " + std::to_string(o.row_mask.size()) + "/" + std::to_string(o.column_mask.size())
        : "mask " + std::to_string(o.mask_width) + "x" + std::to_string(o.mask_height);
    return std::string(fm::pixel_type_name(s.type)) + " " + std::to_string(s.width) + "x" +
           std::to_string(s.height) + "x" + std::to_string(s.planes) + " " + m + " " +
           fm::border_name(o.border) + (o.output == fm::ConvolveOutput::f32 ? " ->f32" : "");
}

// CUDA (host views) against the CPU backend, or against the reference; outputs poisoned
// differently, the GPU's with rows padded by `pad` pixels.
void expect_cuda_equals_cpu(Stack& src, fm::ConvolveOptions o, bool reference = false, int pad = 5) {
    const fm::PixelType out = fmtest::output_type(src.type, o.output);
    Stack want(out, src.width, src.height, src.planes, 1, 0);
    Stack got(out, src.width, src.height, src.planes, pad, 3);
    std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
    o.backend = fm::Backend::cpu;
    o.reference = reference;
    fm::convolve(src.cview(), want.view(), o);
    o.backend = fm::Backend::cuda;
    o.reference = false;
    EXPECT_EQ(fm::convolve(src.cview(), got.view(), o).backend, fm::Backend::cuda);
    EXPECT_EQ(fmtest::first_difference(want, got), "") << describe(src, o);
}

fm::ConvolveOptions generic(int kw, int kh, std::uint32_t seed) {
    return fm::ConvolveOptions::generic(fmtest::test_mask(kw * kh, seed), kw, kh);
}

fm::ConvolveOptions separable(int kw, int kh, std::uint32_t seed) {
    return fm::ConvolveOptions::separable(fmtest::test_mask(kw, seed), fmtest::test_mask(kh, seed + 7));
}

}  // namespace

// Every generic kernel: exact squares 3, 5, 7, 9 and the width buckets 15, 31, 63 (including
// 1-wide, 1-high and non-square masks), on images of several tiles with partial ones.
TEST_F(CudaConvolve, GenericKernelsEqualCpu) {
    const int shapes[][2] = {{3, 3},  {5, 5},  {7, 7},  {9, 9},   {1, 1},  {11, 11}, {3, 5},
                             {15, 3}, {1, 9},  {5, 1},  {17, 17}, {31, 31}, {31, 1}, {21, 7},
                             {33, 5}, {63, 1}, {1, 63}, {45, 45}, {63, 63}};
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (const auto& k : shapes) {
            const bool big = k[0] * k[1] > 400;
            Stack src(t, big ? 150 : 300, big ? 40 : 77, 2);
            fmtest::fill_random(src, seed++);
            fm::ConvolveOptions o = generic(k[0], k[1], seed);
            for (fm::Border b : kAllBorders) {
                o.border = b;
                o.cval = 123.4;
                o.output = (seed + static_cast<int>(b)) % 2 ? fm::ConvolveOutput::f32 : fm::ConvolveOutput::same;
                expect_cuda_equals_cpu(src, o);
            }
        }
}

// Every separable radius bucket (4, 8, 12, 16, 24, 32, 48, 64) and the looping kernel beyond,
// row and column masks of different lengths, and the Gaussians of the issue.
TEST_F(CudaConvolve, SeparableKernelsEqualCpu) {
    const int lengths[][2] = {{1, 1},   {3, 3},   {9, 9},   {3, 17},  {25, 25}, {33, 1},
                              {41, 49}, {65, 65}, {97, 3},  {1, 129}, {129, 129}, {131, 131},
                              {201, 7}, {5, 301}};
    std::uint32_t seed = 500;
    for (fm::PixelType t : kAllTypes)
        for (const auto& k : lengths) {
            Stack src(t, 301, k[0] > 129 || k[1] > 129 ? 40 : 150, 1);
            fmtest::fill_random(src, seed++);
            fm::ConvolveOptions o = separable(k[0], k[1], seed);
            for (fm::Border b : kAllBorders) {
                o.border = b;
                o.cval = 99;
                o.normalize = (seed + static_cast<int>(b)) % 3 == 0;
                o.output = (seed + static_cast<int>(b)) % 2 ? fm::ConvolveOutput::f32 : fm::ConvolveOutput::same;
                expect_cuda_equals_cpu(src, o);
            }
        }
    for (double sigma : {1.0, 3.0, 10.0})
        for (fm::PixelType t : kAllTypes) {
            Stack src(t, 260, 131, 1);
            fmtest::fill_random(src, seed++);
            fm::ConvolveOptions o = fm::ConvolveOptions::gaussian(sigma);
            for (fm::Border b : kAllBorders) {
                o.border = b;
                expect_cuda_equals_cpu(src, o);
            }
        }
}

// The reference itself (not only the CPU backend) on a few cases, and images smaller than
// the mask (borders folding several times), down to one pixel.
TEST_F(CudaConvolve, SmallImagesAndTheReference) {
    std::uint32_t seed = 900;
    for (fm::PixelType t : kAllTypes)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{5, 4}, std::pair{130, 9}})
            for (fm::Border b : kAllBorders) {
                Stack src(t, w, h, 2);
                fmtest::fill_random(src, seed++);
                for (int variant = 0; variant < 4; ++variant) {
                    fm::ConvolveOptions o = variant == 0 ? generic(5, 5, seed) : variant == 1 ? generic(13, 7, seed)
                                          : variant == 2 ? separable(9, 11, seed) : separable(151, 3, seed);
                    o.border = b;
                    o.cval = 5;
                    expect_cuda_equals_cpu(src, o, true);
                }
            }
}

// Rows whose starts allow 4-pixel vector stores (no padding, width a multiple of 4) and rows
// that do not (odd padding), for each output type.
TEST_F(CudaConvolve, AlignedAndUnalignedRows) {
    for (fm::PixelType t : kAllTypes)
        for (int pad : {0, 1, 3}) {
            Stack src(t, 256, 33, 1, pad, 0);
            fmtest::fill_random(src, 40 + pad);
            for (auto out : {fm::ConvolveOutput::same, fm::ConvolveOutput::f32}) {
                fm::ConvolveOptions o = generic(5, 5, 3);
                o.output = out;
                expect_cuda_equals_cpu(src, o, false, pad);
                o = fm::ConvolveOptions::gaussian(2.0);
                o.output = out;
                expect_cuda_equals_cpu(src, o, false, pad);
            }
        }
}

// Sums that overflow to infinity (then NaN, with weights of both signs) in the separable
// kernel's intermediate: the padded taps must not turn them into other values.
TEST_F(CudaConvolve, IntermediateOverflow) {
    for (fm::PixelType t : kAllTypes) {
        Stack src(t, 300, 90, 1);
        fmtest::fill_random(src, 3);
        for (const auto& masks : {std::pair{std::vector<float>{1e37f, -2e37f, 3e37f},
                                            std::vector<float>{3e37f, 3e37f, -1e37f, 2e37f, 1e37f}},
                                  std::pair{std::vector<float>{2e30f}, std::vector<float>{1e10f, 3e30f, 1e30f}}}) {
            fm::ConvolveOptions o = fm::ConvolveOptions::separable(masks.first, masks.second);
            o.output = fm::ConvolveOutput::f32;
            expect_cuda_equals_cpu(src, o);
            o.output = fm::ConvolveOutput::same;
            expect_cuda_equals_cpu(src, o);
        }
    }
}

// A device view that starts one pixel into its allocation: rows not aligned to 4 pixels take
// the pixel-by-pixel reads.
TEST_F(CudaConvolve, DeviceViewsNotAligned) {
    for (fm::PixelType t : kAllTypes) {
        Stack whole(t, 301, 70, 1, 0, 0);
        fmtest::fill_random(whole, 21);
        fmtest::DeviceCopy d_whole(whole);
        const std::size_t px = fm::pixel_size(t);
        fm::ConstImageView src = fm::as_const(d_whole.view(whole));
        src.data += px;
        src.width -= 1;
        fm::ConstImageView host = whole.cview();
        host.data += px;
        host.width -= 1;
        for (int variant = 0; variant < 2; ++variant) {
            fm::ConvolveOptions o = variant == 0 ? generic(5, 5, 8) : fm::ConvolveOptions::gaussian(2.0);
            Stack want(t, 300, 70, 1), got(t, 300, 70, 1);
            o.backend = fm::Backend::cpu;
            fm::convolve(host, want.view(), o);
            fmtest::DeviceCopy d_out(got);
            o.backend = fm::Backend::cuda;
            fm::convolve(src, d_out.view(got), o);
            d_out.copy_to(got);
            EXPECT_EQ(fmtest::first_difference(want, got), "") << fm::pixel_type_name(t) << " " << variant;
        }
    }
}

TEST_F(CudaConvolve, FloatSpecials) {
    std::uint32_t seed = 1200;
    for (fm::Border b : kAllBorders) {
        Stack src(fm::PixelType::f32, 200, 70, 1);
        fmtest::fill_random(src, seed++);
        fmtest::add_specials(src, seed, 0.01);
        for (int variant = 0; variant < 3; ++variant) {
            fm::ConvolveOptions o = variant == 0 ? generic(3, 3, seed) : variant == 1 ? generic(19, 5, seed)
                                                                           : fm::ConvolveOptions::gaussian(3.0);
            o.border = b;
            o.cval = variant == 2 ? std::numeric_limits<double>::infinity() : 1.5;
            expect_cuda_equals_cpu(src, o);
        }
    }
}

// Device views with padded strides and several planes, on a caller's stream; two calls with
// different masks in flight at once on two streams.
TEST_F(CudaConvolve, DeviceViewsOnCallersStreams) {
    cudaStream_t streams[2];
    for (cudaStream_t& s : streams) ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
    for (fm::PixelType t : kAllTypes) {
        Stack src(t, 517, 93, 3, 7, 2);
        fmtest::fill_random(src, 7);
        fm::ConvolveOptions opts[2] = {generic(7, 7, 11), fm::ConvolveOptions::gaussian(3.0)};
        opts[0].output = fm::ConvolveOutput::f32;
        Stack want[2] = {Stack(fm::PixelType::f32, 517, 93, 3, 7, 2), Stack(t, 517, 93, 3, 7, 2)};
        Stack got[2] = {want[0], want[1]};
        for (int i = 0; i < 2; ++i) {
            opts[i].backend = fm::Backend::cpu;
            fm::convolve(src.cview(), want[i].view(), opts[i]);
            std::fill(got[i].bytes.begin(), got[i].bytes.end(), 0x33);
        }
        fmtest::DeviceCopy d_src(src), d_out0(got[0]), d_out1(got[1]);
        const fmtest::DeviceCopy* d_out[2] = {&d_out0, &d_out1};
        for (int repeat = 0; repeat < 3; ++repeat)
            for (int i = 0; i < 2; ++i) {
                opts[i].backend = fm::Backend::automatic;
                opts[i].cuda_stream = streams[i];
                EXPECT_EQ(fm::convolve(fm::as_const(d_src.view(src)), d_out[i]->view(got[i]), opts[i]).backend,
                          fm::Backend::cuda);
            }
        for (int i = 0; i < 2; ++i) {
            ASSERT_EQ(cudaStreamSynchronize(streams[i]), cudaSuccess);
            d_out[i]->copy_to(got[i]);
            EXPECT_EQ(fmtest::first_difference(want[i], got[i]), "") << fm::pixel_type_name(t) << " call " << i;
        }
    }
    for (cudaStream_t s : streams) cudaStreamDestroy(s);
}

TEST_F(CudaConvolve, CpuBackendRefusesDeviceViews) {
    Stack src(fm::PixelType::u8, 16, 8, 1);
    fmtest::DeviceCopy d_src(src), d_dst(src);
    fm::ConvolveOptions o = generic(3, 3, 1);
    o.backend = fm::Backend::cpu;
    try {
        fm::convolve(fm::as_const(d_src.view(src)), d_dst.view(src), o);
        ADD_FAILURE() << "no error";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument) << e.what();
    }
}
