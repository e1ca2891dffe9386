// The kernels of isa_kernels.hpp built for AVX2 (this file alone is compiled with -mavx2).
#include "cpu/lanes_avx2.hpp"
#include "cpu/frame_network_kernel.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/key_convert.hpp"
#include "cpu/median3d_network_kernel.hpp"
#include "cpu/network_kernel.hpp"

namespace fastmedian::detail {

template <class K>
void network_median_avx2(const KeyBlock<K>& block, const Footprint& fp, K* scratch) {
    network_median<Avx2Lanes<K>>(block, fp, scratch);
}

template void network_median_avx2(const KeyBlock<std::uint8_t>&, const Footprint&, std::uint8_t*);
template void network_median_avx2(const KeyBlock<std::uint16_t>&, const Footprint&, std::uint16_t*);
template void network_median_avx2(const KeyBlock<std::uint32_t>&, const Footprint&, std::uint32_t*);

template <class K>
void network3d_median_avx2(const VolumeKeyBlock<K>& block, const Footprint3D& fp) {
    network3d_median<Avx2Lanes<K>>(block, fp);
}

template void network3d_median_avx2(const VolumeKeyBlock<std::uint8_t>&, const Footprint3D&);
template void network3d_median_avx2(const VolumeKeyBlock<std::uint16_t>&, const Footprint3D&);
template void network3d_median_avx2(const VolumeKeyBlock<std::uint32_t>&, const Footprint3D&);

template <class K>
void frame_network_avx2(const K* const* rows, int n, std::int64_t width, K* out) {
    frame_network<Avx2Lanes<K>>(rows, n, width, out);
}

template void frame_network_avx2(const std::uint8_t* const*, int, std::int64_t, std::uint8_t*);
template void frame_network_avx2(const std::uint16_t* const*, int, std::int64_t, std::uint16_t*);
template void frame_network_avx2(const std::uint32_t* const*, int, std::int64_t, std::uint32_t*);

void float_to_keys_avx2(const float* pixels, std::int64_t n, std::uint32_t* keys) {
    float_to_keys_loop(pixels, n, keys);
}

void keys_to_float_avx2(const std::uint32_t* keys, std::int64_t n, float* pixels) {
    keys_to_float_loop(keys, n, pixels);
}

}  // namespace fastmedian::detail
