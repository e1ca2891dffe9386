// CancelScope: a call on the scope's thread throws Error(cancelled) soon after the flag is set
// (before it starts when the flag is already set), never writes its input, and leaves calls
// without a set flag, on this thread or others, alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "fastmedian/fastmedian.hpp"

namespace fm = fastmedian;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint16_t kUnwritten = 65535;  // never a result: the inputs stay below 1000

std::vector<std::uint16_t> random_pixels(std::int64_t n) {
    std::mt19937 rng(7);
    std::vector<std::uint16_t> v(static_cast<std::size_t>(n));
    for (auto& p : v) p = static_cast<std::uint16_t>(rng() % 1000);
    return v;
}

fm::Median3DOptions box(int k) {
    fm::Median3DOptions o;
    o.window = fm::Window3D::box(k, k, k);
    o.backend = fm::Backend::cpu;
    return o;
}

// Runs call(): the name of the code of the fm::Error it threw, or "none".
template <class Call>
std::string error_of(Call call) {
    try {
        call();
    } catch (const fm::Error& e) {
        return fm::error_code_name(e.code());
    }
    return "none";
}

}  // namespace

TEST(Cancel, FlagSetBeforeTheCallStopsEveryFilter) {
    const std::int64_t w = 256, h = 128, planes = 3;
    const std::vector<std::uint16_t> in = random_pixels(w * h * planes);
    std::vector<std::uint16_t> out(in.size(), kUnwritten);
    const auto src = fm::view(in.data(), w, h, planes);
    const auto dst = fm::view(out.data(), w, h, planes);
    const std::atomic<bool> stop{true};
    const fm::CancelScope scope(stop);

    fm::MedianOptions median;
    median.window = fm::Window::square(5);
    median.backend = fm::Backend::cpu;
    EXPECT_EQ(error_of([&] { fm::median2d(src, dst, median); }), "cancelled");
    EXPECT_EQ(error_of([&] { fm::median3d(src, dst, box(9)); }), "cancelled");
    fm::TemporalOptions temporal;
    temporal.window = 3;
    temporal.backend = fm::Backend::cpu;
    EXPECT_EQ(error_of([&] { fm::temporal_median(src, dst, temporal); }), "cancelled");
    for (const auto method : {fm::BackgroundMethod::exact, fm::BackgroundMethod::separable}) {
        fm::BackgroundOptions background;
        background.window = fm::Window::square(65);
        background.method = method;
        background.backend = fm::Backend::cpu;
        EXPECT_EQ(error_of([&] { fm::background(src, dst, background); }), "cancelled");
    }
    fm::ConvolveOptions convolve = fm::ConvolveOptions::gaussian(2.0);
    convolve.backend = fm::Backend::cpu;
    EXPECT_EQ(error_of([&] { fm::convolve(src, dst, convolve); }), "cancelled");
    EXPECT_EQ(in, random_pixels(w * h * planes)) << "input written";
}

TEST(Cancel, FlagSetFromAnotherThreadStopsALongCallSoon) {
    // A 9x9x9 median of 4M voxels: seconds on a few cores, each output row a piece of work.
    const std::int64_t w = 512, h = 512, planes = 16;
    const std::vector<std::uint16_t> in = random_pixels(w * h * planes);
    std::vector<std::uint16_t> out(in.size(), kUnwritten);
    std::atomic<bool> stop{false};
    auto call = std::async(std::launch::async, [&] {
        const fm::CancelScope scope(stop);
        return error_of([&] {
            fm::median3d(fm::view(in.data(), w, h, planes), fm::view(out.data(), w, h, planes),
                         box(9));
        });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto set = Clock::now();
    stop = true;
    EXPECT_EQ(call.get(), "cancelled");
    EXPECT_LT(Clock::now() - set, std::chrono::milliseconds(500)) << "the call went on";
    EXPECT_NE(std::find(out.begin(), out.end(), kUnwritten), out.end())
        << "the call ran to its end";
    EXPECT_EQ(in, random_pixels(w * h * planes)) << "input written";
    // The pool's workers that helped the cancelled call do not keep its flag.
    EXPECT_NO_THROW(fm::median3d(fm::view(in.data(), w, h, planes),
                                 fm::view(out.data(), w, h, planes), box(3)));
}

TEST(Cancel, CallsWithoutASetFlagRunToTheEnd) {
    const std::int64_t w = 96, h = 64, planes = 12;  // enough voxels for the pool to help
    const std::vector<std::uint16_t> in = random_pixels(w * h * planes);
    std::vector<std::uint16_t> want(in.size()), got(in.size(), kUnwritten);
    const auto src = fm::view(in.data(), w, h, planes);
    fm::median3d(src, fm::view(want.data(), w, h, planes), box(5));
    {
        const std::atomic<bool> clear{false};
        const fm::CancelScope scope(clear);
        fm::median3d(src, fm::view(got.data(), w, h, planes), box(5));
        EXPECT_EQ(got, want) << "a clear flag changed the result";
    }
    // Another thread's set flag stops only that thread's calls.
    const std::atomic<bool> stop{true};
    std::thread([&] {
        const fm::CancelScope scope(stop);
        EXPECT_EQ(error_of([&] { fm::median3d(src, fm::view(got.data(), w, h, planes), box(5)); }),
                  "cancelled");
    }).join();
    std::fill(got.begin(), got.end(), kUnwritten);
    fm::median3d(src, fm::view(got.data(), w, h, planes), box(5));
    EXPECT_EQ(got, want) << "a flag set on another thread stopped this one";
}
