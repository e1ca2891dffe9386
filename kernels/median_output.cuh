// The temporal median's output pixel from the median key and the frame's own value (mode
// median or subtract), shared by the CUDA kernels and the CPU backend so both write the same
// bits. The offset arrives already in the form the type uses (TemporalOffset).
#pragma once

#include <cstdint>
#include <cstring>

#include "fm_hd.cuh"
#include "order_key.cuh"

namespace fastmedian::kernels {

// mode subtract's offset: integer images add `integer` (the offset rounded to nearest and
// clamped to +-2^24, far beyond any result's range); floats add `real`.
struct TemporalOffset {
    bool subtract = false;
    std::int32_t integer = 0;
    float real = 0.0f;
};

template <class T>
FM_HD T temporal_output(T frame, std::uint32_t median_key, const TemporalOffset& o) {
    const T median = OrderKey<T>::from_key(median_key);
    if (!o.subtract) return median;
    if constexpr (sizeof(T) == 4) {
        // Two roundings in this order on every backend; no multiply, so nothing contracts.
        const float r = (frame - median) + o.real;
        std::uint32_t bits;
        std::memcpy(&bits, &r, sizeof bits);
        if ((bits & 0x7FFFFFFFu) > 0x7F800000u) bits = kQuietNaNBits;
        float out;
        std::memcpy(&out, &bits, sizeof out);
        return out;
    } else {
        constexpr std::int32_t hi = sizeof(T) == 1 ? 0xFF : 0xFFFF;
        std::int32_t r = std::int32_t{frame} - std::int32_t{median} + o.integer;
        r = r < 0 ? 0 : (r > hi ? hi : r);
        return static_cast<T>(r);
    }
}

}  // namespace fastmedian::kernels
