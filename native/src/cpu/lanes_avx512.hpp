// 512-bit lanes of unsigned keys (64 x u8, 32 x u16, 16 x u32) for the 2D network kernel, as
// lanes_avx2.hpp with twice the width. Include only from translation units compiled with
// -mavx512f -mavx512bw.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "semantics/order_key.hpp"

namespace fastmedian::detail {

template <class K>
struct Avx512Lanes;

// stream() needs a 64-byte aligned address; stream_fence() orders the streamed stores before
// the stores that follow (another thread may read the rows next).
#define FM_AVX512_LANES(K, BITS)                                                                 \
    template <>                                                                                  \
    struct Avx512Lanes<K> {                                                                      \
        static constexpr int kLanes = 64 / sizeof(K);                                            \
        __m512i v;                                                                               \
        static Avx512Lanes load(const K* p) { return {_mm512_loadu_si512(p)}; }                 \
        void store(K* p) const { _mm512_storeu_si512(p, v); }                                    \
        void stream(K* p) const { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }       \
        static void stream_fence() { _mm_sfence(); }                                             \
        static Avx512Lanes min(Avx512Lanes a, Avx512Lanes b) { return {_mm512_min_epu##BITS(a.v, b.v)}; } \
        static Avx512Lanes max(Avx512Lanes a, Avx512Lanes b) { return {_mm512_max_epu##BITS(a.v, b.v)}; } \
    };

FM_AVX512_LANES(std::uint8_t, 8)
FM_AVX512_LANES(std::uint16_t, 16)
FM_AVX512_LANES(std::uint32_t, 32)

#undef FM_AVX512_LANES

// Keys back into pixels' bits, as key_to_float_bits (key_convert.hpp) does one at a time:
// u8 and u16 keys are the pixels; u32 keys are floats' order keys.
template <class K>
Avx512Lanes<K> pixel_bits(Avx512Lanes<K> keys) {
    return keys;
}
inline Avx512Lanes<std::uint32_t> pixel_bits(Avx512Lanes<std::uint32_t> keys) {
    const __m512i top = _mm512_srai_epi32(keys.v, 31);  // all ones where the key's top bit is set
    // Flip the sign bit of non-negative floats' keys, every bit of negative ones'.
    const __m512i flip = _mm512_or_si512(_mm512_andnot_si512(top, _mm512_set1_epi32(-1)),
                                         _mm512_set1_epi32(static_cast<int>(0x80000000u)));
    const __m512i bits = _mm512_xor_si512(keys.v, flip);
    const __mmask16 nan = _mm512_cmpeq_epi32_mask(keys.v, _mm512_set1_epi32(static_cast<int>(kernels::kNaNKey)));
    return {_mm512_mask_blend_epi32(nan, bits, _mm512_set1_epi32(static_cast<int>(kernels::kQuietNaNBits)))};
}

}  // namespace fastmedian::detail
