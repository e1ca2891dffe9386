// Benchmark input for the temporal median, shared by the GPU and CPU temporal benchmarks and
// the GPU baseline kernel: a movie of `frames` frames of size x size, made from one real plane
// (bench/gpu/images, tiled by mirroring) that drifts a few pixels from frame to frame, plus
// per-pixel noise and rare bright spots (as single-molecule blinks), all from an integer hash
// so every frame differs. Also the window rule and the order keys the baselines sort by.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#ifdef __CUDACC__
#define BENCH_HD __host__ __device__ __forceinline__
#else
#define BENCH_HD inline
#endif

namespace bench {

// The base plane is tiled to (size + 2 * kStackMargin)^2; frames are windows of it shifted by
// up to kStackMargin / 2 pixels each way.
constexpr std::int64_t kStackMargin = 16;

// Per-frame shift (dx, dy), in [-kStackMargin/2, kStackMargin/2]: a slow wobble.
inline void stack_shifts(std::int64_t frames, std::vector<int>& dx, std::vector<int>& dy) {
    dx.resize(static_cast<std::size_t>(frames));
    dy.resize(static_cast<std::size_t>(frames));
    const double a = static_cast<double>(kStackMargin / 2);
    for (std::int64_t z = 0; z < frames; ++z) {
        dx[static_cast<std::size_t>(z)] = static_cast<int>(std::lround(a * std::sin(0.07 * z)));
        dy[static_cast<std::size_t>(z)] =
            static_cast<int>(std::lround(a * std::sin(0.05 * z + 1.0)));
    }
}

BENCH_HD std::uint32_t stack_hash(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    std::uint32_t h =
        x * 0x9E3779B1u ^ (y + 0x7F4A7C15u) * 0x85EBCA77u ^ (z + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

// Pixel (x, y) of frame z, from the tiled base plane `base` (row stride `base_stride` pixels)
// shifted by (dx, dy).
template <class T> struct StackPixel;

template <> struct StackPixel<std::uint8_t> {
    BENCH_HD static std::uint8_t make(std::uint8_t b, std::uint32_t h) {
        int v = static_cast<int>(b) + static_cast<int>(h % 9u) - 4;
        if ((h >> 24) == 0) v += 100;  // 1 in 256: a blink
        return static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
};

template <> struct StackPixel<std::uint16_t> {
    BENCH_HD static std::uint16_t make(std::uint16_t b, std::uint32_t h) {
        int v = static_cast<int>(b) + static_cast<int>(h % 129u) - 64;
        if ((h >> 24) == 0) v += 2000;
        return static_cast<std::uint16_t>(v < 0 ? 0 : (v > 65535 ? 65535 : v));
    }
};

template <> struct StackPixel<float> {
    BENCH_HD static float make(float b, std::uint32_t h) {
        const float u = static_cast<float>(h & 0xFFFFu) * (1.0f / 65536.0f) - 0.5f;
        float v = b + u * 0.02f * (std::fabs(b) + 1.0f);
        if ((h >> 24) == 0) v = v * 2.0f + 1.0f;
        return v;
    }
};

template <class T>
BENCH_HD T stack_pixel(const T* base, std::int64_t base_stride, std::int64_t x, std::int64_t y,
                       std::int64_t z, int dx, int dy) {
    const T b = base[(y + kStackMargin + dy) * base_stride + (x + kStackMargin + dx)];
    return StackPixel<T>::make(b, stack_hash(static_cast<std::uint32_t>(x),
                                             static_cast<std::uint32_t>(y),
                                             static_cast<std::uint32_t>(z)));
}

// First frame of output frame t's window (temporal.hpp's rule; the benchmarks check that it
// equals fastmedian::temporal_window_start).
BENCH_HD std::int64_t window_start(std::int64_t t, std::int64_t frames, int window) {
    std::int64_t s = t - window / 2;
    if (s > frames - window) s = frames - window;
    if (s < 0) s = 0;
    return s;
}

// Order keys: integer order = the median's order (floats: -Inf < ... < -0 < +0 < ... < +Inf <
// every NaN; a NaN median is written as 0x7FC00000).
template <class T> struct SortKey;

template <> struct SortKey<std::uint8_t> {
    using type = std::uint8_t;
    BENCH_HD static type to(std::uint8_t v) { return v; }
    BENCH_HD static std::uint8_t from(type k) { return k; }
};

template <> struct SortKey<std::uint16_t> {
    using type = std::uint16_t;
    BENCH_HD static type to(std::uint16_t v) { return v; }
    BENCH_HD static std::uint16_t from(type k) { return k; }
};

template <> struct SortKey<float> {
    using type = std::uint32_t;
    BENCH_HD static type to(float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return 0xFFFFFFFFu;
        return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
    }
    BENCH_HD static float from(type k) {
        const std::uint32_t bits =
            k == 0xFFFFFFFFu ? 0x7FC00000u : ((k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k);
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};

}  // namespace bench
