// Backend choice: what ran is reported, and an unavailable backend is a clear error.
#include <gtest/gtest.h>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::Stack;

TEST(Dispatch, CpuBackendReportsCpu) {
    Stack src(fm::PixelType::u16, 9, 5), dst(fm::PixelType::u16, 9, 5);
    fmtest::fill_random(src, 1);
    fm::MedianOptions o;
    o.backend = fm::Backend::cpu;
    const fm::RunInfo info = fm::median2d(src.cview(), dst.view(), o);
    EXPECT_EQ(info.backend, fm::Backend::cpu);
    EXPECT_EQ(info.device, -1);
    EXPECT_EQ(info.device_name, "CPU");
}

TEST(Dispatch, AutomaticUsesTheFirstGpuElseTheCpu) {
    Stack src(fm::PixelType::f32, 9, 5), dst(fm::PixelType::f32, 9, 5);
    fmtest::fill_random(src, 2);
    const fm::RunInfo info = fm::median2d(src.cview(), dst.view(), fm::MedianOptions{});
    if (!fm::cuda_unavailable_reason().empty()) {
        EXPECT_EQ(info.backend, fm::Backend::cpu);
        EXPECT_FALSE(fm::cuda_unavailable_reason().empty());
    } else {
        EXPECT_EQ(info.backend, fm::Backend::cuda);
        EXPECT_EQ(info.device, 0);
        EXPECT_EQ(info.device_name, fm::cuda_devices()[0].name);
    }
}

TEST(Dispatch, MissingCudaDeviceIsAClearError) {
    Stack src(fm::PixelType::u8, 9, 5), dst(fm::PixelType::u8, 9, 5);
    fmtest::fill_random(src, 3);
    const auto dst_before = dst.bytes;
    fm::MedianOptions o;
    o.backend = fm::Backend::cuda;
    o.device = static_cast<int>(fm::cuda_devices().size());  // one past the last device
    try {
        fm::median2d(src.cview(), dst.view(), o);
        FAIL() << "a missing device was accepted";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::backend_unavailable);
        EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
    }
    EXPECT_EQ(dst.bytes, dst_before);
}

TEST(Dispatch, AMissingDeviceInTheListIsAClearError) {
    Stack src(fm::PixelType::u16, 9, 5), dst(fm::PixelType::u16, 9, 5);
    fmtest::fill_random(src, 4);
    const auto dst_before = dst.bytes;
    fm::BackgroundOptions o;
    o.window = fm::Window::square(3);
    o.backend = fm::Backend::cuda;
    const int count = static_cast<int>(fm::cuda_devices().size());
    o.devices = {0, count + 1};  // the second does not exist
    try {
        fm::background(src.cview(), dst.view(), o);
        FAIL() << "a missing device was accepted";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::backend_unavailable);
        if (count > 0) {
            EXPECT_NE(std::string(e.what()).find("device " + std::to_string(count + 1) + " does not exist"),
                      std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(dst.bytes, dst_before);
    o.backend = fm::Backend::automatic;  // falls back to the CPU, as for a missing `device`
    EXPECT_EQ(fm::background(src.cview(), dst.view(), o).backend, fm::Backend::cpu);
}

TEST(Dispatch, VersionAndBuildAreReported) {
    EXPECT_STREQ(fm::version(), FASTMEDIAN_EXPECTED_VERSION);
    if (!fm::cuda_compiled()) EXPECT_TRUE(fm::cuda_devices().empty());
}
