// Views in CUDA memory: filtered on the device with no copies, on the caller's stream or
// synchronously, with padded pitches; host memory passed as device memory is refused.
#include <gtest/gtest.h>

#include <iterator>
#include <memory>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>

#include "fastmedian/fastmedian.hpp"
#include "support/device_copy.hpp"
#include "support/naive_median3d.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::kAllBorders;
using fmtest::kAllTypes;
using fmtest::DeviceCopy;
using fmtest::Stack;

namespace {

class CudaDeviceViews : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
};

}  // namespace

TEST_F(CudaDeviceViews, EqualTheHostPathOnEveryTypeAndBorder) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    std::uint32_t seed = 1;
    for (fm::PixelType t : kAllTypes)
        for (fm::Border b : kAllBorders)
            for (bool use_stream : {false, true})
                for (int k : {3, 5, 9}) {
                    Stack src(t, 131, 37, 3, 7, 2), want(t, 131, 37, 3), got(t, 131, 37, 3, 7, 2);
                    fmtest::fill_random(src, seed++);
                    fm::MedianOptions o;
                    o.window = fm::Window::square(k);
                    o.border = b;
                    o.cval = 4.0;
                    o.reference = true;
                    fm::median2d(src.cview(), want.view(), o);
                    o.reference = false;

                    DeviceCopy d_src(src), d_dst(got);  // got's poison travels to the device too
                    o.backend = fm::Backend::automatic;
                    o.cuda_stream = use_stream ? stream : nullptr;
                    const fm::RunInfo info =
                        fm::median2d(fm::as_const(d_src.view(src)), d_dst.view(got), o);
                    EXPECT_EQ(info.backend, fm::Backend::cuda);
                    if (use_stream) ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
                    d_dst.copy_to(got);
                    EXPECT_EQ(fmtest::first_difference(want, got), "")
                        << fm::pixel_type_name(t) << " " << fm::border_name(b)
                        << " k=" << k << (use_stream ? " on a stream" : " synchronous");
                }
    cudaStreamDestroy(stream);
}

// f32 planes of whole numbers 0..65535 take 16-bit keys block by block (the others 32-bit
// keys); device views send every plane in one launch, so each plane's blocks must keep their
// own marks: planes 0 and 2 whole, plane 1 whole on its left and fractions on its right.
TEST_F(CudaDeviceViews, WholeNumberFloatsOnSeveralPlanesAtOnce) {
    std::uint32_t seed = 77;
    for (fm::Border b : kAllBorders)
        for (int k : {5, 9, 15}) {
            Stack src(fm::PixelType::f32, 700, 41, 3, 4, 1), want(fm::PixelType::f32, 700, 41, 3),
                got(fm::PixelType::f32, 700, 41, 3, 4, 1);
            std::mt19937 rng(seed++);
            for (std::int64_t z = 0; z < src.planes; ++z)
                for (std::int64_t y = 0; y < src.height; ++y)
                    for (std::int64_t x = 0; x < src.width; ++x)
                        src.at<float>(z, y, x) = static_cast<float>(rng() % 65536) +
                                                 (z == 1 && x >= src.width / 2 ? 0.25f : 0.0f);
            fm::MedianOptions o;
            o.window = fm::Window::square(k);
            o.border = b;
            o.cval = 9.0;
            o.reference = true;
            fm::median2d(src.cview(), want.view(), o);
            o.reference = false;
            DeviceCopy d_src(src), d_dst(got);  // got's poison travels to the device too
            o.backend = fm::Backend::cuda;
            fm::median2d(fm::as_const(d_src.view(src)), d_dst.view(got), o);
            d_dst.copy_to(got);
            EXPECT_EQ(fmtest::first_difference(want, got), "") << fm::border_name(b) << " k=" << k;
        }
}

