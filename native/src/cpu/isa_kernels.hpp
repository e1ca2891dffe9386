// The kernels built twice, for AVX2 (kernels_avx2.cpp, compiled with -mavx2) and for any CPU
// (kernels_portable.cpp), the 2D networks a third time for AVX-512 (kernels_avx512.cpp):
// small windows by generated selection networks vectorised across neighbouring pixels
// (squares 1 to 11, ImageJ circles up to radius 6), the same for 3D windows (boxes 3 and 5,
// ImageJ ellipsoids of radius 1 and 2), the temporal median of up to 10 frames, and the
// float <-> key conversions around every kernel.
#pragma once

#include <cstdint>

#include "cpu/key_block.hpp"
#include "semantics/footprint.hpp"
#include "semantics/footprint3d.hpp"

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
template <class K>
void network_median_avx512(const KeyBlock<K>& block, const Footprint& fp, K* scratch);

// The output rows (y) and planes (z) the 3D network serving this window computes per run;
// 0 x 0 if no network serves it.
struct NetworkTile3D {
    int rows = 0, planes = 0;
};
NetworkTile3D network3d_tile(const Footprint3D& fp);

// Filters the block; expects network3d_tile(fp) to be a tile.
template <class K>
void network3d_median_portable(const VolumeKeyBlock<K>& block, const Footprint3D& fp);
template <class K>
void network3d_median_avx2(const VolumeKeyBlock<K>& block, const Footprint3D& fp);

// Whether to run the AVX2 builds: built in, supported by this CPU, and not turned off with
// FASTMEDIAN_CPU_AVX2=0 (which tests use to check the portable kernels on AVX2 machines).
bool use_avx2_kernels();
// Whether to run the AVX-512 build of the 2D network median: built in, supported by this CPU
// (AVX-512F and BW), and neither it (FASTMEDIAN_CPU_AVX512=0, which tests use to check the AVX2
// kernels on AVX-512 machines) nor AVX2 turned off.
bool use_avx512_kernels();

// out[x] = the median (rank (n-1)/2) of rows[0][x] .. rows[n-1][x], for 1 <= n <= 10.
template <class K>
void frame_network_portable(const K* const* rows, int n, std::int64_t width, K* out);
template <class K>
void frame_network_avx2(const K* const* rows, int n, std::int64_t width, K* out);

// Floats to order keys (semantics/order_key.hpp) and back, n values.
void float_to_keys_portable(const float* pixels, std::int64_t n, std::uint32_t* keys);
void float_to_keys_avx2(const float* pixels, std::int64_t n, std::uint32_t* keys);
void keys_to_float_portable(const std::uint32_t* keys, std::int64_t n, float* pixels);
void keys_to_float_avx2(const std::uint32_t* keys, std::int64_t n, float* pixels);

}  // namespace fastmedian::detail
