// Unsigned keys whose integer order is the median's order of pixel values, and back.
// Floats: -Inf < ... < -0 < +0 < ... < +Inf < NaN (every NaN); a NaN key maps back to the quiet
// NaN 0x7FC00000, so all backends write the same bits.
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/fm_hd.hpp"

namespace fastmedian::kernels {

constexpr std::uint32_t kNaNKey = 0xFFFFFFFFu;
constexpr std::uint32_t kQuietNaNBits = 0x7FC00000u;

FM_HD std::uint32_t float_bits_to_key(std::uint32_t bits) {
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return kNaNKey;
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

FM_HD std::uint32_t key_to_float_bits(std::uint32_t key) {
    if (key == kNaNKey) return kQuietNaNBits;
    return (key & 0x80000000u) ? (key & 0x7FFFFFFFu) : ~key;
}

template <class T> struct OrderKey;

template <> struct OrderKey<std::uint8_t> {
    static constexpr std::uint32_t kMaxKey = 0xFFu;
    FM_HD static std::uint32_t to_key(std::uint8_t v) { return v; }
    FM_HD static std::uint8_t from_key(std::uint32_t k) { return static_cast<std::uint8_t>(k); }
};

template <> struct OrderKey<std::uint16_t> {
    static constexpr std::uint32_t kMaxKey = 0xFFFFu;
    FM_HD static std::uint32_t to_key(std::uint16_t v) { return v; }
    FM_HD static std::uint16_t from_key(std::uint32_t k) { return static_cast<std::uint16_t>(k); }
};

template <> struct OrderKey<float> {
    static constexpr std::uint32_t kMaxKey = kNaNKey;
    FM_HD static std::uint32_t to_key(float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return float_bits_to_key(bits);
    }
    FM_HD static float from_key(std::uint32_t k) {
        std::uint32_t bits = key_to_float_bits(k);
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
};

}  // namespace fastmedian::kernels
