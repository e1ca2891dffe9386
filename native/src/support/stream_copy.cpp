#include "support/stream_copy.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace fastmedian::detail {

namespace {

void copy_bytes(char* d, const char* s, std::size_t n) {
#if defined(__x86_64__)
    if (n >= 256) {
        const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
        std::memcpy(d, s, head);
        d += head;
        s += head;
        n -= head;
        const std::size_t body = n / 64 * 64;
        for (std::size_t i = 0; i < body; i += 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
            const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
        }
        std::memcpy(d + body, s + body, n - body);
        return;
    }
#endif
    std::memcpy(d, s, n);
}

}  // namespace

void copy_rows_unfenced(void* dst, std::int64_t dst_pitch, const void* src,
                        std::int64_t src_pitch, std::int64_t row_bytes, std::int64_t rows) {
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    if (dst_pitch == row_bytes && src_pitch == row_bytes) {
        copy_bytes(d, s, static_cast<std::size_t>(row_bytes * rows));
        return;
    }
    for (std::int64_t y = 0; y < rows; ++y)
        copy_bytes(d + y * dst_pitch, s + y * src_pitch, static_cast<std::size_t>(row_bytes));
}

void copy_rows(void* dst, std::int64_t dst_pitch, const void* src, std::int64_t src_pitch,
               std::int64_t row_bytes, std::int64_t rows) {
    copy_rows_unfenced(dst, dst_pitch, src, src_pitch, row_bytes, rows);
    stream_fence();
}

void stream_fence() {
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

}  // namespace fastmedian::detail
