// Test cases shared by the CPU and CUDA temporal median suites: windows, modes, stacks, and the
// streaming check against the naive median.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/naive_temporal.hpp"
#include "support/test_images.hpp"

namespace fmtest {

constexpr int kWindows[] = {1, 2, 3, 4, 5, 9, 10, 11, 12, 50, 101};

struct TemporalCase {
    int window;
    fastmedian::TemporalMode mode;
    double offset;
};

// Stacks for window n: enough frames that windows slide, content by `kind`.
inline Stack temporal_stack(fastmedian::PixelType type, int n, int kind, std::uint32_t seed) {
    const std::int64_t frames = n + (n > 20 ? 19 : 13);
    Stack s(type, n > 20 ? 19 : 37, n > 20 ? 3 : 5, frames);
    switch (kind) {
        case 0: fill_random(s, seed); break;
        case 1: fill_random(s, seed, 3); break;  // ties everywhere
        default: fill_random(s, seed, 1); break;  // constant
    }
    if (type == fastmedian::PixelType::f32 && kind != 2) add_specials(s, seed + 1, 0.15);
    return s;
}

inline std::string temporal_label(fastmedian::PixelType t, const TemporalCase& c, int kind) {
    return std::string(fastmedian::pixel_type_name(t)) + " N=" + std::to_string(c.window) + " " +
           fastmedian::temporal_mode_name(c.mode) + " offset=" + std::to_string(c.offset) + " kind=" +
           std::to_string(kind);
}

inline std::vector<TemporalCase> temporal_cases() {
    std::vector<TemporalCase> out;
    for (int n : kWindows) {
        out.push_back({n, fastmedian::TemporalMode::median, 0.0});
        out.push_back({n, fastmedian::TemporalMode::subtract, n % 2 ? 100.4 : -7.5});
    }
    return out;
}

// Every case on `backend` (or the reference) equals the naive median; the input is untouched.
inline void expect_backend_equals_naive(fastmedian::Backend backend, bool reference) {
    for (fastmedian::PixelType type : kAllTypes)
        for (const TemporalCase& c : temporal_cases())
            for (int kind = 0; kind < 3; ++kind) {
                Stack src = temporal_stack(type, c.window, kind, 17u * c.window + kind);
                Stack want(type, src.width, src.height, src.planes, 1, 0);
                Stack got(type, src.width, src.height, src.planes, 4, 2);
                std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
                const auto before = src.bytes;
                naive_temporal(src, want, c.window, c.mode == fastmedian::TemporalMode::subtract, c.offset);
                fastmedian::TemporalOptions o;
                o.window = c.window;
                o.mode = c.mode;
                o.offset = c.offset;
                o.backend = backend;
                o.reference = reference;
                fastmedian::temporal_median(src.cview(), got.view(), o);
                ASSERT_EQ(first_difference(want, got), "") << temporal_label(type, c, kind);
                ASSERT_EQ(src.bytes, before) << temporal_label(type, c, kind) << ": input changed";
            }
}

// Frames pushed one by one give the median of the last N (of all, while fewer were pushed).
inline void expect_stream_equals_naive(fastmedian::Backend backend) {
    for (fastmedian::PixelType type : kAllTypes)
        for (const TemporalCase& c : temporal_cases()) {
            if (c.window > 50) continue;
            Stack src = temporal_stack(type, c.window, 0, 5u * c.window);
            fastmedian::TemporalOptions o;
            o.window = c.window;
            o.mode = c.mode;
            o.offset = c.offset;
            o.backend = backend;
            fastmedian::TemporalMedianStream stream(type, src.width, src.height, o);
            EXPECT_EQ(stream.run_info().backend, backend);
            for (std::int64_t k = 0; k < src.planes; ++k) {
                const int count = static_cast<int>(std::min<std::int64_t>(k + 1, c.window));
                // The naive median over the last `count` frames, for the newest of them.
                Stack last(type, src.width, src.height, count, 0, 0);
                for (int i = 0; i < count; ++i)
                    for (std::int64_t y = 0; y < src.height; ++y)
                        std::memcpy(last.bytes.data() + i * last.plane_stride + y * last.row_stride,
                                    src.bytes.data() + (k - count + 1 + i) * src.plane_stride + y * src.row_stride,
                                    static_cast<std::size_t>(last.row_stride));
                Stack want(type, src.width, src.height, count, 0, 0);
                naive_temporal(last, want, count, c.mode == fastmedian::TemporalMode::subtract, c.offset);
                Stack got(type, src.width, src.height, 1, 2, 0);
                std::fill(got.bytes.begin(), got.bytes.end(), 0x5A);
                fastmedian::ImageView frame = src.view();
                frame.data += k * src.plane_stride;
                frame.planes = 1;
                if (k % 2 == 0) {
                    stream.push(fastmedian::as_const(frame), got.view());
                } else {
                    stream.push_async(fastmedian::as_const(frame));
                    stream.fetch(got.view());
                }
                Stack want_last(type, src.width, src.height, 1, 0, 0);
                std::memcpy(want_last.bytes.data(), want.bytes.data() + (count - 1) * want.plane_stride,
                            static_cast<std::size_t>(want.plane_stride));
                ASSERT_EQ(first_difference(want_last, got), "")
                    << temporal_label(type, c, 0) << " push " << k;
            }
            EXPECT_EQ(stream.frames_pushed(), src.planes);
        }
}

}  // namespace fmtest
