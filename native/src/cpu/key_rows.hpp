// Rows of order keys written back as pixels, for the CPU medians' output rows.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cpu/isa_kernels.hpp"
#include "support/stream_copy.hpp"

namespace fastmedian::detail {

// Outputs of at least this many bytes are written with streaming stores: far larger than the
// caches, they would only push other lines out of them.
constexpr std::int64_t kStreamOutBytes = std::int64_t{8} << 20;

// Writes n keys as pixels of type T. With `stream`, past the caches (copy_rows_unfenced: the
// caller fences with stream_fence before another thread reads them), float keys being turned
// into pixels in place first, so the keys may be overwritten.
template <class T, class K>
void keys_to_pixels(K* keys, T* pixels, std::int64_t n, bool avx2, bool stream) {
    T* converted = pixels;
    if constexpr (!std::is_same_v<T, K>) {
        if (stream) converted = reinterpret_cast<T*>(keys);
        if (avx2) keys_to_float_avx2(keys, n, converted);
        else keys_to_float_portable(keys, n, converted);
        if (!stream) return;
    }
    const std::int64_t bytes = n * static_cast<std::int64_t>(sizeof(T));
    if (stream) copy_rows_unfenced(pixels, bytes, keys, bytes, bytes, 1);
    else std::memcpy(pixels, keys, static_cast<std::size_t>(bytes));
}

}  // namespace fastmedian::detail
