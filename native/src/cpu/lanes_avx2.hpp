// 256-bit lanes of unsigned keys (32 x u8, 16 x u16, 8 x u32) for the network kernel.
// Include only from translation units compiled with -mavx2.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace fastmedian::detail {

template <class K>
struct Avx2Lanes;

#define FM_AVX2_LANES(K, BITS)                                                              \
    template <>                                                                             \
    struct Avx2Lanes<K> {                                                                   \
        static constexpr int kLanes = 32 / sizeof(K);                                       \
        __m256i v;                                                                          \
        static Avx2Lanes load(const K* p) {                                                 \
            return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))};               \
        }                                                                                   \
        void store(K* p) const { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }  \
        static Avx2Lanes min(Avx2Lanes a, Avx2Lanes b) { return {_mm256_min_epu##BITS(a.v, b.v)}; } \
        static Avx2Lanes max(Avx2Lanes a, Avx2Lanes b) { return {_mm256_max_epu##BITS(a.v, b.v)}; } \
    };

FM_AVX2_LANES(std::uint8_t, 8)
FM_AVX2_LANES(std::uint16_t, 16)
FM_AVX2_LANES(std::uint32_t, 32)

#undef FM_AVX2_LANES

}  // namespace fastmedian::detail
