// How a convolution's float sum becomes an output pixel: one definition for the CPU backends
// and the kernels, so every backend writes the same bits.
// - float outputs: the sum itself, any NaN written as the quiet NaN 0x7FC00000;
// - integer outputs: clamped to [0, max] (NaN becomes 0: fmax returns the number), then
//   rounded to nearest with halves away from zero.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "semantics/fm_hd.hpp"

namespace fastmedian::kernels {

constexpr std::uint32_t kConvolveQuietNan = 0x7FC00000u;

// v in [0, 2^24]: the nearest integer, halves up. v - trunc(v) is exact there.
FM_HD int round_half_up_nonnegative(float v) {
    const int t = static_cast<int>(v);  // truncates
    return t + (v - static_cast<float>(t) >= 0.5f ? 1 : 0);
}

template <class Out> struct ConvolveStore;

template <> struct ConvolveStore<float> {
    FM_HD static float convert(float v) {
        if (v != v) {
            float q;
#ifdef __CUDA_ARCH__
            q = __uint_as_float(kConvolveQuietNan);
#else
            std::memcpy(&q, &kConvolveQuietNan, sizeof q);
#endif
            return q;
        }
        return v;
    }
};

template <> struct ConvolveStore<std::uint8_t> {
    FM_HD static std::uint8_t convert(float v) {
        return static_cast<std::uint8_t>(round_half_up_nonnegative(fminf(fmaxf(v, 0.0f), 255.0f)));
    }
};

template <> struct ConvolveStore<std::uint16_t> {
    FM_HD static std::uint16_t convert(float v) {
        return static_cast<std::uint16_t>(
            round_half_up_nonnegative(fminf(fmaxf(v, 0.0f), 65535.0f)));
    }
};

}  // namespace fastmedian::kernels
