// One output of each row kernel (convolve_rows.hpp), for the portable build and for the AVX2
// build's leftover pixels. Internal linkage: each build compiles its own copy with its flags.
#pragma once

#include <cmath>
#include <cstdint>

#include "semantics/convolve_output.hpp"

namespace fastmedian::detail {
namespace {

inline float correlate_one(const float* const* rows, int kh, const float* w, int kw, std::int64_t x) {
    float sum = 0.0f;
    for (int m = 0; m < kh; ++m)
        for (int n = 0; n < kw; ++n) sum = std::fma(w[m * kw + n], rows[m][x + n], sum);
    return sum;
}

template <class T>
inline float column_one(const T* const* rows, int kh, const float* w, std::int64_t c) {
    float sum = 0.0f;
    for (int m = 0; m < kh; ++m) sum = std::fma(w[m], static_cast<float>(rows[m][c]), sum);
    return sum;
}

}  // namespace
}  // namespace fastmedian::detail
