// Float <-> order key conversions (the same mapping as semantics/order_key.hpp), written
// branch-free so that each ISA build vectorises them. Internal linkage, as network_kernel.hpp
// explains.
#pragma once

#include <cstdint>
#include <cstring>

#include "semantics/order_key.hpp"

namespace fastmedian::detail {
namespace {

void float_to_keys_loop(const float* pixels, std::int64_t n, std::uint32_t* keys) {
    for (std::int64_t i = 0; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, pixels + i, sizeof bits);
        const std::uint32_t flip = (bits & 0x80000000u) ? 0xFFFFFFFFu : 0x80000000u;
        const bool nan = (bits & 0x7FFFFFFFu) > 0x7F800000u;
        keys[i] = nan ? kernels::kNaNKey : bits ^ flip;
    }
}

// The float bits of an order key.
std::uint32_t key_to_float_bits(std::uint32_t key) {
    const std::uint32_t flip = (key & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu;
    return key == kernels::kNaNKey ? kernels::kQuietNaNBits : key ^ flip;
}

// pixels may be keys itself: each key is read before its pixel is written.
void keys_to_float_loop(const std::uint32_t* keys, std::int64_t n, float* pixels) {
    for (std::int64_t i = 0; i < n; ++i) {
        const std::uint32_t bits = key_to_float_bits(keys[i]);
        std::memcpy(pixels + i, &bits, sizeof bits);
    }
}

}  // namespace
}  // namespace fastmedian::detail
