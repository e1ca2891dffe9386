// Many threads calling the library at once get the same bits as one thread alone: 2D median,
// temporal median and background on the default backend, each thread with its own images;
// separate temporal streams side by side; and one stream shared under a lock, as temporal.hpp
// says it must be.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"
#include "support/test_images.hpp"

namespace fm = fastmedian;
using fmtest::Stack;

namespace {

constexpr int kThreads = 8;

// One call of each filter on `src` into `out` (three planes: median, temporal, background).
void filter_all(Stack& src, Stack& median, Stack& temporal, Stack& background) {
    fm::MedianOptions m;
    m.window = fm::Window::circle(3.0);
    fm::median2d(src.cview(), median.view(), m);
    fm::TemporalOptions t;
    t.window = 4;
    t.mode = fm::TemporalMode::subtract;
    fm::temporal_median(src.cview(), temporal.view(), t);
    fm::BackgroundOptions b;
    b.window = fm::Window::square(21);
    fm::background(src.cview(), background.view(), b);
}

TEST(Concurrency, ThreadsAtOnceEqualOneThreadAlone) {
    std::vector<Stack> src, want[3], got[3];
    for (int i = 0; i < kThreads; ++i) {
        const fm::PixelType type = fmtest::kAllTypes[i % 3];
        src.emplace_back(type, 61 + i, 37, 6);
        fmtest::fill_random(src.back(), 100u + i);
        for (int f = 0; f < 3; ++f) {
            want[f].emplace_back(type, 61 + i, 37, 6);
            got[f].emplace_back(type, 61 + i, 37, 6);
        }
    }
    for (int i = 0; i < kThreads; ++i) filter_all(src[i], want[0][i], want[1][i], want[2][i]);
    std::vector<std::thread> threads;
    for (int round = 0; round < 3; ++round) {
        threads.clear();
        for (int i = 0; i < kThreads; ++i)
            threads.emplace_back([&, i] { filter_all(src[i], got[0][i], got[1][i], got[2][i]); });
        for (std::thread& t : threads) t.join();
        for (int f = 0; f < 3; ++f)
            for (int i = 0; i < kThreads; ++i)
                ASSERT_EQ(fmtest::first_difference(want[f][i], got[f][i]), "")
                    << "filter " << f << " thread " << i << " round " << round;
    }
}

// The frames 0..k of `frames` as the median the stream must give after pushing frame k.
std::vector<std::uint16_t> trailing_median(const std::vector<std::vector<std::uint16_t>>& frames,
                                           std::size_t k, int window) {
    const std::size_t first = k + 1 > std::size_t(window) ? k + 1 - window : 0;
    std::vector<std::uint16_t> out(frames[0].size());
    std::vector<std::uint16_t> v;
    for (std::size_t p = 0; p < out.size(); ++p) {
        v.clear();
        for (std::size_t f = first; f <= k; ++f) v.push_back(frames[f][p]);
        std::sort(v.begin(), v.end());
        out[p] = v[(v.size() - 1) / 2];
    }
    return out;
}

TEST(Concurrency, SeparateStreamsSideBySide) {
    constexpr int kFrames = 30, kWindow = 7, kW = 23, kH = 11;
    std::vector<std::thread> threads;
    std::vector<int> failures(kThreads, 0);
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&, i] {
            std::mt19937 rng(500 + i);
            std::vector<std::vector<std::uint16_t>> frames;
            fm::TemporalOptions o;
            o.window = kWindow;
            fm::TemporalMedianStream stream(fm::PixelType::u16, kW, kH, o);
            std::vector<std::uint16_t> out(kW * kH);
            for (int k = 0; k < kFrames; ++k) {
                frames.emplace_back(kW * kH);
                for (auto& v : frames.back()) v = static_cast<std::uint16_t>(rng() % 50);
                stream.push_async(fm::as_const(fm::view(frames.back().data(), kW, kH)));
                stream.fetch(fm::view(out.data(), kW, kH));
                failures[i] += out != trailing_median(frames, k, kWindow);
            }
        });
    for (std::thread& t : threads) t.join();
    for (int i = 0; i < kThreads; ++i) EXPECT_EQ(failures[i], 0) << "thread " << i;
}

TEST(Concurrency, OneStreamSharedUnderALock) {
    constexpr int kPushes = 12, kWindow = 5, kW = 17, kH = 9;
    fm::TemporalOptions o;
    o.window = kWindow;
    fm::TemporalMedianStream stream(fm::PixelType::u16, kW, kH, o);
    std::mutex lock;
    std::vector<std::vector<std::uint16_t>> pushed, results;  // in push order, under the lock
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
        threads.emplace_back([&, i] {
            std::mt19937 rng(900 + i);
            for (int k = 0; k < kPushes; ++k) {
                std::vector<std::uint16_t> frame(kW * kH), out(kW * kH);
                for (auto& v : frame) v = static_cast<std::uint16_t>(rng() % 40);
                const std::lock_guard<std::mutex> hold(lock);
                stream.push(fm::as_const(fm::view(frame.data(), kW, kH)), fm::view(out.data(), kW, kH));
                pushed.push_back(std::move(frame));
                results.push_back(std::move(out));
            }
        });
    for (std::thread& t : threads) t.join();
    ASSERT_EQ(stream.frames_pushed(), kThreads * kPushes);
    for (std::size_t k = 0; k < pushed.size(); ++k)
        ASSERT_EQ(results[k], trailing_median(pushed, k, kWindow)) << "push " << k;
}

}  // namespace
