// Keys of f32 pixels for the min/max networks of the tiled and streaming kernels: 32-bit keys
// ordered as signed integers, and 16-bit keys for planes of whole numbers 0..65535.
#pragma once

#include <cstdint>

#include "semantics/order_key.hpp"

namespace fastmedian::kernels {

// OrderKey's keys with the top bit flipped, ordered as signed integers (SignedLanes): a float
// in +0..+Inf is its own key.
struct SignedFloatKey {
    static constexpr std::uint32_t kPlainMax = 0x7F800000u;  // +Inf: bits up to it are keys
    // In three instructions from Ampere on: max.NaN makes every NaN the canonical 0x7FFFFFFF,
    // the largest key (Turing lacks it: a compare and a select); negative values flip their
    // magnitude bits.
    __device__ static std::uint32_t to_key(std::uint32_t bits) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        float canonical;
        asm("max.NaN.f32 %0, %1, 0fFF800000;" : "=f"(canonical) : "f"(__uint_as_float(bits)));
        const std::uint32_t c = __float_as_uint(canonical);
#else
        const std::uint32_t c = (bits & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : bits;
#endif
        return c ^ (static_cast<std::uint32_t>(static_cast<std::int32_t>(c) >> 31) & 0x7FFFFFFFu);
    }
    __device__ static std::uint32_t to_key(float v) { return to_key(__float_as_uint(v)); }
    // In three: the flip back, and a signed min that takes the NaN key to 0x7FC00000.
    __device__ static float from_key(std::uint32_t key) {
        const std::uint32_t bits =
            key ^ (static_cast<std::uint32_t>(static_cast<std::int32_t>(key) >> 31) & 0x7FFFFFFFu);
        return __int_as_float(min(static_cast<std::int32_t>(bits), static_cast<std::int32_t>(kQuietNaNBits)));
    }
    __device__ static std::uint32_t from_order_key(std::uint32_t key) { return key ^ 0x80000000u; }
};

// f32 planes whose values are whole numbers 0..65535 (8- and 16-bit images made 32-bit, as
// Fiji's "32-bit" does) can run the packed networks, two outputs per min/max as u16 does, with
// those numbers as 16-bit keys. v + 2^23 rounds v to a whole number w and, for |w| < 2^23, holds
// it as the bits 0x4B000000 + w: key() takes w as the key, and records in `inexact` the bits in
// which v and w differ (a fraction, -0, a denormal, NaN) and in `top` the largest key (past
// 0xFFFF for negatives, 65536 and up, infinities and NaN).
struct WholeFloatKey {
    static constexpr float kMagic = 8388608.0f;  // 2^23
    static constexpr std::uint32_t kMagicBits = 0x4B000000u;
    __device__ static std::uint32_t key(float v, std::uint32_t& inexact, std::uint32_t& top) {
        const float m = __fadd_rn(v, kMagic);
        const std::uint32_t k = __float_as_uint(m) - kMagicBits;
        inexact |= __float_as_uint(__fsub_rn(m, kMagic)) ^ __float_as_uint(v);
        top = max(top, k);
        return k;
    }
    __device__ static bool whole(std::uint32_t inexact, std::uint32_t top) { return inexact == 0 && top <= 0xFFFFu; }
    // The keys of a and b packed (a's in the low half), with `bad` nonzero after unless both
    // are whole numbers 0..65535: their sums' upper halves are then 0x4B00.
    __device__ static std::uint32_t packed(float a, float b, std::uint32_t& bad) {
        const float ma = __fadd_rn(a, kMagic), mb = __fadd_rn(b, kMagic);
        bad |= __float_as_uint(__fsub_rn(ma, kMagic)) ^ __float_as_uint(a);
        bad |= __float_as_uint(__fsub_rn(mb, kMagic)) ^ __float_as_uint(b);
        bad |= __byte_perm(__float_as_uint(ma), __float_as_uint(mb), 0x7632) ^ (kMagicBits | kMagicBits >> 16);
        return __byte_perm(__float_as_uint(ma), __float_as_uint(mb), 0x5410);
    }
    __device__ static float from_key(std::uint32_t key) { return __fsub_rn(__uint_as_float(kMagicBits | key), kMagic); }
};

}  // namespace fastmedian::kernels
