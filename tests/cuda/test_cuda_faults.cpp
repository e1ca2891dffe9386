// GPU faults injected through the CUDA host side's test hook (a device allocation refused, the
// first or the second of a call; a kernel launch failed): every filter's call fails with
// device_error, leaves its input alone and device memory as it found it, and the next call
// works. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <functional>
#include <string>

#include "cuda/cuda_util.hpp"
#include "cuda/plane_pipeline.hpp"
#include "fastmedian/fastmedian.hpp"
#include "support/device_copy.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fastmedian::detail::Fault;
using fastmedian::detail::release_idle_pipeline_contexts;
using fmtest::Stack;

namespace {

using Call = std::function<fm::RunInfo(Stack& src, Stack& dst)>;

struct Filter {
    const char* name;
    Call call;  // on the CUDA backend, host views
};

const Filter kFilters[] = {
    {"median2d", [](Stack& src, Stack& dst) {
         fm::MedianOptions o;
         o.window = fm::Window::circle(2);
         o.backend = fm::Backend::cuda;
         return fm::median2d(src.cview(), dst.view(), o);
     }},
    {"temporal_median", [](Stack& src, Stack& dst) {
         fm::TemporalOptions o;
         o.window = 3;
         o.backend = fm::Backend::cuda;
         return fm::temporal_median(src.cview(), dst.view(), o);
     }},
    {"background", [](Stack& src, Stack& dst) {
         fm::BackgroundOptions o;
         o.window = fm::Window::square(9);
         o.backend = fm::Backend::cuda;
         return fm::background(src.cview(), dst.view(), o);
     }},
    {"median3d", [](Stack& src, Stack& dst) {
         fm::Median3DOptions o;
         o.window = fm::Window3D::box(3);
         o.backend = fm::Backend::cuda;
         return fm::median3d(src.cview(), dst.view(), o);
     }},
    {"median3d generic", [](Stack& src, Stack& dst) {
         fm::Median3DOptions o;
         o.window = fm::Window3D::ellipsoid(1.5);
         o.backend = fm::Backend::cuda;
         return fm::median3d(src.cview(), dst.view(), o);
     }},
    {"convolve", [](Stack& src, Stack& dst) {
         fm::ConvolveOptions o = fm::ConvolveOptions::gaussian(1.5);
         o.backend = fm::Backend::cuda;
         return fm::convolve(src.cview(), dst.view(), o);
     }},
};

struct Injected {
    const char* name;
    Fault fault;
    int skip;
};

// Every filter's host path allocates its source and destination on the device, then launches.
const Injected kFaults[] = {{"first allocation", Fault::device_allocation, 0},
                            {"second allocation", Fault::device_allocation, 1},
                            {"launch", Fault::kernel_launch, 0}};

std::size_t free_device_memory() {
    std::size_t free = 0, total = 0;
    EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
    return free;
}

class CudaFaults : public ::testing::Test {
protected:
    void SetUp() override {
        if (!fm::cuda_unavailable_reason().empty())
            GTEST_SKIP() << "no usable CUDA device: " << fm::cuda_unavailable_reason();
    }
    // A fault a test armed but no call took must not hit the next test.
    void TearDown() override { fastmedian::detail::inject_fault(Fault::none); }
};

TEST_F(CudaFaults, FailCleanlyAndTheNextCallWorks) {
    for (const Filter& f : kFilters) {
        for (const Injected& i : kFaults) {
            const std::string what = std::string(f.name) + ", " + i.name;
            Stack src(fm::PixelType::u16, 67, 45, 4), dst(fm::PixelType::u16, 67, 45, 4);
            Stack expected(fm::PixelType::u16, 67, 45, 4);
            fmtest::fill_random(src, 11);
            const auto input = src.bytes;
            // A first call loads the kernels; without the buffers the plane pipeline keeps for
            // later calls, the memory measured next is the steady state, and the next call
            // must allocate again.
            f.call(src, expected);
            release_idle_pipeline_contexts();
            const std::size_t free_before = free_device_memory();

            fastmedian::detail::inject_fault(i.fault, i.skip);
            try {
                f.call(src, dst);
                ADD_FAILURE() << what << ": no error";
            } catch (const fm::Error& e) {
                EXPECT_EQ(e.code(), fm::ErrorCode::device_error) << what << ": " << e.what();
                EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos) << e.what();
            }
            EXPECT_EQ(src.bytes, input) << what << ": input changed";
            EXPECT_EQ(free_device_memory(), free_before) << what << ": device memory leaked";

            const fm::RunInfo ran = f.call(src, dst);
            EXPECT_EQ(ran.backend, fm::Backend::cuda) << what;
            EXPECT_EQ(fmtest::first_difference(expected, dst), "") << what << ": next call";
            release_idle_pipeline_contexts();
            EXPECT_EQ(free_device_memory(), free_before) << what << ": next call leaked";
        }
    }
}

// Large windows on u16 and f32 take scratch memory of their own; refused, the call fails
// cleanly too. Device views: the scratch is then the call's only allocation.
TEST_F(CudaFaults, LargeWindowScratchRefused) {
    for (fm::PixelType t : {fm::PixelType::u16, fm::PixelType::f32}) {
        const std::string what = std::string("large window ") + fm::pixel_type_name(t);
        Stack src(t, 120, 90, 2), dst(t, 120, 90, 2), expected(t, 120, 90, 2);
        fmtest::fill_random(src, 5, 100);
        std::fill(dst.bytes.begin(), dst.bytes.end(), 0x5A);
        fmtest::DeviceCopy d_src(src), d_dst(dst);
        fm::MedianOptions o;
        o.window = fm::Window::square(51);
        o.backend = fm::Backend::cuda;
        fm::median2d(fm::as_const(d_src.view(src)), d_dst.view(dst), o);
        d_dst.copy_to(expected);
        fmtest::DeviceCopy d_poisoned(dst);
        const std::size_t free_before = free_device_memory();

        fastmedian::detail::inject_fault(Fault::device_allocation, 0);
        try {
            fm::median2d(fm::as_const(d_src.view(src)), d_poisoned.view(dst), o);
            ADD_FAILURE() << what << ": no error";
        } catch (const fm::Error& e) {
            EXPECT_EQ(e.code(), fm::ErrorCode::device_error) << what << ": " << e.what();
        }
        Stack after(t, 120, 90, 2);
        d_poisoned.copy_to(after);
        EXPECT_EQ(after.bytes, dst.bytes) << what << ": the output was written";
        EXPECT_EQ(free_device_memory(), free_before) << what << ": device memory leaked";

        fm::median2d(fm::as_const(d_src.view(src)), d_poisoned.view(dst), o);
        d_poisoned.copy_to(after);
        EXPECT_EQ(fmtest::first_difference(expected, after), "") << what << ": next call";
    }
}

}  // namespace
