// The kernels built twice, for AVX2 (kernels_avx2.cpp, compiled with -mavx2) and for any CPU
// (kernels_portable.cpp): small windows by generated selection networks vectorised across
// neighbouring pixels (squares 1..7, ImageJ circles up to radius 3), and the float <-> key
// conversions around every kernel.
#pragma once

#include <cstdint>

#include "core/footprint.hpp"
#include "cpu/key_block.hpp"

namespace fastmedian::detail {

// Whether a generated network serves this window.
bool has_network(const Footprint& fp);

// Keys of scratch space network_median_* needs for a block with this in_keys.
inline std::int64_t network_scratch_keys(std::int64_t in_keys) { return 16 * in_keys; }

// Filters the block; expects has_network(fp). `scratch` holds network_scratch_keys keys.
template <class K>
void network_median_portable(const KeyBlock<K>& block, const Footprint& fp, K* scratch);
template <class K>
void network_median_avx2(const KeyBlock<K>& block, const Footprint& fp, K* scratch);

// Floats to order keys (order_key.cuh) and back, n values.
void float_to_keys_portable(const float* pixels, std::int64_t n, std::uint32_t* keys);
void float_to_keys_avx2(const float* pixels, std::int64_t n, std::uint32_t* keys);
void keys_to_float_portable(const std::uint32_t* keys, std::int64_t n, float* pixels);
void keys_to_float_avx2(const std::uint32_t* keys, std::int64_t n, float* pixels);

}  // namespace fastmedian::detail
