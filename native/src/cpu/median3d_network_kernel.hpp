// The 3D network kernel, written once for any lane type V (lanes_scalar.hpp, lanes_avx2.hpp):
// runs the window's tiled network (networks/generated/median3d_networks.hpp) with each vector lane
// on its own output column, so one run computes the tile's outputs for kLanes neighbouring
// columns. Internal linkage, as network_kernel.hpp: the AVX2 and scalar builds never mix.
#pragma once

#include <cstdint>

#include "cpu/key_block.hpp"
#include "cpu/lanes_min_max.hpp"
#include "networks/generated/median3d_networks.hpp"
#include "semantics/footprint3d.hpp"

namespace fastmedian::detail {
namespace {

template <class V, class Net, class K>
void network3d_block(const VolumeKeyBlock<K>& b) {
    constexpr int kRows = Net::kTileH + 2 * Net::kRadiusY;
    constexpr int kPlanes = Net::kTileD + 2 * Net::kRadiusZ;
    static_assert(Net::kTileW == 1, "lanes take neighbouring columns");
    const K* in[kPlanes][kRows];
    for (int p = 0; p < kPlanes; ++p)
        for (int r = 0; r < kRows; ++r) in[p][r] = b.in[p * kRows + r];
    for (std::int64_t x = 0; x < b.width; x += V::kLanes) {
        auto load = [&](int c, int r, int p) { return V::load(in[p][r] + x + c); };
        auto store = [&](int, int y, int z, V v) { v.store(b.out[z * Net::kTileH + y] + x); };
        Net::template run<LanesMinMax<V>>(load, store);
    }
}

template <class V, class K>
void network3d_median(const VolumeKeyBlock<K>& b, const Footprint3D& fp) {
    kernels::tiled3d::with_cpu_network(
        fp.radius_z, fp.radius_y, fp.half_width.data(), static_cast<int>(fp.half_width.size()),
        [&](auto net) { network3d_block<V, decltype(net)>(b); });
}

}  // namespace
}  // namespace fastmedian::detail
