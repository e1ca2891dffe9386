// The temporal median on the CPU: the sort-based reference against an independent naive
// median, the fast backend against the reference (random data, ties, constant stacks, float
// specials, odd sizes, padded strides, every window class, both modes), the streaming form,
// and argument errors.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "fastmedian/fastmedian.hpp"
#include "support/temporal_cases.hpp"

namespace fm = fastmedian;
using fmtest::kAllTypes;
using fmtest::Stack;
using fmtest::TemporalCase;

namespace {

TEST(TemporalMedian, ReferenceEqualsNaiveSort) { fmtest::expect_backend_equals_naive(fm::Backend::cpu, true); }

TEST(TemporalMedian, CpuBackendEqualsNaiveSort) { fmtest::expect_backend_equals_naive(fm::Backend::cpu, false); }

TEST(TemporalMedian, WindowStartsCentredAndInside) {
    EXPECT_EQ(fm::temporal_window_start(0, 10, 3), 0);
    EXPECT_EQ(fm::temporal_window_start(5, 10, 3), 4);   // frames 4, 5, 6
    EXPECT_EQ(fm::temporal_window_start(9, 10, 3), 7);
    EXPECT_EQ(fm::temporal_window_start(5, 10, 4), 3);   // frames 3..6: two before, one after
    EXPECT_EQ(fm::temporal_window_start(7, 10, 10), 0);
    for (std::int64_t t = 0; t < 30; ++t)
        for (int n = 1; n <= 30; ++n)
            EXPECT_EQ(fm::temporal_window_start(t, 30, n), fmtest::naive_window_start(t, 30, n));
}

TEST(TemporalMedian, SubtractClampsIntegerTypes) {
    std::vector<std::uint8_t> in = {10, 200, 30, 10, 200, 30};  // 2x1 pixels, 3 frames
    std::vector<std::uint8_t> out(6, 0);
    fm::TemporalOptions o;
    o.window = 3;
    o.mode = fm::TemporalMode::subtract;
    o.backend = fm::Backend::cpu;
    // Pixel 0 over time: 10, 30, 200 (median 30); pixel 1: 200, 10, 30 (median 30).
    o.offset = 99.6;  // rounds to 100
    fm::temporal_median(fm::as_const(fm::view(in.data(), 1, 2, 3)), fm::view(out.data(), 1, 2, 3), o);
    EXPECT_EQ(out, (std::vector<std::uint8_t>{80, 255, 100, 80, 255, 100}));
    o.offset = -25.0;
    fm::temporal_median(fm::as_const(fm::view(in.data(), 1, 2, 3)), fm::view(out.data(), 1, 2, 3), o);
    EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 145, 0, 0, 145, 0}));
}

TEST(TemporalMedianStream, CpuEqualsNaiveOverLastFrames) { fmtest::expect_stream_equals_naive(fm::Backend::cpu); }

TEST(TemporalMedianStream, OneResultPendingAtATime) {
    fm::TemporalOptions o;
    o.window = 3;
    o.backend = fm::Backend::cpu;
    fm::TemporalMedianStream stream(fm::PixelType::u16, 4, 2, o);
    std::vector<std::uint16_t> frame(8, 7), out(8, 0);
    EXPECT_THROW(stream.fetch(fm::view(out.data(), 4, 2)), fm::Error);
    stream.push_async(fm::as_const(fm::view(frame.data(), 4, 2)));
    EXPECT_THROW(stream.push_async(fm::as_const(fm::view(frame.data(), 4, 2))), fm::Error);
    stream.fetch(fm::view(out.data(), 4, 2));
    EXPECT_EQ(out, frame);
    EXPECT_EQ(stream.frames_pushed(), 1);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const fm::Error& e) {
        EXPECT_EQ(e.code(), fm::ErrorCode::invalid_argument) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error thrown";
    return "";
}

TEST(TemporalMedian, BadArgumentsNameTheParameter) {
    std::vector<float> in(4 * 3 * 5, 1.0f), out(in.size(), 0.0f);
    const auto src = fm::as_const(fm::view(in.data(), 4, 3, 5));
    const auto dst = fm::view(out.data(), 4, 3, 5);
    auto run = [&](fm::TemporalOptions o) { return error_of([&] { fm::temporal_median(src, dst, o); }); };
    fm::TemporalOptions o;
    o.window = 0;
    EXPECT_NE(run(o).find("window"), std::string::npos);
    o.window = 6;
    EXPECT_NE(run(o).find("src.planes"), std::string::npos);
    o.window = 3;
    o.offset = std::nan("");
    EXPECT_NE(run(o).find("offset"), std::string::npos);
    o.offset = 0;
    o.mode = static_cast<fm::TemporalMode>(7);
    EXPECT_NE(run(o).find("mode"), std::string::npos);
    EXPECT_NE(error_of([&] { fm::parse_temporal_mode("mean"); }).find("mode"), std::string::npos);
    EXPECT_EQ(fm::parse_temporal_mode("subtract"), fm::TemporalMode::subtract);
    EXPECT_NE(error_of([&] { fm::temporal_median(src, fm::view(out.data(), 4, 3, 4), fm::TemporalOptions{}); })
                  .find("dst size"), std::string::npos);
    EXPECT_EQ(in, std::vector<float>(in.size(), 1.0f));

    fm::TemporalOptions so;
    so.backend = fm::Backend::cpu;
    EXPECT_NE(error_of([&] { fm::TemporalMedianStream(fm::PixelType::u8, 0, 3, so); }).find("width"),
              std::string::npos);
    fm::TemporalMedianStream stream(fm::PixelType::f32, 4, 3, so);
    std::vector<float> small(6, 0.0f);
    EXPECT_NE(error_of([&] { stream.push(fm::as_const(fm::view(small.data(), 3, 2)), fm::view(out.data(), 4, 3)); })
                  .find("frame size"), std::string::npos);
    EXPECT_NE(error_of([&] { stream.push(fm::as_const(fm::view(in.data(), 4, 3)), fm::view(small.data(), 3, 2)); })
                  .find("out size"), std::string::npos);
    EXPECT_EQ(stream.frames_pushed(), 0);  // nothing went in
}

}  // namespace
