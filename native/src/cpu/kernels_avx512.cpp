// The 2D network median of isa_kernels.hpp built for AVX-512 (this file alone is compiled with
// -mavx512f -mavx512bw). Twice AVX2's lanes halve the instructions per pixel, which the small
// windows are bound by (the gain on the build machine:
// docs/notebook/tuning-figures-from-comments.md).
#include "cpu/lanes_avx512.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/network_kernel.hpp"

namespace fastmedian::detail {

template <class K>
void network_median_avx512(const KeyBlock<K>& block, const Footprint& fp, K* scratch) {
    network_median<Avx512Lanes<K>>(block, fp, scratch);
}

template void network_median_avx512(const KeyBlock<std::uint8_t>&, const Footprint&, std::uint8_t*);
template void network_median_avx512(const KeyBlock<std::uint16_t>&, const Footprint&, std::uint16_t*);
template void network_median_avx512(const KeyBlock<std::uint32_t>&, const Footprint&, std::uint32_t*);

}  // namespace fastmedian::detail
