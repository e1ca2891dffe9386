// A median filter's output pixel from the median key and the input pixel (the temporal
// median's modes, the background's outputs): the median itself, or pixel - median + offset.
// Shared by the CUDA kernels and the CPU backend so both write the same bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/fm_hd.hpp"
#include "semantics/order_key.hpp"

namespace fastmedian::kernels {

// subtract: integer images add `integer` (the offset rounded to nearest, halves away from zero,
// clamped to +-2^24, far beyond any result's range); floats add `real`.
struct OutputMode {
    bool subtract = false;
    std::int32_t integer = 0;
    float real = 0.0f;
};

template <class T>
FM_HD T median_output(T pixel, std::uint32_t median_key, const OutputMode& o) {
    const T median = OrderKey<T>::from_key(median_key);
    if (!o.subtract) return median;
    if constexpr (sizeof(T) == 4) {
        // Two roundings in this order on every backend; no multiply, so nothing contracts.
        const float r = (pixel - median) + o.real;
        std::uint32_t bits;
        std::memcpy(&bits, &r, sizeof bits);
        if ((bits & 0x7FFFFFFFu) > 0x7F800000u) bits = kQuietNaNBits;
        float out;
        std::memcpy(&out, &bits, sizeof out);
        return out;
    } else {
        constexpr std::int32_t hi = sizeof(T) == 1 ? 0xFF : 0xFFFF;
        std::int32_t r = std::int32_t{pixel} - std::int32_t{median} + o.integer;
        r = r < 0 ? 0 : (r > hi ? hi : r);
        return static_cast<T>(r);
    }
}

}  // namespace fastmedian::kernels
