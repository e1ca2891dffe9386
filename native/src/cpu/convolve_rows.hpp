// The convolution's row kernels, built twice: for AVX2 with FMA (convolve_rows_avx2.cpp,
// compiled with -mavx2 -mfma, eight outputs per register) and for any CPU
// (convolve_rows_portable.cpp, std::fma one output at a time). Both do, for every output, the
// same fused multiply-adds in the same order, so they give the same bits.
#pragma once

#include <cstdint>

namespace fastmedian::detail {

// Whether the AVX2/FMA build runs: built in, the CPU has AVX2 and FMA, and
// FASTMEDIAN_CPU_AVX2=0 does not turn it off.
bool use_fma_convolve();

// out[x] = sum over m < kh, then n < kw, of w[m * kw + n] * rows[m][x + n], for x < width;
// accumulated from 0 with one fma per term, in that order.
void correlate_rows_avx2(const float* const* rows, int kh, const float* w, int kw,
                         std::int64_t width, float* out);
void correlate_rows_portable(const float* const* rows, int kh, const float* w, int kw,
                             std::int64_t width, float* out);

// out[c] = sum over m < kh of w[m] * float(rows[m][c]), for c < count; from 0, one fma per term.
template <class T>
void column_pass_avx2(const T* const* rows, int kh, const float* w, std::int64_t count, float* out);
template <class T>
void column_pass_portable(const T* const* rows, int kh, const float* w, std::int64_t count,
                          float* out);

// out[i] = ConvolveStore<Out>::convert(v[i]) (semantics/convolve_output.hpp), for i < n.
template <class Out>
void store_convolved_avx2(const float* v, std::int64_t n, Out* out);
template <class Out>
void store_convolved_portable(const float* v, std::int64_t n, Out* out);

}  // namespace fastmedian::detail
