// 256-bit lanes of unsigned keys (32 x u8, 16 x u16, 8 x u32) for the network kernel.
// Include only from translation units compiled with -mavx2.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "semantics/order_key.hpp"

namespace fastmedian::detail {

template <class K>
struct Avx2Lanes;

// stream() needs a 32-byte aligned address; stream_fence() orders the streamed stores before
// the stores that follow (another thread may read the rows next).
#define FM_AVX2_LANES(K, BITS)                                                              \
    template <>                                                                             \
    struct Avx2Lanes<K> {                                                                   \
        static constexpr int kLanes = 32 / sizeof(K);                                       \
        __m256i v;                                                                          \
        static Avx2Lanes load(const K* p) {                                                 \
            return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))};               \
        }                                                                                   \
        void store(K* p) const { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }  \
        void stream(K* p) const { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); } \
        static void stream_fence() { _mm_sfence(); }                                        \
        static Avx2Lanes min(Avx2Lanes a, Avx2Lanes b) { return {_mm256_min_epu##BITS(a.v, b.v)}; } \
        static Avx2Lanes max(Avx2Lanes a, Avx2Lanes b) { return {_mm256_max_epu##BITS(a.v, b.v)}; } \
    };

FM_AVX2_LANES(std::uint8_t, 8)
FM_AVX2_LANES(std::uint16_t, 16)
FM_AVX2_LANES(std::uint32_t, 32)

#undef FM_AVX2_LANES

// Keys back into pixels' bits, as key_to_float_bits (key_convert.hpp) does one at a time:
// u8 and u16 keys are the pixels; u32 keys are floats' order keys.
template <class K>
Avx2Lanes<K> pixel_bits(Avx2Lanes<K> keys) {
    return keys;
}
inline Avx2Lanes<std::uint32_t> pixel_bits(Avx2Lanes<std::uint32_t> keys) {
    const __m256i top = _mm256_srai_epi32(keys.v, 31);  // all ones where the key's top bit is set
    // Flip the sign bit of non-negative floats' keys, every bit of negative ones'.
    const __m256i flip = _mm256_or_si256(_mm256_andnot_si256(top, _mm256_set1_epi32(-1)),
                                         _mm256_set1_epi32(static_cast<int>(0x80000000u)));
    const __m256i bits = _mm256_xor_si256(keys.v, flip);
    const __m256i nan = _mm256_cmpeq_epi32(keys.v, _mm256_set1_epi32(static_cast<int>(kernels::kNaNKey)));
    return {_mm256_blendv_epi8(bits, _mm256_set1_epi32(static_cast<int>(kernels::kQuietNaNBits)), nan)};
}

}  // namespace fastmedian::detail