// Calls on one stream may overlap the launch before them (kernels/overlapped_launch.cuh) and must
// still read what it wrote: a chain of medians on a stream, each reading the last one's output and
// none waited for until the end, equals the same chain on the CPU at every step. Rows of 4096
// whole words take the streaming kernels at 3 (u8), 5 and 7, and the tiled ones at 11 and 21;
// f32 whole numbers on the left and fractions on the right take both keys' launches.
TEST_F(CudaDeviceViews, ChainedCallsOnAStreamReadEachOthersOutput) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    const int sizes[] = {3, 5, 7, 11, 21, 5, 3, 7};
    constexpr int kSteps = static_cast<int>(std::size(sizes));
    for (fm::PixelType t : kAllTypes) {
        std::vector<Stack> want, got;
        for (int i = 0; i <= kSteps; ++i) {
            want.emplace_back(t, 4096, 40, 1, 4, 1);
            got.emplace_back(t, 4096, 40, 1, 4, 1);
        }
        fmtest::fill_random(want[0], 40 + static_cast<std::uint32_t>(t));
        if (t == fm::PixelType::f32) {
            std::mt19937 rng(41);
            for (std::int64_t y = 0; y < want[0].height; ++y)
                for (std::int64_t x = 0; x < want[0].width; ++x)
                    want[0].at<float>(0, y, x) = static_cast<float>(rng() % 65536) + (x >= 2048 ? 0.25f : 0.0f);
        }
        std::vector<std::unique_ptr<DeviceCopy>> device;
        device.push_back(std::make_unique<DeviceCopy>(want[0]));
        for (int i = 1; i <= kSteps; ++i) device.push_back(std::make_unique<DeviceCopy>(got[i]));  // poisoned
        fm::MedianOptions o;
        o.border = fm::Border::reflect;
        for (int i = 0; i < kSteps; ++i) {
            o.window = fm::Window::square(sizes[i]);
            o.backend = fm::Backend::cpu;
            o.cuda_stream = nullptr;
            fm::median2d(want[i].cview(), want[i + 1].view(), o);
            o.backend = fm::Backend::cuda;
            o.cuda_stream = stream;
            fm::median2d(fm::as_const(device[i]->view(want[i])), device[i + 1]->view(got[i + 1]), o);
        }
        ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
        for (int i = 1; i <= kSteps; ++i) {
            device[i]->copy_to(got[i]);
            EXPECT_EQ(fmtest::first_difference(want[i], got[i]), "")
                << fm::pixel_type_name(t) << " step " << i << " (" << sizes[i - 1] << "x" << sizes[i - 1] << ")";
        }
    }
    cudaStreamDestroy(stream);
}

// Large windows on u16 and f32 take scratch memory in the stream's order: the call returns
// without waiting, and the scratch goes once the work that uses it is done.
TEST_F(CudaDeviceViews, LargeWindowsOnACallersStream) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    std::uint32_t seed = 300;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window& w : {fm::Window::square(51), fm::Window::circle(27.5)}) {
            Stack src(t, 211, 97, 3, 7, 2), want(t, 211, 97, 3), got(t, 211, 97, 3, 7, 2);
            fmtest::fill_random(src, seed++, t == fm::PixelType::f32 ? 50 : 0);
            fm::MedianOptions o;
            o.window = w;
            o.border = fm::Border::reflect;
            o.backend = fm::Backend::cpu;
            fm::median2d(src.cview(), want.view(), o);
            DeviceCopy d_src(src), d_dst(got);
            o.backend = fm::Backend::cuda;
            o.cuda_stream = stream;
            fm::median2d(fm::as_const(d_src.view(src)), d_dst.view(got), o);
            ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
            d_dst.copy_to(got);
            EXPECT_EQ(fmtest::first_difference(want, got), "")
                << fm::pixel_type_name(t) << " size " << w.size << " radius " << w.radius;
        }
    cudaStreamDestroy(stream);
}

TEST_F(CudaDeviceViews, HostMemoryMarkedAsDeviceIsRefused) {
    Stack src(fm::PixelType::u8, 16, 16), dst(fm::PixelType::u8, 16, 16);
    fmtest::fill_random(src, 3);
    fm::ImageView s = src.view(), d = dst.view();
    s.memory = d.memory = fm::Memory::cuda;
    const auto before = dst.bytes;
    try {
        fm::median2d(fm::as_const(s), d, fm::MedianOptions{});
        FAIL() << "host memory accepted as device memory";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument);
        EXPECT_NE(std::string(e.what()).find("src.data"), std::string::npos) << e.what();
    }
    EXPECT_EQ(dst.bytes, before);
}

TEST_F(CudaDeviceViews, Median3DEqualsTheReferenceOnAStream) {
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    std::uint32_t seed = 40;
    for (fm::PixelType t : kAllTypes)
        for (const fm::Window3D& w : {fm::Window3D::box(3), fm::Window3D::ellipsoid(1.5)})
            for (bool use_stream : {false, true}) {
                Stack src(t, 90, 33, 6, 7, 2), want(t, 90, 33, 6), got(t, 90, 33, 6, 7, 2);
                fmtest::fill_random(src, seed++);
                fm::Median3DOptions o;
                o.window = w;
                o.border = fm::Border::wrap;
                o.reference = true;
                fm::median3d(src.cview(), want.view(), o);
                o.reference = false;
                fmtest::DeviceCopy d_src(src), d_dst(got);
                o.cuda_stream = use_stream ? stream : nullptr;
                const fm::RunInfo info =
                    fm::median3d(fm::as_const(d_src.view(src)), d_dst.view(got), o);
                EXPECT_EQ(info.backend, fm::Backend::cuda);
                if (use_stream) ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
                d_dst.copy_to(got);
                EXPECT_EQ(fmtest::first_difference(want, got), "")
                    << fm::pixel_type_name(t) << " " << fmtest::window3d_label(w) << (use_stream ? " on a stream" : "");
            }
    cudaStreamDestroy(stream);
}
