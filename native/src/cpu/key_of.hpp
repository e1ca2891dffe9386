// The order key type the CPU kernels use for a pixel type: u8 and u16 are their own keys,
// floats take 32-bit keys (semantics/order_key.hpp).
#pragma once

#include <cstdint>

namespace fastmedian::detail {

template <class T> struct KeyOf { using type = T; };
template <> struct KeyOf<float> { using type = std::uint32_t; };

}  // namespace fastmedian::detail
