// A build without CUDA: the CUDA backend's entry points, which the dispatcher reaches only
// when it chose CUDA, refuse with the reason instead of being left out behind #ifdefs.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "cuda/convolve_cuda.hpp"
#include "cuda/cuda_backend.hpp"
#include "fastmedian/fastmedian.hpp"
#include "semantics/output_mode.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
namespace fd = fastmedian::detail;

namespace {

void expect_refused(const std::function<void()>& call) {
    try {
        call();
        ADD_FAILURE() << "the call did not throw";
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::backend_unavailable);
        EXPECT_NE(std::string(e.what()).find("no CUDA backend"), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(NoCudaBackend, EveryEntryRefusesWithTheReason) {
    ASSERT_FALSE(fm::cuda_compiled());
    fmtest::Stack src(fm::PixelType::u8, 9, 5), dst(fm::PixelType::u8, 9, 5);
    const auto before = dst.bytes;
    const fd::Footprint fp = fd::make_footprint(fm::Window::square(3));
    const fd::Footprint3D fp3 = fd::make_footprint3d(fm::Window3D::box(3, 3, 3));
    const fm::kernels::OutputMode mode = fd::output_mode(false, 0.0);
    expect_refused([&] {
        fd::median2d_cuda(src.cview(), dst.view(), fp, fm::Border::reflect, 0, {0}, nullptr, {});
    });
    expect_refused([&] {
        fd::median3d_cuda(src.cview(), dst.view(), fp3, fm::Border::reflect, 0, 0, nullptr, {});
    });
    expect_refused([&] { fd::temporal_median_cuda(src.cview(), dst.view(), 3, mode, 0, nullptr); });
    expect_refused([&] { fd::TemporalStreamCuda(fm::PixelType::u8, 9, 5, 3, mode, 0); });
    expect_refused([&] {
        fd::background_cuda(src.cview(), dst.view(), fp, false, fm::Border::reflect, 0, mode, {0},
                            nullptr);
    });
    expect_refused([&] {
        fd::convolve_cuda(src.cview(), dst.view(), fd::ConvolvePlan{}, fm::Border::reflect, {0},
                          nullptr);
    });
    EXPECT_EQ(dst.bytes, before);
}
