// The network kernel, written once for any lane type V (lanes_scalar.hpp, lanes_avx2.hpp).
// Per output row it sorts every column of the window once (each sorted column serves all the
// outputs whose window contains it), then runs the window's selection network per vector of
// outputs. Everything here has internal linkage: the AVX2 and scalar builds each get their own
// copy, so the linker can never hand AVX2 code to the scalar path.
#pragma once

#include <cstdint>

#include "core/footprint.hpp"
#include "cpu/key_block.hpp"
#include "generated/median_column_networks.cuh"

namespace fastmedian::detail {
namespace {

// Sorted columns of height H live in scratch rows [column_base(H), column_base(H) + H):
// heights 1, 3, 5, 7 take rows 0, 1..3, 4..8, 9..15.
constexpr int column_base(int h) { return ((h - 1) / 2) * ((h - 1) / 2); }

template <class Net>
constexpr bool uses_height(int h) {
    for (int c = 0; c <= 2 * Net::kRadiusX; ++c)
        if (Net::kColumnHeight[c] == h) return true;
    return false;
}

// Sorts the centred columns of height H of the window whose rows are rows[0..2 * radius_y].
template <class V, class Net, int H, class K>
void sort_columns(const K* const* rows, std::int64_t stride, std::int64_t count, K* scratch) {
    if constexpr (uses_height<Net>(H)) {
        const K* const* first = rows + (Net::kRadiusY - H / 2);
        K* out = scratch + column_base(H) * stride;
        for (std::int64_t x = 0; x < count; x += V::kLanes) {
            V v[H];
            for (int i = 0; i < H; ++i) v[i] = V::load(first[i] + x);
            kernels::networks::SortColumn<H>::apply(v);
            for (int i = 0; i < H; ++i) v[i].store(out + i * stride + x);
        }
    }
}

template <class V, class Net, class K>
void network_block(const KeyBlock<K>& b, K* scratch) {
    const std::int64_t s = b.in_keys;
    const std::int64_t padded_width = b.width + 2 * Net::kRadiusX;
    for (int y = 0; y < b.rows; ++y) {
        const K* const* top = b.in + y;
        sort_columns<V, Net, 1>(top, s, padded_width, scratch);
        sort_columns<V, Net, 3>(top, s, padded_width, scratch);
        sort_columns<V, Net, 5>(top, s, padded_width, scratch);
        sort_columns<V, Net, 7>(top, s, padded_width, scratch);
        K* out = b.out + y * b.out_stride;
        for (std::int64_t x = 0; x < b.width; x += V::kLanes) {
            const K* at = scratch + x;
            auto in = [at, s](int c, int i) {
                return V::load(at + (column_base(Net::kColumnHeight[c]) + i) * s + c);
            };
            Net::template median<V>(in).store(out + x);
        }
    }
}

template <class V, class K>
void network_median(const KeyBlock<K>& b, const Footprint& fp, K* scratch) {
    kernels::networks::with_network(
        fp.half_width.data(), static_cast<int>(fp.half_width.size()),
        [&](auto net) { network_block<V, decltype(net)>(b, scratch); });
}

}  // namespace
}  // namespace fastmedian::detail
