// The kernels of isa_kernels.hpp built for any CPU: networks one pixel at a time.
#include "cpu/lanes_scalar.hpp"
#include "cpu/frame_network_kernel.hpp"
#include "cpu/isa_kernels.hpp"
#include "cpu/key_convert.hpp"
#include "cpu/median3d_network_kernel.hpp"
#include "cpu/network_kernel.hpp"

namespace fastmedian::detail {

template <class K>
void network_median_portable(const KeyBlock<K>& block, const Footprint& fp, K* scratch) {
    network_median<ScalarLanes<K>>(block, fp, scratch);
}

template void network_median_portable(const KeyBlock<std::uint8_t>&, const Footprint&, std::uint8_t*);
template void network_median_portable(const KeyBlock<std::uint16_t>&, const Footprint&, std::uint16_t*);
template void network_median_portable(const KeyBlock<std::uint32_t>&, const Footprint&, std::uint32_t*);

template <class K>
void network3d_median_portable(const VolumeKeyBlock<K>& block, const Footprint3D& fp) {
    network3d_median<ScalarLanes<K>>(block, fp);
}

template void network3d_median_portable(const VolumeKeyBlock<std::uint8_t>&, const Footprint3D&);
template void network3d_median_portable(const VolumeKeyBlock<std::uint16_t>&, const Footprint3D&);
template void network3d_median_portable(const VolumeKeyBlock<std::uint32_t>&, const Footprint3D&);

template <class K>
void frame_network_portable(const K* const* rows, int n, std::int64_t width, K* out) {
    frame_network<ScalarLanes<K>>(rows, n, width, out);
}

template void frame_network_portable(const std::uint8_t* const*, int, std::int64_t, std::uint8_t*);
template void frame_network_portable(const std::uint16_t* const*, int, std::int64_t, std::uint16_t*);
template void frame_network_portable(const std::uint32_t* const*, int, std::int64_t, std::uint32_t*);

void float_to_keys_portable(const float* pixels, std::int64_t n, std::uint32_t* keys) {
    float_to_keys_loop(pixels, n, keys);
}

void keys_to_float_portable(const std::uint32_t* keys, std::int64_t n, float* pixels) {
    keys_to_float_loop(keys, n, pixels);
}

bool has_network(const Footprint& fp) {
    return with_any_network(fp, [](auto) {});
}

NetworkTile3D network3d_tile(const Footprint3D& fp) {
    NetworkTile3D tile;
    kernels::tiled3d::with_cpu_network(
        fp.radius_z, fp.radius_y, fp.half_width.data(), static_cast<int>(fp.half_width.size()),
        [&](auto net) { tile = {decltype(net)::kTileH, decltype(net)::kTileD}; });
    return tile;
}

}  // namespace fastmedian::detail
