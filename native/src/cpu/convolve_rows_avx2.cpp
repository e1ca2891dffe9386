// The row kernels for AVX2 with FMA (convolve_rows.hpp): compiled with -mavx2 -mfma, called
// only when the CPU has both. Four registers of eight outputs per step, then one register,
// then the scalar form; every output gets the same fmas in the same order in all three.
#include <immintrin.h>

#include <cstdint>

#include "cpu/convolve_rows.hpp"
#include "cpu/convolve_rows_scalar.hpp"

namespace fastmedian::detail {

namespace {

inline __m256 load8(const std::uint8_t* p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const std::uint16_t* p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
}
inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }

}  // namespace

void correlate_rows_avx2(const float* const* rows, int kh, const float* w, int kw,
                         std::int64_t width, float* out) {
    std::int64_t x = 0;
    for (; x + 32 <= width; x += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int m = 0; m < kh; ++m) {
            const float* r = rows[m] + x;
            const float* wm = w + m * kw;
            for (int n = 0; n < kw; ++n) {
                const __m256 wv = _mm256_broadcast_ss(wm + n);
                a0 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(r + n), a0);
                a1 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(r + n + 8), a1);
                a2 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(r + n + 16), a2);
                a3 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(r + n + 24), a3);
            }
        }
        _mm256_storeu_ps(out + x, a0);
        _mm256_storeu_ps(out + x + 8, a1);
        _mm256_storeu_ps(out + x + 16, a2);
        _mm256_storeu_ps(out + x + 24, a3);
    }
    for (; x + 8 <= width; x += 8) {
        __m256 a = _mm256_setzero_ps();
        for (int m = 0; m < kh; ++m)
            for (int n = 0; n < kw; ++n)
                a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + m * kw + n), _mm256_loadu_ps(rows[m] + x + n), a);
        _mm256_storeu_ps(out + x, a);
    }
    for (; x < width; ++x) out[x] = correlate_one(rows, kh, w, kw, x);
}

template <class T>
void column_pass_avx2(const T* const* rows, int kh, const float* w, std::int64_t count, float* out) {
    std::int64_t c = 0;
    for (; c + 32 <= count; c += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int m = 0; m < kh; ++m) {
            const __m256 wv = _mm256_broadcast_ss(w + m);
            const T* r = rows[m] + c;
            a0 = _mm256_fmadd_ps(wv, load8(r), a0);
            a1 = _mm256_fmadd_ps(wv, load8(r + 8), a1);
            a2 = _mm256_fmadd_ps(wv, load8(r + 16), a2);
            a3 = _mm256_fmadd_ps(wv, load8(r + 24), a3);
        }
        _mm256_storeu_ps(out + c, a0);
        _mm256_storeu_ps(out + c + 8, a1);
        _mm256_storeu_ps(out + c + 16, a2);
        _mm256_storeu_ps(out + c + 24, a3);
    }
    for (; c + 8 <= count; c += 8) {
        __m256 a = _mm256_setzero_ps();
        for (int m = 0; m < kh; ++m) a = _mm256_fmadd_ps(_mm256_broadcast_ss(w + m), load8(rows[m] + c), a);
        _mm256_storeu_ps(out + c, a);
    }
    for (; c < count; ++c) out[c] = column_one(rows, kh, w, c);
}

template <class Out>
void store_convolved_avx2(const float* v, std::int64_t n, Out* out) {
    std::int64_t i = 0;
    if constexpr (sizeof(Out) == 4) {
        const __m256 quiet = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(kernels::kConvolveQuietNan)));
        for (; i + 8 <= n; i += 8) {
            const __m256 x = _mm256_loadu_ps(v + i);
            _mm256_storeu_ps(reinterpret_cast<float*>(out) + i,
                             _mm256_blendv_ps(x, quiet, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
        }
    } else {
        const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
        const __m256 top = _mm256_set1_ps(sizeof(Out) == 1 ? 255.0f : 65535.0f);
        alignas(32) std::int32_t r[8];
        for (; i + 8 <= n; i += 8) {
            // max(x, 0) gives 0 for NaN (the second operand), as fmaxf does.
            const __m256 x = _mm256_min_ps(_mm256_max_ps(_mm256_loadu_ps(v + i), zero), top);
            const __m256i t = _mm256_cvttps_epi32(x);
            const __m256 up = _mm256_cmp_ps(_mm256_sub_ps(x, _mm256_cvtepi32_ps(t)), half, _CMP_GE_OQ);
            _mm256_store_si256(reinterpret_cast<__m256i*>(r),
                               _mm256_sub_epi32(t, _mm256_castps_si256(up)));
            for (int k = 0; k < 8; ++k) out[i + k] = static_cast<Out>(r[k]);
        }
    }
    for (; i < n; ++i) out[i] = kernels::ConvolveStore<Out>::convert(v[i]);
}

template void column_pass_avx2(const std::uint8_t* const*, int, const float*, std::int64_t, float*);
template void column_pass_avx2(const std::uint16_t* const*, int, const float*, std::int64_t, float*);
template void column_pass_avx2(const float* const*, int, const float*, std::int64_t, float*);
template void store_convolved_avx2(const float*, std::int64_t, std::uint8_t*);
template void store_convolved_avx2(const float*, std::int64_t, std::uint16_t*);
template void store_convolved_avx2(const float*, std::int64_t, float*);

}  // namespace fastmedian::detail
