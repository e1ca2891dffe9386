// The row kernels for any CPU (convolve_rows.hpp).
#include <cstdint>

#include "cpu/convolve_rows.hpp"
#include "cpu/convolve_rows_scalar.hpp"

namespace fastmedian::detail {

void correlate_rows_portable(const float* const* rows, int kh, const float* w, int kw,
                             std::int64_t width, float* out) {
    for (std::int64_t x = 0; x < width; ++x) out[x] = correlate_one(rows, kh, w, kw, x);
}

template <class T>
void column_pass_portable(const T* const* rows, int kh, const float* w, std::int64_t count,
                          float* out) {
    for (std::int64_t c = 0; c < count; ++c) out[c] = column_one(rows, kh, w, c);
}

template <class Out>
void store_convolved_portable(const float* v, std::int64_t n, Out* out) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = kernels::ConvolveStore<Out>::convert(v[i]);
}

template void column_pass_portable(const std::uint8_t* const*, int, const float*, std::int64_t, float*);
template void column_pass_portable(const std::uint16_t* const*, int, const float*, std::int64_t, float*);
template void column_pass_portable(const float* const*, int, const float*, std::int64_t, float*);
template void store_convolved_portable(const float*, std::int64_t, std::uint8_t*);
template void store_convolved_portable(const float*, std::int64_t, std::uint16_t*);
template void store_convolved_portable(const float*, std::int64_t, float*);

}  // namespace fastmedian::detail
