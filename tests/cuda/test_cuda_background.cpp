// The CUDA background gives the naive and the CPU reference's bits: exact and separable,
// subtract and background, every border; images longer than a thread's band of positions;
// device views on a caller's stream. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "fastmedian/fastmedian.hpp"
#include "support/device_copy.hpp"
#include "support/naive_background.hpp"

namespace fm = fastmedian;
using fmtest::kAllTypes;
using fmtest::Stack;

namespace {

class CudaBackground : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

fm::BackgroundOptions options(int k, bool separable, bool subtract, fm::Border border) {
    fm::BackgroundOptions o;
    o.window = fm::Window::square(k);
    o.method = separable ? fm::BackgroundMethod::separable : fm::BackgroundMethod::exact;
    o.output = subtract ? fm::BackgroundOutput::subtract : fm::BackgroundOutput::background;
    o.offset = 10.0;
    o.border = border;
    o.cval = 3.0;
    return o;
}

// Expects the CUDA backend's output of `o` for src to equal the CPU reference's, bit for bit,
// into a poisoned destination.
void expect_cuda_equals_reference(Stack& src, fm::BackgroundOptions o, const std::string& what) {
    Stack want(src.type, src.width, src.height, 1, 0, 0), got(src.type, src.width, src.height, 1, 2, 0);
    std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
    o.reference = true;
    fm::background(src.cview(), want.view(), o);
    o.reference = false;
    o.backend = fm::Backend::cuda;
    fm::background(src.cview(), got.view(), o);
    EXPECT_EQ(fmtest::first_difference(want, got), "") << fm::pixel_type_name(src.type) << " " << what;
}

}  // namespace

TEST_F(CudaBackground, EqualsNaive) { fmtest::expect_background_equals_naive(fm::Backend::cuda, false); }

// Lines longer than a thread's band, windows and circles beyond the small-window kernels.
TEST_F(CudaBackground, LargeImagesEqualReference) {
    for (fm::PixelType type : kAllTypes)
        for (int k : {65, 129})
            for (int variant = 0; variant < 3; ++variant) {
                Stack src(type, 613, 557, 1);
                // Floats of 4000 levels: the exact median's tile ranks (CudaMedian covers the
                // dense ranks' groups that planes of more than 65536 values take past them).
                const int levels = variant == 2 ? 3 : type == fm::PixelType::f32 ? 4000 : 0;
                fmtest::fill_random(src, 11u * k + variant, levels);
                if (type == fm::PixelType::f32) fmtest::add_specials(src, 5u, 0.02);
                fm::BackgroundOptions o = options(k, variant != 1, variant == 0,
                                                  variant == 2 ? fm::Border::mirror : fm::Border::replicate);
                if (variant == 1 && k == 129) o.window = fm::Window::circle(40.5);
                expect_cuda_equals_reference(src, o, "k=" + std::to_string(k) + " variant " + std::to_string(variant));
            }
}

// The separable smoother's windows of every kind: networks computing tiles of 1, 4, 8, 16, 32
// and 32 medians for k = 1, 3..7, 9..15, 17..33, 35..65 and 67..129 (pads fill a network's
// core below its largest k; each range's ends are here), u8 histograms past 65, and u16 / f32
// windows sorted in shared memory past 129. Even widths let 8- and 16-bit columns go in pairs,
// odd ones not. Windows taller than the image, every border, and columns longer than a band.
TEST_F(CudaBackground, SeparableEveryWindowKindEveryBorder) {
    for (fm::PixelType type : kAllTypes)
        for (int k : {1, 3, 7, 9, 13, 15, 17, 31, 33, 35, 63, 65, 67, 129, 257, 1023})
            for (fm::Border border : fmtest::kAllBorders) {
                Stack src(type, k % 4 == 1 ? 302 : 301, k % 4 == 1 ? 700 : 701, 1);
                const bool ties = k == 1023 || k == 35 || k == 15 || k == 17 || k == 63;
                fmtest::fill_random(src, 5u * k + static_cast<unsigned>(border), ties ? 4 : 0);
                if (type == fm::PixelType::f32) fmtest::add_specials(src, 9u, 0.03);
                expect_cuda_equals_reference(src, options(k, true, k == 257 || k == 33, border),
                                             "k=" + std::to_string(k) + " " + fm::border_name(border));
            }
}

TEST_F(CudaBackground, DeviceViewsOnACallersStream) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    for (fm::PixelType type : kAllTypes)
        for (bool separable : {false, true}) {
            Stack src(type, 300, 200, 2, 5, 1);
            fmtest::fill_random(src, 21u);
            Stack want(type, 300, 200, 2, 5, 1), got(type, 300, 200, 2, 5, 1);
            fm::BackgroundOptions o = options(31, separable, true, fm::Border::reflect);
            o.reference = true;
            fm::background(src.cview(), want.view(), o);
            fmtest::DeviceCopy d_src(src), d_dst(got);
            o.reference = false;
            o.cuda_stream = stream;
            fm::background(fm::as_const(d_src.view(src)), d_dst.view(got), o);
            ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
            d_dst.copy_to(got);
            EXPECT_EQ(fmtest::first_difference(want, got), "")
                << fm::pixel_type_name(type) << (separable ? " separable" : " exact");
        }
    cudaStreamDestroy(stream);
}
